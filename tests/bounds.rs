//! The schemas' constraining keywords (`minimum`, `maxItems`, ...) are rules a conforming peer
//! keeps, so reading enforces them.
//!
//! - Every schema file is walked for JSON Schema validation keywords; a keyword or a place
//!   that the bound-breaking test below cannot exercise (anything but a numeric or count bound
//!   on an object's property) fails here, so a schema bump that adds one gets a test of its
//!   own. The build checks more (value keywords, bounds on definitions and array items: see
//!   `codegen/bounds.rs`), and tests/keywords.rs holds those to the `jsonschema` oracle.
//! - Every bound of every enabled revision is broken in turn, in an instance generated from the
//!   schema: the official schema and the crate both reject it, and the crate's error names the
//!   member; the value on the bound itself is accepted by both.

// With only some revisions enabled, the helpers the missing ones would use go unused.
#![cfg_attr(
    not(all(feature = "all-revisions", feature = "unstable-draft")),
    allow(dead_code, unused_imports, unused_variables)
)]

use crate::common;

use common::instances::{instance, Mode};
use common::{at, definition_pointer, load_schema, validator, violations};
use serde_json::{json, Value};

const REVISIONS: &[&str] = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "draft",
];

/// The bounds the build checks, on an object's property.
const CHECKED_BOUNDS: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
];

/// The rest of JSON Schema's validation vocabulary (2020-12 and draft-07) and the applicators
/// that constrain values. The types carry `type`, `enum`, `const`, `required`, `items`,
/// `properties`, `additionalProperties` and the `anyOf`/`oneOf`/`allOf` unions; `format` is an
/// annotation (JSON Schema 2020-12), so neither group is listed.
const UNCHECKED: &[&str] = &[
    "multipleOf",
    "pattern",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "dependentRequired",
    "dependencies",
    "dependentSchemas",
    "contains",
    "patternProperties",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "prefixItems",
    "additionalItems",
];

/// One bound of a schema: the definition, the property path inside it, keyword and value.
#[derive(Debug, Clone)]
struct Bound {
    definition: String,
    path: Vec<String>,
    keyword: String,
    value: Value,
    /// The property's own schema.
    schema: Value,
}

/// Walks a schema, knowing which keywords hold subschemas, and records every validation
/// keyword: bounds on properties in `bounds`, anything unchecked in `problems`.
fn walk(
    schema: &Value,
    pointer: &str,
    property: Option<(&str, &[String])>,
    bounds: &mut Vec<Bound>,
    problems: &mut Vec<String>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    for keyword in UNCHECKED {
        if object.contains_key(*keyword) {
            problems.push(format!(
                "{pointer}: `{keyword}` has no bound-breaking test here"
            ));
        }
    }
    for keyword in CHECKED_BOUNDS {
        let Some(value) = object.get(*keyword) else {
            continue;
        };
        match property {
            Some((definition, path)) => bounds.push(Bound {
                definition: definition.to_owned(),
                path: path.to_vec(),
                keyword: (*keyword).to_owned(),
                value: value.clone(),
                schema: schema.clone(),
            }),
            None => problems.push(format!(
                "{pointer}: `{keyword}` outside an object's property has no bound-breaking test here"
            )),
        }
    }
    for (key, child) in object {
        let here = format!("{pointer}/{key}");
        match key.as_str() {
            "properties" => {
                for (name, sub) in child.as_object().into_iter().flatten() {
                    // A property of a definition's own object (or of an inline object inside
                    // one) is where the crate checks bounds.
                    let nested = property.map(|(definition, path)| {
                        let mut path = path.to_vec();
                        path.push(name.clone());
                        (definition, path)
                    });
                    let nested = nested.or_else(|| {
                        definition_of(pointer).map(|definition| (definition, vec![name.clone()]))
                    });
                    let at = format!("{here}/{name}");
                    match &nested {
                        Some((definition, path)) => {
                            walk(sub, &at, Some((definition, path)), bounds, problems)
                        }
                        None => walk(sub, &at, None, bounds, problems),
                    }
                }
            }
            "$defs" | "definitions" => {
                for (name, sub) in child.as_object().into_iter().flatten() {
                    walk(sub, &format!("{here}/{name}"), None, bounds, problems);
                }
            }
            "items" | "additionalProperties" => {
                walk(child, &here, None, bounds, problems);
            }
            "anyOf" | "oneOf" | "allOf" => {
                for (index, sub) in child.as_array().into_iter().flatten().enumerate() {
                    walk(sub, &format!("{here}/{index}"), None, bounds, problems);
                }
            }
            _ => {}
        }
    }
}

/// `Annotations` for `/$defs/Annotations` (a definition's own schema), else `None`.
fn definition_of(pointer: &str) -> Option<&str> {
    let rest = pointer
        .strip_prefix("/$defs/")
        .or_else(|| pointer.strip_prefix("/definitions/"))?;
    (!rest.contains('/')).then_some(rest)
}

fn bounds_of(revision: &str) -> (Vec<Bound>, Vec<String>) {
    let root = load_schema(revision);
    let mut bounds = Vec::new();
    let mut problems = Vec::new();
    walk(&root, "", None, &mut bounds, &mut problems);
    (bounds, problems)
}

#[test]
fn every_constraining_keyword_of_every_schema_is_one_the_crate_checks() {
    let mut problems = Vec::new();
    let mut found = Vec::new();
    for revision in REVISIONS {
        let (bounds, unchecked) = bounds_of(revision);
        problems.extend(unchecked.into_iter().map(|p| format!("{revision}: {p}")));
        found.extend(bounds.into_iter().map(|b| (*revision, b.keyword)));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The walk is not vacuous: it finds the bounds the schemas are known to set.
    let count = |revision: &str, keyword: &str| {
        found
            .iter()
            .filter(|(r, k)| *r == revision && k == keyword)
            .count()
    };
    // `priority` of the annotations (three inline copies in 2024-11-05) and the three
    // `ModelPreferences` priorities.
    assert_eq!(count("2024-11-05", "minimum"), 9);
    assert_eq!(count("2025-06-18", "maximum"), 4);
    // 2026-07-28 adds `ttlMs` (minimum 0) to seven results and `maxItems: 100` to completions.
    assert_eq!(count("2026-07-28", "minimum"), 11);
    assert_eq!(count("2026-07-28", "maxItems"), 1);
}

#[test]
fn the_walk_finds_what_it_must_refuse() {
    let schema = json!({
        "$defs": {
            "Name": { "type": "string", "pattern": "^[a-z]+$" },
            "Scores": { "type": "array", "items": { "type": "number", "maximum": 10 } },
            "Ok": { "type": "object", "properties": { "n": { "type": "integer", "minimum": 1 } } }
        }
    });
    let (mut bounds, mut problems) = (Vec::new(), Vec::new());
    walk(&schema, "", None, &mut bounds, &mut problems);
    problems.sort();
    assert_eq!(
        problems,
        vec![
            "/$defs/Name: `pattern` has no bound-breaking test here",
            "/$defs/Scores/items: `maximum` outside an object's property has no bound-breaking test here",
        ]
    );
    assert_eq!(bounds.len(), 1);
    assert_eq!(
        (bounds[0].definition.as_str(), bounds[0].path.clone()),
        ("Ok", vec!["n".to_owned()])
    );
}

/// The value at `path` inside `value`.
fn slot<'a>(value: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    let mut here = value;
    for name in path {
        here = here.as_object_mut()?.get_mut(name)?;
    }
    Some(here)
}

/// Values for the member that break the bound, and one on the bound itself.
fn breaking_and_edge(bound: &Bound, current: &Value) -> (Vec<Value>, Value) {
    let integer = bound.schema.get("type") == Some(&json!("integer"));
    let step = if integer { 1.0 } else { 0.5 };
    let number = |n: f64| {
        if integer {
            json!(n as i64)
        } else {
            json!(n)
        }
    };
    let limit = bound.value.as_f64().expect("a numeric bound");
    let items = |n: usize| {
        let item = current
            .as_array()
            .and_then(|a| a.first().cloned())
            .unwrap_or(json!("x"));
        Value::Array(vec![item; n])
    };
    let text = |n: usize| Value::String("é".repeat(n));
    let n = limit as usize;
    match bound.keyword.as_str() {
        "minimum" => (vec![number(limit - step)], number(limit)),
        "maximum" => (vec![number(limit + step)], number(limit)),
        "exclusiveMinimum" => (vec![number(limit)], number(limit + step)),
        "exclusiveMaximum" => (vec![number(limit)], number(limit - step)),
        "minItems" => (vec![items(n.saturating_sub(1))], items(n)),
        "maxItems" => (vec![items(n + 1)], items(n)),
        "minLength" => (vec![text(n.saturating_sub(1))], text(n)),
        "maxLength" => (vec![text(n + 1)], text(n)),
        other => panic!("no mutation for {other}"),
    }
}

type Parse = fn(&str, Value) -> Option<Result<(Value, String), String>>;

fn check_every_bound(revision: &str, parse: Parse) {
    let root = load_schema(revision);
    let (bounds, _) = bounds_of(revision);
    assert!(!bounds.is_empty());
    let mut failures = Vec::new();
    for bound in &bounds {
        let pointer = definition_pointer(&root, &bound.definition);
        let schema_check = validator(&root, &pointer);
        let base = instance(&root, at(&root, &pointer), Mode::Full);
        let what = format!(
            "{}.{} {} {}",
            bound.definition,
            bound.path.join("."),
            bound.keyword,
            bound.value
        );
        let mut probe = base.clone();
        let Some(current) = slot(&mut probe, &bound.path).map(|v| v.clone()) else {
            failures.push(format!(
                "{what}: the generated instance has no such member: {base}"
            ));
            continue;
        };
        let (breaking, edge) = breaking_and_edge(bound, &current);
        let expected_path = bound.path.join(".");
        for bad in breaking {
            let mut value = base.clone();
            *slot(&mut value, &bound.path).unwrap() = bad.clone();
            if violations(&schema_check, &value).is_empty() {
                failures.push(format!(
                    "{what}: the schema accepts {bad}: the mutation is wrong"
                ));
            }
            match parse(&bound.definition, value) {
                Some(Err(error)) if error.starts_with(&format!("at {expected_path}: ")) => {}
                other => failures.push(format!(
                    "{what}: {bad} should be rejected at {expected_path}, got {other:?}"
                )),
            }
        }
        let mut value = base.clone();
        *slot(&mut value, &bound.path).unwrap() = edge.clone();
        if !violations(&schema_check, &value).is_empty() {
            failures.push(format!("{what}: the schema rejects the edge value {edge}"));
        }
        if !matches!(parse(&bound.definition, value), Some(Ok(_))) {
            failures.push(format!("{what}: the crate rejects the edge value {edge}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{revision}: {} of {} bounds:\n{}",
        failures.len(),
        bounds.len(),
        failures.join("\n")
    );
}

macro_rules! bound_tests {
    ($feature:literal, $module:ident, $revision:literal) => {
        #[cfg(feature = $feature)]
        mod $module {
            use super::*;
            use crate::common::definitions::$module as table;

            #[test]
            fn every_bound_is_enforced_when_reading() {
                check_every_bound($revision, table::parse);
            }
        }
    };
}

for_each_revision!(bound_tests);

// The build's own marking pass, run on schemas made for the purpose: every keyword class is
// recorded (including those no vendored schema uses yet), and an unchecked one fails.
use crate::build_bounds;

#[test]
fn the_build_records_every_bound_keyword_on_a_property() {
    let mut schema = json!({
        "definitions": { "Thing": { "type": "object", "properties": {
            "n": { "type": "number", "minimum": 0, "maximum": 1, "description": "A share." },
            "x": { "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 10 },
            "s": { "type": "string", "minLength": 1, "maxLength": 3 },
            "a": { "type": "array", "items": { "type": "string" }, "minItems": 1, "maxItems": 2 }
        } } }
    });
    build_bounds::mark(&mut schema).unwrap();
    let doc = |name: &str| {
        schema["definitions"]["Thing"]["properties"][name]["description"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(
        doc("n"),
        "A share.\n\n@mcp-bounds {\"maximum\":1,\"minimum\":0}"
    );
    assert_eq!(
        build_bounds::bounds_in(&doc("x")).map(Value::Object),
        Some(json!({"exclusiveMinimum": 0, "exclusiveMaximum": 10}))
    );
    assert_eq!(
        build_bounds::bounds_in(&doc("s")).map(Value::Object),
        Some(json!({"minLength": 1, "maxLength": 3}))
    );
    assert_eq!(
        build_bounds::bounds_in(&doc("a")).map(Value::Object),
        Some(json!({"minItems": 1, "maxItems": 2}))
    );
    assert_eq!(build_bounds::strip_marker(&doc("n")), "A share.");

    // Where no generated reader looks: a union's arm, a map's values, an object without
    // properties that a union refers to.
    for refused in [
        json!({ "definitions": { "U": { "oneOf": [{ "type": "number", "minimum": 0 }, { "type": "string" }] } } }),
        json!({ "definitions": { "M": { "type": "object", "properties": {
            "m": { "type": "object", "additionalProperties": { "type": "string", "maxLength": 3 } }
        } } } }),
        json!({ "definitions": {
            "O": { "type": "object", "minProperties": 1 },
            "U": { "oneOf": [{ "$ref": "#/definitions/O" }, { "type": "string" }] }
        } }),
    ] {
        let mut schema = refused.clone();
        assert!(build_bounds::mark(&mut schema).is_err(), "{refused}");
    }
}

#[test]
fn the_runtime_check_covers_every_keyword_class() {
    use mcp_spec_types::__private::{Bounded, Bounds};
    let none = Bounds {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        min_length: None,
        max_length: None,
        min_items: None,
        max_items: None,
    };
    let number = |text: &str| serde_json::from_str::<serde_json::Number>(text).unwrap();
    let range = Bounds {
        minimum: Some(0.0),
        maximum: Some(1.0),
        ..none
    };
    assert_eq!(number("1").out_of_bounds(&range), None);
    assert_eq!(number("0.0").out_of_bounds(&range), None);
    assert_eq!(
        number("1.5").out_of_bounds(&range).as_deref(),
        Some("1.5 is greater than the maximum 1")
    );
    assert_eq!(
        number("-0.1").out_of_bounds(&range).as_deref(),
        Some("-0.1 is less than the minimum 0")
    );
    let open = Bounds {
        exclusive_minimum: Some(0.0),
        exclusive_maximum: Some(2.0),
        ..none
    };
    assert!(number("0").out_of_bounds(&open).is_some());
    assert!(number("2").out_of_bounds(&open).is_some());
    assert_eq!(number("1").out_of_bounds(&open), None);
    assert!(5u64
        .out_of_bounds(&Bounds {
            maximum: Some(4.0),
            ..none
        })
        .is_some());
    assert!((-1i64)
        .out_of_bounds(&Bounds {
            minimum: Some(0.0),
            ..none
        })
        .is_some());
    // Lengths count characters, not bytes.
    let length = Bounds {
        min_length: Some(2),
        max_length: Some(3),
        ..none
    };
    assert_eq!("ééé".to_owned().out_of_bounds(&length), None);
    assert_eq!(
        "é".to_owned().out_of_bounds(&length).as_deref(),
        Some("1 characters, fewer than the minimum 2")
    );
    assert!("abcd".to_owned().out_of_bounds(&length).is_some());
    let items = Bounds {
        min_items: Some(1),
        max_items: Some(2),
        ..none
    };
    assert!(Vec::<u8>::new().out_of_bounds(&items).is_some());
    assert_eq!(vec![1, 2].out_of_bounds(&items), None);
    assert_eq!(
        vec![1, 2, 3].out_of_bounds(&items).as_deref(),
        Some("3 items, more than the maximum 2")
    );
    // Each keyword applies to its own kind of value only, as in JSON Schema.
    assert_eq!("abc".to_owned().out_of_bounds(&range), None);
    assert_eq!(number("7").out_of_bounds(&items), None);
}
