//! Every example of `README.md` is run and its output compared: in each
//! ```` ```text ```` block, a line `$ mancala ...` (or `$ printf '...' |
//! mancala ...`, which feeds stdin) is a command, and the lines after it, up
//! to the next command or the end of the block, are its stdout exactly (or,
//! when they start with `error: `, its stderr, with exit status 2). The
//! commands run in order in one fresh directory, so a database built by one
//! example serves the next. With `MANCALA_UPDATE_DOCS=1` the test writes the
//! outputs it got into the README instead (then read the diff).

use std::path::Path;
use std::process::{Command, Stdio};

/// Splits a command line into words: whitespace separates, `"..."` and
/// `'...'` quote.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                started = true;
            }
            None if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut cur));
                    started = false;
                }
            }
            None => {
                cur.push(c);
                started = true;
            }
        }
    }
    assert!(quote.is_none(), "unclosed quote in {line}");
    if started {
        out.push(cur);
    }
    out
}

/// Runs one README command line in `dir`: its exit status, stdout, stderr.
fn run_line(line: &str, dir: &Path) -> (Option<i32>, String, String) {
    let mut w = words(line);
    let mut stdin = None;
    if w[0] == "printf" {
        assert_eq!(w[2], "|", "{line}");
        stdin = Some(w[1].replace("\\n", "\n"));
        w.drain(..3);
    }
    assert_eq!(w[0], "mancala", "README commands run mancala: {line}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(&w[1..])
        .current_dir(dir)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(text) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn readme_examples_print_what_they_say() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let dir = std::env::temp_dir().join(format!("mancala-readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let update = std::env::var_os("MANCALA_UPDATE_DOCS").is_some();
    let lines: Vec<&str> = readme.lines().collect();
    let mut rewritten: Vec<String> = Vec::new();
    let mut failures = Vec::new();
    let mut commands = 0;
    let mut i = 0;
    while i < lines.len() {
        rewritten.push(lines[i].to_string());
        if lines[i] != "```text" {
            i += 1;
            continue;
        }
        i += 1;
        // Inside a text block.
        while i < lines.len() && lines[i] != "```" {
            let Some(cmd) = lines[i].strip_prefix("$ ") else {
                rewritten.push(lines[i].to_string());
                i += 1;
                continue;
            };
            rewritten.push(lines[i].to_string());
            i += 1;
            let start = i;
            while i < lines.len() && lines[i] != "```" && !lines[i].starts_with("$ ") {
                i += 1;
            }
            let expected: String = lines[start..i].iter().map(|l| format!("{l}\n")).collect();
            let (status, out, err) = run_line(cmd, &dir);
            commands += 1;
            let got = if expected.starts_with("error: ") {
                if status != Some(2) {
                    failures.push(format!("$ {cmd}\nexit status {status:?}, not 2"));
                }
                err
            } else {
                if status != Some(0) {
                    failures.push(format!("$ {cmd}\nexit status {status:?}: {err}"));
                }
                out
            };
            if got != expected {
                failures.push(format!(
                    "$ {cmd}\n--- README says:\n{expected}--- it prints:\n{got}"
                ));
            }
            rewritten.extend(got.lines().map(str::to_string));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(commands >= 10, "only {commands} examples found");
    if update {
        let mut text = rewritten.join("\n");
        text.push('\n');
        std::fs::write(path, text).unwrap();
        return;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn words_split_like_a_shell() {
    assert_eq!(
        words(r#"mancala show --position "S 1,2/3,4 0-0" 'a b'"#),
        ["mancala", "show", "--position", "S 1,2/3,4 0-0", "a b"]
    );
}
