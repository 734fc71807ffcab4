//! Game records (`halma_record`): a hand-written record read and written back exactly,
//! the results and draw votes, comments and an analysis written as comments, and every
//! kind of bad record refused with its line and problem.

use halma_test_support as common;

use common::long_game;
use halma_ai::analysis::{self, AnalysisRequest, Class, Eval, Judgement, Quality, Steps, Verdict};
use halma_ai::Level;
use halma_record::{
    date_of_unix_time, parse_verdict_comment, verdict_comment, Comment, Record, RecordError, RecordProblem, SeatPlayer,
    MAX_ACTIONS, MAX_COMMENT_BYTES, MAX_RECORD_BYTES,
};
use halma_rules::{DrawReason, Game, GameError, Outcome, Route, Seat, SeatSet, Setup};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A 3p game of two rounds and a move, with every kind of header tag.
const HAND_WRITTEN: &str = "\
[Halma \"1\"]
[Setup \"3p\"]
[Teams \"none\"]
[FirstSeat \"B\"]
[A \"Human\"]
[B \"Computer Master\"]
[C \"Program ./other-engine --fast\"]
[Date \"2026.12.01\"]
[Result \"*\"]
[Termination \"adjudicated: \\\"A\\\" is ahead\"]

1. a13-b12 l16-k16 c3-d4
2. b12-c11 k16-j16 d4-e5
3. c11-d10
";

fn refusal(text: &str) -> (usize, RecordProblem, String) {
    match Record::parse(text) {
        Ok(record) => panic!("accepted:\n{text}\nas {record:?}"),
        Err(error) => (error.line(), error.problem().clone(), error.to_string()),
    }
}

/// The hand-written record with `from` replaced by `to` (once).
fn altered(from: &str, to: &str) -> String {
    assert!(HAND_WRITTEN.contains(from), "{from}");
    HAND_WRITTEN.replacen(from, to, 1)
}

#[test]
fn a_hand_written_record_reads_and_writes_back_exactly() {
    let record = Record::parse(HAND_WRITTEN).expect("the record");
    let mut game = Game::new(Setup::ThreePlayers, Seat::B);
    for mv in ["a13-b12", "l16-k16", "c3-d4", "b12-c11", "k16-j16", "d4-e5", "c11-d10"] {
        game.play_text(mv).expect(mv);
    }
    assert_eq!(record.game, game);
    assert_eq!(
        record.players,
        [
            Some(SeatPlayer::Human),
            Some(SeatPlayer::Computer(Level::Master)),
            Some(SeatPlayer::Program("./other-engine --fast".to_string())),
            None
        ]
    );
    assert_eq!(record.date.as_deref(), Some("2026.12.01"));
    assert_eq!(record.termination.as_deref(), Some("adjudicated: \"A\" is ahead"));
    assert_eq!(record.to_text(), HAND_WRITTEN);
}

#[test]
fn a_minimal_record_needs_only_the_version_setup_first_seat_and_result() {
    let text = "[Halma \"1\"]\n[Setup \"2p\"]\n[FirstSeat \"C\"]\n[Result \"*\"]\n";
    let record = Record::parse(text).expect("the record");
    assert_eq!(record, Record::new(Game::new(Setup::TwoPlayers, Seat::C)));
    assert_eq!(
        record.to_text(),
        "[Halma \"1\"]\n[Setup \"2p\"]\n[Teams \"none\"]\n[FirstSeat \"C\"]\n[Result \"*\"]\n\n"
    );
    // Round numbers are optional, moves may spread over lines as they like, blank lines
    // and Windows line ends are fine, and tags come in any order after the first.
    let loose = "\r\n[Halma \"1\"]\r\n[Result \"*\"]\r\n[FirstSeat \"A\"]\r\n[Setup \"2p\"]\r\n\r\nc3-d4\r\nn14-m13 2.\r\n\r\n  e1-f1  \r\n";
    let record = Record::parse(loose).expect("the loose record");
    assert_eq!(record.game.history().len(), 3);
    assert_eq!(record.to_text().lines().last(), Some("2. e1-f1"));
}

#[test]
fn results_are_written_and_checked() {
    // A team win from a start position (the Start tag), with passes.
    let team = "16/16/16/16/16/16/16/16/16/16/16/16/CC14/CCC13/CCCC12/CCC1C11 D 4p-one 3";
    let mut game = Game::from_position(halma_rules::parse_hpn(team).expect("hpn"));
    for mv in ["pass", "pass", "pass", "e1-d1"] {
        game.play_text(mv).expect(mv);
    }
    assert_eq!(game.outcome(), Outcome::Win(SeatSet::team(Seat::A, Seat::C)));
    let text = Record::new(game.clone()).to_text();
    assert_eq!(
        text,
        format!(
            "[Halma \"1\"]\n[Setup \"4p-one\"]\n[Teams \"A+C vs B+D, one army home wins\"]\n[FirstSeat \"A\"]\n\
             [Start \"{team}\"]\n[Result \"A+C win\"]\n\n1. pass\n2. pass pass e1-d1\n"
        )
    );
    assert_eq!(Record::parse(&text).map(|r| r.game), Ok(game));
    let (line, problem, message) = refusal(&text.replace("A+C win", "B+D win"));
    assert_eq!(line, 6);
    assert_eq!(problem, RecordProblem::ResultMismatch { stated: "B+D win".into(), actual: "A+C win".into() });
    assert_eq!(message, "line 6: the result says 'B+D win' but the moves end with 'A+C win'");

    // Threefold repetition.
    let open = "16/16/16/16/7C8/16/16/16/7A8/16/16/16/16/16/16/16 A 2p 0";
    let mut game = Game::from_position(halma_rules::parse_hpn(open).expect("hpn"));
    for mv in "h8-h9 h12-h13 h9-h8 h13-h12 h8-h9 h12-h13 h9-h8 h13-h12".split(' ') {
        game.play_text(mv).expect(mv);
    }
    let text = Record::new(game.clone()).to_text();
    assert!(text.contains("[Result \"draw by repetition\"]\n"), "{text}");
    assert_eq!(Record::parse(&text).map(|r| r.game), Ok(game));
    // The unfinished record of a finished game is refused.
    let (line, _, message) = refusal(&text.replace("draw by repetition", "*"));
    assert_eq!(
        (line, message.as_str()),
        (6, "line 6: the result says '*' but the moves end with 'draw by repetition'")
    );
}

#[test]
fn draw_votes_are_recorded_as_they_stand() {
    let mut game = Game::new(Setup::FourPlayersBothArmies, Seat::A);
    game.play_text("c3-d4").expect("move");
    // An offer waiting for its last answer.
    game.offer_draw().expect("offer");
    game.answer_draw(Seat::C, true).expect("C");
    game.answer_draw(Seat::D, true).expect("D");
    let text = Record::new(game.clone()).to_text();
    assert!(text.ends_with("\n1. c3-d4 offer accept accept\n"), "{text}");
    assert_eq!(Record::parse(&text).map(|r| r.game), Ok(game.clone()));
    // Agreed.
    game.answer_draw(Seat::A, true).expect("A");
    assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Agreement));
    let text = Record::new(game.clone()).to_text();
    assert!(text.contains("[Result \"draw by agreement\"]\n"), "{text}");
    assert!(text.ends_with("\n1. c3-d4 offer accept accept accept\n"), "{text}");
    assert_eq!(Record::parse(&text).map(|r| r.game), Ok(game));

    // Refused this turn: the seat to move cannot offer again, and the record says so.
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    game.offer_draw().expect("offer");
    game.answer_draw(Seat::C, false).expect("C");
    let text = Record::new(game.clone()).to_text();
    assert!(text.ends_with("\n\n1. offer refuse\n"), "{text}");
    assert_eq!(Record::parse(&text).map(|r| r.game), Ok(game));

    // Votes that do not fit: an answer without an offer, a second offer in one turn,
    // a move while an offer waits.
    let base = "[Halma \"1\"]\n[Setup \"2p\"]\n[FirstSeat \"A\"]\n[Result \"*\"]\n";
    let (line, problem, message) = refusal(&format!("{base}1. c3-d4\naccept"));
    assert_eq!(line, 6);
    assert_eq!(problem, RecordProblem::Vote { text: "accept".into(), error: GameError::NoOffer });
    assert_eq!(message, "line 6: 'accept' not allowed: no draw offer is pending");
    let (line, _, message) = refusal(&format!("{base}1. offer refuse offer"));
    assert_eq!((line, message.as_str()), (5, "line 5: 'offer' not allowed: a draw was already offered this turn"));
    let (line, _, message) = refusal(&format!("{base}1. offer c3-d4"));
    assert_eq!(
        (line, message.as_str()),
        (5, "line 5: move 'c3-d4' (action 1) not allowed: a draw offer is waiting for answers")
    );
}

#[test]
fn bad_headers_name_their_line_and_problem() {
    let cases: Vec<(String, usize, &str)> = vec![
        (String::new(), 1, "line 1: empty record"),
        ("\n\n  \n".to_string(), 1, "line 1: empty record"),
        (HAND_WRITTEN.replacen("[Halma \"1\"]\n", "", 1), 1, "line 1: not a Halma record: expected [Halma \"1\"] first, got '[Setup \"3p\"]'"),
        ("1. c3-d4\n".to_string(), 1, "line 1: not a Halma record: expected [Halma \"1\"] first, got '1. c3-d4'"),
        (altered("[Halma \"1\"]", "[Halma \"2\"]"), 1, "line 1: unsupported record version '2' (this program reads 1)"),
        (altered("[Setup \"3p\"]", "[Setup \"5p\"]"), 2, "line 2: unknown setup '5p' (expected 2p, 3p, 4p-one or 4p-both)"),
        (altered("[Setup \"3p\"]", "[Setup 3p]"), 2, "line 2: malformed tag line '[Setup 3p]' (expected [Name \"value\"])"),
        (altered("[Setup \"3p\"]", "[Setup \"3p\""), 2, "line 2: malformed tag line '[Setup \"3p\"' (expected [Name \"value\"])"),
        (altered("[Setup \"3p\"]", "[Setup \"3p\" x]"), 2, "line 2: malformed tag line '[Setup \"3p\" x]' (expected [Name \"value\"])"),
        // A missing tag is about the header as a whole (line 0), not the first line of moves.
        (altered("[Setup \"3p\"]\n", ""), 0, "missing header tag [Setup \"…\"]"),
        (altered("[Result \"*\"]\n", ""), 0, "missing header tag [Result \"…\"]"),
        (altered("[FirstSeat \"B\"]\n", ""), 0, "missing header tag [FirstSeat \"…\"]"),
        (altered("[Teams \"none\"]", "[Teams \"A+C vs B+D\"]"), 3, "line 3: teams 'A+C vs B+D' contradict setup 3p (its teams: 'none')"),
        (altered("[FirstSeat \"B\"]", "[FirstSeat \"E\"]"), 4, "line 4: bad seat 'E' in FirstSeat (expected A, B, C or D)"),
        (altered("[FirstSeat \"B\"]", "[FirstSeat \"D\"]"), 4, "line 4: seat D does not play in 3p"),
        (altered("[C \"Program", "[D \"Program"), 7, "line 7: seat D does not play in 3p"),
        (altered("Computer Master", "Computer Grandmaster"), 6, "line 6: bad player 'Computer Grandmaster' (expected Human, Computer <level> or Program <name>)"),
        (altered("[Date \"2026.12.01\"]", "[Date \"1 Dec 2026\"]"), 8, "line 8: bad date '1 Dec 2026' (expected YYYY.MM.DD, with ? for unknown digits)"),
        (altered("[Result \"*\"]", "[Result \"A won\"]"), 9, "line 9: bad result 'A won' (expected '*', 'A wins', 'A+C win', 'draw by repetition' or 'draw by agreement')"),
        (altered("[Result \"*\"]", "[Result \"D wins\"]"), 9, "line 9: bad result 'D wins' (expected '*', 'A wins', 'A+C win', 'draw by repetition' or 'draw by agreement')"),
        (altered("[Date", "[Event \"x\"]\n[Date"), 8, "line 8: unknown tag 'Event'"),
        (
            altered("[Date \"2026.12.01\"]", "[Date \"2026.12\t01\"]"),
            8,
            // The tab is quoted as an escape: an error never carries a raw control character.
            "line 8: malformed tag line '[Date \"2026.12\\t01\"]' (expected [Name \"value\"])",
        ),
        (altered("[Date", "[A \"Human\"]\n[Date"), 8, "line 8: tag 'A' given twice"),
        (altered("3. c11-d10", "[Result \"*\"]\n3. c11-d10"), 14, "line 14: tag line '[Result \"*\"]' after the moves"),
        (altered("[Teams", "[Start \"16/16 A 3p 0\"]\n[Teams"), 3, "line 3: bad start position: bad HPN: 2 rows instead of 16"),
        (
            altered("[Teams", "[Start \"11CCCCC/11CCCCC/12CCCC/13CCC/14CC/16/16/16/16/16/16/AA14/AAA13/AAAA12/AAAAA11/AAAAA11 A 2p 0\"]\n[Teams"),
            3,
            "line 3: the Start position does not match the setup and first seat",
        ),
    ];
    for (text, line, message) in cases {
        let error: RecordError = Record::parse(&text).expect_err(&text);
        assert_eq!((error.line(), error.to_string().as_str()), (line, message), "{text}");
    }
}

#[test]
fn bad_moves_name_their_line_action_and_problem() {
    let cases = [
        ("d4-e5", "d4-e6", 13, "line 13: illegal move 'd4-e6' (action 6): d4 to e6 is neither a step nor a jump"),
        ("c11-d10", "c11-d10 pass", 14, "line 14: illegal move 'pass' (action 8): a seat may pass only when it has no legal move"),
        ("c11-d10", "c11-z10", 14, "line 14: malformed move (action 7): bad move 'c11-z10': bad square 'z10' (expected a1..p16)"),
        ("c11-d10", "c11-", 14, "line 14: malformed move (action 7): bad move 'c11-': bad square '' (expected a1..p16)"),
        ("c11-d10", "c11", 14, "line 14: malformed move (action 7): bad move 'c11': a move is 'pass' or at least two squares joined by '-'"),
        ("c11-d10", "1-0", 14, "line 14: malformed move (action 7): bad move '1-0': bad square '1' (expected a1..p16)"),
        ("2. b12", "3. b12", 13, "line 13: move number '3.' where round 2 is due"),
        ("3. c11", "2. c11", 14, "line 14: move number '2.' where round 3 is due"),
        ("3. c11", "99999999999. c11", 14, "line 14: move number '99999999999.' where round 3 is due"),
    ];
    for (from, to, line, message) in cases {
        let text = altered(from, to);
        let error = Record::parse(&text).expect_err(&text);
        assert_eq!((error.line(), error.to_string().as_str()), (line, message), "{text}");
    }
    // A record cut short in the middle of a move.
    let cut = &HAND_WRITTEN[..HAND_WRITTEN.len() - 5];
    let error = Record::parse(cut).expect_err(cut);
    assert_eq!(
        error.to_string(),
        "line 14: malformed move (action 7): bad move 'c11': a move is 'pass' or at least two squares joined by '-'"
    );
    // Cut inside the header.
    let cut = &HAND_WRITTEN[..HAND_WRITTEN.find("[Result").expect("Result") + 10];
    let error = Record::parse(cut).expect_err(cut);
    assert_eq!(error.to_string(), "line 9: malformed tag line '[Result \"*' (expected [Name \"value\"])");
}

#[test]
fn huge_input_is_refused_quickly() {
    let started = Instant::now();
    let huge = format!("[Halma \"1\"]\n{}", "x".repeat(MAX_RECORD_BYTES));
    let error = Record::parse(&huge).expect_err("huge");
    assert_eq!(error.line(), 0);
    assert_eq!(error.to_string(), format!("the record is {} bytes, over the limit of {MAX_RECORD_BYTES}", huge.len()));
    // Many actions: passes and moves back and forth stop at the cap, not at the end.
    let mut text = "[Halma \"1\"]\n[Setup \"2p\"]\n[FirstSeat \"A\"]\n[Result \"*\"]\n".to_string();
    let shuffle = "e1-f1 l16-k16 f1-e1 k16-l16\n";
    while text.len() + shuffle.len() < MAX_RECORD_BYTES {
        text.push_str(shuffle);
    }
    let error = Record::parse(&text).expect_err("long");
    // The third time round repeats the start position: the game is drawn.
    assert_eq!(error.line(), 7);
    assert!(error.to_string().contains("the game is over"), "{error}");
    let many_tokens =
        format!("[Halma \"1\"]\n[Setup \"2p\"]\n[FirstSeat \"A\"]\n[Result \"*\"]\n{}", "x ".repeat(MAX_ACTIONS + 1));
    assert!(Record::parse(&many_tokens).is_err());
    assert!(started.elapsed().as_secs() < 5, "took {:?}", started.elapsed());
}

#[test]
fn many_records_read_one_after_the_other() {
    let second = Record::new(Game::new(Setup::FourPlayersBothArmies, Seat::B));
    let text = format!("{HAND_WRITTEN}\n{}", second.to_text());
    let records = Record::parse_many(&text).expect("two records");
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].to_text(), HAND_WRITTEN);
    assert_eq!(records[1], second);
    // A single-record parse refuses the second header.
    assert_eq!(Record::parse(&text).map_err(|e| e.line()), Err(16));
    // Lines count from the start of the whole text.
    let bad = format!("{HAND_WRITTEN}\n{}", second.to_text().replace("4p-both", "4p"));
    assert_eq!(
        Record::parse_many(&bad).map_err(|e| e.to_string()),
        Err("line 17: unknown setup '4p' (expected 2p, 3p, 4p-one or 4p-both)".into())
    );
    // Blank lines around the records are fine; no record at all is not.
    let padded = format!("\n\n{HAND_WRITTEN}\n\n\n{}\n\n", second.to_text());
    assert_eq!(Record::parse_many(&padded).map(|r| r.len()), Ok(2));
    assert_eq!(Record::parse_many(" \n\n").map_err(|e| e.to_string()), Err("line 1: empty record".into()));
    assert_eq!(
        Record::parse_many("junk\n[Halma \"1\"]").map_err(|e| e.to_string()),
        Err("line 1: not a Halma record: expected [Halma \"1\"] first, got 'junk'".into())
    );
    // A program's name is read back trimmed; a date that is not one is not written.
    let mut record = Record::new(Game::new(Setup::TwoPlayers, Seat::A));
    record.players[Seat::A] = Some(SeatPlayer::Program(" ./engine ".into()));
    record.date = Some("yesterday".into());
    let read = Record::parse(&record.to_text()).expect("the record");
    assert_eq!(read.players[Seat::A], Some(SeatPlayer::Program("./engine".into())));
    assert_eq!(read.date, None);
}

#[test]
fn dates_from_unix_time() {
    assert_eq!(date_of_unix_time(0), "1970.01.01");
    assert_eq!(date_of_unix_time(951_782_400), "2000.02.29");
    assert_eq!(date_of_unix_time(1_796_083_200), "2026.12.01");
}

/// The example of the README's "Game records" section is a valid record, written back
/// exactly as shown.
#[test]
fn the_readme_example_reads_and_writes_back_exactly() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).expect("README.md");
    let section = &readme[readme.find("## Game records").expect("the section")..];
    let start = section.find("```text\n").expect("the example") + "```text\n".len();
    let example = &section[start..start + section[start..].find("```").expect("its end")];
    let record = Record::parse(example).expect("the README example");
    assert_eq!(record.game.outcome(), Outcome::Draw(DrawReason::Agreement));
    assert_eq!(record.players[Seat::D], Some(SeatPlayer::Computer(Level::Casual)));
    assert_eq!(record.to_text(), example);
}

#[test]
fn a_record_holds_as_many_actions_as_a_game() {
    let game = long_game(MAX_ACTIONS, 7);
    assert_eq!(MAX_ACTIONS, halma_rules::MAX_ACTIONS);
    let text = Record::new(game.clone()).to_text();
    assert!(text.len() <= MAX_RECORD_BYTES, "{} bytes", text.len());
    assert_eq!(Record::parse(&text).map(|record| record.game), Ok(game.clone()));
    // One action more is refused on its line, before it is read.
    let Some(route) = game.legal_moves().iter().next().and_then(|mv| game.position().route(mv)) else {
        panic!("no legal move")
    };
    let lines = text.lines().count();
    let over = format!("{text}{}. {route}\n", game.history().len() / 2 + 1);
    let error = Record::parse(&over);
    assert_eq!(
        error,
        Err(RecordError { line: lines + 1, problem: RecordProblem::TooManyActions { limit: MAX_ACTIONS } })
    );
    assert_eq!(error.map_err(|e| e.to_string()), Err(format!("line {}: more than 20000 actions", lines + 1)));
}

#[test]
fn comments_stand_anywhere_between_actions_and_never_change_the_game() {
    let commented =
        altered("1. a13-b12 l16-k16 c3-d4", "{ the start } 1. a13-b12{B opens}l16-k16 {} { a }  {b}\tc3-d4")
            .replace("3. c11-d10", "3. c11-d10 { last, with [brackets] and {braces }");
    let record = Record::parse(&commented).expect("the commented record");
    let plain = Record::parse(HAND_WRITTEN).expect("the record");
    assert_eq!(record.game, plain.game);
    assert_eq!(
        record.comments,
        [
            Comment::new(0, "the start"),
            Comment::new(1, "B opens"),
            Comment::new(2, "a"),
            Comment::new(2, "b"),
            Comment::new(7, "last, with [brackets] and {braces"),
        ]
    );
    assert_eq!(Record { comments: Vec::new(), ..record.clone() }, plain);
    let written = record.to_text();
    assert_eq!(
        written.split("\n\n").nth(1),
        Some(
            "{ the start }\n\
             1. a13-b12 { B opens } l16-k16 { a } { b } c3-d4\n\
             2. b12-c11 k16-j16 d4-e5\n\
             3. c11-d10 { last, with [brackets] and {braces }\n"
        )
    );
    assert_eq!(Record::parse(&written), Ok(record.clone()));
    assert_eq!(Record::parse_many(&format!("{written}\n{written}")), Ok(vec![record.clone(), record]));
}

#[test]
fn the_writer_keeps_a_comment_on_its_line_and_within_the_limit() {
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    game.play_text("c3-d4").expect("a first step");
    let mut record = Record::new(game);
    let long = "é".repeat(MAX_COMMENT_BYTES);
    record.comments = vec![
        Comment::new(1, " two\nlines } and a brace "),
        Comment::new(9, "past the end: after the last action"),
        Comment::new(1, "  \n "),
        Comment::new(1, long.clone()),
    ];
    let written = record.to_text();
    let read = Record::parse(&written).expect("the written record");
    assert_eq!(
        read.comments,
        [
            Comment::new(1, "two lines ) and a brace"),
            Comment::new(1, "past the end: after the last action"),
            Comment::new(1, "é".repeat(MAX_COMMENT_BYTES / 2)),
        ]
    );
    assert_eq!(read.to_text(), written);
    assert_eq!(read.game, record.game);
}

#[test]
fn unterminated_and_oversized_comments_are_refused() {
    let unterminated = altered("d4-e5", "d4-e5 { no end");
    assert_eq!(
        refusal(&unterminated),
        (
            13,
            RecordProblem::UnterminatedComment { text: "{ no end".to_string(), after: 6 },
            "line 13: unterminated comment '{ no end' (a comment ends with '}' on its own line)".to_string()
        )
    );
    // A comment does not go on to the next line.
    let two_lines = altered("2. b12-c11", "{ one\n} 2. b12-c11");
    assert_eq!(refusal(&two_lines).0, 13);
    let oversized = altered("c3-d4", &format!("c3-d4 {{{}}}", "x".repeat(MAX_COMMENT_BYTES + 1)));
    assert_eq!(
        refusal(&oversized),
        (
            12,
            RecordProblem::CommentTooLong { bytes: MAX_COMMENT_BYTES + 1, limit: MAX_COMMENT_BYTES, after: 3 },
            "line 12: a comment of 4097 bytes, over the limit of 4096".to_string()
        )
    );
    let just_fits = altered("c3-d4", &format!("c3-d4 {{{}}}", "x".repeat(MAX_COMMENT_BYTES)));
    assert_eq!(Record::parse(&just_fits).map(|record| record.comments.len()), Ok(1));
    // A closing brace alone is not a comment: it is read as a move.
    assert_eq!(refusal(&altered("c3-d4", "c3-d4 }")).0, 12);
}

#[test]
fn verdicts_are_written_in_words_and_read_back() {
    let route = |text: &str| match halma_rules::parse_move(text) {
        Ok(halma_rules::MoveText::Route(squares)) => Route::new(squares),
        other => panic!("{other:?}"),
    };
    let judged = Verdict::Judged(Judgement {
        before: Eval::Lead(Steps(120)),
        after: Eval::Lead(Steps(50)),
        best: route("n15-l13-j15"),
        loss: Steps(70),
        class: Class::Mistake,
    });
    let cases = [
        (judged, "mistake, 7.0 steps lost, best n15-l13-j15, before +12.0, after +5.0"),
        (
            Verdict::Judged(Judgement {
                before: Eval::Wins { plies: 3 },
                after: Eval::Lead(Steps(-15)),
                best: route("a1-b2"),
                loss: Steps(1000),
                class: Class::Blunder,
            }),
            "blunder, 100.0 steps lost, best a1-b2, before wins in 3, after -1.5",
        ),
        (Verdict::OnlyMove { after: Eval::Loses { plies: 4 } }, "only move, after loses in 4"),
        (Verdict::OnlyMove { after: Eval::Lead(Steps::ZERO) }, "only move, after 0.0"),
        (Verdict::ForcedPass, "forced pass"),
    ];
    for (verdict, text) in cases {
        assert_eq!(verdict_comment(&verdict), text);
        assert_eq!(parse_verdict_comment(text), Some(verdict));
    }
    for other in [
        "a note",
        "mistake, 7.0 steps lost, best n15-l13-j15, before +12.0",
        "mistake, 7 steps lost, best n15-l13-j15, before +12.0, after +5.0",
        "mistake, -7.0 steps lost, best n15-l13-j15, before +12.0, after +5.0",
        "great, 7.0 steps lost, best n15-l13-j15, before +12.0, after +5.0",
        "best, 0.0 steps lost, best pass, before +1.0, after +1.0",
        "only move, after wins in -1",
    ] {
        assert_eq!(parse_verdict_comment(other), None, "{other}");
    }
}

#[test]
fn an_analysis_written_as_comments_reads_back_with_the_same_game() {
    let mut game = Game::new(Setup::TwoPlayers, Seat::A);
    for text in ["c3-d4", "n14-m13", "a1-c3-e5", "p16-n14-l12", "e5-f6", "m13-l13"] {
        game.play_text(text).expect(text);
    }
    let request = AnalysisRequest::new(Quality::QUICK).with_threads(1);
    let analysis = analysis::analyse(&game, &request, &AtomicBool::new(false), &mut |_, _| {}).expect("the analysis");
    let mut record = Record::new(game.clone());
    record.comments.push(Comment::new(2, "a note of the player's"));
    record.set_analysis(&analysis);
    // Written twice, the analysis is there once.
    record.set_analysis(&analysis);
    assert_eq!(record.comments.len(), 1 + 1 + game.history().len());
    let text = record.to_text();
    assert!(text.contains("\n{ analysis depth 3 }\n1. c3-d4 { "), "{text}");
    let read = Record::parse(&text).expect("the analysed record");
    assert_eq!(read.game, game);
    assert_eq!(read.comments, record.comments);
    let recorded = read.analysis().expect("the analysis in the comments");
    assert_eq!(recorded.quality, Quality::QUICK);
    assert_eq!(recorded.actions, analysis.actions);
    // A record without comments, or with another comment only, holds no analysis.
    assert_eq!(Record::new(game.clone()).analysis(), None);
    let mut partial = read.clone();
    partial.comments.retain(|comment| comment.after != 4);
    assert_eq!(partial.analysis(), None);
}
