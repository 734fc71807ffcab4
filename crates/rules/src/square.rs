//! Squares of the 16×16 board.

use super::excerpt::excerpt;
use std::fmt;
use std::str::FromStr;

/// One of the 256 squares: index `row * 16 + column`, so `a1` = 0, `p1` = 15, `p16` = 255.
///
/// Squares are written `a1`..`p16`: column letter `a`..`p` from the left, row
/// `1`..`16` from the bottom.
///
/// ```rust
/// use halma_rules::{ParseSquareError, Square};
///
/// let c3: Square = "c3".parse()?;
/// assert_eq!((c3.column(), c3.row()), (2, 2));
/// assert_eq!(c3.index(), 34);
/// assert_eq!(c3.offset(2, 2).map(|s| s.to_string()), Some("e5".to_string()));
/// assert_eq!(c3.offset(-3, 0), None); // off the board
///
/// assert_eq!("q1".parse::<Square>(), Err(ParseSquareError::Column("q1".into())));
/// assert_eq!("a17".parse::<Square>().map_err(|e| e.to_string()), Err("bad square 'a17' (expected a1..p16)".into()));
/// # Ok::<(), ParseSquareError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Builds a square from its index (0..=255; every `u8` is a square).
    pub const fn from_index(index: u8) -> Square {
        Square(index)
    }

    /// Builds a square from a column (0 = `a`) and row (0 = `1`), or `None` off the board.
    pub const fn from_coords(column: i32, row: i32) -> Option<Square> {
        if column >= 0 && column < 16 && row >= 0 && row < 16 {
            Some(Square((row * 16 + column) as u8))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column 0..=15 (`a`..`p`).
    pub const fn column(self) -> i32 {
        (self.0 % 16) as i32
    }

    /// Row 0..=15 (`1`..`16`).
    pub const fn row(self) -> i32 {
        (self.0 / 16) as i32
    }

    /// The square `(dc, dr)` away, if it is on the board.
    pub const fn offset(self, dc: i32, dr: i32) -> Option<Square> {
        Square::from_coords(self.column() + dc, self.row() + dr)
    }

    /// Iterates over all 256 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..=255u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column() as u8) as char, self.row() + 1)
    }
}

/// Why a square's text was not understood. Each variant carries the refused text
/// (its first 12 characters); all print as `bad square '…' (expected a1..p16)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSquareError {
    /// Too short or too long to be a square (`""`, `a`, `a100`).
    Length(String),
    /// The first character is not a column letter `a`..`p` (`q1`, `A1`, `1a`).
    Column(String),
    /// What follows the column is not a row number 1..16 without a leading zero
    /// (`a0`, `a17`, `a01`, `a+1`).
    Row(String),
}

impl ParseSquareError {
    /// The refused text, shortened to 12 characters.
    pub fn text(&self) -> &str {
        match self {
            ParseSquareError::Length(text) | ParseSquareError::Column(text) | ParseSquareError::Row(text) => text,
        }
    }
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad square '{}' (expected a1..p16)", self.text())
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1`..`p16` exactly (lower-case column letter, row 1..16 without leading zero).
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let quoted = || excerpt(text);
        let bytes = text.as_bytes();
        if bytes.len() < 2 || bytes.len() > 3 {
            return Err(ParseSquareError::Length(quoted()));
        }
        let column = bytes[0];
        if !(b'a'..=b'p').contains(&column) {
            return Err(ParseSquareError::Column(quoted()));
        }
        // The column is one ASCII byte, so the row starts at a character boundary.
        let digits = &text[1..];
        let row = if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
            None
        } else {
            digits.parse::<i32>().ok()
        };
        row.and_then(|row| Square::from_coords(i32::from(column - b'a'), row - 1))
            .ok_or_else(|| ParseSquareError::Row(quoted()))
    }
}

/// The square a test names (`"c3"`), for the unit tests of every layer (the other crates
/// turn on the `testing` feature in their dev-dependencies). A name that is no square
/// fails the test at once instead of standing for another square.
#[cfg(any(test, feature = "testing"))]
pub fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|why| panic!("test square {name}: {why}"))
}

/// Squares are saved in notation (`"c3"`), so save files stay readable.
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for square in Square::all() {
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
        assert_eq!("a1".parse::<Square>().map(Square::index), Ok(0));
        assert_eq!("p1".parse::<Square>().map(Square::index), Ok(15));
        assert_eq!("a16".parse::<Square>().map(Square::index), Ok(240));
        assert_eq!("p16".parse::<Square>().map(Square::index), Ok(255));
        for bad in ["", "a", "a0", "a17", "q1", "A1", "a01", "a1x", "1a", "é1", "a+1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad} should not parse");
        }
        assert_eq!("a".parse::<Square>(), Err(ParseSquareError::Length("a".into())));
        assert_eq!("a1000".parse::<Square>(), Err(ParseSquareError::Length("a1000".into())));
        assert_eq!("A1".parse::<Square>(), Err(ParseSquareError::Column("A1".into())));
        assert_eq!("é1".parse::<Square>(), Err(ParseSquareError::Column("é1".into())));
        for bad in ["a0", "a17", "a01", "a1x", "a+1"] {
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError::Row(bad.into())), "{bad}");
        }
    }
}
