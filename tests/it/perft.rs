//! Perft tables (`tests/data/perft.tsv`): leaf counts of every game from
//! start positions and sample positions, computed once by the plain second
//! implementation of the rules (`tests/it/plain`), frozen in the data file, and
//! checked here against the engine for every row small enough to run in a
//! test. The deeper rows are checked by `scripts/perft-check.sh`.

use mancala::{dispatch, perft::perft, Variant};

/// Rows whose count is at most this are run (a fraction of a second each in
/// a release build).
const MAX_COUNT: u64 = 3_000_000;

struct Row {
    game: String,
    position: String,
    depth: u32,
    count: u64,
}

fn rows() -> Vec<Row> {
    let text = include_str!("../data/perft.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "bad row {l:?}");
            Row {
                game: f[0].to_string(),
                position: f[1].to_string(),
                depth: f[2].parse().unwrap(),
                count: f[3].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
fn perft_tables_match_the_plain_implementation() {
    let rows = rows();
    assert!(rows.len() > 400, "table truncated: {} rows", rows.len());
    let mut checked = std::collections::BTreeMap::<String, u32>::new();
    let mut failures = Vec::new();
    for row in rows.iter().filter(|r| r.count <= MAX_COUNT) {
        let variant: Variant = row.game.parse().unwrap();
        let pos = variant.parse_position(&row.position).unwrap();
        let got = dispatch!(variant.game(), R => perft::<R>(&pos, row.depth));
        if got != row.count {
            failures.push(format!(
                "{} \"{}\" depth {}: engine {got}, table {}",
                row.game, row.position, row.depth, row.count
            ));
        }
        let deepest = checked.entry(row.game.clone()).or_default();
        *deepest = (*deepest).max(row.depth);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every game is covered, and not only at trivial depths.
    for g in mancala::Game::ALL {
        let deepest = checked
            .iter()
            .filter(|(name, _)| name.split(':').next() == Some(g.name()))
            .map(|(_, d)| *d)
            .max()
            .unwrap_or(0);
        assert!(deepest >= 5, "{g}: checked only to depth {deepest}");
    }
}
