//! Shared by the integration tests: the revision list, schema loading, the definition tables
//! and the instance generator.

// Each test module uses a different part of this module; the rest would warn as dead code.
#![allow(dead_code)]

pub mod closed;
pub mod definitions;
pub mod instances;

use serde_json::{Map, Value};
use std::path::PathBuf;

/// Calls `$callback!(feature, module, revision)` once per revision the crate knows, each behind
/// its own feature, so a test written once runs for every enabled revision.
// Not every test that includes this module iterates over revisions.
#[allow(unused_macros)]
macro_rules! for_each_revision {
    ($callback:ident) => {
        $callback!("v2024_11_05", v2024_11_05, "2024-11-05");
        $callback!("v2025_03_26", v2025_03_26, "2025-03-26");
        $callback!("v2025_06_18", v2025_06_18, "2025-06-18");
        $callback!("v2025_11_25", v2025_11_25, "2025-11-25");
        $callback!("v2026_07_28", v2026_07_28, "2026-07-28");
        $callback!("unstable-draft", draft, "draft");
    };
}

/// The vendored schema of `revision` (`2025-06-18`, `draft`), parsed.
pub fn load_schema(revision: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("schema")
        .join(revision)
        .join("schema.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// Where the document keeps its definitions: draft-07 `definitions`, 2020-12 `$defs`.
pub fn definitions_key(root: &Value) -> &'static str {
    match (root.get("definitions"), root.get("$defs")) {
        (Some(_), None) => "definitions",
        (None, Some(_)) => "$defs",
        _ => panic!("a schema must hold exactly one of `definitions` and `$defs`"),
    }
}

pub fn definitions(root: &Value) -> &Map<String, Value> {
    root[definitions_key(root)]
        .as_object()
        .expect("definitions are an object")
}

/// The JSON pointer of a definition (`/definitions/X` or `/$defs/X`).
pub fn definition_pointer(root: &Value, name: &str) -> String {
    format!("/{}/{}", definitions_key(root), pointer_escape(name))
}

pub fn pointer_escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// The subschema at `pointer`, panicking with the pointer when it is absent.
pub fn at<'a>(root: &'a Value, pointer: &str) -> &'a Value {
    root.pointer(pointer)
        .unwrap_or_else(|| panic!("the schema has nothing at {pointer}"))
}

/// A validator for the subschema at `pointer`, in the dialect the document declares.
///
/// The subschema is reached by a `$ref` from a copy of the root's definitions, so the
/// references inside it resolve exactly as in the official document. Formats are checked
/// too: draft 2020-12 would otherwise only annotate them.
pub fn validator(root: &Value, pointer: &str) -> jsonschema::Validator {
    let key = definitions_key(root);
    let dialect = root["$schema"]
        .as_str()
        .expect("the schema names its dialect");
    let mut document = Map::new();
    document.insert("$schema".into(), dialect.into());
    document.insert(key.into(), root[key].clone());
    document.insert("$ref".into(), format!("#{pointer}").into());
    let options = if dialect.contains("draft-07") {
        jsonschema::draft7::options()
    } else if dialect.contains("2020-12") {
        jsonschema::draft202012::options()
    } else {
        panic!("unexpected dialect {dialect}")
    };
    options
        .should_validate_formats(true)
        .build(&Value::Object(document))
        .unwrap_or_else(|e| panic!("compiling a validator for {pointer}: {e}"))
}

/// Every way `instance` violates the validator's schema, one line each (empty when valid).
pub fn violations(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect()
}

/// Calls `visit` on each direct subschema of `schema` (not on definitions), with the member's
/// name for a child of `properties`.
pub fn schema_walk_children(schema: &mut Value, visit: &mut dyn FnMut(&mut Value, Option<&str>)) {
    const SINGLE: &[&str] = &[
        "additionalProperties",
        "items",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "unevaluatedProperties",
    ];
    const LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
    let Value::Object(object) = schema else {
        return;
    };
    for (key, value) in object.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(children)) => {
                for (name, child) in children.iter_mut() {
                    visit(child, Some(name));
                }
            }
            ("patternProperties", Value::Object(children)) => {
                for child in children.values_mut() {
                    visit(child, None);
                }
            }
            (key, Value::Array(children)) if LIST.contains(&key) => {
                for child in children {
                    visit(child, None);
                }
            }
            (key, child) if SINGLE.contains(&key) => visit(child, None),
            _ => {}
        }
    }
}
