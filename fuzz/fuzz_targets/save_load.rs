//! The save-file loader (`Game::from_json`, what the app reads at start): never panics on
//! any bytes; a game it accepts saves back to a text that loads to the same game, and
//! that text is stable. The loaded game then takes undo, redo and a move without panic.
#![no_main]

use halma_rules::{DrawReason, Game, Outcome};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(game) = Game::from_json(text) else { return };
    let saved = game.to_json();
    let loaded = Game::from_json(&saved);
    assert_eq!(loaded.as_ref(), Ok(&game), "saved as {saved}");
    assert_eq!(loaded.map(|g| g.to_json()).as_deref(), Ok(saved.as_str()));

    // Undo then redo gives back the same game (offers and votes aside: undo withdraws them).
    let votes = game.pending_offer().is_some() || game.outcome() == Outcome::Draw(DrawReason::Agreement);
    if !game.history().is_empty() && !votes {
        let mut copy = game.clone();
        assert!(copy.undo());
        assert!(copy.redo(), "redo refused the action undo took back");
        assert_eq!(copy.history(), game.history());
        assert_eq!(copy.position(), game.position());
        if game.can_offer_draw() {
            assert_eq!(copy, game);
        }
    }
    // A move after loading (not while a draw offer waits for its votes: moves wait too).
    let mut copy = game.clone();
    copy.play_forced_passes();
    if let (Some(mv), None) = (copy.legal_moves().iter().next(), copy.pending_offer()) {
        assert!(copy.play_move(mv).is_ok());
        assert_eq!(Game::from_json(&copy.to_json()).as_ref(), Ok(&copy));
    }
});
