//! Real traffic: sessions recorded between the official TypeScript SDK client and the official
//! reference server (`tests/fixtures/traffic/`, provenance in its `PROVENANCE.md`), checked
//! line by line by the crate's validator and, independently, by the official schema.
//!
//! The schema's verdict on a line: the message fits `JSONRPCMessage`; a request or notification
//! fits its side's union (`ClientRequest` for a `c2s` request, ...); a response fits the result
//! of the request it answers, found by the direction that request travelled and its id (each
//! side numbers its own requests), and for a request that asked to run as a task
//! (`params.task`) either that result or `CreateTaskResult` (receivers without task support
//! answer normally). An error response fits the error envelope. The two verdicts must agree on
//! every line; where they may not, the reason is written in `DELIBERATE`.

use crate::judge::SchemaJudge;
use mcp_spec_types::validate::{LineStatus, SessionValidator, WarningKind};
use mcp_spec_types::ProtocolVersion;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;

/// The recordings, with the revision each speaks.
const SESSIONS: &[(&str, &str)] = &[
    ("everything-2024-11-05.jsonl", "2024-11-05"),
    ("everything-2025-03-26.jsonl", "2025-03-26"),
    ("everything-2025-06-18.jsonl", "2025-06-18"),
    ("everything-2025-11-25.jsonl", "2025-11-25"),
    ("everything-2025-11-25-id-collision.jsonl", "2025-11-25"),
];

/// Lines where the crate and the schema are allowed to disagree, with the reason. None so far:
/// every line of every recording gets the same verdict from both.
const DELIBERATE: &[(&str, usize, &str)] = &[];

fn traffic_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/traffic")
}

pub fn read_session(file: &str) -> String {
    let path = traffic_dir().join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

pub struct Verdicts {
    pub lines: usize,
    pub valid: usize,
    pub disagreements: Vec<String>,
}

/// Both verdicts on every line of `session`.
pub fn compare(file: &str, revision: &'static str, session: &str) -> Verdicts {
    let mut validator = SessionValidator::new(ProtocolVersion::from(revision)).unwrap();
    let mut judge = SchemaJudge::new(revision);
    let mut verdicts = Verdicts {
        lines: 0,
        valid: 0,
        disagreements: Vec::new(),
    };
    let session = session.strip_suffix('\n').unwrap_or(session);
    for line in session.split('\n') {
        verdicts.lines += 1;
        let number = verdicts.lines;
        let report = validator.check_line(line);
        let schema_errors = judge.judge(line);
        let crate_valid = matches!(report.status, LineStatus::Valid { .. });
        if crate_valid {
            verdicts.valid += 1;
        }
        if crate_valid == schema_errors.is_empty() {
            continue;
        }
        if DELIBERATE
            .iter()
            .any(|(f, n, _)| *f == file && *n == number)
        {
            continue;
        }
        let crate_says = match &report.status {
            LineStatus::Invalid(invalid) => invalid.to_string(),
            LineStatus::Valid { label, .. } => format!("valid ({label})"),
        };
        verdicts.disagreements.push(format!(
            "{file}:{number}: crate: {crate_says}; schema: {}",
            if schema_errors.is_empty() {
                "valid".to_owned()
            } else {
                schema_errors.join(" | ")
            }
        ));
    }
    verdicts
}

#[test]
fn the_crate_and_the_schema_agree_on_every_recorded_line() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (file, revision) in SESSIONS {
        if !ProtocolVersion::from(*revision).is_supported() {
            continue;
        }
        checked += 1;
        let verdicts = compare(file, revision, &read_session(file));
        crate::summary::show(&format!(
            "traffic {file}: {} lines, {} valid, {} invalid, {} disagreements",
            verdicts.lines,
            verdicts.valid,
            verdicts.lines - verdicts.valid,
            verdicts.disagreements.len()
        ));
        failures.extend(verdicts.disagreements);
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every recording's revision is a released one: with all of them enabled, all are read.
    if cfg!(feature = "all-revisions") {
        assert_eq!(checked, SESSIONS.len());
    }
}

/// The validator's bundled sample (`examples/data/sample-session.jsonl`, recorded from the
/// crate's own example server) is held to what the upstream recordings are: every line valid
/// by the official schema and by the page rules the schema cannot state, and the crate's
/// validator agreeing line by line. The crate alone never vouches for what it wrote.
#[test]
fn the_bundled_sample_session_is_valid_by_the_official_schema() {
    const SAMPLE_REVISION: &str = "2026-07-28";
    if !ProtocolVersion::from(SAMPLE_REVISION).is_supported() {
        return;
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/data/sample-session.jsonl");
    let session = std::fs::read_to_string(&path).unwrap();
    let mut judge = SchemaJudge::new(SAMPLE_REVISION);
    let mut objections = Vec::new();
    for (index, line) in session.lines().enumerate() {
        let mut found = judge.judge(line);
        found.extend(crate::judge::page_objections(SAMPLE_REVISION, line));
        objections.extend(
            found
                .into_iter()
                .map(|o| format!("line {}: {o}", index + 1)),
        );
    }
    assert!(objections.is_empty(), "{}", objections.join("\n"));
    let verdicts = compare("sample-session.jsonl", SAMPLE_REVISION, &session);
    assert!(
        verdicts.disagreements.is_empty(),
        "{:?}",
        verdicts.disagreements
    );
    assert_eq!(verdicts.valid, verdicts.lines);
    // The sample shows a missing resource, so the page rule above has something to judge.
    assert!(
        session.contains("\"Resource not found\""),
        "the sample has no resource-not-found answer"
    );
}

#[test]
fn the_schema_check_itself_rejects_what_it_should() {
    // The judge is the other half of every comparison: it must be able to say no.
    if !ProtocolVersion::from("2025-06-18").is_supported() {
        return;
    }
    let mut judge = SchemaJudge::new("2025-06-18");
    let request = r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a"}}}"#;
    assert!(judge.judge(request).is_empty());
    // A result that is not a ReadResourceResult.
    let answer =
        r#"{"dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{"contents":[{"text":"x"}]}}}"#;
    assert!(!judge.judge(answer).is_empty());
    // A request sent by the wrong side.
    let wrong = r#"{"dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a"}}}"#;
    assert!(!judge.judge(wrong).is_empty());
}

#[test]
fn responses_pair_with_the_request_of_their_direction() {
    // In this recording both sides number their requests from 0: the client's `tools/call` 1
    // and the server's `sampling/createMessage` 1 are in flight at once, and so are the
    // client's `tools/call` 2 and the server's `elicitation/create` 2.
    let file = "everything-2025-11-25-id-collision.jsonl";
    if !ProtocolVersion::from("2025-11-25").is_supported() {
        return;
    }
    let session = read_session(file);
    let mut validator = SessionValidator::new(ProtocolVersion::from("2025-11-25")).unwrap();
    // Written out from the recording: (sender, id) of each request and its method.
    let mut requests: HashMap<(String, String), String> = HashMap::new();
    let mut in_flight: HashMap<String, Vec<String>> = HashMap::new();
    let mut collisions = 0;
    for (index, line) in session.lines().enumerate() {
        let record: Value = serde_json::from_str(line).unwrap();
        let dir = record["dir"].as_str().unwrap().to_owned();
        let msg = &record["msg"];
        let id = msg.get("id").map(Value::to_string);
        let report = validator.check_line(line);
        assert!(
            report.warnings.is_empty(),
            "line {}: {:?}",
            index + 1,
            report.warnings
        );
        let LineStatus::Valid { label, .. } = &report.status else {
            panic!("line {}: {:?}", index + 1, report.status);
        };
        match (msg.get("method").and_then(Value::as_str), id) {
            (Some(method), Some(id)) => {
                let others = in_flight.entry(id.clone()).or_default();
                if others.iter().any(|d| *d != dir) {
                    collisions += 1;
                }
                others.push(dir.clone());
                requests.insert((dir, id), method.to_owned());
            }
            (None, Some(id)) => {
                let requester = if dir == "c2s" { "s2c" } else { "c2s" };
                let method = requests
                    .remove(&(requester.to_owned(), id.clone()))
                    .unwrap_or_else(|| panic!("line {}: no request {id}", index + 1));
                assert_eq!(
                    label,
                    &format!("response to {method}"),
                    "line {}",
                    index + 1
                );
                if let Some(dirs) = in_flight.get_mut(&id) {
                    dirs.retain(|d| d != requester);
                }
            }
            _ => {}
        }
    }
    assert!(
        collisions >= 2,
        "the recording has {collisions} id collisions"
    );
    let (summary, unanswered) = validator.finish();
    assert_eq!(summary.invalid, 0);
    assert!(
        unanswered.iter().all(|w| w.kind != WarningKind::Unanswered),
        "{unanswered:?}"
    );
}

/// The path of the first `priority` member inside `value`, as the crate writes paths.
fn priority_path(value: &Value, path: String) -> Option<String> {
    match value {
        Value::Object(members) => {
            if members.get("priority").is_some_and(Value::is_number) {
                return Some(format!("{path}.priority"));
            }
            members
                .iter()
                .find_map(|(k, v)| priority_path(v, format!("{path}.{k}")))
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| priority_path(v, format!("{path}[{i}]"))),
        _ => None,
    }
}

fn set_priority(value: &mut Value, priority: &Value) -> bool {
    match value {
        Value::Object(members) => {
            if members.get("priority").is_some_and(Value::is_number) {
                members.insert("priority".into(), priority.clone());
                return true;
            }
            members.values_mut().any(|v| set_priority(v, priority))
        }
        Value::Array(items) => items.iter_mut().any(|v| set_priority(v, priority)),
        _ => false,
    }
}

#[test]
fn a_recorded_priority_out_of_bounds_is_rejected_by_both_with_its_path() {
    // `Annotations.priority` is `minimum: 0, maximum: 1`; the server's `get-annotated-message`
    // answers carry priorities. Break the first one each way, in the recorded session.
    for (file, revision) in SESSIONS {
        if !ProtocolVersion::from(*revision).is_supported() || file.contains("collision") {
            continue;
        }
        let session = read_session(file);
        let lines: Vec<&str> = session.lines().collect();
        let (number, record) = lines
            .iter()
            .enumerate()
            .find_map(|(i, line)| {
                let record: Value = serde_json::from_str(line).ok()?;
                record.pointer("/msg/result")?;
                priority_path(&record["msg"]["result"], "result".into())?;
                Some((i + 1, record))
            })
            .unwrap_or_else(|| panic!("{file}: no result carries a priority"));
        let path = priority_path(&record["msg"]["result"], "result".into()).unwrap();
        for priority in [json!(1.5), json!(-0.1), json!(2)] {
            let mut broken = record.clone();
            assert!(set_priority(&mut broken["msg"]["result"], &priority));
            let mut mutated: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            mutated[number - 1] = broken.to_string();
            let text = mutated.join("\n");

            let mut validator = SessionValidator::new(ProtocolVersion::from(*revision)).unwrap();
            let mut judge = SchemaJudge::new(revision);
            for (index, line) in mutated.iter().enumerate() {
                let report = validator.check_line(line);
                let schema_errors = judge.judge(line);
                if index + 1 != number {
                    continue;
                }
                let LineStatus::Invalid(invalid) = report.status else {
                    panic!("{file}:{number}: priority {priority} accepted");
                };
                assert_eq!(invalid.error.path(), path, "{file}:{number}");
                assert!(
                    invalid.error.message().contains("the maximum 1")
                        || invalid.error.message().contains("the minimum 0"),
                    "{invalid}"
                );
                assert!(
                    !schema_errors.is_empty(),
                    "{file}:{number}: the schema accepts priority {priority}"
                );
            }
            // And nothing else changed: the whole session still agrees line by line.
            let verdicts = compare(file, revision, &text);
            assert!(
                verdicts.disagreements.is_empty(),
                "{:?}",
                verdicts.disagreements
            );
            assert_eq!(verdicts.lines - verdicts.valid, {
                let original = compare(file, revision, &session);
                original.lines - original.valid + 1
            });
        }
    }
}
