//! `mancala puzzles`: positions mined from the endgame databases where
//! exactly one move keeps the value.

use super::CliError;
use mancala::db::Database;
use mancala::{dispatch, Variant};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `puzzles`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: NAME or NAME:NxS (only the row length N matters).
    #[arg(long, value_name = "GAME")]
    game: String,
    /// Seeds on the board: the database level to mine.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u16).range(0..=127))]
    seeds: u16,
    /// The database directory (`mancala db build`).
    #[arg(long, value_name = "DIR", default_value = super::db::DEFAULT_DIR)]
    dir: PathBuf,
    /// The most puzzles printed.
    #[arg(long, value_name = "L", default_value_t = 20, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000_000))]
    limit: usize,
}

/// Prints `POSITION<TAB>MOVE<TAB>VALUE<TAB>KIND` per puzzle, best first.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let v: Variant = args.game.parse()?;
    let db = Database::open(&args.dir, v.game, v.n, true)?;
    let found = dispatch!(v.game, R => mancala::puzzles::mine::<R>(&db, usize::from(args.seeds)))?;
    let mut text = String::new();
    for p in found.iter().take(args.limit) {
        text.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            p.position, p.solution, p.value, p.kind
        ));
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}
