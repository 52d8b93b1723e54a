//! `mancala openings`: South's winning first turns (Dakon's winning
//! openings), listed or counted.

use super::{CliError, GameArgs};
use mancala::db::ranks::Ranks;
use mancala::openings::{
    shortest, Checkpoint, Criterion, Explorer, Outcome, Partial, Progress, ResumeError, RunOptions,
    Runner, Wins,
};
use mancala::{dispatch, Position, Rules, Side, Variant};
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
    /// Search for one winning first turn of the fewest moves (anytime:
    /// with --stop-after or Ctrl-C it prints the shortest found so far):
    /// one listing line, then `# shortest: K moves, proved`, `# shortest
    /// found: K moves, not proved (stopped after S s)` or `# no winning
    /// first turn`.
    #[arg(long, conflicts_with_all = ["count", "both", "checkpoint"])]
    shortest: bool,
    /// Memory for summaries of positions kept for when they are met again
    /// below the jobs' cut, in MiB (0: keep none; counts are exact either
    /// way: what is not kept is walked again). Chains rarely meet there:
    /// on dakon:7x7, 4096 MiB of summaries made counting 1.5x slower.
    #[arg(long, value_name = "MB", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1_048_576))]
    memory: u64,
    /// Threads for counting (default: every core; listing uses one).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// With --count: keep the finished part of the count in FILE (saved
    /// every ten seconds and at the end, atomically) and resume from it:
    /// an interrupted count loses only its last seconds and the jobs it
    /// was in.
    #[arg(long, value_name = "FILE", requires = "count")]
    checkpoint: Option<std::path::PathBuf>,
    /// With --count: stop after SECS seconds (the jobs under way are
    /// dropped); print what is done and an extrapolation (`# partial: ...`, `# extrapolated: ...`),
    /// save the checkpoint, and exit with status 3. With --shortest: stop
    /// after SECS seconds and print the shortest opening found (exit
    /// status 3 when it is not proved shortest).
    #[arg(long, value_name = "SECS", value_parser = seconds)]
    stop_after: Option<f64>,
    /// With --count: cut the count into at least N jobs (positions after
    /// the first few moves, done in a random order, so that the progress
    /// display can extrapolate). A checkpoint keeps its own cut.
    #[arg(long, value_name = "N", default_value_t = 20_000, requires = "count",
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    jobs: u32,
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

/// A length of the summary lines: a number of moves, or `-` for none.
fn length(l: Option<u32>) -> String {
    l.map_or("-".to_string(), |l| l.to_string())
}

/// A number of seconds: finite and not negative.
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err("not a number of seconds (0 or more)".to_string()),
    }
}

/// Lists the winning first turns (`MOVES<TAB>POSITION`), then the summary
/// `# winning W of T first turns, shortest A, longest B`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    if args.stop_after.is_some() && !(args.count || args.shortest) {
        return Err(CliError::Openings(
            "--stop-after needs --count or --shortest".into(),
        ));
    }
    let (variant, pos) = match args.game.resolve_any()? {
        super::Resolved::Narrow(v, p) => (v, p),
        super::Resolved::Wide(v, p) => return wide(args, &v, &p, out),
    };
    if pos.to_move() != Side::South {
        return Err(CliError::Openings(
            "a first turn is South's: the position must have South to move".into(),
        ));
    }
    if dispatch!(variant.game(), R => R::generate(&pos, &mut mancala::MoveList::new())).is_some() {
        return Err(CliError::Openings(
            "the game is over in that position".into(),
        ));
    }
    let criterion = if args.strong {
        Criterion::Strong
    } else {
        Criterion::Majority
    };
    let need = criterion.threshold(pos.total_seeds(), variant.s());
    let second = if args.both {
        Criterion::Strong.threshold(pos.total_seeds(), variant.s())
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
    if args.shortest {
        let found = dispatch!(variant.game(), R => super::shortest::search::<shortest::Engine<R>>(
            &pos, need, args.stop_after, args.quiet, show))
        .map(|b| b.to_string());
        return super::shortest::print(
            args.json,
            &variant.to_string(),
            &pos.to_string(),
            criterion,
            &found,
            out,
        );
    }
    // A count on several MPI ranks (built with the feature `mpi`, started
    // by `mpirun -n N`): rank 0 deals the jobs and reports.
    #[cfg(feature = "mpi")]
    if args.count {
        use mancala::db::ranks::Ranks;
        if let Some(world) = mancala::db::mpi::World::init().filter(|w| w.size() > 1) {
            let show = show && world.rank() == 0;
            let ranks: Option<&dyn Ranks> = Some(&world);
            return match dispatch!(variant.game(), R => run_rules::<R>(
                args, &variant, &pos, [need, second], &pool, show, ranks, out))
            {
                Err(e) if !matches!(e, CliError::Incomplete(_)) => super::fail_on_rank(&world, e),
                r => r,
            };
        }
    }
    dispatch!(variant.game(), R => run_rules::<R>(args, &variant, &pos, [need, second], &pool, show, None, out))
}

/// [`run`] under the rules `R`: lists or counts with the thresholds
/// `needs` on `pool`, with a progress display on stderr when `show`; a
/// count as one of `ranks` when given (only rank 0 reports).
#[allow(clippy::too_many_arguments)]
fn run_rules<R: Rules>(
    args: &Args,
    variant: &Variant,
    pos: &Position,
    needs: [usize; 2],
    pool: &rayon::ThreadPool,
    show: bool,
    ranks: Option<&dyn Ranks>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let lead = ranks.is_none_or(|r| r.rank() == 0);
    let explorer = Explorer::<R>::with_thresholds(needs, (args.memory << 20) as usize);
    let done = AtomicBool::new(false);
    let mut listed = Vec::new();
    let summary = std::thread::scope(|scope| {
        if show && !args.count {
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
        let _done = super::SetOnDrop(&done);
        let t = std::time::Instant::now();
        let result = if args.count {
            let counted = count(args, variant, pos, &explorer, pool, show, ranks);
            done.store(true, Relaxed);
            match counted? {
                // A rank that counted for rank 0: it has nothing to say.
                None => Ok(None),
                Some(Outcome::Finished { summary, .. }) => Ok(Some(summary)),
                Some(Outcome::Stopped(partial)) => {
                    report_partial(args, &partial, out)?;
                    return Err(CliError::Incomplete(format!(
                        "stopped after {} of {} jobs{}",
                        partial.done,
                        partial.jobs,
                        args.checkpoint.as_ref().map_or(String::new(), |f| format!(
                            "; what is done is in {}",
                            f.display()
                        ))
                    )));
                }
            }
        } else {
            let mut result = Ok(());
            let s = explorer.for_each_winning(pos, &mut |moves, after| {
                let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                if args.json {
                    listed.push(serde_json::json!({"moves": moves, "position": after.to_string()}));
                } else if result.is_ok() {
                    result = writeln!(out, "{}\t{after}", moves.join(" "));
                }
            });
            result.map(|()| Some(s)).map_err(CliError::from)
        };
        done.store(true, Relaxed);
        if !args.quiet && lead {
            eprintln!(
                "{} positions expanded, {} summaries kept, {:.2} s",
                explorer.nodes(),
                explorer.positions(),
                t.elapsed().as_secs_f64()
            );
        }
        result
    })?;
    let Some(summary) = summary else {
        return Ok(());
    };
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
    let line = |w: &Wins| {
        format!(
            "winning {} of {} first turns, shortest {}, longest {}",
            w.winning,
            summary.turns,
            length(w.shortest),
            length(w.longest)
        )
    };
    if args.both {
        writeln!(out, "# strong: {}", line(strong))?;
    }
    writeln!(out, "# {}", line(first))?;
    Ok(())
}

/// Counts the first turns from `pos` job by job ([`Runner`]), resuming
/// from and saving to the checkpoint, in parallel on `pool`, with a
/// progress bar when `show` (else, unless quiet, a line every minute).
/// On `ranks` ([`Runner::run_dealt`]): rank 0 deals, saves and returns the
/// outcome, the others count and return `None`.
fn count<R: Rules>(
    args: &Args,
    variant: &Variant,
    pos: &Position,
    explorer: &Explorer<R>,
    pool: &rayon::ThreadPool,
    show: bool,
    ranks: Option<&dyn Ranks>,
) -> Result<Option<Outcome>, CliError> {
    let bad = |file: &std::path::Path, why: String| {
        CliError::Openings(format!("checkpoint {}: {why}", file.display()))
    };
    let resume = match &args.checkpoint {
        Some(file) if file.exists() => {
            let text =
                std::fs::read_to_string(file).map_err(|e| CliError::File(file.clone(), e))?;
            Some(Checkpoint::parse(&text).map_err(|e| bad(file, e.to_string()))?)
        }
        _ => None,
    };
    let runner = Runner::new(explorer, variant, pos, args.jobs as usize, resume).map_err(|e| {
        let file = args.checkpoint.as_ref().expect("a checkpoint was read");
        bad(
            file,
            match e {
                ResumeError::OtherCount {
                    game,
                    position,
                    needs,
                } => format!(
                    "it was made for --game {game} --position \"{position}\" with thresholds {} and {}, \
                     not this count (use another file, or remove it to start again)",
                    needs[0], needs[1]
                ),
                ResumeError::OtherCut => {
                    "its jobs are not this version's cut of the count (remove it to start again)"
                        .to_string()
                }
            },
        )
    })?;
    let bar = show.then(|| {
        let bar = indicatif::ProgressBar::new(runner.split().jobs.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:20} {pos}/{len} jobs {elapsed_precise}, ~{eta_precise} to go, {msg}",
            )
            .expect("valid template"),
        );
        bar.set_position(runner.checkpoint().done.len() as u64);
        bar.reset_eta();
        bar
    });
    // The test hook of tests/mpi.rs, on ranks: rank 1 dies after this many
    // jobs, as a rank of a cluster may, and rank 0 saves after every answer
    // (the checkpoint then has every job it was sent).
    let die_after = ranks.and_then(|_| {
        std::env::var(DIE_AFTER)
            .ok()
            .and_then(|n| n.parse::<usize>().ok())
    });
    let options = RunOptions {
        stop_after: args.stop_after,
        save_every: match die_after {
            Some(_) => std::time::Duration::ZERO,
            None => RunOptions::default().save_every,
        },
    };
    let save = |c: &Checkpoint| match &args.checkpoint {
        Some(file) => super::write_file(file, c.to_text().as_bytes()),
        None => Ok(()),
    };
    let mut last_line = std::time::Instant::now();
    let progress = |p: &Progress<'_>| {
        if let Some(bar) = &bar {
            bar.set_position(p.done() as u64);
        }
        let every = if bar.is_some() { 2 } else { 60 };
        if args.quiet || last_line.elapsed().as_secs() < every {
            return;
        }
        last_line = std::time::Instant::now();
        let e = p.estimate();
        let line = format!(
            "~{:.2e} first turns, ~{:.2e} winning",
            e.turns, e.winning[0]
        );
        match &bar {
            Some(bar) => bar.set_message(line),
            None => eprintln!(
                "openings: {}/{} jobs, {:.0} s, about {:.0} s to go, {line}; \
                 {} positions expanded, {} summaries kept",
                e.done,
                e.jobs,
                p.seconds(),
                e.left,
                explorer.nodes(),
                explorer.positions()
            ),
        }
    };
    let outcome = match ranks {
        None => runner.run(pool, &options, save, progress).map(Some),
        Some(ranks) => {
            let hook = |jobs: usize| {
                if ranks.rank() == 1 && die_after.is_some_and(|n| jobs >= n) {
                    std::process::exit(9);
                }
            };
            runner.run_dealt(pool, &options, ranks, save, progress, hook)
        }
    };
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let Some(outcome) = outcome? else {
        return Ok(None);
    };
    if let Outcome::Finished {
        seconds, earlier, ..
    } = outcome
    {
        if !args.quiet && earlier > 0.0 {
            eprintln!("{seconds:.1} s in all, with the checkpoint's earlier runs");
        }
    }
    Ok(Some(outcome))
}

/// The test hook of a count on MPI ranks: when this variable holds `N`,
/// rank 1 exits (status 9) once it has counted `N` jobs, and rank 0 saves
/// the checkpoint after every answer.
const DIE_AFTER: &str = "MANCALA_TEST_RANK_DIES_AFTER_JOBS";

/// Prints a stopped count: what is done, and what it extrapolates to.
fn report_partial(args: &Args, p: &Partial, out: &mut dyn Write) -> Result<(), CliError> {
    let [first, strong] = &p.so_far.wins;
    if args.json {
        let doc = serde_json::json!({
            "partial": true,
            "jobs": p.jobs,
            "done": p.done,
            "seconds": p.seconds,
            "turns_so_far": p.so_far.turns.to_string(),
            "winning_so_far": first.winning.to_string(),
            "shortest_so_far": first.shortest,
            "longest_so_far": first.longest,
            "strong_winning_so_far": strong.winning.to_string(),
            "turns_estimate": (p.done > 0).then_some(p.turns),
            "turns_error": p.error.is_finite().then_some(p.error),
            "winning_estimate": (p.done > 0).then_some(p.winning[0]),
            "strong_winning_estimate": (p.done > 0).then_some(p.winning[1]),
            "seconds_left_estimate": if p.left.is_finite() { Some(p.left) } else { None },
        });
        out.write_all(super::json::line(&doc).as_bytes())?;
        return Ok(());
    }
    let both = if args.both {
        format!(" ({} strong)", strong.winning)
    } else {
        String::new()
    };
    writeln!(
        out,
        "# partial: {} of {} jobs done in {:.0} s: winning {}{} of {} first turns so far, shortest {}, longest {}",
        p.done,
        p.jobs,
        p.seconds,
        first.winning,
        both,
        p.so_far.turns,
        length(first.shortest),
        length(first.longest)
    )?;
    let both = if args.both {
        format!(" ({:.3e} strong)", p.winning[1])
    } else {
        String::new()
    };
    let left = if p.left.is_finite() {
        format!("{:.0} s", p.left)
    } else {
        "unknown".to_string()
    };
    if p.done == 0 {
        writeln!(out, "# extrapolated: nothing yet (no job done)")?;
    } else {
        writeln!(
            out,
            "# extrapolated: about {:.3e}{} first turns, {:.3e} winning{}; about {} to go",
            p.turns,
            if p.error.is_finite() {
                format!(" (standard error {:.1e})", p.error)
            } else {
                String::new()
            },
            p.winning[0],
            both,
            left
        )?;
    }
    Ok(())
}

/// [`run`] on a wide Dakon board: `--shortest`, or the listing (one walk
/// over every first turn: for boards where that ends).
fn wide(
    args: &Args,
    variant: &mancala::wide::WideDakon,
    pos: &mancala::wide::WidePosition,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    use mancala::wide::WideDakon;
    if args.count || args.both || args.checkpoint.is_some() {
        return Err(CliError::Openings(format!(
            "on {variant}, beyond the engine's limits, openings lists or searches (--shortest) \
             but does not count (--count, --both, --checkpoint)"
        )));
    }
    if pos.to_move() != Side::South {
        return Err(CliError::Openings(
            "a first turn is South's: the position must have South to move".into(),
        ));
    }
    if WideDakon::outcome(pos).is_some() {
        return Err(CliError::Openings(
            "the game is over in that position".into(),
        ));
    }
    let criterion = if args.strong {
        Criterion::Strong
    } else {
        Criterion::Majority
    };
    let need = criterion.threshold(pos.total_seeds() as usize, variant.s());
    let show = {
        use std::io::IsTerminal;
        !args.quiet && std::io::stderr().is_terminal()
    };
    if args.shortest {
        let found =
            super::shortest::search::<shortest::Wide>(pos, need, args.stop_after, args.quiet, show)
                .map(|b| b.to_string());
        return super::shortest::print(
            args.json,
            &variant.to_string(),
            &pos.to_string(),
            criterion,
            &found,
            out,
        );
    }
    let mut listed = Vec::new();
    let mut result = Ok(());
    let (turns, wins) =
        shortest::for_each_winning::<shortest::Wide>(pos, need as u32, &mut |moves, after| {
            let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            if args.json {
                listed.push(serde_json::json!({"moves": moves, "position": after.to_string()}));
            } else if result.is_ok() {
                result = writeln!(out, "{}\t{after}", moves.join(" "));
            }
        });
    result?;
    if args.json {
        let doc = serde_json::json!({
            "game": variant.to_string(),
            "position": pos.to_string(),
            "criterion": if args.strong { "strong" } else { "majority" },
            "winning": wins.winning.to_string(),
            "turns": turns.to_string(),
            "shortest": wins.shortest,
            "longest": wins.longest,
            "openings": listed,
        });
        out.write_all(super::json::line(&doc).as_bytes())?;
        return Ok(());
    }
    writeln!(
        out,
        "# winning {} of {} first turns, shortest {}, longest {}",
        wins.winning,
        turns,
        length(wins.shortest),
        length(wins.longest)
    )?;
    Ok(())
}
