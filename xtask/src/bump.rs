//! Places a new `schema.json` in the crate and records it: the file under
//! `schema/<revision>/`, its row in `schema/revisions.json` (digest, status, upstream commit),
//! and for a revision the crate did not know yet its feature, module file and module line.
//! Building and testing are the command's next steps (`main.rs`); this part only writes files,
//! so the tests run it on a copy of the crate.

use crate::changes::{self, Changes};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// `schema/revisions.json`, field for field in the file's order (so that writing it back
/// changes no byte that the bump does not mean to change).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub upstream: Upstream,
    pub revisions: Vec<Row>,
}

/// Where the vendored schemas come from.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upstream {
    pub repository: String,
    pub commit: String,
    pub commit_date: String,
    pub license: String,
}

/// One revision.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub revision: String,
    pub module: String,
    pub feature: String,
    pub status: String,
    pub file: String,
    pub sha256: String,
    pub upstream_path: String,
}

/// What to bump.
#[derive(Debug, Clone)]
pub struct Bump {
    /// The revision's name as the specification spells it (`2027-01-01`, `draft`).
    pub revision: String,
    /// The new `schema.json`, byte for byte.
    pub schema: Vec<u8>,
    /// The upstream commit the file comes from, when the user fetched one.
    pub commit: Option<String>,
    /// That commit's date (ISO 8601).
    pub commit_date: Option<String>,
    /// The revision's status, when it changes (`latest`, `released`, `draft`); a new dated
    /// revision is `latest` unless told otherwise.
    pub status: Option<String>,
}

/// What a bump did.
#[derive(Debug)]
pub struct Outcome {
    /// Whether the crate did not know the revision before.
    pub new_revision: bool,
    /// The revision the changes are counted from: this one's previous file, or for a new
    /// revision the one before it.
    pub compared_with: String,
    /// What changed from that file to the new one.
    pub changes: Changes,
    /// The row as recorded.
    pub row: Row,
    /// Every file written, relative to the crate's root.
    pub written: Vec<PathBuf>,
}

/// The module and feature of a revision, by the crate's naming rules.
pub fn names(revision: &str) -> (String, String) {
    if revision == "draft" {
        ("draft".into(), "unstable-draft".into())
    } else {
        let module = format!("v{}", revision.replace('-', "_"));
        (module.clone(), module)
    }
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))
}

fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))
}

fn write(
    root: &Path,
    relative: &str,
    bytes: &[u8],
    written: &mut Vec<PathBuf>,
) -> Result<(), String> {
    let path = root.join(relative);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("creating {}: {e}", parent.display()))?;
    }
    // A file already holding these bytes is left alone, so an unchanged bump touches nothing.
    if std::fs::read(&path).ok().as_deref() == Some(bytes) {
        return Ok(());
    }
    std::fs::write(&path, bytes).map_err(|e| format!("writing {}: {e}", path.display()))?;
    written.push(PathBuf::from(relative));
    Ok(())
}

/// Reads the revision table.
pub fn load(root: &Path) -> Result<Manifest, String> {
    let path = root.join("schema").join("revisions.json");
    serde_json::from_str(&read_text(&path)?).map_err(|e| format!("parsing {}: {e}", path.display()))
}

/// The revision table as the crate keeps it: two-space indents and a final newline.
pub fn render(manifest: &Manifest) -> Result<String, String> {
    serde_json::to_string_pretty(manifest)
        .map(|text| text + "\n")
        .map_err(|e| format!("writing revisions.json: {e}"))
}

/// Applies the bump to the crate at `root`.
pub fn apply(root: &Path, bump: &Bump) -> Result<Outcome, String> {
    let newer: Value = serde_json::from_slice(&bump.schema)
        .map_err(|e| format!("the new schema is not JSON: {e}"))?;
    if newer
        .get("$defs")
        .or_else(|| newer.get("definitions"))
        .is_none()
    {
        return Err("the new schema has no definitions".into());
    }
    let mut manifest = load(root)?;
    let mut written = Vec::new();
    let position = manifest
        .revisions
        .iter()
        .position(|r| r.revision == bump.revision);
    let new_revision = position.is_none();
    let index = match position {
        Some(index) => index,
        None => {
            let (module, feature) = names(&bump.revision);
            let file = format!("{}/schema.json", bump.revision);
            let row = Row {
                revision: bump.revision.clone(),
                module,
                feature,
                status: String::new(),
                upstream_path: format!("schema/{file}"),
                file,
                sha256: String::new(),
            };
            // Dated revisions in date order, the draft last.
            let index = manifest
                .revisions
                .iter()
                .position(|r| r.revision == "draft" || r.revision > bump.revision)
                .unwrap_or(manifest.revisions.len());
            manifest.revisions.insert(index, row);
            index
        }
    };
    // The file the changes are counted from.
    let (compared_with, older_file) = if new_revision {
        let before = manifest.revisions[..index]
            .last()
            .ok_or("no revision comes before the new one")?;
        (before.revision.clone(), before.file.clone())
    } else {
        let row = &manifest.revisions[index];
        (row.revision.clone(), row.file.clone())
    };
    let older: Value = serde_json::from_slice(&read(&root.join("schema").join(&older_file))?)
        .map_err(|e| format!("parsing schema/{older_file}: {e}"))?;
    let changes = changes::compare(&older, &newer);

    let status = match (&bump.status, new_revision) {
        (Some(status), _) => status.clone(),
        (None, false) => manifest.revisions[index].status.clone(),
        (None, true) if bump.revision == "draft" => "draft".into(),
        (None, true) => "latest".into(),
    };
    if !["latest", "released", "draft"].contains(&status.as_str()) {
        return Err(format!(
            "unknown status {status:?}: latest, released or draft"
        ));
    }
    if status == "latest" {
        for row in &mut manifest.revisions {
            if row.status == "latest" && row.revision != bump.revision {
                row.status = "released".into();
            }
        }
    }
    let row = &mut manifest.revisions[index];
    row.status = status;
    row.sha256 = format!("{:x}", Sha256::digest(&bump.schema));
    let row = row.clone();
    if let Some(commit) = &bump.commit {
        manifest.upstream.commit = commit.clone();
    }
    if let Some(date) = &bump.commit_date {
        manifest.upstream.commit_date = date.clone();
    }

    write(
        root,
        &format!("schema/{}", row.file),
        &bump.schema,
        &mut written,
    )?;
    write(
        root,
        "schema/revisions.json",
        render(&manifest)?.as_bytes(),
        &mut written,
    )?;
    if new_revision {
        add_revision_to_crate(root, &manifest, &row, &mut written)?;
    }
    Ok(Outcome {
        new_revision,
        compared_with,
        changes,
        row,
        written,
    })
}

/// A revision the crate did not know: its feature in `Cargo.toml` (in `all-revisions`, and
/// the default when it is the latest), its module file (the hand-written parts of the revision
/// before it, which the build then checks) and its module line in `src/lib.rs`.
fn add_revision_to_crate(
    root: &Path,
    manifest: &Manifest,
    row: &Row,
    written: &mut Vec<PathBuf>,
) -> Result<(), String> {
    let index = manifest
        .revisions
        .iter()
        .position(|r| r.revision == row.revision)
        .ok_or("the new row is missing")?;
    let before = index
        .checked_sub(1)
        .map(|i| &manifest.revisions[i])
        .ok_or("no revision comes before the new one")?;

    let cargo = read_text(&root.join("Cargo.toml"))?;
    let mut lines: Vec<String> = cargo.lines().map(str::to_owned).collect();
    let feature_line = lines
        .iter()
        .position(|l| {
            l.trim_start()
                .starts_with(&format!("{} = [", before.feature))
        })
        .ok_or(format!("Cargo.toml has no feature `{}`", before.feature))?;
    lines.insert(feature_line + 1, format!("{} = []", row.feature));
    if row.status != "draft" {
        for line in &mut lines {
            if line.trim_start().starts_with("all-revisions = [") {
                *line = line.replacen(']', &format!(", \"{}\"]", row.feature), 1);
            }
            if row.status == "latest" && line.trim_start().starts_with("default = [") {
                *line = format!("default = [\"{}\"]", row.feature);
            }
        }
    }
    write(
        root,
        "Cargo.toml",
        (lines.join("\n") + "\n").as_bytes(),
        written,
    )?;

    let previous_module = read_text(&root.join("src").join(format!("{}.rs", before.module)))?;
    let module = previous_module
        .replace(
            &format!("/{}.rs\"", before.module),
            &format!("/{}.rs\"", row.module),
        )
        .replacen(&before.module, &row.module, 1);
    write(
        root,
        &format!("src/{}.rs", row.module),
        module.as_bytes(),
        written,
    )?;

    let lib = read_text(&root.join("src").join("lib.rs"))?;
    let anchor = format!("pub mod {};\n", before.module);
    let at = lib
        .find(&anchor)
        .ok_or(format!("src/lib.rs has no `{}`", anchor.trim_end()))?
        + anchor.len();
    let mut lib = lib;
    lib.insert_str(
        at,
        &format!(
            "#[cfg(feature = \"{}\")]\npub mod {};\n",
            row.feature, row.module
        ),
    );
    write(root, "src/lib.rs", lib.as_bytes(), written)
}
