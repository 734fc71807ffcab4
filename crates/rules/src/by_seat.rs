//! One value for each of the four seats, indexed by [`Seat`]: who plays each seat, a record's
//! player tags. The board's own per-seat tables stay plain arrays (the search reads them in
//! its inner loops); this is for the app's and the records' per-seat facts, where asking
//! "which seats in play are X" was otherwise written out again at every use.

use crate::seat::{Seat, SeatSet};
use serde::{Deserialize, Serialize};
use std::ops::{Index, IndexMut};

/// A value per seat A..D. Saved as a plain four-element list, as the arrays it replaces were.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BySeat<T>([T; 4]);

impl<T> BySeat<T> {
    /// The values of seats A, B, C and D, in that order.
    pub const fn new(values: [T; 4]) -> BySeat<T> {
        BySeat(values)
    }

    /// Each seat's value from `value(seat)`.
    pub fn from_fn(mut value: impl FnMut(Seat) -> T) -> BySeat<T> {
        BySeat(Seat::ALL.map(&mut value))
    }

    /// The values, A first (as the array's iterator).
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// The values to change, A first.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.0.iter_mut()
    }

    /// Every seat with its value, A first.
    pub fn with_seats(&self) -> impl Iterator<Item = (Seat, &T)> {
        Seat::ALL.into_iter().zip(self.0.iter())
    }

    /// The seats among `in_play` whose value passes `keep` (a setup's seats: those of a
    /// seat not in play are ignored).
    pub fn seats_where(&self, in_play: &[Seat], keep: impl Fn(&T) -> bool) -> SeatSet {
        let mut seats = SeatSet::EMPTY;
        for &seat in in_play {
            if keep(&self[seat]) {
                seats.insert(seat);
            }
        }
        seats
    }

    /// Each seat's value turned by `turn`.
    pub fn map<U>(self, turn: impl FnMut(T) -> U) -> BySeat<U> {
        BySeat(self.0.map(turn))
    }
}

impl<T: Clone> BySeat<T> {
    /// The same value for every seat.
    pub fn all(value: T) -> BySeat<T> {
        BySeat::from_fn(|_| value.clone())
    }
}

impl<T> From<[T; 4]> for BySeat<T> {
    fn from(values: [T; 4]) -> BySeat<T> {
        BySeat(values)
    }
}

impl<T: PartialEq> PartialEq<[T; 4]> for BySeat<T> {
    fn eq(&self, other: &[T; 4]) -> bool {
        self.0 == *other
    }
}

impl<'a, T> IntoIterator for &'a BySeat<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut BySeat<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

impl<T> Index<Seat> for BySeat<T> {
    type Output = T;

    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_where_looks_only_at_the_seats_in_play() {
        let players = BySeat::new(['h', 'c', 'h', 'h']);
        assert_eq!(players.seats_where(&[Seat::A, Seat::C], |&p| p == 'h'), SeatSet::team(Seat::A, Seat::C));
        assert_eq!(players.seats_where(&[Seat::A, Seat::B, Seat::C], |&p| p == 'c'), SeatSet::single(Seat::B));
        assert!(players.seats_where(&[Seat::A, Seat::C], |&p| p == 'c').is_empty(), "B is not in play");
    }

    #[test]
    fn indexed_by_seat_and_saved_as_a_plain_list() {
        let mut players = BySeat::all(0u8);
        players[Seat::C] = 7;
        assert_eq!(players, [0, 0, 7, 0]);
        assert_eq!(players.with_seats().find(|(_, &v)| v == 7).map(|(seat, _)| seat), Some(Seat::C));
        let text = serde_json::to_string(&players).expect("saved");
        assert_eq!(text, "[0,0,7,0]");
        assert_eq!(serde_json::from_str::<BySeat<u8>>(&text).expect("read"), players);
    }
}
