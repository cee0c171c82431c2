//! The session validator over arbitrary lines: no panic, consistent counts, and a line that
//! the crate's own dispatch parses (as the client's or the server's message) is reported valid
//! by a fresh validator, bare and wrapped in a `{"dir": ..., "msg": ...}` record.
//!
//! Input: the session, split at `\n` into lines. Every execution checks it against every
//! revision, so each revision sees every input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::validate::{validate_session, LineStatus, SessionValidator};
use mcp_spec_types::ProtocolVersion;
use mcp_spec_types::{draft, v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};

/// Which side's dispatch accepts `line`, if either.
fn dispatch_accepts(revision: usize, line: &str) -> Option<&'static str> {
    macro_rules! both {
        ($module:ident) => {
            if $module::ClientMessage::parse(line).is_ok() {
                Some("c2s")
            } else if $module::ServerMessage::parse(line).is_ok() {
                Some("s2c")
            } else {
                None
            }
        };
    }
    match revision {
        0 => both!(v2024_11_05),
        1 => both!(v2025_03_26),
        2 => both!(v2025_06_18),
        3 => both!(v2025_11_25),
        4 => both!(v2026_07_28),
        _ => both!(draft),
    }
}

fn assert_valid(version: &ProtocolVersion, line: &str, what: &str) {
    let mut fresh = SessionValidator::new(version.clone()).expect("supported revision");
    let report = fresh.check_line(line);
    assert!(
        matches!(report.status, LineStatus::Valid { .. }),
        "{version}: {what} that the dispatch accepts is reported {:?}\nline: {line}",
        report.status
    );
}

/// Checks `session` line by line against one revision.
fn check_revision(revision: usize, session: &[u8]) {
    let version = ProtocolVersion::KNOWN[revision].clone();
    let mut validator = SessionValidator::new(version.clone()).expect("supported revision");
    let mut lines = 0;
    for line in session.split(|b| *b == b'\n') {
        let report = validator.check_bytes(line);
        let text = std::str::from_utf8(line).ok();
        let blank = text.is_some_and(|t| t.strip_suffix('\r').unwrap_or(t).trim().is_empty());
        if blank {
            // JSON Lines has no blank lines: each is reported, with its number.
            assert!(
                matches!(&report.status, LineStatus::Invalid(i) if i.label == "(blank line)"),
                "a blank line was not reported"
            );
        }
        lines += 1;
        if let LineStatus::Invalid(invalid) = &report.status {
            let _ = invalid.to_string();
        }
        for warning in &report.warnings {
            let _ = warning.to_string();
        }
        let Some(text) = text else { continue };
        let text = text.strip_suffix('\r').unwrap_or(text);
        if let Some(dir) = dispatch_accepts(revision, text) {
            assert_valid(&version, text, "a bare line");
            let record = format!(r#"{{"dir":"{dir}","msg":{text}}}"#);
            assert_valid(&version, &record, "a record");
        }
    }
    let summary = validator.summary();
    assert_eq!(summary.checked, lines);
    assert_eq!(summary.checked, summary.valid + summary.invalid);
    let (finished, warnings) = validator.finish();
    assert_eq!(finished, summary);
    for warning in &warnings {
        let _ = warning.to_string();
    }
}

fuzz_target!(|session: &[u8]| {
    for revision in 0..mcp_spec_types_fuzz::REVISIONS.len() {
        check_revision(revision, session);
    }
    // The whole session, the revision detected from its content.
    if let Ok(report) = validate_session(session, None) {
        assert_eq!(report.summary.invalid, report.invalid.len());
        assert_eq!(
            report.summary.checked,
            report.summary.valid + report.summary.invalid
        );
    }
});
