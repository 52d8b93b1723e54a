//! The JSON shapes shared by the commands' `--json` output (documented in
//! `docs/json.md`).

use mancala::{Position, Side};
use serde_json::{json, Value};

/// A position in full: its notation and its parts.
///
/// `{"notation", "to_move": "south"|"north", "south": [pits, pit 1
/// first], "north": [...], "captured": {"south", "north"}}`
pub fn position(pos: &Position) -> Value {
    json!({
        "notation": pos.to_string(),
        "to_move": side(pos.to_move()),
        "south": pos.row(Side::South),
        "north": pos.row(Side::North),
        "captured": {
            "south": pos.captured(Side::South),
            "north": pos.captured(Side::North),
        },
    })
}

/// A position of any board, in full, as [`position`] writes it: its
/// notation `notation` and its parts `setup`.
pub fn setup(notation: &str, setup: &mancala::Setup) -> Value {
    json!({
        "notation": notation,
        "to_move": side(setup.to_move),
        "south": setup.south,
        "north": setup.north,
        "captured": {
            "south": setup.captured.south,
            "north": setup.captured.north,
        },
    })
}

/// A side as JSON names it: `"south"` or `"north"`.
pub fn side(s: Side) -> &'static str {
    match s {
        Side::South => "south",
        Side::North => "north",
    }
}

/// Final scores: `{"south", "north"}`.
pub fn score(south: impl Into<Value>, north: impl Into<Value>) -> Value {
    json!({ "south": south.into(), "north": north.into() })
}

/// One JSON document on one line.
pub fn line(v: &Value) -> String {
    let mut s = v.to_string();
    s.push('\n');
    s
}
