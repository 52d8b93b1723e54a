//! Detection of relay sowings that never end.
//!
//! A relay sowing is deterministic: the state at the end of a lap (the board
//! and the place where the lap ended) decides everything that follows. A move
//! therefore either ends or reaches a lap-end state it has seen before and
//! then loops forever. [`LapGuard`] finds the repeat with Brent's cycle
//! detection on the lap-end states, which needs one saved state and finds
//! every cycle.
//!
//! Ordinary moves must not pay for this: the guard only counts laps until
//! [`LapGuard::QUIET_LAPS`] have passed, and only then starts saving and
//! comparing states (on a cold path). Any sowing that really loops goes on
//! past that count, so it is still caught; a sowing that ends after more laps
//! simply costs a few comparisons.

use crate::position::MAX_PITS;

/// Counts the laps of one move and reports a sowing that repeats itself.
#[derive(Debug, Default)]
pub(crate) struct LapGuard {
    laps: u32,
    /// Brent's current power of two and steps taken within it.
    power: u32,
    steps: u32,
    saved_pits: [u8; MAX_PITS],
    saved_place: usize,
}

impl LapGuard {
    /// Laps a move may take before states are saved and compared.
    pub(crate) const QUIET_LAPS: u32 = 64;

    /// A guard for a new move.
    #[inline]
    pub(crate) fn new() -> LapGuard {
        LapGuard {
            laps: 0,
            power: 1,
            steps: 0,
            saved_pits: [0; MAX_PITS],
            saved_place: usize::MAX,
        }
    }

    /// Records the end of a lap at `place` (before a relay lifts its seeds)
    /// and returns true when this lap-end state was seen before: the move
    /// sows forever.
    #[inline]
    pub(crate) fn repeats(&mut self, pits: &[u8; MAX_PITS], place: usize) -> bool {
        self.laps += 1;
        if self.laps < Self::QUIET_LAPS {
            return false;
        }
        self.brent(pits, place)
    }

    #[cold]
    #[inline(never)]
    fn brent(&mut self, pits: &[u8; MAX_PITS], place: usize) -> bool {
        if place == self.saved_place && *pits == self.saved_pits {
            return true;
        }
        if self.steps == self.power {
            self.saved_pits = *pits;
            self.saved_place = place;
            self.power = self.power.saturating_mul(2);
            self.steps = 0;
        }
        self.steps += 1;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy sowing: a state machine over a few lap-end states with a tail
    /// of `tail` states and a cycle of `cycle` states.
    fn finds_cycle(tail: usize, cycle: usize) -> usize {
        let mut g = LapGuard::new();
        let pits = [0u8; MAX_PITS];
        for step in 0.. {
            let state = if step < tail {
                step
            } else {
                tail + (step - tail) % cycle
            };
            if g.repeats(&pits, state) {
                return step;
            }
            assert!(step < 100_000, "cycle not found");
        }
        unreachable!()
    }

    #[test]
    fn every_cycle_is_found_and_nothing_earlier() {
        for tail in [0, 1, 5, 63, 64, 65, 200] {
            for cycle in [1, 2, 3, 7, 64, 100, 1000] {
                let step = finds_cycle(tail, cycle);
                // Only a genuine repeat is reported.
                assert!(step >= tail + cycle, "tail {tail} cycle {cycle}: {step}");
            }
        }
    }

    #[test]
    fn distinct_states_are_never_reported() {
        let mut g = LapGuard::new();
        let mut pits = [0u8; MAX_PITS];
        for step in 0..8_000usize {
            // The board changes every lap and never comes back.
            pits[step / 256] = (step % 256) as u8;
            assert!(!g.repeats(&pits, 3));
        }
    }
}
