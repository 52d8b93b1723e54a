//! The compact bit-packed position: an exact transposition key.
//!
//! Counts are packed "stars and bars" style into one `u128`, least
//! significant bit first:
//!
//! | bits                  | field                                          |
//! |-----------------------|------------------------------------------------|
//! | [`SIDE_BITS`] (1)     | side to move: 0 South, 1 North                 |
//! | then, for each bin    | its count `c` as `c` one-bits, then one zero   |
//! |                       | bit as a separator (the last bin has none)     |
//!
//! The bins are South's pits 1..n, North's pits 1..n, and for a
//! [`PackedPosition`] also South's and North's captured seeds. A key of `b`
//! bins holding `k` seeds uses `SIDE_BITS + k + b - 1` bits, unused high bits
//! are zero, and the encoding is a bijection between positions of a given
//! `n` and keys: two positions are equal exactly when their keys are.
//!
//! [`PackedBoard`] leaves the captured seeds out. Play from a position never
//! depends on what was captured before (in all six games), so a search that
//! stores values as *future* gains can key its table on the board and the
//! side to move alone. It can do better: [`PackedBoard::seen_by_mover`]
//! packs the board as the side to move sees it (its own row first, the
//! side bit always South's), so a position and its mirror image (rows
//! swapped, the other side to move) share one key. The rules of every game
//! are symmetric (guarantee 3 of [`crate::games::Rules`], checked for every
//! game by `tests/it/properties.rs`): the mirror image has the same moves
//! (pit numbers count from the mover's pit 1) leading to the mirrored
//! children, so by induction over play the same future gain for the side
//! to move, endless play included. The databases index boards the same
//! way ([`crate::db::probe::canonical_board`]).
//!
//! A position fits when [`fits`] says so; every game at its traditional size
//! fits as a [`PackedPosition`] (checked at compile time below).

use crate::games::Game;
use crate::position::{Position, MAX_PITS};
use crate::side::Side;

/// Width of a key.
pub const KEY_BITS: usize = 128;
/// Bits for the side to move.
pub const SIDE_BITS: usize = 1;

/// Bits a key of `bins` bins holding `seeds` seeds uses.
pub const fn bits_needed(bins: usize, seeds: usize) -> usize {
    SIDE_BITS + seeds + bins - 1
}

/// Whether `seeds` seeds over `bins` bins fit in a key.
pub const fn fits(bins: usize, seeds: usize) -> bool {
    bits_needed(bins, seeds) <= KEY_BITS
}

const fn widest_standard_game() -> usize {
    let mut i = 0;
    let mut widest = 0;
    while i < Game::ALL.len() {
        let (n, s) = Game::ALL[i].default_size();
        let bits = bits_needed(2 * n + 2, 2 * n * s);
        if bits > widest {
            widest = bits;
        }
        i += 1;
    }
    widest
}

// Every traditional board, stores included, packs into one key.
const _: () = assert!(widest_standard_game() <= KEY_BITS);

/// The key of `bins` after the side bit (the caller checked with [`fits`]
/// that they fit).
///
/// Every bit of the key above the side bit's, up to its last, is a one
/// except the separators, so the key is that run of ones with the
/// separators cleared, each separator one bit of one of two 64-bit words
/// (a search makes a key at nearly every node; shifting each count's ones
/// into a `u128` took a fifth of an Anywoli search).
#[inline]
fn pack(side: Side, bins: impl Iterator<Item = u8>) -> u128 {
    // After each bin, `at` is where its separator goes: past the side's
    // bit, the seeds of the bins read and the separators between them.
    let mut at = SIDE_BITS - 1;
    let (mut low, mut high) = (0u64, 0u64);
    for c in bins {
        at += usize::from(c) + 1;
        let bit = 1u64 << (at & 63);
        if at < 64 {
            low |= bit;
        } else if at < KEY_BITS {
            high |= bit;
        }
    }
    // The last bin has no separator: the key's bits are `0..at` (`at` is
    // 128 when the key is full), and the bit set at `at` only marks the
    // end; bit 0 is the side's.
    let ones = if at >= KEY_BITS {
        u128::MAX
    } else {
        (1u128 << at) - 1
    };
    let separators = u128::from(low) | u128::from(high) << 64;
    (ones & !separators & !1) | side.index() as u128
}

/// Reads `bins` counts back; `None` if the key holds more bins or seeds.
fn unpack(key: u128, bins: usize, out: &mut [u8]) -> Option<Side> {
    let side = if key & 1 == 0 {
        Side::South
    } else {
        Side::North
    };
    let mut rest = key >> SIDE_BITS;
    let mut total = 0usize;
    for slot in out.iter_mut().take(bins) {
        let c = rest.trailing_ones() as usize;
        total += c;
        if total > usize::from(u8::MAX) {
            return None;
        }
        *slot = c as u8;
        rest = rest.checked_shr(c as u32 + 1).unwrap_or(0);
    }
    (rest == 0).then_some(side)
}

/// Board and side to move of a position, packed (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PackedBoard(pub u128);

impl PackedBoard {
    /// Packs the board and side to move, or `None` when they do not fit
    /// (a bijection: see [`PackedBoard::seen_by_mover`] for the key that
    /// merges a position with its mirror image).
    #[inline]
    pub fn new(pos: &Position) -> Option<PackedBoard> {
        let bins = 2 * pos.n();
        fits(bins, pos.board_seeds())
            .then(|| PackedBoard(pack(pos.to_move(), pos.board().iter().copied())))
    }

    /// Packs the board as the side to move sees it (module docs): the
    /// mover's row first, then the opponent's, with South's side bit; the
    /// same key for a position and its mirror image. `None` when it does
    /// not fit. A key of the transposition table.
    #[inline]
    pub fn seen_by_mover(pos: &Position) -> Option<PackedBoard> {
        let n = pos.n();
        if !fits(2 * n, pos.board_seeds()) {
            return None;
        }
        let b = pos.board();
        let (own, other) = match pos.to_move() {
            Side::South => b.split_at(n),
            Side::North => {
                let (south, north) = b.split_at(n);
                (north, south)
            }
        };
        Some(PackedBoard(pack(
            Side::South,
            own.iter().chain(other).copied(),
        )))
    }

    /// The position with this board, `n` pits a row and the given captured
    /// seeds; `None` if the key is not a valid board of `n` pits.
    pub fn unpack(self, n: usize, captured: [u8; 2]) -> Option<Position> {
        let mut pits = [0u8; MAX_PITS];
        if n == 0 || 2 * n > MAX_PITS {
            return None;
        }
        let side = unpack(self.0, 2 * n, &mut pits)?;
        let p = Position {
            pits,
            captured,
            to_move: side,
            n: n as u8,
        };
        (p.total_seeds() <= crate::position::MAX_SEEDS).then_some(p)
    }
}

/// A whole position (board, side to move, captured seeds), packed (see the
/// module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PackedPosition(pub u128);

impl PackedPosition {
    /// Packs the position, or `None` when it does not fit.
    pub fn new(pos: &Position) -> Option<PackedPosition> {
        let bins = 2 * pos.n() + 2;
        fits(bins, pos.total_seeds()).then(|| {
            PackedPosition(pack(
                pos.to_move(),
                pos.board().iter().chain(&pos.captured).copied(),
            ))
        })
    }

    /// The position of `n` pits a row this key holds; `None` if it is not a
    /// valid key for `n`.
    pub fn unpack(self, n: usize) -> Option<Position> {
        if n == 0 || 2 * n > MAX_PITS {
            return None;
        }
        let mut bins = [0u8; MAX_PITS + 2];
        let side = unpack(self.0, 2 * n + 2, &mut bins)?;
        let mut pits = [0u8; MAX_PITS];
        pits[..2 * n].copy_from_slice(&bins[..2 * n]);
        let p = Position {
            pits,
            captured: [bins[2 * n], bins[2 * n + 1]],
            to_move: side,
            n: n as u8,
        };
        (p.total_seeds() <= crate::position::MAX_SEEDS).then_some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_as_documented() {
        let p: Position = "N 2,0/1,3 1-0".parse().unwrap();
        // side 1; bins 2,0,1,3,1,0 -> 11 0 | 0 | 1 0 | 111 0 | 1 0 | (none)
        let bits = "1" // side
            .to_string()
            + "110"
            + "0"
            + "10"
            + "1110"
            + "10";
        let expect = bits
            .chars()
            .enumerate()
            .fold(0u128, |k, (i, b)| k | (u128::from(b == '1') << i));
        assert_eq!(PackedPosition::new(&p).unwrap().0, expect);
        assert_eq!(PackedPosition(expect).unpack(2), Some(p));
        let board = PackedBoard::new(&p).unwrap();
        assert_eq!(board.unpack(2, [1, 0]), Some(p));
    }

    /// A position and its mirror image (rows swapped, the other side to
    /// move) share the mover's key, which unpacks to the one with South to
    /// move; different boards of the mover keep different keys.
    #[test]
    fn the_mover_sees_a_position_and_its_mirror_alike() {
        let north: Position = "N 2,0,5/1,3,0 1-0".parse().unwrap();
        let south: Position = "S 1,3,0/2,0,5 0-1".parse().unwrap();
        let key = PackedBoard::seen_by_mover(&north).unwrap();
        assert_eq!(PackedBoard::seen_by_mover(&south), Some(key));
        assert_eq!(key, PackedBoard::new(&south).unwrap());
        assert_eq!(key.unpack(3, [0, 1]), Some(south));
        assert_ne!(PackedBoard::new(&north), PackedBoard::new(&south));
        let other: Position = "N 1,3,0/2,0,5 1-0".parse().unwrap();
        assert_ne!(PackedBoard::seen_by_mover(&other), Some(key));
        let mut big = Position::start(16, 3);
        big.pits[0] += 1;
        big.to_move = Side::North;
        assert_eq!(PackedBoard::seen_by_mover(&big), None);
    }

    /// The key of any counts is the documented layout written one bit at a
    /// time, up to keys that fill all 128 bits (whose last bin ends at the
    /// top bit), and unpacks to the same counts.
    #[test]
    fn keys_are_the_layout_bit_by_bit() {
        let by_bits = |side: Side, counts: &[u8]| {
            let mut key = side.index() as u128;
            let mut at = SIDE_BITS;
            for (i, &c) in counts.iter().enumerate() {
                for _ in 0..c {
                    key |= 1u128 << at;
                    at += 1;
                }
                // The separator, a zero (none after the last bin).
                if i + 1 < counts.len() {
                    at += 1;
                }
            }
            key
        };
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..20_000u32 {
            let bins = 2 + (next() % 31) as usize;
            let room = KEY_BITS - SIDE_BITS - (bins - 1);
            // Every fourth key full: its seeds take all the room left.
            let seeds = if round.is_multiple_of(4) {
                room
            } else {
                (next() as usize) % (room + 1)
            };
            let mut counts = vec![0u8; bins];
            for _ in 0..seeds {
                counts[(next() as usize) % bins] += 1;
            }
            let side = if next().is_multiple_of(2) {
                Side::South
            } else {
                Side::North
            };
            let key = pack(side, counts.iter().copied());
            assert_eq!(key, by_bits(side, &counts), "{counts:?}");
            let mut back = vec![0u8; bins];
            assert_eq!(unpack(key, bins, &mut back), Some(side));
            assert_eq!(back, counts);
        }
    }

    #[test]
    fn too_large_is_refused() {
        // 16 pits a row hold 32 bins: 96 seeds fit, 97 do not.
        let mut p = Position::start(16, 3);
        assert!(PackedBoard::new(&p).is_some());
        p.pits[0] += 1;
        assert!(PackedBoard::new(&p).is_none());
        // A key with a bin too many is not a board of that size.
        assert_eq!(PackedBoard(0b10_1010).unpack(1, [0, 0]), None);
    }
}
