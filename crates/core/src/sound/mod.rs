//! Sound and touch feedback: the cues the actions give (a step, each hop of a chain as it
//! is shown, a piece arriving in its target camp, a refused tap, Confirm, the end of the
//! game), the sounds the project synthesises for them (`synth`), and where they go.
//!
//! The actions only decide the cues (pure, tested without a device); the controller hands
//! them to a [`Feedback`] sink after each event. The app's sink (`halma::app::sound_player::Device`,
//! in the interface crate) plays them on a background thread; tests and tools keep the silent
//! default.

pub mod synth;

use halma_rules::Outcome;

/// Something worth hearing or feeling, decided by an action or the move's animation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cue {
    /// A move of one step, as the piece lands.
    Step,
    /// A jump of a chain as the piece lands; the number is the jump's place in the chain
    /// (0 first), so that a long chain climbs in pitch.
    Hop(u8),
    /// A piece arrived in its target camp (from outside it).
    ArriveInCamp,
    /// A tap, a key or a button that the game refused.
    Refused,
    /// The player's move was played (Confirm, or Enter on the preview's end).
    Confirm,
    /// The game ended with a winner.
    Win,
    /// The game ended in a draw.
    Draw,
}

/// The haptic feedback a cue gives on Android.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Haptic {
    /// A light tick: each step or jump as a move plays.
    Tick,
    /// The move was played.
    Confirm,
    /// The tap was refused.
    Reject,
}

impl Cue {
    /// True when the cue has a sound (Confirm is felt, not heard: the move's own steps
    /// are heard a moment later).
    pub fn sounds(self) -> bool {
        self != Cue::Confirm
    }

    /// What the cue gives to feel, if anything.
    pub fn haptic(self) -> Option<Haptic> {
        match self {
            Cue::Step | Cue::Hop(_) => Some(Haptic::Tick),
            Cue::Confirm => Some(Haptic::Confirm),
            Cue::Refused => Some(Haptic::Reject),
            Cue::ArriveInCamp | Cue::Win | Cue::Draw => None,
        }
    }

    /// The cue of a game that ended so (`None` while it goes on).
    pub fn of_ending(outcome: Outcome) -> Option<Cue> {
        match outcome {
            Outcome::Ongoing => None,
            Outcome::Win(_) => Some(Cue::Win),
            Outcome::Draw(_) => Some(Cue::Draw),
        }
    }
}

/// Where the cues go. The app's sink plays and vibrates; the default one does nothing.
pub trait Feedback {
    /// Plays the cue's sound (the player's Sound setting is on).
    fn sound(&mut self, cue: Cue);
    /// Gives the haptic feedback (the player's Vibration setting is on).
    fn haptic(&mut self, haptic: Haptic);
}

/// The sink of tests and tools: nothing is heard or felt.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Feedback for Silent {
    fn sound(&mut self, _cue: Cue) {}
    fn haptic(&mut self, _haptic: Haptic) {}
}

/// Hands `cues` to `sink` as the player's settings allow: sounds when `sound` is on,
/// haptics when `vibration` is on.
pub fn deliver(cues: &[Cue], sound: bool, vibration: bool, sink: &mut dyn Feedback) {
    for &cue in cues {
        if sound && cue.sounds() {
            sink.sound(cue);
        }
        if let Some(haptic) = cue.haptic().filter(|_| vibration) {
            sink.haptic(haptic);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Recorded {
        sounds: Vec<Cue>,
        haptics: Vec<Haptic>,
    }

    impl Feedback for Recorded {
        fn sound(&mut self, cue: Cue) {
            self.sounds.push(cue);
        }
        fn haptic(&mut self, haptic: Haptic) {
            self.haptics.push(haptic);
        }
    }

    const MOVE: [Cue; 4] = [Cue::Confirm, Cue::Hop(0), Cue::Hop(1), Cue::ArriveInCamp];

    #[test]
    fn the_settings_decide_what_is_heard_and_felt() {
        let mut both = Recorded::default();
        deliver(&MOVE, true, true, &mut both);
        assert_eq!(both.sounds, [Cue::Hop(0), Cue::Hop(1), Cue::ArriveInCamp]);
        assert_eq!(both.haptics, [Haptic::Confirm, Haptic::Tick, Haptic::Tick]);

        let mut quiet = Recorded::default();
        deliver(&MOVE, false, true, &mut quiet);
        assert!(quiet.sounds.is_empty());
        assert_eq!(quiet.haptics.len(), 3);

        let mut still = Recorded::default();
        deliver(&[Cue::Refused, Cue::Win], true, false, &mut still);
        assert_eq!(still.sounds, [Cue::Refused, Cue::Win]);
        assert!(still.haptics.is_empty());
    }

    #[test]
    fn a_refused_tap_is_rejected_and_the_end_is_heard_only() {
        assert_eq!(Cue::Refused.haptic(), Some(Haptic::Reject));
        assert_eq!(Cue::Step.haptic(), Some(Haptic::Tick));
        assert_eq!(Cue::Draw.haptic(), None);
        assert!(!Cue::Confirm.sounds());
        assert_eq!(Cue::of_ending(Outcome::Ongoing), None);
        let drawn = Outcome::Draw(halma_rules::DrawReason::Agreement);
        assert_eq!(Cue::of_ending(drawn), Some(Cue::Draw));
    }
}
