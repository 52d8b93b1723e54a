//! Helpers the integration tests share: running the `mancala` binary,
//! scratch directories that clean up after themselves, and a small random
//! generator. (Each test file
//! uses some of them.)
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `mancala ARGS` (stdin empty) and returns what it did.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .output()
        .expect("could not start the mancala binary")
}

/// Runs `mancala ARGS`, which must succeed, and returns its stdout.
pub fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "mancala {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// A fresh directory under the system's temporary one, removed when
/// dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// `mancala-TAG-PID`, emptied.
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("mancala-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        TempDir(dir)
    }

    /// The directory as a string, for command lines.
    pub fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 path")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A small deterministic generator (Knuth's MMIX linear congruential
/// one), so that failures reproduce: `next(n)` is a number below `n` (the
/// top 31 bits of the state, modulo `n`).
pub fn lcg(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut x = seed;
    move |n: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) % n
    }
}
