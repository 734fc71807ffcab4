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

/// Three messages of one game, one action apart (Blue's first move, Purple's answer,
/// Blue's second move), as Blue's mail would hold them.
fn three_messages() -> [String; 3] {
    let mut game = CorrespondenceGame::new(Game::new(Setup::TwoPlayers, Seat::A), SeatSet::single(Seat::A))
        .expect("a game by message");
    let mut texts = Vec::new();
    for (seat, step) in [(Seat::A, "e2-f3"), (Seat::C, "n14-m13"), (Seat::A, "f3-g4")] {
        let mut next = game.game().clone();
        next.play_text(step).expect("legal");
        game = CorrespondenceGame::new(next, SeatSet::single(seat))
            .map(|g| CorrespondenceGame { id: game.id, ..g })
            .expect("a game by message");
        texts.push(game.compose(&english_header(game.game())));
    }
    [texts[0].clone(), texts[1].clone(), texts[2].clone()]
}

fn actions_read(text: &str) -> usize {
    halma_core::correspondence::parse_message(text).expect("a message").record.game.history().len()
}

/// `>` quoting, as both mail clients put before every quoted line.
fn quoted(text: &str) -> String {
    text.lines().map(|line| format!("> {line}\n")).collect()
}

/// Lines longer than `width` broken at spaces, as mail clients wrap plain text.
fn wrapped(text: &str, width: usize) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut current = String::new();
        for word in line.split(' ') {
            if !current.is_empty() && current.len() + 1 + word.len() > width {
                out.push_str(&current);
                out.push('\n');
                current.clear();
            }
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
        }
        out.push_str(&current);
        out.push('\n');
    }
    out
}

/// Among several frames in one text, the one furthest along wins, wherever it stands:
/// Gmail's and Outlook's top-posted replies (the new message above the quoted old one),
/// bottom-posted and inline-quoted replies, `>` quoting, wrapped lines, CR LF.
#[test]
fn the_newest_message_in_a_reply_is_read() {
    let [first, second, third] = three_messages();
    assert_eq!((actions_read(&first), actions_read(&second), actions_read(&third)), (1, 2, 3));

    // Gmail, top-posted: the new text, then "On … wrote:" and the old one quoted with `>`.
    let gmail_top = format!(
        "{third}\nOn Sat, 5 Dec 2026 at 10:02, Purple <purple@example.org> wrote:\n{}",
        quoted(&format!("{second}\nOn Fri, 4 Dec 2026 at 09:00, Blue <blue@example.org> wrote:\n{}", quoted(&first)))
    );
    assert_eq!(actions_read(&gmail_top), 3);
    // Gmail wraps the quoted lines at 78 columns, and long frame lines with them.
    assert_eq!(actions_read(&wrapped(&gmail_top, 40)), 3);

    // Outlook, top-posted: the old message under a rule and a From/Sent header, unquoted,
    // lines ending in CR LF.
    let outlook_top = format!(
        "{third}\n________________________________\nFrom: Purple <purple@example.org>\nSent: Saturday, December 5, 2026 10:02\nTo: Blue\nSubject: RE: Halma\n\n{second}\n-----Original Message-----\nFrom: Blue\n\n{first}"
    )
    .replace('\n', "\r\n");
    assert_eq!(actions_read(&outlook_top), 3);
    // Outlook with the older messages quoted with `>` as well.
    let outlook_quoted = format!("{third}\r\n-----Original Message-----\r\n{}", quoted(&second).replace('\n', "\r\n"));
    assert_eq!(actions_read(&outlook_quoted), 3);

    // Bottom-posted: the quoted old messages first, the new one below.
    let bottom = format!("{}\n{}\n{third}", quoted(&quoted(&first)), quoted(&second));
    assert_eq!(actions_read(&bottom), 3);
    // Inline: the reply between quoted parts of the old message.
    let inline = format!("> {}\n\n{third}\n\n{}", "Your move, Blue.", quoted(&second));
    assert_eq!(actions_read(&inline), 3);

    // The newest need not be last or first: furthest along wins, then the last of equals.
    let middle = format!("{}\n{third}\n{}", quoted(&first), quoted(&second));
    assert_eq!(actions_read(&middle), 3);
    let twice = format!("{second}\n{}", quoted(&second));
    assert_eq!(actions_read(&twice), 2);

    // A broken newest frame does not hide an older one that reads; none reading tells the
    // last frame's reason.
    let truncated_third: String = third.lines().take(4).map(|line| format!("{line}\n")).collect();
    assert_eq!(actions_read(&format!("{truncated_third}\n{}", quoted(&second))), 2);
    assert_eq!(
        halma_core::correspondence::parse_message(&truncated_third).map(|m| m.record.game.history().len()),
        Err(ParseError::Truncated)
    );
}
