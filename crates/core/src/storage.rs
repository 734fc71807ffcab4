//! Saving the game and settings atomically, and loading them back safely.
//!
//! Each document (the session, the settings) is one JSON file in the app's data
//! folder, wrapped in an envelope that names its format and version:
//! `{"format": "halma-session", "version": 1, ...the document's own fields}`.
//!
//! Saving never leaves a half-written file behind: the text goes to a temporary
//! file in the same folder (`tempfile`), is flushed to the disk, then renamed over
//! the old file, so that a crash or a power cut leaves either the old save or the
//! new one.
//!
//! Loading never panics and never lets a bad file be overwritten unnoticed: a
//! file that is empty, truncated, not JSON, of another format, from a newer
//! version of Halma or whose content does not check out is renamed aside (e.g.
//! `game.damaged-1718000000.json`) and reported, so that the player can be told
//! and the file can still be rescued or sent in a bug report.

use halma_rules::{excerpt, message_excerpt};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use tempfile::NamedTempFile;

/// Environment variable that overrides the data folder (tests, screenshots, a portable install).
pub const DATA_DIR_VARIABLE: &str = "HALMA_DATA_DIR";

/// One kind of saved file: its name in the data folder, and the format name and
/// version written in its envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Document {
    pub file_name: &'static str,
    pub format: &'static str,
    /// The version written now; files up to this version are read, newer ones are refused.
    pub version: u32,
}

/// The game in progress with everything needed to resume it exactly.
pub const SESSION: Document = Document { file_name: "game.json", format: "halma-session", version: 1 };

/// The player's settings (language, board orientation...).
pub const SETTINGS: Document = Document { file_name: "settings.json", format: "halma-settings", version: 1 };

/// Larger files are not Halma saves (a long game is a few tens of kilobytes);
/// refusing them keeps a stray huge file from eating the memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Where the per-user data folder comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    /// Linux and other Unix desktops, macOS and Windows: the system's per-user data
    /// folder, as the `directories` crate finds it, with the app's folder in it.
    Desktop,
    /// The app's internal files folder comes from the Java side, not from the environment.
    Android,
}

impl Platform {
    /// The platform this program was built for.
    pub const CURRENT: Platform = if cfg!(target_os = "android") { Platform::Android } else { Platform::Desktop };
}

/// The per-user data folder of this app on this system, from the environment:
/// `$HALMA_DATA_DIR` when set, else the platform's folder (see [`data_dir_for`]).
/// `None` when the system does not say where the user's files go (and on
/// Android, whose caller passes the app's files folder to [`Store::new`]).
pub fn default_data_dir() -> Option<PathBuf> {
    data_dir_for(Platform::CURRENT, |name| std::env::var_os(name))
}

/// The data folder on `platform`, reading the `HALMA_DATA_DIR` override through
/// `env`: that folder when it is set and not empty, else
/// - Desktop: the app's folder in the system's per-user data folder:
///   `$XDG_DATA_HOME/halma` or `$HOME/.local/share/halma` (Linux and other Unix,
///   as the XDG specification says), `~/Library/Application Support/Halma`
///   (macOS), `%APPDATA%\Halma` (Windows: the roaming profile, which follows the
///   user). `None` when the system has no home folder for the user.
/// - Android: none.
pub fn data_dir_for(platform: Platform, env: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    if let Some(dir) = env(DATA_DIR_VARIABLE).filter(|value| !value.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    match platform {
        Platform::Desktop => desktop_data_dir(),
        Platform::Android => None,
    }
}

/// The system's per-user data folder with the app's folder in it: the folder names
/// follow each system's custom (lower case on Linux and other Unix).
#[cfg(not(target_os = "android"))]
fn desktop_data_dir() -> Option<PathBuf> {
    let app = if cfg!(any(target_os = "macos", target_os = "ios", windows)) { "Halma" } else { "halma" };
    directories::BaseDirs::new().map(|dirs| dirs.data_dir().join(app))
}

/// Android apps get their folder from the activity.
#[cfg(target_os = "android")]
fn desktop_data_dir() -> Option<PathBuf> {
    None
}

/// The hidden file whose presence says that a start has not reached its first frame yet.
const START_MARKER: &str = ".starting";

/// The hidden file that the running Halma holds its advisory lock on.
const LOCK_FILE: &str = ".lock";
/// The start of the temporary names of records being written (swept at start).
const RECORD_TEMP_PREFIX: &str = ".record.tmp-";

/// The data folder taken by this process (see [`Store::lock`]); dropping it lets it go.
#[derive(Debug)]
pub struct InstanceLock {
    _file: File,
}

/// Why [`Store::lock`] did not take the folder.
#[derive(Debug)]
pub enum LockError {
    /// Another running Halma holds it.
    AlreadyOpen,
    /// The folder or its lock file could not be opened (a read-only folder...): nobody
    /// else can be saving there either, and saving will report its own problem.
    Io(io::Error),
}

/// Why a save failed, as a player needs to hear it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveFailure {
    /// The disk (or the user's quota) is full.
    DiskFull,
    /// The folder is read-only or the app may not write there.
    NotAllowed,
    /// The data folder is gone and could not be made again.
    FolderMissing,
    /// Anything else; the text is the system's, for the logs.
    Other(String),
}

impl SaveFailure {
    /// The kind of failure behind an error of the file system.
    pub fn from_io(error: &io::Error) -> SaveFailure {
        match error.kind() {
            io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => SaveFailure::DiskFull,
            io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => SaveFailure::NotAllowed,
            // `AlreadyExists`: something that is not a folder stands where the data folder was.
            io::ErrorKind::NotFound | io::ErrorKind::NotADirectory | io::ErrorKind::AlreadyExists => {
                SaveFailure::FolderMissing
            }
            _ => SaveFailure::Other(error.to_string()),
        }
    }
}

impl fmt::Display for SaveFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveFailure::DiskFull => f.write_str("the disk is full"),
            SaveFailure::NotAllowed => f.write_str("the data folder is read-only or not allowed"),
            SaveFailure::FolderMissing => f.write_str("the data folder is missing"),
            SaveFailure::Other(why) => f.write_str(why),
        }
    }
}

/// Why a saved file was not loaded. `Display` gives an English sentence for the
/// player and the logs; the variants let the interface pick a translated one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Damage {
    /// The file exists but could not be read (permissions, a folder in its place...).
    Unreadable(String),
    /// Nothing, or only blanks, in the file.
    Empty,
    /// Far too big for a Halma save.
    TooLarge { bytes: u64 },
    /// Valid JSON up to the point where the file ends early.
    Truncated,
    /// Not JSON at all (or JSON followed by something else).
    NotJson(String),
    /// JSON, but not this kind of Halma file: `found` is its `format` field, if any.
    Foreign { found: Option<String> },
    /// Written by a newer version of Halma, in a format version this one cannot read.
    NewerVersion { found: u64, supported: u32 },
    /// The right format, but the content does not check out: wrong types, missing
    /// fields, an illegal move... The text says what and where.
    Invalid(String),
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::Unreadable(why) => write!(f, "the file could not be read ({why})"),
            Damage::Empty => f.write_str("the file is empty"),
            Damage::TooLarge { bytes } => write!(f, "the file is too large to be a Halma save ({bytes} bytes)"),
            Damage::Truncated => f.write_str("the file is truncated (it ends in the middle of the data)"),
            Damage::NotJson(why) => write!(f, "the file is not valid JSON ({why})"),
            Damage::Foreign { found: Some(format) } => {
                write!(f, "the file is not a Halma save of this kind (its format is '{}')", excerpt(format))
            }
            Damage::Foreign { found: None } => f.write_str("the file is not a Halma save (it names no format)"),
            Damage::NewerVersion { found, supported } => write!(
                f,
                "the file was saved by a newer version of Halma (format version {found}; this version reads up to {supported})"
            ),
            Damage::Invalid(why) => write!(f, "the saved data is invalid: {why}"),
        }
    }
}

impl std::error::Error for Damage {}

/// What loading a document found.
#[derive(Debug, PartialEq)]
pub enum LoadOutcome<U> {
    /// No file: a fresh start.
    Missing,
    Loaded(U),
    /// The file could not be used. It was renamed to `kept_as` so that the next
    /// save does not destroy it; `kept_as` is `None` only when even renaming
    /// failed (the folder is not writable), in which case saving will fail too.
    Damaged {
        problem: Damage,
        kept_as: Option<PathBuf>,
    },
    /// Written by a newer version of Halma, in a format version this one cannot read. It
    /// is left in place, untouched, so that the newer app still finds it: the caller must
    /// not save over it (and should tell the player to update).
    FromNewerVersion {
        found: u64,
        supported: u32,
    },
}

impl<U> LoadOutcome<U> {
    /// The same outcome with the loaded value changed by `f`.
    pub fn map<V>(self, f: impl FnOnce(U) -> V) -> LoadOutcome<V> {
        match self {
            LoadOutcome::Missing => LoadOutcome::Missing,
            LoadOutcome::Loaded(value) => LoadOutcome::Loaded(f(value)),
            LoadOutcome::Damaged { problem, kept_as } => LoadOutcome::Damaged { problem, kept_as },
            LoadOutcome::FromNewerVersion { found, supported } => LoadOutcome::FromNewerVersion { found, supported },
        }
    }

    /// The loaded value, if any.
    pub fn loaded(self) -> Option<U> {
        match self {
            LoadOutcome::Loaded(value) => Some(value),
            LoadOutcome::Missing | LoadOutcome::Damaged { .. } | LoadOutcome::FromNewerVersion { .. } => None,
        }
    }
}

/// Saves and loads documents in one folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Store {
    pub dir: PathBuf,
}

/// A new version of a document written to its temporary file, flushed to the disk,
/// but not yet in place: [`PendingWrite::commit`] puts it there. Dropping it
/// without committing removes the temporary file; a crash before the commit leaves
/// it behind, and the next load removes it.
#[derive(Debug)]
#[must_use = "nothing is saved until commit()"]
pub struct PendingWrite {
    file: NamedTempFile,
    target: PathBuf,
    dir: PathBuf,
}

impl PendingWrite {
    /// Where the new text waits.
    pub fn temp_path(&self) -> &Path {
        self.file.path()
    }

    /// Renames the temporary file over the document: from now on loading finds the
    /// new version. The rename is atomic, so a crash leaves the old or the new one.
    /// On failure the temporary file is removed.
    pub fn commit(self) -> io::Result<()> {
        self.file.persist(&self.target).map_err(|error| error.error)?;
        sync_dir(&self.dir);
        Ok(())
    }
}

/// Makes a rename durable on systems where the folder itself must be flushed
/// (Unix); elsewhere opening a folder fails, and the rename is as durable as it gets.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

fn unix_time() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}

/// Seconds since 1970 (0 if the clock is before it), for dates and file names.
pub fn now_unix_time() -> u64 {
    unix_time()
}

impl Store {
    /// Writes a game record as `records/<name>` in the data folder (desktop export) and
    /// returns its path.
    ///
    /// The file is written whole or not at all (a temporary file, flushed, then linked
    /// under its name), and never replaces an earlier record: when `name` is taken the
    /// record gets `name-2`, `name-3`... before its extension.
    pub fn save_record(&self, name: &str, text: &str) -> io::Result<PathBuf> {
        let dir = self.dir.join("records");
        fs::create_dir_all(&dir)?;
        let mut file = tempfile::Builder::new().prefix(RECORD_TEMP_PREFIX).tempfile_in(&dir)?;
        file.write_all(text.as_bytes())?;
        file.as_file().sync_all()?;
        let (stem, extension) = match name.rsplit_once('.') {
            Some((stem, extension)) if !stem.is_empty() => (stem, format!(".{extension}")),
            _ => (name, String::new()),
        };
        for attempt in 1..=1000u32 {
            let candidate = if attempt == 1 { name.to_string() } else { format!("{stem}-{attempt}{extension}") };
            let path = dir.join(candidate);
            match file.persist_noclobber(&path) {
                Ok(_) => {
                    sync_dir(&dir);
                    return Ok(path);
                }
                Err(error) if error.error.kind() == io::ErrorKind::AlreadyExists => file = error.file,
                Err(error) => return Err(error.error),
            }
        }
        Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free name for the record"))
    }

    pub fn new(dir: impl Into<PathBuf>) -> Store {
        Store { dir: dir.into() }
    }

    /// The store in [`default_data_dir`], if the system says where that is.
    pub fn at_default_location() -> Option<Store> {
        default_data_dir().map(Store::new)
    }

    /// Where `document` is saved.
    pub fn path(&self, document: Document) -> PathBuf {
        self.dir.join(document.file_name)
    }

    /// The prefix of the temporary files of `document`: hidden, and never a name
    /// that loading would take for the document.
    fn temp_prefix(document: Document) -> String {
        format!(".{}.tmp-", document.file_name)
    }

    /// Saves `value` as `document`, atomically: see [`Store::write_temp`] and
    /// [`PendingWrite::commit`]. Creates the folder when needed.
    pub fn save<T: Serialize>(&self, document: Document, value: &T) -> io::Result<()> {
        self.write_temp(document, value)?.commit()
    }

    /// Saves text made by [`document_text`] as `document`, atomically.
    pub fn save_text(&self, document: Document, text: &str) -> io::Result<()> {
        self.write_text_temp(document, text)?.commit()
    }

    /// The first half of a save: writes the new text of `document` to a temporary
    /// file in the same folder and flushes it to the disk; the document itself is
    /// not touched yet.
    ///
    /// `value` must serialize to a JSON object without `format` or `version`
    /// fields (the envelope's); anything else is an `InvalidInput` error.
    pub fn write_temp<T: Serialize>(&self, document: Document, value: &T) -> io::Result<PendingWrite> {
        self.write_text_temp(document, &document_text(document, value)?)
    }

    fn write_text_temp(&self, document: Document, text: &str) -> io::Result<PendingWrite> {
        fs::create_dir_all(&self.dir)?;
        // A hidden name with a random ending, created only if no file has it.
        let mut file = tempfile::Builder::new().prefix(&Store::temp_prefix(document)).tempfile_in(&self.dir)?;
        // On failure the temporary file is removed when `file` is dropped.
        file.write_all(text.as_bytes())?;
        file.as_file().sync_all()?;
        Ok(PendingWrite { file, target: self.path(document), dir: self.dir.clone() })
    }

    /// Loads `document`: checks the envelope, parses the content as `T`, then lets
    /// `validate` check it or turn it into what the app needs. Leftover temporary
    /// files of interrupted saves are removed first; they are never taken for the
    /// save.
    ///
    /// A file that cannot be used is renamed aside and reported as
    /// [`LoadOutcome::Damaged`]; the next save then starts afresh without
    /// destroying it.
    pub fn load<T, U>(&self, document: Document, validate: impl FnOnce(T) -> Result<U, String>) -> LoadOutcome<U>
    where
        T: DeserializeOwned,
    {
        self.remove_stale_temps(document);
        let path = self.path(document);
        let bytes = match read_limited(&path) {
            Ok(bytes) => bytes,
            Err(ReadError::Missing) => return LoadOutcome::Missing,
            Err(ReadError::TooLarge(bytes)) => return self.keep_aside(document, Damage::TooLarge { bytes }),
            Err(ReadError::Io(error)) => return self.keep_aside(document, Damage::Unreadable(error.to_string())),
        };
        match parse_document(document, &bytes)
            .and_then(|value| validate(value).map_err(|why| Damage::Invalid(message_excerpt(&why))))
        {
            Ok(value) => LoadOutcome::Loaded(value),
            Err(Damage::NewerVersion { found, supported }) => LoadOutcome::FromNewerVersion { found, supported },
            Err(problem) => self.keep_aside(document, problem),
        }
    }

    /// Reads `document` without changing anything in the folder: no file is kept aside
    /// and no temporary file removed (another running Halma owns them). `None` when
    /// the file is missing or cannot be used.
    pub fn peek<T: DeserializeOwned>(&self, document: Document) -> Option<T> {
        let bytes = read_limited(&self.path(document)).ok()?;
        parse_document(document, &bytes).ok()
    }

    /// Renames `document`'s file aside (as a damaged file is) without reading it: the
    /// crash-loop breaker uses it when the last start never showed its window. `None`
    /// when there was no file or it could not be renamed.
    pub fn set_aside(&self, document: Document) -> Option<PathBuf> {
        if fs::symlink_metadata(self.path(document)).is_err() {
            return None;
        }
        self.rename_aside(document)
    }

    /// Where the start marker lives: written before loading, removed once the window
    /// has shown its first frame (see [`crate::startup`]).
    pub fn start_marker_path(&self) -> PathBuf {
        self.dir.join(START_MARKER)
    }

    /// Takes the data folder for this process: only one running Halma may write its
    /// saves, so that two windows cannot overwrite each other's newer game. The lock is
    /// the operating system's advisory lock on a file in the folder, released when the
    /// returned value is dropped or the process ends (even by a crash).
    pub fn lock(&self) -> Result<InstanceLock, LockError> {
        fs::create_dir_all(&self.dir).map_err(LockError::Io)?;
        let path = self.dir.join(LOCK_FILE);
        // Halma never makes the lock file a link: one planted there goes (never followed).
        if fs::symlink_metadata(&path).is_ok_and(|meta| meta.file_type().is_symlink()) {
            let _ = fs::remove_file(&path);
        }
        // Never through a link, never waiting on a FIFO.
        let file = halma_engine::files::open_lock_file(&path).map_err(LockError::Io)?;
        match file.try_lock() {
            Ok(()) => Ok(InstanceLock { _file: file }),
            Err(fs::TryLockError::WouldBlock) => Err(LockError::AlreadyOpen),
            Err(fs::TryLockError::Error(error)) => Err(LockError::Io(error)),
        }
    }

    /// Writes the start marker (see [`Store::start_marker_path`]) as a new file: a link
    /// planted in its place is removed, never written through.
    pub fn write_start_marker(&self) -> io::Result<PathBuf> {
        let marker = self.start_marker_path();
        halma_engine::files::create_fresh(&marker, &std::process::id().to_string())?;
        Ok(marker)
    }

    /// Removes the temporary files that an interrupted export left in `records/` (a
    /// crash between writing a record and giving it its name). Returns how many went.
    pub fn sweep_record_temps(&self) -> usize {
        let Ok(entries) = fs::read_dir(self.dir.join("records")) else { return 0 };
        let mut swept = 0;
        for entry in entries.flatten() {
            let is_temp = entry.file_name().to_str().is_some_and(|name| name.starts_with(RECORD_TEMP_PREFIX));
            if is_temp && entry.file_type().is_ok_and(|kind| kind.is_file()) && fs::remove_file(entry.path()).is_ok() {
                swept += 1;
            }
        }
        swept
    }

    /// Removes the temporary files that interrupted saves of `document` left.
    fn remove_stale_temps(&self, document: Document) {
        let prefix = Store::temp_prefix(document);
        let Ok(entries) = fs::read_dir(&self.dir) else { return };
        for entry in entries.flatten() {
            let is_temp = entry.file_name().to_str().is_some_and(|name| name.starts_with(&prefix));
            if is_temp && entry.file_type().is_ok_and(|kind| kind.is_file()) {
                let _ = fs::remove_file(entry.path());
            }
        }
    }

    /// Renames the file of `document` to a name no earlier kept file has:
    /// `game.damaged-<unix time>.json`, then `game.damaged-<unix time>-2.json`...
    fn keep_aside<U>(&self, document: Document, problem: Damage) -> LoadOutcome<U> {
        LoadOutcome::Damaged { problem, kept_as: self.rename_aside(document) }
    }

    /// Renames the file of `document` aside (see [`Store::keep_aside`]); `None` when it
    /// could not be renamed.
    fn rename_aside(&self, document: Document) -> Option<PathBuf> {
        let path = self.path(document);
        let file_name = Path::new(document.file_name);
        let stem = file_name.file_stem().and_then(|stem| stem.to_str()).unwrap_or(document.file_name);
        let extension =
            file_name.extension().and_then(|ext| ext.to_str()).map_or(String::new(), |ext| format!(".{ext}"));
        let time = unix_time();
        for attempt in 1..=1000u32 {
            let suffix = if attempt == 1 { String::new() } else { format!("-{attempt}") };
            let kept = self.dir.join(format!("{stem}.damaged-{time}{suffix}{extension}"));
            // `symlink_metadata` also sees a dangling link, which a rename would replace.
            if fs::symlink_metadata(&kept).is_ok() {
                continue;
            }
            // Not flushed: if the rename is lost in a crash, the file is found damaged again.
            return fs::rename(&path, &kept).ok().map(|()| kept);
        }
        None
    }
}

/// The envelope's fields, then the document's own in their declared order.
#[derive(Serialize)]
struct Envelope<'a, T> {
    format: &'a str,
    version: u32,
    #[serde(flatten)]
    content: &'a T,
}

/// The envelope and `value` as the text of a file: what [`Store::save`] writes. Callers
/// that save often compare it with the last text saved, and skip the write when nothing
/// changed.
pub fn document_text<T: Serialize>(document: Document, value: &T) -> io::Result<String> {
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidInput, why);
    // Checked on a throwaway copy: flattening would write a clashing field twice.
    match serde_json::to_value(value).map_err(|error| invalid(error.to_string()))? {
        Value::Object(fields) if !fields.contains_key("format") && !fields.contains_key("version") => {}
        _ => {
            return Err(invalid(format!(
                "{} content must be a JSON object without format or version fields",
                document.format
            )))
        }
    }
    let envelope = Envelope { format: document.format, version: document.version, content: value };
    let mut text = serde_json::to_string_pretty(&envelope).map_err(|error| invalid(error.to_string()))?;
    text.push('\n');
    Ok(text)
}

enum ReadError {
    Missing,
    TooLarge(u64),
    Io(io::Error),
}

/// Reads a whole file, refusing more than [`MAX_FILE_BYTES`].
fn read_limited(path: &Path) -> Result<Vec<u8>, ReadError> {
    // A FIFO or a device in the file's place is refused without waiting on it.
    let file = match halma_engine::files::open_regular_file(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Err(ReadError::Missing),
        Err(error) => return Err(ReadError::Io(error)),
    };
    let mut bytes = Vec::new();
    // Reading one byte past the limit tells a file at the limit from a larger one.
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    let length = bytes.len() as u64;
    if length > MAX_FILE_BYTES {
        let size = fs::metadata(path).map_or(length, |meta| meta.len());
        return Err(ReadError::TooLarge(size));
    }
    Ok(bytes)
}

/// Checks the envelope of a file's bytes and parses its content as `T`.
fn parse_document<T: DeserializeOwned>(document: Document, bytes: &[u8]) -> Result<T, Damage> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Damage::Empty);
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|error| match error.classify() {
        serde_json::error::Category::Eof => Damage::Truncated,
        _ => Damage::NotJson(error.to_string()),
    })?;
    let Value::Object(mut fields) = value else { return Err(Damage::Foreign { found: None }) };
    match fields.remove("format") {
        Some(Value::String(format)) if format == document.format => {}
        Some(Value::String(format)) => return Err(Damage::Foreign { found: Some(format) }),
        Some(_) | None => return Err(Damage::Foreign { found: None }),
    }
    match fields.remove("version") {
        Some(Value::Number(number)) => match number.as_u64() {
            Some(version) if version > u64::from(document.version) => {
                return Err(Damage::NewerVersion { found: version, supported: document.version })
            }
            Some(version) if version >= 1 => {}
            _ => return Err(Damage::Invalid(format!("'{}' is not a format version", excerpt(&number.to_string())))),
        },
        Some(_) => return Err(Damage::Invalid("the format version is not a number".into())),
        None => return Err(Damage::Invalid("the format version is missing".into())),
    }
    serde_json::from_value(Value::Object(fields)).map_err(|error| Damage::Invalid(message_excerpt(&error.to_string())))
}
