//! Unsowing: the quiet parents of a position in the games whose sowing
//! goes round the ring at most once, skipping only the origin (Awari, and
//! Kalah's quiet moves, which never reach the store).
//!
//! A quiet move (see [`Rules::quiet_parents`]) takes `h` seeds from an
//! origin pit of the previous mover and drops them one by one into the
//! pits after it; with `h >= 2n` in Awari, whole laps of the `2n - 1` other
//! pits, the origin skipped. Either way the origin is empty afterwards and
//! every other pit `j` received a number `add_j(h)` of seeds that depends
//! only on the origin and `h`, and never falls as `h` grows. So the parents
//! of a position `c` are among the boards `c - add(h)` with `h` seeds put
//! back into an empty origin of the previous mover's row, for `h = 1, 2,
//! ...` up to the first `h` for which some pit would go negative (then all
//! larger `h` fail too). Each candidate is then **checked by sowing it
//! forward** ([`Rules::sown`] gives exactly `c`: nothing captured, the turn
//! passed) and by the game's legality rule; the unsowing only has to miss
//! no parent, the forward check makes sure it invents none.

use super::{Move, Rules};
use crate::position::Position;

/// Calls `parent(mv, p)` for every candidate parent `p` of `c` by a move
/// of the previous mover from one of its empty pits with `h` seeds,
/// `h <= max_hand(pit)`, sown over the ring (`skip_origin`: whole laps skip
/// the origin, as in Awari; otherwise `max_hand` must keep the sowing
/// within one lap), that sows forward to exactly `c` and that `legal`
/// accepts.
#[inline]
pub(crate) fn single_lap_parents<R: Rules>(
    c: &Position,
    max_hand: impl Fn(usize) -> usize,
    legal: impl Fn(&Position, usize) -> bool,
    mut parent: impl FnMut(Move, &Position),
) {
    let n = c.n();
    let size = 2 * n;
    let mover = c.to_move.other();
    let base = mover.base(n);
    let seeds = c.board_seeds();
    for pit in 0..n {
        let origin = base + pit;
        if c.pits[origin] != 0 {
            continue;
        }
        let mut p = *c;
        p.to_move = mover;
        // `p` holds `c` minus the seeds of `h - 1` sown; sow back one more.
        let mut place = origin;
        for h in 1..=seeds.min(max_hand(pit)) {
            // The `h`-th seed of a sowing from `origin` falls in the next
            // pit of the ring, the origin skipped.
            place = if place + 1 == size { 0 } else { place + 1 };
            if place == origin {
                place = if place + 1 == size { 0 } else { place + 1 };
            }
            if p.pits[place] == 0 {
                break;
            }
            p.pits[place] -= 1;
            p.pits[origin] = h as u8;
            if R::sown(&p, pit).is_some_and(|x| x == *c) && legal(&p, pit) {
                parent(Move::Pit(pit as u8 + 1), &p);
            }
        }
    }
}
