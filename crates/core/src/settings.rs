//! The player's settings, saved apart from the game (`settings.json`): language, board
//! turning, the colours, the last new-game choices and the engine program's command line
//! and time.

use super::session::GameConfig;
use super::view::Orientation;
use serde::{Deserialize, Serialize};

/// The player's settings, saved apart from the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Language code chosen in the menu; `None` follows the system.
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default)]
    pub orientation: Orientation,
    /// Light or dark colours, or the system's (a file from before the dark theme: the system's).
    #[serde(default)]
    pub theme: Theme,
    /// The last new-game choices, offered again.
    #[serde(default)]
    pub last_config: Option<GameConfig>,
    /// The engine program's command line, split as a shell splits words (quotes and
    /// escapes) and run without a shell, for the seats played by [`Player::Program`].
    /// Empty: none yet. Read from a file, it starts nothing until the player confirms it
    /// in this run of the app.
    #[serde(default)]
    pub engine_command: String,
    /// The engine program's time for each move, in milliseconds
    /// ([`MIN_ENGINE_MOVE_MS`]..=[`MAX_ENGINE_MOVE_MS`]).
    #[serde(default = "default_engine_move_ms")]
    pub engine_move_ms: u32,
    /// The Train page's progress: puzzles solved, streaks and rating (#41).
    #[serde(default)]
    pub training: TrainingProgress,
    /// The first-game guide was done or skipped: it no longer opens by itself. A file from
    /// before the guide says false; the guide then still opens only for a player without a
    /// saved game (`actions::guide::at_start`).
    #[serde(default)]
    pub guide_seen: bool,
    /// Sounds for moves, refused taps and the end of the game (a file from before them: on).
    #[serde(default = "on")]
    pub sound: bool,
    /// Haptic feedback on Android (a file from before it: on).
    #[serde(default = "on")]
    pub vibration: bool,
    /// The network game's link, so that a restarted device finds the other one again
    /// (#40); none when the game shown is not played over the network.
    #[serde(default)]
    pub nearby: Option<SavedLink>,
}

/// What is kept of a network game between runs of the app: a restarted host listens again
/// with the same code on the same port, a restarted guest joins again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedLink {
    /// The game's identifier (8 characters of Crockford's base 32).
    pub id: String,
    /// The join code.
    pub code: String,
    /// This device hosts the game.
    pub hosting: bool,
    /// The host's address and port ("192.168.1.5:40123").
    pub address: String,
}

fn on() -> bool {
    true
}

/// The player's puzzle progress, kept with the settings so a new game never resets it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrainingProgress {
    /// The ids of the puzzles solved (once each).
    #[serde(default)]
    pub solved: Vec<String>,
    /// Puzzles solved at the first try in a row.
    #[serde(default)]
    pub streak: u32,
    #[serde(default)]
    pub best_streak: u32,
    /// An Elo-like rating against the puzzles' difficulty ([`TrainingProgress::record`]).
    #[serde(default = "default_rating")]
    pub rating: i32,
}

/// A newcomer's rating: between an easy puzzle's and a medium one's.
pub const START_RATING: i32 = 1200;
/// The rating's range: a file cannot put it anywhere absurd.
pub const RATING_RANGE: std::ops::RangeInclusive<i32> = 100..=3000;
/// The most puzzle ids kept (a damaged or hostile file cannot grow without end).
pub const MAX_SOLVED: usize = 10_000;

fn default_rating() -> i32 {
    START_RATING
}

impl Default for TrainingProgress {
    fn default() -> TrainingProgress {
        TrainingProgress { solved: Vec::new(), streak: 0, best_streak: 0, rating: START_RATING }
    }
}

impl TrainingProgress {
    /// A first answer to a puzzle of `puzzle_rating` (Elo, K = 32): a right one raises the
    /// rating by what it did not expect and lengthens the streak; a wrong one ends it.
    pub fn record(&mut self, right: bool, puzzle_rating: i32) {
        let expected = 1.0 / (1.0 + 10f64.powf(f64::from(puzzle_rating - self.rating) / 400.0));
        let score = if right { 1.0 } else { 0.0 };
        let change = (32.0 * (score - expected)).round() as i32;
        self.rating = (self.rating + change).clamp(*RATING_RANGE.start(), *RATING_RANGE.end());
        if right {
            self.streak = self.streak.saturating_add(1);
            self.best_streak = self.best_streak.max(self.streak);
        } else {
            self.streak = 0;
        }
    }

    /// Counts `id` as solved (once).
    pub fn mark_solved(&mut self, id: &str) {
        if !self.is_solved(id) && self.solved.len() < MAX_SOLVED {
            self.solved.push(id.to_string());
        }
    }

    pub fn is_solved(&self, id: &str) -> bool {
        self.solved.iter().any(|solved| solved == id)
    }

    /// Read from a file: the rating in range, the best streak at least the streak, each
    /// id once and within [`MAX_SOLVED`].
    fn validated(mut self) -> TrainingProgress {
        self.rating = self.rating.clamp(*RATING_RANGE.start(), *RATING_RANGE.end());
        self.best_streak = self.best_streak.max(self.streak);
        let mut seen = std::collections::HashSet::new();
        self.solved.retain(|id| id.len() <= 64 && seen.insert(id.clone()));
        self.solved.truncate(MAX_SOLVED);
        self
    }
}

/// The app's colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Theme {
    /// As the system's scheme (light where the system says none).
    #[default]
    System,
    Light,
    Dark,
}

/// The shortest time per move a player may give an engine program, in milliseconds.
pub const MIN_ENGINE_MOVE_MS: u32 = 100;
/// The longest time per move a player may give an engine program, in milliseconds.
pub const MAX_ENGINE_MOVE_MS: u32 = 30_000;
/// An engine program's time per move until the player chooses another.
pub const DEFAULT_ENGINE_MOVE_MS: u32 = 1000;

fn default_engine_move_ms() -> u32 {
    DEFAULT_ENGINE_MOVE_MS
}

/// The longest engine command line kept, in characters.
pub const MAX_ENGINE_COMMAND: usize = 1024;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            language: None,
            orientation: Orientation::Fixed,
            theme: Theme::System,
            last_config: None,
            engine_command: String::new(),
            engine_move_ms: DEFAULT_ENGINE_MOVE_MS,
            training: TrainingProgress::default(),
            guide_seen: false,
            sound: true,
            vibration: true,
            nearby: None,
        }
    }
}

/// `command` as a setting: trimmed, and empty when it cannot be a command line (over
/// [`MAX_ENGINE_COMMAND`] characters, or with a line break or another control character).
pub fn engine_command(command: &str) -> String {
    let command = command.trim();
    let usable = command.chars().count() <= MAX_ENGINE_COMMAND && !command.chars().any(char::is_control);
    if usable {
        command.to_string()
    } else {
        String::new()
    }
}

impl Settings {
    /// Settings read from a file, with every value the app could not use repaired: a
    /// language the app does not speak follows the system again, the last new-game
    /// choices get a first seat that is in play, an engine command line that cannot be
    /// one is forgotten, its time per move is brought into range, and where engine programs are not offered (Android) their seats
    /// go back to people.
    pub fn validated(mut self) -> Settings {
        self.language = self.language.as_deref().and_then(super::locale::supported_language).map(String::from);
        self.engine_command = engine_command(&self.engine_command);
        self.engine_move_ms = self.engine_move_ms.clamp(MIN_ENGINE_MOVE_MS, MAX_ENGINE_MOVE_MS);
        self.training = self.training.validated();
        if let Some(config) = &mut self.last_config {
            if !config.setup.has_seat(config.first) {
                config.first = config.setup.seats()[0];
            }
            config.seat_programs_here();
        }
        self
    }
}
