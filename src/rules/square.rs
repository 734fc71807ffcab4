//! Squares of the 16×16 board and the four seats.

use std::fmt;
use std::str::FromStr;

/// One of the 256 squares: index `row * 16 + column`, so `a1` = 0, `p1` = 15, `p16` = 255.
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

/// Why a square's text was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad square '{}' (expected a1..p16)", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1`..`p16` exactly (lower-case column letter, row 1..16 without leading zero).
    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let error = || ParseSquareError(text.chars().take(12).collect());
        let bytes = text.as_bytes();
        if bytes.len() < 2 || bytes.len() > 3 {
            return Err(error());
        }
        let column = bytes[0];
        if !(b'a'..=b'p').contains(&column) {
            return Err(error());
        }
        let digits = &text[1..];
        if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(error());
        }
        let row: i32 = digits.parse().map_err(|_| error())?;
        Square::from_coords(i32::from(column - b'a'), row - 1).ok_or_else(error)
    }
}

/// A seat at a corner: `A` south-west (a1), `B` north-west (a16), `C` north-east (p16),
/// `D` south-east (p1). Turn order is A → B → C → D.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Seat {
    A = 0,
    B = 1,
    C = 2,
    D = 3,
}

impl Seat {
    pub const ALL: [Seat; 4] = [Seat::A, Seat::B, Seat::C, Seat::D];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(index: usize) -> Seat {
        match index % 4 {
            0 => Seat::A,
            1 => Seat::B,
            2 => Seat::C,
            _ => Seat::D,
        }
    }

    /// The seat in the diagonally opposite corner (the partner in four-player games).
    pub const fn opposite(self) -> Seat {
        Seat::from_index(self.index() + 2)
    }

    pub const fn letter(self) -> char {
        (b'A' + self as u8) as char
    }

    pub fn from_letter(letter: char) -> Option<Seat> {
        match letter {
            'A' => Some(Seat::A),
            'B' => Some(Seat::B),
            'C' => Some(Seat::C),
            'D' => Some(Seat::D),
            _ => None,
        }
    }

    /// The corner square of this seat's home.
    pub const fn corner(self) -> Square {
        match self {
            Seat::A => Square::from_index(0),
            Seat::B => Square::from_index(240),
            Seat::C => Square::from_index(255),
            Seat::D => Square::from_index(15),
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl FromStr for Seat {
    type Err = String;

    fn from_str(text: &str) -> Result<Seat, String> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(letter), None) => {
                Seat::from_letter(letter).ok_or_else(|| format!("bad seat '{text}' (expected A, B, C or D)"))
            }
            _ => Err(format!("bad seat '{}' (expected A, B, C or D)", text.chars().take(12).collect::<String>())),
        }
    }
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

/// Seats are saved as their letter (`"A"`).
impl serde::Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Seat, D::Error> {
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
    }
}
