//! Move generation speed: perft leaves per second from the start position of
//! every game at its traditional size (one thread), two ways:
//!
//! - `perft`: the last ply's moves are counted without being made where the
//!   game allows it (`Rules::count_moves`), the usual perft measure;
//! - `perft_full`: every leaf is made (sown), the rate of making moves.
//!
//! Run with `cargo bench --bench movegen`; criterion reports the throughput
//! in leaf positions per second ("elem/s"). The leaf counts are printed
//! first, so a change to move generation shows up as a changed count.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mancala::{
    dispatch,
    perft::{perft, perft_full},
    Game, Variant,
};
use std::hint::black_box;
use std::time::Duration;

/// Depth per game: deep enough for a run of 0.1 to 1 s.
fn depth(game: Game) -> u32 {
    match game {
        Game::Kalah | Game::Awari => 9,
        Game::Akon => 8,
        Game::DjenonAbe => 9,
        Game::Anywoli => 6,
        Game::Dakon => 8,
    }
}

/// One benchmark group: `count` from the start of every game.
fn group(c: &mut Criterion, name: &str, count: fn(Game, &mancala::Position, u32) -> u64) {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for game in Game::ALL {
        let variant = Variant::standard(game);
        let start = variant.start();
        let d = depth(game);
        let leaves = count(game, &start, d);
        println!("{name}: {variant} depth {d} = {leaves}");
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(
            BenchmarkId::new(variant.to_string(), d),
            &start,
            |b, start| b.iter(|| count(game, black_box(start), d)),
        );
    }
    group.finish();
}

fn movegen(c: &mut Criterion) {
    group(
        c,
        "perft",
        |game, pos, d| dispatch!(game, R => perft::<R>(pos, d)),
    );
    group(
        c,
        "perft_full",
        |game, pos, d| dispatch!(game, R => perft_full::<R>(pos, d)),
    );
}

criterion_group!(benches, movegen);
criterion_main!(benches);
