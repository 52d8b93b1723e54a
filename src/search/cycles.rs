//! Null-window tests through positions that can repeat: each test is a
//! reachability game, solved by a depth-first search that closes strongly
//! connected components (Tarjan) and settles them by a least fixed point.
//!
//! **The test as a reachability game.** A null-window test asks whether the
//! future gain `g` of the side to move is at least `beta`. Along a move
//! that captures nothing the threshold moves with the turn (`beta` for an
//! extra move, `1 - beta` for the opponent), so within positions that can
//! repeat (every move between them captures nothing: a capture lowers the
//! seeds on the board, which never grow again) one side, the *attacker*,
//! needs a positive gain throughout: the side to move if `beta >= 1`, its
//! opponent if `beta <= 0` (then the side to move already succeeds with a
//! gain of 0). Endless play gains 0 more, so it fails the attacker: the test
//! is the question whether the attacker can force play out of the cycle into
//! a position that succeeds for it. The answer is a property of the position
//! and the threshold alone, whatever the path that led there, so every
//! result the search stores is a true bound of the position.
//!
//! **The search.** Every interior node of a test is numbered when the
//! search enters it and stays *open* (in `Cycles`) while its result may
//! still depend on a node above it. A child that is open is not searched
//! again: the search returns [`PENDING`] and records the edge. As in
//! Tarjan's algorithm each node keeps its *low*: the least number of an open
//! node reachable from its subtree by such edges. A node whose children all
//! returned results (or one of whose children already decides it: a
//! success of the side to move cuts) is *decided*: its value is a true
//! bound, stored at once. A node with pending children and no deciding one
//! is *unsettled*. When a node's low is its own number, no node below it is
//! reachable from the open nodes above it: those nodes (its component,
//! closed under the pending edges) are settled together by the least fixed
//! point of the attacker's attractor:
//!
//! - a decided node is won by the attacker or not, as decided;
//! - an unsettled node where the attacker moves had only losing settled
//!   moves (a winning one would have decided it): it is won exactly when
//!   some pending child is won;
//! - an unsettled node where the defender moves had only moves won by the
//!   attacker among its settled ones: it is won exactly when every pending
//!   child is won.
//!
//! **Why the least fixed point is the true answer.** The component's nodes
//! with the settled results of their other moves form a game of their own
//! whose exits carry true values. The attacker wins a node of the full game
//! exactly when it can force reaching, in finitely many moves, a position
//! that succeeds for it; inside the component that is the attractor of the
//! decided wins and the exits, which is the least fixed point above (each
//! node enters it at the step equal to the length of the attacker's
//! forced route; a node outside it lets the defender keep play inside the
//! component, or leave it through a move that fails the attacker, for
//! ever: endless play fails the attacker). The set of nodes may be larger
//! than a strongly connected component (a node revisited after its entry
//! was lost from the table is simply searched again), and the argument holds
//! for any set closed under its pending edges.
//!
//! The settled results are stored as the bounds they are: `g >= beta` for a
//! success of the side to move, `g <= beta - 1` for a failure. Nothing
//! depends on the path, so a small table can drop any entry without
//! changing a value (the tests run the exhaustive comparison with a 1 MiB
//! table too).
//!
//! **Horizons.** On large boards a path without a capture can be millions
//! of plies long: the search follows the first move of each node, and a
//! capture the attacker could force in a few moves may lie behind a first
//! move that wanders through millions of positions before it meets an
//! open one (issue 20's Awari position with 26 seeds, databases to 20,
//! went 4 million plies deep and failed after 85 s). So a test first
//! searches to a *horizon*: a node that many plies below the root of the
//! test is not searched but given a result that fails one side, `P` (its
//! result is `beta - 1` where `P` moves, `beta` where the other side
//! moves). A result that leaned on a horizon is *tainted*: a node's result
//! is when the move it cut with was, or, when it failed low, when any move
//! it searched was; a component's results are when any member's was.
//!
//! A result *favours* `P` when it is a success where `P` moves or a
//! failure where the other side moves. Such a result rests only on results
//! that favour `P`: a success rests on the one move that cut, which
//! favours `P` where `P` moves on (an extra move) and fails the opponent
//! otherwise; a failure where the opponent moves rests on each of its
//! moves, all of which favour `P` in the same way. In a component where
//! `P` is the attacker, a node is won only through decided wins and
//! settled moves won by the attacker (all favouring `P`) along the
//! component's real moves, so what it settles as won is won; where `P`
//! defends, a node is left unwon only when the defender can stay among such
//! nodes or leave by moves that fail the attacker (favouring `P`), and the
//! attacker cannot leave them but by such moves, so that is a true trap.
//! A horizon never favours `P`. By induction on the search, every result
//! that favours `P` is true, tainted or not, and is stored as a bound
//! (with the magnitudes of the results it rests on). A tainted result that
//! does not favour `P` may be an artefact of the horizon: it never enters
//! the table. The searcher keeps it as a *draft* for the rest of the
//! search with the same horizon (in a cache that may drop it, since a
//! draft dropped is only searched again: `search/drafts.rs`), and returns
//! it when the same position is met again with no more plies left to the
//! horizon: a draft too never favours `P` wrongly (it is one), so the
//! induction holds with drafts. An untainted result is true whatever it
//! favours.
//!
//! So the test at the root, with `P` one side, is answered when its result
//! favours `P` or is untainted; otherwise the test with `P` the other
//! side, when its result favours that side or is untainted; otherwise
//! both again with a farther horizon (`Solver::test`). Which side comes
//! first changes only the cost (the side MTD(f) expects to win the test
//! does). Once the horizon lies beyond every path the search takes,
//! nothing is tainted, and the rounds end. Components leave no drafts
//! (their tainted results that do not favour `P` are dropped).
//!
//! **Memory.** Open nodes cost about 150 bytes each (their key, map entry
//! and edges) and are freed as their component closes; the number open at
//! once is capped by [`super::Options::region_limit`].

use super::tt::Stored;
use crate::packed::PackedBoard;
use crate::position::Position;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Whether a result of the side `mover` (`Side as u8`) that succeeds or
/// not favours `fails`, the side a horizon fails (module docs,
/// "Horizons"): such a result is a true bound even if it leaned on the
/// horizon.
#[inline]
pub(crate) fn favours(mover: u8, succeeds: bool, fails: u8) -> bool {
    (mover == fails) == succeeds
}

/// What a search returns for a node that is open, or whose result waits on
/// an open node ([`crate::search::negamax`] passes it up unchanged).
pub const PENDING: i32 = i32::MIN;

/// The low of a node that reaches no open node.
pub(crate) const NO_LOW: u32 = u32::MAX;

/// An open position: its pits as words, and the side to move.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key([u64; 4], u8);

impl Key {
    fn of(pos: &Position) -> Key {
        let mut w = [0u64; 4];
        for (i, chunk) in pos.pits.chunks_exact(8).enumerate() {
            w[i] = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        }
        Key(w, pos.to_move as u8)
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // One word for the hasher: the pits and the side, mixed.
        let mut h = u64::from(self.1);
        for w in self.0 {
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        state.write_u64(h);
    }
}

/// A hasher for keys that already mixed themselves into one word.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u64(&mut self, w: u64) {
        self.0 = w;
    }
}

/// An open node.
struct Member {
    key: Key,
    /// The table key of the position (`None`: too large for a key).
    table_key: Option<PackedBoard>,
    /// The test's threshold at this node: does the side to move reach it?
    beta: i32,
    /// The seed bounds of the gain, for the bound that is not proven.
    floor: i16,
    ceiling: i16,
    /// The side to move is the attacker (`beta >= 1`).
    attacker_moves: bool,
    /// The fail-soft result once decided.
    decided: Option<i32>,
    /// Unsettled: the best fail-soft result of its settled moves, for the
    /// side to move (`i32::MIN`: none).
    partial: i32,
    /// Edges recorded before this node was entered.
    edge_mark: u32,
    /// Its result so far leaned on a horizon of a depth-limited search
    /// (module docs, "Horizons").
    tainted: bool,
}

/// What [`Cycles::enter`] found.
pub(crate) enum Entered {
    /// A new open node with this number.
    New(u32),
    /// The position is open with this number, not yet decided.
    Open(u32),
    /// The position is open and decided: this result, and whether it
    /// leaned on a horizon.
    Decided(i32, bool),
    /// No room for another open node.
    Full,
}

/// The open nodes of one searcher, numbered by their place on the stack
/// (see the module docs).
pub(crate) struct Cycles {
    open: HashMap<Key, u32, BuildHasherDefault<WordHasher>>,
    members: Vec<Member>,
    /// Pending edges `(from, to)` of the open nodes, in the order found.
    edges: Vec<(u32, u32)>,
    limit: usize,
}

impl Cycles {
    /// No open node; at most `limit` at once.
    pub(crate) fn new(limit: usize) -> Cycles {
        Cycles {
            open: HashMap::default(),
            members: Vec::new(),
            edges: Vec::new(),
            limit,
        }
    }

    /// Opens `pos` for the test `g >= beta`, unless it is open already.
    pub(crate) fn enter(
        &mut self,
        pos: &Position,
        table_key: Option<PackedBoard>,
        beta: i32,
        (floor, ceiling): (i32, i32),
    ) -> Entered {
        let key = Key::of(pos);
        let next = self.members.len() as u32;
        match self.open.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => {
                let m = &self.members[*e.get() as usize];
                // Only moves that capture nothing lead back to an open node,
                // and they keep the threshold (module docs).
                debug_assert_eq!(m.beta, beta);
                match m.decided {
                    Some(v) => Entered::Decided(v, m.tainted),
                    None => Entered::Open(*e.get()),
                }
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                if self.members.len() >= self.limit {
                    return Entered::Full;
                }
                e.insert(next);
                self.members.push(Member {
                    key,
                    table_key,
                    beta,
                    floor: floor as i16,
                    ceiling: ceiling as i16,
                    attacker_moves: beta >= 1,
                    decided: None,
                    partial: i32::MIN,
                    edge_mark: self.edges.len() as u32,
                    tainted: false,
                });
                Entered::New(next)
            }
        }
    }

    /// Records that node `from` waits on the open node `to`.
    #[inline]
    pub(crate) fn edge(&mut self, from: u32, to: u32) {
        self.edges.push((from, to));
    }

    /// Node `at` searched its moves and waits on open nodes; `partial` is
    /// the best fail-soft result of the others (`i32::MIN`: none), which
    /// leaned on a horizon if `tainted`.
    pub(crate) fn unsettled(&mut self, at: u32, partial: i32, tainted: bool) {
        let m = &mut self.members[at as usize];
        m.partial = partial;
        m.tainted = tainted;
    }

    /// Forgets node `at`, the last opened, which recorded no edge and
    /// that no node waits on (it was decided before it searched a move).
    pub(crate) fn forget_last(&mut self, at: u32) {
        debug_assert_eq!(at as usize + 1, self.members.len());
        let m = self.members.pop().expect("an open node");
        debug_assert_eq!(m.edge_mark as usize, self.edges.len());
        self.open.remove(&m.key);
    }

    /// Node `at` is decided with the fail-soft result `v` (which leaned on
    /// a horizon if `tainted`) but stays open: nodes above it may wait on
    /// it.
    pub(crate) fn decide(&mut self, at: u32, v: i32, tainted: bool) {
        let m = &mut self.members[at as usize];
        m.decided = Some(v);
        m.tainted = tainted;
    }

    /// Closes the component of node `root` (whose low is its own number):
    /// settles every unsettled node from `root` up by the least fixed point
    /// of the module docs, hands their bounds to `store`, forgets them, and
    /// returns the result of `root` and whether it leaned on a horizon.
    ///
    /// `fails`: in a depth-limited search, the side (as
    /// `Position::to_move as u8`) that its horizons fail. A component any
    /// of whose members leaned on a horizon stores only the bounds that
    /// favour that side (module docs, "Horizons").
    pub(crate) fn close(
        &mut self,
        root: u32,
        fails: Option<u8>,
        mut store: impl FnMut(PackedBoard, Stored),
    ) -> (i32, bool) {
        let r = root as usize;
        let n = self.members.len() - r;
        let mark = self.members[r].edge_mark as usize;
        let edges = &self.edges[mark..];
        let members = &self.members[r..];
        let mut result = members[0].decided;
        let tainted = members.iter().any(|m| m.tainted);
        if members.iter().any(|m| m.decided.is_none()) {
            let won = attractor(members, edges, root);
            let (lower, upper) = attacker_bounds(members, &won);
            let work = (64 - (n as u64).leading_zeros()).min(63) as u8;
            for (i, (m, &w)) in members.iter().zip(&won).enumerate() {
                if m.decided.is_some() {
                    continue;
                }
                // The attacker's bound, seen by the side to move.
                let a = if w { lower } else { upper };
                let v = if m.attacker_moves { a } else { -a };
                let succeeds = w == m.attacker_moves;
                debug_assert_eq!(v >= m.beta, succeeds);
                let true_bound = !tainted || fails.is_some_and(|p| favours(m.key.1, succeeds, p));
                if let (Some(k), true) = (m.table_key, true_bound) {
                    let (lower, upper) = if succeeds {
                        (v as i16, m.ceiling)
                    } else {
                        (m.floor, v as i16)
                    };
                    store(
                        k,
                        Stored {
                            lower,
                            upper,
                            best: super::tt::NO_MOVE,
                            work,
                        },
                    );
                }
                if i == 0 {
                    result = Some(v);
                }
            }
        }
        for m in &self.members[r..] {
            self.open.remove(&m.key);
        }
        self.members.truncate(r);
        self.edges.truncate(mark);
        (result.expect("the root is settled"), tainted)
    }
}

/// Bounds on the attacker's gain (its own view) that hold at every
/// settled node of a closed component: at least `.0` where it wins (`won`),
/// at most `.1` where it does not.
///
/// Where the attacker wins, the attractor forces play, in finitely many
/// moves, out through a decided win or a settled move of a defender's node
/// (the only moves by which a win enters the attractor): the least of those
/// bounds holds everywhere in it. Where it does not win, the defender keeps
/// play among such nodes for ever (gain 0) or lets the attacker out only
/// through a settled move of an attacker's node or a decided loss: the
/// largest of 0 and those bounds holds everywhere there (it is a bound that
/// no move of the attacker can raise and some move of the defender keeps).
fn attacker_bounds(members: &[Member], won: &[bool]) -> (i32, i32) {
    let threshold = |m: &Member| if m.attacker_moves { m.beta } else { 1 - m.beta };
    let (mut lower, mut upper) = (i32::MAX, 0);
    for (m, &w) in members.iter().zip(won) {
        // The attacker's view of a result of the side to move.
        let view = |v: i32| if m.attacker_moves { v } else { -v };
        match m.decided {
            Some(v) if w => lower = lower.min(view(v)),
            Some(v) => upper = upper.max(view(v)),
            None if m.partial == i32::MIN => {}
            None if w && !m.attacker_moves => lower = lower.min(view(m.partial)),
            None if !w && m.attacker_moves => upper = upper.max(view(m.partial)),
            None => {}
        }
    }
    let t = threshold(&members[0]);
    debug_assert!(members.iter().all(|m| threshold(m) == t));
    debug_assert!(upper < t && (lower >= t || !won.contains(&true)));
    (lower, upper)
}

/// The attacker's attractor among `members` (numbered from `base`): which
/// of them the attacker wins, by the counter-based least fixed point.
fn attractor(members: &[Member], edges: &[(u32, u32)], base: u32) -> Vec<bool> {
    let n = members.len();
    // Reverse edges in compressed rows: the nodes that wait on each node.
    let mut start = vec![0u32; n + 1];
    for &(_, to) in edges {
        debug_assert!(to >= base, "an edge leaves its component");
        start[(to - base) as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut waiting = vec![0u32; edges.len()];
    let mut out = vec![0u32; n];
    for &(from, to) in edges {
        let t = (to - base) as usize;
        waiting[fill[t] as usize] = from - base;
        fill[t] += 1;
        out[(from - base) as usize] += 1;
    }
    let mut won = vec![false; n];
    let mut queue = Vec::new();
    for (i, m) in members.iter().enumerate() {
        if let Some(v) = m.decided {
            // The side to move succeeds exactly when the attacker moves and
            // wins, or the defender moves and the attacker loses.
            if (v >= m.beta) == m.attacker_moves {
                won[i] = true;
                queue.push(i);
            }
        }
    }
    while let Some(j) = queue.pop() {
        for &i in &waiting[start[j] as usize..start[j + 1] as usize] {
            let i = i as usize;
            if won[i] || members[i].decided.is_some() {
                continue;
            }
            let win = if members[i].attacker_moves {
                true
            } else {
                out[i] -= 1;
                out[i] == 0
            };
            if win {
                won[i] = true;
                queue.push(i);
            }
        }
    }
    won
}
