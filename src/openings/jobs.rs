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
pub(super) fn estimate(
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
    pub(super) split: &'a Split,
    pub(super) done: &'a BTreeMap<usize, Summary>,
    pub(super) spent: f64,
    pub(super) seconds: f64,
    pub(super) fresh: usize,
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

/// How a run of `split` ends once its checkpoint is saved: finished when
/// every job is done (the summaries combined), else stopped with the
/// extrapolation ([`estimate`]); `spent` seconds of earlier runs, `seconds`
/// of this one, which resumed `resumed` jobs done before. The single
/// process's run and the dealing rank's share it.
pub(super) fn ending(
    split: &Split,
    checkpoint: &Checkpoint,
    spent: f64,
    seconds: f64,
    resumed: usize,
) -> Outcome {
    let done = &checkpoint.done;
    if done.len() < split.jobs.len() {
        return Outcome::Stopped(estimate(split, done, spent, seconds, done.len() - resumed));
    }
    Outcome::Finished {
        summary: split.combine(done),
        seconds: checkpoint.seconds,
        earlier: spent,
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
    pub(super) explorer: &'a Explorer<R>,
    pub(super) split: Split,
    pub(super) checkpoint: Checkpoint,
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
        Ok(ending(
            split,
            checkpoint,
            spent,
            start.elapsed().as_secs_f64(),
            resumed,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dakon::Dakon;
    use crate::openings::{Count, Criterion, Wins};

    /// A summary of `turns` first turns, `wins` of them winning under each
    /// threshold.
    fn summary(turns: u64, wins: [u64; 2]) -> Summary {
        Summary {
            turns: Count::from(turns),
            wins: wins.map(|w| Wins {
                winning: Count::from(w),
                shortest: (w > 0).then_some(1),
                longest: (w > 0).then_some(3),
            }),
        }
    }

    /// Whether `a` and `b` agree to rounding, or are both NaN.
    fn close(a: f64, b: f64) -> bool {
        (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn extrapolates_a_hand_computed_sample() {
        let pos = "dakon:4x4".parse::<Variant>().unwrap().start();
        // Two first turns ended before the cut (one winning under the
        // first threshold); four jobs, reached by 1, 2, 1 and 3 chains.
        let split = Split {
            depth: 1,
            ended: summary(2, [1, 0]),
            jobs: [1, 2, 1, 3].map(|t| (pos, Count::from(t))).to_vec(),
        };
        // Jobs 0 and 1 done: 1 x 10 and 2 x 7 first turns, so 10 and 14
        // by job, mean 12, sample variance ((10-12)^2 + (14-12)^2)/1 = 8.
        let done = BTreeMap::from([(0, summary(10, [4, 1])), (1, summary(7, [2, 0]))]);
        let p = estimate(&split, &done, 4.0, 6.0, 2);
        assert_eq!((p.done, p.jobs), (2, 4));
        assert!(close(p.seconds, 10.0));
        assert_eq!(p.so_far.turns, Count::from(2 + 10 + 2 * 7));
        assert_eq!(p.so_far.wins[0].winning, Count::from(1 + 4 + 2 * 2));
        assert_eq!(p.so_far.wins[1].winning, Count::from(1));
        // Ended, plus the sample's sum times 4/2.
        assert!(close(p.turns, 2.0 + 24.0 * 2.0), "{}", p.turns);
        assert!(close(p.winning[0], 1.0 + (4.0 + 2.0 * 2.0) * 2.0));
        assert!(close(p.winning[1], 2.0));
        // N sqrt(s^2/k (1 - k/N)) = 4 sqrt(8/2 x 1/2) = 4 sqrt 2.
        assert!(close(p.error, 4.0 * 2f64.sqrt()), "{}", p.error);
        // 6 s for 2 jobs, 2 left.
        assert!(close(p.left, 6.0));
        // Every job done: the exact totals, no sampling error.
        let mut all = done.clone();
        all.insert(2, summary(5, [0, 0]));
        all.insert(3, summary(1, [1, 1]));
        let p = estimate(&split, &all, 0.0, 8.0, 4);
        assert!(close(p.turns, 2.0 + 10.0 + 14.0 + 5.0 + 3.0));
        assert!(close(p.error, 0.0), "{}", p.error);
        assert!(close(p.left, 0.0));
        // One job: no error; none: the short chains alone, nothing known of
        // the time left.
        let one = BTreeMap::from([(1, summary(7, [2, 0]))]);
        let p = estimate(&split, &one, 0.0, 1.0, 1);
        assert!(close(p.turns, 2.0 + 14.0 * 4.0) && p.error.is_nan());
        let p = estimate(&split, &BTreeMap::new(), 3.0, 1.0, 0);
        assert_eq!(p.so_far, split.ended);
        assert!(close(p.turns, 2.0) && close(p.winning[0], 1.0) && close(p.winning[1], 0.0));
        assert!(p.error.is_nan() && p.left.is_nan());
        assert!(close(p.seconds, 4.0));
    }

    /// Jobs asked of a count of `dakon:4x4` (it has 154 first turns, and
    /// 9 jobs after 6 moves).
    const MIN_JOBS: usize = 8;

    /// `dakon:4x4`'s start, and the thresholds of both criteria.
    fn dakon_4() -> (Variant, Position, [usize; 2]) {
        let variant: Variant = "dakon:4x4".parse().unwrap();
        let pos = variant.start();
        let needs = [Criterion::Majority, Criterion::Strong]
            .map(|c| c.threshold(pos.total_seeds(), variant.s()));
        (variant, pos, needs)
    }

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// Runs the count of `dakon:4x4` from `resume` with `options`,
    /// cancelling the explorer once `cancel_at` jobs are done: the outcome
    /// and the checkpoint last saved.
    fn run(
        resume: Option<Checkpoint>,
        options: &RunOptions,
        cancel_at: Option<usize>,
    ) -> (Outcome, Checkpoint) {
        let (variant, pos, needs) = dakon_4();
        let explorer = Explorer::<Dakon>::with_thresholds(needs, 0);
        let runner = Runner::new(&explorer, &variant, &pos, MIN_JOBS, resume).unwrap();
        let mut saved = None;
        let outcome = runner
            .run(
                &pool(2),
                options,
                |c| {
                    saved = Some(c.clone());
                    Ok::<(), ()>(())
                },
                |p| {
                    if cancel_at.is_some_and(|n| p.done() >= n) {
                        explorer.cancel();
                    }
                },
            )
            .unwrap();
        (outcome, saved.expect("saved at the end"))
    }

    /// The summary of a finished count.
    fn finished(outcome: Outcome) -> Summary {
        match outcome {
            Outcome::Finished { summary, .. } => summary,
            Outcome::Stopped(p) => panic!("stopped after {} of {} jobs", p.done, p.jobs),
        }
    }

    #[test]
    fn a_stopped_count_resumed_gives_the_uninterrupted_totals() {
        let (_, pos, needs) = dakon_4();
        let whole = Explorer::<Dakon>::with_thresholds(needs, 0).summary(&pos);
        assert!(!whole.wins[0].winning.is_zero() && whole.wins[0] != whole.wins[1]);
        let (outcome, full) = run(None, &RunOptions::default(), None);
        assert_eq!(finished(outcome), whole);
        assert!(full.jobs >= MIN_JOBS && full.done.len() == full.jobs);
        // Stopped at once: nothing done, and an empty checkpoint.
        let stop = RunOptions {
            stop_after: Some(0.0),
            ..RunOptions::default()
        };
        let (outcome, empty) = run(None, &stop, None);
        let Outcome::Stopped(p) = outcome else {
            panic!("not stopped")
        };
        assert_eq!((p.done, p.jobs, empty.done.len()), (0, full.jobs, 0));
        // Stopped with half of the jobs done (those a run on one thread
        // does first), after 5 s of earlier runs: what they hold, saved.
        let explorer = Explorer::<Dakon>::with_thresholds(needs, 0);
        let split = explorer.split_at(&pos, full.depth);
        let mut half = empty.clone();
        half.seconds = 5.0;
        for j in split.order().into_iter().take(full.jobs / 2) {
            half.done
                .insert(j, explorer.job_summary(&split.jobs[j].0).unwrap());
        }
        let (outcome, saved) = run(Some(half.clone()), &stop, None);
        let Outcome::Stopped(p) = outcome else {
            panic!("not stopped")
        };
        assert_eq!(
            (p.done, &p.so_far),
            (half.done.len(), &split.combine(&half.done))
        );
        assert!(p.turns.is_finite() && p.seconds >= 5.0);
        assert_eq!(saved.done, half.done);
        // Resumed through its text to the end: the uninterrupted totals,
        // and the seconds of every run.
        let saved = Checkpoint::parse(&saved.to_text()).unwrap();
        let (outcome, _) = run(Some(saved), &RunOptions::default(), None);
        let Outcome::Finished {
            summary,
            seconds,
            earlier,
        } = outcome
        else {
            panic!("stopped")
        };
        assert_eq!(summary, whole);
        assert!(earlier >= 5.0 && seconds >= earlier);
        // Cancelled once a job is done, however many are done by then:
        // resumed, the same totals.
        let (outcome, saved) = run(None, &RunOptions::default(), Some(1));
        if let Outcome::Stopped(p) = &outcome {
            assert_eq!(p.so_far, split.combine(&saved.done));
            assert!(p.done < p.jobs && p.done == saved.done.len());
        }
        let (outcome, _) = run(Some(saved), &RunOptions::default(), None);
        assert_eq!(finished(outcome), whole);
    }

    #[test]
    fn the_checkpoint_is_saved_on_time_and_a_failed_save_cancels() {
        let (variant, pos, needs) = dakon_4();
        let count_saves = |every: Duration| {
            let explorer = Explorer::<Dakon>::with_thresholds(needs, 0);
            let runner = Runner::new(&explorer, &variant, &pos, MIN_JOBS, None).unwrap();
            let jobs = runner.split().jobs.len();
            let mut saves = Vec::new();
            let options = RunOptions {
                save_every: every,
                ..RunOptions::default()
            };
            let outcome = runner.run(
                &pool(2),
                &options,
                |c| {
                    saves.push(c.done.len());
                    Ok::<(), ()>(())
                },
                |_| {},
            );
            assert!(matches!(outcome, Ok(Outcome::Finished { .. })));
            (jobs, saves)
        };
        // Not yet due: only the save at the end, with every job.
        let (jobs, saves) = count_saves(Duration::from_secs(3600));
        assert_eq!(saves, [jobs]);
        // Always due: a save after each job received, then the last one.
        let (jobs, saves) = count_saves(Duration::ZERO);
        assert!(saves.len() > jobs, "{saves:?}");
        assert!(saves.windows(2).all(|w| w[0] <= w[1]), "{saves:?}");
        assert_eq!(saves.last(), Some(&jobs));
        // A save that fails: the count is cancelled and the error returned.
        let explorer = Explorer::<Dakon>::with_thresholds(needs, 0);
        let runner = Runner::new(&explorer, &variant, &pos, MIN_JOBS, None).unwrap();
        let options = RunOptions {
            save_every: Duration::ZERO,
            ..RunOptions::default()
        };
        let outcome = runner.run(&pool(2), &options, |_| Err("disk full"), |_| {});
        assert_eq!(outcome, Err("disk full"));
        assert_eq!(explorer.job_summary(&pos), None);
    }

    #[test]
    fn a_checkpoint_of_another_count_is_refused() {
        let (variant, pos, needs) = dakon_4();
        let (_, full) = run(None, &RunOptions::default(), None);
        let explorer = Explorer::<Dakon>::with_thresholds(needs, 0);
        let resume =
            |c: &Checkpoint| Runner::new(&explorer, &variant, &pos, MIN_JOBS, Some(c.clone()));
        assert!(resume(&full).is_ok());
        let other = Checkpoint {
            needs: [needs[0], needs[0]],
            ..full.clone()
        };
        assert_eq!(
            resume(&other).err(),
            Some(ResumeError::OtherCount {
                game: "dakon:4x4".into(),
                position: pos.to_string(),
                needs: other.needs,
            })
        );
        let other = Checkpoint {
            game: "dakon:5x5".into(),
            ..full.clone()
        };
        assert!(matches!(
            resume(&other).err(),
            Some(ResumeError::OtherCount { .. })
        ));
        let other = Checkpoint {
            fingerprint: full.fingerprint ^ 1,
            ..full.clone()
        };
        assert_eq!(resume(&other).err(), Some(ResumeError::OtherCut));
        let other = Checkpoint {
            jobs: full.jobs + 1,
            ..full
        };
        assert_eq!(resume(&other).err(), Some(ResumeError::OtherCut));
    }
}
