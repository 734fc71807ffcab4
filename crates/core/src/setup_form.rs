//! The new-game form's state: the setup, who plays each seat, who moves first and the
//! engine program's command line. The rules say which seats each setup has; the
//! interface only shows what this holds.

use crate::session::{GameConfig, Player};
use crate::settings::{engine_command, DEFAULT_ENGINE_MOVE_MS};
use halma_rules::{Seat, Setup};

/// The choices on the new-game screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupForm {
    config: GameConfig,
    /// The team format offered for 4 players, kept while another count is chosen.
    both_armies: bool,
    /// The engine program's command line as typed, for the seats an engine program plays
    /// (a setting once the game starts).
    command: String,
    /// The engine program's time for each move, in milliseconds: one of [`ENGINE_MOVE_CHOICES`].
    move_ms: u32,
}

/// The times per move the form offers an engine program, in milliseconds (0.1 s to 30 s);
/// the form's list (`ui/new-game-page.slint`) names them in this order.
pub const ENGINE_MOVE_CHOICES: [u32; 8] = [100, 250, 500, 1000, 2000, 5000, 10_000, 30_000];

impl Default for SetupForm {
    fn default() -> SetupForm {
        SetupForm::from_config(GameConfig::default(), "", DEFAULT_ENGINE_MOVE_MS)
    }
}

/// The longest command line the form keeps: far more than any program needs, and short
/// enough for the one-line field to draw (Slint 1.18's software renderer panics on a
/// selection wider than 32,767 pixels: docs/upstream/long-line-select-all.md).
pub const MAX_COMMAND_CHARS: usize = 1_000;

/// A command line as the form keeps and shows it: its first [`MAX_COMMAND_CHARS`]
/// characters (a pasted text beyond that is cut, and the field shows the cut text).
fn shown_command(command: &str) -> String {
    command.chars().take(MAX_COMMAND_CHARS).collect()
}

impl SetupForm {
    /// The form showing `config`, with `command` and its time per move for engine programs
    /// (brought to the nearest offered time).
    pub fn from_config(config: GameConfig, command: &str, move_ms: u32) -> SetupForm {
        let mut form = SetupForm {
            config,
            both_armies: config.setup != Setup::FourPlayersOneArmy,
            command: shown_command(command),
            move_ms: DEFAULT_ENGINE_MOVE_MS,
        };
        let nearest =
            ENGINE_MOVE_CHOICES.iter().position(|&choice| choice >= move_ms).unwrap_or(ENGINE_MOVE_CHOICES.len() - 1);
        form.set_move_time_index(nearest);
        form
    }

    /// The engine program's time per move, in milliseconds.
    pub fn move_ms(&self) -> u32 {
        self.move_ms
    }

    /// Which of [`ENGINE_MOVE_CHOICES`] is chosen.
    pub fn move_time_index(&self) -> usize {
        ENGINE_MOVE_CHOICES.iter().position(|&choice| choice == self.move_ms).unwrap_or(0)
    }

    /// Chooses the engine program's time per move; an index out of the list is ignored.
    pub fn set_move_time_index(&mut self, index: usize) {
        if let Some(&choice) = ENGINE_MOVE_CHOICES.get(index) {
            self.move_ms = choice;
        }
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

    /// Whether the game can start: an engine program needs a command line, a game by
    /// message or over the network needs a seat played on this device, and a game is played
    /// either by message or over the network, not both.
    pub fn can_start(&self) -> bool {
        let (friends, nearby) = (self.config.friend_seats(), self.config.nearby_seats());
        let away = friends.seats().count() + nearby.seats().count();
        let everyone_away = away == self.config.setup.seats().len();
        let mixed = !friends.is_empty() && !nearby.is_empty();
        (!self.needs_command() || !self.engine_command().is_empty()) && !everyone_away && !mixed
    }

    pub fn set_command(&mut self, command: &str) {
        self.command = shown_command(command);
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
        self.config.players[seat] = player;
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
    use halma_ai::Level;

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
    fn a_pasted_command_line_is_cut_to_what_the_field_can_draw() {
        let mut form = SetupForm::default();
        let long = "x".repeat(10 * MAX_COMMAND_CHARS);
        form.set_command(&long);
        assert_eq!(form.command().chars().count(), MAX_COMMAND_CHARS);
        let config = GameConfig::default();
        let restored = SetupForm::from_config(config, &long, DEFAULT_ENGINE_MOVE_MS);
        assert_eq!(restored.command().chars().count(), MAX_COMMAND_CHARS);
        form.set_command("halma-engine --threads 1");
        assert_eq!(form.command(), "halma-engine --threads 1", "a usual command line is kept whole");
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
    }

    #[test]
    fn the_engine_programs_time_per_move_is_one_of_the_offered_times() {
        let config = GameConfig::default();
        assert_eq!(SetupForm::default().move_ms(), 1000);
        assert_eq!(SetupForm::from_config(config, "", 2000).move_time_index(), 4);
        // A time from a file that is not offered goes to the next longer one, within range.
        assert_eq!(SetupForm::from_config(config, "", 1500).move_ms(), 2000);
        assert_eq!(SetupForm::from_config(config, "", 90_000).move_ms(), 30_000);
        assert_eq!(SetupForm::from_config(config, "", 0).move_ms(), 100);
        let mut form = SetupForm::default();
        form.set_move_time_index(7);
        assert_eq!(form.move_ms(), 30_000);
        form.set_move_time_index(8);
        assert_eq!(form.move_ms(), 30_000, "out of the list: ignored");
        // A seat out of play asks for nothing.
        form.set_player(Seat::C, Player::Human);
        form.set_player(Seat::D, Player::Program);
        form.set_command("");
        assert!(!form.needs_command() && form.can_start(), "D does not play in 2p");
        form.set_players(4);
        assert!(form.needs_command() && !form.can_start());
        assert_eq!(SetupForm::from_config(form.config(), "x", 1000).command(), "x");
    }
}
