//! The library's layers, enforced: every module may use only modules of its
//! own layer or a lower one, so dependencies point one way:
//!
//! 0. rules: `side`, `position`, `board`, `wide`, `notation`, `games` (with the gain
//!    arithmetic), `variant`, `perft`, and the low-level `mem`,
//!    `atomic_file` and `checksum`;
//! 1. keys and indexes: `index`, `packed`;
//! 2. database probing: `db` itself (its errors), `db::file`, `db::probe`;
//! 3. search: `search`;
//! 4. applications: building and verifying databases (`db::build`,
//!    `db::build_all`, `db::edges`, `db::edges_on`, `db::extend`, `db::lock`, `db::mpi`,
//!    `db::propagate`, `db::ranks`, `db::threads`, `db::verify`, `db::stats`), `openings`, `puzzles`, and the pictures (`draw`, `svg`);
//! 5. the command line (`src/bin`), which may use everything.
//!
//! The test reads every file of `src/` and checks each `crate::` path it
//! names (and each `super::` path that leaves the file's own module). It
//! also prints the module graph (`cargo test --test it layers:: -- --nocapture`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layer of a module path such as `db::build` or `search`.
fn layer(module: &str) -> usize {
    let parts: Vec<&str> = module.split("::").collect();
    match parts.as_slice() {
        ["side" | "position" | "board" | "wide" | "notation" | "games" | "variant" | "perft"
        | "mem" | "atomic_file" | "checksum" | "dispatch" | "__games_registry", ..] => 0,
        ["index" | "packed", ..] => 1,
        ["db", "file" | "probe", ..] | ["db"] => 2,
        ["search", ..] => 3,
        ["db", "build" | "build_all" | "edges" | "edges_on" | "extend" | "lock" | "mpi" | "propagate"
        | "ranks" | "threads" | "verify" | "stats", ..] => 4,
        ["openings" | "puzzles" | "draw" | "svg", ..] => 4,
        // Re-exports at the crate root (`crate::Position`, `crate::Rules`)
        // are all of layer 0.
        [root] if root.chars().next().is_some_and(char::is_uppercase) => 0,
        _ => panic!("module {module} has no layer: add it to tests/it/layers.rs"),
    }
}

/// The module a file of `src/` defines (`src/db/build.rs` is `db::build`,
/// `src/search/tt/mod.rs` is `search::tt`).
fn module_of(file: &Path, src: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().map(String::as_str) == Some("mod") {
        parts.pop();
    }
    parts.join("::")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The modules a file's code names: `crate::a::b` gives `a::b` (or `a` when
/// `b` is not a module), `super::x` from `m::n` gives `m::x`.
fn used(text: &str, module: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    // Only code: skip comment lines (doc links are not dependencies).
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (prefix, base) in [("crate::", String::new()), ("super::", parent(module))] {
            let mut rest = line;
            while let Some(i) = rest.find(prefix) {
                // `$crate::` in macros is the crate too; other words ending
                // in "crate::" or "super::" are not.
                let before = rest[..i].chars().last();
                rest = &rest[i + prefix.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let path: Vec<&str> = rest
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .next()
                    .unwrap_or("")
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .collect();
                // The longest prefix that is a module of the crate.
                let mut best = None;
                for k in (1..=path.len()).rev() {
                    let m = if base.is_empty() {
                        path[..k].join("::")
                    } else {
                        format!("{base}::{}", path[..k].join("::"))
                    };
                    if modules.contains(&m) {
                        best = Some(m);
                        break;
                    }
                }
                match best {
                    Some(m) => {
                        out.insert(m);
                    }
                    None if base.is_empty() && !path.is_empty() => {
                        out.insert(path[0].to_string());
                    }
                    None => {
                        out.insert(base.clone());
                    }
                }
            }
        }
    }
    out.remove(module);
    out.remove("");
    out
}

fn parent(module: &str) -> String {
    module
        .rsplit_once("::")
        .map_or(String::new(), |(p, _)| p.to_string())
}

#[test]
fn dependencies_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.retain(|f| !f.starts_with(src.join("bin")) && !f.ends_with("lib.rs"));
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(f, &src)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut wrong = Vec::new();
    for f in &files {
        let module = module_of(f, &src);
        let text = std::fs::read_to_string(f).unwrap();
        let uses = used(&text, &module, &modules);
        for u in &uses {
            if layer(u) > layer(&module) {
                wrong.push(format!(
                    "{module} (layer {}) uses {u} (layer {})",
                    layer(&module),
                    layer(u)
                ));
            }
        }
        graph.insert(module, uses);
    }
    for (m, uses) in &graph {
        let list: Vec<&str> = uses.iter().map(String::as_str).collect();
        println!("{m} [{}] -> {}", layer(m), list.join(", "));
    }
    assert!(
        wrong.is_empty(),
        "dependencies against the layers:\n{}",
        wrong.join("\n")
    );
    // The search and the database build, which once imported each other.
    assert!(!graph["search::negamax"]
        .iter()
        .any(|m| m.starts_with("db::build")));
    assert!(!graph["db::build"].iter().any(|m| m.starts_with("search")));
}
