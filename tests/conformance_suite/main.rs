//! The MCP project's own conformance suite (`@modelcontextprotocol/conformance`) against the
//! example server (`examples/conformance-server/`) and client (`examples/conformance-client/`),
//! over Streamable HTTP; and bad input to the server, which must get the JSON-RPC or HTTP error
//! the specification names.
//!
//! Two releases of the suite run, each pinned with Node 22 in `npm/<version>/package.json` and
//! its `package-lock.json`, installed with `npm ci`:
//! - 0.1.16, every scenario it has (set `all`);
//! - 0.2.0-alpha.12, the requirement sets it freezes per revision (`conformance list
//!   --requirements <revision>`): set `2025-11-25` at the stateful wire and set `2026-07-28`
//!   at the stateless one. What a set runs without scoring it (extensions, pending scenarios,
//!   scenarios added after the revision shipped) runs too without deciding the test: the
//!   extensions (the `tasks-*` server scenarios) print as set `extensions`, the rest one
//!   line each.
//!
//! The suite writes a `checks.json` per scenario (`-o <dir>`); every FAILURE, WARNING or
//! SKIPPED check of a scenario that decides the test fails it, but for the known failures and
//! the allowed skips listed below, each pinned to its check (a failure also to the cause its
//! message names) and to how many times it shows, each with its reason; one that no longer
//! shows as listed is stale and fails the test too. The scored scenarios, the extensions and
//! the pending ones all decide. A client scenario whose only miss is a wall-clock check runs
//! again, up to three times. Each
//! side of each set prints one line (`<total>` counts the scenarios run; the client's `<left>`
//! those left out):
//!
//! `conformance-suite <version> <set> server: <passed>/<total> scenarios, <checks> checks, <failures> failures, <warnings> warnings`
//! `conformance-suite <version> <set> client: <passed>/<total> scenarios, <checks> checks, <failures> failures, <warnings> warnings, <left> left out`
//!
//! The OAuth client scenarios (`auth/...`) run like the others: the example client authorizes
//! with the library's provider (`client::oauth`). The test needs npm and the npm registry for `npm ci`; when
//! they are missing it fails, saying so; it never skips.

#![cfg(all(
    feature = "v2024_11_05",
    feature = "v2025_03_26",
    feature = "v2025_06_18",
    feature = "v2025_11_25",
    feature = "v2026_07_28",
    feature = "convert",
    feature = "auth",
    feature = "client",
    feature = "server",
    feature = "oauth"
))]

#[path = "../e2e/support.rs"]
mod support;

mod bad_input;
mod example_client;
mod sdk_v2_client;
mod server;
mod stateful_revisions;
mod stateless_bad_input;
mod suite;

use server::Server;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};
use suite::{checks_files, only_timing_missed, server_checks, Expected, Known, Skip, Suite, Tally};
// Every command runs under a time limit (the helper the end-to-end tests share).
use support::run_limited as run;

/// The release whose every scenario runs.
const STABLE: &str = "0.1.16";
/// The release whose frozen requirement sets run.
const FROZEN: &str = "0.2.0-alpha.12";
/// The revisions whose frozen sets run, each at its own wire.
const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// Known failures of 0.1.16's scenarios, each pinned to its check and its cause.
const KNOWN: &[Known] = &[Known {
    scenario: "auth/2025-03-26-oauth-metadata-backcompat",
    // The client stops at discovery, so the suite sees none of the steps after it.
    checks: &[
        "client-registration",
        "authorization-request",
        "token-request",
    ],
    // What the example client writes when it refuses the document.
    because: "(RFC 8414 §3.3): refused",
    reason: "0.1.16 serves the metadata at the origin's well-known URL with `issuer` \
     `<origin>/oauth`, which RFC 8414 §3.3 forbids a client to use (0.2.0-alpha.12's \
     scenario serves the origin as its issuer); the client refuses it",
}];

/// Known failures of the frozen sets' scored scenarios: (revision, known failure).
const KNOWN_FROZEN: &[(&str, Known)] = &[];

/// Checks the suite itself skips, each allowed with its reason, by set: (release, set, skip).
/// Any other skip fails the test, and so does a listed one the run no longer shows.
const SKIPS: &[(&str, &str, Skip)] = &[
    (
        FROZEN,
        "2026-07-28",
        Skip {
            scenario: "http-standard-headers",
            check: "sep-2243-client-includes-standard-headers",
            times: 2,
            reason: "the scenario looks for the `Mcp-Method` header of `initialize` and \
                     `notifications/initialized`, which a 2026-07-28 client never sends: it \
                     opens with `server/discover` (SEP-2575 removed the handshake); the \
                     header of every method it does send is checked and passes",
        },
    ),
    (
        FROZEN,
        "extensions",
        Skip {
            scenario: "tasks-status-notifications",
            check: "tasks-status-notifications",
            times: 1,
            reason: "the suite skips its one check itself: its harness watches the call's \
                     stream, while SEP-2663 moved task notifications to \
                     `subscriptions/listen`, and the rewrite is pending upstream",
        },
    ),
];

/// What a run of `set` of `release` may show: its known failures and allowed skips.
fn expected(release: &str, set: &str) -> (Vec<Known>, Vec<Skip>) {
    let failures = if release == STABLE {
        KNOWN.to_vec()
    } else {
        KNOWN_FROZEN
            .iter()
            .filter(|(r, _)| *r == set)
            .map(|(_, k)| *k)
            .collect()
    };
    let skips = SKIPS
        .iter()
        .filter(|(r, s, _)| *r == release && *s == set)
        .map(|(.., skip)| *skip)
        .collect();
    (failures, skips)
}

/// Client scenarios left out, each with its reason: none today (the OAuth scenarios run since
/// the example client authorizes); a scenario added here is named in the output.
const LEFT_OUT: &[(&str, &str)] = &[];

/// Why a client scenario is left out, if it is.
fn left_out(scenario: &str) -> Option<&'static str> {
    LEFT_OUT
        .iter()
        .find(|(s, _)| *s == scenario)
        .map(|(_, reason)| *reason)
}

/// Prints `line` with `println!` and straight to the stderr handle, which libtest does not
/// capture, so a plain `cargo test` shows it too.
fn show(line: &str) {
    use std::io::Write;
    println!("{line}");
    let nocapture = std::env::args().any(|a| a == "--nocapture" || a == "--show-output")
        || std::env::var_os("RUST_TEST_NOCAPTURE").is_some_and(|v| v != "0");
    if !nocapture {
        let _ = writeln!(std::io::stderr(), "{line}");
    }
}

/// Runs one client scenario against the example client (at `spec_version`'s wire when given),
/// again up to three times when a wall-clock check is all it missed; returns its checks and
/// the suite's output.
fn run_client_scenario(
    suite: &Suite,
    client: &Path,
    scenario: &str,
    spec_version: Option<&str>,
    out: &Path,
) -> (Option<Vec<serde_json::Value>>, Output) {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let dir = out.join(format!("{}-{attempt}", scenario.replace('/', "_")));
        let mut command = suite.command();
        command.args(["client", "--scenario", scenario, "--timeout", "30000"]);
        if let Some(version) = spec_version {
            command.args(["--spec-version", version]);
        }
        command.arg("--command").arg(client).arg("-o").arg(&dir);
        let what = format!("conformance {} client {scenario}", suite.version);
        let output = run(command, &what, Duration::from_secs(120));
        let mut found = Vec::new();
        checks_files(&dir, &mut found);
        let mut checks = found.into_iter().next().map(|(run, mut checks)| {
            checks.push(output_check(&run));
            checks
        });
        let leak = scenario
            .starts_with("auth/")
            .then(|| secret_check(&dir))
            .flatten();
        if let (Some(checks), Some(leak)) = (checks.as_mut(), leak) {
            checks.push(leak);
        }
        if attempt < 3 && checks.as_deref().is_some_and(only_timing_missed) {
            eprintln!("{scenario}: a timing check missed its window; running it again");
            continue;
        }
        return (checks, output);
    }
}

/// What the suite's authorization servers hand out and the client must never write: issued
/// tokens (`test-token-…`, `cc-token-…`, and any JWT: DPoP-bound tokens, ID tokens, ID-JAGs,
/// assertions), client secrets (each ends its name in `-secret`), the authorization code,
/// private keys.
const SECRETS: &[&str] = &[
    "test-token-",
    "cc-token-",
    "eyJ",
    "-secret",
    "test-auth-code",
    "PRIVATE KEY",
];

/// Every file under `dir`, at any depth.
fn files_under(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, found);
        } else {
            found.push(path);
        }
    }
}

/// The first of [`SECRETS`] in any file the suite wrote for a run under `dir` but its own
/// `checks.json` (the client's output, whatever the files are named), said without the
/// secret itself; or, when the suite wrote nothing but `checks.json`, that there was nothing to scan
/// (a scan that reads no file would pass silently).
fn leaked_secret(dir: &Path) -> Option<String> {
    let mut files = Vec::new();
    files_under(dir, &mut files);
    let mut output_files = 0;
    for path in &files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // The suite's own record: the tokens its servers issued and received, by design.
        if name == "checks.json" {
            continue;
        }
        output_files += 1;
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()).into_owned();
        if let Some(marker) = SECRETS.iter().find(|m| text.contains(**m)) {
            return Some(format!(
                "a secret (one like `{marker}…`) is in {name}, which the suite wrote"
            ));
        }
    }
    (output_files == 0).then(|| {
        format!(
            "the suite wrote no file of the client's output under {}: nothing was scanned",
            dir.display()
        )
    })
}

/// What the example client wrote during a run whose files are in `run` (its stdout and
/// stderr, as the suite keeps them), as an `INFO` check: where a known failure's cause is read.
fn output_check(run: &Path) -> serde_json::Value {
    let text: String = ["stdout.txt", "stderr.txt"]
        .iter()
        .filter_map(|name| std::fs::read_to_string(run.join(name)).ok())
        .collect::<Vec<_>>()
        .join("\n");
    serde_json::json!({ "id": suite::OUTPUT, "status": "INFO", "details": text })
}

/// [`leaked_secret`] as a failed check of the scenario, when it finds something.
fn secret_check(dir: &Path) -> Option<serde_json::Value> {
    leaked_secret(dir).map(|problem| {
        serde_json::json!({
            "id": "example-client-keeps-secrets",
            "status": "FAILURE",
            "errorMessage": problem,
        })
    })
}

/// The suite's own groups of OAuth client scenarios (`client --suite <group>`): one process
/// runs a group's scenarios in parallel, each with servers of its own, which is many times
/// faster than a process per scenario.
const OAUTH_GROUPS: &[&str] = &["auth", "draft", "backcompat", "extensions"];

/// Runs the OAuth client scenarios `scenarios` (at `spec_version`'s wire, extensions at the
/// suite's default) through `groups`, in order, until each has run; the checks and whether
/// the client ended cleanly, in the order of `scenarios`. A scenario no group ran runs alone;
/// so does one whose checks are clean in a group that failed, to learn whether the failure
/// was its own.
fn run_oauth_scenarios(
    suite: &Suite,
    client: &Path,
    scenarios: &[&str],
    spec_version: Option<&str>,
    out: &Path,
    groups: &[&str],
) -> Vec<(Option<Vec<serde_json::Value>>, bool)> {
    // (scenario, checks, whether its group's process ended cleanly)
    let mut ran: Vec<(String, Vec<serde_json::Value>, bool)> = Vec::new();
    for group in groups {
        if scenarios.iter().all(|s| ran.iter().any(|(r, ..)| r == s)) {
            break;
        }
        let dir = out.join(format!("group-{group}"));
        let mut command = suite.command();
        command.args(["client", "--suite", group, "--timeout", "30000"]);
        // An extension is on no revision's timeline: asked for a revision, the suite skips
        // it.
        if let (Some(version), false) = (spec_version, *group == "extensions") {
            command.args(["--spec-version", version]);
        }
        command.arg("--command").arg(client).arg("-o").arg(&dir);
        let what = format!("conformance {} client --suite {group}", suite.version);
        let clean = run(command, &what, Duration::from_secs(300))
            .status
            .success();
        let mut found = Vec::new();
        checks_files(&dir, &mut found);
        for (path, checks) in found {
            let Some(scenario) = path
                .strip_prefix(&dir)
                .ok()
                .and_then(|p| p.to_str())
                .and_then(|p| scenarios.iter().find(|s| names_run(p, s)))
            else {
                continue;
            };
            let mut checks = checks;
            checks.push(output_check(&path));
            checks.extend(secret_check(&path));
            ran.push(((*scenario).to_owned(), checks, clean));
        }
    }
    scenarios
        .iter()
        .map(|scenario| {
            let found = ran.iter().find(|(s, ..)| s == scenario);
            match found {
                Some((_, checks, true)) => (Some(checks.clone()), true),
                Some((_, checks, false)) if !all_passed(checks) => (Some(checks.clone()), false),
                _ => {
                    let (checks, output) =
                        run_client_scenario(suite, client, scenario, spec_version, out);
                    (checks, output.status.success())
                }
            }
        })
        .collect()
}

/// Whether `run`, a result directory's path under a group's directory
/// (`auth/dpop-nonce-2026-01-01T00-00-00-000Z`), is a run of `scenario`.
fn names_run(run: &str, scenario: &str) -> bool {
    run.strip_prefix(scenario)
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|stamp| stamp.len() > 4 && stamp[..4].bytes().all(|b| b.is_ascii_digit()))
}

/// Whether no check failed or warned.
fn all_passed(checks: &[serde_json::Value]) -> bool {
    checks
        .iter()
        .all(|c| matches!(c["status"].as_str(), Some("SUCCESS" | "INFO" | "SKIPPED")))
}

/// Runs `scenarios` of the client side into `tally`, leaving out what [`left_out`] names.
fn run_client_scenarios(
    suite: &Suite,
    client: &Path,
    scenarios: &[String],
    spec_version: Option<&str>,
    out: &Path,
    expected: Expected,
) -> Tally {
    let mut tally = Tally::default();
    let mut left: Vec<(&str, &str)> = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for scenario in scenarios {
        match left_out(scenario) {
            Some(reason) => {
                left.push((scenario, reason));
                tally.left_out += 1;
            }
            None => run.push(scenario),
        }
    }
    // The OAuth scenarios measure no time and each has servers of its own, so they run in
    // the suite's groups; the others, some of which time the client, one by one.
    let (oauth, others): (Vec<&str>, Vec<&str>) = run.iter().partition(|s| s.starts_with("auth/"));
    let mut results: Vec<_> = others
        .iter()
        .map(|scenario| {
            let (checks, output) = run_client_scenario(suite, client, scenario, spec_version, out);
            (checks, output.status.success())
        })
        .collect();
    results.extend(run_oauth_scenarios(
        suite,
        client,
        &oauth,
        spec_version,
        out,
        OAUTH_GROUPS,
    ));
    for (scenario, (checks, clean)) in others.iter().chain(&oauth).zip(results) {
        tally.add(scenario, checks, clean, expected);
    }
    // Each scenario left out is named, with its reason, in the test's output.
    let mut reasons: Vec<&str> = left.iter().map(|(_, r)| *r).collect();
    reasons.dedup();
    for reason in reasons {
        let names: Vec<&str> = left
            .iter()
            .filter(|(_, r)| *r == reason)
            .map(|(s, _)| *s)
            .collect();
        show(&format!(
            "left out ({} {}): {} ({reason})",
            suite.version,
            spec_version.unwrap_or("all"),
            names.join(", ")
        ));
    }
    tally
}

#[test]
fn conformance_suite_against_the_example_server_and_client() {
    let started = Instant::now();
    let suite = Suite::install(STABLE);
    eprintln!("npm ci ({STABLE}): {:?}", started.elapsed());
    let client = support::example_binary("conformance-client");
    let server = Server::start();
    let (failures, skips) = expected(STABLE, "all");
    let expect = Expected {
        failures: &failures,
        skips: &skips,
    };

    // The server: every scenario, pending ones included.
    let server_scenarios = suite.scenarios("--server");
    let out = support::scratch_dir("conformance-suite-server");
    let mut command = suite.command();
    command
        .args(["server", "--url", &server.url, "--suite", "all", "-o"])
        .arg(&out);
    let output = run(command, "conformance server", Duration::from_secs(600));
    let mut found = Vec::new();
    checks_files(&out, &mut found);
    let mut tally = Tally::default();
    for scenario in &server_scenarios {
        tally.add(scenario, server_checks(&found, scenario), true, expect);
    }
    show(&tally.line(STABLE, "all", "server"));
    if !tally.missed.is_empty() {
        eprintln!("{}", String::from_utf8_lossy(&output.stdout));
    }
    tally.assert_clean(&format!("{STABLE} server"), &server_scenarios, expect);
    assert_eq!(
        server_exit_problem(&output, tally.missed.len()),
        None,
        "{STABLE} server"
    );

    // The client: one run per scenario.
    let client_scenarios = suite.scenarios("--client");
    let out = support::scratch_dir("conformance-suite-client");
    let tally = run_client_scenarios(&suite, &client, &client_scenarios, None, &out, expect);
    show(&tally.line(STABLE, "all", "client"));
    tally.assert_clean(&format!("{STABLE} client"), &client_scenarios, expect);
    show(&format!(
        "conformance suite {STABLE} took {:.1} s",
        started.elapsed().as_secs_f64()
    ));
}

#[test]
fn frozen_requirement_sets_against_the_example_server_and_client() {
    let started = Instant::now();
    let suite = Suite::install(FROZEN);
    eprintln!("npm ci ({FROZEN}): {:?}", started.elapsed());
    let client = support::example_binary("conformance-client");
    let server = Server::start();
    let mut problems = Vec::new();
    // Extensions count once, whichever revisions' sets name them.
    let mut extensions_server = Tally::default();
    let mut extensions_client = Tally::default();
    let mut extensions_client_left = std::collections::BTreeSet::new();
    let mut extensions_client_run = std::collections::BTreeSet::new();
    let requirements: Vec<_> = REVISIONS.map(|r| (r, suite.requirements(r))).into();
    for (revision, requirements) in &requirements {
        let revision = *revision;
        let (failures, skips) = expected(FROZEN, revision);
        let expect = Expected {
            failures: &failures,
            skips: &skips,
        };
        // The server: `--requirements` runs the scored scenarios and the not-scored ones of
        // the server leg, all at the revision's wire.
        let out = support::scratch_dir(&format!("conformance-frozen-{revision}-server"));
        let mut command = suite.command();
        command
            .args([
                "server",
                "--url",
                &server.url,
                "--requirements",
                revision,
                "-o",
            ])
            .arg(&out);
        let what = format!("conformance {FROZEN} server --requirements {revision}");
        let server_run = run(command, &what, Duration::from_secs(600));
        let mut found = Vec::new();
        checks_files(&out, &mut found);
        let mut scored = Tally::default();
        for scenario in &requirements.server {
            scored.add(scenario, server_checks(&found, scenario), true, expect);
        }
        let mut server_missed = scored.missed.len();
        for entry in requirements.not_scored("server") {
            let checks = server_checks(&found, &entry.scenario);
            let extensions_missed = extensions_server.missed.len();
            let wrong = not_scored(&mut extensions_server, revision, entry, checks, true);
            if !wrong.is_empty() || extensions_server.missed.len() > extensions_missed {
                server_missed += 1;
            }
            problems.extend(wrong);
        }
        if let Some(problem) = server_exit_problem(&server_run, server_missed) {
            problems.push(format!("{FROZEN} {revision} server: {problem}"));
        }
        show(&scored.line(FROZEN, revision, "server"));
        for missed in &scored.missed {
            eprintln!("  {revision} server: {missed}");
        }

        // The client: one run per scenario at the revision's wire.
        let out = support::scratch_dir(&format!("conformance-frozen-{revision}-client"));
        let client_tally = run_client_scenarios(
            &suite,
            &client,
            &requirements.client,
            Some(revision),
            &out,
            expect,
        );
        for entry in requirements.not_scored("client") {
            if left_out(&entry.scenario).is_some() {
                if entry.reason == "extension" && extensions_client_left.insert(&entry.scenario) {
                    extensions_client.left_out += 1;
                }
                continue;
            }
            // The extensions run once, after every set has named them.
            if entry.reason == "extension" {
                extensions_client_run.insert(entry.scenario.as_str());
                continue;
            }
            let (checks, output) =
                run_client_scenario(&suite, &client, &entry.scenario, Some(revision), &out);
            let clean = output.status.success();
            problems.extend(not_scored(
                &mut extensions_client,
                revision,
                entry,
                checks,
                clean,
            ));
        }
        show(&client_tally.line(FROZEN, revision, "client"));
        // The authorization scenarios on a line of their own: most of the client leg.
        show(&client_tally.subset_line(FROZEN, revision, "client", "auth/"));
        for missed in &client_tally.missed {
            eprintln!("  {revision} client: {missed}");
        }

        // Only the scored scenarios decide; every set runs and prints before the test fails.
        for (side, tally, scenarios) in [
            ("server", &scored, &requirements.server),
            ("client", &client_tally, &requirements.client),
        ] {
            let what = format!("{FROZEN} {revision} {side}");
            for problem in tally.problems(&what, scenarios, expect) {
                problems.push(format!("{what}: {problem}"));
            }
        }
    }
    // The client's extensions are OAuth flows, run in the suite's groups.
    let extensions: Vec<&str> = extensions_client_run.into_iter().collect();
    let out = support::scratch_dir("conformance-frozen-extensions-client");
    let results = run_oauth_scenarios(&suite, &client, &extensions, None, &out, &["extensions"]);
    let (failures, skips) = expected(FROZEN, "extensions");
    let expect = Expected {
        failures: &failures,
        skips: &skips,
    };
    for (scenario, (checks, clean)) in extensions.iter().zip(results) {
        extensions_client.add(scenario, checks, clean, expect);
    }
    show(&extensions_server.line(FROZEN, "extensions", "server"));
    for skipped in &extensions_server.skipped_scenarios {
        show(&format!(
            "skipped by the suite ({FROZEN} extensions server): {skipped}"
        ));
    }
    show(&extensions_client.line(FROZEN, "extensions", "client"));
    for line in extensions_client.scenario_lines(FROZEN, "extensions", "client") {
        show(&line);
    }
    if !extensions_client_left.is_empty() {
        let names: Vec<&str> = extensions_client_left.iter().map(|s| s.as_str()).collect();
        show(&format!(
            "left out ({FROZEN} extensions): {} ({})",
            names.join(", "),
            names
                .iter()
                .filter_map(|name| left_out(name))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    for missed in extensions_server
        .missed
        .iter()
        .chain(&extensions_client.missed)
    {
        eprintln!("  extensions: {missed}");
    }
    // The extensions pass today, so they are held there: each decides the test like a
    // scored scenario (the tasks server scenarios, the OAuth client ones).
    for (side, tally) in [
        ("server", &extensions_server),
        ("client", &extensions_client),
    ] {
        let what = format!("{FROZEN} extensions {side}");
        let names: Vec<String> = tally.scenario_names();
        for problem in tally.problems(&what, &names, expect) {
            problems.push(format!("{what}: {problem}"));
        }
    }
    show(&format!(
        "conformance suite {FROZEN} took {:.1} s",
        started.elapsed().as_secs_f64()
    ));
    assert!(
        problems.is_empty(),
        "conformance suite:\n  {}",
        problems.join("\n  ")
    );
}

/// What is wrong with the exit status of the suite's server run, given how many of the
/// scenarios it ran did not pass: a failed exit with every scenario passed is a failure the
/// checks did not show (the suite crashed, or failed on something it wrote no check for).
fn server_exit_problem(output: &Output, scenarios_missed: usize) -> Option<String> {
    (!output.status.success() && scenarios_missed == 0).then(|| {
        format!(
            "the suite's server run exited with {} though every scenario passed:\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// Reports a scenario a frozen set runs without the revision scoring it: an extension into
/// `extensions` (printed as set `extensions`, and held to passing by the caller), a pending
/// one or one added after the revision shipped on a line of its own, held to passing here.
/// Returns what is wrong with the scenario: nothing for an extension, whose tally decides.
fn not_scored(
    extensions: &mut Tally,
    revision: &str,
    entry: &suite::NotScored,
    checks: Option<Vec<serde_json::Value>>,
    clean_exit: bool,
) -> Vec<String> {
    if entry.reason == "extension" {
        let (failures, skips) = expected(FROZEN, "extensions");
        let expect = Expected {
            failures: &failures,
            skips: &skips,
        };
        extensions.add(&entry.scenario, checks, clean_exit, expect);
        return Vec::new();
    }
    let (failures, skips) = expected(FROZEN, revision);
    let expect = Expected {
        failures: &failures,
        skips: &skips,
    };
    let mut one = Tally::default();
    one.add(&entry.scenario, checks, clean_exit, expect);
    let verdict = match one.missed.first() {
        None => format!("passed, {} checks", one.checks),
        Some(miss) => format!("did not pass ({miss})"),
    };
    show(&format!(
        "not scored at {revision} ({}, {}): {}: {verdict}",
        entry.leg, entry.reason, entry.scenario
    ));
    let what = format!("{FROZEN} {revision} not scored ({})", entry.reason);
    let mut problems: Vec<String> = one
        .problems(&what, &one.scenario_names(), expect)
        .into_iter()
        .map(|p| format!("{what}: {p}"))
        .collect();
    if problems.is_empty() && !one.missed.is_empty() {
        problems.push(format!("{what}: {verdict}"));
    }
    problems
}

/// The secret check finds a token in the client's output, and says which kind without it.
#[test]
fn a_secret_in_the_client_output_is_found() {
    let dir = support::scratch_dir("conformance-suite-leak");
    let run = dir.join("auth/x-2026-01-01");
    std::fs::create_dir_all(&run).expect("scratch directory");
    std::fs::write(run.join("stderr.txt"), "oauth: token from /token\n").expect("write");
    assert_eq!(leaked_secret(&dir), None);
    std::fs::write(run.join("stderr.txt"), "Bearer test-token-1234").expect("write");
    let leak = leaked_secret(&dir).expect("the token is found");
    assert!(
        leak.contains("test-token-") && !leak.contains("1234"),
        "{leak}"
    );
    // Whatever the suite names its files.
    std::fs::write(run.join("stderr.txt"), "nothing\n").expect("write");
    std::fs::write(run.join("client-output.log"), "secret=abc-secret").expect("write");
    let leak = leaked_secret(&dir).expect("the secret is found");
    assert!(leak.contains("client-output.log"), "{leak}");
    // A run with nothing but its checks has nothing to scan, which is said, not passed.
    let bare = support::scratch_dir("conformance-suite-leak-bare");
    std::fs::create_dir_all(bare.join("auth/y-2026-01-01")).expect("scratch directory");
    std::fs::write(bare.join("auth/y-2026-01-01/checks.json"), "[]").expect("write");
    let nothing = leaked_secret(&bare).expect("nothing to scan is a finding");
    assert!(nothing.contains("nothing was scanned"), "{nothing}");
}

/// The pinned releases are the ones the test names.
#[test]
fn the_pins_name_the_releases_the_test_runs() {
    for version in [STABLE, FROZEN] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/conformance_suite/npm")
            .join(version);
        let manifest: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("package.json")).expect("package.json"),
        )
        .expect("package.json is JSON");
        assert_eq!(
            manifest["dependencies"]["@modelcontextprotocol/conformance"],
            version
        );
        let lock: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("package-lock.json")).expect("package-lock.json"),
        )
        .expect("package-lock.json is JSON");
        assert_eq!(
            lock["packages"]["node_modules/@modelcontextprotocol/conformance"]["version"],
            version
        );
    }
}

/// The failures `docs/conformance.md` prints for 0.1.16's client are the known ones, check for
/// check.
#[test]
fn the_readme_prints_the_known_failures() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/conformance.md"))
            .expect("docs/conformance.md");
    let prefix = format!("conformance-suite {STABLE} all client: ");
    let line = readme
        .lines()
        .find(|l| l.starts_with(&prefix))
        .expect("docs/conformance.md prints the 0.1.16 client line");
    let failures: usize = line
        .split(", ")
        .find_map(|part| part.strip_suffix(" failures"))
        .and_then(|n| n.parse().ok())
        .expect("the line counts failures");
    let known: usize = KNOWN.iter().map(|k| k.checks.len()).sum();
    assert_eq!(failures, known, "{line}");
}
