//! `mancala apply`: play moves and print the position they lead to.

use super::{CliError, GameArgs};
use mancala::{dispatch, games::play, Move};
use std::io::Write;

/// Arguments of `apply`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Moves to play in order: pit numbers 1..n of the mover's row or "pass".
    #[arg(value_name = "MOVE", allow_negative_numbers = true)]
    moves: Vec<String>,
    /// Print one JSON object: {"game", "start", "moves", "position", "over"}
    /// ("position" in full, as `show --json` gives it).
    #[arg(long)]
    json: bool,
}

/// Plays every move, checked; prints the final position.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, start) = match args.game.resolve_any()? {
        super::Resolved::Narrow(v, p) => (v, p),
        super::Resolved::Wide(v, p) => return wide(args, &v, &p, out),
    };
    let mut pos = start;
    for (i, text) in args.moves.iter().enumerate() {
        let mv: Move = text
            .parse()
            .map_err(|e| CliError::Move(format!("move #{}: {e}", i + 1)))?;
        pos = dispatch!(variant.game(), R => play::<R>(&pos, mv))
            .map_err(|e| CliError::illegal(i, &pos, e))?;
    }
    if args.json {
        let mut moves = mancala::MoveList::new();
        let v = serde_json::json!({
            "game": variant.to_string(),
            "start": start.to_string(),
            "moves": args.moves,
            "position": super::json::position(&pos),
            "over": variant.generate(&pos, &mut moves).is_some(),
        });
        out.write_all(super::json::line(&v).as_bytes())?;
    } else {
        writeln!(out, "{pos}")?;
    }
    Ok(())
}

/// [`run`] on a wide Dakon board.
fn wide(
    args: &Args,
    variant: &mancala::wide::WideDakon,
    start: &mancala::wide::WidePosition,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    use mancala::wide::WideDakon;
    let mut pos = *start;
    for (i, text) in args.moves.iter().enumerate() {
        let mv: Move = text
            .parse()
            .map_err(|e| CliError::Move(format!("move #{}: {e}", i + 1)))?;
        pos = WideDakon::play(&pos, mv)
            .map_err(|e| CliError::Move(format!("move #{} in position \"{pos}\": {e}", i + 1)))?;
    }
    if args.json {
        let v = serde_json::json!({
            "game": variant.to_string(),
            "start": start.to_string(),
            "moves": args.moves,
            "position": super::json::setup(&pos.to_string(), &pos.to_setup()),
            "over": WideDakon::outcome(&pos).is_some(),
        });
        out.write_all(super::json::line(&v).as_bytes())?;
    } else {
        writeln!(out, "{pos}")?;
    }
    Ok(())
}
