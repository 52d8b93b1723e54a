//! A model check of the transposition table's seqlock
//! (`src/search/tt/slot.rs`) under the C11 memory model with `loom`: every
//! interleaving of the writers and readers below, and every value each
//! relaxed load may see, is explored; a reader must never accept a key with
//! another key's data.
//!
//! It compiles the table's own slot file with loom's atomics in place of
//! the standard ones. Run it with
//! `RUSTFLAGS="--cfg loom" cargo test --release --test loom_slot`;
//! without the cfg it is empty. Removing the release fence from
//! `Slot::write` makes `reader_never_sees_a_torn_entry` fail.
#![cfg(loom)]

/// The atomics `slot.rs` takes from its parent module.
mod sync {
    pub(super) use loom::sync::atomic::{fence, AtomicU64, Ordering};
}

#[path = "../src/search/tt/slot.rs"]
#[allow(dead_code)]
mod slot;

use loom::sync::Arc;
use slot::Slot;

/// The data every writer stores with `key`: a reader that sees a key with
/// other data has seen a torn entry.
fn data_of(key: u128) -> u64 {
    (key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x55
}

fn check(read: Option<(u128, u64)>, keys: &[u128]) {
    if let Some((k, d)) = read {
        assert!(keys.contains(&k), "key {k:#x} was never written");
        assert_eq!(d, data_of(k), "torn entry: key {k:#x} with another's data");
    }
}

fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut b = loom::model::Builder::new();
    b.preemption_bound = Some(3);
    b.check(f);
}

#[test]
fn reader_never_sees_a_torn_entry() {
    model(|| {
        let slot = Arc::new(Slot::default());
        let a = 1u128 | 7 << 64;
        let b = 2u128 | 9 << 64;
        slot.write(a, data_of(a));
        let w = {
            let slot = slot.clone();
            loom::thread::spawn(move || slot.write(b, data_of(b)))
        };
        check(slot.read(), &[a, b]);
        check(slot.read(), &[a, b]);
        w.join().unwrap();
        // With the writer done, the slot holds its complete entry.
        assert_eq!(slot.read(), Some((b, data_of(b))));
    });
}

#[test]
fn two_writers_and_a_reader() {
    model(|| {
        let slot = Arc::new(Slot::default());
        let keys = [3u128 | 5 << 64, 4 | 6 << 64];
        let writers: Vec<_> = keys
            .iter()
            .map(|&k| {
                let slot = slot.clone();
                loom::thread::spawn(move || slot.write(k, data_of(k)))
            })
            .collect();
        // The zero-filled slot reads as key 0 with data 0.
        match slot.read() {
            Some((0, 0)) | None => {}
            other => check(other, &keys),
        }
        for w in writers {
            w.join().unwrap();
        }
        // One writer won the slot; its entry is whole.
        check(Some(slot.read().expect("no writer at work")), &keys);
    });
}
