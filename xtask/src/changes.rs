//! What changed between two schema files: definitions added, removed and changed, and per
//! changed definition the members added, removed and changed, in words a CHANGELOG entry can
//! quote. Descriptions are documentation: a definition whose only change is in them is listed
//! apart, so the protocol changes stand out.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The changes from one schema to the next.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Definitions only the newer schema has.
    pub added: Vec<String>,
    /// Definitions only the older schema has.
    pub removed: Vec<String>,
    /// Definitions both have, changed beyond their descriptions.
    pub changed: Vec<Changed>,
    /// Definitions both have whose descriptions alone changed.
    pub described: Vec<String>,
}

/// One definition that both schemas have, changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// The definition's name.
    pub name: String,
    /// Members (properties) only the newer definition has.
    pub members_added: Vec<String>,
    /// Members only the older definition has.
    pub members_removed: Vec<String>,
    /// Members both have, whose schemas differ beyond their descriptions.
    pub members_changed: Vec<String>,
    /// The definition's own keywords that changed (`required`, `anyOf`, ...).
    pub keywords: Vec<String>,
}

impl Changes {
    /// Whether nothing at all changed, descriptions included.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.described.is_empty()
    }
}

/// The definitions of a schema, whichever dialect names them.
fn definitions(schema: &Value) -> Map<String, Value> {
    schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// A schema with its descriptions taken out and its references spelled one way (draft-07's
/// `#/definitions/` and 2020-12's `#/$defs/` name the same thing).
fn essence(schema: &Value) -> Value {
    match schema {
        Value::Object(object) => Value::Object(
            object
                .iter()
                .filter(|(key, _)| key.as_str() != "description")
                .map(|(key, value)| {
                    let value = match key.as_str() {
                        // Maps of names to schemas: the names are not keywords.
                        "properties" | "patternProperties" | "$defs" | "definitions"
                        | "dependentSchemas" => Value::Object(
                            value
                                .as_object()
                                .into_iter()
                                .flatten()
                                .map(|(name, sub)| (name.clone(), essence(sub)))
                                .collect(),
                        ),
                        "$ref" => match value.as_str() {
                            Some(reference) => {
                                Value::String(reference.replacen("#/definitions/", "#/$defs/", 1))
                            }
                            None => value.clone(),
                        },
                        _ => essence(value),
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(essence).collect()),
        other => other.clone(),
    }
}

/// A definition's members: its `properties`, and those of the inline arms of an `allOf`.
fn members(definition: &Value) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    let own = definition.get("properties").and_then(Value::as_object);
    let arms = definition
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|arm| arm.get("properties").and_then(Value::as_object));
    for properties in own.into_iter().chain(arms) {
        for (name, schema) in properties {
            out.insert(name.clone(), schema.clone());
        }
    }
    out
}

/// Compares two schema documents.
pub fn compare(older: &Value, newer: &Value) -> Changes {
    let (old, new) = (definitions(older), definitions(newer));
    let mut changes = Changes {
        added: new
            .keys()
            .filter(|k| !old.contains_key(*k))
            .cloned()
            .collect(),
        removed: old
            .keys()
            .filter(|k| !new.contains_key(*k))
            .cloned()
            .collect(),
        ..Changes::default()
    };
    for (name, before) in &old {
        let Some(after) = new.get(name) else {
            continue;
        };
        if before == after {
            continue;
        }
        let (essence_before, essence_after) = (essence(before), essence(after));
        if essence_before == essence_after {
            changes.described.push(name.clone());
            continue;
        }
        let (members_before, members_after) = (members(before), members(after));
        let mut changed = Changed {
            name: name.clone(),
            ..Changed::default()
        };
        for (member, schema) in &members_after {
            match members_before.get(member) {
                None => changed.members_added.push(member.clone()),
                Some(old_schema) if essence(old_schema) != essence(schema) => {
                    changed.members_changed.push(member.clone())
                }
                Some(_) => {}
            }
        }
        changed.members_removed = members_before
            .keys()
            .filter(|m| !members_after.contains_key(*m))
            .cloned()
            .collect();
        let keys = |v: &Value| -> Vec<String> {
            v.as_object()
                .map(|o| o.keys().cloned().collect())
                .unwrap_or_default()
        };
        let mut keywords: Vec<String> = keys(&essence_before)
            .into_iter()
            .chain(keys(&essence_after))
            .filter(|k| k != "properties")
            .filter(|k| essence_before.get(k) != essence_after.get(k))
            .collect();
        // The members of an `allOf`'s arms are reported as members; the arms' other keywords
        // still count as a change of `allOf`.
        if keywords.iter().any(|k| k == "allOf") {
            let strip = |v: &Value| -> Value {
                let mut v = v.get("allOf").cloned().unwrap_or(Value::Null);
                if let Value::Array(arms) = &mut v {
                    for arm in arms {
                        if let Value::Object(arm) = arm {
                            arm.remove("properties");
                        }
                    }
                }
                v
            };
            if strip(&essence_before) == strip(&essence_after) {
                keywords.retain(|k| k != "allOf");
            }
        }
        keywords.sort();
        keywords.dedup();
        changed.keywords = keywords;
        changes.changed.push(changed);
    }
    changes
}

fn names(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The changes as a Markdown section under `title`, ready to quote in a CHANGELOG.
pub fn markdown(title: &str, changes: &Changes) -> String {
    let mut out = format!("## {title}\n\n");
    if changes.is_empty() {
        out.push_str("No definition changed.\n");
        return out;
    }
    if !changes.added.is_empty() {
        out.push_str(&format!(
            "- Definitions added: {}.\n",
            names(&changes.added)
        ));
    }
    if !changes.removed.is_empty() {
        out.push_str(&format!(
            "- Definitions removed: {}.\n",
            names(&changes.removed)
        ));
    }
    if !changes.changed.is_empty() {
        out.push_str("- Definitions changed:\n");
        for changed in &changes.changed {
            let mut parts = Vec::new();
            if !changed.members_added.is_empty() {
                parts.push(format!("members added {}", names(&changed.members_added)));
            }
            if !changed.members_removed.is_empty() {
                parts.push(format!(
                    "members removed {}",
                    names(&changed.members_removed)
                ));
            }
            if !changed.members_changed.is_empty() {
                parts.push(format!(
                    "members changed {}",
                    names(&changed.members_changed)
                ));
            }
            if !changed.keywords.is_empty() {
                parts.push(format!("keywords changed {}", names(&changed.keywords)));
            }
            out.push_str(&format!("  - `{}`: {}.\n", changed.name, parts.join("; ")));
        }
    }
    if !changes.described.is_empty() {
        out.push_str(&format!(
            "- Descriptions only: {}.\n",
            names(&changes.described)
        ));
    }
    out
}

/// The table of every adjacent pair of revisions, oldest first, from `(revision, schema)`
/// pairs in the revision table's order.
pub fn table(revisions: &[(String, Value)]) -> String {
    let mut out = String::from(
        "# What each revision changed\n\n\
         Generated from the vendored schemas by `cargo xtask changes --write` (and checked by \
         `tests/revision_changes.rs`): do not edit. Each section compares a revision's \
         `schema.json` with the one before it in `schema/revisions.json`.\n",
    );
    for pair in revisions.windows(2) {
        let ((older, old_schema), (newer, new_schema)) = (&pair[0], &pair[1]);
        out.push('\n');
        out.push_str(&markdown(
            &format!("{older} → {newer}"),
            &compare(old_schema, new_schema),
        ));
    }
    out
}
