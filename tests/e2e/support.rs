//! Shared by the tests that run an example (`tests/main.rs` declares it once for its modules;
//! `tests/e2e.rs` and `tests/conformance_suite` include it): builds an example binary with the features and profile the running
//! test was built with, in the same target directory, and returns its path.
//!
//! Examples are not `[[bin]]` targets, so there is no `CARGO_BIN_EXE_*` for them; under a plain
//! `cargo test` they are already built and the `cargo build` below is a no-op.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

/// The crate's features, and whether this test build enables each one.
const FEATURES: &[(&str, bool)] = &[
    ("default", cfg!(feature = "default")),
    ("std", cfg!(feature = "std")),
    ("v2024_11_05", cfg!(feature = "v2024_11_05")),
    ("v2025_03_26", cfg!(feature = "v2025_03_26")),
    ("v2025_06_18", cfg!(feature = "v2025_06_18")),
    ("v2025_11_25", cfg!(feature = "v2025_11_25")),
    ("v2026_07_28", cfg!(feature = "v2026_07_28")),
    ("unstable-draft", cfg!(feature = "unstable-draft")),
    ("all-revisions", cfg!(feature = "all-revisions")),
    ("schemars", cfg!(feature = "schemars")),
    ("convert", cfg!(feature = "convert")),
    ("auth", cfg!(feature = "auth")),
    ("server", cfg!(feature = "server")),
    ("client", cfg!(feature = "client")),
    ("http-server", cfg!(feature = "http-server")),
    ("http-client", cfg!(feature = "http-client")),
    ("stdio-client", cfg!(feature = "stdio-client")),
    ("redis", cfg!(feature = "redis")),
    ("oauth", cfg!(feature = "oauth")),
];

static BUILD: Mutex<()> = Mutex::new(());

/// Builds example `name` (`cargo build --example <name>`) and returns the binary's path.
///
/// Panics, with cargo's output, when the build fails.
pub fn example_binary(name: &str) -> PathBuf {
    let _guard = BUILD.lock().unwrap_or_else(|p| p.into_inner());
    // The test runs as <target>/<profile>/deps/<test>-<hash>.
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test binary lives in <target>/<profile>/deps")
        .to_path_buf();
    let target_dir = profile_dir
        .parent()
        .expect("the profile directory has a parent")
        .to_path_buf();
    let profile = profile_dir
        .file_name()
        .and_then(|p| p.to_str())
        .unwrap_or("debug")
        .to_owned();

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(cargo);
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", &target_dir)
        .args(["build", "--quiet", "--example", name]);
    match profile.as_str() {
        "debug" => {}
        "release" => {
            command.arg("--release");
        }
        other => {
            command.args(["--profile", other]);
        }
    }
    if FEATURES.iter().all(|(_, on)| *on) {
        command.arg("--all-features");
    } else {
        let enabled: Vec<&str> = FEATURES
            .iter()
            .filter(|(_, on)| *on)
            .map(|(feature, _)| *feature)
            .collect();
        command.arg("--no-default-features");
        if !enabled.is_empty() {
            command.args(["--features", &enabled.join(",")]);
        }
    }
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("running cargo to build example {name}: {e}"));
    assert!(
        output.status.success(),
        "building example {name} failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let binary = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "example {name} was built but {} does not exist",
        binary.display()
    );
    binary
}

/// An example server that takes `--port` and says where it listens (`listening on <url>`, as
/// the HTTP examples do), killed when dropped.
pub struct Listening {
    child: std::process::Child,
    pub url: String,
}

impl Listening {
    /// Starts example `name` on a free port.
    pub fn start_example(name: &str) -> Listening {
        let mut command = Command::new(example_binary(name));
        command.args(["--port", "0"]);
        Listening::start_command(command)
    }

    /// Starts `command`, a server that prints `listening on <url>` first.
    pub fn start_command(mut command: Command) -> Listening {
        use std::io::BufRead;
        let mut child = command
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("starting the server");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("the server did not say where it listens: {line:?}"))
            .to_owned();
        Listening { child, url }
    }

    /// Whether the server is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh scratch directory under the target directory, `<target>/e2e-scratch/<name>`.
pub fn scratch_dir(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let target_dir = exe
        .ancestors()
        .nth(3)
        .expect("the test binary lives in <target>/<profile>/deps")
        .to_path_buf();
    let dir = target_dir.join("e2e-scratch").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating a scratch directory");
    dir
}

/// Copies a folder tree (files and subfolders only).
pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("creating the copy");
    for entry in std::fs::read_dir(from).expect("reading the folder") {
        let entry = entry.expect("a folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("its type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copying a file");
        }
    }
}

/// Runs `command` to its end, killing it and failing the test after `limit`; returns its
/// output, whatever its exit status.
pub fn run_limited(
    mut command: std::process::Command,
    what: &str,
    limit: std::time::Duration,
) -> std::process::Output {
    use std::io::Read;
    use std::process::Stdio;
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: cannot start it ({e})"));
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stderr.read_to_end(&mut v);
        v
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
            panic!("{what}: timed out after {limit:?}\n{stderr}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::process::Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

/// `tests/sdk_v2`, with its pinned packages installed (`npm ci`, once a test binary): the
/// TypeScript SDK v2 client, and the Node 22 it runs on (`node_modules/.bin/node`).
pub fn sdk_v2() -> PathBuf {
    static INSTALLED: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/sdk_v2");
            let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
            let mut ci = Command::new(npm);
            ci.current_dir(&dir)
                .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
            let what = "`npm ci` in tests/sdk_v2 (needs npm and the npm registry)";
            let output = run_limited(ci, what, std::time::Duration::from_secs(300));
            assert!(
                output.status.success(),
                "{what} failed:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
            dir
        })
        .clone()
}
