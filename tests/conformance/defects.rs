//! Crate defects the suite found and that are fixed, each pinned on the smallest value that
//! reproduced it: the schema accepts the value, and the crate must now read it and write it back
//! unchanged (through the dispatch too, where the defect showed there), so that the defect cannot
//! come back unnoticed.
//!
//! - ElicitResult.content (2025-11-25 and later): the value schema `anyOf: [{type: array, items:
//!   string}, {type: [string, integer, boolean]}]` took its scalar arm for an object, so every
//!   string, integer or boolean form value was rejected (`matches no arm of
//!   ElicitResultContentValue`).
//! - PrimitiveSchemaDefinition (2025-06-18 and later): arm selection ignored NumberSchema's `type`
//!   enum (number | integer), so `{"type": "boolean"}` tied with NumberSchema, the earlier arm,
//!   and was rejected; every elicitation/create whose form had a boolean field was refused.
//! - PrimitiveSchemaDefinition / EnumSchema / MultiSelectEnumSchema (2025-11-25 and later):
//!   titled and untitled multi-selects differ only inside `items`; the untitled arm won and a
//!   titled multi-select was rejected (`items: missing field type`).
//!
//! A defect found and not fixed yet gets its entries in `tables.rs` (and, where generated values
//! meet it, an override in `generated.rs`) and a reproduction that fails once it is fixed.

// Which checks run depends on the enabled revisions.
#![allow(dead_code, unused_imports)]

use crate::oracle::oracle;
use crate::revision::{Kind, Revision};
use serde_json::{json, Value};

/// `value` is a valid `definition`, and the crate reads it and writes it back unchanged.
fn reads<R: Revision>(definition: &str, value: Value) {
    let oracle = oracle(R::NAME);
    let errors = oracle.errors(&oracle.def(definition), &value);
    assert!(
        errors.is_empty(),
        "{}: {value} is not a valid {definition}: {errors:?}",
        R::NAME
    );
    assert_eq!(
        R::roundtrip(definition, value.clone()),
        Some(Ok(value.clone())),
        "{}: {definition} of {value}: the fixed defect is back",
        R::NAME
    );
}

fn elicit_content<R: Revision>() {
    for value in [json!("octocat"), json!(30), json!(true), json!(["a", "b"])] {
        reads::<R>(
            "ElicitResult",
            json!({ "action": "accept", "content": { "field": value } }),
        );
    }
    reads::<R>(
        "ElicitResult",
        json!({
            "action": "accept",
            "content": { "name": "octocat", "age": 30, "subscribe": true }
        }),
    );
}

fn boolean_schema<R: Revision>() {
    reads::<R>("PrimitiveSchemaDefinition", json!({ "type": "boolean" }));
    reads::<R>(
        "PrimitiveSchemaDefinition",
        json!({ "type": "boolean", "default": false }),
    );
    reads::<R>(
        "BooleanSchema",
        json!({ "type": "boolean", "default": false }),
    );
    // Its neighbour, whose `type` enum selection now reads, is still its own arm.
    reads::<R>("PrimitiveSchemaDefinition", json!({ "type": "integer" }));
    // Through the dispatch: an elicitation/create whose form has a boolean field.
    let mut request = json!({
        "jsonrpc": "2.0", "id": 1, "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": "Subscribe?",
            "requestedSchema": { "type": "object", "properties": { "ok": { "type": "boolean" } } }
        }
    });
    if R::NAME == "2025-06-18" {
        // No modes before 2025-11-25.
        request["params"].as_object_mut().unwrap().remove("mode");
    }
    match R::parse_server(&request.to_string()) {
        Ok(parsed) => {
            assert_eq!(parsed.kind, Kind::Request, "{}", R::NAME);
            assert_eq!(
                parsed.method.as_deref(),
                Some("elicitation/create"),
                "{}",
                R::NAME
            );
            assert!(!parsed.unknown, "{}: typed as Unknown", R::NAME);
            assert_eq!(parsed.back, request, "{}: written back unchanged", R::NAME);
        }
        Err(e) => panic!(
            "{}: ServerMessage::parse refuses an elicitation/create with a boolean field: {e} \
             (path `{}`)",
            R::NAME,
            e.path()
        ),
    }
}

fn titled_multi_select<R: Revision>() {
    let value =
        json!({ "type": "array", "items": { "anyOf": [{ "const": "#f00", "title": "Red" }] } });
    for definition in [
        "PrimitiveSchemaDefinition",
        "EnumSchema",
        "MultiSelectEnumSchema",
        "TitledMultiSelectEnumSchema",
    ] {
        reads::<R>(definition, value.clone());
    }
    // The untitled multi-select, the arm that used to win, is still read.
    let untitled = json!({ "type": "array", "items": { "type": "string", "enum": ["a", "b"] } });
    reads::<R>("PrimitiveSchemaDefinition", untitled.clone());
    reads::<R>("EnumSchema", untitled);
}

#[cfg(feature = "v2025_06_18")]
#[test]
fn fixed_defects_v2025_06_18() {
    boolean_schema::<crate::revision::V2025_06_18>();
}

macro_rules! since_2025_11_25 {
    ($feature:literal, $name:ident, $ty:ident) => {
        #[cfg(feature = $feature)]
        #[test]
        fn $name() {
            type R = crate::revision::$ty;
            elicit_content::<R>();
            boolean_schema::<R>();
            titled_multi_select::<R>();
        }
    };
}

since_2025_11_25!("v2025_11_25", fixed_defects_v2025_11_25, V2025_11_25);
since_2025_11_25!("v2026_07_28", fixed_defects_v2026_07_28, V2026_07_28);
since_2025_11_25!("unstable-draft", fixed_defects_draft, Draft);
