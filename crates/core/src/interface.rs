//! The words the core and the window share: pages, questions, review steps, the kinds
//! of player, the settings' choices and a refused record's trouble. The window's own
//! copies of these enums (`ui/types.slint`) are converted one to one at the seam
//! (`halma_core::ui::convert`), and the compiler checks both directions, so no Slint
//! type reaches the core.

/// The pages of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Page {
    #[default]
    NewGame,
    Game,
    Rules,
    About,
    /// The puzzles (#41).
    Train,
    /// The game on this device and every game by message (#40).
    Games,
}

/// A question the game page asks before an action that ends or replaces the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Question {
    #[default]
    None,
    /// New game while this one is unfinished: it would be replaced.
    NewGame,
    /// Restart while this game is unfinished: its moves would be lost.
    Restart,
    /// Offer a draw: if every other seat accepts, the game ends.
    OfferDraw,
    /// Import, Start or Join while the game on this device is unfinished: another game
    /// would take its place.
    Replace,
}

/// Who plays a seat: a person, the computer at a level, or an engine program (desktop).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    #[default]
    Human,
    Beginner,
    Casual,
    Strong,
    Master,
    Program,
    /// A friend on another device, by message (#40).
    Friend,
    /// A player on another device nearby, over the local network (#40).
    Nearby,
}

/// A step through the game in review.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ReviewStep {
    #[default]
    First,
    Back,
    Forward,
    Last,
    /// Back to the live game.
    Leave,
}

/// How the board is turned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoardTurning {
    #[default]
    Fixed,
    /// It turns so that the seat to move sits at the bottom (pass-and-play on a tablet).
    FaceSeatToMove,
}

/// The app's colours: light, dark, or as the system's scheme (light when it says none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ThemeChoice {
    #[default]
    System,
    Light,
    Dark,
}

/// Why a pasted game record was refused (the record format's `RecordProblem`, grouped
/// as a player needs to hear it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RecordTrouble {
    #[default]
    None,
    TooLarge,
    Empty,
    NotARecord,
    /// A header line that cannot be read (a tag, the setup, a seat, a player, the date…).
    Header,
    /// A round number that is not the next round.
    MoveNumber,
    /// An action not written in the notation.
    MalformedMove,
    /// An action that the rules refuse.
    IllegalMove,
    /// A draw vote that cannot be given there.
    Vote,
    TooManyActions,
    /// The Result line says another outcome than the moves give.
    ResultMismatch,
    /// The record's seats do not fit its setup.
    Seats,
    /// A comment `{ … }` with no closing brace on its line.
    CommentUnterminated,
    /// A comment over the length a record allows.
    CommentTooLong,
}

/// How the import dialog words the detail of a refused record. `text`: the detail is the
/// record's own text at fault (a tag line, a round number, a move), shown as it is. The
/// others are reasons of their own (the notation's `NotationError` for a move or the
/// Start position, a missing tag, a Start position of another game), each worded with a
/// translated string: the record parser's English is only for the log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RecordDetail {
    #[default]
    Text,
    /// A required header tag (its name in Records.error) is missing.
    MissingTag,
    /// The Start position is of another setup or first seat than the header says.
    StartMismatch,
    /// A move (Records.error) longer than any route.
    MoveTooLong,
    /// A part of a move that is not a square (Records.error: that part).
    NotASquare,
    /// A move (Records.error) that is neither `pass` nor two squares or more.
    MoveTooShort,
    /// A move (Records.error) with more squares than a jump chain can land on.
    MoveTooManySquares,
    /// The Start position: not four fields (detail-count: how many).
    StartFields,
    /// The Start position's setup (Records.error) is unknown.
    StartSetup,
    /// The Start position's seat to move (Records.error) is not a seat letter.
    StartSeat,
    /// A seat (Records.error) in the Start position that does not play in its setup.
    StartSeatNotInPlay,
    /// The Start position's ply count (Records.error) is not a number.
    StartPlies,
    /// The Start position's ply count (detail-count) is too large.
    StartTooManyPlies,
    /// The Start position has detail-count rows instead of 16.
    StartRows,
    /// Row detail-row has a malformed run of empty squares.
    StartRun,
    /// Row detail-row has an unexpected character (Records.error).
    StartCharacter,
    /// Row detail-row is longer than 16 squares.
    StartRowTooLong,
    /// Row detail-row has detail-count squares instead of 16.
    StartRowTooShort,
    /// Seat Records.error has detail-count pieces, more than its army of detail-limit.
    StartArmy,
}

use crate::session::Player;
use crate::settings::Theme;
use crate::view::Orientation;
use halma_ai::Level;
use halma_rules::Seat;

/// The seat of an index into the window's seat colours and names (0 = A … 3 = D), if it
/// is one.
pub fn seat_from_index(index: i32) -> Option<Seat> {
    (0..4).contains(&index).then(|| Seat::from_index(index as usize))
}

impl From<Player> for PlayerKind {
    fn from(player: Player) -> PlayerKind {
        match player {
            Player::Human => PlayerKind::Human,
            Player::Computer(Level::Beginner | Level::Greedy) => PlayerKind::Beginner,
            Player::Computer(Level::Casual) => PlayerKind::Casual,
            Player::Computer(Level::Strong) => PlayerKind::Strong,
            Player::Computer(Level::Master) => PlayerKind::Master,
            Player::Program => PlayerKind::Program,
            Player::Friend => PlayerKind::Friend,
            Player::Nearby => PlayerKind::Nearby,
        }
    }
}

impl From<PlayerKind> for Player {
    fn from(kind: PlayerKind) -> Player {
        match kind {
            PlayerKind::Human => Player::Human,
            PlayerKind::Beginner => Player::Computer(Level::Beginner),
            PlayerKind::Casual => Player::Computer(Level::Casual),
            PlayerKind::Strong => Player::Computer(Level::Strong),
            PlayerKind::Master => Player::Computer(Level::Master),
            PlayerKind::Program => Player::Program,
            PlayerKind::Friend => Player::Friend,
            PlayerKind::Nearby => Player::Nearby,
        }
    }
}

impl From<Orientation> for BoardTurning {
    fn from(orientation: Orientation) -> BoardTurning {
        match orientation {
            Orientation::Fixed => BoardTurning::Fixed,
            Orientation::FaceSeatToMove => BoardTurning::FaceSeatToMove,
        }
    }
}

impl From<BoardTurning> for Orientation {
    fn from(turning: BoardTurning) -> Orientation {
        match turning {
            BoardTurning::Fixed => Orientation::Fixed,
            BoardTurning::FaceSeatToMove => Orientation::FaceSeatToMove,
        }
    }
}

impl From<Theme> for ThemeChoice {
    fn from(theme: Theme) -> ThemeChoice {
        match theme {
            Theme::System => ThemeChoice::System,
            Theme::Light => ThemeChoice::Light,
            Theme::Dark => ThemeChoice::Dark,
        }
    }
}

impl From<ThemeChoice> for Theme {
    fn from(choice: ThemeChoice) -> Theme {
        match choice {
            ThemeChoice::System => Theme::System,
            ThemeChoice::Light => Theme::Light,
            ThemeChoice::Dark => Theme::Dark,
        }
    }
}
