//! `schemars::JsonSchema` returns the official definitions, so a schema generated from the Rust
//! types is the specification's own.
#![cfg(all(feature = "schemars", feature = "v2026_07_28"))]

use mcp_spec_types::v2026_07_28 as mcp;
use serde_json::Value;

fn official(name: &str) -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schema/2026-07-28/schema.json"
    ))
    .unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    schema["$defs"][name].clone()
}

#[test]
fn a_request_schema_is_the_official_definition() {
    let schema = schemars::schema_for!(mcp::ReadResourceRequest).to_value();
    let request = official("ReadResourceRequest");
    assert_eq!(
        schema["properties"]["method"],
        request["properties"]["method"]
    );
    assert_eq!(schema["properties"]["jsonrpc"]["const"], "2.0");
    assert_eq!(schema["required"], request["required"]);
    // References point at definitions the generator collected, each the official one too.
    let params_ref = schema["properties"]["params"]["$ref"].as_str().unwrap();
    assert_eq!(params_ref, "#/$defs/ReadResourceRequestParams");
    assert_eq!(
        schema["$defs"]["ReadResourceRequestParams"]["required"],
        official("ReadResourceRequestParams")["required"]
    );
    assert!(schema["$defs"]["RequestId"].is_object());
}

#[test]
fn a_union_schema_lists_the_official_arms() {
    let schema = schemars::schema_for!(mcp::ContentBlock).to_value();
    let arms: Vec<&str> = schema["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["$ref"].as_str().unwrap())
        .collect();
    assert_eq!(
        arms,
        [
            "#/$defs/TextContent",
            "#/$defs/ImageContent",
            "#/$defs/AudioContent",
            "#/$defs/ResourceLink",
            "#/$defs/EmbeddedResource"
        ]
    );
    assert_eq!(
        schema["$defs"]["AudioContent"]["properties"]["type"]["const"],
        "audio"
    );
}
