//! Statistics of a level: how many boards have each value.

use super::{Database, DbError};

impl Database {
    /// The value histogram of level `k`: `(gain, boards)` for every gain
    /// present, in increasing order.
    pub fn stats(&self, k: usize) -> Result<Vec<(i32, u64)>, DbError> {
        let level = self.require(k)?;
        Ok(histogram(level.bytes))
    }
}

/// `(gain, count)` for every gain present in `bytes`, increasing.
pub fn histogram(bytes: &[u8]) -> Vec<(i32, u64)> {
    use rayon::prelude::*;
    let counts = bytes
        .par_chunks(1 << 20)
        .map(|chunk| {
            let mut c = [0u64; 256];
            for &b in chunk {
                c[usize::from(b)] += 1;
            }
            c
        })
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    let mut out: Vec<(i32, u64)> = (0..256)
        .filter(|&b| counts[b] > 0)
        .map(|b| (i32::from(b as u8 as i8), counts[b]))
        .collect();
    out.sort_unstable();
    out
}
