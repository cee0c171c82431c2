//! The revision-independent envelope pieces: error codes, ids, versions, the choice of a
//! version in the stateless revisions, and the HTTP headers that mirror the envelope.

use mcp_spec_types::{ErrorCode, ProtocolVersion, RequestId, RpcError};
use serde_json::{json, Value};

/// Every error code a schema fixes with `const` is a named `ErrorCode` with that value, so a
/// schema bump that adds a code fails here until the enum learns it.
#[test]
fn every_schema_error_code_is_named() {
    let root = env!("CARGO_MANIFEST_DIR");
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{root}/schema/revisions.json")).unwrap(),
    )
    .unwrap();
    let mut found = Vec::new();
    for row in manifest["revisions"].as_array().unwrap() {
        let path = format!("{root}/schema/{}", row["file"].as_str().unwrap());
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        collect_code_consts(&schema, &mut found);
    }
    assert!(
        found.len() >= 9,
        "expected the 2025-11-25 and 2026-07-28 codes, found {found:?}"
    );
    for code in found {
        let named = ErrorCode::from(code);
        assert!(
            !matches!(named, ErrorCode::Other(_)),
            "the schema fixes error code {code}, which ErrorCode does not name"
        );
        assert_eq!(named.code(), code);
    }
}

fn collect_code_consts(value: &Value, out: &mut Vec<i64>) {
    match value {
        Value::Object(object) => {
            if let Some(code) = object
                .get("properties")
                .and_then(|p| p.get("code"))
                .and_then(|c| c.get("const"))
                .and_then(Value::as_i64)
            {
                out.push(code);
            }
            object.values().for_each(|v| collect_code_consts(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_code_consts(v, out)),
        _ => {}
    }
}

#[test]
fn error_codes_round_trip_and_normalize() {
    for named in ErrorCode::NAMED {
        assert_eq!(ErrorCode::from(named.code()), *named);
        let json = serde_json::to_value(named).unwrap();
        assert_eq!(json, json!(named.code()));
        assert_eq!(serde_json::from_value::<ErrorCode>(json).unwrap(), *named);
        assert!(named.default_message().is_some());
    }
    // The JSON-RPC and MCP codes the seed library names.
    let expected = [
        (ErrorCode::ParseError, -32700),
        (ErrorCode::InvalidRequest, -32600),
        (ErrorCode::MethodNotFound, -32601),
        (ErrorCode::InvalidParams, -32602),
        (ErrorCode::InternalError, -32603),
        (ErrorCode::ResourceNotFound, -32002),
        (ErrorCode::AuthenticationRequired, -32001),
        (ErrorCode::UrlElicitationRequired, -32042),
    ];
    for (code, value) in expected {
        assert_eq!(code.code(), value);
    }
    assert_eq!(ErrorCode::from(-31999), ErrorCode::Other(-31999));
    assert_eq!(ErrorCode::Other(-31999).default_message(), None);
}

#[test]
fn resource_not_found_is_exactly_the_spec_example() {
    // From server/resources, "Error Handling" (every revision).
    let spec = json!({"code": -32002, "message": "Resource not found", "data": {"uri": "file:///nonexistent.txt"}});
    let built =
        serde_json::to_value(RpcError::resource_not_found("file:///nonexistent.txt")).unwrap();
    assert_eq!(built, spec);
    let read: RpcError = serde_json::from_value(spec.clone()).unwrap();
    assert_eq!(read.code, ErrorCode::ResourceNotFound);
    assert_eq!(serde_json::to_value(read).unwrap(), spec);
}

#[test]
fn error_objects_keep_unknown_members_and_reject_missing_ones() {
    let with_extra = json!({"code": -1, "message": "m", "x": [1, 2]});
    let read: RpcError = serde_json::from_value(with_extra.clone()).unwrap();
    assert_eq!(serde_json::to_value(read).unwrap(), with_extra);
    let missing = serde_json::from_value::<RpcError>(json!({"code": -1})).unwrap_err();
    assert!(
        missing.to_string().contains("missing field `message`"),
        "{missing}"
    );
}

#[test]
fn request_ids_keep_their_form() {
    for text in [r#"7"#, r#""7""#, r#"-3"#, r#""""#] {
        let id: RequestId = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&id).unwrap(), text);
    }
    assert_eq!(
        serde_json::from_str::<RequestId>("7").unwrap(),
        RequestId::Integer(7)
    );
    assert_eq!(
        serde_json::from_str::<RequestId>(r#""7""#).unwrap(),
        RequestId::String("7".into())
    );
    for bad in [
        "1.5",
        "null",
        "true",
        "[1]",
        "{}",
        "18446744073709551616",
        "9223372036854775808",
    ] {
        assert!(
            serde_json::from_str::<RequestId>(bad).is_err(),
            "{bad} accepted as an id"
        );
    }
}

#[test]
fn protocol_versions_parse_and_negotiate() {
    for known in ProtocolVersion::KNOWN {
        assert_eq!(ProtocolVersion::from(known.as_str()), *known);
        assert_eq!(
            serde_json::to_value(known).unwrap(),
            Value::String(known.as_str().into())
        );
    }
    assert_eq!(ProtocolVersion::LATEST.as_str(), "2026-07-28");
    let unknown = ProtocolVersion::from("1999-01-01");
    assert_eq!(unknown, ProtocolVersion::Unknown("1999-01-01".into()));
    assert!(!unknown.is_supported());
    // `initialize` exists up to 2025-11-25 (2026-07-28's schema has none): a supported
    // revision with it is echoed; anything else gets the newest released one with it.
    // Which revisions have it, as each bundled schema says (an `InitializeRequest` definition).
    let has_initialize = |version: &ProtocolVersion| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schema")
            .join(version.as_str())
            .join("schema.json");
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .contains("\"InitializeRequest\"")
    };
    let newest_stateful = ProtocolVersion::SUPPORTED_RELEASED
        .iter()
        .find(|v| has_initialize(v));
    for supported in ProtocolVersion::SUPPORTED {
        let expected = if has_initialize(supported) {
            Some(supported)
        } else {
            newest_stateful
        };
        assert_eq!(
            ProtocolVersion::negotiate(supported.as_str()).as_ref(),
            expected,
            "{supported}"
        );
    }
    assert_eq!(
        ProtocolVersion::negotiate("1999-01-01").as_ref(),
        newest_stateful
    );
    #[cfg(feature = "v2025_11_25")]
    assert_eq!(
        ProtocolVersion::negotiate("1999-01-01"),
        Some(ProtocolVersion::V2025_11_25)
    );
    // A build with no revision that has `initialize` cannot answer one.
    if newest_stateful.is_none() {
        assert_eq!(ProtocolVersion::negotiate("2026-07-28"), None);
    }
}

#[cfg(all(feature = "v2024_11_05", feature = "v2025_06_18"))]
#[test]
fn supported_versions_follow_the_features() {
    assert!(ProtocolVersion::from("2024-11-05").is_supported());
    assert!(ProtocolVersion::from("2025-06-18").is_supported());
    assert_eq!(
        ProtocolVersion::negotiate("2024-11-05"),
        Some(ProtocolVersion::from("2024-11-05"))
    );
}

/// What `negotiation` reads from the generated tables: which revisions are stateless, what a
/// server refuses and lists, what a client chooses.
mod negotiation {
    use mcp_spec_types::negotiation::{
        check_request_version, choose, is_stateless, stateless_supported,
        stateless_supported_strings,
    };
    use mcp_spec_types::ProtocolVersion;

    #[test]
    fn stateful_revisions_are_not_stateless() {
        for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
            assert!(!is_stateless(&ProtocolVersion::from(version)), "{version}");
        }
        assert!(is_stateless(&ProtocolVersion::V2026_07_28));
        assert!(!is_stateless(&ProtocolVersion::from("v999.0.0")));
    }

    #[test]
    fn supported_list_is_stateless_and_supported() {
        let list = stateless_supported();
        assert!(list.iter().all(|v| v.is_supported() && is_stateless(v)));
        // Never the draft, whatever features the build unified.
        assert!(!list.iter().any(|v| v.as_str() == "draft"), "{list:?}");
        assert!(check_request_version("draft").is_err());
        #[cfg(feature = "v2026_07_28")]
        assert!(list.contains(&ProtocolVersion::V2026_07_28));
    }

    #[test]
    fn unknown_and_stateful_requests_are_refused_with_the_list() {
        let refusal = check_request_version("v999.0.0").unwrap_err();
        assert_eq!(refusal.requested, "v999.0.0");
        assert_eq!(refusal.supported, stateless_supported_strings());
        let error = refusal.to_rpc_error();
        assert_eq!(error.code.code(), -32022);
        let data = error.data.unwrap();
        assert_eq!(data["requested"], "v999.0.0");
        assert_eq!(
            data["supported"].as_array().map(Vec::len),
            Some(refusal.supported.len())
        );
        // A stateful revision is not served per request, even when the build has it.
        assert!(check_request_version("2025-11-25").is_err());
    }

    #[cfg(feature = "v2026_07_28")]
    #[test]
    fn the_supported_stateless_version_is_accepted() {
        assert_eq!(
            check_request_version("2026-07-28"),
            Ok(ProtocolVersion::V2026_07_28)
        );
    }

    #[test]
    fn choice_is_the_newest_shared_version() {
        assert_eq!(choose::<&str>(&[]), None);
        assert_eq!(choose(&["1999-01-01", "x"]), None);
        // Released revisions first: the draft only when nothing released is shared.
        let newest = ProtocolVersion::SUPPORTED_RELEASED
            .first()
            .or(ProtocolVersion::SUPPORTED.first())
            .cloned();
        let mut offered: Vec<&str> = ProtocolVersion::SUPPORTED
            .iter()
            .rev()
            .map(|v| v.as_str())
            .collect();
        offered.push("2999-01-01");
        assert_eq!(choose(&offered), newest);
    }

    #[cfg(all(feature = "unstable-draft", feature = "v2026_07_28"))]
    #[test]
    fn the_draft_is_chosen_only_when_nothing_released_is_shared() {
        let draft = ProtocolVersion::SUPPORTED
            .iter()
            .find(|v| !ProtocolVersion::SUPPORTED_RELEASED.contains(v))
            .expect("the draft is enabled");
        assert_eq!(
            choose(&[draft.as_str(), "2026-07-28"]),
            Some(ProtocolVersion::V2026_07_28)
        );
        assert_eq!(choose(&[draft.as_str()]), Some(draft.clone()));
    }
}

/// The headers a 2026-07-28 client mirrors from the body, and the server's comparison.
mod http_headers {
    use mcp_spec_types::http_headers::{
        check, decode_value, encode_value, lookup, mcp_name, request_headers, HeaderMismatch,
        InvalidReason, Mismatch, ParamType, ToolHeaders, ValueError, MCP_METHOD, MCP_NAME,
        MCP_PROTOCOL_VERSION,
    };
    use serde_json::{json, Value};

    /// The `_meta` key of the request's version, as the transport page names it.
    const PROTOCOL_VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

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
}
