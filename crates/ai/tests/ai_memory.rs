//! Master's memory between moves (issue 14): the transposition table a player keeps from
//! one search to the next. A kept table must start the next search ahead (fewer nodes for
//! the same depth), never lead to an illegal move, and leave the reproducible searches
//! (a fixed depth without a time limit) exactly as they were.

use halma_test_support::ai as ai_support;

use ai_support::random_game;
use halma_ai::search::{self, Limits};
use halma_ai::tt::TranspositionTable;
use halma_ai::{Level, SearchMemory, SearchRequest};
use halma_rules::{Action, Game, Seat, Setup};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn fixed_depth(depth: u32) -> Limits {
    Limits { depth, deadline: None, threads: 1 }
}

#[test]
fn a_kept_table_starts_the_next_search_ahead() {
    let params = Level::Master.params();
    let stop = AtomicBool::new(false);
    let mut game = random_game(Setup::TwoPlayers, Seat::A, 14, 3);
    let table = TranspositionTable::new(20);
    let first = search::search_with_table(&game, &params, &fixed_depth(5), 1, &stop, &table, &mut |_| {});
    let best = first.best.expect("a move");

    // The same position again: the root's replies are all in the table.
    let again = search::search_with_table(&game, &params, &fixed_depth(5), 1, &stop, &table, &mut |_| {});
    assert!(again.nodes * 4 < first.nodes, "again {} nodes, first {}", again.nodes, first.nodes);
    assert_eq!(again.depth, 5);

    // Two plies on (the answer and a reply), as in a game: fewer nodes than from nothing.
    game.play_move(best).expect("the search's move is legal");
    let reply = search::search_with_table(&game, &params, &fixed_depth(4), 1, &stop, &table, &mut |_| {});
    game.play_move(reply.best.expect("a reply")).expect("the reply is legal");
    let kept = search::search_with_table(&game, &params, &fixed_depth(5), 1, &stop, &table, &mut |_| {});
    let fresh = search::search(&game, &params, &fixed_depth(5), 1, &stop);
    assert!(kept.nodes < fresh.nodes, "kept table {} nodes, fresh table {}", kept.nodes, fresh.nodes);
    let moves = game.legal_moves();
    assert!(kept.best.is_some_and(|mv| moves.contains(mv)));
}

#[test]
fn master_plays_legal_games_with_its_memory_in_every_setup() {
    let stop = AtomicBool::new(false);
    for setup in Setup::ALL {
        let memory = SearchMemory::new();
        let mut game = Game::new(setup, setup.seats()[0]);
        for ply in 0..24u64 {
            if game.is_over() {
                break;
            }
            // Master with its memory (two threads, timed) for the first seat, Greedy else.
            let master_seat = game.to_move() == setup.seats()[0];
            let request = if master_seat {
                SearchRequest::new(Level::Master)
                    .with_movetime(Duration::from_millis(15))
                    .with_threads(2)
                    .with_seed(ply)
            } else {
                SearchRequest::new(Level::Greedy).with_seed(ply)
            };
            let action = halma_ai::choose_action_remembering(&game, &request, &stop, &memory, &mut |_| {})
                .unwrap_or_else(|| panic!("{setup} ply {ply}: an ongoing game has an action"));
            game.play_action(&action).unwrap_or_else(|e| panic!("{setup} ply {ply}: {action} refused: {e}"));
        }
        assert!(game.history().len() >= 20, "{setup}: the game went on");
    }
}

#[test]
fn a_fixed_depth_search_ignores_the_memory_and_stays_reproducible() {
    let stop = AtomicBool::new(false);
    let game = random_game(Setup::TwoPlayers, Seat::A, 20, 8);
    let request = SearchRequest::new(Level::Master).with_depth(4).with_seed(2);
    let without: Option<Action> = halma_ai::choose_action(&game, &request, &stop);
    let memory = SearchMemory::new();
    for _ in 0..3 {
        let with = halma_ai::choose_action_remembering(&game, &request, &stop, &memory, &mut |_| {});
        assert_eq!(with, without);
    }
}
