//! The lock-free transposition table.
//!
//! **Concurrency policy.** The table is shared by every search thread
//! without locks. Each entry is a slot (`slot.rs`) guarded by its own
//! sequence counter (a seqlock): a writer claims the entry with a
//! compare-and-swap, writes, and publishes; a writer that finds the entry
//! claimed by another thread simply drops its store (the table is a cache);
//! a reader uses an entry only if no writer was at work while it read it,
//! so a torn entry is discarded, never used. The protocol, its memory
//! orderings and why they suffice on weak-memory processors are in
//! `tt/slot.rs`, checked by a `loom` model. Every field is an atomic, so there
//! is no data race; the only `unsafe` is the table's memory
//! ([`crate::mem::Atomics`], where the argument is written).
//!
//! **Exactness.** For a solver a key collision is a wrong answer, so the
//! entry stores the *whole* 128-bit [`PackedBoard`] and a probe returns data
//! only for an identical key.
//!
//! **Bit budget of an entry** (four 64-bit words, 32 bytes, two entries per
//! 64-byte bucket):
//!
//! | word   | bits | field                                               |
//! |--------|------|-----------------------------------------------------|
//! | `seq`  | 64   | sequence counter (odd while being written)          |
//! | `key0` | 64   | low half of the packed board                        |
//! | `key1` | 64   | high half of the packed board                       |
//! | `data` | 16   | lower bound on the future gain, `i16`               |
//! |        | 16   | upper bound on the future gain, `i16`               |
//! |        | 8    | best move (pit number 1..=16, 0 for pass, 255 none) |
//! |        | 8    | work: log2 of the nodes that produced the bounds   |
//! |        | 15   | spare (zero)                                        |
//! |        | 1    | valid: set in every stored entry                    |
//!
//! Replacement: a bucket holds two entries; a store goes to the entry
//! with the same key, else to the one holding less work.

mod slot;

use crate::mem::Atomics;
use crate::packed::PackedBoard;
use slot::Slot;

/// The atomics the slots are made of (the `loom` model of [`slot`]
/// compiles that file with its own).
mod sync {
    pub(super) use std::sync::atomic::{fence, AtomicU64, Ordering};
}

const LOWER_BITS: u32 = 16;
const UPPER_BITS: u32 = 16;
const MOVE_BITS: u32 = 8;
const WORK_BITS: u32 = 8;
const SPARE_BITS: u32 = 15;
const VALID_BITS: u32 = 1;
const _: () =
    assert!(LOWER_BITS + UPPER_BITS + MOVE_BITS + WORK_BITS + SPARE_BITS + VALID_BITS == 64);

const UPPER_SHIFT: u32 = LOWER_BITS;
const MOVE_SHIFT: u32 = UPPER_SHIFT + UPPER_BITS;
const WORK_SHIFT: u32 = MOVE_SHIFT + MOVE_BITS;
const VALID: u64 = 1 << (WORK_SHIFT + WORK_BITS + SPARE_BITS);

/// Bytes per entry.
pub const ENTRY_BYTES: usize = 32;
const _: () = assert!(
    std::mem::size_of::<Slot>() == ENTRY_BYTES && std::mem::align_of::<Slot>() == ENTRY_BYTES
);
const ENTRIES_PER_BUCKET: usize = 2;

/// The move code of a pass in [`Stored::best`] (pits are `1..=16`).
pub const PASS_CODE: u8 = 0;
/// The move code meaning "no best move known" in [`Stored::best`].
pub const NO_MOVE: u8 = u8::MAX;

/// What the table knows about a board: bounds on the future gain of the
/// side to move, and the move that produced them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// The future gain is at least this.
    pub lower: i16,
    /// The future gain is at most this.
    pub upper: i16,
    /// Best move found: pit 1..=16, [`PASS_CODE`] for a pass, [`NO_MOVE`]
    /// for none.
    pub best: u8,
    /// log2 of the nodes searched to produce the bounds.
    pub work: u8,
}

impl Stored {
    fn pack(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << UPPER_SHIFT
            | u64::from(self.best) << MOVE_SHIFT
            | u64::from(self.work) << WORK_SHIFT
            | VALID
    }

    fn unpack(d: u64) -> Stored {
        Stored {
            lower: d as u16 as i16,
            upper: (d >> UPPER_SHIFT) as u16 as i16,
            best: (d >> MOVE_SHIFT) as u8,
            work: (d >> WORK_SHIFT) as u8,
        }
    }
}

// SAFETY: a `Slot` is four `AtomicU64`s: all-zero is a valid value of each
// (counter 0, even: a readable slot holding key 0 and data 0, whose valid
// bit is clear), and every mutation goes through `&self`.
unsafe impl crate::mem::ZeroValid for Slot {}

/// A fixed-size, lock-free, exact transposition table (see module docs).
pub struct Table {
    /// The entries, in zero-filled memory whose pages cost nothing until
    /// they are first touched.
    entries: Atomics<Slot>,
    bucket_mask: usize,
}

/// Mixes a 128-bit key into a bucket hash.
#[inline]
fn hash(key: u128) -> u64 {
    let x = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    let x = (x ^ (x >> 31)).wrapping_mul(0x7FB5_D329_728E_A185);
    let x = (x ^ (x >> 27)).wrapping_mul(0x81DA_DEF4_BC2D_D44D);
    x ^ (x >> 33)
}

impl Table {
    /// A table of at most `bytes` bytes (rounded down to a power of two of
    /// buckets, at least one bucket).
    ///
    /// # Panics
    /// If the memory cannot be mapped.
    pub fn with_bytes(bytes: usize) -> Table {
        let buckets = (bytes / (ENTRY_BYTES * ENTRIES_PER_BUCKET)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let len = buckets * ENTRIES_PER_BUCKET;
        let entries = Atomics::zeroed(len).unwrap_or_else(|e| {
            panic!("cannot map {} bytes for the table: {e}", len * ENTRY_BYTES)
        });
        // Huge pages from the start: a probe is a random access anywhere in
        // the table, and advice given after the first touches is defeated
        // (a few thousand random 4 KiB touches already reach every 2 MiB
        // region of a 2 GiB table). Measured on kalah:4x5, 2 threads:
        // 0.9 to 3.8 s with them (the kernel's compaction makes it vary),
        // 5.4 s when they came after 16 K nodes. The price is that a tiny
        // solve in a large table zeroes whole 2 MiB pages (kalah:4x3 in a
        // 2 GiB table: about 1 GB resident): size the table to the problem.
        entries.use_huge_pages();
        Table {
            entries,
            bucket_mask: buckets - 1,
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    #[inline]
    fn bucket(&self, key: u128) -> &[Slot] {
        let b = (hash(key) as usize) & self.bucket_mask;
        &self.entries[b * ENTRIES_PER_BUCKET..(b + 1) * ENTRIES_PER_BUCKET]
    }

    /// Asks the processor to start loading the bucket of `key`, so that
    /// probes of several keys overlap their memory latencies instead of
    /// paying them one after another.
    #[inline]
    pub fn prefetch(&self, key: PackedBoard) {
        crate::mem::prefetch(&self.bucket(key.0)[0]);
    }

    /// What is stored for exactly this board, if anything.
    #[inline]
    pub fn probe(&self, key: PackedBoard) -> Option<Stored> {
        self.bucket(key.0).iter().find_map(|e| match e.read() {
            Some((k, d)) if k == key.0 && d & VALID != 0 => Some(Stored::unpack(d)),
            _ => None,
        })
    }

    /// Stores bounds for this board (see the module docs for replacement).
    #[inline]
    pub fn store(&self, key: PackedBoard, value: Stored) {
        let bucket = self.bucket(key.0);
        let data = value.pack();
        let mut victim = &bucket[0];
        let mut least = u8::MAX;
        for e in bucket {
            match e.read() {
                Some((k, _)) if k == key.0 => {
                    victim = e;
                    break;
                }
                Some((_, d)) => {
                    let w = if d & VALID == 0 {
                        0
                    } else {
                        Stored::unpack(d).work
                    };
                    if w < least {
                        least = w;
                        victim = e;
                    }
                }
                None => {}
            }
        }
        victim.write(key.0, data);
    }

    /// Empties the table.
    pub fn clear(&self) {
        for e in self.entries.iter() {
            e.write(0, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_packs_and_unpacks() {
        for s in [
            Stored {
                lower: -255,
                upper: 255,
                best: 255,
                work: 63,
            },
            Stored {
                lower: 0,
                upper: 0,
                best: 0,
                work: 0,
            },
            Stored {
                lower: 7,
                upper: 9,
                best: 16,
                work: 1,
            },
        ] {
            assert_eq!(Stored::unpack(s.pack()), s);
        }
    }

    #[test]
    fn prefetch_then_probe() {
        let t = Table::with_bytes(1 << 16);
        let s = Stored {
            lower: -3,
            upper: 5,
            best: 2,
            work: 7,
        };
        for k in 0..if cfg!(miri) { 50 } else { 1000u128 } {
            let key = PackedBoard(k * 0x9E37_79B9_7F4A_7C15);
            t.prefetch(key);
            t.store(key, s);
            t.prefetch(key);
            assert_eq!(t.probe(key), Some(s));
        }
    }

    #[test]
    fn probe_returns_only_the_exact_key() {
        let t = Table::with_bytes(1 << 12);
        let s = Stored {
            lower: 1,
            upper: 2,
            best: 3,
            work: 4,
        };
        t.store(PackedBoard(42), s);
        assert_eq!(t.probe(PackedBoard(42)), Some(s));
        assert_eq!(t.probe(PackedBoard(43)), None);
        // Keys that share a bucket never read each other's data.
        let tiny = Table::with_bytes(64);
        for k in 1..100u128 {
            tiny.store(
                PackedBoard(k << 70 | k),
                Stored {
                    lower: k as i16,
                    upper: k as i16,
                    best: 1,
                    work: 1,
                },
            );
            for j in 1..=k {
                if let Some(got) = tiny.probe(PackedBoard(j << 70 | j)) {
                    assert_eq!(got.lower, j as i16);
                }
            }
        }
    }

    #[test]
    fn concurrent_writers_never_tear() {
        // Every thread writes entries whose data encodes the key; a reader
        // that ever sees a key with another key's data has seen a torn
        // entry.
        // Miri runs this too (far slower): fewer rounds there.
        const ITERATIONS: u128 = if cfg!(miri) { 300 } else { 200_000 };
        let t = Table::with_bytes(1 << 10);
        std::thread::scope(|scope| {
            for id in 0..4u128 {
                let t = &t;
                scope.spawn(move || {
                    for i in 0..ITERATIONS {
                        let k = (i * 4 + id) % 509 + 1;
                        let key = PackedBoard(k << 64 | k);
                        let v = Stored {
                            lower: k as i16,
                            upper: -(k as i16),
                            best: (k % 200) as u8,
                            work: 1,
                        };
                        if i % 2 == 0 {
                            t.store(key, v);
                        } else if let Some(got) = t.probe(key) {
                            assert_eq!(got.lower, k as i16);
                            assert_eq!(got.upper, -(k as i16));
                            assert_eq!(got.best, (k % 200) as u8);
                        }
                    }
                });
            }
        });
    }
}
