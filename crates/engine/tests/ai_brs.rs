//! Best-Reply Search for 3p (issue 30): what it sees that paranoid search does not at
//! the same depth, that it changes nothing outside 3p, that a fixed depth gives a fixed
//! answer, that a deadline ends it, and that the engine lets a match choose it.
//! Searches are limited by depth (one by a deadline, checked only to end), so the tests
//! are quick and repeatable.

use halma_test_support::ai as ai_support;

use ai_support::common::game_from;
use ai_support::random_game;
use halma_ai::eval::{WIN, WIN_THRESHOLD};
use halma_ai::search::{self, Limits, SearchParams, SearchResult};
use halma_ai::{Level, SearchRequest, ThreePlayerSearch};
use halma_engine::protocol::Engine;
use halma_rules::{camp_at, Bitboard, Game, Move, Seat, Setup, Square};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn params(best_reply: bool) -> SearchParams {
    SearchParams { jitter: 0, tt_bits: 16, best_reply, ..Level::Master.params() }
}

fn search_to(game: &Game, depth: u32, best_reply: bool) -> SearchResult {
    let limits = Limits { depth, deadline: None, threads: 1 };
    search::search(game, &params(best_reply), &limits, 7, &AtomicBool::new(false))
}

fn neighbours(square: Square) -> impl Iterator<Item = Square> {
    let steps = (-1..=1).flat_map(|dc| (-1..=1).map(move |dr| (dc, dr)));
    steps.filter(|&step| step != (0, 0)).filter_map(move |(dc, dr)| square.offset(dc, dr))
}

/// Seat A two moves from filling its camp: two holes at the camp's edge, each with an
/// A piece one step outside it. B stands at home; C's army is packed into the empty
/// fourth corner (D's), too far from the holes to block them in one move. Returns the
/// game and the two filling moves.
fn two_moves_from_home() -> (Game, [Move; 2]) {
    let setup = Setup::ThreePlayers;
    let camp = setup.target_camp(Seat::A);
    let mut holes = Vec::new();
    let mut outside = Vec::new();
    for square in camp.squares() {
        let out = neighbours(square).find(|n| !camp.contains(*n) && !outside.contains(n));
        let touches_hole = holes.iter().any(|h: &Square| neighbours(*h).any(|n| n == square));
        if let (Some(out), false) = (out, touches_hole) {
            if outside.iter().all(|o: &Square| !neighbours(*o).any(|n| n == out)) {
                holes.push(square);
                outside.push(out);
            }
        }
        if holes.len() == 2 {
            break;
        }
    }
    assert_eq!(holes.len(), 2, "the camp has two separate edge squares");
    let mut a: Vec<Square> = camp.squares().filter(|s| !holes.contains(s)).collect();
    a.extend(&outside);
    let b: Vec<Square> = setup.home_camp(Seat::B).squares().collect();
    // D's corner (B's target, empty in 3p), then the squares next to it, nearest first.
    let d_corner = camp_at(Seat::D, 19);
    let mut c: Vec<Square> = d_corner.squares().collect();
    let mut rest: Vec<Square> = Square::all().filter(|s| !d_corner.contains(*s)).collect();
    let edge = |x: i32| x == 0 || x == 15;
    let corner = d_corner.squares().find(|s| edge(s.column()) && edge(s.row())).expect("a corner");
    rest.sort_by_key(|s| ((s.column() - corner.column()).abs().max((s.row() - corner.row()).abs()), s.index()));
    let taken = |s: &Square| a.contains(s) || b.contains(s) || camp.contains(*s);
    c.extend(rest.into_iter().filter(|s| !taken(s)).take(19 - c.len()));
    let game = game_from(&[(Seat::A, &a), (Seat::B, &b), (Seat::C, &c)], Seat::A, Setup::ThreePlayers, 0);
    let fills = [Move { from: outside[0], to: holes[0] }, Move { from: outside[1], to: holes[1] }];
    (game, fills)
}

#[test]
fn best_reply_search_sees_a_two_move_camp_fill_at_depth_three_where_paranoid_needs_four() {
    let (game, fills) = two_moves_from_home();
    assert!(fills.iter().all(|&mv| game.legal_moves().contains(mv)), "both fills are legal");
    // The construction's claim: no reply of B or C can reach a hole.
    let holes = Bitboard::EMPTY.with(fills[0].to).with(fills[1].to);
    let mut opponent = *game.position();
    for _ in 0..2 {
        opponent.pass_unchecked();
        assert!(opponent.legal_moves().iter().all(|mv| !holes.contains(mv.to)), "{} can block", opponent.to_move());
    }

    // Root move, best reply, root move: the camp is full three plies on.
    let brs = search_to(&game, 3, true);
    assert_eq!(brs.score, WIN - 3);
    assert!(fills.contains(&brs.best.expect("a move")), "{:?} is not a fill", brs.best);
    // Paranoid search needs both opponents' turns before the root seat's second move.
    let paranoid = search_to(&game, 3, false);
    assert!(paranoid.score < WIN_THRESHOLD, "paranoid at depth 3 scored {}", paranoid.score);
    let paranoid = search_to(&game, 4, false);
    assert_eq!(paranoid.score, WIN - 4);
    assert!(fills.contains(&paranoid.best.expect("a move")));
}

#[test]
fn best_reply_search_changes_nothing_outside_three_players() {
    for setup in [Setup::TwoPlayers, Setup::FourPlayersOneArmy, Setup::FourPlayersBothArmies] {
        let game = random_game(setup, Seat::A, 40, 5);
        let (brs, paranoid) = (search_to(&game, 3, true), search_to(&game, 3, false));
        assert_eq!((brs.best, brs.score, brs.nodes), (paranoid.best, paranoid.score, paranoid.nodes), "{setup}");
    }
}

#[test]
fn best_reply_search_gives_the_same_answer_at_a_fixed_depth_and_differs_from_paranoid() {
    for seed in 0..3 {
        let game = random_game(Setup::ThreePlayers, Seat::A, 60 + seed as usize, seed);
        let first = search_to(&game, 4, true);
        let again = search_to(&game, 4, true);
        assert_eq!((first.best, first.score, first.nodes, first.depth), (again.best, again.score, again.nodes, 4));
        assert!(game.legal_moves().contains(first.best.expect("a move")));
        assert_ne!(first.nodes, search_to(&game, 4, false).nodes, "seed {seed}: the same tree as paranoid");
    }
}

#[test]
fn best_reply_search_through_a_request_plays_legal_moves_and_matches_the_search() {
    for seed in 0..4 {
        let game = random_game(Setup::ThreePlayers, Seat::B, 30 + 20 * seed as usize, seed);
        let request = SearchRequest {
            three_player: Some(ThreePlayerSearch::BestReply),
            ..SearchRequest::new(Level::Master).with_depth(3).with_seed(seed)
        };
        let action = halma_ai::choose_action(&game, &request, &AtomicBool::new(false)).expect("an ongoing game");
        let limits = Limits { depth: 3, deadline: None, threads: 1 };
        let brs_params = SearchParams { best_reply: true, ..Level::Master.params() };
        let direct = search::search(&game, &brs_params, &limits, seed, &AtomicBool::new(false));
        match action {
            halma_rules::Action::Move(route) => {
                assert!(game.legal_moves().contains(route.as_move()));
                assert_eq!(Some(route.as_move()), direct.best, "seed {seed}");
            }
            halma_rules::Action::Pass => assert!(game.must_pass()),
        }
    }
}

/// Only that it ends: a deadline without a depth limit must stop it (the bound is wide,
/// as a loaded machine may be slow to schedule the thread).
#[test]
#[cfg_attr(miri, ignore = "timed against the wall clock, which Miri does not keep")]
fn best_reply_search_ends_at_its_deadline() {
    let game = random_game(Setup::ThreePlayers, Seat::A, 90, 11);
    let started = Instant::now();
    let limits =
        Limits { depth: search::MAX_PLY as u32, deadline: Some(started + Duration::from_millis(200)), threads: 1 };
    let result = search::search(&game, &params(true), &limits, 3, &AtomicBool::new(false));
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    assert!(result.depth >= 1 && result.depth < search::MAX_PLY as u32, "depth {}", result.depth);
    assert!(game.legal_moves().contains(result.best.expect("a move")));
}

#[test]
fn the_engine_chooses_the_three_player_search_by_option() {
    let mut engine = Engine::new();
    assert_eq!(engine.handle("setoption search brs").0, Vec::<String>::new());
    assert_eq!(engine.handle("setoption search PARANOID").0, Vec::<String>::new());
    assert_eq!(engine.handle("setoption search maxn").0, vec!["error bad search 'maxn' (paranoid or brs)".to_string()]);
    assert_eq!(ThreePlayerSearch::from_name("BRS"), Some(ThreePlayerSearch::BestReply));
}

/// Master's own 3p search is Best-Reply Search (it won the match in docs/STRENGTH.md);
/// the other levels keep paranoid.
#[test]
fn master_searches_three_players_with_best_reply_search_by_default() {
    assert_eq!(ThreePlayerSearch::of_level(Level::Master), ThreePlayerSearch::BestReply);
    for level in [Level::Beginner, Level::Casual, Level::Strong] {
        assert_eq!(ThreePlayerSearch::of_level(level), ThreePlayerSearch::Paranoid, "{level:?}");
    }
    let mut differ = 0;
    for seed in 0..6 {
        let game = random_game(Setup::ThreePlayers, Seat::A, 70, seed);
        let limits = Limits { depth: 4, deadline: None, threads: 1 };
        let by_search = |best_reply: bool| {
            let params = SearchParams { best_reply, ..Level::Master.params() };
            search::search(&game, &params, &limits, seed, &AtomicBool::new(false)).best
        };
        let request = SearchRequest::new(Level::Master).with_depth(4).with_seed(seed);
        let Some(halma_rules::Action::Move(route)) = halma_ai::choose_action(&game, &request, &AtomicBool::new(false))
        else {
            panic!("seed {seed}: no move")
        };
        assert_eq!(Some(route.as_move()), by_search(true), "seed {seed}");
        differ += usize::from(by_search(true) != by_search(false));
    }
    assert!(differ > 0, "the two searches chose alike in every game: the check above proves nothing");
}
