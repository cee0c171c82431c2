//! Named patches for defects in the upstream schemas, applied before any other pass.
//!
//! Each patch names the defect it works around and fails the build when it no longer applies,
//! so a schema bump that fixes the defect upstream makes the stale patch visible at once.
//! The schema files themselves are never edited.

use serde_json::{Map, Value};

struct Patch {
    /// Revisions the patch applies to.
    revisions: &'static [&'static str],
    /// What is wrong upstream, and what the patch does about it.
    reason: &'static str,
    apply: fn(&mut Map<String, Value>) -> Result<(), String>,
}

const PATCHES: &[Patch] = &[
    Patch {
        revisions: &["2025-11-25"],
        reason:
            "CancelTaskResult, GetTaskResult and TaskStatusNotificationParams are `allOf` of two \
             `$ref`s whose targets both carry metadata; typify 0.8.0 panics while merging them \
             (`merged_schema.metadata.is_none()`). The patch writes out each merge as one \
             object schema with the union of the members and of the required lists.",
        apply: |defs| {
            for name in [
                "CancelTaskResult",
                "GetTaskResult",
                "TaskStatusNotificationParams",
            ] {
                inline_all_of_refs(defs, name)?;
            }
            Ok(())
        },
    },
    Patch {
        revisions: &["2025-06-18", "2025-11-25", "2026-07-28", "draft"],
        reason:
            "ElicitResult.content: the TypeScript source of the schema (schema.ts, the source of \
             truth) types a submitted value as `string | number | boolean` (and `string[]` from \
             2025-11-25), but the generated schema.json says `integer`, so a form's number \
             field (`NumberSchema` allows `type: number`) could not be answered with 95.5. The \
             patch restores `number`.",
        apply: |defs| {
            let content = defs
                .get_mut("ElicitResult")
                .and_then(|d| d.pointer_mut("/properties/content/additionalProperties"))
                .ok_or("ElicitResult.content.additionalProperties is not there")?;
            // 2025-06-18: the scalar types directly; later: one arm of an `anyOf`.
            let scalars = match content.get_mut("anyOf").and_then(Value::as_array_mut) {
                Some(arms) => arms
                    .iter_mut()
                    .find(|arm| arm.get("type").is_some_and(Value::is_array))
                    .ok_or("ElicitResult.content has no arm of scalar types")?,
                None => content,
            };
            let types = scalars
                .get_mut("type")
                .and_then(Value::as_array_mut)
                .ok_or("ElicitResult.content's scalar types are not a list")?;
            let integer = types
                .iter_mut()
                .find(|t| t.as_str() == Some("integer"))
                .ok_or("ElicitResult.content no longer says `integer`")?;
            *integer = Value::String("number".into());
            Ok(())
        },
    },
];

/// Applies every patch that names `revision`.
pub fn apply(revision: &str, schema: &mut Value) -> Result<(), String> {
    let root = schema
        .as_object_mut()
        .ok_or("the schema is not an object")?;
    let key = if root.contains_key("$defs") {
        "$defs"
    } else {
        "definitions"
    };
    let defs = root
        .get_mut(key)
        .and_then(Value::as_object_mut)
        .ok_or("the schema has no definitions")?;
    for patch in PATCHES.iter().filter(|p| p.revisions.contains(&revision)) {
        (patch.apply)(defs).map_err(|e| {
            format!(
                "schema patch no longer applies ({e}); if upstream fixed the defect, delete the \
                 patch. It was: {}",
                patch.reason
            )
        })?;
    }
    Ok(())
}

/// Replaces `defs[name] = {allOf: [{$ref: A}, {$ref: B}, ...]}` by one object schema holding
/// the members and required lists of every referenced definition, in order.
fn inline_all_of_refs(defs: &mut Map<String, Value>, name: &str) -> Result<(), String> {
    let def = defs.get(name).ok_or(format!("{name} is not defined"))?;
    let arms = def
        .get("allOf")
        .and_then(Value::as_array)
        .ok_or(format!("{name} is no longer an allOf"))?;
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    let mut additional = None;
    for arm in arms {
        let target = arm
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.rsplit('/').next())
            .ok_or(format!("{name}: an allOf arm is not a $ref"))?;
        let target = defs
            .get(target)
            .ok_or(format!("{name}: {target} is not defined"))?;
        if let Some(Value::Object(props)) = target.get("properties") {
            for (k, v) in props {
                properties.insert(k.clone(), v.clone());
            }
        }
        if let Some(Value::Array(req)) = target.get("required") {
            for r in req {
                if !required.contains(r) {
                    required.push(r.clone());
                }
            }
        }
        if let Some(extra) = target.get("additionalProperties") {
            additional = Some(extra.clone());
        }
    }
    let mut merged = Map::new();
    if let Some(description) = def.get("description") {
        merged.insert("description".into(), description.clone());
    }
    merged.insert("type".into(), "object".into());
    merged.insert("properties".into(), Value::Object(properties));
    merged.insert("required".into(), Value::Array(required));
    if let Some(additional) = additional {
        merged.insert("additionalProperties".into(), additional);
    }
    defs.insert(name.to_owned(), Value::Object(merged));
    Ok(())
}
