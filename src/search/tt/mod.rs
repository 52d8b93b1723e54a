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
//! **Bit budget of an entry** (four 64-bit words, 32 bytes, four entries per
//! 128-byte bucket, two cache lines):
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
//! |        | 8    | depth of a guess entry (below), else zero           |
//! |        | 1    | guess: the bounds are a depth-limited search's      |
//! |        | 6    | spare (zero)                                        |
//! |        | 1    | valid: set in every stored entry                    |
//!
//! **Guess entries.** The first-guess search (`search/estimate.rs`) is
//! depth-limited: its values are not bounds of the true value. It stores
//! them as *guess* entries, with their depth, through
//! [`Table::store_guess`], which never replaces a true entry of the same
//! key. [`Table::probe`], which the exact search uses, shows a guess entry
//! as bounds that say nothing ([`UNKNOWN_LOWER`]..[`UNKNOWN_UPPER`]) with
//! its move as the move to try first, and its work (the size of its
//! depth-limited search hints at the size of an exact one, which decides
//! where the exact search splits); a store of true bounds over it
//! replaces it.
//! So the exact search never reads a guess as a bound.
//! [`Table::probe_guess`] shows both kinds to the first-guess search.
//!
//! Replacement: a bucket holds four entries; a store goes to the entry
//! with the same key, else to the one holding the least work. Four rather
//! than two, in as many entries in all: Kalah interior nodes, 1 thread,
//! without databases, (6,3) 619 K -> 611 K, (4,6) 2.46 M -> 2.45 M, (5,4)
//! 1.48 M -> 1.46 M, (6,4) 57.0 M -> 55.3 M (a bucket of two entries kept
//! a deep entry only while its one neighbour held less work). A guess entry
//! keeps in the table the work of the search that made it, so the deep
//! guesses survive the shallow ones and the exact search keeps their
//! moves. (When guesses were stored with work 0, every guess went to the
//! first entry of its bucket and the next one overwrote it: the iterations
//! lost their deep results, cost 4.2 M interior nodes to 27 plies on
//! Kalah(4,6) instead of 1.1 M, and the exact search lost the moves.)
//!
//! **Growth.** The table's size is a ceiling, not what a solve pays: only
//! the first [`FIRST_BUCKETS`] buckets are in use at first, and the part in
//! use doubles each time the solver has searched as many nodes as it holds
//! entries ([`Table::grow_for`]), up to the whole table. Memory is touched
//! only where it is used, so a 40 K-node solve in a 2 GiB table costs a few
//! MiB, not the 1 GB its huge pages cost when every bucket was live, and a
//! mid-size solve runs in the part of the table its nodes fill, which is
//! faster (fewer cache and TLB misses) than spreading them over all of it.
//! A key's bucket is its hash masked by the size in use, so a doubling
//! changes the bucket of half of the entries: the thread that doubles moves
//! them (`Table::migrate`), and until it is done a miss in a key's bucket
//! also looks in its bucket under the size before. Every probe compares
//! the whole key, so a thread that reads a size a moment late stores or
//! finds an entry in another bucket, at worst loses it, never reads a
//! wrong one.

mod slot;

use crate::mem::Atomics;
use crate::packed::PackedBoard;
use slot::Slot;
use std::sync::atomic::AtomicUsize;

/// The atomics the slots are made of (the `loom` model of [`slot`]
/// compiles that file with its own).
mod sync {
    pub(super) use std::sync::atomic::{fence, AtomicU64, Ordering};
}
use sync::Ordering;

const LOWER_BITS: u32 = 16;
const UPPER_BITS: u32 = 16;
const MOVE_BITS: u32 = 8;
const WORK_BITS: u32 = 8;
const DEPTH_BITS: u32 = 8;
const GUESS_BITS: u32 = 1;
const SPARE_BITS: u32 = 6;
const VALID_BITS: u32 = 1;
const _: () = assert!(
    LOWER_BITS
        + UPPER_BITS
        + MOVE_BITS
        + WORK_BITS
        + DEPTH_BITS
        + GUESS_BITS
        + SPARE_BITS
        + VALID_BITS
        == 64
);

const UPPER_SHIFT: u32 = LOWER_BITS;
const MOVE_SHIFT: u32 = UPPER_SHIFT + UPPER_BITS;
const WORK_SHIFT: u32 = MOVE_SHIFT + MOVE_BITS;
const DEPTH_SHIFT: u32 = WORK_SHIFT + WORK_BITS;
const GUESS: u64 = 1 << (DEPTH_SHIFT + DEPTH_BITS);
const VALID: u64 = 1 << (DEPTH_SHIFT + DEPTH_BITS + GUESS_BITS + SPARE_BITS);

/// The lower bound [`Table::probe`] shows for a guess entry: below every
/// future gain.
pub const UNKNOWN_LOWER: i16 = i16::MIN / 2;
/// The upper bound shown for a guess entry: above every future gain.
pub const UNKNOWN_UPPER: i16 = i16::MAX / 2;

/// Bytes per entry.
pub const ENTRY_BYTES: usize = 32;
const _: () = assert!(
    std::mem::size_of::<Slot>() == ENTRY_BYTES && std::mem::align_of::<Slot>() == ENTRY_BYTES
);
const ENTRIES_PER_BUCKET: usize = 4;
/// Buckets in use when a table is new or emptied (4 MiB, two huge pages;
/// fewer under Miri, whose tests would otherwise walk millions of slots).
pub const FIRST_BUCKETS: usize = if cfg!(miri) { 1 << 5 } else { 1 << 15 };
/// The part in use doubles once the nodes searched reach 1/GROW_FACTOR of
/// its entries. A bigger table saves few nodes and costs time here: a
/// page the table touches first is zeroed by the kernel, about 2 s a GiB
/// on the development machine. Kalah, 1 thread, interior nodes and system
/// time with factor 1 against 2: (6,4) with databases 10.56 M, 0.77 s
/// against 10.49 M, 2.17 s (6.8 s against 9.4 s in all); (4,6) 2.58 M,
/// 0.0 s against 2.53 M, 0.55 s; (5,5) without databases 54.6 M against
/// 52.5 M (both reach the 2 GiB ceiling). With a factor 1/2: (6,4)
/// without databases 65.7 M against 58.5 M.
const GROW_FACTOR: u64 = 1;

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
    /// The mask of the whole table (buckets − 1).
    bucket_mask: usize,
    /// The mask of the buckets in use (a power of two minus one, at most
    /// `bucket_mask`).
    live_mask: AtomicUsize,
    /// The mask before the doubling being migrated, where a miss looks
    /// too; equal to `live_mask` when no migration runs (see "Growth").
    old_mask: AtomicUsize,
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
        // the part in use, and advice given after the first touches is
        // defeated (a few thousand random 4 KiB touches already reach every
        // 2 MiB region of a 2 GiB table). Measured on kalah:4x5, 2 threads:
        // 0.9 to 3.8 s with them (the kernel's compaction makes it vary),
        // 5.4 s when they came after 16 K nodes. Growth (module docs) keeps
        // a tiny solve's touches to the first buckets: kalah:4x3 in a 2 GiB
        // table took 2.7 s and 1 GB resident with every bucket live, 0.02 s
        // and 9 MB with growth.
        entries.use_huge_pages();
        let first = FIRST_BUCKETS.min(buckets) - 1;
        Table {
            entries,
            bucket_mask: buckets - 1,
            live_mask: AtomicUsize::new(first),
            old_mask: AtomicUsize::new(first),
        }
    }

    /// Bytes of the buckets in use now (see "Growth" in the module docs).
    pub fn live_bytes(&self) -> usize {
        (self.live_mask.load(Ordering::Relaxed) + 1) * ENTRIES_PER_BUCKET * ENTRY_BYTES
    }

    /// Grows the part in use after `nodes` nodes have been searched with
    /// this table: doubles it once it holds no more entries than `nodes`,
    /// up to the whole table. Cheap enough to call every few thousand nodes
    /// from every thread: only the thread whose compare-and-swap doubles
    /// the size migrates the entries (`Table::migrate`), while the others
    /// go on searching.
    pub fn grow_for(&self, nodes: u64) {
        let live = self.live_mask.load(Ordering::Relaxed);
        let entries = ((live + 1) * ENTRIES_PER_BUCKET) as u64;
        if nodes.saturating_mul(GROW_FACTOR) < entries || live >= self.bucket_mask {
            return;
        }
        if self.old_mask.load(Ordering::Relaxed) != live {
            return; // another thread is still migrating the last doubling
        }
        let grown = live << 1 | 1;
        if self
            .live_mask
            .compare_exchange(live, grown, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            self.migrate(live, grown);
            self.old_mask.store(grown, Ordering::Relaxed);
        }
    }

    /// Moves every entry of the buckets under mask `from` whose bucket
    /// under mask `to` differs (half of them, by the hash's next bit) to
    /// that bucket, unless it already holds the key (then the newer entry
    /// stays), and empties the old entry. Meanwhile probes that miss look
    /// in the old bucket too (module docs), so nothing is lost while it
    /// runs; a store that a thread aims at an old bucket after the move
    /// passed it is lost, which a cache may do.
    fn migrate(&self, from: usize, to: usize) {
        for b in 0..=from {
            for e in self.bucket_at(b) {
                let Some((k, d)) = e.read() else { continue };
                if d & VALID == 0 {
                    continue;
                }
                let nb = hash(k) as usize & to;
                if nb == b {
                    continue;
                }
                let target = self.bucket_at(nb);
                if !target
                    .iter()
                    .any(|t| matches!(t.read(), Some((tk, _)) if tk == k))
                {
                    self.store_in(target, k, d);
                }
                e.write(0, 0);
            }
        }
    }

    /// Every key of the part in use with true bounds (not a guess), and
    /// what a probe of it shows: for tests that check what a search left.
    #[cfg(test)]
    pub(crate) fn true_entries(&self) -> Vec<(PackedBoard, Stored)> {
        let live = self.live_mask.load(Ordering::Relaxed);
        (0..=live)
            .flat_map(|b| self.bucket_at(b))
            .filter_map(|e| e.read())
            .filter(|&(_, d)| d & VALID != 0 && d & GUESS == 0)
            .map(|(k, d)| (PackedBoard(k), Stored::unpack(d)))
            .collect()
    }

    /// Size in bytes (the ceiling; see [`Table::live_bytes`]).
    pub fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    #[inline]
    fn bucket_at(&self, b: usize) -> &[Slot] {
        &self.entries[b * ENTRIES_PER_BUCKET..(b + 1) * ENTRIES_PER_BUCKET]
    }

    #[inline]
    fn bucket(&self, key: u128) -> &[Slot] {
        self.bucket_at(hash(key) as usize & self.live_mask.load(Ordering::Relaxed))
    }

    /// Asks the processor to start loading the bucket of `key`, so that
    /// probes of several keys overlap their memory latencies instead of
    /// paying them one after another.
    #[inline]
    pub fn prefetch(&self, key: PackedBoard) {
        crate::mem::prefetch(&self.bucket(key.0)[0]);
    }

    /// What is stored for exactly this board, if anything: true bounds,
    /// or for a guess entry bounds that say nothing, its move and its work (see
    /// "Guess entries" in the module docs).
    #[inline]
    pub fn probe(&self, key: PackedBoard) -> Option<Stored> {
        self.probe_data(key).map(|d| {
            if d & GUESS == 0 {
                Stored::unpack(d)
            } else {
                let guess = Stored::unpack(d);
                Stored {
                    lower: UNKNOWN_LOWER,
                    upper: UNKNOWN_UPPER,
                    best: guess.best,
                    work: guess.work,
                }
            }
        })
    }

    /// What is stored for this board, with the depth of a guess entry
    /// (`None` for true bounds): for the first-guess search.
    #[inline]
    pub fn probe_guess(&self, key: PackedBoard) -> Option<(Stored, Option<u8>)> {
        self.probe_data(key).map(|d| {
            (
                Stored::unpack(d),
                (d & GUESS != 0).then_some((d >> DEPTH_SHIFT) as u8),
            )
        })
    }

    /// Stores the bounds of a depth-limited search of `depth` plies for
    /// this board, unless the table holds true bounds for it.
    #[inline]
    pub fn store_guess(&self, key: PackedBoard, value: Stored, depth: u8) {
        let bucket = self.bucket(key.0);
        if bucket.iter().any(
            |e| matches!(e.read(), Some((k, d)) if k == key.0 && d & VALID != 0 && d & GUESS == 0),
        ) {
            return;
        }
        self.store_in(
            bucket,
            key.0,
            value.pack() | GUESS | u64::from(depth) << DEPTH_SHIFT,
        );
    }

    #[inline]
    fn probe_data(&self, key: PackedBoard) -> Option<u64> {
        let find = |bucket: &[Slot]| {
            bucket.iter().find_map(|e| match e.read() {
                Some((k, d)) if k == key.0 && d & VALID != 0 => Some(d),
                _ => None,
            })
        };
        let h = hash(key.0) as usize;
        let live = h & self.live_mask.load(Ordering::Relaxed);
        find(self.bucket_at(live)).or_else(|| {
            let old = h & self.old_mask.load(Ordering::Relaxed);
            if old != live {
                find(self.bucket_at(old))
            } else {
                None
            }
        })
    }

    /// Stores bounds for this board (see the module docs for replacement).
    #[inline]
    pub fn store(&self, key: PackedBoard, value: Stored) {
        self.store_in(self.bucket(key.0), key.0, value.pack());
    }

    /// Stores `data` for `key` in `bucket` (replacement as in the module
    /// docs).
    #[inline]
    fn store_in(&self, bucket: &[Slot], key: u128, data: u64) {
        let mut victim = &bucket[0];
        let mut least = u8::MAX;
        for e in bucket {
            match e.read() {
                Some((k, _)) if k == key => {
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
        victim.write(key, data);
    }

    /// Empties the table.
    /// Not to be called while a search uses the table. Only the buckets
    /// that were ever in use are written (the others were never touched),
    /// and the part in use shrinks back to its first size.
    pub fn clear(&self) {
        let used = self.live_mask.load(Ordering::Relaxed) + 1;
        for e in &self.entries[..used * ENTRIES_PER_BUCKET] {
            e.write(0, 0);
        }
        let first = FIRST_BUCKETS.min(self.bucket_mask + 1) - 1;
        self.live_mask.store(first, Ordering::Relaxed);
        self.old_mask.store(first, Ordering::Relaxed);
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
    fn growth_keeps_every_entry_and_touches_only_what_is_used() {
        // A ceiling of 8 times the first size; every key found before a
        // doubling is found after it.
        let t = Table::with_bytes(FIRST_BUCKETS * 8 * ENTRIES_PER_BUCKET * ENTRY_BYTES);
        let first = t.live_bytes();
        assert_eq!(first, FIRST_BUCKETS * ENTRIES_PER_BUCKET * ENTRY_BYTES);
        let keys: Vec<PackedBoard> = (1..=if cfg!(miri) { 40 } else { 4000u128 })
            .map(|k| PackedBoard(k * 0x9E37_79B9_7F4A_7C15 + (k << 80)))
            .collect();
        let value = |k: PackedBoard| Stored {
            lower: (k.0 % 300) as i16 - 150,
            upper: 200,
            best: (k.0 % 17) as u8,
            work: 3,
        };
        for &k in &keys {
            t.store(k, value(k));
        }
        // A few keys met two others in their bucket and were replaced
        // (more of them in Miri's smaller first size).
        let stored = keys.len();
        let keys: Vec<PackedBoard> = keys.into_iter().filter(|&k| t.probe(k).is_some()).collect();
        assert!(keys.len() * 10 >= 9 * stored, "{} of {stored}", keys.len());
        // Too few nodes: no growth.
        t.grow_for(10);
        assert_eq!(t.live_bytes(), first);
        for doubling in 1..=3 {
            t.grow_for(u64::MAX);
            assert_eq!(t.live_bytes(), first << doubling);
            for &k in &keys {
                assert_eq!(t.probe(k), Some(value(k)), "after doubling {doubling}");
            }
        }
        // At the ceiling it stays.
        t.grow_for(u64::MAX);
        assert_eq!(t.live_bytes(), t.bytes());
        t.clear();
        assert_eq!(t.live_bytes(), first);
        assert!(keys.iter().all(|&k| t.probe(k).is_none()));
    }

    #[test]
    fn growing_while_others_search_never_gives_wrong_data() {
        // Readers and writers run while another thread doubles the table
        // to its ceiling: whatever a probe returns is the data of its key.
        let t = Table::with_bytes(FIRST_BUCKETS * 4 * ENTRIES_PER_BUCKET * ENTRY_BYTES);
        let rounds: u128 = if cfg!(miri) { 200 } else { 300_000 };
        std::thread::scope(|scope| {
            for id in 0..2u128 {
                let t = &t;
                scope.spawn(move || {
                    for i in 0..rounds {
                        let k = (i * 2 + id) % 100_003 + 1;
                        let key = PackedBoard(k << 64 | k.wrapping_mul(0x9E37_79B9));
                        let v = Stored {
                            lower: (k % 1000) as i16,
                            upper: 1000,
                            best: (k % 17) as u8,
                            work: 2,
                        };
                        if i % 3 == 0 {
                            t.store(key, v);
                        } else if let Some(got) = t.probe(key) {
                            assert_eq!(got, v);
                        }
                    }
                });
            }
            let t = &t;
            scope.spawn(move || {
                for _ in 0..3 {
                    std::thread::yield_now();
                    t.grow_for(u64::MAX);
                }
            });
        });
        assert_eq!(t.live_bytes(), t.bytes());
    }

    #[test]
    fn guess_entries_never_show_as_bounds_nor_replace_true_ones() {
        let t = Table::with_bytes(1 << 16);
        let (a, b) = (PackedBoard(77), PackedBoard(78));
        let guess = Stored {
            lower: 3,
            upper: 3,
            best: 4,
            work: 9,
        };
        // A guess alone: the exact search sees its move, no bound.
        t.store_guess(a, guess, 12);
        let seen = t.probe(a).unwrap();
        assert_eq!((seen.lower, seen.upper), (UNKNOWN_LOWER, UNKNOWN_UPPER));
        assert_eq!((seen.best, seen.work), (4, 9));
        assert_eq!(t.probe_guess(a).unwrap().1, Some(12));
        assert_eq!(t.probe_guess(a).unwrap().0.lower, 3);
        // True bounds replace it.
        let truth = Stored {
            lower: -1,
            upper: 5,
            best: 2,
            work: 1,
        };
        t.store(a, truth);
        assert_eq!(t.probe(a), Some(truth));
        assert_eq!(t.probe_guess(a), Some((truth, None)));
        // A guess never replaces true bounds.
        t.store_guess(a, guess, 20);
        assert_eq!(t.probe(a), Some(truth));
        t.store(b, truth);
        t.store_guess(b, guess, 1);
        assert_eq!(t.probe(b), Some(truth));
    }

    #[test]
    fn deep_guesses_outlive_shallow_ones_in_their_bucket() {
        let t = Table::with_bytes(1 << 16);
        // A deep key and as many shallow ones as a bucket holds, all of
        // one bucket.
        let bucket = |k: u128| hash(k) as usize & t.live_mask.load(Ordering::Relaxed);
        let mut same = (1u128..).filter(|&k| bucket(k) == bucket(1));
        let deep = same.next().unwrap();
        let shallow: Vec<u128> = same.take(ENTRIES_PER_BUCKET).collect();
        let (a, b) = (shallow[0], shallow[ENTRIES_PER_BUCKET - 1]);
        let guess = |work| Stored {
            lower: 0,
            upper: 0,
            best: 1,
            work,
        };
        t.store_guess(PackedBoard(deep), guess(14), 20);
        for &k in &shallow {
            t.store_guess(PackedBoard(k), guess(2), 3);
        }
        assert_eq!(
            t.probe_guess(PackedBoard(deep)),
            Some((guess(14), Some(20)))
        );
        assert_eq!(t.probe_guess(PackedBoard(b)), Some((guess(2), Some(3))));
        assert_eq!(t.probe_guess(PackedBoard(a)), None);
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
