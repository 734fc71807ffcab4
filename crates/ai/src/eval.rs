//! Evaluation: who is ahead in the race, in "points" where one step of one piece toward
//! its target camp is worth [`Weights::step`] points.
//!
//! The core of it is a lower bound on the work an army still has to do: every piece
//! outside the target camp must walk to the camp, and every free square of the camp must
//! then be filled from its edge. Each piece outside adds its king-step distance to the
//! camp, and each free target square adds its depth (how far it lies from the camp's
//! open edge). Because the number of pieces outside always equals the number of free
//! target squares, this is the cost of an assignment of the missing pieces to the free
//! squares (optimal when the path of a piece to its square splits into "reach the camp"
//! plus "go in"). The sum rewrites as a per-square potential, so it costs one table look-up
//! per piece: the free-square part is a constant minus the depths of the filled squares.
//!
//! On top of it: stragglers (pieces far behind, which soon have nothing to jump over)
//! cost extra, growing with the square of their distance; pieces keep to the diagonal
//! (Manhattan distance to the corner breaks ties between squares equally far from the
//! camp: the middle of the board has more ladders and no edge); and forward jumps ready
//! to be played (a piece with a neighbour ahead of it and a free landing square behind)
//! count a little, for the army to move.

use halma_rules::{Bitboard, Position, Seat, Setup, Square};
use std::sync::OnceLock;

/// A won game, before subtracting the plies needed to reach it.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses at a known distance.
pub const WIN_THRESHOLD: i32 = WIN - 10_000;

/// The evaluation's weights (points).
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// One king step of one piece toward the camp.
    pub step: i32,
    /// Added per step squared, in 1/16 points: makes far-behind pieces cost more.
    pub straggler: i32,
    /// One unit of Manhattan distance to the target corner (also the depth of camp squares).
    pub corner: i32,
    /// Bonus for the side to move in a two-sided race (it is about one move ahead).
    pub tempo: i32,
    /// Per piece of an army with a forward jump ready.
    pub ladder: i32,
    /// Per foreign piece walled in on an army's target squares (no move out of the camp):
    /// the army cannot finish while it stays, so it should open a way out.
    pub trapped: i32,
    /// Measure every army's work against its par (see [`Evaluator::par`]): in 3p the lone
    /// 13-piece army has far less to walk than the 19-piece ones, so its raw work makes it
    /// look 120 steps ahead at the start. The analysis judges with it; the levels play
    /// without it (their strength was measured so).
    pub par: bool,
}

impl Weights {
    pub const DEFAULT: Weights =
        Weights { step: 10, straggler: 18, corner: 1, tempo: 20, ladder: 2, trapped: 60, par: false };
    /// The plain race, for the weakest players and for judging progress.
    pub const PLAIN: Weights =
        Weights { step: 10, straggler: 0, corner: 3, tempo: 0, ladder: 0, trapped: 0, par: false };
    /// What the analysis judges with: the default measured against each army's par, so
    /// that every seat's value is on one scale.
    pub const ANALYSIS: Weights = Weights { par: true, ..Weights::DEFAULT };
}

/// Per army: its target camp, the king-step distance of every square to that camp
/// (0 inside), and the Manhattan distance to the target corner.
struct ArmyTable {
    camp: Bitboard,
    steps: [u8; 256],
    corner: [u8; 256],
    /// Squares from which a forward jump (over `over`, landing `land`) gets closer.
    forward_jumps: [[(u8, u8); 3]; 256],
    forward_jump_count: [u8; 256],
}

/// Tables for 19- and 13-piece armies of each seat.
struct Tables {
    armies: [[ArmyTable; 4]; 2],
}

fn build_army(camp: Bitboard, corner: Square) -> ArmyTable {
    let mut steps = [0u8; 256];
    let mut manhattan = [0u8; 256];
    for square in Square::all() {
        let d = camp
            .squares()
            .map(|t| (t.column() - square.column()).abs().max((t.row() - square.row()).abs()))
            .min()
            .unwrap_or(0);
        steps[square.index()] = d as u8;
        manhattan[square.index()] =
            ((corner.column() - square.column()).abs() + (corner.row() - square.row()).abs()) as u8;
    }
    let dc = if corner.column() == 0 { -1 } else { 1 };
    let dr = if corner.row() == 0 { -1 } else { 1 };
    let mut forward_jumps = [[(0u8, 0u8); 3]; 256];
    let mut forward_jump_count = [0u8; 256];
    for square in Square::all() {
        for (c, r) in [(dc, 0), (0, dr), (dc, dr)] {
            if let (Some(over), Some(land)) = (square.offset(c, r), square.offset(2 * c, 2 * r)) {
                let n = &mut forward_jump_count[square.index()];
                forward_jumps[square.index()][*n as usize] = (over.index() as u8, land.index() as u8);
                *n += 1;
            }
        }
    }
    ArmyTable { camp, steps, corner: manhattan, forward_jumps, forward_jump_count }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let build = |size: u32| {
            Seat::ALL.map(|seat| {
                let target = seat.opposite();
                build_army(halma_rules::camp_at(target, size), target.corner())
            })
        };
        Tables { armies: [build(19), build(13)] }
    })
}

fn army_table(setup: Setup, army: Seat) -> &'static ArmyTable {
    let kind = if setup.army_size(army) == 19 { 0 } else { 1 };
    &tables().armies[kind][army.index()]
}

/// The potential of one square for `army`: what a piece there adds to the army's
/// remaining work. Lower is better; the camp squares are the lowest of all.
fn potential(table: &ArmyTable, weights: &Weights, square: Square) -> i32 {
    let steps = i32::from(table.steps[square.index()]);
    weights.step * steps
        + (weights.straggler * steps * steps) / 16
        + weights.corner * i32::from(table.corner[square.index()])
}

/// The plain remaining distance of `army` in king steps to its camp, plus the depth of its
/// free target squares (0 when it has arrived). The progress measure for draw offers and
/// arena adjudication.
pub fn remaining_steps(position: &Position, army: Seat) -> i32 {
    let setup = position.setup();
    if setup.army_size(army) == 0 {
        return 0;
    }
    let table = army_table(setup, army);
    let pieces = position.pieces(army);
    let outside: i32 = (pieces & !table.camp).squares().map(|s| i32::from(table.steps[s.index()])).sum();
    // Free target squares: their depth, counted as Manhattan distance from the camp's
    // far edge, so the filled camp scores 0.
    let edge = i32::from(table.camp.squares().map(|s| table.corner[s.index()]).max().unwrap_or(0)) + 1;
    let free: i32 = (table.camp & !pieces).squares().map(|s| edge - i32::from(table.corner[s.index()])).sum();
    outside + free
}

/// The evaluation for one setup and set of weights, with the potentials of every square
/// for every army worked out once (a search builds one and evaluates millions of leaves).
pub struct Evaluator {
    setup: Setup,
    weights: Weights,
    potentials: [[i32; 256]; 4],
    /// The sum of the potentials over each army's target camp: the least it can have.
    best: [i32; 4],
    tables: [&'static ArmyTable; 4],
    /// Each army's work at the start (its par) and the largest of them, when the weights
    /// ask for [`Weights::par`] and the armies' pars differ (3p); otherwise `None`.
    pars: Option<([i32; 4], i32)>,
}

impl Evaluator {
    pub fn new(setup: Setup, weights: Weights) -> Evaluator {
        let mut potentials = [[0; 256]; 4];
        let mut best = [0; 4];
        let tables = Seat::ALL.map(|seat| army_table(setup, seat));
        for &seat in setup.seats() {
            let table = tables[seat.index()];
            for square in Square::all() {
                potentials[seat.index()][square.index()] = potential(table, &weights, square);
            }
            best[seat.index()] = table.camp.squares().map(|s| potentials[seat.index()][s.index()]).sum();
        }
        let mut evaluator = Evaluator { setup, weights, potentials, best, tables, pars: None };
        if weights.par {
            let start = Position::start(setup, setup.seats()[0]);
            let pars = evaluator.works(&start);
            let largest = setup.seats().iter().map(|seat| pars[seat.index()]).max().unwrap_or(0);
            if setup.seats().iter().any(|seat| pars[seat.index()] != largest) && largest > 0 {
                evaluator.pars = Some((pars, largest));
            }
        }
        evaluator
    }

    /// Each army's work measured against its par: scaled so that every army's work at
    /// the start is the largest army's (`work * largest par / own par`). A 13-piece army
    /// halfway home then has as much left as a 19-piece army halfway home, and every
    /// seat starts level. Unchanged without [`Weights::par`] or where the pars are equal
    /// (2p and both 4p setups).
    #[inline]
    pub fn par(&self, works: &[i32; 4]) -> [i32; 4] {
        let Some((pars, largest)) = self.pars else { return *works };
        let mut scaled = *works;
        for &seat in self.setup.seats() {
            let par = pars[seat.index()].max(1);
            scaled[seat.index()] = (i64::from(works[seat.index()]) * i64::from(largest) / i64::from(par)) as i32;
        }
        scaled
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// How much a move of `army` from `from` to `to` gains (positive: forward). Orders
    /// moves and prunes backward ones.
    #[inline]
    pub fn gain(&self, army: Seat, from: Square, to: Square) -> i32 {
        let potentials = &self.potentials[army.index()];
        potentials[from.index()] - potentials[to.index()]
    }

    /// The work `army` still has to do in points (lower is better): the potential summed
    /// over its pieces, minus the best possible sum, so an arrived army has 0.
    #[inline]
    pub fn army_work(&self, position: &Position, army: Seat) -> i32 {
        let potentials = &self.potentials[army.index()];
        let mut work = 0;
        for square in position.pieces(army).squares() {
            work += potentials[square.index()];
        }
        work - self.best[army.index()]
    }

    /// The work of every army (indexed by seat; 0 for seats not in play). The search
    /// keeps this up to date move by move with [`Evaluator::gain`] instead of summing
    /// over the pieces at every leaf.
    pub fn works(&self, position: &Position) -> [i32; 4] {
        let mut works = [0; 4];
        for &seat in self.setup.seats() {
            works[seat.index()] = self.army_work(position, seat);
        }
        works
    }

    /// The work of the side `seat` plays for. In 4p-both both armies must arrive and an
    /// arrived seat moves its partner's army, so the team's work is the sum; in 4p-one the
    /// leading army counts (one army home wins), the other a little, so that it still
    /// moves on when nothing else matters.
    pub fn work_of_seat(&self, works: &[i32; 4], seat: Seat) -> i32 {
        let (own, partner) = (works[seat.index()], works[seat.opposite().index()]);
        match self.setup {
            Setup::TwoPlayers | Setup::ThreePlayers => own,
            Setup::FourPlayersBothArmies => own + partner,
            Setup::FourPlayersOneArmy => own.min(partner) + own.max(partner) / 8,
        }
    }

    /// Pieces of `army` with a forward jump ready (a piece next to them ahead, the square
    /// behind it empty): the rungs of jump ladders.
    fn ladder_pieces(&self, position: &Position, army: Seat) -> i32 {
        let table = self.tables[army.index()];
        let occupied = position.occupied();
        let mut count = 0;
        for square in (position.pieces(army) & !table.camp).squares() {
            let jumps = &table.forward_jumps[square.index()][..table.forward_jump_count[square.index()] as usize];
            if jumps.iter().any(|&(over, land)| {
                occupied.contains(Square::from_index(over)) && !occupied.contains(Square::from_index(land))
            }) {
                count += 1;
            }
        }
        count
    }

    /// The static score of `position` for `root` (positive: `root`'s side is ahead). In
    /// two-sided games (2p and the team setups) the difference of the two sides' work; in
    /// 3p the lead over the best-placed opponent. Does not look at wins (the search does).
    pub fn evaluate(&self, position: &Position, root: Seat) -> i32 {
        self.score(position, root, &self.works(position))
    }

    /// Foreign pieces on `army`'s target squares that have no move out of that camp. Only
    /// looked for when a few foreign pieces remain there (the end of the race, where they
    /// matter; early on they are the opponent's army still at home, free to leave).
    fn trapped_blockers(&self, position: &Position, army: Seat) -> i32 {
        const LOOK_AT_MOST: u32 = 3;
        let camp = self.tables[army.index()].camp;
        let blockers = camp & position.occupied() & !position.pieces(army);
        if blockers.is_empty() || blockers.count() > LOOK_AT_MOST {
            return 0;
        }
        blockers.squares().filter(|&square| (position.destinations_of(square) & !camp).is_empty()).count() as i32
    }

    /// [`Evaluator::evaluate`] with the armies' work already known.
    pub fn score(&self, position: &Position, root: Seat, works: &[i32; 4]) -> i32 {
        let setup = self.setup;
        let mut works = *works;
        if self.weights.trapped != 0 {
            for &seat in setup.seats() {
                works[seat.index()] += self.weights.trapped * self.trapped_blockers(position, seat);
            }
        }
        let works = &self.par(&works);
        let mine = self.work_of_seat(works, root);
        let mut score = match setup {
            Setup::TwoPlayers => self.work_of_seat(works, root.opposite()) - mine,
            Setup::FourPlayersOneArmy | Setup::FourPlayersBothArmies => {
                self.work_of_seat(works, setup.next_seat(root)) - mine
            }
            Setup::ThreePlayers => {
                setup.seats().iter().filter(|&&s| s != root).map(|&s| works[s.index()]).min().unwrap_or(0) - mine
            }
        };
        let ours = is_on_side(setup, root, position.to_move());
        if self.weights.ladder != 0 {
            let ladders = self.weights.ladder * self.ladder_pieces(position, position.army_to_move());
            score += if ours { ladders } else { -ladders };
        }
        if self.weights.tempo != 0 && setup != Setup::ThreePlayers {
            score += if ours { self.weights.tempo } else { -self.weights.tempo };
        }
        score
    }
}

/// [`Evaluator::evaluate`] for a single position.
pub fn evaluate(position: &Position, root: Seat, weights: &Weights) -> i32 {
    Evaluator::new(position.setup(), *weights).evaluate(position, root)
}

/// Whether `seat` plays on `root`'s side: the same seat, or its partner in team setups.
/// In 3p every other seat is an opponent (the search is paranoid).
#[inline]
pub fn is_on_side(setup: Setup, root: Seat, seat: Seat) -> bool {
    seat == root || (setup.has_teams() && seat == root.opposite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_camp_is_the_cheapest_place_for_an_army() {
        for setup in Setup::ALL {
            for &seat in setup.seats() {
                let table = army_table(setup, seat);
                let camp = setup.target_camp(seat);
                assert_eq!(table.camp, camp);
                let evaluator = Evaluator::new(setup, Weights::DEFAULT);
                let worst_inside = camp.squares().map(|s| evaluator.potentials[seat.index()][s.index()]).max();
                let best_outside = (!camp).squares().map(|s| evaluator.potentials[seat.index()][s.index()]).min();
                assert!(worst_inside < best_outside, "{setup} {seat}");
            }
        }
    }

    #[test]
    fn start_positions_are_level_and_arrived_armies_have_no_work() {
        for setup in Setup::ALL {
            let start = Position::start(setup, setup.seats()[0]);
            let evaluator = Evaluator::new(setup, Weights::DEFAULT);
            for &seat in setup.seats() {
                assert!(evaluator.army_work(&start, seat) > 0);
                assert!(remaining_steps(&start, seat) > 0);
                let mut pieces = [Bitboard::EMPTY; 4];
                pieces[seat.index()] = setup.target_camp(seat);
                let arrived = Position::from_parts(setup, pieces, seat, 0);
                assert_eq!(evaluator.army_work(&arrived, seat), 0, "{setup} {seat}");
                assert_eq!(remaining_steps(&arrived, seat), 0, "{setup} {seat}");
            }
        }
        let start = Position::start(Setup::TwoPlayers, Seat::A);
        let evaluator = Evaluator::new(Setup::TwoPlayers, Weights::DEFAULT);
        assert_eq!(evaluator.army_work(&start, Seat::A), evaluator.army_work(&start, Seat::C));
        assert_eq!(remaining_steps(&start, Seat::A), remaining_steps(&start, Seat::C));
        // The side to move is a tempo ahead; the other sees the same from its side.
        let no_ladders = Evaluator::new(Setup::TwoPlayers, Weights { ladder: 0, ..Weights::DEFAULT });
        assert_eq!(no_ladders.evaluate(&start, Seat::A), Weights::DEFAULT.tempo);
        assert_eq!(no_ladders.evaluate(&start, Seat::C), -Weights::DEFAULT.tempo);
    }

    #[test]
    fn a_foreign_piece_walled_in_on_the_target_camp_counts_against_the_army() {
        let square = |name: &str| name.parse::<Square>().unwrap_or(Square::from_index(0));
        let board = |names: &[&str]| names.iter().map(|n| square(n)).collect::<Bitboard>();
        let evaluator = Evaluator::new(Setup::TwoPlayers, Weights::DEFAULT);
        // C's piece in the p16 corner: every step is taken and every jump lands on A.
        let mut pieces = [Bitboard::EMPTY; 4];
        pieces[Seat::A.index()] = board(&["o16", "n16", "o15", "n14", "p15", "p14"]);
        pieces[Seat::C.index()] = board(&["p16"]);
        let walled = Position::from_parts(Setup::TwoPlayers, pieces, Seat::A, 100);
        assert_eq!(evaluator.trapped_blockers(&walled, Seat::A), 1);
        assert_eq!(evaluator.trapped_blockers(&walled, Seat::C), 0);
        let works = evaluator.works(&walled);
        let trapped = Weights::DEFAULT.trapped;
        let plain = Evaluator::new(Setup::TwoPlayers, Weights { trapped: 0, ..Weights::DEFAULT });
        assert_eq!(evaluator.score(&walled, Seat::A, &works), plain.score(&walled, Seat::A, &works) - trapped);
        // With n14 free, the piece jumps out over o15 and on over A's pieces: not walled in.
        pieces[Seat::A.index()] = board(&["o16", "n16", "o15", "p15", "p14", "m13"]);
        let open = Position::from_parts(Setup::TwoPlayers, pieces, Seat::A, 100);
        assert!(!(open.destinations_of(square("p16")) & !Setup::TwoPlayers.target_camp(Seat::A)).is_empty());
        assert_eq!(evaluator.trapped_blockers(&open, Seat::A), 0);
    }
}
