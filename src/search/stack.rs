//! A guard against running out of stack.
//!
//! The search recurses once per ply, and in the games whose positions can
//! repeat a path goes on until it meets an open position
//! ([`super::cycles`]): the depth of recursion is bounded only by the
//! positions a path can visit without repeating, which on large cyclic
//! boards is far more than any stack holds. Without a guard the process would abort on a stack
//! overflow (no unwinding, no message). With it, a search thread whose
//! stack is nearly used up stops the solve, which then fails with
//! [`super::SolveError::TooDeep`].
//!
//! Each search thread records, when it starts, the lowest stack address it
//! may use (stacks grow downwards on every target the toolkit builds for);
//! [`low`] compares the address of a local variable with it. A thread that
//! recorded nothing (not a search thread) is never stopped.

use std::cell::Cell;

thread_local! {
    /// The lowest stack address this thread's search may reach (0: none).
    static LIMIT: Cell<usize> = const { Cell::new(0) };
}

/// The part of a stack kept free below the limit, for the frames a
/// stopping search still calls: a quarter of the stack, at most 1 MiB.
fn reserve(stack_bytes: usize) -> usize {
    (stack_bytes / 4).min(1 << 20)
}

/// An address in the current stack frame.
#[inline(always)]
fn here() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

/// Records, on a thread that was started with `stack_bytes` of stack and
/// calls this near the top of it, how deep its searches may go.
pub(crate) fn mark(stack_bytes: usize) {
    let limit = here().saturating_sub(stack_bytes - reserve(stack_bytes));
    LIMIT.with(|l| l.set(limit));
}

/// Whether this thread's stack is nearly used up.
#[inline]
pub(crate) fn low() -> bool {
    here() < LIMIT.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_until_low(d: usize) -> usize {
        let pad = std::hint::black_box([0u8; 256]);
        if low() || d > 1_000_000 {
            return d + usize::from(pad[0]);
        }
        depth_until_low(d + 1)
    }

    #[test]
    fn a_marked_thread_sees_its_stack_run_low_before_it_overflows() {
        const STACK: usize = 256 << 10;
        let depth = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn(|| {
                mark(STACK);
                depth_until_low(0)
            })
            .unwrap()
            .join()
            .unwrap();
        // Some recursion was allowed, and the guard fired long before the
        // test's own limit of a million frames.
        assert!(depth > 10 && depth < 1_000_000, "{depth}");
        // An unmarked thread is never low.
        assert!(!low());
    }
}
