//! The shape of the code: no module of the binary or of the game crate imports a module that
//! imports it back (directly or around a longer loop), and no front end (terminal UI, plain
//! mode, web server) imports another front end or a command. Read from the source files:
//! every `crate::…`, `super::…` and `self::…` path outside test code is an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (`web::live`, `` for the crate root) → the source with test modules cut off.
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path
                .strip_prefix(src)
                .expect("inside src")
                .with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("main" | "lib" | "mod")
            ) {
                parts.pop();
            }
            if parts.last().is_some_and(|p| p == "tests") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            let code = match text.find("#[cfg(test)]\nmod tests") {
                Some(i) => text[..i].to_string(),
                None => text,
            };
            out.insert(parts.join("::"), code);
        }
    }
    out
}

/// The longest known module that `path` (segments from the crate root) starts with.
fn resolve(names: &BTreeSet<String>, path: &[&str]) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|cand| names.contains(cand))
}

/// The identifier-and-`::` paths following `prefix` (`crate`, `super`, `self`) in `code`.
fn paths_after<'a>(code: &'a str, prefix: &str) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    let mut rest = code;
    let pat = format!("{prefix}::");
    while let Some(i) = rest.find(&pat) {
        let before = rest[..i].chars().next_back();
        let tail = &rest[i + pat.len()..];
        rest = tail;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = tail
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(tail.len());
        out.push(tail[..end].split("::").filter(|s| !s.is_empty()).collect());
    }
    out
}

fn edges(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules(src);
    let names: BTreeSet<String> = mods.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (name, code) in &mods {
        let here: Vec<&str> = name.split("::").filter(|s| !s.is_empty()).collect();
        let mut to = BTreeSet::new();
        let mut add = |path: Vec<&str>| {
            if let Some(t) = resolve(&names, &path) {
                if t != *name {
                    to.insert(t);
                }
            }
        };
        for p in paths_after(code, "crate") {
            add(p);
        }
        for p in paths_after(code, "self") {
            add(here.iter().copied().chain(p).collect());
        }
        for p in paths_after(code, "super") {
            let mut base = here[..here.len().saturating_sub(1)].to_vec();
            let mut p = p.as_slice();
            while p.first() == Some(&"super") {
                base.pop();
                p = &p[1..];
            }
            add(base.into_iter().chain(p.iter().copied()).collect());
        }
        graph.insert(name.clone(), to);
    }
    graph
}

/// The modules that lie on a loop of imports, by strongly connected components.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for t in graph.get(&m).into_iter().flatten() {
                if seen.insert(t.clone()) {
                    todo.push(t.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for m in graph.keys() {
        if !reachable[m].contains(m) || out.iter().any(|c| c.contains(m)) {
            continue;
        }
        let comp = graph
            .keys()
            .filter(|o| reachable[m].contains(*o) && reachable[*o].contains(m))
            .cloned()
            .collect();
        out.push(comp);
    }
    out
}

fn src_of(crate_dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(crate_dir)
        .join("src")
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    for dir in [".", "../../crates/game"] {
        let graph = edges(&src_of(dir));
        assert!(graph.len() > 5, "{dir}: too few modules found: {graph:?}");
        assert_eq!(
            cycles(&graph),
            Vec::<Vec<String>>::new(),
            "{dir}: {graph:#?}"
        );
    }
}

#[test]
fn front_ends_import_no_other_front_end_and_no_command() {
    let graph = edges(&src_of("."));
    let front_ends = ["tui", "plain", "web"];
    for (module, targets) in &graph {
        let Some(own) = front_ends
            .iter()
            .find(|f| module == *f || module.starts_with(&format!("{f}::")))
        else {
            continue;
        };
        for t in targets {
            let top = t.split("::").next().unwrap_or_default();
            assert!(
                top == *own || !(front_ends.contains(&top) || top == "commands"),
                "{module} imports {t}"
            );
        }
    }
}

#[test]
fn the_checker_finds_a_planted_loop() {
    let dir = std::env::temp_dir().join(format!("module-graph-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("src")).expect("a temporary folder");
    std::fs::write(dir.join("src/main.rs"), "mod a;\nmod b;\nfn main() {}\n").expect("write");
    std::fs::write(dir.join("src/a.rs"), "use crate::b::B;\npub struct A;\n").expect("write");
    std::fs::write(dir.join("src/b.rs"), "use super::a::A;\npub struct B;\n").expect("write");
    let found = cycles(&edges(&dir.join("src")));
    std::fs::remove_dir_all(&dir).expect("clean up");
    assert_eq!(found, vec![vec!["a".to_string(), "b".to_string()]]);
}
