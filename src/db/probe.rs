//! Reading databases: the levels of one game and row length, memory-mapped,
//! and the exact gain of any board they cover.
//!
//! This is all the search needs of the databases: it holds them as a
//! [`Tablebase`] (the way chess engines hold an endgame prober), so the
//! search depends on this file alone, and the building, verifying and
//! statistics of databases, which sit above the search, on it too.

use super::file::{self, LevelFile, LevelId};
use super::DbError;
use crate::index::Indexer;
use crate::position::{Position, MAX_PITS};
use crate::side::Side;
use std::path::{Path, PathBuf};

/// Exact future gains of every board with at most
/// [`Tablebase::max_seeds`] seeds, for one game and row length: what a
/// search probes instead of searching those boards.
pub trait Tablebase: Send + Sync + std::fmt::Debug {
    /// The game.
    fn game(&self) -> &'static str;
    /// Pits per row.
    fn n(&self) -> usize;
    /// The most seeds on the board a probe answers for (every board with
    /// at most that many seeds is covered).
    fn max_seeds(&self) -> usize;
    /// The byte holding the exact future gain of the side to move in
    /// `pos` (of this game and row length), as a two's complement `i8`, or
    /// `None` when its board has more than [`Tablebase::max_seeds`] seeds.
    /// The search takes the place once, starts its load
    /// ([`crate::mem::prefetch`]) for every child of a node, and reads the
    /// bytes after, so that the loads overlap.
    fn entry(&self, pos: &Position) -> Option<&u8>;
    /// The exact future gain of the side to move in `pos` (of this game
    /// and row length), or `None` when its board has more than
    /// [`Tablebase::max_seeds`] seeds.
    #[inline]
    fn gain(&self, pos: &Position) -> Option<i32> {
        self.entry(pos).map(|&b| i32::from(b as i8))
    }
}

impl Tablebase for Database {
    fn game(&self) -> &'static str {
        self.game
    }
    fn n(&self) -> usize {
        self.n
    }
    fn max_seeds(&self) -> usize {
        Database::max_seeds(self)
    }
    #[inline]
    fn entry(&self, pos: &Position) -> Option<&u8> {
        self.level(pos.board_seeds())
            .map(|l| &l.bytes[l.index_of(pos)])
    }
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
    pub(super) game: &'static str,
    pub(super) n: usize,
    pub(super) dir: PathBuf,
    pub(super) levels: Vec<(Indexer, LevelFile)>,
}

impl Database {
    /// Opens the levels `0, 1, ...` of `game` with `n` pits a row found in
    /// `dir`, up to the first missing one. An invalid file is an error,
    /// never skipped; `verify` also checks every payload checksum.
    pub fn open(
        dir: &Path,
        game: &'static str,
        n: usize,
        verify: bool,
    ) -> Result<Database, DbError> {
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

    pub(super) fn push(&mut self, f: LevelFile) {
        let ix = Indexer::new(2 * self.n, f.id().k).expect("levels are below 2^64 boards");
        self.levels.push((ix, f));
    }

    /// The game.
    pub fn game(&self) -> &'static str {
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
}
