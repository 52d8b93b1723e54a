//! Counting Dakon's first turns (`openings --count`): first turns per
//! second on `dakon:6x6` (7,657,399 first turns), on one thread and on
//! two, with no summaries kept (the default) and with a memo of 1 GiB, the
//! two criteria at once (`--both`). The count is cut into jobs as the
//! command does (at least 20,000, `Explorer::split`).
//!
//! Run with `cargo bench --bench openings`; criterion reports first turns
//! per second ("elem/s").

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mancala::games::dakon::Dakon;
use mancala::openings::{Criterion as Winning, Explorer, Summary};
use mancala::Variant;
use std::time::Duration;

/// The count as `openings --count --both` makes it, without the
/// checkpoint: split, then the jobs in parallel.
fn count(pos: &mancala::Position, needs: [usize; 2], memory: usize) -> Summary {
    use rayon::prelude::*;
    let explorer = Explorer::<Dakon>::with_thresholds(needs, memory);
    let split = explorer.split(pos, 20_000);
    let done: std::collections::BTreeMap<usize, Summary> = split
        .jobs
        .par_iter()
        .with_max_len(1)
        .enumerate()
        .map(|(j, (p, _))| (j, explorer.job_summary(p).expect("not cancelled")))
        .collect();
    split.combine(&done)
}

fn openings(c: &mut Criterion) {
    let variant: Variant = "dakon:6x6".parse().expect("a variant");
    let pos = variant.start();
    let total = pos.total_seeds();
    let needs = [Winning::Majority, Winning::Strong].map(|w| w.threshold(total, variant.s()));
    let turns = count(&pos, needs, 0).turns.to_u128().expect("small") as u64;
    println!("openings: {variant} has {turns} first turns");
    let mut group = c.benchmark_group("openings");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1))
        .throughput(Throughput::Elements(turns));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        for (name, memory) in [("no memo", 0), ("memo 1 GiB", 1 << 30)] {
            group.bench_function(
                BenchmarkId::new(format!("{variant} {name}"), format!("{threads} threads")),
                |b| b.iter(|| pool.install(|| count(&pos, needs, memory))),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, openings);
criterion_main!(benches);
