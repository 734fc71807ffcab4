//! The four setups, their seats, armies, camps and teams (docs/RULES.md, "Camps and setups").

use super::bitboard::Bitboard;
use super::excerpt::excerpt;
use super::seat::Seat;
#[cfg(test)]
use super::square::Square;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The largest army a setup gives (19 pieces). Here, below both `position` and `moves`,
/// so that neither needs the other for it.
pub const MAX_ARMY: usize = 19;

/// Which game is played: the seats in play, army sizes and how it is won.
///
/// ```rust
/// use halma_rules::{Seat, Setup};
///
/// let setup: Setup = "3p".parse()?;
/// assert_eq!(setup, Setup::ThreePlayers);
/// assert_eq!(setup.seats(), [Seat::A, Seat::B, Seat::C]);
/// assert_eq!((setup.army_size(Seat::A), setup.army_size(Seat::B)), (19, 13));
/// // B races to the empty south-east corner.
/// assert!(setup.target_camp(Seat::B).contains(Seat::D.corner()));
/// assert_eq!(setup.next_seat(Seat::C), Seat::A);
///
/// assert_eq!(
///     "5p".parse::<Setup>().map_err(|e| e.to_string()),
///     Err("bad setup '5p' (expected 2p, 3p, 4p-one or 4p-both)".to_string())
/// );
/// # Ok::<(), halma_rules::ParseSetupError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Setup {
    /// Two players, A and C, 19 pieces each, individual race.
    #[serde(rename = "2p")]
    TwoPlayers,
    /// The original three-player game: A (19), B (13), C (19), individual race.
    #[serde(rename = "3p")]
    ThreePlayers,
    /// Four players, 13 each, teams A+C and B+D; one army home wins for its team.
    #[serde(rename = "4p-one")]
    FourPlayersOneArmy,
    /// Four players, 13 each, teams A+C and B+D; both armies of a team must arrive.
    #[serde(rename = "4p-both")]
    FourPlayersBothArmies,
}

/// A camp with side 5 (19 squares) or side 4 (13 squares), in the seat's corner.
const fn corner_camp(seat: Seat, army_size: u32) -> Bitboard {
    let (max_side, max_sum) = if army_size == 19 { (4, 5) } else { (3, 4) };
    let corner = seat.corner();
    let column_step = if corner.column() == 0 { 1 } else { -1 };
    let row_step = if corner.row() == 0 { 1 } else { -1 };
    let mut words = [0u64; 4];
    let mut x = 0;
    while x <= max_side {
        let mut y = 0;
        while y <= max_side {
            if x + y <= max_sum {
                let index = ((corner.row() + y * row_step) * 16 + corner.column() + x * column_step) as usize;
                words[index / 64] |= 1u64 << (index % 64);
            }
            y += 1;
        }
        x += 1;
    }
    Bitboard(words)
}

/// Camps indexed by corner seat, for 19 and 13 pieces.
const CAMPS_19: [Bitboard; 4] =
    [corner_camp(Seat::A, 19), corner_camp(Seat::B, 19), corner_camp(Seat::C, 19), corner_camp(Seat::D, 19)];
const CAMPS_13: [Bitboard; 4] =
    [corner_camp(Seat::A, 13), corner_camp(Seat::B, 13), corner_camp(Seat::C, 13), corner_camp(Seat::D, 13)];

impl Setup {
    pub const ALL: [Setup; 4] =
        [Setup::TwoPlayers, Setup::ThreePlayers, Setup::FourPlayersOneArmy, Setup::FourPlayersBothArmies];

    /// The seats in play, in turn order.
    pub const fn seats(self) -> &'static [Seat] {
        match self {
            Setup::TwoPlayers => &[Seat::A, Seat::C],
            Setup::ThreePlayers => &[Seat::A, Seat::B, Seat::C],
            Setup::FourPlayersOneArmy | Setup::FourPlayersBothArmies => &[Seat::A, Seat::B, Seat::C, Seat::D],
        }
    }

    pub fn has_seat(self, seat: Seat) -> bool {
        self.seats().contains(&seat)
    }

    /// Position of `seat` in the turn order (0-based), if it plays.
    pub fn turn_index(self, seat: Seat) -> Option<usize> {
        self.seats().iter().position(|&s| s == seat)
    }

    /// The seat that plays after `seat`.
    pub fn next_seat(self, seat: Seat) -> Seat {
        let seats = self.seats();
        let index = self.turn_index(seat).unwrap_or(0);
        seats[(index + 1) % seats.len()]
    }

    /// How many pieces `seat` has (0 when it does not play).
    pub fn army_size(self, seat: Seat) -> u32 {
        match (self, seat) {
            (Setup::TwoPlayers, Seat::A | Seat::C) => 19,
            (Setup::TwoPlayers, _) => 0,
            (Setup::ThreePlayers, Seat::A | Seat::C) => 19,
            (Setup::ThreePlayers, Seat::B) => 13,
            (Setup::ThreePlayers, Seat::D) => 0,
            _ => 13,
        }
    }

    /// The camp where `seat`'s army starts (empty when the seat does not play).
    pub fn home_camp(self, seat: Seat) -> Bitboard {
        match self.army_size(seat) {
            19 => CAMPS_19[seat.index()],
            13 => CAMPS_13[seat.index()],
            _ => Bitboard::EMPTY,
        }
    }

    /// The camp `seat`'s army must fill: same size, diagonally opposite corner.
    pub fn target_camp(self, seat: Seat) -> Bitboard {
        match self.army_size(seat) {
            19 => CAMPS_19[seat.opposite().index()],
            13 => CAMPS_13[seat.opposite().index()],
            _ => Bitboard::EMPTY,
        }
    }

    /// True for the two four-player team formats.
    pub const fn has_teams(self) -> bool {
        matches!(self, Setup::FourPlayersOneArmy | Setup::FourPlayersBothArmies)
    }

    /// The partner of `seat` in team games.
    pub fn partner(self, seat: Seat) -> Option<Seat> {
        self.has_teams().then(|| seat.opposite())
    }

    /// The protocol and HPN name: `2p`, `3p`, `4p-one`, `4p-both`.
    pub const fn name(self) -> &'static str {
        match self {
            Setup::TwoPlayers => "2p",
            Setup::ThreePlayers => "3p",
            Setup::FourPlayersOneArmy => "4p-one",
            Setup::FourPlayersBothArmies => "4p-both",
        }
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a setup's name was not understood: it is not `2p`, `3p`, `4p-one` or `4p-both`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSetupError {
    /// The refused name (its first 16 characters).
    text: String,
}

impl ParseSetupError {
    /// The refused name, shortened to 16 characters.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for ParseSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad setup '{}' (expected 2p, 3p, 4p-one or 4p-both)", self.text)
    }
}

impl std::error::Error for ParseSetupError {}

impl FromStr for Setup {
    type Err = ParseSetupError;

    fn from_str(text: &str) -> Result<Setup, ParseSetupError> {
        Setup::ALL.into_iter().find(|setup| setup.name() == text).ok_or_else(|| ParseSetupError { text: excerpt(text) })
    }
}

/// Squares of the camp in `seat`'s corner for an army of `army_size` (19 or 13).
pub fn camp_at(seat: Seat, army_size: u32) -> Bitboard {
    if army_size == 19 {
        CAMPS_19[seat.index()]
    } else {
        CAMPS_13[seat.index()]
    }
}

/// Rows of a 19-camp seen from its corner: 5, 5, 4, 3, 2 squares.
#[cfg(test)]
fn row_lengths(camp: Bitboard, corner: Square) -> Vec<u32> {
    let mut lengths = Vec::new();
    for y in 0..16 {
        let row = if corner.row() == 0 { y } else { 15 - y };
        let count = camp.squares().filter(|s| s.row() == row).count() as u32;
        if count > 0 {
            lengths.push(count);
        }
    }
    lengths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camps_have_the_staircase_shape() {
        for seat in Seat::ALL {
            let big = camp_at(seat, 19);
            let small = camp_at(seat, 13);
            assert_eq!(big.count(), 19);
            assert_eq!(small.count(), 13);
            assert!(big.is_superset_of(small));
            assert_eq!(row_lengths(big, seat.corner()), vec![5, 5, 4, 3, 2]);
            assert_eq!(row_lengths(small, seat.corner()), vec![4, 4, 3, 2]);
            assert!(big.contains(seat.corner()));
        }
        let a: Vec<String> = camp_at(Seat::A, 13).squares().map(|s| s.to_string()).collect();
        assert_eq!(a, ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "a4", "b4"]);
    }

    #[test]
    fn seats_and_targets_per_setup() {
        assert_eq!(Setup::ThreePlayers.seats(), &[Seat::A, Seat::B, Seat::C]);
        assert_eq!(Setup::ThreePlayers.target_camp(Seat::B), camp_at(Seat::D, 13));
        assert_eq!(Setup::ThreePlayers.target_camp(Seat::A), camp_at(Seat::C, 19));
        assert_eq!(Setup::TwoPlayers.next_seat(Seat::C), Seat::A);
        assert_eq!(Setup::FourPlayersBothArmies.next_seat(Seat::D), Seat::A);
        assert_eq!(Setup::FourPlayersOneArmy.partner(Seat::B), Some(Seat::D));
        assert_eq!(Setup::TwoPlayers.partner(Seat::A), None);
        for setup in Setup::ALL {
            assert_eq!(setup.name().parse::<Setup>(), Ok(setup));
        }
        assert!("5p".parse::<Setup>().is_err());
    }
}
