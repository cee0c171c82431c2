//! One pinned release of the suite: its installation (`npm ci` in `npm/<version>/`), its
//! command line, its frozen requirement sets, and the tally of the checks it wrote.

use crate::support::run_limited as run;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A scenario the suite fails for a reason outside the example client and server. It is
/// pinned: the ids of the checks that fail (each listed as often as it fails), and a part of
/// what says why, which must be in a failing check's message or in the example's own output
/// (the [`OUTPUT`] check). Anything else that goes wrong in the scenario (another check, a
/// check failing more or less often, another cause, no `checks.json`) is a failure like any
/// other, and a known failure that no longer shows fails the test too.
#[derive(Clone, Copy, Debug)]
pub struct Known {
    pub scenario: &'static str,
    /// The `id` of each check that fails, as often as it fails.
    pub checks: &'static [&'static str],
    /// What names the cause.
    pub because: &'static str,
    pub reason: &'static str,
}

/// The id of the `INFO` check that carries what the example wrote while the suite ran it
/// (the client's stdout and stderr), added to its checks for [`Known::because`].
pub const OUTPUT: &str = "example-output";

/// A check the suite itself marks `SKIPPED` that the test allows, with the reason: any other
/// skip is a failure, and so is an allowed one the run no longer shows, or shows a different
/// number of times (a skip proves nothing, so none may come unseen).
#[derive(Clone, Copy, Debug)]
pub struct Skip {
    pub scenario: &'static str,
    /// The check's `id`.
    pub check: &'static str,
    /// How many of the scenario's checks the suite skips with that id.
    pub times: usize,
    pub reason: &'static str,
}

/// What one run of a set may show beyond checks that succeeded.
#[derive(Clone, Copy, Debug, Default)]
pub struct Expected<'a> {
    pub failures: &'a [Known],
    pub skips: &'a [Skip],
}

/// An installed release of `@modelcontextprotocol/conformance`, with the Node 22 it pins.
pub struct Suite {
    /// `0.1.16`, `0.2.0-alpha.12`.
    pub version: &'static str,
    dir: PathBuf,
    node: PathBuf,
}

impl Suite {
    /// `npm ci` in `tests/conformance_suite/npm/<version>`: the suite and Node 22 at the
    /// versions its lock file pins.
    pub fn install(version: &'static str) -> Suite {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/conformance_suite/npm")
            .join(version);
        let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
        let mut ci = Command::new(npm);
        ci.current_dir(&dir)
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
        let what = format!(
            "`npm ci` in {} (needs npm and the npm registry)",
            dir.display()
        );
        let output = run(ci, &what, Duration::from_secs(300));
        assert!(
            output.status.success(),
            "{what} failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let node = dir.join("node_modules").join(".bin").join("node");
        assert!(
            node.exists(),
            "npm ci did not install Node 22 at {}",
            node.display()
        );
        Suite { version, dir, node }
    }

    /// The suite's command line.
    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.node);
        command.current_dir(&self.dir).arg(
            self.dir
                .join("node_modules/@modelcontextprotocol/conformance/dist/index.js"),
        );
        command
    }

    /// The scenarios the suite lists for `side` (`--server`, `--client`).
    pub fn scenarios(&self, side: &str) -> Vec<String> {
        let mut list = self.command();
        list.args(["list", side]);
        let output = run(list, "conformance list", Duration::from_secs(60));
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        let names: Vec<String> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("- "))
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_owned)
            .collect();
        assert!(
            !names.is_empty(),
            "conformance list {side} listed nothing:\n{text}"
        );
        names
    }

    /// What `revision` requires, as the release's frozen `requirements/<revision>.yaml` says.
    pub fn requirements(&self, revision: &str) -> Requirements {
        let path = self
            .dir
            .join("node_modules/@modelcontextprotocol/conformance/requirements")
            .join(format!("{revision}.yaml"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Requirements::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

/// A scenario run and reported but not scored, with the requirement file's reason
/// (`extension`, `pending`, `added-after-release`).
#[derive(Debug, PartialEq)]
pub struct NotScored {
    pub scenario: String,
    /// `server` or `client`: the subcommand that runs it.
    pub leg: String,
    pub reason: String,
}

/// A revision's frozen requirement set.
#[derive(Debug, Default, PartialEq)]
pub struct Requirements {
    pub server: Vec<String>,
    pub client: Vec<String>,
    pub not_scored: Vec<NotScored>,
}

impl Requirements {
    /// Reads the one shape these files have: three top-level keys, `server` and `client`
    /// lists of names, `not_scored` a list of `scenario`/`leg`/`reason` maps (a `note` may
    /// follow, folded over the next lines). Anything else is an error, so a change of shape
    /// in a newer release is seen, not misread.
    pub fn parse(text: &str) -> Result<Requirements, String> {
        let mut requirements = Requirements::default();
        let mut section = "";
        let mut in_note = false;
        for (number, line) in text.lines().enumerate() {
            let at = |what: &str| format!("line {}: {what}: {line:?}", number + 1);
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if !line.starts_with(' ') {
                section = match trimmed {
                    "server:" | "client:" | "not_scored:" => trimmed.trim_end_matches(':'),
                    _ => return Err(at("an unknown top-level key")),
                };
                in_note = false;
                continue;
            }
            let item = trimmed.strip_prefix("- ");
            match (section, item) {
                ("server", Some(name)) => requirements.server.push(name.to_owned()),
                ("client", Some(name)) => requirements.client.push(name.to_owned()),
                ("not_scored", Some(entry)) => {
                    let scenario = entry.strip_prefix("scenario: ").ok_or_else(|| {
                        at("a not_scored entry that does not start with scenario")
                    })?;
                    requirements.not_scored.push(NotScored {
                        scenario: scenario.to_owned(),
                        leg: String::new(),
                        reason: String::new(),
                    });
                    in_note = false;
                }
                ("not_scored", None) => {
                    let last = requirements
                        .not_scored
                        .last_mut()
                        .ok_or_else(|| at("a member outside an entry"))?;
                    if let Some(leg) = trimmed.strip_prefix("leg: ") {
                        last.leg = leg.to_owned();
                    } else if let Some(reason) = trimmed.strip_prefix("reason: ") {
                        last.reason = reason.to_owned();
                    } else if trimmed.starts_with("note:") {
                        in_note = true;
                    } else if !in_note {
                        return Err(at("an unknown member"));
                    }
                }
                _ => return Err(at("an unexpected line")),
            }
        }
        for entry in &requirements.not_scored {
            if !matches!(entry.leg.as_str(), "server" | "client") || entry.reason.is_empty() {
                return Err(format!("not_scored {}: no leg or reason", entry.scenario));
            }
        }
        if requirements.server.is_empty() || requirements.client.is_empty() {
            return Err("no server or no client scenarios".to_owned());
        }
        Ok(requirements)
    }

    /// The not-scored scenarios of one leg.
    pub fn not_scored(&self, leg: &str) -> Vec<&NotScored> {
        self.not_scored.iter().filter(|n| n.leg == leg).collect()
    }
}

/// What one side's scenarios gave.
#[derive(Default)]
pub struct Tally {
    pub total: usize,
    pub passed: usize,
    /// Checks that succeeded, failed or warned (not `INFO`, not `SKIPPED`).
    pub checks: usize,
    /// Checks the suite itself marked `SKIPPED`: neither passes nor failures.
    pub skipped: usize,
    /// Scenarios whose every check the suite itself skipped, each skip an allowed one: not
    /// passed, and not failed (the suite says why in the check's message).
    pub skipped_scenarios: Vec<String>,
    pub failures: usize,
    pub warnings: usize,
    pub left_out: usize,
    /// Scenarios that did not pass, with their first failing check: for the not-scored report.
    pub missed: Vec<String>,
    /// Failures and warnings not known, and known ones that no longer fail.
    problems: Vec<String>,
    /// Known failures seen, one entry a check: (scenario, check).
    known_seen: Vec<(String, String)>,
    /// Allowed skips seen, one entry a check: (scenario, check).
    skips_seen: Vec<(String, String)>,
    /// Each scenario's own result, in the order added.
    scenarios: Vec<ScenarioResult>,
}

/// One scenario's result, for the lines that name scenarios.
#[derive(Clone)]
struct ScenarioResult {
    name: String,
    passed: bool,
    /// The suite skipped every check of it.
    skipped_whole: bool,
    checks: usize,
    skipped: usize,
    failures: usize,
    warnings: usize,
}

impl Tally {
    /// Adds one scenario's checks (`None`: the scenario wrote none); `expected` says which
    /// failures have a reason outside the examples and which skips are allowed.
    pub fn add(
        &mut self,
        scenario: &str,
        checks: Option<Vec<Value>>,
        clean_exit: bool,
        expected: Expected,
    ) {
        self.total += 1;
        let before = (
            self.checks,
            self.failures,
            self.warnings,
            self.passed,
            self.skipped,
        );
        let skipped_before = self.skipped_scenarios.len();
        self.add_checks(scenario, checks, clean_exit, expected);
        self.scenarios.push(ScenarioResult {
            name: scenario.to_owned(),
            passed: self.passed > before.3,
            skipped_whole: self.skipped_scenarios.len() > skipped_before,
            checks: self.checks - before.0,
            skipped: self.skipped - before.4,
            failures: self.failures - before.1,
            warnings: self.warnings - before.2,
        });
    }

    fn add_checks(
        &mut self,
        scenario: &str,
        checks: Option<Vec<Value>>,
        clean_exit: bool,
        expected: Expected,
    ) {
        let Some(checks) = checks else {
            let miss = format!("{scenario}: no checks.json");
            self.problems.push(miss.clone());
            self.missed.push(miss);
            return;
        };
        // Passed: at least one check succeeded, none failed, warned or was skipped unlisted,
        // and the suite's run ended cleanly. An allowed skip is counted apart and passes
        // nothing.
        let mut passed = clean_exit;
        let mut first_miss = None;
        let mut excused = 0;
        let mut succeeded = 0;
        let mut unlisted_skip = false;
        for check in &checks {
            let status = check["status"].as_str().unwrap_or("");
            let id = check["id"].as_str().unwrap_or("?");
            let message = check["errorMessage"].as_str().unwrap_or("");
            match status {
                "INFO" => continue,
                "SKIPPED" => {
                    self.skipped += 1;
                    let allowed = expected
                        .skips
                        .iter()
                        .any(|s| s.scenario == scenario && s.check == id);
                    if allowed {
                        self.skips_seen.push((scenario.to_owned(), id.to_owned()));
                    } else {
                        unlisted_skip = true;
                        passed = false;
                        let miss = format!(
                            "{scenario}: SKIPPED {id}, which no allowed skip lists: {message}"
                        );
                        first_miss.get_or_insert_with(|| miss.clone());
                        self.problems.push(miss);
                    }
                    continue;
                }
                _ => self.checks += 1,
            }
            match status {
                "SUCCESS" => {
                    succeeded += 1;
                    continue;
                }
                "FAILURE" => self.failures += 1,
                "WARNING" => self.warnings += 1,
                _ => {}
            }
            passed = false;
            let miss = format!("{scenario}: {status} {id}: {message}");
            first_miss.get_or_insert_with(|| miss.clone());
            let known = expected
                .failures
                .iter()
                .find(|k| k.scenario == scenario && k.checks.contains(&id) && status == "FAILURE");
            match known {
                Some(_) => {
                    excused += 1;
                    self.known_seen.push((scenario.to_owned(), id.to_owned()));
                }
                None => self.problems.push(miss),
            }
        }
        // The known failures fail for their own cause, or they are not the known ones.
        for known in expected.failures.iter().filter(|k| k.scenario == scenario) {
            let named = checks.iter().any(|c| {
                let says = |key: &str| c[key].as_str().is_some_and(|m| m.contains(known.because));
                (c["status"] == "FAILURE" && says("errorMessage"))
                    || (c["id"] == OUTPUT && says("details"))
            });
            if excused > 0 && !named {
                self.problems.push(format!(
                    "{scenario}: fails its known checks, but nothing says `{}`",
                    known.because
                ));
            }
        }
        // A scenario the suite skipped whole, with skips it is allowed, is reported as such:
        // not passed, not failed.
        let skipped_whole = succeeded == 0
            && first_miss.is_none()
            && checks.iter().any(|c| c["status"] == "SKIPPED")
            && checks
                .iter()
                .filter(|c| c["status"] != "INFO")
                .all(|c| c["status"] == "SKIPPED");
        if skipped_whole && clean_exit && !unlisted_skip {
            let reason = checks
                .iter()
                .find(|c| c["status"] == "SKIPPED")
                .and_then(|c| c["errorMessage"].as_str())
                .unwrap_or("");
            self.skipped_scenarios.push(format!("{scenario}: {reason}"));
            return;
        }
        // A scenario that checked nothing proves nothing, whatever its exit status.
        if succeeded == 0 && first_miss.is_none() {
            passed = false;
            let miss = format!("{scenario}: no check succeeded (none, or only skipped ones)");
            first_miss = Some(miss.clone());
            self.problems.push(miss);
        }
        // A failed exit is excused only by the known failure that explains it.
        if !clean_exit && excused == 0 {
            self.problems.push(format!(
                "{scenario}: the suite reported a failure (client exit status or timeout)"
            ));
        }
        if passed {
            self.passed += 1;
        } else {
            self.missed.push(first_miss.unwrap_or_else(|| {
                format!("{scenario}: the suite reported a failure (exit status or timeout)")
            }));
        }
    }

    /// The line for the scenarios of `side` whose names start with `prefix` (`"auth/"`),
    /// printed as set `set` with `side` followed by `label`.
    pub fn subset_line(&self, version: &str, set: &str, side: &str, prefix: &str) -> String {
        let mut subset = Tally::default();
        for scenario in self.scenarios.iter().filter(|s| s.name.starts_with(prefix)) {
            subset.total += 1;
            subset.passed += usize::from(scenario.passed);
            subset.checks += scenario.checks;
            subset.skipped += scenario.skipped;
            subset.failures += scenario.failures;
            subset.warnings += scenario.warnings;
        }
        let label = prefix.trim_end_matches('/');
        format!(
            "conformance-suite {version} {set} {side} {label}: {}/{} scenarios, {} checks, {} skipped, {} failures, {} warnings",
            subset.passed, subset.total, subset.checks, subset.skipped, subset.failures, subset.warnings
        )
    }

    /// One line per scenario: its name and result.
    pub fn scenario_lines(&self, version: &str, set: &str, side: &str) -> Vec<String> {
        self.scenarios
            .iter()
            .map(|s| {
                format!(
                    "conformance-suite {version} {set} {side} {}: {}, {} checks, {} skipped, {} failures, {} warnings",
                    s.name,
                    match (s.passed, s.skipped_whole) {
                        (true, _) => "passed",
                        (false, true) => "skipped by the suite",
                        (false, false) => "FAILED",
                    },
                    s.checks,
                    s.skipped,
                    s.failures,
                    s.warnings
                )
            })
            .collect()
    }

    /// The names of the scenarios added, in order.
    pub fn scenario_names(&self) -> Vec<String> {
        self.scenarios.iter().map(|s| s.name.clone()).collect()
    }

    /// The line the test prints for `side` of set `set`.
    pub fn line(&self, version: &str, set: &str, side: &str) -> String {
        let mut line = format!(
            "conformance-suite {version} {set} {side}: {}/{} scenarios{}, {} checks, {} skipped, {} failures, {} warnings",
            self.passed,
            self.total,
            match self.skipped_scenarios.len() {
                0 => String::new(),
                n => format!(" ({n} skipped by the suite)"),
            },
            self.checks,
            self.skipped,
            self.failures,
            self.warnings
        );
        if side == "client" {
            line.push_str(&format!(", {} left out", self.left_out));
        }
        line
    }

    /// Every failure, warning or skip that is not expected, and every known failure or
    /// allowed skip of these scenarios that no longer shows as often as listed (it is stale:
    /// mend the list); prints the known failures and skips seen.
    pub fn problems(&self, what: &str, scenarios: &[String], expected: Expected) -> Vec<String> {
        let mut problems = self.problems.clone();
        let ran = |scenario: &str| scenarios.iter().any(|s| s == scenario);
        let count = |seen: &[(String, String)], scenario: &str, check: &str| {
            seen.iter()
                .filter(|(s, c)| s == scenario && c == check)
                .count()
        };
        for known in expected.failures.iter().filter(|k| ran(k.scenario)) {
            let (scenario, reason) = (known.scenario, known.reason);
            let mut listed: Vec<&str> = known.checks.to_vec();
            listed.sort_unstable();
            listed.dedup();
            for check in listed {
                let times = known.checks.iter().filter(|c| **c == check).count();
                match count(&self.known_seen, scenario, check) {
                    0 => problems.push(format!(
                        "{scenario}: {check} passes now; remove it from the known failures ({reason})"
                    )),
                    n if n == times => {
                        eprintln!("known disagreement, {what} {scenario}: {check} ({n}x): {reason}");
                    }
                    n => problems.push(format!(
                        "{scenario}: {check} failed {n} times, the known failure says {times} ({reason})"
                    )),
                }
            }
        }
        for skip in expected.skips.iter().filter(|s| ran(s.scenario)) {
            let (scenario, check, reason) = (skip.scenario, skip.check, skip.reason);
            match count(&self.skips_seen, scenario, check) {
                0 => problems.push(format!(
                    "{scenario}: {check} is no longer skipped; remove it from the allowed skips ({reason})"
                )),
                n if n == skip.times => {
                    eprintln!("allowed skip, {what} {scenario}: {check} ({n}x): {reason}");
                }
                n => problems.push(format!(
                    "{scenario}: {check} was skipped {n} times, the allowed skip says {} ({reason})",
                    skip.times
                )),
            }
        }
        problems
    }

    /// Fails the test on what [`Tally::problems`] finds.
    pub fn assert_clean(&self, what: &str, scenarios: &[String], expected: Expected) {
        let problems = self.problems(what, scenarios, expected);
        assert!(
            problems.is_empty(),
            "conformance suite, {what}:\n  {}",
            problems.join("\n  ")
        );
    }
}

/// Every `checks.json` under `dir`, with the directory holding it.
pub fn checks_files(dir: &Path, found: &mut Vec<(PathBuf, Vec<Value>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            checks_files(&path, found);
        } else if path.file_name().is_some_and(|n| n == "checks.json") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let checks = serde_json::from_str::<Vec<Value>>(&text)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            found.push((dir.to_path_buf(), checks));
        }
    }
}

/// The checks of `scenario` among those a server run wrote (directories named
/// `server-<scenario>-<timestamp>`).
pub fn server_checks(found: &[(PathBuf, Vec<Value>)], scenario: &str) -> Option<Vec<Value>> {
    found
        .iter()
        .find(|(dir, _)| {
            dir.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| names_scenario(n, "server-", scenario))
        })
        .map(|(_, checks)| checks.clone())
}

/// Whether `dir_name` is `<prefix><scenario>-<timestamp>`.
fn names_scenario(dir_name: &str, prefix: &str, scenario: &str) -> bool {
    dir_name
        .strip_prefix(prefix)
        .and_then(|rest| rest.strip_prefix(scenario))
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|ts| ts.len() > 4 && ts[..4].bytes().all(|b| b.is_ascii_digit()))
}

/// Checks that measure wall-clock time.
const TIMING: &[&str] = &["client-sse-retry-timing"];

/// Whether the checks that did not pass are all timing checks (and there is one).
pub fn only_timing_missed(checks: &[Value]) -> bool {
    let missed: Vec<&str> = checks
        .iter()
        .filter(|c| !matches!(c["status"].as_str(), Some("SUCCESS" | "INFO" | "SKIPPED")))
        .map(|c| c["id"].as_str().unwrap_or(""))
        .collect();
    !missed.is_empty() && missed.iter().all(|id| TIMING.contains(id))
}

#[test]
fn requirement_files_are_read_exactly() {
    let text = "# comment\n\nserver:\n  - a\n  - b\n\nclient:\n  - auth/x\n  - c\n\nnot_scored:\n  - scenario: t\n    leg: server\n    reason: extension\n    note: >-\n      folded text\n  - scenario: u\n    leg: client\n    reason: pending\n";
    let read = Requirements::parse(text).unwrap();
    assert_eq!(read.server, ["a", "b"]);
    assert_eq!(read.client, ["auth/x", "c"]);
    assert_eq!(
        read.not_scored,
        [
            NotScored {
                scenario: "t".into(),
                leg: "server".into(),
                reason: "extension".into()
            },
            NotScored {
                scenario: "u".into(),
                leg: "client".into(),
                reason: "pending".into()
            }
        ]
    );
    assert_eq!(read.not_scored("client").len(), 1);
    // A shape this reader does not know is an error, not a silent skip.
    assert!(Requirements::parse("server:\n  - a\nclient:\n  - b\nextra:\n  - c\n").is_err());
    assert!(Requirements::parse(
        "server:\n  - a\nclient:\n  - b\nnot_scored:\n  - scenario: t\n    leg: server\n"
    )
    .is_err());
    assert!(Requirements::parse("server:\n  - a\nclient:\n").is_err());
}

/// The scoring itself can say no: a scenario passes only with a check that succeeded, no
/// failure, warning or unlisted skip, and a clean exit; allowed skips are counted apart.
#[test]
fn a_scenario_passes_only_on_checks_that_succeeded() {
    let check = |id: &str, status: &str| serde_json::json!({ "id": id, "status": status });
    let skips = [Skip {
        scenario: "ok",
        check: "b",
        times: 1,
        reason: "test",
    }];
    let expected = Expected {
        failures: &[],
        skips: &skips,
    };
    let mut tally = Tally::default();
    tally.add(
        "ok",
        Some(vec![
            check("a", "SUCCESS"),
            check("b", "SKIPPED"),
            check("c", "INFO"),
        ]),
        true,
        expected,
    );
    tally.add("empty", Some(vec![]), true, expected);
    // A scored scenario made only of skips that no list allows is a failure, not a pass
    // and not a scenario "skipped by the suite".
    tally.add(
        "only-skipped",
        Some(vec![check("a", "SKIPPED")]),
        true,
        expected,
    );
    // A passing scenario's unlisted skip fails it as well.
    tally.add(
        "skips-one",
        Some(vec![check("a", "SUCCESS"), check("b", "SKIPPED")]),
        true,
        expected,
    );
    tally.add("only-info", Some(vec![check("a", "INFO")]), true, expected);
    tally.add(
        "crashed",
        Some(vec![check("a", "SUCCESS")]),
        false,
        expected,
    );
    tally.add(
        "failed",
        Some(vec![check("a", "SUCCESS"), check("b", "FAILURE")]),
        true,
        expected,
    );
    tally.add("warned", Some(vec![check("a", "WARNING")]), true, expected);
    tally.add("missing", None, true, expected);
    assert_eq!(tally.total, 9);
    assert_eq!(tally.passed, 1);
    assert_eq!((tally.checks, tally.skipped), (6, 3));
    assert_eq!((tally.failures, tally.warnings), (1, 1));
    let problems = tally.problems("test", &tally.scenario_names(), expected);
    assert!(
        tally.skipped_scenarios.is_empty(),
        "{:?}",
        tally.skipped_scenarios
    );
    for scenario in [
        "empty",
        "only-skipped",
        "skips-one",
        "only-info",
        "crashed",
        "failed",
        "warned",
        "missing",
    ] {
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with(&format!("{scenario}:"))),
            "{scenario} is not a problem: {problems:?}"
        );
    }
    assert!(
        !problems.iter().any(|p| p.starts_with("ok:")),
        "{problems:?}"
    );
    assert_eq!(
        tally.line("v", "set", "server"),
        "conformance-suite v set server: 1/9 scenarios, 6 checks, 3 skipped, 1 failures, 1 warnings"
    );
}

/// A scenario the suite skips whole, with a skip the list allows, is reported apart; an
/// allowed skip that no longer shows, or shows more often than listed, is stale.
#[test]
fn allowed_skips_are_exact() {
    let check = |id: &str, status: &str| serde_json::json!({ "id": id, "status": status });
    let skips = [
        Skip {
            scenario: "harness-pending",
            check: "a",
            times: 1,
            reason: "test",
        },
        Skip {
            scenario: "twice",
            check: "h",
            times: 2,
            reason: "test",
        },
    ];
    let expected = Expected {
        failures: &[],
        skips: &skips,
    };
    let mut tally = Tally::default();
    tally.add(
        "harness-pending",
        Some(vec![check("a", "SKIPPED")]),
        true,
        expected,
    );
    tally.add(
        "twice",
        Some(vec![
            check("x", "SUCCESS"),
            check("h", "SKIPPED"),
            check("h", "SKIPPED"),
        ]),
        true,
        expected,
    );
    assert_eq!(tally.skipped_scenarios, ["harness-pending: "]);
    assert_eq!(tally.passed, 1);
    assert_eq!(
        tally.problems("test", &tally.scenario_names(), expected),
        Vec::<String>::new()
    );

    // The same scenarios, now skipping less and more than listed.
    let mut tally = Tally::default();
    tally.add(
        "harness-pending",
        Some(vec![check("a", "SUCCESS")]),
        true,
        expected,
    );
    tally.add(
        "twice",
        Some(vec![
            check("x", "SUCCESS"),
            check("h", "SKIPPED"),
            check("h", "SKIPPED"),
            check("h", "SKIPPED"),
        ]),
        true,
        expected,
    );
    let problems = tally.problems("test", &tally.scenario_names(), expected);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].starts_with("harness-pending: a is no longer skipped"),
        "{problems:?}"
    );
    assert!(
        problems[1].starts_with("twice: h was skipped 3 times"),
        "{problems:?}"
    );
    // A listed skip of a scenario that did not run is not stale.
    assert_eq!(tally.problems("test", &[], expected), Vec::<String>::new());
}

/// A known failure excuses its own checks, as often as listed, for its own cause, and nothing
/// else of its scenario.
#[test]
fn a_known_failure_is_pinned_to_its_checks_and_cause() {
    let failed = |id: &str, message: &str| serde_json::json!({ "id": id, "status": "FAILURE", "errorMessage": message });
    let output =
        |text: &str| serde_json::json!({ "id": OUTPUT, "status": "INFO", "details": text });
    let succeeded = serde_json::json!({ "id": "ok", "status": "SUCCESS" });
    let known = [Known {
        scenario: "k",
        checks: &["registration", "token", "token"],
        because: "RFC 8414",
        reason: "test",
    }];
    let expected = Expected {
        failures: &known,
        skips: &[],
    };
    let run = |checks: Option<Vec<Value>>, clean: bool| {
        let mut tally = Tally::default();
        tally.add("k", checks, clean, expected);
        tally.problems("test", &tally.scenario_names(), expected)
    };
    let as_known = || {
        vec![
            succeeded.clone(),
            failed("registration", ""),
            failed("token", ""),
            failed("token", ""),
            output("refused: issuer (RFC 8414 §3.3)"),
        ]
    };
    // As listed, with the failed exit it explains; the cause may be in a check's message too.
    assert_eq!(run(Some(as_known()), false), Vec::<String>::new());
    let mut in_message = as_known();
    in_message[1] = failed("registration", "issuer breaks RFC 8414");
    in_message.pop();
    assert_eq!(run(Some(in_message), false), Vec::<String>::new());
    // The same checks failing for another cause.
    let mut other_cause = as_known();
    other_cause[4] = output("connection refused");
    assert_eq!(
        run(Some(other_cause), false),
        ["k: fails its known checks, but nothing says `RFC 8414`"]
    );
    // Another check of the same scenario.
    let mut another = as_known();
    another.push(failed("discovery", "RFC 8414"));
    assert_eq!(
        run(Some(another), false),
        ["k: FAILURE discovery: RFC 8414"]
    );
    // A check failing less often than listed, or none (stale).
    let mut fewer = as_known();
    fewer.remove(3);
    let problems = run(Some(fewer), false);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("k: token failed 1 times, the known failure says 2"),
        "{problems:?}"
    );
    let problems = run(Some(vec![succeeded.clone()]), true);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].starts_with("k: registration passes now"),
        "{problems:?}"
    );
    // A crash that wrote no checks is no known failure.
    let problems = run(None, false);
    assert_eq!(problems[0], "k: no checks.json");
}
