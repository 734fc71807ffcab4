//! Property tests of the rules engine against the independent reference model of
//! `tests/common/reference.rs`: over random and forward-biased games in every setup and
//! from random sparse HPN positions, every position is checked square by square and
//! every legal move is generated, routed, checked and played.
//!
//! `PROPTEST_CASES=2000 cargo test --no-default-features --test prop_rules` for a long run.

use halma_test_support as common;
use halma_test_support::prop as prop_support;

use common::{army_size, move_set, reference_of, seats_in_play, squares, to_sq, to_sqs, winners_text};
use halma_rules::{parse_hpn, parse_move, write_hpn, Bitboard, Game, Move, MoveText, Outcome, Seat, Setup, Square};
use prop_support::{play_choices, play_recipe, random_route, recipe, sparse_hpn, Recipe};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

/// Random routes tried on each position, legal or not.
const RANDOM_ROUTES_PER_POSITION: usize = 6;

/// Checks one position of `game` against the reference; `armies` are the piece counts per seat.
fn check_position(game: &Game, armies: [u32; 4], seed: u64) -> Result<(), TestCaseError> {
    let position = game.position();
    let reference = reference_of(position);

    // Pieces: counts conserved, no two on one square, nothing outside the seats in play.
    let mut union = Bitboard::EMPTY;
    for seat in Seat::ALL {
        prop_assert_eq!(position.pieces(seat).count(), armies[seat.index()], "piece count of {}", seat);
        for other in Seat::ALL.into_iter().filter(|&other| other > seat) {
            prop_assert!((position.pieces(seat) & position.pieces(other)).is_empty(), "{} and {} overlap", seat, other);
        }
        union |= position.pieces(seat);
    }
    prop_assert_eq!(position.occupied(), union);
    for at in Square::all() {
        prop_assert_eq!(position.piece_at(at).map(Seat::letter), reference.at(to_sq(at)));
    }

    // Notation: HPN written the obvious way, and read back to the same position.
    let hpn = write_hpn(position);
    prop_assert_eq!(&hpn, &reference.to_hpn());
    prop_assert_eq!(parse_hpn(&hpn), Ok(*position));

    // Turn counting, whose army moves, the duty and wins.
    prop_assert_eq!(position.first_seat().letter(), reference.first_seat());
    for seat in Seat::ALL {
        prop_assert_eq!(position.turns_taken(seat), reference.turns_taken(seat.letter()), "turns of {}", seat);
    }
    prop_assert_eq!(position.army_to_move().letter(), reference.army_to_move());
    prop_assert_eq!(position.duty_applies(), reference.duty_applies());
    prop_assert_eq!(position.winners().map(winners_text), reference.winners());

    // Move generation: exactly the reference's moves, sorted by origin then destination
    // square (by index, as the engine numbers them), none twice.
    let legal = reference.legal_moves();
    let moves = position.legal_moves();
    let listed: Vec<(Square, Square)> = moves.iter().map(|mv| (mv.from, mv.to)).collect();
    prop_assert_eq!(move_set(&moves), legal.clone());
    prop_assert!(listed.windows(2).all(|pair| pair[0] < pair[1]), "moves are not sorted or repeat");
    prop_assert_eq!(moves.count(), legal.len() as u64);
    prop_assert_eq!(game.must_pass(), legal.is_empty() && !game.is_over());
    if !game.is_over() {
        prop_assert_eq!(game.legal_moves().iter().collect::<Vec<Move>>(), moves.iter().collect::<Vec<Move>>());
    }

    // Every move (on every eighth ply; a spread of four on the others, to keep the run
    // short): a legal route, checked by the engine, played to the reference's position.
    let stride = if seed.is_multiple_of(8) { 1 } else { (legal.len() / 4).max(1) };
    for mv in moves.iter().skip(seed as usize % stride).step_by(stride) {
        let route = position.route(mv);
        prop_assert!(route.is_some(), "no route for {}-{}", mv.from, mv.to);
        let route = route.unwrap_or_else(|| unreachable!());
        prop_assert!(reference.is_legal_route_among(&legal, &to_sqs(route.squares())), "route {} breaks a rule", route);
        prop_assert_eq!(route.as_move(), mv);
        prop_assert_eq!(position.check_route(route.squares()), Ok(mv));
        prop_assert_eq!(parse_move(&route.to_string()), Ok(MoveText::Route(route.squares().to_vec())));
        let mut single = Game::from_position(*position);
        prop_assert_eq!(single.play_route(route.squares()), Ok(mv));
        let after = position.after(mv);
        prop_assert_eq!(single.position(), &after);
        prop_assert_eq!(reference_of(&after), reference.play((to_sq(mv.from), to_sq(mv.to))));
    }

    // Routes of every kind, legal or not: the engine agrees with the reference.
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..RANDOM_ROUTES_PER_POSITION {
        let sqs = random_route(&reference, &mut rng);
        let route = squares(&sqs);
        let expected = reference.is_legal_route_among(&legal, &sqs);
        let checked = position.check_route(&route);
        let text: Vec<String> = route.iter().map(Square::to_string).collect();
        prop_assert_eq!(checked.is_ok(), expected, "check_route({}) = {:?}", text.join("-"), checked);
        if let (Some(&from), Some(&to), Ok(mv)) = (route.first(), route.last(), &checked) {
            prop_assert_eq!(*mv, Move { from, to });
        }
        // The same route as a partial jump chain: valid or not alike, and the same next landings.
        let extensions = reference.chain_extensions(&sqs);
        match position.jump_extensions(&route) {
            Ok(next) => {
                prop_assert!(extensions.is_some(), "jump_extensions accepted {}", text.join("-"));
                prop_assert_eq!(Some(next.squares().map(to_sq).collect::<BTreeSet<_>>()), extensions);
            }
            Err(_) => prop_assert!(extensions.is_none(), "jump_extensions refused {}", text.join("-")),
        }
    }
    Ok(())
}

fn full_armies(game: &Game) -> [u32; 4] {
    Seat::ALL.map(|seat| army_size(game.setup(), seat) as u32)
}

proptest! {
    #![proptest_config(prop_support::config(48))]

    /// Random and forward-biased games in every setup, checked at every ply.
    #[test]
    fn every_position_of_random_games_matches_the_reference(recipe in recipe(700)) {
        let mut failure = None;
        let game = play_recipe(&recipe, |game, _| {
            if failure.is_none() {
                let seed = game.history().len() as u64;
                if let Err(why) = check_position(game, full_armies(game), seed) {
                    failure = Some(why);
                }
            }
        });
        if let Some(why) = failure {
            return Err(why);
        }
        check_position(&game, full_armies(&game), u64::MAX)?;
    }

}

proptest! {
    #![proptest_config(prop_support::config(128))]

    /// Positions with fewer pieces anywhere on the board, then a few random plies.
    #[test]
    fn random_sparse_positions_match_the_reference(
        hpn in sparse_hpn(),
        choices in prop::collection::vec(any::<u32>(), 0..40),
        forward_percent in 0..=100u32,
    ) {
        let start = parse_hpn(&hpn);
        prop_assert!(start.is_ok(), "{} does not parse: {:?}", hpn, start);
        let start = start.unwrap_or_else(|_| unreachable!());
        prop_assert_eq!(write_hpn(&start), hpn.clone());
        let armies = Seat::ALL.map(|seat| start.pieces(seat).count());
        for seat in Seat::ALL {
            let in_play = seats_in_play(start.setup()).contains(&seat);
            prop_assert!(in_play || armies[seat.index()] == 0);
        }
        let mut game = Game::from_position(start);
        let mut failure = None;
        play_choices(&mut game, &choices, forward_percent, &mut |game, _| {
            if failure.is_none() {
                if let Err(why) = check_position(game, armies, game.history().len() as u64) {
                    failure = Some(why);
                }
            }
        });
        if let Some(why) = failure {
            return Err(why);
        }
        check_position(&game, armies, u64::MAX)?;
    }
}

/// The generators reach what the properties above are meant to cover: forward-biased
/// games of every setup end in wins, go through the home-leaving duty, and in `4p-both`
/// a seat moves its partner's army. (Fixed seeds: this is about the generator.)
#[test]
fn biased_games_reach_the_late_phases() {
    let mut rng = StdRng::seed_from_u64(7);
    for setup in Setup::ALL {
        let (mut wins, mut duty, mut partner) = (0, 0, 0);
        for &first in setup.seats() {
            let choices = (0..700).map(|_| rng.random()).collect();
            let recipe = Recipe { setup, first, forward_percent: 95, choices };
            let (mut saw_duty, mut saw_partner) = (false, false);
            let game = play_recipe(&recipe, |game, _| {
                saw_duty |= game.position().duty_applies();
                saw_partner |= game.position().army_to_move() != game.to_move();
            });
            wins += usize::from(matches!(game.outcome(), Outcome::Win(_)));
            duty += usize::from(saw_duty);
            partner += usize::from(saw_partner);
        }
        assert!(wins > 0, "{setup}: no biased game was won");
        assert!(duty > 0, "{setup}: the duty never applied");
        assert_eq!(partner > 0, setup == Setup::FourPlayersBothArmies, "{setup}: partner's army moved {partner} times");
    }
}
