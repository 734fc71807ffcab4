//! Reproducible self-play games for the data modes (`--labels`, `--puzzles`): every seat
//! a level searching to its own fixed depth on one thread, with no clock, so a game
//! depends on the setup, the game's number and the seed alone.

use halma_ai::{Level, SearchRequest};
use halma_rules::{Game, Outcome, Setup, VoteResult};
use std::sync::atomic::AtomicBool;

/// The levels the games are played at, cycled through by game number: every pairing of
/// Beginner, Casual and Strong, so positions come from even games and lopsided ones.
const PAIRINGS: [(Level, Level); 6] = [
    (Level::Beginner, Level::Beginner),
    (Level::Casual, Level::Casual),
    (Level::Strong, Level::Strong),
    (Level::Beginner, Level::Casual),
    (Level::Casual, Level::Strong),
    (Level::Beginner, Level::Strong),
];

/// Plies after which a game stops unfinished (its positions then have no result).
pub const PLY_CAP: usize = 800;

/// A finished self-play game.
pub struct SelfPlay {
    pub game: Game,
    /// Each seat's level (indexed by seat; seats not in play hold Beginner).
    pub levels: [Level; 4],
    /// Each seat's result (1 win, 0.5 draw, 0 loss; indexed by seat), `None` when the
    /// game reached [`PLY_CAP`].
    pub result: Option<[f64; 4]>,
}

/// The levels of game `index`: the pairing's first level for the first side (the first
/// seat and, with teams, its partner; in 3p the first seat), the second for the others;
/// the sides swap every other game so that each level moves first as often.
fn levels_of(setup: Setup, index: usize) -> [Level; 4] {
    let (one, other) = PAIRINGS[(index / 2) % PAIRINGS.len()];
    let (one, other) = if index.is_multiple_of(2) { (one, other) } else { (other, one) };
    let mut levels = [Level::Beginner; 4];
    let first = setup.seats()[0];
    for &seat in setup.seats() {
        let ours =
            if setup == Setup::ThreePlayers { seat == first } else { halma_ai::eval::is_on_side(setup, first, seat) };
        levels[seat.index()] = if ours { one } else { other };
    }
    levels
}

/// The search a level makes in these games: its own depth, one thread, no clock.
fn request(level: Level, seed: u64) -> SearchRequest {
    SearchRequest::new(level).with_depth(level.params().max_depth.min(3)).with_threads(1).with_seed(seed)
}

/// Each seat's result in a finished game.
fn results(game: &Game) -> Option<[f64; 4]> {
    let mut result = [0.0; 4];
    match game.outcome() {
        Outcome::Win(winners) => {
            for seat in winners.seats() {
                result[seat.index()] = 1.0;
            }
        }
        Outcome::Draw(_) => {
            for &seat in game.setup().seats() {
                result[seat.index()] = 0.5;
            }
        }
        Outcome::Ongoing => return None,
    }
    Some(result)
}

/// Game `index` of the series `seed` in `setup`; the first seat rotates with the game.
pub fn play(setup: Setup, index: usize, seed: u64) -> SelfPlay {
    let seats = setup.seats();
    let first = seats[(index / 2) % seats.len()];
    let mut game = Game::new(setup, first);
    let levels = levels_of(setup, index);
    let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(index as u64);
    let stop = AtomicBool::new(false);
    while !game.is_over() && game.history().len() < PLY_CAP {
        // Stuck games end drawn as between the app's levels: offered and accepted by
        // their own judgement.
        if halma_ai::wants_draw(&game) && game.offer_draw().is_ok() {
            while let Some(offer) = game.pending_offer() {
                let accept = halma_ai::should_accept_draw(&game, offer.awaiting);
                match game.answer_draw(offer.awaiting, accept) {
                    Ok(VoteResult::Next(_)) => {}
                    _ => break,
                }
            }
            if game.is_over() {
                break;
            }
        }
        let level = levels[game.to_move().index()];
        let seed = game_seed ^ ((game.history().len() as u64) << 20);
        let Some(action) = halma_ai::choose_action(&game, &request(level, seed), &stop) else { break };
        if game.play_action(&action).is_err() {
            break;
        }
    }
    let result = results(&game);
    SelfPlay { game, levels, result }
}
