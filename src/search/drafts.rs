//! The drafts of one searcher: results that leaned on a horizon and are
//! kept only for the rest of the search with that horizon
//! ([`super::cycles`], "Horizons").
//!
//! # What may be lost
//!
//! A draft is never a true bound, only what a search with the same horizon
//! would find again: the search returns it when it meets the same position
//! again with no more plies left to the horizon, instead of searching it
//! again. Nothing relies on finding a draft: one that is missing is
//! searched again and found again. So the drafts are a cache that may drop
//! any of them at any time: two slots a bucket, one cache line, the newer
//! draft first and the older dropped when a third comes, with no probing
//! beyond the bucket and no count of what is kept. That is one cache miss
//! a lookup, and it is prefetched when the node's table key is made, so
//! that it overlaps the table's (a general hash map took two misses, the
//! control bytes and the entry, one after the other, and hashed its keys
//! with SipHash: a fifth of the time of a long search in Akon,
//! `data/cycles.md`, "Stop 46").
//!
//! # Size
//!
//! A searcher is made for every test and for every move of a split
//! search, and most of them keep few drafts or none; so the buckets begin
//! at [`FIRST_BUCKETS`], none allocated before the first draft, and double
//! each time the drafts stored since the last doubling reach half the
//! slots ([`GROW_EVERY`]; the drafts in place move to the new buckets, none
//! lost), up to [`MAX_BUCKETS`] (32 MiB; the map held up to 2^20 drafts,
//! about 64 MB, and then dropped them all).

use crate::packed::PackedBoard;

/// The buckets allocated with the first draft.
const FIRST_BUCKETS: usize = 1 << 9;

/// The most buckets a searcher keeps: 64 bytes each, 32 MiB.
const MAX_BUCKETS: usize = 1 << 19;

/// The buckets double when the drafts stored since they were allocated
/// reach the slots divided by this. On `akon:4x3`'s start (1 thread, 64
/// MiB table), nodes in all: 834 K when they double at every slot used
/// once, 827 K at half of them, 843 K at a quarter; the map before, 820
/// K; one slot a bucket, doubling at every slot, 1.22 M.
const GROW_EVERY: usize = 2;

/// A result that leaned on a horizon: for the threshold `beta`, found with
/// `remaining` plies to the horizon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Draft {
    pub(crate) beta: i32,
    pub(crate) remaining: u32,
    pub(crate) v: i32,
}

/// One slot: the key, whether the side to move there is the side the
/// horizon fails (`tag` 1 or 2; 0: empty), and the draft.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u128,
    tag: u32,
    draft: Draft,
}

impl Slot {
    #[inline]
    fn holds(&self, key: PackedBoard, tag: u32) -> bool {
        self.key == key.0 && self.tag == tag
    }
}

/// Two slots in one cache line: the newer draft first.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Slot; 2]);

/// The drafts of one searcher (see the module docs).
#[derive(Default)]
pub(crate) struct Drafts {
    /// A power of two of buckets, or none before the first draft.
    buckets: Vec<Bucket>,
    /// Drafts stored since the buckets were last allocated.
    stored: usize,
}

impl Drafts {
    /// The draft kept for the board `key` whose mover is (`fails_here`) or
    /// is not the side the horizon fails, if it is still kept.
    #[inline]
    pub(crate) fn get(&self, key: PackedBoard, fails_here: bool) -> Option<Draft> {
        if self.buckets.is_empty() {
            return None;
        }
        let tag = tag(fails_here);
        let b = &self.buckets[self.bucket(key, fails_here)];
        b.0.iter().find(|s| s.holds(key, tag)).map(|s| s.draft)
    }

    /// Asks the processor for the bucket of `key` and `fails_here`, which
    /// [`Drafts::get`] reads soon after.
    #[inline]
    pub(crate) fn prefetch(&self, key: PackedBoard, fails_here: bool) {
        if !self.buckets.is_empty() {
            crate::mem::prefetch(&self.buckets[self.bucket(key, fails_here)]);
        }
    }

    /// Keeps `draft` for the board `key` whose mover is (`fails_here`) or
    /// is not the side the horizon fails: in place of the draft of the same
    /// key, or else first in its bucket, the older of the two dropped.
    pub(crate) fn insert(&mut self, key: PackedBoard, fails_here: bool, draft: Draft) {
        if self.stored * GROW_EVERY >= 2 * self.buckets.len() && self.buckets.len() < MAX_BUCKETS {
            self.grow();
        }
        self.stored += 1;
        let i = self.bucket(key, fails_here);
        let new = Slot {
            key: key.0,
            tag: tag(fails_here),
            draft,
        };
        let b = &mut self.buckets[i].0;
        if b[1].holds(key, new.tag) {
            b[1] = new;
        } else {
            if !b[0].holds(key, new.tag) {
                b[1] = b[0];
            }
            b[0] = new;
        }
    }

    /// Twice the buckets (or the first ones), the drafts in place moved to
    /// them (the drafts of one bucket go to two, so none is lost).
    fn grow(&mut self) {
        let len = (2 * self.buckets.len()).max(FIRST_BUCKETS);
        let old = std::mem::replace(&mut self.buckets, vec![Bucket::default(); len]);
        self.stored = 0;
        for b in old {
            // The older first, so that the newer stays first.
            for s in b.0.into_iter().rev().filter(|s| s.tag != 0) {
                let i = self.bucket(PackedBoard(s.key), s.tag == tag(true));
                let to = &mut self.buckets[i].0;
                to[1] = to[0];
                to[0] = s;
                self.stored += 1;
            }
        }
    }

    /// The bucket of a key: the high bits of a multiplicative hash of its
    /// two words and the flag (the buckets are a power of two, at least 2).
    #[inline]
    fn bucket(&self, key: PackedBoard, fails_here: bool) -> usize {
        const M: u64 = 0x9E37_79B9_7F4A_7C15;
        let h = ((key.0 as u64) ^ u64::from(fails_here)).wrapping_mul(M);
        let h = (h.rotate_left(29) ^ (key.0 >> 64) as u64).wrapping_mul(M);
        (h >> (64 - self.buckets.len().trailing_zeros())) as usize
    }

    /// The bytes the buckets take.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }
}

/// A slot's tag for a flag: never 0, the empty slot's.
#[inline]
fn tag(fails_here: bool) -> u32 {
    1 + u32::from(fails_here)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(i: u32) -> Draft {
        Draft {
            beta: i as i32 - 7,
            remaining: i,
            v: -(i as i32),
        }
    }

    /// A draft is found under its key and flag, and not under the other
    /// flag nor another key; the newest draft of a key wins.
    #[test]
    fn a_draft_is_found_under_its_key_and_flag_only() {
        let mut d = Drafts::default();
        assert_eq!(d.get(PackedBoard(5), true), None);
        d.insert(PackedBoard(5), true, draft(3));
        assert_eq!(d.get(PackedBoard(5), true), Some(draft(3)));
        assert_eq!(d.get(PackedBoard(5), false), None);
        assert_eq!(d.get(PackedBoard(6), true), None);
        // The key 0 is a key like any other: the empty slot is its tag.
        assert_eq!(d.get(PackedBoard(0), false), None);
        d.insert(PackedBoard(0), false, draft(4));
        assert_eq!(d.get(PackedBoard(0), false), Some(draft(4)));
        d.insert(PackedBoard(5), true, draft(9));
        assert_eq!(d.get(PackedBoard(5), true), Some(draft(9)));
    }

    /// Growing keeps every draft, and the buckets stop doubling at their
    /// cap: past it drafts only replace others (at most two a bucket, the
    /// newest), and what is found is always what was stored under that
    /// key and flag.
    #[test]
    fn the_buckets_grow_to_their_cap_and_never_answer_for_another_key() {
        let mut d = Drafts::default();
        let key = |i: u32| PackedBoard(u128::from(i).wrapping_mul(0x1234_5678_9ABC_DEF1) << 3);
        let kept = |d: &Drafts, n: u32| {
            (0..n)
                .filter(|&i| d.get(key(i), i.is_multiple_of(2)) == Some(draft(i)))
                .count()
        };
        // Up to half the first slots, nothing grows and nothing is lost
        // but to a bucket's third draft.
        let half = FIRST_BUCKETS as u32;
        for i in 0..half {
            d.insert(key(i), i.is_multiple_of(2), draft(i));
        }
        assert_eq!(d.bytes(), FIRST_BUCKETS * 64);
        let before = kept(&d, half);
        assert!(before > 8 * half as usize / 10, "{before} of {half} kept");
        // The next draft doubles the buckets: every draft kept stays.
        d.insert(key(1 << 30), false, draft(1));
        assert_eq!(d.bytes(), 2 * FIRST_BUCKETS * 64);
        assert_eq!(kept(&d, half), before);
        assert_eq!(d.get(key(1 << 30), false), Some(draft(1)));
        let many = 4 * MAX_BUCKETS as u32;
        for i in 0..many {
            d.insert(key(i), i.is_multiple_of(3), draft(i));
        }
        assert_eq!(d.bytes(), MAX_BUCKETS * 64);
        // The newest draft of its bucket is always there.
        assert_eq!(
            d.get(key(many - 1), (many - 1).is_multiple_of(3)),
            Some(draft(many - 1))
        );
        for i in (0..many).step_by(997) {
            if let Some(got) = d.get(key(i), i.is_multiple_of(3)) {
                assert_eq!(got, draft(i));
            }
            assert_eq!(d.get(key(i), !i.is_multiple_of(3)), None);
        }
    }
}
