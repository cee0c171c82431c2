use super::*;
use serde_json::json;

fn meta_params(extra: Value) -> Value {
    let mut params = json!({ "_meta": { PROTOCOL_VERSION_META_KEY: "2026-07-28" } });
    if let (Value::Object(params), Value::Object(extra)) = (&mut params, extra) {
        params.extend(extra);
    }
    params
}

fn headers_of(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn name_source_follows_the_method() {
    let params = json!({ "name": "n", "uri": "file:///u", "taskId": "t" });
    assert_eq!(mcp_name("tools/call", Some(&params)), Some("n"));
    assert_eq!(mcp_name("prompts/get", Some(&params)), Some("n"));
    assert_eq!(mcp_name("resources/read", Some(&params)), Some("file:///u"));
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        assert_eq!(mcp_name(method, Some(&params)), Some("t"));
    }
    assert_eq!(mcp_name("tools/list", Some(&params)), None);
    assert_eq!(mcp_name("resources/templates/list", Some(&params)), None);
    assert_eq!(mcp_name("tools/call", None), None);
}

#[test]
fn request_headers_are_the_standard_set() {
    let params = meta_params(json!({ "uri": "file:///a b" }));
    let sent = request_headers("2026-07-28", "resources/read", Some(&params));
    assert_eq!(
        sent,
        headers_of(&[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "resources/read"),
            ("Mcp-Name", "file:///a b"),
        ])
    );
    let list = request_headers("2026-07-28", "tools/list", Some(&meta_params(json!({}))));
    assert!(!list.iter().any(|(k, _)| k == MCP_NAME));
    // A name outside the safe set travels encoded, and the check decodes it back.
    let params = meta_params(json!({ "name": "météo" }));
    let sent = request_headers("2026-07-28", "tools/call", Some(&params));
    assert_eq!(lookup(&sent)(MCP_NAME), Some("=?base64?bcOpdMOpbw==?="));
    assert_eq!(check("tools/call", Some(&params), lookup(&sent)), Ok(()));
}

#[test]
fn check_accepts_any_name_case_and_whitespace_around_values() {
    let params = meta_params(json!({ "name": "my-hyphenated-tool" }));
    let received = [
        ("mcp-protocol-version", "2026-07-28"),
        ("MCP-METHOD", "  tools/call\t"),
        ("mCp-NaMe", " my-hyphenated-tool "),
    ];
    assert_eq!(
        check("tools/call", Some(&params), lookup(&received)),
        Ok(())
    );
}

#[test]
fn check_rejects_each_disagreement() {
    let params = meta_params(json!({ "name": "greet" }));
    let good = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "greet"),
    ];
    let with = |name: &str, value: Option<&str>| -> Result<(), HeaderMismatch> {
        let mut pairs: Vec<(&str, &str)> =
            good.iter().copied().filter(|(k, _)| *k != name).collect();
        if let Some(value) = value {
            pairs.push((name, value));
        }
        check("tools/call", Some(&params), lookup(&pairs))
    };
    assert_eq!(with("Mcp-Name", Some("greet")), Ok(()));

    let error = with("Mcp-Method", Some("TOOLS/CALL")).unwrap_err();
    assert_eq!(error.header(), MCP_METHOD);
    assert_eq!(
        error.mismatch(),
        &Mismatch::Differs {
            expected: "tools/call".into(),
            found: "TOOLS/CALL".into()
        }
    );
    assert!(matches!(
        with("Mcp-Method", None).unwrap_err().mismatch(),
        Mismatch::Missing { .. }
    ));
    let error = with("Mcp-Name", Some("wrong_tool_name")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Header mismatch: Mcp-Name header value 'wrong_tool_name' does not match body value 'greet'"
    );
    let rpc = error.to_rpc_error();
    assert_eq!(rpc.code.code(), -32020);
    assert_eq!(rpc.message, error.to_string());
    assert_eq!(with("Mcp-Name", None).unwrap_err().header(), MCP_NAME);
    let error = with("MCP-Protocol-Version", Some("2025-11-25")).unwrap_err();
    assert_eq!(error.header(), MCP_PROTOCOL_VERSION);
    assert_eq!(
        with("MCP-Protocol-Version", None).unwrap_err().header(),
        MCP_PROTOCOL_VERSION
    );
    // A bad base64 Mcp-Name is malformed, not silently taken literally.
    assert!(matches!(
        with("Mcp-Name", Some("=?base64?Z3JlZXQ?="))
            .unwrap_err()
            .mismatch(),
        Mismatch::Malformed { .. }
    ));
    assert_eq!(with("Mcp-Name", Some("=?base64?Z3JlZXQ=?=")), Ok(()));
}

#[test]
fn check_wants_no_name_where_the_body_has_none() {
    let params = meta_params(json!({}));
    let received = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/list"),
        ("Mcp-Name", "anything"),
    ];
    let error = check("tools/list", Some(&params), lookup(&received)).unwrap_err();
    assert_eq!(
        error.mismatch(),
        &Mismatch::Unexpected {
            found: "anything".into()
        }
    );
}

#[test]
fn check_leaves_a_body_without_version_to_the_caller() {
    // No protocol version in `_meta`: an invalid-params problem, not a header one.
    let params = json!({ "_meta": {} });
    let received = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/list"),
    ];
    assert_eq!(
        check("tools/list", Some(&params), lookup(&received)),
        Ok(())
    );
    let received = [("Mcp-Method", "tools/list")];
    assert_eq!(check("tools/list", None, lookup(&received)), Ok(()));
}

#[test]
fn encoding_follows_the_spec_table() {
    assert_eq!(encode_value("us-west1"), "us-west1");
    assert_eq!(encode_value("us west 1"), "us west 1");
    assert_eq!(encode_value(""), "");
    assert_eq!(encode_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
    assert_eq!(encode_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
    assert_eq!(encode_value(" us-west1"), "=?base64?IHVzLXdlc3Qx?=");
    assert_eq!(encode_value("us-west1 "), "=?base64?dXMtd2VzdDEg?=");
    assert_eq!(encode_value("\tindented"), "=?base64?CWluZGVudGVk?=");
    assert_eq!(
        encode_value("=?base64?literal?="),
        "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
    );
    // Too short for prefix and suffix both: a plain value.
    assert_eq!(encode_value("=?base64?="), "=?base64?=");
    for value in [
        "Hello, 世界",
        "line1\r\nline2",
        " x",
        "=?base64?x?=",
        "a\tb",
    ] {
        assert_eq!(decode_value(&encode_value(value)).unwrap(), value);
    }
}

#[test]
fn decoding_is_strict() {
    assert_eq!(decode_value("=?base64?SGVsbG8=?=").unwrap(), "Hello");
    assert!(matches!(
        decode_value("=?base64?SGVsbG8?="),
        Err(ValueError::Base64(_))
    ));
    assert!(matches!(
        decode_value("=?base64?SGVs!!!bG8=?="),
        Err(ValueError::Base64(_))
    ));
    assert_eq!(decode_value("=?base64?/w==?="), Err(ValueError::NotUtf8));
    assert_eq!(
        decode_value("a\u{1}b"),
        Err(ValueError::InvalidCharacter {
            offset: 1,
            character: '\u{1}'
        })
    );
    assert!(decode_value("é").is_err());
    // Without the whole sentinel the value is literal.
    assert_eq!(
        decode_value("=?base64?SGVsbG8=").unwrap(),
        "=?base64?SGVsbG8="
    );
    assert_eq!(decode_value("SGVsbG8=?=").unwrap(), "SGVsbG8=?=");
}

fn custom_tool() -> ToolHeaders {
    ToolHeaders::from_input_schema(&json!({
        "type": "object",
        "properties": {
            "region": { "type": "string", "x-mcp-header": "Region" },
            "priority": { "type": "integer", "x-mcp-header": "Priority" },
            "verbose": { "type": "boolean", "x-mcp-header": "Verbose" },
            "method_val": { "type": "string", "x-mcp-header": "Method" },
            "float_val": { "type": "number" },
            "query": { "type": "string" },
            "target": { "type": "object", "properties": {
                "zone": { "type": "string", "x-mcp-header": "Zone" }
            } }
        }
    }))
    .unwrap()
}

#[test]
fn custom_headers_mirror_annotated_arguments_only() {
    let tool = custom_tool();
    assert_eq!(tool.params().len(), 5);
    let zone = tool.params().iter().find(|p| p.name == "Zone").unwrap();
    assert_eq!(zone.path, ["target", "zone"]);
    let arguments = json!({
        "region": "us-west1", "priority": 42, "verbose": false, "method_val": "test-method",
        "float_val": 2.5, "query": "SELECT * FROM users", "target": { "zone": "b" }
    });
    let sent = tool.headers(Some(&arguments)).unwrap();
    assert_eq!(
        sent,
        headers_of(&[
            ("Mcp-Param-Method", "test-method"),
            ("Mcp-Param-Priority", "42"),
            ("Mcp-Param-Region", "us-west1"),
            ("Mcp-Param-Zone", "b"),
            ("Mcp-Param-Verbose", "false"),
        ])
    );
    assert_eq!(tool.check(Some(&arguments), lookup(&sent)), Ok(()));

    let sparse = json!({ "region": "us-east1", "verbose": null });
    let sent = tool.headers(Some(&sparse)).unwrap();
    assert_eq!(sent, headers_of(&[("Mcp-Param-Region", "us-east1")]));
    assert_eq!(tool.check(Some(&sparse), lookup(&sent)), Ok(()));
}

#[test]
fn custom_headers_refuse_values_a_header_cannot_carry() {
    let tool = custom_tool();
    for arguments in [
        json!({ "priority": 1.5 }),
        json!({ "priority": 9007199254740992i64 }),
        json!({ "priority": "42" }),
        json!({ "verbose": "yes" }),
        json!({ "region": 7 }),
    ] {
        assert!(tool.headers(Some(&arguments)).is_err(), "{arguments}");
    }
    assert_eq!(
        tool.headers(Some(&json!({ "priority": -9007199254740991i64 })))
            .unwrap(),
        headers_of(&[("Mcp-Param-Priority", "-9007199254740991")])
    );
    assert_eq!(
        tool.headers(Some(&json!({ "priority": 42.0 }))).unwrap(),
        headers_of(&[("Mcp-Param-Priority", "42")])
    );
}

#[test]
fn custom_header_check_compares_decoded_and_numeric() {
    let tool = custom_tool();
    let arguments = json!({ "region": "Hello", "priority": 42 });
    let ok = |pairs: &[(&str, &str)]| tool.check(Some(&arguments), lookup(pairs));
    assert_eq!(
        ok(&[
            ("Mcp-Param-Region", "=?base64?SGVsbG8=?="),
            ("Mcp-Param-Priority", "42.0")
        ]),
        Ok(())
    );
    let error = ok(&[("Mcp-Param-Priority", "42")]).unwrap_err();
    assert_eq!(error.header(), "Mcp-Param-Region");
    assert!(matches!(error.mismatch(), Mismatch::Missing { .. }));
    let error = ok(&[
        ("Mcp-Param-Region", "=?base64?SGVsbG8?="),
        ("Mcp-Param-Priority", "42"),
    ])
    .unwrap_err();
    assert!(matches!(error.mismatch(), Mismatch::Malformed { .. }));
    let error = ok(&[("Mcp-Param-Region", "Hello"), ("Mcp-Param-Priority", "43")]).unwrap_err();
    assert_eq!(error.header(), "Mcp-Param-Priority");
    let error = ok(&[
        ("Mcp-Param-Region", "Hello"),
        ("Mcp-Param-Priority", "42"),
        ("Mcp-Param-Verbose", "true"),
    ])
    .unwrap_err();
    assert!(matches!(error.mismatch(), Mismatch::Unexpected { .. }));
    // A header the tool does not annotate is not the server's business.
    assert_eq!(
        ok(&[
            ("Mcp-Param-Region", "Hello"),
            ("Mcp-Param-Priority", "42"),
            ("Mcp-Param-Other", "x"),
        ]),
        Ok(())
    );
}

#[test]
fn invalid_annotations_name_their_constraint() {
    let reason = |property: Value| {
        ToolHeaders::from_input_schema(
            &json!({ "type": "object", "properties": { "p": property } }),
        )
        .unwrap_err()
        .reason
    };
    assert_eq!(
        reason(json!({ "type": "string", "x-mcp-header": "" })),
        InvalidReason::Empty
    );
    assert_eq!(
        reason(json!({ "type": "string", "x-mcp-header": 1 })),
        InvalidReason::NotAString
    );
    for (name, bad) in [
        ("My Region", ' '),
        ("Region:Primary", ':'),
        ("Région", 'é'),
        ("Region\t1", '\t'),
    ] {
        assert_eq!(
            reason(json!({ "type": "string", "x-mcp-header": name })),
            InvalidReason::InvalidCharacter(bad)
        );
    }
    for ty in [
        json!("object"),
        json!("array"),
        json!("null"),
        json!("number"),
        json!(["string", "integer"]),
        json!(["null"]),
        json!([]),
    ] {
        assert_eq!(
            reason(json!({ "type": ty, "x-mcp-header": "P" })),
            InvalidReason::NotPrimitive(ty.clone())
        );
    }
    let nullable = ToolHeaders::from_input_schema(&json!({ "type": "object", "properties": {
        "p": { "type": ["null", "integer"], "x-mcp-header": "P" } } }))
    .unwrap();
    assert_eq!(nullable.params()[0].param_type, ParamType::Integer);
    assert_eq!(nullable.headers(Some(&json!({ "p": null }))), Ok(vec![]));
    assert_eq!(
        reason(json!({ "x-mcp-header": "P" })),
        InvalidReason::NotPrimitive(Value::Null)
    );

    let duplicate = |a: &str, b: &str| {
        ToolHeaders::from_input_schema(&json!({ "type": "object", "properties": {
            "field1": { "type": "string", "x-mcp-header": a },
            "field2": { "type": "string", "x-mcp-header": b } } }))
    };
    assert_eq!(
        duplicate("Region", "Region").unwrap_err().reason,
        InvalidReason::Duplicate("Region".into())
    );
    let error = duplicate("MyField", "myfield").unwrap_err();
    assert_eq!(error.pointer, "/properties/field2");
    assert_eq!(error.reason, InvalidReason::Duplicate("MyField".into()));
}

#[test]
fn annotations_off_the_properties_chain_are_invalid() {
    let schemas = [
        json!({ "type": "object", "x-mcp-header": "Root" }),
        json!({ "type": "object", "properties": { "list": { "type": "array",
            "items": { "type": "string", "x-mcp-header": "Item" } } } }),
        json!({ "type": "object", "properties": { "choice": {
            "oneOf": [ { "type": "string", "x-mcp-header": "Choice" } ] } } }),
        json!({ "type": "object", "$defs": { "r": { "type": "string", "x-mcp-header": "R" } },
            "properties": { "r": { "$ref": "#/$defs/r" } } }),
        json!({ "type": "object", "if": { "properties": {
            "a": { "type": "string", "x-mcp-header": "A" } } } }),
    ];
    let pointers = [
        "",
        "/properties/list/items",
        "/properties/choice/oneOf/0",
        "/$defs/r",
        "/if/properties/a",
    ];
    for (schema, pointer) in schemas.iter().zip(pointers) {
        let error = ToolHeaders::from_input_schema(schema).unwrap_err();
        assert_eq!(
            error.reason,
            InvalidReason::NotStaticallyReachable,
            "{schema}"
        );
        assert_eq!(error.pointer, pointer);
    }
    // Values that merely look like annotations (a default, an example) are data.
    let tool = ToolHeaders::from_input_schema(&json!({ "type": "object", "properties": {
        "o": { "type": "object", "default": { "x-mcp-header": "NotOne" } } } }))
    .unwrap();
    assert!(tool.is_empty());
}
