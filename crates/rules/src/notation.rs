//! Text notation (docs/RULES.md, "Text notation"): moves `c3-e5-g5` / `pass`, and HPN positions.

use super::bitboard::Bitboard;
use super::excerpt::excerpt;
use super::position::Position;
use super::seat::{ParseSeatError, Seat};
use super::setup::{ParseSetupError, Setup};
use super::square::{ParseSquareError, Square};
use std::fmt;

/// The longest route text accepted: a chain lands at most on 64 squares of one colour class.
const MAX_ROUTE_SQUARES: usize = 65;
/// The largest ply count an HPN may carry.
pub const MAX_PLIES: u32 = 1_000_000;

/// Why a piece of notation was not understood. Texts from the input are shortened
/// (see `excerpt`). Moves print as `bad move '…': …`, positions as `bad HPN: …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// A move text longer than any route can be.
    MoveTooLong { text: String },
    /// A part of a move between `-` that is not a square.
    MoveSquare { text: String, error: ParseSquareError },
    /// Neither `pass` nor at least two squares.
    MoveTooShort { text: String },
    /// More squares than a jump chain can land on.
    MoveTooManySquares { text: String },
    /// An HPN string without exactly four fields; carries how many it had.
    HpnFields(usize),
    /// The HPN's setup field.
    HpnSetup(ParseSetupError),
    /// The HPN's seat-to-move field.
    HpnSeat(ParseSeatError),
    /// A seat (to move, or with pieces) that does not play in the setup.
    HpnSeatNotInPlay { seat: Seat, setup: Setup },
    /// The ply count is not a number of at most 7 digits.
    HpnPlies(String),
    /// The ply count is over `MAX_PLIES`.
    HpnTooManyPlies(u32),
    /// Not 16 rows; carries how many there were.
    HpnRowCount(usize),
    /// A row (numbered 1..16) with a run of empty squares that is 0, has a leading
    /// zero or more than two digits.
    HpnRun { row: i32 },
    /// A character that is neither a seat letter nor a digit, in a row (1..16).
    HpnCharacter { character: char, row: i32 },
    /// A row (1..16) longer than 16 squares.
    HpnRowTooLong { row: i32 },
    /// A row (1..16) of fewer than 16 squares; carries how many.
    HpnRowTooShort { row: i32, squares: i32 },
    /// More pieces of a seat than its army has.
    HpnArmy { seat: Seat, count: u32, army: u32 },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NotationError::*;
        match self {
            MoveTooLong { text } => write!(f, "bad move '{text}': too long"),
            MoveSquare { text, error } => write!(f, "bad move '{text}': {error}"),
            MoveTooShort { text } => {
                write!(f, "bad move '{text}': a move is 'pass' or at least two squares joined by '-'")
            }
            MoveTooManySquares { text } => write!(f, "bad move '{text}': too many squares"),
            HpnFields(count) => write!(f, "bad HPN: expected '<rows> <to-move> <setup> <plies>', got {count} fields"),
            HpnSetup(error) => write!(f, "bad HPN: {error}"),
            HpnSeat(error) => write!(f, "bad HPN: {error}"),
            HpnSeatNotInPlay { seat, setup } => write!(f, "bad HPN: seat {seat} does not play in {setup}"),
            HpnPlies(text) => write!(f, "bad HPN: bad ply count '{text}'"),
            HpnTooManyPlies(plies) => write!(f, "bad HPN: ply count {plies} is over {MAX_PLIES}"),
            HpnRowCount(count) => write!(f, "bad HPN: {count} rows instead of 16"),
            HpnRun { row } => write!(f, "bad HPN: row {row} has a malformed run of empty squares"),
            HpnCharacter { character, row } => write!(f, "bad HPN: unexpected '{character}' in row {row}"),
            HpnRowTooLong { row } => write!(f, "bad HPN: row {row} is longer than 16 squares"),
            HpnRowTooShort { row, squares } => write!(f, "bad HPN: row {row} has {squares} squares instead of 16"),
            HpnArmy { seat, count, army } => {
                write!(f, "bad HPN: seat {seat} has {count} pieces, more than its army of {army}")
            }
        }
    }
}

impl std::error::Error for NotationError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NotationError::MoveSquare { error, .. } => Some(error),
            NotationError::HpnSetup(error) => Some(error),
            NotationError::HpnSeat(error) => Some(error),
            _ => None,
        }
    }
}

/// A move as written: a pass or a route of squares (not yet checked against a position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveText {
    Pass,
    Route(Vec<Square>),
}

/// Parses `pass` or squares joined by `-` (at least two). The route is not checked
/// against any position: `Position::check_route` or `Game::play_text` do that.
///
/// ```rust
/// use halma_rules::{parse_move, MoveText, NotationError, Square};
///
/// assert_eq!(parse_move("pass")?, MoveText::Pass);
/// let MoveText::Route(squares) = parse_move("c3-e5-g5")? else { panic!("a route") };
/// assert_eq!(squares, ["c3".parse::<Square>()?, "e5".parse()?, "g5".parse()?]);
///
/// let error = parse_move("c3-z9").unwrap_err();
/// assert!(matches!(error, NotationError::MoveSquare { .. }));
/// assert_eq!(error.to_string(), "bad move 'c3-z9': bad square 'z9' (expected a1..p16)");
/// assert!(matches!(parse_move("c3"), Err(NotationError::MoveTooShort { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_move(text: &str) -> Result<MoveText, NotationError> {
    if text == "pass" {
        return Ok(MoveText::Pass);
    }
    if text.len() > MAX_ROUTE_SQUARES * 4 {
        return Err(NotationError::MoveTooLong { text: excerpt(text) });
    }
    let mut squares = Vec::new();
    for part in text.split('-') {
        let square =
            part.parse::<Square>().map_err(|error| NotationError::MoveSquare { text: excerpt(text), error })?;
        squares.push(square);
    }
    if squares.len() < 2 {
        return Err(NotationError::MoveTooShort { text: excerpt(text) });
    }
    if squares.len() > MAX_ROUTE_SQUARES {
        return Err(NotationError::MoveTooManySquares { text: excerpt(text) });
    }
    Ok(MoveText::Route(squares))
}

/// Writes a position as HPN: `<rows> <to-move> <setup> <plies>`. The rows go from
/// row 16 down to row 1, each from column `a` to `p`: a seat letter for a piece,
/// a number for a run of empty squares.
///
/// ```rust
/// use halma_rules::{parse_hpn, write_hpn, NotationError, Position, Seat, Setup};
///
/// let mut position = Position::start(Setup::TwoPlayers, Seat::A);
/// position.play_unchecked(halma_rules::Move { from: "e1".parse()?, to: "f1".parse()? });
/// let hpn = write_hpn(&position);
/// assert_eq!(hpn, "11CCCCC/11CCCCC/12CCCC/13CCC/14CC/16/16/16/16/16/16/AA14/AAA13/AAAA12/AAAAA11/AAAA1A10 C 2p 1");
/// assert_eq!(parse_hpn(&hpn)?, position);
///
/// let error = parse_hpn("16/16 A 2p 0").unwrap_err();
/// assert_eq!(error, NotationError::HpnRowCount(2));
/// assert_eq!(error.to_string(), "bad HPN: 2 rows instead of 16");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_hpn(position: &Position) -> String {
    let mut rows = Vec::with_capacity(16);
    for row in (0..16).rev() {
        let mut text = String::new();
        let mut empty_run = 0;
        for column in 0..16 {
            let square = Square::from_coords(column, row).unwrap_or(Square::from_index(0));
            match position.piece_at(square) {
                Some(seat) => {
                    if empty_run > 0 {
                        text.push_str(&empty_run.to_string());
                        empty_run = 0;
                    }
                    text.push(seat.letter());
                }
                None => empty_run += 1,
            }
        }
        if empty_run > 0 {
            text.push_str(&empty_run.to_string());
        }
        rows.push(text);
    }
    format!("{} {} {} {}", rows.join("/"), position.to_move(), position.setup(), position.plies())
}

/// Parses the four HPN fields (already split on spaces).
pub fn parse_hpn_fields(rows: &str, to_move: &str, setup: &str, plies: &str) -> Result<Position, NotationError> {
    let setup: Setup = setup.parse().map_err(NotationError::HpnSetup)?;
    let to_move: Seat = to_move.parse().map_err(NotationError::HpnSeat)?;
    if !setup.has_seat(to_move) {
        return Err(NotationError::HpnSeatNotInPlay { seat: to_move, setup });
    }
    let bad_plies = || NotationError::HpnPlies(excerpt(plies));
    if plies.is_empty() || plies.len() > 7 || !plies.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad_plies());
    }
    let plies: u32 = plies.parse().map_err(|_| bad_plies())?;
    if plies > MAX_PLIES {
        return Err(NotationError::HpnTooManyPlies(plies));
    }
    let row_texts: Vec<&str> = rows.split('/').collect();
    if row_texts.len() != 16 {
        return Err(NotationError::HpnRowCount(row_texts.len()));
    }
    let mut pieces = [Bitboard::EMPTY; 4];
    for (i, text) in row_texts.iter().enumerate() {
        let row = 15 - i as i32;
        let mut column = 0i32;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(digit) = c.to_digit(10) {
                let mut run = digit;
                if let Some(next) = chars.peek().and_then(|n| n.to_digit(10)) {
                    run = run * 10 + next;
                    chars.next();
                }
                if run == 0 || c == '0' || chars.peek().is_some_and(|n| n.is_ascii_digit()) {
                    return Err(NotationError::HpnRun { row: row + 1 });
                }
                column += run as i32;
            } else if let Some(seat) = Seat::from_letter(c) {
                if !setup.has_seat(seat) {
                    return Err(NotationError::HpnSeatNotInPlay { seat, setup });
                }
                if column < 16 {
                    if let Some(square) = Square::from_coords(column, row) {
                        pieces[seat.index()].insert(square);
                    }
                }
                column += 1;
            } else {
                return Err(NotationError::HpnCharacter { character: c, row: row + 1 });
            }
            if column > 16 {
                return Err(NotationError::HpnRowTooLong { row: row + 1 });
            }
        }
        if column != 16 {
            return Err(NotationError::HpnRowTooShort { row: row + 1, squares: column });
        }
    }
    for &seat in setup.seats() {
        let count = pieces[seat.index()].count();
        if count > setup.army_size(seat) {
            return Err(NotationError::HpnArmy { seat, count, army: setup.army_size(seat) });
        }
    }
    Ok(Position::from_parts(setup, pieces, to_move, plies))
}

/// Parses a whole HPN string (see [`write_hpn`]): the fields may be separated by any
/// whitespace.
pub fn parse_hpn(text: &str) -> Result<Position, NotationError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    match fields.as_slice() {
        [rows, to_move, setup, plies] => parse_hpn_fields(rows, to_move, setup, plies),
        _ => Err(NotationError::HpnFields(fields.len())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_print_as_expected() {
        let start = Position::start(Setup::TwoPlayers, Seat::A);
        assert_eq!(
            write_hpn(&start),
            "11CCCCC/11CCCCC/12CCCC/13CCC/14CC/16/16/16/16/16/16/AA14/AAA13/AAAA12/AAAAA11/AAAAA11 A 2p 0"
        );
        for setup in Setup::ALL {
            for &seat in setup.seats() {
                let position = Position::start(setup, seat);
                assert_eq!(parse_hpn(&write_hpn(&position)), Ok(position));
            }
        }
    }

    #[test]
    fn malformed_hpn_is_refused() {
        let good = "11CCCCC/11CCCCC/12CCCC/13CCC/14CC/16/16/16/16/16/16/AA14/AAA13/AAAA12/AAAAA11/AAAAA11";
        for bad in [
            format!("{good} A 2p"),
            format!("{good} B 2p 0"),
            format!("{good} A 5p 0"),
            format!("{good} A 2p -1"),
            format!("{good} A 2p 99999999"),
            format!("{good}/16 A 2p 0"),
            format!("{} A 2p 0", good.replacen("14CC", "15CC", 1)),
            format!("{} A 2p 0", good.replacen("14CC", "13CC", 1)),
            format!("{} A 2p 0", good.replacen("14CC", "14cc", 1)),
            format!("{} A 2p 0", good.replacen("14CC", "14BB", 1)),
            format!("{} A 2p 0", good.replacen("16/16/16", "16/8A7/16", 1)),
            format!("{} A 2p 0", good.replacen("/16/", "/0016/", 1)),
            String::new(),
        ] {
            assert!(parse_hpn(&bad).is_err(), "accepted {bad}");
        }
    }

    #[test]
    fn moves_parse_and_refuse() {
        assert_eq!(parse_move("pass"), Ok(MoveText::Pass));
        let route = parse_move("c3-e5-g5").map(|m| match m {
            MoveText::Route(squares) => squares.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" "),
            MoveText::Pass => String::new(),
        });
        assert_eq!(route, Ok("c3 e5 g5".to_string()));
        for bad in ["", "c3", "c3-", "-c3", "c3--d4", "c3-z9", "PASS", "c3 d4", &"a1-".repeat(100)] {
            assert!(parse_move(bad).is_err(), "accepted {bad}");
        }
    }
}
