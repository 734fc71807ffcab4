//! Text notation (docs/RULES.md, "Text notation"): squares, moves and HPN positions, both
//! ways, and clear errors for malformed text.

use halma_test_support as common;

use common::reference::RefPosition;
use halma_rules::{parse_hpn, parse_move, write_hpn, Action, Game, MoveText, Position, Route, Seat, Setup, Square};

const START_2P: &str = "11CCCCC/11CCCCC/12CCCC/13CCC/14CC/16/16/16/16/16/16/AA14/AAA13/AAAA12/AAAAA11/AAAAA11 A 2p 0";

#[test]
fn squares_are_named_a1_to_p16_by_row_major_index() {
    for square in Square::all() {
        let name = square.to_string();
        assert_eq!(name.parse::<Square>(), Ok(square));
        let expected = format!("{}{}", (b'a' + (square.index() % 16) as u8) as char, square.index() / 16 + 1);
        assert_eq!(name, expected);
    }
    for bad in ["", "a", "a0", "a17", "q1", "A1", "a01", "a1x", "1a", "é1", "a+1", " a1", "a1 ", "aa1", "p-1"] {
        let error = bad.parse::<Square>().map_err(|e| e.to_string());
        assert!(error.as_ref().is_err_and(|e| e.starts_with("bad square")), "{bad:?}: {error:?}");
    }
}

#[test]
fn moves_are_routes_joined_by_dashes_or_pass() {
    assert_eq!(parse_move("pass"), Ok(MoveText::Pass));
    let squares = |text: &str| text.split('-').map(common::sq).collect::<Vec<_>>();
    assert_eq!(parse_move("c3-d4"), Ok(MoveText::Route(squares("c3-d4"))));
    assert_eq!(parse_move("c3-e5-g5"), Ok(MoveText::Route(squares("c3-e5-g5"))));
    assert_eq!(parse_move("p16-n14"), Ok(MoveText::Route(squares("p16-n14"))));
    for text in ["c3-d4", "c3-e5-g5", "a1-p16"] {
        assert_eq!(Route::new(squares(text)).to_string(), text);
        assert_eq!(Action::Move(Route::new(squares(text))).to_string(), text);
    }
    assert_eq!(Action::Pass.to_string(), "pass");
    let long = vec!["a1"; 200].join("-");
    for bad in ["", "c3", "c3-", "-c3", "c3--d4", "c3-z9", "PASS", "Pass", "c3 d4", "c3_d4", "pass-c3", long.as_str()] {
        let error = parse_move(bad).map_err(|e| e.to_string());
        assert!(error.as_ref().is_err_and(|e| e.starts_with("bad move")), "{bad:?}: {error:?}");
    }
}

#[test]
fn start_positions_are_written_and_read_back() {
    assert_eq!(write_hpn(&Position::start(Setup::TwoPlayers, Seat::A)), START_2P);
    assert_eq!(
        write_hpn(&Position::start(Setup::ThreePlayers, Seat::B)),
        "BBBB7CCCCC/BBBB7CCCCC/BBB9CCCC/BB11CCC/14CC/16/16/16/16/16/16/AA14/AAA13/AAAA12/AAAAA11/AAAAA11 B 3p 0"
    );
    assert_eq!(
        write_hpn(&Position::start(Setup::FourPlayersOneArmy, Seat::D)),
        "BBBB8CCCC/BBBB8CCCC/BBB10CCC/BB12CC/16/16/16/16/16/16/16/16/AA12DD/AAA10DDD/AAAA8DDDD/AAAA8DDDD D 4p-one 0"
    );
    for setup in Setup::ALL {
        for &first in setup.seats() {
            let position = Position::start(setup, first);
            let text = write_hpn(&position);
            assert_eq!(parse_hpn(&text), Ok(position));
            let reference = RefPosition::start(common::ref_setup(setup), first.letter());
            assert_eq!(text, reference.to_hpn());
        }
    }
}

#[test]
fn an_hpn_position_carries_pieces_seat_to_move_setup_and_plies() {
    let text = "B15/16/16/16/16/16/16/7C8/16/16/16/16/16/2A13/16/A15 C 3p 57";
    let position = parse_hpn(text).expect("valid HPN");
    assert_eq!(position.piece_at(common::sq("a1")), Some(Seat::A));
    assert_eq!(position.piece_at(common::sq("c3")), Some(Seat::A));
    assert_eq!(position.piece_at(common::sq("h9")), Some(Seat::C));
    assert_eq!(position.piece_at(common::sq("a16")), Some(Seat::B));
    assert_eq!(position.occupied().count(), 4);
    assert_eq!(position.to_move(), Seat::C);
    assert_eq!(position.setup(), Setup::ThreePlayers);
    assert_eq!(position.plies(), 57);
    // 57 plies (19 rounds of 3) and C to move again: C moved first.
    assert_eq!(position.first_seat(), Seat::C);
    assert_eq!(position.turns_taken(Seat::B), 19);
    assert_eq!(position.turns_taken(Seat::A), 19);
    assert_eq!(position.turns_taken(Seat::C), 19);
    assert_eq!(write_hpn(&position), text);
    // A game played from an HPN prints the position after its moves.
    let mut game = Game::from_position(position);
    assert_eq!(game.play_text("h9-h10"), Ok(()));
    assert_eq!(write_hpn(game.position()), "B15/16/16/16/16/16/7C8/16/16/16/16/16/16/2A13/16/A15 A 3p 58");
}

#[test]
fn malformed_hpn_is_refused_with_a_reason() {
    let rows = START_2P.split(' ').next().unwrap_or_default();
    let cases = [
        (format!("{rows} A 2p"), "fields"),
        (format!("{rows} A 2p 0 extra"), "fields"),
        (String::new(), "fields"),
        (format!("{rows} B 2p 0"), "does not play"),
        (format!("{rows} E 2p 0"), "seat"),
        (format!("{rows} a 2p 0"), "seat"),
        (format!("{rows} A 5p 0"), "setup"),
        (format!("{rows} A 2p -1"), "ply"),
        (format!("{rows} A 2p +1"), "ply"),
        (format!("{rows} A 2p 1.5"), "ply"),
        (format!("{rows} A 2p 99999999999"), "ply"),
        (format!("{rows}/16 A 2p 0"), "rows"),
        (format!("{} A 2p 0", rows.replacen("16/", "", 1)), "rows"),
        (format!("{} A 2p 0", rows.replacen("14CC", "15CC", 1)), "longer"),
        (format!("{} A 2p 0", rows.replacen("14CC", "13CC", 1)), "15 squares"),
        (format!("{} A 2p 0", rows.replacen("14CC", "14cc", 1)), "unexpected"),
        (format!("{} A 2p 0", rows.replacen("14CC", "14BB", 1)), "does not play"),
        (format!("{} A 2p 0", rows.replacen("/16/16/", "/16/8A7/", 1)), "pieces"),
        (format!("{} A 2p 0", rows.replacen("/16/", "/016/", 1)), "malformed"),
        (format!("{} A 2p 0", rows.replacen("/16/", "/0A15/", 1)), "malformed"),
        (format!("{} A 2p 0", rows.replacen("/16/", "/88/", 1)), "longer"),
        (format!("{} A 2p 0", rows.replacen("/16/", "/1.15/", 1)), "unexpected"),
        ("16/16/16/16/16/16/16/16/16/16/16/16/16/16/BBBBBBBBBBBBBB2/16 A 3p 0".to_string(), "pieces"),
    ];
    for (text, reason) in cases {
        let error = parse_hpn(&text).map_err(|e| e.to_string());
        assert!(
            error.as_ref().is_err_and(|e| e.starts_with("bad HPN") && e.contains(reason)),
            "{text:?}: expected an error about {reason:?}, got {error:?}"
        );
    }
}

#[test]
fn positions_of_played_games_round_trip() {
    let mut game = Game::new(Setup::FourPlayersBothArmies, Seat::C);
    for mv in ["n14-m13", "m1-l2", "d1-e2", "d16-e15", "o13-n12"] {
        assert_eq!(game.play_text(mv), Ok(()));
        let text = write_hpn(game.position());
        assert_eq!(parse_hpn(&text).map(|p| write_hpn(&p)), Ok(text.clone()));
        assert_eq!(RefPosition::from_hpn(&text).to_hpn(), text);
    }
    assert_eq!(
        write_hpn(game.position()),
        "BBB9CCCC/BBBBB7CCCC/BBB11CC/BB10C2C/13C2/16/16/16/16/16/16/16/AA12DD/AAA10DDD/AAAAA6DDDDD/AAA10DDD D 4p-both 5"
    );
}
