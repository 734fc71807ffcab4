//! Property tests of whole games: undo/redo, draw offers, saving and loading, repetition
//! and wins recounted by brute force over the history, and computer games that end.
//!
//! `PROPTEST_CASES=2000 cargo test --no-default-features --test prop_game` for a long run.

use halma_test_support as common;
use halma_test_support::prop as prop_support;

use common::{reference_of, seats_in_play, to_sq, winner_set, winners_text};
use halma_ai::{choose_action, Level, SearchRequest};
use halma_rules::{parse_hpn, Action, DrawReason, Game, Move, Outcome, Position, SeatSet, Setup};
use prop_support::{any_setup, pick, play_recipe, recipe, sparse_hpn};
use proptest::prelude::*;
use std::sync::atomic::AtomicBool;

/// The longest computer game allowed before the test calls it endless.
const COMPUTER_GAME_PLY_CAP: usize = 3_000;

/// Like `prop_support::pick`, but `back_percent` of the time the mover takes back its own
/// previous move when it can, so that positions repeat and repetition draws happen.
fn pick_shuffling(game: &Game, choice: u32, back_percent: u32) -> Option<Action> {
    let seats = seats_in_play(game.setup()).len();
    let history = game.history();
    if !game.is_over() && (choice >> 16) % 100 < back_percent && history.len() >= seats {
        if let Action::Move(route) = &history[history.len() - seats] {
            let back = Move { from: route.to(), to: route.from() };
            if game.legal_moves().contains(back) {
                return game.position().route(back).map(Action::Move);
            }
        }
    }
    pick(game, choice, 50)
}

/// Replays the history on the reference model from the start, checks every position the
/// game keeps, and recounts the current position (placement and seat to move, what
/// repetition compares) to find the outcome by brute force.
fn check_outcome_by_recount(game: &Game) -> Result<(), TestCaseError> {
    let mut reference = reference_of(game.start_position());
    let mut keys = vec![reference.key()];
    for (index, action) in game.history().iter().enumerate() {
        let kept = game.position_before(index).map(reference_of);
        prop_assert_eq!(kept.as_ref(), Some(&reference), "position before action {}", index);
        reference = match action {
            Action::Move(route) => reference.play((to_sq(route.from()), to_sq(route.to()))),
            Action::Pass => reference.pass(),
        };
        keys.push(reference.key());
    }
    prop_assert_eq!(&reference_of(game.position()), &reference);
    prop_assert_eq!(game.repetition_count(), reference.occurrences(&keys));
    let expected = match reference.winners() {
        Some(winners) => Outcome::Win(winner_set(&winners)),
        None if reference.is_repeated(&keys) => Outcome::Draw(DrawReason::Repetition),
        None => Outcome::Ongoing,
    };
    prop_assert_eq!(game.outcome(), expected);
    Ok(())
}

/// Serialises and loads back in every supported way; each must give the same game.
fn check_save_round_trip(game: &Game) -> Result<(), TestCaseError> {
    let json = game.to_json();
    let loaded = Game::from_json(&json);
    prop_assert_eq!(loaded.as_ref(), Ok(game), "save: {}", json);
    let text = serde_json::to_string(game).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let loaded = serde_json::from_str::<Game>(&text).ok();
    prop_assert_eq!(loaded.as_ref(), Some(game));
    let value = serde_json::to_value(game).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let loaded = serde_json::from_value::<Game>(value).ok();
    prop_assert_eq!(loaded.as_ref(), Some(game));
    Ok(())
}

/// Undo then redo gives back the same game; so do k undos then k redos, and undoing
/// for a set of seats goes back to just before the last action of one of them.
fn check_undo_redo(game: &Game, depth: usize, seats: SeatSet) -> Result<(), TestCaseError> {
    let mut copy = game.clone();
    let undone = (0..depth).take_while(|_| copy.undo()).count();
    prop_assert_eq!(undone, depth.min(game.history().len()));
    prop_assert_eq!(copy.history(), &game.history()[..game.history().len() - undone]);
    prop_assert!(!copy.is_over() || undone == 0);
    let redone = (0..undone).take_while(|_| copy.redo()).count();
    prop_assert_eq!(redone, undone);
    prop_assert_eq!(&copy, game);

    let mut copy = game.clone();
    let last = (0..game.history().len()).rev().find(|&i| seats.contains(game.actor(i)));
    prop_assert_eq!(copy.undo_for(seats), last.is_some());
    let kept = last.unwrap_or(game.history().len());
    prop_assert_eq!(copy.history(), &game.history()[..kept]);
    prop_assert_eq!(Some(copy.position()), game.position_before(kept).or(Some(game.position())));
    let redo: Vec<&Action> = copy.redo_list().collect();
    prop_assert_eq!(redo, game.history()[kept..].iter().collect::<Vec<_>>());
    Ok(())
}

/// How often the current position occurs in the game, by a scan of every position kept.
fn scanned_repetitions(game: &Game) -> usize {
    let now = game.position();
    (0..=game.history().len()).filter_map(|i| game.position_before(i)).filter(|p| p.same_placement(now)).count()
}

/// Perft by brute force: each node scans the whole line for its repetitions.
fn scanned_perft(line: &mut Vec<Position>, depth: u32) -> u64 {
    let Some(&now) = line.last() else { return 0 };
    if depth == 0 {
        return 1;
    }
    if now.winners().is_some() || line.iter().filter(|p| p.same_placement(&now)).count() >= 3 {
        return 0;
    }
    let moves = now.legal_moves_ignoring_result();
    let children: Vec<Position> = if moves.is_empty() {
        let mut next = now;
        next.pass_unchecked();
        vec![next]
    } else {
        moves.iter().map(|mv| now.after(mv)).collect()
    };
    children
        .into_iter()
        .map(|next| {
            line.push(next);
            let count = scanned_perft(line, depth - 1);
            line.pop();
            count
        })
        .sum()
}

/// The counted repetitions, the outcome and perft agree with a scan of the history.
fn check_repetition_by_scan(game: &Game, perft: bool) -> Result<(), TestCaseError> {
    let scanned = scanned_repetitions(game);
    prop_assert_eq!(game.repetition_count(), scanned);
    let won = game.position().winners().is_some() || game.outcome() == Outcome::Draw(DrawReason::Agreement);
    if !won {
        prop_assert_eq!(game.outcome() == Outcome::Draw(DrawReason::Repetition), scanned >= 3);
    }
    if perft && !game.is_over() {
        let mut line: Vec<Position> =
            (0..=game.history().len()).filter_map(|i| game.position_before(i)).copied().collect();
        prop_assert_eq!(game.perft(2), scanned_perft(&mut line, 2));
    }
    Ok(())
}

fn seat_set(bits: u32, setup: Setup) -> SeatSet {
    let mut set = SeatSet::EMPTY;
    for (i, &seat) in seats_in_play(setup).iter().enumerate() {
        if bits & (1 << i) != 0 {
            set.insert(seat);
        }
    }
    set
}

/// A draw offer voted on with random answers: the position, history, repetition count
/// and turn do not change; an agreed draw ends the game and one undo reopens it.
fn offer_and_vote(game: &mut Game, bits: u32) -> Result<(), TestCaseError> {
    if !game.can_offer_draw() {
        return Ok(());
    }
    let before = game.clone();
    let offer = game.offer_draw().map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(offer.offerer, before.to_move());
    prop_assert!(!game.can_offer_draw());
    let mut awaiting = offer.awaiting;
    let mut vote = 0;
    loop {
        prop_assert!(game.play_action(&Action::Pass).is_err(), "a move while an offer is pending");
        let accept = (bits >> (vote % 32)) & 1 == 1 || bits.is_multiple_of(7);
        vote += 1;
        let result = game.answer_draw(awaiting, accept).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(game.history(), before.history());
        prop_assert_eq!(game.position(), before.position());
        prop_assert_eq!(game.repetition_count(), before.repetition_count());
        match result {
            halma_rules::VoteResult::Next(seat) => awaiting = seat,
            halma_rules::VoteResult::Refused => {
                prop_assert!(!accept);
                prop_assert_eq!(game.outcome(), Outcome::Ongoing);
                prop_assert!(game.offer_draw().is_err(), "a second offer in the same turn");
                return Ok(());
            }
            halma_rules::VoteResult::Agreed => {
                prop_assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Agreement));
                prop_assert_eq!(vote, seats_in_play(game.setup()).len() - 1);
                return Ok(());
            }
        }
    }
}

proptest! {
    #![proptest_config(prop_support::config(64))]

    /// Undo/redo at random points of random games, including after the game ended.
    #[test]
    fn undo_then_redo_restores_the_exact_game(recipe in recipe(600), depth in 1..6usize, seats in 0..16u32) {
        let mut failure = None;
        let game = play_recipe(&recipe, |game, action| {
            let chosen = match action {
                Action::Move(route) => route.to().index() % 16 == 0,
                Action::Pass => true,
            };
            if failure.is_none() && chosen {
                if let Err(why) = check_undo_redo(game, depth, seat_set(seats, game.setup())) {
                    failure = Some(why);
                }
            }
        });
        if let Some(why) = failure {
            return Err(why);
        }
        check_undo_redo(&game, depth, seat_set(seats, game.setup()))?;
        check_undo_redo(&game, game.history().len(), seat_set(seats, game.setup()))?;
        // A new action after undo drops the redo list.
        let mut copy = game.clone();
        if copy.undo() && copy.undo() {
            if let Some(action) = pick(&copy, depth as u32, 0) {
                prop_assert_eq!(copy.play_action(&action), Ok(()));
                prop_assert_eq!(copy.redo_list().count(), 0);
                prop_assert!(!copy.redo());
            }
        }
    }

}

proptest! {
    #![proptest_config(prop_support::config(64))]

    /// Games with draw offers, votes, undos and a redo list, saved and loaded at random
    /// points: every save loads back to the same game.
    #[test]
    fn saving_and_loading_gives_the_same_game(
        setup in any_setup(),
        first in 0..4usize,
        events in prop::collection::vec(any::<u32>(), 0..400),
    ) {
        let seats = seats_in_play(setup);
        let mut game = Game::new(setup, seats[first % seats.len()]);
        check_save_round_trip(&game)?;
        for (index, &event) in events.iter().enumerate() {
            match event % 32 {
                0 | 1 => offer_and_vote(&mut game, event >> 5)?,
                2 => {
                    game.undo();
                }
                3 => {
                    game.redo();
                }
                _ => {
                    if let Some(action) = pick(&game, event >> 5, 90) {
                        prop_assert_eq!(game.play_action(&action), Ok(()));
                    }
                }
            }
            if index % 25 == 0 {
                check_save_round_trip(&game)?;
            }
        }
        check_save_round_trip(&game)?;
        // A pending offer is saved too.
        if game.can_offer_draw() && game.offer_draw().is_ok() {
            check_save_round_trip(&game)?;
        }
    }

}

proptest! {
    #![proptest_config(prop_support::config(48))]

    /// Repetition draws and wins agree with a brute-force recount over the history, in
    /// games that often take their moves back, from the start and from sparse positions.
    #[test]
    fn repetition_and_wins_agree_with_a_recount(
        recipe in recipe(500),
        back_percent in prop_oneof![Just(0u32), 30..=100u32],
    ) {
        let mut game = Game::new(recipe.setup, recipe.first);
        for &choice in &recipe.choices {
            check_outcome_by_recount(&game)?;
            let action = if recipe.forward_percent == 100 {
                pick(&game, choice, 100)
            } else {
                pick_shuffling(&game, choice, back_percent)
            };
            let Some(action) = action else { break };
            prop_assert_eq!(game.play_action(&action), Ok(()));
        }
        check_outcome_by_recount(&game)?;
    }

}

proptest! {
    #![proptest_config(prop_support::config(128))]

    #[test]
    fn repetition_from_sparse_positions_agrees_with_a_recount(
        hpn in sparse_hpn(),
        choices in prop::collection::vec(any::<u32>(), 0..200),
        back_percent in 50..=100u32,
    ) {
        let start = parse_hpn(&hpn).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut game = Game::from_position(start);
        for &choice in &choices {
            check_outcome_by_recount(&game)?;
            let Some(action) = pick_shuffling(&game, choice, back_percent) else { break };
            prop_assert_eq!(game.play_action(&action), Ok(()));
        }
        check_outcome_by_recount(&game)?;
    }
}

proptest! {
    #![proptest_config(prop_support::config(32))]

    /// Greedy computer players on every seat finish every setup: a win or a repetition
    /// draw, well before the cap.
    #[test]
    fn computer_games_end(setup in any_setup(), first in 0..4usize, seed in any::<u64>()) {
        let seats = seats_in_play(setup);
        let mut game = Game::new(setup, seats[first % seats.len()]);
        let mut request = SearchRequest::new(Level::Greedy);
        request.depth = Some(2);
        request.seed = seed;
        let stop = AtomicBool::new(false);
        for _ in 0..COMPUTER_GAME_PLY_CAP {
            let Some(action) = choose_action(&game, &request, &stop) else { break };
            prop_assert_eq!(game.play_action(&action), Ok(()), "the computer chose {}", action);
        }
        let outcome = game.outcome();
        prop_assert!(
            matches!(outcome, Outcome::Win(_) | Outcome::Draw(DrawReason::Repetition)),
            "{} first {} seed {}: {:?} after {} plies",
            setup, game.first_seat(), seed, outcome, game.history().len()
        );
        if let Outcome::Win(winners) = outcome {
            prop_assert_eq!(Some(winners_text(winners)), reference_of(game.position()).winners());
        }
    }
}

proptest! {
    #![proptest_config(prop_support::config(64))]

    /// The repetition count kept with the history agrees with a scan of it after every
    /// step of random games that shuffle back and forth, undo, redo, undo for a set of
    /// seats, and are saved and loaded; perft's repetitions too, now and then.
    #[test]
    fn counted_repetitions_agree_with_a_scan_through_undo_and_redo(
        setup in any_setup(),
        first in 0..4usize,
        events in prop::collection::vec(any::<u32>(), 0..400),
    ) {
        let seats = seats_in_play(setup);
        let mut game = Game::new(setup, seats[first % seats.len()]);
        for (index, &event) in events.iter().enumerate() {
            match event % 16 {
                0..=2 => {
                    game.undo();
                }
                3..=5 => {
                    game.redo();
                }
                6 => {
                    game.undo_for(seat_set(event >> 4, setup));
                }
                7 => {
                    for _ in 0..(event >> 4) % 8 {
                        game.undo();
                    }
                }
                8 => {
                    game = Game::from_json(&game.to_json()).map_err(|e| TestCaseError::fail(e.to_string()))?;
                }
                _ => {
                    if let Some(action) = pick_shuffling(&game, event >> 4, 70) {
                        prop_assert_eq!(game.play_action(&action), Ok(()));
                    }
                }
            }
            check_repetition_by_scan(&game, index % 20 == 0)?;
        }
    }
}
