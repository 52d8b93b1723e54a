//! The 16-byte entry: a 64-bit *quotient* of the key and the data word,
//! read and written as one 128-bit atomic, four to a 64-byte bucket.
//!
//! **Why the quotient is exact.** A table of this layout holds keys of at
//! most `64 + q` bits, where `2^q` is the number of buckets in use when the
//! table is new (the part in use only grows from there, see "Growth" in the
//! module docs of the table). A key `k` is first mapped by a bijection
//! `H` of the 128-bit integers that maps the `(64 + q)`-bit ones onto
//! themselves (below). Its bucket is `H(k)` masked
//! by the size in use, so the low `q` bits of `H(k)` are the low `q` bits
//! of the bucket's number, whatever the size; the entry stores the other
//! 64 bits, `H(k) >> q`. An entry of bucket `b` holding quotient `t` is
//! therefore the key with `H(k) = t << q | (b mod 2^q)`, and no other: two
//! keys found in one bucket with one quotient have the same `H(k)`, hence
//! (`H` being a bijection) are the same key. So a probe that compares
//! quotients in the key's own bucket is as exact as comparing whole keys.
//! A key wider than `64 + q` bits has no quotient: the table neither stores
//! nor finds it ([`Quotient::locate`] says `None`), which costs search but
//! never a wrong answer.
//!
//! **The bijection.** `H` keeps the key's high 64-bit word `hi` and
//! replaces its low word `lo` by `m(lo ^ f(hi))`, with `f(hi)` any function
//! (a multiplication) and `m` a bijection of the 64-bit words, the steps of
//! SplitMix64's finalizer: `x ^ (x >> s)` with `s >= 1` (its inverse
//! recovers the bits from the top down) and multiplication by an odd
//! constant modulo `2^64` (odd numbers are invertible modulo a power of
//! two). Given `H(k)`, `hi` is its high word and `lo = m⁻¹(low word) ^
//! f(hi)`, so `H` is one to one; it maps keys of `64 + q` bits to values of
//! `64 + q` bits (the high word is kept), and its low word, from which the
//! bucket is taken, depends on every bit of the key. (A mix of the whole
//! width by 128-bit multiplications made the table's operations twice as
//! slow in `benches/table.rs`.)
//!
//! **Why no lock.** The 128 bits of an entry are loaded and stored by one
//! atomic operation (`portable_atomic::AtomicU128`: on x86-64 an aligned
//! 16-byte `vmovdqa` where the processor has AVX, which Intel and AMD
//! document as atomic, else `cmpxchg16b`; the platform's 128-bit atomics
//! elsewhere, or the crate's fallback), so a reader always sees one
//! writer's whole quotient and data, never a mix. Nothing else is
//! published through an entry, so relaxed ordering suffices. Two writers
//! racing for one entry leave one of their entries: the table is a cache.

use portable_atomic::AtomicU128;
use std::sync::atomic::Ordering;

/// One entry: the key's quotient in the high 64 bits, the data word in the
/// low 64 bits; all zero when empty (the data's valid bit is clear).
#[derive(Default)]
#[repr(transparent)]
pub(super) struct Narrow(AtomicU128);

// SAFETY: `Narrow` is a transparent `AtomicU128`, a 16-byte integer cell:
// all-zero bytes are the valid value 0 (an empty entry, whose data's valid
// bit is clear), and every mutation goes through `&self`.
unsafe impl crate::mem::ZeroValid for Narrow {}

impl Narrow {
    /// The entry's quotient and data, read at once.
    #[inline]
    pub(super) fn read(&self) -> (u64, u64) {
        let v = self.0.load(Ordering::Relaxed);
        ((v >> 64) as u64, v as u64)
    }

    /// Replaces the entry with `quotient` and `data` at once.
    #[inline]
    pub(super) fn write(&self, quotient: u64, data: u64) {
        self.0.store(
            u128::from(quotient) << 64 | u128::from(data),
            Ordering::Relaxed,
        );
    }
}

/// The key mapping of a table of narrow entries whose first size is `2^q`
/// buckets (see the module docs).
#[derive(Clone, Copy, Debug)]
pub(super) struct Quotient {
    q: u32,
}

/// The multiplier that folds a key's high word into its low one (any
/// constant would do) and the two odd multipliers of the low word's
/// bijection (SplitMix64's finalizer; odd, so invertible modulo `2^64`).
const FOLD: u64 = 0x9E37_79B9_7F4A_7C15;
const MUL: [u64; 2] = [0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB];

/// `H`: a bijection of the 128-bit integers that keeps the high word and
/// mixes the whole key into the low one (module docs).
#[inline]
fn mix(key: u128) -> u128 {
    let hi = (key >> 64) as u64;
    let mut x = key as u64 ^ hi.wrapping_mul(FOLD);
    x = (x ^ (x >> 31)).wrapping_mul(MUL[0]);
    x = (x ^ (x >> 27)).wrapping_mul(MUL[1]);
    x ^= x >> 33;
    u128::from(hi) << 64 | u128::from(x)
}

impl Quotient {
    /// The mapping for a table whose first size is `2^q` buckets.
    pub(super) const fn new(q: u32) -> Quotient {
        assert!(q <= 32);
        Quotient { q }
    }

    /// The widest key the table holds, in bits.
    pub(super) const fn key_bits(self) -> u32 {
        64 + self.q
    }

    /// The low 64 bits of `H(key)` (the bucket is these masked by the size
    /// in use) and the quotient the entry stores; `None` for a key wider
    /// than the table holds.
    #[inline]
    pub(super) fn locate(self, key: u128) -> Option<(u64, u64)> {
        if key >> self.key_bits() != 0 {
            return None;
        }
        let h = mix(key);
        Some((h as u64, (h >> self.q) as u64))
    }

    /// The low 64 bits of `H(key)` of the key whose quotient is `quotient`
    /// in bucket `bucket`: what a migration needs to find its new bucket.
    #[inline]
    pub(super) fn rehash(self, quotient: u64, bucket: usize) -> u64 {
        let low = (bucket as u64) & ((1u64 << self.q) - 1);
        (u128::from(quotient) << self.q) as u64 | low
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inverse of `x -> x ^ (x >> s)` on 64-bit words.
    fn unshift(y: u64, s: u32) -> u64 {
        let mut x = y;
        for _ in 0..64 / s {
            x = y ^ (x >> s);
        }
        x
    }

    /// The inverse of an odd number modulo `2^64` (Newton's iteration).
    fn inverse(m: u64) -> u64 {
        let mut x = m;
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(x)));
        }
        assert_eq!(m.wrapping_mul(x), 1);
        x
    }

    /// `H⁻¹`, from the steps of the module docs.
    fn unmix(h: u128) -> u128 {
        let hi = (h >> 64) as u64;
        let mut x = unshift(h as u64, 33);
        x = unshift(x.wrapping_mul(inverse(MUL[1])), 27);
        x = unshift(x.wrapping_mul(inverse(MUL[0])), 31);
        u128::from(hi) << 64 | u128::from(x ^ hi.wrapping_mul(FOLD))
    }

    #[test]
    fn the_mix_is_a_bijection() {
        let mut k = 0x0123_4567_89AB_CDEF_FEDC_BA98_7654_3210u128;
        for _ in 0..if cfg!(miri) { 100 } else { 100_000 } {
            k = k.wrapping_mul(0x2545_F491_4F6C_DD1D_0000_0000_0000_0001) ^ (k >> 61);
            for key in [k, k >> 48, k & 0xFFFF] {
                let h = mix(key);
                assert_eq!(unmix(h), key);
                assert_eq!(h >> 64, key >> 64, "the high word is kept");
            }
        }
    }

    #[test]
    fn quotient_and_bucket_give_back_the_key_hash() {
        let qt = Quotient::new(12);
        for i in 0..10_000u128 {
            let key = (i * 0x9E37_79B9_7F4A_7C15_0001) & ((1u128 << 76) - 1);
            let (h, t) = qt.locate(key).unwrap();
            for mask in [(1usize << 12) - 1, (1 << 20) - 1] {
                let b = h as usize & mask;
                assert_eq!(qt.rehash(t, b), h);
            }
        }
        assert_eq!(qt.locate(1u128 << 76), None);
        assert!(qt.locate((1u128 << 76) - 1).is_some());
    }

    #[test]
    fn an_entry_reads_what_was_written() {
        let e = Narrow::default();
        assert_eq!(e.read(), (0, 0));
        e.write(u64::MAX, 7);
        assert_eq!(e.read(), (u64::MAX, 7));
    }
}
