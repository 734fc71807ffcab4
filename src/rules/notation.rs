//! Text notation (RULES.md, "Text notation"): moves `c3-e5-g5` / `pass`, and HPN positions.

use super::bitboard::Bitboard;
use super::position::Position;
use super::setup::Setup;
use super::square::{Seat, Square};
use std::fmt;

/// The longest route text accepted: a chain lands at most on 64 squares of one colour class.
const MAX_ROUTE_SQUARES: usize = 65;
/// The largest ply count an HPN may carry.
pub const MAX_PLIES: u32 = 1_000_000;

/// Why a piece of notation was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

/// A move as written: a pass or a route of squares (not yet checked against a position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveText {
    Pass,
    Route(Vec<Square>),
}

/// Shortens untrusted text for an error message.
pub(crate) fn excerpt(text: &str) -> String {
    let mut short: String = text.chars().take(24).collect();
    if text.chars().count() > 24 {
        short.push('…');
    }
    short
}

/// Parses `pass` or squares joined by `-` (at least two).
pub fn parse_move(text: &str) -> Result<MoveText, NotationError> {
    if text == "pass" {
        return Ok(MoveText::Pass);
    }
    let bad = |why: &str| NotationError(format!("bad move '{}': {why}", excerpt(text)));
    if text.len() > MAX_ROUTE_SQUARES * 4 {
        return Err(bad("too long"));
    }
    let mut squares = Vec::new();
    for part in text.split('-') {
        let square = part.parse::<Square>().map_err(|e| bad(&e.to_string()))?;
        squares.push(square);
    }
    if squares.len() < 2 {
        return Err(bad("a move is 'pass' or at least two squares joined by '-'"));
    }
    if squares.len() > MAX_ROUTE_SQUARES {
        return Err(bad("too many squares"));
    }
    Ok(MoveText::Route(squares))
}

/// Writes a position as HPN: `<rows> <to-move> <setup> <plies>`.
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
    let bad = |why: String| NotationError(format!("bad HPN: {why}"));
    let setup: Setup = setup.parse().map_err(bad)?;
    let to_move: Seat = to_move.parse().map_err(bad)?;
    if !setup.has_seat(to_move) {
        return Err(bad(format!("seat {to_move} does not play in {setup}")));
    }
    if plies.is_empty() || plies.len() > 7 || !plies.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(format!("bad ply count '{}'", excerpt(plies))));
    }
    let plies: u32 = plies.parse().map_err(|_| bad(format!("bad ply count '{}'", excerpt(plies))))?;
    if plies > MAX_PLIES {
        return Err(bad(format!("ply count {plies} is over {MAX_PLIES}")));
    }
    let row_texts: Vec<&str> = rows.split('/').collect();
    if row_texts.len() != 16 {
        return Err(bad(format!("{} rows instead of 16", row_texts.len())));
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
                    return Err(bad(format!("row {} has a malformed run of empty squares", row + 1)));
                }
                column += run as i32;
            } else if let Some(seat) = Seat::from_letter(c) {
                if !setup.has_seat(seat) {
                    return Err(bad(format!("seat {seat} does not play in {setup}")));
                }
                if column < 16 {
                    if let Some(square) = Square::from_coords(column, row) {
                        pieces[seat.index()].insert(square);
                    }
                }
                column += 1;
            } else {
                return Err(bad(format!("unexpected '{c}' in row {}", row + 1)));
            }
            if column > 16 {
                return Err(bad(format!("row {} is longer than 16 squares", row + 1)));
            }
        }
        if column != 16 {
            return Err(bad(format!("row {} has {column} squares instead of 16", row + 1)));
        }
    }
    for &seat in setup.seats() {
        let count = pieces[seat.index()].count();
        if count > setup.army_size(seat) {
            return Err(bad(format!(
                "seat {seat} has {count} pieces, more than its army of {}",
                setup.army_size(seat)
            )));
        }
    }
    Ok(Position::from_parts(setup, pieces, to_move, plies))
}

/// Parses a whole HPN string.
pub fn parse_hpn(text: &str) -> Result<Position, NotationError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    match fields.as_slice() {
        [rows, to_move, setup, plies] => parse_hpn_fields(rows, to_move, setup, plies),
        _ => Err(NotationError(format!(
            "bad HPN: expected '<rows> <to-move> <setup> <plies>', got {} fields",
            fields.len()
        ))),
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
