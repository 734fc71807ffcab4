//! A deliberately simple, independent Halma rules model written straight from
//! docs/RULES.md, used to check the engine (by the rules, protocol and property tests: it is
//! the only reference model). It shares no code with `src/rules`: its own
//! squares (column, row pairs), camps, HPN reader/writer, seats and turn order, and a
//! move generator made of plain loops, sets and a recursive search over jump chains.
//! It is slow on purpose; clarity is what makes it a reference.

use std::collections::{BTreeSet, HashSet};

/// A square as (column, row), both 0..16: `a1` = (0, 0), `p16` = (15, 15).
pub type Sq = (i32, i32);

/// A move as (from, to).
pub type Mv = (Sq, Sq);

/// The eight directions a piece steps or jumps in.
pub const DIRECTIONS: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

pub fn on_board(sq: Sq) -> bool {
    (0..16).contains(&sq.0) && (0..16).contains(&sq.1)
}

/// `a1`..`p16` for a square.
pub fn name(sq: Sq) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

/// Reads `a1`..`p16` (test data only: panics on anything else).
pub fn sq(text: &str) -> Sq {
    let column = i32::from(text.as_bytes()[0]) - i32::from(b'a');
    let row: i32 = text[1..].parse().expect("test square");
    assert!(on_board((column, row - 1)), "test square {text} is off the board");
    (column, row - 1)
}

/// A route as text: squares joined by `-`.
pub fn route_text(route: &[Sq]) -> String {
    route.iter().map(|&s| name(s)).collect::<Vec<_>>().join("-")
}

/// A move as `from-to` text (not a route: used to name moves in sets).
pub fn move_text(mv: Mv) -> String {
    format!("{}-{}", name(mv.0), name(mv.1))
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RefSetup {
    TwoPlayers,
    ThreePlayers,
    FourOne,
    FourBoth,
}

impl RefSetup {
    pub const ALL: [RefSetup; 4] =
        [RefSetup::TwoPlayers, RefSetup::ThreePlayers, RefSetup::FourOne, RefSetup::FourBoth];

    pub fn name(self) -> &'static str {
        match self {
            RefSetup::TwoPlayers => "2p",
            RefSetup::ThreePlayers => "3p",
            RefSetup::FourOne => "4p-one",
            RefSetup::FourBoth => "4p-both",
        }
    }

    pub fn parse(text: &str) -> RefSetup {
        *RefSetup::ALL.iter().find(|s| s.name() == text).expect("test setup name")
    }

    /// Seats in play, in turn order A → B → C → D.
    pub fn seats(self) -> Vec<char> {
        match self {
            RefSetup::TwoPlayers => vec!['A', 'C'],
            RefSetup::ThreePlayers => vec!['A', 'B', 'C'],
            RefSetup::FourOne | RefSetup::FourBoth => vec!['A', 'B', 'C', 'D'],
        }
    }

    /// The table of docs/RULES.md ("Camps and setups"): 2p 19/19, 3p 19/13/19, 4p 13 each.
    pub fn army_size(self, seat: char) -> usize {
        match (self, seat) {
            (RefSetup::TwoPlayers, 'A' | 'C') => 19,
            (RefSetup::ThreePlayers, 'A' | 'C') => 19,
            (RefSetup::ThreePlayers, 'B') => 13,
            (RefSetup::FourOne | RefSetup::FourBoth, _) => 13,
            _ => 0,
        }
    }
}

/// The seat in the diagonally opposite corner.
pub fn opposite(seat: char) -> char {
    match seat {
        'A' => 'C',
        'B' => 'D',
        'C' => 'A',
        _ => 'B',
    }
}

/// A = a1, B = a16, C = p16, D = p1.
pub fn corner(seat: char) -> Sq {
    match seat {
        'A' => (0, 0),
        'B' => (0, 15),
        'C' => (15, 15),
        _ => (15, 0),
    }
}

/// The staircase camp in `seat`'s corner: x, y distances from the corner along the
/// two edges, 19-camp x ≤ 4, y ≤ 4, x + y ≤ 5; 13-camp x ≤ 3, y ≤ 3, x + y ≤ 4.
pub fn camp(seat: char, size: usize) -> HashSet<Sq> {
    let (max_side, max_sum) = match size {
        19 => (4, 5),
        13 => (3, 4),
        _ => return HashSet::new(),
    };
    let (cx, cy) = corner(seat);
    let mut squares = HashSet::new();
    for column in 0..16 {
        for row in 0..16 {
            let (x, y) = ((column - cx).abs(), (row - cy).abs());
            if x <= max_side && y <= max_side && x + y <= max_sum {
                squares.insert((column, row));
            }
        }
    }
    squares
}

/// Placement and seat to move: what repetition compares.
pub type Key = ([[Option<char>; 16]; 16], char);

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPosition {
    /// `board[row][column]`: the seat whose piece stands there.
    pub board: [[Option<char>; 16]; 16],
    pub to_move: char,
    pub setup: RefSetup,
    pub plies: u32,
}

impl RefPosition {
    /// Every army on its home camp.
    pub fn start(setup: RefSetup, first: char) -> RefPosition {
        let mut position = RefPosition { board: [[None; 16]; 16], to_move: first, setup, plies: 0 };
        for seat in setup.seats() {
            for square in position.home(seat) {
                position.put(square, Some(seat));
            }
        }
        position
    }

    /// A position from lists of squares per seat, e.g. `[('A', "c3 d4"), ('C', "p16")]`.
    pub fn from_pieces(setup: RefSetup, to_move: char, plies: u32, pieces: &[(char, &str)]) -> RefPosition {
        let mut position = RefPosition { board: [[None; 16]; 16], to_move, setup, plies };
        for &(seat, squares) in pieces {
            for text in squares.split_whitespace() {
                let square = sq(text);
                assert!(position.at(square).is_none(), "test position puts two pieces on {text}");
                position.put(square, Some(seat));
            }
        }
        position
    }

    /// Reads HPN (well-formed test data or engine output only).
    pub fn from_hpn(text: &str) -> RefPosition {
        let fields: Vec<&str> = text.split(' ').collect();
        assert_eq!(fields.len(), 4, "HPN has four fields: {text}");
        let mut board = [[None; 16]; 16];
        let rows: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(rows.len(), 16);
        for (i, row_text) in rows.iter().enumerate() {
            let row = 15 - i;
            let mut column = 0usize;
            let mut number = String::new();
            for c in row_text.chars().chain(std::iter::once('.')) {
                if c.is_ascii_digit() {
                    number.push(c);
                    continue;
                }
                if !number.is_empty() {
                    column += number.parse::<usize>().expect("run length");
                    number.clear();
                }
                if c != '.' {
                    board[row][column] = Some(c);
                    column += 1;
                }
            }
            assert_eq!(column, 16, "row {} of {text}", row + 1);
        }
        RefPosition {
            board,
            to_move: fields[1].chars().next().expect("seat"),
            setup: RefSetup::parse(fields[2]),
            plies: fields[3].parse().expect("plies"),
        }
    }

    pub fn to_hpn(&self) -> String {
        let mut rows = Vec::new();
        for row in (0..16).rev() {
            let mut text = String::new();
            let mut run = 0;
            for column in 0..16 {
                match self.board[row][column] {
                    Some(seat) => {
                        if run > 0 {
                            text += &run.to_string();
                            run = 0;
                        }
                        text.push(seat);
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                text += &run.to_string();
            }
            rows.push(text);
        }
        format!("{} {} {} {}", rows.join("/"), self.to_move, self.setup.name(), self.plies)
    }

    pub fn at(&self, square: Sq) -> Option<char> {
        self.board[square.1 as usize][square.0 as usize]
    }

    fn put(&mut self, square: Sq, seat: Option<char>) {
        self.board[square.1 as usize][square.0 as usize] = seat;
    }

    pub fn key(&self) -> Key {
        (self.board, self.to_move)
    }

    pub fn pieces(&self, seat: char) -> Vec<Sq> {
        let mut squares = Vec::new();
        for row in 0..16 {
            for column in 0..16 {
                if self.at((column, row)) == Some(seat) {
                    squares.push((column, row));
                }
            }
        }
        squares
    }

    pub fn home(&self, seat: char) -> HashSet<Sq> {
        camp(seat, self.setup.army_size(seat))
    }

    pub fn target(&self, seat: char) -> HashSet<Sq> {
        camp(opposite(seat), self.setup.army_size(seat))
    }

    /// The seat's own pieces occupy every square of its target camp.
    pub fn arrived(&self, seat: char) -> bool {
        let target = self.target(seat);
        !target.is_empty() && target.iter().all(|&s| self.at(s) == Some(seat))
    }

    /// `A`, or a team `A,C` / `B,D`, when the game is won.
    pub fn winners(&self) -> Option<String> {
        let seats = self.setup.seats();
        match self.setup {
            RefSetup::TwoPlayers | RefSetup::ThreePlayers => {
                seats.into_iter().find(|&s| self.arrived(s)).map(|s| s.to_string())
            }
            RefSetup::FourOne => seats.into_iter().find(|&s| self.arrived(s)).map(team),
            RefSetup::FourBoth => seats.into_iter().find(|&s| self.arrived(s) && self.arrived(opposite(s))).map(team),
        }
    }

    /// The seat that played ply `p` (0-based), found by walking back from the seat to move.
    pub fn seat_of_ply(&self, ply: u32) -> char {
        let seats = self.setup.seats();
        let n = seats.len() as i64;
        let now = seats.iter().position(|&s| s == self.to_move).expect("seat to move plays") as i64;
        let back = i64::from(self.plies) - i64::from(ply);
        seats[(now - back).rem_euclid(n) as usize]
    }

    /// The seat that moved first (ply 0).
    pub fn first_seat(&self) -> char {
        self.seat_of_ply(0)
    }

    /// Own turns taken by `seat` so far: counted ply by ply.
    pub fn turns_taken(&self, seat: char) -> u32 {
        (0..self.plies).filter(|&p| self.seat_of_ply(p) == seat).count() as u32
    }

    /// Whose pieces the seat to move moves: its own, or in `4p-both` once its own army
    /// has arrived, its partner's.
    pub fn army_to_move(&self) -> char {
        if self.setup == RefSetup::FourBoth && self.arrived(self.to_move) {
            opposite(self.to_move)
        } else {
            self.to_move
        }
    }

    /// Empty for the moving piece: the board without the piece on `start`.
    fn empty_for(&self, start: Sq, square: Sq) -> bool {
        on_board(square) && (square == start || self.at(square).is_none())
    }

    fn occupied_for(&self, start: Sq, square: Sq) -> bool {
        on_board(square) && square != start && self.at(square).is_some()
    }

    /// Where one more jump can land from `at`, for a chain from `start` that has
    /// already landed on `landed`.
    pub fn next_jumps(&self, start: Sq, at: Sq, landed: &[Sq]) -> Vec<Sq> {
        let mut result = Vec::new();
        for (dc, dr) in DIRECTIONS {
            let over = (at.0 + dc, at.1 + dr);
            let land = (at.0 + 2 * dc, at.1 + 2 * dr);
            if self.occupied_for(start, over) && self.empty_for(start, land) && land != start && !landed.contains(&land)
            {
                result.push(land);
            }
        }
        result
    }

    /// Every square a jump chain from `start` can stop on. Depth-first over chains; a
    /// square already explored is not explored again (any route to it will do).
    pub fn jump_destinations(&self, start: Sq) -> BTreeSet<Sq> {
        let mut found = BTreeSet::new();
        self.explore(start, start, &mut found);
        found
    }

    fn explore(&self, start: Sq, at: Sq, found: &mut BTreeSet<Sq>) {
        for land in self.next_jumps(start, at, &[]) {
            if found.insert(land) {
                self.explore(start, land, found);
            }
        }
    }

    pub fn step_destinations(&self, start: Sq) -> BTreeSet<Sq> {
        DIRECTIONS
            .iter()
            .map(|&(dc, dr)| (start.0 + dc, start.1 + dr))
            .filter(|&s| on_board(s) && self.at(s).is_none())
            .collect()
    }

    /// Moves by the movement rules alone (no duty, no result).
    pub fn movement_moves(&self) -> BTreeSet<Mv> {
        let mut moves = BTreeSet::new();
        for from in self.pieces(self.army_to_move()) {
            for to in self.step_destinations(from).into_iter().chain(self.jump_destinations(from)) {
                moves.insert((from, to));
            }
        }
        moves
    }

    /// The home-leaving duty: from the 31st own turn, with own pieces at home and a
    /// legal move carrying one of them out, only such moves.
    pub fn duty_moves(&self, moves: &BTreeSet<Mv>) -> Option<BTreeSet<Mv>> {
        let seat = self.to_move;
        if self.turns_taken(seat) < 30 {
            return None;
        }
        let home = self.home(seat);
        if !self.pieces(seat).iter().any(|s| home.contains(s)) {
            return None;
        }
        let carrying: BTreeSet<Mv> = moves
            .iter()
            .copied()
            .filter(|&(from, to)| self.at(from) == Some(seat) && home.contains(&from) && !home.contains(&to))
            .collect();
        (!carrying.is_empty()).then_some(carrying)
    }

    /// The legal moves (none once won; none when the seat must pass).
    pub fn legal_moves(&self) -> BTreeSet<Mv> {
        if self.winners().is_some() {
            return BTreeSet::new();
        }
        let moves = self.movement_moves();
        self.duty_moves(&moves).unwrap_or(moves)
    }

    pub fn duty_applies(&self) -> bool {
        self.winners().is_none() && self.duty_moves(&self.movement_moves()).is_some()
    }

    fn next_seat(&self) -> char {
        let seats = self.setup.seats();
        let index = seats.iter().position(|&s| s == self.to_move).expect("seat to move plays");
        seats[(index + 1) % seats.len()]
    }

    pub fn play(&self, mv: Mv) -> RefPosition {
        let mut next = self.clone();
        let piece = next.at(mv.0);
        assert!(piece.is_some(), "no piece on {}", name(mv.0));
        next.put(mv.0, None);
        next.put(mv.1, piece);
        next.to_move = self.next_seat();
        next.plies += 1;
        next
    }

    pub fn pass(&self) -> RefPosition {
        let mut next = self.clone();
        next.to_move = self.next_seat();
        next.plies += 1;
        next
    }

    /// Whether `route` is a legal route by the rules (movement and duty).
    pub fn is_legal_route(&self, route: &[Sq]) -> bool {
        self.is_legal_route_among(&self.legal_moves(), route)
    }

    /// `is_legal_route` with the legal moves already computed (`self.legal_moves()`).
    pub fn is_legal_route_among(&self, legal: &BTreeSet<Mv>, route: &[Sq]) -> bool {
        self.is_movement_route(route) && legal.contains(&(route[0], route[route.len() - 1]))
    }

    /// Whether `route` follows the movement rules (a step, or a chain of jumps), for a
    /// piece of the army to move. The duty and the result are not looked at.
    pub fn is_movement_route(&self, route: &[Sq]) -> bool {
        if route.len() < 2 || self.at(route[0]) != Some(self.army_to_move()) {
            return false;
        }
        let start = route[0];
        let first = route[1];
        let is_step = (first.0 - start.0).abs() <= 1 && (first.1 - start.1).abs() <= 1;
        if is_step {
            return route.len() == 2 && first != start && self.at(first).is_none();
        }
        self.is_jump_chain(route)
    }

    /// Whether `route` (a start square, then landings) is a jump chain so far for a piece
    /// of the army to move: every landing one jump on from the square before it.
    fn is_jump_chain(&self, route: &[Sq]) -> bool {
        let Some((&start, landings)) = route.split_first() else { return false };
        if self.at(start) != Some(self.army_to_move()) {
            return false;
        }
        let mut at = start;
        for (count, &next) in landings.iter().enumerate() {
            if !self.next_jumps(start, at, &landings[..count]).contains(&next) {
                return false;
            }
            at = next;
        }
        true
    }

    /// Where one more jump can land after the partial chain `route` (a start square,
    /// then the landings so far); `None` when `route` is no such chain.
    pub fn chain_extensions(&self, route: &[Sq]) -> Option<BTreeSet<Sq>> {
        let (&start, landings) = route.split_first()?;
        let at = landings.last().copied().unwrap_or(start);
        self.is_jump_chain(route).then(|| self.next_jumps(start, at, landings).into_iter().collect())
    }

    /// The fewest jumps a chain from `from` needs to reach `to` (breadth-first).
    pub fn fewest_jumps(&self, from: Sq, to: Sq) -> Option<usize> {
        let mut seen = HashSet::from([from]);
        let mut layer = vec![from];
        let mut jumps = 0;
        while !layer.is_empty() {
            jumps += 1;
            let mut next_layer = Vec::new();
            for at in layer {
                for land in self.next_jumps(from, at, &[]) {
                    if land == to {
                        return Some(jumps);
                    }
                    if seen.insert(land) {
                        next_layer.push(land);
                    }
                }
            }
            layer = next_layer;
        }
        None
    }

    /// How many times this position (placement and seat to move) occurs in `history`,
    /// the keys of every position of the game so far (this one included).
    pub fn occurrences(&self, history: &[Key]) -> usize {
        let key = self.key();
        history.iter().filter(|&k| *k == key).count()
    }

    /// Drawn by repetition: this position occurs for the third time.
    pub fn is_repeated(&self, history: &[Key]) -> bool {
        self.occurrences(history) >= 3
    }

    /// `status …` as the protocol prints it, given the keys of every earlier position
    /// of the game (this one included).
    pub fn status(&self, history: &[Key]) -> String {
        if let Some(winners) = self.winners() {
            return format!("status win {winners}");
        }
        if self.is_repeated(history) {
            return "status draw repetition".to_string();
        }
        format!("status ongoing {}", self.to_move)
    }

    /// Move sequences of `depth` moves, a pass counting as one move; a won or
    /// repeated-three-times position has none. `history` holds the keys of the
    /// positions so far, this one last.
    pub fn perft(&self, history: &mut Vec<Key>, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.winners().is_some() || self.is_repeated(history) {
            return 0;
        }
        let moves = self.legal_moves();
        if moves.is_empty() {
            let next = self.pass();
            history.push(next.key());
            let count = next.perft(history, depth - 1);
            history.pop();
            return count;
        }
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for mv in moves {
            let next = self.play(mv);
            history.push(next.key());
            total += next.perft(history, depth - 1);
            history.pop();
        }
        total
    }
}

fn team(seat: char) -> String {
    let mut letters = [seat, opposite(seat)];
    letters.sort_unstable();
    format!("{},{}", letters[0], letters[1])
}
