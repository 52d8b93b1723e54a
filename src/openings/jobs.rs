//! Running a count job by job ([`Runner`]): the jobs of a [`Split`] side by
//! side on a thread pool, resumed from and saved to a [`Checkpoint`],
//! stopped on request, and the whole extrapolated from the jobs done
//! ([`Partial`]).
//!
//! The runner prints nothing: it hands the checkpoint to a `save` callback
//! (which writes it, or not) and reports its state to a `progress`
//! callback, both called on the thread that runs it.

use super::{Checkpoint, Explorer, Split, Summary};
use crate::games::Rules;
use crate::position::Position;
use crate::variant::Variant;
use std::collections::BTreeMap;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How a count runs ([`Runner::run`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RunOptions {
    /// Stop after this many seconds of this run: the jobs under way are
    /// dropped, not waited for (on a big board one job can take hours).
    pub stop_after: Option<f64>,
    /// Time between two saves of the checkpoint; the last save is at the
    /// end of the run, stopped or not.
    pub save_every: Duration,
}

impl Default for RunOptions {
    /// No stop; a save every ten seconds.
    fn default() -> Self {
        RunOptions {
            stop_after: None,
            save_every: Duration::from_secs(10),
        }
    }
}

/// Why a checkpoint cannot resume a count ([`Runner::new`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    /// The checkpoint was made for another game, position or thresholds:
    /// these, as it holds them.
    #[error("it was made for {game}, position {position}, thresholds {} and {}", needs[0], needs[1])]
    OtherCount {
        /// [`Checkpoint::game`].
        game: String,
        /// [`Checkpoint::position`].
        position: String,
        /// [`Checkpoint::needs`].
        needs: [usize; 2],
    },
    /// The checkpoint's jobs are not this version's cut of the count.
    #[error("its jobs are not this version's cut of the count")]
    OtherCut,
}

/// A count stopped before its end: the jobs done and what they
/// extrapolate to. Done in the fixed random order of [`Split::order`], the
/// jobs done are a random sample of all, so their mean per job, times the
/// jobs, estimates the whole.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Partial {
    /// Jobs done, over every run.
    pub done: usize,
    /// Jobs in all.
    pub jobs: usize,
    /// Seconds spent on the count, over every run.
    pub seconds: f64,
    /// The first turns of the finished jobs and of the split's short
    /// chains.
    pub so_far: Summary,
    /// The estimate of every first turn (the short chains' alone before
    /// any job is done).
    pub turns: f64,
    /// The standard error of `turns` (NaN below two jobs done).
    pub error: f64,
    /// The estimates of the winning first turns under each threshold.
    pub winning: [f64; 2],
    /// The estimate of the seconds left (NaN before this run has done a
    /// job).
    pub left: f64,
}

/// The extrapolation from the jobs of `split` done (`done`, summaries by
/// job index), after `spent` seconds of earlier runs and `seconds` of this
/// one, in which `fresh` of the jobs were done.
fn estimate(
    split: &Split,
    done: &BTreeMap<usize, Summary>,
    spent: f64,
    seconds: f64,
    fresh: usize,
) -> Partial {
    let so_far = split.combine(done);
    let jobs = split.jobs.len();
    let k = done.len();
    let mut sums = [0f64; 3];
    let mut squares = 0f64;
    for (j, s) in done {
        let times = split.jobs[*j].1.to_f64();
        let turns = times * s.turns.to_f64();
        sums[0] += turns;
        squares += turns * turns;
        sums[1] += times * s.wins[0].winning.to_f64();
        sums[2] += times * s.wins[1].winning.to_f64();
    }
    let scale = if k == 0 { 0.0 } else { jobs as f64 / k as f64 };
    let ended = &split.ended;
    // The standard error of the extrapolated first turns: a simple random
    // sample of `k` jobs of `jobs`, without replacement.
    let error = if k < 2 {
        f64::NAN
    } else {
        let (k, n) = (k as f64, jobs as f64);
        let mean = sums[0] / k;
        let variance = (squares - k * mean * mean).max(0.0) / (k - 1.0);
        n * (variance / k * (1.0 - k / n)).sqrt()
    };
    Partial {
        done: k,
        jobs,
        seconds: spent + seconds,
        so_far,
        turns: ended.turns.to_f64() + sums[0] * scale,
        error,
        winning: [
            ended.wins[0].winning.to_f64() + sums[1] * scale,
            ended.wins[1].winning.to_f64() + sums[2] * scale,
        ],
        left: if fresh == 0 {
            f64::NAN
        } else {
            seconds / fresh as f64 * (jobs - k) as f64
        },
    }
}

/// A count under way, as [`Runner::run`] shows it to its `progress`
/// callback.
pub struct Progress<'a> {
    split: &'a Split,
    done: &'a BTreeMap<usize, Summary>,
    spent: f64,
    seconds: f64,
    fresh: usize,
}

impl Progress<'_> {
    /// Jobs done, over every run.
    pub fn done(&self) -> usize {
        self.done.len()
    }

    /// Jobs in all.
    pub fn jobs(&self) -> usize {
        self.split.jobs.len()
    }

    /// Seconds of this run so far.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The extrapolation from the jobs done so far (a sum over them: call
    /// it only when it is shown).
    pub fn estimate(&self) -> Partial {
        estimate(self.split, self.done, self.spent, self.seconds, self.fresh)
    }
}

/// How a run ended ([`Runner::run`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Every job is done.
    Finished {
        /// The summary of every first turn.
        summary: Summary,
        /// Seconds spent on the count, over every run.
        seconds: f64,
        /// Of these, the seconds of earlier runs (from the checkpoint
        /// resumed; 0 for a fresh count).
        earlier: f64,
    },
    /// Stopped first ([`RunOptions::stop_after`], or the explorer was
    /// cancelled): what is done, and an extrapolation.
    Stopped(Partial),
}

/// Counts the first turns from a position job by job ([`Explorer::split`]):
/// made with [`Runner::new`], which cuts the count or takes the cut of a
/// checkpoint, then run once with [`Runner::run`].
pub struct Runner<'a, R: Rules> {
    explorer: &'a Explorer<R>,
    split: Split,
    checkpoint: Checkpoint,
}

impl<'a, R: Rules> Runner<'a, R> {
    /// A count of the first turns from `pos` in `variant` under the
    /// explorer's thresholds, cut into at least `min_jobs` jobs, or, when
    /// resuming a checkpoint, into the checkpoint's jobs (with those done
    /// kept). Refused when the checkpoint is of another count.
    pub fn new(
        explorer: &'a Explorer<R>,
        variant: &Variant,
        pos: &Position,
        min_jobs: usize,
        resume: Option<Checkpoint>,
    ) -> Result<Self, ResumeError> {
        let (game, position, needs) = (variant.to_string(), pos.to_string(), explorer.needs());
        if let Some(c) = &resume {
            if c.game != game || c.position != position || c.needs != needs {
                return Err(ResumeError::OtherCount {
                    game: c.game.clone(),
                    position: c.position.clone(),
                    needs: c.needs,
                });
            }
        }
        let split = match &resume {
            Some(c) => explorer.split_at(pos, c.depth),
            None => explorer.split(pos, min_jobs),
        };
        let fingerprint = split.fingerprint();
        let checkpoint = resume.unwrap_or_else(|| Checkpoint {
            game,
            position,
            needs,
            depth: split.depth,
            jobs: split.jobs.len(),
            fingerprint,
            seconds: 0.0,
            done: BTreeMap::new(),
        });
        if checkpoint.jobs != split.jobs.len() || checkpoint.fingerprint != fingerprint {
            return Err(ResumeError::OtherCut);
        }
        Ok(Runner {
            explorer,
            split,
            checkpoint,
        })
    }

    /// The count's cut into jobs.
    pub fn split(&self) -> &Split {
        &self.split
    }

    /// The jobs done so far (by earlier runs, before [`Runner::run`]).
    pub fn checkpoint(&self) -> &Checkpoint {
        &self.checkpoint
    }

    /// Does the jobs left, side by side on `pool`, in the order of
    /// [`Split::order`]. Calls `save` with the checkpoint (its seconds
    /// brought up to date) every [`RunOptions::save_every`] and at the
    /// end; a failed save cancels the count and is returned. Calls
    /// `progress` at least every half second and after each job done.
    pub fn run<E>(
        mut self,
        pool: &rayon::ThreadPool,
        options: &RunOptions,
        mut save: impl FnMut(&Checkpoint) -> Result<(), E>,
        mut progress: impl FnMut(&Progress<'_>),
    ) -> Result<Outcome, E> {
        let start = Instant::now();
        let spent = self.checkpoint.seconds;
        let (explorer, split) = (self.explorer, &self.split);
        let checkpoint = &mut self.checkpoint;
        let mut save = |c: &mut Checkpoint| {
            c.seconds = spent + start.elapsed().as_secs_f64();
            save(c)
        };
        let past = |limit: f64| start.elapsed().as_secs_f64() >= limit;
        let todo: Vec<usize> = split
            .order()
            .into_iter()
            .filter(|j| !checkpoint.done.contains_key(j))
            .collect();
        let resumed = checkpoint.done.len();
        let (tx, rx) = mpsc::channel::<(usize, Summary)>();
        let result = std::thread::scope(|scope| {
            let worker = scope.spawn(|| {
                pool.install(|| {
                    use rayon::prelude::*;
                    todo.par_iter().with_max_len(1).for_each_with(tx, |tx, &j| {
                        if options.stop_after.is_some_and(past) {
                            explorer.cancel();
                        }
                        // Cancelled (late, or the checkpoint cannot be
                        // written), every job left returns at once, empty.
                        if let Some(s) = explorer.job_summary(&split.jobs[j].0) {
                            let _ = tx.send((j, s));
                        }
                    });
                })
            });
            let mut last_save = Instant::now();
            let mut fresh = 0usize;
            let mut failed = None;
            loop {
                match rx.recv_timeout(Duration::from_millis(500)) {
                    Ok((j, s)) => {
                        checkpoint.done.insert(j, s);
                        fresh += 1;
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => break,
                }
                if options.stop_after.is_some_and(past) {
                    // The jobs under way are dropped, not waited for.
                    explorer.cancel();
                }
                if failed.is_none() && last_save.elapsed() >= options.save_every {
                    failed = save(checkpoint).err();
                    if failed.is_some() {
                        explorer.cancel();
                    }
                    last_save = Instant::now();
                }
                progress(&Progress {
                    split,
                    done: &checkpoint.done,
                    spent,
                    seconds: start.elapsed().as_secs_f64(),
                    fresh,
                });
            }
            worker.join().expect("the workers do not panic");
            match failed {
                Some(e) => Err(e),
                None => save(checkpoint),
            }
        });
        result?;
        let seconds = start.elapsed().as_secs_f64();
        let done = &checkpoint.done;
        if done.len() < split.jobs.len() {
            return Ok(Outcome::Stopped(estimate(
                split,
                done,
                spent,
                seconds,
                done.len() - resumed,
            )));
        }
        Ok(Outcome::Finished {
            summary: split.combine(done),
            seconds: checkpoint.seconds,
            earlier: spent,
        })
    }
}
