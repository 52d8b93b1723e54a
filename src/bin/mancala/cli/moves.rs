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
    let (variant, pos) = match args.game.resolve_any()? {
        super::Resolved::Narrow(v, p) => (v, p),
        super::Resolved::Wide(v, p) => return wide(args, &v, &p, out),
    };
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

/// [`run`] on a wide Dakon board.
fn wide(
    args: &Args,
    variant: &mancala::wide::WideDakon,
    pos: &mancala::wide::WidePosition,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let moves = mancala::wide::WideDakon::moves(pos);
    if args.json {
        let (list, end) = match &moves {
            Ok(m) => (
                m.iter()
                    .map(|(m, c)| serde_json::json!({"move": m.to_string(), "position": c.to_string()}))
                    .collect(),
                None,
            ),
            Err(s) => (Vec::new(), Some(super::json::score(s.south, s.north))),
        };
        let v = serde_json::json!({
            "game": variant.to_string(),
            "position": pos.to_string(),
            "moves": list,
            "end": end,
        });
        out.write_all(super::json::line(&v).as_bytes())?;
        return Ok(());
    }
    let mut text = String::new();
    match moves {
        Err(score) => text.push_str(&format!("end {}-{}\n", score.south, score.north)),
        Ok(moves) => {
            for (m, child) in &moves {
                text.push_str(&format!("{m}\t{child}\n"));
            }
        }
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}
