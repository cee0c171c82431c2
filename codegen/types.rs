//! Runs typify over a normalized schema, with the crate's settings.

use serde_json::Value;

/// The typify version the build is pinned to (Cargo.toml says `=0.8.0`).
pub const TYPIFY_VERSION: &str = "0.8.0";

/// Definitions that the crate replaces with hand-written, revision-independent types.
///
/// The keys are typify's names for the definitions; the values are paths in this crate.
pub const REPLACEMENTS: &[(&str, &str)] = &[
    // String or integer, kept exactly as the peer sent it; shared by every revision so a
    // gateway can match ids across revisions.
    ("RequestId", "crate::RequestId"),
    ("ProgressToken", "crate::ProgressToken"),
    ("Cursor", "crate::Cursor"),
    // Arbitrary JSON is best held by serde_json's own types.
    ("JsonValue", "::serde_json::Value"),
    // Open objects are kept as the text read: nothing is built until a member is asked for.
    ("JsonObject", "crate::JsonObject"),
    ("JsonArray", "::alloc::vec::Vec<::serde_json::Value>"),
    // Cache hints and result kinds (2026-07-28 on) are one concept in every revision that has
    // them, and the `cache` module works with them without a revision; tests/cache_types.rs
    // holds them to each schema's values.
    ("CacheScope", "crate::cache::CacheScope"),
    ("ResultType", "crate::cache::ResultType"),
];

/// Definitions whose typify names would shadow names every Rust user has in scope.
pub const RENAMES: &[(&str, &str)] = &[
    ("Result", "BaseResult"),
    ("Error", "ErrorObject"),
    // Before 2025-11-25 the error object is inline in JSONRPCError.
    ("JsonrpcErrorError", "ErrorObject"),
];

pub fn generate(schema: &Value) -> Result<syn::File, String> {
    let root: schemars08::schema::RootSchema =
        serde_json::from_value(schema.clone()).map_err(|e| format!("reading the schema: {e}"))?;

    let mut settings = typify::TypeSpaceSettings::default();
    settings
        .with_struct_builder(false)
        .with_derive("PartialEq".to_string())
        .with_map_type("::alloc::collections::BTreeMap");
    for (name, path) in REPLACEMENTS {
        settings.with_replacement(*name, *path, std::iter::empty());
    }
    for (name, rename) in RENAMES {
        settings.with_patch(
            *name,
            typify::TypeSpacePatch::default().with_rename(*rename),
        );
    }

    let mut space = typify::TypeSpace::new(&settings);
    space
        .add_root_schema(root)
        .map_err(|e| format!("typify: {e}"))?;
    let mut file: syn::File = syn::parse2(space.to_stream())
        .map_err(|e| format!("typify's output does not parse: {e}"))?;
    syn::visit_mut::VisitMut::visit_file_mut(&mut OpenObjects, &mut file);
    Ok(file)
}

/// Turns every open object typify writes as `serde_json::Map` (an inline `_meta`, a property
/// schema, ...) into [`crate::JsonObject`], except the `extra` members where a struct keeps the
/// members its schema does not name, which the readers fill member by member.
struct OpenObjects;

impl syn::visit_mut::VisitMut for OpenObjects {
    fn visit_field_mut(&mut self, field: &mut syn::Field) {
        if field.ident.as_ref().is_some_and(|name| name == "extra") {
            return;
        }
        syn::visit_mut::visit_field_mut(self, field);
    }

    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        let text = quote::quote!(#ty).to_string();
        if text == ":: serde_json :: Map < :: std :: string :: String , :: serde_json :: Value >" {
            *ty = syn::parse_quote!(crate::JsonObject);
            return;
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}

/// Maps every definition name to the Rust path that holds it: a replacement, a renamed type,
/// or typify's name (looked up in `generated`, keyed by `methods::fold`).
pub fn rust_paths(
    defs: &serde_json::Map<String, Value>,
    generated: &std::collections::BTreeMap<String, String>,
) -> std::collections::BTreeMap<String, String> {
    let fold = crate::methods::fold;
    defs.keys()
        .filter_map(|def| {
            let replaced = REPLACEMENTS
                .iter()
                .find(|(name, _)| fold(name) == fold(def))
                .map(|(_, path)| path.to_string());
            let renamed = RENAMES
                .iter()
                .find(|(name, _)| *name == def)
                .map(|(_, to)| to.to_string());
            replaced
                .or(renamed)
                .or_else(|| generated.get(&fold(def)).cloned())
                .map(|path| (def.clone(), path))
        })
        .collect()
}
