//! The position string of the command-line contract:
//!
//! ```text
//! <to-move> <south pits>/<north pits> <south captured>-<north captured>
//! ```
//!
//! for example `S 5,5,5,5,5,5,5/5,5,5,5,5,5,5 0-0`, each row in its own
//! sowing order (pit 1 first).
//!
//! ```
//! use mancala::Position;
//! let p: Position = "N 0,3,1/2,0,4 5-1".parse().unwrap();
//! assert_eq!(p.to_string(), "N 0,3,1/2,0,4 5-1");
//! assert!("N 0,3,1/2,0 5-1".parse::<Position>().is_err());
//! ```

use crate::position::{Position, PositionError, Setup};
use crate::side::{ByPlayer, Side};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Why a position string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// Nothing but white space.
    #[error("the position is empty; expected e.g. \"S 4,4,4/4,4,4 0-0\"")]
    Empty,
    /// Not exactly three space-separated fields.
    #[error("a position has 3 fields (side to move, pits, captured) but {0} were given; expected e.g. \"S 4,4,4/4,4,4 0-0\"")]
    FieldCount(usize),
    /// The first field is not `S` or `N`.
    #[error("side to move must be S or N, not {0:?}")]
    BadSide(String),
    /// The pits field does not have exactly one `/`.
    #[error("the pits field {0:?} must be two rows separated by one '/'")]
    BadRows(String),
    /// The captured field is not `A-B`.
    #[error("the captured field {0:?} must be two numbers separated by '-'")]
    BadCaptured(String),
    /// A count that is not a non-negative decimal number.
    #[error("{what}: {text:?} is not a seed count (a non-negative whole number)")]
    BadNumber {
        /// Where the number was.
        what: &'static str,
        /// The offending text.
        text: String,
    },
    /// Well-formed text describing an impossible position.
    #[error(transparent)]
    Invalid(#[from] PositionError),
}

fn number(text: &str, what: &'static str) -> Result<u32, NotationError> {
    let bad = || NotationError::BadNumber {
        what,
        text: text.to_string(),
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    // All digits: only overflow can fail; such a count is over every limit.
    Ok(text.parse::<u32>().unwrap_or(u32::MAX))
}

fn row(text: &str, what: &'static str) -> Result<Vec<u32>, NotationError> {
    text.split(',').map(|t| number(t, what)).collect()
}

impl FromStr for Setup {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Setup, NotationError> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        match fields.len() {
            0 => return Err(NotationError::Empty),
            3 => {}
            k => return Err(NotationError::FieldCount(k)),
        }
        let to_move = match fields[0] {
            "S" => Side::South,
            "N" => Side::North,
            other => return Err(NotationError::BadSide(other.to_string())),
        };
        let (south, north) = fields[1]
            .split_once('/')
            .filter(|(_, n)| !n.contains('/'))
            .ok_or_else(|| NotationError::BadRows(fields[1].to_string()))?;
        let (cs, cn) = fields[2]
            .split_once('-')
            .ok_or_else(|| NotationError::BadCaptured(fields[2].to_string()))?;
        Ok(Setup {
            to_move,
            south: row(south, "South's row")?,
            north: row(north, "North's row")?,
            captured: ByPlayer::new(
                number(cs, "South's captured seeds")?,
                number(cn, "North's captured seeds")?,
            ),
        })
    }
}

impl FromStr for Position {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Position, NotationError> {
        Ok(Position::from_setup(&s.parse::<Setup>()?)?)
    }
}

fn write_row(f: &mut fmt::Formatter<'_>, row: &[u8]) -> fmt::Result {
    for (i, c) in row.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{c}")?;
    }
    Ok(())
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.to_move().letter())?;
        write_row(f, self.row(Side::South))?;
        f.write_str("/")?;
        write_row(f, self.row(Side::North))?;
        write!(
            f,
            " {}-{}",
            self.captured(Side::South),
            self.captured(Side::North)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats() {
        let text = "S 5,5,5,5,5,5,5/5,5,5,5,5,5,5 0-0";
        let p: Position = text.parse().unwrap();
        assert_eq!(p.n(), 7);
        assert_eq!(p.to_string(), text);
        // Extra white space is accepted, the output is canonical.
        let q: Position = "  N  1,2/3,4   10-0 ".parse().unwrap();
        assert_eq!(q.to_string(), "N 1,2/3,4 10-0");
    }

    #[test]
    fn errors_name_the_problem() {
        use NotationError::*;
        let e = |s: &str| s.parse::<Position>().unwrap_err();
        assert_eq!(e(""), Empty);
        assert_eq!(e("S 1,2/3,4"), FieldCount(2));
        assert_eq!(e("X 1,2/3,4 0-0"), BadSide("X".into()));
        assert_eq!(e("s 1,2/3,4 0-0"), BadSide("s".into()));
        assert_eq!(e("S 1,2,3,4 0-0"), BadRows("1,2,3,4".into()));
        assert_eq!(e("S 1/2/3 0-0"), BadRows("1/2/3".into()));
        assert_eq!(e("S 1,2/3,4 0"), BadCaptured("0".into()));
        assert!(matches!(e("S 1,-2/3,4 0-0"), BadNumber { .. }));
        assert!(matches!(e("S 1,,2/3,4,5 0-0"), BadNumber { .. }));
        assert!(matches!(e("S 1,2/3,+4 0-0"), BadNumber { .. }));
        assert!(matches!(e("S 1,2/3,4 0--1"), BadNumber { .. }));
        assert!(matches!(e("S 1,2/3,4 0-1-"), BadNumber { .. }));
        assert_eq!(
            e("S 1,2/3 0-0"),
            Invalid(PositionError::UnequalRows { south: 2, north: 1 })
        );
        assert_eq!(
            e("S 99999999999,2/3,4 0-0"),
            Invalid(PositionError::TooManySeeds(u64::from(u32::MAX) + 9))
        );
    }
}
