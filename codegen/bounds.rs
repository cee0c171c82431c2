//! Constraining keywords: the bounds a schema puts on a member (`minimum`, `maxItems`, ...).
//!
//! typify carries none of them into the types, so normalization records each property's
//! bounds in its description with a marker (as it does for `const`), and the rewrite pass
//! emits a check after the member is read. Any other validation keyword, or a bound anywhere
//! but on an object's property, fails the build: a schema bump that adds `pattern` somewhere
//! must not go unchecked. `format` stays an annotation, as JSON Schema 2020-12 has it.

use crate::schema_walk::walk_mut;
use serde_json::{Map, Value};

/// The marker that carries a property's bounds through typify inside a doc comment.
pub const BOUNDS_MARKER: &str = "@mcp-bounds ";

/// The bound keywords the build checks, on a property of an object.
pub const CHECKED: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
];

/// JSON Schema validation keywords that constrain values and that the build does not check.
/// (Keywords whose meaning the generated types carry, such as `type`, `enum`, `const`,
/// `required`, `items` and `additionalProperties`, are not listed.)
pub const UNCHECKED: &[&str] = &[
    "multipleOf",
    "pattern",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "contains",
    "minContains",
    "maxContains",
    "patternProperties",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "prefixItems",
];

/// Records the bounds of every property in its description, and refuses what the build would
/// leave unchecked.
pub fn mark(schema: &mut Value) -> Result<(), String> {
    let mut problems = Vec::new();
    walk_mut(schema, &mut |object| {
        if let Some(Value::Object(properties)) = object.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                if let Value::Object(property) = property {
                    if let Err(e) = mark_property(property) {
                        problems.push(format!("property `{name}`: {e}"));
                    }
                }
            }
        }
    });
    walk_mut(schema, &mut |object| {
        for keyword in UNCHECKED {
            if object.contains_key(*keyword) {
                problems.push(format!(
                    "keyword `{keyword}` is not checked by the generated code"
                ));
            }
        }
        let marked = object
            .get("description")
            .and_then(Value::as_str)
            .is_some_and(|d| d.contains(BOUNDS_MARKER));
        if !marked {
            for keyword in CHECKED {
                if object.contains_key(*keyword) {
                    problems.push(format!(
                        "keyword `{keyword}` outside an object's property is not checked"
                    ));
                }
            }
        }
    });
    if problems.is_empty() {
        Ok(())
    } else {
        problems.sort();
        problems.dedup();
        Err(problems.join("; "))
    }
}

fn mark_property(property: &mut Map<String, Value>) -> Result<(), String> {
    let mut bounds = Map::new();
    for keyword in CHECKED {
        match property.get(*keyword) {
            None => {}
            Some(Value::Number(n)) => {
                bounds.insert((*keyword).to_owned(), Value::Number(n.clone()));
            }
            Some(other) => return Err(format!("`{keyword}` is not a number: {other}")),
        }
    }
    if bounds.is_empty() {
        return Ok(());
    }
    let marker = format!("{BOUNDS_MARKER}{}", Value::Object(bounds));
    let description = match property.get("description").and_then(Value::as_str) {
        Some(text) => format!("{text}\n\n{marker}"),
        None => marker,
    };
    property.insert("description".into(), Value::String(description));
    Ok(())
}

/// The bounds recorded in a doc comment's text, if any.
pub fn bounds_in(doc: &str) -> Option<Map<String, Value>> {
    let start = doc.find(BOUNDS_MARKER)? + BOUNDS_MARKER.len();
    let rest = &doc[start..];
    let end = rest.find('\n').unwrap_or(rest.len());
    match serde_json::from_str(rest[..end].trim()) {
        Ok(Value::Object(bounds)) => Some(bounds),
        _ => None,
    }
}

/// The doc text without the marker line.
pub fn strip_marker(doc: &str) -> String {
    doc.lines()
        .filter(|line| !line.contains(BOUNDS_MARKER))
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_owned()
}
