//! Ranks that are threads of one process, for the tests: the collective
//! steps of [`Ranks`] through a shared board and a barrier, so that the
//! builds on several ranks run, with tiny shards and rounds, in unit tests
//! (and under Miri), with no MPI.

use super::ranks::Ranks;
use std::sync::{Barrier, Mutex};

/// What the ranks of a run share: each collective step, every rank puts
/// its part on the board, all wait, each reads what it needs, all wait
/// again (so that no part is replaced before every rank has read it).
pub(super) struct Board {
    size: usize,
    parts: Mutex<Vec<Vec<Vec<u64>>>>,
    barrier: Barrier,
}

impl Board {
    /// A board for `size` ranks.
    pub(super) fn new(size: usize) -> Board {
        Board {
            size,
            parts: Mutex::new(vec![Vec::new(); size]),
            barrier: Barrier::new(size),
        }
    }

    /// Runs `f` on each of the `size` ranks, each in its own thread, and
    /// returns their results by rank.
    pub(super) fn run<T: Send>(size: usize, f: impl Fn(&Thread<'_>) -> T + Sync) -> Vec<T> {
        let board = Board::new(size);
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..size)
                .map(|rank| {
                    let (board, f) = (&board, &f);
                    s.spawn(move || f(&Thread { rank, board }))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a rank panicked"))
                .collect()
        })
    }
}

/// One rank of a [`Board`].
pub(super) struct Thread<'a> {
    rank: usize,
    board: &'a Board,
}

impl Thread<'_> {
    /// Every rank's `part`, by rank (a collective step).
    fn all(&self, part: Vec<Vec<u64>>) -> Vec<Vec<Vec<u64>>> {
        self.board.parts.lock().expect("no panic while held")[self.rank] = part;
        self.board.barrier.wait();
        let all = self
            .board
            .parts
            .lock()
            .expect("no panic while held")
            .clone();
        self.board.barrier.wait();
        all
    }

    fn each(&self, x: u64) -> Vec<u64> {
        self.all(vec![vec![x]]).iter().map(|p| p[0][0]).collect()
    }
}

impl Ranks for Thread<'_> {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.board.size
    }
    fn or(&self, bits: u32) -> u32 {
        self.each(u64::from(bits))
            .into_iter()
            .fold(0, |a, b| a | b as u32)
    }
    fn sum(&self, x: u64) -> u64 {
        self.each(x).into_iter().sum()
    }
    fn gather(&self, x: u64) -> Vec<u64> {
        self.each(x)
    }
    fn exchange(&self, out: &[Vec<u64>]) -> Vec<u64> {
        let all = self.all(out.to_vec());
        (0..self.size())
            .filter(|&from| from != self.rank)
            .flat_map(|from| all[from][self.rank].iter().copied())
            .collect()
    }
    fn broadcast(&self, root: usize, buf: &mut [u16]) {
        let all = self.all(vec![buf.iter().map(|&w| u64::from(w)).collect()]);
        for (b, &w) in buf.iter_mut().zip(&all[root][0]) {
            *b = w as u16;
        }
    }
    fn send(&self, _to: usize, _data: &[u8]) {
        unimplemented!("the tests' ranks only take collective steps")
    }
    fn receive(&self, _from: usize, _out: &mut [u8]) {
        unimplemented!("the tests' ranks only take collective steps")
    }
    fn send_message(&self, _to: usize, _data: &[u8]) {
        unimplemented!("the tests' ranks only take collective steps")
    }
    fn receive_message(&self, _from: Option<usize>) -> (usize, Vec<u8>) {
        unimplemented!("the tests' ranks only take collective steps")
    }
}
