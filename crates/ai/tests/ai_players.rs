//! The computer players and hints (issue 3): legal moves in every setup, the home-leaving
//! duty, partner moves in 4p-both, determinism, hints from the public game, draw offers,
//! and a side ahead that never walks into a repetition.
//! Searches here are limited by depth, not time, so the tests are quick and repeatable.

use halma_test_support::ai as ai_support;

use ai_support::common::{assert_legal, game_from, sq};
use ai_support::random_game;
use halma_ai::{Level, SearchRequest};
use halma_rules::{Action, DrawReason, Game, Outcome, Seat, Setup, Square, VoteResult};
use std::sync::atomic::AtomicBool;

fn request(level: Level, depth: u32, seed: u64) -> SearchRequest {
    SearchRequest { depth: Some(depth), ..SearchRequest::new(level).with_seed(seed) }
}

fn squares_of(camp: halma_rules::Bitboard) -> Vec<Square> {
    camp.squares().collect()
}

#[test]
fn every_level_plays_legal_moves_in_random_positions_of_every_setup() {
    let stop = AtomicBool::new(false);
    for setup in Setup::ALL {
        for (game_index, &first) in setup.seats().iter().take(2).enumerate() {
            for plies in [0, 7, 30, 61, 95, 140, 230] {
                let seed = 1000 * game_index as u64 + plies as u64;
                let game = random_game(setup, first, plies, seed);
                if game.is_over() {
                    continue;
                }
                for level in Level::ALL {
                    let depth = if level == Level::Master { 2 } else { 1 };
                    let action = halma_ai::choose_action(&game, &request(level, depth, seed), &stop)
                        .unwrap_or_else(|| panic!("{setup} ply {plies}: {level:?} found no action"));
                    assert_legal(&game, &action, &format!("{setup} ply {plies} {level:?}"));
                }
                let hint = halma_ai::hint(&game, &stop).expect("an ongoing game has a hint");
                assert_legal(&game, &hint, &format!("{setup} ply {plies} hint"));
            }
        }
    }
}

#[test]
fn finished_games_get_no_move() {
    let stop = AtomicBool::new(false);
    let camp = squares_of(Setup::TwoPlayers.target_camp(Seat::A));
    let game = game_from(&[(Seat::A, &camp), (Seat::C, &[sq("h8")])], Seat::C, Setup::TwoPlayers, 101);
    assert!(game.is_over());
    assert_eq!(halma_ai::choose_action(&game, &request(Level::Master, 2, 0), &stop), None);
    assert_eq!(halma_ai::hint(&game, &stop), None);
}

#[test]
fn a_seat_without_moves_passes() {
    // C's only piece sits in the a1 corner, walled in by A's pieces two deep.
    let stop = AtomicBool::new(false);
    let walls = ["b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"].map(sq);
    let game = game_from(&[(Seat::A, &walls), (Seat::C, &[sq("a1")])], Seat::C, Setup::TwoPlayers, 1);
    assert!(game.must_pass());
    for level in Level::ALL {
        assert_eq!(halma_ai::choose_action(&game, &request(level, 2, 0), &stop), Some(Action::Pass));
    }
    assert_eq!(halma_ai::hint(&game, &stop), Some(Action::Pass));
}

#[test]
fn every_level_obeys_the_home_leaving_duty() {
    // A's 31st turn (A moved first, 60 plies played): one A piece is still at home and can
    // leave it; every other A piece is far ahead with much more to gain.
    let stop = AtomicBool::new(false);
    let a_pieces = [
        "d2", "h9", "i9", "j9", "h10", "i10", "j10", "h11", "i11", "j11", "g8", "g9", "g10", "f7", "f8", "e6", "e7",
        "k10", "k11",
    ]
    .map(sq);
    let c_pieces = squares_of(Setup::TwoPlayers.home_camp(Seat::C));
    let game = game_from(&[(Seat::A, &a_pieces), (Seat::C, &c_pieces)], Seat::A, Setup::TwoPlayers, 60);
    assert!(game.position().duty_applies());
    let home = Setup::TwoPlayers.home_camp(Seat::A);
    for level in Level::ALL {
        for depth in [1, 3] {
            let Some(Action::Move(route)) = halma_ai::choose_action(&game, &request(level, depth, 3), &stop) else {
                panic!("{level:?} must move");
            };
            assert_eq!(route.from().to_string(), "d2", "{level:?} depth {depth} ignored the duty: {route}");
            assert!(!home.contains(route.to()), "{level:?} depth {depth} stayed at home: {route}");
        }
    }
    let Some(Action::Move(hint)) = halma_ai::hint(&game, &stop) else { panic!("the hint must be a move") };
    assert!(hint.from().to_string() == "d2" && !home.contains(hint.to()), "hint ignored the duty: {hint}");
}

#[test]
fn duty_holds_in_random_games_played_by_the_computer() {
    // Whole games between levels at depth 1, in every setup: every move is checked, and
    // whenever the duty binds the mover's army leaves home.
    let stop = AtomicBool::new(false);
    for setup in Setup::ALL {
        let mut game = random_game(setup, setup.seats()[0], 20, 7);
        let mut duty_turns = 0;
        for ply in 0..160 {
            if game.is_over() {
                break;
            }
            let seat = game.to_move();
            let level = Level::ALL[(ply + seat.index()) % Level::ALL.len()];
            let action = halma_ai::choose_action(&game, &request(level, 1, ply as u64), &stop).expect("an action");
            if game.position().duty_applies() {
                duty_turns += 1;
                let home = setup.home_camp(seat);
                let Action::Move(route) = &action else { panic!("{setup}: passed under the duty") };
                assert!(home.contains(route.from()) && !home.contains(route.to()), "{setup}: {route} breaks the duty");
            }
            game = assert_legal(&game, &action, &format!("{setup} ply {ply} {level:?}"));
        }
        assert!(duty_turns > 0 || game.is_over(), "{setup}: the duty never came up; the test proves nothing");
    }
}

#[test]
fn a_finished_seat_in_4p_both_moves_its_partners_pieces() {
    // A's army fills its target camp (C's home corner); C still has to travel.
    let stop = AtomicBool::new(false);
    let a_pieces = squares_of(Setup::FourPlayersBothArmies.target_camp(Seat::A));
    let c_pieces = ["f6", "g6", "h6", "f7", "g7", "h7", "f8", "g8", "h8", "i8", "e5", "e6", "e7"].map(sq);
    let b_pieces = squares_of(Setup::FourPlayersBothArmies.home_camp(Seat::B));
    let d_pieces = squares_of(Setup::FourPlayersBothArmies.home_camp(Seat::D));
    let game = game_from(
        &[(Seat::A, &a_pieces), (Seat::B, &b_pieces), (Seat::C, &c_pieces), (Seat::D, &d_pieces)],
        Seat::A,
        Setup::FourPlayersBothArmies,
        4,
    );
    assert_eq!(game.position().army_to_move(), Seat::C);
    for level in Level::ALL {
        let Some(Action::Move(route)) = halma_ai::choose_action(&game, &request(level, 2, 1), &stop) else {
            panic!("{level:?} must move a piece of C");
        };
        assert_eq!(game.position().piece_at(route.from()), Some(Seat::C), "{level:?} played {route}");
        assert_legal(&game, &Action::Move(route), &format!("{level:?}"));
    }
}

#[test]
fn a_fixed_seed_and_depth_give_the_same_move() {
    let stop = AtomicBool::new(false);
    for setup in Setup::ALL {
        let game = random_game(setup, setup.seats()[0], 40, 11);
        for level in Level::ALL {
            let depth = if level == Level::Master { 3 } else { 2 };
            let first = halma_ai::choose_action(&game, &request(level, depth, 99), &stop);
            let again = halma_ai::choose_action(&game.clone(), &request(level, depth, 99), &stop);
            assert!(first.is_some());
            assert_eq!(first, again, "{setup} {level:?}");
        }
    }
}

#[test]
fn hints_depend_only_on_the_public_game() {
    let stop = AtomicBool::new(false);
    for setup in Setup::ALL {
        let game = random_game(setup, setup.seats()[0], 33, 5);
        // The same public game reached another way: a move played and taken back (it
        // leaves a redo list behind), and a save file read back.
        let mut undone = game.clone();
        let mv = undone.legal_moves().iter().next().expect("moves");
        undone.play_move(mv).expect("legal");
        assert!(undone.undo());
        let reloaded = Game::from_json(&game.to_json()).expect("a saved game loads");
        let hint = halma_ai::hint(&game, &stop);
        assert!(hint.is_some());
        assert_eq!(halma_ai::hint(&undone, &stop), hint, "{setup}");
        assert_eq!(halma_ai::hint(&reloaded, &stop), hint, "{setup}");
    }
}

/// A 2p game where A's army has nearly arrived and C's is still in the middle of the board.
fn a_far_ahead() -> Game {
    let mut a_pieces = squares_of(Setup::TwoPlayers.target_camp(Seat::A));
    // One square of A's camp is still free; its last piece stands just outside.
    a_pieces.retain(|&s| s != sq("l16"));
    a_pieces.push(sq("k15"));
    let c_pieces = [
        "e9", "e10", "f10", "g10", "h10", "i10", "j10", "e11", "f11", "g11", "h11", "i11", "j11", "e12", "f12", "g12",
        "h12", "i12", "j12",
    ]
    .map(sq);
    game_from(&[(Seat::A, &a_pieces), (Seat::C, &c_pieces)], Seat::C, Setup::TwoPlayers, 1)
}

/// The armies' total distance to their camps (what progress means for draw offers).
fn total_distance(game: &Game) -> i32 {
    game.setup().seats().iter().map(|&s| halma_ai::eval::remaining_steps(game.position(), s)).sum()
}

/// Plays one move that makes no progress (the total distance stays at least `floor`) and
/// repeats no position: the one that loses least, then keeps A's judgement nearest its
/// value now.
fn stall(game: &Game, floor: i32, seen: &mut Vec<u64>) -> Game {
    let judged = halma_ai::judge(game, Seat::A);
    let next = game
        .legal_moves()
        .iter()
        .map(|mv| {
            let mut next = game.clone();
            next.play_move(mv).expect("legal");
            next
        })
        .filter(|next| total_distance(next) >= floor && !seen.contains(&next.position().hash()))
        .min_by_key(|next| (total_distance(next) - floor, (halma_ai::judge(next, Seat::A) - judged).abs()))
        .expect("a move without progress");
    seen.push(next.position().hash());
    next
}

/// Every seat in play, and whether it accepts a draw offer in `game`.
fn answers(game: &Game) -> Vec<(Seat, bool)> {
    game.setup().seats().iter().map(|&seat| (seat, halma_ai::should_accept_draw(game, seat))).collect()
}

#[test]
fn a_computer_declines_a_draw_at_the_start_of_every_setup() {
    // Even start positions: no seat is behind (3p included, where the 13-piece army has
    // less to do: each army counts its work against its own start) and nothing is stuck.
    for setup in Setup::ALL {
        for &first in setup.seats() {
            let start = Game::new(setup, first);
            for &seat in setup.seats() {
                assert_eq!(halma_ai::judge(&start, seat), 0, "{setup}, {first} first, {seat}");
                assert!(!halma_ai::should_accept_draw(&start, seat), "{setup}, {first} first: {seat} declines");
            }
        }
    }
}

#[test]
fn the_winning_side_refuses_a_draw_and_the_losing_side_accepts() {
    let game = a_far_ahead();
    assert!(halma_ai::plies_without_progress(&game) < halma_ai::STUCK_PLIES, "the game still moves");
    assert!(halma_ai::judge(&game, Seat::C) < -halma_ai::BEHIND_MARGIN);
    assert_eq!(answers(&game), [(Seat::A, false), (Seat::C, true)]);
    // 3p: A has nearly arrived (as above), C stands in the middle of the board, B's
    // 13-piece army is still at home. B and C are clearly behind.
    let setup = Setup::ThreePlayers;
    let a = nearly_home(setup, Seat::A, "l16", "k15");
    let b = squares_of(setup.home_camp(Seat::B));
    let c = [
        "e9", "e10", "f10", "g10", "h10", "i10", "j10", "e11", "f11", "g11", "h11", "i11", "j11", "e12", "f12", "g12",
        "h12", "i12", "j12",
    ]
    .map(sq);
    let three = game_from(&[(Seat::A, &a), (Seat::B, &b), (Seat::C, &c)], Seat::B, setup, 3);
    assert!(halma_ai::plies_without_progress(&three) < halma_ai::STUCK_PLIES);
    assert_eq!(answers(&three), [(Seat::A, false), (Seat::B, true), (Seat::C, true)]);
    // 4p-both: A's and C's armies are home but for one square each, B's and D's have not
    // left home. A seat judges for its team: B and D accept, A and C refuse.
    let setup = Setup::FourPlayersBothArmies;
    let a = nearly_home(setup, Seat::A, "m15", "l14");
    let c = nearly_home(setup, Seat::C, "d2", "e3");
    let b = squares_of(setup.home_camp(Seat::B));
    let d = squares_of(setup.home_camp(Seat::D));
    let teams = game_from(&[(Seat::A, &a), (Seat::B, &b), (Seat::C, &c), (Seat::D, &d)], Seat::B, setup, 5);
    assert!(halma_ai::plies_without_progress(&teams) < halma_ai::STUCK_PLIES);
    assert_eq!(answers(&teams), [(Seat::A, false), (Seat::B, true), (Seat::C, false), (Seat::D, true)]);
}

/// `seat`'s target camp with the square `gap` free and the army's last piece on `outside`.
fn nearly_home(setup: Setup, seat: Seat, gap: &str, outside: &str) -> Vec<Square> {
    let mut pieces = squares_of(setup.target_camp(seat));
    assert!(pieces.contains(&sq(gap)), "{gap} is in {seat}'s target camp");
    pieces.retain(|&s| s != sq(gap));
    pieces.push(sq(outside));
    pieces
}

#[test]
fn a_lead_of_a_move_or_two_is_not_clearly_behind() {
    // In team games a seat judges for its team: after A, B, C, D and A again have moved,
    // A's team is a move ahead. Nobody is clearly behind: every seat declines.
    let mut teams = Game::new(Setup::FourPlayersBothArmies, Seat::A);
    for ply in 0..5 {
        let action = halma_ai::choose_action(&teams, &request(Level::Greedy, 1, ply), &AtomicBool::new(false));
        teams.play_action(&action.expect("an action")).expect("legal");
    }
    let judge = |seat| halma_ai::judge(&teams, seat);
    assert_eq!(judge(Seat::A), judge(Seat::C));
    assert_eq!(judge(Seat::B), judge(Seat::D));
    assert_eq!(judge(Seat::A), -judge(Seat::B));
    assert!(judge(Seat::A) > 0);
    assert_eq!(answers(&teams), [(Seat::A, false), (Seat::B, false), (Seat::C, false), (Seat::D, false)]);
}

/// A 2p game of 44 plies where C answers every move of A with its mirror image (the
/// board turned half a turn): after C's replies the position is symmetric. The armies
/// have met in the middle of the board.
const MIRRORED: &str = "b2-d4 o15-m13 c1-e3 n16-l14 a3-c5 p14-n12 a4-c6 p13-n11 d1-f3 m16-k14 c3-e5 n14-l12 \
    c2-e4-e6 n15-l13-l11 b3-d5-f7 o14-m12-k10 d2-f4-d6-f6-f8 m15-k13-m11-k11-k9 b4-d6-f6 o13-m11-k11 \
    e5-e7-g9 l12-l10-j8 c5-c3-e5-g7 n12-n14-l12-j10 a5-c5-c3-e5-e7-g5 p12-n12-n14-l12-l10-j12 \
    e2-g4-g6-g8-g10 l15-j13-j11-j9-j7 c4-e2-g4-g6-g8 n13-l15-j13-j11-j9 f6-h8-f10-h10 k11-i9-k7-i7 \
    b5-d7 o12-m10 e3-c5-c7-e7 l14-n12-n10-l10 g9-g11-i9-k11-m11-o11 j8-j6-h8-f6-d6-b6 \
    e7-g9-i11-k13-k15 l10-j8-h6-f4-f2 e1-g3-e3-c5-c7-e7-g9-g11-i9-k11-m11 \
    l16-j14-l14-n12-n10-l10-j8-j6-h8-f6-d6 d3-e4 m14-l13";

#[test]
fn a_balanced_game_that_still_moves_is_declined() {
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    for (ply, text) in MIRRORED.split_whitespace().enumerate() {
        game.play_text(text).unwrap_or_else(|e| panic!("ply {ply}, {text}: {e}"));
        assert!(halma_ai::plies_without_progress(&game) < halma_ai::STUCK_PLIES, "ply {ply}");
        // One side a move ahead, or level: both decline.
        assert_eq!(answers(&game), [(Seat::A, false), (Seat::C, false)], "ply {ply}");
    }
    assert_eq!(game.history().len(), 44);
    assert_eq!(halma_ai::judge(&game, Seat::A), 0);
    assert_eq!(halma_ai::judge(&game, Seat::C), 0);
    assert_eq!(halma_ai::plies_without_progress(&game), 0);
}

/// A symmetric 2p game, level for both: both armies are home but for one square each,
/// and their last pieces stand far out on the board's edges. The tests play it on with
/// [`stall`], so the armies never get closer to home than at the start.
fn stuck_level_game() -> Game {
    let mut a_pieces = squares_of(Setup::TwoPlayers.target_camp(Seat::A));
    let mut c_pieces = squares_of(Setup::TwoPlayers.target_camp(Seat::C));
    a_pieces.retain(|&s| s != sq("l16"));
    c_pieces.retain(|&s| s != sq("e1"));
    a_pieces.push(sq("a6"));
    c_pieces.push(sq("p11"));
    game_from(&[(Seat::A, &a_pieces), (Seat::C, &c_pieces)], Seat::A, Setup::TwoPlayers, 0)
}

#[test]
fn a_stuck_game_brings_a_draw_offer_and_a_moving_one_does_not() {
    let mut game = stuck_level_game();
    let floor = total_distance(&game);
    let mut seen = vec![game.position().hash()];
    for ply in 0..halma_ai::STUCK_PLIES + halma_ai::OFFER_INTERVAL + 3 {
        assert_eq!(halma_ai::plies_without_progress(&game), ply);
        // Nobody is ahead (the position is symmetric and stays nearly so): each seat offers
        // once when the game is found stuck, and once more an interval later.
        assert!(halma_ai::judge(&game, game.to_move()).abs() <= halma_ai::DRAW_MARGIN, "ply {ply}");
        let due = ply >= halma_ai::STUCK_PLIES && (ply - halma_ai::STUCK_PLIES) % halma_ai::OFFER_INTERVAL < 2;
        assert_eq!(halma_ai::wants_draw(&game), due, "ply {ply}");
        // Both answer alike: they decline while the game could still move on, and accept
        // once it is stuck.
        let stuck = ply >= halma_ai::STUCK_PLIES;
        assert_eq!(answers(&game), [(Seat::A, stuck), (Seat::C, stuck)], "ply {ply}");
        game = stall(&game, floor, &mut seen);
    }
    // Once offered this turn, not again.
    game.offer_draw().expect("the seat to move may offer");
    assert!(!halma_ai::wants_draw(&game));
    // A game that moves on does not offer.
    let mut moving = Game::new(Setup::TwoPlayers, Seat::A);
    for ply in 0..80 {
        assert!(!halma_ai::wants_draw(&moving), "ply {ply}");
        let action = halma_ai::choose_action(&moving, &request(Level::Greedy, 1, ply), &AtomicBool::new(false));
        moving.play_action(&action.expect("an action")).expect("legal");
    }
}

#[test]
fn a_side_ahead_does_not_offer_even_when_stuck_until_the_lead_is_hopeless() {
    let mut game = a_far_ahead();
    let floor = total_distance(&game);
    let mut seen = vec![game.position().hash()];
    for _ in 0..halma_ai::STUCK_PLIES {
        game = stall(&game, floor, &mut seen);
    }
    assert_eq!(halma_ai::plies_without_progress(&game), halma_ai::STUCK_PLIES);
    assert_eq!(game.to_move(), Seat::C);
    assert!(halma_ai::wants_draw(&game), "C, behind and stuck, offers");
    assert!(halma_ai::should_accept_draw(&game, Seat::C), "C, clearly behind, accepts");
    game = stall(&game, floor, &mut seen);
    assert_eq!(game.to_move(), Seat::A);
    assert!(halma_ai::judge(&game, Seat::A) > halma_ai::DRAW_MARGIN);
    assert!(!halma_ai::wants_draw(&game), "A, far ahead, does not offer");
    assert!(!halma_ai::should_accept_draw(&game, Seat::A), "A, far ahead, refuses");
    // Long stuck, A's lead is worth nothing: it offers and accepts.
    while halma_ai::plies_without_progress(&game) < halma_ai::HOPELESS_PLIES {
        game = stall(&game, floor, &mut seen);
    }
    assert!(halma_ai::judge(&game, Seat::A) > halma_ai::DRAW_MARGIN);
    assert!(halma_ai::should_accept_draw(&game, Seat::A));
    if game.to_move() == Seat::C {
        game = stall(&game, floor, &mut seen);
    }
    let stuck = halma_ai::plies_without_progress(&game);
    let due = (stuck - halma_ai::STUCK_PLIES) % halma_ai::OFFER_INTERVAL < 2;
    assert_eq!(halma_ai::wants_draw(&game), due, "A at {stuck} plies without progress");
}

/// As the app and the arena do between computer seats: the seat to move offers a draw
/// when it wants one, and every other seat answers by its own judgement, in turn order.
/// True when the game ended drawn by agreement.
fn computers_settle_a_draw(game: &mut Game) -> bool {
    if !halma_ai::wants_draw(game) {
        return false;
    }
    game.offer_draw().expect("the seat to move may offer");
    while let Some(offer) = game.pending_offer() {
        let seat = offer.awaiting;
        match game.answer_draw(seat, halma_ai::should_accept_draw(game, seat)).expect("the awaited seat answers") {
            VoteResult::Agreed => return true,
            VoteResult::Refused => return false,
            VoteResult::Next(_) => {}
        }
    }
    false
}

#[test]
fn games_between_computer_seats_end_in_a_draw_once_stuck() {
    // Level and stuck: drawn at the first offer, when the game is found stuck.
    let mut level = stuck_level_game();
    let floor = total_distance(&level);
    let mut seen = vec![level.position().hash()];
    while !computers_settle_a_draw(&mut level) {
        assert!(halma_ai::plies_without_progress(&level) < halma_ai::STUCK_PLIES);
        level = stall(&level, floor, &mut seen);
    }
    assert_eq!(level.outcome(), Outcome::Draw(DrawReason::Agreement));
    assert_eq!(halma_ai::plies_without_progress(&level), halma_ai::STUCK_PLIES);
    // One side far ahead and stuck: it refuses until its lead is hopeless, then the next
    // offer (every OFFER_INTERVAL plies) is accepted.
    let mut lopsided = a_far_ahead();
    let floor = total_distance(&lopsided);
    let mut seen = vec![lopsided.position().hash()];
    while !computers_settle_a_draw(&mut lopsided) {
        assert!(halma_ai::plies_without_progress(&lopsided) <= halma_ai::HOPELESS_PLIES + 1);
        lopsided = stall(&lopsided, floor, &mut seen);
    }
    assert_eq!(lopsided.outcome(), Outcome::Draw(DrawReason::Agreement));
    let stuck = halma_ai::plies_without_progress(&lopsided);
    assert!((halma_ai::HOPELESS_PLIES..=halma_ai::HOPELESS_PLIES + 1).contains(&stuck), "drawn at {stuck}");
}

#[test]
fn a_side_ahead_never_walks_into_a_repetition() {
    // As in `a_far_ahead`, but a purple piece holds A's last free camp square: A cannot
    // finish and can only shuffle, while C steps one piece back and forth (j12, k12),
    // inviting A to shuffle back and forth too and repeat the position.
    let mut a_pieces = squares_of(Setup::TwoPlayers.target_camp(Seat::A));
    a_pieces.retain(|&s| s != sq("l16"));
    a_pieces.push(sq("k15"));
    let c_pieces = [
        "l16", "e10", "f10", "g10", "h10", "i10", "j10", "e11", "f11", "g11", "h11", "i11", "j11", "e12", "f12", "g12",
        "h12", "i12", "j12",
    ]
    .map(sq);
    let mut game = game_from(&[(Seat::A, &a_pieces), (Seat::C, &c_pieces)], Seat::A, Setup::TwoPlayers, 1);
    assert!(halma_ai::is_ahead(&game, Seat::A));
    let stop = AtomicBool::new(false);
    let mut seen = vec![game.position().hash()];
    // Fewer than 30 turns each: C, with a piece at home, would then have to leave.
    for ply in 0..25u64 {
        let action = halma_ai::choose_action(&game, &request(Level::Master, 2, ply), &stop).expect("A can move");
        game = assert_legal(&game, &action, "A ahead");
        let hash = game.position().hash();
        assert!(!seen.contains(&hash), "A, ahead, went back to an earlier position at ply {ply} ({action:?})");
        seen.push(hash);
        let step = if game.position().piece_at("j12".parse().expect("square")) == Some(Seat::C) {
            "j12-k12"
        } else {
            "k12-j12"
        };
        game.play_text(step).expect("C's step is legal");
        seen.push(game.position().hash());
        assert!(!game.is_over(), "no repetition ends the game");
    }
}

#[test]
fn levels_and_names_round_trip() {
    for level in Level::ALL {
        assert_eq!(Level::from_name(level.name()), Some(level));
        assert_eq!(Level::from_name(&level.name().to_uppercase()), Some(level));
    }
    assert_eq!(Level::from_name("Grandmaster"), None);
    assert!(Level::PLAYABLE.windows(2).all(|w| w[0].movetime() <= w[1].movetime()));
    assert!(Level::Master.movetime() <= std::time::Duration::from_secs(1));
}
