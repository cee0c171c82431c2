//! The validator pairs a response with its request by the envelope alone: a request whose
//! params are invalid still types its answer.
#![cfg(all(feature = "validate", feature = "v2025_06_18"))]

use mcp_spec_types::validate::{LineStatus, SessionValidator, WarningKind};
use mcp_spec_types::ProtocolVersion;

/// Real traffic from an official server: an `elicitation/create` whose schema holds a newer
/// revision's multi-select (an array of enum values), which 2025-06-18 does not allow.
const ELICIT_MULTI_SELECT: &str = r#"{"dir":"s2c","msg":{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"message":"Pick colors","requestedSchema":{"type":"object","properties":{"colors":{"type":"array","items":{"type":"string","enum":["red","green","blue"]}}},"required":["colors"]}}}}"#;

#[test]
fn an_invalid_request_still_types_its_answer() {
    let mut v = SessionValidator::new(ProtocolVersion::from("2025-06-18")).unwrap();
    let request = v.check_line(ELICIT_MULTI_SELECT);
    let LineStatus::Invalid(bad) = &request.status else {
        panic!("a multi-select schema is invalid for 2025-06-18: {request:?}");
    };
    assert_eq!(bad.label, "elicitation/create");
    assert_eq!(v.pending(), 1, "the request is pending by its envelope");

    // The client's answer holds an array, where 2025-06-18 allows only scalars.
    let answer = v.check_line(
        r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"result":{"action":"accept","content":{"colors":["red","blue"]}}}}"#,
    );
    assert!(
        answer
            .warnings
            .iter()
            .all(|w| w.kind != WarningKind::UnpairedResponse),
        "the answer is paired: {:?}",
        answer.warnings
    );
    let LineStatus::Invalid(bad) = &answer.status else {
        panic!("an array content value is invalid for 2025-06-18: {answer:?}");
    };
    assert_eq!(bad.label, "response to elicitation/create");
    assert!(
        bad.error.path().starts_with("result.content"),
        "{}",
        bad.error.path()
    );
    assert_eq!(v.pending(), 0);
}

#[test]
fn a_valid_answer_to_an_invalid_request_is_valid() {
    let mut v = SessionValidator::new(ProtocolVersion::from("2025-06-18")).unwrap();
    v.check_line(ELICIT_MULTI_SELECT);
    let answer = v.check_line(
        r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":2,"result":{"action":"accept","content":{"colors":"red"}}}}"#,
    );
    match &answer.status {
        LineStatus::Valid { label, .. } => assert_eq!(label, "response to elicitation/create"),
        other => panic!("{other:?}"),
    }
    assert!(answer.warnings.is_empty(), "{:?}", answer.warnings);
}

#[test]
fn without_dir_the_sender_comes_from_the_method() {
    let mut v = SessionValidator::new(ProtocolVersion::from("2025-06-18")).unwrap();
    let bare = ELICIT_MULTI_SELECT
        .strip_prefix(r#"{"dir":"s2c","msg":"#)
        .and_then(|s| s.strip_suffix('}'))
        .unwrap();
    v.check_line(bare);
    let answer = v.check_line(
        r#"{"jsonrpc":"2.0","id":2,"result":{"action":"accept","content":{"colors":[1]}}}"#,
    );
    let LineStatus::Invalid(bad) = &answer.status else {
        panic!("{answer:?}");
    };
    assert_eq!(bad.label, "response to elicitation/create");
}

#[test]
fn only_requests_are_tracked_by_their_envelope() {
    let mut v = SessionValidator::new(ProtocolVersion::from("2025-06-18")).unwrap();
    // A notification's method with an id is invalid, and no request: nothing answers it.
    let line = v.check_line(r#"{"jsonrpc":"2.0","id":9,"method":"notifications/initialized"}"#);
    assert!(matches!(line.status, LineStatus::Invalid(_)), "{line:?}");
    assert_eq!(v.pending(), 0);
    let line =
        v.check_line(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":7}}"#);
    assert!(matches!(line.status, LineStatus::Invalid(_)), "{line:?}");
    assert_eq!(
        v.pending(),
        1,
        "tools/call, a request of 2025-06-18, is tracked"
    );
}
