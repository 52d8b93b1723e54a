//! The lock-free transposition table against a `dashmap`-backed one.
//!
//! Both serve the same workload: the boards met by random games of
//! `kalah:6x4` (a stream of a few million keys with the repetitions a
//! search has), each looked up and then stored, as the solver does at
//! every node. `Table` lives in fixed memory (256 MiB here), in its wide
//! layout (32-byte entries) and its narrow one (16 bytes); the
//! `DashMap<u128, u64>` grows without bound, which is what a solver must
//! not do, so it is the comparison a growable concurrent map gets at its
//! best: no eviction cost at all. One and two threads, each thread taking
//! half of the stream.
//!
//! Run with `cargo bench --bench table`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use dashmap::DashMap;
use mancala::games::Kalah;
use mancala::packed::PackedBoard;
use mancala::search::tt::{Stored, Table};
use mancala::{MoveList, Rules, Variant};
use std::time::Duration;

/// Boards of random games from the start of `kalah:6x4`, from a fixed
/// pseudo-random sequence.
fn keys(count: usize) -> Vec<PackedBoard> {
    let start = "kalah:6x4".parse::<Variant>().unwrap().start();
    let mut out = Vec::with_capacity(count);
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut pos = start;
    let mut moves = MoveList::new();
    while out.len() < count {
        moves.clear();
        if Kalah::generate(&pos, &mut moves).is_some() {
            pos = start;
            continue;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        pos = moves[(rng % moves.len() as u64) as usize].1;
        if let Some(k) = PackedBoard::new(&pos) {
            out.push(k);
        }
    }
    out
}

fn stored(k: PackedBoard) -> Stored {
    Stored {
        lower: -((k.0 % 7) as i16),
        upper: (k.0 % 5) as i16,
        best: 1,
        work: 3,
    }
}

fn table(c: &mut Criterion) {
    const COUNT: usize = 4_000_000;
    let keys = keys(COUNT);
    let mut group = c.benchmark_group("table");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1))
        .throughput(Throughput::Elements(COUNT as u64));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let chunk = COUNT.div_ceil(threads);
        // Kalah(6,4)'s keys have at most 60 bits: the narrow layout holds
        // them; `with_bytes` makes the wide one.
        for (name, lockfree) in [
            ("lock-free", Table::with_bytes(256 << 20)),
            ("lock-free-narrow", Table::for_keys(256 << 20, 60)),
        ] {
            group.bench_with_input(BenchmarkId::new(name, threads), &keys, |b, keys| {
                b.iter(|| {
                    pool.install(|| {
                        rayon::scope(|s| {
                            for part in keys.chunks(chunk) {
                                let t = &lockfree;
                                s.spawn(move |_| {
                                    for &k in part {
                                        let old = t.probe(k);
                                        t.store(k, old.unwrap_or_else(|| stored(k)));
                                    }
                                });
                            }
                        })
                    })
                })
            });
        }
        let map: DashMap<u128, u64> = DashMap::new();
        group.bench_with_input(BenchmarkId::new("dashmap", threads), &keys, |b, keys| {
            b.iter(|| {
                pool.install(|| {
                    rayon::scope(|s| {
                        for part in keys.chunks(chunk) {
                            let m = &map;
                            s.spawn(move |_| {
                                for &k in part {
                                    let old = m.get(&k.0).map(|v| *v);
                                    let st = stored(k);
                                    let new =
                                        st.lower as u16 as u64 | (st.upper as u16 as u64) << 16;
                                    m.insert(k.0, old.unwrap_or(new));
                                }
                            });
                        }
                    })
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, table);
criterion_main!(benches);
