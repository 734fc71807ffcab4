//! Shared by the property tests (`tests/prop_*.rs`): a deliberately simple reference for
//! the rules, written from RULES.md on a plain array of 256 cells (no bitboards, no
//! precomputed tables), and the generators of random and biased-random games.
//!
//! The engine is fast and clever; this reference is slow and obvious. Where they
//! disagree, one of them is wrong, and proptest shrinks the game that shows it.

#![allow(dead_code)] // each test file uses its own part of this module

use halma::rules::{Action, Game, Move, Position, Seat, Setup, Square};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use std::collections::{BTreeSet, VecDeque};

/// The proptest configuration: `default_cases` unless `PROPTEST_CASES` says otherwise,
/// so that `cargo test` stays quick and a long run is one variable away.
pub fn config(default_cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|text| text.parse().ok()).unwrap_or(default_cases);
    // Shrinking a 700-ply game is slow: a minute of it finds a short enough example.
    ProptestConfig { cases, max_shrink_iters: 4_000, max_shrink_time: 60_000, ..ProptestConfig::default() }
}

/// The eight directions, written out again rather than taken from the engine.
const DIRECTIONS: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// Every setup and the seats that play in it, in turn order (RULES.md table).
pub fn seats_in_play(setup: Setup) -> Vec<Seat> {
    match setup {
        Setup::TwoPlayers => vec![Seat::A, Seat::C],
        Setup::ThreePlayers => vec![Seat::A, Seat::B, Seat::C],
        Setup::FourPlayersOneArmy | Setup::FourPlayersBothArmies => vec![Seat::A, Seat::B, Seat::C, Seat::D],
    }
}

pub fn army_size(setup: Setup, seat: Seat) -> usize {
    match (setup, seat) {
        (Setup::TwoPlayers, Seat::A | Seat::C) | (Setup::ThreePlayers, Seat::A | Seat::C) => 19,
        (Setup::TwoPlayers, _) | (Setup::ThreePlayers, Seat::D) => 0,
        _ => 13,
    }
}

/// The seat in the diagonally opposite corner.
pub fn opposite(seat: Seat) -> Seat {
    match seat {
        Seat::A => Seat::C,
        Seat::B => Seat::D,
        Seat::C => Seat::A,
        Seat::D => Seat::B,
    }
}

fn corner_coords(seat: Seat) -> (i32, i32) {
    match seat {
        Seat::A => (0, 0),
        Seat::B => (0, 15),
        Seat::C => (15, 15),
        Seat::D => (15, 0),
    }
}

fn square(column: i32, row: i32) -> Option<Square> {
    ((0..16).contains(&column) && (0..16).contains(&row)).then(|| Square::from_index((row * 16 + column) as u8))
}

/// The staircase camp of `size` (19 or 13) in `corner`'s corner: x, y distances from
/// the corner square with x ≤ s, y ≤ s, x + y ≤ s + 1 (s = 4 or 3).
pub fn camp(corner: Seat, size: usize) -> BTreeSet<Square> {
    let side = if size == 19 { 4 } else { 3 };
    let (corner_column, corner_row) = corner_coords(corner);
    let (column_step, row_step) = (if corner_column == 0 { 1 } else { -1 }, if corner_row == 0 { 1 } else { -1 });
    let mut squares = BTreeSet::new();
    for x in 0..=side {
        for y in 0..=side {
            if x + y <= side + 1 {
                squares.extend(square(corner_column + x * column_step, corner_row + y * row_step));
            }
        }
    }
    squares
}

pub fn home_camp(setup: Setup, seat: Seat) -> BTreeSet<Square> {
    match army_size(setup, seat) {
        0 => BTreeSet::new(),
        size => camp(seat, size),
    }
}

pub fn target_camp(setup: Setup, seat: Seat) -> BTreeSet<Square> {
    match army_size(setup, seat) {
        0 => BTreeSet::new(),
        size => camp(opposite(seat), size),
    }
}

/// A position as a plain array: who stands on each of the 256 squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub cells: Vec<Option<Seat>>,
    pub setup: Setup,
    pub to_move: Seat,
    pub plies: u32,
}

impl Board {
    /// Reads a position square by square through `Position::pieces`.
    pub fn of(position: &Position) -> Board {
        let mut cells = vec![None; 256];
        for seat in Seat::ALL {
            for at in position.pieces(seat).squares() {
                cells[at.index()] = Some(seat);
            }
        }
        Board { cells, setup: position.setup(), to_move: position.to_move(), plies: position.plies() }
    }

    pub fn at(&self, at: Square) -> Option<Seat> {
        self.cells[at.index()]
    }

    pub fn squares_of(&self, seat: Seat) -> BTreeSet<Square> {
        Square::all().filter(|&at| self.at(at) == Some(seat)).collect()
    }

    pub fn has_arrived(&self, seat: Seat) -> bool {
        army_size(self.setup, seat) > 0 && target_camp(self.setup, seat).iter().all(|&at| self.at(at) == Some(seat))
    }

    /// The winners by RULES.md, "End of the game", as a sorted set of seats.
    pub fn winners(&self) -> Option<BTreeSet<Seat>> {
        let seats = seats_in_play(self.setup);
        match self.setup {
            Setup::TwoPlayers | Setup::ThreePlayers => {
                seats.into_iter().find(|&s| self.has_arrived(s)).map(|s| BTreeSet::from([s]))
            }
            Setup::FourPlayersOneArmy => {
                seats.into_iter().find(|&s| self.has_arrived(s)).map(|s| BTreeSet::from([s, opposite(s)]))
            }
            Setup::FourPlayersBothArmies => seats
                .into_iter()
                .find(|&s| self.has_arrived(s) && self.has_arrived(opposite(s)))
                .map(|s| BTreeSet::from([s, opposite(s)])),
        }
    }

    /// The seat that moved first: walk the turn order back `plies` turns.
    pub fn first_seat(&self) -> Seat {
        let seats = seats_in_play(self.setup);
        let mut index = seats.iter().position(|&s| s == self.to_move).unwrap_or(0);
        for _ in 0..self.plies {
            index = (index + seats.len() - 1) % seats.len();
        }
        seats[index]
    }

    /// Own turns `seat` has taken: replay the turn order from the first seat.
    pub fn own_turns(&self, seat: Seat) -> u32 {
        let seats = seats_in_play(self.setup);
        let mut index = seats.iter().position(|&s| s == self.first_seat()).unwrap_or(0);
        let mut turns = 0;
        for _ in 0..self.plies {
            if seats[index] == seat {
                turns += 1;
            }
            index = (index + 1) % seats.len();
        }
        turns
    }

    /// Whose army the seat to move moves (its partner's once its own arrived in 4p-both).
    pub fn army_moving(&self) -> Seat {
        if self.setup == Setup::FourPlayersBothArmies && self.has_arrived(self.to_move) {
            opposite(self.to_move)
        } else {
            self.to_move
        }
    }

    fn empty(&self, at: Square, mover: Square) -> bool {
        at == mover || self.at(at).is_none()
    }

    /// Where the piece on `from` can go by the movement rules alone: empty neighbours,
    /// and every square a jump chain reaches (breadth-first over landings; the start
    /// square counts as empty and is never a landing).
    pub fn destinations(&self, from: Square) -> BTreeSet<Square> {
        let mut found = BTreeSet::new();
        for (dc, dr) in DIRECTIONS {
            if let Some(next) = square(from.column() + dc, from.row() + dr) {
                if self.at(next).is_none() {
                    found.insert(next);
                }
            }
        }
        let mut seen = BTreeSet::from([from]);
        let mut queue = VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            for (dc, dr) in DIRECTIONS {
                let over = square(at.column() + dc, at.row() + dr);
                let land = square(at.column() + 2 * dc, at.row() + 2 * dr);
                if let (Some(over), Some(land)) = (over, land) {
                    if !self.empty(over, from) && self.empty(land, from) && seen.insert(land) {
                        found.insert(land);
                        queue.push_back(land);
                    }
                }
            }
        }
        found.remove(&from);
        found
    }

    /// True when the home-leaving duty binds, by RULES.md: from the 31st own turn, own
    /// pieces at home and one of them able to leave.
    pub fn duty_applies(&self) -> bool {
        let seat = self.to_move;
        let home = home_camp(self.setup, seat);
        self.own_turns(seat) >= 30
            && self.army_moving() == seat
            && home
                .iter()
                .any(|&at| self.at(at) == Some(seat) && self.destinations(at).iter().any(|to| !home.contains(to)))
    }

    /// Every legal (from, to) pair: none when the game is won.
    pub fn legal_moves(&self) -> BTreeSet<(Square, Square)> {
        if self.winners().is_some() {
            return BTreeSet::new();
        }
        let army = self.army_moving();
        let duty = self.duty_applies();
        let home = home_camp(self.setup, self.to_move);
        let mut moves = BTreeSet::new();
        for from in self.squares_of(army) {
            for to in self.destinations(from) {
                if !duty || (home.contains(&from) && !home.contains(&to)) {
                    moves.insert((from, to));
                }
            }
        }
        moves
    }

    /// Whether `route` is a legal way to play a legal move: a single step, or a chain of
    /// jumps that never lands twice nor on its start square.
    /// `legal` is `self.legal_moves()`, computed once by the caller.
    pub fn route_is_legal(&self, legal: &BTreeSet<(Square, Square)>, route: &[Square]) -> bool {
        let (Some(&from), Some(&to)) = (route.first(), route.last()) else { return false };
        if route.len() < 2 || !legal.contains(&(from, to)) {
            return false;
        }
        let is_neighbour = |a: Square, b: Square| (a.column() - b.column()).abs().max((a.row() - b.row()).abs()) == 1;
        if is_neighbour(from, route[1]) {
            return route.len() == 2 && self.at(to).is_none();
        }
        let mut landed = BTreeSet::new();
        for hop in route.windows(2) {
            let (at, next) = (hop[0], hop[1]);
            let (dc, dr) = (next.column() - at.column(), next.row() - at.row());
            let straight = (dc == 0 || dc.abs() == 2) && (dr == 0 || dr.abs() == 2) && (dc, dr) != (0, 0);
            if !straight {
                return false;
            }
            let Some(over) = square(at.column() + dc / 2, at.row() + dr / 2) else { return false };
            if self.empty(over, from) || !self.empty(next, from) || next == from || !landed.insert(next) {
                return false;
            }
        }
        true
    }

    /// The position after `mv` by the reference: the piece moves, the turn passes on.
    pub fn after(&self, mv: (Square, Square)) -> Board {
        let mut next = self.clone();
        next.cells[mv.1.index()] = next.cells[mv.0.index()].take();
        next.advance();
        next
    }

    pub fn advance(&mut self) {
        let seats = seats_in_play(self.setup);
        let index = seats.iter().position(|&s| s == self.to_move).unwrap_or(0);
        self.to_move = seats[(index + 1) % seats.len()];
        self.plies += 1;
    }

    /// HPN written the obvious way (RULES.md, "Text notation").
    pub fn hpn(&self) -> String {
        let mut rows = Vec::new();
        for row in (0..16).rev() {
            let mut text = String::new();
            let mut run = 0;
            for column in 0..16 {
                match square(column, row).and_then(|at| self.at(at)) {
                    Some(seat) => {
                        if run > 0 {
                            text += &run.to_string();
                        }
                        run = 0;
                        text.push(seat.letter());
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                text += &run.to_string();
            }
            rows.push(text);
        }
        format!("{} {} {} {}", rows.join("/"), self.to_move, self.setup, self.plies)
    }
}

/// Distance still to go for a piece of `army` on `at`: king steps to the farthest
/// corner square of its target camp, so that moving deeper into the camp still counts.
pub fn distance_to_go(setup: Setup, army: Seat, at: Square) -> i32 {
    let (column, row) = corner_coords(opposite(army));
    let _ = setup;
    (at.column() - column).abs() + (at.row() - row).abs()
}

/// How to drive one random game: the setup, the first seat, how often the mover picks
/// a most-forward move instead of any move, and one random number per ply.
#[derive(Clone, Debug)]
pub struct Recipe {
    pub setup: Setup,
    pub first: Seat,
    pub forward_percent: u32,
    pub choices: Vec<u32>,
}

pub fn any_setup() -> impl Strategy<Value = Setup> {
    prop::sample::select(Setup::ALL.to_vec())
}

/// Random games: every setup, any first seat, uniform or biased toward forward moves
/// (biased games reach the late phases: camps filling, the duty, wins).
pub fn recipe(max_plies: usize) -> impl Strategy<Value = Recipe> {
    (any_setup(), 0..4usize, prop_oneof![Just(0u32), Just(80u32), Just(95u32), Just(100u32)]).prop_flat_map(
        move |(setup, first, forward_percent)| {
            let seats = seats_in_play(setup);
            let first = seats[first % seats.len()];
            prop::collection::vec(any::<u32>(), 0..=max_plies).prop_map(move |choices| Recipe {
                setup,
                first,
                forward_percent,
                choices,
            })
        },
    )
}

/// The action a recipe's player takes: a pass when it must, otherwise a legal move,
/// among the most forward ones `forward_percent` of the time.
pub fn pick(game: &Game, choice: u32, forward_percent: u32) -> Option<Action> {
    if game.is_over() {
        return None;
    }
    if game.must_pass() {
        return Some(Action::Pass);
    }
    let position = game.position();
    let army = position.army_to_move();
    let mut moves: Vec<Move> = game.legal_moves().iter().collect();
    if choice % 100 < forward_percent {
        let gain =
            |mv: &Move| distance_to_go(position.setup(), army, mv.from) - distance_to_go(position.setup(), army, mv.to);
        let best = moves.iter().map(gain).max()?;
        moves.retain(|mv| gain(mv) == best);
    }
    let mv = moves[(choice / 100) as usize % moves.len()];
    position.route(mv).map(Action::Move)
}

/// A game position by position: calls `visit` before every action with the game so far.
pub fn play_recipe(recipe: &Recipe, mut visit: impl FnMut(&Game, &Action)) -> Game {
    let mut game = Game::new(recipe.setup, recipe.first);
    play_choices(&mut game, &recipe.choices, recipe.forward_percent, &mut visit);
    game
}

/// Plays one action per choice from `game` on until the game ends or the choices run out.
pub fn play_choices(game: &mut Game, choices: &[u32], forward_percent: u32, visit: &mut impl FnMut(&Game, &Action)) {
    for &choice in choices {
        let Some(action) = pick(game, choice, forward_percent) else { break };
        visit(game, &action);
        let played = game.play_action(&action);
        assert_eq!(played, Ok(()), "the engine refused its own action {action}");
    }
}

/// A position with fewer pieces: for each seat in play, up to its army size on random
/// squares, a random seat to move and ply count, written as HPN text.
pub fn sparse_hpn() -> impl Strategy<Value = String> {
    (any_setup(), 0..4usize, 0..400u32, prop::collection::vec((0..4usize, any::<u8>()), 0..60)).prop_map(
        |(setup, to_move, plies, placements)| {
            let seats = seats_in_play(setup);
            let mut cells = vec![None; 256];
            for (seat, at) in placements {
                let seat = seats[seat % seats.len()];
                let placed = cells.iter().filter(|&&c| c == Some(seat)).count();
                if placed < army_size(setup, seat) {
                    cells[at as usize] = Some(seat);
                }
            }
            Board { cells, setup, to_move: seats[to_move % seats.len()], plies }.hpn()
        },
    )
}

impl Board {
    /// Squares one more jump can land on after the partial chain `route` (start square,
    /// then the landings so far), by the reference rules.
    pub fn jump_extensions(&self, route: &[Square]) -> BTreeSet<Square> {
        let (Some(&from), Some(&at)) = (route.first(), route.last()) else { return BTreeSet::new() };
        let mut found = BTreeSet::new();
        for (dc, dr) in DIRECTIONS {
            let over = square(at.column() + dc, at.row() + dr);
            let land = square(at.column() + 2 * dc, at.row() + 2 * dr);
            if let (Some(over), Some(land)) = (over, land) {
                if !self.empty(over, from) && self.empty(land, from) && land != from && !route[1..].contains(&land) {
                    found.insert(land);
                }
            }
        }
        found
    }

    /// A route to try on the engine, legal or not: from a piece of the army to move (or
    /// now and then any square), a step in any direction, a random chain of legal jumps,
    /// or hops in random directions that may break any rule.
    pub fn random_route(&self, rng: &mut impl rand::Rng) -> Vec<Square> {
        let own: Vec<Square> = self.squares_of(self.army_moving()).into_iter().collect();
        let from = if own.is_empty() || rng.random_range(0..10) == 0 {
            Square::from_index(rng.random())
        } else {
            own[rng.random_range(0..own.len())]
        };
        let mut route = vec![from];
        match rng.random_range(0..4) {
            0 => {
                let (dc, dr) = DIRECTIONS[rng.random_range(0..8)];
                route.extend(square(from.column() + dc, from.row() + dr));
                if rng.random_range(0..4) == 0 {
                    let (dc, dr) = DIRECTIONS[rng.random_range(0..8)];
                    route.extend(square(from.column() + 2 * dc, from.row() + 2 * dr));
                }
            }
            1 | 2 => {
                let hops = rng.random_range(1..=6);
                for _ in 0..hops {
                    let next: Vec<Square> = self.jump_extensions(&route).into_iter().collect();
                    if next.is_empty() {
                        break;
                    }
                    route.push(next[rng.random_range(0..next.len())]);
                }
            }
            _ => {
                let hops = rng.random_range(1..=4);
                for _ in 0..hops {
                    let at = route[route.len() - 1];
                    let (dc, dr) = DIRECTIONS[rng.random_range(0..8)];
                    let reach = if rng.random_range(0..8) == 0 { 3 } else { 2 };
                    match square(at.column() + reach * dc, at.row() + reach * dr) {
                        Some(next) => route.push(next),
                        None => break,
                    }
                }
                if rng.random_range(0..8) == 0 {
                    route.push(from);
                }
            }
        }
        route
    }
}
