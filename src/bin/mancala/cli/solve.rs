//! `mancala solve`: the exact value of a position and a best move.

use super::{CliError, GameArgs, SearchArgs};
use mancala::dispatch;
use std::io::Write;
use std::time::Instant;

/// Arguments of `solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// Print one JSON object: {"value", "best", "nodes", "interior_nodes",
    /// "untabled_nodes", "seconds", "built_in_memory", ...}.
    #[arg(long)]
    json: bool,
}

/// Prints `value V` and `best MOVE` (`-` on a terminal position).
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, pos) = args.game.resolve()?;
    let t = Instant::now();
    let searched = super::extend::run(
        &args.search,
        &variant,
        &pos,
        |solver| dispatch!(variant.game(), R => solver.solve::<R>(&pos)),
    )?;
    let (s, solver) = (searched.value, searched.solver);
    let seconds = t.elapsed().as_secs_f64();
    let best = s.best.map_or("-".to_string(), |m| m.to_string());
    if args.json {
        let doc = serde_json::json!({
            "game": variant.to_string(),
            "position": pos.to_string(),
            "value": s.value,
            "best": best,
            "gain": s.gain,
            "nodes": s.nodes,
            "interior_nodes": s.interior,
            "untabled_nodes": s.untabled,
            "seconds": seconds,
            "threads": solver.threads(),
            "built_in_memory": super::extend::json(searched.built),
        });
        out.write_all(super::json::line(&doc).as_bytes())?;
    } else {
        writeln!(out, "value {}\nbest {best}", s.value)?;
    }
    if s.untabled > 0 {
        eprintln!(
            "note: {} of {} nodes had boards too large for a {}-bit table key and were searched without the table",
            s.untabled,
            s.nodes,
            mancala::packed::KEY_BITS
        );
    }
    Ok(())
}
