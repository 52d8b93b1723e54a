//! Choosing a collection of puzzles from database levels: the candidates,
//! their measures and grades, one puzzle a family, a spread of grades.
//!
//! For each level `k` asked:
//!
//! 1. **Candidates.** One pass over the level keeps the boards (South to
//!    move, nothing captured) that South wins with exactly one move out of
//!    at least two, each side having at least
//!    [`super::grade::MIN_OCCUPIED`] occupied pits. When there are more
//!    than [`CollectOptions::sample`], a sample of that many is kept: those
//!    with the smallest hash of their rank, a fixed pseudo-random choice
//!    (the same every run).
//! 2. **Measures.** Every kept candidate is measured
//!    ([`super::measures::measure`]); the natural ones
//!    ([`super::grade::is_natural`]) are graded.
//! 3. **Families.** The natural puzzles are grouped into families
//!    ([`super::family`]) and the best of each family stays (best:
//!    [`better`]).
//! 4. **Choice.** Of each grade, the best [`CollectOptions::per_grade`]
//!    remaining, passing over a puzzle whose [`idea`] (its value and the
//!    moves of its solution line) a puzzle already chosen from the level
//!    has ([`choose`]): positions more than one seed move apart can share
//!    a solution, and one of them shows it. A grade may then show fewer.
//!
//! The collection lists the chosen puzzles by grade, then by level, then
//! best first. [`Report`] gives the counts of every step, so that a
//! reader knows what the collection was chosen from.

use super::family::best_of_families;
use super::grade::{is_natural, points, Grade, MIN_OCCUPIED};
use super::measures::{measure, Measures};
use super::{MineProgress, CHUNK};
use crate::db::{Database, DbError};
use crate::games::{Move, MoveList, Rules};
use crate::position::Position;
use crate::side::Side;
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::Ordering;

/// What [`collect_level`] chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectOptions {
    /// The most candidates of a level measured (a fixed sample beyond).
    pub sample: usize,
    /// The puzzles of each grade chosen per level.
    pub per_grade: usize,
    /// The most boards one line search visits
    /// ([`super::measures::measure`]).
    pub line_limit: usize,
}

impl Default for CollectOptions {
    fn default() -> Self {
        CollectOptions {
            sample: 200_000,
            per_grade: 6,
            line_limit: 20_000,
        }
    }
}

/// One puzzle of a collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its measures.
    pub measures: Measures,
    /// Its grade.
    pub grade: Grade,
    /// Its difficulty points ([`super::grade::points`]).
    pub points: u32,
}

/// What [`collect_level`] did on one level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The level: seeds on the board.
    pub seeds: usize,
    /// The candidates: boards South wins with exactly one move, each side
    /// with at least [`MIN_OCCUPIED`] occupied pits.
    pub candidates: u64,
    /// The candidates measured (all of them, or the sample).
    pub measured: u64,
    /// The natural puzzles among those measured, by grade (easy first).
    pub natural: [u64; 4],
    /// The families of those natural puzzles, by the grade of their best
    /// member.
    pub families: [u64; 4],
    /// The puzzles chosen, by grade.
    pub chosen: [u64; 4],
}

/// A fixed pseudo-random hash of a rank (splitmix64's finaliser).
fn hash(r: u64, k: usize) -> u64 {
    let mut z = r ^ ((k as u64) << 56);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Keeps the `keep` entries with the smallest hash.
fn trim(v: &mut Vec<(u64, Position)>, keep: usize) {
    if v.len() > keep {
        v.select_nth_unstable_by_key(keep, |e| e.0);
        v.truncate(keep);
    }
}

/// The candidates of level `k` (module docs, step 1): how many there are
/// and the sample kept, in rank order; `None` when stopped.
pub fn candidates<R: Rules>(
    db: &Database,
    k: usize,
    sample: usize,
    progress: &MineProgress,
) -> Result<Option<(u64, Vec<Position>)>, DbError> {
    let level = db.require(k)?;
    let n = db.n();
    let ix = level.index;
    let count = ix.count();
    let chunks = count.div_ceil(CHUNK);
    let (found, mut kept) = (0..chunks)
        .into_par_iter()
        .fold(
            || (0u64, Vec::new()),
            |(mut found, mut kept), c| {
                if progress.stop.load(Ordering::Relaxed) {
                    return (found, kept);
                }
                let range = c * CHUNK..((c + 1) * CHUNK).min(count);
                let mut moves = MoveList::new();
                ix.walk(range, |r, board| {
                    let g = i32::from(level.bytes[r as usize] as i8);
                    if g <= 0 {
                        return;
                    }
                    let occupied = |side: Side| {
                        board[side.base(n)..side.base(n) + n]
                            .iter()
                            .filter(|&&c| c > 0)
                            .count() as u32
                    };
                    if occupied(Side::South) < MIN_OCCUPIED || occupied(Side::North) < MIN_OCCUPIED
                    {
                        return;
                    }
                    let pos = Position::from_board(n, board);
                    if R::generate(&pos, &mut moves).is_some() || moves.len() < 2 {
                        return;
                    }
                    let values = super::move_values(db, &pos, &moves);
                    if values.iter().filter(|&&v| v == g).count() != 1 {
                        return;
                    }
                    found += 1;
                    kept.push((hash(r, k), pos));
                    if kept.len() >= sample.saturating_mul(2).max(1024) {
                        trim(&mut kept, sample);
                    }
                });
                (found, kept)
            },
        )
        .reduce(
            || (0, Vec::new()),
            |(a, mut x), (b, y)| {
                x.extend(y);
                trim(&mut x, sample);
                (a + b, x)
            },
        );
    if progress.stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    trim(&mut kept, sample);
    let mut positions: Vec<Position> = kept.into_iter().map(|e| e.1).collect();
    positions.sort_unstable_by(|a, b| a.board().cmp(b.board()));
    Ok(Some((found, positions)))
}

/// Whether puzzle `a` is better than `b` of the same grade: more tempting
/// wrong moves, then more decisions, then a larger worst loss, then more
/// wrong moves, then fewer passes, then the smaller board in notation
/// order (so the choice is deterministic).
pub fn better(a: &Measures, b: &Measures) -> bool {
    let key = |m: &Measures| {
        (
            std::cmp::Reverse(m.tempting()),
            std::cmp::Reverse(m.depth()),
            std::cmp::Reverse(m.worst_loss()),
            std::cmp::Reverse(m.wrong.len()),
            m.passes(),
        )
    };
    (key(a), a.position.board()) < (key(b), b.position.board())
}

/// The collection from level `k` (module docs): the chosen puzzles, by
/// grade and best first, and the report; `None` when stopped.
pub fn collect_level<R: Rules>(
    db: &Database,
    k: usize,
    options: CollectOptions,
    progress: &MineProgress,
) -> Result<Option<(Vec<Entry>, Report)>, DbError> {
    let Some((found, sample)) = candidates::<R>(db, k, options.sample, progress)? else {
        return Ok(None);
    };
    let mut report = Report {
        seeds: k,
        candidates: found,
        measured: sample.len() as u64,
        ..Report::default()
    };
    let natural: Vec<Entry> = sample
        .par_iter()
        .filter_map(|pos| {
            if progress.stop.load(Ordering::Relaxed) {
                return None;
            }
            let m = measure::<R>(db, pos, options.line_limit)?;
            is_natural(&m).then(|| Entry {
                grade: m.grade(),
                points: points(&m),
                measures: m,
            })
        })
        .collect();
    if progress.stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    for e in &natural {
        report.natural[e.grade as usize] += 1;
    }
    let keys: Vec<_> = natural
        .iter()
        .map(|e| (e.measures.position, e.measures.solution, e.measures.value))
        .collect();
    let best = best_of_families(&keys, |i, j| {
        let (a, b) = (&natural[i], &natural[j]);
        // The hardest member stands for the family, then the best.
        a.points > b.points || (a.points == b.points && better(&a.measures, &b.measures))
    });
    let mut heads: Vec<Entry> = best.into_iter().map(|i| natural[i].clone()).collect();
    for e in &heads {
        report.families[e.grade as usize] += 1;
    }
    heads.sort_by(|a, b| {
        a.grade.cmp(&b.grade).then_with(|| {
            if better(&a.measures, &b.measures) {
                std::cmp::Ordering::Less
            } else if better(&b.measures, &a.measures) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
    });
    let chosen = choose(&heads, options.per_grade);
    for e in &chosen {
        report.chosen[e.grade as usize] += 1;
    }
    Ok(Some((chosen, report)))
}

/// What tells two puzzles of a level apart in the choice: the value and
/// the moves of the solution line, each with its mover (`None` for a
/// puzzle without a line).
pub type Idea = (i32, Option<Vec<(Side, Move)>>);

/// The [`Idea`] of a puzzle.
pub fn idea(m: &Measures) -> Idea {
    let line = m
        .line
        .as_ref()
        .map(|l| l.iter().map(|p| (p.mover, p.mv)).collect());
    (m.value, line)
}

/// The choice of one level (module docs, step 4) from `heads`, given by
/// grade and best first: of each grade in turn, the first `per_grade`
/// whose [`idea`] no puzzle chosen before has. No two puzzles chosen have
/// the same idea; a grade has fewer than `per_grade` only when its heads
/// hold fewer new ideas.
pub fn choose(heads: &[Entry], per_grade: usize) -> Vec<Entry> {
    let mut seen = HashSet::new();
    let mut chosen = Vec::new();
    for g in Grade::ALL {
        let mut taken = 0;
        for e in heads.iter().filter(|e| e.grade == g) {
            if taken == per_grade {
                break;
            }
            if seen.insert(idea(&e.measures)) {
                taken += 1;
                chosen.push(e.clone());
            }
        }
    }
    chosen
}

/// The collection from the choices of several levels ([`collect_level`]
/// on each, in the order wanted): by grade, then by level, then best
/// first.
pub fn merge(levels: &[Vec<Entry>]) -> Vec<Entry> {
    let mut entries = Vec::new();
    for g in Grade::ALL {
        for level in levels {
            entries.extend(level.iter().filter(|e| e.grade == g).cloned());
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::measures::Ply;
    use crate::side::ByPlayer;
    use crate::Setup;

    /// A puzzle of `grade` at `pos` with value `value` whose line is
    /// South's `moves` (no line when there are none); the other measures
    /// play no part in the choice.
    fn entry(pos: &str, value: i32, grade: Grade, moves: &[u8]) -> Entry {
        let position = Position::from_setup(&pos.parse::<Setup>().unwrap()).unwrap();
        let line = moves
            .iter()
            .map(|&m| Ply {
                mover: Side::South,
                mv: Move::Pit(m),
                choices: 2,
                captures: 0,
            })
            .collect::<Vec<_>>();
        Entry {
            measures: Measures {
                position,
                value,
                solution: line.first().map_or(Move::Pit(1), |p| p.mv),
                solution_captures: 0,
                moves: 2,
                wrong: Vec::new(),
                line: (!line.is_empty()).then_some(line),
                seeds: ByPlayer::new(0, 0),
                occupied: ByPlayer::new(0, 0),
            },
            grade,
            points: 0,
        }
    }

    #[test]
    fn the_choice_shows_each_idea_once() {
        let heads = vec![
            entry("S 1,1,0/1,0,1 0-0", 4, Grade::Easy, &[2]),
            // The same line and value: passed over.
            entry("S 0,1,1/0,1,1 0-0", 4, Grade::Easy, &[2]),
            // The same line, another value: a new idea.
            entry("S 2,1,0/0,0,1 0-0", 2, Grade::Easy, &[2]),
            entry("S 1,0,1/1,1,0 0-0", 4, Grade::Easy, &[3]),
            // The idea of an easy one already chosen: passed over in any
            // grade.
            entry("S 1,1,1/1,0,0 0-0", 4, Grade::Hard, &[2]),
            entry("S 1,1,1/0,1,0 0-0", 4, Grade::Hard, &[2, 1]),
            entry("S 1,1,1/0,0,1 0-0", 4, Grade::Hard, &[1, 2]),
            // No line is one idea too.
            entry("S 3,0,0/0,0,1 0-0", 4, Grade::Expert, &[]),
            entry("S 0,3,0/0,0,1 0-0", 4, Grade::Expert, &[]),
        ];
        let pick = |per: usize| -> Vec<usize> {
            choose(&heads, per)
                .iter()
                .map(|c| heads.iter().position(|h| h == c).unwrap())
                .collect()
        };
        assert_eq!(pick(1), vec![0, 5, 7]);
        assert_eq!(pick(2), vec![0, 2, 5, 6, 7]);
        assert_eq!(pick(9), vec![0, 2, 3, 5, 6, 7]);
        // Every puzzle chosen has an idea of its own.
        let chosen = choose(&heads, 9);
        let ideas: HashSet<Idea> = chosen.iter().map(|e| idea(&e.measures)).collect();
        assert_eq!(ideas.len(), chosen.len());
    }
}
