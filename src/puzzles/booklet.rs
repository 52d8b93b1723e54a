//! A collection as a booklet: Markdown pages and one SVG diagram per
//! puzzle, as file names and contents, ready to be written together
//! ([`crate::atomic_file::write_dir`]).
//!
//! The files:
//!
//! - `README.md`: the puzzles, by grade, each with its diagram
//!   (`NN.svg`), "South to play and win by V", its grade, seeds and
//!   moves, and how to try it against the perfect player;
//! - `solutions.md`: for each puzzle the key move, the forced line to the
//!   first capture with the decisions marked, and every wrong move with
//!   the value it leaves and its refutation;
//! - `NN.svg`: the diagram of puzzle `NN` ([`crate::svg::board`]).
//!
//! Everything in them comes from the [`Entry`]s and [`Report`]s given, so
//! the same collection gives the same bytes.

use super::collection::{Entry, Report};
use super::grade::{Grade, MAX_PASSES, MIN_OCCUPIED};
use super::measures::Ply;
use crate::side::Side;
use crate::variant::Variant;
use std::fmt::Write;

/// The name of puzzle `i`'s diagram (counting from 1): `NN.svg`.
pub fn diagram_name(i: usize) -> String {
    format!("{i:02}.svg")
}

/// `S 8!` or `N pass`: a ply with its mover, a decision marked `!`.
fn ply_text(p: &Ply) -> String {
    let side = match p.mover {
        Side::South => 'S',
        Side::North => 'N',
    };
    let mark = if p.is_decision() { "!" } else { "" };
    let take = match p.captures {
        0 => String::new(),
        c if c > 0 => format!(" (+{c})"),
        c => format!(" ({c})"),
    };
    format!("{side} {}{mark}{take}", p.mv)
}

fn plies_text(plies: &[Ply]) -> String {
    plies.iter().map(ply_text).collect::<Vec<_>>().join(", ")
}

/// "win by 8", "lose by 2", "draw".
fn outcome(v: i32) -> String {
    match v {
        v if v > 0 => format!("win by {v}"),
        v if v < 0 => format!("lose by {}", -v),
        _ => "draw".to_string(),
    }
}

/// The booklet's files (module docs) for `entries` of `variant`, mined
/// from the levels of `reports`.
pub fn booklet(variant: &Variant, entries: &[Entry], reports: &[Report]) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let game = variant.game().name();
    let mut book = String::new();
    let mut sol = String::new();
    let levels: Vec<String> = reports.iter().map(|r| r.seeds.to_string()).collect();
    let _ = writeln!(book, "# {} puzzles\n", capitalised(game));
    let _ = writeln!(
        book,
        "{} puzzles mined from the endgame databases of `{variant}` (levels of {} seeds \
on the board), graded from easy to expert. In each, South is to move and nothing \
has been captured yet; exactly one move keeps South's win, and the value counts \
the seeds still on the board. The solutions, with every wrong move and what \
refutes it, are in [solutions.md](solutions.md).\n",
        entries.len(),
        levels.join(", ")
    );
    let top = reports.iter().map(|r| r.seeds).max().unwrap_or(0);
    let _ = writeln!(
        book,
        "Try one against the perfect player: it says whether your first move is \
right or how much it loses, and then defends (or punishes) perfectly. With the \
databases built once (`mancala db build --game {game} --max-seeds {top} --dir DIR`):\n\n    \
mancala play --game {game} --position \"POSITION\" --db DIR --puzzle\n"
    );
    let _ = writeln!(book, "## How the puzzles were chosen and graded\n");
    let _ = writeln!(
        book,
        "A puzzle's *line* is the forced play to the first capture: both sides keep \
the value, South hurries and North delays. A ply is a *decision* when its \
side had more than one legal move (a pass never is). A wrong move *tempts* \
when it captures at once. Points: one per decision of South on the line (the \
key move included), one per two decisions of North, two per tempting wrong move, two when the key move \
captures nothing, one for four wrong moves or more. Grades: easy up to 3 \
points, medium 4 to 6, hard 7 to 10, expert 11 and more.\n"
    );
    let _ = writeln!(
        book,
        "Only natural positions are shown: each side has at least {MIN_OCCUPIED} \
occupied pits and the line has at most {MAX_PASSES} pass. Positions one seed \
move apart with the same key move and value form a family, of which only the \
hardest (then best) is shown, and no two puzzles of a level share an idea: the \
same value and the same moves on the line (positions further apart can share \
one).\n"
    );
    let _ = writeln!(
        book,
        "| seeds | candidates | measured | natural (easy/medium/hard/expert) | families | shown |"
    );
    let _ = writeln!(book, "|---:|---:|---:|---|---|---|");
    for r in reports {
        let q = |a: &[u64; 4]| a.iter().map(u64::to_string).collect::<Vec<_>>().join("/");
        let _ = writeln!(
            book,
            "| {} | {} | {} | {} | {} | {} |",
            r.seeds,
            r.candidates,
            r.measured,
            q(&r.natural),
            q(&r.families),
            q(&r.chosen)
        );
    }
    let _ = writeln!(
        book,
        "\n(candidates: boards South wins with exactly one move, each side with at \
least {MIN_OCCUPIED} occupied pits; measured: all of them or a fixed sample.)\n"
    );
    let _ = writeln!(sol, "# Solutions\n");
    let _ = writeln!(
        sol,
        "Plies are written `S 8` (South sows pit 8) or `N pass`; `!` marks a \
decision (more than one legal move), `(+4)` what the mover captured on that \
ply (net). The line runs to the first capture, both sides keeping the value. \
A wrong move's value is what South gets after it with best play; its \
refutation is the play after it, up to North's first move, each side keeping \
the value and taking the most it can at once.\n"
    );
    let mut grade: Option<Grade> = None;
    for (i, e) in entries.iter().enumerate() {
        let number = i + 1;
        let m = &e.measures;
        if grade != Some(e.grade) {
            grade = Some(e.grade);
            let _ = writeln!(book, "## {}\n", capitalised(e.grade.name()));
        }
        let svg = diagram_name(number);
        files.push((
            svg.clone(),
            crate::svg::board(variant, &m.position, None).into_bytes(),
        ));
        let _ = writeln!(
            book,
            "### {number}. South to play and {}\n",
            outcome(m.value)
        );
        let _ = writeln!(book, "![Puzzle {number}]({svg})\n");
        let d = m.decisions();
        let _ = writeln!(
            book,
            "`{}` · {}, {} point{} · {} seeds (South {}, North {}) · {} legal moves, {} tempting · \
[solution](solutions.md#puzzle-{number})\n",
            m.position,
            e.grade,
            e.points,
            if e.points == 1 { "" } else { "s" },
            m.position.board_seeds(),
            m.seeds.south,
            m.seeds.north,
            m.moves,
            m.tempting(),
        );
        let _ = writeln!(sol, "## Puzzle {number}\n");
        let _ = writeln!(
            sol,
            "`{}`: South to play and {} ({}).\n",
            m.position,
            outcome(m.value),
            e.grade
        );
        let key = if m.solution_captures > 0 {
            format!("captures {}", m.solution_captures)
        } else {
            "captures nothing".to_string()
        };
        let _ = writeln!(sol, "Key move: **{}** ({key}).\n", m.solution);
        if let Some(line) = &m.line {
            let _ = writeln!(
                sol,
                "Line to the first capture ({} pl{}; decisions: South {}, North {}): {}\n",
                line.len(),
                if line.len() == 1 { "y" } else { "ies" },
                d.south,
                d.north,
                plies_text(line)
            );
        }
        let _ = writeln!(sol, "| wrong move | South then | loses | refutation |");
        let _ = writeln!(sol, "|---|---|---:|---|");
        for w in &m.wrong {
            let takes = if w.captures > 0 {
                format!(" (+{}, tempting)", w.captures)
            } else if w.captures < 0 {
                format!(" ({})", w.captures)
            } else {
                String::new()
            };
            let refutation = if w.refutation.is_empty() {
                "the game ends".to_string()
            } else {
                plies_text(&w.refutation)
            };
            let _ = writeln!(
                sol,
                "| {}{takes} | {} | {} | {refutation} |",
                w.mv,
                outcome(w.value),
                m.value - w.value
            );
        }
        let _ = writeln!(sol);
    }
    files.push(("solutions.md".to_string(), sol.into_bytes()));
    files.push(("README.md".to_string(), book.into_bytes()));
    files
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
