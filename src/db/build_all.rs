//! Building a whole database: levels `0..=K` in order, each reused when a
//! valid file is present, built by [`super::propagate`] or [`super::build`]
//! ([`Method`]) within the memory allowed, and written atomically; on one
//! process or on several ranks ([`build_all_on`]).

use super::build::Solved;
use super::file::{self, LevelFile, LevelId};
use super::lock::DirLock;
use super::ranks::{Alone, Ranks};
use super::{build, edges, edges_on, propagate};
use super::{Database, DbError, Level};
use crate::games::Rules;
use crate::index::Indexer;
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
    /// The faster method for the game, as measured: propagation by unmoves
    /// ([`propagate`]) for the games that have an unmove generator
    /// ([`Rules::HAS_UNMOVES`]) and cycles ([`Rules::CYCLIC`]); propagation
    /// over recorded edges ([`edges`]) for the other games with cycles
    /// (relay sowing), when the level fits in the memory allowed (by sweeps
    /// otherwise); sweeps for the games without cycles. Measured: Awari
    /// level 17 took 55 sweeps (9.85 move generations a board) against
    /// one generation of moves and 0.93 of unmoves a board by propagation,
    /// 5x faster; Kalah, without cycles, takes 9 sweeps (1.38 generations
    /// a board), a little faster than propagating (1 + 1.00). Anywoli 2x12
    /// level 9 by recorded edges: one sweep (97% of the boards left open),
    /// 3.17 edges a board recorded, 1.97 move generations a board, 87 s
    /// against 415 s by 81 sweeps on the same shared machine; Akon and
    /// Djenon-abe (about 18 sweeps, 2.3 generations a board) gain less,
    /// Dakon (7 sweeps, 1.36) nothing: see `data/anywoli-db.md`.
    #[default]
    Auto,
    /// By sweeps ([`build`]) for every game: the reference method.
    Sweep,
    /// By propagation: through the unmoves where the game has them, over
    /// recorded edges otherwise.
    Propagate,
}

/// The way one level is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Way {
    /// [`build`].
    Sweep,
    /// [`propagate`].
    Unmoves,
    /// [`edges`], with this budget of bytes for the edges.
    Edges(u64),
}

impl Way {
    /// Builds level `k` in this process this way, from `lower` (levels
    /// `0..k`); `None` when stopped or when its memory cannot be had.
    pub(super) fn build<R: Rules>(
        self,
        n: usize,
        k: usize,
        lower: &[Level<'_>],
        progress: &build::Progress,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<Solved> {
        match self {
            Way::Sweep => build::build_level::<R>(n, k, lower, progress, stop),
            Way::Unmoves => propagate::build_level::<R>(n, k, lower, progress, stop),
            Way::Edges(budget) => edges::build_level::<R>(n, k, lower, progress, stop, budget),
        }
    }

    /// The working memory of a level of `entries` boards.
    fn working_bytes(self, entries: u64) -> u64 {
        match self {
            Way::Sweep => build::working_bytes(entries),
            Way::Unmoves => propagate::working_bytes(entries),
            Way::Edges(budget) => edges::working_bytes(entries, budget),
        }
    }
}

impl Method {
    /// Whether levels of `R` are built by propagation (by unmoves or over
    /// recorded edges).
    pub fn propagates<R: Rules>(self) -> bool {
        self.way::<R>(1, u64::MAX) != Way::Sweep
    }

    /// How a level of `entries` boards of `R` is built when it may take
    /// `memory` bytes of working memory: over recorded edges with what the
    /// memory leaves them ([`edges::edge_budget`]), and by sweeps, for
    /// [`Method::Auto`], when that is below
    /// [`edges::MIN_EDGE_BYTES_PER_BOARD`].
    fn way<R: Rules>(self, entries: u64, memory: u64) -> Way {
        let budget = edges::edge_budget(entries, memory);
        let by_edges = if edges::fits(entries) {
            Way::Edges(budget)
        } else {
            Way::Sweep
        };
        match self {
            Method::Sweep => Way::Sweep,
            Method::Propagate if R::HAS_UNMOVES => Way::Unmoves,
            Method::Propagate => by_edges,
            Method::Auto if !R::CYCLIC => Way::Sweep,
            Method::Auto if R::HAS_UNMOVES => Way::Unmoves,
            Method::Auto if budget >= edges::MIN_EDGE_BYTES_PER_BOARD * entries => by_edges,
            Method::Auto => Way::Sweep,
        }
    }
}

/// Bytes the program itself takes during a build, beside the levels: its
/// code, stacks and allocations (a build of a few boards peaks at a
/// resident set of about 4.4 MB), and [`MPI_BYTES`] when it is built with
/// MPI.
pub const PROGRAM_BYTES: u64 = (6 << 20) + MPI_BYTES;

/// Bytes the MPI library takes in a program built with the cargo feature
/// `mpi` (which initializes MPI even when run alone), 0 without: a build
/// of a few boards (Anywoli 2x4 to 3 seeds) peaked at a resident set of
/// 14.4 MiB in each of 2 ranks under Open MPI, and at 14.7 MiB alone,
/// against 4.8 MiB without the feature; and rank 0 of Anywoli 2x12 level 9
/// on 2 ranks at 285.8 MiB against 279 announced without this allowance.
pub const MPI_BYTES: u64 = if cfg!(feature = "mpi") { 12 << 20 } else { 0 };

/// Bytes a build up to `max_seeds` needs at its peak: the largest level's
/// working memory plus the levels below it that its moves reach (mapped,
/// and resident once read; those a move that takes
/// [`Rules::LEAST_TAKEN`] seeds or more can reach) plus
/// [`PROGRAM_BYTES`]. This is what `--memory` is checked
/// against, before each level is started; `tests/it/cli_db.rs` checks it
/// against the measured maximum resident set. With no memory limit: see
/// [`peak_bytes_within`] for the plan under one.
pub fn peak_bytes<R: Rules>(n: usize, max_seeds: usize, method: Method) -> u64 {
    peak_bytes_within::<R>(n, max_seeds, method, u64::MAX)
}

/// [`peak_bytes`] of a build allowed `memory_bytes`: [`Method::Auto`]
/// builds by sweeps the levels whose recorded edges would not fit
/// ([`edges`]), and so needs less.
pub fn peak_bytes_within<R: Rules>(
    n: usize,
    max_seeds: usize,
    method: Method,
    memory_bytes: u64,
) -> u64 {
    peak_bytes_on::<R>(n, max_seeds, method, memory_bytes, 1)
}

/// The most boards a level counts for in [`peak_bytes_on`]: far beyond
/// any level a machine could build, small enough that the sums of a plan
/// of up to [`file::MAX_LEVEL_SEEDS`] levels fit 64 bits.
const PLANNED_BOARDS: u64 = 1 << 50;

/// [`peak_bytes_within`] for each of `size` ranks of [`build_all_on`]:
/// what one rank takes, its share of the level (or the whole level's
/// bounds, for the levels built by sweeps) beside the lower levels.
pub fn peak_bytes_on<R: Rules>(
    n: usize,
    max_seeds: usize,
    method: Method,
    memory_bytes: u64,
    size: usize,
) -> u64 {
    // Counted at most `PLANNED_BOARDS` a level, so that an absurd
    // `max_seeds` (levels past 2^64 boards) gives a peak, not a panic or an
    // overflow: its first level too large then fails the build's check.
    level_needs::<R>(n, max_seeds, method, memory_bytes, size)
        .into_iter()
        .max()
        .unwrap_or(0)
}

/// The bytes one of `size` ranks needs to build each level of
/// `0..=max_seeds` by `method` within `memory_bytes`, the levels below it
/// mapped. Levels are counted at most [`PLANNED_BOARDS`] boards, so an
/// absurd `max_seeds` gives a need, not an overflow.
fn level_needs<R: Rules>(
    n: usize,
    max_seeds: usize,
    method: Method,
    memory_bytes: u64,
    size: usize,
) -> Vec<u64> {
    let entries =
        |k| Indexer::new(2 * n, k).map_or(PLANNED_BOARDS, |ix| ix.count().min(PLANNED_BOARDS));
    let sizes: Vec<u64> = (0..=max_seeds).map(entries).collect();
    (0..=max_seeds)
        .map(|k| {
            let below = read_below::<R>(&sizes, k);
            plan_on::<R>(method, sizes[k], below, memory_bytes, size).1
        })
        .collect()
}

/// Bytes of the lower levels a build of level `k` reads, of the levels of
/// `sizes` bytes (level `j` at `sizes[j]`, from 0 to at least `k - 1`):
/// those a move can lead to, `0..=k - LEAST_TAKEN` ([`Rules::LEAST_TAKEN`]).
/// They are mapped, and resident once read; the levels above them are
/// mapped but never read, so they take no memory (Awari's level 23, 273
/// MiB, while level 24 is built).
fn read_below<R: Rules>(sizes: &[u64], k: usize) -> u64 {
    sizes[..(k + 1).saturating_sub(R::LEAST_TAKEN)].iter().sum()
}

/// How a level of `entries` boards is built with the levels below it
/// taking `below` bytes, within `memory_bytes`, and the bytes it needs.
pub(super) fn plan<R: Rules>(
    method: Method,
    entries: u64,
    below: u64,
    memory_bytes: u64,
) -> (Way, u64) {
    let fixed = below + PROGRAM_BYTES;
    let way = method.way::<R>(entries, memory_bytes.saturating_sub(fixed));
    (way, way.working_bytes(entries) + fixed)
}

/// [`plan`] for one of `size` ranks, each holding its share of the level:
/// by unmoves where one process would propagate by unmoves; over recorded
/// edges distributed over the ranks ([`edges_on`]) where one process
/// would record edges, with the budget of edges that the memory leaves a
/// share (and, for [`Method::Auto`], by sweeps when that is below
/// [`edges::MIN_EDGE_BYTES_PER_BOARD`] a board of the share); by sweeps
/// otherwise, each rank then holding the whole level's bounds, except
/// that [`Method::Auto`] records distributed edges where those bounds
/// would not fit `memory_bytes` and the edges do (Kalah).
fn plan_on<R: Rules>(
    method: Method,
    entries: u64,
    below: u64,
    memory_bytes: u64,
    size: usize,
) -> (Way, u64) {
    if size == 1 {
        return plan::<R>(method, entries, below, memory_bytes);
    }
    let fixed = below + PROGRAM_BYTES;
    let share = entries.div_ceil(size as u64);
    let sweep = (Way::Sweep, Way::Sweep.working_bytes(entries) + fixed);
    let budget = edges_on::edge_budget(share, memory_bytes.saturating_sub(fixed));
    let by_edges = (
        Way::Edges(budget),
        edges_on::working_bytes(share, budget) + fixed,
    );
    let enough_edges = budget >= edges::MIN_EDGE_BYTES_PER_BOARD * share;
    match method.way::<R>(share, u64::MAX) {
        Way::Unmoves => (Way::Unmoves, Way::Unmoves.working_bytes(share) + fixed),
        Way::Edges(_) if edges::fits(entries) => {
            if method == Method::Auto && !enough_edges {
                sweep
            } else {
                by_edges
            }
        }
        // Kalah (no cycles): the sweeps are its fastest method, but on
        // ranks each holds the whole level's bounds; where those do not
        // fit a rank's memory, its edges distributed over the ranks do.
        Way::Sweep
            if method == Method::Auto
                && sweep.1 > memory_bytes
                && edges::fits(entries)
                && enough_edges
                && by_edges.1 <= memory_bytes =>
        {
            by_edges
        }
        _ => sweep,
    }
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
    build_all_on::<R>(n, max_seeds, options, progress, log, stop, &Alone)
}

/// [`build_all`] on several ranks, every one of which calls it with the
/// same arguments (`options.dir` a directory they all see): rank 0 holds
/// the lock, decides which levels are reused, and writes every level
/// file, atomically, from the shares the ranks computed
/// ([`propagate::build_level_on`], [`edges_on::build_level_on`],
/// [`build::build_level_on`]) and send it piece by piece; the other ranks
/// then map the new level like rank 0. Only rank 0 calls `log`.
/// `memory_bytes` is per rank: the share of the level a rank builds (by
/// unmoves or over recorded edges; the whole level's bounds by sweeps)
/// plus the lower levels plus the program. An error leaves the other
/// ranks waiting in a collective step: the caller must end them (see
/// [`super::ranks`]).
pub fn build_all_on<R: Rules>(
    n: usize,
    max_seeds: usize,
    options: &BuildOptions,
    progress: &build::Progress,
    log: &(dyn Fn(String) + Sync),
    stop: &std::sync::atomic::AtomicBool,
    ranks: &dyn Ranks,
) -> Result<Database, DbError> {
    use std::sync::atomic::Ordering::Relaxed;
    let lead = ranks.rank() == 0;
    let log = |line: String| {
        if lead {
            log(line)
        }
    };
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
    // Held (by rank 0) until this function returns (or the process dies):
    // nothing below touches the directory before it is ours (see
    // `super::lock`).
    let _lock = if lead {
        Some(DirLock::acquire(&options.dir)?)
    } else {
        None
    };
    let mut db = Database {
        game: R::NAME,
        n,
        dir: options.dir.clone(),
        levels: Vec::new(),
    };
    if lead {
        remove_stale_temporaries(&options.dir);
    }
    // Before anything is built: the first level without a file that would
    // not fit `--memory` fails the build now, not after hours of building
    // the levels below it. (A level whose file exists needs no memory if
    // the file is valid; one found invalid is still checked at its turn,
    // below.) Rank 0 looks; every rank learns it.
    let needs = level_needs::<R>(
        n,
        max_seeds,
        options.method,
        options.memory_bytes,
        ranks.size(),
    );
    let over = if lead {
        (0..=max_seeds).find(|&k| {
            let id = LevelId {
                game: R::NAME,
                n,
                k,
            };
            needs[k] > options.memory_bytes && !options.dir.join(id.file_name()).exists()
        })
    } else {
        None
    };
    let over = ranks.or(over.map_or(0, |k| k as u32 + 1));
    if over != 0 {
        let k = over as usize - 1;
        return Err(DbError::Memory {
            k,
            need: needs[k].div_ceil(1 << 20),
            limit: options.memory_bytes >> 20,
        });
    }
    let mut sizes = Vec::with_capacity(max_seeds + 1);
    for k in 0..=max_seeds {
        let id = LevelId {
            game: R::NAME,
            n,
            k,
        };
        let path = options.dir.join(id.file_name());
        let entries = id.entries();
        // A valid file is reused; an invalid one is rebuilt (and replaced).
        // Rank 0 decides, having checked the payload.
        let mut valid = None;
        if lead && path.exists() {
            valid = LevelFile::open(&path, id, true).ok();
        }
        if ranks.or(u32::from(valid.is_some())) != 0 {
            let f = match valid {
                Some(f) => f,
                None => LevelFile::open(&path, id, false)?,
            };
            log(format!("level {k}: {entries} boards, valid file reused"));
            db.push(f);
            sizes.push(entries);
            continue;
        }
        let size = ranks.size();
        let below = read_below::<R>(&sizes, k);
        let (way, need) = plan_on::<R>(options.method, entries, below, options.memory_bytes, size);
        if need > options.memory_bytes {
            return Err(DbError::Memory {
                k,
                need: need.div_ceil(1 << 20),
                limit: options.memory_bytes >> 20,
            });
        }
        progress.level.store(k as u64, Relaxed);
        // What this rank passes over: about its share, on several ranks.
        progress
            .entries
            .store(entries.div_ceil(size as u64), Relaxed);
        progress.sweep.store(0, Relaxed);
        progress.generated.store(0, Relaxed);
        progress.unmoved.store(0, Relaxed);
        progress.sweeps_before.store(0, Relaxed);
        progress.first_open.store(0, Relaxed);
        progress.edges.store(0, Relaxed);
        progress.fallback.store(false, Relaxed);
        progress.sent.store(0, Relaxed);
        let start = std::time::Instant::now();
        let gains = {
            let lower: Vec<Level<'_>> = (0..k).map(|j| db.level(j).expect("built")).collect();
            match way {
                Way::Sweep => build::build_level_on::<R>(n, k, &lower, progress, stop, ranks),
                Way::Unmoves => propagate::build_level_on::<R>(n, k, &lower, progress, stop, ranks),
                Way::Edges(budget) if size == 1 => {
                    edges::build_level::<R>(n, k, &lower, progress, stop, budget)
                }
                Way::Edges(budget) => {
                    // When the edges do not fit, the sweeps on ranks, if
                    // the whole level's bounds fit what was announced.
                    let sweeps_fit =
                        Way::Sweep.working_bytes(entries) + below + PROGRAM_BYTES <= need;
                    edges_on::build_level_on::<R>(
                        n, k, &lower, progress, stop, budget, sweeps_fit, ranks,
                    )
                }
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
        write_level(&path, id, &gains, ranks)?;
        drop(gains);
        // The file is complete when rank 0 says so (it has renamed it).
        ranks.or(0);
        db.push(LevelFile::open(&path, id, false)?);
        // What every rank did, for the log of rank 0.
        let sent = ranks.sum(progress.sent.load(Relaxed));
        if size > 1 {
            for x in [&progress.generated, &progress.unmoved] {
                x.store(ranks.sum(x.load(Relaxed)), Relaxed);
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        let per_board = |x: &std::sync::atomic::AtomicU64| x.load(Relaxed) as f64 / entries as f64;
        let how = match way {
            Way::Unmoves => format!(
                "propagation: {} rounds, moves generated {:.2} and unmoves {:.2} times a board",
                progress.sweep.load(Relaxed),
                per_board(&progress.generated),
                per_board(&progress.unmoved)
            ),
            Way::Edges(_) if !progress.fallback.load(Relaxed) => format!(
                "{} sweeps, then {:.3} of the boards open and {:.3} edges a board recorded, {} rounds in all; moves generated {:.2} times a board",
                progress.sweeps_before.load(Relaxed),
                per_board(&progress.first_open),
                per_board(&progress.edges),
                progress.sweep.load(Relaxed),
                per_board(&progress.generated)
            ),
            Way::Edges(_) if size > 1 => format!(
                "the edges did not fit their budget on some rank: {} sweeps, moves generated {:.2} times a board",
                progress.sweep.load(Relaxed),
                per_board(&progress.generated)
            ),
            Way::Edges(_) => format!(
                "{} sweeps (done before the edges fit), moves generated {:.2} times a board",
                progress.sweep.load(Relaxed),
                per_board(&progress.generated)
            ),
            Way::Sweep => format!(
                "{} sweeps, moves generated {:.2} times a board",
                progress.sweep.load(Relaxed),
                per_board(&progress.generated)
            ),
        };
        let on = if size > 1 {
            format!(
                "; on {size} ranks, {:.1} MB sent between them",
                sent as f64 / 1e6
            )
        } else {
            String::new()
        };
        log(format!(
            "level {k}: {entries} boards built in {seconds:.2} s ({:.2} M boards/s; {how}{on})",
            entries as f64 / seconds.max(1e-9) / 1e6
        ));
        sizes.push(entries);
    }
    Ok(db)
}

/// Writes the level `id` to `path` atomically ([`file::write_with`]) from
/// the shares of `ranks`: rank 0 writes the file, the payload's pieces it
/// holds from its own `gains` and the others received from their owners;
/// every other rank sends its `gains`' share, cut where the pieces of
/// [`file::write_with`] are cut ([`file::WRITE_PIECE`] bytes from the
/// start), in order, which is the order in which rank 0 asks for them.
fn write_level(path: &Path, id: LevelId, gains: &Solved, ranks: &dyn Ranks) -> Result<(), DbError> {
    let part = gains.part();
    // Every share ends where the next begins: rank `q` has
    // `ends[q - 1]..ends[q]` (from 0 for rank 0).
    let ends = ranks.gather(part.end);
    if ranks.rank() == 0 {
        file::write_with(path, id, &mut |start, out| {
            let end = start + out.len() as u64;
            let mut at = start;
            while at < end {
                let q = ends.partition_point(|&e| e <= at);
                let to = ends[q].min(end);
                let piece = &mut out[(at - start) as usize..(to - start) as usize];
                if q == 0 {
                    gains.fill(at, piece);
                } else {
                    ranks.receive(q, piece);
                }
                at = to;
            }
        })?;
    } else {
        let entries = id.entries();
        let mut buf = vec![0u8; file::WRITE_PIECE];
        let mut start = 0;
        while start < entries {
            let end = (start + file::WRITE_PIECE as u64).min(entries);
            let (from, to) = (start.max(part.start), end.min(part.end));
            if from < to {
                let piece = &mut buf[..(to - from) as usize];
                gains.fill(from, piece);
                ranks.send(0, piece);
            }
            start = end;
        }
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Anywoli, Awari, Kalah};

    /// What a rank announces: on several ranks, its share of a level built
    /// by unmoves (so less than one process), and its share of a level
    /// built over recorded edges (its boards' words and bounds, the edges
    /// into them and buffers: [`edges_on::working_bytes`]), the fewer
    /// bytes the more ranks; on one rank, the plan of one process.
    #[test]
    fn each_rank_announces_its_own_peak() {
        let (max, mem) = (20, u64::MAX);
        let alone = peak_bytes_within::<Awari>(6, max, Method::Auto, mem);
        assert_eq!(peak_bytes_on::<Awari>(6, max, Method::Auto, mem, 1), alone);
        let two = peak_bytes_on::<Awari>(6, max, Method::Auto, mem, 2);
        let four = peak_bytes_on::<Awari>(6, max, Method::Auto, mem, 4);
        assert!(four < two && two < alone, "{four} {two} {alone}");
        let sizes: Vec<u64> = (0..=9)
            .map(|k| Indexer::new(24, k).unwrap().count())
            .collect();
        let below = read_below::<Anywoli>(&sizes, 9) + PROGRAM_BYTES;
        let share = sizes[9].div_ceil(3);
        let budget = edges::MAX_EDGE_BYTES_PER_BOARD * share;
        let want = edges_on::working_bytes(share, budget) + below;
        assert_eq!(
            plan_on::<Anywoli>(Method::Auto, sizes[9], below - PROGRAM_BYTES, mem, 3),
            (Way::Edges(budget), want)
        );
        let three = peak_bytes_on::<Anywoli>(12, 9, Method::Auto, mem, 3);
        assert_eq!(three, want);
        let alone = peak_bytes_within::<Anywoli>(12, 9, Method::Auto, mem);
        let six = peak_bytes_on::<Anywoli>(12, 9, Method::Auto, mem, 6);
        assert!(six < three && three < alone, "{six} {three} {alone}");
        // The words, bounds and edges of a share, 19 bytes a board of it,
        // the block offsets, the buffers and MPI's copies: some 21.3.
        assert!(want - below < 22 * share, "{} {share}", want - below);
        // Levels past 2^64 boards: a peak beyond any memory, no overflow.
        let absurd = peak_bytes_within::<Anywoli>(12, file::MAX_LEVEL_SEEDS, Method::Auto, mem);
        assert!(absurd > PLANNED_BOARDS, "{absurd}");
    }

    /// Kalah on ranks: by sweeps (its fastest method) while a rank holds
    /// the whole level's bounds, over distributed edges when it does not;
    /// one process always sweeps.
    #[test]
    fn kalah_on_ranks_records_edges_where_the_sweeps_do_not_fit() {
        let entries = Indexer::new(12, 24).unwrap().count();
        let sweep_need = Way::Sweep.working_bytes(entries) + PROGRAM_BYTES;
        let roomy = plan_on::<Kalah>(Method::Auto, entries, 0, u64::MAX, 2);
        assert_eq!(roomy, (Way::Sweep, sweep_need));
        // A share's edges take some 20 bytes a board of the share, the
        // sweeps 2 a board of the level: on 16 ranks, a memory just short
        // of the whole bounds holds a share's edges.
        let tight = sweep_need - 1;
        let (way, need) = plan_on::<Kalah>(Method::Auto, entries, 0, tight, 16);
        assert!(matches!(way, Way::Edges(_)), "{way:?}");
        assert!(need <= tight, "{need} {tight}");
        assert_eq!(
            plan_on::<Kalah>(Method::Auto, entries, 0, tight, 1).0,
            Way::Sweep
        );
        // Too few ranks, or too little memory, for the edges: the sweeps
        // are announced (and refused).
        assert_eq!(
            plan_on::<Kalah>(Method::Auto, entries, 0, tight, 2).0,
            Way::Sweep
        );
        assert_eq!(
            plan_on::<Kalah>(Method::Auto, entries, 0, 1 << 20, 16).0,
            Way::Sweep
        );
    }
}
