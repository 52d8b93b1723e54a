//! The lock of a database directory: one build at a time.
//!
//! A build writes temporary files into its directory and, when it starts,
//! removes the temporary files a killed build left there; two builds in one
//! directory would delete each other's. So a build first takes an
//! **exclusive advisory lock** on the file [`LOCK_FILE`] in the directory
//! ([`std::fs::File::try_lock`], `flock` on Unix) and holds it until it
//! returns. The guarantees relied on:
//!
//! - *Refused at once.* The lock is tried, never waited for: a second build
//!   gets [`DbError::Busy`] before it reads, writes or removes anything in
//!   the directory (the lock file aside, which it only opens).
//! - *Released by the kernel.* The lock belongs to the open file, so it goes
//!   when the build returns (the [`DirLock`] is dropped) and also when its
//!   process dies in any way, `kill -9` included: a stale lock cannot block
//!   the next build.
//! - *The lock file stays.* It is never removed: removing it while another
//!   process has opened it (and is about to lock it) would let a third
//!   process lock a new file of the same name, and two builds would run.
//!   It is empty and harmless.
//! - *Readers are unaffected.* `probe`, `verify` and `solve --db` never take
//!   the lock; they open only complete level files, which a build renames
//!   into place atomically ([`crate::atomic_file`]).

use super::DbError;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

/// The name of the lock file inside a database directory.
pub const LOCK_FILE: &str = ".build.lock";

/// An exclusive lock on a database directory, held while this value lives.
#[derive(Debug)]
pub struct DirLock {
    _file: File,
}

impl DirLock {
    /// Locks `dir` (which must exist) for a build, or says why not:
    /// [`DbError::Busy`] when another build holds it, [`DbError::Dir`] when
    /// the lock file cannot be opened or locked.
    pub fn acquire(dir: &Path) -> Result<DirLock, DbError> {
        let path = dir.join(LOCK_FILE);
        let failed = |source| DbError::Dir {
            dir: dir.to_path_buf(),
            source,
        };
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(failed)?;
        match file.try_lock() {
            Ok(()) => Ok(DirLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(DbError::Busy {
                dir: dir.to_path_buf(),
            }),
            Err(TryLockError::Error(e)) => Err(failed(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_dropped() {
        let dir = std::env::temp_dir().join(format!("mancala-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = DirLock::acquire(&dir).unwrap();
        // Another open file description of the same lock file (as another
        // process would have) is refused at once.
        let e = DirLock::acquire(&dir).unwrap_err();
        assert!(matches!(e, DbError::Busy { .. }), "{e}");
        assert!(e.to_string().contains("another build"), "{e}");
        drop(first);
        let again = DirLock::acquire(&dir).unwrap();
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
