//! Constraining keywords: what a schema asserts about a value beyond its type (`minimum`,
//! `pattern`, `uniqueItems`, `dependentRequired`, ...).
//!
//! typify carries none of them into the types, so normalization records them in a
//! description with a marker (as it does for `const`), and the rewrite pass emits a check that
//! runs when the value is read:
//! - on an object's property, every keyword of [`CHECKED`] and [`VALUE`], checked on the
//!   member right after it is read;
//! - on an object with `properties`, every keyword of [`OBJECT`], checked once the object is
//!   read.
//!
//! Anywhere else (a definition that is a bare string, an array's items, a union's arm), and for
//! every keyword of [`UNCHECKED`], the build fails and names the definition: a schema bump that
//! adds a keyword somewhere the generated readers do not look must not go unchecked. `format`
//! stays an annotation, as JSON Schema 2020-12 has it.

use crate::schema_walk::walk_mut;
use serde_json::{Map, Value};

/// The marker that carries a property's keywords through typify inside a doc comment.
pub const BOUNDS_MARKER: &str = "@mcp-bounds ";

/// The marker that carries an object's own keywords through typify inside a doc comment.
pub const OBJECT_MARKER: &str = "@mcp-object-keywords ";

/// The numeric and count bounds, checked on a property without leaving its Rust type.
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

/// The other keywords checked on a property, on the member's JSON value. `enum` is listed for
/// its non-string lists only: a list of strings becomes a Rust enum, which checks itself.
pub const VALUE: &[&str] = &[
    "multipleOf",
    "pattern",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "enum",
];

/// The keywords checked on an object that declares `properties`, once it is read.
pub const OBJECT: &[&str] = &["minProperties", "maxProperties", "dependentRequired"];

/// JSON Schema keywords that constrain values and that the build does not check anywhere.
/// (Keywords whose meaning the generated types carry, such as `type`, `const`, `required`,
/// `items` and `additionalProperties`, are not listed.)
pub const UNCHECKED: &[&str] = &[
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

/// Whether a keyword present on a schema object asserts something the types do not already
/// carry: every listed keyword does, and `enum` when one of its values is not a string.
fn asserts(object: &Map<String, Value>, keyword: &str) -> bool {
    match (keyword, object.get(keyword)) {
        (_, None) => false,
        ("enum", Some(Value::Array(values))) => values.iter().any(|v| !v.is_string()),
        _ => true,
    }
}

/// Records the keywords of every property and of every object with properties in their
/// descriptions, and refuses what the build would leave unchecked, naming the definition.
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
        if object.contains_key("properties") {
            if let Err(e) = mark_object(object) {
                problems.push(e);
            }
        }
    });
    let key = if schema.get("definitions").is_some() {
        "definitions"
    } else {
        "$defs"
    };
    let definitions = schema.get_mut(key).and_then(Value::as_object_mut);
    for (definition, def) in definitions.into_iter().flatten() {
        walk_mut(def, &mut |object| {
            for keyword in UNCHECKED.iter().chain(VALUE).chain(OBJECT) {
                if asserts(object, keyword) {
                    problems.push(format!(
                        "definition `{definition}`: keyword `{keyword}` is not checked by the \
                         generated code (only on an object's property{})",
                        if OBJECT.contains(keyword) {
                            " or on an object with properties"
                        } else {
                            ""
                        }
                    ));
                }
            }
            // Normalization takes every property's `const` into its reader; one left here is not
            // on a property.
            if object.contains_key("const") {
                problems.push(format!(
                    "definition `{definition}`: keyword `const` outside an object's property is \
                     not checked"
                ));
            }
            let marked = object
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| d.contains(BOUNDS_MARKER));
            if !marked {
                for keyword in CHECKED {
                    if object.contains_key(*keyword) {
                        problems.push(format!(
                            "definition `{definition}`: keyword `{keyword}` outside an object's \
                             property is not checked"
                        ));
                    }
                }
            }
        });
    }
    if problems.is_empty() {
        Ok(())
    } else {
        problems.sort();
        problems.dedup();
        Err(problems.join("; "))
    }
}

/// Appends `marker` and the recorded keywords to the schema's description.
fn append_marker(schema: &mut Map<String, Value>, marker: &str, keywords: Map<String, Value>) {
    let marker = format!("{marker}{}", Value::Object(keywords));
    let description = match schema.get("description").and_then(Value::as_str) {
        Some(text) => format!("{text}\n\n{marker}"),
        None => marker,
    };
    schema.insert("description".into(), Value::String(description));
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
    for keyword in VALUE {
        if !asserts(property, keyword) {
            continue;
        }
        // Taken out of the schema: typify would not check them, and a non-string `enum` left
        // in place would change the member's Rust type.
        let value = property.remove(*keyword).unwrap_or(Value::Null);
        let valid = match *keyword {
            "pattern" => value.is_string(),
            "multipleOf" => value.as_f64().is_some_and(|m| m > 0.0),
            "uniqueItems" => value.is_boolean(),
            "minProperties" | "maxProperties" => value.is_u64(),
            _ => value.is_array(),
        };
        if !valid {
            return Err(format!("`{keyword}` has an invalid value: {value}"));
        }
        bounds.insert((*keyword).to_owned(), value);
    }
    if bounds.is_empty() {
        return Ok(());
    }
    // typify turns a string with a length bound into a newtype of its own; the generated
    // reader checks the bound on a plain `String` instead.
    property.remove("minLength");
    property.remove("maxLength");
    append_marker(property, BOUNDS_MARKER, bounds);
    Ok(())
}

fn mark_object(object: &mut Map<String, Value>) -> Result<(), String> {
    let mut keywords = Map::new();
    for keyword in OBJECT {
        let Some(value) = object.get(*keyword) else {
            continue;
        };
        let valid = match *keyword {
            "dependentRequired" => value.as_object().is_some_and(|d| {
                d.values().all(|names| {
                    names
                        .as_array()
                        .is_some_and(|names| names.iter().all(Value::is_string))
                })
            }),
            _ => value.is_u64(),
        };
        if !valid {
            return Err(format!("`{keyword}` has an invalid value: {value}"));
        }
        if let Some(value) = object.remove(*keyword) {
            keywords.insert((*keyword).to_owned(), value);
        }
    }
    if !keywords.is_empty() {
        append_marker(object, OBJECT_MARKER, keywords);
    }
    Ok(())
}

/// The keywords recorded after `marker` in a doc comment's text, if any.
pub fn recorded_in(doc: &str, marker: &str) -> Option<Map<String, Value>> {
    let start = doc.find(marker)? + marker.len();
    let rest = &doc[start..];
    let end = rest.find('\n').unwrap_or(rest.len());
    match serde_json::from_str(rest[..end].trim()) {
        Ok(Value::Object(bounds)) => Some(bounds),
        _ => None,
    }
}

/// The bounds recorded in a doc comment's text, if any.
pub fn bounds_in(doc: &str) -> Option<Map<String, Value>> {
    recorded_in(doc, BOUNDS_MARKER)
}

/// The doc text without the marker lines.
pub fn strip_marker(doc: &str) -> String {
    doc.lines()
        .filter(|line| !line.contains(BOUNDS_MARKER) && !line.contains(OBJECT_MARKER))
        .collect::<Vec<_>>()
        .join("\n")
        .trim_end()
        .to_owned()
}
