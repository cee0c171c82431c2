//! A schema that uses `pattern` gets the crate's `pattern` feature in its revision's feature:
//! the `Cargo.toml` edit on its own (only the one list changes), then through `bump::apply`
//! for a known revision, a new one and the draft, and a bump that takes the last `pattern`
//! away, which leaves the feature as it is.

use crate::copy::{copy_of_the_crate, repo, todays_file};
use crate::{bump, bump_of, changed_lines, with_a_pattern};
use serde_json::json;
use std::path::PathBuf;

/// A manifest with the shapes the edit must leave alone around the lists it changes: a key of
/// a feature's name in another table, a feature whose name starts with another's, a list over
/// several lines with a comment, and a comment after the table's header.
fn manifest(v2025: &str, v2026: &str, draft: &str) -> String {
    format!(
        r#"[package]
name = "example"

[package.metadata.example]
v2026_07_28 = []

[features]  # one per revision
default = ["v2026_07_28"]
v2025_11_25 = {v2025}
v2026_07_28 = {v2026}
v2026_07_28-extra = []
unstable-draft = [{draft}
    "dep:serde", # why
]
all-revisions = ["v2025_11_25", "v2026_07_28"]

[dependencies]
serde = {{ version = "1", optional = true }}
"#
    )
}

#[test]
fn an_empty_list_gets_the_pattern_and_nothing_else_changes() {
    let before = manifest("[\"x\"]", "[]", "");
    let after = bump::list_in_feature(&before, "v2026_07_28", "pattern").unwrap();
    assert_eq!(after, Some(manifest("[\"x\"]", "[\"pattern\"]", "")));
}

#[test]
fn a_list_keeps_its_entries_and_gets_the_pattern_last() {
    let before = manifest("[\"x\"]", "[]", "");
    let after = bump::list_in_feature(&before, "v2025_11_25", "pattern").unwrap();
    assert_eq!(after, Some(manifest("[\"x\", \"pattern\"]", "[]", "")));
    // A trailing comma becomes the separator.
    let before = manifest("[\"x\",]", "[]", "");
    let after = bump::list_in_feature(&before, "v2025_11_25", "pattern").unwrap();
    assert_eq!(after, Some(manifest("[\"x\", \"pattern\"]", "[]", "")));
}

#[test]
fn a_list_over_several_lines_gets_a_line_of_its_own() {
    let before = manifest("[]", "[]", "");
    let after = bump::list_in_feature(&before, "unstable-draft", "pattern").unwrap();
    assert_eq!(after, Some(manifest("[]", "[]", "\n    \"pattern\",")));
    // Line endings stay what they were.
    let crlf = before.replace('\n', "\r\n");
    let after = bump::list_in_feature(&crlf, "unstable-draft", "pattern").unwrap();
    assert_eq!(
        after,
        Some(manifest("[]", "[]", "\n    \"pattern\",").replace('\n', "\r\n"))
    );
}

#[test]
fn a_list_that_has_the_pattern_is_left_as_it_is() {
    let listed = manifest(
        "[\"x\", \"pattern\"]",
        "[\"pattern\"]",
        "\n    \"pattern\",",
    );
    for feature in ["v2025_11_25", "v2026_07_28", "unstable-draft"] {
        assert_eq!(
            bump::list_in_feature(&listed, feature, "pattern").unwrap(),
            None,
            "{feature}"
        );
        assert!(bump::feature_lists(&listed, feature, "pattern").unwrap());
    }
    let unlisted = manifest("[\"x\"]", "[]", "");
    assert!(!bump::feature_lists(&unlisted, "v2026_07_28", "pattern").unwrap());
    // Only the `[features]` table counts.
    assert!(bump::feature_lists(
        "[package.metadata.x]\nv2026_07_28 = []\n",
        "v2026_07_28",
        "pattern"
    )
    .is_err());
    assert!(bump::list_in_feature(&unlisted, "v2099_01_01", "pattern")
        .unwrap_err()
        .contains("no feature `v2099_01_01`"));
}

#[test]
fn the_keyword_is_found_wherever_a_subschema_can_be() {
    let uses = |schema| bump::uses_pattern(&schema);
    assert!(!uses(serde_json::from_slice(&todays_file()).unwrap()));
    assert!(uses(
        serde_json::from_slice(&with_a_pattern(&todays_file())).unwrap()
    ));
    assert!(uses(json!({ "definitions": { "A": {
        "type": "array",
        "items": { "anyOf": [{ "type": "string", "pattern": "^a" }] }
    } } })));
    // A member named `pattern`, and a value that holds one, are not the keyword.
    assert!(!uses(json!({ "$defs": { "A": {
        "type": "object",
        "properties": { "pattern": { "type": "string" } },
        "default": { "pattern": "^a" }
    } } })));
}

#[test]
fn a_known_revision_that_gains_a_pattern_lists_it_once() {
    let root = copy_of_the_crate("pattern-known");
    let cargo = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let patterned = with_a_pattern(&todays_file());

    let outcome = bump::apply(&root, &bump_of("2026-07-28", patterned.clone())).unwrap();
    assert_eq!(outcome.pattern, bump::Pattern::Added);
    assert_eq!(
        outcome.written,
        [
            PathBuf::from("schema/2026-07-28/schema.json"),
            PathBuf::from("schema/revisions.json"),
            PathBuf::from("Cargo.toml"),
        ]
    );
    let listed = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert_eq!(
        changed_lines(&cargo, &listed),
        ["v2026_07_28 = [\"pattern\"]"]
    );
    assert!(outcome
        .pattern
        .report("v2026_07_28")
        .unwrap()
        .contains("now lists \"pattern\""));

    // Again: the feature has it, and nothing is written.
    let outcome = bump::apply(&root, &bump_of("2026-07-28", patterned)).unwrap();
    assert_eq!(outcome.pattern, bump::Pattern::Listed);
    assert!(outcome.written.is_empty(), "{:?}", outcome.written);
    assert_eq!(outcome.pattern.report("v2026_07_28"), None);

    // The last `pattern` goes: the bump says so and leaves the feature to the maintainer.
    let outcome = bump::apply(&root, &bump_of("2026-07-28", todays_file())).unwrap();
    assert_eq!(
        outcome.pattern,
        bump::Pattern::NoLongerUsed { still_listed: true }
    );
    assert!(!outcome.written.contains(&PathBuf::from("Cargo.toml")));
    assert_eq!(
        std::fs::read_to_string(root.join("Cargo.toml")).unwrap(),
        listed
    );
    let report = outcome.pattern.report("v2026_07_28").unwrap();
    assert!(report.contains("no longer uses `pattern`"), "{report}");
    assert!(report.contains("still lists \"pattern\""), "{report}");
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_new_revision_that_uses_pattern_lists_it_in_its_new_feature() {
    let plain = copy_of_the_crate("pattern-new-plain");
    bump::apply(&plain, &bump_of("2027-01-01", todays_file())).unwrap();
    let root = copy_of_the_crate("pattern-new");
    let outcome = bump::apply(
        &root,
        &bump_of("2027-01-01", with_a_pattern(&todays_file())),
    )
    .unwrap();
    assert_eq!(outcome.pattern, bump::Pattern::Added);
    let count = |path: &str| {
        outcome
            .written
            .iter()
            .filter(|p| p.as_os_str() == path)
            .count()
    };
    assert_eq!(count("Cargo.toml"), 1, "{:?}", outcome.written);
    // The same Cargo.toml as a bump without `pattern` writes, but for the new feature's list.
    let read = |root: &PathBuf| std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert_eq!(
        changed_lines(&read(&plain), &read(&root)),
        ["v2027_01_01 = [\"pattern\"]"]
    );
    std::fs::remove_dir_all(plain).unwrap();
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn the_draft_that_uses_pattern_lists_it_in_unstable_draft() {
    let root = copy_of_the_crate("pattern-draft");
    let cargo = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let draft = std::fs::read(repo().join("schema/draft/schema.json")).unwrap();
    let outcome = bump::apply(&root, &bump_of("draft", with_a_pattern(&draft))).unwrap();
    assert_eq!(outcome.pattern, bump::Pattern::Added);
    assert_eq!(
        changed_lines(
            &cargo,
            &std::fs::read_to_string(root.join("Cargo.toml")).unwrap()
        ),
        ["unstable-draft = [\"pattern\"]"]
    );
    std::fs::remove_dir_all(root).unwrap();
}
