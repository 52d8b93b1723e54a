//! `data/dakon-openings.csv` (made by `scripts/dakon-openings.sh`): every
//! opening in it replays with the engine (on the engine's board where it
//! fits, and on the wide board) as one first turn of South, to the
//! position the table gives, and meets its criterion (thresholds from
//! `rules.md`); the lengths marked proved for n <= 7 equal the shortest
//! lengths of the exact counts (`data/openings.csv`), and every board from
//! 3 to 32 is in the table under both criteria.

use mancala::games::{play, Dakon, Move};
use mancala::wide::{WideDakon, WidePosition};
use mancala::{Position, Side};

/// One row: the first `k` comma-separated fields, then the quoted
/// position after the opening (the last field; it holds commas).
fn fields(line: &str, k: usize) -> (Vec<String>, String) {
    let mut parts = line.splitn(k + 1, ',');
    let head: Vec<String> = parts.by_ref().take(k).map(String::from).collect();
    let after = parts.next().unwrap_or("").trim_matches('"').to_string();
    (head, after)
}

/// South's final score after `moves` from the start, each move but the
/// last leaving South to move, the last ending the turn, on the wide board.
fn replay_wide(n: usize, moves: &[Move]) -> (u32, WidePosition) {
    let mut p = WideDakon::new(n, n).unwrap().start();
    for (i, &m) in moves.iter().enumerate() {
        assert!(
            p.to_move() == Side::South && WideDakon::outcome(&p).is_none(),
            "dakon:{n}x{n}: turn over before move {}",
            i + 1
        );
        p = WideDakon::play(&p, m).unwrap_or_else(|e| panic!("dakon:{n}x{n} move #{}: {e}", i + 1));
    }
    let score = match WideDakon::outcome(&p) {
        Some(s) => s.south,
        None => {
            assert_eq!(
                p.to_move(),
                Side::North,
                "dakon:{n}x{n}: the turn goes on after the last move"
            );
            p.captured(Side::South)
        }
    };
    (score, p)
}

/// The same on the engine's board.
fn replay_narrow(n: usize, moves: &[Move]) -> String {
    let mut p = Position::start(n, n);
    for &m in moves {
        p = play::<Dakon>(&p, m).unwrap();
    }
    p.to_string()
}

#[test]
fn every_opening_replays_and_wins() {
    let text = std::fs::read_to_string("data/dakon-openings.csv").unwrap();
    let mut boards = std::collections::BTreeSet::new();
    for line in text.lines().skip(1) {
        let (f, after) = fields(line, 13);
        let (game, n, criterion, found, length, proved) = (
            &f[0],
            f[1].parse::<usize>().unwrap(),
            &f[2],
            &f[3],
            &f[4],
            &f[5],
        );
        boards.insert((n, criterion.clone()));
        assert_eq!(game, &format!("dakon:{n}x{n}"));
        let total = (2 * n * n) as u32;
        // rules.md: more than half of the seeds, or all but one pit's worth.
        let need = if criterion == "strong" {
            total - n as u32
        } else {
            total / 2 + 1
        };
        if n <= 7 {
            // data/openings.csv, every first turn counted.
            assert_eq!(proved, "true", "{game} {criterion}");
            assert_eq!(length, &f[11], "{game} {criterion}: known shortest");
        }
        if found == "no" {
            assert_eq!(length, "-");
            continue;
        }
        let moves: Vec<Move> = f[12].split(' ').map(|m| m.parse().unwrap()).collect();
        assert_eq!(moves.len().to_string(), *length, "{game} {criterion}");
        let (score, p) = replay_wide(n, &moves);
        assert!(score >= need, "{game} {criterion}: {score} < {need}");
        assert_eq!(score.to_string(), f[6], "{game} {criterion}: score");
        assert_eq!(p.to_string(), after, "{game} {criterion}");
        if 2 * n * n <= mancala::MAX_SEEDS && n <= mancala::MAX_N {
            assert_eq!(
                replay_narrow(n, &moves),
                after,
                "{game} {criterion}: engine board"
            );
        }
    }
    for n in 3..=32 {
        for c in ["majority", "strong"] {
            assert!(
                boards.contains(&(n, c.to_string())),
                "dakon:{n}x{n} {c} missing"
            );
        }
    }
}

/// `data/dakon-openings-long.csv` (made by `scripts/dakon-openings-long.sh`):
/// the strong openings found with more time than the table's minute, on
/// the boards the table misses. Every one replays as one first turn of
/// South to the position the file gives, with the score it gives, at
/// least `2n^2 - n`.
#[test]
fn every_opening_of_the_longer_runs_replays_and_is_strong() {
    let text = std::fs::read_to_string("data/dakon-openings-long.csv").unwrap();
    let mut found = 0;
    for line in text.lines().skip(1) {
        let (f, after) = fields(line, 12);
        let (game, n) = (f[0].as_str(), f[1].parse::<usize>().unwrap());
        assert_eq!(game, format!("dakon:{n}x{n}"));
        assert_eq!(f[2], "strong", "{game}");
        if f[5] == "no" {
            assert_eq!(f[6], "-", "{game}");
            continue;
        }
        let moves: Vec<Move> = f[11].split(' ').map(|m| m.parse().unwrap()).collect();
        assert_eq!(moves.len().to_string(), f[6], "{game}");
        let (score, p) = replay_wide(n, &moves);
        assert!(score >= (2 * n * n - n) as u32, "{game}: {score}");
        assert_eq!(score.to_string(), f[7], "{game}: score");
        assert_eq!(p.to_string(), after, "{game}");
        found += 1;
    }
    assert!(found >= 1, "no opening in the file");
}
