//! Rejected text quoted in an error message, cut the same way everywhere: the rules'
//! parse errors (squares, seats, setups, moves, HPN, saves), the record reader, the
//! engine protocol, the app's seat drivers and its saved files. A hostile or mistaken
//! input can then never make a huge message. One length for what was rejected
//! ([`EXCERPT_CHARS`]); a path ([`PATH_CHARS`]) and another parser's whole message
//! ([`MESSAGE_CHARS`]) keep more, each for the reason given at its constant. Control
//! characters (a NUL, an escape, a newline) are written as escapes (`\u{0}`, `\n`), so a
//! quoted input can never put raw bytes into a protocol line, a log or a terminal.

/// The most characters of a rejected text (a word, a square, a move, a line, a path) an
/// error message quotes; a longer one is cut there and `…` follows.
pub const EXCERPT_CHARS: usize = 24;

/// The most characters of a file's path quoted in an error message: the player typed it
/// and needs its end to recognise it, so it is longer.
pub const PATH_CHARS: usize = 100;

/// The most characters of a whole message from another parser (serde's or a validation's,
/// which may quote a value of the file) kept in an error message, for the same reason; it
/// quotes whole sentences, so it is longer.
pub const MESSAGE_CHARS: usize = 300;

/// `text` as an error message quotes it: its first [`EXCERPT_CHARS`] characters, then
/// `…` if anything was cut.
pub fn excerpt(text: &str) -> String {
    cut(text, EXCERPT_CHARS)
}

/// A file's path as an error message quotes it: [`PATH_CHARS`] characters, then `…`.
pub fn path_excerpt(path: &str) -> String {
    cut(path, PATH_CHARS)
}

/// Another parser's whole message `text`, cut to [`MESSAGE_CHARS`] characters (then `…`).
pub fn message_excerpt(text: &str) -> String {
    cut(text, MESSAGE_CHARS)
}

fn cut(text: &str, limit: usize) -> String {
    let mut chars = text.chars();
    let mut short = String::new();
    for c in chars.by_ref().take(limit) {
        if c.is_control() {
            short.extend(c.escape_default());
        } else {
            short.push(c);
        }
    }
    if chars.next().is_some() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_at_a_character_boundary_and_marked() {
        assert_eq!(excerpt("c3-d4"), "c3-d4");
        let exact = "x".repeat(EXCERPT_CHARS);
        assert_eq!(excerpt(&exact), exact, "nothing cut, no mark");
        assert_eq!(excerpt(&"é".repeat(30)), format!("{}…", "é".repeat(EXCERPT_CHARS)));
        assert_eq!(message_excerpt(&"y".repeat(1000)).chars().count(), MESSAGE_CHARS + 1);
        assert_eq!(path_excerpt(&"/".repeat(PATH_CHARS + 1)), format!("{}…", "/".repeat(PATH_CHARS)));
        assert_eq!(excerpt(""), "");
    }

    #[test]
    fn control_characters_are_escaped_not_echoed() {
        assert_eq!(excerpt("a\0b"), "a\\u{0}b");
        assert_eq!(excerpt("go\x1b[2J"), "go\\u{1b}[2J");
        assert_eq!(message_excerpt("one\ntwo\r\t"), "one\\ntwo\\r\\t");
        assert_eq!(path_excerpt("/tmp/\u{7f}x"), "/tmp/\\u{7f}x");
        // Printable text of any script stays as it is.
        assert_eq!(excerpt("Халма é ✓"), "Халма é ✓");
        assert!(excerpt(&"\0".repeat(100)).chars().all(|c| !c.is_control()));
    }
}
