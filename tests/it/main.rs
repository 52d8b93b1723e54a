//! The integration tests, in one test binary.
//!
//! Each file here was a test binary of its own; as modules of one crate they
//! link once, not thirty times (each link of a release build is a thin-LTO
//! pass over the whole library: a clean `cargo test --release --no-run`
//! took 6.5 minutes on the 2-core development machine as 31 binaries, 3.5
//! as one), and the harness runs all their tests from one queue, so a long
//! test of one file no longer leaves a core idle while it ends (their run
//! took 168 s against 233 s in all).
//! Run one file's tests by its module name: `cargo test --release --test
//! it retrograde::`. The two test crates that need a feature or a `cfg` of
//! their own stay apart: `tests/mpi.rs` and `tests/loom_slot.rs`.

mod common;
mod plain;
mod retro;

mod above_databases;
mod cli_db;
mod cli_errors;
mod cli_extend;
mod cli_reference;
mod conformance;
mod dakon_openings;
mod db;
mod json;
mod layers;
mod line;
mod openings;
mod perft;
mod plain_crosscheck;
mod play;
mod properties;
mod puzzle_measures;
mod puzzles;
mod readme;
mod retrograde;
mod rules;
mod settle;
mod shortest;
mod solved;
mod solver;
mod stop;
mod svg;
mod toy_game;
mod trace;
mod unmoves;
mod wide;
