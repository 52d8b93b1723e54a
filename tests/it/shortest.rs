//! `mancala openings --shortest`: the proved shortest lengths equal those
//! of the exhaustive counts of `data/openings.md` (an independent
//! enumeration of every first turn); every opening printed replays, on
//! the plain rules of `tests/it/plain` and with `mancala apply`, to the
//! printed position and meets its criterion; bad input is refused with
//! exit status 2; a stopped search says so and exits with status 3.

use crate::common;
use crate::plain;

use common::run;

/// South's score after the first turn `moves` from the start of `spec`,
/// on the plain rules, and the position after it; panics when the moves
/// are not one first turn (every move but the last must leave South to
/// move, the last must end the turn).
fn replay(spec: &str, moves: &[&str]) -> (u32, String) {
    let (game, n, s) = plain::parse_game(spec);
    let mut p = plain::start(&game, n, s);
    for (i, m) in moves.iter().enumerate() {
        assert!(
            p.south_to_move && plain::terminal(spec, &p).is_none(),
            "{spec}: turn over before move {}",
            i + 1
        );
        p = plain::children(spec, &p)
            .into_iter()
            .find(|(mv, _)| mv == m)
            .unwrap_or_else(|| panic!("{spec}: move {m} (#{}) is not legal", i + 1))
            .1;
    }
    let score = match plain::terminal(spec, &p) {
        Some(fin) => fin[0],
        None => {
            assert!(
                !p.south_to_move,
                "{spec}: the turn does not end after the last move"
            );
            p.captured[0]
        }
    };
    (score, plain::format_pos(&p))
}

/// The threshold of a criterion, from rules.md: more than half of the
/// seeds, or all but one pit's worth.
fn need(n: u32, s: u32, strong: bool) -> u32 {
    let total = 2 * n * s;
    if strong {
        total - s
    } else {
        total / 2 + 1
    }
}

/// Runs the search and checks its opening; returns the summary line.
fn check(n: u32, strong: bool, extra: &[&str]) -> (Option<usize>, String, i32) {
    let spec = format!("dakon:{n}x{n}");
    let mut args = vec!["openings", "--game", &spec, "--shortest", "--quiet"];
    if strong {
        args.push("--strong");
    }
    args.extend(extra);
    let out = run(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let summary = lines.last().expect("a summary line").to_string();
    let mut len = None;
    if lines.len() == 2 {
        let (moves, after) = lines[0].split_once('\t').expect("MOVES<TAB>POSITION");
        let moves: Vec<&str> = moves.split(' ').collect();
        let (score, plain_after) = replay(&spec, &moves);
        assert!(
            score >= need(n, n, strong),
            "{spec}: {score} seeds do not win"
        );
        assert_eq!(after, plain_after, "{spec}: the position after the opening");
        let mut apply = vec!["apply", "--game", &spec];
        apply.extend(&moves);
        assert_eq!(
            common::ok(&apply).trim_end(),
            after,
            "{spec}: mancala apply"
        );
        len = Some(moves.len());
    } else {
        assert_eq!(lines.len(), 1, "{spec}: {text}");
    }
    (len, summary, out.status.code().unwrap_or(-1))
}

#[test]
fn proved_lengths_equal_the_exhaustive_counts() {
    // data/openings.md (every first turn counted): shortest majority and
    // strong openings of dakon:NxN.
    let known = [
        (3, 4, None),
        (4, 6, Some(12)),
        (5, 7, Some(24)),
        (6, 6, Some(19)),
        (7, 9, Some(25)),
    ];
    for (n, majority, strong) in known {
        let (len, summary, code) = check(n, false, &[]);
        assert_eq!((len, code), (Some(majority), 0), "dakon:{n}x{n} majority");
        assert_eq!(summary, format!("# shortest: {majority} moves, proved"));
        let (len, summary, code) = check(n, true, &[]);
        assert_eq!((len, code), (strong, 0), "dakon:{n}x{n} strong");
        match strong {
            Some(k) => assert_eq!(summary, format!("# shortest: {k} moves, proved")),
            None => assert_eq!(summary, "# no winning first turn"),
        }
    }
}

#[test]
fn a_stopped_search_prints_the_best_found() {
    // Two seconds are far from a proof on dakon:9x9 (strong), and enough
    // for the depth-first phase to find a winning turn.
    let (len, summary, code) = check(9, true, &["--stop-after", "2"]);
    assert_eq!(code, 3);
    let k = len.expect("an opening found");
    assert!(
        summary.starts_with(&format!(
            "# shortest found: {k} moves, not proved (stopped after "
        )),
        "{summary}"
    );
}

#[test]
fn json_holds_the_opening() {
    let out = common::ok(&[
        "openings",
        "--game",
        "dakon:4x4",
        "--shortest",
        "--strong",
        "--json",
        "--quiet",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["shortest"], 12);
    assert_eq!(doc["proved"], true);
    assert_eq!(doc["criterion"], "strong");
    let moves: Vec<&str> = doc["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 12);
    let (score, after) = replay("dakon:4x4", &moves);
    assert!(score >= need(4, 4, true));
    assert_eq!(doc["after"], after.as_str());
}

#[test]
fn bad_requests_are_refused() {
    for args in [
        &["openings", "--game", "dakon:4x4", "--shortest", "--count"][..],
        &["openings", "--game", "dakon:4x4", "--stop-after", "5"],
        &[
            "openings",
            "--game",
            "dakon:4x4",
            "--shortest",
            "--stop-after",
            "-1",
        ],
        &[
            "openings",
            "--game",
            "dakon:4x4",
            "--shortest",
            "--position",
            "N 4,4,4,4/4,4,4,4 0-0",
        ],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// The winning opening of Dakon-8 found by players of the Maldives, as
/// van den Herik, Uiterwijk and van Rijswijck (2002, section 2.2.3) quote
/// it from Donkers, de Voogt and Uiterwijk (2000): 93 moves, after which
/// "there are only three stones left in the opponent's holes".
const MALDIVES: &str = "1 8 8 6 4 6 2 3 7 4 5 1 8 8 3 8 4 8 7 8 5 2 7 8 6 5 6 3 7 4 5 2 5 8 8 6 8 3 8 5 8 7 4 8 7 8 7 8 8 6 8 7 8 4 8 6 8 3 8 6 8 5 8 6 1 8 7 8 5 8 4 6 7 8 8 5 6 8 3 8 1 8 7 8 2 8 6 8 5 8 6 8 3";

#[test]
fn the_maldives_opening_leaves_three_seeds_to_north() {
    let moves: Vec<&str> = MALDIVES.split(' ').collect();
    assert_eq!(moves.len(), 93);
    let (score, after) = replay("dakon:8x8", &moves);
    // Three seeds left on North's row (the paper says nothing of South's),
    // and at least 2n^2 - n = 120 captured, as the paper's criterion asks.
    let p = plain::parse_pos(&after);
    assert_eq!(p.pits[8..].iter().sum::<u32>(), 3, "{after}");
    assert!(score >= need(8, 8, true), "{after}");
    let mut apply = vec!["apply", "--game", "dakon:8x8"];
    apply.extend(&moves);
    assert_eq!(common::ok(&apply).trim_end(), after);
}
