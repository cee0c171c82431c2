//! The maintainers' commands (`cargo xtask …`, alias in `.cargo/config.toml`); not part of
//! the published crate.
//!
//! - `cargo xtask bump <schema.json> --revision <rev> [--commit <sha>] [--commit-date <date>]
//!   [--status latest|released|draft] [--no-check]`: places the file, records it in
//!   `schema/revisions.json` (adding the feature and module of a revision the crate did not
//!   know), regenerates, runs the spec-example and conformance tests, rewrites
//!   `schema/CHANGES.md`, and prints what changed in a form a CHANGELOG entry can quote.
//! - `cargo xtask changes [--write]`: the changes between every two adjacent revisions
//!   (`schema/CHANGES.md`), printed or written.
//! - `cargo xtask expand <revision> [-o FILE]`: the revision's generated module, formatted,
//!   written to `FILE` (default `target/expand/<module>.rs`) for review.

mod bump;
mod changes;
mod expand;
// The build's walk over a schema's subschemas, so that the bump and the build agree on where
// a keyword can be.
#[path = "../../codegen/schema_walk.rs"]
#[allow(dead_code)]
mod schema_walk;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let result = match args.first().map(String::as_str) {
        Some("bump") => run_bump(&root, &args[1..]),
        Some("changes") => run_changes(&root, args.get(1).map(String::as_str) == Some("--write")),
        Some("expand") => run_expand(&root, &args[1..]),
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage:
  cargo xtask bump <schema.json> --revision <rev> [--commit <sha>] [--commit-date <date>] [--status latest|released|draft] [--no-check]
  cargo xtask changes [--write]
  cargo xtask expand <revision> [-o FILE]";

fn run_bump(root: &Path, args: &[String]) -> Result<(), String> {
    let mut file = None;
    let mut revision = None;
    let mut commit = None;
    let mut commit_date = None;
    let mut status = None;
    let mut check = true;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .cloned()
                .ok_or(format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--revision" => revision = Some(value("--revision")?),
            "--commit" => commit = Some(value("--commit")?),
            "--commit-date" => commit_date = Some(value("--commit-date")?),
            "--status" => status = Some(value("--status")?),
            "--no-check" => check = false,
            other if other.starts_with("--") => {
                return Err(format!("unknown option {other}\n{USAGE}"))
            }
            other => file = Some(PathBuf::from(other)),
        }
    }
    let file = file.ok_or(USAGE)?;
    let revision = revision.ok_or(USAGE)?;
    let schema = std::fs::read(&file).map_err(|e| format!("reading {}: {e}", file.display()))?;
    let outcome = bump::apply(
        root,
        &bump::Bump {
            revision: revision.clone(),
            schema,
            commit,
            commit_date,
            status,
        },
    )?;
    run_changes(root, true)?;
    if check {
        let mut features = vec![outcome.row.feature.clone(), "all-revisions".into()];
        features.push("convert".into());
        let features = features.join(",");
        cargo(root, &["build", "--features", &features])?;
        cargo(
            root,
            &[
                "test",
                "--features",
                &features,
                "--test",
                "conformance",
                "--test",
                "conformance_suite",
            ],
        )?;
    }
    let title = if outcome.new_revision {
        format!(
            "{} (new, compared with {})",
            revision, outcome.compared_with
        )
    } else {
        format!("{revision} (compared with the file it replaces)")
    };
    print!("{}", changes::markdown(&title, &outcome.changes));
    if let Some(line) = outcome.pattern.report(&outcome.row.feature) {
        println!("\n{line}");
    }
    if outcome.written.is_empty() {
        println!("\nNo file changed.");
    } else {
        println!("\nFiles written:");
        for path in &outcome.written {
            println!("- {}", path.display());
        }
    }
    Ok(())
}

fn run_expand(root: &Path, args: &[String]) -> Result<(), String> {
    let mut revision = None;
    let mut output = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-o" | "--output" => {
                let file = args.next().ok_or(format!("{arg} needs a file\n{USAGE}"))?;
                output = Some(PathBuf::from(file));
            }
            other if other.starts_with('-') => {
                return Err(format!("unknown option {other}\n{USAGE}"))
            }
            other => revision = Some(other.to_owned()),
        }
    }
    let revision = revision.ok_or(USAGE)?;
    let written = expand::run(root, &revision, output)?;
    println!("{}", written.display());
    Ok(())
}

fn run_changes(root: &Path, write: bool) -> Result<(), String> {
    let manifest = bump::load(root)?;
    let mut revisions = Vec::new();
    for row in &manifest.revisions {
        let path = root.join("schema").join(&row.file);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("reading {}: {e}", path.display()))?;
        let schema =
            serde_json::from_str(&text).map_err(|e| format!("parsing {}: {e}", path.display()))?;
        revisions.push((row.revision.clone(), schema));
    }
    let table = changes::table(&revisions);
    if write {
        let path = root.join("schema").join("CHANGES.md");
        if std::fs::read_to_string(&path).ok().as_deref() != Some(table.as_str()) {
            std::fs::write(&path, table).map_err(|e| format!("writing {}: {e}", path.display()))?;
        }
    } else {
        print!("{table}");
    }
    Ok(())
}

fn cargo(root: &Path, args: &[&str]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(args)
        .current_dir(root)
        .status()
        .map_err(|e| format!("running cargo {}: {e}", args.join(" ")))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo {} failed ({status})", args.join(" ")))
    }
}
