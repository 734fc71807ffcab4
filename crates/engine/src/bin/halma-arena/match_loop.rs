//! The match loop: which seats each player takes, one game from the start to its end
//! (win, draw, ply cap or forfeit), and the draw offers between levels.

use crate::engine::{Player, Thinking};
use crate::options::Options;
use halma_rules::{Game, Outcome, Position, Seat, Setup, VoteResult};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// How a game ended, for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Camp,
    Repetition,
    Agreement,
    Adjudicated,
    Forfeit,
}

/// One finished game and what the report and the record file need of it.
pub struct GameRecord {
    pub index: usize,
    /// Points of player A: 1 win, 0.5 draw, 0 loss.
    pub score_a: f64,
    pub ending: Ending,
    pub plies: usize,
    /// The seat(s) that won, when a seat or team won.
    pub winning_seats: Vec<Seat>,
    pub owners: [Option<usize>; 4],
    pub times: [Vec<Duration>; 2],
    /// Each player's search report per move that had one.
    pub thinking: [Vec<Thinking>; 2],
    /// Time of a hint in each position (with `--time-hints`).
    pub hint_times: Vec<Duration>,
    pub note: String,
    /// The game as it stopped, for `--record`.
    pub game: Game,
}

/// Which player (0 = A, 1 = B) owns each seat in game `index`, and the first seat.
fn seat_plan(setup: Setup, index: usize) -> ([Option<usize>; 4], Seat) {
    let mut owners = [None; 4];
    match setup {
        Setup::TwoPlayers => {
            // The first seat is always A; the players swap seats every game.
            let a_seat = if index.is_multiple_of(2) { Seat::A } else { Seat::C };
            owners[a_seat.index()] = Some(0);
            owners[a_seat.opposite().index()] = Some(1);
            (owners, Seat::A)
        }
        Setup::FourPlayersOneArmy | Setup::FourPlayersBothArmies => {
            // Player A takes team A+C or B+D on alternate games; the first seat moves to
            // the other team every two games.
            let team_a = if index.is_multiple_of(2) { [Seat::A, Seat::C] } else { [Seat::B, Seat::D] };
            for seat in Seat::ALL {
                owners[seat.index()] = Some(usize::from(!team_a.contains(&seat)));
            }
            let first = if (index / 2).is_multiple_of(2) { Seat::A } else { Seat::B };
            (owners, first)
        }
        Setup::ThreePlayers => {
            // Player A's seats cycle through every non-empty proper subset of {A, B, C};
            // the first seat rotates once per cycle.
            const SETS: [&[Seat]; 6] =
                [&[Seat::A], &[Seat::B, Seat::C], &[Seat::B], &[Seat::A, Seat::C], &[Seat::C], &[Seat::A, Seat::B]];
            let set = SETS[index % 6];
            for &seat in setup.seats() {
                owners[seat.index()] = Some(usize::from(!set.contains(&seat)));
            }
            let first = setup.seats()[(index / 6) % 3];
            (owners, first)
        }
    }
}

/// Remaining distance as a share of the start's, for each player (lower is better).
fn remaining_share(position: &Position, owners: &[Option<usize>; 4]) -> [f64; 2] {
    let start = Position::start(position.setup(), Seat::A);
    let mut left = [0.0; 2];
    let mut total = [0.0; 2];
    for &seat in position.setup().seats() {
        if let Some(owner) = owners[seat.index()] {
            left[owner] += f64::from(halma_ai::eval::remaining_steps(position, seat));
            total[owner] += f64::from(halma_ai::eval::remaining_steps(&start, seat));
        }
    }
    [left[0] / total[0].max(1.0), left[1] / total[1].max(1.0)]
}

/// Player A's score in a game stopped at the ply cap (the smaller remaining share wins),
/// and the shares as the game's note.
fn adjudicate(position: &Position, owners: &[Option<usize>; 4]) -> (f64, String) {
    let share = remaining_share(position, owners);
    let score = if (share[0] - share[1]).abs() < 1e-9 {
        0.5
    } else if share[0] < share[1] {
        1.0
    } else {
        0.0
    };
    (score, format!("remaining share A {:.3} B {:.3}", share[0], share[1]))
}

/// The seat to move offers a draw; every other seat answers in turn order (levels by
/// their own judgement, programs cannot answer and so refuse). True when all accepted.
fn offer_draw(game: &mut Game, owners: &[Option<usize>; 4], players: &[Player; 2]) -> bool {
    if game.offer_draw().is_err() {
        return false;
    }
    while let Some(offer) = game.pending_offer() {
        let seat = offer.awaiting;
        let player = &players[owners[seat.index()].unwrap_or(0)];
        let accept = player.is_level() && halma_ai::should_accept_draw(game, seat);
        match game.answer_draw(seat, accept) {
            Ok(VoteResult::Agreed) => return true,
            Ok(VoteResult::Refused) | Err(_) => return false,
            Ok(VoteResult::Next(_)) => {}
        }
    }
    false
}

pub fn play_game(index: usize, options: &Options, players: &mut [Player; 2]) -> GameRecord {
    let (owners, first) = seat_plan(options.setup, index);
    let mut game = Game::new(options.setup, first);
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut thinking: [Vec<Thinking>; 2] = [Vec::new(), Vec::new()];
    let mut hint_times = Vec::new();
    let seed = options.seed.wrapping_mul(1_000_003).wrapping_add(index as u64);
    let record = |score_a: f64, ending: Ending, game: &Game, times, thinking, hint_times, note: String| GameRecord {
        index,
        score_a,
        ending,
        plies: game.history().len(),
        winning_seats: match game.outcome() {
            Outcome::Win(seats) => seats.seats().collect(),
            _ => Vec::new(),
        },
        owners,
        times,
        thinking,
        hint_times,
        note,
        game: game.clone(),
    };
    loop {
        match game.outcome() {
            Outcome::Win(seats) => {
                let winner = seats.seats().next().and_then(|s| owners[s.index()]).unwrap_or(0);
                let score = if winner == 0 { 1.0 } else { 0.0 };
                return record(score, Ending::Camp, &game, times, thinking, hint_times, String::new());
            }
            Outcome::Draw(reason) => {
                let ending = match reason {
                    halma_rules::DrawReason::Repetition => Ending::Repetition,
                    halma_rules::DrawReason::Agreement => Ending::Agreement,
                };
                return record(0.5, ending, &game, times, thinking, hint_times, String::new());
            }
            Outcome::Ongoing => {}
        }
        if game.history().len() >= options.max_plies {
            let (score, note) = adjudicate(game.position(), &owners);
            return record(score, Ending::Adjudicated, &game, times, thinking, hint_times, note);
        }
        let seat = game.to_move();
        let owner = owners[seat.index()].unwrap_or(0);
        if players[owner].is_level() && halma_ai::wants_draw(&game) && offer_draw(&mut game, &owners, players) {
            continue;
        }
        if options.time_hints {
            let started = Instant::now();
            let _ = halma_ai::hint(&game, &AtomicBool::new(false));
            hint_times.push(started.elapsed());
        }
        let started = Instant::now();
        let (answer, report) =
            players[owner].choose(&game, options.movetimes[owner], seed ^ (game.history().len() as u64) << 20);
        times[owner].push(started.elapsed());
        thinking[owner].extend(report);
        let checked =
            answer.and_then(|text| game.play_text(&text).map(|()| text.clone()).map_err(|e| format!("'{text}': {e}")));
        match checked {
            Ok(_) => {}
            Err(why) => {
                let score = if owner == 0 { 0.0 } else { 1.0 };
                let note = format!(
                    "player {} (seat {seat}) forfeits at ply {}: {why}",
                    ["A", "B"][owner],
                    game.history().len() + 1
                );
                return record(score, Ending::Forfeit, &game, times, thinking, hint_times, note);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_at_the_ply_cap_goes_to_the_smaller_remaining_share() {
        let (owners, first) = seat_plan(Setup::TwoPlayers, 0);
        let mut game = Game::new(Setup::TwoPlayers, first);
        assert_eq!(adjudicate(game.position(), &owners), (0.5, "remaining share A 1.000 B 1.000".to_string()));
        // A's first step toward the far camp leaves A less of its way to go: A is ahead.
        game.play_text("c3-d4").expect("a legal first step");
        assert_eq!(adjudicate(game.position(), &owners), (1.0, "remaining share A 0.996 B 1.000".to_string()));
    }
}
