//! One pinned release of the suite: its installation (`npm ci` in `npm/<version>/`), its
//! command line, its frozen requirement sets, and the tally of the checks it wrote.

use crate::support::run_limited as run;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A check the suite reports as failed for a reason outside the example client and server:
/// (scenario, check id or `*` for every check of the scenario, reason).
pub type Known = (&'static str, &'static str, &'static str);

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
    /// Scenarios whose every check the suite itself skipped: not passed, and not failed (the
    /// suite says why in the check's message).
    pub skipped_scenarios: Vec<String>,
    pub failures: usize,
    pub warnings: usize,
    pub left_out: usize,
    /// Scenarios that did not pass, with their first failing check: for the not-scored report.
    pub missed: Vec<String>,
    /// Failures and warnings not known, and known ones that no longer fail.
    problems: Vec<String>,
    /// Known failures seen: (scenario, check).
    known_seen: Vec<(String, String)>,
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
    /// Adds one scenario's checks (`None`: the scenario wrote none); `known` says which
    /// failures have a reason outside the examples.
    pub fn add(
        &mut self,
        scenario: &str,
        checks: Option<Vec<Value>>,
        clean_exit: bool,
        known: &[Known],
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
        self.add_checks(scenario, checks, clean_exit, known);
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
        known: &[Known],
    ) {
        let known_here: Vec<&Known> = known.iter().filter(|(s, ..)| *s == scenario).collect();
        let Some(checks) = checks else {
            if known_here.iter().any(|(_, c, _)| *c == "*") {
                self.known_seen.push((scenario.to_owned(), "*".to_owned()));
            } else {
                self.problems.push(format!("{scenario}: no checks.json"));
            }
            self.missed.push(format!("{scenario}: no checks.json"));
            return;
        };
        // Passed: at least one check succeeded, none failed or warned, and the suite's run
        // ended cleanly. A skipped check is counted apart and passes nothing.
        let mut passed = clean_exit;
        let mut first_miss = None;
        let mut excused = 0;
        let mut succeeded = 0;
        for check in &checks {
            let status = check["status"].as_str().unwrap_or("");
            let id = check["id"].as_str().unwrap_or("?");
            match status {
                "INFO" => continue,
                "SKIPPED" => {
                    self.skipped += 1;
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
            let message = check["errorMessage"].as_str().unwrap_or("");
            first_miss.get_or_insert_with(|| format!("{scenario}: {status} {id}: {message}"));
            match known_here.iter().find(|(_, c, _)| *c == id || *c == "*") {
                Some((_, c, _)) => {
                    excused += 1;
                    self.known_seen.push((scenario.to_owned(), (*c).to_owned()));
                }
                None => self
                    .problems
                    .push(format!("{scenario}: {status} {id}: {message}")),
            }
        }
        // A scenario the suite skipped whole is reported as such: not passed, not failed.
        if succeeded == 0 && first_miss.is_none() && !checks.is_empty() && clean_exit {
            let all_skipped = checks
                .iter()
                .filter(|c| c["status"] != "INFO")
                .all(|c| c["status"] == "SKIPPED");
            if all_skipped && checks.iter().any(|c| c["status"] == "SKIPPED") {
                let reason = checks
                    .iter()
                    .find(|c| c["status"] == "SKIPPED")
                    .and_then(|c| c["errorMessage"].as_str())
                    .unwrap_or("");
                self.skipped_scenarios.push(format!("{scenario}: {reason}"));
                return;
            }
        }
        // A scenario that checked nothing proves nothing, whatever its exit status.
        if succeeded == 0 && first_miss.is_none() {
            passed = false;
            let miss = format!("{scenario}: no check succeeded (none, or only skipped ones)");
            first_miss = Some(miss.clone());
            if known_here.iter().any(|(_, c, _)| *c == "*") {
                self.known_seen.push((scenario.to_owned(), "*".to_owned()));
            } else {
                self.problems.push(miss);
            }
        }
        if !clean_exit && excused == 0 {
            if known_here.iter().any(|(_, c, _)| *c == "*") {
                self.known_seen.push((scenario.to_owned(), "*".to_owned()));
            } else {
                self.problems.push(format!(
                    "{scenario}: the suite reported a failure (client exit status or timeout)"
                ));
            }
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

    /// Every failure or warning that is not known, and every known failure of these
    /// scenarios that no longer fails (it is stale: remove it); prints the known ones seen.
    pub fn problems(&self, what: &str, scenarios: &[String], known: &[Known]) -> Vec<String> {
        let mut problems = self.problems.clone();
        for (scenario, check, reason) in known {
            if !scenarios.iter().any(|s| s == scenario) {
                continue;
            }
            let seen = self
                .known_seen
                .iter()
                .any(|(s, c)| s == scenario && c == check);
            if seen {
                eprintln!("known disagreement, {what} {scenario}: {check}: {reason}");
            } else {
                problems.push(format!(
                    "{scenario}: {check} passes now; remove it from the known failures ({reason})"
                ));
            }
        }
        problems
    }

    /// Fails the test on what [`Tally::problems`] finds.
    pub fn assert_clean(&self, what: &str, scenarios: &[String], known: &[Known]) {
        let problems = self.problems(what, scenarios, known);
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
/// failure or warning and a clean exit; skipped checks are counted apart from the others.
#[test]
fn a_scenario_passes_only_on_checks_that_succeeded() {
    let check = |id: &str, status: &str| serde_json::json!({ "id": id, "status": status });
    let mut tally = Tally::default();
    tally.add(
        "ok",
        Some(vec![
            check("a", "SUCCESS"),
            check("b", "SKIPPED"),
            check("c", "INFO"),
        ]),
        true,
        &[],
    );
    tally.add("empty", Some(vec![]), true, &[]);
    // Skipped whole by the suite: reported apart, neither passed nor a problem.
    tally.add("only-skipped", Some(vec![check("a", "SKIPPED")]), true, &[]);
    tally.add("only-info", Some(vec![check("a", "INFO")]), true, &[]);
    tally.add("crashed", Some(vec![check("a", "SUCCESS")]), false, &[]);
    tally.add(
        "failed",
        Some(vec![check("a", "SUCCESS"), check("b", "FAILURE")]),
        true,
        &[],
    );
    tally.add("warned", Some(vec![check("a", "WARNING")]), true, &[]);
    tally.add("missing", None, true, &[]);
    assert_eq!(tally.total, 8);
    assert_eq!(tally.passed, 1);
    assert_eq!((tally.checks, tally.skipped), (5, 2));
    assert_eq!((tally.failures, tally.warnings), (1, 1));
    let problems = tally.problems("test", &tally.scenario_names(), &[]);
    assert_eq!(tally.skipped_scenarios, ["only-skipped: "]);
    assert!(
        !problems.iter().any(|p| p.starts_with("only-skipped:")),
        "{problems:?}"
    );
    for scenario in [
        "empty",
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
        "conformance-suite v set server: 1/8 scenarios (1 skipped by the suite), 5 checks, 2 skipped, 1 failures, 1 warnings"
    );
}
