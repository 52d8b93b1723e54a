//! `mancala moves`: the legal moves of a position, or its final score.

use super::{CliError, GameArgs};
use mancala::MoveList;
use std::io::Write;

/// Arguments of `moves`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
}

/// Prints `MOVE<TAB>POSITION` per legal move (pit order, `pass` last), or
/// `end S-N` on a terminal position.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, pos) = args.game.resolve()?;
    let mut moves = MoveList::new();
    let mut text = String::new();
    match variant.generate(&pos, &mut moves) {
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
