//! Generates one Rust module per enabled MCP revision from `schema/<revision>/schema.json`.
//!
//! The pipeline, per revision: read the schema, apply the named upstream-defect patches
//! (`codegen/patches.rs`), normalize it into the shape typify understands
//! (`codegen/normalize.rs`), let typify build the types (`codegen/types.rs`), then replace
//! typify's serde derives with exact, lossless, discriminator-driven impls and add the method
//! tables (`codegen/rewrite.rs`, `codegen/methods.rs`). The result goes unformatted, an item a
//! line (`codegen/render.rs`), to `OUT_DIR/<module>.rs`, which `src/<module>.rs` includes.

#[path = "codegen/bounds.rs"]
mod bounds;
#[path = "codegen/constructors.rs"]
mod constructors;
#[path = "codegen/conversions.rs"]
mod conversions;
#[path = "codegen/core_paths.rs"]
mod core_paths;
#[path = "codegen/keywords_test.rs"]
mod keywords_test;
#[path = "codegen/manifest.rs"]
mod manifest;
#[path = "codegen/members.rs"]
mod members;
#[path = "codegen/methods.rs"]
mod methods;
#[path = "codegen/normalize.rs"]
mod normalize;
#[path = "codegen/patches.rs"]
mod patches;
#[path = "codegen/render.rs"]
mod render;
#[path = "codegen/rewrite.rs"]
mod rewrite;
#[path = "codegen/runtime_api.rs"]
mod runtime_api;
#[path = "codegen/schema_walk.rs"]
mod schema_walk;
#[path = "codegen/schemars_impls.rs"]
mod schemars_impls;
#[path = "codegen/tasks.rs"]
mod tasks;
#[path = "codegen/types.rs"]
mod types;
#[path = "codegen/versions.rs"]
mod versions;

use std::path::{Path, PathBuf};

fn main() {
    if let Err(message) = run() {
        // A build script reports failure through its exit status; the message is what a
        // maintainer bumping a schema needs to read.
        eprintln!("mcp-spec-types code generation failed: {message}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let root = PathBuf::from(env("CARGO_MANIFEST_DIR")?);
    let out_dir = PathBuf::from(env("OUT_DIR")?);
    let manifest_path = root.join("schema").join("revisions.json");
    println!("cargo:rerun-if-changed={}", manifest_path.display());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=codegen");

    // The runtime's entry points, as the body of `crate::__private`: the build fails on an
    // entry the runtime lacks.
    write(
        &out_dir.join("runtime_entry_points.rs"),
        &runtime_api::entry_points(),
    )?;

    let revisions = manifest::load(&manifest_path)?;
    // The table of every revision's methods is built from all schemas, enabled or not, so a
    // message from another revision is recognised as such.
    let mut all_methods = Vec::new();
    let mut definition_methods = Vec::new();
    for revision in &revisions {
        let schema_path = root.join("schema").join(&revision.file);
        println!("cargo:rerun-if-changed={}", schema_path.display());
        let pairs = methods::definition_methods(&schema_path)?;
        let mut names: Vec<String> = pairs.iter().map(|(_, method)| method.clone()).collect();
        names.sort();
        names.dedup();
        all_methods.push((revision.revision.clone(), names));
        definition_methods.push((revision.revision.clone(), pairs));
    }
    write(
        &out_dir.join("versions.rs"),
        &versions::generate(&revisions)?,
    )?;
    write(
        &out_dir.join("latest.rs"),
        &versions::latest_alias(&revisions),
    )?;
    write(
        &out_dir.join("method_names.rs"),
        &methods::method_constants(&definition_methods),
    )?;
    write(
        &out_dir.join("all_methods.rs"),
        &methods::all_methods_table(&all_methods),
    )?;
    let mut types = Vec::new();
    for revision in &revisions {
        if !revision.is_enabled() {
            continue;
        }
        let schema_path = root.join("schema").join(&revision.file);
        println!("cargo:rerun-if-changed={}", schema_path.display());
        let (code, revision_types) = generate(revision, &schema_path, None)
            .map_err(|e| format!("revision {}: {e}", revision.revision))?;
        let target = out_dir.join(format!("{}.rs", revision.module));
        write(&target, &code)?;
        types.push(revision_types);
    }
    // The test-only revision that uses every validation keyword (codegen/keywords_test.rs).
    let keywords_test = out_dir.join("keywords_test.rs");
    if std::env::var_os("CARGO_FEATURE___KEYWORDS_TEST").is_some() {
        let overlay_path = root.join(keywords_test::OVERLAY);
        println!("cargo:rerun-if-changed={}", overlay_path.display());
        let text = std::fs::read_to_string(&overlay_path)
            .map_err(|e| format!("reading {}: {e}", overlay_path.display()))?;
        let overlay: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("parsing {}: {e}", overlay_path.display()))?;
        let base = revisions
            .iter()
            .find(|r| r.revision == keywords_test::BASE_REVISION)
            .ok_or("revisions.json lacks the keywords test's base revision")?;
        let revision = manifest::Revision {
            module: "keywords_test".into(),
            ..base.clone()
        };
        let schema_path = root.join("schema").join(&revision.file);
        let (code, _) = generate(&revision, &schema_path, Some(&overlay))
            .map_err(|e| format!("the keywords test revision: {e}"))?;
        write(&keywords_test, &code)?;
    }
    // Conversions between revisions only cost their compile time when asked for.
    let conversions = if std::env::var_os("CARGO_FEATURE_CONVERT").is_some() {
        conversions::generate(&types)?
    } else {
        String::new()
    };
    write(&out_dir.join("conversions.rs"), &conversions)?;
    // The "for a peer" conversion needs every revision's members, enabled or not: what the
    // spec defines somewhere does not depend on the features chosen.
    let member_tables = if std::env::var_os("CARGO_FEATURE_CONVERT").is_some() {
        let mut schemas = Vec::new();
        for revision in &revisions {
            let schema_path = root.join("schema").join(&revision.file);
            let text = std::fs::read_to_string(&schema_path)
                .map_err(|e| format!("reading {}: {e}", schema_path.display()))?;
            let schema: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| format!("parsing {}: {e}", schema_path.display()))?;
            schemas.push((revision.revision.clone(), schema));
        }
        members::generate(&schemas, methods::EMPTY_RESULT)?
    } else {
        String::new()
    };
    write(&out_dir.join("member_tables.rs"), &member_tables)?;
    Ok(())
}

fn generate(
    revision: &manifest::Revision,
    schema_path: &Path,
    overlay: Option<&serde_json::Value>,
) -> Result<(String, conversions::RevisionTypes), String> {
    let text = std::fs::read_to_string(schema_path)
        .map_err(|e| format!("reading {}: {e}", schema_path.display()))?;
    let mut schema: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("parsing {}: {e}", schema_path.display()))?;
    if let Some(overlay) = overlay {
        keywords_test::compose(&mut schema, overlay)?;
    }

    let upstream_defs = schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .and_then(|d| d.as_object())
        .cloned()
        .ok_or("the schema has no definitions")?;
    patches::apply(&revision.revision, &mut schema)?;
    let facts = normalize::normalize(&mut schema)?;
    let mut file = types::generate(&schema)?;
    // Every emitter after typify reads and writes `core` and `alloc` paths only.
    core_paths::rewrite(&mut file);
    let rewritten = rewrite::rewrite(file, &facts)?;
    let methods = methods::generate(&revision.revision, &facts, &rewritten)?;
    let constructors = constructors::generate(&rewritten)?;
    let constructors: syn::File = syn::parse2(quote::quote!(#(#constructors)*))
        .map_err(|e| format!("emitted constructors do not parse: {e}"))?;

    let rust_paths = types::rust_paths(&upstream_defs, &methods::rust_names(&rewritten));
    let emitted: std::collections::BTreeSet<String> = rewritten
        .file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) => Some(s.ident.to_string()),
            syn::Item::Enum(e) => Some(e.ident.to_string()),
            _ => None,
        })
        .collect();
    let schemas =
        schemars_impls::generate(&upstream_defs, &rust_paths, &emitted, &revision.module)?;
    let revision_types = conversions::RevisionTypes::new(
        &revision.revision,
        &revision.module,
        &rust_paths,
        &emitted,
    );
    let schemas: syn::File = syn::parse2(quote::quote!(#(#schemas)*))
        .map_err(|e| format!("emitted schema impls do not parse: {e}"))?;

    let mut file = rewritten.file;
    file.items.extend(methods);
    file.items.extend(constructors.items);
    file.items.extend(schemas.items);
    let header = format!(
        "// Generated by mcp-spec-types' build script from the MCP schema revision {rev}.\n\
         // schema: schema/{path} (sha256 {sha})\n\
         // generator: typify {typify}, then the crate's own serde and method emitters.\n\
         // Do not edit: change the schema, a patch in codegen/patches.rs, or the emitters.\n\n",
        rev = revision.revision,
        path = revision.file,
        sha = revision.sha256,
        typify = types::TYPIFY_VERSION,
    );
    let code = render::items(&file);
    runtime_api::check_generated(&code)?;
    Ok((header + &code, revision_types))
}

/// Writes one generated file, refusing code the crate's `no_std` build cannot compile.
fn write(path: &Path, code: &str) -> Result<(), String> {
    core_paths::check(code).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, code).map_err(|e| format!("writing {}: {e}", path.display()))
}

fn env(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("environment variable {name} is not set"))
}
