//! `JsonObject`, the type of every open object: what it keeps, reads, builds and refuses.

use mcp_spec_types::JsonObject;
use serde_json::{json, Map, Value};

fn object(text: &str) -> JsonObject {
    JsonObject::from_text(text).unwrap()
}

#[test]
fn the_text_read_is_the_text_kept_and_written() {
    let text = r#"{"b":1.50,"a":[1,2,{"x":null}],"big":123456789012345678901234567890}"#;
    let kept = object(text);
    assert_eq!(kept.as_str(), text);
    assert_eq!(serde_json::to_string(&kept).unwrap(), text);
    assert_eq!(mcp_spec_types::json::to_string(&kept).unwrap(), text);
    // Surrounding whitespace is not part of the value.
    assert_eq!(object(" \n{\"a\":1} ").as_str(), r#"{"a":1}"#);
}

#[test]
fn anything_but_an_object_is_refused_with_what_it_was() {
    for (text, found) in [
        ("[1]", "sequence"),
        (r#""s""#, "a string"),
        ("true", "boolean `true`"),
        ("null", "invalid type: null"),
        ("1", "a number"),
    ] {
        let error = JsonObject::from_text(text).unwrap_err();
        assert!(
            error.to_string().contains(found) && error.to_string().contains("an object"),
            "{text}: {error}"
        );
    }
    assert!(JsonObject::from_text(r#"{"a":}"#).is_err());
    assert!(JsonObject::from_text(r#"{"a":1} {}"#).is_err());
}

#[test]
fn members_are_read_when_asked_for() {
    let kept = object(r#"{"progressToken":"t-1","n":7,"n":8,"deep":{"k":[1]}}"#);
    assert_eq!(kept.get::<String>("progressToken").unwrap().unwrap(), "t-1");
    // A repeated name gives its last value, as a `serde_json::Map` keeps it.
    assert_eq!(kept.get::<u64>("n").unwrap().unwrap(), 8);
    assert_eq!(
        kept.get::<Value>("deep").unwrap().unwrap(),
        json!({"k": [1]})
    );
    assert!(kept.get::<Value>("absent").is_none());
    let error = kept.get::<u64>("progressToken").unwrap().unwrap_err();
    assert!(error.to_string().contains("invalid type"), "{error}");
    assert!(kept.contains_key("deep") && !kept.contains_key("k"));
    assert_eq!(
        kept.to_map().unwrap(),
        json!({"progressToken": "t-1", "n": 8, "deep": {"k": [1]}})
            .as_object()
            .unwrap()
            .clone()
    );
}

#[test]
fn a_number_a_value_cannot_hold_is_kept_and_reported_when_read() {
    let kept = object(r#"{"huge":1e400,"ok":1}"#);
    assert_eq!(kept.as_str(), r#"{"huge":1e400,"ok":1}"#);
    assert_eq!(kept.get::<u8>("ok").unwrap().unwrap(), 1);
    let error = kept.to_map().unwrap_err();
    assert!(error.to_string().contains("number out of range"), "{error}");
}

#[test]
fn empty_objects() {
    assert!(JsonObject::new().is_empty());
    assert_eq!(JsonObject::default().as_str(), "{}");
    assert!(object("{ \n }").is_empty());
    assert!(!object(r#"{"a":1}"#).is_empty());
}

#[test]
fn building_from_a_map_and_inserting() {
    let mut map = Map::new();
    map.insert("b".to_owned(), json!(2));
    map.insert("a".to_owned(), json!("x"));
    let mut built = JsonObject::from(map.clone());
    assert_eq!(built.as_str(), r#"{"a":"x","b":2}"#);
    assert_eq!(built.to_map().unwrap(), map);

    let previous = built.insert("b", &json!([true])).unwrap();
    assert_eq!(previous.unwrap().get(), "2");
    assert!(built.insert("c", &3).unwrap().is_none());
    assert_eq!(built.as_str(), r#"{"a":"x","b":[true],"c":3}"#);

    assert_eq!(built.remove("a").unwrap().get(), r#""x""#);
    assert!(built.remove("a").is_none());
    assert_eq!(built.as_str(), r#"{"b":[true],"c":3}"#);
}

#[test]
fn equal_by_meaning_not_by_spelling() {
    assert_eq!(
        object(r#"{"a":1,"b":[1, 2]}"#),
        object(r#"{ "b":[1,2], "a":1 }"#)
    );
    assert_ne!(object(r#"{"a":1}"#), object(r#"{"a":2}"#));
    assert_ne!(object(r#"{"a":1}"#), object(r#"{"a":1.0}"#));
    // Texts a `Value` cannot hold compare by their spelling.
    assert_eq!(object(r#"{"a":1e400}"#), object(r#"{"a":1e400}"#));
    assert_ne!(object(r#"{"a":1e400}"#), object(r#"{"a":1E400}"#));
}

#[test]
fn read_through_serde_json_values_too() {
    // Conversions go through `serde_json::Value`; the object survives the trip.
    let kept: JsonObject = serde_json::from_value(json!({"a": {"b": 1}})).unwrap();
    assert_eq!(kept.as_str(), r#"{"a":{"b":1}}"#);
    let error = serde_json::from_value::<JsonObject>(json!([1])).unwrap_err();
    assert!(error.to_string().contains("an object"), "{error}");
}
