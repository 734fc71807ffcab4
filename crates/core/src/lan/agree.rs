//! How two devices agree on one game after (re)connecting: docs/NETWORK.md, "Agreeing on
//! a history". A pure function of the two games, the same whichever side computes it.

use super::secure::sha256_hex;
use super::wire::DIGEST_CHARS;
use crate::correspondence::{apply_vote, turn_votes, Vote};
use halma_rules::{Action, Game};

/// The game both sides continue with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreed {
    pub game: Game,
    /// How many actions the two histories have in common from the start.
    pub common: usize,
    /// Actions of `mine` that the agreed game does not keep (taken back here).
    pub taken_back: usize,
    /// Actions the agreed game has beyond what it keeps of `mine` (brought by the other side).
    pub gained: usize,
}

/// Why two games cannot be agreed on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgreeError {
    /// Another setup, first seat or start position.
    DifferentStart,
    /// Replaying the agreed history failed (cannot happen with two games the rules made).
    Replay,
}

/// The agreed game of `mine` and `theirs`:
/// - P is the longest common prefix of the two action histories;
/// - if one history is a prefix of the other, the longer one is agreed, with its votes of
///   the turn in progress (the shorter side missed actions that the longer side has);
/// - if both are the same, the same history with the longer of the two lists of votes
///   of the turn in progress when one list begins the other, otherwise with no votes;
/// - otherwise (the histories fork after P) only P is agreed, with no votes: neither
///   side's actions after the fork are kept.
///
/// `agree(a, b).game == agree(b, a).game` always.
pub fn agree(mine: &Game, theirs: &Game) -> Result<Agreed, AgreeError> {
    if mine.start_position() != theirs.start_position() {
        return Err(AgreeError::DifferentStart);
    }
    let (a, b) = (mine.history(), theirs.history());
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (actions, votes): (&[Action], Vec<Vote>) = if a.len() == b.len() && common == a.len() {
        let (va, vb) = (turn_votes(mine), turn_votes(theirs));
        let votes = if vb.starts_with(&va) {
            vb
        } else if va.starts_with(&vb) {
            va
        } else {
            Vec::new()
        };
        (a, votes)
    } else if common == a.len() {
        (b, turn_votes(theirs))
    } else if common == b.len() {
        (a, turn_votes(mine))
    } else {
        (&a[..common], Vec::new())
    };
    let mut game = Game::from_position(*mine.start_position());
    for action in actions {
        game.play_action(action).map_err(|_| AgreeError::Replay)?;
    }
    for vote in votes {
        apply_vote(&mut game, vote).map_err(|_| AgreeError::Replay)?;
    }
    let kept = a.iter().zip(actions).take_while(|(x, y)| x == y).count();
    let (taken_back, gained) = (a.len() - kept, actions.len() - kept);
    Ok(Agreed { game, common, taken_back, gained })
}

/// The words of a game's history and the votes of its turn in progress, one space
/// between them: `c3-d4 n14-m13 offer accept`.
pub fn history_words(game: &Game) -> String {
    let mut words: Vec<String> = game.history().iter().map(Action::to_string).collect();
    words.extend(turn_votes(game).iter().map(|vote| vote.word().to_string()));
    words.join(" ")
}

/// The digest both sides send in `synced`: the first 16 hex digits of the SHA-256 of
/// [`history_words`].
pub fn digest(game: &Game) -> String {
    sha256_hex(history_words(game).as_bytes(), DIGEST_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use halma_rules::{Seat, Setup};

    fn game(moves: &[&str]) -> Game {
        let mut game = Game::new(Setup::TwoPlayers, Seat::A);
        for text in moves {
            match *text {
                "offer" => assert!(game.offer_draw().is_ok()),
                "accept" => {
                    assert!(game.answer_draw(game.pending_offer().map_or(Seat::A, |o| o.awaiting), true).is_ok())
                }
                text => assert_eq!(game.play_text(text), Ok(()), "{text}"),
            }
        }
        game
    }

    #[test]
    fn the_longer_history_wins_when_one_begins_the_other() {
        let short = game(&["c3-d4"]);
        let long = game(&["c3-d4", "n14-m13", "e2-f3"]);
        let here = agree(&short, &long).expect("agreed");
        assert_eq!(here.game, long);
        assert_eq!((here.common, here.taken_back, here.gained), (1, 0, 2));
        let there = agree(&long, &short).expect("agreed");
        assert_eq!(there.game, long);
        assert_eq!((there.common, there.taken_back, there.gained), (1, 0, 0));
    }

    #[test]
    fn a_fork_keeps_the_common_part() {
        let a = game(&["c3-d4", "n14-m13", "e2-f3"]);
        let b = game(&["c3-d4", "n14-l14"]);
        let here = agree(&a, &b).expect("agreed");
        assert_eq!(here.game, game(&["c3-d4"]));
        assert_eq!((here.common, here.taken_back, here.gained), (1, 2, 0));
        assert_eq!(agree(&b, &a).map(|x| x.game), Ok(game(&["c3-d4"])));
    }

    #[test]
    fn votes_of_the_turn_in_progress() {
        let offered = game(&["c3-d4", "offer"]);
        let plain = game(&["c3-d4"]);
        assert_eq!(agree(&plain, &offered).map(|x| x.game), Ok(offered.clone()));
        assert_eq!(agree(&offered, &plain).map(|x| x.game), Ok(offered.clone()));
        let agreed = game(&["c3-d4", "offer", "accept"]);
        assert_eq!(agree(&offered, &agreed).map(|x| x.game.is_over()), Ok(true));
        assert_eq!(digest(&agreed), sha256_hex(b"c3-d4 offer accept", 16));
        assert_eq!(agree(&plain, &Game::new(Setup::TwoPlayers, Seat::C)), Err(AgreeError::DifferentStart));
    }
}
