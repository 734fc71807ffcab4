//! The home-leaving duty (docs/RULES.md, "The home-leaving duty"): from a seat's 31st own turn, with own
//! pieces at home and a legal move carrying one out, only such moves are legal.

use halma_test_support as common;

use common::reference::{RefPosition, RefSetup};
use common::{game_with, move_names, move_set};
use halma_rules::{GameError, IllegalMove, Seat};
use std::collections::BTreeSet;

/// The legal moves as `from-to` names, checked against the reference model.
fn legal(setup: RefSetup, to_move: char, plies: u32, pieces: &[(char, &str)]) -> Vec<String> {
    let game = game_with(setup, to_move, plies, pieces);
    let reference = RefPosition::from_pieces(setup, to_move, plies, pieces);
    let moves = move_set(&game.legal_moves());
    assert_eq!(moves, reference.legal_moves(), "reference disagrees on {}", reference.to_hpn());
    assert_eq!(game.position().duty_applies(), reference.duty_applies());
    move_names(&moves)
}

fn names(list: &str) -> Vec<String> {
    let set: BTreeSet<String> = list.split_whitespace().map(str::to_string).collect();
    let mut sorted: Vec<String> = set.into_iter().collect();
    // Sort like move_names: by (from, to) as (column, row) pairs.
    sorted.sort_by_key(|m| {
        let (from, to) = m.split_once('-').unwrap_or((m, m));
        (common::reference::sq(from), common::reference::sq(to))
    });
    sorted
}

/// A: e1 at home (steps out to f1, f2), h8 outside. C: p16.
const E1_H8: [(char, &str); 2] = [('A', "e1 h8"), ('C', "p16")];

#[test]
fn the_duty_starts_with_the_31st_own_turn() {
    let all = names("e1-d1 e1-f1 e1-d2 e1-e2 e1-f2 h8-g7 h8-h7 h8-i7 h8-g8 h8-i8 h8-g9 h8-h9 h8-i9");
    let duty = names("e1-f1 e1-f2");
    // A moved first: after 58 plies A has taken 29 turns, after 60 plies 30.
    assert_eq!(legal(RefSetup::TwoPlayers, 'A', 58, &E1_H8), all);
    assert_eq!(legal(RefSetup::TwoPlayers, 'A', 60, &E1_H8), duty);
    // C moved first: after 59 plies A has taken 29 turns, after 61 plies 30.
    assert_eq!(legal(RefSetup::TwoPlayers, 'A', 59, &E1_H8), all);
    assert_eq!(legal(RefSetup::TwoPlayers, 'A', 61, &E1_H8), duty);
    let game = game_with(RefSetup::TwoPlayers, 'A', 60, &E1_H8);
    assert_eq!(game.position().turns_taken(Seat::A), 30);
    assert_eq!(game.position().turns_taken(Seat::C), 30);
    assert!(game.position().duty_applies());
}

#[test]
fn the_duty_counts_turns_played_in_the_game() {
    let mut game = game_with(RefSetup::TwoPlayers, 'A', 58, &E1_H8);
    assert!(!game.position().duty_applies());
    assert_eq!(game.play_text("h8-h9"), Ok(()));
    assert_eq!(game.play_text("p16-o16"), Ok(()));
    assert!(game.position().duty_applies());
    let before = game.clone();
    assert_eq!(game.play_text("h9-h10"), Err(GameError::Illegal(IllegalMove::HomeLeavingDuty)));
    assert_eq!(game.play_text("e1-e2"), Err(GameError::Illegal(IllegalMove::HomeLeavingDuty)));
    assert_eq!(game, before, "a refused move changes nothing");
    assert_eq!(game.play_text("e1-f1"), Ok(()));
    // C's 31st turn: its piece on o16 is at home but cannot leave in one move, so any
    // move is allowed.
    assert!(!game.position().duty_applies());
    assert_eq!(game.legal_moves().count(), 5);
}

#[test]
fn with_no_move_out_of_home_any_move_is_allowed() {
    // a1 can only step to a2, b1, b2: all in the home camp.
    let pieces = [('A', "a1 h8"), ('C', "p16")];
    let expected = names("a1-b1 a1-a2 a1-b2 h8-g7 h8-h7 h8-i7 h8-g8 h8-i8 h8-g9 h8-h9 h8-i9");
    assert_eq!(legal(RefSetup::TwoPlayers, 'A', 60, &pieces), expected);
    let game = game_with(RefSetup::TwoPlayers, 'A', 60, &pieces);
    assert!(!game.position().duty_applies());
}

#[test]
fn pieces_may_step_out_or_jump_out_but_must_end_outside() {
    // c3 leaves only by jumping (e5, c5, e3; a5 and a3 stay home); b4 steps out to c5;
    // e1 steps out to f1, f2; p9 is outside already and may not move.
    let pieces = [('A', "c3 b4 e1 p9"), ('C', "d4 d5 p16")];
    let duty = names("c3-e3 c3-e5 c3-c5 b4-c5 e1-f1 e1-f2");
    assert_eq!(legal(RefSetup::TwoPlayers, 'A', 60, &pieces), duty);
    let free = game_with(RefSetup::TwoPlayers, 'A', 58, &pieces);
    assert_eq!(common::destinations(&free, "c3"), common::sorted("b2 c2 d2 b3 d3 c4 a5 e5 c5 a3 e3"));
    let mut game = game_with(RefSetup::TwoPlayers, 'A', 60, &pieces);
    // Out of home and back in, in one chain: not a move out.
    assert_eq!(game.play_text("c3-e5-c5-a3"), Err(GameError::Illegal(IllegalMove::HomeLeavingDuty)));
    assert_eq!(game.play_text("c3-e5-c5-e3"), Ok(()));
}

#[test]
fn a_chain_through_the_home_camp_counts_by_where_the_piece_starts_and_ends() {
    // b1 jumps c1 to d1 (home) then e1 to f1 (outside): a move out. f4 jumps into the
    // home camp at d2 and out again to d4, f2: not a move out, it started outside.
    let pieces = [('A', "b1 e1 f4"), ('C', "c1 d3 e3 p16")];
    assert_eq!(legal(RefSetup::TwoPlayers, 'A', 60, &pieces), names("b1-f1 e1-f1 e1-f2"));
    let free = game_with(RefSetup::TwoPlayers, 'A', 58, &pieces);
    assert_eq!(common::destinations(&free, "f4"), common::sorted("e4 e5 f5 g5 g4 g3 f3 d2 d4 f2"));
    let mut game = game_with(RefSetup::TwoPlayers, 'A', 60, &pieces);
    assert_eq!(game.play_text("f4-d2-d4"), Err(GameError::Illegal(IllegalMove::HomeLeavingDuty)));
    assert_eq!(game.play_text("b1-d1-f1"), Ok(()));
}

#[test]
fn three_player_seats_have_their_own_camp_sizes_and_turn_counts() {
    // B's home is a 13-camp: d16 is in it, e16 is not (though it is in a 19-camp's shape).
    let pieces = [('A', "e1"), ('B', "d16 e16"), ('C', "p16")];
    let all = names("d16-c16 d16-c15 d16-d15 d16-e15 d16-f16 e16-c16 e16-d15 e16-e15 e16-f15 e16-f16");
    // A moved first: B's 30th turn after 88 plies, its 31st after 91.
    assert_eq!(legal(RefSetup::ThreePlayers, 'B', 88, &pieces), all);
    assert_eq!(legal(RefSetup::ThreePlayers, 'B', 91, &pieces), names("d16-e15 d16-f16"));
    // A's home is a 19-camp: e1 is at home and must leave on A's 31st turn (ply 90).
    assert_eq!(legal(RefSetup::ThreePlayers, 'A', 90, &pieces), names("e1-f1 e1-f2"));
    assert_eq!(legal(RefSetup::ThreePlayers, 'A', 87, &pieces).len(), 5);
}

#[test]
fn four_player_homes_are_13_camps() {
    // In 4p A's home is a 13-camp: e1 is outside, d1 must leave (to e2, or over e1 to f1).
    let pieces = [('A', "d1 e1"), ('C', "p16")];
    assert_eq!(legal(RefSetup::FourOne, 'A', 120, &pieces), names("d1-e2 d1-f1"));
    assert_eq!(legal(RefSetup::FourBoth, 'A', 116, &pieces).len(), 5 + 5);
    // In 2p e1 and e2 are in A's 19-camp: e1 must leave too, and d1-e2 stays home.
    assert_eq!(legal(RefSetup::TwoPlayers, 'A', 60, &pieces), names("d1-f1 e1-f1 e1-f2"));
}

#[test]
fn a_finished_seat_moving_its_partners_pieces_has_no_duty() {
    // A has arrived in 4p-both (C's 13-camp is full of A's pieces) and moves C's pieces;
    // its own army is not at home, so the duty does not bind, whatever the turn count.
    let a_target = "m16 n16 o16 p16 m15 n15 o15 p15 n14 o14 p14 o13 p13";
    let pieces = [('A', a_target), ('C', "b3 h8")];
    let moves = legal(RefSetup::FourBoth, 'A', 120, &pieces);
    assert_eq!(moves.len(), 8 + 8);
    assert!(moves.iter().all(|m| m.starts_with("b3-") || m.starts_with("h8-")));
    let game = game_with(RefSetup::FourBoth, 'A', 120, &pieces);
    assert_eq!(game.position().army_to_move(), Seat::C);
    assert!(!game.position().duty_applies());
}

#[test]
fn a_won_game_has_no_duty_to_explain() {
    // A's army fills C's home: the game is won, nobody has a turn left, so the duty binds
    // no one, although B, to move on its 31st turn, still has a piece at home (d16) that could step out.
    let a_target = "m16 n16 o16 p16 m15 n15 o15 p15 n14 o14 p14 o13 p13";
    let pieces = [('A', a_target), ('B', "d16 h8")];
    assert_eq!(legal(RefSetup::FourOne, 'B', 121, &pieces), Vec::<String>::new());
    let game = game_with(RefSetup::FourOne, 'B', 121, &pieces);
    assert!(game.is_over());
    assert!(!game.position().duty_applies());
    // Before the win (one square of C's camp still empty) the same duty binds B.
    let almost = [('A', "m16 n16 o16 p16 m15 n15 o15 p15 n14 o14 p14 o13 h9"), ('B', "d16 h8")];
    assert_eq!(legal(RefSetup::FourOne, 'B', 121, &almost), names("d16-e15 d16-e16"));
}
