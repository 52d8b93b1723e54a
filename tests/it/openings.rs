//! `mancala openings` against a plain recursive enumeration of South's first
//! turns on the plain rules of `tests/it/plain` (written from the rules
//! document alone): the same winning openings, in the same order, and the
//! same summary line, for both criteria; every listed opening replays with
//! `apply` to the printed position and meets its criterion; counting agrees
//! with listing.

use crate::common;
use crate::plain;

use common::{run, TempDir};
use mancala::games::dakon::Dakon;
use mancala::openings::{Checkpoint, Criterion, Explorer};
use plain::PlainPos;

fn mancala(args: &[&str]) -> Vec<String> {
    common::ok(args).lines().map(String::from).collect()
}

/// Every first turn from `p`: (moves, position after, South's score after
/// it: the final score if the game is over, else South's store).
fn first_turns(
    game: &str,
    p: &PlainPos,
    path: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, PlainPos, u32)>,
) {
    for (m, child) in plain::children(game, p) {
        path.push(m);
        if let Some(fin) = plain::terminal(game, &child) {
            out.push((path.clone(), child, fin[0]));
        } else if child.south_to_move {
            first_turns(game, &child, path, out);
        } else {
            let store = child.captured[0];
            out.push((path.clone(), child, store));
        }
        path.pop();
    }
}

/// The lines `openings` must print: the winning turns in move order, then
/// the summary.
fn expected(spec: &str, strong: bool) -> Vec<String> {
    let (game, n, s) = plain::parse_game(spec);
    let start = plain::start(&game, n, s);
    let total = 2 * n as u32 * s;
    let need = if strong { total - s } else { total / 2 + 1 };
    let mut turns = Vec::new();
    first_turns(spec, &start, &mut Vec::new(), &mut turns);
    // Move sequences in pit order, move by move.
    let key =
        |moves: &Vec<String>| -> Vec<u32> { moves.iter().map(|m| m.parse().unwrap()).collect() };
    turns.sort_by_key(|(moves, _, _)| key(moves));
    let winning: Vec<_> = turns.iter().filter(|t| t.2 >= need).collect();
    let mut lines: Vec<String> = winning
        .iter()
        .map(|(moves, after, _)| format!("{}\t{}", moves.join(" "), plain::format_pos(after)))
        .collect();
    let lens: Vec<usize> = winning.iter().map(|t| t.0.len()).collect();
    let show = |x: Option<&usize>| x.map_or("-".to_string(), |l| l.to_string());
    lines.push(format!(
        "# winning {} of {} first turns, shortest {}, longest {}",
        winning.len(),
        turns.len(),
        show(lens.iter().min()),
        show(lens.iter().max())
    ));
    lines
}

const SMALL: [&str; 9] = [
    "dakon:2x2",
    "dakon:3x2",
    "dakon:3x3",
    "dakon:4x3",
    "dakon:4x4",
    "dakon:5x4",
    "dakon:5x5",
    "kalah:4x3",
    "kalah:6x2",
];

#[test]
fn listing_matches_a_plain_enumeration() {
    for spec in SMALL {
        for strong in [false, true] {
            let mut args = vec!["openings", "--game", spec, "--quiet"];
            if strong {
                args.push("--strong");
            }
            let got = mancala(&args);
            let want = expected(spec, strong);
            assert_eq!(got, want, "{spec} strong={strong}");
            // Counting gives the same summary, in parallel too, and
            // whether it is cut into jobs after the first moves or not
            // (the small boards have fewer than the default 20,000).
            for threads in ["1", "2"] {
                for (jobs, memory) in [("1", "0"), ("7", "0"), ("20000", "0"), ("7", "16")] {
                    let mut count = args.clone();
                    count.extend(["--count", "--threads", threads, "--jobs", jobs]);
                    count.extend(["--memory", memory]);
                    assert_eq!(
                        mancala(&count),
                        [want.last().unwrap().clone()],
                        "{spec} --count --jobs {jobs} --memory {memory}"
                    );
                }
            }
        }
    }
}

#[test]
fn dakon_3_has_no_strong_winning_opening() {
    // Donkers, de Voogt and Uiterwijk (2000): none for Dakon-3.
    let lines = mancala(&["openings", "--game", "dakon:3x3", "--strong", "--quiet"]);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("# winning 0 of "), "{lines:?}");
}

#[test]
fn every_listed_opening_replays_and_wins() {
    for spec in ["dakon:4x4", "dakon:5x5"] {
        let (_, n, s) = plain::parse_game(spec);
        let total = 2 * n as u32 * s;
        for strong in [false, true] {
            let need = if strong { total - s } else { total / 2 + 1 };
            let mut args = vec!["openings", "--game", spec, "--quiet"];
            if strong {
                args.push("--strong");
            }
            let lines = mancala(&args);
            let (summary, openings) = lines.split_last().unwrap();
            let winning: usize = summary.split(' ').nth(2).unwrap().parse().unwrap();
            assert_eq!(openings.len(), winning, "{summary}");
            // A sample of every listed opening (all of the strong ones).
            for line in openings.iter().step_by(if strong { 1 } else { 25 }) {
                let (moves, after) = line.split_once('\t').unwrap();
                let mut apply = vec!["apply", "--game", spec];
                apply.extend(moves.split(' '));
                assert_eq!(mancala(&apply), [after.to_string()], "{spec}: {line}");
                // Every move but the last gave South the move again: the
                // prefix positions have South to move.
                let moves: Vec<&str> = moves.split(' ').collect();
                for k in 1..moves.len() {
                    let mut prefix = vec!["apply", "--game", spec];
                    prefix.extend(&moves[..k]);
                    let pos = mancala(&prefix);
                    assert!(
                        pos[0].starts_with("S "),
                        "{spec}: {line}: after {k} moves {pos:?}"
                    );
                }
                let end = mancala(&["moves", "--game", spec, "--position", after]);
                let south: u32 = match end[0].strip_prefix("end ") {
                    Some(score) => score.split('-').next().unwrap().parse().unwrap(),
                    None => {
                        assert!(after.starts_with("N "), "{line}");
                        after
                            .rsplit(' ')
                            .next()
                            .unwrap()
                            .split('-')
                            .next()
                            .unwrap()
                            .parse()
                            .unwrap()
                    }
                };
                assert!(
                    south >= need,
                    "{spec}: {line}: South has {south}, needs {need}"
                );
            }
        }
    }
}

#[test]
fn a_position_without_a_first_turn_for_south_is_refused() {
    for position in ["N 1,1,1/1,1,1 6-6", "S 0,0,0/1,2,0 10-5"] {
        let out = run(&["openings", "--game", "dakon:3x3", "--position", position]);
        assert_eq!(out.status.code(), Some(2), "{position}");
        assert!(out.stdout.is_empty());
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
}

#[test]
fn both_criteria_in_one_walk_match_two_runs() {
    for spec in [
        "dakon:3x3",
        "dakon:4x4",
        "dakon:5x5",
        "dakon:4x3",
        "kalah:3x3",
    ] {
        let majority = mancala(&["openings", "--game", spec, "--quiet"]);
        let strong = mancala(&["openings", "--game", spec, "--strong", "--count", "--quiet"]);
        for extra in [
            &[][..],
            &["--count"][..],
            &["--count", "--threads", "2"][..],
        ] {
            let mut args = vec!["openings", "--game", spec, "--both", "--quiet"];
            args.extend(extra);
            let both = mancala(&args);
            let (last, rest) = both.split_last().unwrap();
            let (strong_line, listed) = rest.split_last().unwrap();
            assert_eq!(last, majority.last().unwrap(), "{spec} {extra:?}");
            assert_eq!(
                strong_line,
                &format!("# strong: {}", &strong[0][2..]),
                "{spec} {extra:?}"
            );
            if extra.is_empty() {
                assert_eq!(listed, &majority[..majority.len() - 1], "{spec}");
            } else {
                assert!(listed.is_empty());
            }
        }
    }
    // --both and --strong together are refused.
    let out = run(&["openings", "--game", "dakon:3x3", "--both", "--strong"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Runs `mancala ARGS` and returns (exit status, stdout lines, stderr).
fn status(args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let out = run(args);
    let stdout = String::from_utf8(out.stdout).unwrap();
    (
        out.status.code(),
        stdout.lines().map(String::from).collect(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn an_interrupted_count_resumes_from_its_checkpoint() {
    let dir = TempDir::new("openings-checkpoint");
    let file = dir.0.join("ck");
    let ck = file.to_str().unwrap();
    let spec = "dakon:5x5";
    let want = expected(spec, false);
    let count = |extra: &[&str]| {
        let mut args = vec![
            "openings", "--game", spec, "--count", "--quiet", "--jobs", "50",
        ];
        args.extend(["--checkpoint", ck]);
        args.extend(extra);
        status(&args)
    };
    // Stopped before any job: exit status 3, a partial report on stdout,
    // and a checkpoint with nothing done.
    let (code, lines, _) = count(&["--stop-after", "0"]);
    assert_eq!(code, Some(3));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("# partial: 0 of "), "{lines:?}");
    assert_eq!(lines[1], "# extrapolated: nothing yet (no job done)");
    let c = Checkpoint::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(c.done.is_empty() && c.jobs >= 50);
    let (code, lines, _) = count(&["--stop-after", "0", "--json"]);
    assert_eq!(code, Some(3));
    let doc: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(doc["partial"], true);
    assert_eq!(doc["done"], 0);
    assert_eq!(doc["jobs"], c.jobs);
    // Resumed to the end: the plain enumeration's summary.
    let (code, lines, _) = count(&[]);
    assert_eq!((code, &lines[..]), (Some(0), &want[want.len() - 1..]));
    let full = Checkpoint::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(full.done.len(), full.jobs);
    let variant: mancala::Variant = spec.parse().unwrap();
    let need = Criterion::Majority.threshold(variant.start().total_seeds(), variant.s());
    let explorer = Explorer::<Dakon>::new(need, 0);
    let split = explorer.split_at(&variant.start(), full.depth);
    assert_eq!(split.jobs.len(), full.jobs);
    // Half of the jobs forgotten (a count killed half-way): resumed, the
    // same summary; with every job done, the file alone answers.
    for keep in [full.jobs / 2, full.jobs] {
        let mut half = full.clone();
        half.done.retain(|&j, _| j < keep);
        std::fs::write(&file, half.to_text()).unwrap();
        if keep < full.jobs {
            // Stopped at once: what the kept jobs hold, and an estimate.
            let (code, lines, _) = count(&["--stop-after", "0"]);
            assert_eq!(code, Some(3));
            let so_far = split.combine(&half.done);
            assert_eq!(
                lines[0],
                format!(
                    "# partial: {} of {} jobs done in {:.0} s: winning {} of {} first turns so far, \
                     shortest {}, longest {}",
                    half.done.len(),
                    full.jobs,
                    half.seconds,
                    so_far.wins[0].winning,
                    so_far.turns,
                    so_far.wins[0].shortest.unwrap(),
                    so_far.wins[0].longest.unwrap()
                )
            );
            assert!(lines[1].starts_with("# extrapolated: about "), "{lines:?}");
        }
        let (code, lines, _) = count(&[]);
        assert_eq!(
            (code, &lines[..]),
            (Some(0), &want[want.len() - 1..]),
            "kept {keep}"
        );
    }
    // The same with both criteria, from a fresh file.
    std::fs::remove_file(&file).unwrap();
    let both = mancala(&["openings", "--game", spec, "--count", "--both", "--quiet"]);
    let (_, lines, _) = count(&["--both", "--stop-after", "0"]);
    assert!(lines[0].contains(" strong)"), "{lines:?}");
    assert_eq!(count(&["--both"]).1, both);
}

#[test]
fn a_stop_drops_the_jobs_under_way() {
    // One job, the whole of dakon:7x7 (45 minutes of counting): the stop
    // must not wait for it.
    let (code, lines, err) = status(&[
        "openings",
        "--game",
        "dakon:7x7",
        "--count",
        "--quiet",
        "--jobs",
        "1",
        "--threads",
        "2",
        "--stop-after",
        "0.5",
    ]);
    assert_eq!(code, Some(3), "{err}");
    assert!(
        lines[0].starts_with("# partial: 0 of 1 jobs done in "),
        "{lines:?}"
    );
    assert_eq!(lines[1], "# extrapolated: nothing yet (no job done)");
}

#[test]
fn a_checkpoint_of_another_count_or_damaged_is_refused() {
    let dir = TempDir::new("openings-refused");
    let file = dir.0.join("ck");
    let ck = file.to_str().unwrap();
    let args = |spec: &'static str| {
        vec![
            "openings",
            "--game",
            spec,
            "--count",
            "--quiet",
            "--jobs",
            "20",
            "--checkpoint",
            ck,
        ]
    };
    mancala(&args("dakon:5x5"));
    let good = std::fs::read_to_string(&file).unwrap();
    let refused = |what: &str, extra: &[&str]| {
        let mut a = args("dakon:5x5");
        a.extend(extra);
        let (code, lines, err) = status(&a);
        assert_eq!(code, Some(2), "{what}: {err}");
        assert!(lines.is_empty(), "{what}");
        assert!(err.starts_with("error: checkpoint "), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        err
    };
    // Another game, another criterion.
    let (code, _, err) = status(&args("dakon:4x4"));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("made for --game dakon:5x5"), "{err}");
    refused("strong", &["--strong"]);
    // A valid file whose cut is not this one's.
    let mut other = Checkpoint::parse(&good).unwrap();
    other.fingerprint ^= 1;
    std::fs::write(&file, other.to_text()).unwrap();
    assert!(refused("cut", &[]).contains("not this version's cut"));
    // A changed count, a cut file, an empty file.
    let line = good.lines().find(|l| l.starts_with("done ")).unwrap();
    let changed = line.replacen("done ", "done 1", 1);
    std::fs::write(&file, good.replacen(line, &changed, 1)).unwrap();
    assert!(refused("changed", &[]).contains("checksum"));
    std::fs::write(&file, &good[..good.len() / 2]).unwrap();
    assert!(refused("cut", &[]).contains("checksum"));
    std::fs::write(&file, "").unwrap();
    refused("empty", &[]);
    // The file is left as it was.
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "");
    for bad in ["-1", "nan", "inf", "soon"] {
        let (code, _, err) = status(&[
            "openings",
            "--game",
            "dakon:3x3",
            "--count",
            "--stop-after",
            bad,
        ]);
        assert_eq!(code, Some(2), "{bad}: {err}");
    }
    // A checkpoint or a stop without --count is a usage error.
    for flag in [["--checkpoint", ck], ["--stop-after", "5"]] {
        let (code, _, _) = status(&["openings", "--game", "dakon:3x3", flag[0], flag[1]]);
        assert_eq!(code, Some(2), "{flag:?}");
    }
}

/// What a plain walk counts for one criterion: (turns, winning, shortest
/// and longest winning).
type Tally = (u64, u64, u32, u32);

/// Counts the first turns from `p` with the plain rules, without keeping
/// them, for each criterion of `needs` at once (one walk, one tally each).
fn plain_count(game: &str, p: &PlainPos, len: u32, needs: &[u32], acc: &mut [Tally]) {
    for (_, child) in plain::children(game, p) {
        let score = match plain::terminal(game, &child) {
            Some(fin) => fin[0],
            None if child.south_to_move => {
                plain_count(game, &child, len + 1, needs, acc);
                continue;
            }
            None => child.captured[0],
        };
        for (&need, acc) in needs.iter().zip(acc.iter_mut()) {
            acc.0 += 1;
            if score >= need {
                acc.1 += 1;
                acc.2 = acc.2.min(len + 1);
                acc.3 = acc.3.max(len + 1);
            }
        }
    }
}

#[test]
fn dakon_6_counts_match_a_plain_walk() {
    // 7.7 million first turns: cut into jobs for real, walked plainly.
    let (game, n, s) = plain::parse_game("dakon:6x6");
    let start = plain::start(&game, n, s);
    let labels = ["# strong: ", "# "];
    let needs = [72 - 6, 72 / 2 + 1];
    let mut acc = [(0, 0, u32::MAX, 0); 2];
    plain_count(&game, &start, 0, &needs, &mut acc);
    let want: Vec<String> = labels
        .iter()
        .zip(acc)
        .map(|(label, acc)| {
            format!(
                "{label}winning {} of {} first turns, shortest {}, longest {}",
                acc.1, acc.0, acc.2, acc.3
            )
        })
        .collect();
    let got = mancala(&[
        "openings",
        "--game",
        "dakon:6x6",
        "--count",
        "--both",
        "--quiet",
    ]);
    assert_eq!(got, want);
}
