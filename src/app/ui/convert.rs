//! The seam's words: each enum of `halma_core::interface` and the window's own copy of it
//! (`ui/types.slint`), converted one to one both ways. Each direction is an exhaustive
//! match, so a variant added on one side and not the other fails to compile.

use halma_core::interface;

/// `From` both ways between the core's enum and the window's enum of the same name, for
/// variants of the same names.
macro_rules! one_to_one {
    ($($name:ident { $($variant:ident),* $(,)? })*) => {$(
        impl From<interface::$name> for crate::$name {
            fn from(value: interface::$name) -> Self {
                match value {
                    $(interface::$name::$variant => crate::$name::$variant,)*
                }
            }
        }

        impl From<crate::$name> for interface::$name {
            fn from(value: crate::$name) -> Self {
                match value {
                    $(crate::$name::$variant => interface::$name::$variant,)*
                }
            }
        }
    )*};
}

one_to_one! {
    Page { NewGame, Game, Rules, About, Train, Games }
    Question { None, NewGame, Restart, OfferDraw, Replace }
    PlayerKind { Human, Beginner, Casual, Strong, Master, Program, Friend, Nearby }
    ReviewStep { First, Back, Forward, Last, Leave }
    BoardTurning { Fixed, FaceSeatToMove }
    ThemeChoice { System, Light, Dark }
    RecordTrouble { None, TooLarge, Empty, NotARecord, Header, MoveNumber, MalformedMove, IllegalMove, Vote, TooManyActions, ResultMismatch, Seats, CommentUnterminated, CommentTooLong }
    RecordDetail { Text, MissingTag, StartMismatch, MoveTooLong, NotASquare, MoveTooShort, MoveTooManySquares, StartFields, StartSetup, StartSeat, StartSeatNotInPlay, StartPlies, StartTooManyPlies, StartRows, StartRun, StartCharacter, StartRowTooLong, StartRowTooShort, StartArmy }
}
