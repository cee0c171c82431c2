//! The strict read (`json::from_str_strict`), and the test mode that fails on a fallback: a
//! read of valid input that this crate's reader handed to serde_json.
#![cfg(feature = "v2025_06_18")]

use mcp_spec_types::json;
use mcp_spec_types::v2025_06_18::{
    ClientNotification, ClientRequest, ClientResult, ReadResourceResult, ServerNotification,
    ServerRequest, ServerResult,
};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::fmt::Debug;
use std::path::Path;

/// Reads `text` as a `T` through `json::from_str`, failing the test if serde_json had to read
/// valid input; `false` when serde_json itself rejects the text as a `T`.
fn reads_without_fallback<T: DeserializeOwned + PartialEq + Debug>(text: &str) -> bool {
    let Ok(expected) = serde_json::from_str::<T>(text) else {
        return false;
    };
    let before = json::fallbacks_on_valid_input();
    let ours: T = json::from_str(text).unwrap();
    assert_eq!(
        json::fallbacks_on_valid_input(),
        before,
        "{}: valid input fell back to serde_json:\n{text}",
        std::any::type_name::<T>()
    );
    assert_eq!(ours, expected);
    assert_eq!(json::from_str_strict::<T>(text).unwrap(), expected);
    true
}

#[test]
fn spec_examples_read_without_fallback() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spec/2025-06-18/docs");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        read += usize::from(reads_without_fallback::<ClientRequest>(&text));
        read += usize::from(reads_without_fallback::<ServerRequest>(&text));
        read += usize::from(reads_without_fallback::<ClientNotification>(&text));
        read += usize::from(reads_without_fallback::<ServerNotification>(&text));
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
            if let Some(result) = value.get("result") {
                let result = result.to_string();
                read += usize::from(reads_without_fallback::<ClientResult>(&result));
                read += usize::from(reads_without_fallback::<ServerResult>(&result));
            }
        }
    }
    assert!(read > 50, "only {read} typed reads: the fixtures moved?");
}

#[test]
fn the_counter_sees_a_fallback() {
    // `f32` is one of the requests the reader leaves to serde_json on purpose.
    #[derive(Deserialize, Debug, PartialEq)]
    struct Ratio {
        r: f32,
    }
    let before = json::fallbacks_on_valid_input();
    assert_eq!(
        json::from_str::<Ratio>(r#"{"r":0.5}"#).unwrap(),
        Ratio { r: 0.5 }
    );
    assert_eq!(json::fallbacks_on_valid_input(), before + 1);
    // The strict read declines instead.
    assert!(json::from_str_strict::<Ratio>(r#"{"r":0.5}"#).is_err());
    // Invalid input is no fallback on valid input.
    assert!(json::from_str::<Ratio>(r#"{"r":"x"}"#).is_err());
    assert_eq!(json::fallbacks_on_valid_input(), before + 1);
}

#[test]
fn strict_reads_fail_fast() {
    let error = json::from_str_strict::<ReadResourceResult>(r#"{"contents": 7}"#).unwrap_err();
    assert!(error.to_string().contains("stopped"), "{error}");
    assert!(json::from_str_strict::<ReadResourceResult>(r#"{"contents": []} x"#).is_err());
    assert!(json::from_slice_strict::<ReadResourceResult>(b"{\"contents\": [\xff]}").is_err());
    let read: ReadResourceResult =
        json::from_slice_strict(br#"{"contents":[{"uri":"a:b","text":"t"}]}"#).unwrap();
    assert_eq!(read.contents.len(), 1);
}
