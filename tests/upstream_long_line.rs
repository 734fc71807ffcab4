//! The Slint bug behind #49's crash, reproduced on its own (docs/upstream/): with the software
//! renderer, selecting all of a text input whose one line is wider than 32,767 physical
//! pixels panics while drawing. The app's dialogs avoid it (they wrap and cut what they
//! show); this test fails once a Slint release no longer panics, and the workaround's
//! comment in ui/receive-dialog.slint can then be revisited.

use i_slint_backend_testing::{TestingBackend, TestingBackendOptions};
use slint::platform::{Key, WindowEvent};
use slint::ComponentHandle;

slint::slint! {
    export component Repro inherits Window {
        in property <string> line;
        width: 400px;
        height: 120px;
        field := TextInput {
            single-line: true;
            font-size: 12px;
            text: root.line;
        }
        init => { field.focus(); }
    }
}

fn select_all_and_draw(window: &Repro) -> bool {
    let w = window.window();
    for (pressed, key) in [(true, Key::Control), (true, Key::End), (false, Key::End), (false, Key::Control)] {
        let text: slint::SharedString = key.into();
        w.dispatch_event(if pressed { WindowEvent::KeyPressed { text } } else { WindowEvent::KeyReleased { text } });
    }
    w.dispatch_event(WindowEvent::KeyPressed { text: Key::Control.into() });
    w.dispatch_event(WindowEvent::KeyPressed { text: "a".into() });
    w.dispatch_event(WindowEvent::KeyReleased { text: "a".into() });
    w.dispatch_event(WindowEvent::KeyReleased { text: Key::Control.into() });
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| w.take_snapshot().map(|_| ()))).is_err()
}

#[test]
fn slint_panics_on_a_selection_wider_than_32767_pixels() {
    let options = TestingBackendOptions { mock_time: true, threading: true, renderer_name: Some("software".into()) };
    slint::platform::set_platform(Box::new(TestingBackend::new(options))).expect("the platform");
    let short = Repro::new().expect("a window");
    short.set_line("0123456789abcdef".repeat(200).into());
    short.show().expect("shown");
    assert!(!select_all_and_draw(&short), "3,200 characters (about 23,000 px) are drawn");
    short.hide().expect("hidden");
    let long = Repro::new().expect("a window");
    long.set_line("0123456789abcdef".repeat(400).into());
    long.show().expect("shown");
    assert!(select_all_and_draw(&long), "6,400 characters (about 46,000 px) panic: is Slint fixed?");
}
