//! Every file under `tests/` runs. With `autotests = false`, Cargo builds only the `[[test]]`
//! binaries that `Cargo.toml` lists, so a new file that no binary declares as a module would
//! compile nowhere and fail nothing: this test reads the manifest and follows each binary's
//! `mod` declarations (with their `#[path]` attributes) to every file it compiles.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// The `path` of each `[[test]]` table of the manifest.
fn test_binaries(manifest: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut in_test = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_test = line == "[[test]]";
        } else if in_test {
            if let Some(value) = line.strip_prefix("path") {
                let value = value.trim_start().trim_start_matches('=').trim();
                paths.push(value.trim_matches('"').to_owned());
            }
        }
    }
    paths
}

/// `path` with its `..` and `.` components resolved, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The files that the module declarations of `source` (the file `file`) load: `mod name;`
/// as `name.rs` or `name/mod.rs` in the directory its children live in, or as the path of
/// the `#[path = "..."]` attribute before it, which is relative to the file's own directory.
/// Inline modules (`mod name { ... }`) load nothing.
fn declared_modules(file: &Path, source: &str, crate_root: bool) -> Vec<PathBuf> {
    let dir = file.parent().unwrap_or(Path::new(""));
    // A crate root or a `mod.rs` keeps its children beside it; any other file keeps them in a
    // folder of its own name.
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let children = if crate_root || stem == "mod" {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    let mut found = Vec::new();
    let mut path_attribute: Option<String> = None;
    for line in source.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("#[path = \"") {
            path_attribute = rest.split('"').next().map(str::to_owned);
            continue;
        }
        if line.starts_with("#[") || line.starts_with("//") {
            continue;
        }
        let declaration = line.strip_prefix("pub ").unwrap_or(line);
        let declaration = declaration
            .strip_prefix("pub(crate) ")
            .unwrap_or(declaration);
        if let Some(name) = declaration
            .strip_prefix("mod ")
            .and_then(|rest| rest.strip_suffix(';'))
        {
            match path_attribute.take() {
                Some(path) => found.push(normalize(&dir.join(path))),
                None => {
                    let flat = children.join(format!("{name}.rs"));
                    let nested = children.join(name).join("mod.rs");
                    found.push(if nested.exists() { nested } else { flat });
                }
            }
        } else {
            path_attribute = None;
        }
    }
    found
}

/// Every `.rs` file under `dir` (the npm installs' folders aside: they hold no Rust).
fn rust_files(dir: &Path, found: &mut BTreeSet<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "node_modules") {
                rust_files(&path, found);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.insert(path);
        }
    }
}

/// The files each listed test binary compiles, followed from its root.
fn compiled(root: &Path, manifest: &str) -> BTreeSet<PathBuf> {
    let mut reached = BTreeSet::new();
    let mut queue: Vec<(PathBuf, bool)> = test_binaries(manifest)
        .iter()
        .map(|p| (normalize(&root.join(p)), true))
        .collect();
    while let Some((file, crate_root)) = queue.pop() {
        if !reached.insert(file.clone()) {
            continue;
        }
        let source = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{} (declared as a module): {e}", file.display()));
        let children = declared_modules(&file, &source, crate_root);
        queue.extend(children.into_iter().map(|child| (child, false)));
    }
    reached
}

#[test]
fn every_file_under_tests_is_compiled_by_a_test_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let reached = compiled(root, &manifest);
    let mut files = BTreeSet::new();
    rust_files(&root.join("tests"), &mut files);
    assert!(files.len() > 50, "found only {} files", files.len());
    let orphans: Vec<String> = files
        .iter()
        .filter(|f| !reached.contains(*f))
        .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
        .collect();
    assert!(
        orphans.is_empty(),
        "no test binary compiles these files (declare each as a module of a binary, or list \
         it as a [[test]] in Cargo.toml): {orphans:?}"
    );
}

/// The reader follows what Rust follows: a crate root's children beside it, another file's in
/// a folder of its name, `#[path]` from the file's own folder; and the manifest's test tables.
#[test]
fn the_wiring_reader_follows_modules_as_rust_does() {
    let manifest = "[package]\npath = \"no\"\n[[test]]\nname = \"a\"\npath = \"tests/a/main.rs\"\n\n[[bin]]\npath = \"src/x.rs\"\n[[test]]\npath=\"tests/b.rs\"\n";
    assert_eq!(test_binaries(manifest), ["tests/a/main.rs", "tests/b.rs"]);
    let source = "mod one;\n#[path = \"../e2e/support.rs\"]\n#[allow(dead_code)]\nmod support;\npub mod two;\nmod inline {\n}\n// mod commented;\n";
    assert_eq!(
        declared_modules(Path::new("/r/tests/a/main.rs"), source, true),
        [
            PathBuf::from("/r/tests/a/one.rs"),
            PathBuf::from("/r/tests/e2e/support.rs"),
            PathBuf::from("/r/tests/a/two.rs"),
        ]
    );
    assert_eq!(
        declared_modules(Path::new("/r/tests/e2e.rs"), "mod one;\n", true),
        [PathBuf::from("/r/tests/one.rs")]
    );
    assert_eq!(
        declared_modules(Path::new("/r/tests/server.rs"), "mod deep;\n", false),
        [PathBuf::from("/r/tests/server/deep.rs")]
    );
    assert_eq!(
        declared_modules(Path::new("/r/tests/common/mod.rs"), "mod closed;\n", false),
        [PathBuf::from("/r/tests/common/closed.rs")]
    );
}
