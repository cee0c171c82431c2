//! The README's client, built as a crate of its own (outside the workspace, so that no
//! dev-dependency adds a feature) with exactly the feature its snippet names (`http-client`),
//! reaches servers of older releases of the official TypeScript SDK over Streamable HTTP,
//! whose newest revisions are 2025-06-18 (1.13.3) and 2025-03-26 (1.12.3); a stdio client
//! built the same way with `stdio-client` alone reaches a server of a release whose newest
//! revision is 2024-11-05 (1.9.0, before Streamable HTTP), and the Python SDK's server
//! (tests/sdk_python) in its 2026-07-28 and its 2025-11-25 modes; the README's client also
//! reaches the Python SDK's server over Streamable HTTP (2026-07-28) and the reference server
//! of every feature (`@modelcontextprotocol/server-everything`, pinned in
//! `tests/sdk_old/everything`, newest revision 2025-11-25). The SDK releases and the
//! Node they run on are pinned in `tests/sdk_old/package-lock.json` (`npm ci`, once a test
//! binary), the Python SDK in `tests/sdk_python/requirements.txt`.
//!
//! The crates are built in `<target>/own-crates`, kept between runs: the first build is cold
//! (minutes: the library with every released revision), later ones are not. The test needs
//! npm, the npm registry and the crates' registry; when they are missing it fails, saying so.
#![cfg(all(feature = "http-client", feature = "stdio-client"))]

use crate::support::{run_limited, Listening};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

// The stdio client's program, compiled here too, so that it keeps building with the crate;
// its crate of its own builds it from the same file.
#[path = "sdk_old/stdio_client.rs"]
#[allow(dead_code)]
mod stdio_client_program;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sdk_old");

/// `tests/sdk_old` with its pinned packages installed, and the Node it pins.
fn node() -> &'static Path {
    static INSTALLED: OnceLock<PathBuf> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let mut ci = Command::new("npm");
        ci.current_dir(DIR)
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
        let what = "`npm ci` in tests/sdk_old (needs npm and the npm registry)";
        let output = run_limited(ci, what, Duration::from_secs(300));
        assert!(
            output.status.success(),
            "{what} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        Path::new(DIR).join("node_modules/.bin/node")
    })
}

/// The server of SDK alias `sdk` (package.json) over `transport` (`stdio` or `http`).
fn sdk_server(sdk: &str, transport: &str) -> Command {
    let mut command = Command::new(node());
    command
        .current_dir(DIR)
        .args(["server.mjs", sdk, transport]);
    command
}

/// Builds `main` as the program of a crate of its own named `name`, outside the workspace,
/// whose dependency on this crate enables exactly `features` (and no default feature but
/// those), with tokio and serde_json beside it; returns the program's path.
fn crate_of_its_own(name: &str, main: &Path, features: &[&str]) -> PathBuf {
    // One build at a time: the crates share their target directory.
    static BUILD: Mutex<()> = Mutex::new(());
    let _one = BUILD.lock().unwrap_or_else(|p| p.into_inner());
    let exe = std::env::current_exe().expect("the test binary's path");
    let own = exe
        .ancestors()
        .nth(3)
        .expect("the test binary lives in <target>/<profile>/deps")
        .join("own-crates");
    let dir = own.join(name);
    std::fs::create_dir_all(dir.join("src")).expect("the crate's directory");
    let root = env!("CARGO_MANIFEST_DIR");
    let features: Vec<String> = features.iter().map(|f| format!("{f:?}")).collect();
    let manifest = format!(
        "[package]\nname = {name:?}\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n\
         mcp-spec-types = {{ path = {root:?}, default-features = false, features = [{}] }}\n\
         tokio = {{ version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }}\n\
         serde_json = \"1\"\n\n\
         # Outside the repository's workspace.\n[workspace]\n",
        features.join(", ")
    );
    // Written only when they change: two tests that use the same crate must not make the
    // second build link the program again while the first test runs it (the link replaces
    // the file, and a start in between finds no program).
    write_if_changed(&dir.join("Cargo.toml"), manifest.as_bytes());
    let program = std::fs::read(main).expect("the crate's program");
    write_if_changed(&dir.join("src/main.rs"), &program);
    // The repository's lockfile: the versions its own tests build with.
    if !dir.join("Cargo.lock").exists() {
        std::fs::copy(Path::new(root).join("Cargo.lock"), dir.join("Cargo.lock"))
            .expect("the lockfile");
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut build = Command::new(cargo);
    build
        .current_dir(&dir)
        .args(["build", "--quiet"])
        .env("CARGO_TARGET_DIR", own.join("target"));
    let what = format!("building the crate of its own `{name}`");
    let output = run_limited(build, &what, Duration::from_secs(1800));
    assert!(
        output.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    own.join("target/debug").join(name)
}

/// Writes `bytes` to `path` unless the file already holds them (its time then stays, and
/// cargo sees nothing to build again).
fn write_if_changed(path: &Path, bytes: &[u8]) {
    if std::fs::read(path).ok().as_deref() != Some(bytes) {
        std::fs::write(path, bytes).expect("a file of the crate of its own");
    }
}

/// What `program` printed, run with `args`; it must succeed.
fn printed(program: &Path, args: &[&str]) -> String {
    let mut command = Command::new(program);
    command.args(args);
    let what = format!("{} {args:?}", program.display());
    let output = run_limited(command, &what, Duration::from_secs(60));
    assert!(
        output.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_readme_client_alone_reaches_servers_of_older_sdk_releases_over_http() {
    let readme_client = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/http-client.rs");
    // The README's client is this example, word for word (tests/conformance_suite checks
    // it); its snippet names `http-client`, and only it.
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    assert!(
        readme.contains("`cargo run --example http-client --features http-client --"),
        "the README names another feature set for its client"
    );
    let client = crate_of_its_own("readme-client", &readme_client, &["http-client"]);
    for sdk in ["sdk-2025-06-18", "sdk-2025-03-26"] {
        let server = Listening::start_command(sdk_server(sdk, "http"));
        let seen = printed(&client, &[&server.url]);
        assert_eq!(
            seen, "tool: add\ntool: sum\nadd: [{\"type\":\"text\",\"text\":\"5.5\"}]\n",
            "{sdk}"
        );
    }
}

/// `tests/sdk_old/everything` with its pinned packages installed: the reference server of
/// every feature, in a directory of its own (it needs zod 4, the older releases zod 3).
fn everything() -> &'static Path {
    static INSTALLED: OnceLock<PathBuf> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let dir = Path::new(DIR).join("everything");
        let mut ci = Command::new("npm");
        ci.current_dir(&dir)
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
        let what = "`npm ci` in tests/sdk_old/everything (needs npm and the npm registry)";
        let output = run_limited(ci, what, Duration::from_secs(300));
        assert!(
            output.status.success(),
            "{what} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        dir
    })
}

/// A server process listening on a free port of 127.0.0.1, killed when dropped.
struct OnPort {
    child: std::process::Child,
    url: String,
}

impl OnPort {
    /// Starts `command(port)` for a free port, and waits until it accepts connections.
    fn start(what: &str, command: impl FnOnce(u16) -> Command) -> OnPort {
        // A free port, given back for the server to take (it takes a port, not a listener).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let child = command(port)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("starting {what}: {e}"));
        let server = OnPort {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        };
        // Until it listens: each try waits on the connection, not on a clock (the pause
        // between tries only spares the CPU), within a bound no start comes near.
        let listening = (0..400).any(|_| {
            let connected = std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
            if !connected {
                std::thread::sleep(Duration::from_millis(50));
            }
            connected
        });
        assert!(listening, "{what} did not listen on {port}");
        server
    }
}

impl Drop for OnPort {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_readme_client_alone_reaches_server_everything() {
    let readme_client = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/http-client.rs");
    let client = crate_of_its_own("readme-client", &readme_client, &["http-client"]);
    let dir = everything();
    let server = OnPort::start("server-everything", |port| {
        let mut command = Command::new(dir.join("node_modules/.bin/node"));
        command
            .current_dir(dir)
            .args([
                "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
                "streamableHttp",
            ])
            .env("PORT", port.to_string());
        command
    });
    // Its tool of `a` and `b` is `get-sum`.
    let seen = printed(&client, &[&server.url, "get-sum"]);
    let lines: Vec<&str> = seen.lines().collect();
    assert!(lines.contains(&"tool: get-sum"), "{seen}");
    let called = lines.last().copied().unwrap_or_default();
    let content: serde_json::Value = called
        .strip_prefix("get-sum: ")
        .and_then(|content| serde_json::from_str(content).ok())
        .unwrap_or_else(|| panic!("no result of get-sum: {seen}"));
    let text = content[0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("5.5"), "{seen}");
}

/// The Python SDK's server over Streamable HTTP (`tests/sdk_old/python_server.py`), which
/// serves 2026-07-28 to a client that discovers it.
#[cfg(all(feature = "server", feature = "client"))]
#[test]
fn the_readme_client_alone_reaches_the_python_sdks_http_server() {
    let readme_client = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/http-client.rs");
    let client = crate_of_its_own("readme-client", &readme_client, &["http-client"]);
    let server = OnPort::start("the Python SDK's server", |port| {
        let mut command = Command::new(crate::sdk_python::python());
        command
            .arg(Path::new(DIR).join("python_server.py"))
            .arg(port.to_string());
        command
    });
    let seen = printed(&client, &[&server.url]);
    assert_eq!(
        seen,
        "tool: add\ntool: sum\nadd: [{\"type\":\"text\",\"text\":\"5.5\"}]\n"
    );
}

/// The stdio client, built as a crate of its own with `stdio-client` alone.
fn stdio_client() -> PathBuf {
    let program = Path::new(DIR).join("stdio_client.rs");
    crate_of_its_own("stdio-client", &program, &["stdio-client"])
}

#[test]
fn a_stdio_client_alone_reaches_a_server_of_a_2024_11_05_sdk_release() {
    let node = node().to_str().expect("a UTF-8 path");
    let script = Path::new(DIR).join("server.mjs");
    let script = script.to_str().expect("a UTF-8 path");
    let add = r#"{"a": 2, "b": 3.5}"#;
    let seen = printed(
        &stdio_client(),
        &["add", add, node, script, "sdk-2024-11-05", "stdio"],
    );
    assert_eq!(
        seen,
        "version: 2024-11-05\ntool: add\ntool: sum\nadd: [{\"type\":\"text\",\"text\":\"5.5\"}]\n"
    );
}

/// The Python SDK's server (tests/sdk_python/server.py), in its 2026-07-28 mode (a client
/// that discovers it) and its 2025-11-25 one (a client that initializes), reached by the
/// stdio client built with `stdio-client` alone.
#[cfg(all(feature = "server", feature = "client"))]
#[test]
fn a_stdio_client_alone_reaches_the_python_sdks_server_in_both_its_modes() {
    let python = crate::sdk_python::python().to_str().expect("a UTF-8 path");
    let script = Path::new(crate::sdk_python::SCRIPT_DIR).join("server.py");
    let script = script.to_str().expect("a UTF-8 path");
    let echo = r#"{"text": "hi"}"#;
    let client = stdio_client();
    for (asked, spoken) in [(None, "2026-07-28"), (Some("2025-11-25"), "2025-11-25")] {
        let mut args = Vec::new();
        if let Some(version) = asked {
            args.extend(["--version", version]);
        }
        args.extend(["echo", echo, python, script]);
        let seen = printed(&client, &args);
        assert_eq!(
            seen,
            format!(
                "version: {spoken}\ntool: echo\ntool: roots\necho: [{{\"type\":\"text\",\"text\":\"hi\"}}]\n"
            )
        );
    }
}
