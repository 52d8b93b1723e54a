//! The processes a build is split over ("ranks", as MPI calls them) and the
//! few collective steps they take together: the narrow interface through
//! which [`super::propagate`], [`super::edges_on`] and [`super::build`]
//! exchange their news, edges and bounds, and [`super::build_all_on`]
//! gathers a level for its file.
//!
//! One process is [`Alone`]: every step is then trivial and the builds run
//! exactly as they did before ranks existed. With the cargo feature `mpi`,
//! `db::mpi::World` runs the same steps over MPI (`mpirun -n N
//! mancala db build ...`).
//!
//! # Who owns what
//!
//! A level of `count` boards is cut into `shards_per_rank * size` shards
//! of `count.div_ceil(shards_per_rank * size)` boards (the last ones
//! shorter or empty); rank `i` owns the shards `i * shards_per_rank ..
//! (i + 1) * shards_per_rank`, a contiguous range of boards ([`share`]).
//! Every rank computes every rank's share from the same numbers, so no
//! message says who owns what.
//!
//! # The contract of the collective steps
//!
//! Every rank calls the same collective steps in the same order (the
//! builds' loops end on values every rank agrees on: the results of
//! [`Ranks::or`] and [`Ranks::sum`]). A step that fails in one rank cannot
//! be reported to the others: MPI programs end it all (`MPI_Abort`), which
//! the command line does, after printing the error with its rank.

use std::ops::Range;

/// The processes a build is split over, and the steps they take together.
pub trait Ranks {
    /// This process's number, from 0.
    fn rank(&self) -> usize;
    /// How many processes there are (at least 1).
    fn size(&self) -> usize;
    /// The bitwise or of every rank's `bits` (every rank gets it).
    fn or(&self, bits: u32) -> u32;
    /// The sum of every rank's `x` (every rank gets it).
    fn sum(&self, x: u64) -> u64;
    /// Every rank's `x`, by rank (every rank gets them all).
    fn gather(&self, x: u64) -> Vec<u64>;
    /// Sends `out[d]` to rank `d` (this rank's own `out` entry is ignored:
    /// it is not sent) and returns what the other ranks sent to this one,
    /// in rank order, concatenated. `out` has one entry per rank.
    fn exchange(&self, out: &[Vec<u64>]) -> Vec<u64>;
    /// Makes `buf` on every rank what it is on rank `root`.
    fn broadcast(&self, root: usize, buf: &mut [u16]);
    /// Sends `data` to rank `to`, which takes it with
    /// [`Ranks::receive`] of the same length.
    fn send(&self, to: usize, data: &[u8]);
    /// Fills `out` with what rank `from` sent with [`Ranks::send`].
    fn receive(&self, from: usize, out: &mut [u8]);
    /// Sends `data` (a short message, below 2^28 bytes) to rank `to`, which
    /// takes it with [`Ranks::receive_message`].
    fn send_message(&self, to: usize, data: &[u8]);
    /// The next message sent to this rank with [`Ranks::send_message`] by
    /// rank `from` (by any rank when `None`), and its sender.
    fn receive_message(&self, from: Option<usize>) -> (usize, Vec<u8>);
}

/// One process: a build as it always was.
#[derive(Clone, Copy, Debug, Default)]
pub struct Alone;

impl Ranks for Alone {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn or(&self, bits: u32) -> u32 {
        bits
    }
    fn sum(&self, x: u64) -> u64 {
        x
    }
    fn gather(&self, x: u64) -> Vec<u64> {
        vec![x]
    }
    fn exchange(&self, _out: &[Vec<u64>]) -> Vec<u64> {
        Vec::new()
    }
    fn broadcast(&self, _root: usize, _buf: &mut [u16]) {}
    fn send(&self, _to: usize, _data: &[u8]) {
        unreachable!("one process sends nothing")
    }
    fn receive(&self, _from: usize, _out: &mut [u8]) {
        unreachable!("one process receives nothing")
    }
    fn send_message(&self, _to: usize, _data: &[u8]) {
        unreachable!("one process sends nothing")
    }
    fn receive_message(&self, _from: Option<usize>) -> (usize, Vec<u8>) {
        unreachable!("one process receives nothing")
    }
}

/// Boards per shard when `count` boards are cut into `shards_per_rank`
/// shards for each of `size` ranks (at least 1).
pub fn shard_len(count: u64, shards_per_rank: usize, size: usize) -> u64 {
    count.div_ceil((shards_per_rank * size) as u64).max(1)
}

/// The boards rank `rank` of `size` owns when `count` boards are cut into
/// `shards_per_rank` shards a rank (see the module docs): possibly none.
pub fn share(count: u64, shards_per_rank: usize, size: usize, rank: usize) -> Range<u64> {
    let len = shard_len(count, shards_per_rank, size);
    let at = |i: usize| (i as u64 * shards_per_rank as u64 * len).min(count);
    at(rank)..at(rank + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shares of the ranks cover the level in order, without overlap,
    /// and each is a whole number of shards.
    #[test]
    fn shares_cover_the_level() {
        for count in [0, 1, 5, 64, 1000, 12345] {
            for size in 1..=5 {
                for per in [1, 3, 16] {
                    let len = shard_len(count, per, size);
                    let mut next = 0;
                    for rank in 0..size {
                        let s = share(count, per, size, rank);
                        assert_eq!(s.start, next);
                        assert!(s.start.is_multiple_of(len) || s.start == count);
                        next = s.end;
                    }
                    assert_eq!(next, count);
                }
            }
        }
    }
}
