//! Conformance samples (`tests/data/conformance_moves.jsonl`, a copy of
//! `shared/spec/conformance/moves.jsonl`): exact `moves` output computed by an
//! independent implementation of `rules.md`. Every mismatch is collected and
//! listed before failing.

use crate::common;

use common::{run, text};

struct Sample {
    line: usize,
    game: String,
    position: String,
    moves: Vec<String>,
}

fn samples() -> Vec<Sample> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/conformance_moves.jsonl"
    );
    let data =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {}", path, e));
    let mut out = Vec::new();
    for (i, line) in data.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{}:{}: bad JSON: {}", path, i + 1, e));
        let field = |k: &str| -> String {
            v[k].as_str()
                .unwrap_or_else(|| panic!("{}:{}: no string field {:?}", path, i + 1, k))
                .to_string()
        };
        let moves = v["moves"]
            .as_array()
            .unwrap_or_else(|| panic!("{}:{}: no array field \"moves\"", path, i + 1))
            .iter()
            .map(|m| {
                m.as_str()
                    .unwrap_or_else(|| panic!("{}:{}: non-string move line", path, i + 1))
                    .to_string()
            })
            .collect();
        out.push(Sample {
            line: i + 1,
            game: field("game"),
            position: field("position"),
            moves,
        });
    }
    assert!(!out.is_empty(), "{} holds no samples", path);
    out
}

/// Runs `mancala ARGS`: its exit status, stdout and stderr as text.
fn outcome(args: &[&str]) -> (Option<i32>, String, String) {
    let out = run(args);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn conformance_moves_output_matches_every_sample() {
    let all = samples();
    let mut mismatches = Vec::new();
    for s in &all {
        let (code, stdout, stderr) =
            outcome(&["moves", "--game", &s.game, "--position", &s.position]);
        if code != Some(0) {
            mismatches.push(format!(
                "line {}: moves --game {} --position {:?}: exit status {:?}, stderr {:?}",
                s.line, s.game, s.position, code, stderr
            ));
            continue;
        }
        let got: Vec<String> = stdout.lines().map(|l| l.to_string()).collect();
        if got != s.moves {
            let mut msg = format!(
                "line {}: moves --game {} --position {:?}",
                s.line, s.game, s.position
            );
            for m in s.moves.iter().filter(|m| !got.contains(m)) {
                msg.push_str(&format!("\n    missing:    {:?}", m));
            }
            for g in got.iter().filter(|g| !s.moves.contains(g)) {
                msg.push_str(&format!("\n    unexpected: {:?}", g));
            }
            if got.len() == s.moves.len() && got.iter().all(|g| s.moves.contains(g)) {
                msg.push_str(&format!(
                    "\n    wrong order: expected {:?}\n                 got      {:?}",
                    s.moves, got
                ));
            }
            mismatches.push(msg);
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} conformance samples differ:\n{}",
        mismatches.len(),
        all.len(),
        mismatches.join("\n")
    );
}

#[test]
fn conformance_apply_agrees_with_every_sample_move() {
    let all = samples();
    let mut mismatches = Vec::new();
    let mut checked = 0;
    for s in &all {
        for line in &s.moves {
            let mut parts = line.splitn(2, '\t');
            let (mv, after) = match (parts.next(), parts.next()) {
                (Some(mv), Some(after)) => (mv, after),
                _ => continue, // an `end S-N` line
            };
            checked += 1;
            let (code, stdout, stderr) =
                outcome(&["apply", "--game", &s.game, "--position", &s.position, mv]);
            if code != Some(0) || stdout.trim_end_matches('\n') != after {
                mismatches.push(format!(
                    "line {}: apply --game {} --position {:?} {}: expected {:?}, got status {:?} stdout {:?} stderr {:?}",
                    s.line, s.game, s.position, mv, after, code, stdout, stderr
                ));
            }
        }
    }
    assert!(checked > 0);
    assert!(
        mismatches.is_empty(),
        "{} of {} sample moves differ under apply:\n{}",
        mismatches.len(),
        checked,
        mismatches.join("\n")
    );
}
