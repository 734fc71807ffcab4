//! A move shown hop by hop after it was played, so that players see where it went.

use crate::rules::{Seat, Square};

/// Time per hop of a move's animation.
pub const HOP_TIME: std::time::Duration = std::time::Duration::from_millis(160);

/// The route of a played move and how far along it the moving piece is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Animation {
    route: Vec<Square>,
    seat: Seat,
    hop: usize,
}

impl Animation {
    /// A move of `seat`'s piece along `route` (start square then every landing);
    /// `None` for a route too short to show.
    pub fn new(route: Vec<Square>, seat: Seat) -> Option<Animation> {
        (!route.is_empty()).then_some(Animation { route, seat, hop: 0 })
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Where the piece is drawn now.
    pub fn current(&self) -> Square {
        self.route[self.hop.min(self.route.len() - 1)]
    }

    /// Where the piece ends: the board hides it there until the animation is over.
    pub fn destination(&self) -> Square {
        self.route[self.route.len() - 1]
    }

    /// Moves on one hop; false when the piece had already arrived.
    pub fn step(&mut self) -> bool {
        if self.hop + 1 < self.route.len() {
            self.hop += 1;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_is_shown_landing_by_landing() {
        let squares: Vec<Square> = ["c3", "e5", "g5"].iter().filter_map(|s| s.parse().ok()).collect();
        let mut animation = Animation::new(squares.clone(), Seat::A).unwrap_or_else(|| panic!("a route"));
        assert_eq!((animation.current(), animation.destination()), (squares[0], squares[2]));
        assert!(animation.step());
        assert_eq!(animation.current(), squares[1]);
        assert!(animation.step());
        assert!(!animation.step(), "arrived");
        assert_eq!(animation.current(), squares[2]);
        assert!(Animation::new(Vec::new(), Seat::A).is_none());
    }
}
