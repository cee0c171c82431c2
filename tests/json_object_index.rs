//! `JsonObject`'s member accessors, served from an index built once.

use mcp_spec_types::JsonObject;

#[test]
fn accessors_agree_with_a_full_read() {
    let text = r#"{ "b" : [1, {"x": 2}], "a\u0041": "v", "n": 1e400, "b": null, "e": {} }"#;
    let object = JsonObject::from_text(text).unwrap();
    assert_eq!(object.len(), 4);
    assert!(!object.is_empty());
    assert_eq!(object.keys().collect::<Vec<_>>(), ["aA", "n", "b", "e"]);
    assert_eq!(
        object.get_text("b"),
        Some("null"),
        "a repeated name keeps its last value"
    );
    assert_eq!(object.get_text("aA"), Some(r#""v""#));
    assert_eq!(
        object.get_text("n"),
        Some("1e400"),
        "numbers kept as written"
    );
    assert_eq!(object.get::<String>("aA").unwrap().unwrap(), "v");
    assert!(object.get::<u8>("aA").unwrap().is_err());
    assert!(object.get::<u8>("missing").is_none());
    assert!(object.contains_key("e") && !object.contains_key("x"));
    // Every member but the out-of-range number, as serde_json reads them.
    let map = JsonObject::from_text(&text.replace("1e400", "1"))
        .unwrap()
        .to_map()
        .unwrap();
    assert_eq!(map.len(), object.len());
    for name in object.keys() {
        assert!(map.contains_key(name), "{name}");
    }
}

#[test]
fn a_change_rebuilds_the_index() {
    let mut object = JsonObject::from_text(r#"{"a":1}"#).unwrap();
    assert_eq!(object.len(), 1);
    object.insert("z", &true).unwrap();
    assert_eq!(object.keys().collect::<Vec<_>>(), ["a", "z"]);
    assert_eq!(object.get_text("z"), Some("true"));
    object.remove("a");
    assert_eq!(object.iter().collect::<Vec<_>>(), [("z", "true")]);
    let copy = object.clone();
    assert_eq!(copy.len(), 1);
    assert_eq!(JsonObject::new().len(), 0);
    assert!(JsonObject::new().is_empty());
}

#[test]
fn a_name_with_a_lone_surrogate_leaves_no_members_to_look_up() {
    let object = JsonObject::from_text(r#"{"\ud800": 1}"#);
    // serde_json reads such a name only into bytes; where it reads, the lookup finds nothing.
    if let Ok(object) = object {
        assert_eq!(object.len(), 0);
        assert_eq!(object.get_text("\u{fffd}"), None);
    }
}

#[test]
fn the_value_stays_small() {
    assert!(std::mem::size_of::<JsonObject>() <= 32);
}

#[test]
fn the_index_is_built_by_the_crates_reader() {
    let object = JsonObject::from_text(r#"{"a": {"b": [1, "\n"]}, "c\"d": 2.5}"#).unwrap();
    let before = mcp_spec_types::json::fallbacks_on_valid_input();
    assert_eq!(object.len(), 2);
    assert_eq!(object.get::<f64>("c\"d").unwrap().unwrap(), 2.5);
    assert_eq!(
        mcp_spec_types::json::fallbacks_on_valid_input(),
        before,
        "serde_json read what the crate's reader should have"
    );
}
