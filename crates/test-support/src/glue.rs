//! The glue between the engine's values and the reference model's plain ones: squares,
//! seat letters, setups, positions and move sets, both ways.

use crate::reference::{self, Mv, RefPosition, RefSetup, Sq};
use crate::rng::TestRng;
use halma_rules::{parse_hpn, Game, MoveSet, Position, Seat, SeatSet, Setup, Square};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub fn to_sq(square: Square) -> Sq {
    (square.column(), square.row())
}

/// The engine square for a reference square.
pub fn square(sq: Sq) -> Square {
    Square::from_coords(sq.0, sq.1).expect("square on the board")
}

/// Parses a test square name into the engine's type.
pub fn sq(text: &str) -> Square {
    text.parse().unwrap_or_else(|_| panic!("bad test square {text}"))
}

/// A folder of its own for test `test` of the group `group` (one group per test file),
/// emptied first and created under `base` (Cargo's temporary folder for integration
/// tests, `CARGO_TARGET_TMPDIR`: each crate's `tests/common::fresh_dir` passes it, so no
/// environment variable is read at run time). A file an interrupted run left in its
/// place (the failing-save test puts one there) is cleared too.
pub fn fresh_dir_in(base: &Path, group: &str, test: &str) -> PathBuf {
    let dir = base.join(group).join(test);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|why| panic!("a test folder {}: {why}", dir.display()));
    dir
}

/// The engine seat for a reference seat letter.
pub fn seat(letter: char) -> Seat {
    Seat::from_letter(letter).expect("seat letter")
}

/// The engine setup for a reference setup (they share names).
pub fn engine_setup(setup: RefSetup) -> Setup {
    setup.name().parse().expect("same setup names")
}

/// The reference setup for an engine setup.
pub fn ref_setup(setup: Setup) -> RefSetup {
    RefSetup::parse(setup.name())
}

/// The seats in play by the reference, in turn order, as engine seats.
pub fn seats_in_play(setup: Setup) -> Vec<Seat> {
    ref_setup(setup).seats().into_iter().map(seat).collect()
}

/// The army size of `seat` by the reference (0 when it does not play).
pub fn army_size(setup: Setup, seat: Seat) -> usize {
    ref_setup(setup).army_size(seat.letter())
}

/// The reference position for an engine position, read square by square through
/// `Position::pieces` (not through HPN, so that the HPN writer is checked too).
pub fn reference_of(position: &Position) -> RefPosition {
    let mut board = [[None; 16]; 16];
    for seat in Seat::ALL {
        for at in position.pieces(seat).squares() {
            board[at.row() as usize][at.column() as usize] = Some(seat.letter());
        }
    }
    RefPosition {
        board,
        to_move: position.to_move().letter(),
        setup: ref_setup(position.setup()),
        plies: position.plies(),
    }
}

/// Winners as the reference writes them: `A`, or a team `A,C`.
pub fn winners_text(winners: SeatSet) -> String {
    winners.seats().map(|seat| seat.letter().to_string()).collect::<Vec<_>>().join(",")
}

/// The engine's set of winners for the reference's `A` or `A,C`.
pub fn winner_set(text: &str) -> SeatSet {
    let mut set = SeatSet::EMPTY;
    text.split(',').for_each(|letter| set.insert(seat(letter.chars().next().expect("a seat letter"))));
    set
}

/// Engine squares as reference squares.
pub fn to_sqs(squares: &[Square]) -> Vec<Sq> {
    squares.iter().map(|&at| to_sq(at)).collect()
}

/// Reference squares as engine squares.
pub fn squares(sqs: &[Sq]) -> Vec<Square> {
    sqs.iter().map(|&at| square(at)).collect()
}

/// Route squares from `c3-e5-g5`.
pub fn route(text: &str) -> Vec<Square> {
    text.split('-').map(sq).collect()
}

pub fn move_set(moves: &MoveSet) -> BTreeSet<Mv> {
    moves.iter().map(|mv| (to_sq(mv.from), to_sq(mv.to))).collect()
}

/// Names of the moves, `from-to`, sorted for readable failures.
pub fn move_names(moves: &BTreeSet<Mv>) -> Vec<String> {
    moves.iter().map(|&mv| reference::move_text(mv)).collect()
}

/// The engine position for a reference position (through HPN text).
pub fn engine_position(position: &RefPosition) -> Position {
    parse_hpn(&position.to_hpn()).expect("reference HPN parses")
}

/// A game starting at the position written by pieces: `[('A', "c3 d4"), ('C', "p16")]`.
pub fn game_with(setup: RefSetup, to_move: char, plies: u32, pieces: &[(char, &str)]) -> Game {
    Game::from_position(engine_position(&RefPosition::from_pieces(setup, to_move, plies, pieces)))
}

/// Destinations of the piece on `from` among the legal moves, as sorted names.
pub fn destinations(game: &Game, from: &str) -> Vec<String> {
    game.legal_moves().destinations(sq(from)).squares().map(|sq| sq.to_string()).collect()
}

/// Square names from a space-separated list, sorted by square index like the engine.
pub fn sorted(names: &str) -> Vec<String> {
    let mut squares: Vec<Square> = names.split_whitespace().map(sq).collect();
    squares.sort();
    squares.iter().map(|sq| sq.to_string()).collect()
}

/// Picks the next move of a test game: mostly the move that gains the most toward the
/// target corner (so games reach their end), sometimes any move. Works on the
/// reference model only, so it does not depend on the engine under test.
pub fn pick_move(position: &RefPosition, moves: &BTreeSet<Mv>, rng: &mut TestRng, greed_percent: usize) -> Mv {
    let list: Vec<Mv> = moves.iter().copied().collect();
    if rng.below(100) >= greed_percent {
        return list[rng.below(list.len())];
    }
    let goal = reference::corner(reference::opposite(position.army_to_move()));
    let distance = |s: Sq| (s.0 - goal.0).abs() + (s.1 - goal.1).abs();
    let gain = |mv: &Mv| distance(mv.0) - distance(mv.1);
    let best = list.iter().map(gain).max().unwrap_or(0);
    let candidates: Vec<Mv> = list.iter().copied().filter(|mv| gain(mv) == best).collect();
    candidates[rng.below(candidates.len())]
}
