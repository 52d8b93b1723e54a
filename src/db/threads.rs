//! Ranks that are threads of one process, for the tests: the collective
//! steps of [`Ranks`] through a shared board and a barrier, and the
//! point-to-point ones through a shared mailbox, so that the builds on
//! several ranks run, with tiny shards and rounds, in unit tests (and under
//! Miri), with no MPI.

use super::ranks::Ranks;
use std::sync::{Barrier, Condvar, Mutex};

/// A letter in the mailbox: sender, receiver, whether it is a message
/// ([`Ranks::send_message`]) rather than a transfer ([`Ranks::send`]),
/// which travel apart as under MPI (two tags), and the bytes.
type Letter = (usize, usize, bool, Vec<u8>);

/// What the ranks of a run share: each collective step, every rank puts
/// its part on the board, all wait, each reads what it needs, all wait
/// again (so that no part is replaced before every rank has read it).
pub(super) struct Board {
    size: usize,
    parts: Mutex<Vec<Vec<Vec<u64>>>>,
    barrier: Barrier,
    /// Letters sent and not yet taken, in the order sent.
    mail: Mutex<Vec<Letter>>,
    /// Signalled at every letter posted.
    posted: Condvar,
}

impl Board {
    /// A board for `size` ranks.
    pub(super) fn new(size: usize) -> Board {
        Board {
            size,
            parts: Mutex::new(vec![Vec::new(); size]),
            barrier: Barrier::new(size),
            mail: Mutex::new(Vec::new()),
            posted: Condvar::new(),
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

    /// Posts a letter to rank `to`.
    fn post(&self, to: usize, message: bool, data: &[u8]) {
        assert!(
            to < self.board.size && to != self.rank,
            "a rank sends to another"
        );
        let mut mail = self.board.mail.lock().expect("no panic while held");
        mail.push((self.rank, to, message, data.to_vec()));
        self.board.posted.notify_all();
    }

    /// Takes, waiting for it, the first letter to this rank of the kind
    /// `message` from `from` (any sender when `None`).
    fn take(&self, from: Option<usize>, message: bool) -> (usize, Vec<u8>) {
        let mut mail = self.board.mail.lock().expect("no panic while held");
        loop {
            let mine = mail.iter().position(|&(f, t, m, _)| {
                t == self.rank && m == message && from.is_none_or(|x| x == f)
            });
            if let Some(i) = mine {
                let (f, _, _, data) = mail.remove(i);
                return (f, data);
            }
            mail = self.board.posted.wait(mail).expect("no panic while held");
        }
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
    fn send(&self, to: usize, data: &[u8]) {
        self.post(to, false, data);
    }
    fn receive(&self, from: usize, out: &mut [u8]) {
        let (_, data) = self.take(Some(from), false);
        assert_eq!(data.len(), out.len(), "received as long as sent");
        out.copy_from_slice(&data);
    }
    fn send_message(&self, to: usize, data: &[u8]) {
        self.post(to, true, data);
    }
    fn receive_message(&self, from: Option<usize>) -> (usize, Vec<u8>) {
        self.take(from, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_arrive_in_order_and_apart_from_messages() {
        let got = Board::run(3, |r| {
            let me = r.rank() as u8;
            if r.rank() != 0 {
                // Two transfers, then a message, to rank 0.
                r.send(0, &[me, 1]);
                r.send(0, &[me, 2, 2]);
                r.send_message(0, &[me]);
                return Vec::new();
            }
            let mut seen = Vec::new();
            // Messages first: they do not wait behind the transfers.
            let mut senders: Vec<u8> = (0..2)
                .map(|_| {
                    let (from, m) = r.receive_message(None);
                    assert_eq!(m, [from as u8]);
                    from as u8
                })
                .collect();
            senders.sort_unstable();
            seen.push(senders);
            for from in [2, 1] {
                let mut a = [0u8; 2];
                r.receive(from, &mut a);
                let mut b = [0u8; 3];
                r.receive(from, &mut b);
                seen.push(a.iter().chain(&b).copied().collect());
            }
            seen
        });
        assert_eq!(
            got[0],
            [vec![1, 2], vec![2, 1, 2, 2, 2], vec![1, 1, 1, 2, 2]]
        );
    }
}
