//! Hostile input: every case is answered by a typed error or a correct value (each test says
//! which), never by a panic, an abort or a stack overflow. The tests run on the default test
//! thread stack (2 MiB; `RUST_MIN_STACK` unset).
//!
//! What the crate does, compared with the JSON Schema of the specification:
//!
//! * Nesting: serde_json stops at 128 levels (`recursion limit exceeded`). A raw member
//!   (`result` of a response) is only scanned, without a limit and without recursion, so a deep
//!   `result` is accepted by `ServerMessage::parse` and rejected when typed.
//! * Numbers as an id: `RequestId` holds a string or an `i64`. JSON Schema counts every number
//!   with a zero fractional part as an integer (`1.0`, `-0`, `18446744073709551616`, `1e400`
//!   are integers to it), so the schema accepts all four as an id; the crate rejects all four:
//!   `1.0` and `-0` because serde_json reads them as floats (`-0` too, to keep its sign),
//!   `18446744073709551616` because it does not fit in 64 bits (serde_json reads it as a float),
//!   `1e400` because serde_json cannot represent it (`number out of range`). This is stricter
//!   than the schema, on purpose: an id must be echoed exactly, and a float cannot promise that.
//!   Integers from `i64::MIN` to `i64::MAX` are accepted; `9223372036854775808` is not.
//! * Duplicate member names: a member the schema declares, given twice, is an error
//!   (`duplicate field`), in the envelope, in params, in results and in unions; a member the
//!   schema does not declare (kept in `extra`, or inside a free-form object such as `_meta`)
//!   keeps the last value, as `serde_json::Value` does.
//! * `null`: rejected for members the schema does not make nullable, optional or required.
//! * Text: the input must be UTF-8 (`parse_slice`), and a lone surrogate escape (`"\ud800"`)
//!   is rejected wherever a string is read; inside a raw `result` it is kept as sent until the
//!   result is typed.
#![cfg(all(feature = "v2025_03_26", feature = "v2025_06_18"))]

use mcp_spec_types::dispatch::Message;
use mcp_spec_types::v2025_03_26 as v03;
use mcp_spec_types::v2025_06_18 as mcp;
use mcp_spec_types::{MessageError, MessageErrorKind, RequestId};
use serde_json::{json, Value};

fn client(line: &str) -> Result<mcp::ClientMessage, MessageError> {
    mcp::ClientMessage::parse(line)
}

fn server(line: &str) -> Result<mcp::ServerMessage, MessageError> {
    mcp::ServerMessage::parse(line)
}

#[track_caller]
fn fails(
    result: Result<impl std::fmt::Debug, MessageError>,
    kind: MessageErrorKind,
) -> MessageError {
    let error = result.expect_err("must be rejected");
    assert_eq!(error.kind(), kind, "{error}");
    error
}

#[track_caller]
fn says(error: &MessageError, words: &str) {
    assert!(
        error.message().contains(words),
        "expected {words:?} in: {error}"
    );
}

/// The request of a parsed client message.
fn request(
    message: mcp::ClientMessage,
) -> mcp_spec_types::dispatch::RequestEnvelope<mcp::ClientCall> {
    match message {
        Message::Request(request) => request,
        other => panic!("not a request: {other:?}"),
    }
}

fn response(message: mcp::ServerMessage) -> mcp_spec_types::dispatch::ResultResponse {
    match message {
        Message::Response(response) => response,
        other => panic!("not a response: {other:?}"),
    }
}

fn nested(depth: usize, open: &str, leaf: &str, close: &str) -> String {
    let mut text = String::with_capacity(depth * (open.len() + close.len()) + leaf.len());
    for _ in 0..depth {
        text.push_str(open);
    }
    text.push_str(leaf);
    for _ in 0..depth {
        text.push_str(close);
    }
    text
}

// ---------------------------------------------------------------------------------------------
// Nesting
// ---------------------------------------------------------------------------------------------

const DEEP: usize = 10_000;

#[test]
fn nesting_10000_deep_in_params_is_kept_in_open_objects_and_a_recursion_limit_error_elsewhere() {
    let arrays = nested(DEEP, "[", "1", "]");
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"a":{arrays}}}}}}}"#
    );
    // `arguments` is an open object (`JsonObject`): its text is skipped without recursion and
    // kept; the schema puts no bound on its depth. Reading its members meets the limit.
    let message = client(&line).unwrap();
    // Written back with the text as it came (members of `params` in the struct's order).
    assert!(message
        .to_json()
        .contains(&format!(r#""arguments":{{"a":{arrays}}}"#)));
    let mcp::ClientCall::CallTool(params) = request(message).call else {
        panic!("not tools/call")
    };
    let arguments = params.arguments.unwrap();
    assert_eq!(arguments.as_str(), format!(r#"{{"a":{arrays}}}"#));
    let error = arguments.to_map().unwrap_err();
    assert!(
        error.to_string().contains("recursion limit exceeded"),
        "{error}"
    );

    // Objects rather than arrays, and in the params of a method nobody defines (kept as data).
    let objects = nested(DEEP, r#"{"a":"#, "1", "}");
    let line = format!(r#"{{"jsonrpc":"2.0","method":"x/custom","params":{objects}}}"#);
    let error = fails(client(&line), MessageErrorKind::Params);
    says(&error, "recursion limit exceeded");

    // Shallow enough: a correct value.
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"a":{}}}}}}}"#,
        nested(100, "[", "1", "]")
    );
    let mcp::ClientCall::CallTool(params) = request(client(&line).unwrap()).call else {
        panic!("not tools/call")
    };
    let arguments = params.arguments.unwrap().to_map().unwrap();
    let mut value = &arguments["a"];
    for _ in 0..100 {
        value = &value[0];
    }
    assert_eq!(value, &json!(1));
}

#[test]
fn nesting_10000_deep_in_meta_is_kept_where_declared_and_a_recursion_limit_error_elsewhere() {
    let deep = nested(DEEP, r#"{"k":["#, "null", "]}");
    // 2025-06-18's `resources/read` params do not declare `_meta`: it is an unknown member,
    // read as a JSON value, which meets serde_json's limit.
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{"uri":"file:///a","_meta":{{"x":{deep}}}}}}}"#
    );
    let error = fails(client(&line), MessageErrorKind::Params);
    says(&error, "recursion limit exceeded");
    assert!(error.path().starts_with("params._meta"), "{error}");

    // The result declares `_meta` (an open object): kept as its text once typed, and a
    // recursion-limit error only when its members are read as values.
    let line =
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"contents":[],"_meta":{{"x":{deep}}}}}}}"#);
    let result = response(server(&line).unwrap())
        .result_for::<mcp::ReadResourceRequest>()
        .unwrap();
    let meta = result.meta.unwrap();
    assert_eq!(meta.as_str(), format!(r#"{{"x":{deep}}}"#));
    // A member is found without reading its value.
    assert!(meta.contains_key("x"));
    let error = meta.to_map().unwrap_err();
    assert!(
        error.to_string().contains("recursion limit exceeded"),
        "{error}"
    );

    // Unknown envelope members are read as JSON values: the same limit, reported as JSON.
    let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","x":{deep}}}"#);
    let error = fails(client(&line), MessageErrorKind::Json);
    says(&error, "recursion limit exceeded");
}

#[test]
fn nesting_10000_deep_in_a_tool_input_schema_is_kept_and_a_recursion_limit_error_when_read() {
    let deep = nested(
        DEEP,
        r#"{"type":"object","properties":{"p":"#,
        r#"{"type":"string"}"#,
        "}}",
    );
    let result = format!(
        r#"{{"tools":[{{"name":"t","inputSchema":{{"type":"object","properties":{{"p":{deep}}}}}}}]}}"#
    );
    let line = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
    // The envelope scans the raw result without recursion: accepted, and written back as is.
    let message = server(&line).unwrap();
    assert_eq!(message.to_json(), line);
    // A `Value` cannot hold it: converting the message to one fails, without a panic.
    let error = serde_json::to_value(&message).unwrap_err();
    assert!(
        error.to_string().contains("recursion limit exceeded"),
        "{error}"
    );
    // Typed, the property schema is an open object: kept as its text, read on demand.
    let list = response(message)
        .result_for::<mcp::ListToolsRequest>()
        .unwrap();
    let properties = list.tools[0].input_schema.properties.as_ref().unwrap();
    assert_eq!(properties["p"].as_str(), deep);
    let error = properties["p"].to_map().unwrap_err();
    assert!(
        error.to_string().contains("recursion limit exceeded"),
        "{error}"
    );

    // The same typed through `ClientCallResult`, by the request it answers.
    let raw = serde_json::value::RawValue::from_string(result).unwrap();
    let typed = mcp::ClientCallResult::parse(
        &mcp_spec_types::dispatch::PendingRequest::without_task("tools/list"),
        &raw,
    )
    .unwrap();
    assert!(matches!(typed, mcp::ClientCallResult::ListTools(_)));
}

#[test]
fn nesting_10000_deep_batches_and_error_data() {
    // A batch whose item is a deeply nested array: refused as a nested batch, without recursing.
    let deep = nested(DEEP, "[", "1", "]");
    let error = fails(v03::ClientMessage::parse(&deep), MessageErrorKind::Envelope);
    says(&error, "a batch cannot contain a batch");
    assert_eq!(error.path(), "[0]");
    // 2025-06-18 has no batches: refused before anything is read.
    fails(client(&deep), MessageErrorKind::BatchNotAllowed);
    // An error object's `data` is read as a JSON value.
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-32603,"message":"m","data":{}}}}}"#,
        nested(DEEP, "[", "0", "]")
    );
    let error = server(&line).unwrap_err();
    says(&error, "recursion limit exceeded");
    // Unterminated nesting: a JSON error, not a hang.
    fails(client(&"[".repeat(DEEP)), MessageErrorKind::BatchNotAllowed);
    fails(
        v03::ClientMessage::parse(&"[".repeat(DEEP)),
        MessageErrorKind::Json,
    );
    fails(client(&r#"{"a":"#.repeat(DEEP)), MessageErrorKind::Json);
}

// ---------------------------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------------------------

fn ping_with_id(id: &str) -> Result<mcp::ClientMessage, MessageError> {
    client(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#))
}

#[test]
fn ids_that_json_schema_counts_as_integers_but_an_i64_cannot_echo_are_rejected() {
    for (id, words) in [
        ("1e400", "number out of range"),
        ("-0", "floating point"),
        ("1.0", "floating point"),
        ("1e2", "floating point"),
        ("18446744073709551616", "floating point"),
        ("9223372036854775808", "fits in 64 signed bits"),
        ("-9223372036854775809", "floating point"),
    ] {
        let error = fails(ping_with_id(id), MessageErrorKind::Envelope);
        assert_eq!(error.path(), "id", "{id}: {error}");
        says(&error, words);
    }
    for (id, expected) in [
        ("0", RequestId::Integer(0)),
        ("9223372036854775807", RequestId::Integer(i64::MAX)),
        ("-9223372036854775808", RequestId::Integer(i64::MIN)),
        (r#""1.0""#, RequestId::String("1.0".into())),
    ] {
        assert_eq!(request(ping_with_id(id).unwrap()).id, expected, "{id}");
    }
    // The same rule for responses, and for progress tokens.
    fails(
        server(r#"{"jsonrpc":"2.0","id":1.0,"result":{}}"#),
        MessageErrorKind::Envelope,
    );
    let error = fails(
        client(
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":-0}}}"#,
        ),
        MessageErrorKind::Params,
    );
    assert_eq!(error.path(), "params._meta.progressToken");
}

#[test]
fn numbers_in_typed_and_free_members() {
    // An integer member (`size`) holds an i64: floats and out-of-range integers are rejected.
    for size in ["1.0", "-0", "18446744073709551616", "1e400"] {
        let result = format!(r#"{{"resources":[{{"uri":"u","name":"n","size":{size}}}]}}"#);
        let line = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
        let error = fails(
            response(server(&line).unwrap()).result_for::<mcp::ListResourcesRequest>(),
            MessageErrorKind::Result,
        );
        assert_eq!(error.path(), "result.resources[0].size", "{size}: {error}");
    }
    // A `number` member keeps serde_json's number: `-0` stays the float -0.0, 1 stays an
    // integer, `1e400` cannot be read.
    let line = |priority: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"resources":[{{"uri":"u","name":"n","annotations":{{"priority":{priority}}}}}]}}}}"#
        )
    };
    let list = response(server(&line("-0")).unwrap())
        .result_for::<mcp::ListResourcesRequest>()
        .unwrap();
    let priority = list.resources[0]
        .annotations
        .as_ref()
        .unwrap()
        .priority
        .clone()
        .unwrap();
    assert_eq!(priority.as_f64(), Some(-0.0));
    assert!(priority.as_f64().unwrap().is_sign_negative());
    assert_eq!(
        serde_json::to_string(&list.resources[0].annotations).unwrap(),
        r#"{"priority":-0.0}"#
    );
    let list = response(server(&line("1")).unwrap())
        .result_for::<mcp::ListResourcesRequest>()
        .unwrap();
    assert!(list.resources[0]
        .annotations
        .as_ref()
        .unwrap()
        .priority
        .as_ref()
        .unwrap()
        .is_u64());
    let error = fails(
        response(server(&line("1e400")).unwrap()).result_for::<mcp::ListResourcesRequest>(),
        MessageErrorKind::Result,
    );
    says(&error, "number out of range");
    // Undeclared members keep the number as serde_json reads it: `1.0` stays a float and is
    // written `1.0`, `-0` is written `-0.0` (the same JSON value), big integers become floats.
    let message = client(
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"u","a":1.0,"b":-0,"c":18446744073709551616,"d":18446744073709551615}}"#,
    )
    .unwrap();
    let out: Value = serde_json::from_str(&message.to_json()).unwrap();
    assert_eq!(out["params"]["a"], json!(1.0));
    assert!(out["params"]["a"].is_f64());
    assert!(out["params"]["b"].as_f64().unwrap().is_sign_negative());
    assert_eq!(out["params"]["c"], json!(18446744073709551616.0));
    assert_eq!(out["params"]["d"], json!(u64::MAX));
    // `1e400` anywhere serde_json reads a number: a JSON error in the envelope.
    let error = fails(
        client(r#"{"jsonrpc":"2.0","id":1,"method":"ping","x":1e400}"#),
        MessageErrorKind::Json,
    );
    says(&error, "number out of range");
}

// ---------------------------------------------------------------------------------------------
// Duplicate keys
// ---------------------------------------------------------------------------------------------

#[test]
fn duplicate_declared_members_are_errors() {
    for (line, kind, member) in [
        (
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            MessageErrorKind::Envelope,
            "id",
        ),
        (
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}"#,
            MessageErrorKind::Envelope,
            "jsonrpc",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","method":"ping"}"#,
            MessageErrorKind::Envelope,
            "method",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"a","uri":"b"}}"#,
            MessageErrorKind::Params,
            "uri",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{},"_meta":{}}}"#,
            MessageErrorKind::Params,
            "_meta",
        ),
    ] {
        let error = fails(client(line), kind);
        says(&error, &format!("duplicate field `{member}`"));
    }
    // In a result, and in a union (the discriminator and an arm's member).
    let typed = |result: &str| {
        let line = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
        response(server(&line).unwrap()).result_for::<mcp::CallToolRequest>()
    };
    let error = fails(
        typed(r#"{"content":[],"content":[]}"#),
        MessageErrorKind::Result,
    );
    says(&error, "duplicate field `content`");
    let error = fails(
        typed(r#"{"content":[{"type":"text","text":"a","text":"b"}]}"#),
        MessageErrorKind::Result,
    );
    says(&error, "duplicate field `text`");
    let error = fails(
        typed(r#"{"content":[{"type":"text","text":"a","type":"text"}]}"#),
        MessageErrorKind::Result,
    );
    says(&error, "duplicate field `type`");
    // Before the discriminator (held back, then replayed) as well as after it.
    let error = fails(
        typed(r#"{"content":[{"text":"a","text":"b","type":"text"}]}"#),
        MessageErrorKind::Result,
    );
    says(&error, "duplicate field `text`");
    // Error objects.
    let error = fails(
        server(r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"code":2,"message":"m"}}"#),
        MessageErrorKind::ErrorObject,
    );
    says(&error, "duplicate field `code`");
}

#[test]
fn duplicate_undeclared_members_keep_the_last_value() {
    let message = client(
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","x":1,"x":2,"params":{"uri":"a","y":1,"y":2,"_meta":{"z":1,"z":2}}}"#,
    )
    .unwrap();
    let out: Value = serde_json::from_str(&message.to_json()).unwrap();
    assert_eq!(
        out,
        json!({"jsonrpc":"2.0","id":1,"method":"resources/read","x":2,"params":{"uri":"a","y":2,"_meta":{"z":2}}})
    );
    // As `serde_json::Value` reads the same input.
    let line = r#"{"jsonrpc":"2.0","id":1,"method":"x/custom","params":{"k":1,"k":[2]}}"#;
    let out: Value = serde_json::from_str(&client(line).unwrap().to_json()).unwrap();
    assert_eq!(out, serde_json::from_str::<Value>(line).unwrap());
    assert_eq!(out["params"]["k"], json!([2]));
}

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

#[test]
fn invalid_utf8_is_a_json_error() {
    for bytes in [
        &b"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}"[..],
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"\xc0\xaf\"}}",
        // A surrogate encoded in UTF-8 (CESU-8), and a truncated sequence at the end.
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\xed\xa0\x80\"}",
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"contents\":[]},\"x\":\"\xe2\x82",
        b"\xfe\xff",
    ] {
        let error = fails(mcp::ClientMessage::parse_slice(bytes), MessageErrorKind::Json);
        says(&error, "not UTF-8");
        fails(mcp::ServerMessage::parse_slice(bytes), MessageErrorKind::Json);
        fails(v03::ClientMessage::parse_slice(bytes), MessageErrorKind::Json);
    }
    // Valid UTF-8 through the same entry point: a correct value.
    let message = mcp::ClientMessage::parse_slice(
        "{\"jsonrpc\":\"2.0\",\"id\":\"\u{e9}\u{1F600}\",\"method\":\"ping\"}".as_bytes(),
    )
    .unwrap();
    assert_eq!(
        request(message).id,
        RequestId::String("\u{e9}\u{1F600}".into())
    );
}

#[test]
fn lone_surrogate_escapes_are_rejected_where_strings_are_read() {
    let error = fails(
        client(r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"\ud800"}}"#),
        MessageErrorKind::Params,
    );
    // serde_json's words: "unexpected end of hex escape" (it wants the trailing `\uDC00`).
    says(&error, "hex escape");
    assert_eq!(error.path(), "params.uri");
    let error = fails(
        client(r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"a\udc00b"}}"#),
        MessageErrorKind::Params,
    );
    assert!(error.message().contains("surrogate"), "{error}");
    let error = fails(
        client(r#"{"jsonrpc":"2.0","id":"\ud800","method":"ping"}"#),
        MessageErrorKind::Envelope,
    );
    says(&error, "hex escape");
    // In an undeclared envelope member, read as a JSON value.
    fails(
        client(r#"{"jsonrpc":"2.0","id":1,"method":"ping","x":"\ud800"}"#),
        MessageErrorKind::Json,
    );
    // In a member name.
    fails(
        client(
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"u","\ud800":1}}"#,
        ),
        MessageErrorKind::Params,
    );
    // In a raw result: accepted and written back as sent, rejected once typed.
    let line = r#"{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"u","text":"\ud800"}]}}"#;
    let message = server(line).unwrap();
    assert_eq!(message.to_json(), line);
    let error = fails(
        response(message).result_for::<mcp::ReadResourceRequest>(),
        MessageErrorKind::Result,
    );
    says(&error, "hex escape");
    assert_eq!(error.path(), "result.contents[0].text");
    // A surrogate pair is one character: a correct value.
    let message = client(
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"\ud83d\ude00"}}"#,
    )
    .unwrap();
    let mcp::ClientCall::ReadResource(params) = request(message).call else {
        panic!("not resources/read")
    };
    assert_eq!(params.uri, "\u{1F600}");
}

// ---------------------------------------------------------------------------------------------
// Size
// ---------------------------------------------------------------------------------------------

/// A `resources/read` response carrying one text resource of `len` bytes (ASCII, with a few
/// escapes at the end: `\n`, `\"` and `\u00e9`, each one character of the text).
pub fn big_text_response(len: usize) -> (String, usize) {
    let tail = r#"\n\"\u00e9"#;
    let mut line = String::with_capacity(len + 200);
    line.push_str(r#"{"jsonrpc":"2.0","id":1,"result":{"contents":[{"uri":"file:///big.txt","mimeType":"text/plain","text":""#);
    let body = len - 4;
    line.extend(std::iter::repeat_n('a', body));
    line.push_str(tail);
    line.push_str(r#""}]}}"#);
    // The text: `body` a's, newline, quote, é (2 bytes in UTF-8).
    (line, body + 1 + 1 + 2)
}

/// A `resources/list` result with `count` resources.
pub fn big_list_result(count: usize) -> String {
    let mut text = String::with_capacity(count * 48 + 32);
    text.push_str(r#"{"resources":["#);
    for i in 0..count {
        if i > 0 {
            text.push(',');
        }
        use std::fmt::Write;
        write!(text, r#"{{"uri":"file:///r/{i}","name":"r{i}"}}"#).unwrap();
    }
    text.push_str(r#"],"nextCursor":"c"}"#);
    text
}

#[test]
fn a_100_mb_text_resource() {
    let (line, text_len) = big_text_response(100_000_000);
    let message = server(&line).unwrap();
    let result = response(message)
        .result_for::<mcp::ReadResourceRequest>()
        .unwrap();
    assert_eq!(result.contents.len(), 1);
    let mcp::ReadResourceResultContentsItem::TextResourceContents(contents) = &result.contents[0]
    else {
        panic!("not text contents")
    };
    assert_eq!(contents.text.len(), text_len);
    assert!(contents.text.ends_with("a\n\"\u{e9}"));
}

#[test]
fn a_list_of_1_000_000_resources() {
    let result = big_list_result(1_000_000);
    let raw = serde_json::value::RawValue::from_string(result).unwrap();
    let mcp::ClientCallResult::ListResources(list) = mcp::ClientCallResult::parse(
        &mcp_spec_types::dispatch::PendingRequest::without_task("resources/list"),
        &raw,
    )
    .unwrap() else {
        panic!("not resources/list")
    };
    assert_eq!(list.resources.len(), 1_000_000);
    assert_eq!(list.resources[999_999].uri, "file:///r/999999");
    assert_eq!(list.next_cursor.as_deref(), Some("c"));
}

// ---------------------------------------------------------------------------------------------
// Empty and null
// ---------------------------------------------------------------------------------------------

#[test]
fn empty_objects_and_arrays_where_members_are_required() {
    fails(client("{}"), MessageErrorKind::Envelope);
    says(
        &fails(client("{}"), MessageErrorKind::Envelope),
        "missing field `jsonrpc`",
    );
    fails(client("[]"), MessageErrorKind::BatchNotAllowed);
    says(
        &fails(v03::ClientMessage::parse("[]"), MessageErrorKind::Envelope),
        "empty batch",
    );
    fails(client(r#"{"jsonrpc":"2.0"}"#), MessageErrorKind::Envelope);
    fails(
        client(r#"{"jsonrpc":"2.0","id":1}"#),
        MessageErrorKind::Envelope,
    );
    for (params, words) in [
        ("{}", "missing field `uri`"),
        ("[]", "invalid type: sequence"),
        (r#""""#, "invalid type: string"),
    ] {
        let line =
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{params}}}"#);
        let error = fails(client(&line), MessageErrorKind::Params);
        says(&error, words);
        assert_eq!(error.method(), Some("resources/read"));
    }
    let error = fails(
        client(r#"{"jsonrpc":"2.0","id":1,"method":"resources/read"}"#),
        MessageErrorKind::Params,
    );
    says(&error, "missing field `params`");
    let error = fails(
        client(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#),
        MessageErrorKind::Params,
    );
    says(&error, "missing field");
    let error = fails(
        server(r#"{"jsonrpc":"2.0","id":1,"error":{}}"#),
        MessageErrorKind::ErrorObject,
    );
    says(&error, "missing field `code`");

    let typed = |result: &str| {
        let raw = serde_json::value::RawValue::from_string(result.to_owned()).unwrap();
        mcp::ClientCallResult::parse(
            &mcp_spec_types::dispatch::PendingRequest::without_task("resources/read"),
            &raw,
        )
    };
    says(
        &fails(typed("{}"), MessageErrorKind::Result),
        "missing field `contents`",
    );
    says(
        &fails(typed("[]"), MessageErrorKind::Result),
        "invalid type: sequence",
    );
    let error = fails(typed(r#"{"contents":[{}]}"#), MessageErrorKind::Result);
    assert_eq!(error.path(), "result.contents[0]");
    // The schema sets no minimum length for `contents`: an empty list is a correct value.
    let mcp::ClientCallResult::ReadResource(read) = typed(r#"{"contents":[]}"#).unwrap() else {
        panic!("not resources/read")
    };
    assert!(read.contents.is_empty());
    // `resources/subscribe`'s result is empty: `{}` is a correct value, `[]` is not.
    assert!(matches!(
        mcp::ClientCallResult::parse(
            &mcp_spec_types::dispatch::PendingRequest::without_task("resources/subscribe"),
            &serde_json::value::RawValue::from_string("{}".into()).unwrap()
        ),
        Ok(mcp::ClientCallResult::Subscribe(_))
    ));
    fails(
        mcp::ClientCallResult::parse(
            &mcp_spec_types::dispatch::PendingRequest::without_task("resources/subscribe"),
            &serde_json::value::RawValue::from_string("[]".into()).unwrap(),
        ),
        MessageErrorKind::Result,
    );
}

#[test]
fn null_is_rejected_for_members_the_schema_does_not_make_nullable() {
    for (line, path) in [
        // Optional members.
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"cursor":null}}"#,
            "params.cursor",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":null}}"#,
            "params._meta",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":null}}}"#,
            "params._meta.progressToken",
        ),
        // Required members.
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":null}}"#,
            "params.uri",
        ),
        // `params` itself, required and optional: JSON-RPC wants an object or array.
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":null}"#,
            "params",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#,
            "params",
        ),
    ] {
        let error = fails(client(line), MessageErrorKind::Params);
        assert_eq!(error.path(), path, "{line}: {error}");
        says(&error, "invalid type: null");
    }
    // 2025-06-18's schema gives the params of `resources/read` no `_meta` member (2025-11-25
    // does): there it is an undeclared member, so `null` (and a repeated `_meta`) is kept as
    // sent, like any undeclared member.
    let line =
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"u","_meta":null}}"#;
    let out: Value = serde_json::from_str(&client(line).unwrap().to_json()).unwrap();
    assert_eq!(out["params"], json!({"uri":"u","_meta":null}));
    // Envelope: a request id cannot be null, `jsonrpc` and `method` neither.
    says(
        &fails(
            client(r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#),
            MessageErrorKind::Envelope,
        ),
        "cannot be null",
    );
    fails(
        client(r#"{"jsonrpc":null,"id":1,"method":"ping"}"#),
        MessageErrorKind::Envelope,
    );
    fails(
        client(r#"{"jsonrpc":"2.0","id":1,"method":null}"#),
        MessageErrorKind::Envelope,
    );
    // An error response may have a null id (JSON-RPC: the request's id could not be read).
    let Message::Error(error) =
        server(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":null}}"#).unwrap()
    else {
        panic!("not an error response")
    };
    assert_eq!(error.id, None);
    // `data` has no type in JSON-RPC: null is a value, kept.
    assert_eq!(error.error.data, Some(Value::Null));
    // A null result is kept raw, and rejected once typed; a null in a typed result likewise.
    let message = server(r#"{"jsonrpc":"2.0","id":1,"result":null}"#).unwrap();
    fails(
        response(message).result_for::<mcp::ReadResourceRequest>(),
        MessageErrorKind::Result,
    );
    let message =
        server(r#"{"jsonrpc":"2.0","id":1,"result":{"resources":[],"nextCursor":null}}"#).unwrap();
    let error = fails(
        response(message).result_for::<mcp::ListResourcesRequest>(),
        MessageErrorKind::Result,
    );
    assert_eq!(error.path(), "result.nextCursor");
}

// ---------------------------------------------------------------------------------------------
// Batches
// ---------------------------------------------------------------------------------------------

fn batch(count: usize) -> String {
    let mut text = String::from("[");
    for i in 0..count {
        if i > 0 {
            text.push(',');
        }
        match i % 3 {
            0 => text.push_str(&format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#)),
            1 => text.push_str(&format!(
                r#"{{"jsonrpc":"2.0","id":"r{i}","method":"resources/read","params":{{"uri":"file:///{i}"}}}}"#
            )),
            _ => text.push_str(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
        }
    }
    text.push(']');
    text
}

#[test]
fn a_batch_of_10000_in_2025_03_26_and_refused_in_2025_06_18() {
    let line = batch(10_000);
    let message = v03::ClientMessage::parse(&line).unwrap();
    let Message::Batch(items) = &message else {
        panic!("not a batch")
    };
    assert_eq!(items.len(), 10_000);
    assert!(matches!(&items[9_999], Message::Request(r) if r.id == RequestId::Integer(9_999)));
    assert_eq!(
        serde_json::from_str::<Value>(&message.to_json()).unwrap(),
        serde_json::from_str::<Value>(&line).unwrap()
    );
    let error = fails(client(&line), MessageErrorKind::BatchNotAllowed);
    assert!(error.message().contains("2025-06-18"), "{error}");
    // One bad item fails the batch, at its index.
    let bad = line.replacen(r#""uri":"file:///9997""#, r#""uri":9997"#, 1);
    let error = fails(v03::ClientMessage::parse(&bad), MessageErrorKind::Params);
    assert_eq!(error.path(), "[9997].params.uri");
}

// ---------------------------------------------------------------------------------------------
// The session validator, fed the same lines
// ---------------------------------------------------------------------------------------------

#[cfg(feature = "validate")]
#[test]
fn the_session_validator_reports_hostile_lines_as_invalid() {
    use mcp_spec_types::validate::{validate_session, LineStatus, SessionValidator};
    use mcp_spec_types::ProtocolVersion;

    let deep = nested(DEEP, "[", "1", "]");
    let invalid = [
        format!(r#"{{"dir":"c2s","msg":{{"jsonrpc":"2.0","id":1,"method":"ping","x":{deep}}}}}"#),
        deep.clone(),
        r#"{"jsonrpc":"2.0","id":1e400,"method":"ping"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":"\ud800","method":"ping"}"#.to_owned(),
        "{}".to_owned(),
        "[]".to_owned(),
        "\u{a0}".to_owned() + "x",
    ];
    let mut validator = SessionValidator::new(ProtocolVersion::from("2025-06-18")).unwrap();
    // Deep JSON inside an open object is valid: the schema bounds no depth, and it is kept as
    // text without recursion.
    let deep_arguments = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"a":{deep}}}}}}}"#
    );
    assert!(!validator.check_line(&deep_arguments).is_invalid());
    for line in &invalid {
        let report = validator.check_line(line);
        assert!(report.is_invalid(), "{line:.80}: {:?}", report.status);
    }
    let report =
        validator.check_bytes(b"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}");
    let LineStatus::Invalid(bad) = report.status else {
        panic!("not UTF-8, yet {:?}", report.status)
    };
    assert_eq!(bad.label, "(not UTF-8)");
    // A result whose `_meta` is deep is valid once paired with its request, as deep arguments are.
    let result =
        format!(r#"{{"jsonrpc":"2.0","id":7,"result":{{"contents":[],"_meta":{{"x":{deep}}}}}}}"#);
    let request = r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"u"}}"#;
    assert!(!validator.check_line(request).is_invalid());
    let report = validator.check_line(&result);
    assert!(
        !report.is_invalid(),
        "a deep _meta, yet {:?}",
        report.status
    );
    assert_eq!(validator.summary().invalid, invalid.len() + 1);

    // The whole session at once, the revision detected (no line names one: the fallback).
    let session = invalid.join("\n");
    let report = validate_session(&session, None).unwrap();
    assert_eq!(report.summary.invalid, invalid.len());
    assert_eq!(report.summary.valid, 0);
}
