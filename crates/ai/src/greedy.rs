//! The greedy player: the move that gains the most distance toward the target camp.

use halma_rules::{Move, Position, Seat, Square};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Steps (king moves) from `square` to the corner of `army`'s target camp, counted as
/// the sum of the column and row distances so that diagonal progress counts double.
pub fn corner_distance(position: &Position, army: Seat, square: Square) -> i32 {
    let corner = army.opposite().corner();
    let _ = position;
    (square.column() - corner.column()).abs() + (square.row() - corner.row()).abs()
}

/// The move with the largest distance gained, ties broken at random from `seed`.
/// `None` when the seat to move has no legal move (it must pass) or the game is won.
pub fn greedy_move(position: &Position, seed: u64) -> Option<Move> {
    let army = position.army_to_move();
    let moves = position.legal_moves();
    let gain = |mv: Move| corner_distance(position, army, mv.from) - corner_distance(position, army, mv.to);
    let best = moves.iter().map(gain).max()?;
    let candidates: Vec<Move> = moves.iter().filter(|&mv| gain(mv) == best).collect();
    let mut rng = StdRng::seed_from_u64(seed ^ position.hash());
    Some(candidates[rng.random_range(0..candidates.len())])
}
