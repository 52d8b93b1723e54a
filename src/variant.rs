//! Game variants `NAME` or `NAME:NxS`, and checking positions against them.

use crate::games::Score;
use crate::games::{Game, MoveList};
use crate::notation::NotationError;
use crate::position::{Position, PositionError, Setup, MAX_N, MAX_SEEDS};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Why a game spec could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantError {
    /// Not one of the six game names.
    #[error("unknown game {0:?}: the games are {names}", names = Game::names())]
    UnknownGame(String),
    /// A size that is not `NxS` with two whole numbers.
    #[error("malformed game size {0:?}: expected NAME:NxS, e.g. dakon:5x5")]
    MalformedSize(String),
    /// Pits per row out of range.
    #[error("{0} pits per row is outside the supported range 1..={MAX_N}")]
    PitsOutOfRange(u64),
    /// Zero seeds per pit, or more seeds than the engine holds.
    #[error("{seeds} seeds per pit on {n} pits per row is {total} seeds; the engine supports 1 seed a pit up to {MAX_SEEDS} seeds in all")]
    SeedsOutOfRange {
        /// Pits per row.
        n: u64,
        /// Seeds per pit.
        seeds: u64,
        /// `2 * n * s`.
        total: u64,
    },
}

/// A game and its board: `n` pits per row, `s` seeds per pit, always
/// within the engine's limits (the fields are private, so every `Variant`
/// comes from [`Variant::new`], [`Variant::standard`] or parsing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    game: Game,
    n: usize,
    s: usize,
    sized: bool,
}

impl Variant {
    /// The variant of `game` with `n` pits a row and `s` seeds a pit
    /// (positions must then match that size), if the engine supports it:
    /// `1..=MAX_N` pits and `1..=MAX_SEEDS` seeds in all.
    pub fn new(game: Game, n: usize, s: usize) -> Result<Variant, VariantError> {
        let (n64, s64) = (n as u64, s as u64);
        if n == 0 || n > MAX_N {
            return Err(VariantError::PitsOutOfRange(n64));
        }
        let total = 2 * n64 * s64.min(u64::MAX / 64);
        if s == 0 || total > MAX_SEEDS as u64 {
            return Err(VariantError::SeedsOutOfRange {
                n: n64,
                seeds: s64,
                total,
            });
        }
        Ok(Variant {
            game,
            n,
            s,
            sized: true,
        })
    }

    /// The game.
    pub fn game(&self) -> Game {
        self.game
    }

    /// Pits per row.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Seeds per pit at the start.
    pub fn s(&self) -> usize {
        self.s
    }

    /// Whether the size was given (`NAME:NxS`): positions must then match
    /// it exactly. A bare `NAME` takes `n` from a position's rows.
    pub fn is_sized(&self) -> bool {
        self.sized
    }

    /// The variant of `game` at its traditional size.
    pub fn standard(game: Game) -> Variant {
        let (n, s) = game.default_size();
        Variant {
            game,
            n,
            s,
            sized: false,
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        Position::start(self.n, self.s)
    }

    /// Total seeds of the variant, `2 * n * s`.
    pub fn seeds(&self) -> usize {
        2 * self.n * self.s
    }

    /// Validates a setup for this variant: with a size given, the rows must
    /// have `n` pits and the seeds must total `2 * n * s`; without, any row
    /// length and total within the engine's limits is accepted.
    pub fn position(&self, setup: &Setup) -> Result<Position, PositionError> {
        let p = Position::from_setup(setup)?;
        if self.sized {
            if p.n() != self.n {
                return Err(PositionError::WrongRowLength {
                    expected: self.n,
                    got: p.n(),
                });
            }
            if p.total_seeds() != self.seeds() {
                return Err(PositionError::WrongTotal {
                    expected: self.seeds(),
                    got: p.total_seeds() as u64,
                });
            }
        }
        Ok(p)
    }

    /// Parses and validates a position string for this variant.
    pub fn parse_position(&self, text: &str) -> Result<Position, NotationError> {
        Ok(self.position(&text.parse::<Setup>()?)?)
    }

    /// Legal moves (or final scores) of `pos` under this variant's rules.
    pub fn generate(&self, pos: &Position, moves: &mut MoveList) -> Option<Score> {
        crate::dispatch!(self.game, R => <R as crate::Rules>::generate(pos, moves))
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Variant, VariantError> {
        let (name, size) = match s.split_once(':') {
            Some((name, size)) => (name, Some(size)),
            None => (s, None),
        };
        let game = Game::from_name(name).ok_or_else(|| VariantError::UnknownGame(name.into()))?;
        let Some(size) = size else {
            return Ok(Variant::standard(game));
        };
        let malformed = || VariantError::MalformedSize(size.to_string());
        let (n, seeds) = size.split_once('x').ok_or_else(malformed)?;
        let num = |t: &str| -> Result<u64, VariantError> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(malformed());
            }
            Ok(t.parse::<u64>().unwrap_or(u64::MAX))
        };
        let (n, seeds) = (num(n)?, num(seeds)?);
        if n == 0 || n > MAX_N as u64 {
            return Err(VariantError::PitsOutOfRange(n));
        }
        let seeds = usize::try_from(seeds).unwrap_or(usize::MAX);
        Variant::new(game, n as usize, seeds)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}x{}", self.game, self.n, self.s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_sizes() {
        let v: Variant = "dakon:5x5".parse().unwrap();
        assert_eq!((v.game, v.n, v.s, v.sized), (Game::Dakon, 5, 5, true));
        let v: Variant = "akon".parse().unwrap();
        assert_eq!((v.game, v.n, v.s, v.sized), (Game::Akon, 7, 5, false));
        assert_eq!(v.to_string(), "akon:7x5");
        for g in Game::ALL {
            let v: Variant = g.name().parse().unwrap();
            assert_eq!(v.game, g);
            assert!(v.seeds() <= MAX_SEEDS);
        }
    }

    #[test]
    fn refuses_bad_specs() {
        use VariantError::*;
        let e = |s: &str| s.parse::<Variant>().unwrap_err();
        assert_eq!(e("chess"), UnknownGame("chess".into()));
        assert_eq!(e("Kalah"), UnknownGame("Kalah".into()));
        assert_eq!(e(""), UnknownGame("".into()));
        assert_eq!(e("kalah:6"), MalformedSize("6".into()));
        assert_eq!(e("kalah:6x"), MalformedSize("6x".into()));
        assert_eq!(e("kalah:6x4x"), MalformedSize("6x4x".into()));
        assert_eq!(e("kalah:x4"), MalformedSize("x4".into()));
        assert_eq!(e("kalah:-6x4"), MalformedSize("-6x4".into()));
        assert_eq!(e("kalah:0x4"), PitsOutOfRange(0));
        assert_eq!(e("kalah:17x1"), PitsOutOfRange(17));
        assert!(matches!(e("kalah:6x0"), SeedsOutOfRange { .. }));
        assert!(matches!(e("kalah:16x8"), SeedsOutOfRange { .. }));
        assert!(matches!(
            e("kalah:6x99999999999999999999"),
            SeedsOutOfRange { .. }
        ));
        assert!(matches!(
            e("kalah:99999999999999999999x4"),
            PitsOutOfRange(_)
        ));
    }

    #[test]
    fn new_checks_like_parsing() {
        use VariantError::*;
        let v = Variant::new(Game::Dakon, 5, 5).unwrap();
        assert_eq!(v, "dakon:5x5".parse().unwrap());
        assert_eq!(
            (v.game(), v.n(), v.s(), v.is_sized()),
            (Game::Dakon, 5, 5, true)
        );
        assert_eq!(Variant::new(Game::Kalah, 0, 4), Err(PitsOutOfRange(0)));
        assert_eq!(Variant::new(Game::Kalah, 17, 1), Err(PitsOutOfRange(17)));
        assert!(matches!(
            Variant::new(Game::Kalah, 6, 0),
            Err(SeedsOutOfRange { .. })
        ));
        // 2 * n * s would wrap in release builds: refused, not wrapped.
        assert!(matches!(
            Variant::new(Game::Kalah, 16, usize::MAX / 16 + 1),
            Err(SeedsOutOfRange { .. })
        ));
    }

    #[test]
    fn start_refuses_sizes_that_wrap() {
        let wraps = std::panic::catch_unwind(|| Position::start(16, usize::MAX / 32 + 1));
        assert!(wraps.is_err());
        assert_eq!(Position::start(2, 3).total_seeds(), 12);
    }

    #[test]
    fn sized_variants_check_positions() {
        let v: Variant = "kalah:2x1".parse().unwrap();
        assert!(v.parse_position("S 1,1/1,1 0-0").is_ok());
        assert_eq!(
            v.parse_position("S 1,1/1,1 1-0"),
            Err(NotationError::Invalid(PositionError::WrongTotal {
                expected: 4,
                got: 5
            }))
        );
        assert_eq!(
            v.parse_position("S 1,1,0/1,1,0 0-0"),
            Err(NotationError::Invalid(PositionError::WrongRowLength {
                expected: 2,
                got: 3
            }))
        );
        let bare: Variant = "kalah".parse().unwrap();
        assert!(bare.parse_position("S 1,1,0/1,1,9 0-0").is_ok());
    }
}
