//! Dakon (seed text `004`): 2 x 7, 7 seeds a pit, a store each at the end of
//! its owner's row. Ring: own pits, own store, opponent's pits (the
//! opponent's store is skipped). Relay sowing.
//!
//! - A lap ending in the own store: the mover moves again.
//! - In a pit that was occupied (now 2 or more): relay.
//! - In an own pit that was empty (nembak): the opposite pit's seeds go to
//!   the mover's store; the capturing seed stays.
//! - In an opponent's pit that was empty (mikul): if both neighbours in that
//!   row hold the same non-zero number, both neighbours and the capturing
//!   seed go to the mover's store (pits 1 and n have one neighbour: never).
//! - The player to move with no seeds in his pits ends the game; the
//!   opponent takes all seeds left.
//!
//! Every lap that wraps round the ring drops a seed into the own store, so a
//! Dakon sowing always ends; the lap guard is kept as a safety net.
//!
//! The sowing (`sow`) and the end of the game (`taker`) are written
//! once, generic over the crate's board trait (`board.rs`), and run on the
//! engine's [`Position`] (the [`Rules`] implementation) and on the wide
//! boards of [`crate::wide`]; instantiated for [`Position`], the generic sowing
//! compiles to the same byte operations as a sowing written for it.

use super::{board_to, captured, push_sowings, MoveList, Rules, Score};
use crate::board::Board;
use crate::position::Position;
use crate::side::Side;

/// The rules of Dakon.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dakon;

impl Rules for Dakon {
    const NAME: &'static str = "dakon";
    const DEFAULT_SIZE: (usize, usize) = (7, 7);
    const HAS_STORES: bool = true;
    const SOWS_INTO_STORES: bool = true;
    const REFUSAL: &'static str = "Dakon refuses no move with seeds";

    fn sow(p: &mut Position, pit: usize) -> bool {
        sow(p, pit)
    }

    #[inline]
    fn outcome(pos: &Position) -> Option<Score> {
        taker(pos).map(|t| board_to(pos, t))
    }

    fn generate(pos: &Position, moves: &mut MoveList) -> Option<Score> {
        moves.clear();
        if let Some(t) = taker(pos) {
            return Some(board_to(pos, t));
        }
        push_sowings::<Dakon>(pos, moves);
        if moves.is_empty() {
            return Some(captured(pos));
        }
        None
    }
}

/// The end of the game: when the player to move has no seeds in his pits,
/// the player who takes the seeds left on the board (the opponent). Every
/// Dakon sowing ends, so a mover with seeds has a move.
#[inline]
pub(crate) fn taker<B: Board>(p: &B) -> Option<Side> {
    let me = p.to_move();
    p.row_empty(me).then(|| me.other())
}

/// Sows pit `pit` (0-based) of the side to move on any `Board`, with
/// every capture of the move, choosing who moves next: the rules of
/// Dakon's move, written once for every board type. Returns `false` when
/// the sowing would go on forever (never in Dakon, see the module doc;
/// the board's guard is a safety net). The pit must not be empty.
#[inline]
pub(crate) fn sow<B: Board>(p: &mut B, pit: usize) -> bool {
    let n = p.n();
    let me = p.to_move();
    let own = me.base(n);
    let opp = me.other().base(n);
    let ring = 2 * n + 1;
    // Ring places relative to the mover: 0..n own pits, n the own
    // store, n+1..=2n the opponent's pits.
    let mut place = pit;
    let mut hand = p.take(own + pit);
    let mut guard = B::guard();
    loop {
        while hand > 0 {
            place += 1;
            if place == ring {
                place = 0;
            }
            if place < n {
                p.add_one(own + place);
            } else if place == n {
                p.capture_seeds(me, 1);
            } else {
                p.add_one(opp + place - n - 1);
            }
            hand -= 1;
        }
        if place == n {
            // Extra move.
            return true;
        }
        let abs = if place < n {
            own + place
        } else {
            opp + place - n - 1
        };
        if p.get(abs) >= 2 {
            if p.repeats(&mut guard, place) {
                return false;
            }
            hand = p.take(abs);
            continue;
        }
        if place < n {
            // Nembak.
            let facing = 2 * n - 1 - abs;
            let taken = p.take(facing);
            p.capture_seeds(me, taken);
        } else {
            // Mikul.
            let k = place - n - 1;
            if k >= 1 && k + 1 < n {
                let (a, b) = (p.get(abs - 1), p.get(abs + 1));
                if a == b && a > 0 {
                    p.take(abs - 1);
                    p.take(abs);
                    p.take(abs + 1);
                    p.capture_seeds(me, a + b + 1);
                }
            }
        }
        p.set_to_move(me.other());
        return true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{play, Move};

    fn after(pos: &str, mv: u8) -> String {
        play::<Dakon>(&pos.parse().unwrap(), Move::Pit(mv))
            .unwrap()
            .to_string()
    }

    #[test]
    fn nembak_and_mikul() {
        // S pit 1 (1 seed) -> S2 was empty: nembak takes N2 (opposite of S2
        // on a 3-board is N2), the seed stays.
        assert_eq!(after("S 1,0,0/0,5,0 0-0", 1), "N 0,1,0/0,0,0 5-0");
        // S pit 3 (2 seeds): store, N1 was empty but has one neighbour.
        assert_eq!(after("S 0,0,2/0,3,0 0-0", 3), "N 0,0,0/1,3,0 1-0");
        // S pit 3 (3 seeds): store, N1, N2 was empty with N1 = N3 = 1.
        assert_eq!(after("S 0,0,3/0,0,1 0-0", 3), "N 0,0,0/0,0,0 4-0");
    }
}
