//! `elicitation`: the form schemas of 2025-11-25, built property by property, written as the
//! schema defines each property kind.

#![cfg(feature = "v2025_11_25")]
use mcp_spec_types::elicitation::{
    boolean, legacy_titled_select, multi_select, number, single_select, string,
    titled_multi_select, titled_single_select, FormSchema, Property,
};
use mcp_spec_types::v2025_11_25::ElicitRequestFormParamsRequestedSchema;
use serde_json::json;

#[test]
fn every_kind_writes_the_shape_of_its_schema_definition() {
    let schema = FormSchema::new()
        .property("s", string().with_default("x").titled("S"))
        .property("n", number().with_default(95.5))
        .property("one", single_select(["a", "b"]))
        .property("titled", titled_single_select([("v1", "First")]))
        .property("legacy", legacy_titled_select(["o1"], ["Option one"]))
        .property("many", multi_select(["a", "b"], Some(1), Some(2)))
        .property(
            "titled_many",
            titled_multi_select([("v1", "First")], None, None).with_default(["v1"]),
        )
        .build();
    let json = serde_json::to_value(&schema).unwrap();
    assert_eq!(json["type"], "object");
    let p = &json["properties"];
    assert_eq!(
        p["s"],
        json!({"type": "string", "default": "x", "title": "S"})
    );
    assert_eq!(p["n"], json!({"type": "number", "default": 95.5}));
    assert_eq!(p["one"], json!({"type": "string", "enum": ["a", "b"]}));
    assert_eq!(
        p["titled"],
        json!({"type": "string", "oneOf": [{"const": "v1", "title": "First"}]})
    );
    assert_eq!(p["legacy"]["enumNames"], json!(["Option one"]));
    assert_eq!(
        p["many"],
        json!({"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["a", "b"]}})
    );
    assert_eq!(
        p["titled_many"]["items"],
        json!({"anyOf": [{"const": "v1", "title": "First"}]})
    );
    assert_eq!(json["required"], json!([]));
    // What is written reads back as the revision's own type, and writes the same JSON. (The
    // legacy enum has the wire form of an untitled enum with `enumNames`, so it may read
    // back as that arm, carrying `enumNames` as an unknown member.)
    let again: ElicitRequestFormParamsRequestedSchema =
        serde_json::from_value(json.clone()).unwrap();
    assert_eq!(serde_json::to_value(&again).unwrap(), json);
}

#[test]
fn required_properties_are_listed_once() {
    let schema = FormSchema::new()
        .required("a", boolean())
        .required("a", boolean().with_default(true))
        .build();
    assert_eq!(schema.required, Some(vec!["a".to_owned()]));
    assert_eq!(schema.properties.len(), 1);
    assert!(number().with_default(f64::NAN).default.is_none());
}
