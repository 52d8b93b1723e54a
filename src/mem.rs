//! Large shared arrays of atomics in zero-filled memory, and the one
//! prefetch hint.
//!
//! The transposition table ([`crate::search::tt`]) and the bounds of a
//! database build ([`crate::db::build`]) are arrays of up to billions of
//! atomics that every thread reads and writes at random. They live in an
//! anonymous mapping: its pages are zero-filled by the kernel on first
//! touch, so a large array costs nothing until it is used, and it can be
//! advised to use huge pages once it is worth it
//! ([`Atomics::use_huge_pages`]: a random access into a large array
//! otherwise misses the TLB too).
//!
//! **Soundness.** All the `unsafe` of these arrays is in this file:
//!
//! - *Provenance.* The element pointer is taken once, from
//!   [`memmap2::MmapRaw::as_mut_ptr`], which derives it from the mapping's
//!   own raw pointer: it may be used to write (through the atomics'
//!   interior mutability). Deriving it from a `&[u8]` (the `Deref` of a
//!   `MmapMut`) would make every atomic write through it undefined
//!   behaviour under Rust's aliasing rules, which was the case before.
//! - *Validity.* [`ZeroValid`] is implemented only for types for which the
//!   all-zero bit pattern is a valid value and which are only ever mutated
//!   through shared references (atomics, and structs of atomics): the
//!   kernel's zero fill is then an array of valid values that every thread
//!   may share.
//! - *Lifetime and bounds.* [`Atomics`] owns the mapping; the slice it
//!   lends borrows it, so no element outlives the memory, and the mapping
//!   holds at least `len * size_of::<T>()` bytes, page-aligned (hence
//!   aligned for any `T` of alignment up to 4096, checked on creation).
//!
//! Under Miri, which cannot run `mmap`, the memory comes from the global
//! allocator, zeroed ([`std::alloc::alloc_zeroed`]): the same contract, so
//! the unit tests of the table and of the builds check it there.

use std::marker::PhantomData;

/// Types that may live in an [`Atomics`] array.
///
/// # Safety
/// The all-zero bit pattern must be a valid value of the type, and the type
/// must be `Sync` and allow every mutation through `&self` only (atomics and
/// structs of atomics), since the array lends only shared references.
pub unsafe trait ZeroValid: Sync + Sized {}

// SAFETY: an atomic integer has the in-memory representation of its integer
// (zero included), and is mutated only through `&self`.
unsafe impl ZeroValid for std::sync::atomic::AtomicU16 {}
// SAFETY: as above.
unsafe impl ZeroValid for std::sync::atomic::AtomicU64 {}
// SAFETY: as above.
unsafe impl ZeroValid for std::sync::atomic::AtomicU32 {}
// SAFETY: as above.
unsafe impl ZeroValid for std::sync::atomic::AtomicU8 {}

/// A fixed-length array of `T` (zero-filled at creation), shared by
/// reference between threads (see the module docs).
pub struct Atomics<T: ZeroValid> {
    /// The anonymous mapping the elements live in (unmapped on drop).
    #[cfg(not(miri))]
    _map: memmap2::MmapRaw,
    /// The layout of the zeroed allocation (under Miri).
    #[cfg(miri)]
    layout: std::alloc::Layout,
    ptr: *mut T,
    len: usize,
    _owns: PhantomData<T>,
}

// SAFETY: `Atomics` owns its memory (nothing else points into it) and lends
// only `&[T]`; `T: ZeroValid` is `Sync`, so sending the owner to another
// thread or sharing it is the same as sending or sharing a `Vec<T>` that is
// only read through shared references.
unsafe impl<T: ZeroValid> Send for Atomics<T> {}
// SAFETY: as above: `&Atomics<T>` gives out only `&[T]` with `T: Sync`.
unsafe impl<T: ZeroValid> Sync for Atomics<T> {}

impl<T: ZeroValid> Atomics<T> {
    /// `len` zero-filled elements, or the system's refusal.
    pub fn zeroed(len: usize) -> std::io::Result<Atomics<T>> {
        let too_large = || std::io::Error::from(std::io::ErrorKind::OutOfMemory);
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(too_large)?
            .max(1);
        assert!(
            std::mem::align_of::<T>() <= 4096,
            "page alignment must suffice"
        );
        #[cfg(not(miri))]
        {
            let map = memmap2::MmapRaw::from(memmap2::MmapMut::map_anon(bytes)?);
            let ptr = map.as_mut_ptr().cast::<T>();
            Ok(Atomics {
                _map: map,
                ptr,
                len,
                _owns: PhantomData,
            })
        }
        #[cfg(miri)]
        {
            let layout = std::alloc::Layout::from_size_align(bytes, std::mem::align_of::<T>())
                .map_err(|_| too_large())?;
            // SAFETY: `layout` has a non-zero size (at least one byte).
            let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
            if ptr.is_null() {
                return Err(too_large());
            }
            Ok(Atomics {
                layout,
                ptr,
                len,
                _owns: PhantomData,
            })
        }
    }

    /// Asks the kernel to back the array with huge pages from now on: a
    /// random access into a large array then rarely misses the TLB. Only
    /// advice (if the kernel declines, nothing changes); worth it once much
    /// of the array will be touched, since each first touch then zeroes a
    /// whole huge page (2 MiB) instead of 4 KiB.
    pub fn use_huge_pages(&self) {
        #[cfg(all(target_os = "linux", not(miri)))]
        let _ = self._map.advise(memmap2::Advice::HugePage);
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array has no element.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T: ZeroValid> std::ops::Deref for Atomics<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        debug_assert_eq!(self.ptr as usize % std::mem::align_of::<T>(), 0);
        // SAFETY: `ptr` points to at least `len * size_of::<T>()` bytes owned
        // by `self` and aligned for `T` (page-aligned mapping, or an
        // allocation with `T`'s alignment); they were zero-filled, which is a
        // valid `T` (`ZeroValid`), and are only ever changed through shared
        // references to `T` (`ZeroValid`), so lending `&[T]` for the life of
        // `&self` aliases nothing mutably. The pointer came from
        // `MmapRaw::as_mut_ptr` (or the allocator), so it carries the
        // permission to write that the atomics need.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

#[cfg(miri)]
impl<T: ZeroValid> Drop for Atomics<T> {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from `alloc_zeroed(layout)`, and no borrow of
        // `self` outlives `self`.
        unsafe { std::alloc::dealloc(self.ptr.cast(), self.layout) }
    }
}

/// Asks the processor to start loading the cache line of `x`, so that the
/// memory latencies of several random accesses overlap.
#[inline]
pub fn prefetch<T>(x: &T) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has (it
    // is in the target's baseline features). A prefetch is only a hint: it
    // reads nothing into the program, writes nothing and never faults, and
    // the pointer comes from a reference anyway. Exercised by the tests of
    // the table and of every database build.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            (x as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    let _ = x;
}

/// The largest resident set of this process so far, in bytes (the
/// kernel's `VmHWM`, what `/usr/bin/time -v` reports as the maximum
/// resident set size), where the system says it (Linux); else `None`.
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};

    #[test]
    fn zero_filled_writable_and_shared() {
        let a = Atomics::<AtomicU64>::zeroed(1000).unwrap();
        assert_eq!(a.len(), 1000);
        assert!(a.iter().all(|x| x.load(Ordering::Relaxed) == 0));
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let a = &a;
                s.spawn(move || {
                    for (i, x) in a.iter().enumerate().skip(t as usize).step_by(2) {
                        prefetch(x);
                        x.store(i as u64 * 3 + 1, Ordering::Relaxed);
                    }
                });
            }
        });
        for (i, x) in a.iter().enumerate() {
            assert_eq!(x.load(Ordering::Relaxed), i as u64 * 3 + 1);
        }
    }

    #[cfg(all(target_os = "linux", not(miri)))]
    #[test]
    fn the_peak_resident_set_grows_with_memory_touched() {
        let before = peak_resident_bytes().unwrap();
        assert!(before > 0);
        let a = Atomics::<AtomicU64>::zeroed(4 << 20).unwrap();
        for x in a.iter().step_by(512) {
            x.store(1, Ordering::Relaxed);
        }
        assert!(peak_resident_bytes().unwrap() >= before.max(32 << 20));
    }

    #[test]
    fn empty_and_huge() {
        let e = Atomics::<AtomicU16>::zeroed(0).unwrap();
        assert!(e.is_empty());
        assert_eq!(e.iter().count(), 0);
        assert!(Atomics::<AtomicU64>::zeroed(usize::MAX / 4).is_err());
    }
}
