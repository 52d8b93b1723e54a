//! One entry of the table: a key and a data word behind a sequence counter
//! (a seqlock), readable and writable by any thread without locks.
//!
//! **The protocol.** A writer claims the slot by moving the counter from an
//! even value `s` to `s + 1` with a compare-and-swap, then issues a
//! *release fence*, writes the key and data (relaxed), and publishes with a
//! release store of `s + 2`. A writer that finds the slot odd, or loses the
//! compare-and-swap, drops its store: the table is a cache. A reader loads
//! the counter (acquire), the key and data (relaxed), issues an *acquire
//! fence*, and loads the counter again (relaxed); it uses what it read only
//! if both counter loads gave the same even value.
//!
//! **Why a torn read is never used.** Suppose the reader's loads of the key
//! or data saw a value written by a writer `W` after `W` claimed the slot
//! (moving the counter from `s` to `s + 1`). `W`'s release fence is
//! sequenced before that store, and the reader's acquire fence after the
//! load that saw it, so the fences synchronise: `W`'s claim happens before
//! the reader's second counter load, which by coherence then reads `s + 1`
//! or later, never the value of the first load (that load saw an even value
//! written before `W`'s claim, or `W`'s own `s + 2`, after all of `W`'s
//! writes were visible). Conversely, if the first load saw `s + 2` from `W`
//! (acquire, synchronising with `W`'s release store), every write of `W` is
//! visible, and a second writer that changes anything must first move the
//! counter past `s + 2`, which the second load then sees by the same fence
//! argument. So equal even counters mean the key and data are one writer's
//! complete pair.
//!
//! The compare-and-swap alone is not enough: its acquire ordering stops the
//! writer's data stores from moving *before* it on a weak-memory processor
//! only if something orders them with the reader, and nothing did before
//! the release fence was added (x86 hides the difference; aarch64 does
//! not). The `loom` model in `tests/loom_slot.rs` checks the protocol
//! under the C11 memory model, on this very file: `RUSTFLAGS="--cfg loom"
//! cargo test --release --test loom_slot` (`.ci/run` runs it).

// The parent module provides the atomics: the standard ones in the
// library, loom's in the model (`tests/loom_slot.rs`), which compiles this
// very file.
use super::sync::{fence, AtomicU64, Ordering};

/// A seqlocked entry: counter, two key words, one data word.
#[derive(Default)]
#[repr(align(32))]
pub(super) struct Slot {
    seq: AtomicU64,
    key0: AtomicU64,
    key1: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The slot's key and data, if no writer was at work while they were
    /// read.
    #[inline]
    pub(super) fn read(&self) -> Option<(u128, u64)> {
        let s1 = self.seq.load(Ordering::Acquire);
        if s1 & 1 == 1 {
            return None;
        }
        let k0 = self.key0.load(Ordering::Relaxed);
        let k1 = self.key1.load(Ordering::Relaxed);
        let d = self.data.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        let s2 = self.seq.load(Ordering::Relaxed);
        (s1 == s2).then_some((u128::from(k0) | u128::from(k1) << 64, d))
    }

    /// Writes `key` and `data`, unless another writer holds the slot.
    #[inline]
    pub(super) fn write(&self, key: u128, data: u64) {
        let s = self.seq.load(Ordering::Relaxed);
        if s & 1 == 1
            || self
                .seq
                .compare_exchange(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        // Orders the claim before the data stores for every reader whose
        // acquire fence follows a load of one of them (module docs).
        fence(Ordering::Release);
        self.key0.store(key as u64, Ordering::Relaxed);
        self.key1.store((key >> 64) as u64, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
        self.seq.store(s + 2, Ordering::Release);
    }
}
