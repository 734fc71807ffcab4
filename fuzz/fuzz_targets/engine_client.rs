//! The engine-program client's two readers of outside text: the line reader that takes a
//! program's output (`read_line`) and the command-line splitter (`split_command`). Neither
//! panics; lines come back within their bound, without their newline, and together with
//! the newlines they are the input again; a split command line has a non-empty program
//! and round-trips through shell quoting.
#![no_main]

use halma_engine::engine_client::{read_line, split_command, LineError};
use libfuzzer_sys::fuzz_target;

/// A small bound, so that long lines are met within the fuzzer's input sizes.
const LIMIT: usize = 64;

fuzz_target!(|data: &[u8]| {
    let mut output = data;
    let mut rebuilt = Vec::new();
    let mut broken = false;
    while let Some(line) = read_line(&mut output, LIMIT) {
        match line {
            Ok(line) => {
                assert!(line.len() <= LIMIT, "a line over its bound: {} bytes", line.len());
                assert!(!line.contains('\n'));
                rebuilt.extend_from_slice(line.as_bytes());
                rebuilt.push(b'\n');
            }
            Err(LineError::TooLong | LineError::NotUtf8) => {
                broken = true;
                break;
            }
            Err(LineError::Io(why)) => panic!("reading a slice failed: {why}"),
        }
    }
    if !broken {
        // Every byte read: the lines and their ends are the input (a `\r\n` end and a
        // missing last newline aside).
        let normalised: Vec<u8> = String::from_utf8_lossy(data).replace("\r\n", "\n").into_bytes();
        let mut expected = normalised;
        if !expected.is_empty() && expected.last() != Some(&b'\n') {
            expected.push(b'\n');
        }
        if !data.contains(&b'\r') {
            assert_eq!(rebuilt, expected);
        }
    }

    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(words) = split_command(text) {
            assert!(!words[0].is_empty(), "an empty program from {text:?}");
            let quoted = shell_join(&words);
            assert_eq!(split_command(&quoted).ok(), Some(words), "quoting did not round-trip");
        }
    }
});

/// The words quoted for a POSIX shell, each in single quotes.
fn shell_join(words: &[String]) -> String {
    words.iter().map(|word| format!("'{}'", word.replace('\'', r"'\''"))).collect::<Vec<_>>().join(" ")
}
