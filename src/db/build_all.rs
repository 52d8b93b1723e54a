//! Building a whole database: levels `0..=K` in order, each reused when a
//! valid file is present, built by [`super::propagate`] or [`super::build`]
//! ([`Method`]) within the memory allowed, and written atomically.

use super::file::{self, LevelFile, LevelId};
use super::lock::DirLock;
use super::{build, propagate};
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
    /// How each level is computed.
    pub method: Method,
}

/// How a level is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// By propagation ([`propagate`]) for the games with an unmove
    /// generator ([`Rules::HAS_UNMOVES`]) whose levels have cycles
    /// ([`Rules::CYCLIC`]), by sweeps otherwise. Measured: Awari level 17
    /// took 55 sweeps (9.85 move generations a board) against one
    /// generation of moves and 0.93 of unmoves a board by propagation,
    /// 5x faster; Kalah, without cycles, takes 9 sweeps (1.38 generations
    /// a board), a little faster than propagating (1 + 1.00).
    #[default]
    Auto,
    /// By sweeps ([`build`]) for every game: the reference method.
    Sweep,
    /// By propagation, which needs an unmove generator
    /// ([`DbError::NoUnmoves`] otherwise).
    Propagate,
}

impl Method {
    /// Whether levels of `R` are built by propagation.
    pub fn propagates<R: Rules>(self) -> bool {
        match self {
            Method::Auto => R::HAS_UNMOVES && R::CYCLIC,
            Method::Sweep => false,
            Method::Propagate => R::HAS_UNMOVES,
        }
    }

    /// The working memory of a level of `entries` boards of `R`.
    fn working_bytes<R: Rules>(self, entries: u64) -> u64 {
        if self.propagates::<R>() {
            propagate::working_bytes(entries)
        } else {
            build::working_bytes(entries)
        }
    }
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
pub fn peak_bytes<R: Rules>(n: usize, max_seeds: usize, method: Method) -> u64 {
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
            method.working_bytes::<R>(e) + below + PROGRAM_BYTES
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
    if options.method == Method::Propagate && !R::HAS_UNMOVES {
        return Err(DbError::NoUnmoves { game: R::NAME });
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
        let need = options.method.working_bytes::<R>(entries) + below + PROGRAM_BYTES;
        if need > options.memory_bytes {
            return Err(DbError::Memory {
                k,
                need: need.div_ceil(1 << 20),
                limit: options.memory_bytes >> 20,
            });
        }
        progress.level.store(k as u64, Relaxed);
        progress.entries.store(entries, Relaxed);
        progress.sweep.store(0, Relaxed);
        progress.generated.store(0, Relaxed);
        progress.unmoved.store(0, Relaxed);
        let start = std::time::Instant::now();
        let propagates = options.method.propagates::<R>();
        let gains = {
            let lower: Vec<Level<'_>> = (0..k).map(|j| db.level(j).expect("built")).collect();
            if propagates {
                propagate::build_level::<R>(n, k, &lower, progress, stop)
            } else {
                build::build_level::<R>(n, k, &lower, progress, stop)
            }
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
        let seconds = start.elapsed().as_secs_f64();
        let per_board = |x: &std::sync::atomic::AtomicU64| x.load(Relaxed) as f64 / entries as f64;
        let how = if propagates {
            format!(
                "propagation: {} rounds, moves generated {:.2} and unmoves {:.2} times a board",
                progress.sweep.load(Relaxed),
                per_board(&progress.generated),
                per_board(&progress.unmoved)
            )
        } else {
            format!(
                "{} sweeps, moves generated {:.2} times a board",
                progress.sweep.load(Relaxed),
                per_board(&progress.generated)
            )
        };
        log(format!(
            "level {k}: {entries} boards built in {seconds:.2} s ({:.2} M boards/s; {how})",
            entries as f64 / seconds.max(1e-9) / 1e6
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
