//! The types through a second serde format (CBOR): those without a `JsonObject` round-trip as
//! they are; a `JsonObject` travels as its JSON text, a string, checked when read back.
#![cfg(feature = "v2025_06_18")]

use mcp_spec_types::v2025_06_18::{ListToolsResult, ReadResourceResult};
use mcp_spec_types::{JsonObject, RequestId};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

fn through_cbor<T: Serialize + DeserializeOwned>(value: &T) -> Result<T, String> {
    let mut bytes = Vec::new();
    ciborium::into_writer(value, &mut bytes).map_err(|e| e.to_string())?;
    ciborium::from_reader(bytes.as_slice()).map_err(|e| e.to_string())
}

fn round_trips<T: Serialize + DeserializeOwned + PartialEq + Debug>(json: &str) {
    let value: T = serde_json::from_str(json).unwrap();
    let back = through_cbor(&value).unwrap_or_else(|e| panic!("{json}: {e}"));
    assert_eq!(back, value);
    assert_eq!(
        serde_json::to_string(&back).unwrap(),
        serde_json::to_string(&value).unwrap()
    );
}

#[test]
fn types_without_a_json_object_round_trip() {
    round_trips::<RequestId>("7");
    round_trips::<RequestId>(r#""abc""#);
    round_trips::<ReadResourceResult>(
        r#"{"contents":[{"uri":"file:///a.txt","mimeType":"text/plain","text":"line 1\nline 2"},{"uri":"file:///b.bin","blob":"AAEC"}]}"#,
    );
}

#[test]
fn a_json_object_travels_as_its_text() {
    // A tool's input schema is a JsonObject.
    round_trips::<ListToolsResult>(
        r#"{"tools":[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"}}}}],"nextCursor":"2"}"#,
    );
    let object = JsonObject::from_text(r#"{"k": [1, 2.5, "x"]}"#).unwrap();
    let back = through_cbor(&object).unwrap();
    assert_eq!(
        back.as_str(),
        object.as_str(),
        "the text kept byte for byte"
    );
}

#[test]
fn a_json_object_whose_text_is_not_an_object_is_a_clear_error() {
    let mut bytes = Vec::new();
    ciborium::into_writer(&"[1, 2]", &mut bytes).unwrap();
    let error = ciborium::from_reader::<JsonObject, _>(bytes.as_slice()).unwrap_err();
    assert!(error.to_string().contains("not a JSON object"), "{error}");
}
