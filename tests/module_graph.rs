//! The crate's modules depend on each other without a cycle: every module under src/, and
//! every module of the runtime under runtime/src/, can be read (and changed) knowing only the
//! modules below it. (The two crates cannot form a cycle between them: the runtime does not
//! depend on the crate.)
//!
//! A module's dependencies are the paths its file names that start with `crate::` or
//! `super::` (in `use` declarations, grouped or not, and in code), plus its private `use` of a
//! child module (`use serializer::Serializer;`). A path leads to the deepest module file it
//! names (`crate::json::errors::invalid_number` leads to `json::errors`); a module renamed by
//! `pub use path as name` is followed. A re-export (`pub use`, `pub(crate) use`, …) is the
//! module's face, not a dependency: its code does not call what it re-exports, so the module
//! re-exported may name the one re-exporting it (a parent's `pub use child::Item`, `dispatch`
//! re-exporting `pending`). There are no exceptions.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path below the crate root: `[]` is the root, `["json", "errors"]` is
/// `crate::json::errors`.
type Module = Vec<String>;

struct Crate {
    /// Each module file's module.
    files: BTreeMap<Module, PathBuf>,
    /// `pub use path as name` of a module: the alias's module and the module it names.
    aliases: BTreeMap<Module, Module>,
}

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file under src/ is: `lib.rs` the root, `a/mod.rs` and `a.rs` are `a`.
fn module_of(src: &Path, file: &Path) -> Module {
    let relative = file.strip_prefix(src).expect("a file under src/");
    let mut parts: Module = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !(stem == "mod" || (parts.is_empty() && stem == "lib")) {
        parts.push(stem.to_owned());
    }
    parts
}

/// The file's code without comments and string literals (so that a path in a doc link or a
/// message is not a dependency). Line structure is kept.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut previous = ' ';
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    if previous == '*' && c == '/' {
                        break;
                    }
                    previous = c;
                }
            }
            // A raw string: `r"…"`, `r#"…"#`, `br##"…"##`.
            'r' if !out.ends_with(|p: char| p.is_ascii_alphanumeric() || p == '_')
                && matches!(chars.peek(), Some('#') | Some('"')) =>
            {
                let mut hashes = 0;
                while chars.peek() == Some(&'#') {
                    chars.next();
                    hashes += 1;
                }
                if chars.next() != Some('"') {
                    // `r#ident`, a raw identifier.
                    out.push('r');
                    continue;
                }
                out.push_str("\"\"");
                let closing: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let mut tail = String::new();
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    tail.push(c);
                    if tail.ends_with(&closing) {
                        break;
                    }
                }
            }
            '"' => {
                out.push_str("\"\"");
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        break;
                    }
                }
            }
            // A character literal such as '"' or '{' (a lifetime has no closing quote).
            '\'' => {
                let rest: String = chars.clone().take(3).collect();
                let literal_len = if rest.starts_with('\\') {
                    rest.find('\'').map(|i| i + 1)
                } else if rest.chars().nth(1) == Some('\'') {
                    Some(2)
                } else {
                    None
                };
                match literal_len {
                    Some(n) => {
                        for _ in 0..n {
                            chars.next();
                        }
                        out.push_str("' '");
                    }
                    None => out.push('\''),
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Expands a `use` tree (`crate::{a::B, c::{d, e::F}}`) into its paths.
fn expand_use_tree(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    match tree.find('{') {
        // A renamed path keeps its ` as name`, for the aliases.
        None => out.push(format!("{prefix}{tree}")),
        Some(open) => {
            let head = &tree[..open];
            let inner = &tree[open + 1..tree.rfind('}').expect("a closed use group")];
            let mut depth = 0;
            let mut start = 0;
            let prefix = format!("{prefix}{head}");
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand_use_tree(&inner[start..i], &prefix, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            if !inner[start..].trim().is_empty() {
                expand_use_tree(&inner[start..], &prefix, out);
            }
        }
    }
}

/// A `use` declaration found in a file: its visibility, its paths, and the inline module it is
/// in (relative to the file's module).
struct Use {
    public: bool,
    paths: Vec<String>,
    inline: Vec<String>,
}

/// Every `use` declaration of a file, and every other `crate::`/`super::` path in its code,
/// each with the inline modules (`mod tests { … }`) around it.
fn references(code: &str) -> (Vec<Use>, Vec<(String, Vec<String>)>) {
    let mut uses = Vec::new();
    let mut paths = Vec::new();
    // Inline modules by the indentation of their `mod` line.
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if inline
            .last()
            .is_some_and(|(i, _)| *i == indent && trimmed.starts_with('}'))
        {
            inline.pop();
            continue;
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let after_visibility = match words.first() {
            Some(w) if w.starts_with("pub") => &words[1..],
            _ => &words[..],
        };
        if after_visibility.first() == Some(&"mod") && trimmed.ends_with('{') {
            let name = after_visibility.get(1).copied().unwrap_or_default();
            inline.push((indent, name.to_owned()));
            continue;
        }
        let inline_names: Vec<String> = inline.iter().map(|(_, n)| n.clone()).collect();
        if after_visibility.first() == Some(&"use") {
            let mut statement = trimmed.to_owned();
            while !statement.ends_with(';') {
                match lines.next() {
                    Some(more) => statement.push_str(more.trim()),
                    None => break,
                }
            }
            let tree = statement
                .split_once("use ")
                .map(|(_, t)| t.trim_end_matches(';'))
                .unwrap_or_default();
            let mut found = Vec::new();
            expand_use_tree(tree, "", &mut found);
            uses.push(Use {
                public: words.first().is_some_and(|w| w.starts_with("pub")),
                paths: found,
                inline: inline_names,
            });
            continue;
        }
        let bytes = line.as_bytes();
        for start in ["crate::", "super::"]
            .iter()
            .flat_map(|needle| line.match_indices(needle).map(|(i, _)| i))
        {
            let boundary = start == 0 || {
                let b = bytes[start - 1];
                !(b.is_ascii_alphanumeric() || b == b'_' || b == b':')
            };
            if !boundary {
                continue;
            }
            let end = line[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(line.len(), |e| start + e);
            paths.push((
                line[start..end].trim_end_matches(':').to_owned(),
                inline_names.clone(),
            ));
        }
    }
    (uses, paths)
}

impl Crate {
    /// The module file a path leads to, from module `here` (a file's module plus the inline
    /// modules around the path); `None` for a path outside the crate (`std::…`, `serde::…`).
    fn resolve(&self, here: &Module, path: &str, child_names: bool) -> Option<Module> {
        let mut segments = path.split("::").filter(|s| !s.is_empty()).peekable();
        let mut module: Module = match segments.peek().copied() {
            Some("crate") => {
                segments.next();
                Vec::new()
            }
            Some("super") => {
                let mut m = here.clone();
                while segments.peek() == Some(&"super") {
                    segments.next();
                    m.pop();
                }
                m
            }
            Some("self") => {
                segments.next();
                here.clone()
            }
            Some(_) if child_names => here.clone(),
            _ => return None,
        };
        // The deepest module file along the path (an alias followed where it stands).
        let mut deepest = self.file_module(&module);
        for segment in segments {
            module.push(segment.to_owned());
            if let Some(target) = self.aliases.get(&module) {
                module = target.clone();
            }
            if self.files.contains_key(&module) {
                deepest = Some(module.clone());
            } else {
                break;
            }
        }
        deepest
    }

    /// The module file holding `module` (an inline module is in its parent's file).
    fn file_module(&self, module: &Module) -> Option<Module> {
        let mut m = module.clone();
        loop {
            if self.files.contains_key(&m) {
                return Some(m);
            }
            m.pop()?;
        }
    }
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        format!("crate::{}", module.join("::"))
    }
}

/// The crate's module graph.
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    graph_of("src")
}

/// The runtime crate's module graph.
fn runtime_graph() -> BTreeMap<Module, BTreeSet<Module>> {
    graph_of("runtime/src")
}

fn graph_of(dir: &str) -> BTreeMap<Module, BTreeSet<Module>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut paths = Vec::new();
    source_files(&src, &mut paths);
    let mut krate = Crate {
        files: BTreeMap::new(),
        aliases: BTreeMap::new(),
    };
    let mut parsed = Vec::new();
    for path in &paths {
        let module = module_of(&src, path);
        let text = std::fs::read_to_string(path).expect("a readable source file");
        krate.files.insert(module.clone(), path.clone());
        parsed.push((module, references(&code_only(&text))));
    }
    // Aliases first, so that every path can follow them; twice, so that a re-export of a
    // re-export leads to the module that defines the item.
    for (module, (uses, _)) in parsed.iter().chain(&parsed) {
        for use_ in uses.iter().filter(|u| u.public && u.inline.is_empty()) {
            for path in &use_.paths {
                // `pub use a::Item` is the alias `Item` of what `a::Item` leads to, so that
                // a path through a re-export (`crate::server::Handler`) leads to the module
                // that defines it, not to the one re-exporting it.
                let (target, alias) = match path.split_once(" as ") {
                    Some(renamed) => renamed,
                    None if path.ends_with('*') => continue,
                    None => (path.as_str(), path.rsplit("::").next().unwrap_or(path)),
                };
                let mut here = module.clone();
                if let Some(resolved) = krate.resolve(&here, target.trim(), true) {
                    let exact = target.trim().rsplit("::").next() == resolved.last().map(|s| &**s);
                    let item = !path.contains(" as ");
                    if exact || (item && resolved != *module) {
                        here.push(alias.trim().to_owned());
                        krate.aliases.insert(here, resolved);
                    }
                }
            }
        }
    }
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, (uses, paths)) in &parsed {
        let targets = edges.entry(module.clone()).or_default();
        let mut add = |inline: &[String], path: &str, child_names: bool| {
            let mut here = module.clone();
            here.extend(inline.iter().cloned());
            if let Some(target) = krate.resolve(&here, path, child_names) {
                if &target != module {
                    targets.insert(target);
                }
            }
        };
        for use_ in uses {
            if use_.public {
                continue;
            }
            for path in &use_.paths {
                let path = path.split(" as ").next().unwrap_or(path);
                add(&use_.inline, path, true);
            }
        }
        for (path, inline) in paths {
            add(inline, path, false);
        }
    }
    edges
}

/// A cycle in `edges`, as the modules along it, if there is one.
fn find_cycle(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &Module,
        edges: &BTreeMap<Module, BTreeSet<Module>>,
        marks: &mut BTreeMap<Module, Mark>,
        stack: &mut Vec<Module>,
    ) -> Option<Vec<Module>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = stack.iter().position(|m| m == node).unwrap_or(0);
                let mut cycle = stack[start..].to_vec();
                cycle.push(node.clone());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node.clone(), Mark::Open);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, marks, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in edges.keys() {
        if let Some(cycle) = visit(node, edges, &mut marks, &mut Vec::new()) {
            return Some(cycle);
        }
    }
    None
}

#[test]
fn no_module_depends_on_itself_through_others() {
    for (dir, edges) in [("src", graph()), ("runtime/src", runtime_graph())] {
        assert!(edges.len() > 10, "{dir}: the graph has its modules");
        let cycles = cycles(edges);
        assert!(
            cycles.is_empty(),
            "import cycles in {dir}:\n{}",
            cycles.join("\n")
        );
    }
}

/// Every cycle of `edges`, not just the first: each found is broken at its last edge and
/// looked for again.
fn cycles(mut edges: BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let mut cycles = Vec::new();
    while let Some(cycle) = find_cycle(&edges) {
        let shown: Vec<String> = cycle.iter().map(name).collect();
        cycles.push(shown.join(" → "));
        let (from, to) = (&cycle[cycle.len() - 2], &cycle[cycle.len() - 1]);
        edges.get_mut(from).map(|t| t.remove(to));
    }
    cycles
}

#[test]
fn the_graph_sees_what_it_must() {
    let edges = graph();
    let runtime = runtime_graph();
    let module = |path: &str| -> Module {
        path.split("::")
            .filter(|s| *s != "crate" && !s.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let has = |from: &str, to: &str| {
        edges
            .get(&module(from))
            .is_some_and(|t| t.contains(&module(to)))
    };
    let runtime_has = |from: &str, to: &str| {
        runtime
            .get(&module(from))
            .is_some_and(|t| t.contains(&module(to)))
    };
    // A grouped `use super::…` line, a path in code through an alias, and a private `use` of a
    // child: each is an edge, so a cycle through any of them would be found.
    assert!(runtime_has(
        "crate::json::serializer",
        "crate::json::errors"
    ));
    assert!(runtime_has(
        "crate::json::serializer",
        "crate::json::tokens"
    ));
    assert!(has("crate::dispatch::parse", "crate::__private"));
    assert!(runtime_has(
        "crate::runtime::bounds",
        "crate::runtime::members"
    ));
    // A cycle is found where there is one.
    let mut cyclic = runtime.clone();
    cyclic
        .entry(module("crate::json::tokens"))
        .or_default()
        .insert(module("crate::json::serializer"));
    assert!(find_cycle(&cyclic).is_some());
}

/// A revision module: one generated from a schema (`v2026_07_28`, `draft`, `keywords_test`).
fn is_revision(module: &Module) -> bool {
    match module.as_slice() {
        [name] => {
            name == "draft"
                || name == "keywords_test"
                || (name.starts_with('v')
                    && name[1..].chars().all(|c| c.is_ascii_digit() || c == '_'))
        }
        _ => false,
    }
}

/// What is written for the stateless revisions reaches their types only through the macros
/// each revision module expands (`input_required_api!`, `discovery_api!`): it names no
/// revision, tests included, so it is there for every revision that has the definitions, and a
/// revision copied from the one before it gets it with no edit here.
#[test]
fn stateless_helpers_name_no_revision() {
    let edges = graph();
    let helpers = ["input_required", "negotiation", "http_headers", "cache"];
    let mut pinned = Vec::new();
    for (from, targets) in &edges {
        if !from.first().is_some_and(|m| helpers.contains(&m.as_str())) {
            continue;
        }
        for to in targets.iter().filter(|to| is_revision(to)) {
            pinned.push(format!("{} → {}", name(from), name(to)));
        }
    }
    assert!(
        pinned.is_empty(),
        "pinned to a revision:\n{}",
        pinned.join("\n")
    );
    // The revisions reach the helpers (so a pin would also be a cycle), and the check sees them.
    let module = |path: &str| -> Module { path.split("::").map(str::to_owned).collect() };
    for helper in ["input_required", "negotiation"] {
        assert!(
            edges[&module("v2026_07_28")].contains(&module(helper)),
            "v2026_07_28 expands {helper}'s macros"
        );
    }
    assert!(is_revision(&module("v2026_07_28")) && is_revision(&module("draft")));
    assert!(!is_revision(&module("validate")) && !is_revision(&module("version")));
}

/// The server's layers, lowest first: the sans-IO engine, what answers (the `Router`, typed
/// handlers), and the transports (stdio; HTTP), each a folder or file of `src/server/`.
fn server_layer(module: &Module) -> Option<(usize, &str)> {
    match module.as_slice() {
        [server, layer, ..] if server == "server" => match layer.as_str() {
            "engine" => Some((0, "engine")),
            "answer" => Some((1, "answer")),
            "stdio" => Some((2, "stdio")),
            "http" => Some((2, "http")),
            _ => None,
        },
        _ => None,
    }
}

/// `src/server/` shows its layers: no module imports from a layer above its own, a transport
/// does not import another, and every module is in a layer (`mod.rs` only declares and
/// re-exports).
#[test]
fn the_server_imports_only_downward() {
    let edges = graph();
    let mut upward = Vec::new();
    for (from, targets) in &edges {
        if from.first().is_none_or(|m| m != "server") || from.len() == 1 {
            continue;
        }
        let Some((level, layer)) = server_layer(from) else {
            upward.push(format!("{} is in no layer", name(from)));
            continue;
        };
        for to in targets {
            if let Some((to_level, to_layer)) = server_layer(to) {
                if to_level > level || (to_level == level && to_layer != layer) {
                    upward.push(format!("{} → {}", name(from), name(to)));
                }
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports against the server's layers:\n{}",
        upward.join("\n")
    );
    // The check sees the imports it judges: a transport's and a router's, each through a
    // re-export of `crate::server`.
    let module = |path: &str| -> Module { path.split("::").map(str::to_owned).collect() };
    let imports = |from: &str, to: &str| edges[&module(from)].contains(&module(to));
    assert!(imports("server::http::service", "server::engine::server"));
    assert!(imports("server::answer::router", "server::engine::handler"));
    assert!(imports("server::stdio", "server::engine::later"));
    assert_eq!(
        server_layer(&module("server::http::store::redis")),
        Some((2, "http"))
    );
}
