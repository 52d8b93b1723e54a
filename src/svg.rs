//! Pictures as SVG: a board ([`board`]) and a bar chart of a database
//! level's values ([`histogram`]).
//!
//! The board is laid out as [`crate::draw`] draws it on the terminal:
//! North's row on top from pit n down to pit 1, South's row at the bottom
//! from pit 1 to pit n, so that sowing runs anticlockwise; North's store (or
//! captured seeds) on the left, South's on the right. Every pit shows its
//! count as a number and, up to [`MAX_DOTS`] seeds, as dots; the side to
//! move is named and its row edged; the pit the last move was sown from,
//! when given, is ringed.
//!
//! The output is plain SVG 1.1 with no scripts, fonts or external
//! references, so any viewer renders it the same way.

use crate::position::Position;
use crate::side::Side;
use crate::variant::Variant;
use std::fmt::Write;

/// Pits with at most this many seeds also draw them as dots.
pub const MAX_DOTS: u8 = 12;

const PIT: f64 = 64.0; // pit diameter
const GAP: f64 = 12.0; // between pits
const MARGIN: f64 = 24.0;
const STORE: f64 = 72.0; // store width
const TITLE: f64 = 36.0; // room for the title line
const LABEL: f64 = 22.0; // room for the pit numbers

/// Escapes `&`, `<`, `>` and `"` for SVG text and attributes.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// Dot offsets inside a pit for `count <= MAX_DOTS` seeds: rings of 1, 6
/// and 6 (up to 3 in a row for fewer), centred.
fn dots(count: u8) -> Vec<(f64, f64)> {
    let c = usize::from(count);
    let r = PIT * 0.27;
    match c {
        0 => Vec::new(),
        1 => vec![(0.0, 0.0)],
        2..=7 => {
            let ring = if c == 7 { 6 } else { c };
            let mut v: Vec<(f64, f64)> = (0..ring)
                .map(|i| {
                    let a = std::f64::consts::TAU * i as f64 / ring as f64;
                    (r * a.cos(), r * a.sin())
                })
                .collect();
            if c == 7 {
                v.push((0.0, 0.0));
            }
            v
        }
        _ => {
            // An outer ring of c - 4 and an inner square of 4.
            let outer = c - 4;
            let mut v: Vec<(f64, f64)> = (0..outer)
                .map(|i| {
                    let a = std::f64::consts::TAU * i as f64 / outer as f64;
                    (r * 1.15 * a.cos(), r * 1.15 * a.sin())
                })
                .collect();
            let q = r * 0.38;
            v.extend([(-q, -q), (q, -q), (-q, q), (q, q)]);
            v
        }
    }
}

/// The SVG picture of `pos` of `variant`; `last` is the side and pit
/// (1-based) the last move was sown from, ringed in the picture.
pub fn board(variant: &Variant, pos: &Position, last: Option<(Side, usize)>) -> String {
    let n = pos.n();
    let width = 2.0 * MARGIN + 2.0 * (STORE + GAP) + n as f64 * (PIT + GAP) - GAP;
    let height = 2.0 * MARGIN + TITLE + 2.0 * LABEL + 2.0 * PIT + GAP;
    let top = MARGIN + TITLE + LABEL; // top of North's row
    let left = MARGIN + STORE + GAP; // left of the pits
    let store_label = if variant.game().has_stores() {
        "store"
    } else {
        "captured"
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"##
    );
    let _ = writeln!(s, "<title>{}</title>", escape(&format!("{variant} {pos}")));
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#f7f1e3"/>"##
    );
    let mover = match pos.to_move() {
        Side::South => "South",
        Side::North => "North",
    };
    let _ = writeln!(
        s,
        r##"<text x="{MARGIN}" y="{}" font-size="18" fill="#222">{} · {mover} to move</text>"##,
        MARGIN + 18.0,
        escape(&variant.to_string())
    );
    // The board.
    let _ = writeln!(
        s,
        r##"<rect x="{}" y="{}" width="{}" height="{}" rx="28" fill="#b5835a" stroke="#6b4423" stroke-width="3"/>"##,
        MARGIN,
        top - GAP,
        width - 2.0 * MARGIN,
        2.0 * PIT + 3.0 * GAP
    );
    // The row of the side to move is edged.
    let row_y = |side: Side| match side {
        Side::North => top,
        Side::South => top + PIT + GAP,
    };
    let _ = writeln!(
        s,
        r##"<rect class="to-move" x="{}" y="{}" width="{}" height="{}" rx="{}" fill="none" stroke="#f2c94c" stroke-width="4"/>"##,
        left - GAP / 2.0,
        row_y(pos.to_move()) - GAP / 2.0,
        n as f64 * (PIT + GAP),
        PIT + GAP,
        (PIT + GAP) / 2.0
    );
    // Stores.
    for (side, x) in [
        (Side::North, MARGIN + GAP / 2.0),
        (Side::South, width - MARGIN - STORE + GAP / 2.0),
    ] {
        let w = STORE - GAP;
        let _ = writeln!(
            s,
            r##"<rect class="store" x="{x}" y="{}" width="{w}" height="{}" rx="{}" fill="#8a5a34"/>"##,
            top,
            2.0 * PIT + GAP,
            w / 2.0
        );
        let name = match side {
            Side::South => "South",
            Side::North => "North",
        };
        let _ = writeln!(
            s,
            r##"<text class="store-count" data-side="{}" x="{}" y="{}" font-size="24" text-anchor="middle" fill="#fff">{}</text>"##,
            name.to_lowercase(),
            x + w / 2.0,
            top + PIT + GAP / 2.0 + 8.0,
            pos.captured(side)
        );
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-size="11" text-anchor="middle" fill="#222">{name} {store_label}</text>"##,
            x + w / 2.0,
            height - MARGIN + 14.0
        );
    }
    // Pits.
    for side in [Side::North, Side::South] {
        let y = row_y(side);
        for k in 1..=n {
            let column = match side {
                Side::North => n - k,
                Side::South => k - 1,
            };
            let x = left + column as f64 * (PIT + GAP);
            let (cx, cy) = (x + PIT / 2.0, y + PIT / 2.0);
            let count = pos.pit(side, k);
            let name = side.name().to_lowercase();
            let _ = writeln!(
                s,
                r##"<circle class="pit" data-side="{name}" data-pit="{k}" cx="{cx}" cy="{cy}" r="{}" fill="#6b4423"/>"##,
                PIT / 2.0
            );
            if last == Some((side, k)) {
                let _ = writeln!(
                    s,
                    r##"<circle class="last-move" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#e8483b" stroke-width="4"/>"##,
                    PIT / 2.0 + 3.0
                );
            }
            if count <= MAX_DOTS {
                for (dx, dy) in dots(count) {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{:.1}" cy="{:.1}" r="4.5" fill="#efe6d2" opacity="0.55"/>"##,
                        cx + dx,
                        cy + dy
                    );
                }
            }
            let _ = writeln!(
                s,
                r##"<text class="count" data-side="{name}" data-pit="{k}" x="{cx}" y="{}" font-size="22" font-weight="bold" text-anchor="middle" fill="#fff">{count}</text>"##,
                cy + 8.0
            );
            let label_y = match side {
                Side::North => y - GAP - 4.0,
                Side::South => y + PIT + GAP + 16.0,
            };
            let _ = writeln!(
                s,
                r##"<text x="{cx}" y="{label_y}" font-size="12" text-anchor="middle" fill="#555">{k}</text>"##
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// An SVG bar chart of a value histogram: `(value, count)` pairs in
/// increasing value order, one bar per value, heights proportional to the
/// counts (and a logarithmic axis when the counts span more than three
/// decades, said in the subtitle); `title` heads it.
pub fn histogram(title: &str, values: &[(i32, u64)]) -> String {
    let bars = values.len().max(1);
    let bar = (640.0 / bars as f64).clamp(6.0, 48.0);
    let plot_w = (bar * bars as f64).max(480.0);
    let first = (plot_w - bar * bars as f64) / 2.0; // the bars centred
    let plot_h = 320.0;
    let (left, top) = (80.0, 64.0);
    // Room for the title too (about 9 pixels a character at 16 px).
    let width = (left + plot_w + 32.0).max(left + 9.0 * title.chars().count() as f64 + 16.0);
    let height = top + plot_h + 64.0;
    let max = values.iter().map(|&(_, c)| c).max().unwrap_or(1).max(1);
    let min = values
        .iter()
        .map(|&(_, c)| c)
        .filter(|&c| c > 0)
        .min()
        .unwrap_or(1);
    let log = max / min.max(1) > 1000;
    let scale = |c: u64| -> f64 {
        if c == 0 {
            0.0
        } else if log {
            ((c as f64).log10() + 1.0) / ((max as f64).log10() + 1.0)
        } else {
            c as f64 / max as f64
        }
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"##
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{left}" y="28" font-size="16" fill="#222">{}</text>"##,
        escape(title)
    );
    let total: u64 = values.iter().map(|&(_, c)| c).sum();
    let _ = writeln!(
        s,
        r##"<text x="{left}" y="48" font-size="12" fill="#555">{total} boards; bar height {} the count</text>"##,
        if log {
            "grows with the logarithm of"
        } else {
            "is proportional to"
        }
    );
    // Axes.
    let base = top + plot_h;
    let _ = writeln!(
        s,
        r##"<line x1="{left}" y1="{base}" x2="{}" y2="{base}" stroke="#222"/>"##,
        left + plot_w
    );
    let _ = writeln!(
        s,
        r##"<line x1="{left}" y1="{top}" x2="{left}" y2="{base}" stroke="#222"/>"##
    );
    // The count axis: the largest count at the top, and in a logarithmic
    // chart every power of ten below it.
    let mut ticks = vec![max];
    if log {
        let mut p = 1u64;
        while p.saturating_mul(3) <= max {
            ticks.push(p);
            p = p.saturating_mul(10);
        }
    } else {
        ticks.push(0);
    }
    for t in ticks {
        let y = base - scale(t) * plot_h;
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{y:.1}" x2="{left}" y2="{y:.1}" stroke="#222"/><text x="{}" y="{:.1}" font-size="11" text-anchor="end" fill="#222">{t}</text>"##,
            left - 4.0,
            left - 6.0,
            y + 4.0
        );
    }
    let label_every = (28.0 / bar).ceil().max(1.0) as usize;
    for (i, &(v, c)) in values.iter().enumerate() {
        let h = scale(c) * plot_h;
        let x = left + first + i as f64 * bar;
        let colour = match v.signum() {
            1 => "#2e7d32",
            -1 => "#c62828",
            _ => "#757575",
        };
        let _ = writeln!(
            s,
            r##"<rect class="bar" data-value="{v}" data-count="{c}" x="{:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="{colour}"><title>value {v}: {c} boards</title></rect>"##,
            x + 1.0,
            base - h,
            bar - 2.0
        );
        if i % label_every == 0 || v == 0 {
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{}" font-size="11" text-anchor="middle" fill="#222">{v}</text>"##,
                x + bar / 2.0,
                base + 16.0
            );
        }
    }
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" font-size="12" text-anchor="middle" fill="#222">value (future net gain of the side to move)</text>"##,
        left + plot_w / 2.0,
        base + 40.0
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(escape(r#"a<b>&"c""#), "a&lt;b&gt;&amp;&quot;c&quot;");
    }

    #[test]
    fn empty_histogram_and_crowded_pits_still_draw() {
        let h = histogram("nothing", &[]);
        assert!(h.starts_with("<svg") && h.ends_with("</svg>\n"));
        assert!(!h.contains("class=\"bar\""));
        let v: Variant = "awari".parse().unwrap();
        let pos = v.parse_position("S 40,0,0,0,0,0/0,0,0,0,0,8 0-0").unwrap();
        let b = board(&v, &pos, None);
        // 40 seeds: the count only; 8 seeds: the count and 8 dots.
        assert!(b.contains(">40</text>"));
        assert_eq!(b.matches("opacity=\"0.55\"").count(), 8);
    }

    #[test]
    fn dot_counts() {
        for c in 0..=MAX_DOTS {
            assert_eq!(dots(c).len(), usize::from(c));
        }
    }
}
