//! Helpers the integration tests share: running the `mancala` binary and
//! checking how it ended, scratch directories that clean up after
//! themselves, a small random generator, and a few words about positions.
//! (Each test file uses some of them.)
#![allow(dead_code)]

use mancala::{Position, Setup, Side};
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

/// Output bytes as text (invalid UTF-8 replaced, never a panic).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The command line and everything it did (exit status, stdout, stderr),
/// for a failure message.
pub fn describe(args: &[&str], out: &Output) -> String {
    format!(
        "mancala {:?}\n  status: {:?}\n  stdout: {:?}\n  stderr: {:?}",
        args,
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// Runs `mancala ARGS`, which must succeed with exit status 0, and returns
/// its stdout's lines (a failure message shows the whole `describe`).
pub fn ok_lines(args: &[&str]) -> Vec<String> {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "expected success\n{}",
        describe(args, &out)
    );
    text(&out.stdout).lines().map(|l| l.to_string()).collect()
}

/// Runs `mancala ARGS`, which must fail cleanly: exit status 2, empty
/// stdout, a non-empty message on stderr that is not a panic. Returns
/// stderr.
pub fn assert_bad(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "expected exit status 2\n{}",
        describe(args, &out)
    );
    assert!(
        out.stdout.is_empty(),
        "stdout must be empty on error\n{}",
        describe(args, &out)
    );
    let err = text(&out.stderr);
    assert!(
        !err.trim().is_empty(),
        "stderr must say what is wrong\n{}",
        describe(args, &out)
    );
    assert!(
        !err.contains("panicked"),
        "must not panic\n{}",
        describe(args, &out)
    );
    err
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

/// The position written `text` in the notation of the interface; panics
/// if it does not parse or is not a position.
pub fn position(text: &str) -> Position {
    Position::from_setup(&text.parse::<Setup>().unwrap()).unwrap()
}

/// The seeds `me` has captured less those the other side has.
pub fn captured_diff(p: &Position, me: Side) -> i32 {
    i32::from(p.captured(me)) - i32::from(p.captured(me.other()))
}
