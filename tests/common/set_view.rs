//! `set_view!(global, field = value, …)`: changes fields of a global's `view` struct (the
//! one property its adapter writes), as a test puts the window in a state the app reaches
//! only late or rarely.

macro_rules! set_view {
    ($global:expr, $($field:ident = $value:expr),+ $(,)?) => {{
        let global = &$global;
        let mut view = global.get_view();
        $(view.$field = $value;)+
        global.set_view(view);
    }};
}
