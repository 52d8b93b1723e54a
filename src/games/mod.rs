//! The rules of the six games.
//!
//! Each game is its own type implementing [`Rules`], so hot loops (move
//! generation, search) are compiled once per game with no rule flags inside
//! the sowing. A game's identity (its name, traditional size, stores) is
//! part of its `Rules`, so every generic part of the toolkit (perft, the
//! solver, the databases) works for any game type, including one defined
//! outside this crate. The built-in games are listed once, in the registry
//! (`registry.rs`), which generates the runtime [`Game`] enum used at the
//! edges (command line, files) and [`dispatch!`](crate::dispatch!) to the right type.
//!
//! **Adding a game:** write `games/NAME.rs` with a type implementing
//! [`Rules`] (its doc comment saying the rules, as the others do), and add
//! one line to the registry. Every test loop over [`Game::ALL`] then covers
//! it, including the guarantees below.

pub mod gain;
mod registry;
pub(crate) mod relay;
pub(crate) mod unmoves;

// The built-in games' modules and types, and the `Game` enum.
crate::__games_registry!(define());

use crate::position::{Position, MAX_N, WIDE_MAX_N};
use crate::side::{ByPlayer, Side};
use arrayvec::ArrayVec;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

pub use gain::{final_gain, move_gain, through};

/// A move: a pit of the mover's row (1-based, in sowing order) or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Sow the seeds of the mover's pit with this number (`1..=n`).
    Pit(u8),
    /// Pass the turn (only where a game's rules make the mover pass).
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pit(k) => write!(f, "{k}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// A move string that is neither a pit number nor `pass`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "{0:?} is not a move: a move is a pit number 1..{WIDE_MAX_N} of the mover's row or \"pass\""
)]
pub struct MoveParseError(pub String);

impl FromStr for Move {
    type Err = MoveParseError;
    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        if s == "pass" {
            return Ok(Move::Pass);
        }
        match s.parse::<u8>() {
            Ok(k)
                if (1..=WIDE_MAX_N as u8).contains(&k) && s.bytes().all(|b| b.is_ascii_digit()) =>
            {
                Ok(Move::Pit(k))
            }
            _ => Err(MoveParseError(s.to_string())),
        }
    }
}

/// Most moves a position can have: every pit, or a pass.
pub const MAX_MOVES: usize = MAX_N;

/// Legal moves with the positions they lead to, in increasing pit order,
/// `pass` last.
pub type MoveList = ArrayVec<(Move, Position), MAX_MOVES>;

/// Final scores of a finished game: captured seeds plus the end-of-game
/// allocation of the seeds left on the board.
pub type Score = ByPlayer<u8>;

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The position is terminal.
    #[error("move {mv} is illegal: the game is over (final score {south}-{north})")]
    GameOver {
        /// The move asked for.
        mv: Move,
        /// South's final score.
        south: u8,
        /// North's final score.
        north: u8,
    },
    /// A pit number beyond the row.
    #[error("move {mv} is illegal: the row has pits 1..{n}")]
    NoSuchPit {
        /// The move asked for.
        mv: Move,
        /// Pits per row.
        n: usize,
    },
    /// The chosen pit holds nothing.
    #[error("move {0} is illegal: that pit is empty")]
    EmptyPit(Move),
    /// Sowing from the pit would never end.
    #[error("move {0} is illegal: its relay sowing would go on forever")]
    SowsForever(Move),
    /// A pass when the rules do not make the mover pass.
    #[error("move pass is illegal: {side} has seeds to sow (a pass is only forced when the mover's row is empty)")]
    PassWithSeeds {
        /// The player to move.
        side: Side,
    },
    /// A pit move when the mover must pass.
    #[error("move {0} is illegal: the mover's row is empty and the only move is pass")]
    MustPass(Move),
    /// A pit move refused by a game rule (no starving, feeding).
    #[error("move {mv} is illegal: {reason}")]
    Refused {
        /// The move asked for.
        mv: Move,
        /// The rule that refuses it.
        reason: &'static str,
    },
}

/// The rules of one game.
///
/// Implementors are zero-sized types; every function is a pure function of
/// the position. Positions handed to these functions must have been reached
/// under the same game (any valid [`Position`] is accepted: positions for
/// analysis need not come from a real game).
///
/// **What every game must guarantee** (the solver and the databases rely
/// on these; `tests/it/properties.rs` checks each for every registered game):
///
/// 1. *Play ignores captured seeds:* the moves of a position, and the
///    boards they lead to, depend only on its board and the side to move,
///    never on the seeds already captured (so values can be stored per
///    board as future gains, `crate::packed::PackedBoard`).
/// 2. *Captures only grow:* what a move takes off the board goes to the
///    captures (the seeds on the board plus the captured seeds are
///    conserved) and never goes back. Whether the mover moves again or not,
///    a move is worth its *net* capture for the mover
///    ([`gain::move_gain`]): the rules may credit either side (Anywoli gives
///    a four made in passing to the pit's owner, even during an extra
///    move), so nothing assumes that an extra move credits only the mover.
/// 3. *The rules are symmetric:* the position with the rows (and captures)
///    swapped and the other side to move has the same moves, leading to the
///    swapped children (so a database stores only South to move, and the
///    search keys a position and its mirror image alike,
///    [`crate::packed::PackedBoard::seen_by_mover`]).
/// 4. *A cycle never captures:* a move that captures or stores a seed
///    lowers the seeds on the board, so positions can repeat only among
///    boards of one seed count (what the search's and the databases'
///    treatment of endless play assumes).
pub trait Rules: Copy + Default + Send + Sync + 'static {
    /// The lower-case name used on the command line and in database files
    /// (at most 16 ASCII bytes).
    const NAME: &'static str;

    /// The traditional board: pits per row and seeds per pit.
    const DEFAULT_SIZE: (usize, usize);

    /// Whether captured seeds are kept in stores (drawn beside the rows).
    const HAS_STORES: bool = false;

    /// Whether seeds are sown into the stores.
    const SOWS_INTO_STORES: bool = false;

    /// Why [`Rules::generate`] may leave out a non-empty pit whose sowing
    /// ends: the game's no-starving or feeding rule, in words.
    const REFUSAL: &'static str;

    /// Whether a position can repeat. False only where a potential argument
    /// rules repetition out (Kalah: without a capture or a seed in a store,
    /// every move pushes the mover's seeds towards his store); a search may
    /// then skip repetition checks.
    const CYCLIC: bool = true;

    /// Bounds `(lower, upper)` on the future gain of `pos` for the side to
    /// move: every play from `pos` (endless play included) ends with a
    /// future gain within them. The default, `-board..=board`, holds in
    /// every game; a game may know better (Kalah: a mover with seeds always
    /// has a move that takes at least one seed at once).
    #[inline]
    fn gain_bounds(pos: &Position) -> (i32, i32) {
        let b = pos.board_seeds() as i32;
        (-b, b)
    }

    /// Sows pit `pit` (0-based, `0..n`) of the side to move in place,
    /// applying every capture of the move and choosing who moves next.
    /// Returns `false` when the sowing would go on forever (and leaves `p`
    /// unspecified). The pit must be non-empty. Does not check the game's
    /// legality filters (no starving, feeding).
    ///
    /// In place, because a move generator that copies the position and
    /// then sows the copy byte by byte pays a store-forwarding stall when
    /// the copy is read back as a whole.
    fn sow(p: &mut Position, pit: usize) -> bool;

    /// The position after sowing `pit` of the side to move, or `None` when
    /// the sowing would go on forever (see [`Rules::sow`]).
    #[inline]
    fn sown(pos: &Position, pit: usize) -> Option<Position> {
        let mut p = *pos;
        Self::sow(&mut p, pit).then_some(p)
    }

    /// The legal moves of `pos` with the positions they lead to, written to
    /// `moves` (cleared first), in increasing pit order with `pass` last;
    /// or, when the position is terminal, the final scores (and `moves` is
    /// left empty).
    ///
    /// Contract: returns `None` exactly when `moves` is non-empty.
    fn generate(pos: &Position, moves: &mut MoveList) -> Option<Score>;

    /// The final scores when `pos` is terminal, else `None`: the same as
    /// what [`Rules::generate`] returns, but games that know whether the
    /// mover can move without sowing (Kalah: both rows hold seeds; Dakon:
    /// every sowing ends) answer without making the moves. The first
    /// guess asks it at each of its leaves (`search::estimate`).
    #[inline]
    fn outcome(pos: &Position) -> Option<Score> {
        Self::generate(pos, &mut MoveList::new())
    }

    /// The fewest seeds a move that takes seeds off the board takes (one
    /// by default: a seed sown into a store, or a capture of one). A
    /// database build of level `k` then reads no level above
    /// `k - LEAST_TAKEN`, so only those count in its memory.
    /// `tests/it/unmoves.rs` checks it on every board of many levels.
    const LEAST_TAKEN: usize = 1;

    /// Seeds leave the board by multiples of this many (one by default),
    /// or all at once: a move from a board of `k` seeds leads to a board of
    /// `k - j * TAKEN_BY` seeds for some `j >= 0`, or to the empty board.
    /// So a search from a board of `top` seeds meets no other level
    /// (`db::extend::reachable_levels`). `tests/it/unmoves.rs` checks it on
    /// every board of many levels, and that no larger number holds.
    const TAKEN_BY: usize = 1;

    /// Whether [`Rules::quiet_parents`] is implemented (the games with
    /// single-lap sowing); a database build can then propagate values back
    /// through it instead of sweeping (`crate::db`), which it does by
    /// default when the game is also [`Rules::CYCLIC`].
    const HAS_UNMOVES: bool = false;

    /// The unmove generator: calls `parent(mv, p)` once for every position
    /// `p` and legal move `mv` of `p` that is **quiet** and leads to `pos`.
    /// A quiet move takes no seed off the board (nothing captured or
    /// stored) and passes the turn; every parent has the captures of `pos`.
    /// A parent with two quiet moves to `pos` is called twice.
    ///
    /// Only where [`Rules::HAS_UNMOVES`] (the default calls nothing). The
    /// contract, checked on every board of many levels by
    /// `tests/it/unmoves.rs`: `p` is reported with `mv` exactly when
    /// [`Rules::generate`] of `p` lists `mv` leading to `pos`, with the
    /// board seeds unchanged; and every move that leaves the board seeds
    /// unchanged passes the turn.
    #[inline]
    fn quiet_parents(pos: &Position, parent: impl FnMut(Move, &Position)) {
        let _ = (pos, parent);
    }

    /// The number of legal moves of `pos`, or `None` when it is terminal:
    /// the same as `generate(pos).len()`, but games whose legal moves are
    /// known without sowing them (Kalah; Awari and Akon when no move can
    /// starve the opponent) count them without making them.
    #[inline]
    fn count_moves(pos: &Position) -> Option<usize> {
        let mut moves = MoveList::new();
        match Self::generate(pos, &mut moves) {
            Some(_) => None,
            None => Some(moves.len()),
        }
    }
}

/// Number of non-empty pits of the side to move.
#[inline]
pub(crate) fn nonempty_pits(pos: &Position) -> usize {
    pos.row(pos.to_move).iter().filter(|&&c| c != 0).count()
}

/// Pushes every non-empty pit of the mover whose sowing ends.
#[inline]
pub(crate) fn push_sowings<R: Rules>(pos: &Position, moves: &mut MoveList) {
    let n = pos.n();
    let base = pos.to_move.base(n);
    for k in 0..n {
        if pos.pits[base + k] != 0 {
            // Sow straight into the list's next slot.
            moves.push((Move::Pit(k as u8 + 1), *pos));
            let last = moves.len() - 1;
            if !R::sow(&mut moves[last].1, k) {
                moves.pop();
            }
        }
    }
}

/// Keeps only the moves after which the opponent of the mover has seeds,
/// unless none does (Awari's and Akon's no-starving rule).
///
/// `safe` is a count such that an opponent's pit holding at least `safe`
/// seeds before the move cannot be emptied by it (the caller proves this
/// for its game); then no move starves and the children need not be read.
#[inline]
pub(crate) fn no_starving(pos: &Position, moves: &mut MoveList, safe: u8) {
    let opp = pos.to_move.other();
    if pos.row(opp).iter().any(|&c| c >= safe) {
        return;
    }
    if moves.iter().any(|(_, c)| c.row_is_empty(opp))
        && moves.iter().any(|(_, c)| !c.row_is_empty(opp))
    {
        moves.retain(|(_, c)| !c.row_is_empty(opp));
    }
}

/// `count_moves` of Awari and Akon: the player to move with an empty row
/// has no move; with an opponent's pit holding `safe` seeds or more (see
/// [`no_starving`]) every non-empty pit is legal; else the moves are made.
#[inline]
pub(crate) fn count_unless_starving<R: Rules>(pos: &Position, safe: u8) -> Option<usize> {
    let me = pos.to_move;
    if pos.row_is_empty(me) {
        return None;
    }
    if pos.row(me.other()).iter().any(|&c| c >= safe) {
        return Some(nonempty_pits(pos));
    }
    let mut moves = MoveList::new();
    R::generate(pos, &mut moves);
    Some(moves.len())
}

/// The final score when the seeds on the board go to `taker`.
#[inline]
pub(crate) fn board_to(pos: &Position, taker: Side) -> Score {
    let mut s = captured(pos);
    s[taker] += pos.board_seeds() as u8;
    s
}

/// The captured seeds as a score (the board going to nobody).
#[inline]
pub(crate) fn captured(pos: &Position) -> Score {
    ByPlayer::new(pos.captured[0], pos.captured[1])
}

/// The checked way to play: the position after `mv`, or why it is illegal.
pub fn play<R: Rules>(pos: &Position, mv: Move) -> Result<Position, MoveError> {
    let mut moves = MoveList::new();
    if let Some(score) = R::generate(pos, &mut moves) {
        return Err(MoveError::GameOver {
            mv,
            south: score.south,
            north: score.north,
        });
    }
    if let Some((_, child)) = moves.iter().find(|(m, _)| *m == mv) {
        return Ok(*child);
    }
    let must_pass = moves.iter().any(|(m, _)| *m == Move::Pass);
    Err(match mv {
        Move::Pass => MoveError::PassWithSeeds { side: pos.to_move },
        Move::Pit(k) if usize::from(k) > pos.n() => MoveError::NoSuchPit { mv, n: pos.n() },
        _ if must_pass => MoveError::MustPass(mv),
        Move::Pit(k) => {
            let pit = usize::from(k) - 1;
            if pos.pits[pos.to_move.base(pos.n()) + pit] == 0 {
                MoveError::EmptyPit(mv)
            } else if R::sown(pos, pit).is_none() {
                MoveError::SowsForever(mv)
            } else {
                MoveError::Refused {
                    mv,
                    reason: R::REFUSAL,
                }
            }
        }
    })
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
