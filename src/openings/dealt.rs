//! A count's jobs dealt out to ranks ([`Runner::run_dealt`]): rank 0 deals
//! the jobs and keeps the checkpoint; every other rank asks for jobs,
//! counts them on its threads, and sends their summaries back with its
//! next request. Rank 0 combines them exactly as one process does.
//!
//! # Messages
//!
//! Both ways, short texts:
//!
//! - a rank's request is a line `want T` (how many jobs it asks for: its
//!   threads) followed by a [`Checkpoint`]'s text whose `done` lines are
//!   the summaries of the jobs it finished since its last request (none in
//!   its first);
//! - rank 0's answer is the job indices dealt, separated by spaces, in the
//!   order of [`super::Split::order`]; none means that no job is left: the
//!   rank stops.
//!
//! So a job is dealt once and its summary comes back once; a rank that
//! dies loses only the jobs it holds. Rank 0 saves the checkpoint as one
//! process does (every [`RunOptions::save_every`] and at the end), so a
//! run ended by the death of a rank (MPI ends them all) resumes from the
//! checkpoint, losing those jobs and the seconds since the last save.

use super::jobs::{ending, Outcome, Progress, RunOptions, Runner};
use super::{Checkpoint, Summary};
use crate::db::ranks::Ranks;
use crate::games::Rules;
use std::collections::VecDeque;
use std::time::Instant;

impl<R: Rules> Runner<'_, R> {
    /// [`Runner::run`] on ranks (every rank calls it; there must be two
    /// at least): on rank 0, deals the jobs left and returns the outcome
    /// as [`Runner::run`] does, `save` and `progress` called as there; on
    /// the others, counts the jobs dealt on `pool` and returns `None`
    /// (never calling `save` or `progress`). `hook` is called on a
    /// counting rank after each batch of jobs with the jobs it has done
    /// (tests end a rank there).
    pub fn run_dealt<E>(
        self,
        pool: &rayon::ThreadPool,
        options: &RunOptions,
        ranks: &dyn Ranks,
        save: impl FnMut(&Checkpoint) -> Result<(), E>,
        progress: impl FnMut(&Progress<'_>),
        hook: impl FnMut(usize),
    ) -> Result<Option<Outcome>, E> {
        assert!(ranks.size() >= 2, "a rank deals, the others count");
        if ranks.rank() == 0 {
            self.deal(options, ranks, save, progress).map(Some)
        } else {
            self.count(pool, ranks, hook);
            Ok(None)
        }
    }

    /// Rank 0: deals the jobs left, gathers their summaries.
    fn deal<E>(
        mut self,
        options: &RunOptions,
        ranks: &dyn Ranks,
        mut save: impl FnMut(&Checkpoint) -> Result<(), E>,
        mut progress: impl FnMut(&Progress<'_>),
    ) -> Result<Outcome, E> {
        let start = Instant::now();
        let spent = self.checkpoint.seconds;
        let split = &self.split;
        let checkpoint = &mut self.checkpoint;
        let mut todo: VecDeque<usize> = split
            .order()
            .into_iter()
            .filter(|j| !checkpoint.done.contains_key(j))
            .collect();
        let resumed = checkpoint.done.len();
        let past = |limit: f64| start.elapsed().as_secs_f64() >= limit;
        let mut counting = ranks.size() - 1;
        let mut last_save = Instant::now();
        let mut failed = None;
        while counting > 0 {
            let (from, text) = ranks.receive_message(None);
            let (want, done) = parse_request(&String::from_utf8_lossy(&text));
            checkpoint.done.extend(done);
            let late = options.stop_after.is_some_and(past) || failed.is_some();
            let dealt: Vec<usize> = if late {
                Vec::new()
            } else {
                let n = want.min(todo.len());
                todo.drain(..n).collect()
            };
            if dealt.is_empty() {
                counting -= 1;
            }
            let answer: Vec<String> = dealt.iter().map(usize::to_string).collect();
            ranks.send_message(from, answer.join(" ").as_bytes());
            if failed.is_none() && last_save.elapsed() >= options.save_every {
                checkpoint.seconds = spent + start.elapsed().as_secs_f64();
                failed = save(checkpoint).err();
                last_save = Instant::now();
            }
            progress(&Progress {
                split,
                done: &checkpoint.done,
                spent,
                seconds: start.elapsed().as_secs_f64(),
                fresh: checkpoint.done.len() - resumed,
            });
        }
        if let Some(e) = failed {
            return Err(e);
        }
        checkpoint.seconds = spent + start.elapsed().as_secs_f64();
        save(checkpoint)?;
        Ok(ending(
            split,
            checkpoint,
            spent,
            start.elapsed().as_secs_f64(),
            resumed,
        ))
    }

    /// A counting rank: asks for as many jobs as `pool` has threads,
    /// counts them side by side, sends their summaries with the next
    /// request, until none is dealt.
    fn count(&self, pool: &rayon::ThreadPool, ranks: &dyn Ranks, mut hook: impl FnMut(usize)) {
        use rayon::prelude::*;
        let mut results: Vec<(usize, Summary)> = Vec::new();
        let mut total = 0;
        loop {
            let done = Checkpoint {
                jobs: self.split.jobs.len(),
                done: results.drain(..).collect(),
                ..Checkpoint::default()
            };
            let request = format!("want {}\n{}", pool.current_num_threads(), done.to_text());
            ranks.send_message(0, request.as_bytes());
            let (_, answer) = ranks.receive_message(Some(0));
            let jobs: Vec<usize> = String::from_utf8_lossy(&answer)
                .split_whitespace()
                .map(|j| j.parse().expect("rank 0 deals job indices"))
                .collect();
            if jobs.is_empty() {
                return;
            }
            let (explorer, split) = (self.explorer, &self.split);
            results = pool.install(|| {
                jobs.par_iter()
                    .with_max_len(1)
                    .filter_map(|&j| explorer.job_summary(&split.jobs[j].0).map(|s| (j, s)))
                    .collect()
            });
            total += results.len();
            hook(total);
        }
    }
}

/// A counting rank's request: the jobs it asks for and the summaries it
/// sends (see the module docs; its own text, so never malformed).
fn parse_request(text: &str) -> (usize, std::collections::BTreeMap<usize, Summary>) {
    let (want, done) = text.split_once('\n').expect("a request has two parts");
    let want = want
        .strip_prefix("want ")
        .and_then(|n| n.parse().ok())
        .expect("a request says how many jobs it wants");
    let done = Checkpoint::parse(done).expect("a request's summaries are a checkpoint's");
    (want, done.done)
}
