//! Puzzles mined from the endgame databases: positions with few seeds
//! where exactly one move keeps the position's value, or where the win
//! takes a long quiet manoeuvre: the kinds of position composed endgame
//! problems are made of.
//!
//! For every board of a level (South to move, nothing captured) the
//! databases give the position's value and the value of every move (the
//! children have no more seeds, so they are in the databases too). A
//! position is a puzzle when it has at least two moves and exactly one of
//! them keeps the value. It is listed as
//!
//! - a **sacrifice** ([`Kind::Sacrifice`]) when that move captures nothing
//!   and the opponent's best reply captures seeds: the winning move gives
//!   something away first;
//! - **long** ([`Kind::Long`]) when the side to move wins and, against the
//!   best defence, the first seed leaves the board only after at least a
//!   given number of plies;
//! - **unique** ([`Kind::Unique`]) otherwise.
//!
//! # Plies to the first capture
//!
//! The length of a forced line is measured as in chess endgame tables'
//! *depth to conversion*: the number of plies, both sides keeping the value
//! (playing only moves that keep the database value), until a move takes
//! seeds off the board (a capture, a store, a mid-sow four) or the game
//! ends. The winner hurries, the loser delays. [`capture_distances`]
//! computes it for every won or lost board of a level as the least fixed
//! point of
//!
//! - `d = 0` for a board whose game is over;
//! - `d = min` (winner) or `max` (loser) over the value-keeping moves of
//!   `1` for a move that leaves the level and `1 + d(child)` otherwise,
//!
//! layer by layer, as a breadth-first search from the captures: sweep `t`
//! gives distance `t` to the open boards where the winner has a
//! value-keeping move to a board of distance below `t` (or out of the
//! level), or where every value-keeping move of the loser does. A board
//! the loser can keep from a capture forever never resolves. This is the
//! retrograde analysis of chess tables' depth to mate, with the captures
//! for mates.
//! Drawn boards have no distance: a draw may be endless play.
//!
//! Puzzles are ranked sacrifices first, then long, then unique; within a
//! kind by plies to the first capture (longer first), then by value (wins
//! before draws), then by the number of moves that lose value (more ways to
//! go wrong).
//!
//! # Collections
//!
//! The submodules turn mined positions into puzzles a person would sit
//! down with: [`measures`] (what a player would judge: wrong and tempting
//! moves, decisions on the line, seeds, refutations), [`grade`] (a
//! difficulty grade and the filter for natural positions), [`family`]
//! (near-duplicates counted once), [`collection`] (choosing a spread of
//! grades from levels) and [`booklet`] (the Markdown pages and diagrams).

pub mod booklet;
pub mod collection;
pub mod family;
pub mod grade;
pub mod measures;

use crate::db::{canonical_rank, Database, DbError, Level};
use crate::games::{move_gain, Move, MoveList, Rules};
use crate::index::Indexer;
use crate::position::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

/// Why a position was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The only move that keeps the value captures nothing, and the
    /// opponent's best reply captures.
    Sacrifice,
    /// The side to move wins with its only value-keeping move, and the
    /// first capture is at least the asked number of plies away against
    /// the best defence.
    Long,
    /// Exactly one move keeps the value.
    Unique,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Sacrifice => "sacrifice",
            Kind::Unique => "unique",
            Kind::Long => "long",
        })
    }
}

/// A mined position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The position: South to move, nothing captured.
    pub position: Position,
    /// The only move that keeps the value.
    pub solution: Move,
    /// The position's game value (South's view).
    pub value: i32,
    /// Moves that lose value.
    pub wrong: usize,
    /// Plies to the first capture with best play (see the module docs);
    /// `None` for a draw, or when distances were not computed.
    pub plies: Option<u8>,
    /// The forced line to the first capture, starting with
    /// [`Puzzle::solution`]; empty when `plies` is `None`.
    pub line: Vec<Move>,
    /// Why it was chosen.
    pub kind: Kind,
}

/// What [`mine`] looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MineOptions {
    /// List won positions whose first capture is at least this many plies
    /// away as [`Kind::Long`]; `None` computes no distances at all (faster:
    /// one pass over the level instead of one sweep per ply).
    pub long: Option<u8>,
    /// The most puzzles of each kind kept, the best ones (the counts cover
    /// them all).
    pub keep: usize,
}

impl Default for MineOptions {
    fn default() -> Self {
        MineOptions {
            long: Some(10),
            keep: usize::MAX,
        }
    }
}

/// What a running [`mine`] reports, and how to stop it.
#[derive(Debug, Default)]
pub struct MineProgress {
    /// The distance sweep under way, from 1 (0 before the first).
    pub sweep: AtomicU64,
    /// Boards whose distance the previous sweep changed.
    pub changed: AtomicU64,
    /// Set to make [`mine`] and [`capture_distances`] return `None` as soon
    /// as they can.
    pub stop: AtomicBool,
}

/// No distance: a drawn board, a board the loser can keep from a capture
/// forever, or a distance beyond 254 plies.
pub const NO_DISTANCE: u8 = u8::MAX;

/// The value for the mover of `pos` of each of its `moves`, from the
/// databases.
fn move_values(db: &Database, pos: &Position, moves: &MoveList) -> Vec<i32> {
    moves
        .iter()
        .map(|(_, child)| {
            let g = db.gain(child).expect("children have no more seeds");
            let c = move_gain(pos, child);
            if child.to_move() == pos.to_move() {
                c + g
            } else {
                c - g
            }
        })
        .collect()
}

/// Whether the board of level `k` whose mover's gain is `g != 0` has its
/// distance `t` (see [`capture_distances`]): the winner has a value-keeping
/// move that leaves the level or reaches a board of distance below `t`;
/// for the loser, every value-keeping move does.
fn resolves_at(
    db: &Database,
    pos: &Position,
    g: i32,
    moves: &MoveList,
    t: u8,
    ix: &Indexer,
    dist: &[AtomicU8],
) -> bool {
    let k = ix.seeds();
    let values = move_values(db, pos, moves);
    let mut keeping = moves.iter().zip(&values).filter(|&(_, &v)| v == g);
    let mut sooner = |((_, child), _): (&(Move, Position), &i32)| {
        child.board_seeds() < k
            || dist[canonical_rank(ix, child) as usize].load(Ordering::Relaxed) < t
    };
    if g > 0 {
        keeping.any(&mut sooner)
    } else {
        keeping.all(&mut sooner)
    }
}

/// Boards per parallel chunk of a sweep.
const CHUNK: u64 = 1 << 14;

/// Plies to the first capture, with best play, of every board of level `k`
/// (South to move, by rank): `0` when the game is over, [`NO_DISTANCE`]
/// for drawn boards and those the loser can keep from a capture forever.
/// Computed by sweeps in parallel, one a ply (see the module docs and
/// the comment inside); a distance beyond 254 plies counts as none.
/// Returns `None` when stopped through `progress`.
pub fn capture_distances<R: Rules>(
    db: &Database,
    k: usize,
    progress: &MineProgress,
) -> Result<Option<Vec<u8>>, DbError> {
    let stop = &progress.stop;
    let level: Level<'_> = db.require(k)?;
    let n = db.n();
    let ix = level.index;
    let count = ix.count();
    let dist: Vec<AtomicU8> = (0..count).map(|_| AtomicU8::new(NO_DISTANCE)).collect();
    let chunks = count.div_ceil(CHUNK);
    // Sweep 0 gives the boards whose game is over distance 0; sweep t
    // gives distance t to the open boards that resolve with the distances
    // below t (`resolves_at`). A distance is set once and final: the
    // sweeps are the layers of a breadth-first search from the captures,
    // so each sweep only expands the boards still open. A sweep that sets
    // nothing ends the search: the next would see the same distances.
    for t in 0..NO_DISTANCE {
        progress.sweep.store(u64::from(t) + 1, Ordering::Relaxed);
        let set = (0..chunks)
            .into_par_iter()
            .map(|c| {
                if stop.load(Ordering::Relaxed) {
                    return 0u64;
                }
                let range = c * CHUNK..((c + 1) * CHUNK).min(count);
                let mut moves = MoveList::new();
                let mut set = 0;
                ix.walk(range, |r, board| {
                    let g = i32::from(level.bytes[r as usize] as i8);
                    if g == 0 || dist[r as usize].load(Ordering::Relaxed) != NO_DISTANCE {
                        return;
                    }
                    let pos = Position::from_board(n, board);
                    moves.clear();
                    let over = R::generate(&pos, &mut moves).is_some();
                    let now = if t == 0 {
                        over
                    } else {
                        !over && resolves_at(db, &pos, g, &moves, t, ix, &dist)
                    };
                    if now {
                        // Only this chunk's thread writes this board's.
                        dist[r as usize].store(t, Ordering::Relaxed);
                        set += 1;
                    }
                });
                set
            })
            .sum::<u64>();
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        progress.changed.store(set, Ordering::Relaxed);
        if set == 0 && t > 0 {
            break;
        }
    }
    Ok(Some(dist.into_iter().map(AtomicU8::into_inner).collect()))
}

/// The forced line from `pos` (level `k`, mover's gain `g != 0`) to the
/// first capture: the winner's moves reach it soonest, the loser's latest.
fn forced_line<R: Rules>(db: &Database, pos: &Position, k: usize, dist: &[u8]) -> Vec<Move> {
    let ix = db.require(k).expect("mined level").index;
    let mut line = Vec::new();
    let mut at = *pos;
    let mut moves = MoveList::new();
    while at.board_seeds() == k && line.len() < usize::from(NO_DISTANCE) {
        moves.clear();
        if R::generate(&at, &mut moves).is_some() {
            break;
        }
        let g = db.gain(&at).expect("in the databases");
        if g == 0 {
            break;
        }
        let values = move_values(db, &at, &moves);
        let d_of = |child: &Position| -> u8 {
            if child.board_seeds() < k {
                1
            } else {
                dist[canonical_rank(ix, child) as usize].saturating_add(1)
            }
        };
        let keeping = moves.iter().zip(&values).filter(|&(_, &v)| v == g);
        let pick = if g > 0 {
            keeping.min_by_key(|((_, c), _)| d_of(c))
        } else {
            keeping.max_by_key(|((_, c), _)| d_of(c))
        };
        let Some((&(m, child), _)) = pick else { break };
        line.push(m);
        at = child;
    }
    line
}

/// The order of puzzles: best first (see the module docs).
fn rank(a: &Puzzle, b: &Puzzle) -> std::cmp::Ordering {
    a.kind
        .cmp(&b.kind)
        .then(b.plies.cmp(&a.plies))
        .then(b.value.cmp(&a.value))
        .then(b.wrong.cmp(&a.wrong))
        .then(a.position.pits.cmp(&b.position.pits))
}

/// What [`mine`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mined {
    /// The best puzzles of each kind (at most [`MineOptions::keep`] of
    /// each), best first.
    pub puzzles: Vec<Puzzle>,
    /// How many puzzles of each kind the level holds, by [`Kind`] order:
    /// sacrifice, long, unique.
    pub counts: [u64; 3],
}

/// The best puzzles met so far, at most `keep` a kind once trimmed, and
/// how many of each kind were met.
#[derive(Default)]
struct Best {
    by_kind: [Vec<Puzzle>; 3],
    counts: [u64; 3],
}

impl Best {
    fn trim(&mut self, keep: usize) {
        for v in &mut self.by_kind {
            if v.len() > keep {
                v.sort_unstable_by(rank);
                v.truncate(keep);
            }
        }
    }

    fn push(&mut self, p: Puzzle, keep: usize) {
        let i = p.kind as usize;
        self.counts[i] += 1;
        self.by_kind[i].push(p);
        if self.by_kind[i].len() >= keep.saturating_mul(2).max(1024) {
            self.trim(keep);
        }
    }

    fn merge(mut self, other: Best, keep: usize) -> Best {
        for (i, v) in other.by_kind.into_iter().enumerate() {
            self.counts[i] += other.counts[i];
            self.by_kind[i].extend(v);
        }
        self.trim(keep);
        self
    }
}

/// The puzzles among the boards with `k` seeds: the best `options.keep`
/// of each kind, best first, and how many there are; `None` when stopped
/// through `progress`. Memory holds only the kept puzzles (and, with
/// `options.long`, one byte per board for the distances).
pub fn mine<R: Rules>(
    db: &Database,
    k: usize,
    options: MineOptions,
    progress: &MineProgress,
) -> Result<Option<Mined>, DbError> {
    let level = db.require(k)?;
    let n = db.n();
    let dist = match options.long {
        None => None,
        Some(_) => match capture_distances::<R>(db, k, progress)? {
            Some(d) => Some(d),
            None => return Ok(None),
        },
    };
    let dist = dist.as_deref();
    let ix = level.index;
    let count = ix.count();
    let keep = options.keep;
    let chunks = count.div_ceil(CHUNK);
    let best = (0..chunks)
        .into_par_iter()
        .fold(Best::default, |mut best, c| {
            if progress.stop.load(Ordering::Relaxed) {
                return best;
            }
            let range = c * CHUNK..((c + 1) * CHUNK).min(count);
            let mut moves = MoveList::new();
            ix.walk(range, |r, board| {
                let g = i32::from(level.bytes[r as usize] as i8);
                let pos = Position::from_board(n, board);
                moves.clear();
                if R::generate(&pos, &mut moves).is_some() || moves.len() < 2 {
                    return;
                }
                let values = move_values(db, &pos, &moves);
                let mut keeping = (0..values.len()).filter(|&i| values[i] == g);
                let (Some(only), None) = (keeping.next(), keeping.next()) else {
                    return;
                };
                let plies = dist
                    .map(|d| d[r as usize])
                    .filter(|&d| d != NO_DISTANCE && g != 0);
                let (solution, child) = moves[only];
                let long = matches!((options.long, plies), (Some(t), Some(p)) if g > 0 && p >= t);
                let kind = if is_sacrifice::<R>(db, &pos, &child) {
                    Kind::Sacrifice
                } else if long {
                    Kind::Long
                } else {
                    Kind::Unique
                };
                best.push(
                    Puzzle {
                        position: pos,
                        solution,
                        value: g,
                        wrong: values.len() - 1,
                        plies,
                        line: Vec::new(),
                        kind,
                    },
                    keep,
                );
            });
            best
        })
        .reduce(Best::default, |a, b| a.merge(b, keep));
    if progress.stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let mut best = best;
    best.trim(keep);
    let mut puzzles: Vec<Puzzle> = best.by_kind.into_iter().flatten().collect();
    puzzles.sort_unstable_by(rank);
    // The forced lines, for the kept puzzles only.
    if let Some(d) = dist {
        puzzles.par_iter_mut().for_each(|p| {
            if p.plies.is_some() {
                p.line = forced_line::<R>(db, &p.position, k, d);
                debug_assert_eq!(p.line.first(), Some(&p.solution));
            }
        });
    }
    Ok(Some(Mined {
        puzzles,
        counts: best.counts,
    }))
}

/// Whether the move from `pos` to `child` captures nothing, passes the
/// turn, and the opponent's best reply captures.
fn is_sacrifice<R: Rules>(db: &Database, pos: &Position, child: &Position) -> bool {
    if move_gain(pos, child) != 0 || child.to_move() == pos.to_move() {
        return false;
    }
    let mut replies = MoveList::new();
    if R::generate(child, &mut replies).is_some() {
        return false;
    }
    let reply_values = move_values(db, child, &replies);
    let top = reply_values.iter().copied().max().unwrap_or(i32::MIN);
    replies
        .iter()
        .zip(&reply_values)
        .any(|((_, c), &v)| v == top && move_gain(child, c) > 0)
}
