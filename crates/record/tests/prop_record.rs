//! Property tests of game records (`halma_record`): a record written by `to_text` reads
//! back to the same record (the same `Game`, history, outcome and draw votes included,
//! and the same header), for random games of every setup: unfinished, won, drawn by
//! repetition or agreement, with passes, and from random start positions. The text is
//! stable, and many records read back one after the other. Comments of any text read
//! back cleaned, where they were written, and never change the game.
//!
//! `PROPTEST_CASES=2000 cargo test --no-default-features --test prop_record` for a long run.

use halma_test_support as common;
use halma_test_support::prop as prop_support;

use common::seats_in_play;
use halma_ai::Level;
use halma_record::{clean_comment, Comment, Record, SeatPlayer};
use halma_rules::{parse_hpn, Action, Game, Move, Outcome, SavedGame, Setup};
use prop_support::{any_setup, pick, sparse_hpn};
use proptest::prelude::*;

/// Who played a seat, or unknown.
fn any_player() -> impl Strategy<Value = Option<SeatPlayer>> {
    prop_oneof![
        Just(None),
        Just(Some(SeatPlayer::Human)),
        prop::sample::select(Level::ALL.to_vec()).prop_map(|level| Some(SeatPlayer::Computer(level))),
        "[a-z./][a-z0-9 ./'\"\\\\=-]{0,20}[a-z0-9]".prop_map(|name| Some(SeatPlayer::Program(name))),
    ]
}

/// The header fields of a record: players of all four seats (those out of play are
/// dropped for the setup), a date and a termination of any one-line text.
#[derive(Clone, Debug)]
struct Header {
    players: [Option<SeatPlayer>; 4],
    date: Option<String>,
    termination: Option<String>,
}

fn any_header() -> impl Strategy<Value = Header> {
    (
        [any_player(), any_player(), any_player(), any_player()],
        prop::option::of("[0-9?]{4}\\.[0-9?]{2}\\.[0-9?]{2}"),
        prop::option::of("\\PC{0,40}"),
    )
        .prop_map(|(players, date, termination)| Header { players, date, termination })
}

fn record_of(game: Game, header: &Header) -> Record {
    let mut record = Record::new(game);
    for &seat in record.game.setup().seats() {
        record.players[seat] = header.players[seat.index()].clone();
    }
    record.date = header.date.clone();
    record.termination = header.termination.clone();
    record
}

/// The game without its redo list (which a record does not keep), through the save format.
fn without_redo(game: &Game) -> Game {
    let mut saved = SavedGame::from(game.clone());
    saved.redo.clear();
    Game::try_from(saved).expect("a game's own save loads")
}

/// Writes the record, reads it back and checks that it is the same, and that the text
/// is stable.
fn check_round_trip(record: &Record) -> Result<(), TestCaseError> {
    let text = record.to_text();
    let read = Record::parse(&text);
    let expected = Record { game: without_redo(&record.game), ..record.clone() };
    prop_assert_eq!(read.as_ref().map_err(ToString::to_string), Ok(&expected), "written as:\n{}", text);
    let again = read.map(|r| r.to_text()).map_err(|e| e.to_string());
    prop_assert_eq!(again.as_deref(), Ok(text.as_str()));
    Ok(())
}

/// The mover takes back its own previous move when it can (so positions repeat and
/// repetition draws happen), otherwise a random pick.
fn pick_back(game: &Game, choice: u32) -> Option<Action> {
    let seats = seats_in_play(game.setup()).len();
    let history = game.history();
    if !game.is_over() && history.len() >= seats {
        if let Action::Move(route) = &history[history.len() - seats] {
            let back = Move { from: route.to(), to: route.from() };
            if game.legal_moves().contains(back) {
                return game.position().route(back).map(Action::Move);
            }
        }
    }
    pick(game, choice, 50)
}

/// A draw offer by the seat to move, then votes from `bits` until it is agreed, refused,
/// or (when `stop` comes first) left waiting.
fn offer_and_vote(game: &mut Game, bits: u32, stop: usize) {
    if game.offer_draw().is_err() {
        return;
    }
    let mut vote = 0;
    while let Some(offer) = game.pending_offer() {
        if vote == stop {
            return;
        }
        let accept = (bits >> (vote % 32)) & 1 == 1 || bits.is_multiple_of(5);
        vote += 1;
        if game.answer_draw(offer.awaiting, accept).is_err() {
            return;
        }
    }
}

/// Plays one event: mostly a move (forward-biased by `forward_percent`), sometimes a move
/// back, an undo, a redo or a draw offer with its votes.
fn play_event(game: &mut Game, event: u32, forward_percent: u32) -> Result<(), TestCaseError> {
    match event % 40 {
        0 => offer_and_vote(game, event >> 6, 8),
        1 => {
            game.undo();
        }
        2 => {
            game.redo();
        }
        3..=8 => {
            if game.pending_offer().is_none() {
                if let Some(action) = pick_back(game, event >> 6) {
                    prop_assert_eq!(game.play_action(&action), Ok(()));
                }
            }
        }
        _ => {
            if game.pending_offer().is_none() {
                if let Some(action) = pick(game, event >> 6, forward_percent) {
                    prop_assert_eq!(game.play_action(&action), Ok(()));
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(prop_support::config(64))]

    /// Random games of every setup and first seat, with moves back, undos, redos and
    /// draw votes, checked along the way and at the end, where the last turn's votes
    /// (an offer waiting, refused or agreed) are written too.
    #[test]
    fn export_then_import_gives_the_same_game(
        setup in any_setup(),
        first in 0..4usize,
        forward_percent in prop_oneof![Just(0u32), Just(80u32), Just(95u32), Just(100u32)],
        events in prop::collection::vec(any::<u32>(), 0..800),
        header in any_header(),
        last_votes in any::<u32>(),
    ) {
        let seats = seats_in_play(setup);
        let mut game = Game::new(setup, seats[first % seats.len()]);
        for (index, &event) in events.iter().enumerate() {
            play_event(&mut game, event, forward_percent)?;
            if index % 100 == 99 {
                check_round_trip(&record_of(game.clone(), &header))?;
            }
        }
        check_round_trip(&record_of(game.clone(), &header))?;
        offer_and_vote(&mut game, last_votes >> 4, (last_votes % 4) as usize);
        check_round_trip(&record_of(game.clone(), &header))?;
    }

    /// Games driven to their end: forward moves until one seat or team has filled its
    /// camp (or, with moves back, the position repeats), every setup.
    #[test]
    fn finished_games_round_trip(
        setup in any_setup(),
        first in 0..4usize,
        back_percent in prop_oneof![Just(0u32), Just(30u32)],
        choices in prop::collection::vec(any::<u32>(), 2000),
        header in any_header(),
    ) {
        let seats = seats_in_play(setup);
        let mut game = Game::new(setup, seats[first % seats.len()]);
        for &choice in &choices {
            let action = if choice % 100 < back_percent { pick_back(&game, choice >> 8) } else { pick(&game, choice >> 8, 100) };
            let Some(action) = action else { break };
            prop_assert_eq!(game.play_action(&action), Ok(()));
        }
        check_round_trip(&record_of(game, &header))?;
    }

    /// Games from random start positions (the `Start` tag), where passes are common.
    #[test]
    fn games_from_any_start_round_trip(
        hpn in sparse_hpn(),
        events in prop::collection::vec(any::<u32>(), 0..200),
        header in any_header(),
    ) {
        let mut game = Game::from_position(parse_hpn(&hpn).expect("the generator writes valid HPN"));
        for &event in &events {
            play_event(&mut game, event, 50)?;
        }
        check_round_trip(&record_of(game, &header))?;
    }

    /// Comments of any text (braces, line breaks, tabs, other scripts) at any place, even
    /// past the last action, read back cleaned ([`clean_comment`]) after the action they
    /// follow (the last for those past it), in order; empty ones are dropped. The game is
    /// the same as without them and the text is stable.
    #[test]
    fn comments_read_back_cleaned_and_never_change_the_game(
        setup in any_setup(),
        events in prop::collection::vec(any::<u32>(), 0..120),
        comments in prop::collection::vec((0..130usize, prop_oneof!["\\PC{0,30}", "[{}\n\t\r a-z\\[\\]]{0,20}"]), 0..12),
    ) {
        let mut game = Game::new(setup, setup.seats()[0]);
        for &event in &events {
            play_event(&mut game, event, 80)?;
        }
        let mut record = Record::new(game);
        record.comments = comments.into_iter().map(|(after, text)| Comment::new(after, text)).collect();
        let actions = record.game.history().len();
        let mut expected: Vec<Comment> = record
            .comments
            .iter()
            .map(|comment| Comment::new(comment.after.min(actions), clean_comment(&comment.text)))
            .filter(|comment| !comment.text.is_empty())
            .collect();
        expected.sort_by_key(|comment| comment.after);
        let text = record.to_text();
        let read = Record::parse(&text).map_err(|e| e.to_string());
        let expected = Record { game: without_redo(&record.game), comments: expected, ..record.clone() };
        prop_assert_eq!(read.as_ref(), Ok(&expected), "written as:\n{}", text);
        prop_assert_eq!(expected.to_text(), text.clone());
        let without = Record::parse(&Record { comments: Vec::new(), ..record }.to_text()).map_err(|e| e.to_string());
        prop_assert_eq!(without.map(|r| r.game), Ok(expected.game));
    }

    /// Several records in one text (as the arena writes them) read back in order.
    #[test]
    fn many_records_read_back_in_order(
        games in prop::collection::vec((any_setup(), prop::collection::vec(any::<u32>(), 0..60)), 1..5),
        header in any_header(),
    ) {
        let mut records = Vec::new();
        for (setup, events) in games {
            let mut game = Game::new(setup, setup.seats()[0]);
            for &event in &events {
                if let Some(action) = pick(&game, event, 50) {
                    prop_assert_eq!(game.play_action(&action), Ok(()));
                }
            }
            records.push(record_of(game, &header));
        }
        let text: Vec<String> = records.iter().map(Record::to_text).collect();
        let read = Record::parse_many(&text.join("\n")).map_err(|e| e.to_string());
        prop_assert_eq!(read, Ok(records));
    }
}

/// The generators reach what the properties are about: wins in every setup, repetition
/// draws and agreed draws.
#[test]
fn finished_games_are_reached() {
    for setup in Setup::ALL {
        let mut game = Game::new(setup, setup.seats()[0]);
        let mut choice = 0u32;
        while let Some(action) = pick(&game, choice, 100) {
            game.play_action(&action).expect("its own action");
            choice = choice.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            assert!(game.history().len() < 5_000, "{setup}: no end");
        }
        assert!(matches!(game.outcome(), Outcome::Win(_)), "{setup}: {:?}", game.outcome());
        let record = Record::new(game);
        assert_eq!(Record::parse(&record.to_text()), Ok(record));
    }
}
