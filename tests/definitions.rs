//! Every definition of every enabled revision's schema has a Rust type, and that type reads
//! and writes back, unchanged, instances generated from the official schema (instances that
//! are first checked against the schema itself, so a generator mistake cannot pass for a
//! crate bug or hide one).

// With only some revisions enabled, the helpers the missing ones would use go unused.
#![cfg_attr(
    not(all(feature = "all-revisions", feature = "unstable-draft")),
    allow(dead_code, unused_imports, unused_variables)
)]

use crate::common;

use common::instances::{instance, Mode};
use common::{at, definition_pointer, definitions, load_schema, validator, violations};
use serde_json::Value;

/// The number of definitions each revision's schema holds, counted from the upstream files.
fn expected_count(revision: &str) -> usize {
    match revision {
        "2024-11-05" => 79,
        "2025-03-26" => 83,
        "2025-06-18" => 91,
        "2025-11-25" => 145,
        "2026-07-28" | "draft" => 155,
        other => panic!("unknown revision {other}"),
    }
}

type Roundtrip = fn(&str, Value) -> Option<Result<Value, String>>;

/// Every definition's instance in `mode` reads into its type and comes back equal; all failures
/// are reported together. Returns the number of definitions checked.
fn check_roundtrips(revision: &str, mode: Mode, roundtrip: Roundtrip) -> usize {
    let root = load_schema(revision);
    let mut failures = Vec::new();
    let mut checked = 0;
    for name in definitions(&root).keys() {
        checked += 1;
        let schema = at(&root, &definition_pointer(&root, name));
        let value = instance(&root, schema, mode);
        match roundtrip(name, value.clone()) {
            None => failures.push(format!("{name}: not in the table")),
            Some(Err(e)) => failures.push(format!("{name}: rejected: {e}\n  instance: {value}")),
            Some(Ok(back)) if back != value => failures.push(format!(
                "{name}: changed on the way back\n  instance: {value}\n  written:  {back}"
            )),
            Some(Ok(_)) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "{revision} ({mode:?}): {} of {checked} definitions fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    checked
}

type ReadsAlike = fn(&str, &str) -> Option<Result<(), String>>;

/// Every definition's instances, written compact, pretty (whitespace everywhere) and with every
/// string's characters escaped, read alike by the crate's JSON reader and serde_json; and a
/// cut-off and a corrupted copy of each refused by both or read alike. Returns how many texts
/// were compared.
fn check_reads_alike(revision: &str, reads_alike: ReadsAlike) -> usize {
    let root = load_schema(revision);
    let mut failures = Vec::new();
    let mut compared = 0;
    for name in definitions(&root).keys() {
        let schema = at(&root, &definition_pointer(&root, name));
        for mode in [Mode::Minimal, Mode::Full] {
            let value = instance(&root, schema, mode);
            let compact = serde_json::to_string(&value).expect("a Value writes");
            let pretty = serde_json::to_string_pretty(&value).expect("a Value writes");
            let escaped = escape_every_char(&compact);
            let mut texts = vec![compact.clone(), pretty, escaped];
            for cut in [compact.len() / 2, compact.len().saturating_sub(1)] {
                if let Some(prefix) = compact.get(..cut) {
                    texts.push(prefix.to_owned());
                }
            }
            texts.push(compact.replacen(':', ",", 1));
            texts.push(format!("{compact} x"));
            texts.extend(mistakes(&value));
            for text in &texts {
                compared += 1;
                match reads_alike(name, text) {
                    None => failures.push(format!("{name}: not in the table")),
                    Some(Err(e)) => {
                        failures.push(format!("{name} ({mode:?}): {e}\n  text: {text}"))
                    }
                    Some(Ok(())) => {}
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{revision}: {} texts read differently:\n{}",
        failures.len(),
        failures.join("\n")
    );
    compared
}

/// Values a type refuses for a reason other than the text's syntax: the instance with one
/// member (at any depth, the first few dozen met) replaced by a value of another kind, or
/// removed, and the instance itself replaced. What the readers say of these comes from the
/// types' visitors, not from the JSON grammar.
fn mistakes(value: &Value) -> Vec<String> {
    const WRONG: [&str; 15] = [
        "7",
        "-1",
        "1.5",
        "1e400",
        "null",
        "true",
        "\"x\"",
        "[]",
        "{}",
        "\"\\ud800\"",
        "\"\\udc00\"",
        "\"\\ud800\\u0041\"",
        "[[[1]]]",
        "[1.]",
        "{\"a\":-}",
    ];
    fn places(value: &Value, at: &mut Vec<String>, found: &mut Vec<Vec<String>>) {
        if let Value::Object(members) = value {
            for (name, member) in members {
                if found.len() >= 40 {
                    return;
                }
                at.push(name.clone());
                found.push(at.clone());
                places(member, at, found);
                at.pop();
            }
        }
    }
    fn edit(value: &mut Value, at: &[String], to: Option<&Value>) {
        let Some((last, parents)) = at.split_last() else {
            return;
        };
        let mut here = value;
        for name in parents {
            here = &mut here[name.as_str()];
        }
        if let Value::Object(members) = here {
            match to {
                Some(to) => {
                    members.insert(last.clone(), to.clone());
                }
                None => {
                    members.remove(last);
                }
            }
        }
    }
    // `1e400` and the lone surrogate are no `Value`: they are spliced into the text.
    // Nested past serde_json's recursion limit (128).
    let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
    let wrong_texts: Vec<String> = WRONG
        .iter()
        .map(|w| (*w).to_owned())
        .chain([deep])
        .collect();
    let marker = Value::String("\u{1}marker".to_owned());
    let marker_text = serde_json::to_string(&marker).expect("a string writes");
    let mut texts: Vec<String> = wrong_texts.clone();
    let mut found = Vec::new();
    places(value, &mut Vec::new(), &mut found);
    for at in &found {
        let mut removed = value.clone();
        edit(&mut removed, at, None);
        texts.push(serde_json::to_string(&removed).expect("a Value writes"));
        let mut marked = value.clone();
        edit(&mut marked, at, Some(&marker));
        let text = serde_json::to_string(&marked).expect("a Value writes");
        for wrong in &wrong_texts {
            texts.push(text.replacen(&marker_text, wrong, 1));
        }
    }
    texts
}

/// `text` with every character inside its strings written as a `\u` escape (surrogate pairs
/// beyond the BMP), so the reader's unescaping is compared on every member name and value.
fn escape_every_char(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 6);
    let mut in_string = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (in_string, c) {
            (false, '"') => {
                in_string = true;
                out.push('"');
            }
            (false, c) => out.push(c),
            (true, '"') => {
                in_string = false;
                out.push('"');
            }
            (true, '\\') => {
                // Keep the existing escape as it is.
                out.push('\\');
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            (true, c) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
        }
    }
    out
}

/// The generated instances are what the official schema accepts.
fn check_instances_are_valid(revision: &str) {
    let root = load_schema(revision);
    let mut failures = Vec::new();
    for name in definitions(&root).keys() {
        let pointer = definition_pointer(&root, name);
        let validator = validator(&root, &pointer);
        for mode in [Mode::Minimal, Mode::Full] {
            let value = instance(&root, at(&root, &pointer), mode);
            let errors = violations(&validator, &value);
            if !errors.is_empty() {
                failures.push(format!(
                    "{name} ({mode:?}): {}\n  instance: {value}",
                    errors.join("; ")
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{revision}: generated instances the schema rejects:\n{}",
        failures.join("\n")
    );
}

macro_rules! definition_tests {
    ($feature:literal, $module:ident, $revision:literal) => {
        #[cfg(feature = $feature)]
        mod $module {
            use super::*;
            use crate::common::definitions::$module as table;

            #[test]
            fn the_crates_reader_and_serde_json_read_every_definition_alike() {
                let compared = check_reads_alike($revision, table::reads_alike);
                // Seven texts per instance, less the cuts that would split a character.
                assert!(compared >= expected_count($revision) * 2 * 5, "{compared}");
            }

            #[test]
            fn schema_has_the_expected_number_of_definitions() {
                let root = load_schema($revision);
                assert_eq!(definitions(&root).len(), expected_count($revision));
            }

            #[test]
            fn table_names_exactly_the_schema_definitions() {
                let root = load_schema($revision);
                let schema: Vec<&str> = definitions(&root).keys().map(String::as_str).collect();
                let missing: Vec<&&str> = schema
                    .iter()
                    .filter(|n| !table::NAMES.contains(n))
                    .collect();
                let extra: Vec<&&str> = table::NAMES
                    .iter()
                    .filter(|n| !schema.contains(n))
                    .collect();
                assert!(
                    missing.is_empty() && extra.is_empty(),
                    "not in the table: {missing:?}; not in the schema: {extra:?}"
                );
                assert_eq!(table::NAMES.len(), schema.len(), "a name is listed twice");
                // The dispatch covers what the list says.
                for name in table::NAMES {
                    assert!(table::roundtrip(name, Value::Null).is_some(), "{name}");
                }
                assert!(table::roundtrip("NoSuchDefinition", Value::Null).is_none());
            }

            /// The validator is not vacuous: it rejects a wrong constant, a missing member and
            /// a malformed URI.
            #[test]
            fn validator_rejects_what_the_schema_forbids() {
                let root = load_schema($revision);
                let text = validator(&root, &definition_pointer(&root, "TextContent"));
                assert!(
                    violations(&text, &serde_json::json!({"type": "text", "text": "hi"}))
                        .is_empty()
                );
                assert!(
                    !violations(&text, &serde_json::json!({"type": "image", "text": "hi"}))
                        .is_empty()
                );
                assert!(!violations(&text, &serde_json::json!({"type": "text"})).is_empty());
                let resource = validator(&root, &definition_pointer(&root, "TextResourceContents"));
                assert!(violations(
                    &resource,
                    &serde_json::json!({"uri": "file:///a.txt", "text": "x"})
                )
                .is_empty());
                assert!(!violations(
                    &resource,
                    &serde_json::json!({"uri": "not a uri", "text": "x"})
                )
                .is_empty());
            }

            #[test]
            fn generated_instances_are_valid_against_the_schema() {
                check_instances_are_valid($revision);
            }

            #[test]
            fn minimal_instances_round_trip_unchanged() {
                let checked = check_roundtrips($revision, Mode::Minimal, table::roundtrip);
                assert_eq!(checked, expected_count($revision));
            }

            #[test]
            fn full_instances_round_trip_unchanged() {
                // Among them ServerResult of 2026-07-28 and draft, whose full instance (a plain
                // Result with `_meta`) was once read as SubscriptionsListenResult and rejected.
                let checked = check_roundtrips($revision, Mode::Full, table::roundtrip);
                assert_eq!(checked, expected_count($revision));
            }
        }
    };
}

for_each_revision!(definition_tests);

/// The generator's own rules, on small schemas whose instances are known.
mod generator {
    use super::common::instances::{instance, instance_of_arm, Mode, DEPTH};
    use serde_json::{json, Value};

    fn both(root: &Value, schema: &Value) -> (Value, Value) {
        (
            instance(root, schema, Mode::Minimal),
            instance(root, schema, Mode::Full),
        )
    }

    #[test]
    fn numbers_are_integers_in_minimal_mode_and_fractions_in_full_mode() {
        let root = json!({});
        let (minimal, full) = both(&root, &json!({"type": "number"}));
        assert_eq!(minimal.to_string(), "2");
        assert_eq!(full.to_string(), "1.5");
        let (minimal, full) = both(
            &root,
            &json!({"type": "number", "minimum": 0, "maximum": 1}),
        );
        assert_eq!(minimal.to_string(), "1");
        assert_eq!(full.to_string(), "0.5");
        let (minimal, full) = both(&root, &json!({"type": "integer", "minimum": 3}));
        assert_eq!((minimal, full), (json!(3), json!(3)));
    }

    #[test]
    fn scalars_consts_enums_and_formats() {
        let root = json!({});
        for (schema, expected) in [
            (json!({"type": "string"}), json!("text")),
            (
                json!({"type": "string", "format": "byte"}),
                json!("aGVsbG8="),
            ),
            (
                json!({"type": "string", "format": "uri"}),
                json!("https://example.com/a"),
            ),
            (json!({"type": "boolean"}), json!(true)),
            (json!({"type": ["string", "integer"]}), json!("text")),
            (json!({"type": "string", "const": "2.0"}), json!("2.0")),
            (json!({"type": "string", "enum": ["b", "a"]}), json!("b")),
        ] {
            assert_eq!(
                both(&root, &schema),
                (expected.clone(), expected),
                "{schema}"
            );
        }
    }

    #[test]
    fn objects_and_arrays_follow_the_mode() {
        let root = json!({});
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "pair": {"type": "array", "items": {"type": "integer"}, "minItems": 2}
            },
            "required": ["name", "pair"]
        });
        let (minimal, full) = both(&root, &schema);
        assert_eq!(minimal, json!({"name": "text", "pair": [1, 1]}));
        assert_eq!(
            full,
            json!({"name": "text", "tags": ["text"], "pair": [1, 1]})
        );
        let map = json!({"type": "object", "additionalProperties": {"type": "string"}});
        assert_eq!(both(&root, &map), (json!({}), json!({})));
    }

    #[test]
    fn references_resolve_in_both_spellings() {
        let draft7 = json!({"definitions": {"Id": {"type": "integer"}}});
        let draft2020 = json!({"$defs": {"Id": {"type": "integer"}}});
        assert_eq!(
            instance(&draft7, &json!({"$ref": "#/definitions/Id"}), Mode::Full),
            json!(1)
        );
        assert_eq!(
            instance(&draft2020, &json!({"$ref": "#/$defs/Id"}), Mode::Full),
            json!(1)
        );
    }

    #[test]
    fn unions_take_the_first_arm_or_the_chosen_one() {
        let root = json!({"$defs": {
            "U": {"anyOf": [{"type": "string"}, {"type": "boolean"}, {"type": "integer"}]}
        }});
        let union = json!({"$ref": "#/$defs/U"});
        assert_eq!(instance(&root, &union, Mode::Full), json!("text"));
        assert_eq!(instance_of_arm(&root, &union, Mode::Full, 1), json!(true));
        assert_eq!(instance_of_arm(&root, &union, Mode::Minimal, 2), json!(1));
    }

    #[test]
    fn all_of_merges_and_later_parts_refine() {
        let root = json!({"$defs": {"Error": {
            "type": "object",
            "properties": {"code": {"type": "integer"}, "message": {"type": "string"}},
            "required": ["code", "message"]
        }}});
        let schema = json!({"allOf": [
            {"$ref": "#/$defs/Error"},
            {"type": "object", "properties": {"code": {"const": -32020}}, "required": ["code"]}
        ]});
        assert_eq!(
            instance(&root, &schema, Mode::Minimal),
            json!({"code": -32020, "message": "text"})
        );
    }

    #[test]
    fn recursion_is_cut_at_the_depth_bound() {
        let root = json!({"$defs": {"Node": {
            "type": "object",
            "properties": {
                "label": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                "value": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "boolean"}]}
            },
            "required": ["value"]
        }}});
        let full = instance(&root, &json!({"$ref": "#/$defs/Node"}), Mode::Full);
        // Count how deep `children` nesting goes: it stops once the bound is passed.
        let mut depth = 0;
        let mut node = &full;
        while let Some(child) = node["children"].get(0) {
            depth += 1;
            node = child;
        }
        assert!(depth > 0 && depth <= DEPTH, "nesting {depth}");
        // Past the bound, the required union takes its shortest arm.
        assert_eq!(node["value"], json!(true), "{node}");
    }
}
