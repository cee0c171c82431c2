//! Reads `schema/revisions.json`, the one table that declares the revisions the crate knows.

use std::path::Path;

/// One row of the revision table.
#[derive(Clone)]
pub struct Revision {
    /// The revision's name as the specification spells it (`2025-06-18`, `draft`).
    pub revision: String,
    /// The Rust module generated for it (`v2025_06_18`).
    pub module: String,
    /// The Cargo feature that enables it.
    pub feature: String,
    /// `released`, `latest` (exactly one row) or `draft`.
    pub status: String,
    /// The schema file, relative to `schema/`.
    pub file: String,
    /// The schema file's sha256, as vendored.
    pub sha256: String,
}

impl Revision {
    /// Whether Cargo enabled this revision's feature for the current build.
    pub fn is_enabled(&self) -> bool {
        let var = format!(
            "CARGO_FEATURE_{}",
            self.feature.to_uppercase().replace('-', "_")
        );
        std::env::var_os(var).is_some()
    }
}

pub fn load(path: &Path) -> Result<Vec<Revision>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let table: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("parsing {}: {e}", path.display()))?;
    let rows = table
        .get("revisions")
        .and_then(|r| r.as_array())
        .ok_or("revisions.json has no `revisions` array")?;
    rows.iter()
        .map(|row| {
            let field = |name: &str| {
                row.get(name)
                    .and_then(|v| v.as_str())
                    .map(str::to_owned)
                    .ok_or_else(|| format!("a revisions.json row lacks the string `{name}`"))
            };
            Ok(Revision {
                revision: field("revision")?,
                module: field("module")?,
                feature: field("feature")?,
                status: field("status")?,
                file: field("file")?,
                sha256: field("sha256")?,
            })
        })
        .collect()
}
