//! The shape of the code, read from the sources of every crate of the workspace: no module
//! imports a module that imports it back (directly or around a longer loop), and no front end
//! of the binary (terminal UI, plain mode, web server) imports another front end or a command.
//! What counts as an import is [`ModuleGraph`]'s: every form of `use` and of path.

use std::path::{Path, PathBuf};

use reversi_testkit::ModuleGraph;

/// Loops known and left for a change of their own: (crate folder, area). A loop whose modules
/// all lie in an area (the module or below it) is let through; any other loop fails the
/// test, and so does an area without a loop left, so that the list only shrinks.
/// None is left: issue 32 broke the last two (the web server's `AppState`, the engine's
/// `pattern` and `pattern/weights`).
const PENDING: &[(&str, &str, &str)] = &[];

/// Whether `module` is `area` or lies below it.
fn within(module: &str, area: &str) -> bool {
    module == area || module.starts_with(&format!("{area}::"))
}

/// Every crate of the workspace: its folder (`crates/engine`) and `src` folder.
fn crates() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    for group in ["crates", "apps"] {
        let mut dirs: Vec<(String, PathBuf)> = std::fs::read_dir(root.join(group))
            .expect("the workspace's folders")
            .map(|e| e.expect("a folder entry").path())
            .filter(|dir| dir.join("src").is_dir())
            .map(|dir| {
                let name = dir
                    .file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned();
                (format!("{group}/{name}"), dir.join("src"))
            })
            .collect();
        dirs.sort();
        out.extend(dirs);
    }
    out
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let crates = crates();
    assert!(crates.len() >= 9, "too few crates found: {crates:?}");
    let mut report = String::new();
    let mut pending_seen = vec![false; PENDING.len()];
    for (name, src) in &crates {
        let graph = ModuleGraph::read(src);
        assert!(!graph.edges.is_empty(), "{name}: no modules");
        for found in graph.loops() {
            let pending = PENDING.iter().position(|(krate, area, _)| {
                krate == name && found.iter().all(|m| within(m, area))
            });
            match pending {
                Some(i) => pending_seen[i] = true,
                None => {
                    report += &format!("{name}: {}\n{}", found.join(", "), graph.describe(&found));
                }
            }
        }
    }
    for ((krate, area, _), seen) in PENDING.iter().zip(pending_seen) {
        if !seen {
            report += &format!("{krate}: no loop left in {area}: take it off PENDING\n");
        }
    }
    assert!(report.is_empty(), "modules on a loop:\n{report}");
}

#[test]
fn front_ends_import_no_other_front_end_and_no_command() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../apps/reversi/src");
    let graph = ModuleGraph::read(&root);
    let front_ends = ["tui", "plain", "web"];
    let mut wrong = Vec::new();
    for (module, targets) in &graph.edges {
        let Some(own) = front_ends
            .iter()
            .find(|f| module == *f || module.starts_with(&format!("{f}::")))
        else {
            continue;
        };
        for (t, why) in targets {
            let top = t.split("::").next().unwrap_or_default();
            if top != *own && (front_ends.contains(&top) || top == "commands") {
                wrong.push(format!("{module} imports {t} ({why})"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
