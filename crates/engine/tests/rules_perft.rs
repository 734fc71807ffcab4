//! The engine against the independent reference model: camps, start positions, perft
//! counts (also kept as literal numbers once both agreed), and whole seeded games
//! compared ply by ply.

use halma_test_support as common;

use common::reference::{RefPosition, RefSetup, Sq};
use common::{engine_setup, move_set, pick_move, seat, to_sq, TestRng};
use halma_engine::protocol::status_line;
use halma_rules::{parse_hpn, write_hpn, Game, Move, Position};
use std::collections::HashSet;

fn reference_perft(position: &RefPosition, depth: u32) -> u64 {
    position.perft(&mut vec![position.key()], depth)
}

#[test]
fn camps_match_the_reference() {
    for setup in RefSetup::ALL {
        for seat_letter in setup.seats() {
            let engine = engine_setup(setup);
            let start = RefPosition::start(setup, 'A');
            let home: HashSet<Sq> = engine.home_camp(seat(seat_letter)).squares().map(to_sq).collect();
            let target: HashSet<Sq> = engine.target_camp(seat(seat_letter)).squares().map(to_sq).collect();
            assert_eq!(home, start.home(seat_letter), "{setup:?} {seat_letter}");
            assert_eq!(target, start.target(seat_letter), "{setup:?} {seat_letter}");
            assert_eq!(home.len(), setup.army_size(seat_letter));
        }
    }
}

#[test]
fn start_positions_match_the_reference() {
    for setup in RefSetup::ALL {
        for first in setup.seats() {
            let engine = Position::start(engine_setup(setup), seat(first));
            let reference = RefPosition::start(setup, first);
            assert_eq!(write_hpn(&engine), reference.to_hpn());
            assert_eq!(move_set(&engine.legal_moves()), reference.legal_moves(), "{setup:?} {first}");
        }
    }
}

#[test]
fn start_perft_matches_the_reference_to_depth_3() {
    for setup in RefSetup::ALL {
        for first in setup.seats() {
            let game = Game::new(engine_setup(setup), seat(first));
            let reference = RefPosition::start(setup, first);
            for depth in 0..=3 {
                assert_eq!(
                    game.perft(depth),
                    reference_perft(&reference, depth),
                    "{setup:?} first {first} depth {depth}"
                );
            }
        }
    }
}

/// Perft 1, 2, 3 from each start, as computed by the engine and the reference alike.
const START_PERFT: [(&str, char, [u64; 3]); 13] = [
    ("2p", 'A', [40, 1600, 85440]),
    ("2p", 'C', [40, 1600, 85440]),
    ("3p", 'A', [40, 1280, 51200]),
    ("3p", 'B', [32, 1280, 51200]),
    ("3p", 'C', [40, 1600, 51200]),
    ("4p-one", 'A', [32, 1024, 32768]),
    ("4p-one", 'B', [32, 1024, 32768]),
    ("4p-one", 'C', [32, 1024, 32768]),
    ("4p-one", 'D', [32, 1024, 32768]),
    ("4p-both", 'A', [32, 1024, 32768]),
    ("4p-both", 'B', [32, 1024, 32768]),
    ("4p-both", 'C', [32, 1024, 32768]),
    ("4p-both", 'D', [32, 1024, 32768]),
];

#[test]
fn start_perft_counts() {
    for (setup, first, counts) in START_PERFT {
        let game = Game::new(setup.parse().expect("setup"), seat(first));
        let measured: Vec<u64> = (1..=3).map(|depth| game.perft(depth)).collect();
        assert_eq!(measured, counts, "{setup} first {first}");
    }
}

/// Middle-game positions reached by seeded games (mostly greedy moves, some random),
/// with perft from depth 1 on, and how deep the (slow) reference is run here. The
/// deeper counts were checked against the reference once, in a release build.
const MIDDLE_GAMES: [(&str, &[u64], u32); 5] = [
    (
        "11C4/11C1C1C/13C2/13CCC/15C/9AAA4/8C7/6A3AAA3/5C1ACCC5/3A1C5AA3/2A4AA7/C4C10/AAA1C11/C15/4A11/1A14 C 2p 40",
        &[225, 50737, 10886933],
        2,
    ),
    (
        "B1BB10CC/16/8AACAC1C1/B1B4CC5C1/2B7A2CCC/7C2C2C2/1B5B5C2/4CA3C6/16/5AACA7/3C12/5AAAA1A5/A2A5B6/4B11/1AA1A3BB6/4AB10 A 3p 70",
        &[267, 33897, 6130813],
        2,
    ),
    // C and D have no move here: every line passes through their passes.
    (
        "1D3D2AA5C/2A4A6A1/4B4A2C3/2D6B6/2B3A4CA1C1/2A13/D1D1DB4C5/5B10/D4B3B6/C3C11/1C9D4/11D4/DA3A3B1D3B/C2BAB1CC2BB3/16/1C1CA7D2D B 4p-one 120",
        &[119, 120, 262],
        3,
    ),
    (
        "B1B13/3B10C1/2B11CC/1B7D4CC/10C5/2B1B11/1D7DA5/2B4CC1C5/1B2B5A1AA2/5BB1CC6/15D/A1A5AAA4D/DA9D4/1A4A5DD2/C4C1A4DB2/11DD1D1 B 4p-both 70",
        &[114, 13819, 1808846],
        2,
    ),
    // B is bound by the home-leaving duty.
    (
        "D3B1D6C2/B2DB1D7A1/1DB9A3/11A4/1DD4A1D1CA1C1/3CB1C8B/C13A1/4C1C2CB5/7A5D2/3C3B8/1A14/C2AA2B4B3/16/3D2A1D4D2/CA3C5B4/4AB5B3D B 4p-both 120",
        &[7, 966, 2898],
        3,
    ),
];

#[test]
fn middle_game_perft_matches_the_reference() {
    for (hpn, counts, reference_depth) in MIDDLE_GAMES {
        let game = Game::from_position(parse_hpn(hpn).expect("test HPN"));
        let reference = RefPosition::from_hpn(hpn);
        assert_eq!(write_hpn(game.position()), hpn);
        for (depth, &count) in (1..).zip(counts) {
            assert_eq!(game.perft(depth), count, "{hpn} depth {depth}");
            if depth <= reference_depth {
                assert_eq!(reference_perft(&reference, depth), count, "{hpn} depth {depth}");
            }
        }
    }
}

/// What the seeded games went through, so the test can insist they covered the rules.
#[derive(Default, Debug)]
struct Coverage {
    plies: usize,
    duty_plies: usize,
    passes: usize,
    partner_moves: usize,
    wins: usize,
    repetitions: usize,
    routes_checked: usize,
}

/// Plays one seeded game with the reference choosing moves, comparing the engine's
/// moves, routes, duty, passes, position text and status with the reference's at every ply.
fn cross_check(setup: RefSetup, first: char, seed: u64, coverage: &mut Coverage) -> RefPosition {
    let mut rng = TestRng::new(seed);
    let mut game = Game::new(engine_setup(setup), seat(first));
    let mut reference = RefPosition::start(setup, first);
    let mut history = vec![reference.key()];
    let label = |reference: &RefPosition| format!("{setup:?} seed {seed}: {}", reference.to_hpn());
    for ply in 0..1500 {
        assert_eq!(write_hpn(game.position()), reference.to_hpn(), "{setup:?} seed {seed} ply {ply}");
        let status = reference.status(&history);
        assert_eq!(status_line(&game), status, "{}", label(&reference));
        if !status.starts_with("status ongoing") {
            if status.starts_with("status win") {
                coverage.wins += 1;
            } else {
                coverage.repetitions += 1;
            }
            return reference;
        }
        // The game is not won here, so the legal moves are the movement moves, or the
        // duty's moves when it binds (what `reference.legal_moves()` computes).
        let movement = reference.movement_moves();
        let duty = reference.duty_moves(&movement);
        let duty_applies = duty.is_some();
        let moves = duty.unwrap_or(movement);
        assert_eq!(move_set(&game.legal_moves()), moves, "{}", label(&reference));
        assert_eq!(game.position().duty_applies(), duty_applies, "{}", label(&reference));
        assert_eq!(game.must_pass(), moves.is_empty(), "{}", label(&reference));
        coverage.plies += 1;
        coverage.duty_plies += usize::from(duty_applies);
        coverage.partner_moves += usize::from(reference.army_to_move() != reference.to_move);
        if ply % 20 == 0 {
            for &(from, to) in &moves {
                let route = game.position().route(Move { from: common::square(from), to: common::square(to) });
                let squares: Vec<Sq> = route.map(|r| common::to_sqs(r.squares())).unwrap_or_default();
                assert!(reference.is_movement_route(&squares), "route {squares:?} in {}", label(&reference));
                let shortest = if squares.len() == 2 && reference.step_destinations(from).contains(&to) {
                    Some(1)
                } else {
                    reference.fewest_jumps(from, to)
                };
                assert_eq!(Some(squares.len() - 1), shortest, "route {squares:?} in {}", label(&reference));
                coverage.routes_checked += 1;
            }
        }
        if moves.is_empty() {
            assert_eq!(game.pass(), Ok(()));
            reference = reference.pass();
            coverage.passes += 1;
        } else {
            let (from, to) = pick_move(&reference, &moves, &mut rng, 85);
            let played = game.play_move(Move { from: common::square(from), to: common::square(to) });
            assert!(played.is_ok(), "{played:?}");
            reference = reference.play((from, to));
        }
        history.push(reference.key());
    }
    panic!("{setup:?} seed {seed}: no result after 1500 plies");
}

#[test]
fn random_games_agree_with_the_reference() {
    for setup in RefSetup::ALL {
        let mut coverage = Coverage::default();
        for seed in 0..3 {
            let seats = setup.seats();
            let first = seats[seed as usize % seats.len()];
            cross_check(setup, first, seed, &mut coverage);
        }
        println!("{setup:?}: {coverage:?}");
        assert!(coverage.wins >= 1, "{setup:?}: no game was won: {coverage:?}");
        assert!(coverage.duty_plies >= 1, "{setup:?}: the duty never applied: {coverage:?}");
        if setup == RefSetup::FourBoth {
            assert!(coverage.partner_moves >= 1, "no finished seat moved its partner's pieces: {coverage:?}");
        }
    }
}
