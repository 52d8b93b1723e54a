//! Wide boards: Dakon on any board a person could lay out, beyond the
//! engine's byte-sized [`Position`] (at most [`crate::MAX_N`] pits a row
//! and [`crate::MAX_SEEDS`] seeds).
//!
//! A [`WidePosition`] holds up to [`WIDE_MAX_N`] pits a row with 16-bit
//! counts (at most [`WIDE_MAX_SEEDS`] seeds: `dakon:32x32` has 2,048). It
//! is used only where the board exceeds the engine's limits: the search,
//! the databases and the counts of openings stay on [`Position`], whose
//! byte layout they rely on. [`WideDakon`] is the Dakon variant at such a
//! size, and [`WideDakon::moves`] its move generator.
//!
//! **The rules are not copied here.** A move is Dakon's one sowing
//! (`games/dakon.rs`), generic over the crate's board trait (`board.rs`),
//! which [`WidePosition`] implements as [`Position`] does; so is the end
//! of the game. On every board both types accept, they give the same
//! moves and positions (checked by this module's tests and by
//! `tests/it/wide.rs`, which also checks large boards against the plain
//! second implementation of `tests/it/plain`).
//!
//! **Guarantees relied on:** counts are at most [`WIDE_MAX_SEEDS`] in all,
//! so no pit, store or sum overflows a `u16`; a Dakon sowing always ends
//! (every lap round the ring drops a seed in the mover's store), so the
//! wide board needs no guard against endless relays (its guard only counts
//! laps, and a debug assertion checks the bound).

use crate::board::Board;
use crate::games::dakon;
use crate::games::Move;
use crate::notation::NotationError;
use crate::position::{Position, Setup, SetupError};
use crate::side::{ByPlayer, Side};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

pub use crate::position::WIDE_MAX_N;
/// Size of the wide pit array: both rows of the largest board.
pub const WIDE_MAX_PITS: usize = 2 * WIDE_MAX_N;
/// Largest number of seeds of a wide position (pits and captured).
pub const WIDE_MAX_SEEDS: usize = u16::MAX as usize;

const _: () = assert!(WIDE_MAX_PITS == 64 && WIDE_MAX_SEEDS <= u16::MAX as usize);

/// Why a wide board, position or move is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WideError {
    /// Not `dakon` or `dakon:NxS`.
    #[error("{0:?} is not a wide Dakon board: expected dakon:NxS with 1..={WIDE_MAX_N} pits a row and at most {WIDE_MAX_SEEDS} seeds")]
    Game(String),
    /// The two rows have different lengths.
    #[error("rows of unequal length: South has {south} pits, North has {north}")]
    UnequalRows {
        /// Pits in South's row.
        south: usize,
        /// Pits in North's row.
        north: usize,
    },
    /// Rows empty or longer than [`WIDE_MAX_N`].
    #[error("{0} pits per row is outside the supported range 1..={WIDE_MAX_N}")]
    RowLength(usize),
    /// More seeds than [`WIDE_MAX_SEEDS`], or none a pit.
    #[error("{0} seeds is outside the supported range (1 a pit up to {WIDE_MAX_SEEDS} in all)")]
    Seeds(u64),
    /// The rows do not have the length of the variant.
    #[error("rows have {got} pits but the game has {expected} pits per row")]
    WrongRowLength {
        /// Pits per row of the variant.
        expected: usize,
        /// Pits per row of the position.
        got: usize,
    },
    /// The seeds do not add up to the variant's total.
    #[error(
        "the position holds {got} seeds (pits and captured) but the game is played with {expected}"
    )]
    WrongTotal {
        /// `2 * n * s`.
        expected: usize,
        /// Seeds in the position.
        got: u64,
    },
    /// The position text is malformed.
    #[error("{0}")]
    Notation(#[from] NotationError),
    /// A move that cannot be played.
    #[error("move {mv} is illegal: {why}")]
    Illegal {
        /// The move asked for.
        mv: Move,
        /// Why, in words.
        why: String,
    },
}

/// A validated wide position: `n` pits a row (`1..=WIDE_MAX_N`), at most
/// [`WIDE_MAX_SEEDS`] seeds. Board indices as in [`Position`]; entries at
/// `2n..` are always zero, so equality and hashing see only the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WidePosition {
    pits: [u16; WIDE_MAX_PITS],
    captured: [u16; 2],
    to_move: Side,
    n: u8,
}

impl WidePosition {
    /// Validates a setup: the only way from raw data to a wide position.
    pub fn from_setup(setup: &Setup) -> Result<WidePosition, WideError> {
        let ls = setup
            .check(WIDE_MAX_N, WIDE_MAX_SEEDS)
            .map_err(|e| match e {
                SetupError::UnequalRows { south, north } => WideError::UnequalRows { south, north },
                SetupError::RowLength(n) => WideError::RowLength(n),
                SetupError::Seeds(total) => WideError::Seeds(total),
            })?;
        // Every count is at most the total: the casts are exact.
        let mut pits = [0u16; WIDE_MAX_PITS];
        for (dst, &c) in pits.iter_mut().zip(setup.south.iter().chain(&setup.north)) {
            *dst = c as u16;
        }
        Ok(WidePosition {
            pits,
            captured: [setup.captured.south as u16, setup.captured.north as u16],
            to_move: setup.to_move,
            n: ls as u8,
        })
    }

    /// The raw setup of this position.
    pub fn to_setup(&self) -> Setup {
        let row = |side: Side| self.row(side).iter().map(|&c| u32::from(c)).collect();
        Setup {
            to_move: self.to_move,
            south: row(Side::South),
            north: row(Side::North),
            captured: ByPlayer::new(u32::from(self.captured[0]), u32::from(self.captured[1])),
        }
    }

    /// The same position on the engine's board type, when it fits there.
    pub fn narrow(&self) -> Option<Position> {
        Position::from_setup(&self.to_setup()).ok()
    }

    /// Pits per row.
    pub fn n(&self) -> usize {
        usize::from(self.n)
    }

    /// The player to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// One side's row, pit 1 first.
    pub fn row(&self, side: Side) -> &[u16] {
        let n = self.n();
        &self.pits[side.base(n)..side.base(n) + n]
    }

    /// Seeds captured by `side`.
    pub fn captured(&self, side: Side) -> u32 {
        u32::from(self.captured[side.index()])
    }

    /// Seeds on the board.
    pub fn board_seeds(&self) -> u32 {
        self.pits[..2 * self.n()]
            .iter()
            .map(|&c| u32::from(c))
            .sum()
    }

    /// Seeds on the board and captured together.
    pub fn total_seeds(&self) -> u32 {
        self.board_seeds() + self.captured(Side::South) + self.captured(Side::North)
    }
}

impl Board for WidePosition {
    /// Laps so far (Dakon's sowing ends: see the module doc).
    type Guard = u64;

    fn n(&self) -> usize {
        usize::from(self.n)
    }
    fn to_move(&self) -> Side {
        self.to_move
    }
    fn set_to_move(&mut self, side: Side) {
        self.to_move = side;
    }
    fn get(&self, i: usize) -> u32 {
        u32::from(self.pits[i])
    }
    fn add_one(&mut self, i: usize) {
        self.pits[i] += 1;
    }
    fn take(&mut self, i: usize) -> u32 {
        let c = self.pits[i];
        self.pits[i] = 0;
        u32::from(c)
    }
    fn capture_seeds(&mut self, side: Side, seeds: u32) {
        // At most WIDE_MAX_SEEDS in all: the cast is exact.
        self.captured[side.index()] += seeds as u16;
    }
    fn row_empty(&self, side: Side) -> bool {
        self.row(side).iter().all(|&c| c == 0)
    }
    fn guard() -> u64 {
        0
    }
    fn repeats(&self, laps: &mut u64, _place: usize) -> bool {
        // A lap drops at least one seed and every 2n + 1 seeds dropped
        // include one in the store, so a move has fewer laps than
        // (seeds + 1) * (2n + 1).
        *laps += 1;
        debug_assert!(*laps <= (u64::from(self.total_seeds()) + 1) * (2 * self.n() as u64 + 1));
        false
    }
}

impl fmt::Display for WidePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |side: Side| {
            self.row(side)
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        write!(
            f,
            "{} {}/{} {}-{}",
            self.to_move.letter(),
            row(Side::South),
            row(Side::North),
            self.captured[0],
            self.captured[1]
        )
    }
}

impl FromStr for WidePosition {
    type Err = WideError;

    fn from_str(s: &str) -> Result<WidePosition, WideError> {
        WidePosition::from_setup(&s.parse::<Setup>()?)
    }
}

/// The final scores of a finished game.
pub type WideScore = ByPlayer<u32>;

/// Dakon on a wide board: `n` pits a row, `s` seeds a pit (`sized`: the
/// size was given, positions must match it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WideDakon {
    n: usize,
    s: usize,
    sized: bool,
}

impl WideDakon {
    /// Dakon with `n` pits a row and `s` seeds a pit, within the wide
    /// limits.
    pub fn new(n: usize, s: usize) -> Result<WideDakon, WideError> {
        if n == 0 || n > WIDE_MAX_N {
            return Err(WideError::RowLength(n));
        }
        let total = 2 * n as u64 * s.min(1 << 40) as u64;
        if s == 0 || total > WIDE_MAX_SEEDS as u64 {
            return Err(WideError::Seeds(total));
        }
        Ok(WideDakon { n, s, sized: true })
    }

    /// Pits per row.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Seeds a pit at the start.
    pub fn s(&self) -> usize {
        self.s
    }

    /// The start position.
    pub fn start(&self) -> WidePosition {
        let mut pits = [0u16; WIDE_MAX_PITS];
        // n * s fits: checked by `new`.
        pits[..2 * self.n].fill(self.s as u16);
        WidePosition {
            pits,
            captured: [0, 0],
            to_move: Side::South,
            n: self.n as u8,
        }
    }

    /// Parses and validates a position of this variant (with the size
    /// given, it must have `n` pits a row and `2ns` seeds).
    pub fn parse_position(&self, text: &str) -> Result<WidePosition, WideError> {
        let p: WidePosition = text.parse()?;
        if self.sized {
            if p.n() != self.n {
                return Err(WideError::WrongRowLength {
                    expected: self.n,
                    got: p.n(),
                });
            }
            let expected = 2 * self.n * self.s;
            if p.total_seeds() as usize != expected {
                return Err(WideError::WrongTotal {
                    expected,
                    got: u64::from(p.total_seeds()),
                });
            }
        }
        Ok(p)
    }

    /// The legal moves of `pos` with the positions they lead to, in pit
    /// order, or the final scores when the game is over.
    pub fn moves(pos: &WidePosition) -> Result<Vec<(Move, WidePosition)>, WideScore> {
        let mut out = Vec::with_capacity(pos.n());
        WideDakon::moves_into(pos, &mut out).map(|()| out)
    }

    /// [`WideDakon::moves`] into `out` (cleared first, and left empty when
    /// the game is over), so that a search
    /// reuses one vector: the moves are appended, in pit order, each child
    /// made in place in the vector (a wide board is 136 bytes).
    pub fn moves_into(
        pos: &WidePosition,
        out: &mut Vec<(Move, WidePosition)>,
    ) -> Result<(), WideScore> {
        out.clear();
        if let Some(t) = dakon::taker(pos) {
            let mut score = ByPlayer::new(pos.captured(Side::South), pos.captured(Side::North));
            score[t] += pos.board_seeds();
            return Err(score);
        }
        let base = pos.to_move.base(pos.n());
        for k in 0..pos.n() {
            if pos.pits[base + k] != 0 {
                out.push((Move::Pit(k as u8 + 1), *pos));
                let (_, child) = out.last_mut().expect("just pushed");
                if !dakon::sow(child, k) {
                    out.pop();
                }
            }
        }
        if out.is_empty() {
            // Never in Dakon: a mover with seeds has a move.
            return Err(ByPlayer::new(
                pos.captured(Side::South),
                pos.captured(Side::North),
            ));
        }
        Ok(())
    }

    /// The final scores when `pos` is over, else `None`.
    pub fn outcome(pos: &WidePosition) -> Option<WideScore> {
        dakon::taker(pos).map(|t| {
            let mut score = ByPlayer::new(pos.captured(Side::South), pos.captured(Side::North));
            score[t] += pos.board_seeds();
            score
        })
    }

    /// The checked way to play: the position after `mv`, or why not.
    pub fn play(pos: &WidePosition, mv: Move) -> Result<WidePosition, WideError> {
        let illegal = |why: String| WideError::Illegal { mv, why };
        let moves = match WideDakon::moves(pos) {
            Ok(m) => m,
            Err(s) => {
                return Err(illegal(format!(
                    "the game is over (final score {}-{})",
                    s.south, s.north
                )))
            }
        };
        if let Some((_, child)) = moves.iter().find(|(m, _)| *m == mv) {
            return Ok(*child);
        }
        Err(illegal(match mv {
            Move::Pass => format!(
                "{} has seeds to sow (a pass is only forced when the mover's row is empty)",
                pos.to_move
            ),
            Move::Pit(k) if usize::from(k) > pos.n() => format!("the row has pits 1..{}", pos.n()),
            Move::Pit(_) => "that pit is empty".to_string(),
        }))
    }
}

impl FromStr for WideDakon {
    type Err = WideError;

    /// `dakon:NxS` (or `dakon`, the traditional 7x7 with positions of any
    /// size).
    fn from_str(s: &str) -> Result<WideDakon, WideError> {
        let bad = || WideError::Game(s.to_string());
        let size = match s.split_once(':') {
            Some(("dakon", size)) => size,
            None if s == "dakon" => {
                return Ok(WideDakon {
                    n: 7,
                    s: 7,
                    sized: false,
                })
            }
            _ => return Err(bad()),
        };
        let (n, seeds) = size.split_once('x').ok_or_else(bad)?;
        let num = |t: &str| -> Result<usize, WideError> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            Ok(t.parse::<usize>().unwrap_or(usize::MAX))
        };
        WideDakon::new(num(n)?, num(seeds)?)
    }
}

impl fmt::Display for WideDakon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "dakon:{}x{}", self.n, self.s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Dakon, MoveList, Rules};

    /// A small generator (a 64-bit LCG), so the test needs no crate.
    fn lcg(mut x: u64) -> impl FnMut(u64) -> u64 {
        move |m| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        }
    }

    #[test]
    fn same_moves_as_the_engine_on_every_board_both_accept() {
        let mut rng = lcg(15);
        // One vector for every `moves_into`: what it held is replaced.
        let mut reused = Vec::new();
        for n in 1..=crate::MAX_N {
            for s in 1..=crate::MAX_SEEDS / (2 * n) {
                let mut narrow = Position::start(n, s);
                let mut wide = WideDakon::new(n, s).unwrap().start();
                for _ in 0..40 {
                    assert_eq!(narrow.to_string(), wide.to_string());
                    let mut moves = MoveList::new();
                    let end = Dakon::generate(&narrow, &mut moves);
                    match WideDakon::moves(&wide) {
                        Err(score) => {
                            let end = end.expect("both over");
                            assert_eq!(
                                (score.south, score.north),
                                (u32::from(end.south), u32::from(end.north))
                            );
                            break;
                        }
                        Ok(wide_moves) => {
                            WideDakon::moves_into(&wide, &mut reused).expect("not over");
                            assert_eq!(reused, wide_moves);
                            let listed: Vec<String> =
                                moves.iter().map(|(m, c)| format!("{m} {c}")).collect();
                            let wide_listed: Vec<String> =
                                wide_moves.iter().map(|(m, c)| format!("{m} {c}")).collect();
                            assert_eq!(listed, wide_listed);
                            let k = rng(moves.len() as u64) as usize;
                            narrow = moves[k].1;
                            wide = wide_moves[k].1;
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn parses_prints_and_refuses() {
        let v: WideDakon = "dakon:32x32".parse().unwrap();
        let p = v.start();
        assert_eq!(p.total_seeds(), 2048);
        assert_eq!(v.parse_position(&p.to_string()).unwrap(), p);
        assert!(matches!(
            "dakon:33x1".parse::<WideDakon>(),
            Err(WideError::RowLength(33))
        ));
        assert!(matches!(
            "dakon:32x1024".parse::<WideDakon>(),
            Err(WideError::Seeds(65536))
        ));
        assert!(matches!(
            "kalah:20x4".parse::<WideDakon>(),
            Err(WideError::Game(_))
        ));
        assert!(v.parse_position("S 1/1 0-0").is_err());
    }
}
