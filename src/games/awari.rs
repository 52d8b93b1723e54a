//! Awari, the reference game whose endgame databases are published (Lincke
//! 2002, appendix B), with the rules of Romein and Bal's solution:
//!
//! - No sowing into stores. One lap; a move that starts with `2n` (12) or
//!   more seeds skips its origin pit every time round.
//! - Last seed in an opponent's pit that now holds 2 or 3: the mover takes
//!   them, and the preceding opponent pits while they hold 2 or 3; the chain
//!   never leaves the opponent's row.
//! - A move after which the opponent's row is empty is not legal, unless
//!   every move is like that.
//! - A player to move with no move (an empty row): the opponent takes all
//!   seeds left.

use super::{board_to, no_starving, push_sowings, Move, MoveList, Rules, Score};
use crate::position::Position;

/// The rules of Awari.
#[derive(Clone, Copy, Debug, Default)]
pub struct Awari;

impl Rules for Awari {
    const NAME: &'static str = "awari";
    const DEFAULT_SIZE: (usize, usize) = (6, 4);
    const REFUSAL: &'static str =
        "it leaves the opponent without seeds while another move feeds him (no starving)";

    #[inline(always)]
    fn sow(p: &mut Position, pit: usize) -> bool {
        let n = p.n();
        let me = p.to_move;
        let opp = me.other().base(n);
        let origin = me.base(n) + pit;
        let mut hand = usize::from(p.pits[origin]);
        p.pits[origin] = 0;
        let size = 2 * n;
        let mut place = origin;
        if hand >= size {
            // Origin skipped: whole laps of 2n - 1 pits feed all but it.
            let laps = hand / (size - 1);
            hand -= laps * (size - 1);
            for (i, c) in p.pits[..size].iter_mut().enumerate() {
                if i != origin {
                    *c += laps as u8;
                }
            }
            // After whole laps the last seed fell in the pit just before
            // the origin; the rest continues from there.
            if hand == 0 {
                place = if origin == 0 { size - 1 } else { origin - 1 };
            }
            for _ in 0..hand {
                place += 1;
                if place == size {
                    place = 0;
                }
                if place == origin {
                    place += 1;
                    if place == size {
                        place = 0;
                    }
                }
                p.pits[place] += 1;
            }
        } else {
            place = p.sow_ring(origin, hand);
        }
        if (opp..opp + n).contains(&place) {
            let mut i = place;
            let mut taken = 0u8;
            while matches!(p.pits[i], 2 | 3) {
                taken += p.pits[i];
                p.pits[i] = 0;
                if i == opp {
                    break;
                }
                i -= 1;
            }
            p.captured[me.index()] += taken;
        }
        p.to_move = me.other();
        true
    }

    #[inline]
    fn generate(pos: &Position, moves: &mut MoveList) -> Option<Score> {
        moves.clear();
        let me = pos.to_move;
        if pos.row_is_empty(me) {
            return Some(board_to(pos, me.other()));
        }
        push_sowings::<Awari>(pos, moves);
        // A pit with 3 or more seeds either receives a seed (then holds 4
        // or more: not taken) or lies beyond the last seed, where the
        // capture chain (running backwards from the last seed) never goes.
        no_starving(pos, moves, 3);
        None
    }

    #[inline]
    fn count_moves(pos: &Position) -> Option<usize> {
        super::count_unless_starving::<Awari>(pos, 3)
    }

    /// A capture takes two or three seeds from each pit it takes.
    const LEAST_TAKEN: usize = 2;

    const HAS_UNMOVES: bool = true;

    #[inline]
    fn quiet_parents(pos: &Position, parent: impl FnMut(Move, &Position)) {
        // Any number of seeds (laps skip the origin). A move that leaves
        // the new mover's row empty is legal only when every move of the
        // parent does (no starving): then ask the parent's moves.
        let fed = !pos.row_is_empty(pos.to_move);
        let legal = |p: &Position, pit: usize| {
            fed || {
                let mut moves = MoveList::new();
                Awari::generate(p, &mut moves);
                moves.iter().any(|(m, _)| *m == Move::Pit(pit as u8 + 1))
            }
        };
        super::unmoves::single_lap_parents::<Awari>(pos, |_| usize::MAX, legal, parent);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::play;

    fn after(pos: &str, mv: u8) -> String {
        play::<Awari>(&pos.parse().unwrap(), Move::Pit(mv))
            .unwrap()
            .to_string()
    }

    #[test]
    fn origin_skip_with_whole_laps() {
        // n = 2: 2n = 4 seeds or more skip the origin (laps of 3 pits).
        // 6 seeds from South pit 1: two laps of S2, N1, N2; last in N2 (3).
        assert_eq!(after("S 6,0/1,1 0-0", 1), "N 0,2/0,0 6-0");
        // 4 seeds: S2, N1, N2, S2 again: last in own row.
        assert_eq!(after("S 4,0/0,0 0-0", 1), "N 0,2/1,1 0-0");
        // 3 seeds (< 2n) never come back round.
        assert_eq!(after("S 3,0/0,0 0-0", 1), "N 0,1/1,1 0-0");
    }
}
