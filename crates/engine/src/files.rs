//! Opening and creating files that a player, another program or a synced data folder
//! may have swapped for something else: a FIFO or a device is refused without waiting
//! (opening a FIFO blocks until a writer comes), and a file Halma creates is never
//! written through a planted symbolic link.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

/// `O_NONBLOCK` where the system has it: opening never waits, and a regular file reads
/// as usual.
#[cfg(unix)]
const NONBLOCK: i32 = libc::O_NONBLOCK;
/// `O_NOFOLLOW` where the system has it: a symbolic link as the last part of the path is
/// refused instead of followed.
#[cfg(unix)]
const NOFOLLOW: i32 = libc::O_NOFOLLOW;

/// Opens `path` for reading if it is a regular file (a link to one is followed). A FIFO, a
/// device or a socket is refused without blocking: it is looked at before opening, then
/// opened without waiting and looked at again, since the path may have been swapped
/// between the two.
pub fn open_regular_file(path: &Path) -> io::Result<File> {
    if !fs::metadata(path)?.is_file() {
        return Err(not_a_regular_file());
    }
    open_checked(path)
}

/// Opens `path` without waiting and refuses what is not a regular file.
pub fn open_checked(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, NONBLOCK);
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_a_regular_file());
    }
    Ok(file)
}

fn not_a_regular_file() -> io::Error {
    io::Error::other("not a regular file")
}

/// Writes `text` into a new file at `path`: whatever had that name (a file, a planted
/// link) is removed first, and the file is created only if nothing has the name by then,
/// so nothing outside the folder is ever written through a link.
pub fn create_fresh(path: &Path, text: &str) -> io::Result<()> {
    match fs::remove_file(path) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::NotFound => {}
        Err(error) => return Err(error),
    }
    // `create_new` is O_CREAT|O_EXCL, which never follows a link at the path.
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(text.as_bytes())
}

/// Opens (creating it if needed) a file at `path` for a lock, never through a link and
/// never waiting on a FIFO; nothing is truncated or written.
pub fn open_lock_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, NOFOLLOW | NONBLOCK);
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_a_regular_file());
    }
    Ok(file)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;
    use std::time::Duration;

    fn mkfifo(path: &Path) {
        assert!(std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo runs").success());
    }

    /// Runs `open` on a thread and fails the test if it has not returned within 5 s.
    fn without_blocking(open: impl FnOnce() -> io::Result<File> + Send + 'static) -> Result<(), String> {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sender.send(open().map(|_| ()).map_err(|why| why.to_string()));
        });
        receiver.recv_timeout(Duration::from_secs(5)).expect("opening did not block")
    }

    /// The check after opening, for a path swapped for a FIFO after the look before it.
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let fifo = folder.path().join("fifo");
        mkfifo(&fifo);
        let path = fifo.clone();
        assert_eq!(without_blocking(move || open_checked(&path)), Err("not a regular file".into()));
        let path = fifo.clone();
        assert_eq!(without_blocking(move || open_regular_file(&path)), Err("not a regular file".into()));
        // Opened for writing without a reader, a FIFO fails at once (ENXIO): refused too.
        assert!(without_blocking(move || open_lock_file(&fifo)).is_err());
        assert!(open_regular_file(Path::new("/dev/null")).is_err(), "a device");
    }

    #[test]
    fn a_planted_link_is_replaced_not_written_through() {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let victim = folder.path().join("victim.txt");
        fs::write(&victim, "precious").expect("written");
        let marker = folder.path().join(".starting");
        symlink(&victim, &marker).expect("link planted");
        create_fresh(&marker, "1234").expect("created");
        assert_eq!(fs::read_to_string(&victim).expect("read"), "precious", "the link's target is untouched");
        assert_eq!(fs::read_to_string(&marker).expect("read"), "1234");
        assert!(!fs::symlink_metadata(&marker).expect("there").file_type().is_symlink());

        let lock = folder.path().join(".lock");
        symlink(&victim, &lock).expect("link planted");
        assert!(open_lock_file(&lock).is_err(), "a lock file that is a link is refused");
        assert_eq!(fs::read_to_string(&victim).expect("read"), "precious");
    }
}
