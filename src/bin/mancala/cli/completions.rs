//! `mancala completions`: the shell completion script, printed.

use super::{Cli, CliError};
use clap::CommandFactory;
use std::io::Write;

/// Arguments of `completions`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_name = "SHELL")]
    shell: clap_complete::Shell,
}

/// Prints the completion script for the shell. Install it, e.g. for bash:
/// `mancala completions bash > ~/.local/share/bash-completion/completions/mancala`.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "mancala", &mut buf);
    out.write_all(&buf)?;
    Ok(())
}
