//! `mancala openings`: South's winning first turns (Dakon's winning
//! openings), listed or counted.

use super::{CliError, GameArgs};
use mancala::openings::{Criterion, Explorer};
use mancala::{dispatch, Rules, Side};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Arguments of `openings`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Winning means all but one pit's worth captured (2ns - s), not just
    /// more than half of the seeds.
    #[arg(long)]
    strong: bool,
    /// Count under both criteria in one walk: the strong criterion's
    /// summary line, `# strong: winning W of T ...`, comes before the
    /// majority's, which stays the last line (openings listed: the
    /// majority's).
    #[arg(long, conflicts_with = "strong")]
    both: bool,
    /// Print only the summary line, not the openings.
    #[arg(long)]
    count: bool,
    /// Memory for kept summaries, in MiB (counts stay exact with less:
    /// what is not kept is walked again).
    #[arg(long, value_name = "MB", default_value_t = 8192, value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    memory: u64,
    /// Threads for counting (default: every core; listing uses one).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// No progress display on stderr.
    #[arg(long)]
    quiet: bool,
    /// Print one JSON object: {"game", "position", "criterion", "winning",
    /// "turns", "shortest", "longest", "openings": [{"moves", "position"}]}
    /// (counts as decimal strings: they can exceed 64 bits; "openings"
    /// empty with --count).
    #[arg(long)]
    json: bool,
}

/// Lists the winning first turns (`MOVES<TAB>POSITION`), then the summary
/// `# winning W of T first turns, shortest A, longest B`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, pos) = args.game.resolve()?;
    if pos.to_move() != Side::South {
        return Err(CliError::Openings(
            "a first turn is South's: the position must have South to move".into(),
        ));
    }
    if dispatch!(variant.game, R => R::generate(&pos, &mut mancala::MoveList::new())).is_some() {
        return Err(CliError::Openings(
            "the game is over in that position".into(),
        ));
    }
    let criterion = if args.strong {
        Criterion::Strong
    } else {
        Criterion::Majority
    };
    let need = criterion.threshold(pos.total_seeds(), variant.s);
    let second = if args.both {
        Criterion::Strong.threshold(pos.total_seeds(), variant.s)
    } else {
        need
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.map_or(0, usize::from))
        .stack_size(256 << 20)
        .build()
        .map_err(|e| CliError::Openings(format!("cannot start threads: {e}")))?;
    let show = {
        use std::io::IsTerminal;
        !args.quiet && std::io::stderr().is_terminal()
    };
    dispatch!(variant.game, R => {
        let explorer = Explorer::<R>::with_thresholds([need, second], (args.memory << 20) as usize);
        let done = AtomicBool::new(false);
        let mut listed = Vec::new();
        let summary = std::thread::scope(|scope| {
            if show {
                scope.spawn(|| {
                    let bar = indicatif::ProgressBar::new_spinner();
                    bar.set_style(
                        indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                            .expect("valid template"),
                    );
                    while !done.load(Relaxed) {
                        std::thread::sleep(std::time::Duration::from_millis(200));
                        bar.set_message(format!(
                            "{} positions expanded, {} summaries kept",
                            explorer.nodes(),
                            explorer.positions()
                        ));
                        bar.tick();
                    }
                    bar.finish_and_clear();
                });
            }
            let t = std::time::Instant::now();
            let result = if args.count {
                Ok(pool.install(|| explorer.summary(&pos)))
            } else {
                let mut result = Ok(());
                let s = explorer.for_each_winning(&pos, &mut |moves, after| {
                    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                    if args.json {
                        listed.push(serde_json::json!({"moves": moves, "position": after.to_string()}));
                    } else if result.is_ok() {
                        result = writeln!(out, "{}\t{after}", moves.join(" "));
                    }
                });
                result.map(|()| s)
            };
            done.store(true, Relaxed);
            if !args.quiet {
                eprintln!(
                    "{} positions expanded, {} summaries kept, {:.2} s",
                    explorer.nodes(),
                    explorer.positions(),
                    t.elapsed().as_secs_f64()
                );
            }
            result
        })?;
        let [first, strong] = &summary.wins;
        if args.json {
            let mut doc = serde_json::json!({
                "game": variant.to_string(),
                "position": pos.to_string(),
                "criterion": if args.strong { "strong" } else { "majority" },
                "winning": first.winning.to_string(),
                "turns": summary.turns.to_string(),
                "shortest": first.shortest,
                "longest": first.longest,
                "openings": listed,
            });
            if args.both {
                doc["strong"] = serde_json::json!({
                    "winning": strong.winning.to_string(),
                    "shortest": strong.shortest,
                    "longest": strong.longest,
                });
            }
            out.write_all(super::json::line(&doc).as_bytes())?;
            return Ok(());
        }
        let length = |l: Option<u32>| l.map_or("-".to_string(), |l| l.to_string());
        let line = |w: &mancala::openings::Wins| format!(
            "winning {} of {} first turns, shortest {}, longest {}",
            w.winning,
            summary.turns,
            length(w.shortest),
            length(w.longest)
        );
        if args.both {
            writeln!(out, "# strong: {}", line(strong))?;
        }
        writeln!(out, "# {}", line(first))?;
    });
    Ok(())
}
