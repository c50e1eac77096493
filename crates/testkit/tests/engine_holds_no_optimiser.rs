//! The engine holds no optimiser (issue 51): the fits that find the evaluation's weights are
//! the training crate's (`crates/train/src/fit/`), which reads the engine through its public
//! pattern interface. Under `crates/engine/src` no file or folder is named after a fit
//! (`fit.rs`, `netfit.rs`, `fit/`, `netfit/`) and no module is declared by such a name
//! (`mod fit;`, `pub mod netfit { … }`, with any visibility).

use std::path::{Path, PathBuf};

/// The optimisers' module names.
const OPTIMISERS: &[&str] = &["fit", "netfit"];

/// Every file and folder under `dir`, folders before what they hold.
fn entries(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        out.push(path.clone());
        if path.is_dir() {
            entries(&path, out);
        }
    }
}

/// Whether the code of `line` (before any `//` comment) declares module `name`.
fn declares(line: &str, name: &str) -> bool {
    let code = line.split("//").next().unwrap_or_default();
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|w| w == ["mod", name])
}

#[test]
fn the_declaration_check_sees_every_form() {
    assert!(declares("mod fit;", "fit"));
    assert!(declares("pub mod netfit;", "netfit"));
    assert!(declares("pub(crate) mod fit {", "fit"));
    assert!(declares("    pub(in crate::pattern) mod fit{", "fit"));
    assert!(!declares("mod fitness;", "fit"));
    assert!(!declares("// mod fit;", "fit"));
    assert!(!declares("use crate::fit;", "fit"));
}

#[test]
fn the_engine_holds_no_optimiser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let src = root.join("crates/engine/src");
    let mut paths = Vec::new();
    entries(&src, &mut paths);
    assert!(
        paths.iter().any(|p| p.ends_with("pattern.rs")),
        "no engine sources found in {}",
        src.display()
    );
    let mut found = Vec::new();
    for path in &paths {
        let rel = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let named = path.is_dir() || path.extension().is_some_and(|e| e == "rs");
        if named && OPTIMISERS.contains(&stem) {
            found.push(rel.clone());
        }
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(path).expect("a source file");
            for (i, line) in text.lines().enumerate() {
                if OPTIMISERS.iter().any(|name| declares(line, name)) {
                    found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "an optimiser in the engine (the fits belong in crates/train/src/fit/): {found:?}"
    );
    // And the fits are where this says.
    for fit in ["linear.rs", "net.rs"] {
        let path = root.join("crates/train/src/fit").join(fit);
        assert!(path.exists(), "{} is missing", path.display());
    }
}
