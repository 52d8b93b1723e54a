//! Winning openings: South's first turns that win the game outright.
//!
//! A **first turn** is a chain of South's moves from a position with South
//! to move, joined by extra moves: every move but the last gives South the
//! move again, and the last passes the turn or ends the game. A first turn
//! is **winning** when South's captured seeds after it reach a threshold
//! (`rules.md`, Dakon): more than half of all seeds ([`Criterion::Majority`])
//! or all but one pit's worth, `2ns - s` ([`Criterion::Strong`]). Captured
//! seeds are never lost, so either way South has won whatever North does.
//! When the turn ends the game, the final scores count (the end-of-game
//! allocation is part of the outcome South has secured).
//!
//! **Counting.** The number of first turns grows exponentially with the
//! board (`dakon:6x6` has 7.7 million, `dakon:7x7` tens of billions), so
//! [`Explorer::summary`] counts over the DAG of positions: the summary of a
//! position (how many first turns continue from it, how many win, the
//! shortest and longest winning ones) is the sum over its moves. In every
//! game an extra move captures or stores at least one seed for the mover,
//! so South's captured seeds grow along a chain and a first turn always
//! ends. Counts are exact integers of any size ([`Count`]).
//!
//! **Jobs.** A long count is cut into jobs ([`Explorer::split`]): the chains
//! are followed breadth first, merging the chains that meet in one position
//! and counting how many reach it, until a layer holds enough positions;
//! each position of that layer is a job, and the whole is the sum of the
//! jobs' summaries, each times its number of chains ([`Split::combine`]).
//! A [`Runner`] runs the jobs side by side on rayon's threads: they can be
//! done in any order, and saved as they finish ([`Checkpoint`]), so a
//! count can stop and resume. Done in a fixed random order
//! ([`Split::order`]), the jobs finished so far are a random sample, from
//! which the time left and the totals extrapolate ([`Partial`]).
//!
//! **Below the cut** chains rarely meet again, and a walk is cheaper than
//! a lookup: the explorer keeps summaries (in a concurrent map,
//! [`dashmap`], keyed by the board and the captured seeds) only when given
//! memory for them, and then only of positions with large subtrees. On
//! `dakon:6x6`, 2.2 million distinct positions carry 7.7 million first
//! turns; on `dakon:7x7` a walk without the map did 1.5 times the jobs of
//! one with 4 GiB of it in the same two minutes.
//!
//! **Listing** ([`Explorer::for_each_winning`]) walks every first turn in
//! order on one thread, and finds the same summary on the way.
//!
//! **Parts.** [`Count`] is the number type; [`Criterion`], [`Wins`] and
//! [`Summary`] say what is counted; [`Explorer`] walks the first turns,
//! counting or listing them; [`Split`] cuts a count into jobs;
//! [`Checkpoint`] keeps the jobs done in a file; and [`Runner`] runs the
//! jobs, saving, stopping and extrapolating, for a caller that shows its
//! progress and prints. [`shortest`] searches for a winning first turn of
//! the fewest moves instead of counting them all.

mod checkpoint;
mod count;
mod dealt;
mod explorer;
mod jobs;
pub mod settle;
pub mod shortest;
mod split;
mod summary;

pub use checkpoint::{Checkpoint, CheckpointError};
pub use count::{Count, CountParseError};
pub use explorer::{Explorer, KEPT_BYTES};
pub use jobs::{Outcome, Partial, Progress, ResumeError, RunOptions, Runner};
pub use split::Split;
pub use summary::{Criterion, Summary, Wins};
