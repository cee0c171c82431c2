//! Copies of the crate for a bump to write to, and copies complete enough to build.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn todays_file() -> Vec<u8> {
    std::fs::read(repo().join("schema/2026-07-28/schema.json")).unwrap()
}

/// The files a bump reads or writes, copied under a fresh directory.
pub fn copy_of_the_crate(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("mcp-bump-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for relative in files_of(&repo()) {
        let target = root.join(&relative);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(repo().join(&relative), target).unwrap();
    }
    root
}

/// `schema/**`, `Cargo.toml`, `src/lib.rs` and the revision modules, relative to `root`.
pub fn files_of(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("Cargo.toml"), PathBuf::from("src/lib.rs")];
    for entry in std::fs::read_dir(root.join("src")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if (name.starts_with('v') && name.ends_with(".rs")) || name == "draft.rs" {
            files.push(PathBuf::from("src").join(name));
        }
    }
    files.extend(files_under(root, "schema"));
    files.sort();
    files
}

/// Every file under `dir` (relative to `root`), relative to `root`.
fn files_under(root: &Path, dir: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![PathBuf::from(dir)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(root.join(&dir)).unwrap() {
            let entry = entry.unwrap();
            let relative = dir.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                stack.push(relative);
            } else {
                files.push(relative);
            }
        }
    }
    files
}

/// What building the library reads, and `examples/`: cargo refuses a manifest that names an
/// example whose file is missing, built or not. (`README.md` is only read by the doc tests.)
const TO_BUILD: &[&str] = &[
    "Cargo.toml",
    "build.rs",
    "codegen",
    "schema",
    "src",
    "examples",
    "runtime/Cargo.toml",
    "runtime/src",
];

/// The target directory the running tests were built in: `CARGO_TARGET_TMPDIR` is its `tmp`.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR is inside the target directory")
        .to_path_buf()
}

/// The cargo arguments that select the profile the running tests were built with, read from
/// where the test runs (`<target>/<profile>/deps/<test>-<hash>`), as `tests/e2e/support.rs`
/// does: the dependencies are only reused when they were built with the same profile.
fn profile_args() -> Vec<String> {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .and_then(|name| name.to_str())
        .unwrap_or("debug");
    match profile {
        "debug" => vec![],
        "release" => vec!["--release".into()],
        other => vec!["--profile".into(), other.into()],
    }
}

/// A copy of the crate that builds, returning the crate's root (for `bump::apply`, then
/// [`build_copy`]).
///
/// The crate sits one level down, in a workspace of its own: cargo names a package's build
/// outputs after its path relative to its workspace's root, so a copy that were its own root
/// would share the repository's output names and overwrite its builds. The crate's folder is
/// named after the copy, so that two copies never share them either. The workspace root
/// holds the repository's `Cargo.lock`, unchanged (a lock file does not record paths), and
/// the crate's profiles, which cargo only reads at the root: with the same profiles, every
/// dependency the tests were built with is reused.
///
/// The copy sits in the target directory, at the same place for every run, so that each build
/// replaces the previous run's outputs instead of adding to them.
pub fn buildable_copy(name: &str) -> PathBuf {
    let workspace = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bump-builds")
        .join(name);
    let _ = std::fs::remove_dir_all(&workspace);
    let root = workspace.join(name);
    for entry in TO_BUILD {
        let files = if repo().join(entry).is_dir() {
            files_under(&repo(), entry)
        } else {
            vec![PathBuf::from(entry)]
        };
        for relative in files {
            let target = root.join(&relative);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(repo().join(&relative), target).unwrap();
        }
    }
    std::fs::copy(repo().join("Cargo.lock"), workspace.join("Cargo.lock")).unwrap();
    let manifest = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    // The crate's own `[workspace]` (itself and its runtime) moves up to the copy's root.
    std::fs::write(
        root.join("Cargo.toml"),
        without_table(&manifest, "[workspace]"),
    )
    .unwrap();
    std::fs::write(
        workspace.join("Cargo.toml"),
        format!(
            "[workspace]\nmembers = [\"{name}\", \"{name}/runtime\"]\n# The crate's own, which \
             a virtual workspace does not imply.\nresolver = \"2\"\n\n{}",
            profiles(&manifest)
        ),
    )
    .unwrap();
    root
}

/// `manifest` without its table `header` (the header line and the lines up to the next table).
fn without_table(manifest: &str, header: &str) -> String {
    let mut kept = String::new();
    let mut in_table = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            in_table = line == header;
        }
        if !in_table {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept
}

/// The `[profile…]` tables of a manifest, as written.
fn profiles(manifest: &str) -> String {
    let mut kept = String::new();
    let mut in_profile = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            in_profile = line.starts_with("[profile");
        }
        if in_profile {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept
}

/// Runs `cargo <command> <args…>` (`args` starts with the command) on a copy made by
/// [`buildable_copy`] (`root` is the crate's root): offline, with the copied `Cargo.lock` as it
/// is, and into the target directory and profile the tests were built with, so that only the
/// copy itself compiles. Its output when cargo succeeds, else what cargo said.
///
/// Cargo holds its lock on the target directory while it builds, not while the tests run, so
/// the build can use it (a second such build waits for the first).
pub fn build_copy(root: &Path, args: &[&str]) -> Result<Output, String> {
    let (command, rest) = args.split_first().ok_or("no cargo command")?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["--offline", "--locked", command])
        .args(profile_args())
        .args(rest)
        .current_dir(root)
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .map_err(|e| format!("running cargo {}: {e}", args.join(" ")))?;
    if output.status.success() {
        Ok(output)
    } else {
        Err(format!(
            "cargo {} in {} failed ({}):\n{}{}",
            args.join(" "),
            root.display(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// Adds a program to a copy, as a binary of the package: it sees only the library's public
/// items, as a user's program does, and builds without the dev-dependencies.
pub fn add_program(root: &Path, name: &str, source: &str) {
    let path = root.join("src/bin").join(format!("{name}.rs"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, source).unwrap();
}

/// Builds a copy with its default features and runs one of its programs: what it printed.
pub fn run_program(root: &Path, name: &str) -> Result<String, String> {
    run_program_with(root, name, &[])
}

/// [`run_program`] with `features` on top of the default ones.
pub fn run_program_with(root: &Path, name: &str, features: &[&str]) -> Result<String, String> {
    let features = features.join(",");
    let mut args = vec!["run", "--quiet", "--bin", name];
    if !features.is_empty() {
        args.extend(["--features", features.as_str()]);
    }
    let output = build_copy(root, &args)?;
    String::from_utf8(output.stdout).map_err(|e| format!("{name} printed non-UTF-8: {e}"))
}
