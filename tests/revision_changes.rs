//! `schema/CHANGES.md`, what each revision changed from the one before it, is generated from
//! the vendored schemas by the bump command's own report (`xtask/src/changes.rs`); it must say
//! what the schemas say today.

#[path = "../xtask/src/changes.rs"]
#[allow(dead_code)]
mod changes;

use serde_json::{json, Value};
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
