//! The new-game form's state: the setup, who plays each seat, who moves first and the
//! engine program's command line. The rules say which seats each setup has; the
//! interface only shows what this holds.

use crate::app::session::{engine_command, GameConfig, Player};
use crate::rules::{Seat, Setup};

/// The choices on the new-game screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupForm {
    config: GameConfig,
    /// The team format offered for 4 players, kept while another count is chosen.
    both_armies: bool,
    /// The engine program's command line as typed, for the seats an engine program plays
    /// (a setting once the game starts).
    command: String,
}

impl Default for SetupForm {
    fn default() -> SetupForm {
        SetupForm::from_config(GameConfig::default(), "")
    }
}

impl SetupForm {
    /// The form showing `config`, with `command` for engine programs.
    pub fn from_config(config: GameConfig, command: &str) -> SetupForm {
        SetupForm { config, both_armies: config.setup != Setup::FourPlayersOneArmy, command: command.to_string() }
    }

    pub fn config(&self) -> GameConfig {
        self.config
    }

    /// The command line as typed.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The command line as the settings keep it (see [`engine_command`]).
    pub fn engine_command(&self) -> String {
        engine_command(&self.command)
    }

    /// Whether a seat in play is an engine program's: the form then asks for its command line.
    pub fn needs_command(&self) -> bool {
        self.config.setup.seats().iter().any(|&seat| self.config.player(seat) == Player::Program)
    }

    /// Whether the game can start: an engine program needs a command line.
    pub fn can_start(&self) -> bool {
        !self.needs_command() || !self.engine_command().is_empty()
    }

    pub fn set_command(&mut self, command: &str) {
        self.command = command.to_string();
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

    #[test]
    fn an_engine_program_seat_needs_a_usable_command_line() {
        let mut form = SetupForm::default();
        assert!(!form.needs_command() && form.can_start());
        form.set_player(Seat::C, Player::Program);
        assert!(form.needs_command());
        assert!(!form.can_start(), "no command line yet");
        form.set_command("  ");
        assert!(!form.can_start(), "blank is none");
        form.set_command("halma-engine\n--threads 1");
        assert!(!form.can_start(), "a line break cannot be in a command line");
        form.set_command(" /usr/bin/some-engine --flag ");
        assert!(form.can_start());
        assert_eq!(form.command(), " /usr/bin/some-engine --flag ", "kept as typed");
        assert_eq!(form.engine_command(), "/usr/bin/some-engine --flag", "saved trimmed");
        // A seat out of play asks for nothing.
        form.set_player(Seat::C, Player::Human);
        form.set_player(Seat::D, Player::Program);
        form.set_command("");
        assert!(!form.needs_command() && form.can_start(), "D does not play in 2p");
        form.set_players(4);
        assert!(form.needs_command() && !form.can_start());
        assert_eq!(SetupForm::from_config(form.config(), "x").command(), "x");
    }
}
