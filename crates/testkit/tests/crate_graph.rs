//! The arrows between the workspace's crates, read from their manifests: the game layer and
//! everything under it build without SQLite, so that the browser build can take them.

use std::path::Path;

/// The names in the `[dependencies]` table of the crate in `folder` (not its dev- or build-
/// dependencies).
fn dependencies(folder: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(folder)
        .join("Cargo.toml");
    let text = std::fs::read_to_string(&path).expect("a crate's manifest");
    let mut inside = false;
    let mut names = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            names.push(name.to_string());
        }
    }
    names
}

#[test]
fn the_game_layer_and_below_need_no_database() {
    for folder in [
        "crates/core",
        "crates/engine",
        "crates/formats",
        "crates/record",
        "crates/game",
    ] {
        let deps = dependencies(folder);
        assert!(
            !deps.is_empty() || folder == "crates/core",
            "{folder}: no dependencies read"
        );
        for banned in ["reversi-store", "rusqlite"] {
            assert!(
                !deps.iter().any(|d| d == banned),
                "{folder} depends on {banned}: {deps:?}"
            );
        }
    }
}

#[test]
fn the_manifest_reader_sees_the_stores_database() {
    let deps = dependencies("crates/store");
    assert!(deps.iter().any(|d| d == "rusqlite"), "{deps:?}");
    assert!(deps.iter().any(|d| d == "reversi-game"), "{deps:?}");
}
