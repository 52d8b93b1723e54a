//! `--json` on every command that prints results: the object parses and
//! says what the text output says (docs/json.md). Also the completion
//! scripts name every command.

use crate::common;

use common::ok as mancala;
use serde_json::Value;

/// The JSON object printed by `mancala ARGS --json`, which must be one
/// line (unlike `cli_extend`'s `json`, which parses whatever is printed).
fn json(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.push("--json");
    let text = mancala(&a);
    assert_eq!(text.lines().count(), 1, "{args:?}: one line");
    serde_json::from_str(&text).unwrap()
}

fn tsv(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn moves_apply_show_perft() {
    let g = [
        "--game",
        "dakon:4x4",
        "--position",
        "S 1,0,5,2/3,0,0,1 10-10",
    ];
    let text = tsv(&mancala(&["moves", g[0], g[1], g[2], g[3]]));
    let j = json(&["moves", g[0], g[1], g[2], g[3]]);
    let listed: Vec<Vec<String>> = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            vec![
                m["move"].as_str().unwrap().to_string(),
                m["position"].as_str().unwrap().to_string(),
            ]
        })
        .collect();
    assert_eq!(listed, text);
    assert!(j["end"].is_null());
    let over = json(&[
        "moves",
        "--game",
        "kalah",
        "--position",
        "S 0,0,0,0,0,0/1,0,0,0,0,0 30-17",
    ]);
    assert_eq!(over["end"], serde_json::json!({"south": 30, "north": 18}));
    assert_eq!(over["moves"], serde_json::json!([]));

    let after = mancala(&["apply", "--game", "kalah:4x3", "2", "4"]);
    let j = json(&["apply", "--game", "kalah:4x3", "2", "4"]);
    assert_eq!(j["position"]["notation"].as_str().unwrap(), after.trim());
    assert_eq!(j["position"]["to_move"], "north");
    assert_eq!(j["position"]["captured"]["south"], 2);
    assert_eq!(j["moves"], serde_json::json!(["2", "4"]));
    assert_eq!(j["over"], false);

    let j = json(&[
        "show",
        "--game",
        "akon:4x3",
        "--position",
        "N 0,3,1,2/4,0,0,5 6-3",
    ]);
    assert_eq!(j["position"]["south"], serde_json::json!([0, 3, 1, 2]));
    assert_eq!(j["position"]["north"], serde_json::json!([4, 0, 0, 5]));
    assert_eq!(
        j["position"]["captured"],
        serde_json::json!({"south": 6, "north": 3})
    );
    assert!(j["last"].is_null());

    let text = tsv(&mancala(&[
        "perft",
        "--game",
        "awari:4x3",
        "--depth",
        "4",
        "--divide",
    ]));
    let j = json(&["perft", "--game", "awari:4x3", "--depth", "4", "--divide"]);
    let depths = j["depths"].as_array().unwrap();
    assert_eq!(depths.len(), 4);
    for (row, d) in text.iter().zip(depths) {
        assert_eq!(row[0], d["depth"].to_string());
        assert_eq!(row[1], d["count"].to_string());
    }
    let divide = j["divide"].as_array().unwrap();
    for (row, d) in text[4..].iter().zip(divide) {
        assert_eq!(row[0], d["move"].as_str().unwrap());
        assert_eq!(row[1], d["count"].to_string());
    }
}

#[test]
fn solve_analyse_openings() {
    let g = [
        "--game",
        "kalah:4x3",
        "--threads",
        "1",
        "--tt-mb",
        "16",
        "--quiet",
    ];
    let text = mancala(&[&["solve"], &g[..]].concat());
    let j = json(&[&["solve"], &g[..]].concat());
    assert_eq!(
        text,
        format!(
            "value {}\nbest {}\n",
            j["value"],
            j["best"].as_str().unwrap()
        )
    );
    assert!(j["nodes"].as_u64().unwrap() > 0);
    assert!(j["interior_nodes"].as_u64().unwrap() <= j["nodes"].as_u64().unwrap());
    assert!(j["seconds"].as_f64().unwrap() >= 0.0);

    let text = tsv(&mancala(&[&["analyse"], &g[..]].concat()));
    let j = json(&[&["analyse"], &g[..]].concat());
    let moves: Vec<Vec<String>> = j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            vec![
                m["move"].as_str().unwrap().to_string(),
                m["value"].to_string(),
            ]
        })
        .collect();
    assert_eq!(moves, text);

    let text = mancala(&["openings", "--game", "dakon:4x4", "--quiet"]);
    let j = json(&["openings", "--game", "dakon:4x4", "--quiet"]);
    let summary = text.lines().last().unwrap();
    assert_eq!(
        summary,
        format!(
            "# winning {} of {} first turns, shortest {}, longest {}",
            j["winning"].as_str().unwrap(),
            j["turns"].as_str().unwrap(),
            j["shortest"],
            j["longest"]
        )
    );
    let listed: Vec<String> = j["openings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let moves: Vec<&str> = o["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            format!("{}\t{}", moves.join(" "), o["position"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        listed,
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
    );
    let counted = json(&[
        "openings",
        "--game",
        "dakon:4x4",
        "--quiet",
        "--count",
        "--strong",
    ]);
    assert_eq!(counted["criterion"], "strong");
    assert_eq!(counted["openings"], serde_json::json!([]));
    let both = json(&[
        "openings",
        "--game",
        "dakon:4x4",
        "--quiet",
        "--count",
        "--both",
    ]);
    assert_eq!(both["winning"], j["winning"]);
    assert_eq!(both["strong"]["winning"], counted["winning"]);
    assert_eq!(both["strong"]["shortest"], counted["shortest"]);
    assert_eq!(both["strong"]["longest"], counted["longest"]);
}

#[test]
fn databases_and_puzzles() {
    let dir = std::env::temp_dir().join(format!("mancala-json-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let j = json(&[
        "db",
        "build",
        "--game",
        "awari:3x2",
        "--max-seeds",
        "7",
        "--dir",
        d,
        "--quiet",
    ]);
    assert_eq!(j["max_seeds"], 7);
    assert_eq!(j["n"], 3);
    let w = ["--game", "awari:3x2", "--dir", d];
    let text = tsv(&mancala(
        &[&["db", "stats", "--seeds", "6"], &w[..]].concat(),
    ));
    let j = json(&[&["db", "stats", "--seeds", "6"], &w[..]].concat());
    let values: Vec<Vec<String>> = j["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| vec![v["value"].to_string(), v["count"].to_string()])
        .collect();
    assert_eq!(values, text);
    let boards: u64 = text.iter().map(|r| r[1].parse::<u64>().unwrap()).sum();
    assert_eq!(j["boards"], boards);

    let p = ["--position", "S 1,0,2/0,2,0 7-0"];
    let text = mancala(&[&["db", "probe"], &w[..], &p[..]].concat());
    let j = json(&[&["db", "probe"], &w[..], &p[..]].concat());
    assert_eq!(text, format!("value {}\ngain {}\n", j["value"], j["gain"]));

    let j = json(&[&["db", "verify"], &w[..]].concat());
    let levels = j["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 8);
    assert!(levels.iter().all(|l| l["wrong"] == 0));

    let text = tsv(&mancala(
        &[&["puzzles", "--seeds", "7", "--line"], &w[..]].concat(),
    ));
    let j = json(&[&["puzzles", "--seeds", "7"], &w[..]].concat());
    let rows: Vec<Vec<String>> = j
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let line: Vec<&str> = p["line"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            vec![
                p["position"].as_str().unwrap().to_string(),
                p["move"].as_str().unwrap().to_string(),
                p["value"].to_string(),
                p["kind"].as_str().unwrap().to_string(),
                if p["plies"].is_null() {
                    "-".to_string()
                } else {
                    p["plies"].to_string()
                },
                if p["plies"].is_null() {
                    "-".to_string()
                } else {
                    line.join(" ")
                },
            ]
        })
        .collect();
    assert!(!rows.is_empty());
    assert_eq!(rows, text);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn completions_name_every_command() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = mancala(&["completions", shell]);
        for cmd in [
            "moves", "apply", "show", "perft", "solve", "analyse", "db", "openings", "puzzles",
            "play",
        ] {
            assert!(script.contains(cmd), "{shell}: {cmd}");
        }
        assert!(script.contains("--max-seeds"), "{shell}");
    }
}
