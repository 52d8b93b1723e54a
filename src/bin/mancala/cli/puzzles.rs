//! `mancala puzzles`: positions mined from the endgame databases where
//! exactly one move keeps the value, or where the win takes long.

use super::CliError;
use mancala::db::Database;
use mancala::puzzles::collection::CollectOptions;
use mancala::puzzles::{Kind, MineOptions, MineProgress};
use mancala::{dispatch, Variant};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Arguments of `puzzles`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: NAME or NAME:NxS (only the row length N matters).
    #[arg(long, value_name = "GAME")]
    game: String,
    /// Seeds on the board: the database level to mine. With --collection,
    /// several levels: A..B or A,B,C.
    #[arg(long, value_name = "K", value_parser = levels)]
    seeds: Levels,
    /// The database directory (`mancala db build`).
    #[arg(long, value_name = "DIR", default_value = super::db::DEFAULT_DIR)]
    dir: PathBuf,
    /// The most puzzles printed.
    #[arg(long, value_name = "L", default_value_t = 20, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000_000))]
    limit: usize,
    /// Also list won positions whose first capture is at least PLIES plies
    /// away against the best defence ("long"). Measuring takes one sweep of
    /// the level per ply; 0 measures nothing (one pass, no PLIES or LINE).
    #[arg(long, value_name = "PLIES", default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=254))]
    long: u8,
    /// Append two columns: PLIES, the plies to the first capture with best
    /// play, and LINE, that forced line (`-` when not measured).
    #[arg(long)]
    line: bool,
    /// Print one JSON array of {"position", "move", "value", "kind",
    /// "plies", "line"} objects ("plies" null when not measured).
    #[arg(long)]
    json: bool,
    /// Print the best L of each kind, not the best L in all.
    #[arg(long)]
    each: bool,
    /// List only puzzles of this kind.
    #[arg(long, value_name = "KIND")]
    kind: Option<KindArg>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// No progress display on stderr.
    #[arg(long)]
    quiet: bool,
    /// Write a collection instead of the listing: a Markdown booklet
    /// (README.md, solutions.md) with one SVG diagram per puzzle, graded
    /// from easy to expert, natural positions only, one puzzle per family
    /// of near-duplicates. DIR is replaced as a whole.
    #[arg(long, value_name = "DIR")]
    collection: Option<PathBuf>,
    /// With --collection: the puzzles of each grade taken from each level.
    #[arg(long, value_name = "N", default_value_t = 6, requires = "collection", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000))]
    per_grade: usize,
    /// With --collection: the most candidates of a level measured (a fixed
    /// pseudo-random sample beyond).
    #[arg(long, value_name = "N", default_value_t = 200_000, requires = "collection", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000_000))]
    sample: usize,
}

/// Database levels, as `--seeds` gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Levels(Vec<usize>);

/// Parses `K`, `A..B` or `A,B,C` (each at most 127, a range not empty).
fn levels(text: &str) -> Result<Levels, String> {
    let bad = || format!("{text:?} is not a level: K, A..B or A,B,C with K at most 127");
    let one = |t: &str| -> Result<usize, String> {
        match t.trim().parse::<usize>() {
            Ok(k) if k <= 127 => Ok(k),
            _ => Err(bad()),
        }
    };
    let v: Vec<usize> = if let Some((a, b)) = text.split_once("..") {
        let (a, b) = (one(a)?, one(b)?);
        if a > b {
            return Err(bad());
        }
        (a..=b).collect()
    } else {
        text.split(',').map(one).collect::<Result<_, _>>()?
    };
    Ok(Levels(v))
}

/// The kinds of puzzle, as `--kind` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum KindArg {
    /// The only value-keeping move captures nothing and a best reply does.
    Sacrifice,
    /// Exactly one move keeps the value.
    Unique,
    /// A win whose first capture is at least `--long` plies away.
    Long,
}

impl KindArg {
    fn kind(self) -> Kind {
        match self {
            KindArg::Sacrifice => Kind::Sacrifice,
            KindArg::Unique => Kind::Unique,
            KindArg::Long => Kind::Long,
        }
    }
}

/// Prints `POSITION<TAB>MOVE<TAB>VALUE<TAB>KIND` per puzzle, best first
/// (with `--line` also `<TAB>PLIES<TAB>LINE`, `-` when not measured).
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let v: Variant = args.game.parse()?;
    let db = Database::open(&args.dir, v.game().name(), v.n(), true)?;
    for &k in &args.seeds.0 {
        db.require(k)?;
    }
    if let Some(dir) = &args.collection {
        return collection(args, &v, &db, dir);
    }
    let k = match args.seeds.0[..] {
        [k] => k,
        _ => {
            return Err(CliError::Puzzles(
                "a listing takes one level (--seeds K); several are for --collection".into(),
            ))
        }
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.map_or(0, usize::from))
        .build()
        .map_err(|e| CliError::Puzzles(format!("cannot start threads: {e}")))?;
    let options = MineOptions {
        long: (args.long > 0).then_some(args.long),
        keep: args.limit,
    };
    let progress = MineProgress::default();
    let done = AtomicBool::new(false);
    let show = !args.quiet && std::io::stderr().is_terminal();
    let found = std::thread::scope(|scope| {
        if show {
            scope.spawn(|| {
                let bar = indicatif::ProgressBar::new_spinner();
                while !done.load(Relaxed) {
                    let sweep = progress.sweep.load(Relaxed);
                    bar.set_message(if sweep == 0 || options.long.is_none() {
                        format!("mining level {k}")
                    } else {
                        format!(
                            "level {k}: distance sweep {sweep}, {} changed by the last",
                            progress.changed.load(Relaxed)
                        )
                    });
                    bar.tick();
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                bar.finish_and_clear();
            });
        }
        let _done = super::SetOnDrop(&done);
        pool.install(
            || dispatch!(v.game(), R => mancala::puzzles::mine::<R>(&db, k, options, &progress)),
        )
    })?;
    let mined = found.expect("nothing stops the mining");
    if !args.quiet {
        let [sacrifice, long, unique] = mined.counts;
        eprintln!(
            "level {k}: {} puzzles: {sacrifice} sacrifice, {long} long, {unique} unique",
            sacrifice + long + unique
        );
    }
    let found = mined.puzzles;
    let wanted = args.kind.map(KindArg::kind);
    let mut taken = [0usize; 3];
    let mut total = 0usize;
    let listed = found.iter().filter(|p| {
        let i = p.kind as usize;
        let room = if args.each {
            taken[i] < args.limit
        } else {
            total < args.limit
        };
        let chosen = wanted.is_none_or(|k| p.kind == k) && room;
        if chosen {
            taken[i] += 1;
            total += 1;
        }
        chosen
    });
    let line_text = |p: &mancala::puzzles::Puzzle| {
        let moves: Vec<String> = p.line.iter().map(|m| m.to_string()).collect();
        moves.join(" ")
    };
    let mut text = String::new();
    if args.json {
        let items: Vec<serde_json::Value> = listed
            .map(|p| {
                serde_json::json!({
                    "position": p.position.to_string(),
                    "move": p.solution.to_string(),
                    "value": p.value,
                    "kind": p.kind.to_string(),
                    "plies": p.plies,
                    "line": p.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                })
            })
            .collect();
        text = serde_json::Value::Array(items).to_string();
        text.push('\n');
    } else {
        for p in listed {
            text.push_str(&format!(
                "{}\t{}\t{}\t{}",
                p.position, p.solution, p.value, p.kind
            ));
            if args.line {
                match p.plies {
                    Some(d) => text.push_str(&format!("\t{d}\t{}", line_text(p))),
                    None => text.push_str("\t-\t-"),
                }
            }
            text.push('\n');
        }
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// `--collection DIR`: chooses the puzzles, writes the booklet, and says on
/// stderr what each level held and how long it took.
fn collection(
    args: &Args,
    v: &Variant,
    db: &Database,
    dir: &std::path::Path,
) -> Result<(), CliError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.map_or(0, usize::from))
        .build()
        .map_err(|e| CliError::Puzzles(format!("cannot start threads: {e}")))?;
    let options = CollectOptions {
        sample: args.sample,
        per_grade: args.per_grade,
        ..CollectOptions::default()
    };
    let progress = MineProgress::default();
    let mut reports = Vec::new();
    let mut by_level = Vec::new();
    for &k in &args.seeds.0 {
        let start = std::time::Instant::now();
        let found = pool.install(|| {
            dispatch!(v.game(), R => mancala::puzzles::collection::collect_level::<R>(db, k, options, &progress))
        })?;
        let (chosen, report) = found.expect("nothing stops the mining");
        if !args.quiet {
            let q = |a: &[u64; 4]| a.map(|x| x.to_string()).join("/");
            eprintln!(
                "level {k}: {} candidates, {} measured, natural {}, families {}, chosen {} (easy/medium/hard/expert), {:.1} s",
                report.candidates,
                report.measured,
                q(&report.natural),
                q(&report.families),
                q(&report.chosen),
                start.elapsed().as_secs_f64()
            );
        }
        by_level.push(chosen);
        reports.push(report);
    }
    let entries = mancala::puzzles::collection::merge(&by_level);
    if entries.is_empty() {
        return Err(CliError::Puzzles(format!(
            "no natural puzzle at {} seeds: nothing written",
            args.seeds
                .0
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let files = mancala::puzzles::booklet::booklet(v, &entries, &reports);
    mancala::atomic_file::write_dir(dir, &files)
        .map_err(|e| CliError::File(dir.to_path_buf(), e))?;
    if !args.quiet {
        eprintln!("wrote {} puzzles to {}", entries.len(), dir.display());
    }
    Ok(())
}
