//! The command-line interface: one file per subcommand, each an `Args`
//! struct and a `run` that validates all input before writing anything.

pub mod apply;
pub mod moves;
pub mod perft;
pub mod show;

use clap::{Args, Parser, Subcommand};
use mancala::{MoveError, NotationError, Position, Variant, VariantError};
use std::io::Write;
use thiserror::Error;

/// Exact solvers, endgame databases and analysis tools for mancala games.
#[derive(Debug, Parser)]
#[command(name = "mancala", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the legal moves of a position with the position after each.
    Moves(moves::Args),
    /// Play moves from a position and print the position they lead to.
    Apply(apply::Args),
    /// Draw a position on the terminal.
    Show(show::Args),
    /// Count the move sequences of each length from a position.
    Perft(perft::Args),
}

/// What every command reads: the game and a position of it.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// The game: NAME or NAME:NxS (kalah, awari, akon, djenon-abe, anywoli,
    /// dakon; e.g. dakon:5x5).
    #[arg(long, value_name = "GAME")]
    pub game: String,
    /// The position, e.g. "S 4,4,4/4,4,4 0-0" (default: the start position).
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
}

impl GameArgs {
    /// The variant and the position, validated.
    pub fn resolve(&self) -> Result<(Variant, Position), CliError> {
        let variant: Variant = self.game.parse()?;
        let pos = match &self.position {
            None => variant.start(),
            Some(text) => variant
                .parse_position(text)
                .map_err(|e| CliError::Position(text.clone(), e))?,
        };
        Ok((variant, pos))
    }
}

/// A command failure: bad input (exit status 2) or an output error.
#[derive(Debug, Error)]
pub enum CliError {
    /// A malformed game spec.
    #[error("bad --game: {0}")]
    Variant(#[from] VariantError),
    /// A malformed or impossible position.
    #[error("bad --position {0:?}: {1}")]
    Position(String, NotationError),
    /// A move that is not a move, or not legal.
    #[error("{0}")]
    Move(String),
    /// Writing the output failed.
    #[error("cannot write the output: {0}")]
    Io(#[from] std::io::Error),
}

impl CliError {
    /// An illegal move with its place in the sequence.
    pub fn illegal(index: usize, pos: &Position, err: MoveError) -> CliError {
        CliError::Move(format!("move #{} in position \"{pos}\": {err}", index + 1))
    }
}

/// Runs a parsed command line, writing its output to `out`.
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<(), CliError> {
    match cli.command {
        Command::Moves(a) => moves::run(&a, out),
        Command::Apply(a) => apply::run(&a, out),
        Command::Show(a) => show::run(&a, out),
        Command::Perft(a) => perft::run(&a, out),
    }
}
