//! The HPN parser: never panics; every position it accepts is written back by `write_hpn`
//! to a text that parses to the same position, and is usable: moves, routes, a game
//! from it, saved and loaded back.
#![no_main]

use halma_rules::{parse_hpn, write_hpn, Game};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(position) = parse_hpn(text) else { return };
    let written = write_hpn(&position);
    assert_eq!(parse_hpn(&written), Ok(position), "write_hpn wrote {written}");
    assert_eq!(write_hpn(&position), written);
    for seat in position.setup().seats() {
        assert!(position.pieces(*seat).count() <= position.setup().army_size(*seat));
    }
    let moves = position.legal_moves();
    for mv in moves.iter() {
        let route = position.route(mv).expect("a legal move without a route");
        assert_eq!(position.check_route(route.squares()), Ok(mv));
    }
    let mut game = Game::from_position(position);
    assert_eq!(game.perft(1), if game.is_over() { 0 } else { moves.count().max(1) });
    let json = game.to_json();
    assert_eq!(Game::from_json(&json).as_ref(), Ok(&game), "save of {written}: {json}");
    if let Some(mv) = game.legal_moves().iter().next() {
        game.play_move(mv).expect("a legal move refused");
        assert_eq!(Game::from_json(&game.to_json()).as_ref(), Ok(&game));
    }
});
