//! What an action asks of the world beyond the state: the closed set of things the
//! controller's dispatch carries out after the action, in one fixed order, once each.

use crate::sound::Cue;

/// When the session and settings are written to disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Save {
    /// Nothing to save.
    #[default]
    No,
    /// A change of the selection, the preview or the view: saved once the taps stop.
    Soon,
    /// A change of the game or the settings: saved at once.
    Now,
}

/// How much of the window is drawn again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Redraw {
    /// Nothing changed that the window shows (or the window already shows it).
    #[default]
    Nothing,
    /// The board's zoom and offset only.
    View,
    /// The whole state (only what changed reaches Slint).
    All,
}

/// The record of Copy game, for the clipboard and (on the desktop) a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    pub text: String,
    /// The file name in the records folder, where the record is also saved.
    pub file_name: Option<String>,
}

/// What an action asks for. The seat to move is decided by `update`'s tail after every
/// action (`start_seat`), and a stale analysis dropped by the dispatch: no action can
/// forget either.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Effects {
    pub save: Save,
    pub redraw: Redraw,
    /// Stops the seat's or the hint's search: the game changes under it.
    pub stop_search: bool,
    /// Shows `AppState::animation` hop by hop.
    pub animate: bool,
    /// Starts the hint's search for the person to move.
    pub start_hint: bool,
    /// Starts the game's analysis in the background.
    pub start_analysis: bool,
    /// Stops the running analysis; nothing of it is kept.
    pub stop_analysis: bool,
    /// Shows the interface in `AppState::language` (a new catalogue).
    pub language: bool,
    /// Copy game's record.
    pub copy: Option<Copy>,
    /// Send of a game by message: the message for the clipboard (the share sheet on
    /// Android) and, on the desktop, a file.
    pub share: Option<Copy>,
    /// Back found nothing left to go back to: the system may close the app.
    pub let_system_close: bool,
    /// What to hear and feel (`app::sound`), in order; the player's settings decide.
    pub cues: Vec<Cue>,
    /// Measures in the background what the Train page's wrong answer gives away.
    pub measure_loss: bool,
    /// What the network game's link is to do, in order.
    pub lan: Vec<super::nearby::LanCommand>,
    /// Starts this driver for the seat to move (no person plays it).
    pub start_seat: Option<crate::players::Driven>,
}

impl Effects {
    /// Nothing at all: the action changed nothing.
    pub fn none() -> Effects {
        Effects::default()
    }

    /// The state changed for the window only.
    pub fn redraw() -> Effects {
        Effects { redraw: Redraw::All, ..Effects::default() }
    }

    /// The game or the settings changed: saved at once, and drawn.
    pub fn saved() -> Effects {
        Effects { save: Save::Now, ..Effects::redraw() }
    }

    /// The selection, the preview or the view changed: drawn, and saved soon.
    pub fn saved_soon() -> Effects {
        Effects { save: Save::Soon, ..Effects::redraw() }
    }

    /// These effects, and those of `other` (the later's save and redraw win when larger).
    pub fn and(self, other: Effects) -> Effects {
        Effects {
            save: self.save.max(other.save),
            redraw: self.redraw.max(other.redraw),
            stop_search: self.stop_search || other.stop_search,
            animate: self.animate || other.animate,
            start_hint: self.start_hint || other.start_hint,
            start_analysis: self.start_analysis || other.start_analysis,
            stop_analysis: self.stop_analysis || other.stop_analysis,
            language: self.language || other.language,
            copy: other.copy.or(self.copy),
            share: other.share.or(self.share),
            let_system_close: self.let_system_close || other.let_system_close,
            cues: self.cues.into_iter().chain(other.cues).collect(),
            measure_loss: self.measure_loss || other.measure_loss,
            lan: self.lan.into_iter().chain(other.lan).collect(),
            start_seat: other.start_seat.or(self.start_seat),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combined_effects_keep_the_strongest_save_and_redraw() {
        let both = Effects::saved_soon().and(Effects { stop_search: true, ..Effects::saved() });
        assert_eq!((both.save, both.redraw, both.stop_search), (Save::Now, Redraw::All, true));
        let view = Effects { redraw: Redraw::View, ..Effects::none() }.and(Effects::none());
        assert_eq!((view.save, view.redraw), (Save::No, Redraw::View));
    }
}
