//! The move-notation parser (`c3-e5-g5`, `pass`): never panics, and what it accepts is
//! written back to the very same text. Accepted moves are then tried on a few positions:
//! a refused move leaves the game unchanged, an accepted one is the engine's own move.
#![no_main]

use halma_rules::{parse_move, Game, MoveText, Seat, Setup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(parsed) = parse_move(text) else { return };
    let written = match &parsed {
        MoveText::Pass => "pass".to_string(),
        MoveText::Route(squares) => squares.iter().map(ToString::to_string).collect::<Vec<_>>().join("-"),
    };
    assert_eq!(written, text, "parse_move accepted a text it does not write back");
    for (setup, first) in
        [(Setup::TwoPlayers, Seat::A), (Setup::ThreePlayers, Seat::C), (Setup::FourPlayersBothArmies, Seat::D)]
    {
        let mut game = Game::new(setup, first);
        let before = game.clone();
        match game.play_text(text) {
            Ok(()) => {
                assert_eq!(game.history().len(), 1);
                assert_eq!(game.history()[0].to_string(), text);
                if let MoveText::Route(squares) = &parsed {
                    let mv = before.position().check_route(squares).expect("played a route check_route refuses");
                    assert!(before.legal_moves().contains(mv));
                    assert_eq!(game.position(), &before.position().after(mv));
                }
            }
            Err(_) => assert_eq!(game, before, "a refused move changed the game"),
        }
    }
});
