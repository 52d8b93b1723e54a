//! Database build speed: boards per second to build one level from the
//! levels below it (built once, outside the measurement), with one and two
//! threads, by sweeps (`sweep`) and by propagation (`propagate`, by
//! unmoves; `edges`, over recorded edges): Awari level 11 (cycles: many
//! sweeps), Kalah level 14 (no cycles: few sweeps) and Anywoli 2x12 level
//! 7 (relay sowing: no unmoves; many sweeps).
//!
//! Also puzzle mining (`puzzles`): one level's depths to the first capture
//! (sweeps) and the whole mining, Anywoli on the full board at 6 seeds.
//!
//! Run with `cargo bench --bench db`. Whole builds (Awari to 20 or 24
//! stones, with peak memory) are timed by `scripts/awari-db.sh`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mancala::db::{self, build::Progress, BuildOptions};
use mancala::games::{Anywoli, Awari, Kalah, Rules};
use mancala::index::Indexer;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Databases of `R` on rows of `n` up to `k` seeds, built in a scratch
/// directory (removed when dropped).
struct Built {
    dir: std::path::PathBuf,
    db: Option<db::Database>,
}

impl Built {
    fn new<R: Rules>(tag: &str, n: usize, k: usize) -> Built {
        let dir = std::env::temp_dir().join(format!("mancala-bench-{tag}-{}", std::process::id()));
        let options = BuildOptions {
            dir: dir.clone(),
            memory_bytes: 1 << 30,
            method: Default::default(),
        };
        let stop = AtomicBool::new(false);
        let db = db::build_all::<R>(n, k, &options, &Progress::default(), &|_| {}, &stop)
            .expect("the levels");
        Built { dir, db: Some(db) }
    }

    fn db(&self) -> &db::Database {
        self.db.as_ref().expect("open")
    }
}

impl Drop for Built {
    fn drop(&mut self) {
        // Unmap the levels before removing their files.
        self.db = None;
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn bench_level<R: Rules>(c: &mut Criterion, name: &str, n: usize, k: usize) {
    let built = Built::new::<R>(&format!("db-{name}"), n, k - 1);
    let db = built.db();
    let stop = AtomicBool::new(false);
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
        group.bench_function(
            BenchmarkId::new(format!("{name}-{k}-sweep"), threads),
            |b| {
                b.iter(|| {
                    pool.install(|| {
                        db::build::build_level::<R>(n, k, &lower, &Progress::default(), &stop)
                            .expect("not stopped")
                            .len()
                    })
                })
            },
        );
        if R::HAS_UNMOVES {
            group.bench_function(
                BenchmarkId::new(format!("{name}-{k}-propagate"), threads),
                |b| {
                    b.iter(|| {
                        pool.install(|| {
                            db::propagate::build_level::<R>(
                                n,
                                k,
                                &lower,
                                &Progress::default(),
                                &stop,
                            )
                            .expect("not stopped")
                            .len()
                        })
                    })
                },
            );
        } else {
            // Over recorded edges, with the most memory they may take.
            let budget = db::edges::edge_budget(entries, u64::MAX);
            group.bench_function(
                BenchmarkId::new(format!("{name}-{k}-edges"), threads),
                |b| {
                    b.iter(|| {
                        pool.install(|| {
                            db::edges::build_level::<R>(
                                n,
                                k,
                                &lower,
                                &Progress::default(),
                                &stop,
                                budget,
                            )
                            .expect("not stopped")
                            .len()
                        })
                    })
                },
            );
        }
    }
    group.finish();
}

fn levels(c: &mut Criterion) {
    bench_level::<Awari>(c, "awari", 6, 11);
    bench_level::<Kalah>(c, "kalah", 6, 14);
    bench_level::<Anywoli>(c, "anywoli", 12, 7);
}

fn puzzles(c: &mut Criterion) {
    use mancala::puzzles::{capture_distances, mine, MineOptions, MineProgress};
    let (n, k) = (12, 6);
    let built = Built::new::<Anywoli>("puzzles", n, k);
    let db = built.db();
    let entries = Indexer::new(2 * n, k).unwrap().count();
    let mut group = c.benchmark_group("puzzles");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .throughput(Throughput::Elements(entries));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(
            BenchmarkId::new(format!("anywoli-{k}-distances"), threads),
            |b| {
                b.iter(|| {
                    pool.install(|| {
                        capture_distances::<Anywoli>(db, k, &MineProgress::default())
                            .unwrap()
                            .expect("not stopped")
                            .len()
                    })
                })
            },
        );
        group.bench_function(
            BenchmarkId::new(format!("anywoli-{k}-mine"), threads),
            |b| {
                b.iter(|| {
                    pool.install(|| {
                        mine::<Anywoli>(db, k, MineOptions::default(), &MineProgress::default())
                            .unwrap()
                            .expect("not stopped")
                            .counts
                    })
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, levels, puzzles);
criterion_main!(benches);
