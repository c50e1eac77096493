//! The arrows between the workspace's crates, read from their manifests: every crate stands
//! on the floors below its own only (ARCHITECTURE.md); the game layer and everything under it
//! build without SQLite, so that the browser build can take them; the tests' helper crate
//! stands on the rules crate alone, whose tests do without it.

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

/// The workspace's crates by floor, bottom up (ARCHITECTURE.md): a crate's dependencies are
/// crates of lower floors only. A new crate must be given its floor here.
const FLOORS: &[&[&str]] = &[
    &["crates/core"],
    &[
        "crates/engine",
        "crates/formats",
        "crates/record",
        "crates/testkit",
    ],
    &["crates/players"],
    &["crates/game", "crates/protocol"],
    &["crates/store", "crates/api"],
    &["crates/arena"],
    &["crates/train"],
    &["apps/reversi", "apps/wasm"],
];

/// The package name in the manifest of the crate in `folder` (`reversi-core`).
fn package_name(folder: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(folder)
        .join("Cargo.toml");
    let text = std::fs::read_to_string(&path).expect("a crate's manifest");
    text.lines()
        .find_map(|line| {
            let value = line.trim().strip_prefix("name")?.trim().strip_prefix('=')?;
            Some(value.trim().trim_matches('"').to_string())
        })
        .expect("a package name")
}

/// The folders of the workspace's crates: those under `crates/` and `apps/` with a manifest.
fn crate_folders() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for group in ["crates", "apps"] {
        for entry in std::fs::read_dir(root.join(group)).expect("the workspace's folders") {
            let dir = entry.expect("a folder entry").path();
            if dir.join("Cargo.toml").is_file() {
                let name = dir.file_name().expect("a name").to_string_lossy();
                out.push(format!("{group}/{name}"));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_crate_depends_on_lower_floors_only() {
    let mut listed: Vec<String> = FLOORS
        .iter()
        .flat_map(|f| f.iter())
        .map(|f| f.to_string())
        .collect();
    listed.sort();
    assert_eq!(
        listed,
        crate_folders(),
        "every crate on one floor of FLOORS"
    );
    let floor_of = |package: &str| {
        FLOORS
            .iter()
            .position(|floor| floor.iter().any(|folder| package_name(folder) == package))
    };
    let mut wrong = Vec::new();
    for (floor, folders) in FLOORS.iter().enumerate() {
        for folder in *folders {
            for dep in dependencies(folder) {
                match floor_of(&dep) {
                    Some(below) if below < floor => {}
                    Some(_) => wrong.push(format!("{folder} depends on {dep}, not below it")),
                    None if dep.starts_with("reversi-") => {
                        wrong.push(format!("{folder} depends on {dep}, on no floor"));
                    }
                    None => {}
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The reader sees the arrows: the players stand on the engine, the game on the players.
    assert!(dependencies("crates/players").contains(&"reversi-engine".to_string()));
    assert!(dependencies("crates/game").contains(&"reversi-players".to_string()));
}

#[test]
fn the_game_layer_and_below_need_no_database() {
    for folder in [
        "crates/core",
        "crates/engine",
        "crates/formats",
        "crates/record",
        "crates/players",
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
