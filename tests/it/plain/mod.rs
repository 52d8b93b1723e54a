#![allow(dead_code)]
//! A deliberately plain, slow, independent implementation of the six games
//! of `shared/spec/rules.md` (kalah, awari, akon, djenon-abe, anywoli, dakon)
//! and of the `moves` output of `shared/spec/interface.md`.
//!
//! It exists only as a cross-check for the fast engine: it was written from
//! the specification alone, without looking at the engine, so that the two
//! cannot share a mistake. Readability wins over speed everywhere: positions
//! are plain vectors, every move clones the position, and every rule is a
//! visible branch with the words of `rules.md` it implements quoted next to
//! it.
//!
//! It has no limit on the board (rows of any length, counts up to `u32`),
//! so it also checks Dakon on the wide boards (`tests/it/wide.rs`,
//! `tests/data/perft-wide.tsv`: up to `dakon:32x64`).
//!
//! Board indices follow `rules.md`: `0..n` are South pits 1..n, `n..2n` are
//! North pits 1..n, and the pit opposite index `i` is `2n - 1 - i`.

use std::collections::HashSet;

/// A position: n pits per row; pits[0..n] = South pits 1..n, pits[n..2n] = North pits 1..n.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlainPos {
    pub south_to_move: bool,
    pub pits: Vec<u32>,
    pub captured: [u32; 2], /* [south, north] */
}

// ---------------------------------------------------------------------------
// Games and their default sizes
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Game {
    Kalah,
    Awari,
    Akon,
    DjenonAbe,
    Anywoli,
    Dakon,
}

/// The game named by `name`; a `:NxS` suffix, if present, is ignored here.
fn game_of(name: &str) -> Game {
    let base = name.split(':').next().unwrap_or("");
    match base {
        "kalah" => Game::Kalah,
        "awari" => Game::Awari,
        "akon" => Game::Akon,
        "djenon-abe" => Game::DjenonAbe,
        "anywoli" => Game::Anywoli,
        "dakon" => Game::Dakon,
        _ => panic!("unknown game name {name:?}"),
    }
}

/// "Defaults: `kalah:6x4`, `awari:6x4`, `akon:7x5`, `djenon-abe:6x4`,
/// `anywoli:12x4`, `dakon:7x7`."
fn default_size(game: Game) -> (usize, u32) {
    match game {
        Game::Kalah => (6, 4),
        Game::Awari => (6, 4),
        Game::Akon => (7, 5),
        Game::DjenonAbe => (6, 4),
        Game::Anywoli => (12, 4),
        Game::Dakon => (7, 7),
    }
}

/// `"kalah"` -> `("kalah", 6, 4)`; `"dakon:3x3"` -> `("dakon", 3, 3)`.
/// Panics on a malformed spec (this is a test helper).
pub fn parse_game(spec: &str) -> (String, usize, u32) {
    let (name, size) = match spec.split_once(':') {
        Some((name, size)) => (name, Some(size)),
        None => (spec, None),
    };
    let game = game_of(name);
    let (n, s) = match size {
        None => default_size(game),
        Some(size) => {
            let (n, s) = size
                .split_once('x')
                .unwrap_or_else(|| panic!("malformed game size in {spec:?}"));
            let n: usize = n.parse().unwrap_or_else(|_| panic!("bad n in {spec:?}"));
            let s: u32 = s.parse().unwrap_or_else(|_| panic!("bad s in {spec:?}"));
            assert!(n > 0, "zero board size in {spec:?}");
            (n, s)
        }
    };
    (name.to_string(), n, s)
}

/// The start position: `s` seeds in each of the `2n` pits, nothing captured,
/// "South (`S`, moves first from the start position)".
pub fn start(name: &str, n: usize, s: u32) -> PlainPos {
    let _ = game_of(name); // only to reject unknown names
    PlainPos {
        south_to_move: true,
        pits: vec![s; 2 * n],
        captured: [0, 0],
    }
}

// ---------------------------------------------------------------------------
// Position notation: `<to-move> <south pits>/<north pits> <south>-<north>`
// ---------------------------------------------------------------------------

/// Parses `S 4,4,4/4,4,4 0-0`. Panics on bad input (this is a test helper).
pub fn parse_pos(text: &str) -> PlainPos {
    let fields: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(fields.len(), 3, "position needs 3 fields: {text:?}");
    let south_to_move = match fields[0] {
        "S" => true,
        "N" => false,
        other => panic!("side to move must be S or N, not {other:?}"),
    };
    let (south, north) = fields[1]
        .split_once('/')
        .unwrap_or_else(|| panic!("rows must be separated by '/': {text:?}"));
    let parse_row = |row: &str| -> Vec<u32> {
        row.split(',')
            .map(|x| {
                x.parse::<u32>()
                    .unwrap_or_else(|_| panic!("bad count {x:?} in {text:?}"))
            })
            .collect()
    };
    let south = parse_row(south);
    let north = parse_row(north);
    assert_eq!(south.len(), north.len(), "rows of unequal length: {text:?}");
    let (cs, cn) = fields[2]
        .split_once('-')
        .unwrap_or_else(|| panic!("captured must be S-N: {text:?}"));
    let cs: u32 = cs
        .parse()
        .unwrap_or_else(|_| panic!("bad captured in {text:?}"));
    let cn: u32 = cn
        .parse()
        .unwrap_or_else(|_| panic!("bad captured in {text:?}"));
    let mut pits = south;
    pits.extend(north);
    PlainPos {
        south_to_move,
        pits,
        captured: [cs, cn],
    }
}

/// Writes a position exactly as interface.md does: `S 4,4,4/4,4,4 0-0`.
pub fn format_pos(p: &PlainPos) -> String {
    let n = p.pits.len() / 2;
    let row = |r: &[u32]| -> String {
        r.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "{} {}/{} {}-{}",
        if p.south_to_move { "S" } else { "N" },
        row(&p.pits[..n]),
        row(&p.pits[n..]),
        p.captured[0],
        p.captured[1]
    )
}

// ---------------------------------------------------------------------------
// Small board helpers
// ---------------------------------------------------------------------------

const SOUTH: usize = 0;
const NORTH: usize = 1;

fn rows(p: &PlainPos) -> usize {
    p.pits.len() / 2
}

/// 0 for South, 1 for North.
fn mover(p: &PlainPos) -> usize {
    if p.south_to_move {
        SOUTH
    } else {
        NORTH
    }
}

fn other(side: usize) -> usize {
    1 - side
}

/// Board index of pit 1 of `side`'s row.
fn row_start(side: usize, n: usize) -> usize {
    side * n
}

/// The side whose row holds board index `i`.
fn owner(i: usize, n: usize) -> usize {
    if i < n {
        SOUTH
    } else {
        NORTH
    }
}

/// "The pit opposite index `i` is `2n-1-i`."
fn opposite(i: usize, n: usize) -> usize {
    2 * n - 1 - i
}

fn row_sum(p: &PlainPos, side: usize) -> u32 {
    let n = rows(p);
    p.pits[row_start(side, n)..row_start(side, n) + n]
        .iter()
        .sum()
}

fn board_sum(p: &PlainPos) -> u32 {
    p.pits.iter().sum()
}

/// The board indices of `side`'s non-empty pits, in increasing pit order.
fn nonempty_pits(p: &PlainPos, side: usize) -> Vec<usize> {
    let n = rows(p);
    (row_start(side, n)..row_start(side, n) + n)
        .filter(|&i| p.pits[i] > 0)
        .collect()
}

/// The move name of board index `i`: its pit number 1..n in its row.
fn move_name(i: usize, n: usize) -> String {
    (i % n + 1).to_string()
}

/// A place seeds can be sown into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Place {
    Pit(usize),
    Store(usize),
}

/// The sowing ring of `side` in the games that sow into stores (Kalah,
/// Dakon): "own pits, own store, opponent's pits (the opponent's store is
/// skipped)".
fn ring_with_own_store(side: usize, n: usize) -> Vec<Place> {
    let mut ring = Vec::new();
    for k in 0..n {
        ring.push(Place::Pit(row_start(side, n) + k));
    }
    ring.push(Place::Store(side));
    for k in 0..n {
        ring.push(Place::Pit(row_start(other(side), n) + k));
    }
    ring
}

/// Drops one seed into `place`.
fn drop_seed(q: &mut PlainPos, place: Place) {
    match place {
        Place::Pit(i) => q.pits[i] += 1,
        Place::Store(side) => q.captured[side] += 1,
    }
}

/// The ordinary turn change: "an extra move keeps the mover".
fn set_next_to_move(q: &mut PlainPos, mover: usize, extra_move: bool) {
    let next = if extra_move { mover } else { other(mover) };
    q.south_to_move = next == SOUTH;
}

/// Records the sowing state (board, hand, place) at the start of a relay
/// lap; returns true if that state was seen before in this move, which means
/// "a move that would sow forever" ("Relay sowing is deterministic, so a move
/// either ends or repeats a sowing state (board, hand, place)").
///
/// Only the states at relay points are recorded: a move that never ends
/// relays infinitely often within a finite set of states, so one of those
/// states repeats, and a repeated state repeats forever after it.
fn repeats<T: std::hash::Hash + Eq>(
    seen: &mut HashSet<(Vec<u32>, u32, T)>,
    pits: &[u32],
    hand: u32,
    place: T,
) -> bool {
    !seen.insert((pits.to_vec(), hand, place))
}

// ---------------------------------------------------------------------------
// Kalah
// ---------------------------------------------------------------------------

/// Plays Kalah pit `start` (a board index of the mover's row, non-empty).
fn kalah_play(p: &PlainPos, start: usize) -> PlainPos {
    let n = rows(p);
    let me = mover(p);
    let mut q = p.clone();
    // "Ring: own pits, own store, opponent's pits (the opponent's store is
    // skipped). Single lap; the origin pit is not skipped."
    let ring = ring_with_own_store(me, n);
    let mut at = ring.iter().position(|&x| x == Place::Pit(start)).unwrap();
    let mut hand = q.pits[start];
    q.pits[start] = 0;
    while hand > 0 {
        at = (at + 1) % ring.len();
        drop_seed(&mut q, ring[at]);
        hand -= 1;
    }
    let mut extra_move = false;
    match ring[at] {
        // "Last seed in own store: the mover moves again."
        Place::Store(_) => extra_move = true,
        // "Last seed in an own pit that was empty: that seed and all seeds of
        // the opposite pit go to the mover's store (also when the opposite
        // pit is empty: then only the one seed)." Was empty = now holds 1.
        Place::Pit(i) if owner(i, n) == me && q.pits[i] == 1 => {
            let o = opposite(i, n);
            q.captured[me] += q.pits[i] + q.pits[o];
            q.pits[i] = 0;
            q.pits[o] = 0;
        }
        Place::Pit(_) => {}
    }
    set_next_to_move(&mut q, me, extra_move);
    q
}

fn kalah_outcome(p: &PlainPos) -> Outcome {
    // "The game ends as soon as either row is empty (after any move, an extra
    // move included); each player then adds the seeds left in his own row to
    // his store."
    let south = row_sum(p, SOUTH);
    let north = row_sum(p, NORTH);
    if south == 0 || north == 0 {
        return Outcome::End([p.captured[SOUTH] + south, p.captured[NORTH] + north]);
    }
    let n = rows(p);
    let moves = nonempty_pits(p, mover(p))
        .into_iter()
        .map(|i| (move_name(i, n), kalah_play(p, i)))
        .collect();
    Outcome::Moves(moves)
}

// ---------------------------------------------------------------------------
// Awari
// ---------------------------------------------------------------------------

/// Plays Awari pit `start` (a board index of the mover's row, non-empty).
fn awari_play(p: &PlainPos, start: usize) -> PlainPos {
    let n = rows(p);
    let me = mover(p);
    let opp = other(me);
    let mut q = p.clone();
    let mut hand = q.pits[start];
    q.pits[start] = 0;
    // "Single lap; a move that starts with 2n (12) or more seeds skips its
    // origin pit every time round."
    let skip_origin = hand as usize >= 2 * n;
    let mut i = start;
    while hand > 0 {
        i = (i + 1) % (2 * n);
        if skip_origin && i == start {
            continue;
        }
        q.pits[i] += 1;
        hand -= 1;
    }
    // "If the last seed falls in an opponent's pit that now holds 2 or 3, the
    // mover takes them, and so the preceding opponent pits while they hold 2
    // or 3; the chain never leaves the opponent's row (it stops at his pit 1)."
    if owner(i, n) == opp {
        let mut j = i;
        while q.pits[j] == 2 || q.pits[j] == 3 {
            q.captured[me] += q.pits[j];
            q.pits[j] = 0;
            if j == row_start(opp, n) {
                break;
            }
            j -= 1;
        }
    }
    set_next_to_move(&mut q, me, false);
    q
}

fn awari_outcome(p: &PlainPos) -> Outcome {
    let me = mover(p);
    let opp = other(me);
    // "A player to move with no move: the opponent takes all seeds left."
    // With seeds in his row a player always has a move (see below), so "no
    // move" means an empty row.
    if row_sum(p, me) == 0 {
        let mut scores = p.captured;
        scores[opp] += board_sum(p);
        return Outcome::End(scores);
    }
    let n = rows(p);
    let all: Vec<(String, PlainPos)> = nonempty_pits(p, me)
        .into_iter()
        .map(|i| (move_name(i, n), awari_play(p, i)))
        .collect();
    // "A move after which the opponent has no move (empty row) is not legal,
    // unless every move is like that." (Checked after all captures.)
    Outcome::Moves(keep_feeding_unless_none(all, opp))
}

/// The no-starving filter of Awari and Akon: keep the moves after which
/// `opp`'s row is non-empty; if there are none, every move stays legal.
fn keep_feeding_unless_none(all: Vec<(String, PlainPos)>, opp: usize) -> Vec<(String, PlainPos)> {
    let feeding: Vec<(String, PlainPos)> = all
        .iter()
        .filter(|(_, q)| row_sum(q, opp) > 0)
        .cloned()
        .collect();
    if feeding.is_empty() {
        all
    } else {
        feeding
    }
}

// ---------------------------------------------------------------------------
// Akon
// ---------------------------------------------------------------------------

/// Plays Akon pit `start` (a board index of the mover's row, non-empty).
fn akon_play(p: &PlainPos, start: usize) -> PlainPos {
    let n = rows(p);
    let me = mover(p);
    let opp = other(me);
    let opp_pit1 = row_start(opp, n);
    let mut q = p.clone();
    let h = q.pits[start] as usize;
    q.pits[start] = 0;
    let mut i = start;
    if h <= 2 * n {
        // "`h <= 2n`: one seed into each next pit of the ring; with exactly
        // `2n` seeds the last seed falls back into the origin pit and the turn
        // ends (own row: no capture)."
        for _ in 0..h {
            i = (i + 1) % (2 * n);
            q.pits[i] += 1;
        }
    } else {
        // "`h >= 2n+1`: first one full lap of `2n` seeds ending in the origin
        // pit; after that the mover's own row is skipped entirely: the rest is
        // sown only into the opponent's pits 1..n, again and again from pit 1,
        // until the hand is empty."
        for _ in 0..2 * n {
            i = (i + 1) % (2 * n);
            q.pits[i] += 1;
        }
        debug_assert_eq!(i, start);
        for k in 0..(h - 2 * n) {
            i = opp_pit1 + k % n;
            q.pits[i] += 1;
        }
    }
    // "Capture, only when the last seed falls in the opponent's row:"
    if owner(i, n) == opp {
        if i == opp_pit1 {
            // "in the opponent's pit 1: the mover takes that last seed only,
            // whatever the pit held; the rest of the pit stays. Turn ends."
            q.pits[i] -= 1;
            q.captured[me] += 1;
        } else {
            // "otherwise, if that pit now holds 2, 3 or 4 seeds, the mover
            // takes them; then the preceding pit (pit number one lower, same
            // row) is taken too if it holds 2, 3 or 4, and so on, stopping at
            // the first pit that does not, and always before pit 1: pit 1 of
            // either row is never captured."
            let mut j = i;
            while j != opp_pit1 && (2..=4).contains(&q.pits[j]) {
                q.captured[me] += q.pits[j];
                q.pits[j] = 0;
                j -= 1;
            }
        }
    }
    set_next_to_move(&mut q, me, false);
    q
}

fn akon_outcome(p: &PlainPos) -> Outcome {
    let me = mover(p);
    let opp = other(me);
    // "The game ends when the player to move has no seeds in his row; the
    // opponent takes all seeds left on the board."
    if row_sum(p, me) == 0 {
        let mut scores = p.captured;
        scores[opp] += board_sum(p);
        return Outcome::End(scores);
    }
    let n = rows(p);
    let all: Vec<(String, PlainPos)> = nonempty_pits(p, me)
        .into_iter()
        .map(|i| (move_name(i, n), akon_play(p, i)))
        .collect();
    // "No starving: a move after which the opponent's row is empty is not
    // legal, unless every legal move leaves it empty."
    Outcome::Moves(keep_feeding_unless_none(all, opp))
}

// ---------------------------------------------------------------------------
// Djenon-abe
// ---------------------------------------------------------------------------

/// Plays Djenon-abe pit `start`; `None` if the move would sow forever.
fn djenon_abe_play(p: &PlainPos, start: usize) -> Option<PlainPos> {
    let n = rows(p);
    let me = mover(p);
    let mut q = p.clone();
    let mut seen = HashSet::new();
    let mut hand = q.pits[start];
    q.pits[start] = 0;
    let mut i = start;
    loop {
        // One lap: one seed into each next pit of the ring (both rows, no
        // stores; "the emptied origin pit is not skipped").
        while hand > 0 {
            i = (i + 1) % (2 * n);
            q.pits[i] += 1;
            hand -= 1;
        }
        match q.pits[i] {
            // "1 seed (it was empty): the turn ends."
            1 => break,
            // "2 or 4 seeds: the mover takes them; then the preceding pit in
            // the ring (either row) is taken too if it holds 2 or 4, and so on
            // backwards, on both rows, stopping at the first pit that does not
            // (and never going round the whole ring). The turn ends."
            2 | 4 => {
                let mut j = i;
                let mut taken = 0;
                while taken < 2 * n && (q.pits[j] == 2 || q.pits[j] == 4) {
                    q.captured[me] += q.pits[j];
                    q.pits[j] = 0;
                    taken += 1;
                    j = (j + 2 * n - 1) % (2 * n);
                }
                break;
            }
            // "3 or 5 and more seeds: relay." All seeds of the pit are lifted
            // and sown from the next pit.
            _ => {
                hand = q.pits[i];
                q.pits[i] = 0;
                if repeats(&mut seen, &q.pits, hand, i) {
                    return None;
                }
            }
        }
    }
    set_next_to_move(&mut q, me, false);
    Some(q)
}

fn djenon_abe_outcome(p: &PlainPos) -> Outcome {
    let n = rows(p);
    let me = mover(p);
    // "The game ends (checked on every position, in this order):"
    // "when the board is empty;"
    if board_sum(p) == 0 {
        return Outcome::End(p.captured);
    }
    // "when each row holds exactly one seed: each player takes his own seed;"
    if row_sum(p, SOUTH) == 1 && row_sum(p, NORTH) == 1 {
        return Outcome::End([p.captured[SOUTH] + 1, p.captured[NORTH] + 1]);
    }
    // "when a feeding obligation cannot be met (the empty-row player cannot be
    // fed, whoever is to move): terminal gift".
    for empty in [SOUTH, NORTH] {
        if row_sum(p, empty) != 0 {
            continue;
        }
        let holder = other(empty);
        // The holder's feeding moves, played from this board as if the holder
        // were to move: legal (not sowing forever) and leaving the empty row
        // non-empty. "A feeding move is a legal move: one that does not sow
        // forever."
        let mut as_holder = p.clone();
        as_holder.south_to_move = holder == SOUTH;
        let feeding: Vec<(String, PlainPos)> = nonempty_pits(&as_holder, holder)
            .into_iter()
            .filter_map(|i| djenon_abe_play(&as_holder, i).map(|q| (move_name(i, n), q)))
            .filter(|(_, q)| row_sum(q, empty) > 0)
            .collect();
        if feeding.is_empty() {
            // "the player who still has seeds takes all seeds on the board but
            // one, and that one goes to the empty-row player (with one seed
            // left, the holder takes nothing)."
            let mut scores = p.captured;
            scores[holder] += board_sum(p) - 1;
            scores[empty] += 1;
            return Outcome::End(scores);
        }
        if me == holder {
            // "Feeding: if the opponent's row is empty when a player is to
            // move, only moves after which the opponent's row is non-empty are
            // legal."
            return Outcome::Moves(feeding);
        }
        // "A player to move whose own row is empty passes (`pass`) if the
        // opponent will then have a feeding move."
        let mut q = p.clone();
        set_next_to_move(&mut q, me, false);
        return Outcome::Moves(vec![("pass".to_string(), q)]);
    }
    // Both rows hold seeds: every move that does not sow forever is legal.
    let moves: Vec<(String, PlainPos)> = nonempty_pits(p, me)
        .into_iter()
        .filter_map(|i| djenon_abe_play(p, i).map(|q| (move_name(i, n), q)))
        .collect();
    // "No legal move while holding seeds: if the game's own end rules do not
    // end the game, but every move of the player to move would sow forever,
    // the game ends and the seeds on the board go to nobody."
    if moves.is_empty() {
        return Outcome::End(p.captured);
    }
    Outcome::Moves(moves)
}

// ---------------------------------------------------------------------------
// Anywoli
// ---------------------------------------------------------------------------

/// "As soon as a capture leaves 4 or fewer uncaptured seeds (on the board and
/// in the hand together), the game ends at once and those seeds go to the
/// store of the player who made that capture." Returns true if the game ended
/// (the board is then empty and the hand must be dropped by the caller).
fn anywoli_end_at_four(q: &mut PlainPos, hand: u32, taker: usize) -> bool {
    let left = board_sum(q) + hand;
    if left <= 4 {
        q.captured[taker] += left;
        for x in q.pits.iter_mut() {
            *x = 0;
        }
        true
    } else {
        false
    }
}

/// Plays Anywoli pit `start`; `None` if the move would sow forever.
fn anywoli_play(p: &PlainPos, start: usize) -> Option<PlainPos> {
    let n = rows(p);
    let me = mover(p);
    let mut q = p.clone();
    let mut seen = HashSet::new();
    let mut hand = q.pits[start];
    q.pits[start] = 0;
    let mut i = start;
    let mut extra_move = false;
    'sowing: loop {
        // One lap; "seeds are never sown into stores".
        while hand > 0 {
            i = (i + 1) % (2 * n);
            q.pits[i] += 1;
            hand -= 1;
            // "whenever a seed that is not the last of its lap brings a pit to
            // exactly 4, those 4 seeds go at once to the store of that pit's
            // owner (either player)."
            if hand > 0 && q.pits[i] == 4 {
                let pit_owner = owner(i, n);
                q.captured[pit_owner] += 4;
                q.pits[i] = 0;
                // "(for a mid-sow four, the pit's owner)". The move stops
                // there; no lap ended, so no extra move: the turn passes.
                if anywoli_end_at_four(&mut q, hand, pit_owner) {
                    break 'sowing;
                }
            }
        }
        match q.pits[i] {
            // "1 seed (it was empty): the turn ends."
            1 => break,
            // "exactly 4 seeds: the mover takes them, whoever owns the pit,
            // the turn ends, and the mover moves again (extra move)."
            4 => {
                q.captured[me] += 4;
                q.pits[i] = 0;
                anywoli_end_at_four(&mut q, 0, me);
                extra_move = true;
                break;
            }
            // "any other count (2, 3, 5 and more): relay."
            _ => {
                hand = q.pits[i];
                q.pits[i] = 0;
                if repeats(&mut seen, &q.pits, hand, i) {
                    return None;
                }
            }
        }
    }
    set_next_to_move(&mut q, me, extra_move);
    Some(q)
}

fn anywoli_outcome(p: &PlainPos) -> Outcome {
    let n = rows(p);
    let me = mover(p);
    // "an empty board is terminal." (A board with 4 or fewer seeds that no
    // capture produced plays on.)
    if board_sum(p) == 0 {
        return Outcome::End(p.captured);
    }
    // "A player to move whose own row is empty passes (`pass`)."
    if row_sum(p, me) == 0 {
        let mut q = p.clone();
        set_next_to_move(&mut q, me, false);
        return Outcome::Moves(vec![("pass".to_string(), q)]);
    }
    let moves: Vec<(String, PlainPos)> = nonempty_pits(p, me)
        .into_iter()
        .filter_map(|i| anywoli_play(p, i).map(|q| (move_name(i, n), q)))
        .collect();
    // "every move of the player to move would sow forever": the game ends and
    // the seeds on the board go to nobody.
    if moves.is_empty() {
        return Outcome::End(p.captured);
    }
    Outcome::Moves(moves)
}

// ---------------------------------------------------------------------------
// Dakon
// ---------------------------------------------------------------------------

/// Plays Dakon pit `start`; `None` if the move would sow forever.
fn dakon_play(p: &PlainPos, start: usize) -> Option<PlainPos> {
    let n = rows(p);
    let me = mover(p);
    let opp = other(me);
    let mut q = p.clone();
    // "Ring: own pits, own store, opponent's pits (the opponent's store is
    // skipped). Relay sowing."
    let ring = ring_with_own_store(me, n);
    let mut at = ring.iter().position(|&x| x == Place::Pit(start)).unwrap();
    let mut seen = HashSet::new();
    let mut hand = q.pits[start];
    q.pits[start] = 0;
    let mut extra_move = false;
    loop {
        while hand > 0 {
            at = (at + 1) % ring.len();
            drop_seed(&mut q, ring[at]);
            hand -= 1;
        }
        match ring[at] {
            // "in the mover's own store: the mover moves again (extra move)."
            Place::Store(_) => {
                extra_move = true;
                break;
            }
            // "in a pit that was occupied (now 2 or more): relay."
            Place::Pit(i) if q.pits[i] >= 2 => {
                hand = q.pits[i];
                q.pits[i] = 0;
                if repeats(&mut seen, &q.pits, hand, at) {
                    return None;
                }
            }
            // "in a pit that was empty (now 1), on the mover's row — nembak:
            // all seeds of the opposite pit go to the mover's store; the
            // capturing seed stays where it fell. Nothing if the opposite pit
            // is empty. Turn ends."
            Place::Pit(i) if owner(i, n) == me => {
                let o = opposite(i, n);
                q.captured[me] += q.pits[o];
                q.pits[o] = 0;
                break;
            }
            // "in a pit that was empty, on the opponent's row — mikul: if both
            // neighbours in that row (pit k-1 and k+1) hold the same non-zero
            // number of seeds, both neighbours and the capturing seed go to
            // the mover's store. Pits 1 and n have one neighbour only: no
            // capture. Turn ends."
            Place::Pit(i) => {
                let k = i - row_start(opp, n); // 0-based: pit number k+1
                if k > 0 && k + 1 < n {
                    let (left, right) = (q.pits[i - 1], q.pits[i + 1]);
                    if left > 0 && left == right {
                        q.captured[me] += left + right + q.pits[i];
                        q.pits[i - 1] = 0;
                        q.pits[i + 1] = 0;
                        q.pits[i] = 0;
                    }
                }
                break;
            }
        }
    }
    set_next_to_move(&mut q, me, extra_move);
    Some(q)
}

fn dakon_outcome(p: &PlainPos) -> Outcome {
    let n = rows(p);
    let me = mover(p);
    let opp = other(me);
    // "The game ends when the player to move (an extra move included) has no
    // seeds in his pits: the opponent takes all seeds left on the board."
    if row_sum(p, me) == 0 {
        let mut scores = p.captured;
        scores[opp] += board_sum(p);
        return Outcome::End(scores);
    }
    let moves: Vec<(String, PlainPos)> = nonempty_pits(p, me)
        .into_iter()
        .filter_map(|i| dakon_play(p, i).map(|q| (move_name(i, n), q)))
        .collect();
    // "every move of the player to move would sow forever": the game ends and
    // the seeds on the board go to nobody.
    if moves.is_empty() {
        return Outcome::End(p.captured);
    }
    Outcome::Moves(moves)
}

// ---------------------------------------------------------------------------
// The public surface
// ---------------------------------------------------------------------------

/// What a position offers: final scores, or its legal moves.
enum Outcome {
    /// Terminal: final scores `[south, north]` after the end-of-game rule.
    End([u32; 2]),
    /// Not terminal: legal moves in increasing pit order, `pass` last, each
    /// with the position it leaves.
    Moves(Vec<(String, PlainPos)>),
}

fn outcome(name: &str, p: &PlainPos) -> Outcome {
    match game_of(name) {
        Game::Kalah => kalah_outcome(p),
        Game::Awari => awari_outcome(p),
        Game::Akon => akon_outcome(p),
        Game::DjenonAbe => djenon_abe_outcome(p),
        Game::Anywoli => anywoli_outcome(p),
        Game::Dakon => dakon_outcome(p),
    }
}

/// Exactly the lines `mancala moves` must print for this position: "MOVE\tPOSITION" lines in increasing pit order, "pass" last, or the single line "end S-N" on a terminal position.
pub fn moves_output(name: &str, p: &PlainPos) -> Vec<String> {
    match outcome(name, p) {
        Outcome::End([s, n]) => vec![format!("end {s}-{n}")],
        Outcome::Moves(moves) => moves
            .iter()
            .map(|(m, q)| format!("{m}\t{}", format_pos(q)))
            .collect(),
    }
}

/// Legal moves with resulting positions (empty vec for terminal positions). Move is "1".."n" or "pass".
pub fn children(name: &str, p: &PlainPos) -> Vec<(String, PlainPos)> {
    match outcome(name, p) {
        Outcome::End(_) => Vec::new(),
        Outcome::Moves(moves) => moves,
    }
}

/// Final scores [south, north] if terminal, else None.
pub fn terminal(name: &str, p: &PlainPos) -> Option<[u32; 2]> {
    match outcome(name, p) {
        Outcome::End(scores) => Some(scores),
        Outcome::Moves(_) => None,
    }
}

/// perft(p, 0) = 1; perft(p, d) = sum over children of perft(child, d-1); terminal positions have no children. A pass counts as a move.
pub fn perft(name: &str, p: &PlainPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    children(name, p)
        .iter()
        .map(|(_, q)| perft(name, q, depth - 1))
        .sum()
}
