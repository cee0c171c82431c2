//! The validator reads valid sessions through the crate's JSON reader alone: it never hands a
//! valid line to serde_json (`json::fallbacks_on_valid_input`, a per-thread count, stays put).
#![cfg(feature = "validate")]
// With only some revisions enabled, the helpers the missing ones would use go unused.
#![cfg_attr(not(feature = "all-revisions"), allow(dead_code, unused_imports))]

use mcp_spec_types::json::fallbacks_on_valid_input;
use mcp_spec_types::validate::{detect_revision, validate_session, DetectionSource};
use mcp_spec_types::ProtocolVersion;
use serde_json::Value;

/// The bundled sample session.
const SAMPLE: &str = include_str!("../examples/data/sample-session.jsonl");

/// The recorded sessions of `tests/fixtures/traffic`, each with its revision.
const TRAFFIC: [(&str, &str); 5] = [
    ("everything-2024-11-05.jsonl", "2024-11-05"),
    ("everything-2025-03-26.jsonl", "2025-03-26"),
    ("everything-2025-06-18.jsonl", "2025-06-18"),
    ("everything-2025-11-25.jsonl", "2025-11-25"),
    ("everything-2025-11-25-id-collision.jsonl", "2025-11-25"),
];

/// The session with each record replaced by its bare message.
fn bare(session: &str) -> String {
    session
        .lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line).unwrap();
            format!("{}\n", record["msg"])
        })
        .collect()
}

/// Validates `session` (detecting its revision, then against `revision` given), asserting
/// that no valid line fell back to serde_json; returns the two reports' counts.
fn validate_without_fallback(session: &str, revision: &str) -> (usize, usize) {
    let before = fallbacks_on_valid_input();
    let detected = validate_session(session, None).expect("a supported revision");
    let given = validate_session(session, Some(ProtocolVersion::from(revision))).unwrap();
    assert_eq!(
        fallbacks_on_valid_input(),
        before,
        "a valid line of a {revision} session was read by serde_json"
    );
    assert_eq!(detected.revision.as_str(), revision);
    assert_eq!(detected.invalid, given.invalid);
    assert_eq!(detected.warnings, given.warnings);
    assert_eq!(detected.summary, given.summary);
    (given.summary.valid, given.summary.invalid)
}

#[cfg(feature = "v2026_07_28")]
#[test]
fn the_sample_session_is_read_without_falling_back() {
    let lines = SAMPLE.lines().count();
    assert_eq!(lines, 33, "the bundled sample's line count");
    for session in [SAMPLE.to_owned(), bare(SAMPLE)] {
        let before = fallbacks_on_valid_input();
        let detection = detect_revision(&session);
        assert_eq!(fallbacks_on_valid_input(), before, "detection fell back");
        assert_eq!(detection.source, DetectionSource::RequestMeta);
        assert_eq!(
            validate_without_fallback(&session, "2026-07-28"),
            (lines, 0),
            "every line of the sample is valid"
        );
    }
}

#[test]
fn recorded_traffic_is_read_without_falling_back() {
    let mut read = 0;
    for (file, revision) in TRAFFIC {
        if !ProtocolVersion::from(revision).is_supported() {
            continue;
        }
        let path = format!(
            "{}/tests/fixtures/traffic/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let session = std::fs::read_to_string(path).unwrap();
        let lines = session.lines().count();
        for session in [session.clone(), bare(&session)] {
            let (valid, invalid) = validate_without_fallback(&session, revision);
            assert_eq!(valid + invalid, lines, "{file}: every line is counted");
        }
        read += 1;
    }
    let supported = TRAFFIC
        .iter()
        .filter(|(_, revision)| ProtocolVersion::from(*revision).is_supported())
        .count();
    assert_eq!(read, supported);
}

/// The report of `session` with its revision detected, checked against the detection alone
/// and against a run with the detected revision given.
fn detected_report(session: &str) -> mcp_spec_types::validate::Report {
    let detection = detect_revision(session);
    let report = validate_session(session, None).expect("a supported revision");
    assert_eq!(report.detection.as_ref(), Some(&detection));
    assert_eq!(report.revision, detection.version);
    let given = validate_session(session, Some(detection.version)).unwrap();
    assert_eq!(report.invalid, given.invalid);
    assert_eq!(report.warnings, given.warnings);
    assert_eq!(report.summary, given.summary);
    report
}

#[cfg(all(feature = "v2026_07_28", feature = "v2025_06_18"))]
#[test]
fn an_initialize_after_a_meta_version_decides_the_revision() {
    let initialize = r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":99,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}}"#;
    let lines: Vec<&str> = SAMPLE.lines().collect();
    for at in [1, 5, lines.len()] {
        let mut with_initialize = lines.clone();
        with_initialize.insert(at, initialize);
        let report = detected_report(&with_initialize.join("\n"));
        let detection = report.detection.unwrap();
        assert_eq!(detection.source, DetectionSource::InitializeRequest);
        assert_eq!(detection.version, ProtocolVersion::V2025_06_18);
        // 2025-06-18 has no `server/discover`, the sample's first request.
        assert_eq!(report.invalid[0].line, 1);
        assert_eq!(report.invalid[0].label, "server/discover");
    }
    // Without it, the sample's `_meta` version decides.
    let report = detected_report(SAMPLE);
    assert_eq!(
        report.detection.map(|d| (d.source, d.version)),
        Some((DetectionSource::RequestMeta, ProtocolVersion::V2026_07_28))
    );
}

#[cfg(all(feature = "v2025_06_18", feature = "v2025_03_26"))]
#[test]
fn a_valid_initialize_after_a_meta_version_decides_the_revision() {
    // Requests of 2025-06-18 that carry their version in `_meta`, then an `initialize` (valid
    // in 2025-06-18) that asks for 2025-03-26: the request outranks the `_meta` version.
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}"#;
    let pong = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    let initialize = r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    let session = [ping, pong, initialize].join("\n");
    let report = detected_report(&session);
    let detection = report.detection.unwrap();
    assert_eq!(detection.source, DetectionSource::InitializeRequest);
    assert_eq!(detection.version, ProtocolVersion::V2025_03_26);
    assert_eq!(report.summary.valid, 3);
    // Without the `initialize`, the `_meta` version decides.
    let report = detected_report(&[ping, pong].join("\n"));
    let detection = report.detection.unwrap();
    assert_eq!(detection.source, DetectionSource::RequestMeta);
    assert_eq!(detection.version, ProtocolVersion::V2025_06_18);
}
