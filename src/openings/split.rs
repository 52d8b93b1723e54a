//! [`Split`]: the first turns from a position cut into independent jobs,
//! the positions reached after the first few moves of a turn.

use super::explorer::key;
use super::{Count, Explorer, Summary};
use crate::games::{MoveList, Rules};
use crate::position::{Position, MAX_PITS};

/// The first turns from a position cut into independent jobs
/// ([`Explorer::split`]): the positions South reaches after `depth` moves
/// of a first turn still going on, each with the number of chains that
/// reach it, and the first turns that ended sooner.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// Moves made before every job.
    pub depth: u32,
    /// The first turns of at most `depth` moves.
    pub ended: Summary,
    /// The jobs: positions with South to move after `depth` moves, in
    /// increasing order of their boards, with the chains reaching each.
    pub jobs: Vec<(Position, Count)>,
}

impl Split {
    /// The summary of the first turns that ended before the jobs and of
    /// the jobs done (summaries by job index): with every job done, the
    /// summary of every first turn; else a lower bound of it.
    pub fn combine(&self, done: &std::collections::BTreeMap<usize, Summary>) -> Summary {
        let mut total = self.ended.clone();
        for (&j, s) in done {
            total.add_scaled(s, &self.jobs[j].1, self.depth);
        }
        total
    }

    /// A fingerprint of the jobs (their positions and chain counts), to
    /// recognise the same split again.
    pub fn fingerprint(&self) -> u64 {
        let mut text = format!("{} {}\n", self.depth, self.jobs.len());
        for (p, times) in &self.jobs {
            text.push_str(&format!("{p} {times}\n"));
        }
        crate::checksum::checksum(text.as_bytes())
    }

    /// The jobs' indices in a fixed shuffled order (Fisher–Yates with a
    /// fixed seed): done in this order, the jobs finished so far are a
    /// random sample of all, so their share of the time and of the count
    /// extrapolates to the whole.
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.jobs.len()).collect();
        let mut rng = SplitMix(0x006d_616e_6361_6c61);
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        order
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014): a small, fast generator,
/// plenty for shuffling the jobs.
struct SplitMix(u64);

impl SplitMix {
    /// The next number.
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl<R: Rules> Explorer<R> {
    /// Cuts the first turns from `pos` (South to move) into at least
    /// `min_jobs` jobs where there are that many: the chains are followed
    /// move by move, breadth first, merging the chains that meet in one
    /// position, until a layer holds `min_jobs` positions or none.
    pub fn split(&self, pos: &Position, min_jobs: usize) -> Split {
        self.split_by(pos, |_, jobs| jobs >= min_jobs)
    }

    /// The split of [`Explorer::split`] after exactly `depth` moves (or
    /// fewer when no chain is that long): the split a checkpoint was made
    /// with, whatever `min_jobs` was then.
    pub fn split_at(&self, pos: &Position, depth: u32) -> Split {
        self.split_by(pos, |d, _| d >= depth)
    }

    fn split_by(&self, pos: &Position, done: impl Fn(u32, usize) -> bool) -> Split {
        let mut split = Split::default();
        let Ok(_) = self.step(pos) else {
            return split;
        };
        let mut layer: Vec<(Position, Count)> = vec![(*pos, Count::from(1))];
        while !layer.is_empty() && !done(split.depth, layer.len()) {
            let mut next: std::collections::BTreeMap<[u8; MAX_PITS + 2], (Position, Count)> =
                std::collections::BTreeMap::new();
            let mut moves = MoveList::new();
            for (p, times) in &layer {
                self.count_node();
                let _ = R::generate(p, &mut moves);
                for (_, child) in &moves {
                    match self.step(child) {
                        Ok(_) => {
                            next.entry(key(child))
                                .or_insert_with(|| (*child, Count::zero()))
                                .1
                                .add(times);
                        }
                        Err(won) => {
                            split.ended.turns.add(times);
                            for (w, won) in split.ended.wins.iter_mut().zip(won) {
                                if won {
                                    w.winning.add(times);
                                    w.add_lengths(Some(split.depth + 1), Some(split.depth + 1));
                                }
                            }
                        }
                    }
                }
            }
            split.depth += 1;
            layer = next.into_values().collect();
        }
        split.jobs = layer;
        self.flush_count();
        split
    }
}
