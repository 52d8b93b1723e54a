//! The perfect index of seed distributions: rank and unrank of the ways to
//! put `k` seeds into `m` pits, the indexing of the endgame databases.
//!
//! A distribution `c_0, ..., c_{m-1}` (summing to `k`) is read as a row of
//! `k` seeds and `m - 1` bars; bar `j` sits at place
//! `p_j = c_0 + ... + c_j + j`, so the bars form an `(m-1)`-subset of
//! `0..k+m-1`, and the combinatorial number system ranks that subset:
//!
//! ```text
//! rank = C(p_0, 1) + C(p_1, 2) + ... + C(p_{m-2}, m-1)
//! ```
//!
//! which is a bijection onto `0..C(k+m-1, m-1)`.
//!
//! ```
//! use mancala::index::Indexer;
//! let ix = Indexer::new(12, 2).unwrap(); // 2 seeds over 12 pits
//! assert_eq!(ix.count(), 78);
//! let mut pits = [0u8; 12];
//! ix.unrank(ix.rank(&[0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]), &mut pits);
//! assert_eq!(pits, [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
//! ```

use crate::position::MAX_PITS;
use std::ops::Range;
use thiserror::Error;

/// Why an index cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IndexError {
    /// Zero pits.
    #[error("a distribution needs at least one pit")]
    NoPits,
    /// More distributions than a `u64` counts.
    #[error("{seeds} seeds over {pits} pits have more than 2^64 distributions")]
    TooMany {
        /// Pits.
        pits: usize,
        /// Seeds.
        seeds: usize,
    },
}

/// Rank and unrank of the distributions of a fixed number of seeds over a
/// fixed number of pits (see the module docs).
#[derive(Clone, Debug)]
pub struct Indexer {
    pits: usize,
    seeds: usize,
    count: u64,
    /// `binom[j * stride + p] = C(p, j + 1)` for `p` in `0..stride`, one
    /// flat table (one indirection per lookup).
    binom: Vec<u64>,
    /// `seeds + pits`.
    stride: usize,
}

/// `C(a, b)` in `u128`, saturating at `u128::MAX`.
fn choose(a: u64, b: u64) -> u128 {
    if b > a {
        return 0;
    }
    let b = b.min(a - b);
    let mut r: u128 = 1;
    for i in 0..b {
        // r * (a - i) / (i + 1) is exact at every step.
        r = match r.checked_mul(u128::from(a - i)) {
            Some(x) => x / u128::from(i + 1),
            None => return u128::MAX,
        };
    }
    r
}

/// Number of distributions of at most `seeds` seeds over `pits` pits,
/// `C(seeds + pits, pits)` (saturating).
pub fn boards_up_to(pits: usize, seeds: usize) -> u128 {
    choose((seeds + pits) as u64, pits as u64)
}

impl Indexer {
    /// The index of `seeds` seeds over `pits` pits.
    pub fn new(pits: usize, seeds: usize) -> Result<Indexer, IndexError> {
        if pits == 0 {
            return Err(IndexError::NoPits);
        }
        let count = choose((seeds + pits - 1) as u64, (pits - 1) as u64);
        let count = u64::try_from(count).map_err(|_| IndexError::TooMany { pits, seeds })?;
        // Every term of a rank is below the count, so the table entries the
        // rank reads fit; the others saturate.
        let stride = seeds + pits;
        let binom = (0..pits.saturating_sub(1))
            .flat_map(|j| {
                (0..stride as u64)
                    .map(move |p| u64::try_from(choose(p, j as u64 + 1)).unwrap_or(u64::MAX))
            })
            .collect();
        Ok(Indexer {
            pits,
            seeds,
            count,
            binom,
            stride,
        })
    }

    /// Number of pits.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// Number of seeds.
    pub fn seeds(&self) -> usize {
        self.seeds
    }

    /// Number of distributions, `C(seeds + pits - 1, pits - 1)`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The rank of a distribution, in `0..count()`.
    ///
    /// `counts` must have `pits()` entries summing to `seeds()`
    /// (checked in debug builds).
    #[inline]
    pub fn rank(&self, counts: &[u8]) -> u64 {
        debug_assert_eq!(counts.len(), self.pits);
        debug_assert_eq!(
            counts.iter().map(|&c| usize::from(c)).sum::<usize>(),
            self.seeds
        );
        let mut place = 0usize;
        let mut r = 0u64;
        for (j, &c) in counts[..self.pits - 1].iter().enumerate() {
            place += usize::from(c);
            // Bar j's place, in the row of C(., j + 1).
            r += self.binom[j * (self.stride + 1) + place];
        }
        debug_assert!(r < self.count);
        r
    }

    /// The distribution of rank `r`, written to `counts[..pits()]`.
    ///
    /// `r` must be below `count()` (checked in debug builds).
    pub fn unrank(&self, mut r: u64, counts: &mut [u8]) {
        debug_assert!(r < self.count);
        let m = self.pits;
        // Bars from the last: the largest p with C(p, j + 1) <= r.
        let mut upper = self.seeds + m - 1; // places are below this
        for j in (0..m - 1).rev() {
            let row = &self.binom[j * self.stride..(j + 1) * self.stride];
            let mut p = upper - 1;
            while row[p] > r {
                p -= 1;
            }
            r -= row[p];
            // Seeds between bar j and the bar above it.
            counts[j + 1] = (upper - 1 - p) as u8;
            upper = p;
        }
        counts[0] = upper as u8;
    }

    /// Steps `counts` (a distribution of `seeds()` seeds over `pits()`
    /// pits) to the distribution of the next rank, in amortised constant
    /// time; returns `false`, leaving `counts` unchanged, at the last rank.
    ///
    /// In the bars' terms (module docs) this is the next subset in colex
    /// order: the lowest bar `j` that can move up one place does, and the
    /// bars below it go back to the bottom. In counts: `j` is the first pit
    /// with a non-empty pit after it; the seeds of pits `0..=j`, plus one
    /// taken from pit `j + 1`, all go to pit `j`.
    #[inline]
    pub fn next(&self, counts: &mut [u8]) -> bool {
        debug_assert_eq!(counts.len(), self.pits);
        let mut below = 0u8;
        for j in 0..self.pits - 1 {
            below += counts[j];
            if counts[j + 1] > 0 {
                counts[..j].fill(0);
                counts[j] = below + 1;
                counts[j + 1] -= 1;
                return true;
            }
        }
        false
    }

    /// Calls `visit(r, counts)` for every rank `r` of `range`, in order,
    /// with `counts` the distribution of rank `r`: one [`Indexer::unrank`],
    /// then [`Indexer::next`] steps (amortised constant time a board). The
    /// board walk of every pass over a level; `range` must lie within
    /// `0..count()`.
    #[inline]
    pub fn walk(&self, range: Range<u64>, mut visit: impl FnMut(u64, &[u8])) {
        debug_assert!(range.end <= self.count || range.is_empty());
        let mut stack = [0u8; MAX_PITS];
        let mut heap = Vec::new();
        let counts: &mut [u8] = if self.pits <= MAX_PITS {
            &mut stack[..self.pits]
        } else {
            heap.resize(self.pits, 0);
            &mut heap
        };
        let mut ranks = range;
        let Some(first) = ranks.next() else {
            return;
        };
        self.unrank(first, counts);
        visit(first, counts);
        for r in ranks {
            self.next(counts);
            visit(r, counts);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_binomials() {
        assert_eq!(Indexer::new(1, 5).unwrap().count(), 1);
        assert_eq!(Indexer::new(3, 0).unwrap().count(), 1);
        assert_eq!(Indexer::new(12, 24).unwrap().count(), 417_225_900);
        assert_eq!(Indexer::new(0, 1).unwrap_err(), IndexError::NoPits);
        assert!(matches!(
            Indexer::new(32, 255),
            Err(IndexError::TooMany { .. })
        ));
    }

    #[test]
    fn next_steps_through_the_ranks_in_order() {
        for pits in 1..=6 {
            for seeds in 0..=7 {
                let ix = Indexer::new(pits, seeds).unwrap();
                let mut counts = vec![0u8; pits];
                ix.unrank(0, &mut counts);
                let mut expected = vec![0u8; pits];
                for r in 1..ix.count() {
                    assert!(ix.next(&mut counts), "{pits} pits, {seeds} seeds, rank {r}");
                    ix.unrank(r, &mut expected);
                    assert_eq!(counts, expected);
                }
                let last = counts.clone();
                assert!(!ix.next(&mut counts));
                assert_eq!(counts, last);
            }
        }
    }

    #[test]
    fn walk_visits_every_rank_of_a_range_in_order() {
        for pits in 1..=5 {
            for seeds in 0..=5 {
                let ix = Indexer::new(pits, seeds).unwrap();
                let count = ix.count();
                for (a, b) in [
                    (0, count),
                    (count / 3, count),
                    (count / 2, count / 2),
                    (1.min(count), count),
                ] {
                    let mut next = a;
                    let mut want = vec![0u8; pits];
                    ix.walk(a..b, |r, counts| {
                        assert_eq!(r, next);
                        ix.unrank(r, &mut want);
                        assert_eq!(counts, &want[..]);
                        next += 1;
                    });
                    assert_eq!(next, b.max(a));
                }
            }
        }
        // Beyond a position's pits, the walk still works.
        let ix = Indexer::new(MAX_PITS + 3, 2).unwrap();
        let mut seen = 0;
        ix.walk(0..ix.count(), |r, counts| {
            assert_eq!(ix.rank(counts), r);
            seen += 1;
        });
        assert_eq!(seen, ix.count());
    }

    #[test]
    fn rank_unrank_bijection_small() {
        for pits in 1..=5 {
            for seeds in 0..=6 {
                let ix = Indexer::new(pits, seeds).unwrap();
                let mut seen = vec![false; ix.count() as usize];
                let mut counts = vec![0u8; pits];
                for r in 0..ix.count() {
                    ix.unrank(r, &mut counts);
                    assert_eq!(counts.iter().map(|&c| c as usize).sum::<usize>(), seeds);
                    let back = ix.rank(&counts);
                    assert_eq!(back, r);
                    assert!(!seen[r as usize]);
                    seen[r as usize] = true;
                }
            }
        }
    }
}
