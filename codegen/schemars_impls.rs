//! Emits `schemars::JsonSchema` impls (behind the crate's `schemars` feature) that return the
//! official schema of each definition, verbatim, with `$ref`s resolved through the generator.
//!
//! Deriving would describe the Rust shape (without the `const` members the serde impls write);
//! the official definition is the exact contract.

use crate::runtime_api::OFFICIAL_SCHEMA;
use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// `defs`: the upstream definitions, unpatched. `rust`: definition name → Rust type path.
pub fn generate(
    defs: &serde_json::Map<String, Value>,
    rust: &BTreeMap<String, String>,
    emitted_types: &BTreeSet<String>,
    module: &str,
) -> Result<Vec<TokenStream>, String> {
    let mut out = Vec::new();
    let mut done = BTreeSet::new();
    for (name, def) in defs {
        let Some(path) = rust.get(name) else {
            continue;
        };
        // Replaced definitions (RequestId, JSONValue, ...) get their impls elsewhere, and an
        // alias shares its target's impl.
        if !emitted_types.contains(path) || !done.insert(path.clone()) {
            continue;
        }
        let ty: syn::Type = syn::parse_str(path).map_err(|e| format!("{path}: {e}"))?;
        let mut refs = BTreeSet::new();
        collect_refs(def, &mut refs);
        let resolvers = refs
            .iter()
            .map(|r| {
                let target = rust
                    .get(r)
                    .ok_or(format!("{name} refers to {r}, which has no Rust type"))?;
                let target: syn::Type =
                    syn::parse_str(target).map_err(|e| format!("{target}: {e}"))?;
                Ok(quote!((#r, (|g| g.subschema_for::<#target>()) as fn(&mut ::schemars::SchemaGenerator) -> ::schemars::Schema),))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let json = def.to_string();
        let id = format!("mcp_spec_types::{module}::{name}");
        out.push(quote! {
            #[cfg(feature = "schemars")]
            impl ::schemars::JsonSchema for #ty {
                fn schema_name() -> ::alloc::borrow::Cow<'static, str> {
                    ::alloc::borrow::Cow::Borrowed(#name)
                }
                fn schema_id() -> ::alloc::borrow::Cow<'static, str> {
                    ::alloc::borrow::Cow::Borrowed(#id)
                }
                fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                    #OFFICIAL_SCHEMA(generator, #json, &[#(#resolvers)*])
                }
            }
        });
    }
    Ok(out)
}

fn collect_refs(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(r)) = object.get("$ref") {
                if let Some(name) = r.rsplit('/').next() {
                    out.insert(name.to_owned());
                }
            }
            object.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}
