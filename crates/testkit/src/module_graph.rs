//! The module graph of a crate, read from its source files, and the loops in it: which module
//! imports which, by every form of path the code can name a module with.
//!
//! A module is a file (`src/a/b.rs` is `a::b`, `lib.rs`/`main.rs` the root `""`); inline
//! modules (`mod versions { … }`) count as part of their file. An edge `a → b` is any path
//! in `a`'s code, outside test code, that names `b` or an item of it:
//! - `use` declarations in every form: `crate::`, `self::`, `super::` (repeated), grouped and
//!   nested (`use crate::{a, b::{c, d}}`), with `as`, globs, and bare paths to a child
//!   (`use child::Item`);
//! - paths in the code: `crate::b::f()`, `super::X`, a parent's bare `child::f()`, and paths
//!   through a name a `use` brought in (`use crate::tui; tui::app::run()`);
//! - paths are followed through re-exports (`crate::Board` is `board` when the root says
//!   `pub use board::Board`) and globs (`use super::*`).
//!
//! Comments, string and character literals, and test code (`#[cfg(test)]` items and the
//! modules they declare, files named `tests.rs`) are left out. Paths through external crates
//! are not edges; a module is never linked to itself.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module's path from the crate root, one segment a name (`[]` for the root).
type ModPath = Vec<String>;

/// The module graph of one crate: each module and the modules it imports, with a witness
/// (the path as written and its line) for every edge.
///
/// # Examples
/// ```
/// use std::collections::BTreeMap;
///
/// use reversi_testkit::ModuleGraph;
///
/// // `a` imports `b` in a group; `b` reaches back through its parent.
/// let files = BTreeMap::from([
///     ("lib.rs".to_string(), "mod a;\nmod b;\n".to_string()),
///     ("a.rs".to_string(), "use crate::{b};\npub fn g() {}\n".to_string()),
///     ("b.rs".to_string(), "pub fn f() { super::a::g() }\n".to_string()),
/// ]);
/// let graph = ModuleGraph::from_files(&files);
/// assert_eq!(graph.loops(), [["a", "b"]]);
/// assert_eq!(graph.edges["b"]["a"], "b.rs:1: super::a::g");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModuleGraph {
    /// Module (`web::live`, `""` for the root) → module imported → where (`live.rs:12:
    /// crate::web::AppState`).
    pub edges: BTreeMap<String, BTreeMap<String, String>>,
}

impl ModuleGraph {
    /// Reads the crate whose source folder is `src` (with `lib.rs` or `main.rs`).
    ///
    /// # Panics
    /// When a file or folder cannot be read.
    #[must_use]
    pub fn read(src: &Path) -> ModuleGraph {
        let mut files = BTreeMap::new();
        read_dir(src, src, &mut files);
        ModuleGraph::from_files(&files)
    }

    /// The graph of a crate given as its files: path inside `src` (`a/b.rs`) → text.
    #[must_use]
    pub fn from_files(files: &BTreeMap<String, String>) -> ModuleGraph {
        Crate::new(files).graph()
    }

    /// The modules that lie on a loop, each loop's modules together (the strongly connected
    /// components with more than one module), in order.
    #[must_use]
    pub fn loops(&self) -> Vec<Vec<String>> {
        let reach = |from: &str| {
            let mut seen = BTreeSet::new();
            let mut todo = vec![from.to_string()];
            while let Some(m) = todo.pop() {
                for t in self.edges.get(&m).into_iter().flat_map(BTreeMap::keys) {
                    if seen.insert(t.clone()) {
                        todo.push(t.clone());
                    }
                }
            }
            seen
        };
        let reachable: BTreeMap<&String, BTreeSet<String>> =
            self.edges.keys().map(|m| (m, reach(m))).collect();
        let mut out: Vec<Vec<String>> = Vec::new();
        for m in self.edges.keys() {
            if !reachable[m].contains(m) || out.iter().any(|c| c.contains(m)) {
                continue;
            }
            out.push(
                self.edges
                    .keys()
                    .filter(|o| reachable[m].contains(*o) && reachable[*o].contains(m))
                    .cloned()
                    .collect(),
            );
        }
        out
    }

    /// The edges inside a loop, one a line with its witness, for a failure message.
    #[must_use]
    pub fn describe(&self, modules: &[String]) -> String {
        let mut out = String::new();
        for m in modules {
            for (t, why) in &self.edges[m] {
                if modules.contains(t) {
                    out += &format!("  {} -> {}   ({why})\n", show(m), show(t));
                }
            }
        }
        out
    }
}

fn show(m: &str) -> &str {
    if m.is_empty() {
        "(root)"
    } else {
        m
    }
}

fn read_dir(src: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_dir(src, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(src).expect("inside src");
            let rel = rel.to_string_lossy().replace('\\', "/");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
            out.insert(rel, text);
        }
    }
}

/// One module's names: what `use` binds, its globs, its items and children.
#[derive(Debug, Default)]
struct Scope {
    /// Name → (the path as written, and the module it is read in).
    uses: BTreeMap<String, (Vec<String>, ModPath)>,
    /// Glob imports: (path, the module it is read in).
    globs: Vec<(Vec<String>, ModPath)>,
    /// Items defined here (functions, types, constants, macros).
    items: BTreeSet<String>,
    /// Child modules (files and inline).
    children: BTreeSet<String>,
}

/// A module path resolved: a module of the crate, an item of one, or outside the crate.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    Module(ModPath),
    Item(ModPath),
    External,
}

/// A path met in a module's code, to resolve once every scope is known.
struct PathUse {
    /// The file module it was written in.
    file: ModPath,
    /// The module it is read in (the file module, or an inline module in it).
    scope: ModPath,
    segments: Vec<String>,
    line: usize,
    file_name: String,
}

struct Crate {
    /// File modules: path → file name.
    files: BTreeMap<ModPath, String>,
    scopes: BTreeMap<ModPath, Scope>,
    paths: Vec<PathUse>,
}

impl Crate {
    fn new(sources: &BTreeMap<String, String>) -> Crate {
        let mut krate = Crate {
            files: BTreeMap::new(),
            scopes: BTreeMap::new(),
            paths: Vec::new(),
        };
        // Test-only file modules, found as their parents declare them.
        let mut test_files: BTreeSet<ModPath> = BTreeSet::new();
        let mut parsed = Vec::new();
        for (name, text) in sources {
            let Some(module) = file_module(name) else {
                continue;
            };
            let code = strip_tests(&blank(text), &mut |child| {
                let mut p = module.clone();
                p.push(child.to_string());
                test_files.insert(p);
            });
            parsed.push((name.clone(), module, code));
        }
        for (name, module, code) in parsed {
            if test_files.iter().any(|t| module.starts_with(t)) {
                continue;
            }
            krate.files.insert(module.clone(), name.clone());
            krate.scan(&name, &module, &code);
        }
        let files: Vec<ModPath> = krate.files.keys().cloned().collect();
        for module in files {
            if let Some((last, parent)) = module.split_last() {
                krate
                    .scopes
                    .entry(parent.to_vec())
                    .or_default()
                    .children
                    .insert(last.clone());
            }
        }
        krate
    }

    /// Records the scopes, `use` declarations and paths of one file.
    fn scan(&mut self, file_name: &str, module: &ModPath, code: &str) {
        let inline = inline_modules(code);
        let scope_at = |pos: usize| -> ModPath {
            let mut p = module.clone();
            for (name, start, end) in &inline {
                if *start < pos && pos < *end {
                    p.push(name.clone());
                }
            }
            p
        };
        self.scopes.entry(module.clone()).or_default();
        for (name, start, _) in &inline {
            let parent = scope_at(*start);
            self.scopes
                .entry(parent.clone())
                .or_default()
                .children
                .insert(name.clone());
            let mut p = parent;
            p.push(name.clone());
            self.scopes.entry(p).or_default();
        }
        let tokens = tokenize(code);
        let line_of = |pos: usize| code[..pos].matches('\n').count() + 1;
        let mut i = 0;
        while i < tokens.len() {
            let (pos, tok) = (tokens[i].0, tokens[i].1.as_str());
            let scope = scope_at(pos);
            let prev = i.checked_sub(1).map(|j| tokens[j].1.as_str());
            if tok == "use" && prev != Some("::") {
                let end = (i..tokens.len())
                    .find(|&j| tokens[j].1 == ";")
                    .unwrap_or(tokens.len());
                let words: Vec<&str> = tokens[i + 1..end].iter().map(|t| t.1.as_str()).collect();
                let mut leaves = Vec::new();
                use_tree(&words, &mut 0, &[], &mut leaves);
                for leaf in leaves {
                    let s = self.scopes.entry(scope.clone()).or_default();
                    match &leaf.binding {
                        Some(name) if name != "_" => {
                            s.uses
                                .insert(name.clone(), (leaf.path.clone(), scope.clone()));
                        }
                        Some(_) => {}
                        None => s.globs.push((leaf.path.clone(), scope.clone())),
                    }
                    self.paths.push(PathUse {
                        file: module.clone(),
                        scope: scope.clone(),
                        segments: leaf.path,
                        line: line_of(pos),
                        file_name: file_name.to_string(),
                    });
                }
                i = end + 1;
                continue;
            }
            if matches!(
                tok,
                "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union"
            ) || (tok == "macro_rules" && tokens.get(i + 1).is_some_and(|t| t.1 == "!"))
            {
                let at = if tok == "macro_rules" { i + 2 } else { i + 1 };
                if let Some((_, name)) = tokens.get(at).filter(|t| is_ident(&t.1)) {
                    self.scopes
                        .entry(scope.clone())
                        .or_default()
                        .items
                        .insert(name.clone());
                }
            }
            // A path: an identifier followed by `::`, not itself after `::`, `$` or `.`.
            if is_ident(tok)
                && tokens.get(i + 1).is_some_and(|t| t.1 == "::")
                && !matches!(prev, Some("::" | "$" | "." | "'"))
            {
                let mut segments = vec![tok.to_string()];
                let mut j = i + 1;
                while tokens.get(j).is_some_and(|t| t.1 == "::")
                    && tokens.get(j + 1).is_some_and(|t| is_ident(&t.1))
                {
                    segments.push(tokens[j + 1].1.clone());
                    j += 2;
                }
                self.paths.push(PathUse {
                    file: module.clone(),
                    scope,
                    segments,
                    line: line_of(pos),
                    file_name: file_name.to_string(),
                });
                i = j;
                continue;
            }
            i += 1;
        }
    }

    fn graph(&self) -> ModuleGraph {
        let mut edges: BTreeMap<String, BTreeMap<String, String>> = self
            .files
            .keys()
            .map(|m| (m.join("::"), BTreeMap::new()))
            .collect();
        for p in &self.paths {
            let target = match self.resolve(&p.scope, &p.segments, 0) {
                Target::Module(m) | Target::Item(m) => m,
                Target::External => continue,
            };
            let to = self.file_of(&target).join("::");
            let from = p.file.join("::");
            if to != from {
                edges.entry(from).or_default().entry(to).or_insert_with(|| {
                    format!("{}:{}: {}", p.file_name, p.line, p.segments.join("::"))
                });
            }
        }
        ModuleGraph { edges }
    }

    /// The file module that holds `module` (itself, or the file of an inline module).
    fn file_of(&self, module: &ModPath) -> ModPath {
        (0..=module.len())
            .rev()
            .map(|n| module[..n].to_vec())
            .find(|m| self.files.contains_key(m))
            .unwrap_or_default()
    }

    /// What `segments`, written in module `scope`, names.
    fn resolve(&self, scope: &ModPath, segments: &[String], depth: usize) -> Target {
        if depth > 24 || segments.is_empty() {
            return Target::External;
        }
        let (mut at, rest) = match segments[0].as_str() {
            "crate" => (Target::Module(Vec::new()), &segments[1..]),
            "self" => (Target::Module(scope.clone()), &segments[1..]),
            "super" => {
                let mut m = scope.clone();
                let mut n = 0;
                while segments.get(n).is_some_and(|s| s == "super") {
                    m.pop();
                    n += 1;
                }
                (Target::Module(m), &segments[n..])
            }
            first => match self.lookup(scope, first, depth) {
                Some(t) => (t, &segments[1..]),
                None => return Target::External,
            },
        };
        for seg in rest {
            at = match at {
                Target::Module(m) => self.lookup(&m, seg, depth).unwrap_or(Target::Item(m)),
                other => return other,
            };
        }
        at
    }

    /// What `name` means inside `module`: a child, an item, a `use`, or a glob's name.
    fn lookup(&self, module: &ModPath, name: &str, depth: usize) -> Option<Target> {
        let scope = self.scopes.get(module)?;
        if scope.children.contains(name) {
            let mut m = module.clone();
            m.push(name.to_string());
            return Some(Target::Module(m));
        }
        if scope.items.contains(name) {
            return Some(Target::Item(module.clone()));
        }
        if let Some((path, at)) = scope.uses.get(name) {
            // `use x;` of an item `x` defined here was answered above.
            return Some(self.resolve(at, path, depth + 1));
        }
        for (path, at) in &scope.globs {
            if let Target::Module(g) = self.resolve(at, path, depth + 1) {
                if g != *module {
                    if let Some(t) = self.lookup(&g, name, depth + 1) {
                        return Some(t);
                    }
                }
            }
        }
        None
    }
}

/// The module a file inside `src` is (`a/b.rs` → `a::b`, `lib.rs` → root), or `None` for
/// test files (`tests.rs`, anything in a `tests` folder) and other crate roots (`bin/`).
fn file_module(name: &str) -> Option<ModPath> {
    let stem = name.strip_suffix(".rs")?;
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    if parts.iter().any(|p| p == "tests") {
        return None;
    }
    let root = parts.len() == 1 && matches!(parts[0].as_str(), "lib" | "main");
    if root || parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    Some(parts)
}

/// The text with comments, string and character literals replaced by spaces (line breaks
/// kept), so that nothing in them reads as code.
fn blank(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank_to = |out: &mut String, chars: &[char]| {
        for &c in chars {
            out.push(if c == '\n' { '\n' } else { ' ' });
        }
    };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            let end = (i..b.len()).find(|&j| b[j] == '\n').unwrap_or(b.len());
            blank_to(&mut out, &b[i..end]);
            i = end;
        } else if c == '/' && next == Some('*') {
            let (mut j, mut depth) = (i + 2, 1);
            while j < b.len() && depth > 0 {
                if b[j] == '/' && b.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if b[j] == '*' && b.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank_to(&mut out, &b[i..j.min(b.len())]);
            i = j;
        } else if (c == 'r' || c == 'b')
            && !(i > 0 && ident(b[i - 1]))
            && raw_string_start(&b, i).is_some()
        {
            let (open, hashes) = raw_string_start(&b, i).unwrap_or((i, 0));
            let mut j = open + 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.extend(std::iter::repeat_n(' ', open - i));
            blank_to(&mut out, &b[open..j.min(b.len())]);
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            blank_to(&mut out, &b[i..(j + 1).min(b.len())]);
            i = j + 1;
        } else if c == '\'' {
            // A character literal ('a', '\n', '\u{1F600}'), or else a lifetime or label.
            let end = if next == Some('\\') {
                (i + 2..b.len()).find(|&j| b[j] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    blank_to(&mut out, &b[i..=e]);
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Where the quote of a raw string (`r"`, `r#"`, `br##"`) starting at `i` is, and its `#`s.
fn raw_string_start(b: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if b[j] == 'b' {
        j += 1;
    }
    if b.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while b.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (b.get(j) == Some(&'"')).then_some((j, hashes))
}

/// The code with every `#[cfg(test)]` item blanked out; `test_module` hears the name of each
/// file module declared that way (`#[cfg(test)] mod tests;`).
fn strip_tests(code: &str, test_module: &mut dyn FnMut(&str)) -> String {
    let mut chars: Vec<char> = code.chars().collect();
    let pat: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + pat.len() <= chars.len() {
        if chars[i..i + pat.len()] != pat[..] {
            i += 1;
            continue;
        }
        let mut j = i + pat.len();
        // Further attributes.
        loop {
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if chars.get(j) == Some(&'#') && chars.get(j + 1) == Some(&'[') {
                j = matching(&chars, j + 1, '[', ']') + 1;
            } else {
                break;
            }
        }
        let item_start = j;
        let mut depth = 0i32;
        let mut end = chars.len();
        while j < chars.len() {
            match chars[j] {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                '{' if depth == 0 => {
                    end = matching(&chars, j, '{', '}') + 1;
                    break;
                }
                ';' if depth == 0 => {
                    end = j + 1;
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        let end = end.min(chars.len());
        let item: String = chars[item_start..end].iter().collect();
        let words: Vec<&str> = item
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty() && *w != "pub" && *w != "crate" && *w != "super")
            .collect();
        if words.first() == Some(&"mod") && item.trim_end().ends_with(';') {
            if let Some(name) = words.get(1) {
                test_module(name);
            }
        }
        for c in &mut chars[i..end] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i = end;
    }
    chars.into_iter().collect()
}

/// The index of the bracket that closes the one at `open`.
fn matching(chars: &[char], open: usize, o: char, c: char) -> usize {
    let mut depth = 0;
    for (j, &ch) in chars.iter().enumerate().skip(open) {
        if ch == o {
            depth += 1;
        } else if ch == c {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    chars.len().saturating_sub(1)
}

/// Inline modules (`mod name { … }`): name and the byte offsets of their braces.
fn inline_modules(code: &str) -> Vec<(String, usize, usize)> {
    let tokens = tokenize(code);
    let mut out = Vec::new();
    for w in tokens.windows(3) {
        if w[0].1 == "mod" && is_ident(&w[1].1) && w[2].1 == "{" {
            let chars: Vec<(usize, char)> = code.char_indices().collect();
            let open = chars.iter().position(|&(b, _)| b == w[2].0).unwrap_or(0);
            let only: Vec<char> = chars.iter().map(|&(_, c)| c).collect();
            let close = matching(&only, open, '{', '}');
            let close_byte = chars.get(close).map_or(code.len(), |&(b, _)| b);
            out.push((w[1].1.clone(), w[2].0, close_byte));
        }
    }
    out
}

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Identifiers, `::` and single punctuation characters, each with its byte offset.
fn tokenize(code: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut word = String::from(c);
            while let Some(&(_, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    word.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            // `r#type` is the identifier `type`.
            out.push((i, word));
        } else if c == ':' && chars.peek().is_some_and(|&(_, d)| d == ':') {
            chars.next();
            out.push((i, "::".to_string()));
        } else if !c.is_whitespace() {
            out.push((i, c.to_string()));
        }
    }
    out
}

/// A leaf of a `use` tree: the whole path, and the name it binds (`None` for a glob).
struct Leaf {
    path: Vec<String>,
    binding: Option<String>,
}

/// Reads one `use` tree from `words[*at..]` under `prefix`, adding its leaves.
fn use_tree(words: &[&str], at: &mut usize, prefix: &[String], out: &mut Vec<Leaf>) {
    let mut path = prefix.to_vec();
    if words.get(*at) == Some(&"::") {
        *at += 1;
    }
    loop {
        match words.get(*at) {
            Some(&"{") => {
                *at += 1;
                loop {
                    match words.get(*at) {
                        Some(&"}") => {
                            *at += 1;
                            break;
                        }
                        Some(&",") => *at += 1,
                        Some(_) => use_tree(words, at, &path, out),
                        None => break,
                    }
                }
                return;
            }
            Some(&"*") => {
                *at += 1;
                out.push(Leaf {
                    path,
                    binding: None,
                });
                return;
            }
            Some(w) if is_ident(w) => {
                *at += 1;
                if *w == "self" && !path.is_empty() && words.get(*at) != Some(&"::") {
                    // `use a::{self}`: `a` itself.
                } else {
                    path.push((*w).to_string());
                }
                if words.get(*at) == Some(&"::") {
                    *at += 1;
                    continue;
                }
                let mut binding = path.last().cloned();
                if words.get(*at) == Some(&"as") {
                    binding = words.get(*at + 1).map(|s| (*s).to_string());
                    *at += 2;
                }
                out.push(Leaf { path, binding });
                return;
            }
            _ => {
                *at += 1;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests;
