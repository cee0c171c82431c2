//! `cargo xtask expand <revision> [-o FILE]`: one revision's generated module, as the build
//! writes it, into a file a reviewer can read.
//!
//! The module is made by the crate's own build script, not by a second copy of the generator:
//! `cargo check` with only that revision's feature runs it, and cargo's JSON messages name the
//! directory it wrote to. The build writes it unformatted, an item a line (formatting is a
//! cost every build would pay for a file nobody reads there); rustfmt lays it out here.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Writes the generated module of `revision` to `output` (default
/// `target/expand/<module>.rs`), returning the path written.
pub fn run(root: &Path, revision: &str, output: Option<PathBuf>) -> Result<PathBuf, String> {
    let manifest = crate::bump::load(root)?;
    let row = manifest
        .revisions
        .iter()
        .find(|row| row.revision == revision)
        .ok_or_else(|| {
            let known: Vec<&str> = manifest
                .revisions
                .iter()
                .map(|r| r.revision.as_str())
                .collect();
            format!(
                "schema/revisions.json has no revision {revision} (it has {})",
                known.join(", ")
            )
        })?;
    let out_dir = build_script_out_dir(root, &row.feature)?;
    let generated = out_dir.join(format!("{}.rs", row.module));
    let text = std::fs::read_to_string(&generated)
        .map_err(|e| format!("reading {}: {e}", generated.display()))?;
    let output = output.unwrap_or_else(|| {
        root.join("target")
            .join("expand")
            .join(format!("{}.rs", row.module))
    });
    if let Some(parent) = output.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("creating {}: {e}", parent.display()))?;
    }
    std::fs::write(&output, text).map_err(|e| format!("writing {}: {e}", output.display()))?;
    rustfmt(&output);
    Ok(output)
}

/// The `OUT_DIR` of the crate's build script, run with `feature` alone.
fn build_script_out_dir(root: &Path, feature: &str) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let args = [
        "check",
        "--lib",
        "--no-default-features",
        "--features",
        feature,
        "--message-format=json",
    ];
    let output = Command::new(cargo)
        .args(args)
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("running cargo {}: {e}", args.join(" ")))?;
    // A module that does not compile is the one most worth reading: the build script has run
    // by then, so its directory is used whatever `check` says afterwards.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let out_dir = stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["reason"] == "build-script-executed")
        .filter(|message| {
            message["package_id"]
                .as_str()
                .is_some_and(|id| id.contains("mcp-spec-types"))
        })
        .find_map(|message| message["out_dir"].as_str().map(PathBuf::from));
    match out_dir {
        Some(dir) => {
            if !output.status.success() {
                eprintln!("note: the crate does not compile with `{feature}`; the module is written anyway");
            }
            Ok(dir)
        }
        None => Err(format!(
            "cargo {} did not run the crate's build script ({})",
            args.join(" "),
            output.status
        )),
    }
}

/// Formats `file` in place with rustfmt, when it is installed; the text keeps the build's
/// layout (an item a line) otherwise.
fn rustfmt(file: &Path) {
    let formatted = Command::new("rustfmt")
        .args(["--edition", "2021"])
        .arg(file)
        .status();
    if !formatted.is_ok_and(|status| status.success()) {
        eprintln!("note: rustfmt did not run; the module keeps the build's layout, an item a line");
    }
}
