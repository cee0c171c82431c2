//! The session validator (`mcp_spec_types::validate`) and its command (`src/bin/mcp-validate.rs`).

#![cfg(feature = "validate")]
// The helpers and imports below serve the per-revision modules; with only some revisions
// enabled, some of them are unused.
#![cfg_attr(not(feature = "all-revisions"), allow(dead_code, unused_imports))]

use crate::support;

use mcp_spec_types::validate::{
    detect_revision, validate_session, DetectionSource, LineReport, LineStatus, Report,
    SessionValidator, Side, ValidateError,
};
use mcp_spec_types::{MessageErrorKind, ProtocolVersion};
use serde_json::{json, Value};

fn c2s(msg: Value) -> String {
    json!({ "dir": "c2s", "msg": msg }).to_string()
}

fn s2c(msg: Value) -> String {
    json!({ "dir": "s2c", "msg": msg }).to_string()
}

fn bare(msg: Value) -> String {
    msg.to_string()
}

fn session(lines: &[String]) -> String {
    lines.join("\n") + "\n"
}

fn validate(lines: &[String], revision: &str) -> Report {
    validate_session(session(lines), Some(ProtocolVersion::from(revision)))
        .expect("a supported revision")
}

fn invalid_lines(report: &Report) -> Vec<String> {
    report.invalid.iter().map(ToString::to_string).collect()
}

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

#[allow(dead_code)] // Used by tests of revisions the build may leave out.
fn notification(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

fn response(id: Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn initialize(id: i64, version: &str) -> Value {
    request(
        id,
        "initialize",
        json!({
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": { "name": "test", "version": "1" }
        }),
    )
}

fn initialized(id: i64, version: &str) -> Value {
    response(
        json!(id),
        json!({
            "protocolVersion": version,
            "capabilities": { "resources": { "subscribe": true } },
            "serverInfo": { "name": "test", "version": "1" }
        }),
    )
}

#[allow(dead_code)] // Used by tests of revisions the build may leave out.
fn text_contents(uri: &str) -> Value {
    json!({ "contents": [{ "uri": uri, "mimeType": "text/plain", "text": "hello" }] })
}

#[test]
fn the_summary_line_reads_as_specified() {
    let report = validate_session(
        "",
        Some(
            ProtocolVersion::SUPPORTED
                .first()
                .cloned()
                .expect("a revision"),
        ),
    )
    .unwrap();
    assert_eq!(
        report.summary.to_string(),
        "checked 0 messages: 0 valid, 0 invalid"
    );
    assert_eq!(report.exit_code(), 0);
}

#[test]
fn an_unsupported_revision_is_refused() {
    let err = validate_session("", Some(ProtocolVersion::from("1999-01-01"))).unwrap_err();
    assert_eq!(
        err,
        ValidateError::UnsupportedRevision(ProtocolVersion::from("1999-01-01"))
    );
    assert!(err.to_string().contains("1999-01-01"), "{err}");
    assert!(SessionValidator::new(ProtocolVersion::from("nope")).is_err());
}

#[test]
fn detection_prefers_the_initialize_result() {
    let lines = [
        c2s(initialize(0, "2025-11-25")),
        s2c(initialized(0, "2025-06-18")),
    ];
    let detection = detect_revision(session(&lines));
    assert_eq!(detection.version.as_str(), "2025-06-18");
    assert_eq!(detection.source, DetectionSource::InitializeResult);

    // The first negotiated version stands: a later handshake does not move it.
    let lines = [
        c2s(initialize(0, "2025-11-25")),
        s2c(initialized(0, "2025-06-18")),
        c2s(initialize(1, "2025-03-26")),
        s2c(initialized(1, "2025-03-26")),
        "not json".to_owned(),
    ];
    let detection = detect_revision(session(&lines));
    assert_eq!(detection.version.as_str(), "2025-06-18");
    assert_eq!(detection.source, DetectionSource::InitializeResult);

    // Without the result, the request's version; bare messages are read too.
    let detection = detect_revision(bare(initialize(0, "2025-03-26")));
    assert_eq!(detection.version.as_str(), "2025-03-26");
    assert_eq!(detection.source, DetectionSource::InitializeRequest);
}

#[test]
fn detection_reads_meta_then_discover_then_falls_back() {
    let meta = json!({ "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    }});
    let detection = detect_revision(c2s(request(1, "resources/list", meta.clone())));
    assert_eq!(detection.version.as_str(), "2026-07-28");
    assert_eq!(detection.source, DetectionSource::RequestMeta);

    // A discover result alone: the newest listed version this build supports.
    let known: Vec<&str> = ProtocolVersion::KNOWN
        .iter()
        .map(ProtocolVersion::as_str)
        .collect();
    let lines = [
        bare(json!({ "jsonrpc": "2.0", "id": "d", "method": "server/discover" })),
        bare(response(json!("d"), json!({ "supportedVersions": known }))),
    ];
    let detection = detect_revision(session(&lines));
    assert_eq!(detection.source, DetectionSource::Discover);
    assert_eq!(&detection.version, &ProtocolVersion::SUPPORTED[0]);

    // Nothing to go by: the latest released revision this build supports.
    let detection = detect_revision("not json\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n");
    assert_eq!(detection.source, DetectionSource::Fallback);
    assert!(detection.version.is_supported());
    if ProtocolVersion::LATEST.is_supported() {
        assert_eq!(detection.version, ProtocolVersion::LATEST);
    }
}

/// Hostile lines, each with the verdict it must get: valid, or invalid with its kind. The
/// verdicts come from the JSON-RPC and MCP texts (and, where the crate differs from the schema
/// on purpose, from `tests/conformance/disagreements.rs`), not from running the validator.
#[test]
fn hostile_lines_get_their_known_verdicts() {
    use MessageErrorKind::{BatchNotAllowed, Envelope, Json, Params, WrongKind};
    let nested = "[".repeat(10_000) + &"]".repeat(10_000);
    let deep_msg = format!("{{\"dir\":\"c2s\",\"msg\":{nested}}}");
    let long_id = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{{}}}}",
        "9".repeat(400)
    );
    // A top-level array is a batch: refused as such where the revision has none, read as one
    // (and refused for what it holds) where it has them.
    let batch = |with_batches: MessageErrorKind| -> [Option<MessageErrorKind>; 2] {
        [Some(BatchNotAllowed), Some(with_batches)]
    };
    // (line, verdict without batches, verdict with batches); `None` is valid.
    let lines: Vec<(&[u8], [Option<MessageErrorKind>; 2])> = vec![
        // Not JSON: a JSON Lines file has no blank lines.
        (b"", [Some(Json); 2]),
        (b"   ", [Some(Json); 2]),
        (b"\r", [Some(Json); 2]),
        // JSON, but no JSON-RPC message.
        (b"null", [Some(Envelope); 2]),
        // JSON-RPC 2.0 section 6: an empty array is an invalid request.
        (b"[]", batch(Envelope)),
        (b"[1,2]", batch(Envelope)),
        (b"{}", [Some(Envelope); 2]),
        (b"{\"msg\":null}", [Some(Envelope); 2]),
        // A record's `dir` is "c2s" or "s2c".
        (b"{\"dir\":5,\"msg\":{}}", [Some(Envelope); 2]),
        // No `msg`: a bare object, without `jsonrpc`.
        (b"{\"dir\":\"c2s\"}", [Some(Envelope); 2]),
        (b"{\"jsonrpc\":\"2.0\"}", [Some(Envelope); 2]),
        // JSON-RPC 2.0 section 5 answers what it could not read with `"id": null`.
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":1,\"message\":\"x\"}}",
            [None; 2],
        ),
        // An id is a string or an integer.
        (b"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", [Some(Envelope); 2]),
        // Not UTF-8.
        (b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}", [Some(Json); 2]),
        (b"\xff\xfe", [Some(Json); 2]),
        // A notification's method sent as a request.
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"notifications/cancelled\",\"params\":{}}",
            [Some(WrongKind); 2],
        ),
        // `requestId` is a RequestId, not an object.
        (
            b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":{}}}",
            [Some(Params); 2],
        ),
        // Deep nesting is JSON (the schema bounds no depth): a batch, holding a batch.
        (nested.as_bytes(), batch(Envelope)),
        (deep_msg.as_bytes(), batch(Envelope)),
        // An id past i64: refused on purpose (disagreements.rs).
        (long_id.as_bytes(), [Some(Envelope); 2]),
        // Cut short.
        (b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}", [Some(Json); 2]),
    ];
    let has_batches = |version: &ProtocolVersion| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schema")
            .join(version.as_str())
            .join("schema.json");
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .contains("\"JSONRPCBatchRequest\"")
    };
    let verdict = |report: &LineReport| match &report.status {
        LineStatus::Valid { .. } => None,
        LineStatus::Invalid(invalid) => Some(invalid.error.kind()),
    };
    for version in ProtocolVersion::SUPPORTED {
        let batches = usize::from(has_batches(version));
        let mut validator = SessionValidator::new(version.clone()).unwrap();
        for (number, (line, expected)) in lines.iter().enumerate() {
            let report = validator.check_bytes(line);
            assert_eq!(report.line, number + 1, "{version}");
            assert_eq!(
                verdict(&report),
                expected[batches],
                "{version}, line {}: {:?}",
                number + 1,
                report.status
            );
        }
        let (summary, _) = validator.finish();
        let invalid = lines.iter().filter(|(_, e)| e[batches].is_some()).count();
        assert_eq!(
            (summary.checked, summary.invalid),
            (lines.len(), invalid),
            "{version}"
        );
    }
    // The whole session at once: the same verdicts, under the revision it falls back to.
    let whole: Vec<u8> = lines
        .iter()
        .map(|(line, _)| *line)
        .collect::<Vec<_>>()
        .join(&b'\n');
    let report = validate_session(&whole, None).unwrap();
    let batches = usize::from(has_batches(&report.revision));
    let invalid: Vec<(usize, Option<MessageErrorKind>)> = report
        .invalid
        .iter()
        .map(|i| (i.line, Some(i.error.kind())))
        .collect();
    let expected: Vec<(usize, Option<MessageErrorKind>)> = lines
        .iter()
        .enumerate()
        .filter(|(_, (_, e))| e[batches].is_some())
        .map(|(i, (_, e))| (i + 1, e[batches]))
        .collect();
    assert_eq!(invalid, expected, "{}", report.revision);
}

#[test]
fn sides_read_and_write_their_dir() {
    assert_eq!(Side::from_dir("c2s"), Some(Side::Client));
    assert_eq!(Side::from_dir("s2c"), Some(Side::Server));
    assert_eq!(Side::from_dir("C2S"), None);
    assert_eq!(Side::Client.as_dir(), "c2s");
    assert_eq!(Side::Server.peer(), Side::Client);
}

// The validator's guess at a line's framing, compiled from its file (the crate keeps it
// private): a line the guess gets wrong is read again the precise way, with the same outcome,
// so only these tests see a wrong guess.
#[path = "../src/validate/shape.rs"]
mod shape;

mod framing {
    use super::shape::{guess, leading_method};
    use super::Side;

    #[test]
    fn a_record_is_split_around_its_message() {
        let msg = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        for (line, side) in [
            (
                format!(r#"{{"dir":"s2c","msg":{msg}}}"#),
                Some(Side::Server),
            ),
            (
                format!(" {{ \"dir\" : \"c2s\" ,\t\"msg\" :\n{msg} }} "),
                Some(Side::Client),
            ),
            (
                format!(r#"{{"msg":{msg},"dir":"c2s"}}"#),
                Some(Side::Client),
            ),
            (
                format!(r#"{{"msg": {msg} , "dir" : "s2c" }}"#),
                Some(Side::Server),
            ),
            (format!(r#"{{"msg":{msg}}}"#), None),
        ] {
            assert_eq!(guess(&line), Some((side, msg)), "{line}");
        }
    }

    #[test]
    fn a_bare_message_is_the_line_itself() {
        for line in [
            r#"{"jsonrpc":"2.0","method":"ping","id":1}"#,
            r#" {"method":"ping"}"#,
            r#"[{"jsonrpc":"2.0","method":"ping","id":1}]"#,
        ] {
            assert_eq!(guess(line), Some((None, line)));
        }
    }

    #[test]
    fn other_framings_are_not_guessed() {
        for line in [
            r#"{"ts":1,"dir":"c2s","msg":{}}"#,
            r#"{"d\u0069r":"c2s","msg":{}}"#,
            r#"{"dir":"x2y","msg":{}}"#,
            "7",
            "\u{a0}{\"msg\":{}}",
            "",
        ] {
            assert_eq!(guess(line), None, "{line}");
        }
    }

    #[test]
    fn the_leading_method_is_found_after_jsonrpc_and_id() {
        for (text, method) in [
            (r#"{"method":"roots/list","id":1}"#, Some("roots/list")),
            (
                r#"{ "jsonrpc" : "2.0" , "id" : -7 , "method" : "roots/list" }"#,
                Some("roots/list"),
            ),
            (r#"{"id":"a","jsonrpc":"2.0","method":"x"}"#, Some("x")),
            (r#"{"jsonrpc":"2.0","params":{},"method":"x"}"#, None),
            (r#"{"jsonrpc":"1.0","method":"x"}"#, None),
            (r#"{"method":"r\u006fots/list"}"#, None),
            (r#"{"id":1.5,"method":"x"}"#, None),
        ] {
            assert_eq!(leading_method(text), method, "{text}");
        }
    }
}

/// The members revision detection reads (the detection tests above name them) are the
/// schema's, in every bundled schema: a stateful revision names its version in `initialize`, a
/// stateless one lists its versions in `server/discover`'s result; every revision is one of
/// the two.
#[test]
fn the_members_detection_reads_are_the_schemas() {
    for revision in ProtocolVersion::KNOWN {
        let path = format!(
            "{}/schema/{revision}/schema.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        // Older schemas keep their definitions under `definitions`, newer under `$defs`.
        let definitions = schema.get("$defs").unwrap_or(&schema["definitions"]);
        assert!(definitions.is_object(), "{path} has definitions");
        if let Some(result) = definitions.get("InitializeResult") {
            assert!(result["properties"].get("protocolVersion").is_some());
            let params = &definitions["InitializeRequest"]["properties"]["params"];
            let params = match params.get("$ref").and_then(Value::as_str) {
                Some(name) => &definitions[name.rsplit('/').next().unwrap_or_default()],
                None => params,
            };
            assert!(
                params["properties"].get("protocolVersion").is_some(),
                "{revision}"
            );
        } else {
            let result = &definitions["DiscoverResult"]["properties"];
            assert!(result.get("supportedVersions").is_some(), "{revision}");
        }
    }
}

#[cfg(feature = "v2025_06_18")]
mod v2025_06_18 {
    use super::*;
    use mcp_spec_types::validate::{LineStatus, WarningKind};

    const REV: &str = "2025-06-18";

    fn opening() -> Vec<String> {
        vec![
            c2s(initialize(0, REV)),
            s2c(initialized(0, REV)),
            c2s(notification("notifications/initialized", json!({}))),
        ]
    }

    /// A line that does not read as its framing looks is read again in full: a record whose
    /// `dir` comes twice takes the last one, and text that is not JSON gets the JSON reader's
    /// error at the end of the line, not at the end of the message it looked like.
    #[test]
    fn a_line_that_does_not_read_as_it_looks_gets_its_precise_error() {
        let mut v = SessionValidator::new(ProtocolVersion::from(REV)).unwrap();
        let line = r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"result":{}},"dir":"s2c"}"#;
        let report = v.check_line(line);
        assert!(
            matches!(
                report.status,
                LineStatus::Valid {
                    sender: Some(Side::Server),
                    ..
                }
            ),
            "{report:?}"
        );
        let line = r#"{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"result":{}}"#;
        let LineStatus::Invalid(invalid) = v.check_line(line).status else {
            panic!("not JSON: {line}");
        };
        assert_eq!(invalid.error.kind(), MessageErrorKind::Json);
        assert_eq!(
            invalid.error.message(),
            format!(
                "EOF while parsing an object at line 1 column {}",
                line.len()
            )
        );
    }

    #[test]
    fn a_valid_session_with_directions() {
        let mut lines = opening();
        lines.extend([
            c2s(request(1, "resources/list", json!({}))),
            s2c(response(
                json!(1),
                json!({ "resources": [{ "uri": "file:///a.txt", "name": "a.txt" }], "nextCursor": "x" }),
            )),
            c2s(request(2, "resources/read", json!({ "uri": "file:///a.txt" }))),
            s2c(response(json!(2), text_contents("file:///a.txt"))),
            c2s(request(3, "resources/subscribe", json!({ "uri": "file:///a.txt" }))),
            s2c(response(json!(3), json!({}))),
            s2c(notification(
                "notifications/resources/updated",
                json!({ "uri": "file:///a.txt" }),
            )),
            c2s(request(4, "resources/read", json!({ "uri": "file:///b.txt" }))),
            s2c(json!({ "jsonrpc": "2.0", "id": 4, "error": {
                "code": -32002, "message": "Resource not found", "data": { "uri": "file:///b.txt" }
            }})),
        ]);
        let report = validate_session(session(&lines), None).unwrap();
        assert_eq!(report.revision.as_str(), REV);
        assert_eq!(invalid_lines(&report), Vec::<String>::new());
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
        assert_eq!(
            report.summary.to_string(),
            "checked 12 messages: 12 valid, 0 invalid"
        );
        assert_eq!(report.exit_code(), 0);
    }

    #[test]
    fn directions_are_inferred_without_dir() {
        let lines = [
            bare(initialize(0, REV)),
            bare(initialized(0, REV)),
            // The server asks the client to sample: a method only the server sends.
            bare(request(
                0,
                "sampling/createMessage",
                json!({ "messages": [], "maxTokens": 10 }),
            )),
            bare(response(
                json!(0),
                json!({ "role": "assistant", "content": { "type": "text", "text": "hi" }, "model": "m" }),
            )),
            // Both sides send ping: paired by id, whichever side.
            bare(json!({ "jsonrpc": "2.0", "id": "p", "method": "ping" })),
            bare(response(json!("p"), json!({}))),
        ];
        let mut validator = SessionValidator::new(ProtocolVersion::from(REV)).unwrap();
        let statuses: Vec<LineStatus> = lines
            .iter()
            .map(|l| validator.check_line(l).status)
            .collect();
        let labels: Vec<(String, Option<Side>)> = statuses
            .into_iter()
            .map(|s| match s {
                LineStatus::Valid { label, sender } => (label, sender),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            labels,
            vec![
                ("initialize".to_owned(), Some(Side::Client)),
                ("response to initialize".to_owned(), Some(Side::Server)),
                ("sampling/createMessage".to_owned(), Some(Side::Server)),
                (
                    "response to sampling/createMessage".to_owned(),
                    Some(Side::Client)
                ),
                // Either side may ping: the direction stays unknown.
                ("ping".to_owned(), None),
                ("response to ping".to_owned(), None),
            ]
        );
        let (summary, warnings) = validator.finish();
        assert_eq!(summary.valid, 6);
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn the_same_id_on_both_sides_pairs_by_the_result_that_fits() {
        let lines = [
            bare(request(7, "resources/read", json!({ "uri": "file:///a" }))),
            bare(request(
                7,
                "sampling/createMessage",
                json!({ "messages": [], "maxTokens": 1 }),
            )),
            // A sampling result: it answers the server's request 7, not the client's.
            bare(response(
                json!(7),
                json!({ "role": "assistant", "content": { "type": "text", "text": "" }, "model": "m" }),
            )),
            bare(response(json!(7), text_contents("file:///a"))),
        ];
        let report = validate(&lines, REV);
        assert_eq!(invalid_lines(&report), Vec::<String>::new());
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    }

    #[test]
    fn bad_params_are_reported_with_their_json_path() {
        let mut lines = opening();
        lines.push(c2s(request(1, "resources/read", json!({ "uri": 7 }))));
        let report = validate(&lines, REV);
        assert_eq!(report.invalid.len(), 1);
        let bad = &report.invalid[0];
        assert_eq!(bad.line, 4);
        assert_eq!(bad.label, "resources/read");
        assert_eq!(bad.error.kind(), MessageErrorKind::Params);
        assert_eq!(bad.error.path(), "params.uri");
        assert_eq!(
            bad.to_string(),
            "line 4: resources/read: at params.uri: invalid type: integer `7`, expected a string"
        );
        assert_eq!(
            report.summary.to_string(),
            "checked 4 messages: 3 valid, 1 invalid"
        );
        assert_eq!(report.exit_code(), 1);
    }

    #[test]
    fn a_method_sent_by_the_wrong_side() {
        let lines = [
            c2s(request(
                1,
                "sampling/createMessage",
                json!({ "messages": [], "maxTokens": 10 }),
            )),
            s2c(request(2, "resources/read", json!({ "uri": "file:///a" }))),
        ];
        let report = validate(&lines, REV);
        let kinds: Vec<MessageErrorKind> = report.invalid.iter().map(|i| i.error.kind()).collect();
        assert_eq!(
            kinds,
            vec![
                MessageErrorKind::WrongDirection,
                MessageErrorKind::WrongDirection
            ]
        );
        assert_eq!(report.invalid[0].label, "sampling/createMessage");
        assert!(
            report.invalid[0].to_string().contains("sent by the server"),
            "{}",
            report.invalid[0]
        );
    }

    #[test]
    fn a_result_that_does_not_fit_its_request() {
        let mut lines = opening();
        lines.extend([
            c2s(request(1, "resources/read", json!({ "uri": "file:///a" }))),
            // A resources/list result where a resources/read result belongs.
            s2c(response(json!(1), json!({ "resources": [] }))),
            c2s(request(2, "resources/read", json!({ "uri": "file:///a" }))),
            s2c(response(
                json!(2),
                json!({ "contents": [{ "uri": "file:///a", "text": 5 }] }),
            )),
        ]);
        let report = validate(&lines, REV);
        let invalid = invalid_lines(&report);
        assert_eq!(invalid.len(), 2, "{invalid:?}");
        assert_eq!(report.invalid[0].label, "response to resources/read");
        assert_eq!(report.invalid[0].error.kind(), MessageErrorKind::Result);
        assert!(
            invalid[0].starts_with(
                "line 5: response to resources/read: at result: missing field `contents`"
            ),
            "{}",
            invalid[0]
        );
        assert!(
            report.invalid[1]
                .error
                .path()
                .starts_with("result.contents[0]"),
            "{}",
            invalid[1]
        );
        // The paired request is answered, even by an invalid response.
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    }

    #[test]
    fn an_unpaired_response_is_a_warning_not_a_failure() {
        let mut lines = opening();
        lines.push(s2c(response(json!(99), json!({}))));
        let report = validate(&lines, REV);
        assert!(report.is_valid());
        assert_eq!(report.warnings.len(), 1);
        let warning = &report.warnings[0];
        assert_eq!(warning.kind, WarningKind::UnpairedResponse);
        assert_eq!(warning.line, 4);
        assert!(
            warning.to_string().starts_with("warning: line 4: "),
            "{warning}"
        );

        // A response from the side that sent the request answers nothing either.
        let lines = [
            c2s(request(1, "ping", json!({}))),
            c2s(response(json!(1), json!({}))),
        ];
        let report = validate(&lines, REV);
        let kinds: Vec<WarningKind> = report.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(
            kinds,
            vec![WarningKind::Unanswered, WarningKind::UnpairedResponse]
        );
    }

    #[test]
    fn an_unanswered_request_is_a_warning_at_its_line() {
        let mut lines = opening();
        lines.push(c2s(request(5, "resources/list", json!({}))));
        lines.push(c2s(request(6, "ping", json!({}))));
        lines.push(s2c(response(json!(6), json!({}))));
        let report = validate(&lines, REV);
        assert!(report.is_valid());
        assert_eq!(report.exit_code(), 0);
        assert_eq!(report.warnings.len(), 1);
        assert_eq!(report.warnings[0].kind, WarningKind::Unanswered);
        assert_eq!(report.warnings[0].line, 4);
        assert!(
            report.warnings[0].message.contains("resources/list (id 5"),
            "{}",
            report.warnings[0]
        );
    }

    #[test]
    fn a_cancelled_request_may_go_unanswered() {
        let lines = [
            c2s(request(1, "resources/list", json!({}))),
            c2s(notification(
                "notifications/cancelled",
                json!({ "requestId": 1, "reason": "no longer needed" }),
            )),
        ];
        let report = validate(&lines, REV);
        assert!(report.is_valid());
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    }

    #[test]
    fn a_line_that_is_not_json_is_an_invalid_message() {
        let mut lines = opening();
        lines.push("this is not JSON".to_owned());
        lines.push(c2s(request(1, "ping", json!({}))));
        lines.push(s2c(response(json!(1), json!({}))));
        let report = validate(&lines, REV);
        assert_eq!(report.invalid.len(), 1);
        assert_eq!(report.invalid[0].line, 4);
        assert_eq!(report.invalid[0].label, "(not JSON)");
        assert_eq!(report.invalid[0].error.kind(), MessageErrorKind::Json);
        assert_eq!(
            report.summary.to_string(),
            "checked 6 messages: 5 valid, 1 invalid"
        );
    }

    #[test]
    fn a_record_with_a_bad_dir_is_invalid() {
        let line = json!({ "dir": "up", "msg": request(1, "ping", json!({})) }).to_string();
        let report = validate(&[line], REV);
        assert_eq!(report.invalid.len(), 1);
        assert_eq!(report.invalid[0].error.path(), "dir");
        assert_eq!(report.invalid[0].label, "(record)");
    }

    /// Record members are read as a JSON object is: an escaped name is the name it spells, a
    /// repeated member counts with its last value, and `jsonrpc` beside `msg` makes the line a
    /// bare message.
    #[test]
    fn record_members_are_read_as_an_object_is() {
        // `resources/list` is the client's: sent by the server it is refused for its
        // direction, which shows that the escaped `dir` was read.
        let list = request(1, "resources/list", json!({})).to_string();
        let from_server = format!(r#"{{"d\u0069r":"s2c","m\u0073g":{list}}}"#);
        let report = validate(&[from_server], REV);
        assert_eq!(report.invalid.len(), 1, "{:?}", report.invalid);
        assert_eq!(
            report.invalid[0].error.kind(),
            MessageErrorKind::WrongDirection
        );
        let mut validator = SessionValidator::new(ProtocolVersion::from(REV)).unwrap();
        let from_client = format!(r#"{{"d\u0069r":"c2s","m\u0073g":{list}}}"#);
        let report = validator.check_line(&from_client);
        assert_eq!(
            report.status,
            LineStatus::Valid {
                label: "resources/list".to_owned(),
                sender: Some(Side::Client)
            }
        );

        let ping = request(1, "ping", json!({})).to_string();
        let repeated = format!(r#"{{"dir":"up","msg":7,"dir":"c2s","msg":{ping}}}"#);
        let report = validate(&[repeated], REV);
        assert!(report.is_valid(), "{:?}", report.invalid);

        let both = format!(r#"{{"jsonrpc":"2.0","dir":"c2s","msg":{ping}}}"#);
        let report = validate(&[both], REV);
        assert_eq!(report.invalid.len(), 1);
        assert_ne!(report.invalid[0].label, "(record)");
    }

    #[test]
    fn envelope_errors_name_the_method_or_the_request() {
        let lines = [
            c2s(json!({ "jsonrpc": "1.0", "id": 1, "method": "ping" })),
            c2s(request(2, "resources/list", json!({}))),
            s2c(
                json!({ "jsonrpc": "2.0", "id": 2, "result": {}, "error": { "code": 1, "message": "x" } }),
            ),
        ];
        let report = validate(&lines, REV);
        let labels: Vec<&str> = report.invalid.iter().map(|i| i.label.as_str()).collect();
        assert_eq!(labels, vec!["ping", "response to resources/list"]);
    }

    #[test]
    fn blank_lines_are_invalid_with_their_numbers_and_crlf_is_accepted() {
        let text = format!(
            "\n{}\r\n\n{}\r\n  \n{}",
            c2s(request(1, "ping", json!({}))),
            c2s(request(2, "resources/read", json!({ "uri": false }))),
            // The last line needs no newline.
            c2s(request(3, "ping", json!({}))),
        );
        let report = validate_session(text, Some(ProtocolVersion::from(REV))).unwrap();
        assert_eq!(report.summary.checked, 6);
        assert_eq!(report.summary.valid, 2);
        let invalid: Vec<(usize, &str)> = report
            .invalid
            .iter()
            .map(|i| (i.line, i.label.as_str()))
            .collect();
        assert_eq!(
            invalid,
            vec![
                (1, "(blank line)"),
                (3, "(blank line)"),
                (4, "resources/read"),
                (5, "(blank line)")
            ]
        );
        assert_eq!(
            report.invalid[0].to_string(),
            "line 1: (blank line): a blank line: JSON Lines has one message on every line"
        );
        // One final newline ends the last line; a second one is a blank line.
        let ping = c2s(request(1, "ping", json!({})));
        let once = validate_session(format!("{ping}\n"), Some(ProtocolVersion::from(REV))).unwrap();
        assert!(once.is_valid());
        let twice =
            validate_session(format!("{ping}\n\n"), Some(ProtocolVersion::from(REV))).unwrap();
        assert_eq!(twice.invalid[0].line, 2);
    }

    #[test]
    fn reused_ids_and_unknown_methods_are_warnings() {
        let lines = [
            c2s(request(1, "ping", json!({}))),
            c2s(request(1, "resources/list", json!({}))),
            c2s(request(2, "vendor/custom", json!({ "anything": true }))),
            s2c(response(json!(2), json!({ "free": "form" }))),
        ];
        let report = validate(&lines, REV);
        assert!(report.is_valid(), "{:?}", invalid_lines(&report));
        let kinds: Vec<WarningKind> = report.warnings.iter().map(|w| w.kind).collect();
        assert!(kinds.contains(&WarningKind::DuplicateId), "{kinds:?}");
        assert!(kinds.contains(&WarningKind::UnknownMethod), "{kinds:?}");
    }

    #[test]
    fn a_method_of_a_newer_revision() {
        // `tasks/get` arrived in 2025-11-25.
        let report = validate(
            &[c2s(request(1, "tasks/get", json!({ "taskId": "t" })))],
            REV,
        );
        assert_eq!(
            report.invalid[0].error.kind(),
            MessageErrorKind::WrongRevision
        );
        assert!(
            report.invalid[0].to_string().contains("2025-11-25"),
            "{}",
            report.invalid[0]
        );
    }
}

#[cfg(feature = "v2024_11_05")]
mod v2024_11_05 {
    use super::*;

    #[test]
    fn a_method_of_another_revision() {
        let lines = [
            c2s(initialize(0, "2024-11-05")),
            s2c(initialized(0, "2024-11-05")),
            // Elicitation arrived in 2025-06-18.
            s2c(request(
                1,
                "elicitation/create",
                json!({ "message": "?", "requestedSchema": { "type": "object", "properties": {} } }),
            )),
        ];
        let report = validate_session(session(&lines), None).unwrap();
        assert_eq!(report.revision.as_str(), "2024-11-05");
        assert_eq!(report.invalid.len(), 1);
        let bad = &report.invalid[0];
        assert_eq!(bad.error.kind(), MessageErrorKind::WrongRevision);
        assert_eq!(bad.label, "elicitation/create");
        assert!(bad.to_string().contains("2025-06-18"), "{bad}");
    }
}

#[cfg(feature = "v2025_03_26")]
mod v2025_03_26 {
    use super::*;

    #[test]
    fn batches_are_tracked_item_by_item() {
        let lines = [
            c2s(json!([
                request(1, "resources/read", json!({ "uri": "file:///a" })),
                request(2, "ping", json!({})),
                notification("notifications/initialized", json!({})),
            ])),
            s2c(json!([
                response(json!(2), json!({})),
                response(json!(1), text_contents("file:///a")),
            ])),
            c2s(json!([request(
                3,
                "resources/read",
                json!({ "uri": "file:///a" })
            )])),
            s2c(json!([response(json!(3), json!({ "nope": 1 }))])),
        ];
        let report = validate(&lines, "2025-03-26");
        assert_eq!(report.invalid.len(), 1, "{:?}", invalid_lines(&report));
        assert_eq!(report.invalid[0].line, 4);
        assert_eq!(report.invalid[0].label, "response to resources/read");
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    }
}

#[cfg(feature = "v2026_07_28")]
mod v2026_07_28 {
    use super::*;

    fn meta() -> Value {
        json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}
        })
    }

    #[test]
    fn a_stateless_session_is_detected_from_meta() {
        let lines = [
            c2s(request(1, "server/discover", json!({ "_meta": meta() }))),
            s2c(response(
                json!(1),
                json!({
                    "resultType": "complete", "cacheScope": "public", "ttlMs": 0,
                    "supportedVersions": ["2026-07-28"], "capabilities": {}
                }),
            )),
            c2s(request(
                2,
                "resources/read",
                json!({ "uri": "file:///a", "_meta": meta() }),
            )),
            s2c(response(
                json!(2),
                json!({
                    "resultType": "complete", "cacheScope": "private", "ttlMs": 0,
                    "contents": [{ "uri": "file:///a", "text": "hi" }]
                }),
            )),
        ];
        let report = validate_session(session(&lines), None).unwrap();
        assert_eq!(report.revision.as_str(), "2026-07-28");
        assert_eq!(
            report.detection.as_ref().map(|d| d.source),
            Some(DetectionSource::RequestMeta)
        );
        assert_eq!(invalid_lines(&report), Vec::<String>::new());
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    }

    #[test]
    fn a_stateless_request_without_meta_and_an_old_method() {
        let lines = [
            c2s(request(1, "resources/read", json!({ "uri": "file:///a" }))),
            c2s(initialize(2, "2025-06-18")),
        ];
        let report = validate(&lines, "2026-07-28");
        assert_eq!(report.invalid.len(), 2);
        assert_eq!(report.invalid[0].error.kind(), MessageErrorKind::Params);
        assert!(
            report.invalid[0].to_string().contains("_meta"),
            "{}",
            report.invalid[0]
        );
        assert_eq!(
            report.invalid[1].error.kind(),
            MessageErrorKind::WrongRevision
        );
    }

    #[test]
    fn the_bundled_sample_session_is_valid() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/data/sample-session.jsonl"
        );
        let text = std::fs::read(path).expect("the bundled sample session");
        let report = validate_session(&text, None).unwrap();
        assert_eq!(report.revision.as_str(), "2026-07-28");
        assert_eq!(invalid_lines(&report), Vec::<String>::new());
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
        assert!(report.summary.checked > 20, "{}", report.summary);
    }
}

/// The CLI: output format and exit codes 0, 1 and 2.
#[cfg(all(feature = "v2026_07_28", feature = "cli"))]
#[test]
fn the_cli_prints_invalid_lines_then_the_summary_and_sets_its_exit_code() {
    use std::process::Command;
    let cli = std::path::PathBuf::from(env!("CARGO_BIN_EXE_mcp-validate"));
    let dir = support::scratch_dir("validate-cli");
    let run = |args: &[&str]| {
        let output = Command::new(&cli)
            .args(args)
            .output()
            .expect("running mcp-validate");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };

    // No argument: the bundled sample.
    let (code, stdout, _) = run(&[]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.starts_with("checked "), "{stdout}");
    assert!(stdout.trim_end().ends_with(" valid, 0 invalid"), "{stdout}");

    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let bad = dir.join("bad.jsonl");
    std::fs::write(
        &bad,
        session(&[
            c2s(request(
                1,
                "resources/read",
                json!({ "uri": 3, "_meta": meta }),
            )),
            "{oops".to_owned(),
            s2c(response(json!(9), json!({}))),
        ]),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&[bad.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].starts_with("line 1: resources/read: at params.uri: "),
        "{stdout}"
    );
    assert!(lines[1].starts_with("line 2: (not JSON): "), "{stdout}");
    assert_eq!(lines[2], "checked 3 messages: 1 valid, 2 invalid");
    assert!(stderr.contains("warning: line 3: "), "{stderr}");
    assert!(stderr.contains("2026-07-28"), "{stderr}");

    let (code, _, stderr) = run(&["--revision", "2026-07-28", bad.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    let (code, _, stderr) = run(&[dir.join("missing.jsonl").to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    let (code, _, stderr) = run(&["--bogus"]);
    assert_eq!(code, Some(2), "{stderr}");
    let (code, _, stderr) = run(&["--revision", "1999-01-01", bad.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("1999-01-01"), "{stderr}");
}
