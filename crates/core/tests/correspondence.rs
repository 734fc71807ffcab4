//! Play by message between two "devices" (two data folders): a whole game passed back and
//! forth as text, and the messages each device must refuse without changing its game.

use halma_ai::{choose_action, Level, SearchRequest};
use halma_core::correspondence::{
    compose, english_header, CorrespondenceGame, CorrespondenceStore, Decision, GameId, ParseError, ReceiveError,
    Refusal, Turn, MAX_MESSAGE_BYTES,
};
use halma_record::Record;
use halma_rules::{Action, Game, Seat, SeatSet, Setup};
use std::fs;
use std::sync::atomic::AtomicBool;

struct Device {
    _folder: tempfile::TempDir,
    store: CorrespondenceStore,
}

impl Device {
    fn new() -> Device {
        let folder = tempfile::tempdir().expect("a temporary data folder");
        let store = CorrespondenceStore::in_data_dir(folder.path());
        Device { _folder: folder, store }
    }

    /// This device's move in game `id` by the computer, saved; returns the message to send.
    fn move_and_send(&self, id: GameId, seed: u64) -> (Action, String) {
        let mut game = self.store.load(id).expect("the game loads");
        let action = computer_move(game.game(), seed);
        game.play_local(&action).expect("a local seat's legal move");
        self.store.save(&game).expect("saved");
        let text = game.compose(&english_header(game.game()));
        (action, text)
    }

    fn file_of(&self, id: GameId) -> String {
        fs::read_to_string(self.store.dir().join(format!("{id}.json"))).expect("the game's file")
    }
}

fn computer_move(game: &Game, seed: u64) -> Action {
    let request = SearchRequest::new(Level::Greedy).with_seed(seed);
    choose_action(game, &request, &AtomicBool::new(false)).expect("the game goes on")
}

/// Starts a game on `blue` (seat A) and has `purple` accept it; returns its id.
fn start(blue: &Device, purple: &Device) -> GameId {
    let game = CorrespondenceGame::new(Game::new(Setup::TwoPlayers, Seat::A), SeatSet::single(Seat::A))
        .expect("a game by message");
    let id = game.id;
    blue.store.save(&game).expect("saved");
    let (_, text) = blue.move_and_send(id, 1);
    match purple.store.receive(&text) {
        Ok(Decision::NewGame(new)) => {
            assert_eq!(new.game.id, id);
            assert_eq!(new.game.local, SeatSet::single(Seat::C));
            assert_eq!(new.from, SeatSet::single(Seat::A));
            assert_eq!(new.game.turn(), Turn::Local(Seat::C));
            purple.store.save(&new.game).expect("saved");
        }
        other => panic!("expected a new game, got {other:?}"),
    }
    id
}

#[test]
fn two_devices_play_a_whole_game_by_message() {
    let (blue, purple) = (Device::new(), Device::new());
    let id = start(&blue, &purple);
    let mut size_at_175 = None;
    let mut largest = 0;
    for ply in 1..2000u64 {
        let (sender, receiver, seat) = if ply % 2 == 1 { (&purple, &blue, Seat::C) } else { (&blue, &purple, Seat::A) };
        let (action, text) = sender.move_and_send(id, ply);
        largest = largest.max(text.len());
        let decision = receiver.store.receive(&text).expect("read and saved");
        let Decision::Applied(applied) = decision else { panic!("ply {ply}: {decision:?}") };
        assert_eq!(applied.played, vec![(seat, action)], "ply {ply}");
        assert!(applied.votes.is_empty());
        let game = receiver.store.load(id).expect("loads");
        assert_eq!(game.game(), sender.store.load(id).expect("loads").game(), "both devices hold the same game");
        if game.game().history().len() == 175 {
            size_at_175 = Some(text.len());
        }
        if game.game().is_over() {
            assert!(matches!(game.turn(), Turn::Over(_)));
            assert!(text.contains(" turn=-\n"), "a finished game names nobody to move");
            eprintln!(
                "game over after {} actions: {:?}; message at 175 actions: {size_at_175:?} bytes, largest {largest} bytes",
                game.game().history().len(),
                game.game().outcome()
            );
            // docs/NETWORK.md states the size of a 175-action game's message (2452 bytes with the
            // Greedy players' long jumps); it must fit the strictest chat app's 4096 characters.
            let size = size_at_175.expect("the game reached 175 actions");
            assert!(size < 4096, "a 175-action game's message is {size} bytes");
            let (games, damaged) = blue.store.list();
            assert_eq!(games.len(), 1);
            assert!(damaged.is_empty());
            return;
        }
    }
    panic!("the game did not end");
}

/// The messages each device must refuse, with the game file unchanged after each.
#[test]
fn refusals_leave_the_game_unchanged() {
    let (blue, purple) = (Device::new(), Device::new());
    let id = start(&blue, &purple);
    let (_, old_from_purple) = purple.move_and_send(id, 2);
    assert!(matches!(blue.store.receive(&old_from_purple), Ok(Decision::Applied(_))));
    let (_, to_purple) = blue.move_and_send(id, 3);
    assert!(matches!(purple.store.receive(&to_purple), Ok(Decision::Applied(_))));
    let (_, latest_from_purple) = purple.move_and_send(id, 4);
    assert!(matches!(blue.store.receive(&latest_from_purple), Ok(Decision::Applied(_))));
    // Blue to move, 4 actions played.
    let known = blue.store.load(id).expect("loads");
    assert_eq!(known.game().history().len(), 4);
    assert_eq!(known.turn(), Turn::Local(Seat::A));
    let before = blue.file_of(id);

    let refused = |text: &str| match blue.store.receive(text) {
        Ok(Decision::Refused { id: refused_id, reason }) => {
            assert_eq!(refused_id, id);
            reason
        }
        other => panic!("expected a refusal, got {other:?}"),
    };
    let from_purple = |game: Game| compose("Halma", id, SeatSet::single(Seat::C), &Record::new(game));

    // A replayed old message, and the latest one again.
    assert_eq!(refused(&old_from_purple), Refusal::OldMessage);
    assert_eq!(refused(&latest_from_purple), Refusal::NothingNew);

    // Rewritten history: Purple's first move played differently, then the game goes on.
    let history = known.game().history().to_vec();
    let mut rewritten = Game::new(Setup::TwoPlayers, Seat::A);
    rewritten.play_action(&history[0]).expect("legal");
    let other = rewritten
        .legal_moves()
        .iter()
        .find(|mv| Action::Move(rewritten.position().route(*mv).expect("a route")) != history[1]);
    let other = other.expect("another move");
    rewritten.play_move(other).expect("legal");
    for seed in 0..3 {
        let action = computer_move(&rewritten, seed);
        rewritten.play_action(&action).expect("legal");
    }
    assert_eq!(refused(&from_purple(rewritten)), Refusal::Rewritten { action: 2 });

    // A skipped turn: Purple plays Blue's move and its own again.
    let mut skipping = known.game().clone();
    for seed in 0..2 {
        let action = computer_move(&skipping, seed);
        skipping.play_action(&action).expect("legal");
    }
    assert_eq!(refused(&from_purple(skipping.clone())), Refusal::SkippedTurn { seat: Seat::A });

    // The wrong seat: a message that says it comes from Blue.
    let mut extended = known.game().clone();
    extended.play_action(&computer_move(&extended, 9)).expect("legal");
    let as_blue = compose("Halma", id, SeatSet::single(Seat::A), &Record::new(extended.clone()));
    // (Blue's own move, sent back: Purple's seat did not play it.)
    assert_eq!(refused(&as_blue), Refusal::WrongSeat { seats: SeatSet::single(Seat::A) });

    // Oversized and garbage texts.
    let oversized = format!("{latest_from_purple}{}", " ".repeat(MAX_MESSAGE_BYTES));
    assert_eq!(
        blue.store.receive(&oversized),
        Err(ReceiveError::Parse(ParseError::TooLarge { bytes: oversized.len(), limit: MAX_MESSAGE_BYTES }))
    );
    assert_eq!(blue.store.receive("\u{0}\u{1}garbage ☃ [Halma"), Err(ReceiveError::Parse(ParseError::NotAMessage)));
    let broken = latest_from_purple.replacen("1. ", "1. z9-z10 ", 1);
    assert!(matches!(blue.store.receive(&broken), Err(ReceiveError::Parse(ParseError::Record(_)))));
    let cut = &latest_from_purple[..latest_from_purple.len() / 2];
    assert!(matches!(blue.store.receive(cut), Err(ReceiveError::Parse(_))));

    assert_eq!(blue.file_of(id), before, "no refusal touched the saved game");
    assert_eq!(blue.store.load(id).map(|game| game.game().history().len()), Ok(4));
}
