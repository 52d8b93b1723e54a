//! `mancala play`: a game against the perfect player at the terminal.
//!
//! The board is drawn after every move. On its turn the person types a pit
//! number (or `pass` where the rules make one), `hint` for the exact value
//! of every legal move, `undo` to take back the last move made with the
//! perfect player's reply, `moves` to list the legal moves again, or
//! `quit`. Anything else gets a message saying what is accepted, and the
//! question again. The perfect player answers with a best move of the
//! exact solver (and the databases, with `--db`), saying what it expects
//! the result to be. The game reads lines from stdin, so it can be driven
//! by a pipe: `printf '3\n1\n' | mancala play --game kalah:4x3`.
//!
//! With `--puzzle` the first move the person makes is judged against the
//! exact value of every move ([`mancala::puzzles::measures::judge`]):
//! "right" when it keeps the position's value, else "that loses N", and
//! the perfect player's reply, which keeps the punishment, is named as the
//! refutation.

use super::{CliError, GameArgs, SearchArgs};
use mancala::search::Solver;
use mancala::{dispatch, games::play, Move, MoveList, Position, Side, Variant};
use std::io::{BufRead, Write};

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// The side you play: south (moves first from the start) or north.
    #[arg(long = "as", value_name = "SIDE", default_value = "south")]
    side: SideArg,
    /// Treat the position as a puzzle: your first move is judged ("right",
    /// or "that loses N" with the value it leaves), and the perfect
    /// player's reply that follows is its refutation.
    #[arg(long)]
    puzzle: bool,
}

/// A side, as `--as` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SideArg {
    /// The bottom row, which moves first from the start.
    South,
    /// The top row.
    North,
}

/// What the person typed.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    Play(Move),
    Hint,
    Undo,
    Moves,
    Quit,
    Help,
}

fn parse_command(line: &str) -> Result<Command, String> {
    let word = line.trim().to_ascii_lowercase();
    match word.as_str() {
        "hint" | "h" => Ok(Command::Hint),
        "undo" | "u" => Ok(Command::Undo),
        "moves" | "m" => Ok(Command::Moves),
        "quit" | "q" | "exit" => Ok(Command::Quit),
        "help" | "?" => Ok(Command::Help),
        _ => word.parse::<Move>().map(Command::Play).map_err(|_| {
            format!(
                "{:?} is not understood: type a pit number, pass, hint, undo, moves or quit",
                line.trim()
            )
        }),
    }
}

/// A value from one side's view, in words: `you` takes the plain verb,
/// any other subject the `-s` form.
fn verdict(subject: &str, value: i32) -> String {
    let s = if subject == "you" { "" } else { "s" };
    match value {
        v if v > 0 => format!("{subject} win{s} by {v}"),
        v if v < 0 => format!("{subject} lose{s} by {}", -v),
        _ => format!("{subject} draw{s}"),
    }
}

fn legal_list(moves: &MoveList) -> String {
    let names: Vec<String> = moves.iter().map(|(m, _)| m.to_string()).collect();
    names.join(" ")
}

/// The game loop: reads the person's commands from `input`, writes
/// everything to `out`; `echo` repeats each line read after its prompt
/// (for input that is not typed at a terminal, so the transcript reads
/// as a dialogue).
pub fn run(
    args: &Args,
    input: &mut dyn BufRead,
    echo: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (variant, start) = args.game.resolve()?;
    let solver = args.search.solver(&variant, &start)?;
    let human = match args.side {
        SideArg::South => Side::South,
        SideArg::North => Side::North,
    };
    let mut game = Game {
        variant,
        solver,
        human,
        pos: start,
        history: Vec::new(),
    };
    writeln!(
        out,
        "{variant}: you play {}, the perfect player {}. Type a pit number, pass, hint, undo, moves or quit.",
        human.name(),
        human.other().name()
    )?;
    out.write_all(mancala::draw::draw(&game.variant, &game.pos).as_bytes())?;
    loop {
        let mut moves = MoveList::new();
        if let Some(score) = game.variant.generate(&game.pos, &mut moves) {
            let (me, them) = (score[human], score[human.other()]);
            let result = match me.cmp(&them) {
                std::cmp::Ordering::Greater => "you win",
                std::cmp::Ordering::Less => "you lose",
                std::cmp::Ordering::Equal => "a draw",
            };
            writeln!(
                out,
                "game over: South {}, North {}: {result}",
                score.south, score.north
            )?;
            return Ok(());
        }
        if game.pos.to_move() != human {
            game.machine_moves(out)?;
            continue;
        }
        write!(out, "your move ({}): ", legal_list(&moves))?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            writeln!(out, "no more input: the game stops at \"{}\"", game.pos)?;
            return Ok(());
        }
        if echo {
            writeln!(out, "{}", line.trim_end())?;
        }
        if line.trim().is_empty() {
            continue;
        }
        match parse_command(&line) {
            Err(message) => writeln!(out, "{message}")?,
            Ok(Command::Quit) => {
                writeln!(out, "you left the game at \"{}\"", game.pos)?;
                return Ok(());
            }
            Ok(Command::Help) => writeln!(
                out,
                "a pit number 1..{} of your row (or pass) plays it; hint gives every move's exact value; undo takes back your last move and the reply; moves lists the legal moves; quit leaves",
                game.pos.n()
            )?,
            Ok(Command::Moves) => writeln!(out, "legal moves: {}", legal_list(&moves))?,
            Ok(Command::Hint) => game.hint(out)?,
            Ok(Command::Undo) => game.undo(out)?,
            Ok(Command::Play(mv)) => {
                match dispatch!(game.variant.game(), R => play::<R>(&game.pos, mv)) {
                    Ok(next) => {
                        if args.puzzle && !game.history.iter().any(|p| p.to_move() == human) {
                            game.judge(mv, out)?;
                        }
                        game.history.push(game.pos);
                        game.pos = next;
                        writeln!(out, "you play {mv}")?;
                        out.write_all(mancala::draw::draw(&game.variant, &game.pos).as_bytes())?;
                    }
                    Err(e) => writeln!(out, "illegal: {e}")?,
                }
            }
        }
    }
}

/// A game under way.
struct Game {
    variant: Variant,
    solver: Solver,
    human: Side,
    pos: Position,
    /// The positions before each move made, oldest first.
    history: Vec<Position>,
}

impl Game {
    /// The perfect player's move: a best move of the solver.
    fn machine_moves(&mut self, out: &mut dyn Write) -> Result<(), CliError> {
        let pos = self.pos;
        let s = dispatch!(self.variant.game(), R => self.solver.solve::<R>(&pos))?;
        let mv = s.best.expect("the position is not over");
        let next = dispatch!(self.variant.game(), R => play::<R>(&pos, mv))
            .expect("the solver's move is legal");
        self.history.push(pos);
        self.pos = next;
        writeln!(
            out,
            "{} plays {mv} (with best play it {})",
            pos.to_move().name(),
            verdict("it", s.value).trim_start_matches("it ")
        )?;
        out.write_all(mancala::draw::draw(&self.variant, &self.pos).as_bytes())?;
        Ok(())
    }

    /// The exact value of every legal move, from the person's view.
    fn hint(&mut self, out: &mut dyn Write) -> Result<(), CliError> {
        let pos = self.pos;
        let values = dispatch!(self.variant.game(), R => self.solver.analyse::<R>(&pos))?;
        let best = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
        for (m, v) in values {
            let mark = if v == best { "  <- best" } else { "" };
            writeln!(out, "  {m}: {}{mark}", verdict("you", v))?;
        }
        Ok(())
    }

    /// Says whether the person's first move `mv` keeps the value, and what
    /// follows.
    fn judge(&mut self, mv: Move, out: &mut dyn Write) -> Result<(), CliError> {
        use mancala::puzzles::measures::{judge, Judgement};
        let pos = self.pos;
        let values = dispatch!(self.variant.game(), R => self.solver.analyse::<R>(&pos))?;
        match judge(&values, mv) {
            Some(Judgement::Right { value }) => {
                let only = values.iter().filter(|&&(_, v)| v == value).count() == 1;
                let which = if only { "the only move" } else { "a move" };
                writeln!(
                    out,
                    "right: {mv} is {which} that keeps the value (with best play {})",
                    verdict("you", value)
                )?;
            }
            Some(Judgement::Loses { loss, value }) => {
                let best: Vec<String> = values
                    .iter()
                    .filter(|&&(_, v)| v == value + loss)
                    .map(|(m, _)| m.to_string())
                    .collect();
                writeln!(
                    out,
                    "that loses {loss}: after {mv}, with best play {}; the move was {}. The reply refutes it:",
                    verdict("you", value),
                    best.join(" or ")
                )?;
            }
            None => {}
        }
        Ok(())
    }

    /// Takes back the person's last move and everything after it.
    fn undo(&mut self, out: &mut dyn Write) -> Result<(), CliError> {
        match self.history.iter().rposition(|p| p.to_move() == self.human) {
            None => writeln!(out, "nothing to undo")?,
            Some(i) => {
                self.pos = self.history[i];
                self.history.truncate(i);
                writeln!(out, "taken back")?;
                out.write_all(mancala::draw::draw(&self.variant, &self.pos).as_bytes())?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert_eq!(parse_command(" 3\n"), Ok(Command::Play(Move::Pit(3))));
        assert_eq!(parse_command("PASS"), Ok(Command::Play(Move::Pass)));
        assert_eq!(parse_command("hint"), Ok(Command::Hint));
        assert_eq!(parse_command("u"), Ok(Command::Undo));
        assert!(parse_command("x").is_err());
        assert!(parse_command("0").is_err());
    }
}
