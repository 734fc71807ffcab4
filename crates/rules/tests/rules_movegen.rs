//! Move generation on hand-made positions: steps, jumps in all 8 directions, chains
//! (blocked, branching, no revisits, no return to the start), board edges and camps.
//! Every expectation is worked out by hand from docs/RULES.md; the reference model is
//! checked on the same positions.

use halma_test_support as common;

use common::reference::{RefPosition, RefSetup};
use common::{destinations, game_with, move_set, route, sorted, sq};
use halma_rules::{Game, IllegalMove, Move, Seat, Setup, Square};

/// The engine and the reference agree on every legal move of the seat to move.
fn assert_reference_agrees(setup: RefSetup, to_move: char, plies: u32, pieces: &[(char, &str)]) {
    let reference = RefPosition::from_pieces(setup, to_move, plies, pieces);
    let game = game_with(setup, to_move, plies, pieces);
    assert_eq!(move_set(&game.legal_moves()), reference.legal_moves(), "{}", reference.to_hpn());
}

fn extensions(game: &Game, partial: &str) -> Result<Vec<String>, IllegalMove> {
    let squares: Vec<Square> = partial.split('-').map(sq).collect();
    game.position().jump_extensions(&squares).map(|b| b.squares().map(|sq| sq.to_string()).collect())
}

fn check(game: &Game, text: &str) -> Result<Move, IllegalMove> {
    game.position().check_route(&route(text))
}

fn mv(from: &str, to: &str) -> Move {
    Move { from: sq(from), to: sq(to) }
}

const H8_NEIGHBOURS: [&str; 8] = ["i8", "i9", "h9", "g9", "g8", "g7", "h7", "i7"];

#[test]
fn a_jump_goes_in_each_of_the_eight_directions() {
    // (square jumped over, landing) for each direction from h8, in DIRECTIONS order.
    let jumps = [
        ("i8", "j8"),
        ("i9", "j10"),
        ("h9", "h10"),
        ("g9", "f10"),
        ("g8", "f8"),
        ("g7", "f6"),
        ("h7", "h6"),
        ("i7", "j6"),
    ];
    for (i, (over, land)) in jumps.into_iter().enumerate() {
        // Jumped pieces may be of any colour: alternate own and opponent pieces.
        let jumped_seat = if i % 2 == 0 { 'C' } else { 'A' };
        let pieces = [('A', "h8"), (jumped_seat, over)];
        let game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
        let steps: Vec<&str> = H8_NEIGHBOURS.iter().copied().filter(|&n| n != over).collect();
        let expected = sorted(&format!("{} {land}", steps.join(" ")));
        assert_eq!(destinations(&game, "h8"), expected, "jump over {over}");
        assert_eq!(game.position().route(mv("h8", land)).map(|r| r.to_string()), Some(format!("h8-{land}")));
        assert_eq!(check(&game, &format!("h8-{land}")), Ok(mv("h8", land)));
        assert_reference_agrees(RefSetup::TwoPlayers, 'A', 0, &pieces);
    }
}

#[test]
fn a_jump_needs_a_piece_to_jump_over_and_an_empty_landing() {
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &[('A', "h8"), ('C', "i9 j10")]);
    // i9 is occupied and so is the landing j10: neither a step nor a jump there.
    let expected = sorted("i8 h9 g9 g8 g7 h7 i7");
    assert_eq!(destinations(&game, "h8"), expected);
    assert_eq!(check(&game, "h8-j10"), Err(IllegalMove::Occupied(sq("j10"))));
    assert_eq!(check(&game, "h8-h10"), Err(IllegalMove::NothingToJumpOver(sq("h8"), sq("h10"))));
    assert_eq!(check(&game, "h8-i9"), Err(IllegalMove::Occupied(sq("i9"))));
    assert_eq!(check(&game, "h8-j9"), Err(IllegalMove::NotAStepOrJump(sq("h8"), sq("j9"))));
    assert_eq!(check(&game, "h8-h11"), Err(IllegalMove::NotAStepOrJump(sq("h8"), sq("h11"))));
    assert_eq!(check(&game, "i9-i10"), Err(IllegalMove::NoPieceToMove(sq("i9"))));
    assert_eq!(check(&game, "h8"), Err(IllegalMove::TooShort));
}

#[test]
fn a_step_is_the_whole_move() {
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &[('A', "h8"), ('C', "h10 j10")]);
    // h8-h9 is a step; continuing with a jump over h10 is not allowed.
    assert_eq!(check(&game, "h8-h9"), Ok(mv("h8", "h9")));
    assert_eq!(check(&game, "h8-h9-h11"), Err(IllegalMove::StepInChain));
    assert_eq!(check(&game, "h8-h9-i9"), Err(IllegalMove::StepInChain));
    assert!(game.position().route(mv("h8", "h9")).is_some_and(|r| r.is_step()));
}

#[test]
fn a_blocked_chain_stops_where_the_next_landing_is_taken() {
    // c3 jumps d4 to e5; from e5 the jump over f6 would land on the taken g7.
    let pieces = [('A', "c3"), ('C', "d4 f6 g7")];
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
    assert_eq!(destinations(&game, "c3"), sorted("b2 c2 d2 b3 d3 b4 c4 e5"));
    assert_eq!(extensions(&game, "c3"), Ok(vec!["e5".to_string()]));
    assert_eq!(extensions(&game, "c3-e5"), Ok(vec![]));
    assert_eq!(check(&game, "c3-e5-g7"), Err(IllegalMove::Occupied(sq("g7"))));
    assert_reference_agrees(RefSetup::TwoPlayers, 'A', 0, &pieces);
}

#[test]
fn a_branching_chain_reaches_every_landing_once_with_a_shortest_route() {
    // From e5 three jumps branch off (over e6, f6, f5); from g7 one more over h8 to i9.
    let pieces = [('A', "c3 f5"), ('C', "d4 e6 f6 h8")];
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
    assert_eq!(destinations(&game, "c3"), sorted("b2 c2 d2 b3 d3 b4 c4 e5 e7 g7 g5 i9"));
    assert_eq!(extensions(&game, "c3-e5"), Ok(sorted("e7 g7 g5")));
    assert_eq!(extensions(&game, "c3-e5-g7"), Ok(sorted("i9")));
    assert_eq!(extensions(&game, "c3-e5-e7"), Ok(sorted("g5")));
    let route_to = |to: &str| game.position().route(mv("c3", to)).map(|r| r.to_string());
    assert_eq!(route_to("i9"), Some("c3-e5-g7-i9".to_string()));
    assert_eq!(route_to("g5"), Some("c3-e5-g5".to_string()));
    assert_eq!(route_to("h9"), None);
    // A longer route to the same destination is the same move, and is kept as played.
    assert_eq!(check(&game, "c3-e5-e7-g5"), Ok(mv("c3", "g5")));
    let mut played = game.clone();
    assert_eq!(played.play_text("c3-e5-e7-g5"), Ok(()));
    assert_eq!(played.history().last().map(|a| a.to_string()), Some("c3-e5-e7-g5".to_string()));
    // Stopping after any jump is allowed.
    assert_eq!(check(&game, "c3-e5"), Ok(mv("c3", "e5")));
    assert_reference_agrees(RefSetup::TwoPlayers, 'A', 0, &pieces);
}

#[test]
fn a_chain_never_lands_twice_and_never_returns_to_its_start() {
    // Four pieces around a square of landings: c3 → e3 → e5 → c5 → (c3, forbidden).
    let pieces = [('A', "c3"), ('C', "d3 e4 d5 c4")];
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
    assert_eq!(destinations(&game, "c3"), sorted("b2 c2 d2 b3 b4 d4 e3 e5 c5"));
    assert_eq!(extensions(&game, "c3"), Ok(sorted("e3 c5")));
    assert_eq!(extensions(&game, "c3-e3-e5"), Ok(sorted("c5")));
    assert_eq!(extensions(&game, "c3-e3-e5-c5"), Ok(vec![]));
    assert_eq!(extensions(&game, "c3-c5-e5-e3"), Ok(vec![]));
    assert_eq!(check(&game, "c3-e3-e5-c5-c3"), Err(IllegalMove::BackToStart));
    assert_eq!(check(&game, "c3-e3-e5-e3"), Err(IllegalMove::LandsTwice(sq("e3"))));
    assert_eq!(extensions(&game, "c3-e3-e5-e3"), Err(IllegalMove::LandsTwice(sq("e3"))));
    assert_eq!(game.position().route(mv("c3", "c5")).map(|r| r.to_string()), Some("c3-c5".to_string()));
    assert_eq!(game.position().route(mv("c3", "e5")).map(|r| r.squares().len()), Some(3));
    assert_reference_agrees(RefSetup::TwoPlayers, 'A', 0, &pieces);
}

#[test]
fn corners_and_edges_limit_steps_and_jumps() {
    // a1 and p16 hemmed in: only the jumps that stay on the board.
    let pieces = [('A', "a1 p16"), ('C', "a2 b1 b2 o16 p15 o15")];
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
    assert_eq!(destinations(&game, "a1"), sorted("a3 c1 c3"));
    assert_eq!(destinations(&game, "p16"), sorted("n16 p14 n14"));
    assert_reference_agrees(RefSetup::TwoPlayers, 'A', 0, &pieces);
    // No wrap-around from the p-file to the a-file or back (p5+1 is a6 by index).
    let pieces = [('A', "p5 a8"), ('C', "a6 a7 p7")];
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
    assert_eq!(destinations(&game, "p5"), sorted("o4 p4 o5 o6 p6"));
    assert_eq!(destinations(&game, "a8"), sorted("b7 b8 a9 b9"));
    assert_reference_agrees(RefSetup::TwoPlayers, 'A', 0, &pieces);
    // Along an edge: a8 jumps a9 to a10, then a11 to a12.
    let pieces = [('A', "a8"), ('C', "a9 a11")];
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
    assert_eq!(destinations(&game, "a8"), sorted("a7 b7 b8 b9 a10 a12"));
}

#[test]
fn camps_are_entered_and_left_with_ordinary_moves() {
    // e1 is in A's 19-camp (x = 4): it steps to d1/d2/e2 inside and f1/f2 outside.
    // f3 is outside and steps back in to e2. l16 stands in the target camp and may
    // leave it again (k16, k15) or move inside it (l15, m15, m16).
    let pieces = [('A', "e1 f3 l16"), ('C', "a16")];
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
    let home = Setup::TwoPlayers.home_camp(Seat::A);
    let target = Setup::TwoPlayers.target_camp(Seat::A);
    assert!(home.contains(sq("e1")) && home.contains(sq("e2")) && !home.contains(sq("f1")) && !home.contains(sq("f3")));
    assert_eq!(destinations(&game, "e1"), sorted("d1 f1 d2 e2 f2"));
    assert!(destinations(&game, "f3").contains(&"e2".to_string()));
    assert!(target.contains(sq("l16")) && target.contains(sq("l15")) && !target.contains(sq("k16")));
    assert_eq!(destinations(&game, "l16"), sorted("k16 m16 k15 l15 m15"));
    // A jump out of the target camp and back in, in one chain, is an ordinary chain too.
    let pieces = [('A', "m14"), ('C', "m13 n12 a16")];
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
    assert!(target.contains(sq("m14")) && !target.contains(sq("m12")) && target.contains(sq("o12")));
    assert_eq!(check(&game, "m14-m12-o12"), Ok(mv("m14", "o12")));
    assert_reference_agrees(RefSetup::TwoPlayers, 'A', 0, &pieces);
}

#[test]
fn jumping_back_onto_the_start_square_is_refused() {
    // The start square counts as empty, yet a chain may not end or pass there: after
    // h8 jumps i8 to j8, jumping back over i8 would land on h8.
    let pieces = [('A', "h8"), ('C', "i8")];
    let game = game_with(RefSetup::TwoPlayers, 'A', 0, &pieces);
    assert_eq!(extensions(&game, "h8-j8"), Ok(vec![]));
    assert_eq!(check(&game, "h8-j8-h8"), Err(IllegalMove::BackToStart));
}

#[test]
fn move_lists_are_sorted_by_origin_then_destination() {
    let game = Game::new(Setup::TwoPlayers, Seat::A);
    let moves: Vec<Move> = game.legal_moves().iter().collect();
    let mut sorted_moves = moves.clone();
    sorted_moves.sort_by_key(|m| (m.from.index(), m.to.index()));
    assert_eq!(moves, sorted_moves);
    assert_eq!(moves.len(), 40);
    // a1 and b1 are walled in; c1 jumps d2 to e3.
    assert_eq!(moves.first().map(|m| (m.from.to_string(), m.to.to_string())), Some(("c1".into(), "e3".into())));
}
