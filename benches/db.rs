//! Database build speed: boards per second to build one level from the
//! levels below it (built once, outside the measurement), with one and two
//! threads: Awari level 11 (cycles: many sweeps) and Kalah level 14 (no
//! cycles: few sweeps).
//!
//! Run with `cargo bench --bench db`. Whole builds (Awari to 20 or 24
//! stones, with peak memory) are timed by `scripts/awari-db.sh`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mancala::db::{self, build::Progress, BuildOptions};
use mancala::games::{Awari, Kalah, Rules};
use mancala::index::Indexer;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn bench_level<R: Rules>(c: &mut Criterion, name: &str, n: usize, k: usize) {
    let dir = std::env::temp_dir().join(format!("mancala-bench-db-{name}-{}", std::process::id()));
    let options = BuildOptions {
        dir: dir.clone(),
        memory_bytes: 1 << 30,
    };
    let stop = AtomicBool::new(false);
    let db = db::build_all::<R>(n, k - 1, &options, &Progress::default(), &|_| {}, &stop)
        .expect("lower levels");
    let lower: Vec<_> = (0..k).map(|j| db.level(j).expect("built")).collect();
    let entries = Indexer::new(2 * n, k).unwrap().count();
    let mut group = c.benchmark_group("db-level");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Elements(entries));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(BenchmarkId::new(format!("{name}-{k}"), threads), |b| {
            b.iter(|| {
                pool.install(|| {
                    db::build::build_level::<R>(n, k, &lower, &Progress::default(), &stop)
                        .expect("not stopped")
                        .len()
                })
            })
        });
    }
    group.finish();
    drop(lower);
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}

fn levels(c: &mut Criterion) {
    bench_level::<Awari>(c, "awari", 6, 11);
    bench_level::<Kalah>(c, "kalah", 6, 14);
}

criterion_group!(benches, levels);
criterion_main!(benches);
