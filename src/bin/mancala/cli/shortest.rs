//! `mancala openings --shortest`: runs the library's shortest-opening
//! search ([`mancala::openings::shortest`]) with a progress display, a
//! deadline and Ctrl-C, and prints its result.

use super::CliError;
use mancala::openings::shortest::{self, Found, TurnGame};
use mancala::openings::Criterion;
use std::io::Write;
use std::sync::atomic::Ordering::Relaxed;

/// Memory the breadth-first phase (or a depth-first walk) may use for its
/// boards, in bytes.
const MAX_BYTES: usize = 3 << 30;

/// Most boards the breadth-first phase keeps within [`MAX_BYTES`] (and the
/// depth-first walks remember, a board and a length each): each
/// board is kept once in its layer and once as a key of the set of boards
/// seen (counted twice: a hash set's spare room), with its link to its
/// parent (on the engine's boards about 25 million, on the wide boards
/// about 8 million).
fn max_boards<G: TurnGame>() -> usize {
    use std::mem::size_of;
    MAX_BYTES / (size_of::<G::Board>() + 2 * size_of::<G::Key>() + 8)
}

/// Searches from `root` for a first turn with South's final score at
/// least `need`, stopping after `stop_after` seconds or on Ctrl-C; a
/// progress line on stderr when `show`, a closing line unless `quiet`.
pub fn search<G: TurnGame>(
    root: &G::Board,
    need: usize,
    stop_after: Option<f64>,
    quiet: bool,
    show: bool,
) -> Found<G::Board>
where
    G::Board: Send + Sync,
{
    super::catch_ctrl_c();
    let options = shortest::Options {
        need: u32::try_from(need).unwrap_or(u32::MAX),
        time: stop_after.map(std::time::Duration::from_secs_f64),
        max_boards: max_boards::<G>(),
        first_only: false,
    };
    let progress = shortest::Progress::default();
    let done = std::sync::atomic::AtomicBool::new(false);
    let found = std::thread::scope(|scope| {
        scope.spawn(|| {
            let bar = show.then(|| {
                let bar = indicatif::ProgressBar::new_spinner();
                bar.set_style(
                    indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                        .expect("valid template"),
                );
                bar
            });
            while !done.load(Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if super::INTERRUPTED.load(Relaxed) {
                    progress.stop.store(true, Relaxed);
                }
                if let Some(bar) = &bar {
                    let best = progress.best.load(Relaxed);
                    bar.set_message(format!(
                        "{:.1} M positions, best {} moves, none shorter than {}",
                        progress.nodes.load(Relaxed) as f64 / 1e6,
                        if best == 0 {
                            "-".to_string()
                        } else {
                            best.to_string()
                        },
                        progress.lower.load(Relaxed)
                    ));
                    bar.tick();
                }
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        let _done = super::SetOnDrop(&done);
        shortest::shortest::<G>(root, &options, &progress)
    });
    if !quiet {
        eprintln!("{} positions expanded, {:.2} s", found.nodes, found.seconds);
    }
    found
}

/// Prints a search's result (`found`, its position already in notation):
/// the listing line and the summary, or one JSON object. A result not
/// proved is incomplete work (exit status 3).
pub fn print(
    json: bool,
    game: &str,
    position: &str,
    criterion: Criterion,
    found: &Found<String>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let stopped = format!("stopped after {:.1} s", found.seconds);
    if json {
        let doc = serde_json::json!({
            "game": game,
            "position": position,
            "criterion": match criterion {
                Criterion::Majority => "majority",
                Criterion::Strong => "strong",
            },
            "shortest": found.best.as_ref().map(|b| b.moves.len()),
            "proved": found.proved,
            "lower": found.lower,
            "moves": found.best.as_ref().map(|b| b.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>()),
            "after": found.best.as_ref().map(|b| b.after.clone()),
            "score": found.best.as_ref().map(|b| b.score),
            "nodes": found.nodes,
            "seconds": found.seconds,
            "first_seconds": found.first,
            "closest": found.closest,
        });
        out.write_all(super::json::line(&doc).as_bytes())?;
    } else {
        match &found.best {
            Some(b) => {
                let moves: Vec<String> = b.moves.iter().map(|m| m.to_string()).collect();
                writeln!(out, "{}\t{}", moves.join(" "), b.after)?;
                if found.proved {
                    writeln!(out, "# shortest: {} moves, proved", b.moves.len())?;
                } else {
                    writeln!(
                        out,
                        "# shortest found: {} moves, not proved ({stopped})",
                        b.moves.len()
                    )?;
                }
            }
            None if found.proved => writeln!(out, "# no winning first turn")?,
            None => writeln!(out, "# no winning first turn found, not proved ({stopped})")?,
        }
    }
    if found.proved {
        Ok(())
    } else {
        Err(CliError::Incomplete(format!(
            "shortest opening not proved: {stopped}"
        )))
    }
}
