//! Constraining keywords: what a schema asserts about a value beyond its type (`minimum`,
//! `pattern`, `uniqueItems`, `dependentRequired`, ...).
//!
//! typify carries none of them into the types, so normalization records them in a
//! description with a marker (as it does for `const`), and the rewrite pass emits a check that
//! runs when the value is read:
//! - on an object's property, every keyword of [`CHECKED`] and [`VALUE`], checked on the
//!   member right after it is read; its array items' keywords, checked on each item;
//! - on a definition that holds one value (a string such as `Cursor`, an integer, an array, a
//!   map), the same keywords, moved to every property and array items that refer to it: a
//!   value is read as a member of some message, so that is where its definition's bounds are
//!   checked, in the revision being read. A shared Rust type (`crate::Cursor`) carries no
//!   bound of its own, and no revision's bound reaches another's;
//! - on an object with `properties`, every keyword of [`OBJECT`], checked once the object is
//!   read.
//!
//! Anywhere else (a union's arm, a map's values, a definition with keywords that a union arm
//! refers to), and for every keyword of [`UNCHECKED`], the build fails and names the
//! definition: a schema bump that adds a keyword somewhere the generated readers do not look
//! must not go unchecked. `format` stays an annotation, as JSON Schema 2020-12 has it.
//!
//! An integer keeps one Rust representation whatever its bounds (see `take_keywords`).

use crate::schema_walk::walk_mut;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

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
/// descriptions, moves the keywords of every definition that holds one value (a string, a
/// number, an array, a map: anything but an object with properties or a union) to the
/// properties and array items that refer to it, and refuses what the build would leave
/// unchecked, naming the definition.
pub fn mark(schema: &mut Value) -> Result<(), String> {
    let mut problems = Vec::new();
    let key = if schema.get("definitions").is_some() {
        "definitions"
    } else {
        "$defs"
    };
    let mut definitions = match schema.get_mut(key) {
        Some(Value::Object(definitions)) => std::mem::take(definitions),
        _ => Map::new(),
    };
    // A reference to a definition with keywords, by the definition it is written in; each one
    // must be at a place that checks them.
    let mut referred: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut checked: BTreeMap<(String, String), usize> = BTreeMap::new();

    let mut pushed = BTreeMap::new();
    let names: Vec<String> = definitions.keys().cloned().collect();
    for name in &names {
        take_definition(
            name,
            &mut definitions,
            &mut pushed,
            &mut Vec::new(),
            &mut checked,
            &mut problems,
        );
    }
    for (name, def) in definitions.iter_mut() {
        let mut used = Vec::new();
        walk_mut(def, &mut |object| {
            if let Some(Value::Object(properties)) = object.get_mut("properties") {
                for (property_name, property) in properties.iter_mut() {
                    let Value::Object(property) = property else {
                        continue;
                    };
                    match take_keywords(property, &pushed, &mut used) {
                        Ok(keywords) if keywords.is_empty() => {}
                        Ok(keywords) => append_marker(property, BOUNDS_MARKER, keywords),
                        Err(e) => problems.push(format!("property `{property_name}`: {e}")),
                    }
                }
            }
        });
        for target in used {
            *checked.entry((name.clone(), target)).or_default() += 1;
        }
        let mut all = Vec::new();
        references(def, &mut all);
        for target in all {
            if pushed.get(&target).is_some_and(|k| !k.is_empty()) {
                *referred.entry((name.clone(), target)).or_default() += 1;
            }
        }
    }
    for ((referrer, target), count) in &referred {
        if checked
            .get(&(referrer.clone(), target.clone()))
            .copied()
            .unwrap_or(0)
            < *count
        {
            let keywords: Vec<&str> = pushed[target].keys().map(String::as_str).collect();
            problems.push(format!(
                "definition `{target}`: its keywords ({}) are checked where an object's \
                 property or array items refer to it, and `{referrer}` refers to it elsewhere",
                keywords.join(", ")
            ));
        }
    }
    if let Some(Value::Object(slot)) = schema.get_mut(key) {
        *slot = definitions;
    }

    walk_mut(schema, &mut |object| {
        if object.contains_key("properties") {
            if let Err(e) = mark_object(object) {
                problems.push(e);
            }
        }
    });
    let definitions = schema.get_mut(key).and_then(Value::as_object_mut);
    for (definition, def) in definitions.into_iter().flatten() {
        walk_mut(def, &mut |object| {
            for keyword in UNCHECKED.iter().chain(VALUE).chain(OBJECT) {
                if asserts(object, keyword) {
                    problems.push(format!(
                        "definition `{definition}`: keyword `{keyword}` is not checked by the \
                         generated code (only on an object's property, its array items, or a \
                         definition they refer to{})",
                        if OBJECT.contains(keyword) {
                            ", or on an object with properties"
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
            if !marked && !is_unsigned_integer(object) {
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

/// Takes the keywords out of definition `name` when it holds one value, after those of the
/// definitions it refers to, recording them in `pushed` (empty for an object with properties
/// or a union, whose keywords stay where they are).
fn take_definition(
    name: &str,
    definitions: &mut Map<String, Value>,
    pushed: &mut BTreeMap<String, Map<String, Value>>,
    visiting: &mut Vec<String>,
    checked: &mut BTreeMap<(String, String), usize>,
    problems: &mut Vec<String>,
) {
    if pushed.contains_key(name) || visiting.iter().any(|v| v == name) {
        return;
    }
    let holds_one_value = definitions
        .get(name)
        .and_then(Value::as_object)
        .is_some_and(|def| {
            !["properties", "oneOf", "anyOf", "allOf"]
                .iter()
                .any(|k| def.contains_key(*k))
        });
    if !holds_one_value {
        pushed.insert(name.to_owned(), Map::new());
        return;
    }
    let mut targets = Vec::new();
    if let Some(def) = definitions.get(name) {
        held_references(def, &mut targets);
    }
    visiting.push(name.to_owned());
    for target in &targets {
        take_definition(target, definitions, pushed, visiting, checked, problems);
    }
    visiting.pop();
    let Some(Value::Object(def)) = definitions.get_mut(name) else {
        return;
    };
    let mut used = Vec::new();
    let keywords = match take_keywords(def, pushed, &mut used) {
        Ok(keywords) => keywords,
        Err(e) => {
            problems.push(format!("definition `{name}`: {e}"));
            Map::new()
        }
    };
    for target in used {
        *checked.entry((name.to_owned(), target)).or_default() += 1;
    }
    pushed.insert(name.to_owned(), keywords);
}

/// The definitions a schema that holds one value refers to: itself, or through its items.
fn held_references(schema: &Value, out: &mut Vec<String>) {
    if let Some(name) = referenced(schema) {
        out.push(name);
    }
    if let Some(items) = schema.get("items") {
        held_references(items, out);
    }
}

/// Every definition referred to anywhere inside `schema`.
fn references(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(object) => {
            if let Some(name) = referenced(schema) {
                out.push(name);
            }
            object.values().for_each(|v| references(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, out)),
        _ => {}
    }
}

/// The definition a `{"$ref": "#/definitions/X"}` (or `#/$defs/X`) schema names.
fn referenced(schema: &Value) -> Option<String> {
    referenced_in(schema.as_object()?)
}

/// [`referenced`], on the schema's object.
fn referenced_in(schema: &Map<String, Value>) -> Option<String> {
    let reference = schema.get("$ref")?.as_str()?;
    reference
        .strip_prefix("#/definitions/")
        .or_else(|| reference.strip_prefix("#/$defs/"))
        .map(str::to_owned)
}

/// Whether an integer schema's only bound is `minimum: 0`, which its unsigned Rust type
/// enforces (see [`take_keywords`]).
fn is_unsigned_integer(object: &Map<String, Value>) -> bool {
    object.get("type").and_then(Value::as_str) == Some("integer")
        && object.get("minimum").and_then(Value::as_f64) == Some(0.0)
        && CHECKED
            .iter()
            .all(|k| *k == "minimum" || !object.contains_key(*k))
}

/// Takes the keywords out of a schema that holds one value (a property, array items, a
/// definition): its own, its array items' (under `items`), and those of the definition it
/// refers to (`pushed`), merged as JSON Schema applies them (all at once). `used` gets each
/// definition whose keywords were taken.
///
/// typify is left to see no keyword but an integer's sign: `minimum: 0` when no value below 0
/// is allowed (a `u64`), nothing otherwise (an `i64`). typify turns what it sees into types: a
/// string with a length bound or a `pattern` into a newtype that checks it, an integer with
/// `minimum: 1` into a `NonZeroU64` and with a small `maximum` into a `u32`, an array with
/// `minItems` equal to `maxItems` into a Rust array. A revision that tightens a bound would
/// change a member's Rust type under its users and under the crate's hand-written code; here
/// it changes only what is checked when the value is read.
fn take_keywords(
    schema: &mut Map<String, Value>,
    pushed: &BTreeMap<String, Map<String, Value>>,
    used: &mut Vec<String>,
) -> Result<Map<String, Value>, String> {
    let mut keywords = Map::new();
    for keyword in CHECKED {
        match schema.get(*keyword) {
            None => {}
            Some(Value::Number(n)) => {
                keywords.insert((*keyword).to_owned(), Value::Number(n.clone()));
            }
            Some(other) => return Err(format!("`{keyword}` is not a number: {other}")),
        }
    }
    for keyword in VALUE {
        if !asserts(schema, keyword) {
            continue;
        }
        let value = schema.remove(*keyword).unwrap_or(Value::Null);
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
        keywords.insert((*keyword).to_owned(), value);
    }
    let integer = schema.get("type").and_then(Value::as_str) == Some("integer");
    for keyword in CHECKED {
        schema.remove(*keyword);
    }
    if integer && lower_bound(&keywords).is_some_and(|low| low >= 0.0) {
        schema.insert("minimum".into(), Value::from(0));
    }
    if let Some(target) = referenced_in(schema) {
        if let Some(theirs) = pushed.get(&target).filter(|k| !k.is_empty()) {
            merge_keywords(&mut keywords, theirs.clone())?;
            used.push(target);
        }
    }
    if let Some(Value::Object(items)) = schema.get_mut("items") {
        if !items.contains_key("properties") {
            let theirs =
                take_keywords(items, pushed, used).map_err(|e| format!("its items: {e}"))?;
            if !theirs.is_empty() {
                let mut nested = Map::new();
                nested.insert("items".into(), Value::Object(theirs));
                merge_keywords(&mut keywords, nested)?;
            }
        }
    }
    Ok(keywords)
}

/// The smallest value an integer's recorded bounds allow, if they bound it from below.
fn lower_bound(keywords: &Map<String, Value>) -> Option<f64> {
    let minimum = keywords.get("minimum").and_then(Value::as_f64);
    // For an integer, `exclusiveMinimum: x` allows nothing below the next integer above x.
    let exclusive = keywords
        .get("exclusiveMinimum")
        .and_then(Value::as_f64)
        .map(|x| x.floor() + 1.0);
    match (minimum, exclusive) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// Adds `theirs` to `ours`, both applying: the tighter of two bounds, either `uniqueItems`,
/// both items' keywords. Two different `pattern`s, `multipleOf`s or `enum`s cannot be one
/// keyword, and are refused.
fn merge_keywords(ours: &mut Map<String, Value>, theirs: Map<String, Value>) -> Result<(), String> {
    for (keyword, value) in theirs {
        let Some(mine) = ours.get_mut(&keyword) else {
            ours.insert(keyword, value);
            continue;
        };
        if *mine == value {
            continue;
        }
        let pick = |larger: bool| -> Result<Value, String> {
            match (mine.as_f64(), value.as_f64()) {
                (Some(a), Some(b)) if (b > a) == larger => Ok(value.clone()),
                (Some(_), Some(_)) => Ok(mine.clone()),
                _ => Err(format!("`{keyword}` is not a number")),
            }
        };
        let merged = match keyword.as_str() {
            "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties" => {
                pick(true)?
            }
            "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties" => {
                pick(false)?
            }
            "uniqueItems" => {
                Value::Bool(mine.as_bool() == Some(true) || value.as_bool() == Some(true))
            }
            "items" => {
                let (Value::Object(mine_items), Value::Object(their_items)) = (mine.clone(), value)
                else {
                    return Err("`items` keywords are not objects".into());
                };
                let mut merged = mine_items;
                merge_keywords(&mut merged, their_items)?;
                Value::Object(merged)
            }
            _ => {
                return Err(format!(
                    "`{keyword}` is given twice, as {mine} and {value}, on one value: the \
                     generated check holds one"
                ))
            }
        };
        *mine = merged;
    }
    Ok(())
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
