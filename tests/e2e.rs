//! End to end: the official MCP TypeScript SDK (`tests/e2e/`, pinned in its `package.json` and
//! `package-lock.json`) drives the example resource server (`examples/resource-server.rs`) over
//! stdio, once per protocol version, and every recorded session is checked with the crate's
//! validator and, independently, with the official schema and the pages' rules
//! (`conformance/judge.rs`).
//!
//! The versions are those both sides support: the SDK's `SUPPORTED_PROTOCOL_VERSIONS` (read
//! from the installed package) that this build supports and that have `initialize`, plus the
//! stateless 2026-07-28, which the SDK predates and `client.mjs` drives through the SDK's
//! generic request API. It runs on the Node 22 that `npm ci` installs (pinned beside the SDK),
//! and needs npm and the npm registry for `npm ci`: when they are missing the test fails,
//! saying so; it never skips.
//!
//! Compiled only when every released revision and the conversions are enabled (`cargo test --all-features`).
//! `MCP_E2E_UPDATE_SAMPLE=1` also saves the 2026-07-28 recording as the validator's bundled
//! sample, `examples/data/sample-session.jsonl`.

#![cfg(all(
    feature = "v2024_11_05",
    feature = "v2025_03_26",
    feature = "v2025_06_18",
    feature = "v2025_11_25",
    feature = "v2026_07_28",
    feature = "server",
    feature = "validate"
))]

#[path = "e2e/support.rs"]
mod support;
// The official schema as the judge of every recording (as of the upstream traffic), with the
// rules the pages state beyond it.
#[path = "conformance/judge.rs"]
mod judge;
#[path = "conformance/oracle.rs"]
#[allow(dead_code)] // The judge uses part of the oracle; the conformance tests use the rest.
mod oracle;

use mcp_spec_types::validate::validate_session;
use mcp_spec_types::ProtocolVersion;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The stateless revision the client also exercises, beyond the SDK's own list.
const STATELESS: &str = "2026-07-28";
/// The recording saved as the validator's sample session.
const SAMPLE_VERSION: &str = STATELESS;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `command`, failing the test after `limit` or when it fails; returns (stdout, stderr).
/// The end-to-end test needs node and npm on PATH.
fn run(command: Command, what: &str, limit: Duration) -> (String, String) {
    let output = support::run_limited(command, what, limit);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
    (stdout, stderr)
}

fn npm() -> &'static str {
    if cfg!(windows) {
        "npm.cmd"
    } else {
        "npm"
    }
}

/// The Node 22 that `npm ci` installs beside the SDK (`package.json` pins it), not whatever
/// `node` is on PATH.
fn node(dir: &Path) -> Command {
    Command::new(dir.join("node_modules").join(".bin").join("node"))
}

/// `npm ci` in tests/e2e: the SDK and Node at the versions the lock file pins.
fn install_sdk(dir: &Path) {
    let mut ci = Command::new(npm());
    ci.current_dir(dir)
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
    run(
        ci,
        "`npm ci` in tests/e2e (needs npm and access to the npm registry)",
        Duration::from_secs(300),
    );
}

/// The SDK's `SUPPORTED_PROTOCOL_VERSIONS` and its version, from the installed package, on
/// the pinned Node (whose major version is checked: 22).
fn sdk_versions(dir: &Path) -> (String, Vec<String>) {
    let mut node = node(dir);
    node.current_dir(dir).args([
        "--input-type=module",
        "-e",
        "import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';\n\
         import { readFileSync } from 'node:fs';\n\
         const pkg = JSON.parse(readFileSync('node_modules/@modelcontextprotocol/sdk/package.json', 'utf8'));\n\
         if (!process.version.startsWith('v22.')) throw new Error(`Node ${process.version}, not the pinned 22`);\n\
         console.log(JSON.stringify({ version: pkg.version, supported: SUPPORTED_PROTOCOL_VERSIONS }));",
    ]);
    let (stdout, _) = run(node, "reading the SDK's versions", Duration::from_secs(30));
    let value: serde_json::Value =
        serde_json::from_str(stdout.trim()).expect("the SDK's versions as JSON");
    let version = value["version"].as_str().unwrap_or("?").to_owned();
    let supported = value["supported"]
        .as_array()
        .expect("SUPPORTED_PROTOCOL_VERSIONS is an array")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    (version, supported)
}

#[test]
fn typescript_sdk_client_against_the_example_server() {
    let started = Instant::now();
    let e2e = manifest_dir().join("tests").join("e2e");
    install_sdk(&e2e);
    let (sdk, sdk_supported) = sdk_versions(&e2e);
    eprintln!("npm ci: {:?}", started.elapsed());
    let server = support::example_binary("resource-server");
    eprintln!("example server built: {:?}", started.elapsed());

    // Both sides: the SDK's versions this build supports (it negotiates them through
    // `initialize`), then the stateless revision.
    let mut versions: Vec<String> = sdk_supported
        .iter()
        .filter(|v| ProtocolVersion::from(v.as_str()).is_supported())
        .cloned()
        .collect();
    versions.sort();
    assert!(
        !versions.is_empty(),
        "the SDK {sdk} supports {sdk_supported:?}, none of which this build supports"
    );
    versions.push(STATELESS.to_owned());
    eprintln!("@modelcontextprotocol/sdk {sdk}: exercising {versions:?}");

    let data = manifest_dir()
        .join("examples")
        .join("data")
        .join("resources");
    let mut summaries = Vec::new();
    for version in &versions {
        let scratch = support::scratch_dir(&format!("e2e-{version}"));
        let resources = scratch.join("resources");
        support::copy_tree(&data, &resources);
        let recording = scratch.join("session.jsonl");

        let mut client = node(&e2e);
        client.current_dir(&e2e).arg("client.mjs").args([
            server.as_os_str(),
            resources.as_os_str(),
            version.as_ref(),
            recording.as_os_str(),
        ]);
        run(
            client,
            &format!("the SDK client at {version}"),
            Duration::from_secs(60),
        );

        let session = std::fs::read(&recording).expect("the recording");
        let report = validate_session(&session, None).expect("a supported revision");
        assert_eq!(
            report.revision.as_str(),
            version,
            "the revision detected from the {version} recording"
        );
        let invalid: Vec<String> = report.invalid.iter().map(ToString::to_string).collect();
        let warnings: Vec<String> = report.warnings.iter().map(ToString::to_string).collect();
        eprintln!("{version}: {} ({:?})", report.summary, started.elapsed());
        assert!(
            invalid.is_empty(),
            "{version}: invalid messages in {}:\n{}",
            recording.display(),
            invalid.join("\n")
        );
        assert!(
            warnings.is_empty(),
            "{version}: warnings for {}:\n{}",
            recording.display(),
            warnings.join("\n")
        );
        assert_eq!(report.summary.checked, report.summary.valid);
        // The crate's validator is not the only judge of what the crate's server wrote.
        let revision: &'static str = Box::leak(version.clone().into_boxed_str());
        let mut schema = judge::SchemaJudge::new(revision);
        let text = String::from_utf8_lossy(&session);
        let mut objections = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let mut found = schema.judge(line);
            found.extend(judge::page_objections(revision, line));
            objections.extend(
                found
                    .into_iter()
                    .map(|o| format!("line {}: {o}", index + 1)),
            );
        }
        assert!(
            objections.is_empty(),
            "{version}: the official schema or the pages refuse {}:\n{}",
            recording.display(),
            objections.join("\n")
        );
        assert!(
            report.summary.checked >= 25,
            "{version}: only {} messages recorded",
            report.summary.checked
        );
        summaries.push(format!("{version}: {}", report.summary));

        if version == SAMPLE_VERSION && std::env::var_os("MCP_E2E_UPDATE_SAMPLE").is_some() {
            let sample = manifest_dir()
                .join("examples")
                .join("data")
                .join("sample-session.jsonl");
            // The folder is named as a deployment would name it, not after this run's scratch
            // directory.
            let text = String::from_utf8_lossy(&session).replace(
                resources.to_str().expect("a UTF-8 scratch path"),
                "/srv/mcp/resources",
            );
            std::fs::write(&sample, text).expect("saving the sample session");
            eprintln!("saved {}", sample.display());
        }
    }
    println!("@modelcontextprotocol/sdk {sdk}");
    for summary in &summaries {
        println!("{summary}");
    }
    eprintln!("end-to-end run took {:?}", started.elapsed());
}
