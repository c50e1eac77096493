//! The documentation keeps in step with the program: `docs/commands.md` has a heading for every
//! command `reversi --help` lists (subcommands too, found by walking each command's `--help`)
//! and names every long option of each command under that command's heading; the README stays
//! a front page under 10,000 bytes with the test command CI runs; and every relative link of
//! the README, ARCHITECTURE.md and docs/ points at a file (and heading) that exists.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use reversi_testkit::TestCommand;

/// The workspace's root folder (this crate is `apps/reversi`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// What one command's `--help` lists: its subcommands and its long options.
#[derive(Debug, Default)]
struct Help {
    subcommands: Vec<String>,
    options: BTreeSet<String>,
}

/// Reads clap's help text: the names under `Commands:` (but `help`) and the long options under
/// `Options:`. An option's line is indented by at most 6 spaces (`  -h, --help`, `      --db`);
/// a long help's description lines are indented further and are skipped.
fn parse_help(text: &str) -> Help {
    let mut help = Help::default();
    let mut section = "";
    for line in text.lines() {
        if !line.is_empty() && !line.starts_with(' ') {
            section = line.trim_end();
            continue;
        }
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match section {
            "Commands:" if indent == 2 => {
                if let Some(name) = trimmed.split_whitespace().next() {
                    if name != "help" {
                        help.subcommands.push(name.to_string());
                    }
                }
            }
            "Options:" if indent <= 6 && trimmed.starts_with('-') => {
                // `-y, --yes`: the long form follows the short one.
                let long = trimmed
                    .split([',', ' '])
                    .find(|word| word.starts_with("--"));
                if let Some(long) = long {
                    let name: String = long
                        .chars()
                        .take_while(|&c| c == '-' || c.is_ascii_alphanumeric())
                        .collect();
                    help.options.insert(name);
                }
            }
            _ => {}
        }
    }
    help
}

/// Every command of the program, from the top (`[]`) down, with its long options.
fn commands() -> BTreeMap<Vec<String>, BTreeSet<String>> {
    fn walk(path: Vec<String>, found: &mut BTreeMap<Vec<String>, BTreeSet<String>>) {
        let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
            .args(&path)
            .arg("--help")
            .run()
            .assert_success();
        let help = parse_help(&out.stdout);
        assert!(
            help.options.contains("--help"),
            "no options read from `reversi {} --help`:\n{}",
            path.join(" "),
            out.stdout
        );
        for sub in &help.subcommands {
            let mut sub_path = path.clone();
            sub_path.push(sub.clone());
            walk(sub_path, found);
        }
        found.insert(path, help.options);
    }
    let mut found = BTreeMap::new();
    walk(Vec::new(), &mut found);
    found
}

/// A markdown file's headings (outside fenced code) with the text under each, up to the next
/// heading of any level.
fn sections(markdown: &str) -> Vec<(String, String)> {
    let mut sections: Vec<(String, String)> = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            let title = line.trim_start_matches('#');
            if title.starts_with(' ') {
                sections.push((title.trim().to_string(), String::new()));
                continue;
            }
        }
        if let Some((_, body)) = sections.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    sections
}

/// Whether `text` names `option` as a whole (`--level` is not named by `--levels`).
fn mentions(text: &str, option: &str) -> bool {
    text.match_indices(option).any(|(at, _)| {
        !text[at + option.len()..]
            .chars()
            .next()
            .is_some_and(|c| c == '-' || c.is_ascii_alphanumeric())
    })
}

#[test]
fn commands_md_has_every_command_and_option() {
    let commands = commands();
    assert!(
        commands.len() > 20,
        "too few commands found: {:?}",
        commands.keys()
    );
    // Options every command has (`--book`, `--no-book`) are global: documented once, under
    // `reversi` itself.
    let global: BTreeSet<String> = commands
        .values()
        .skip(1)
        .fold(None, |acc: Option<BTreeSet<String>>, options| {
            Some(match acc {
                None => options.clone(),
                Some(acc) => acc.intersection(options).cloned().collect(),
            })
        })
        .unwrap_or_default();

    let doc_path = root().join("docs/commands.md");
    let doc = read(&doc_path);
    let sections: BTreeMap<String, String> = sections(&doc)
        .into_iter()
        .filter(|(title, _)| title == "reversi" || title.starts_with("reversi "))
        .collect();

    let mut missing = Vec::new();
    for (path, options) in &commands {
        let title = std::iter::once("reversi")
            .chain(path.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        let Some(body) = sections.get(&title) else {
            missing.push(format!("no heading `{title}`"));
            continue;
        };
        for option in options {
            let own = path.is_empty() || !global.contains(option);
            if own && option != "--help" && !mentions(body, option) {
                missing.push(format!("`{title}`: {option} not mentioned"));
            }
        }
    }
    let known: BTreeSet<String> = commands
        .keys()
        .map(|path| {
            std::iter::once("reversi".to_string())
                .chain(path.iter().cloned())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    for title in sections.keys() {
        if !known.contains(title) {
            missing.push(format!("heading `{title}` is no command of the program"));
        }
    }
    assert!(
        missing.is_empty(),
        "{} is out of step with the program:\n  {}",
        doc_path.display(),
        missing.join("\n  ")
    );
}

#[test]
fn readme_is_a_front_page() {
    let path = root().join("README.md");
    let readme = read(&path);
    assert!(
        readme.len() < 10_000,
        "README.md is {} bytes; keep it under 10,000 (the reference belongs in docs/)",
        readme.len()
    );
    assert!(
        readme.lines().any(|line| line == "scripts/test"),
        "README.md lost its test command `scripts/test` (CI runs it as written there)"
    );
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; a
/// repeated heading gets `-1`, `-2`, ….
fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeSet::new();
    for (title, _) in sections(markdown) {
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let count = seen.entry(slug.clone()).or_insert(0);
        anchors.insert(if *count == 0 {
            slug.clone()
        } else {
            format!("{slug}-{count}")
        });
        *count += 1;
    }
    anchors
}

/// The targets of a markdown file's inline links (`[text](target)`), outside fenced code.
fn link_targets(markdown: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                targets.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    targets
}

#[test]
fn relative_links_point_at_files_that_exist() {
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for entry in fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    let mut broken = Vec::new();
    for file in &files {
        let text = read(file);
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            let shown = file.strip_prefix(&root).unwrap_or(file).display();
            if !linked.exists() {
                broken.push(format!("{shown}: {target} (no such file)"));
                continue;
            }
            if let Some(anchor) = anchor {
                if linked.extension().is_some_and(|e| e == "md")
                    && !anchors(&read(&linked)).contains(anchor)
                {
                    broken.push(format!("{shown}: {target} (no such heading)"));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "broken links:\n  {}",
        broken.join("\n  ")
    );
}

#[test]
fn help_is_read_as_clap_writes_it() {
    let help = parse_help(
        "About.\n\nUsage: reversi history [OPTIONS] <COMMAND>\n\nCommands:\n  list     One line\n  \
         help     Print this\n\nOptions:\n      --db <PATH>    Game database\n  -y, --yes  \
         Delete\n      --level <LEVEL>\n          With --size: not an option\n  -h, --help  \
         Print help\n\nPlayers (--black, --white):\n  human  a person\n",
    );
    assert_eq!(help.subcommands, ["list"]);
    assert_eq!(
        help.options.into_iter().collect::<Vec<_>>(),
        ["--db", "--help", "--level", "--yes"]
    );
    assert!(mentions("- `--level L`: x", "--level"));
    assert!(!mentions("- `--levels LIST`: x", "--level"));
    assert!(
        anchors("# a\n## reversi `serve` (x)\n```\n# no\n```\n## a\n").contains("reversi-serve-x")
    );
    assert!(anchors("# a\n## a\n").contains("a-1"));
}
