//! The difficulty grade of a puzzle and the filter for natural positions,
//! both computed from its [`Measures`] alone.
//!
//! # Points
//!
//! A puzzle scores [`points`]:
//!
//! - one for every decision of South on its solution line (the key move
//!   included) and one for every two decisions of North (rounded down):
//!   the loser's choices are there to be foreseen, not found; a puzzle
//!   without a line counts one;
//! - two for every tempting wrong move (it captures at once yet loses);
//! - two when the key move itself captures nothing (a quiet move is harder
//!   to find than a capture);
//! - one when there are at least four wrong moves.
//!
//! # Grades
//!
//! | grade | points |
//! |---|---|
//! | easy | up to 3 |
//! | medium | 4 to 6 |
//! | hard | 7 to 10 |
//! | expert | 11 and more |
//!
//! # Natural positions
//!
//! A puzzle is *natural* ([`is_natural`]) when each side has at least
//! [`MIN_OCCUPIED`] occupied pits, its line was found, and the line has
//! at most [`MAX_PASSES`] pass: no chain of forced passes where one side
//! merely walks its seeds round an empty row.

use super::measures::Measures;

/// The fewest occupied pits each side has in a natural position.
pub const MIN_OCCUPIED: u32 = 3;

/// The most passes on the line of a natural position.
pub const MAX_PASSES: usize = 1;

/// A difficulty grade, easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grade {
    /// Up to 3 points.
    Easy,
    /// 4 to 6 points.
    Medium,
    /// 7 to 10 points.
    Hard,
    /// 11 points and more.
    Expert,
}

impl Grade {
    /// Every grade, easiest first.
    pub const ALL: [Grade; 4] = [Grade::Easy, Grade::Medium, Grade::Hard, Grade::Expert];

    /// The grade of a number of points (the table of the module docs).
    pub fn of_points(points: u32) -> Grade {
        match points {
            0..=3 => Grade::Easy,
            4..=6 => Grade::Medium,
            7..=10 => Grade::Hard,
            _ => Grade::Expert,
        }
    }

    /// The grade's name in words.
    pub fn name(self) -> &'static str {
        match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
            Grade::Expert => "expert",
        }
    }
}

impl std::fmt::Display for Grade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The difficulty points of a puzzle (module docs).
pub fn points(m: &Measures) -> u32 {
    let d = m.decisions();
    let depth = if m.line.is_some() {
        d.south + d.north / 2
    } else {
        1
    };
    depth
        + 2 * m.tempting() as u32
        + if m.solution_captures > 0 { 0 } else { 2 }
        + u32::from(m.wrong.len() >= 4)
}

/// The grade of a puzzle: [`Grade::of_points`] of its [`points`].
pub fn grade(m: &Measures) -> Grade {
    Grade::of_points(points(m))
}

/// Whether the puzzle is natural (module docs).
pub fn is_natural(m: &Measures) -> bool {
    m.occupied.south >= MIN_OCCUPIED
        && m.occupied.north >= MIN_OCCUPIED
        && m.line.is_some()
        && m.passes() <= MAX_PASSES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_cover_every_count_in_order() {
        let mut last = Grade::Easy;
        for p in 0..40 {
            let g = Grade::of_points(p);
            assert!(g >= last);
            last = g;
        }
        assert_eq!(Grade::of_points(3), Grade::Easy);
        assert_eq!(Grade::of_points(4), Grade::Medium);
        assert_eq!(Grade::of_points(7), Grade::Hard);
        assert_eq!(Grade::of_points(11), Grade::Expert);
    }
}
