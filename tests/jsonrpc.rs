//! The revision-independent envelope pieces: error codes, ids, versions.

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
