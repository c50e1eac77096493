//! The arrows between the workspace's crates, read from their manifests: the game layer and
//! everything under it build without SQLite, so that the browser build can take them; the
//! tests' helper crate stands on the rules crate alone, whose tests do without it.

use std::path::Path;

/// The names in the `[dependencies]` table of the crate in `folder` (not its dev- or build-
/// dependencies).
fn dependencies(folder: &str) -> Vec<String> {
    table(folder, "[dependencies]")
}

/// The names in the table `header` (such as `[dev-dependencies]`) of the crate in `folder`.
fn table(folder: &str, header: &str) -> Vec<String> {
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
            inside = line == header;
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

#[test]
fn the_test_helpers_need_only_the_rules_crate_and_its_tests_need_no_helpers() {
    // The helpers share the rules crate's generator; were they to need another crate of the
    // workspace, or the rules crate's tests the helpers, that crate's tests would build it
    // twice over a dependency loop.
    let workspace: Vec<String> = dependencies("crates/testkit")
        .into_iter()
        .filter(|d| d.starts_with("reversi-"))
        .collect();
    assert_eq!(workspace, ["reversi-core"]);
    let core_dev = table("crates/core", "[dev-dependencies]");
    assert!(
        !core_dev.iter().any(|d| d == "reversi-testkit"),
        "{core_dev:?}"
    );
}
