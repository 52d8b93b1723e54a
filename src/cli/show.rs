//! `mancala show`: draw a position.

use super::{CliError, GameArgs};
use std::io::Write;

/// Arguments of `show`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
}

/// Prints the drawing of the position.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, pos) = args.game.resolve()?;
    out.write_all(mancala::draw::draw(&variant, &pos).as_bytes())?;
    Ok(())
}
