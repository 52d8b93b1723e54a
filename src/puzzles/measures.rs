//! The measures of one puzzle, read from the databases as a player would
//! judge it: how many moves lose and by how much, which of them tempt (they
//! capture at once), how many real decisions the solution line asks of each
//! side, the seeds each side holds, and the depth to the first capture
//! counted in decisions rather than plies.
//!
//! # The solution line
//!
//! The line is the forced line of the module [`crate::puzzles`]: from the
//! puzzle, both sides play only moves that keep the database value, the
//! winner reaching the first capture (seeds leaving the board, or the end
//! of the game) soonest and the loser latest, the earliest move in pit
//! order among equals. [`measure`] computes it *locally*, by a bounded
//! AND-OR search deepened one ply at a time: the winner forces a capture
//! within `d` plies when one of its value-keeping moves does within
//! `d - 1`, the loser when all of its do; the distance is the least such
//! `d`, the same as [`super::capture_distances`] gives (the layers of that
//! least fixed point are exactly these bounds). The search looks no
//! further than [`MAX_LINE`] plies and remembers at most the given limit
//! of (board, bound) pairs; beyond either, there is no line.
//!
//! # Decisions
//!
//! A ply of the line is a *decision* of its mover when the mover had more
//! than one legal move there. A pass is never one (a side passes only with
//! an empty row, and then it is the only move). The *depth* of a puzzle is
//! the number of decisions of both sides on its line, the key move
//! included.
//!
//! # Wrong moves and refutations
//!
//! Every other legal move is a *wrong move* (a puzzle has exactly one
//! value-keeping move). Its value is what South gets after it with best
//! play; the loss is the puzzle's value minus that. It *tempts* when it
//! captures at once (the mover's net capture on that move is positive). Its
//! *refutation* is the play after it, each side keeping the value and
//! taking the largest immediate capture among the value-keeping moves
//! (earliest pit among equals), up to and including the opponent's first
//! move: the reply that keeps the punishment.

use super::grade::{grade, Grade};
use crate::db::Database;
use crate::games::{move_gain, Move, MoveList, Rules};
use crate::position::Position;
use crate::side::{ByPlayer, Side};
use std::collections::HashMap;

/// One ply of a solution line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The side that played it.
    pub mover: Side,
    /// The move.
    pub mv: Move,
    /// The mover's legal moves there.
    pub choices: usize,
    /// The mover's net capture on this move.
    pub captures: i32,
}

impl Ply {
    /// Whether this ply was a real decision: more than one legal move (a
    /// pass never is).
    pub fn is_decision(&self) -> bool {
        self.choices > 1 && self.mv != Move::Pass
    }
}

/// A move that does not keep the puzzle's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongMove {
    /// The move.
    pub mv: Move,
    /// The value for the puzzle's mover after it, with best play.
    pub value: i32,
    /// The mover's net capture on the move itself.
    pub captures: i32,
    /// The play that punishes it, up to and including the opponent's first
    /// move (see the module docs); empty when the move ends the game.
    pub refutation: Vec<Ply>,
}

/// Everything [`measure`] learns about a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measures {
    /// The puzzle: nothing captured.
    pub position: Position,
    /// Its game value for the side to move.
    pub value: i32,
    /// The only move that keeps the value.
    pub solution: Move,
    /// The mover's net capture on the key move.
    pub solution_captures: i32,
    /// The legal moves.
    pub moves: usize,
    /// Every other move, in pit order.
    pub wrong: Vec<WrongMove>,
    /// The forced line to the first capture (module docs), starting with
    /// the key move; `None` for a draw, a line that never captures, or a
    /// search beyond the limit.
    pub line: Option<Vec<Ply>>,
    /// The seeds in each side's row.
    pub seeds: ByPlayer<u32>,
    /// The occupied pits of each side's row.
    pub occupied: ByPlayer<u32>,
}

impl Measures {
    /// Wrong moves that capture at once.
    pub fn tempting(&self) -> usize {
        self.wrong.iter().filter(|w| w.captures > 0).count()
    }

    /// The decisions of each side on the line (zero without a line).
    pub fn decisions(&self) -> ByPlayer<u32> {
        let mut d = ByPlayer::new(0, 0);
        for p in self.line.iter().flatten() {
            if p.is_decision() {
                d[p.mover] += 1;
            }
        }
        d
    }

    /// The decisions of both sides on the line, the key move included.
    pub fn depth(&self) -> u32 {
        let d = self.decisions();
        d.south + d.north
    }

    /// The passes on the line.
    pub fn passes(&self) -> usize {
        self.line
            .iter()
            .flatten()
            .filter(|p| p.mv == Move::Pass)
            .count()
    }

    /// The largest loss of a wrong move.
    pub fn worst_loss(&self) -> i32 {
        self.wrong
            .iter()
            .map(|w| self.value - w.value)
            .max()
            .unwrap_or(0)
    }

    /// The difficulty grade ([`super::grade`]).
    pub fn grade(&self) -> Grade {
        grade(self)
    }
}

/// The value for the mover of `pos` of each of `moves`, from the
/// databases (the children have no more seeds than `pos`).
fn values(db: &Database, pos: &Position, moves: &MoveList) -> Vec<i32> {
    super::move_values(db, pos, moves)
}

/// The measures of `pos` (level `k = pos.board_seeds()` must be in `db`)
/// when it is a puzzle (at least two legal moves, exactly one of which
/// keeps the value), else `None`. The line search visits at most `limit`
/// boards (module docs).
pub fn measure<R: Rules>(db: &Database, pos: &Position, limit: usize) -> Option<Measures> {
    let g = db.gain(pos)?;
    let mut moves = MoveList::new();
    if R::generate(pos, &mut moves).is_some() || moves.len() < 2 {
        return None;
    }
    let vals = values(db, pos, &moves);
    let mut keeping = (0..moves.len()).filter(|&i| vals[i] == g);
    let (Some(only), None) = (keeping.next(), keeping.next()) else {
        return None;
    };
    let (solution, key_child) = moves[only];
    let wrong = moves
        .iter()
        .zip(&vals)
        .filter(|&(_, &v)| v != g)
        .map(|(&(mv, child), &v)| WrongMove {
            mv,
            value: v,
            captures: move_gain(pos, &child),
            refutation: refutation::<R>(db, pos.to_move(), &child),
        })
        .collect();
    let mut seeds = ByPlayer::new(0, 0);
    let mut occupied = ByPlayer::new(0, 0);
    for side in Side::BOTH {
        for &c in pos.row(side) {
            seeds[side] += u32::from(c);
            occupied[side] += u32::from(c > 0);
        }
    }
    let line = if g == 0 {
        None
    } else {
        solution_line::<R>(db, pos, limit)
    };
    debug_assert!(line.as_ref().is_none_or(|l| l[0].mv == solution));
    Some(Measures {
        position: *pos,
        value: g,
        solution,
        solution_captures: move_gain(pos, &key_child),
        moves: moves.len(),
        wrong,
        line,
        seeds,
        occupied,
    })
}

/// The refutation of a wrong move of `me` leading to `child` (module
/// docs): both sides keep the value, taking the largest immediate capture,
/// until the opponent of `me` has moved once (at most 16 plies).
fn refutation<R: Rules>(db: &Database, me: Side, child: &Position) -> Vec<Ply> {
    let mut line = Vec::new();
    let mut at = *child;
    let mut moves = MoveList::new();
    while line.len() < 16 {
        if R::generate(&at, &mut moves).is_some() {
            break;
        }
        let g = db.gain(&at).expect("no more seeds than the puzzle");
        let vals = values(db, &at, &moves);
        let (mv, next) = moves
            .iter()
            .zip(&vals)
            .filter(|&(_, &v)| v == g)
            .map(|(&(m, c), _)| (m, c))
            .max_by_key(|(m, c)| (move_gain(&at, c), std::cmp::Reverse(*m)))
            .expect("some move keeps the value");
        let mover = at.to_move();
        line.push(Ply {
            mover,
            mv,
            choices: moves.len(),
            captures: move_gain(&at, &next),
        });
        at = next;
        if mover != me {
            break;
        }
    }
    line
}

/// The bounded search behind [`solution_line`]: whether the winner of a
/// board can force a capture within `d` plies, both sides keeping the
/// value, memoised by board and bound.
struct Forcing<'a, R> {
    db: &'a Database,
    k: usize,
    winner: Side,
    memo: HashMap<(Position, u8), bool>,
    limit: usize,
    rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Forcing<'_, R> {
    /// The value-keeping moves of `pos` with their children and the legal
    /// move count; `None` when the game is over.
    fn keeping(&self, pos: &Position) -> Option<(Vec<(Move, Position)>, usize)> {
        let mut moves = MoveList::new();
        if R::generate(pos, &mut moves).is_some() {
            return None;
        }
        let g = self.db.gain(pos).expect("level in the databases");
        let vals = values(self.db, pos, &moves);
        let keep = moves
            .iter()
            .zip(&vals)
            .filter(|&(_, &v)| v == g)
            .map(|(&m, _)| m)
            .collect();
        Some((keep, moves.len()))
    }

    /// Whether a capture (seeds leaving the board, or the end) is forced
    /// within `d` plies from `pos`; `None` beyond the limit of boards.
    fn forces(&mut self, pos: &Position, d: u8) -> Option<bool> {
        if pos.board_seeds() < self.k {
            return Some(true);
        }
        let Some((keep, _)) = self.keeping(pos) else {
            return Some(true);
        };
        if d == 0 {
            return Some(false);
        }
        if let Some(&b) = self.memo.get(&(*pos, d)) {
            return Some(b);
        }
        if self.memo.len() >= self.limit {
            return None;
        }
        let mut b = pos.to_move() != self.winner;
        for (_, child) in keep {
            let c = self.forces(&child, d - 1)?;
            if pos.to_move() == self.winner && c {
                b = true;
                break;
            }
            if pos.to_move() != self.winner && !c {
                b = false;
                break;
            }
        }
        self.memo.insert((*pos, d), b);
        Some(b)
    }

    /// The plies to the first capture from `pos` (0 when it is already
    /// out of the level or over), if at most `max`.
    fn distance(&mut self, pos: &Position, max: u8) -> Option<Option<u8>> {
        for d in 0..=max {
            if self.forces(pos, d)? {
                return Some(Some(d));
            }
        }
        Some(None)
    }
}

/// The longest line [`measure`] looks for, in plies.
pub const MAX_LINE: u8 = 24;

/// The forced line from `pos` (module docs), or `None`: no capture within
/// [`MAX_LINE`] plies, or more than `limit` (board, bound) pairs searched.
fn solution_line<R: Rules>(db: &Database, pos: &Position, limit: usize) -> Option<Vec<Ply>> {
    let g = db.gain(pos)?;
    let mut f = Forcing::<R> {
        db,
        k: pos.board_seeds(),
        winner: if g > 0 {
            pos.to_move()
        } else {
            pos.to_move().other()
        },
        memo: HashMap::new(),
        limit,
        rules: std::marker::PhantomData,
    };
    let mut d = f.distance(pos, MAX_LINE)??;
    let mut at = *pos;
    let mut line = Vec::new();
    while d > 0 {
        let (keep, choices) = f.keeping(&at).expect("a board with a distance is open");
        // The winner: the earliest move reaching the capture within d - 1;
        // the loser: the earliest whose distance is exactly d - 1 (none is
        // shorter once the distance is d).
        let mut pick = None;
        for &(mv, child) in &keep {
            let dc = f.distance(&child, d - 1)?;
            let ok = if at.to_move() == f.winner {
                dc.is_some()
            } else {
                dc == Some(d - 1)
            };
            if ok {
                pick = Some((mv, child));
                break;
            }
        }
        let (mv, child) = pick.expect("the distance is kept by some move");
        line.push(Ply {
            mover: at.to_move(),
            mv,
            choices,
            captures: move_gain(&at, &child),
        });
        at = child;
        d -= 1;
        if at.board_seeds() < f.k {
            break;
        }
    }
    Some(line)
}

/// What a first move in a puzzle is worth, as [`judge`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The move keeps the position's value.
    Right {
        /// The value kept.
        value: i32,
    },
    /// The move loses value.
    Loses {
        /// The position's value minus the move's.
        loss: i32,
        /// The value after the move, with best play.
        value: i32,
    },
}

/// Judges `mv` given the exact value of every legal move (as the solver's
/// `analyse` gives them): right when it keeps the best value, else how much
/// it loses; `None` when `mv` is not among them.
pub fn judge(values: &[(Move, i32)], mv: Move) -> Option<Judgement> {
    let best = values.iter().map(|&(_, v)| v).max()?;
    let &(_, v) = values.iter().find(|&&(m, _)| m == mv)?;
    Some(if v == best {
        Judgement::Right { value: v }
    } else {
        Judgement::Loses {
            loss: best - v,
            value: v,
        }
    })
}
