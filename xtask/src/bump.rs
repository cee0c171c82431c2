//! Places a new `schema.json` in the crate and records it: the file under
//! `schema/<revision>/`, its row in `schema/revisions.json` (digest, status, upstream commit),
//! for a revision the crate did not know yet its feature, module file and module line, and for
//! a schema that uses `pattern` the crate's `pattern` feature in the revision's feature.
//! Building and testing are the command's next steps (`main.rs`); this part only writes files,
//! so the tests run it on a copy of the crate.

use crate::changes::{self, Changes};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::ops::Range;
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
    /// What the bump did about the `pattern` keyword.
    pub pattern: Pattern,
    /// Every file written, relative to the crate's root.
    pub written: Vec<PathBuf>,
}

/// The `pattern` keyword and the revision's feature. The generated readers check a `pattern`
/// with the crate's `pattern` feature (its regular expression engine), so the feature of a
/// revision whose schema uses one lists `pattern`: its users get the engine, and no one else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// The new schema uses no `pattern`, and the file it replaces used none either.
    Unused,
    /// The new schema uses `pattern`, and the revision's feature already listed it.
    Listed,
    /// The new schema uses `pattern`: `"pattern"` was added to the revision's feature.
    Added,
    /// The file it replaces used `pattern` and the new one does not. The feature is left as
    /// it was: taking `pattern` out of a published feature changes what that feature enables
    /// for every user, a decision for a release rather than for a schema bump.
    NoLongerUsed {
        /// Whether the revision's feature still lists `pattern`.
        still_listed: bool,
    },
}

impl Pattern {
    /// The line the bump's report gives it, if any.
    pub fn report(&self, feature: &str) -> Option<String> {
        match self {
            Pattern::Unused | Pattern::Listed => None,
            Pattern::Added => Some(format!(
                "The schema uses `pattern`: feature `{feature}` now lists \"pattern\" in Cargo.toml."
            )),
            Pattern::NoLongerUsed { still_listed: true } => Some(format!(
                "The schema no longer uses `pattern`; feature `{feature}` still lists \"pattern\" \
                 (left as it was: taking it out changes what the feature enables for its users, \
                 so remove it by hand if the release should)."
            )),
            Pattern::NoLongerUsed {
                still_listed: false,
            } => Some("The schema no longer uses `pattern`.".into()),
        }
    }
}

/// Whether a schema uses the `pattern` keyword anywhere. The build's own walk, so that a
/// property that happens to be named `pattern` is not taken for the keyword.
pub fn uses_pattern(schema: &Value) -> bool {
    let mut schema = schema.clone();
    let mut found = false;
    crate::schema_walk::walk_mut(&mut schema, &mut |object| {
        found |= object.contains_key("pattern");
    });
    found
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
    let cargo_before = read_text(&root.join("Cargo.toml"))?;
    let mut cargo = cargo_before.clone();
    if new_revision {
        cargo = add_feature(&cargo, &manifest, &row)?;
    }
    let pattern = if uses_pattern(&newer) {
        match list_in_feature(&cargo, &row.feature, "pattern")? {
            Some(listed) => {
                cargo = listed;
                Pattern::Added
            }
            None => Pattern::Listed,
        }
    } else if !new_revision && uses_pattern(&older) {
        Pattern::NoLongerUsed {
            still_listed: feature_lists(&cargo, &row.feature, "pattern")?,
        }
    } else {
        Pattern::Unused
    };
    if cargo != cargo_before {
        write(root, "Cargo.toml", cargo.as_bytes(), &mut written)?;
    }
    if new_revision {
        add_module(root, &manifest, &row, &mut written)?;
    }
    Ok(Outcome {
        new_revision,
        compared_with,
        changes,
        row,
        pattern,
        written,
    })
}

/// The row before `row` in the revision table.
fn previous<'m>(manifest: &'m Manifest, row: &Row) -> Result<&'m Row, String> {
    let index = manifest
        .revisions
        .iter()
        .position(|r| r.revision == row.revision)
        .ok_or("the new row is missing")?;
    index
        .checked_sub(1)
        .map(|i| &manifest.revisions[i])
        .ok_or_else(|| "no revision comes before the new one".into())
}

/// `Cargo.toml` with the feature of a revision it did not know: after the previous revision's
/// feature, in `all-revisions`, and in the default instead of the revision it listed when the
/// new one is the latest. Only those
/// lines change, so a layout or comment anywhere else survives the bump.
pub fn add_feature(cargo: &str, manifest: &Manifest, row: &Row) -> Result<String, String> {
    let before = previous(manifest, row)?;
    let list = feature_list(cargo, &before.feature)?;
    let indent = indent_of(cargo, list.start);
    // On the line after the one that closes the previous revision's list, with its ending.
    let (at, line) = match cargo[list.end..].find('\n') {
        Some(i) => {
            let at = list.end + i + 1;
            let ending = if cargo[..at].ends_with("\r\n") {
                "\r\n"
            } else {
                "\n"
            };
            (at, format!("{indent}{} = []{ending}", row.feature))
        }
        None => (cargo.len(), format!("\n{indent}{} = []", row.feature)),
    };
    let mut cargo = format!("{}{line}{}", &cargo[..at], &cargo[at..]);
    if row.status != "draft" {
        if let Some(listed) = list_in_feature(&cargo, "all-revisions", &row.feature)? {
            cargo = listed;
        }
        if row.status == "latest" {
            // The new revision takes the place of the revisions the default lists; what else
            // it lists (`std`) stays.
            let default = feature_list(&cargo, "default")?;
            let revisions: Vec<&str> = manifest
                .revisions
                .iter()
                .map(|r| r.feature.as_str())
                .collect();
            let mut listed: Vec<&str> = entries(&cargo[default.clone()]);
            listed.retain(|entry| !revisions.contains(entry) && *entry != row.feature);
            listed.push(&row.feature);
            let quoted: Vec<String> = listed.iter().map(|entry| format!("\"{entry}\"")).collect();
            cargo.replace_range(default, &format!("[{}]", quoted.join(", ")));
        }
    }
    Ok(cargo)
}

/// The leading whitespace of the line holding byte `at`.
fn indent_of(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    &line[..line.len() - line.trim_start().len()]
}

/// The bytes of feature `feature`'s list in the `[features]` table of a `Cargo.toml`, from its
/// `[` to its `]`.
fn feature_list(cargo: &str, feature: &str) -> Result<Range<usize>, String> {
    let missing = || format!("Cargo.toml has no feature `{feature}` in `[features]`");
    let mut offset = 0;
    let mut in_features = false;
    for line in cargo.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            in_features = trimmed.split('#').next().map(str::trim_end) == Some("[features]");
            continue;
        }
        if !in_features {
            continue;
        }
        let Some(value) = trimmed
            .strip_prefix(feature)
            .map(str::trim_start)
            .and_then(|rest| rest.strip_prefix('='))
        else {
            continue;
        };
        if !value.trim_start().starts_with('[') {
            return Err(format!("feature `{feature}` in Cargo.toml is not a list"));
        }
        let open = start + line.find('[').ok_or_else(missing)?;
        // A feature's entries are names without brackets: the first `]` closes the list.
        let close = open
            + cargo[open..].find(']').ok_or(format!(
                "feature `{feature}` in Cargo.toml has no closing `]`"
            ))?;
        return Ok(open..close + 1);
    }
    Err(missing())
}

/// The entries of a list as `feature_list` found it.
fn entries(list: &str) -> Vec<&str> {
    list[1..list.len() - 1]
        .lines()
        .flat_map(|line| line.split('#').next().unwrap_or("").split(','))
        .map(|entry| entry.trim().trim_matches('"'))
        .filter(|entry| !entry.is_empty())
        .collect()
}

/// Whether feature `feature` of a `Cargo.toml` lists `item`.
pub fn feature_lists(cargo: &str, feature: &str, item: &str) -> Result<bool, String> {
    let list = feature_list(cargo, feature)?;
    Ok(entries(&cargo[list]).contains(&item))
}

/// The `Cargo.toml` with `item` in feature `feature`'s list (last in a list on one line, on a
/// line of its own after the `[` in a longer one), every other byte as it was; `None` when the
/// list has it already.
pub fn list_in_feature(cargo: &str, feature: &str, item: &str) -> Result<Option<String>, String> {
    let list = feature_list(cargo, feature)?;
    let text = &cargo[list.clone()];
    if entries(text).contains(&item) {
        return Ok(None);
    }
    let quoted = format!("\"{item}\"");
    let body = &text[1..text.len() - 1];
    let (range, insert) = if let Some(newline) = body.find('\n') {
        // A list over several lines: a line of its own after the `[` line, indented as the
        // line after it (a `]` alone gets an entry's usual indent) and ending in a comma, so
        // the list stays valid whatever the other lines hold.
        let at = list.start + 1 + newline + 1;
        let next = &cargo[at..];
        let mut indent = next[..next.len() - next.trim_start_matches([' ', '\t']).len()].to_owned();
        if next.trim_start().starts_with(']') {
            indent.push_str("    ");
        }
        let ending = if body[..newline].ends_with('\r') {
            "\r\n"
        } else {
            "\n"
        };
        (at..at, format!("{indent}{quoted},{ending}"))
    } else if body.trim().is_empty() {
        (list.start + 1..list.end - 1, quoted)
    } else {
        let end = list.start + 1 + body.trim_end().len();
        let separator = if body.trim_end().ends_with(',') {
            " "
        } else {
            ", "
        };
        (end..end, format!("{separator}{quoted}"))
    };
    let mut edited = cargo.to_owned();
    edited.replace_range(range, &insert);
    Ok(Some(edited))
}

/// A revision the crate did not know: its module file (the hand-written parts of the revision
/// before it, which the build then checks) and its module line in `src/lib.rs`.
fn add_module(
    root: &Path,
    manifest: &Manifest,
    row: &Row,
    written: &mut Vec<PathBuf>,
) -> Result<(), String> {
    let before = previous(manifest, row)?;
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
