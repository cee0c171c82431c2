//! `schema/CHANGES.md`, what each revision changed from the one before it, is generated from
//! the vendored schemas by the bump command's own report (`xtask/src/changes.rs`); it must say
//! what the schemas say today.

#[path = "../xtask/src/changes.rs"]
#[allow(dead_code)]
mod changes;

use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn schema_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema")
}

fn read_json(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

#[test]
fn the_changes_table_says_what_the_schemas_say() {
    let manifest = read_json(schema_dir().join("revisions.json"));
    let revisions: Vec<(String, Value)> = manifest["revisions"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            let file = row["file"].as_str().expect("a file");
            (
                row["revision"].as_str().expect("a revision").to_owned(),
                read_json(schema_dir().join(file)),
            )
        })
        .collect();
    let expected = changes::table(&revisions);
    let committed = std::fs::read_to_string(schema_dir().join("CHANGES.md")).unwrap_or_default();
    assert!(
        committed == expected,
        "schema/CHANGES.md is stale: run `cargo xtask changes --write`"
    );
    // Not vacuous: 2026-07-28 is known to drop `initialize` and add `subscriptions/listen`.
    assert!(expected.contains("## 2025-11-25 → 2026-07-28"));
    assert!(expected.contains("`InitializeRequest`"));
    assert!(expected.contains("`SubscriptionsListenRequest`"));
}

/// The definitions of a schema (`definitions` in draft-07, `$defs` in 2020-12).
fn definitions(schema: &Value) -> &serde_json::Map<String, Value> {
    schema
        .get("definitions")
        .or_else(|| schema.get("$defs"))
        .and_then(Value::as_object)
        .expect("a schema with definitions")
}

/// The names in a line's backquoted list, after `label` (`members added `a`, `b``).
fn names_after(text: &str, label: &str) -> BTreeSet<String> {
    let Some(start) = text.find(label) else {
        return BTreeSet::new();
    };
    let rest = &text[start + label.len()..];
    let end = rest.find(';').unwrap_or(rest.len());
    rest[..end]
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// `schema/CHANGES.md` checked against the schemas by this test's own reading, not by the
/// code that wrote it: for each section `A → B`, the definitions added and removed, and for
/// each definition both have, the `properties` added and removed, are exactly the set
/// differences of the two files.
#[test]
fn the_changes_table_agrees_with_a_reading_of_its_own() {
    let manifest = read_json(schema_dir().join("revisions.json"));
    let schemas: BTreeMap<String, Value> = manifest["revisions"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            let file = row["file"].as_str().expect("a file");
            let revision = row["revision"].as_str().expect("a revision").to_owned();
            (revision, read_json(schema_dir().join(file)))
        })
        .collect();
    let committed = std::fs::read_to_string(schema_dir().join("CHANGES.md")).expect("CHANGES.md");
    let mut sections = 0;
    for section in committed.split("\n## ").skip(1) {
        let heading = section.lines().next().expect("a heading");
        let (older, newer) = heading.split_once(" → ").expect("`A → B`");
        let (older, newer) = (definitions(&schemas[older]), definitions(&schemas[newer]));
        let names = |defs: &serde_json::Map<String, Value>| -> BTreeSet<String> {
            defs.keys().cloned().collect()
        };
        let line = |label: &str| {
            section
                .lines()
                .find(|l| l.starts_with(label))
                .map(|l| names_after(l, label))
                .unwrap_or_default()
        };
        let added: BTreeSet<String> = names(newer).difference(&names(older)).cloned().collect();
        let removed: BTreeSet<String> = names(older).difference(&names(newer)).cloned().collect();
        assert_eq!(line("- Definitions added:"), added, "{heading}");
        assert_eq!(line("- Definitions removed:"), removed, "{heading}");
        for (name, new_definition) in newer {
            let Some(old_definition) = older.get(name) else {
                continue;
            };
            let properties = |d: &Value| -> BTreeSet<String> {
                d.get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default()
            };
            let (old_members, new_members) =
                (properties(old_definition), properties(new_definition));
            let entry = section
                .lines()
                .find(|l| l.starts_with(&format!("  - `{name}`: ")))
                .unwrap_or("");
            assert_eq!(
                names_after(entry, "members added "),
                new_members
                    .difference(&old_members)
                    .cloned()
                    .collect::<BTreeSet<_>>(),
                "{heading}: {name}"
            );
            assert_eq!(
                names_after(entry, "members removed "),
                old_members
                    .difference(&new_members)
                    .cloned()
                    .collect::<BTreeSet<_>>(),
                "{heading}: {name}"
            );
        }
        sections += 1;
    }
    // Each revision after the first is compared with the one before it.
    assert_eq!(sections, schemas.len() - 1);
}

#[test]
fn each_kind_of_change_is_reported() {
    let older = json!({ "definitions": {
        "Kept": { "type": "object", "description": "Old words.", "properties": { "a": { "type": "string" } } },
        "Gone": { "type": "string" },
        "Moved": {
            "type": "object",
            "properties": {
                "a": { "type": "string" },
                "b": { "type": "integer" },
                "c": { "$ref": "#/definitions/Kept" }
            },
            "required": ["a"]
        }
    } });
    let newer = json!({ "$defs": {
        "Kept": { "type": "object", "description": "New words.", "properties": { "a": { "type": "string" } } },
        "Fresh": { "type": "boolean" },
        "Moved": {
            "type": "object",
            "properties": {
                "a": { "type": "string", "description": "Only documented." },
                "b": { "type": "number" },
                "c": { "$ref": "#/$defs/Kept" },
                "d": { "type": "string" }
            },
            "required": ["a", "d"]
        }
    } });
    let found = changes::compare(&older, &newer);
    assert_eq!(
        found,
        changes::Changes {
            added: vec!["Fresh".into()],
            removed: vec!["Gone".into()],
            changed: vec![changes::Changed {
                name: "Moved".into(),
                members_added: vec!["d".into()],
                members_removed: vec![],
                members_changed: vec!["b".into()],
                keywords: vec!["required".into()],
            }],
            described: vec!["Kept".into()],
        }
    );
    assert_eq!(
        changes::markdown("old → new", &found),
        "## old → new\n\n\
         - Definitions added: `Fresh`.\n\
         - Definitions removed: `Gone`.\n\
         - Definitions changed:\n  \
         - `Moved`: members added `d`; members changed `b`; keywords changed `required`.\n\
         - Descriptions only: `Kept`.\n"
    );
}
