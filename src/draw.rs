//! A terminal drawing of a position.
//!
//! North's row is drawn on top from pit n down to pit 1 and South's row at
//! the bottom from pit 1 to pit n, so that sowing runs anticlockwise round
//! the drawing; stores (or captured seeds) sit at each row's end in sowing
//! order: North's on the left, South's on the right.
//!
//! ```text
//!          6     5     4     3     2     1     North
//!       +-----+-----+-----+-----+-----+-----+
//!       |   4 |   4 |   4 |   4 |   4 |   4 |
//!    0  +-----+-----+-----+-----+-----+-----+  0
//!       |   4 |   4 |   4 |   4 |   4 |   4 |
//!       +-----+-----+-----+-----+-----+-----+
//!          1     2     3     4     5     6     South  <- to move
//! ```

use crate::position::{Position, Setup};
use crate::side::Side;
use crate::variant::Variant;
use crate::wide::{WideDakon, WidePosition};
use std::fmt::Write;

/// Draws `pos` of `variant` as text lines (see the module docs).
pub fn draw(variant: &Variant, pos: &Position) -> String {
    let title = if variant.is_sized() {
        variant.to_string()
    } else {
        variant.game().to_string()
    };
    draw_setup(&title, variant.game().has_stores(), &pos.to_setup())
}

/// Draws a wide Dakon position (see the module docs).
pub fn draw_wide(variant: &WideDakon, pos: &WidePosition) -> String {
    draw_setup(&variant.to_string(), true, &pos.to_setup())
}

/// Draws a position given as a setup (rows of equal length), under the
/// title `title`.
fn draw_setup(title: &str, has_stores: bool, pos: &Setup) -> String {
    let n = pos.south.len();
    let width = pos
        .south
        .iter()
        .chain(&pos.north)
        .map(|c| c.to_string().len())
        .max()
        .unwrap_or(1)
        .max(3);
    let cell = width + 2; // one cell: a space, the count, a space
    let label = if has_stores { "store" } else { "captured" };
    let caps = [pos.captured.north, pos.captured.south].map(|c| c.to_string());
    let margin = caps.iter().map(|c| c.len()).max().unwrap_or(1) + 3;
    let mut out = String::new();
    let pad = " ".repeat(margin);
    let rule = format!("{pad}+{}", format!("{}+", "-".repeat(cell)).repeat(n));
    let marker = |side: Side| {
        if pos.to_move == side {
            "  <- to move"
        } else {
            ""
        }
    };
    let numbers = |order: &mut dyn Iterator<Item = usize>| {
        let mut s = pad.clone();
        for k in order {
            let _ = write!(s, " {k:>w$} ", w = width + 1);
        }
        s
    };
    let _ = writeln!(
        out,
        "{title}  North {label} {}, South {label} {}",
        caps[0], caps[1]
    );
    let _ = writeln!(
        out,
        "{}   North{}",
        numbers(&mut (1..=n).rev()),
        marker(Side::North)
    );
    let _ = writeln!(out, "{rule}");
    let row = |side: Side, rev: bool| {
        let mut s = format!("{pad}|");
        let mut cells: Vec<u32> = match side {
            Side::South => pos.south.clone(),
            Side::North => pos.north.clone(),
        };
        if rev {
            cells.reverse();
        }
        for c in cells {
            let _ = write!(s, " {c:>w$} |", w = width);
        }
        s
    };
    let _ = writeln!(out, "{}", row(Side::North, true));
    let _ = writeln!(
        out,
        "{:>m$}  +{}  {}",
        caps[0],
        format!("{}+", "-".repeat(cell)).repeat(n),
        caps[1],
        m = margin - 2
    );
    let _ = writeln!(out, "{}", row(Side::South, false));
    let _ = writeln!(out, "{rule}");
    let _ = writeln!(
        out,
        "{}   South{}",
        numbers(&mut (1..=n)),
        marker(Side::South)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_rows_in_ring_order() {
        let v: Variant = "kalah".parse().unwrap();
        let p = v.parse_position("N 1,2,3/4,5,6 0-0").unwrap();
        let text = draw(&v, &p);
        let lines: Vec<&str> = text.lines().collect();
        // North's row reads pit 3 first, South's row pit 1 first.
        assert!(lines[3].contains("|   6 |   5 |   4 |"), "{text}");
        assert!(lines[5].contains("|   1 |   2 |   3 |"), "{text}");
        assert!(lines[1].contains("<- to move"), "{text}");
    }
}
