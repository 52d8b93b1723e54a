//! `mancala solve`: the exact value of a position and a best move.

use super::{CliError, GameArgs, SearchArgs};
use mancala::{dispatch, Position, Side, Variant};
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
    /// "untabled_nodes", "seconds", "built_in_memory", "first_turn", ...}.
    #[arg(long)]
    json: bool,
}

/// Prints `value V` and `best MOVE` (`-` on a terminal position).
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, pos) = args.game.resolve()?;
    let t = Instant::now();
    if let Some(settled) = super::settle::run(&args.search, &variant, &pos, t)? {
        return print_settled(args, &variant, &pos, settled, t, out);
    }
    let searched = super::extend::run(
        &args.search,
        &variant,
        &pos,
        |solver| dispatch!(variant.game(), R => solver.solve::<R>(&pos)),
    )?;
    let (s, solver) = (searched.value, searched.solver);
    let seconds = t.elapsed().as_secs_f64();
    let best = s.best.map_or("-".to_string(), |m| m.to_string());
    Report {
        value: s.value,
        best,
        gain: s.gain,
        nodes: s.nodes,
        interior: s.interior,
        untabled: s.untabled,
        seconds,
        threads: solver.threads(),
        built: super::extend::json(searched.built),
        first_turn: serde_json::Value::Null,
    }
    .print(args.json, &variant, &pos, out)?;
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

/// Prints a solve settled by South's first turn (`settle.rs`): the value is
/// the most the position can be worth, the best move the turn's first.
fn print_settled(
    args: &Args,
    variant: &Variant,
    pos: &Position,
    outcome: super::settle::Outcome,
    t: Instant,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let attempt = outcome.attempt;
    let settled = attempt.settled.expect("a settled outcome holds its turn");
    let value = pos.lead(Side::South) + settled.gain;
    let best = settled.moves[0].to_string();
    let moves: Vec<String> = settled.moves.iter().map(|m| m.to_string()).collect();
    if !args.search.quiet {
        eprintln!(
            "note: South's first turn of {} move{} takes every seed: {} (then {})",
            moves.len(),
            if moves.len() == 1 { "" } else { "s" },
            moves.join(" "),
            settled.after
        );
    }
    Report {
        value,
        best,
        gain: settled.gain,
        nodes: attempt.nodes,
        interior: attempt.nodes,
        untabled: 0,
        seconds: t.elapsed().as_secs_f64(),
        // The turn's search runs nested searches beside its local search
        // when there are two cores (`openings::shortest`).
        threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(2)),
        built: super::extend::json(outcome.built),
        first_turn: serde_json::json!({
            "moves": moves.join(" "),
            "after": settled.after.to_string(),
            "seconds": attempt.seconds,
        }),
    }
    .print(args.json, variant, pos, out)
}

/// What `solve` prints, whether the value came from the search or from
/// South's first turn: `value V` and `best MOVE`, or the JSON object of
/// `--json` (`docs/json.md`).
struct Report {
    value: i32,
    best: String,
    gain: i32,
    nodes: u64,
    interior: u64,
    untabled: u64,
    seconds: f64,
    threads: usize,
    /// The levels built in memory (`extend::json`).
    built: serde_json::Value,
    /// The settling turn, or null.
    first_turn: serde_json::Value,
}

impl Report {
    fn print(
        self,
        json: bool,
        variant: &Variant,
        pos: &Position,
        out: &mut dyn Write,
    ) -> Result<(), CliError> {
        if json {
            let doc = serde_json::json!({
                "game": variant.to_string(),
                "position": pos.to_string(),
                "value": self.value,
                "best": self.best,
                "gain": self.gain,
                "nodes": self.nodes,
                "interior_nodes": self.interior,
                "untabled_nodes": self.untabled,
                "seconds": self.seconds,
                "threads": self.threads,
                "built_in_memory": self.built,
                "first_turn": self.first_turn,
            });
            out.write_all(super::json::line(&doc).as_bytes())?;
        } else {
            writeln!(out, "value {}\nbest {}", self.value, self.best)?;
        }
        Ok(())
    }
}
