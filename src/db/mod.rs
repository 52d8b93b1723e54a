//! Endgame databases: the exact future gain of every board with few seeds.
//!
//! For a game and a row length `n`, **level `k`** holds, for every
//! distribution of `k` seeds over the `2n` pits (reachable in play or not),
//! the exact future net gain of the side to move: what the side to move will
//! still capture minus what the opponent will still capture under perfect
//! play, endless play capturing nothing more (`rules.md`, "Game value").
//! Play from a position depends only on its board and the side to move,
//! never on the seeds captured before, so this is all a solver needs.
//!
//! **One side to move.** Every game's rules are the same for both players,
//! told from the mover's side: South's pits 1..n and North's pits 1..n play
//! the same roles for South as North's and South's do for North. So a board
//! with North to move has the value of the board turned round (the rows
//! swapped) with South to move, and each level stores only South to move:
//! one byte per board ([`file`]). The tests check the symmetry with the
//! solver on random positions of every game.
//!
//! Levels are built from `k = 0` upwards ([`build`]), since a capture only
//! lowers `k`: the moves that leave a level reach levels already built.

pub mod build;
pub mod file;

use crate::games::{Game, MoveList, Rules};
use crate::index::Indexer;
use crate::position::{Position, MAX_PITS};
use crate::search::negamax::{final_gain, move_gain};
use crate::side::Side;
use file::{FileError, LevelFile, LevelId};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why databases cannot be opened, built or used.
#[derive(Debug, Error)]
pub enum DbError {
    /// A level file is missing, unreadable or invalid.
    #[error(transparent)]
    File(#[from] FileError),
    /// No level of the game is in the directory.
    #[error(
        "no database of {game} with {n} pits a row in {dir} (build one with `mancala db build`)"
    )]
    Missing {
        /// The game.
        game: Game,
        /// Pits per row.
        n: usize,
        /// The directory searched.
        dir: PathBuf,
    },
    /// The level asked for is not built.
    #[error("level {k} of {game} with {n} pits a row is not in {dir} (built up to {built})")]
    NotBuilt {
        /// The game.
        game: Game,
        /// Pits per row.
        n: usize,
        /// Seeds asked for.
        k: usize,
        /// Largest level present.
        built: String,
        /// The directory.
        dir: PathBuf,
    },
    /// Seeds beyond what a one-byte entry holds.
    #[error("at most {max} seeds per level (one signed byte per board)", max = file::MAX_LEVEL_SEEDS)]
    TooManySeeds,
    /// The build would need more memory than allowed.
    #[error("level {k} needs about {need} MiB (two bytes per board while it is built, plus the lower levels mapped), more than the allowed {limit} MiB (--memory)")]
    Memory {
        /// Seeds of the level.
        k: usize,
        /// MiB needed.
        need: u64,
        /// MiB allowed.
        limit: u64,
    },
    /// The build was interrupted; completed levels are kept.
    #[error("interrupted: levels 0 to {done} are complete and will be reused")]
    Interrupted {
        /// Last complete level, as text ("none" when none).
        done: String,
    },
    /// The system refused the memory of a level's build.
    #[error("cannot get the working memory of level {k}; levels 0 to {done} are complete and will be reused")]
    NoMemory {
        /// Seeds of the level.
        k: usize,
        /// Last complete level, as text ("none" when none).
        done: String,
    },
    /// Creating the directory failed.
    #[error("{dir}: {source}")]
    Dir {
        /// The directory.
        dir: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// The board of `pos` seen from its side to move: South's row first when
/// South is to move, North's row first otherwise, in `out[..2n]`.
#[inline]
pub fn canonical_board(pos: &Position, out: &mut [u8; MAX_PITS]) {
    let n = pos.n();
    let b = pos.board();
    match pos.to_move() {
        Side::South => out[..2 * n].copy_from_slice(b),
        Side::North => {
            out[..n].copy_from_slice(&b[n..]);
            out[n..2 * n].copy_from_slice(&b[..n]);
        }
    }
}

/// The rank of `pos`'s canonical board in `ix` (which must index `2n`
/// pits and `pos.board_seeds()` seeds).
#[inline]
pub fn canonical_rank(ix: &Indexer, pos: &Position) -> u64 {
    let mut b = [0u8; MAX_PITS];
    canonical_board(pos, &mut b);
    ix.rank(&b[..2 * pos.n()])
}

/// A built level seen as bytes: its index and one entry per board.
#[derive(Clone, Copy, Debug)]
pub struct Level<'a> {
    /// The index of the level's boards.
    pub index: &'a Indexer,
    /// One signed byte per board, by rank.
    pub bytes: &'a [u8],
}

impl Level<'_> {
    /// The future gain of the side to move in `pos`, whose board must have
    /// this level's seeds.
    #[inline]
    pub fn gain(&self, pos: &Position) -> i32 {
        i32::from(self.bytes[self.index_of(pos)] as i8)
    }

    /// Where the entry of `pos`, whose board must have this level's seeds,
    /// is in [`Level::bytes`].
    #[inline]
    pub fn index_of(&self, pos: &Position) -> usize {
        canonical_rank(self.index, pos) as usize
    }
}

/// The levels `0..=K` of one game and row length, memory-mapped.
#[derive(Debug)]
pub struct Database {
    game: Game,
    n: usize,
    dir: PathBuf,
    levels: Vec<(Indexer, LevelFile)>,
}

impl Database {
    /// Opens the levels `0, 1, ...` of `game` with `n` pits a row found in
    /// `dir`, up to the first missing one. An invalid file is an error,
    /// never skipped; `verify` also checks every payload checksum.
    pub fn open(dir: &Path, game: Game, n: usize, verify: bool) -> Result<Database, DbError> {
        let mut db = Database {
            game,
            n,
            dir: dir.to_path_buf(),
            levels: Vec::new(),
        };
        for k in 0..=file::MAX_LEVEL_SEEDS {
            let id = LevelId { game, n, k };
            let path = dir.join(id.file_name());
            if !path.exists() {
                break;
            }
            db.push(LevelFile::open(&path, id, verify)?);
        }
        if db.levels.is_empty() {
            return Err(DbError::Missing {
                game,
                n,
                dir: dir.to_path_buf(),
            });
        }
        Ok(db)
    }

    fn push(&mut self, f: LevelFile) {
        let ix = Indexer::new(2 * self.n, f.id().k).expect("levels are below 2^64 boards");
        self.levels.push((ix, f));
    }

    /// The game.
    pub fn game(&self) -> Game {
        self.game
    }

    /// Pits per row.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The largest `k` present (levels `0..=k` are all present).
    pub fn max_seeds(&self) -> usize {
        self.levels.len() - 1
    }

    /// Level `k` as bytes, if present.
    pub fn level(&self, k: usize) -> Option<Level<'_>> {
        self.levels.get(k).map(|(ix, f)| Level {
            index: ix,
            bytes: f.bytes(),
        })
    }

    /// Level `k`, or an error naming what is built.
    pub fn require(&self, k: usize) -> Result<Level<'_>, DbError> {
        self.level(k).ok_or_else(|| DbError::NotBuilt {
            game: self.game,
            n: self.n,
            k,
            built: self.max_seeds().to_string(),
            dir: self.dir.clone(),
        })
    }

    /// The exact future gain of the side to move in `pos`, when its board
    /// has at most [`Database::max_seeds`] seeds (and the position is of
    /// this database's game and row length).
    #[inline]
    pub fn gain(&self, pos: &Position) -> Option<i32> {
        debug_assert_eq!(pos.n(), self.n);
        self.level(pos.board_seeds()).map(|l| l.gain(pos))
    }

    /// The value histogram of level `k`: `(gain, boards)` for every gain
    /// present, in increasing order.
    pub fn stats(&self, k: usize) -> Result<Vec<(i32, u64)>, DbError> {
        let level = self.require(k)?;
        Ok(histogram(level.bytes))
    }

    /// Checks level `k` against its own definition: every board's stored
    /// gain equals the best over its moves of the stored values (the
    /// terminal allocation for a finished game). Returns the number of
    /// boards that disagree, and the first few of them as text.
    pub fn verify<R: Rules>(&self, k: usize) -> Result<(u64, Vec<String>), DbError> {
        use rayon::prelude::*;
        let level = self.require(k)?;
        let n = self.n;
        let count = level.index.count();
        let bad: Vec<u64> = (0..count)
            .into_par_iter()
            .filter(|&r| {
                let mut board = [0u8; MAX_PITS];
                level.index.unrank(r, &mut board[..2 * n]);
                let pos = Position::from_board(n, &board[..2 * n]);
                let mut moves = MoveList::new();
                let best = match R::generate(&pos, &mut moves) {
                    Some(score) => final_gain(&pos, score),
                    None => moves
                        .iter()
                        .map(|(_, child)| {
                            let c = move_gain(&pos, child);
                            let g = self
                                .gain(child)
                                .expect("children have no more seeds than their parent");
                            if child.to_move() == pos.to_move() {
                                c + g
                            } else {
                                c - g
                            }
                        })
                        .max()
                        .expect("a position that is not over has a move"),
                };
                best != i32::from(level.bytes[r as usize] as i8)
            })
            .collect();
        let shown = bad
            .iter()
            .take(5)
            .map(|&r| {
                let mut board = [0u8; MAX_PITS];
                level.index.unrank(r, &mut board[..2 * n]);
                let pos = Position::from_board(n, &board[..2 * n]);
                format!("{pos}: stored {}", level.bytes[r as usize] as i8)
            })
            .collect();
        Ok((bad.len() as u64, shown))
    }
}

/// `(gain, count)` for every gain present in `bytes`, increasing.
pub fn histogram(bytes: &[u8]) -> Vec<(i32, u64)> {
    use rayon::prelude::*;
    let counts = bytes
        .par_chunks(1 << 20)
        .map(|chunk| {
            let mut c = [0u64; 256];
            for &b in chunk {
                c[usize::from(b)] += 1;
            }
            c
        })
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    let mut out: Vec<(i32, u64)> = (0..256)
        .filter(|&b| counts[b] > 0)
        .map(|b| (i32::from(b as u8 as i8), counts[b]))
        .collect();
    out.sort_unstable();
    out
}

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The directory of the level files (created if missing).
    pub dir: PathBuf,
    /// Memory the build may use, in bytes: the level being built (two
    /// bytes per board) plus the lower levels, which are mapped.
    pub memory_bytes: u64,
}

/// Bytes a build up to `max_seeds` needs at its peak: the largest level's
/// working memory plus every level below it.
pub fn peak_bytes(n: usize, max_seeds: usize) -> u64 {
    (0..=max_seeds)
        .map(|k| {
            let e = LevelId {
                game: Game::Kalah,
                n,
                k,
            }
            .entries();
            let below: u64 = (0..k)
                .map(|j| {
                    LevelId {
                        game: Game::Kalah,
                        n,
                        k: j,
                    }
                    .entries()
                })
                .sum();
            build::working_bytes(e) + below
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
pub fn build_all<R: Rules>(
    n: usize,
    max_seeds: usize,
    options: &BuildOptions,
    progress: &build::Progress,
    log: &(dyn Fn(String) + Sync),
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Database, DbError> {
    use std::sync::atomic::Ordering::Relaxed;
    if max_seeds > file::MAX_LEVEL_SEEDS {
        return Err(DbError::TooManySeeds);
    }
    std::fs::create_dir_all(&options.dir).map_err(|source| DbError::Dir {
        dir: options.dir.clone(),
        source,
    })?;
    let mut db = Database {
        game: R::GAME,
        n,
        dir: options.dir.clone(),
        levels: Vec::new(),
    };
    remove_stale_temporaries(&options.dir);
    let mut below = 0u64;
    for k in 0..=max_seeds {
        let id = LevelId {
            game: R::GAME,
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
        let need = build::working_bytes(entries) + below;
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
        file::write(&path, id, &gains)?;
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
