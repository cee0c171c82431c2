//! Emits `new(required members)` and chainable `with_<member>(value)` setters for the types a
//! server or client builds by hand, so each revision offers exactly the members its schema has
//! (no `with_title` before 2025-06-18, no `with_icons` before 2025-11-25).

use crate::rewrite::Rewritten;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The definitions (by Rust name) that get constructors when the revision defines them.
const CONSTRUCTED: &[&str] = &[
    "Annotations",
    "AudioContent",
    "BlobResourceContents",
    "EmbeddedResource",
    "ImageContent",
    "Implementation",
    "ListResourceTemplatesResult",
    "ListResourcesResult",
    "ReadResourceRequestParams",
    "ReadResourceResult",
    "Resource",
    "ResourceLink",
    "ResourceTemplate",
    "ResourceUpdatedNotificationParams",
    "Root",
    "SubscribeRequestParams",
    "TextContent",
    "TextResourceContents",
    "UnsubscribeRequestParams",
];

/// Required members come first in this order, so `Resource::new(uri, name)` reads as the spec
/// writes it; the rest follow alphabetically.
const LEADING: &[&str] = &[
    "uri",
    "uriTemplate",
    "name",
    "text",
    "blob",
    "data",
    "mimeType",
    "resource",
];

pub fn generate(rewritten: &Rewritten) -> Result<Vec<TokenStream>, String> {
    let mut out = Vec::new();
    for name in CONSTRUCTED {
        let Some(info) = rewritten.structs.get(*name) else {
            continue;
        };
        let ty = format_ident!("{name}");
        let mut required: Vec<&(String, String, syn::Type)> = info
            .fields
            .iter()
            .filter(|(_, json, _)| info.required.contains(json))
            .collect();
        required.sort_by_key(|(_, json, _)| {
            (
                LEADING
                    .iter()
                    .position(|l| l == json)
                    .unwrap_or(LEADING.len()),
                json.clone(),
            )
        });
        let params = required.iter().map(|(ident, _, ty)| {
            let ident = format_ident!("{ident}");
            quote!(#ident: impl ::std::convert::Into<#ty>)
        });
        let inits = info.fields.iter().map(|(ident, json, _)| {
            let ident = format_ident!("{ident}");
            if info.required.contains(json) {
                quote!(#ident: #ident.into(),)
            } else {
                quote!(#ident: ::std::option::Option::None,)
            }
        });
        let setters = info
            .fields
            .iter()
            .filter(|(_, json, _)| !info.required.contains(json))
            .map(|(ident, json, ty)| {
                let field = format_ident!("{ident}");
                let setter = format_ident!("with_{}", ident.trim_start_matches("r#"));
                let inner = crate::rewrite::option_inner(ty)
                    .cloned()
                    .unwrap_or(ty.clone());
                let doc = format!(" Sets `{json}`.");
                quote! {
                    #[doc = #doc]
                    #[must_use]
                    pub fn #setter(mut self, value: impl ::std::convert::Into<#inner>) -> Self {
                        self.#field = ::std::option::Option::Some(value.into());
                        self
                    }
                }
            });
        let doc = format!(
            " A `{name}` with its required members; the optional ones are set with the `with_` methods."
        );
        out.push(quote! {
            impl #ty {
                #[doc = #doc]
                #[allow(clippy::too_many_arguments)]
                pub fn new(#(#params),*) -> Self {
                    Self {
                        #(#inits)*
                        extra: ::serde_json::Map::new(),
                    }
                }
                #(#setters)*
            }
        });
    }
    Ok(out)
}
