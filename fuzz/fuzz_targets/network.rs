//! What crosses between devices (#40): the LAN protocol's lines (`Wire::parse`) and a
//! received game by message (`parse_message`, then `decide`). Never panics on any bytes; a
//! line it accepts is written back by `to_line` to a line that reads to the same message; a
//! message it accepts is composed again to a text that reads to the same message, and
//! deciding it against the game it carries brings nothing new.
//! The first byte picks: even for protocol lines, odd for a game by message.
#![no_main]

use halma_core::correspondence::{compose, decide, parse_message, CorrespondenceGame, Decision, Refusal};
use halma_core::lan::Wire;
use halma_rules::SeatSet;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    if pick % 2 == 0 {
        for line in text.split('\n') {
            if let Ok(message) = Wire::parse(line) {
                let written = message.to_line();
                assert!(written.ends_with('\n') && written.matches('\n').count() == 1, "{written:?}");
                assert_eq!(Wire::parse(written.trim_end_matches('\n')).as_ref(), Ok(&message), "{written:?}");
            }
        }
        return;
    }
    let Ok(message) = parse_message(&text) else { return };
    let again = compose("Halma", message.id, message.from, &message.record);
    assert_eq!(parse_message(&again).as_ref(), Ok(&message), "composed as:\n{again}");
    let setup = message.record.game.setup();
    let mut local = SeatSet::EMPTY;
    for &seat in setup.seats() {
        if !message.from.contains(seat) {
            local.insert(seat);
        }
    }
    let known = CorrespondenceGame { id: message.id, local, record: message.record.clone(), updated: 0 };
    let decision = decide(message.clone(), |_| Some(known.clone()));
    assert_eq!(decision, Decision::Refused { id: message.id, reason: Refusal::NothingNew });
    assert!(matches!(decide(message, |_| None), Decision::NewGame(_)));
});
