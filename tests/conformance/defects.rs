//! Reproductions of the known crate defects (described in `tables.rs`), each on the smallest
//! valid value: the schema accepts it, the crate refuses it. Each test fails once its defect is
//! fixed, to say that the defect's table entries (`tables.rs`) and generator overrides
//! (`generated.rs`) must go with it.

// Which reproductions run depends on the enabled revisions.
#![allow(dead_code, unused_imports)]

use crate::oracle::oracle;
use crate::revision::Revision;
use crate::tables::{BOOLEAN_SCHEMA_ARM, ELICIT_CONTENT, MULTI_SELECT_ARM};
use serde_json::{json, Value};

fn reproduces<R: Revision>(definition: &str, value: Value, symptom: &str, defect: &str) {
    let oracle = oracle(R::NAME);
    let errors = oracle.errors(&oracle.def(definition), &value);
    assert!(
        errors.is_empty(),
        "{}: {value} is not a valid {definition}: {errors:?}",
        R::NAME
    );
    match R::roundtrip(definition, value.clone()) {
        Some(Err(e)) if e.contains(symptom) => {}
        other => panic!(
            "{}: the known defect no longer reproduces ({definition} of {value} gives {other:?}): \
             remove its entries in tables.rs and its generator overrides. The defect: {defect}",
            R::NAME
        ),
    }
}

fn elicit_content<R: Revision>() {
    for value in [json!("octocat"), json!(30), json!(true)] {
        reproduces::<R>(
            "ElicitResult",
            json!({ "action": "accept", "content": { "field": value } }),
            "matches no arm of ElicitResultContentValue",
            ELICIT_CONTENT,
        );
    }
    // The other arm, a list of strings, is read.
    let list = json!({ "action": "accept", "content": { "field": ["a", "b"] } });
    assert_eq!(
        R::roundtrip("ElicitResult", list.clone()).unwrap(),
        Ok(list)
    );
}

fn boolean_schema<R: Revision>() {
    reproduces::<R>(
        "PrimitiveSchemaDefinition",
        json!({ "type": "boolean" }),
        "unknown variant `boolean`, expected `integer` or `number`",
        BOOLEAN_SCHEMA_ARM,
    );
    // Read as its own definition, it is fine.
    let value = json!({ "type": "boolean", "default": false });
    assert_eq!(
        R::roundtrip("BooleanSchema", value.clone()).unwrap(),
        Ok(value)
    );
    // Through the dispatch: any elicitation/create whose form has a boolean field is refused.
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
        Err(e)
            if e.path() == "params.requestedSchema.properties.ok"
                && e.message().contains("unknown variant `boolean`") => {}
        other => panic!(
            "{}: the known defect no longer reproduces through ServerMessage::parse ({:?}): \
             remove its entries. The defect: {BOOLEAN_SCHEMA_ARM}",
            R::NAME,
            other.map(|p| p.kind)
        ),
    }
}

fn titled_multi_select<R: Revision>() {
    let value =
        json!({ "type": "array", "items": { "anyOf": [{ "const": "#f00", "title": "Red" }] } });
    reproduces::<R>(
        "PrimitiveSchemaDefinition",
        value.clone(),
        "items: missing field `type`",
        MULTI_SELECT_ARM,
    );
    reproduces::<R>(
        "EnumSchema",
        value.clone(),
        "items: missing field `type`",
        MULTI_SELECT_ARM,
    );
    assert_eq!(
        R::roundtrip("TitledMultiSelectEnumSchema", value.clone()).unwrap(),
        Ok(value)
    );
}

#[cfg(feature = "v2025_06_18")]
#[test]
fn known_defects_v2025_06_18() {
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

since_2025_11_25!("v2025_11_25", known_defects_v2025_11_25, V2025_11_25);
since_2025_11_25!("v2026_07_28", known_defects_v2026_07_28, V2026_07_28);
since_2025_11_25!("unstable-draft", known_defects_draft, Draft);
