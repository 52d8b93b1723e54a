//! `mancala db`: build, inspect, probe and verify endgame databases.

use super::CliError;
use mancala::db::{self, build::Progress, BuildOptions, Database};
use mancala::{dispatch, Variant};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// The default database directory, relative to the working directory.
pub const DEFAULT_DIR: &str = "data/db";

/// Arguments of `db`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: DbCommand,
}

/// The `db` subcommands.
#[derive(Debug, clap::Subcommand)]
enum DbCommand {
    /// Build the databases of every seed count from 0 to --max-seeds
    /// (valid levels already in the directory are reused).
    Build(BuildArgs),
    /// The value histogram of one level: `VALUE<TAB>COUNT` per value.
    Stats(StatsArgs),
    /// The database value of one position.
    Probe(ProbeArgs),
    /// Check that every stored value is the best over the board's moves.
    Verify(VerifyArgs),
}

/// Which databases: the game (its row length) and the directory.
#[derive(Debug, clap::Args)]
struct Which {
    /// The game: NAME or NAME:NxS (only the row length N matters).
    #[arg(long, value_name = "GAME")]
    game: String,
    /// The database directory.
    #[arg(long, value_name = "DIR", default_value = DEFAULT_DIR)]
    dir: PathBuf,
}

impl Which {
    fn variant(&self) -> Result<Variant, CliError> {
        Ok(self.game.parse()?)
    }

    /// Opens the databases, every payload checksum checked (one pass over
    /// the files at memory speed: cheap beside any use of them).
    fn open(&self) -> Result<(Variant, Database), CliError> {
        let v = self.variant()?;
        let db = Database::open(&self.dir, v.game().name(), v.n(), true)?;
        Ok((v, db))
    }
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    #[command(flatten)]
    which: Which,
    /// The largest number of seeds on the board to build.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u16).range(0..=127))]
    max_seeds: u16,
    /// Memory the build may use, in MiB (the level being built takes two
    /// bytes per board, the levels below it one, the program about 6 MiB;
    /// a propagation over recorded edges takes a byte a board more for the
    /// bounds of its edges and up to 14 more for the edges, four bytes
    /// each, within this limit).
    #[arg(long, value_name = "MB", default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    memory: u64,
    /// Threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// How levels are computed: `propagate` propagates values back through
    /// the game's unmoves (Awari and Kalah have them), or else over the
    /// quiet moves recorded by two forward passes (the relay games); `sweep`
    /// sweeps the level until nothing changes (every game; the reference
    /// method); `auto` propagates where the game has cycles (over recorded
    /// edges only where the level fits in --memory) and sweeps otherwise.
    /// All write the same files.
    #[arg(long, value_name = "METHOD", default_value = "auto")]
    method: MethodArg,
    /// No progress display on stderr.
    #[arg(long)]
    quiet: bool,
    /// Print one JSON object at the end: {"game", "n", "max_seeds", "dir",
    /// "seconds", "peak_bytes" (announced), "max_resident_bytes" (measured,
    /// null where the system does not say)}.
    #[arg(long)]
    json: bool,
}

/// `--method` of `db build`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum MethodArg {
    Auto,
    Sweep,
    Propagate,
}

#[derive(Debug, clap::Args)]
struct StatsArgs {
    #[command(flatten)]
    which: Which,
    /// The level: seeds on the board.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(0..=127))]
    seeds: u16,
    /// Also draw the histogram as an SVG bar chart in FILE.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Print one JSON object: {"game", "n", "seeds", "boards", "values":
    /// [{"value", "count"}]}.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct ProbeArgs {
    #[command(flatten)]
    which: Which,
    /// The position.
    #[arg(long, value_name = "POSITION")]
    position: String,
    /// Print one JSON object: {"game", "position", "value", "gain"}.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    #[command(flatten)]
    which: Which,
    /// Only this level (default: every level present).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(0..=127))]
    seeds: Option<u16>,
    /// Print one JSON object: {"game", "n", "levels": [{"seeds", "wrong",
    /// "examples"}]} (still exit status 2 when a value is wrong).
    #[arg(long)]
    json: bool,
}

/// Runs a `db` subcommand.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    match &args.command {
        DbCommand::Build(a) => build(a, out),
        DbCommand::Stats(a) => {
            let (v, db) = a.which.open()?;
            let k = usize::from(a.seeds);
            let values = db.stats(k)?;
            if let Some(path) = &a.plot {
                let title = format!(
                    "{} with {} pits a row: boards with {k} seeds, South to move",
                    v.game(),
                    v.n()
                );
                super::write_file(path, mancala::svg::histogram(&title, &values).as_bytes())?;
            }
            if a.json {
                let list: Vec<_> = values
                    .iter()
                    .map(|&(value, count)| serde_json::json!({"value": value, "count": count}))
                    .collect();
                let doc = serde_json::json!({
                    "game": v.game().to_string(),
                    "n": v.n(),
                    "seeds": k,
                    "boards": values.iter().map(|&(_, c)| c).sum::<u64>(),
                    "values": list,
                });
                out.write_all(super::json::line(&doc).as_bytes())?;
            } else {
                for (value, count) in values {
                    writeln!(out, "{value}\t{count}")?;
                }
            }
            Ok(())
        }
        DbCommand::Probe(a) => {
            let v = a.which.variant()?;
            let pos = v
                .parse_position(&a.position)
                .map_err(|e| CliError::Position(a.position.clone(), e))?;
            if pos.n() != v.n() {
                return Err(CliError::Db(format!(
                    "the position has {} pits a row, the game {} pits",
                    pos.n(),
                    v.n()
                )));
            }
            let db = Database::open(&a.which.dir, v.game().name(), v.n(), true)?;
            let k = pos.board_seeds();
            let gain = db.gain(&pos).ok_or_else(|| {
                CliError::Db(format!(
                    "the position has {k} seeds on the board; the database holds up to {}",
                    db.max_seeds()
                ))
            })?;
            let value = pos.lead(pos.to_move()) + gain;
            if a.json {
                let doc = serde_json::json!({
                    "game": v.to_string(),
                    "position": pos.to_string(),
                    "value": value,
                    "gain": gain,
                });
                out.write_all(super::json::line(&doc).as_bytes())?;
            } else {
                writeln!(out, "value {value}\ngain {gain}")?;
            }
            Ok(())
        }
        DbCommand::Verify(a) => {
            let (v, db) = a.which.open()?;
            let levels: Vec<usize> = match a.seeds {
                Some(k) => vec![usize::from(k)],
                None => (0..=db.max_seeds()).collect(),
            };
            let mut wrong = 0;
            let mut report = Vec::new();
            for k in levels {
                let (bad, shown) = dispatch!(v.game(), R => db.verify::<R>(k))?;
                if a.json {
                    report.push(serde_json::json!({"seeds": k, "wrong": bad, "examples": shown}));
                } else {
                    writeln!(out, "level {k}\t{bad} wrong")?;
                    for s in shown {
                        writeln!(out, "  {s}")?;
                    }
                }
                wrong += bad;
            }
            if a.json {
                let doc =
                    serde_json::json!({"game": v.game().to_string(), "n": v.n(), "levels": report});
                out.write_all(super::json::line(&doc).as_bytes())?;
            }
            if wrong > 0 {
                return Err(CliError::Db(format!(
                    "{wrong} stored values disagree with their moves"
                )));
            }
            Ok(())
        }
    }
}

/// `db build`: on the ranks of MPI when built with the feature `mpi` and
/// started on several (`mpirun -n N`), else in this process. On several
/// ranks, an error in any is printed with its rank and ends them all
/// (exit status 2): the others would wait for it forever.
fn build(a: &BuildArgs, out: &mut dyn Write) -> Result<(), CliError> {
    #[cfg(feature = "mpi")]
    {
        use mancala::db::ranks::Ranks;
        if let Some(world) = mancala::db::mpi::World::init().filter(|w| w.size() > 1) {
            return match build_on(a, out, Some(&world)) {
                Ok(()) => Ok(()),
                Err(e) => super::fail_on_rank(&world, e),
            };
        }
    }
    build_on(a, out, None)
}

/// `db build` in this process (`ranks` is `None`) or as one of `ranks`
/// (only rank 0 reports).
fn build_on(
    a: &BuildArgs,
    out: &mut dyn Write,
    ranks: Option<&dyn db::ranks::Ranks>,
) -> Result<(), CliError> {
    let lead = ranks.is_none_or(|r| r.rank() == 0);
    let v = a.which.variant()?;
    let k = usize::from(a.max_seeds);
    let method = match a.method {
        MethodArg::Auto => db::Method::Auto,
        MethodArg::Sweep => db::Method::Sweep,
        MethodArg::Propagate => db::Method::Propagate,
    };
    // Per rank, on several.
    let size = ranks.map_or(1, |r| r.size());
    let peak =
        dispatch!(v.game(), R => db::peak_bytes_on::<R>(v.n(), k, method, a.memory << 20, size));
    let options = BuildOptions {
        dir: a.which.dir.clone(),
        memory_bytes: a.memory << 20,
        method,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.map_or(0, usize::from))
        .build()
        .map_err(|e| CliError::Db(format!("cannot start threads: {e}")))?;
    let quiet = a.quiet || !lead;
    let show = {
        use std::io::IsTerminal;
        !quiet && std::io::stderr().is_terminal()
    };
    if !quiet {
        let on = ranks.map_or(String::new(), |r| format!(" on each of {} ranks", r.size()));
        eprintln!(
            "building {} with {} pits a row, levels 0 to {k}: about {} MiB at the peak (limit {} MiB), {} threads{on}",
            v.game(),
            v.n(),
            peak.div_ceil(1 << 20),
            a.memory,
            pool.current_num_threads()
        );
    }
    let started = std::time::Instant::now();
    let progress = Progress::default();
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let bar = indicatif::ProgressBar::hidden();
    if show {
        bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {percent:>3}% {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
    }
    let log = |line: String| {
        if !quiet {
            bar.suspend(|| eprintln!("{line}"));
        }
    };
    let result = std::thread::scope(|scope| {
        if show {
            scope.spawn(|| {
                while !done.load(Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                    let entries = progress.entries.load(Relaxed);
                    bar.set_length(entries.max(1));
                    bar.set_position(progress.done.load(Relaxed));
                    bar.set_message(format!(
                        "level {}: pass {}, {} boards open",
                        progress.level.load(Relaxed),
                        progress.sweep.load(Relaxed),
                        progress.open.load(Relaxed)
                    ));
                }
                bar.finish_and_clear();
            });
        }
        let _done = super::SetOnDrop(&done);
        match ranks {
            None => pool.install(
                || dispatch!(v.game(), R => db::build_all::<R>(v.n(), k, &options, &progress, &log, &stop)),
            ),
            // MPI is called from this thread, which initialized it, and the
            // level's work runs on rayon's global pool, made like `pool`.
            Some(ranks) => {
                let _ = rayon::ThreadPoolBuilder::new()
                    .num_threads(pool.current_num_threads())
                    .build_global();
                dispatch!(v.game(), R => db::build_all_on::<R>(v.n(), k, &options, &progress, &log, &stop, ranks))
            }
        }
    })?;
    if !lead {
        return Ok(());
    }
    if a.json {
        let doc = serde_json::json!({
            "game": result.game().to_string(),
            "n": v.n(),
            "max_seeds": result.max_seeds(),
            "dir": a.which.dir.display().to_string(),
            "seconds": started.elapsed().as_secs_f64(),
            "peak_bytes": peak,
            "max_resident_bytes": mancala::mem::peak_resident_bytes(),
        });
        out.write_all(super::json::line(&doc).as_bytes())?;
        return Ok(());
    }
    writeln!(
        out,
        "built {} levels 0 to {} in {}",
        result.game(),
        result.max_seeds(),
        a.which.dir.display()
    )?;
    Ok(())
}
