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
//! - bounds (`minimum`, `maxItems`, ...) are recorded the same way (`codegen/bounds.rs`);
//! - a member written out in full where the schema has a definition for it, or the same inline
//!   enum or object written out in several definitions, becomes a `$ref` to one definition
//!   ([`share_repeated_members`]), so that one concept is one Rust type.

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
    if let Some(Value::Object(definitions)) = schema.get_mut("definitions") {
        share_repeated_members(definitions)?;
    }

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

/// Makes one definition of what the schema writes out more than once, so that one concept is
/// one Rust type (the schema is generated from TypeScript, where these were one type, and
/// inlines them):
/// - a member whose inline schema is the definition named after it (`resultType` spelled as
///   the `ResultType` definition's `{"type": "string"}`) becomes a `$ref` to that definition;
/// - an inline enum or object written out identically under the same member name in several
///   definitions (`cacheScope` in every cacheable result) becomes one new definition named
///   after the member (`CacheScope`), when that name is free and no other repeated inline
///   schema shares the member name (2024-11-05's three different `params` stay as they are);
/// - a response's `result` that is the response's own result or another one becomes a
///   definition named for both (`CallToolResultOrInputRequired`).
///
/// Descriptions are ignored in the comparison and kept beside each `$ref`, so every field keeps
/// its own documentation; nothing the schema accepts changes.
pub fn share_repeated_members(definitions: &mut Map<String, Value>) -> Result<(), String> {
    fn without_description(schema: &Map<String, Value>) -> Value {
        let mut schema = schema.clone();
        schema.remove("description");
        Value::Object(schema)
    }
    fn type_name(member: &str) -> String {
        let mut chars = member.trim_start_matches('_').chars();
        chars
            .next()
            .map(|first| first.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    }
    fn reference(name: &str, inline: &Map<String, Value>) -> Map<String, Value> {
        let mut schema = Map::new();
        schema.insert(
            "$ref".into(),
            Value::String(format!("#/definitions/{name}")),
        );
        if let Some(description) = inline.get("description") {
            schema.insert("description".into(), description.clone());
        }
        schema
    }

    // Inline members, with their definition, member name and schema without description.
    let mut inline: Vec<(String, String, Value)> = Vec::new();
    for (definition, schema) in definitions.iter() {
        let Some(Value::Object(properties)) = schema.get("properties") else {
            continue;
        };
        for (member, schema) in properties {
            if let Value::Object(schema) = schema {
                if !schema.contains_key("$ref") {
                    inline.push((
                        definition.clone(),
                        member.clone(),
                        without_description(schema),
                    ));
                }
            }
        }
    }

    let mut targets: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut new_definitions: BTreeMap<String, Value> = BTreeMap::new();
    for (definition, member, schema) in &inline {
        let name = type_name(member);
        let named = definitions
            .get(&name)
            .and_then(Value::as_object)
            .map(without_description);
        if named.as_ref() == Some(schema) {
            targets.insert((definition.clone(), member.clone()), name);
        }
    }
    // Repeated inline enums and objects with members, grouped by member name and schema.
    let mut groups: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (definition, member, schema) in &inline {
        let worth_a_type = schema.get("enum").is_some()
            || schema
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
        if worth_a_type && !targets.contains_key(&(definition.clone(), member.clone())) {
            groups
                .entry((member.clone(), schema.to_string()))
                .or_default()
                .push(definition.clone());
        }
    }
    // A response's `result` that is its own result or another (2026-07-28's
    // `CallToolResultResponse.result`: `CallToolResult` or `InputRequiredResult`) is named for
    // what it holds, `CallToolResultOrInputRequired`, not `CallToolResultResponseResult`.
    for (definition, member, schema) in &inline {
        let Some(own) = definition.strip_suffix("Response") else {
            continue;
        };
        let arms: Vec<String> = schema
            .get("anyOf")
            .or_else(|| schema.get("oneOf"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(ref_name)
            .collect();
        if member != "result" || arms.len() < 2 || !arms.iter().any(|a| a == own) {
            continue;
        }
        let others: Vec<&str> = arms
            .iter()
            .filter(|a| *a != own)
            .map(|a| a.strip_suffix("Result").unwrap_or(a))
            .collect();
        let name = format!("{own}Or{}", others.join("Or"));
        if definitions.contains_key(&name) || new_definitions.contains_key(&name) {
            continue;
        }
        new_definitions.insert(name.clone(), schema.clone());
        targets.insert((definition.clone(), member.clone()), name);
    }
    let repeated: Vec<_> = groups.iter().filter(|(_, d)| d.len() > 1).collect();
    for ((member, schema), users) in &repeated {
        let name = type_name(member);
        let shared_name = repeated.iter().filter(|((m, _), _)| m == member).count() > 1;
        if shared_name || definitions.contains_key(&name) || name.is_empty() {
            continue;
        }
        let schema: Value =
            serde_json::from_str(schema).map_err(|e| format!("sharing `{member}`: {e}"))?;
        new_definitions.insert(name.clone(), schema);
        for definition in users.iter() {
            targets.insert((definition.clone(), member.clone()), name.clone());
        }
    }

    for ((definition, member), name) in &targets {
        let property = definitions
            .get_mut(definition)
            .and_then(|d| d.get_mut("properties"))
            .and_then(|p| p.get_mut(member))
            .and_then(Value::as_object_mut)
            .ok_or(format!("{definition}.{member} vanished while sharing it"))?;
        *property = reference(name, property);
    }
    definitions.extend(new_definitions);
    Ok(())
}
