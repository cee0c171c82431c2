//! Brings a (patched) schema into the shape typify reads, and collects the facts the later
//! passes need that typify does not carry through: `const` members and the method tables.
//!
//! None of these steps changes what the schema accepts; they only change how it is spelled:
//! - draft 2020-12 `$defs` become draft-07 `definitions` (typify reads schemars 0.8 documents);
//! - `anyOf` becomes `oneOf`: typify renders an `anyOf` of objects as a struct of optional
//!   flattened members, while every such union in MCP is meant as "exactly one of";
//! - a `const` member is removed from the property and recorded in its description with a
//!   marker. typify ignores `const` (the member would become a plain `String`); the rewrite pass
//!   reads the marker back, drops the member from the Rust struct and emits serde code that
//!   writes the constant and rejects any other value;
//! - bounds (`minimum`, `maxItems`, ...) are recorded the same way (`codegen/bounds.rs`).

use crate::schema_walk::walk_mut;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The marker that carries a `const` value through typify inside a doc comment.
pub const CONST_MARKER: &str = "@mcp-const ";

/// What the later passes need to know about the schema.
pub struct Facts {
    /// The normalized definitions, by their schema name.
    pub definitions: BTreeMap<String, Value>,
    /// Union names (`ClientRequest`, ...) to the definitions they list, for method directions.
    pub unions: BTreeMap<String, Vec<String>>,
}

impl Facts {
    /// The `const` value of `definition.properties[property]`, if it declares one.
    pub fn const_of(&self, definition: &str, property: &str) -> Option<Value> {
        let description = self
            .definitions
            .get(definition)?
            .get("properties")?
            .get(property)?
            .get("description")?
            .as_str()?;
        marker_value(description)
    }
}

/// Reads the value recorded by [`CONST_MARKER`] from a description.
pub fn marker_value(description: &str) -> Option<Value> {
    let start = description.find(CONST_MARKER)? + CONST_MARKER.len();
    let rest = &description[start..];
    let end = rest.find('\n').unwrap_or(rest.len());
    serde_json::from_str(rest[..end].trim()).ok()
}

pub fn normalize(schema: &mut Value) -> Result<Facts, String> {
    let root = schema
        .as_object_mut()
        .ok_or("the schema is not an object")?;
    if let Some(defs) = root.remove("$defs") {
        root.insert("definitions".into(), defs);
    }
    // typify reads draft-07 documents; the `$schema` URI only names the dialect.
    root.remove("$schema");
    rewrite_refs(schema);

    let definitions_before: Map<String, Value> = schema
        .get("definitions")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    walk_mut(schema, &mut |object| {
        merge_all_of(object, &definitions_before);
        if let Some(any_of) = object.remove("anyOf") {
            object.insert("oneOf".into(), any_of);
        }
        if let Some(Value::Object(properties)) = object.get_mut("properties") {
            for property in properties.values_mut() {
                if let Value::Object(property) = property {
                    mark_const(property);
                }
            }
        }
    });

    crate::bounds::mark(schema)?;

    let definitions: BTreeMap<String, Value> = schema
        .get("definitions")
        .and_then(Value::as_object)
        .ok_or("the schema has no definitions")?
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut unions = BTreeMap::new();
    for (name, def) in &definitions {
        let arms: Vec<String> = match def.get("oneOf").and_then(Value::as_array) {
            Some(arms) => arms.iter().filter_map(ref_name).collect(),
            // A union of one is spelled as a bare reference (2026-07-28's ClientNotification).
            None => def
                .get("$ref")
                .map(ref_name)
                .into_iter()
                .flatten()
                .collect(),
        };
        if !arms.is_empty() {
            unions.insert(name.clone(), arms);
        }
    }
    Ok(Facts {
        definitions,
        unions,
    })
}

/// Writes `{allOf: [{$ref: Error}, {properties: {code: {const: -32042}}}]}` as one object schema.
/// typify merges such an `allOf` itself but loses the description that carries a `const`
/// marker, so the error codes of the named errors would not be checked.
fn merge_all_of(object: &mut Map<String, Value>, definitions: &Map<String, Value>) {
    let Some(Value::Array(arms)) = object.get("allOf") else {
        return;
    };
    let mut resolved = Vec::new();
    for arm in arms {
        let arm = match ref_name(arm) {
            Some(name) => match definitions.get(&name) {
                Some(def) => def,
                None => return,
            },
            None => arm,
        };
        if arm.get("allOf").is_some() || arm.get("oneOf").is_some() || arm.get("anyOf").is_some() {
            return;
        }
        resolved.push(arm.clone());
    }
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    let mut additional = None;
    for arm in resolved {
        if let Some(Value::Object(props)) = arm.get("properties") {
            for (name, schema) in props {
                match (properties.get_mut(name), schema) {
                    (Some(Value::Object(existing)), Value::Object(overlay)) => {
                        for (k, v) in overlay {
                            existing.insert(k.clone(), v.clone());
                        }
                    }
                    _ => {
                        properties.insert(name.clone(), schema.clone());
                    }
                }
            }
        }
        if let Some(Value::Array(names)) = arm.get("required") {
            for name in names {
                if !required.contains(name) {
                    required.push(name.clone());
                }
            }
        }
        if let Some(extra) = arm.get("additionalProperties") {
            additional = Some(extra.clone());
        }
    }
    object.remove("allOf");
    object.insert("type".into(), "object".into());
    object.insert("properties".into(), Value::Object(properties));
    object.insert("required".into(), Value::Array(required));
    if let Some(additional) = additional {
        object.insert("additionalProperties".into(), additional);
    }
}

fn mark_const(property: &mut Map<String, Value>) {
    let Some(value) = property.remove("const") else {
        return;
    };
    let description = property
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let marked = if description.is_empty() {
        format!("{CONST_MARKER}{value}")
    } else {
        format!("{description}\n\n{CONST_MARKER}{value}")
    };
    property.insert("description".into(), Value::String(marked));
}

fn rewrite_refs(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref") {
                if let Some(name) = reference.strip_prefix("#/$defs/") {
                    *reference = format!("#/definitions/{name}");
                }
            }
            for child in object.values_mut() {
                rewrite_refs(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite_refs),
        _ => {}
    }
}

/// The definition a `{"$ref": "#/definitions/X"}` schema names.
pub fn ref_name(schema: &Value) -> Option<String> {
    schema
        .get("$ref")?
        .as_str()?
        .strip_prefix("#/definitions/")
        .map(str::to_owned)
}
