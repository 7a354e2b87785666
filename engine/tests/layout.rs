//! The engine's files as a house (issue 32): no two files of `engine/src` import each other in a
//! circle, and no file is over [`MAX_LINES`] lines unless its first lines say why ("best read
//! whole").
//!
//! File-level granularity: `crate::a::b::Item` names the file of module `a::b` (`a/b.rs` or
//! `a/b/mod.rs`); `super::` and `self::` resolve from the file's module; in a `use`, a path may
//! also start with a child module's name. An item a `mod.rs` (or `lib.rs`) re-exports with
//! `pub use` counts as the file it comes from, anything else it declares as the `mod.rs`.
//! Comments and string literals are skipped, and so are test files (`tests.rs`, `*_tests.rs`)
//! and inline `#[cfg(test)] mod ... { }` blocks: tests are leaves, nothing imports them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest a non-test file may be without "best read whole" in its first 10 lines.
const MAX_LINES: usize = 800;

/// A module path from the crate root (`["schedule", "cost"]`; empty for `lib.rs`).
type ModPath = Vec<String>;

/// One engine source file.
struct SourceFile {
    /// Relative to `engine/src`, with `/`.
    name: String,
    /// Its module.
    module: ModPath,
    /// The code without comments, string literals and inline test modules.
    code: String,
}

fn src_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_file(name: &str) -> bool {
    let file = name.rsplit('/').next().unwrap_or(name);
    file == "tests.rs" || file.ends_with("_tests.rs")
}

/// Every `.rs` file under `engine/src`, with its `/`-separated name relative to it.
fn named_files() -> Vec<(String, PathBuf)> {
    let root = src_dir();
    let mut paths = Vec::new();
    rust_files(&root, &mut paths);
    paths
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (name, path)
        })
        .collect()
}

/// The library's files (not `bin/`, a crate of its own), test files aside.
fn library_files() -> Vec<SourceFile> {
    let mut out = Vec::new();
    for (name, path) in named_files() {
        if name.starts_with("bin/") || is_test_file(&name) {
            continue;
        }
        let mut module: ModPath = name
            .trim_end_matches(".rs")
            .split('/')
            .map(str::to_string)
            .collect();
        if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
            module.pop();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        out.push(SourceFile {
            name,
            module,
            code: without_test_modules(&strip_comments_and_strings(&text)),
        });
    }
    out
}

/// The text with comments, string and char literals blanked (lines kept).
fn strip_comments_and_strings(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, from: &[char]| {
        for ch in from {
            out.push(if *ch == '\n' { '\n' } else { ' ' });
        }
    };
    while i < c.len() {
        let prev_ident = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            let end = c[i..]
                .iter()
                .position(|&ch| ch == '\n')
                .map_or(c.len(), |p| i + p);
            blank(&mut out, &c[i..end]);
            i = end;
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            let start = i;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            blank(&mut out, &c[start..i.min(c.len())]);
        } else if !prev_ident && (c[i] == 'r' || (c[i] == 'b' && c.get(i + 1) == Some(&'r'))) && {
            let j = if c[i] == 'b' { i + 2 } else { i + 1 };
            let hashes = c[j..].iter().take_while(|&&ch| ch == '#').count();
            c.get(j + hashes) == Some(&'"')
        } {
            // A raw string: r"..." or r#"..."#.
            let j = if c[i] == 'b' { i + 2 } else { i + 1 };
            let hashes = c[j..].iter().take_while(|&&ch| ch == '#').count();
            let mut k = j + hashes + 1;
            while k < c.len() {
                if c[k] == '"'
                    && c[k + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&ch| ch == '#')
                        .count()
                        == hashes
                {
                    k += 1 + hashes;
                    break;
                }
                k += 1;
            }
            blank(&mut out, &c[i..k.min(c.len())]);
            i = k;
        } else if c[i] == '"' {
            let start = i;
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            blank(&mut out, &c[start..i.min(c.len())]);
        } else if c[i] == '\'' && c.get(i + 1) == Some(&'\\') {
            // An escaped char literal: '\n', '\'', '\u{1F600}'.
            let start = i;
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            blank(&mut out, &c[start..i.min(c.len())]);
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            blank(&mut out, &c[i..i + 3]);
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The code without `#[cfg(test)] mod name { ... }` blocks (their `super` is another module).
fn without_test_modules(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        let after = &rest[at + "#[cfg(test)]".len()..];
        let mut trimmed = after.trim_start();
        while let Some(attribute) = trimmed.strip_prefix("#[") {
            let Some(close) = attribute.find(']') else {
                break;
            };
            trimmed = attribute[close + 1..].trim_start();
        }
        let inline_mod = trimmed
            .strip_prefix("mod ")
            .or_else(|| trimmed.strip_prefix("pub mod "))
            .and_then(|m| {
                let brace = m.find('{')?;
                let semi = m.find(';').unwrap_or(usize::MAX);
                (brace < semi).then_some(brace)
            });
        let Some(_) = inline_mod else {
            out.push_str(&rest[..at + "#[cfg(test)]".len()]);
            rest = after;
            continue;
        };
        out.push_str(&rest[..at]);
        let open = at + rest[at..].find('{').unwrap();
        let mut depth = 0;
        let mut end = rest.len();
        for (k, ch) in rest[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// One path a `use` item imports.
struct UsePath {
    /// Whether it is a `pub use` (a re-export).
    is_pub: bool,
    /// The path as written (`super::y::Why`).
    path: Vec<String>,
    /// The name it is known by here (`Because` for `y::Why as Because`).
    name: String,
}

/// The paths of every `use` item, trees expanded.
fn use_paths(code: &str) -> Vec<UsePath> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(p) = code[from..].find("use ") {
        let at = from + p;
        from = at + 4;
        let starts_word =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        if !starts_word {
            continue;
        }
        let before = code[..at].trim_end();
        let is_pub = before.ends_with("pub") || (before.ends_with(')') && before.contains("pub("));
        let line_start = before.rfind(['\n', ';', '{', '}']).map_or(0, |i| i + 1);
        let head = code[line_start..at].trim();
        if !(head.is_empty() || head.starts_with("pub") || head.starts_with("#[")) {
            continue;
        }
        let Some(end) = code[at..].find(';') else {
            break;
        };
        // `X as Y` becomes `X@Y`, then whitespace goes.
        let tree: String = code[at + 4..at + end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace(" as ", "@")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        for mut path in expand_tree(&tree) {
            let last = path.pop().unwrap_or_default();
            let (item, name) = last.split_once('@').unwrap_or((&last, &last));
            let name = name.to_string();
            path.push(item.to_string());
            out.push(UsePath { is_pub, path, name });
        }
        from = at + end;
    }
    out
}

/// `a::{b, c::{d, self}}` → `a::b`, `a::c::d`, `a::c`.
fn expand_tree(tree: &str) -> Vec<Vec<String>> {
    let Some(open) = tree.find('{') else {
        let segs: Vec<String> = tree
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        return if segs.is_empty() {
            Vec::new()
        } else {
            vec![segs]
        };
    };
    let prefix: Vec<String> = tree[..open]
        .split("::")
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    let mut out = Vec::new();
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        for rest in expand_tree(part) {
            let mut path = prefix.clone();
            if rest != ["self"] {
                path.extend(rest);
            }
            out.push(path);
        }
    }
    out
}

/// Paths written in code, outside `use`: `crate::a::b`, `super::x`, `self::y`.
fn inline_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = i == 0
            || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == ':');
        if starts_word && (chars[i].is_alphabetic() || chars[i] == '_') {
            let mut j = i;
            let mut segs = Vec::new();
            loop {
                let s = j;
                while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                    j += 1;
                }
                if s == j {
                    break;
                }
                segs.push(chars[s..j].iter().collect::<String>());
                if chars.get(j) == Some(&':') && chars.get(j + 1) == Some(&':') {
                    j += 2;
                } else {
                    break;
                }
            }
            if segs.len() > 1 && matches!(segs[0].as_str(), "crate" | "super" | "self") {
                out.push(segs);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The crate's modules and what each file re-exports.
struct Crate<'f> {
    files: &'f [SourceFile],
    by_module: BTreeMap<ModPath, usize>,
    /// Per file, item name → the path it re-exports (as written, resolved from that file).
    reexports: Vec<BTreeMap<String, Vec<String>>>,
}

impl<'f> Crate<'f> {
    fn new(files: &'f [SourceFile]) -> Self {
        let by_module = files
            .iter()
            .enumerate()
            .map(|(k, f)| (f.module.clone(), k))
            .collect();
        let reexports = files
            .iter()
            .map(|f| {
                use_paths(&f.code)
                    .into_iter()
                    .filter(|u| u.is_pub)
                    .map(|u| (u.name, u.path))
                    .collect()
            })
            .collect();
        Crate {
            files,
            by_module,
            reexports,
        }
    }

    /// The file a path names, from file `from`, following re-exports; none outside the crate.
    fn resolve(&self, from: usize, path: &[String], in_use: bool, depth: usize) -> Option<usize> {
        let file = &self.files[from];
        let mut module = file.module.clone();
        let here = module.clone();
        let mut segs = path;
        match segs.first()?.as_str() {
            "crate" => {
                module.clear();
                segs = &segs[1..];
            }
            "self" => segs = &segs[1..],
            "super" => {
                while segs.first().map(String::as_str) == Some("super") {
                    module.pop()?;
                    segs = &segs[1..];
                }
            }
            first => {
                let mut child = here.clone();
                child.push(first.to_string());
                if !(in_use && self.by_module.contains_key(&child)) {
                    return None;
                }
            }
        }
        while let Some(seg) = segs.first() {
            let mut deeper = module.clone();
            deeper.push(seg.clone());
            if self.by_module.contains_key(&deeper) {
                module = deeper;
                segs = &segs[1..];
            } else {
                break;
            }
        }
        let target = *self.by_module.get(&module)?;
        if depth < 8 {
            if let Some(item) = segs.first() {
                if let Some(again) = self.reexports[target].get(item) {
                    if let Some(t) = self.resolve(target, again, true, depth + 1) {
                        return Some(t);
                    }
                }
            }
        }
        Some(target)
    }

    /// Which files each file imports.
    fn edges(&self) -> Vec<BTreeSet<usize>> {
        self.files
            .iter()
            .enumerate()
            .map(|(k, f)| {
                let uses = use_paths(&f.code).into_iter().map(|u| (true, u.path));
                let inline = inline_paths(&f.code).into_iter().map(|p| (false, p));
                uses.chain(inline)
                    .filter_map(|(in_use, p)| self.resolve(k, &p, in_use, 0))
                    .filter(|&t| t != k)
                    .collect()
            })
            .collect()
    }
}

/// Every circle of imports, one per strongly connected component, as file names.
fn circles(files: &[SourceFile], edges: &[BTreeSet<usize>]) -> Vec<Vec<String>> {
    let n = files.len();
    // Tarjan's strongly connected components.
    struct State<'e> {
        edges: &'e [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        components: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in s.edges[v].iter() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            s.components.push(component);
        }
    }
    let mut s = State {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        components: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    let mut out = Vec::new();
    for component in s.components.into_iter().filter(|c| c.len() > 1) {
        let inside: BTreeSet<usize> = component.iter().copied().collect();
        let start = *inside.iter().next().unwrap();
        // A shortest way back to `start` inside the component (breadth first).
        let mut came_from: BTreeMap<usize, usize> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut last = None;
        'search: while let Some(v) = queue.pop_front() {
            for &w in &edges[v] {
                if !inside.contains(&w) {
                    continue;
                }
                if w == start {
                    last = Some(v);
                    break 'search;
                }
                if let std::collections::btree_map::Entry::Vacant(e) = came_from.entry(w) {
                    e.insert(v);
                    queue.push_back(w);
                }
            }
        }
        let mut cycle = vec![start];
        let mut v = last.unwrap();
        while v != start {
            cycle.push(v);
            v = came_from[&v];
        }
        cycle[1..].reverse();
        cycle.push(start);
        out.push(cycle.iter().map(|&k| files[k].name.clone()).collect());
    }
    out
}

#[test]
fn no_two_engine_files_import_each_other_in_a_circle() {
    let files = library_files();
    let krate = Crate::new(&files);
    let edges = krate.edges();
    let found = circles(&files, &edges);
    assert!(
        found.is_empty(),
        "engine files that import each other in a circle (move the shared item down into the \
         lower file, or into a small file of its own):\n{}",
        found
            .iter()
            .map(|c| format!("  {}", c.join(" -> ")))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn no_engine_file_is_over_the_limit_without_a_reason() {
    let mut long = Vec::new();
    for (name, path) in named_files() {
        if is_test_file(&name) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines = text.lines().count();
        let reason = text.lines().take(10).any(|l| l.contains("best read whole"));
        if lines > MAX_LINES && !reason {
            long.push(format!("  {name}: {lines} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "engine files over {MAX_LINES} lines: split them along a seam, or say in their first 10 \
         lines why they are one algorithm (\"best read whole\"):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_checker_sees_circles_re_exports_and_skips_comments() {
    let file = |name: &str, code: &str| {
        let mut module: ModPath = name
            .trim_end_matches(".rs")
            .split('/')
            .map(str::to_string)
            .collect();
        if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
            module.pop();
        }
        SourceFile {
            name: name.to_string(),
            module,
            code: without_test_modules(&strip_comments_and_strings(code)),
        }
    };
    let files = vec![
        file("lib.rs", "pub mod a;\n"),
        file("a/mod.rs", "mod x;\nmod y;\npub use y::{Why as Because, Other};\n"),
        file(
            "a/x.rs",
            "//! see crate::a::y\nuse super::Because;\nfn f() { let s = \"crate::a::y\"; }\n",
        ),
        file(
            "a/y.rs",
            "pub struct Why;\nfn g() { crate::a::x::h(); }\n#[cfg(test)]\nmod tests {\n    use super::super::x;\n}\n",
        ),
    ];
    let krate = Crate::new(&files);
    let edges = krate.edges();
    let found = circles(&files, &edges);
    assert_eq!(found, vec![vec!["a/x.rs", "a/y.rs", "a/x.rs"]]);
    // Without y's call into x, only the re-export remains: no circle.
    let mut files = files;
    files[3] = file("a/y.rs", "pub struct Why;\n");
    let krate = Crate::new(&files);
    assert!(circles(&files, &krate.edges()).is_empty());
}
