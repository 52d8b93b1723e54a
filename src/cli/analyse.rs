//! `mancala analyse`: the exact value of every legal move.

use super::{CliError, GameArgs, SearchArgs};
use mancala::dispatch;
use std::io::Write;

/// Arguments of `analyse`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// Print one JSON object: {"position", "moves": [{"move", "value"}...]}.
    #[arg(long)]
    json: bool,
}

/// Prints `MOVE<TAB>VALUE` per legal move, in the order of `moves`: the
/// game value of the position (side to move's view) if that move is played
/// and both sides play perfectly afterwards. Nothing on a terminal position.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, pos) = args.game.resolve()?;
    let solver = args.search.solver(&variant, &pos)?;
    let values = args.search.with_progress(
        &solver,
        || dispatch!(variant.game, R => solver.analyse::<R>(&pos)),
    )?;
    let mut text = String::new();
    if args.json {
        let moves: Vec<String> = values
            .iter()
            .map(|(m, v)| format!("{{\"move\": \"{m}\", \"value\": {v}}}"))
            .collect();
        text = format!(
            "{{\"game\": \"{}\", \"position\": \"{pos}\", \"moves\": [{}]}}\n",
            variant.game,
            moves.join(", ")
        );
    } else {
        for (m, v) in values {
            text.push_str(&format!("{m}\t{v}\n"));
        }
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}
