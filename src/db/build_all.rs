//! Building a whole database: levels `0..=K` in order, each reused when a
//! valid file is present, built by [`super::build`] within the memory
//! allowed, and written atomically.

use super::build;
use super::file::{self, LevelFile, LevelId};
use super::lock::DirLock;
use super::{Database, DbError, Level};
use crate::games::Rules;
use std::path::{Path, PathBuf};

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The directory of the level files (created if missing).
    pub dir: PathBuf,
    /// Memory the build may use, in bytes: the level being built (two
    /// bytes per board) plus the lower levels, which are mapped, plus
    /// [`PROGRAM_BYTES`] (see [`peak_bytes`]).
    pub memory_bytes: u64,
}

/// Bytes the program itself takes during a build, beside the levels: its
/// code, stacks and allocations (a build of a few boards peaks at a
/// resident set of about 4.4 MB).
pub const PROGRAM_BYTES: u64 = 6 << 20;

/// Bytes a build up to `max_seeds` needs at its peak: the largest level's
/// working memory plus every level below it (mapped, and resident once
/// read) plus [`PROGRAM_BYTES`]. This is what `--memory` is checked
/// against, before each level is started; `tests/cli_db.rs` checks it
/// against the measured maximum resident set.
pub fn peak_bytes(n: usize, max_seeds: usize) -> u64 {
    (0..=max_seeds)
        .map(|k| {
            let e = LevelId {
                game: "kalah",
                n,
                k,
            }
            .entries();
            let below: u64 = (0..k)
                .map(|j| {
                    LevelId {
                        game: "kalah",
                        n,
                        k: j,
                    }
                    .entries()
                })
                .sum();
            build::working_bytes(e) + below + PROGRAM_BYTES
        })
        .max()
        .unwrap_or(0)
}

/// Builds (or reuses, when a valid file is present) every level `0..=max`
/// of the game `R` with `n` pits a row, and returns the opened database.
/// `progress` is live while it runs (`level` and `entries` tell the level
/// being built), and `log` hears one line per level reused or built.
/// Setting `stop` interrupts the build, which then writes nothing partial:
/// the levels already written stay valid and are reused next time.
///
/// The build holds the directory's lock ([`super::lock`]) throughout: when
/// another build holds it, this one fails at once with [`DbError::Busy`]
/// and touches nothing.
pub fn build_all<R: Rules>(
    n: usize,
    max_seeds: usize,
    options: &BuildOptions,
    progress: &build::Progress,
    log: &(dyn Fn(String) + Sync),
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Database, DbError> {
    use std::sync::atomic::Ordering::Relaxed;
    const {
        assert!(
            !R::NAME.is_empty() && R::NAME.len() <= 16,
            "a game name fills at most the 16 bytes of a level file's header"
        )
    };
    if max_seeds > file::MAX_LEVEL_SEEDS {
        return Err(DbError::TooManySeeds);
    }
    std::fs::create_dir_all(&options.dir).map_err(|source| DbError::Dir {
        dir: options.dir.clone(),
        source,
    })?;
    // Held until this function returns (or the process dies): nothing below
    // touches the directory before it is ours (see `super::lock`).
    let _lock = DirLock::acquire(&options.dir)?;
    let mut db = Database {
        game: R::NAME,
        n,
        dir: options.dir.clone(),
        levels: Vec::new(),
    };
    remove_stale_temporaries(&options.dir);
    let mut below = 0u64;
    for k in 0..=max_seeds {
        let id = LevelId {
            game: R::NAME,
            n,
            k,
        };
        let path = options.dir.join(id.file_name());
        let entries = id.entries();
        // A valid file is reused; an invalid one is rebuilt (and replaced).
        if path.exists() {
            if let Ok(f) = LevelFile::open(&path, id, true) {
                log(format!("level {k}: {entries} boards, valid file reused"));
                db.push(f);
                below += entries;
                continue;
            }
        }
        let need = build::working_bytes(entries) + below + PROGRAM_BYTES;
        if need > options.memory_bytes {
            return Err(DbError::Memory {
                k,
                need: need.div_ceil(1 << 20),
                limit: options.memory_bytes >> 20,
            });
        }
        progress.level.store(k as u64, Relaxed);
        progress.entries.store(entries, Relaxed);
        let start = std::time::Instant::now();
        let gains = {
            let lower: Vec<Level<'_>> = (0..k).map(|j| db.level(j).expect("built")).collect();
            build::build_level::<R>(n, k, &lower, progress, stop)
        };
        let Some(gains) = gains else {
            let done = k.checked_sub(1).map_or("none".into(), |d| d.to_string());
            if stop.load(Relaxed) {
                return Err(DbError::Interrupted { done });
            }
            return Err(DbError::NoMemory { k, done });
        };
        // Straight from the working memory to the file (no copy of the
        // level: `build::working_bytes` is the whole cost).
        file::write_with(&path, id, &mut |start, out| gains.fill(start, out))?;
        drop(gains);
        db.push(LevelFile::open(&path, id, false)?);
        log(format!(
            "level {k}: {entries} boards built in {:.2} s ({} sweeps)",
            start.elapsed().as_secs_f64(),
            progress.sweep.load(Relaxed)
        ));
        below += entries;
    }
    Ok(db)
}

/// Removes the temporary files a killed build may have left in `dir`
/// (complete levels are never temporary: they are renamed into place).
fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.contains(".mdb.tmp") {
            let _ = std::fs::remove_file(e.path());
        }
    }
}
