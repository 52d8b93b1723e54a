//! The `mancala` command: parses the command line, runs the command, and
//! maps every failure on bad input to exit status 2 with a message on stderr
//! and nothing on stdout.

mod cli;

use clap::Parser;
use std::io::{ErrorKind, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli::run(args, &mut out).and_then(|()| Ok(out.flush()?)) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`mancala perft ... | head`) is not an error.
        Err(cli::CliError::Io(e)) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e @ cli::CliError::Incomplete(_)) => {
            eprintln!("{e}");
            ExitCode::from(3)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
