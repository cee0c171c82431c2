//! `schema/revisions.json` is the one table the build reads: it must describe exactly the
//! vendored files, byte for byte, and name modules and features by the crate's rules.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::PathBuf;

fn schema_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema")
}

fn manifest() -> Value {
    let path = schema_dir().join("revisions.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

fn rows() -> Vec<Value> {
    manifest()["revisions"]
        .as_array()
        .expect("revisions.json has a `revisions` array")
        .clone()
}

fn field<'a>(row: &'a Value, name: &str) -> &'a str {
    row[name]
        .as_str()
        .unwrap_or_else(|| panic!("a row lacks the string `{name}`: {row}"))
}

/// The names a revision's module and feature must have: `v` plus the date with underscores;
/// the draft's feature says it is unstable.
fn expected_names(revision: &str) -> (String, String) {
    if revision == "draft" {
        ("draft".into(), "unstable-draft".into())
    } else {
        let module = format!("v{}", revision.replace('-', "_"));
        (module.clone(), module)
    }
}

#[test]
fn lists_exactly_the_six_revisions_in_order() {
    let revisions: Vec<String> = rows()
        .iter()
        .map(|r| field(r, "revision").to_owned())
        .collect();
    assert_eq!(
        revisions,
        [
            "2024-11-05",
            "2025-03-26",
            "2025-06-18",
            "2025-11-25",
            "2026-07-28",
            "draft"
        ]
    );
}

#[test]
fn every_file_exists_where_the_revision_says() {
    for row in rows() {
        let revision = field(&row, "revision");
        let file = field(&row, "file");
        assert_eq!(file, format!("{revision}/schema.json"), "{row}");
        assert!(
            schema_dir().join(file).is_file(),
            "{revision}: schema/{file} is missing"
        );
        assert_eq!(
            field(&row, "upstream_path"),
            format!("schema/{file}"),
            "{revision}: the vendored path mirrors upstream's"
        );
    }
}

#[test]
fn every_file_hashes_to_its_recorded_sha256() {
    for row in rows() {
        let file = field(&row, "file");
        let bytes = std::fs::read(schema_dir().join(file)).expect("readable schema");
        let actual = format!("{:x}", Sha256::digest(&bytes));
        let recorded = field(&row, "sha256");
        assert_eq!(
            recorded.len(),
            64,
            "{file}: a sha256 is 64 hex digits, found {recorded:?}"
        );
        assert_eq!(actual, recorded, "{file} differs from the vendored bytes");
    }
}

#[test]
fn modules_and_features_follow_the_naming_rules() {
    for row in rows() {
        let revision = field(&row, "revision");
        let (module, feature) = expected_names(revision);
        assert_eq!(field(&row, "module"), module, "{revision}");
        assert_eq!(field(&row, "feature"), feature, "{revision}");
    }
}

/// The tests' own revision list (whose `cfg(feature = ...)`s the compiler checks against
/// Cargo.toml) must be the manifest's.
#[test]
fn the_manifest_matches_the_features_the_crate_declares() {
    let declared: Vec<(&str, &str)> = vec![
        ("v2024_11_05", "2024-11-05"),
        ("v2025_03_26", "2025-03-26"),
        ("v2025_06_18", "2025-06-18"),
        ("v2025_11_25", "2025-11-25"),
        ("v2026_07_28", "2026-07-28"),
        ("unstable-draft", "draft"),
    ];
    let listed: Vec<(String, String)> = rows()
        .iter()
        .map(|r| {
            (
                field(r, "feature").to_owned(),
                field(r, "revision").to_owned(),
            )
        })
        .collect();
    let declared: Vec<(String, String)> = declared
        .into_iter()
        .map(|(f, r)| (f.to_owned(), r.to_owned()))
        .collect();
    assert_eq!(listed, declared);
}

#[test]
fn statuses_mark_the_latest_release_and_the_draft() {
    let statuses: Vec<(String, String)> = rows()
        .iter()
        .map(|r| {
            (
                field(r, "revision").to_owned(),
                field(r, "status").to_owned(),
            )
        })
        .collect();
    let expected = [
        ("2024-11-05", "released"),
        ("2025-03-26", "released"),
        ("2025-06-18", "released"),
        ("2025-11-25", "released"),
        ("2026-07-28", "latest"),
        ("draft", "draft"),
    ]
    .map(|(r, s)| (r.to_owned(), s.to_owned()));
    assert_eq!(statuses, expected);
}

#[test]
fn upstream_provenance_is_recorded() {
    let upstream = &manifest()["upstream"];
    assert_eq!(
        upstream["repository"],
        "modelcontextprotocol/modelcontextprotocol"
    );
    let commit = upstream["commit"].as_str().expect("a commit");
    assert!(
        commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit()),
        "the upstream commit is a full sha1, found {commit:?}"
    );
    let license = upstream["license"].as_str().expect("a license note");
    assert!(
        license.contains("MIT") && license.contains("Apache-2.0"),
        "{license}"
    );
}

/// Draft-07 for the first three revisions, 2020-12 from 2025-11-25 on; the generator and the
/// tests both depend on where the definitions live.
#[test]
fn each_schema_declares_its_dialect() {
    for row in rows() {
        let revision = field(&row, "revision");
        let bytes = std::fs::read(schema_dir().join(field(&row, "file"))).unwrap();
        let schema: Value = serde_json::from_slice(&bytes).expect("valid JSON");
        let (dialect, key) = match revision {
            "2024-11-05" | "2025-03-26" | "2025-06-18" => {
                ("http://json-schema.org/draft-07/schema#", "definitions")
            }
            _ => ("https://json-schema.org/draft/2020-12/schema", "$defs"),
        };
        assert_eq!(schema["$schema"], dialect, "{revision}");
        assert!(schema[key].is_object(), "{revision}: no `{key}`");
    }
}

/// Each enabled revision's module exists under the manifest's name and defines methods.
macro_rules! module_exists {
    ($feature:literal, $module:ident, $revision:literal) => {
        #[cfg(feature = $feature)]
        #[test]
        fn $module() {
            let row = rows()
                .into_iter()
                .find(|r| field(r, "revision") == $revision)
                .expect("listed");
            assert_eq!(field(&row, "module"), stringify!($module));
            assert!(!mcp_spec_types::$module::Method::ALL.is_empty());
        }
    };
}

mod module_of_each_enabled_revision {
    // Unused in a build with no revision enabled.
    #[allow(unused_imports)]
    use super::*;
    module_exists!("v2024_11_05", v2024_11_05, "2024-11-05");
    module_exists!("v2025_03_26", v2025_03_26, "2025-03-26");
    module_exists!("v2025_06_18", v2025_06_18, "2025-06-18");
    module_exists!("v2025_11_25", v2025_11_25, "2025-11-25");
    module_exists!("v2026_07_28", v2026_07_28, "2026-07-28");
    module_exists!("unstable-draft", draft, "draft");
}

/// `all-revisions` turns on every released revision and leaves the draft opt-in.
#[test]
fn all_revisions_enables_every_release_but_not_the_draft() {
    let cargo =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
            .expect("Cargo.toml");
    let line = cargo
        .lines()
        .find(|l| l.trim_start().starts_with("all-revisions"))
        .expect("an `all-revisions` feature");
    let list = &line[line.find('[').expect("a list")..];
    let mut enabled: Vec<&str> = list
        .trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|s| s.trim().trim_matches('"'))
        .filter(|s| !s.is_empty())
        .collect();
    enabled.sort_unstable();
    let mut released: Vec<String> = rows()
        .iter()
        .filter(|r| field(r, "status") != "draft")
        .map(|r| field(r, "feature").to_owned())
        .collect();
    released.sort_unstable();
    assert_eq!(enabled, released);
}

/// `latest` is the newest released revision among the enabled ones (the draft never).
#[test]
fn latest_is_the_newest_enabled_release() {
    let newest = mcp_spec_types::ProtocolVersion::SUPPORTED_RELEASED.first();
    #[cfg(any(
        feature = "v2024_11_05",
        feature = "v2025_03_26",
        feature = "v2025_06_18",
        feature = "v2025_11_25",
        feature = "v2026_07_28"
    ))]
    assert_eq!(
        newest.map(|v| v.as_str()),
        Some(mcp_spec_types::latest::REVISION)
    );
    // The newest released row of the table, whatever this build enables.
    let released: Vec<String> = rows()
        .iter()
        .filter(|r| field(r, "status") != "draft")
        .map(|r| field(r, "revision").to_owned())
        .collect();
    if cfg!(feature = "all-revisions") {
        assert_eq!(
            newest.map(|v| v.as_str()),
            released.last().map(String::as_str)
        );
    }
}
