//! The one-command bump (`cargo xtask bump`, `xtask/src/bump.rs`), run on copies of the crate:
//! today's 2026-07-28 file bumped as if it were new reproduces the repository byte for byte,
//! a copy with one added member reports exactly that member, a revision the crate did not know
//! gets its row, feature and module, and a schema that uses `pattern` gets the `pattern`
//! feature in its revision's feature (`features.rs`). Two copies are also built (`built.rs`):
//! one bumped with a `pattern`, which must then refuse a value the pattern refuses, and one
//! bumped to a new revision, against which a user's first program must compile.

// The command's own code; the tests use part of it.
#[path = "../../xtask/src/bump.rs"]
#[allow(dead_code)]
mod bump;
#[path = "../../xtask/src/changes.rs"]
#[allow(dead_code)]
mod changes;
#[path = "../../codegen/schema_walk.rs"]
#[allow(dead_code)]
mod schema_walk;

mod built;
mod copy;
mod features;

use copy::{copy_of_the_crate, files_of, repo, todays_file};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The `pattern` the tests put on `Tool.name`: lower-case names with digits, `_` and `-`.
const TOOL_NAME_PATTERN: &str = "^[a-z][a-z0-9_-]*$";

/// A bump of `revision` to `schema`, with no upstream commit and the status the bump infers.
fn bump_of(revision: &str, schema: Vec<u8>) -> bump::Bump {
    bump::Bump {
        revision: revision.into(),
        schema,
        commit: None,
        commit_date: None,
        status: None,
    }
}

/// The lines of `after` that differ from `before`, which must have as many.
fn changed_lines(before: &str, after: &str) -> Vec<String> {
    assert_eq!(before.lines().count(), after.lines().count());
    before
        .lines()
        .zip(after.lines())
        .filter(|(old, new)| old != new)
        .map(|(_, new)| new.to_owned())
        .collect()
}

/// A schema file with [`TOOL_NAME_PATTERN`] on its `Tool.name`.
fn with_a_pattern(file: &[u8]) -> Vec<u8> {
    let mut schema: Value = serde_json::from_slice(file).unwrap();
    let definitions = if schema.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    let name = &mut schema[definitions]["Tool"]["properties"]["name"];
    assert!(name.is_object(), "the schema has no Tool.name");
    name["pattern"] = json!(TOOL_NAME_PATTERN);
    serde_json::to_vec_pretty(&schema).unwrap()
}

#[test]
fn the_revision_table_reads_and_writes_back_byte_for_byte() {
    let manifest = bump::load(&repo()).expect("revisions.json reads");
    let text = std::fs::read_to_string(repo().join("schema/revisions.json")).unwrap();
    assert_eq!(bump::render(&manifest).unwrap(), text);
}

#[test]
fn bumping_todays_file_as_if_new_reproduces_the_repository() {
    let root = copy_of_the_crate("same");
    let manifest = bump::load(&repo()).unwrap();
    let outcome = bump::apply(
        &root,
        &bump::Bump {
            revision: "2026-07-28".into(),
            schema: todays_file(),
            commit: Some(manifest.upstream.commit.clone()),
            commit_date: Some(manifest.upstream.commit_date.clone()),
            status: Some("latest".into()),
        },
    )
    .expect("the bump applies");
    assert!(outcome.changes.is_empty(), "{:?}", outcome.changes);
    assert!(outcome.written.is_empty(), "{:?}", outcome.written);
    assert_eq!(files_of(&root), files_of(&repo()));
    for relative in files_of(&repo()) {
        assert!(
            std::fs::read(root.join(&relative)).unwrap()
                == std::fs::read(repo().join(&relative)).unwrap(),
            "{} differs after the bump",
            relative.display()
        );
    }
    assert_eq!(
        changes::markdown("2026-07-28", &outcome.changes),
        "## 2026-07-28\n\nNo definition changed.\n"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn one_added_member_is_reported_exactly() {
    let root = copy_of_the_crate("member");
    let mut schema: Value = serde_json::from_slice(&todays_file()).unwrap();
    schema["$defs"]["Icon"]["properties"]["badge"] =
        json!({ "type": "string", "description": "A badge." });
    let bytes = serde_json::to_vec_pretty(&schema).unwrap();
    let outcome = bump::apply(
        &root,
        &bump::Bump {
            revision: "2026-07-28".into(),
            schema: bytes.clone(),
            commit: None,
            commit_date: None,
            status: None,
        },
    )
    .expect("the bump applies");
    assert_eq!(
        outcome.changes,
        changes::Changes {
            changed: vec![changes::Changed {
                name: "Icon".into(),
                members_added: vec!["badge".into()],
                ..Default::default()
            }],
            ..Default::default()
        }
    );
    assert_eq!(
        changes::markdown("2026-07-28", &outcome.changes),
        "## 2026-07-28\n\n- Definitions changed:\n  - `Icon`: members added `badge`.\n"
    );
    assert_eq!(
        outcome.written,
        [
            PathBuf::from("schema/2026-07-28/schema.json"),
            PathBuf::from("schema/revisions.json")
        ]
    );
    assert_eq!(
        std::fs::read(root.join("schema/2026-07-28/schema.json")).unwrap(),
        bytes
    );
    // Only the bumped row's digest moved.
    let (before, after) = (bump::load(&repo()).unwrap(), bump::load(&root).unwrap());
    for (old, new) in before.revisions.iter().zip(&after.revisions) {
        if old.revision == "2026-07-28" {
            assert_ne!(old.sha256, new.sha256);
        } else {
            assert_eq!(old.sha256, new.sha256, "{}", old.revision);
        }
        assert_eq!(old.status, new.status);
    }
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_new_revision_gets_its_row_feature_and_module() {
    let root = copy_of_the_crate("new");
    let outcome = bump::apply(
        &root,
        &bump::Bump {
            revision: "2027-01-01".into(),
            schema: todays_file(),
            commit: Some("0".repeat(40)),
            commit_date: Some("2027-01-01T00:00:00Z".into()),
            status: None,
        },
    )
    .expect("the bump applies");
    assert!(outcome.new_revision);
    assert_eq!(outcome.compared_with, "2026-07-28");
    assert!(outcome.changes.is_empty());
    let manifest = bump::load(&root).unwrap();
    let order: Vec<(&str, &str)> = manifest
        .revisions
        .iter()
        .map(|r| (r.revision.as_str(), r.status.as_str()))
        .collect();
    assert_eq!(
        &order[order.len() - 3..],
        [
            ("2026-07-28", "released"),
            ("2027-01-01", "latest"),
            ("draft", "draft")
        ]
    );
    assert_eq!(manifest.upstream.commit, "0".repeat(40));
    let row = &manifest.revisions[order.len() - 2];
    assert_eq!(
        (row.module.as_str(), row.feature.as_str(), row.file.as_str()),
        ("v2027_01_01", "v2027_01_01", "2027-01-01/schema.json")
    );
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(cargo.contains("\nv2027_01_01 = []\n"), "{cargo}");
    // Besides the new line, only `default` and `all-revisions` change.
    let original = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let changed = changed_lines(&original, &cargo.replacen("v2027_01_01 = []\n", "", 1));
    assert_eq!(changed.len(), 2, "{changed:?}");
    assert!(changed[0].starts_with("default = "), "{changed:?}");
    assert!(changed[1].starts_with("all-revisions = "), "{changed:?}");
    // The new revision replaces the old one in the default; `std` stays.
    assert!(
        cargo.contains("\ndefault = [\"std\", \"v2027_01_01\"]\n"),
        "{cargo}"
    );
    let all = cargo
        .lines()
        .find(|l| l.starts_with("all-revisions = ["))
        .unwrap();
    assert!(all.ends_with(", \"v2027_01_01\"]"), "{all}");
    let module = std::fs::read_to_string(root.join("src/v2027_01_01.rs")).unwrap();
    assert!(module.contains("\"/v2027_01_01.rs\""), "{module}");
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    assert!(lib.contains(
        "pub mod v2026_07_28;\n#[cfg(feature = \"v2027_01_01\")]\npub mod v2027_01_01;\n"
    ));
    std::fs::remove_dir_all(root).unwrap();
}
