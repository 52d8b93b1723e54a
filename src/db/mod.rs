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
//! one byte per board ([`mod@file`]). The tests check the symmetry with the
//! solver on random positions of every game.
//!
//! Levels are built from `k = 0` upwards ([`build`]), since a capture only
//! lowers `k`: the moves that leave a level reach levels already built.

pub mod build;
pub mod build_all;
pub mod edges;
pub mod edges_on;
pub mod extend;
pub mod file;
pub mod lock;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod probe;
pub mod propagate;
pub mod ranks;
pub mod stats;
#[cfg(test)]
mod threads;
pub mod verify;

use file::FileError;
use std::path::PathBuf;
use thiserror::Error;

pub use build_all::{
    build_all, build_all_on, peak_bytes, peak_bytes_on, peak_bytes_within, BuildOptions, Method,
    MPI_BYTES, PROGRAM_BYTES,
};
pub use probe::{canonical_board, canonical_rank, Database, Level, Tablebase};
pub use stats::histogram;

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
        game: &'static str,
        /// Pits per row.
        n: usize,
        /// The directory searched.
        dir: PathBuf,
    },
    /// The level asked for is not built.
    #[error("level {k} of {game} with {n} pits a row is not in {dir} (built up to {built})")]
    NotBuilt {
        /// The game.
        game: &'static str,
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
    #[error("level {k} needs about {need} MiB (two bytes per board while it is built, plus the lower levels mapped, plus the program), more than the allowed {limit} MiB (--memory)")]
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
    /// Another build holds the directory's lock ([`lock`]).
    #[error("{dir}: another build is running in this directory (it holds the lock {lock}); wait for it to finish or build elsewhere", lock = lock::LOCK_FILE)]
    Busy {
        /// The directory.
        dir: PathBuf,
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
