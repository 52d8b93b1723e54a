//! `data/solved.csv` (made by `scripts/solved.sh`) against values computed
//! independently: the exhaustive retrograde analysis of the tests
//! (`tests/data/small_values.csv`, start positions of small boards of every
//! game) and the published Kalah table (`tests/data/kalah_values.csv`).

use std::collections::HashMap;

/// `game:NxS` -> value, for every solved row of `data/solved.csv`.
fn solved() -> HashMap<String, i32> {
    let text = include_str!("../../data/solved.csv");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("game,n,s,value,best,nodes,seconds,version")
    );
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[3] != "timeout")
        .map(|f| (format!("{}:{}x{}", f[0], f[1], f[2]), f[3].parse().unwrap()))
        .collect()
}

#[test]
fn small_cells_match_the_retrograde_analysis() {
    let table = solved();
    let mut checked = 0;
    for line in include_str!("../data/small_values.csv").lines().skip(1) {
        // game,position,value,reachable; the position has commas itself.
        let f: Vec<&str> = line.split(',').collect();
        let spec = f[0];
        let position = f[1..f.len() - 2].join(",");
        let v: mancala::Variant = spec.parse().unwrap();
        if position != v.start().to_string() {
            continue;
        }
        if let Some(&value) = table.get(spec) {
            let want: i32 = f[f.len() - 2].parse().unwrap();
            assert_eq!(value, want, "{spec}");
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} cells checked");
}

#[test]
fn kalah_cells_match_the_published_table() {
    let table = solved();
    let mut checked = 0;
    for line in include_str!("../data/kalah_values.csv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
    {
        let f: Vec<&str> = line.split(',').collect();
        if let Some(&value) = table.get(f[0]) {
            assert_eq!(value, f[1].parse::<i32>().unwrap(), "{}", f[0]);
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} Kalah cells checked");
}
