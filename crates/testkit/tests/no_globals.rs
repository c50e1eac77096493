//! The library crates read no environment variable and hold no process-wide mutable state:
//! the program reads its environment and flags and hands the values down (issue 51). Read
//! from the sources, outside their tests.

use std::path::{Path, PathBuf};

/// The library crates whose sources are checked (the test helpers and the apps are not).
const LIBRARIES: &[&str] = &[
    "crates/core",
    "crates/engine",
    "crates/players",
    "crates/formats",
    "crates/record",
    "crates/store",
    "crates/game",
    "crates/api",
    "crates/protocol",
    "crates/arena",
    "crates/train",
];

/// The one exception, and why: the SIMD tier in use is a cache of what the CPU runs (as the
/// standard library's own feature detection caches it); the program may only lower it, before
/// searching, and the kernels' results do not depend on it.
const ALLOWED: &[(&str, &str)] = &[(
    "crates/engine/src/kernel/tier.rs",
    "static SELECTED: AtomicU8",
)];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            if name != "tests" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            out.push(path);
        }
    }
}

/// The lines of `text` before its first `#[cfg(test)]` (unit tests sit at a file's end).
fn code(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .take_while(|l| !l.trim_start().starts_with("#[cfg(test)]"))
        .enumerate()
}

/// Whether a line declares a `static` whose type can change after it is made.
fn mutable_static(line: &str) -> bool {
    let line = line.trim_start();
    let declares = line.starts_with("static ") || line.starts_with("pub static ");
    declares
        && (line.starts_with("static mut")
            || ["Mutex", "RwLock", "Atomic", "Cell<", "RefCell"]
                .iter()
                .any(|t| line.contains(t))
            || (line.contains("OnceLock<") && ["Mutex", "RwLock"].iter().any(|t| line.contains(t))))
}

#[test]
fn libraries_read_no_environment_and_hold_no_mutable_globals() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut found = Vec::new();
    for lib in LIBRARIES {
        let mut files = Vec::new();
        sources(&root.join(lib).join("src"), &mut files);
        assert!(!files.is_empty(), "{lib} has sources");
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file");
            let rel = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .display()
                .to_string();
            for (i, line) in code(&text) {
                let doc = line.trim_start().starts_with("//");
                let env = line.contains("env::var") || line.contains("env::vars");
                let allowed = ALLOWED
                    .iter()
                    .any(|(f, what)| rel.ends_with(f) && line.contains(what));
                if !doc && !allowed && (env || mutable_static(line)) {
                    found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "environment reads or mutable statics in library code:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_what_it_looks_for() {
    assert!(mutable_static(
        "static SLOT: OnceLock<RwLock<Option<u8>>> = OnceLock::new();"
    ));
    assert!(mutable_static(
        "    static N: AtomicU64 = AtomicU64::new(0);"
    ));
    assert!(mutable_static("static mut X: u8 = 0;"));
    assert!(!mutable_static(
        "static TABLE: OnceLock<Box<[u8; 64]>> = OnceLock::new();"
    ));
    assert!(!mutable_static("let x = 1;"));
}
