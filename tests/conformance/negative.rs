//! Negative cases, for every revision and every message kind: payloads that break the schema are
//! refused with a typed `MessageError` whose `kind()` says what is wrong and whose `path()`
//! points at the culprit, and the schema validator agrees they are invalid.
//!
//! Base64 is the one exception the schema itself makes: `blob` and `data` are `format: byte`,
//! which validators do not assert, so a message with a non-base64 blob is valid per the schema
//! and the crate accepts it too; decoding is where it fails (`BlobResourceContents::bytes`, with
//! the offset of the culprit).

use crate::common::instances::{instance, Mode};
use crate::docs::call_schema;
use crate::oracle::{oracle, Oracle};
use crate::revision::{Kind, Revision};
use mcp_spec_types::{Base64Error, MessageErrorKind};
use serde_json::{json, Value};

/// The `_meta` every client request carries from 2026-07-28 on (RequestMetaObject).
fn request_meta(oracle: &Oracle) -> Option<Value> {
    oracle.has("RequestMetaObject").then(|| {
        json!({
            "io.modelcontextprotocol/protocolVersion": oracle.revision,
            "io.modelcontextprotocol/clientCapabilities": {}
        })
    })
}

/// Completes `value` with the members `definition` requires and `value` lacks (`resultType`,
/// `ttlMs`, `cacheScope` from 2026-07-28 on), taking the schema's minimal instance of each, so
/// that the only thing wrong with a negative case is what the case breaks.
fn complete(oracle: &Oracle, definition: &str, mut value: Value) -> Value {
    let schema = oracle.definition(definition);
    for name in schema["required"].as_array().into_iter().flatten() {
        let name = name.as_str().expect("member name");
        if value.get(name).is_none() {
            let member = &schema["properties"][name];
            value[name] = match (name, member) {
                ("resultType", _) => json!("complete"),
                _ => instance(&oracle.root, member, Mode::Minimal),
            };
        }
    }
    value
}

/// A resources/read request of the revision, valid, with `params` replaced by `params`.
fn read_request(oracle: &Oracle, mut params: Value) -> Value {
    if let Some(meta) = request_meta(oracle) {
        params["_meta"] = meta;
    }
    json!({ "jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": params })
}

/// One message the crate must refuse.
struct Case {
    name: &'static str,
    /// Whose parser reads it: the client's (`ClientMessage`) or the server's.
    client: bool,
    message: Value,
    kind: MessageErrorKind,
    path: &'static str,
    /// A word the error message must contain.
    mentions: &'static str,
    /// The schema the message breaks.
    schema: Value,
}

/// One response whose result the requester's side must refuse.
struct ResultCase {
    name: &'static str,
    method: &'static str,
    result: Value,
    path: &'static str,
    mentions: &'static str,
}

fn answer_schema(oracle: &Oracle, method: &str) -> Value {
    let mut parts = vec![oracle.message(), oracle.result_envelope()];
    parts.extend(oracle.response_schema(method));
    oracle.all_of(parts)
}

/// A response whose `result` is the request's own result definition (`ReadResourceResult`), not
/// the 2026-07-28 response union that also admits `InputRequiredResult` (which every object with
/// a `resultType` satisfies: see `disagreements.rs`).
fn own_result_schema(oracle: &Oracle, definition: &str) -> Value {
    oracle.all_of(vec![
        oracle.message(),
        oracle.result_envelope(),
        json!({ "properties": { "result": oracle.def(definition) } }),
    ])
}

fn error_schema(oracle: &Oracle) -> Value {
    oracle.all_of(vec![oracle.message(), oracle.error_envelope()])
}

fn cases<R: Revision>(oracle: &Oracle) -> (Vec<Case>, Vec<ResultCase>) {
    let read = |params: Value| read_request(oracle, params);
    let valid_read = read(json!({ "uri": "file:///a.txt" }));
    let read_schema = call_schema::<R>(oracle, "resources/read", true);
    let updated_schema = call_schema::<R>(oracle, "notifications/resources/updated", false);
    let read_answer = answer_schema(oracle, "resources/read");
    let errors = error_schema(oracle);
    let with = |base: &Value, pointer: &str, value: Value| {
        let mut v = base.clone();
        *v.pointer_mut(pointer)
            .unwrap_or_else(|| panic!("{pointer}")) = value;
        v
    };
    let without = |base: &Value, parent: &str, member: &str| {
        let mut v = base.clone();
        v.pointer_mut(parent)
            .and_then(Value::as_object_mut)
            .unwrap_or_else(|| panic!("{parent}"))
            .remove(member);
        v
    };
    let updated = json!({
        "jsonrpc": "2.0",
        "method": "notifications/resources/updated",
        "params": { "uri": "file:///a.txt" }
    });
    let response = json!({ "jsonrpc": "2.0", "id": 1, "result": complete(oracle, "ReadResourceResult", json!({
        "contents": [{ "uri": "file:///a.txt", "text": "hi" }]
    })) });
    let error = json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": -32002, "message": "Resource not found" } });

    let messages = vec![
        // Requests.
        Case {
            name: "request: wrong jsonrpc",
            client: true,
            message: with(&valid_read, "/jsonrpc", json!("1.0")),
            kind: MessageErrorKind::Envelope,
            path: "jsonrpc",
            mentions: "2.0",
            schema: read_schema.clone(),
        },
        Case {
            name: "request: no jsonrpc",
            client: true,
            message: without(&valid_read, "", "jsonrpc"),
            kind: MessageErrorKind::Envelope,
            path: "",
            mentions: "jsonrpc",
            schema: read_schema.clone(),
        },
        Case {
            name: "request: missing required member params.uri",
            client: true,
            message: without(&valid_read, "/params", "uri"),
            kind: MessageErrorKind::Params,
            path: "params",
            mentions: "uri",
            schema: read_schema.clone(),
        },
        Case {
            name: "request: wrong member type params.uri",
            client: true,
            message: with(&valid_read, "/params/uri", json!(7)),
            kind: MessageErrorKind::Params,
            path: "params.uri",
            mentions: "string",
            schema: read_schema.clone(),
        },
        Case {
            name: "request: missing required params",
            client: true,
            message: without(&valid_read, "", "params"),
            kind: MessageErrorKind::Params,
            path: "",
            mentions: "params",
            schema: read_schema.clone(),
        },
        Case {
            name: "request: id that is neither string nor integer",
            client: true,
            message: with(&valid_read, "/id", json!(1.5)),
            kind: MessageErrorKind::Envelope,
            path: "id",
            mentions: "",
            schema: read_schema.clone(),
        },
        Case {
            name: "request: null id",
            client: true,
            message: with(&valid_read, "/id", Value::Null),
            kind: MessageErrorKind::Envelope,
            path: "id",
            mentions: "null",
            schema: read_schema.clone(),
        },
        Case {
            name: "request: sent by the wrong side",
            client: false,
            message: valid_read.clone(),
            kind: MessageErrorKind::WrongDirection,
            path: "",
            mentions: "client",
            // resources/read is not among the requests a server sends (ServerRequest; from
            // 2026-07-28 InputRequest).
            schema: oracle.all_of(vec![
                oracle.message(),
                oracle
                    .side_union(false, true)
                    .unwrap_or_else(|| oracle.def("InputRequest")),
            ]),
        },
        // Notifications.
        Case {
            name: "notification: wrong jsonrpc",
            client: false,
            message: with(&updated, "/jsonrpc", json!(2)),
            kind: MessageErrorKind::Envelope,
            path: "jsonrpc",
            mentions: "",
            schema: updated_schema.clone(),
        },
        Case {
            name: "notification: wrong member type params.uri",
            client: false,
            message: with(&updated, "/params/uri", json!(true)),
            kind: MessageErrorKind::Params,
            path: "params.uri",
            mentions: "string",
            schema: updated_schema.clone(),
        },
        Case {
            name: "notification: missing required member params.uri",
            client: false,
            message: without(&updated, "/params", "uri"),
            kind: MessageErrorKind::Params,
            path: "params",
            mentions: "uri",
            schema: updated_schema.clone(),
        },
        Case {
            name: "notification: params that are not an object",
            client: false,
            message: with(&updated, "/params", json!("file:///a.txt")),
            kind: MessageErrorKind::Params,
            path: "params",
            mentions: "",
            schema: updated_schema.clone(),
        },
        // Responses (the envelope; results are below).
        Case {
            name: "response: wrong jsonrpc",
            client: false,
            message: with(&response, "/jsonrpc", json!("2")),
            kind: MessageErrorKind::Envelope,
            path: "jsonrpc",
            mentions: "2.0",
            schema: read_answer.clone(),
        },
        Case {
            name: "response: null id",
            client: false,
            message: with(&response, "/id", Value::Null),
            kind: MessageErrorKind::Envelope,
            path: "id",
            mentions: "id",
            schema: read_answer.clone(),
        },
        // Errors.
        Case {
            name: "error: wrong jsonrpc",
            client: false,
            message: with(&error, "/jsonrpc", json!("1.0")),
            kind: MessageErrorKind::Envelope,
            path: "jsonrpc",
            mentions: "2.0",
            schema: errors.clone(),
        },
        Case {
            name: "error: wrong member type error.code",
            client: false,
            message: with(&error, "/error/code", json!("-32002")),
            kind: MessageErrorKind::ErrorObject,
            path: "error.code",
            mentions: "",
            schema: errors.clone(),
        },
        Case {
            name: "error: missing required member error.message",
            client: false,
            message: without(&error, "/error", "message"),
            kind: MessageErrorKind::ErrorObject,
            path: "error",
            mentions: "message",
            schema: errors.clone(),
        },
        Case {
            name: "error: error that is not an object",
            client: false,
            message: with(&error, "/error", json!("Resource not found")),
            kind: MessageErrorKind::ErrorObject,
            path: "error",
            mentions: "",
            schema: errors.clone(),
        },
    ];

    let text = |t: &str| json!({ "type": "text", "text": t });
    let read_result = |value: Value| complete(oracle, "ReadResourceResult", value);
    let tool_result =
        |content: Value| complete(oracle, "CallToolResult", json!({ "content": [content] }));
    let results = vec![
        ResultCase {
            name: "response: missing required member result.contents[0].uri",
            method: "resources/read",
            result: read_result(json!({ "contents": [{ "text": "hi" }] })),
            path: "result.contents[0]",
            mentions: "uri",
        },
        ResultCase {
            name: "response: wrong member type result.contents[0].uri",
            method: "resources/read",
            result: read_result(json!({ "contents": [{ "uri": 7, "text": "hi" }] })),
            path: "result.contents[0].uri",
            mentions: "string",
        },
        ResultCase {
            name: "response: missing required member result.contents",
            method: "resources/read",
            result: {
                let mut r = read_result(json!({ "contents": [] }));
                r.as_object_mut().unwrap().remove("contents");
                r
            },
            path: "result",
            mentions: "contents",
        },
        ResultCase {
            name: "response: wrong const type in result.content[0]",
            method: "tools/call",
            result: tool_result(json!({ "type": "txt", "text": "hi" })),
            path: "result.content[0].type",
            mentions: "txt",
        },
        ResultCase {
            name: "response: wrong member type result.content[0].text",
            method: "tools/call",
            result: tool_result(json!({ "type": "text", "text": 5 })),
            path: "result.content[0].text",
            mentions: "string",
        },
        ResultCase {
            name: "response: wrong member type result.content[1].text",
            method: "tools/call",
            result: complete(
                oracle,
                "CallToolResult",
                json!({ "content": [text("a"), { "type": "text", "text": [] }] }),
            ),
            path: "result.content[1].text",
            mentions: "string",
        },
    ];
    (messages, results)
}

/// Every negative case of the revision; the failures.
fn check_negatives<R: Revision>() -> Vec<String> {
    let oracle = oracle(R::NAME);
    let mut failures = Vec::new();
    let (messages, results) = cases::<R>(oracle);
    for case in messages {
        let name = case.name;
        let text = case.message.to_string();
        if oracle.is_valid(&case.schema, &case.message) {
            failures.push(format!("{name}: the schema accepts {text}"));
        }
        let parsed = if case.client {
            R::parse_client(&text)
        } else {
            R::parse_server(&text)
        };
        match parsed {
            Ok(p) => failures.push(format!("{name}: the crate accepts {text} as {:?}", p.kind)),
            Err(e) => {
                if e.kind() != case.kind
                    || e.path() != case.path
                    || !e.message().contains(case.mentions)
                {
                    failures.push(format!(
                        "{name}: expected {:?} at `{}` mentioning {:?}, got {:?} at `{}`: {}",
                        case.kind,
                        case.path,
                        case.mentions,
                        e.kind(),
                        e.path(),
                        e.message()
                    ));
                }
                // The position is the path's business: serde's `at line … column …` is not left
                // in the message (it once was, for `"jsonrpc": 2`).
                if e.message().contains(" at line ") {
                    failures.push(format!(
                        "{name}: serde's position is left in the message: {}",
                        e.message()
                    ));
                }
            }
        }
    }
    for case in results {
        let name = case.name;
        if R::direction(case.method).is_none() {
            continue;
        }
        let message = json!({ "jsonrpc": "2.0", "id": 1, "result": case.result });
        let text = message.to_string();
        let definition = match case.method {
            "resources/read" => "ReadResourceResult",
            _ => "CallToolResult",
        };
        // Broken as the request's own result type, per the schema and per the crate's type.
        if oracle.is_valid(&own_result_schema(oracle, definition), &message) {
            failures.push(format!("{name}: the schema accepts {text}"));
        }
        match R::roundtrip(definition, case.result.clone()) {
            Some(Err(_)) => {}
            other => failures.push(format!("{name}: {definition} accepts it: {other:?}")),
        }
        // From 2026-07-28 the response also admits InputRequiredResult, which every object with
        // a `resultType` satisfies: the schema's response accepts the message, and what the
        // crate does then is pinned in `disagreements.rs`.
        if oracle.is_valid(&answer_schema(oracle, case.method), &message) {
            continue;
        }
        // The envelope is fine; the result is wrong for the request it answers.
        let parsed = match R::parse_server(&text) {
            Ok(p) if p.kind == Kind::Response => p,
            other => {
                failures.push(format!("{name}: the envelope should parse: {other:?}"));
                continue;
            }
        };
        let raw = parsed.result.expect("a response has a result");
        match R::client_call_result(case.method, &raw) {
            Ok(_) => failures.push(format!("{name}: ClientCallResult::parse accepts {text}")),
            Err(e) => {
                if e.kind() != MessageErrorKind::Result
                    || e.path() != case.path
                    || !e.message().contains(case.mentions)
                    || e.method() != Some(case.method)
                {
                    failures.push(format!(
                        "{name}: expected Result for {} at `{}` mentioning {:?}, got {:?} for {:?} at `{}`: {}",
                        case.method,
                        case.path,
                        case.mentions,
                        e.kind(),
                        e.method(),
                        e.path(),
                        e.message()
                    ));
                }
            }
        }
    }
    // The wrong constant `method` of a message definition, read as that definition's type.
    for (definition, method) in [
        ("ReadResourceRequest", "resources/list"),
        (
            "ResourceUpdatedNotification",
            "notifications/resources/list_changed",
        ),
    ] {
        let mut value = match definition {
            "ReadResourceRequest" => read_request(oracle, json!({ "uri": "file:///a.txt" })),
            _ => json!({ "jsonrpc": "2.0", "method": "", "params": { "uri": "file:///a.txt" } }),
        };
        value["method"] = json!(method);
        if oracle.is_valid(&oracle.def(definition), &value) {
            failures.push(format!(
                "{definition} with method {method}: the schema accepts it"
            ));
        }
        match R::roundtrip(definition, value) {
            Some(Err(e)) if e.starts_with("at method:") => {}
            other => failures.push(format!(
                "{definition} with method {method}: expected an error at `method`, got {other:?}"
            )),
        }
    }
    // The wrong constant `type` of a content block, read as its type.
    let mut text_content = json!({ "type": "image", "text": "hi" });
    if oracle.is_valid(&oracle.def("TextContent"), &text_content) {
        failures.push("TextContent with type image: the schema accepts it".into());
    }
    match R::roundtrip("TextContent", text_content.take()) {
        Some(Err(e)) if e.starts_with("at type:") => {}
        other => failures.push(format!(
            "TextContent with type image: expected an error at `type`, got {other:?}"
        )),
    }
    failures.extend(check_blob::<R>(oracle));
    excuse(R::NAME, failures)
}

/// Known crate defects met by negative cases: the revisions, the case, a symptom the case's
/// failure shows, and the defect. Each must still show (else: remove the entry).
// Empty since the error paths come from the generated readers (they reach the culprit inside
// buffered unions and at a wrong discriminator); kept for the next defect the suite finds.
const NEGATIVE_DEFECTS: &[(&[&str], &str, &str, &str)] = &[];

fn excuse(revision: &str, failures: Vec<String>) -> Vec<String> {
    let mut remaining = failures;
    for (revisions, case, symptom, defect) in NEGATIVE_DEFECTS {
        if !revisions.contains(&revision) {
            continue;
        }
        let before = remaining.len();
        remaining.retain(|f| !(f.starts_with(case) && f.contains(symptom)));
        if remaining.len() == before {
            remaining.push(format!(
                "{case}: the known defect no longer shows ({symptom:?}): remove its entry: {defect}"
            ));
        }
    }
    remaining
}

/// A non-base64 blob: valid per the schema (`format: byte` is not asserted), accepted by the
/// parser, refused by the decoder at the offset of the first bad character.
fn check_blob<R: Revision>(oracle: &Oracle) -> Vec<String> {
    let mut failures = Vec::new();
    let blob = json!({ "uri": "file:///a.bin", "blob": "aGVs bG8=" });
    if !oracle.is_valid(&oracle.def("BlobResourceContents"), &blob) {
        failures
            .push("the schema rejects a non-base64 blob: format byte is asserted after all".into());
    }
    let message = json!({ "jsonrpc": "2.0", "id": 1, "result": complete(oracle, "ReadResourceResult", json!({ "contents": [blob.clone()] })) });
    match R::parse_server(&message.to_string()).map(|p| p.result) {
        Ok(Some(raw)) => {
            if let Err(e) = R::client_call_result("resources/read", &raw) {
                failures.push(format!("a non-base64 blob is refused by the parser: {e}"));
            }
        }
        other => failures.push(format!("a response with a non-base64 blob: {other:?}")),
    }
    match R::blob_bytes(blob) {
        Ok(Err(Base64Error::InvalidCharacter { offset: 4, character: ' ' })) => {}
        other => failures.push(format!(
            "BlobResourceContents::bytes of \"aGVs bG8=\": expected InvalidCharacter at 4, got {other:?}"
        )),
    }
    match R::blob_bytes(json!({ "uri": "file:///a.bin", "blob": "aGVsbG8=" })) {
        Ok(Ok(bytes)) if bytes == b"hello" => {}
        other => failures.push(format!(
            "BlobResourceContents::bytes of \"aGVsbG8=\": {other:?}"
        )),
    }
    failures
}

macro_rules! negative_test {
    ($feature:literal, $name:ident, $ty:ident) => {
        #[cfg(feature = $feature)]
        #[test]
        fn $name() {
            let failures = check_negatives::<crate::revision::$ty>();
            assert!(
                failures.is_empty(),
                "{}: {} negative case(s) fail:\n  {}",
                <crate::revision::$ty as Revision>::NAME,
                failures.len(),
                failures.join("\n  ")
            );
        }
    };
}

negative_test!("v2024_11_05", negative_v2024_11_05, V2024_11_05);
negative_test!("v2025_03_26", negative_v2025_03_26, V2025_03_26);
negative_test!("v2025_06_18", negative_v2025_06_18, V2025_06_18);
negative_test!("v2025_11_25", negative_v2025_11_25, V2025_11_25);
negative_test!("v2026_07_28", negative_v2026_07_28, V2026_07_28);
negative_test!("unstable-draft", negative_draft, Draft);
