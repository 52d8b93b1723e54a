//! `mancala perft`: count move sequences of each length.

use super::{CliError, GameArgs};
use mancala::{dispatch, perft};
use std::io::Write;
use std::time::Instant;

/// Arguments of `perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Deepest length to count (plies; a pass and an extra move are plies).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=64))]
    depth: u32,
    /// Also split the deepest count by first move.
    #[arg(long)]
    divide: bool,
    /// Print one JSON object at the end: {"game", "position", "depths":
    /// [{"depth", "count", "seconds"}], "divide": [{"move", "count"}]}.
    #[arg(long)]
    json: bool,
}

/// Prints `DEPTH<TAB>COUNT<TAB>SECONDS` for each depth 1..=D, then with
/// `--divide` `MOVE<TAB>COUNT` lines for depth D.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, pos) = args.game.resolve()?;
    let mut depths = Vec::new();
    for d in 1..=args.depth {
        let t = Instant::now();
        let count = dispatch!(variant.game(), R => perft::perft::<R>(&pos, d));
        let seconds = t.elapsed().as_secs_f64();
        if args.json {
            depths.push(serde_json::json!({"depth": d, "count": count, "seconds": seconds}));
        } else {
            writeln!(out, "{d}\t{count}\t{seconds:.3}")?;
            out.flush()?;
        }
    }
    let mut divide = Vec::new();
    if args.divide {
        for (m, count) in dispatch!(variant.game(), R => perft::divide::<R>(&pos, args.depth)) {
            if args.json {
                divide.push(serde_json::json!({"move": m.to_string(), "count": count}));
            } else {
                writeln!(out, "{m}\t{count}")?;
            }
        }
    }
    if args.json {
        let v = serde_json::json!({
            "game": variant.to_string(),
            "position": pos.to_string(),
            "depths": depths,
            "divide": divide,
        });
        out.write_all(super::json::line(&v).as_bytes())?;
    }
    Ok(())
}
