//! Conversions between revisions (feature `convert`): for every definition two enabled
//! revisions share by name, `ConvertTo` both ways between their types, and one arm of
//! `convert::convert_value`, which converts by definition name at run time. The bodies are the
//! runtime's (`src/convert.rs`): a value is written as JSON and read as the other revision's
//! type, so members the target does not declare stay in its `extra`, and what it cannot hold is
//! a typed error.

use quote::{format_ident, quote};
use std::collections::BTreeMap;

/// The Rust types of one enabled revision's definitions.
pub struct RevisionTypes {
    /// `2025-06-18`.
    pub revision: String,
    /// Each definition's Rust type path, and whether it is a type the revision's module
    /// declares itself (not a shared crate type or an alias).
    pub definitions: BTreeMap<String, (String, bool)>,
}

impl RevisionTypes {
    /// Collects the paths from the names the module was generated with.
    pub fn new(
        revision: &str,
        module: &str,
        paths: &BTreeMap<String, String>,
        emitted: &std::collections::BTreeSet<String>,
    ) -> Self {
        let definitions = paths
            .iter()
            .map(|(definition, path)| {
                let own = emitted.contains(path);
                let qualified = if path.starts_with("crate::") || path.starts_with("::") {
                    path.clone()
                } else {
                    format!("crate::{module}::{path}")
                };
                (definition.clone(), (qualified, own))
            })
            .collect();
        RevisionTypes {
            revision: revision.to_owned(),
            definitions,
        }
    }
}

/// The conversion code for every pair of enabled revisions.
pub fn generate(revisions: &[RevisionTypes]) -> Result<String, String> {
    let ty = |path: &str| syn::parse_str::<syn::Type>(path).map_err(|e| format!("{path}: {e}"));
    let mut items = Vec::new();
    for from in revisions {
        // Each declared type knows its definition and revision, once (aliases share a type).
        let mut seen = std::collections::BTreeSet::new();
        for (definition, (path, own)) in &from.definitions {
            if !own || !seen.insert(path.clone()) {
                continue;
            }
            let t = ty(path)?;
            let revision = &from.revision;
            items.push(quote! {
                impl crate::convert::Definition for #t {
                    const NAME: &'static str = #definition;
                    const REVISION: &'static str = #revision;
                }
            });
        }
    }
    // Each definition's arms, for a lookup of its own: code that converts a few definitions
    // by name compiles the conversions of those alone.
    let mut by_definition: BTreeMap<&str, Vec<proc_macro2::TokenStream>> = BTreeMap::new();
    for revision in revisions {
        for definition in revision.definitions.keys() {
            by_definition.entry(definition.as_str()).or_default();
        }
    }
    for from in revisions {
        for to in revisions {
            if from.revision == to.revision {
                continue;
            }
            let (from_rev, to_rev) = (&from.revision, &to.revision);
            let mut seen = std::collections::BTreeSet::new();
            for (definition, (from_path, from_own)) in &from.definitions {
                let Some((to_path, to_own)) = to.definitions.get(definition) else {
                    continue;
                };
                let (a, b) = (ty(from_path)?, ty(to_path)?);
                if let Some(own) = by_definition.get_mut(definition.as_str()) {
                    own.push(quote! {
                        (#from_rev, #to_rev) => crate::convert::via_json::<#a, #b>(#definition, #from_rev, #to_rev, value),
                    });
                }
                if *from_own && *to_own && seen.insert((from_path.clone(), to_path.clone())) {
                    items.push(quote!(impl crate::convert::ConvertTo<#b> for #a {}));
                }
            }
        }
    }
    let mut lookups = Vec::new();
    let mut conversions = Vec::new();
    // `convert_value`'s match names the definition alone, each arm its definition's lookup: one
    // column of names checks in linear time, where one match over (from, to, definition)
    // took the compiler a second to check for exhaustiveness.
    let mut arms = Vec::new();
    for (definition, own) in &by_definition {
        let body = if own.is_empty() {
            quote! {
                let _ = (from, to, value);
                ::core::option::Option::None
            }
        } else {
            quote! {
                ::core::option::Option::Some(match (from, to) {
                    #(#own)*
                    _ => return ::core::option::Option::None,
                })
            }
        };
        // A definition whose name is not a Rust identifier has no lookup of its own: its
        // arms are written into `convert_value`'s.
        let Ok(name) = syn::parse_str::<syn::Ident>(definition) else {
            if !own.is_empty() {
                arms.push(quote!(#definition => { #body }));
            }
            continue;
        };
        if !own.is_empty() {
            arms.push(quote!(#definition => (by_definition::#name.convert)(from, to, value),));
        }
        let doc = format!(
            " [`convert_value`](crate::convert::convert_value) of `{definition}` alone: `None` when the pair of revisions does not share it."
        );
        lookups.push(quote! {
            #[doc = #doc]
            pub(crate) const #name: crate::convert::ByDefinition = crate::convert::ByDefinition {
                definition: #definition,
                convert: conversions::#name,
            };
        });
        conversions.push(quote! {
            // Inline, as `convert_value` is: a crate compiles the conversions it calls, and
            // no others.
            #[inline]
            pub(super) fn #name(
                from: &str,
                to: &str,
                value: &::serde_json::Value,
            ) -> ::core::option::Option<::core::result::Result<::serde_json::Value, ConversionError>> {
                #body
            }
        });
    }
    let lookup = format_ident!("convert_generated");
    // With fewer than two revisions enabled nothing is shared: the lookup is then a plain
    // `None`, not a match with no arm but the fallback (which lints as unreachable code).
    let body = if arms.is_empty() {
        quote! {
            let _ = (definition, from, to, value);
            ::core::option::Option::None
        }
    } else {
        quote! {
            match definition {
                #(#arms)*
                _ => ::core::option::Option::None,
            }
        }
    };
    let code = quote! {
        #(#items)*

        /// One lookup a definition, named as the schema names it and carrying that name: what
        /// converts a few definitions by name (the engines' `initialize`) compiles their
        /// conversions alone, where [`convert_value`] compiles every one.
        #[allow(non_upper_case_globals, dead_code)]
        pub(crate) mod by_definition {
            #(#lookups)*

            /// The lookups' conversions.
            #[allow(non_snake_case)]
            mod conversions {
                use crate::convert::ConversionError;
                #(#conversions)*
            }
        }

        /// The generated arm of [`convert_value`]: `None` when the pair of revisions does not
        /// share `definition` (or one of them is not enabled). Inline, as its callers are: a
        /// crate that never converts by name compiles none of the conversions it names.
        #[inline]
        fn #lookup(
            definition: &str,
            from: &str,
            to: &str,
            value: &::serde_json::Value,
        ) -> ::core::option::Option<::core::result::Result<::serde_json::Value, ConversionError>> {
            #body
        }
    };
    let mut file: syn::File =
        syn::parse2(code).map_err(|e| format!("emitted conversions do not parse: {e}"))?;
    crate::core_paths::rewrite(&mut file);
    Ok(crate::render::items(&file))
}
