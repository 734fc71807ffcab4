//! The seats' drivers without a window: the built-in computer against the `halma-engine`
//! program through `app::players`, a cancelled search, and programs that fail.

use halma_ai::{Level, SearchMemory};
use halma_core::players::{Computer, Driven, FailureKind, Program, SeatDriver, Seats, Turn};
use halma_rules::{Action, Game, Outcome, Seat, Setup, MAX_ACTIONS};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn engine() -> String {
    format!("{} --threads 1", env!("CARGO_BIN_EXE_halma-engine"))
}

/// Polls `driver` as the interface's timer would until it answers (at most 20 s).
fn wait(driver: &mut dyn SeatDriver) -> Turn {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match driver.poll() {
            Turn::Thinking if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(1)),
            turn => return turn,
        }
    }
}

fn chosen(turn: Turn) -> Action {
    match turn {
        Turn::Chose(action) => action,
        other => panic!("expected an action, got {other:?}"),
    }
}

/// Actions the game below may last: enough for a whole game (373 2p self-play games
/// between the levels took 122 to 403, median 184), not for the rare one where both sides
/// shuffle on without end, which ran to the rules' cap of 20,000 actions once (moves of
/// 15 ms are timed, so no two runs play the same game). This loop plays moves only: no
/// side offers a draw here, as the app's computer seats do in a stuck game.
const LONG_GAME: usize = 1_000;

#[test]
fn the_computer_plays_a_whole_game_against_halma_engine() {
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    let mut computer = Computer::new(Level::Casual, Arc::new(SearchMemory::new()));
    let mut program = Program::new(&engine());
    let time = Some(Duration::from_millis(15));
    while !game.is_over() && game.history().len() < LONG_GAME.min(MAX_ACTIONS) {
        let driver: &mut dyn SeatDriver = if game.to_move() == Seat::A { &mut computer } else { &mut program };
        driver.start(&game, time);
        let action = chosen(wait(driver));
        assert_eq!(game.play_action(&action), Ok(()), "{action} after {} actions", game.history().len());
    }
    // Every action was legal, and the game ended with a result or went on past any real
    // game's length.
    let outcome = game.outcome();
    assert!(
        matches!(outcome, Outcome::Win(_) | Outcome::Draw(_)) || game.history().len() == LONG_GAME,
        "{outcome:?} after {} actions",
        game.history().len()
    );
    assert!(game.history().len() > 40, "a real game: {} actions", game.history().len());
    // The program was started once and kept: it answers the next question at once.
    program.start(&Game::new(Setup::TwoPlayers, Seat::C), time);
    assert!(matches!(wait(&mut program), Turn::Chose(_)));
}

#[test]
fn a_cancelled_search_answers_nothing_and_the_next_one_its_own_position() {
    let mut program = Program::new(&engine());
    let start = Game::new(Setup::TwoPlayers, Seat::A);
    program.start(&start, Some(Duration::from_secs(30)));
    program.cancel();
    assert_eq!(program.poll(), Turn::Idle, "nothing comes from a cancelled search");
    let mut after = start.clone();
    assert_eq!(after.play_text("c3-d4"), Ok(()));
    program.start(&after, Some(Duration::from_millis(20)));
    let action = chosen(wait(&mut program));
    assert_eq!(after.to_move(), Seat::C);
    assert_eq!(after.play_action(&action), Ok(()), "the answer is a move of C in the second position");
}

#[test]
fn seats_drive_the_computer_and_the_program_in_turn() {
    let mut seats = Seats::default();
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    let program = Driven::Program { command: engine(), move_time: Duration::from_millis(50) };
    for driven in [Driven::Computer(Level::Beginner), program] {
        let mover = game.to_move();
        seats.start(driven, &game);
        assert_eq!(seats.thinking(), Some(mover));
        let deadline = Instant::now() + Duration::from_secs(20);
        let (plies, turn) = loop {
            if let Some(answer) = seats.poll() {
                break answer;
            }
            assert!(Instant::now() < deadline, "no answer from {mover}");
            std::thread::sleep(Duration::from_millis(1));
        };
        assert_eq!((plies, seats.thinking()), (game.history().len(), None));
        assert_eq!(game.play_action(&chosen(turn)), Ok(()));
    }
    assert_eq!(game.history().len(), 2);
}

#[test]
fn a_program_that_cannot_start_or_dies_is_a_failure() {
    let game = Game::new(Setup::TwoPlayers, Seat::A);
    let mut missing = Program::new("halma-no-such-program-anywhere");
    missing.start(&game, None);
    assert!(matches!(wait(&mut missing), Turn::Failed(failure)
        if failure.kind == FailureKind::CannotStart && failure.reason.contains("cannot start")));

    let mut empty = Program::new("   ");
    empty.start(&game, None);
    assert!(matches!(wait(&mut empty), Turn::Failed(failure)
        if failure.kind == FailureKind::CannotStart && failure.reason.contains("no command line")));

    // A program that reads its input and ends without a word (`head -n 1` reads one line).
    if cfg!(unix) {
        let mut dies = Program::new("head -n 1");
        dies.start(&game, None);
        assert!(
            matches!(wait(&mut dies), Turn::Failed(failure)
                if failure.kind == FailureKind::Ended && failure.reason.ends_with("the program ended")),
            "dies"
        );
    }
}

#[test]
fn a_program_answering_an_illegal_move_or_an_error_is_a_failure() {
    if !cfg!(unix) {
        return;
    }
    let game = Game::new(Setup::TwoPlayers, Seat::A);
    for (script, expected) in [
        ("echo bestmove a1-p16", "its move 'a1-p16' is refused: illegal move: a1 to p16 is neither a step nor a jump"),
        ("echo error the search failed: boom", "it answered 'error the search failed:…'"),
        ("echo bestmove", "malformed answer 'bestmove'"),
        ("echo bestmove c3-d4 now", "malformed answer 'bestmove c3-d4 now'"),
    ] {
        let dir = std::env::temp_dir().join(format!("halma-players-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("answer.sh");
        std::fs::write(&path, format!("read line\nread line\n{script}\nsleep 5\n")).expect("the script");
        let mut program = Program::new(&format!("sh {}", path.display()));
        program.start(&game, None);
        match wait(&mut program) {
            Turn::Failed(failure) => {
                assert_eq!(failure.kind, FailureKind::WrongAnswer, "{script}");
                assert!(failure.reason.ends_with(expected), "{failure}");
            }
            other => panic!("{script}: {other:?}"),
        }
    }
}

#[test]
fn a_program_that_does_not_answer_in_time_is_a_failure() {
    if !cfg!(unix) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("halma-players-slow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("silent.sh");
    // Reads the position and the go, then says nothing.
    std::fs::write(&path, "read line\nread line\nsleep 8\n").expect("the script");
    let mut program = Program::new(&format!("sh {}", path.display()));
    let started = Instant::now();
    program.start(&Game::new(Setup::TwoPlayers, Seat::A), Some(Duration::from_millis(10)));
    match wait(&mut program) {
        Turn::Failed(failure) => {
            assert_eq!(failure.kind, FailureKind::TooSlow, "{failure}");
            assert!(failure.reason.ends_with("no answer in time"), "{failure}");
        }
        other => panic!("{other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(10), "given up after its grace: {:?}", started.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}
