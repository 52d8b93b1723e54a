#![allow(dead_code)]
//! A deliberately simple, exhaustive **retrograde solver**: the independent
//! oracle for the game value of `shared/spec/rules.md` ("Game value").
//!
//! It was written from the rules alone, without looking at the engine, and it
//! uses the plain rules module (`tests/it/plain`) for every move, so that neither
//! the engine's move generator nor its search can leak into the values it
//! produces. It is slow and memory-hungry on purpose (every position is a
//! [`PlainPos`] in a hash map); use it on tiny boards only.
//!
//! # The value it computes
//!
//! The value of a position is the final score difference, side to move's
//! captured total minus the opponent's, under perfect play by both sides,
//! seeds already captured included; **endless play captures nothing more**
//! (the seeds still on the board go to nobody).
//!
//! # Method
//!
//! 1. **Graph.** Breadth-first search over [`crate::plain::children`] from
//!    the start gives every reachable position (captured counts included),
//!    its moves, and for terminal positions the final scores of
//!    [`crate::plain::terminal`] (end-of-game allocation included).
//!
//! 2. **Future net gain.** For each position `x` let `sv(x)` be South's
//!    *future* net gain: what South will still capture minus what North will
//!    still capture, under perfect play. Working from South's fixed point of
//!    view (not the mover's) keeps the signs trivial: an extra move, a pass or
//!    an ordinary move change only who chooses, never the sign. The value the
//!    API returns is then, from South's view, `cap[S] - cap[N] + sv(x)`, and
//!    from the side to move's view that number negated when North is to move.
//!    - The gain of a move `x -> c` to South is
//!      `(c.cap[S] - x.cap[S]) - (c.cap[N] - x.cap[N])`: both stores may
//!      change in one move (Anywoli's mid-sow fours go to the pit's owner).
//!    - A terminal position has `sv = (final[S] - cap[S]) - (final[N] -
//!      cap[N])` with the final scores of `terminal`.
//!
//! 3. **Levels.** Seeds are only ever moved between pits or into stores, and
//!    stores never lose seeds, so `board seeds + cap[S] + cap[N]` is the same
//!    in every position of a game (only a terminal allocation gives seeds to
//!    nobody, and it happens in the final scores, not in a position). Hence a
//!    move either lowers the number of seeds on the board (a capture) or
//!    leaves both stores unchanged (gain 0). Group the positions by their board
//!    seed count (their *level*): every move goes to the same level with gain
//!    0 or to a lower level, so every cycle of positions lies inside one level
//!    and captures nothing (both facts are asserted while solving). The levels
//!    are solved from the lowest up; when a level is solved, every move out of
//!    it (an *exit*) leads to a position whose `sv` is known, so an exit is
//!    simply a number: gain of the move + `sv` of the position it reaches.
//!
//! 4. **One level: the threshold (attractor) method.** Inside a level the
//!    game is: moves between the level's positions (worth 0), exits and
//!    terminal positions (worth known numbers), and endless play inside the
//!    level (worth 0, "endless play captures nothing more"). Because endless
//!    play is worth 0, `sv` is *not* just any fixed point of the minimax
//!    equations (on a cycle those have many solutions); instead, for each
//!    threshold `t >= 1`:
//!    - `W_t` = the positions from which South can force reaching a terminal
//!      position or exit worth `>= t`. Since endless play gives `0 < t`, it
//!      never helps South here, so `W_t` is the *least* fixed point of: `x` is
//!      in `W_t` if `x` is terminal worth `>= t`; or South is to move and SOME
//!      move is an exit worth `>= t` or leads to a position in `W_t`; or North
//!      is to move and EVERY move does. It is computed by the usual backward
//!      induction with counters (the attractor): start from the positions that
//!      qualify by their exits and terminal worth alone, then walk the moves
//!      backwards, adding a South-to-move predecessor at once and a
//!      North-to-move predecessor when its last move into the level has been
//!      shown to reach `W_t` (and all its exits are worth `>= t`).
//!    - `L_t` symmetrically (North forces a terminal or exit worth `<= -t`).
//!
//!    Then `sv(x)` is the largest `t` with `x` in `W_t`; else minus the largest
//!    `t` with `x` in `L_t`; else 0. Why this is the value: if `x` is in
//!    `W_t`, South's attractor strategy (always move to a position added
//!    earlier) reaches such an exit or terminal in finitely many moves, so
//!    South gets `>= t`. If `x` is not in `W_t`, North can always stay out of
//!    `W_t` (a North-to-move position outside it has a move that stays
//!    outside or an exit worth `< t`; a South-to-move one has only such
//!    moves), so the play either goes on forever inside the level (worth 0)
//!    or leaves it by something worth `< t`. Hence if `x` is in no `W_t` and
//!    no `L_t`, both sides can hold the other to 0; and the worth of an exit
//!    is itself the value of a lower-level game, so strategies combine level
//!    by level. Only thresholds equal to an exit's or terminal's worth are
//!    tried: `W_t` is the same for every `t` between two such numbers.
//!
//! Nothing here relies on future play depending only on the board and the
//! side to move (it does: no rule looks at the stores, so positions with
//! equal boards and sides get equal `sv`), because the graph keeps the
//! captured counts in each position; the only facts used are the two asserted
//! ones of step 3.
//!
//! This is NOT plain minimax with a depth limit, nor "a repetition on the
//! path scores 0": the values of non-root positions never depend on the path
//! that reached them. (At a root, with no history, the over-the-board rule "a
//! repeated position ends the game, nothing more captured" gives the same
//! value: an attractor strategy never repeats a position, and the strategy
//! that stays out of `W_t` makes a repetition worth 0 more. Inside a search
//! tree the two can differ, because there the path is history.)

use crate::plain::{children, terminal, PlainPos};
use std::collections::{HashMap, VecDeque};

/// The reachable graph of a game from one position.
struct Graph {
    /// Every reachable position, the start first, in breadth-first order.
    nodes: Vec<PlainPos>,
    /// For each position, its moves as (index of the position it leaves,
    /// gain of the move to South = change of `cap[S]` - change of `cap[N]`).
    /// Empty for terminal positions.
    edges: Vec<Vec<(usize, i32)>>,
    /// For terminal positions: South's future net gain given by the final
    /// scores, `(final[S] - cap[S]) - (final[N] - cap[N])`.
    end_gain: Vec<Option<i32>>,
}

fn board_seeds(p: &PlainPos) -> u32 {
    p.pits.iter().sum()
}

/// South's view of a position's captured difference.
fn cap_diff(p: &PlainPos) -> i32 {
    p.captured[0] as i32 - p.captured[1] as i32
}

/// Gain to South of the move `from -> to`.
fn move_gain(from: &PlainPos, to: &PlainPos) -> i32 {
    assert!(
        to.captured[0] >= from.captured[0] && to.captured[1] >= from.captured[1],
        "a store lost seeds in a move"
    );
    cap_diff(to) - cap_diff(from)
}

/// Breadth-first enumeration of the positions reachable from `start`; `None`
/// if there are more than `limit` of them.
fn build_graph(name: &str, start: &PlainPos, limit: usize) -> Option<Graph> {
    let mut index: HashMap<PlainPos, usize> = HashMap::new();
    let mut nodes: Vec<PlainPos> = vec![start.clone()];
    index.insert(start.clone(), 0);
    let mut edges: Vec<Vec<(usize, i32)>> = Vec::new();
    let mut end_gain: Vec<Option<i32>> = Vec::new();
    let mut next = 0;
    while next < nodes.len() {
        let x = nodes[next].clone();
        next += 1;
        if let Some(fin) = terminal(name, &x) {
            assert!(
                fin[0] >= x.captured[0] && fin[1] >= x.captured[1],
                "final scores below the captured counts"
            );
            let gain = (fin[0] - x.captured[0]) as i32 - (fin[1] - x.captured[1]) as i32;
            edges.push(Vec::new());
            end_gain.push(Some(gain));
            continue;
        }
        let moves = children(name, &x);
        assert!(!moves.is_empty(), "a non-terminal position without moves");
        let mut out = Vec::with_capacity(moves.len());
        for (_, c) in moves {
            let gain = move_gain(&x, &c);
            let id = match index.get(&c) {
                Some(&id) => id,
                None => {
                    if nodes.len() >= limit {
                        return None;
                    }
                    nodes.push(c.clone());
                    index.insert(c, nodes.len() - 1);
                    nodes.len() - 1
                }
            };
            out.push((id, gain));
        }
        edges.push(out);
        end_gain.push(None);
    }
    Some(Graph {
        nodes,
        edges,
        end_gain,
    })
}

/// The number of positions reachable from `start` (itself included), or
/// `None` if it is more than `limit`.
pub fn count_reachable(name: &str, start: &PlainPos, limit: usize) -> Option<usize> {
    build_graph(name, start, limit).map(|g| g.nodes.len())
}

/// Game value (rules.md "Game value", side to move's view, captured seeds
/// included) of every position reachable from `start` under game `name`
/// ("kalah", "dakon:3x2", ...).
pub fn solve_reachable(name: &str, start: &PlainPos) -> HashMap<PlainPos, i32> {
    solve_reachable_limited(name, start, usize::MAX).expect("no limit")
}

/// [`solve_reachable`], or `None` if more than `limit` positions are
/// reachable from `start`.
pub fn solve_reachable_limited(
    name: &str,
    start: &PlainPos,
    limit: usize,
) -> Option<HashMap<PlainPos, i32>> {
    let graph = build_graph(name, start, limit)?;
    let sv = south_future_gains(&graph);
    let mut values = HashMap::with_capacity(graph.nodes.len());
    for (x, p) in graph.nodes.into_iter().enumerate() {
        let south_view = cap_diff(&p) + sv[x];
        let value = if p.south_to_move {
            south_view
        } else {
            -south_view
        };
        values.insert(p, value);
    }
    Some(values)
}

/// South's future net gain `sv` of every position of the graph, level by
/// level from the lowest board seed count up.
fn south_future_gains(graph: &Graph) -> Vec<i32> {
    let levels_count = graph.nodes.iter().map(board_seeds).max().unwrap_or(0) as usize + 1;
    let mut levels: Vec<Vec<usize>> = vec![Vec::new(); levels_count];
    for (x, p) in graph.nodes.iter().enumerate() {
        levels[board_seeds(p) as usize].push(x);
    }
    let mut sv: Vec<Option<i32>> = vec![None; graph.nodes.len()];
    for level in &levels {
        solve_level(graph, level, &mut sv);
    }
    sv.into_iter()
        .map(|v| v.expect("every position solved"))
        .collect()
}

/// One position of a level, as the attractor sees it.
struct LevelNode {
    south_to_move: bool,
    /// Terminal: its worth (South's future net gain).
    end: Option<i32>,
    /// Worth of each exit (move to a lower level): gain + `sv` of the target.
    exits: Vec<i32>,
    /// Moves inside the level (gain 0), as local indices; repeated if two
    /// moves lead to the same position.
    inner: Vec<usize>,
}

/// Solves the positions of one level, all of whose exits lead to positions
/// already solved.
fn solve_level(graph: &Graph, level: &[usize], sv: &mut [Option<i32>]) {
    if level.is_empty() {
        return;
    }
    let here = board_seeds(&graph.nodes[level[0]]);
    let local: HashMap<usize, usize> = level.iter().enumerate().map(|(i, &x)| (x, i)).collect();
    let mut nodes: Vec<LevelNode> = Vec::with_capacity(level.len());
    for &x in level {
        let mut node = LevelNode {
            south_to_move: graph.nodes[x].south_to_move,
            end: graph.end_gain[x],
            exits: Vec::new(),
            inner: Vec::new(),
        };
        for &(c, gain) in &graph.edges[x] {
            let there = board_seeds(&graph.nodes[c]);
            assert!(there <= here, "a move added seeds to the board");
            if there == here {
                assert_eq!(gain, 0, "a move inside one level captured something");
                node.inner.push(local[&c]);
            } else {
                node.exits
                    .push(gain + sv[c].expect("lower levels are solved first"));
            }
        }
        nodes.push(node);
    }
    // Predecessors inside the level, one entry per move.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        for &j in &node.inner {
            preds[j].push(i);
        }
    }
    // The thresholds worth trying: every worth that can end play in the level.
    let mut worths: Vec<i32> = nodes
        .iter()
        .flat_map(|node| node.end.iter().chain(node.exits.iter()).copied())
        .collect();
    worths.sort_unstable();
    worths.dedup();

    let mut value = vec![0i32; nodes.len()];
    // South: W_t for t = the positive worths, increasing (W_t shrinks as t
    // grows, so the last t that holds x is the largest).
    let mut south_wins = vec![false; nodes.len()];
    for &t in worths.iter().filter(|&&w| w > 0) {
        let in_w = attractor(&nodes, &preds, true, |w| w >= t);
        for i in 0..nodes.len() {
            if in_w[i] {
                value[i] = t;
                south_wins[i] = true;
            }
        }
    }
    // North: L_t for t = the negative worths, closest to zero first.
    for &t in worths.iter().rev().filter(|&&w| w < 0) {
        let in_l = attractor(&nodes, &preds, false, |w| w <= t);
        for i in 0..nodes.len() {
            if in_l[i] {
                assert!(!south_wins[i], "a position both sides can win");
                value[i] = t;
            }
        }
    }
    for (i, &x) in level.iter().enumerate() {
        sv[x] = Some(value[i]);
    }
}

/// The positions of the level from which the `forcer` (South if
/// `south_forces`) can force the play to a terminal position or an exit whose
/// worth satisfies `good` (least fixed point, by backward induction).
fn attractor(
    nodes: &[LevelNode],
    preds: &[Vec<usize>],
    south_forces: bool,
    good: impl Fn(i32) -> bool,
) -> Vec<bool> {
    let mut inside = vec![false; nodes.len()];
    // For a position where the forcer's opponent moves: how many of its moves
    // inside the level are not yet known to reach the set; `None` if one of
    // its exits is bad (then it never joins).
    let mut missing: Vec<Option<usize>> = vec![None; nodes.len()];
    let mut queue = VecDeque::new();
    for (i, node) in nodes.iter().enumerate() {
        let joins = if let Some(w) = node.end {
            good(w)
        } else if node.south_to_move == south_forces {
            // The forcer moves: SOME move suffices.
            node.exits.iter().any(|&w| good(w))
        } else if node.exits.iter().all(|&w| good(w)) {
            // The opponent moves: EVERY move must reach the set.
            missing[i] = Some(node.inner.len());
            node.inner.is_empty()
        } else {
            false
        };
        if joins {
            inside[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(j) = queue.pop_front() {
        for &i in &preds[j] {
            if inside[i] {
                continue;
            }
            let joins = if nodes[i].south_to_move == south_forces {
                true
            } else if let Some(m) = missing[i].as_mut() {
                *m -= 1;
                *m == 0
            } else {
                false
            };
            if joins {
                inside[i] = true;
                queue.push_back(i);
            }
        }
    }
    inside
}
