//! Visits every subschema of a JSON Schema document, knowing which keywords hold schemas
//! (so a property that happens to be named `const` or `enum` is never mistaken for a keyword).

use serde_json::{Map, Value};

/// Keywords whose value is one schema.
const SINGLE: &[&str] = &[
    "additionalProperties",
    "items",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "additionalItems",
    "unevaluatedProperties",
    "unevaluatedItems",
];
/// Keywords whose value is an array of schemas.
const LIST: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords whose value maps names to schemas.
const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "definitions",
    "$defs",
    "dependentSchemas",
];

/// Calls `visit` on `schema` and then on each of its subschemas, depth first (parents first).
pub fn walk_mut(schema: &mut Value, visit: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Value::Object(object) = schema else {
        return;
    };
    visit(object);
    for (key, value) in object.iter_mut() {
        let key = key.as_str();
        if MAP.contains(&key) {
            if let Value::Object(children) = value {
                for child in children.values_mut() {
                    walk_mut(child, visit);
                }
            }
        } else if LIST.contains(&key) && value.is_array() {
            if let Value::Array(children) = value {
                for child in children {
                    walk_mut(child, visit);
                }
            }
        } else if SINGLE.contains(&key) {
            walk_mut(value, visit);
        }
    }
}
