//! `--trace`: a solve prints a line on stderr for each null-window search
//! (threshold, horizon, result, whether it answers, nodes, seconds), and
//! its output is what it is without the option.

use crate::common;

/// The lines `mancala ARGS --trace` printed on stderr, after checking that
/// it succeeded with the stdout of `mancala ARGS`.
fn traced(args: &[&str]) -> Vec<String> {
    let plain = common::ok(args);
    let mut with = args.to_vec();
    with.push("--trace");
    let out = common::run(&with);
    assert_eq!(out.status.code(), Some(0), "{with:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), plain, "{with:?}");
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The threshold and result of a trace line, checking its form.
fn parse(line: &str) -> (i32, &str, i32) {
    let (_, rest) = line.split_once(" to move, g >= ").expect(line);
    let (beta, rest) = rest.split_once('?').expect(line);
    let (_, rest) = rest.split_once(": ").expect(line);
    let (verdict, rest) = rest.split_once(", g ").expect(line);
    let (bound, rest) = rest.split_once(' ').expect(line);
    let (result, _) = rest.split_once([';', ' ']).expect(line);
    assert!(rest.contains(" nodes, ") && line.ends_with(" s"), "{line}");
    assert_eq!(verdict == "yes", bound == ">=", "{line}");
    (
        beta.parse().expect(line),
        verdict,
        result.parse().expect(line),
    )
}

#[test]
fn trace_prints_each_search_and_leaves_the_output_alone() {
    let lines = traced(&["solve", "--game", "akon:4x3", "--threads", "1"]);
    assert!(!lines.is_empty());
    for line in &lines {
        let (beta, verdict, result) = parse(line);
        assert_eq!(verdict == "yes", result >= beta, "{line}");
        assert!(
            line.contains(" horizon "),
            "Akon's positions repeat: {line}"
        );
    }
    assert!(lines.iter().any(|l| l.contains("not an answer")));
    // Kalah's positions never repeat: no horizon.
    let lines = traced(&["solve", "--game", "kalah:4x4", "--threads", "1"]);
    assert!(!lines.is_empty());
    for line in &lines {
        parse(line);
        assert!(!line.contains("horizon"), "{line}");
    }
}
