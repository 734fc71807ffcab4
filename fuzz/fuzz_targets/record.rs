//! The game-record parser (`Record::parse`, `Record::parse_many`: what the app imports,
//! the engine's `position record` and arena files): never panics on any bytes; a bad
//! record's error names a line of the input; a record it accepts is written back by
//! `to_text` to a text that reads to the same record (game, players, date, termination),
//! and that text is stable. The game then takes a move, and its record still round-trips.
#![no_main]

use halma_record::Record;
use libfuzzer_sys::fuzz_target;

fn check(record: &Record) {
    let text = record.to_text();
    let again = Record::parse(&text);
    assert_eq!(again.as_ref(), Ok(record), "written as:\n{text}");
    assert_eq!(again.map(|r| r.to_text()).as_deref(), Ok(text.as_str()));
    assert_eq!(Record::parse_many(&text).as_deref(), Ok(std::slice::from_ref(record)));
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let lines = text.lines().count().max(1);
    match Record::parse(text) {
        Ok(record) => {
            check(&record);
            let plain = Record { comments: Vec::new(), ..record.clone() };
            assert_eq!(Record::parse(&plain.to_text()).map(|r| r.game).as_ref(), Ok(&record.game));
            if let Some(analysis) = record.analysis() {
                assert_eq!(analysis.actions.len(), record.game.history().len());
            }
            let mut record = record;
            record.game.play_forced_passes();
            if let (Some(mv), None) = (record.game.legal_moves().iter().next(), record.game.pending_offer()) {
                assert!(record.game.play_move(mv).is_ok());
                check(&record);
            }
        }
        Err(error) => {
            assert!(error.line() <= lines, "line {} of {lines}: {error}", error.line());
            assert!(!error.to_string().is_empty());
        }
    }
    match Record::parse_many(text) {
        Ok(records) => {
            for record in &records {
                check(record);
            }
        }
        Err(error) => assert!(error.line() <= lines, "line {} of {lines}: {error}", error.line()),
    }
});
