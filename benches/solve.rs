//! Solver speed: time to solve Kalah boards from the start, with one and two
//! threads, each solve with a fresh 256 MiB table. The node counts are
//! printed first (a change to the search shows up as a changed count; with
//! two threads they vary from run to run).
//!
//! Run with `cargo bench --bench solve` (about ten minutes; `cargo bench
//! --bench solve -- 4x3` for one board). Kalah(6,4) takes too long for
//! criterion's repetitions: time it with `scripts/solve-table.sh`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mancala::games::Kalah;
use mancala::search::{Options, Solver};
use mancala::Variant;
use std::time::Duration;

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(1));
    for spec in [
        "kalah:4x3",
        "kalah:5x3",
        "kalah:4x5",
        "kalah:5x4",
        "kalah:6x3",
    ] {
        let v: Variant = spec.parse().unwrap();
        for threads in [1, 2] {
            let solver = || {
                Solver::new(Options {
                    threads,
                    tt_bytes: 256 << 20,
                    ..Options::default()
                })
            };
            let s = solver().solve::<Kalah>(&v.start()).unwrap();
            println!(
                "{spec} threads {threads}: value {} nodes {}",
                s.value, s.nodes
            );
            group.bench_with_input(BenchmarkId::new(spec, threads), &v, |b, v| {
                b.iter(|| solver().solve::<Kalah>(&v.start()).unwrap().value)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
