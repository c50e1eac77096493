//! `unsafe` code lives in two places only: the engine's hot paths and the WebAssembly
//! interface (`apps/wasm/src/abi.rs`). The workspace denies `unsafe_code`; this test keeps
//! every allowance of it inside those places, and every `unsafe` block beside a `// SAFETY:`
//! note.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            if path
                .file_name()
                .is_some_and(|n| n != "target" && n != "node_modules")
            {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn unsafe_code_is_allowed_only_in_the_engine_and_the_wasm_interface() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for top in ["crates", "apps"] {
        sources(&root.join(top), &mut files);
    }
    // Spelt in two halves, so that this file does not match itself.
    let allowance = ["allow(unsafe", "_code)"].concat();
    let block = ["unsafe", " {"].concat();
    let mut outside = Vec::new();
    let mut unexplained = Vec::new();
    for file in &files {
        let rel = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        let text = std::fs::read_to_string(file).expect("a source file");
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.contains(&allowance) && !line.trim_start().starts_with("//") {
                let here = rel.starts_with("crates/engine/src/") || rel == "apps/wasm/src/abi.rs";
                if !here {
                    outside.push(format!("{rel}:{}", i + 1));
                }
            }
            let code = line.split("//").next().unwrap_or_default();
            if code.contains(&block) {
                // The note sits in the comment lines just above (or on a line of the
                // statement the block belongs to).
                let start = i.saturating_sub(12);
                if !lines[start..=i].iter().any(|l| l.contains("SAFETY")) {
                    unexplained.push(format!("{rel}:{}", i + 1));
                }
            }
        }
    }
    assert!(
        outside.is_empty(),
        "unsafe code allowed elsewhere: {outside:?}"
    );
    assert!(
        unexplained.is_empty(),
        "unsafe blocks without a SAFETY note: {unexplained:?}"
    );
}
