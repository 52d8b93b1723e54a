//! The SVG pictures: well-formed XML (parsed by roxmltree), the board's
//! every pit, store and highlighted last move as the position has them, and
//! the histogram's bars as `db stats` counts them. Written whole or not at
//! all: a bad request leaves no file.

use crate::common;

use common::{ok, run as mancala};
use mancala::{Position, Setup, Side};

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("mancala-svg-{}-{name}", std::process::id()))
}

/// Every `<text class=CLASS>` as (data-side, data-pit, text).
fn texts(doc: &roxmltree::Document, class: &str) -> Vec<(String, Option<usize>, String)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("class") == Some(class))
        .map(|n| {
            (
                n.attribute("data-side").unwrap().to_string(),
                n.attribute("data-pit").map(|p| p.parse().unwrap()),
                n.text().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn board_pictures_hold_every_count() {
    for (game, position, last) in [
        ("kalah:6x4", None, Some("3")),
        ("awari", Some("N 0,3,1,2,15,0/4,0,0,5,1,1 8-8"), None),
        ("dakon:7x7", None, Some("7")),
        (
            "anywoli",
            Some("S 0,0,0,0,0,0,1,1,0,0,0,0/1,1,0,0,0,0,0,0,0,0,4,0 40-0"),
            Some("8"),
        ),
        ("akon:4x3", Some("N 0,3,1,2/4,0,0,5 6-3"), Some("1")),
    ] {
        let path = temp(&game.replace(':', "-"));
        let p = path.to_str().unwrap();
        let mut args = vec!["show", "--game", game, "--svg", p, "--json"];
        if let Some(pos) = position {
            args.extend(["--position", pos]);
        }
        if let Some(m) = last {
            args.extend(["--last", m]);
        }
        let json: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
        let shown = json["position"]["notation"].as_str().unwrap();
        let pos = Position::from_setup(&shown.parse::<Setup>().unwrap()).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let counts = texts(&doc, "count");
        assert_eq!(counts.len(), 2 * pos.n(), "{game}");
        for (side, pit, text) in counts {
            let s = if side == "south" {
                Side::South
            } else {
                Side::North
            };
            let k = pit.unwrap();
            assert_eq!(text, pos.pit(s, k).to_string(), "{game} {side} {k}");
        }
        let stores = texts(&doc, "store-count");
        assert_eq!(stores.len(), 2);
        for (side, _, text) in stores {
            let s = if side == "south" {
                Side::South
            } else {
                Side::North
            };
            assert_eq!(text, pos.captured(s).to_string(), "{game} {side} store");
        }
        let ringed: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("last-move"))
            .collect();
        assert_eq!(ringed.len(), usize::from(last.is_some()), "{game}");
        if let Some(m) = last {
            // The ring is drawn round the pit the move was sown from: the
            // circle just before it, of the side that moved.
            let pit = ringed[0].prev_sibling_element().unwrap();
            assert_eq!(pit.attribute("data-pit"), Some(m), "{game}");
            assert_eq!(json["last"]["pit"], m.parse::<u64>().unwrap());
            assert_eq!(pit.attribute("data-side"), json["last"]["side"].as_str());
        }
        let edged: Vec<_> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("to-move"))
            .collect();
        assert_eq!(edged.len(), 1);
        let mover = if pos.to_move() == Side::South {
            "South"
        } else {
            "North"
        };
        assert!(svg.contains(&format!("{mover} to move")), "{game}");
    }
}

#[test]
fn histogram_bars_are_the_stats() {
    let dir = temp("db");
    let d = dir.to_str().unwrap();
    ok(&[
        "db",
        "build",
        "--game",
        "awari:3x2",
        "--max-seeds",
        "8",
        "--dir",
        d,
        "--quiet",
    ]);
    let plot = temp("plot.svg");
    let p = plot.to_str().unwrap();
    let stats = ok(&[
        "db",
        "stats",
        "--game",
        "awari:3x2",
        "--seeds",
        "8",
        "--dir",
        d,
        "--plot",
        p,
    ]);
    let svg = std::fs::read_to_string(&plot).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let bars: Vec<String> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("bar"))
        .map(|n| {
            format!(
                "{}\t{}",
                n.attribute("data-value").unwrap(),
                n.attribute("data-count").unwrap()
            )
        })
        .collect();
    assert_eq!(bars, stats.lines().collect::<Vec<_>>());
    // Taller bars for larger counts.
    let height = |count: u64| -> f64 {
        doc.descendants()
            .find(|n| n.attribute("data-count") == Some(&count.to_string()))
            .unwrap()
            .attribute("height")
            .unwrap()
            .parse()
            .unwrap()
    };
    let mut counts: Vec<u64> = stats
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap().parse().unwrap())
        .collect();
    counts.sort_unstable();
    assert!(height(counts[0]) <= height(*counts.last().unwrap()));
    assert!(height(*counts.last().unwrap()) > 0.0);
    // A level that is not there: exit status 2, and the old picture stays.
    let out = mancala(&[
        "db",
        "stats",
        "--game",
        "awari:3x2",
        "--seeds",
        "9",
        "--dir",
        d,
        "--plot",
        p,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&plot).unwrap(), svg);
    let _ = std::fs::remove_file(&plot);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unwritable_picture_is_an_error() {
    let out = mancala(&["show", "--game", "kalah", "--svg", "/nonexistent-dir/x.svg"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("x.svg"));
}
