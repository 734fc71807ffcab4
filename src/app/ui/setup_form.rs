//! The new-game form's state: the setup, who plays each seat and who moves first. The
//! rules say which seats each setup has; the interface only shows what this holds.

use crate::app::session::{GameConfig, Player};
use crate::rules::{Seat, Setup};

/// The choices on the new-game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupForm {
    config: GameConfig,
    /// The team format offered for 4 players, kept while another count is chosen.
    both_armies: bool,
}

impl Default for SetupForm {
    fn default() -> SetupForm {
        SetupForm::from_config(GameConfig::default())
    }
}

impl SetupForm {
    /// The form showing `config`.
    pub fn from_config(config: GameConfig) -> SetupForm {
        SetupForm { config, both_armies: config.setup != Setup::FourPlayersOneArmy }
    }

    pub fn config(&self) -> GameConfig {
        self.config
    }

    pub fn both_armies(&self) -> bool {
        self.both_armies
    }

    /// Chooses the number of players (2, 3 or 4; anything else is ignored).
    pub fn set_players(&mut self, players: i32) {
        let setup = match players {
            2 => Setup::TwoPlayers,
            3 => Setup::ThreePlayers,
            4 if self.both_armies => Setup::FourPlayersBothArmies,
            4 => Setup::FourPlayersOneArmy,
            _ => return,
        };
        self.config.setup = setup;
        if !setup.has_seat(self.config.first) {
            self.config.first = setup.seats()[0];
        }
    }

    /// Chooses the team format for 4 players.
    pub fn set_both_armies(&mut self, both: bool) {
        self.both_armies = both;
        if self.config.setup.has_teams() {
            self.config.setup = if both { Setup::FourPlayersBothArmies } else { Setup::FourPlayersOneArmy };
        }
    }

    pub fn set_player(&mut self, seat: Seat, player: Player) {
        self.config.players[seat.index()] = player;
    }

    /// Chooses the first seat by its place in the turn order (the form's list).
    pub fn set_first_seat(&mut self, turn_index: usize) {
        if let Some(&seat) = self.config.setup.seats().get(turn_index) {
            self.config.first = seat;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;

    #[test]
    fn the_first_seat_stays_in_play_when_the_player_count_changes() {
        let mut form = SetupForm::default();
        form.set_players(4);
        form.set_first_seat(3);
        assert_eq!(form.config().first, Seat::D);
        form.set_players(2);
        assert_eq!(form.config().first, Seat::A, "D does not play in 2p");
        form.set_first_seat(1);
        assert_eq!(form.config().first, Seat::C);
        form.set_first_seat(7);
        assert_eq!(form.config().first, Seat::C, "out of range: unchanged");
    }

    #[test]
    fn the_team_format_is_remembered_across_player_counts() {
        let mut form = SetupForm::default();
        form.set_both_armies(false);
        assert_eq!(form.config().setup, Setup::TwoPlayers);
        form.set_players(4);
        assert_eq!(form.config().setup, Setup::FourPlayersOneArmy);
        form.set_both_armies(true);
        assert_eq!(form.config().setup, Setup::FourPlayersBothArmies);
        form.set_player(Seat::B, Player::Computer(Level::Master));
        assert_eq!(form.config().player(Seat::B), Player::Computer(Level::Master));
    }
}
