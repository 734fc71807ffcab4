//! Beginner never stalls (issue 30): over many games it empties its home before the
//! home-leaving duty could force it and brings its army into the target camp. Every
//! game is searched to a fixed depth (Beginner looks one ply ahead), so the test is
//! quick and gives the same games every run.

use halma_ai::{Level, SearchRequest};
use halma_rules::{Game, Outcome, Seat, Setup, DUTY_FREE_TURNS};
use std::sync::atomic::AtomicBool;

/// A game's longest run in plies; real games between these players end near 200.
const MAX_PLIES: usize = 800;

/// What one game showed about Beginner's seats.
#[derive(Debug, Default)]
struct Watch {
    /// Per Beginner seat, its pieces still at home after its last duty-free turn.
    at_home_when_duty_starts: Vec<u32>,
    /// Whether the game ended with a camp filled.
    filled: bool,
    /// Whether a Beginner seat filled its camp (won).
    beginner_won: bool,
}

/// Plays a game in which `beginner` seats are Beginner and the others `other`.
fn play(setup: Setup, beginner: &[Seat], other: Level, seed: u64) -> Watch {
    let mut game = Game::new(setup, setup.seats()[seed as usize % setup.seats().len()]);
    let mut watch = Watch::default();
    let stop = AtomicBool::new(false);
    for ply in 0..MAX_PLIES {
        if game.is_over() {
            break;
        }
        let position = *game.position();
        let seat = position.to_move();
        let level = if beginner.contains(&seat) { Level::Beginner } else { other };
        if level == Level::Beginner && position.turns_taken(seat) == DUTY_FREE_TURNS {
            watch.at_home_when_duty_starts.push((position.pieces(seat) & setup.home_camp(seat)).count());
        }
        // Each level's own depth (Beginner and Greedy 1, Casual 2): fixed, so every run
        // plays the same games.
        let depth = level.params().max_depth;
        let request = SearchRequest::new(level).with_depth(depth).with_seed(seed * 1000 + ply as u64);
        let action = halma_ai::choose_action(&game, &request, &stop).expect("an ongoing game has an action");
        game.play_action(&action).expect("the computer's action is legal");
    }
    watch.filled = matches!(game.outcome(), Outcome::Win(_));
    watch.beginner_won =
        matches!(game.outcome(), Outcome::Win(winners) if beginner.iter().any(|&seat| winners.contains(seat)));
    watch
}

/// Beginner against itself and against Greedy, 2p and 3p, 40 games (70 Beginner
/// armies). Stronger levels too have a few pieces at home after their 30 duty-free
/// turns (Casual and Strong 1 to 7 in 2p self-play), so the measure is: at most 5 at
/// home then, 2 on average (the plain race without the straggler cost left 3.1 and up to
/// 6), and every game ends with a camp filled within the ply cap (it stalled 2).
#[test]
fn beginner_leaves_home_and_every_game_ends_with_a_filled_camp() {
    let mut games = Vec::new();
    for seed in 0..10 {
        let alone = if seed % 2 == 0 { Seat::A } else { Seat::C };
        games.push(play(Setup::TwoPlayers, &[Seat::A, Seat::C], Level::Beginner, seed));
        games.push(play(Setup::TwoPlayers, &[alone], Level::Greedy, seed));
        games.push(play(Setup::ThreePlayers, &[Seat::A, Seat::B, Seat::C], Level::Beginner, seed));
        games.push(play(Setup::ThreePlayers, &[Seat::B], Level::Greedy, seed));
    }
    let at_home: Vec<u32> = games.iter().flat_map(|w| w.at_home_when_duty_starts.iter().copied()).collect();
    let stalled: Vec<usize> = (0..games.len()).filter(|&i| !games[i].filled).collect();
    println!("at home after 30 turns: {at_home:?}; games without a filled camp: {stalled:?}");
    assert_eq!(at_home.len(), 70, "every Beginner army reached its 30th turn");
    assert!(at_home.iter().all(|&n| n <= 5), "{at_home:?}");
    assert!(at_home.iter().sum::<u32>() <= 2 * 70, "{at_home:?}");
    assert_eq!(stalled, Vec::<usize>::new());
}

/// Beginner loses to Casual most of the time, so the ladder's first step is a real one:
/// 20 games of 2p, Beginner on each seat in half of them and the first seat
/// alternating (over 200 games in the arena Casual scored 80.8 %, docs/STRENGTH.md).
/// Beginner still plays with purpose: every game ends with a filled camp.
#[test]
fn casual_beats_beginner_most_of_the_time() {
    let games: Vec<Watch> = (0..20)
        .map(|seed| {
            let beginner = if seed < 10 { Seat::A } else { Seat::C };
            play(Setup::TwoPlayers, &[beginner], Level::Casual, seed)
        })
        .collect();
    let beginner_wins = games.iter().filter(|game| game.beginner_won).count();
    println!("Beginner won {beginner_wins} of 20 against Casual");
    assert!(games.iter().all(|game| game.filled), "every game ends with a filled camp");
    assert!(beginner_wins <= 6, "Beginner won {beginner_wins} of 20: Casual should win most");
}
