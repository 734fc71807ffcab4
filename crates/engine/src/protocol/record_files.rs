//! `position record`'s file reading: the `n`-th game record of a file, read in bounded
//! memory whatever the file holds.

use halma_record::{Record, RecordError, RecordProblem, MAX_RECORDS_BYTES, MAX_RECORD_BYTES};
use halma_rules::{excerpt, path_excerpt, Game};
use std::io::{self, BufRead};

/// `position record <path> [game <n>] [moves ...]`: the game of a record file (its
/// `n`-th record, the first by default) and the rest of the arguments.
pub(super) fn load_record<'a, 'b>(args: &'a [&'b str]) -> Result<(Game, &'a [&'b str]), String> {
    let usage = "usage: position record <path> [game <n>] [moves ...]";
    let [path, rest @ ..] = args else { return Err(usage.to_string()) };
    let (index, rest) = match rest {
        ["game", n, rest @ ..] => match n.parse::<usize>() {
            Ok(n) if n >= 1 => (n - 1, rest),
            _ => return Err(format!("bad game number '{}' (1 or more)", excerpt(n))),
        },
        ["game"] => return Err(usage.to_string()),
        _ => (0, rest),
    };
    let shown = path_excerpt(path);
    let file = crate::files::open_regular_file(std::path::Path::new(path))
        .map_err(|why| format!("cannot read record '{shown}': {why}"))?;
    match nth_record(io::BufReader::new(file), index) {
        Ok(record) => Ok((record.game, rest)),
        Err(RecordRead::Io(why)) => Err(format!("cannot read record '{shown}': {why}")),
        Err(RecordRead::Bad(why)) => Err(format!("bad record '{shown}': {why}")),
        Err(RecordRead::NotUtf8) => Err(format!("bad record '{shown}': not UTF-8 text")),
        Err(RecordRead::Missing { count }) => Err(format!("record '{shown}' holds {count} game(s), not {}", index + 1)),
        Err(RecordRead::TooFar) => {
            Err(format!("bad record '{shown}': game {} is not within the first {MAX_RECORDS_BYTES} bytes", index + 1))
        }
    }
}

/// Why [`nth_record`] found no record.
#[derive(Debug)]
enum RecordRead {
    Io(io::Error),
    /// The requested record does not parse (lines counted from the start of the file).
    Bad(RecordError),
    NotUtf8,
    /// The file holds only `count` records.
    Missing {
        count: usize,
    },
    /// The requested record does not start within [`MAX_RECORDS_BYTES`].
    TooFar,
}

/// How much of a line outside the requested record is kept: enough to see whether it
/// starts a record (`[Halma`, after any blanks).
const LINE_HEAD_BYTES: usize = 256;

/// Reads records one after the other as [`Record::parse_many`] splits them (each starts
/// with a line beginning `[Halma`; blank text before the first is no record) and parses
/// the `index`-th (from 0) alone. Only that record is held (at most [`MAX_RECORD_BYTES`]
/// of it, plus one line), and reading stops at its end: memory stays bounded whatever
/// the file's size, and at most [`MAX_RECORDS_BYTES`] are read looking for it.
fn nth_record(mut input: impl BufRead, index: usize) -> Result<Record, RecordRead> {
    let mut line = Vec::new();
    let mut line_number = 0;
    let mut read = 0;
    // Records passed so far, and the current one: its first line, its size, whether it
    // holds more than blanks, and its text if it is the requested one.
    let mut count = 0;
    let mut first_line = 1;
    let mut size = 0;
    let mut blank = true;
    let mut text = Vec::new();
    loop {
        let keep = if count == index { MAX_RECORD_BYTES + 1 } else { LINE_HEAD_BYTES };
        let length =
            read_line_head(&mut input, &mut line, keep, MAX_RECORDS_BYTES + 1 - read).map_err(RecordRead::Io)?;
        read += length;
        if read > MAX_RECORDS_BYTES {
            return Err(RecordRead::TooFar);
        }
        line_number += 1;
        let ended = length == 0;
        let head = String::from_utf8_lossy(&line[..line.len().min(LINE_HEAD_BYTES)]);
        if ended || (line_number > 1 && head.trim_start().starts_with("[Halma")) {
            if !blank {
                if count == index {
                    return parse_record(&text, size, first_line);
                }
                count += 1;
            }
            if ended {
                return Err(match count {
                    0 => RecordRead::Bad(RecordError { line: 1, problem: RecordProblem::Empty }),
                    _ => RecordRead::Missing { count },
                });
            }
            (first_line, size, blank) = (line_number, 0, true);
            text.clear();
        }
        // A line cut short counts as text (only a file's leading lines can be blank).
        blank = blank && line.len() == length && String::from_utf8_lossy(&line).trim().is_empty();
        if count == index {
            size += length;
            if size <= MAX_RECORD_BYTES {
                text.extend_from_slice(&line);
            }
        }
    }
}

/// Parses the requested record: its text, `size` bytes in the file from line `first_line`.
fn parse_record(text: &[u8], size: usize, first_line: usize) -> Result<Record, RecordRead> {
    if size > MAX_RECORD_BYTES {
        let problem = RecordProblem::TooLarge { bytes: size, limit: MAX_RECORD_BYTES };
        return Err(RecordRead::Bad(RecordError { line: first_line, problem }));
    }
    let text = std::str::from_utf8(text).map_err(|_| RecordRead::NotUtf8)?;
    Record::parse(text).map_err(|mut why| {
        // `parse` counts lines from the record's first; the file's count is wanted.
        if why.line > 0 {
            why.line += first_line - 1;
        }
        RecordRead::Bad(why)
    })
}

/// Reads one line (with its `\n`) but no more than `limit` bytes, keeping at most `keep`
/// of them in `line`; returns how many were read (0 at the end of the input).
fn read_line_head(input: &mut impl BufRead, line: &mut Vec<u8>, keep: usize, limit: usize) -> io::Result<usize> {
    line.clear();
    let mut length = 0;
    while length < limit {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(why) if why.kind() == io::ErrorKind::Interrupted => continue,
            Err(why) => return Err(why),
        };
        let available = &available[..available.len().min(limit - length)];
        if available.is_empty() {
            break;
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (&available[..=end], true),
            None => (available, false),
        };
        let room = keep.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let consumed = chunk.len();
        length += consumed;
        input.consume(consumed);
        if done {
            break;
        }
    }
    Ok(length)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_read_whole_up_to_the_limit_and_kept_up_to_its_share() {
        let mut input = io::BufReader::with_capacity(4, "abcdefgh\nij".as_bytes());
        let mut line = Vec::new();
        assert_eq!(read_line_head(&mut input, &mut line, 3, 100).ok(), Some(9));
        assert_eq!(line, b"abc");
        assert_eq!(read_line_head(&mut input, &mut line, 3, 1).ok(), Some(1));
        assert_eq!(line, b"i");
        assert_eq!(read_line_head(&mut input, &mut line, 3, 100).ok(), Some(1));
        assert_eq!(read_line_head(&mut input, &mut line, 3, 100).ok(), Some(0));
    }
}
