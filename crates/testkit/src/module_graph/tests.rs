use super::*;

/// The loops of a crate made of `files` (name, text), the root `lib.rs` declaring nothing
/// else.
fn loops(files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let files: BTreeMap<String, String> = files
        .iter()
        .map(|(n, t)| ((*n).to_string(), (*t).to_string()))
        .collect();
    ModuleGraph::from_files(&files).loops()
}

fn modules(names: &[&str]) -> Vec<Vec<String>> {
    vec![names.iter().map(|s| (*s).to_string()).collect()]
}

const ROOT: &str = "mod a;\nmod b;\n";

#[test]
fn plain_crate_paths() {
    let found = loops(&[
        ("lib.rs", ROOT),
        ("a.rs", "use crate::b::B;\npub struct A;\n"),
        (
            "b.rs",
            "pub struct B;\nfn f() -> crate::a::A { crate::a::A }\n",
        ),
    ]);
    assert_eq!(found, modules(&["a", "b"]));
}

#[test]
fn grouped_and_nested_imports() {
    // `use crate::{a, b}` and `use crate::{x::{y}}` record every leaf.
    let found = loops(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::{c, b::{B}};\npub struct A;\n"),
        ("b.rs", "pub struct B;\n"),
        ("c.rs", "use crate::{b::{self}, a::{A as Z}};\n"),
    ]);
    assert_eq!(found, modules(&["a", "c"]));
}

#[test]
fn self_and_super_paths() {
    let found = loops(&[
        ("lib.rs", "mod p;\n"),
        ("p.rs", "mod a;\nmod b;\n"),
        ("p/a.rs", "use super::b::B;\npub struct A;\n"),
        ("p/b.rs", "use super::super::p::a::A;\npub struct B;\n"),
    ]);
    assert_eq!(found, modules(&["p::a", "p::b"]));
    let found = loops(&[
        ("lib.rs", "mod p;\n"),
        ("p.rs", "mod a;\nmod b;\nuse self::a::A;\npub struct P;\n"),
        ("p/a.rs", "pub struct A;\n"),
        ("p/b.rs", "pub struct B;\n"),
    ]);
    assert_eq!(found, Vec::<Vec<String>>::new());
}

#[test]
fn a_parents_bare_child_paths() {
    // The parent calls `child::f()` without a `use`; the child imports from the parent.
    let found = loops(&[
        ("lib.rs", "mod web;\n"),
        (
            "web.rs",
            "mod live;\npub struct AppState;\nfn run() { live::serve(); }\n",
        ),
        ("web/live.rs", "use super::AppState;\npub fn serve() {}\n"),
    ]);
    assert_eq!(found, modules(&["web", "web::live"]));
}

#[test]
fn paths_through_a_used_name() {
    // `use crate::tui;` then `tui::app::run()` reaches `tui::app`.
    let found = loops(&[
        ("lib.rs", "mod tui;\nmod plain;\n"),
        ("tui.rs", "pub mod app;\n"),
        ("tui/app.rs", "pub fn run() { crate::plain::go(); }\n"),
        (
            "plain.rs",
            "use crate::tui;\npub fn go() { tui::app::run(); }\n",
        ),
    ]);
    assert_eq!(found, modules(&["plain", "tui::app"]));
}

#[test]
fn re_exports_and_globs_are_followed() {
    // `crate::Board` is the board module's; `use super::*` reaches the parent.
    let found = loops(&[
        ("lib.rs", "mod board;\nmod flip;\npub use board::Board;\n"),
        ("board.rs", "use crate::flip;\npub struct Board;\n"),
        ("flip.rs", "use crate::Board;\n"),
    ]);
    assert_eq!(found, modules(&["board", "flip"]));
    let found = loops(&[
        ("lib.rs", "mod web;\n"),
        (
            "web.rs",
            "mod games;\npub struct AppState;\npub use games::routes;\n",
        ),
        (
            "web/games.rs",
            "use super::*;\npub fn routes(_: AppState) {}\n",
        ),
    ]);
    assert_eq!(found, modules(&["web", "web::games"]));
}

#[test]
fn comments_strings_tests_and_other_crates_are_not_imports() {
    let found = loops(&[
        ("lib.rs", "mod a;\nmod b;\nmod time;\n"),
        (
            "a.rs",
            concat!(
                "//! See [`crate::b`].\n",
                "use std::time::Duration;\n",
                "/* crate::b::B */\n",
                "const S: &str = \"crate::b::B\";\n",
                "const R: &str = r#\"super::b::B\"#;\n",
                "const C: char = '\"';\n",
                "fn f<'a>(x: &'a str) -> time::T { time::T }\n",
                "#[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\n",
                "#[cfg(test)]\nfn helper() -> crate::b::B { crate::b::B }\n",
                "#[cfg(test)]\nmod more_tests;\n",
            ),
        ),
        ("a/more_tests.rs", "use crate::b::B;\n"),
        ("b.rs", "use crate::a;\npub struct B;\n"),
        ("time.rs", "pub struct T;\n"),
    ]);
    assert_eq!(found, Vec::<Vec<String>>::new());
}

#[test]
fn inline_modules_belong_to_their_file() {
    // `super::` inside `mod versions { … }` is the file's own module, not its parent.
    let found = loops(&[
        ("lib.rs", "mod search;\nmod eval;\n"),
        (
            "search.rs",
            "mod versions {\n    use super::*;\n    fn f() { super::g(); }\n}\npub fn g() {}\n",
        ),
        ("eval.rs", "use crate::search::g;\n"),
    ]);
    assert_eq!(found, Vec::<Vec<String>>::new());
}

#[test]
fn every_edge_names_where_it_comes_from() {
    let files: BTreeMap<String, String> = [
        ("lib.rs", ROOT),
        ("a.rs", "\nuse crate::b::B;\n"),
        ("b.rs", "pub struct B;\n"),
    ]
    .iter()
    .map(|(n, t)| ((*n).to_string(), (*t).to_string()))
    .collect();
    let graph = ModuleGraph::from_files(&files);
    assert_eq!(graph.edges["a"]["b"], "a.rs:2: crate::b::B");
    assert!(graph.edges["b"].is_empty());
}
