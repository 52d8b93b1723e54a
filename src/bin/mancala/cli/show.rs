//! `mancala show`: draw a position, on the terminal or as an SVG picture.

use super::{CliError, GameArgs};
use mancala::{dispatch, games::play, Move};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Play this move first and show the position after it, the pit it was
    /// sown from marked (ringed in the SVG, named under the drawing).
    #[arg(long, value_name = "MOVE", allow_hyphen_values = true)]
    last: Option<String>,
    /// Also write the picture as an SVG file (written whole or not at all).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Print the position as one JSON object instead of the drawing:
    /// {"game", "position": {"notation", "to_move", "south", "north",
    /// "captured"}, "last": null or {"side", "pit"}}.
    #[arg(long)]
    json: bool,
}

/// Prints the drawing of the position (or its JSON); writes the SVG.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, mut pos) = match args.game.resolve_any()? {
        super::Resolved::Narrow(v, p) => (v, p),
        super::Resolved::Wide(v, p) => return wide(args, &v, &p, out),
    };
    let mut last = None;
    if let Some(text) = &args.last {
        let mv: Move = text
            .parse()
            .map_err(|e| CliError::Move(format!("--last: {e}")))?;
        let mover = pos.to_move();
        pos = dispatch!(variant.game(), R => play::<R>(&pos, mv))
            .map_err(|e| CliError::illegal(0, &pos, e))?;
        if let Move::Pit(k) = mv {
            last = Some((mover, usize::from(k)));
        }
    }
    if let Some(path) = &args.svg {
        super::write_file(path, mancala::svg::board(&variant, &pos, last).as_bytes())?;
    }
    if args.json {
        let v = serde_json::json!({
            "game": variant.to_string(),
            "position": super::json::position(&pos),
            "last": last.map(|(side, pit)| serde_json::json!({"side": super::json::side(side), "pit": pit})),
        });
        out.write_all(super::json::line(&v).as_bytes())?;
    } else {
        let mut text = mancala::draw::draw(&variant, &pos);
        if let Some((side, pit)) = last {
            text.push_str(&format!("last move: {} {pit}\n", side.name()));
        }
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}

/// [`run`] on a wide Dakon board (no SVG picture: `--svg` is refused).
fn wide(
    args: &Args,
    variant: &mancala::wide::WideDakon,
    pos: &mancala::wide::WidePosition,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    use mancala::wide::WideDakon;
    if args.svg.is_some() {
        return Err(CliError::Wide(format!(
            "--svg draws boards within the engine's limits ({} pits a row, {} seeds), not {variant}",
            mancala::MAX_N,
            mancala::MAX_SEEDS
        )));
    }
    let mut pos = *pos;
    let mut last = None;
    if let Some(text) = &args.last {
        let mv: Move = text
            .parse()
            .map_err(|e| CliError::Move(format!("--last: {e}")))?;
        let mover = pos.to_move();
        pos = WideDakon::play(&pos, mv)
            .map_err(|e| CliError::Move(format!("move #1 in position \"{pos}\": {e}")))?;
        if let Move::Pit(k) = mv {
            last = Some((mover, usize::from(k)));
        }
    }
    if args.json {
        let v = serde_json::json!({
            "game": variant.to_string(),
            "position": super::json::setup(&pos.to_string(), &pos.to_setup()),
            "last": last.map(|(side, pit)| serde_json::json!({"side": super::json::side(side), "pit": pit})),
        });
        out.write_all(super::json::line(&v).as_bytes())?;
    } else {
        let mut text = mancala::draw::draw_wide(variant, &pos);
        if let Some((side, pit)) = last {
            text.push_str(&format!("last move: {} {pit}\n", side.name()));
        }
        out.write_all(text.as_bytes())?;
    }
    Ok(())
}
