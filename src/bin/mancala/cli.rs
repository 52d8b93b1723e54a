//! The command-line interface: one file per subcommand, each an `Args`
//! struct and a `run` that validates all input before writing anything.

pub mod analyse;
pub mod apply;
pub mod completions;
pub mod db;
pub mod extend;
pub mod json;
pub mod moves;
pub mod openings;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod settle;
pub mod shortest;
pub mod show;
pub mod solve;

use clap::{Args, Parser, Subcommand};
use mancala::db::Tablebase;
use mancala::search::{Options, Solver};
use mancala::wide::{WideDakon, WidePosition};
use mancala::{MoveError, NotationError, Position, Variant, VariantError};
use std::io::Write;
use std::sync::Arc;
use thiserror::Error;

/// Exact solvers, endgame databases and analysis tools for mancala games.
#[derive(Debug, Parser)]
#[command(name = "mancala", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the legal moves of a position with the position after each.
    Moves(moves::Args),
    /// Play moves from a position and print the position they lead to.
    Apply(apply::Args),
    /// Draw a position on the terminal (or as an SVG picture).
    Show(show::Args),
    /// Count the move sequences of each length from a position.
    Perft(perft::Args),
    /// Solve a position exactly: its game value and a best move.
    Solve(solve::Args),
    /// The exact value of every legal move of a position.
    Analyse(analyse::Args),
    /// Endgame databases: build, stats, probe, verify.
    Db(db::Args),
    /// South's winning first turns (Dakon's winning openings), listed or
    /// counted.
    Openings(openings::Args),
    /// Positions mined from the endgame databases where exactly one move
    /// keeps the value, or the win takes long (kinds: sacrifice, unique,
    /// long).
    Puzzles(puzzles::Args),
    /// Play a game against the perfect player at the terminal (reads
    /// moves, hint, undo, quit from stdin).
    Play(play::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish,
    /// powershell).
    Completions(completions::Args),
}

/// What every command reads: the game and a position of it.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// The game: NAME or NAME:NxS (the names from the registry of games;
    /// e.g. dakon:5x5).
    #[arg(long, value_name = "GAME", help = game_help())]
    pub game: String,
    /// The position, e.g. "S 4,4,4/4,4,4 0-0" (default: the start position).
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
}

/// The help of `--game`, naming every registered game.
fn game_help() -> String {
    format!(
        "The game: NAME or NAME:NxS ({}; e.g. dakon:5x5)",
        mancala::Game::names()
    )
}

impl GameArgs {
    /// The variant and the position, validated.
    pub fn resolve(&self) -> Result<(Variant, Position), CliError> {
        let variant: Variant = self.game.parse()?;
        let pos = match &self.position {
            None => variant.start(),
            Some(text) => variant
                .parse_position(text)
                .map_err(|e| CliError::Position(text.clone(), e))?,
        };
        Ok((variant, pos))
    }
}

/// A game and position read from the command line: on the engine's board,
/// or, for Dakon beyond the engine's limits, on a wide board.
pub enum Resolved {
    /// Within the engine's limits.
    Narrow(Variant, Position),
    /// Dakon on a wide board.
    Wide(WideDakon, WidePosition),
}

impl GameArgs {
    /// The variant and the position, validated, on a wide board when the
    /// game is Dakon beyond the engine's limits (for the commands that
    /// take wide boards); other refusals are those of [`GameArgs::resolve`].
    pub fn resolve_any(&self) -> Result<Resolved, CliError> {
        let narrow = match self.resolve() {
            Ok((v, p)) => return Ok(Resolved::Narrow(v, p)),
            Err(e) => e,
        };
        let variant = match self.game.parse::<WideDakon>() {
            Ok(v) => v,
            // Not a Dakon board at all: the engine's refusal says why.
            Err(mancala::wide::WideError::Game(_)) => return Err(narrow),
            // Dakon past the wide board's limits too: say those limits,
            // not the engine's narrower ones.
            Err(e) => return Err(CliError::Wide(format!("bad --game {:?}: {e}", self.game))),
        };
        let pos = match &self.position {
            None => variant.start(),
            Some(text) => match variant.parse_position(text) {
                Ok(p) => p,
                Err(mancala::wide::WideError::Notation(_)) => return Err(narrow),
                Err(e) => return Err(CliError::Wide(format!("bad --position {text:?}: {e}"))),
            },
        };
        Ok(Resolved::Wide(variant, pos))
    }
}

/// How to search: threads, table memory, progress display.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Search threads (default: every core; 1 is deterministic).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Transposition table size in MiB, a ceiling: the table starts at
    /// 4 MiB and doubles as the search fills it (default 2048; never more
    /// than the position can use).
    #[arg(long, value_name = "MB", default_value_t = 2048, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub tt_mb: u64,
    /// Positions that can repeat a search may hold open at once before the
    /// solve gives up with an error (cyclic games; each costs about 150
    /// bytes until its cycles are settled).
    #[arg(long, alias = "level-limit", value_name = "POSITIONS", default_value_t = mancala::search::REGION_LIMIT, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4_000_000_000))]
    pub region_limit: usize,
    /// Stack of each search thread in MiB: the search goes one frame deeper
    /// a ply (about 270 bytes of stack, and 1.1 KB of memory besides for
    /// the node's moves and its open position), and in the games whose
    /// positions can repeat a path without a capture can be very long (4
    /// million plies fill 1024 MiB, and 4.5 GB besides); only the pages
    /// used are touched. A solve
    /// that needs more fails with an error saying so.
    #[arg(long, value_name = "MB", default_value_t = (mancala::search::DEFAULT_STACK_BYTES >> 20) as u64, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub stack_mb: u64,
    /// Games whose positions can repeat: each null-window test first
    /// searches to this many plies, counting a position beyond as lost for
    /// one side and then for the other, and farther each round (4 plies
    /// more up to 48, then a quarter more) until the answer does not
    /// depend on where it stopped (exact either way);
    /// 0 searches every path to its end at once, as deep as it goes.
    #[arg(long, value_name = "PLIES", default_value_t = mancala::search::DEFAULT_HORIZON, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=1_000_000_000))]
    pub horizon: usize,
    /// Probe the endgame databases built in DIR (`mancala db build`)
    /// instead of searching the boards they cover.
    #[arg(long, value_name = "DIR")]
    pub db: Option<std::path::PathBuf>,
    /// Games whose positions can repeat: when the position has more seeds
    /// than the databases hold (or there are none) and a search has not
    /// finished within a quarter of the estimated time of building the
    /// missing levels, build them in memory, within MB at the peak (and
    /// within --tt-mb; the table is smaller by what they keep, and is kept
    /// through the builds with what the searches before them proved), and
    /// probe them; when that build would take more than about 12 s or not fit,
    /// first the lowest levels that build within 12 s, in the same way,
    /// then, each time the search with the levels built so far has not
    /// finished within the estimate of every level to the next
    /// stage, the lowest within twice the seconds of the stage before, as
    /// long as they fit, and last the whole (after a quarter of what it
    /// adds). Kalah: when a search has not finished within half the
    /// estimated time, build the levels above the databases (from 0
    /// without them) that take about 2 s, and search again with them. 0:
    /// never. Default: the table's size (--tt-mb).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(0..=1_048_576))]
    pub extend_mb: Option<u64>,
    /// No progress display on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Stop after SECS seconds: print the bounds on the value proven so
    /// far and exit with status 3 (as Ctrl-C does).
    #[arg(long, value_name = "SECS", value_parser = seconds)]
    pub stop_after: Option<f64>,
    /// Print a line on stderr for each null-window search of the solve as
    /// it ends: the threshold asked, the horizon and the side it fails
    /// (games whose positions can repeat), the result, whether it answers
    /// the test, nodes and seconds.
    #[arg(long)]
    pub trace: bool,
}

/// A number of seconds: finite and not negative.
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!("{text:?} is not a number of seconds")),
    }
}

/// Sets its flag when dropped: the flag a watcher thread loops on (a
/// progress bar, a stop timer) is set when the work beside it returns *or
/// panics*. Set only by a plain store after the work, it stayed clear on a
/// panic, and the thread scope then waited forever for the watcher (a
/// panic of the first-turn search hung `solve --game dakon:1x3`).
pub struct SetOnDrop<'a>(pub &'a std::sync::atomic::AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Set by Ctrl-C (SIGINT) once the handler is installed: long searches stop
/// and report what they proved.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Installs the Ctrl-C handler (once per process).
fn catch_ctrl_c() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // If another handler is already installed, Ctrl-C keeps its
        // default effect (the process ends): nothing worse than before.
        // A second Ctrl-C ends the process at once, as usual.
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
                std::process::exit(130);
            }
        });
    });
}

impl SearchArgs {
    /// A solver for searches from `pos`: the table is no larger than the
    /// boards the position can reach could fill.
    pub fn solver(&self, variant: &Variant, pos: &Position) -> Result<Solver, CliError> {
        let db = self.database(variant, pos)?;
        self.solver_with(pos, db.map(|d| d as Arc<dyn Tablebase>), 0)
    }

    /// The databases of `--db` for `pos`, opened and checked.
    pub fn database(
        &self,
        variant: &Variant,
        pos: &Position,
    ) -> Result<Option<Arc<mancala::db::Database>>, CliError> {
        let Some(dir) = &self.db else { return Ok(None) };
        let db = mancala::db::Database::open(dir, variant.game().name(), pos.n(), true)?;
        Ok(Some(Arc::new(db)))
    }

    /// A solver for searches from `pos` probing `db`, with a table of
    /// `--tt-mb` less `less_bytes` (at least 1 MiB), no larger than the
    /// boards the position can reach could fill.
    pub fn solver_with(
        &self,
        pos: &Position,
        db: Option<Arc<dyn Tablebase>>,
        less_bytes: u64,
    ) -> Result<Solver, CliError> {
        self.solver_with_stack(pos, db, less_bytes, self.stack_bytes())
    }

    /// Search threads: `--threads`, by default every core.
    pub fn threads(&self) -> usize {
        self.threads
            .map_or_else(|| Options::default().threads, usize::from)
    }

    /// The stack of each search thread (`--stack-mb`), in bytes.
    pub fn stack_bytes(&self) -> usize {
        usize::try_from(self.stack_mb << 20).unwrap_or(usize::MAX)
    }

    /// [`Self::solver_with`], with `stack_bytes` of stack for each search
    /// thread instead of `--stack-mb`.
    pub fn solver_with_stack(
        &self,
        pos: &Position,
        db: Option<Arc<dyn Tablebase>>,
        less_bytes: u64,
        stack_bytes: usize,
    ) -> Result<Solver, CliError> {
        let boards = mancala::index::boards_up_to(2 * pos.n(), pos.board_seeds()).saturating_mul(2);
        let useful = boards.saturating_mul(2 * mancala::search::tt::ENTRY_BYTES as u128);
        let allowed = (self.tt_mb << 20).saturating_sub(less_bytes).max(1 << 20);
        let bytes = u128::from(allowed).min(useful).max(1 << 16);
        let mut options = Options {
            tt_bytes: bytes as usize,
            region_limit: self.region_limit,
            stack_bytes,
            horizon: self.horizon,
            ..Options::default()
        };
        options.threads = self.threads();
        let solver = Solver::new(options);
        let solver = match db {
            None => solver,
            Some(db) => solver.with_database(db),
        };
        if self.trace {
            solver.progress().record_tests();
        }
        Ok(solver)
    }

    /// Bytes the levels built in memory may take at the peak
    /// (`--extend-mb`, by default and at most `--tt-mb`); 0: never.
    pub fn extend_bytes(&self) -> u64 {
        self.extend_mb.unwrap_or(self.tt_mb).min(self.tt_mb) << 20
    }

    /// Whether the user asked the work begun at `begun` to stop: Ctrl-C, or
    /// `--stop-after` seconds past.
    pub fn stop_requested(&self, begun: std::time::Instant) -> bool {
        stop_due(self.stop_after, begun)
    }

    /// Whether progress is shown (stderr a terminal, not `--quiet`).
    pub fn shows_progress(&self) -> bool {
        use std::io::IsTerminal;
        !self.quiet && std::io::stderr().is_terminal()
    }

    /// Runs `work`, showing the solver's progress on stderr (nodes, rate,
    /// bounds on the value) when stderr is a terminal and not `--quiet`,
    /// and stopping the solve (`Progress::stop`) after `--stop-after` or on
    /// Ctrl-C.
    pub fn with_progress<T: Send>(
        &self,
        progress: std::sync::Arc<mancala::search::Progress>,
        work: impl FnOnce() -> T + Send,
    ) -> T {
        self.with_progress_within(progress, self.stop_after, work)
    }

    /// [`SearchArgs::with_progress`], stopping after `limit` seconds
    /// instead of `--stop-after`.
    pub fn with_progress_within<T: Send>(
        &self,
        progress: std::sync::Arc<mancala::search::Progress>,
        limit: Option<f64>,
        work: impl FnOnce() -> T + Send,
    ) -> T {
        use std::sync::atomic::Ordering::Relaxed;
        catch_ctrl_c();
        let show = self.shows_progress();
        let done = std::sync::atomic::AtomicBool::new(false);
        let start = std::time::Instant::now();
        let out = std::thread::scope(|scope| {
            if show {
                scope.spawn(|| progress_loop(&progress, &done));
            }
            scope.spawn(|| {
                while !done.load(Relaxed) {
                    if stop_due(limit, start) {
                        progress.stop();
                        return;
                    }
                    if !show {
                        print_tests(&progress, None);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
            });
            let _done = SetOnDrop(&done);
            work()
        });
        print_tests(&progress, None);
        out
    }
}

/// Whether work begun at `begun` must stop: Ctrl-C, or `limit` seconds
/// past.
fn stop_due(limit: Option<f64>, begun: std::time::Instant) -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed)
        || limit.is_some_and(|s| begun.elapsed().as_secs_f64() >= s)
}

fn progress_loop(p: &mancala::search::Progress, done: &std::sync::atomic::AtomicBool) {
    use std::sync::atomic::Ordering::Relaxed;
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
            .expect("valid template"),
    );
    let start = std::time::Instant::now();
    // Show nothing for solves that take only a moment.
    while !done.load(Relaxed) {
        std::thread::sleep(std::time::Duration::from_millis(100));
        if start.elapsed().as_millis() < 500 {
            continue;
        }
        let nodes = p.shared.nodes.load(Relaxed);
        let rate = nodes as f64 / start.elapsed().as_secs_f64();
        let (lo, hi) = (p.lower.load(Relaxed), p.upper.load(Relaxed));
        let bounds = if lo == i32::MIN {
            "..".to_string()
        } else {
            format!("{lo}..{hi}")
        };
        bar.set_message(format!(
            "{:.1} M nodes, {:.1} M nodes/s, value in {bounds}",
            nodes as f64 / 1e6,
            rate / 1e6
        ));
        print_tests(p, Some(&bar));
        bar.tick();
    }
    bar.finish_and_clear();
}

/// Prints the null-window searches `p` reported since the last call
/// (`--trace`; none unless asked), above `bar` when it is shown.
fn print_tests(p: &mancala::search::Progress, bar: Option<&indicatif::ProgressBar>) {
    for t in p.take_tests() {
        let line = test_line(&t);
        match bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }
}

/// One line of `--trace`: e.g. `South to move, g >= -3? horizon 40
/// failing South: yes, g >= -3; 43843186 nodes, 24.30 s`.
fn test_line(t: &mancala::search::TestReport) -> String {
    let horizon = match t.horizon {
        Some((plies, side)) => format!(" horizon {plies} failing {}", side.name()),
        None => String::new(),
    };
    let found = if t.result >= t.beta {
        format!("yes, g >= {}", t.result)
    } else {
        format!("no, g <= {}", t.result)
    };
    let answers = if t.answers {
        ""
    } else {
        " (leaned on the horizon: not an answer)"
    };
    format!(
        "{} to move, g >= {}?{horizon}: {found}{answers}; {} nodes, {:.2} s",
        t.to_move.name(),
        t.beta,
        t.nodes,
        t.seconds
    )
}

/// A command failure: bad input (exit status 2) or an output error.
#[derive(Debug, Error)]
pub enum CliError {
    /// A malformed game spec.
    #[error("bad --game: {0}")]
    Variant(#[from] VariantError),
    /// A malformed or impossible position.
    #[error("bad --position {0:?}: {1}")]
    Position(String, NotationError),
    /// A move that is not a move, or not legal.
    #[error("{0}")]
    Move(String),
    /// The solver could not finish.
    #[error("{0}")]
    Solve(mancala::search::SolveError),
    /// A database could not be opened, built or used.
    #[error("{0}")]
    Database(#[from] mancala::db::DbError),
    /// A database request that cannot be answered.
    #[error("{0}")]
    Db(String),
    /// A wide board, position or move that cannot be used.
    #[error("{0}")]
    Wide(String),
    /// An openings request that cannot be answered.
    #[error("{0}")]
    Openings(String),
    /// A puzzles request that cannot be answered.
    #[error("{0}")]
    Puzzles(String),
    /// Work stopped before its end, on request (exit status 3).
    #[error("{0}")]
    Incomplete(String),
    /// A file could not be written.
    #[error("cannot write {0}: {1}")]
    File(std::path::PathBuf, std::io::Error),
    /// Writing the output failed.
    #[error("cannot write the output: {0}")]
    Io(#[from] std::io::Error),
}

/// An error on one of several MPI ranks: printed with the rank, in one
/// write (so that the ranks' lines do not mix), and the run ended at once
/// with exit status 2 (`MPI_Abort`), since the other ranks would wait for
/// this one forever.
#[cfg(feature = "mpi")]
pub fn fail_on_rank(world: &mancala::db::mpi::World, e: CliError) -> ! {
    use mancala::db::ranks::Ranks;
    let line = format!("error: rank {} of {}: {e}\n", world.rank(), world.size());
    let _ = std::io::stderr().write_all(line.as_bytes());
    world.abort(2)
}

/// Writes `bytes` to `path` atomically ([`mancala::atomic_file`]): `path`
/// is never left partial.
pub fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), CliError> {
    mancala::atomic_file::write(path, &[bytes]).map_err(|e| CliError::File(path.to_path_buf(), e))
}

impl From<mancala::search::SolveError> for CliError {
    /// A solve stopped on request is incomplete work (exit status 3), with
    /// the bounds it proved; every other failure is an error.
    fn from(e: mancala::search::SolveError) -> CliError {
        match e {
            mancala::search::SolveError::Stopped { .. } => CliError::Incomplete(e.to_string()),
            e => CliError::Solve(e),
        }
    }
}

impl CliError {
    /// An illegal move with its place in the sequence.
    pub fn illegal(index: usize, pos: &Position, err: MoveError) -> CliError {
        CliError::Move(format!("move #{} in position \"{pos}\": {err}", index + 1))
    }
}

/// Runs a parsed command line, writing its output to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    match cli.command {
        Command::Moves(a) => moves::run(&a, out),
        Command::Apply(a) => apply::run(&a, out),
        Command::Show(a) => show::run(&a, out),
        Command::Perft(a) => perft::run(&a, out),
        Command::Solve(a) => solve::run(&a, out),
        Command::Analyse(a) => analyse::run(&a, out),
        Command::Db(a) => db::run(&a, out),
        Command::Openings(a) => openings::run(&a, out),
        Command::Puzzles(a) => puzzles::run(&a, out),
        Command::Completions(a) => completions::run(&a, out),
        Command::Play(a) => {
            use std::io::IsTerminal;
            let stdin = std::io::stdin();
            let echo = !stdin.is_terminal();
            play::run(&a, &mut stdin.lock(), echo, out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SetOnDrop;
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

    /// A watcher looping on the flag ends when the work beside it panics:
    /// the scope returns (with the panic) instead of waiting forever.
    #[test]
    fn a_watcher_ends_when_the_work_beside_it_panics() {
        let done = AtomicBool::new(false);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    while !done.load(Relaxed) {
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                });
                let _done = SetOnDrop(&done);
                panic!("the work fails");
            })
        }));
        assert!(result.is_err(), "the panic comes through the scope");
        assert!(done.load(Relaxed));
    }
}
