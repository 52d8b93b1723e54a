//! `mancala analyse`: the exact value of every legal move.

use super::{CliError, GameArgs, SearchArgs};
use mancala::search::{Line, LineEnd};
use mancala::{dispatch, Position, Side};
use std::io::Write;

/// Arguments of `analyse`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// Print one JSON object: {"position", "moves": [{"move", "value"}...],
    /// "nodes", "seconds"} (with --line also "line": [moves] and "end").
    #[arg(long)]
    json: bool,
    /// After the moves, the principal variation: moves that keep the value,
    /// each with the seeds it captured (and for whom) and the position
    /// drawn, until the game ends or a position repeats.
    #[arg(long)]
    line: bool,
    /// The most moves the line shows.
    #[arg(long, value_name = "PLIES", default_value_t = 1000, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    max_plies: usize,
}

/// Prints `MOVE<TAB>VALUE` per legal move, in the order of `moves`: the
/// game value of the position (side to move's view) if that move is played
/// and both sides play perfectly afterwards. Nothing on a terminal position.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let (variant, pos) = args.game.resolve()?;
    let start = std::time::Instant::now();
    let searched = super::extend::run(
        &args.search,
        &variant,
        &pos,
        |solver| dispatch!(variant.game(), R => solver.analyse::<R>(&pos)),
    )?;
    let (values, mut solver) = (searched.value, searched.solver);
    let line = if args.line {
        Some(args.search.with_progress(
            solver.progress(),
            || dispatch!(variant.game(), R => solver.principal_variation::<R>(&pos, args.max_plies)),
        )?)
    } else {
        None
    };
    let mut text = String::new();
    if args.json {
        let moves: Vec<_> = values
            .iter()
            .map(|(m, v)| serde_json::json!({"move": m.to_string(), "value": v}))
            .collect();
        let mut doc = serde_json::json!({
            "game": variant.to_string(),
            "position": pos.to_string(),
            "moves": moves,
            "nodes": solver.nodes(),
            "seconds": start.elapsed().as_secs_f64(),
            "built_in_memory": super::extend::json(searched.built),
        });
        if let Some(l) = &line {
            doc["line"] = l.steps.iter().map(|(m, _)| m.to_string()).collect();
            doc["end"] = line_end(l, &pos).into();
        }
        text = super::json::line(&doc);
    } else {
        for (m, v) in values {
            text.push_str(&format!("{m}\t{v}\n"));
        }
        if let Some(l) = &line {
            text.push_str("# line\n");
            let mut before = pos;
            for (ply, (m, after)) in l.steps.iter().enumerate() {
                let mover = before.to_move();
                let took = |side: Side| after.captured(side) - before.captured(side);
                text.push_str(&format!(
                    "{}. {} plays {m}: South takes {}, North takes {} ({}-{})\n",
                    ply + 1,
                    side_name(mover),
                    took(Side::South),
                    took(Side::North),
                    after.captured(Side::South),
                    after.captured(Side::North)
                ));
                text.push_str(&mancala::draw::draw(&variant, after));
                before = *after;
            }
            text.push_str(&format!("# {}\n", line_end(l, &pos)));
        }
    }
    out.write_all(text.as_bytes())?;
    Ok(())
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// How the line ends, in words: `end S-N` (final scores), a repetition
/// (with the captured seeds, the rest going to nobody) or the length limit.
fn line_end(line: &Line, start: &Position) -> String {
    let last = line.steps.last().map_or(start, |(_, p)| p);
    let captured = format!(
        "{}-{}",
        last.captured(Side::South),
        last.captured(Side::North)
    );
    match line.end {
        LineEnd::Over(score) => format!("end {}-{}", score[Side::South], score[Side::North]),
        LineEnd::Repetition => format!(
            "repetition {captured}: play goes round for ever, the {} seeds on the board go to nobody",
            last.board_seeds()
        ),
        LineEnd::Limit => format!("stopped {captured} after {} moves", line.steps.len()),
    }
}
