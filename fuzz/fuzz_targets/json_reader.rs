//! The crate's JSON reader alone (no serde_json behind it) against serde_json, on any text:
//! where either reads a value, both read it, to the same value. As a `serde_json::Value`, as
//! raw text (owned and borrowed), skipped (`IgnoredAny`), and as typed messages and results of
//! two revisions (the crate's generated readers, `JsonObject` and its bounds checks).
//!
//! Input: the text. Not UTF-8: both `from_slice` functions must agree (the crate's hands such
//! text to serde_json).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::{json, v2025_06_18, v2026_07_28};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::value::RawValue;
use serde_json::Value;
use std::fmt::Debug;

/// Both read `text` as a `T` alike, or both refuse it; and `json::from_str` gives serde_json's
/// answer, error text included.
fn alike<T: DeserializeOwned + Debug>(text: &str) {
    let theirs = serde_json::from_str::<T>(text);
    let ours = json::from_str_strict::<T>(text).ok();
    match (&theirs, &ours) {
        (Ok(theirs), Some(ours)) => assert_eq!(format!("{ours:?}"), format!("{theirs:?}")),
        (Err(_), None) => {}
        (Ok(theirs), None) => panic!("only serde_json reads it: {theirs:?}"),
        (Err(e), Some(ours)) => panic!("only the crate reads it ({e}): {ours:?}"),
    }
    match (json::from_str::<T>(text), theirs) {
        (Ok(ours), Ok(theirs)) => assert_eq!(format!("{ours:?}"), format!("{theirs:?}")),
        (Err(ours), Err(theirs)) => assert_eq!(ours.to_string(), theirs.to_string()),
        (ours, theirs) => panic!("json::from_str {ours:?}, serde_json {theirs:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        let ours = json::from_slice::<IgnoredAny>(data).map_err(|e| e.to_string());
        let theirs = serde_json::from_slice::<IgnoredAny>(data).map_err(|e| e.to_string());
        assert_eq!(ours.map(drop), theirs.map(drop));
        return;
    };
    alike::<Value>(text);
    alike::<Box<RawValue>>(text);
    assert_eq!(
        json::from_str_strict::<&RawValue>(text)
            .ok()
            .map(RawValue::get),
        serde_json::from_str::<&RawValue>(text)
            .ok()
            .map(RawValue::get)
    );
    alike::<IgnoredAny>(text);
    alike::<v2025_06_18::JsonRpcMessage>(text);
    alike::<v2025_06_18::ReadResourceResult>(text);
    alike::<v2025_06_18::ListToolsResult>(text);
    alike::<v2025_06_18::ListResourcesResult>(text);
    alike::<v2025_06_18::CallToolRequest>(text);
    alike::<v2026_07_28::ReadResourceResult>(text);
    alike::<v2026_07_28::CallToolResult>(text);
});
