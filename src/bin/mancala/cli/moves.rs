//! `mancala moves`: the legal moves of a position, or its final score.

use super::{CliError, GameArgs};
use mancala::MoveList;
use std::io::Write;

/// Arguments of `moves`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Print one JSON object: {"game", "position", "moves": [{"move",
    /// "position"}], "end": null or {"south", "north"}}.
    #[arg(long)]
    json: bool,
}

/// Prints `MOVE<TAB>POSITION` per legal move (pit order, `pass` last), or
/// `end S-N` on a terminal position.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, pos) = args.game.resolve()?;
    let mut moves = MoveList::new();
    let mut text = String::new();
    let end = variant.generate(&pos, &mut moves);
    if args.json {
        let list: Vec<_> = moves
            .iter()
            .map(|(m, child)| serde_json::json!({"move": m.to_string(), "position": child.to_string()}))
            .collect();
        let v = serde_json::json!({
            "game": variant.to_string(),
            "position": pos.to_string(),
            "moves": list,
            "end": end.map(|s| super::json::score(s.south, s.north)),
        });
        out.write_all(super::json::line(&v).as_bytes())?;
        return Ok(());
    }
    match end {
        Some(score) => text.push_str(&format!("end {}-{}\n", score.south, score.north)),
        None => {
            for (m, child) in &moves {
                text.push_str(&format!("{m}\t{child}\n"));
            }
        }
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}
