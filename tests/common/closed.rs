//! Closed schemas: a revision's official schema with every object schema that lists
//! `properties` and says nothing of `additionalProperties` treated as
//! `additionalProperties: false`. The official schemas leave most objects open, so a plain
//! check passes a member the revision does not define; the closed one fails it.
//!
//! Objects left open on purpose stay open: those that say so (`additionalProperties: {}`), and
//! the members whose value is the user's JSON rather than the spec's structure: `_meta`, and
//! the JSON Schemas a tool or an elicitation carries.

use super::{definitions_key, schema_walk_children};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// Members whose value is never closed (see the module).
pub const OPEN_MEMBERS: &[&str] = &["_meta", "inputSchema", "outputSchema", "requestedSchema"];

/// A copy of `root` in which `definition`, and every definition it reaches other than through
/// an open member, is closed. An `allOf` is first merged into one object schema, so closing
/// one part does not reject its sibling's members.
pub fn closed_document(root: &Value, definition: &str) -> Value {
    let key = definitions_key(root);
    let original = root[key].as_object().expect("definitions").clone();
    let mut defs = original.clone();
    for schema in defs.values_mut() {
        merge_all_of(schema, &original);
    }
    let mut queue = vec![definition.to_owned()];
    let mut seen = BTreeSet::new();
    while let Some(name) = queue.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(schema) = defs.get_mut(&name) {
            close(schema, &mut queue);
        }
    }
    let mut out = root.clone();
    out[key] = Value::Object(defs);
    out
}

fn reference_name(reference: &str) -> Option<&str> {
    reference
        .strip_prefix("#/$defs/")
        .or_else(|| reference.strip_prefix("#/definitions/"))
}

/// Replaces every `allOf` (here and below) by the union of its parts' members and required
/// lists, references followed.
fn merge_all_of(schema: &mut Value, defs: &Map<String, Value>) {
    if let Value::Object(object) = schema {
        if let Some(Value::Array(parts)) = object.remove("allOf") {
            for part in parts {
                let mut part = resolved(&part, defs);
                merge_all_of(&mut part, defs);
                absorb(object, part);
            }
        }
    }
    schema_walk_children(schema, &mut |child, _| merge_all_of(child, defs));
}

fn resolved(part: &Value, defs: &Map<String, Value>) -> Value {
    match part
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(reference_name)
    {
        Some(name) => resolved(&defs[name], defs),
        None => part.clone(),
    }
}

fn absorb(object: &mut Map<String, Value>, part: Value) {
    let Value::Object(part) = part else { return };
    for (key, value) in part {
        match (key.as_str(), object.get_mut(&key), value) {
            ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                for (name, schema) in theirs {
                    mine.insert(name, schema);
                }
            }
            ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                for name in theirs {
                    if !mine.contains(&name) {
                        mine.push(name);
                    }
                }
            }
            ("description", _, _) => {}
            (_, _, value) => {
                object.insert(key, value);
            }
        }
    }
}

fn close(schema: &mut Value, queue: &mut Vec<String>) {
    if let Value::Object(object) = schema {
        if let Some(name) = object
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(reference_name)
        {
            queue.push(name.to_owned());
        }
        if object.contains_key("properties") && !object.contains_key("additionalProperties") {
            object.insert("additionalProperties".into(), Value::Bool(false));
        }
    }
    schema_walk_children(schema, &mut |child, member| {
        if !member.is_some_and(|m| OPEN_MEMBERS.contains(&m)) {
            close(child, queue);
        }
    });
}
