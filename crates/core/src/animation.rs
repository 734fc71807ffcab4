//! A move shown hop by hop after it was played, so that players see where it went.

use crate::sound::Cue;
use halma_rules::{Seat, Square};

/// Time per hop of a move's animation.
pub const HOP_TIME: std::time::Duration = std::time::Duration::from_millis(160);

/// The route of a played move and how far along it the moving piece is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Animation {
    route: Vec<Square>,
    seat: Seat,
    hop: usize,
    /// Heard when the piece lands on its last square (arrival in camp, end of the game).
    arrival: Vec<Cue>,
}

impl Animation {
    /// A move of `seat`'s piece along `route` (start square then every landing);
    /// `None` for a route too short to show.
    pub fn new(route: Vec<Square>, seat: Seat) -> Option<Animation> {
        (!route.is_empty()).then_some(Animation { route, seat, hop: 0, arrival: Vec::new() })
    }

    /// The cues heard as the piece lands on its last square.
    pub fn with_arrival(self, arrival: Vec<Cue>) -> Animation {
        Animation { arrival, ..self }
    }

    /// The cues of the landing [`Animation::step`] just showed: a step, or the chain's
    /// next jump, and on the last square the arrival's.
    pub fn landing_cues(&self) -> Vec<Cue> {
        let single_step = self.route.len() == 2 && {
            let (from, to) = (self.route[0], self.route[1]);
            (from.column() - to.column()).abs().max((from.row() - to.row()).abs()) == 1
        };
        let jump = u8::try_from(self.hop.saturating_sub(1)).unwrap_or(u8::MAX);
        let mut cues = vec![if single_step { Cue::Step } else { Cue::Hop(jump) }];
        if self.hop + 1 == self.route.len() {
            cues.extend_from_slice(&self.arrival);
        }
        cues
    }

    /// The arrival's cues if the piece had not landed yet: the animation is cut short
    /// (the player tapped on) and the piece is now drawn where it ends.
    pub fn cut_short(self) -> Vec<Cue> {
        if self.hop + 1 < self.route.len() {
            self.arrival
        } else {
            Vec::new()
        }
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

    #[test]
    fn each_landing_is_heard_and_the_arrival_at_the_end() {
        let route = |names: &[&str]| names.iter().filter_map(|s| s.parse().ok()).collect::<Vec<Square>>();
        let arrival = vec![Cue::ArriveInCamp, Cue::Win];
        let mut chain = Animation::new(route(&["c3", "e5", "g5", "g7"]), Seat::A)
            .unwrap_or_else(|| panic!("a route"))
            .with_arrival(arrival.clone());
        let mut heard = Vec::new();
        while chain.step() {
            heard.push(chain.landing_cues());
        }
        assert_eq!(heard, [vec![Cue::Hop(0)], vec![Cue::Hop(1)], vec![Cue::Hop(2), Cue::ArriveInCamp, Cue::Win]]);
        assert_eq!(chain.cut_short(), [], "already heard");

        let mut step = Animation::new(route(&["c3", "d4"]), Seat::A).unwrap_or_else(|| panic!("a route"));
        assert!(step.step());
        assert_eq!(step.landing_cues(), [Cue::Step]);
        let mut jump = Animation::new(route(&["c3", "e3"]), Seat::A).unwrap_or_else(|| panic!("a route"));
        assert!(jump.step());
        assert_eq!(jump.landing_cues(), [Cue::Hop(0)]);

        let cut = Animation::new(route(&["c3", "e5", "g5"]), Seat::A).unwrap_or_else(|| panic!("a route"));
        assert_eq!(cut.with_arrival(arrival.clone()).cut_short(), arrival);
    }
}
