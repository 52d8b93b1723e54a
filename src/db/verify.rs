//! Verifying a level against its definition (the database verifier).

use super::{Database, DbError};
use crate::games::{final_gain, move_gain, MoveList, Rules};
use crate::position::{Position, MAX_PITS};

/// Wrong boards that [`Database::verify`] shows (the count is exact).
pub const SHOWN: usize = 5;

impl Database {
    /// Checks level `k` against its own definition: every board's stored
    /// gain equals the best over its moves of the stored values (the
    /// terminal allocation for a finished game). Returns the number of
    /// boards that disagree, and the first few of them as text (at most
    /// [`SHOWN`], the lowest ranks; memory stays bounded however many
    /// disagree).
    pub fn verify<R: Rules>(&self, k: usize) -> Result<(u64, Vec<String>), DbError> {
        use rayon::prelude::*;
        let level = self.require(k)?;
        let n = self.n;
        let count = level.index.count();
        // The count of wrong boards and the lowest few of their ranks.
        let keep = |mut a: Vec<u64>, b: Vec<u64>| {
            a.extend(b);
            a.sort_unstable();
            a.truncate(SHOWN);
            a
        };
        let (bad, first) = (0..count)
            .into_par_iter()
            .filter(|&r| {
                let mut board = [0u8; MAX_PITS];
                level.index.unrank(r, &mut board[..2 * n]);
                let pos = Position::from_board(n, &board[..2 * n]);
                let mut moves = MoveList::new();
                let best = match R::generate(&pos, &mut moves) {
                    Some(score) => final_gain(&pos, score),
                    None => moves
                        .iter()
                        .map(|(_, child)| {
                            let c = move_gain(&pos, child);
                            let g = self
                                .gain(child)
                                .expect("children have no more seeds than their parent");
                            if child.to_move() == pos.to_move() {
                                c + g
                            } else {
                                c - g
                            }
                        })
                        .max()
                        .expect("a position that is not over has a move"),
                };
                best != i32::from(level.bytes[r as usize] as i8)
            })
            .fold(|| (0u64, Vec::new()), |(c, v), r| (c + 1, keep(v, vec![r])))
            .reduce(|| (0, Vec::new()), |(c, v), (d, w)| (c + d, keep(v, w)));
        let shown = first
            .iter()
            .map(|&r| {
                let mut board = [0u8; MAX_PITS];
                level.index.unrank(r, &mut board[..2 * n]);
                let pos = Position::from_board(n, &board[..2 * n]);
                format!("{pos}: stored {}", level.bytes[r as usize] as i8)
            })
            .collect();
        Ok((bad, shown))
    }
}
