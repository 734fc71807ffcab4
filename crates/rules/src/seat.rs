//! The four seats at the corners of the board, and sets of them (the winners).

use super::excerpt::excerpt;
use super::square::Square;
use std::fmt;
use std::str::FromStr;

/// A seat at a corner: `A` south-west (a1), `B` north-west (a16), `C` north-east (p16),
/// `D` south-east (p1). Turn order is A → B → C → D.
///
/// ```rust
/// use halma_rules::{Seat, Square};
///
/// let seat: Seat = "C".parse()?;
/// assert_eq!(seat.opposite(), Seat::A);
/// assert_eq!(seat.corner(), "p16".parse::<Square>()?);
/// assert!("E".parse::<Seat>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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

/// Why a seat's text was not understood: it is not one of the letters `A`, `B`, `C`, `D`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSeatError {
    /// The refused text (its first 12 characters).
    text: String,
}

impl ParseSeatError {
    /// The refused text, shortened to 12 characters.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for ParseSeatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad seat '{}' (expected A, B, C or D)", self.text)
    }
}

impl std::error::Error for ParseSeatError {}

impl FromStr for Seat {
    type Err = ParseSeatError;

    fn from_str(text: &str) -> Result<Seat, ParseSeatError> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(letter), None) => Seat::from_letter(letter),
            _ => None,
        }
        .ok_or_else(|| ParseSeatError { text: excerpt(text) })
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

/// A set of seats (the winners: one seat or a team), printed `A` or `A,C`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct SeatSet(u8);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    pub fn single(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.index())
    }

    pub fn team(a: Seat, b: Seat) -> SeatSet {
        SeatSet((1 << a.index()) | (1 << b.index()))
    }

    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.index()) != 0
    }

    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.index();
    }

    pub fn seats(self) -> impl Iterator<Item = Seat> {
        Seat::ALL.into_iter().filter(move |&s| self.contains(s))
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: Vec<String> = self.seats().map(|s| s.to_string()).collect();
        f.write_str(&letters.join(","))
    }
}
