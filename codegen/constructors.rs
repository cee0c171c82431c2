//! Emits a constructor for every struct of a revision, from what its schema requires:
//! `new(required members)`, `Default` too where nothing is required, a chainable
//! `with_<member>(value)` for every member it stores, and `complete(…)` on every result that
//! carries `resultType`. Each revision offers exactly the members its schema has (no
//! `with_title` before 2025-06-18, no `with_icons` before 2025-11-25).
//!
//! The argument order of `new` is one rule for every struct of every revision (it is the crate
//! documentation's, in `lib.rs`): the members that name or carry the thing come first, in
//! [`LEADING`]'s order; then the other required members alphabetically by JSON name; then the
//! cache hints and the result type, in [`TRAILING`]'s order.

use crate::rewrite::{Rewritten, StructInfo};
use crate::runtime_api::CONSTRUCTED;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Required members that come first, in this order, so `Resource::new(uri, name)` and
/// `Tool::new(name, input_schema)` read as the spec writes them.
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

/// Required members that come last, in this order: what a result says about itself rather than
/// what it carries.
const TRAILING: &[&str] = &["ttlMs", "cacheScope", "resultType"];

/// Types a constructor takes as they are rather than through `Into`.
const PRIMITIVES: &[&str] = &[
    "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64",
];

/// The member a `complete` constructor fills with [`crate::cache::RESULT_TYPE_COMPLETE`].
const RESULT_TYPE: &str = "resultType";

fn order_key(json: &str) -> (usize, &str) {
    if let Some(at) = LEADING.iter().position(|l| *l == json) {
        (at, "")
    } else if let Some(at) = TRAILING.iter().position(|t| *t == json) {
        (LEADING.len() + 1 + at, "")
    } else {
        (LEADING.len(), json)
    }
}

pub fn generate(rewritten: &Rewritten) -> Result<Vec<TokenStream>, String> {
    rewritten
        .structs
        .iter()
        .map(|(name, info)| constructors(name, info))
        .collect()
}

fn constructors(name: &str, info: &StructInfo) -> Result<TokenStream, String> {
    let ty = format_ident!("{name}");
    let extra = format_ident!("{}", info.extra);
    // Optional constants are fields (so their absence survives a round trip) with one value:
    // there is nothing for a setter to choose.
    let optional_const = |json: &str| info.consts.iter().any(|(j, _, _)| j == json);
    let mut required: Vec<&(String, String, syn::Type)> = info
        .fields
        .iter()
        .filter(|(_, json, _)| info.required.contains(json))
        .collect();
    required.sort_by(|a, b| order_key(&a.1).cmp(&order_key(&b.1)));

    let setters = info
        .fields
        .iter()
        .filter(|(_, json, _)| info.required.contains(json) || !optional_const(json))
        .map(|(ident, json, ty)| {
            let field = format_ident!("{ident}");
            let setter = format_ident!("with_{}", ident.trim_start_matches("r#"));
            if info.required.contains(json) {
                let (param, value) = argument(ty);
                let doc = format!(" Sets `{json}`.");
                return Ok(quote! {
                    #[doc = #doc]
                    #[inline]
                #[must_use]
                    pub fn #setter(mut self, value: #param) -> Self {
                        self.#field = #value;
                        self
                    }
                });
            }
            let inner = crate::rewrite::option_inner(ty).ok_or(format!(
                "{name}.{json}: an optional member that is not an `Option`"
            ))?;
            if crate::rewrite::type_name(inner) == "Number" {
                // Any integer or float: a float with no JSON form (NaN, an infinity) leaves
                // the member unset, as an absent member is the only faithful way to write it.
                let doc = format!(" Sets `{json}` from any integer or float; a NaN or an infinity, which JSON cannot write, leaves it unset.");
                return Ok(quote! {
                    #[doc = #doc]
                    #[inline]
                #[must_use]
                    pub fn #setter(mut self, value: impl crate::IntoNumber) -> Self {
                        self.#field = crate::IntoNumber::into_number(value);
                        self
                    }
                });
            }
            let (param, value) = argument(inner);
            let doc = format!(" Sets `{json}`.");
            Ok(quote! {
                #[doc = #doc]
                #[inline]
                #[must_use]
                pub fn #setter(mut self, value: #param) -> Self {
                    self.#field = ::core::option::Option::Some(#value);
                    self
                }
            })
        })
        .collect::<Result<Vec<_>, String>>()?;

    let made = if required.is_empty() {
        // Nothing to ask for: `new()` is `Default`. A struct typify did not derive it for (a
        // required constant was its only required member) gets it here.
        let default = (!info.derives_default).then(|| {
            let inits = info.fields.iter().map(|(ident, _, _)| {
                let ident = format_ident!("{ident}");
                quote!(#ident: ::core::option::Option::None,)
            });
            quote! {
                impl ::core::default::Default for #ty {
                    #[inline]
                    fn default() -> Self {
                        Self { #(#inits)* #extra: ::serde_json::Map::new() }
                    }
                }
            }
        });
        let doc = format!(" A `{name}` with no member set (the schema requires none): set them with the `with_` methods.");
        quote! {
            #default
            impl #ty {
                #[doc = #doc]
                #[inline]
                pub fn new() -> Self {
                    ::core::default::Default::default()
                }
            }
        }
    } else {
        let new = constructor(
            &format_ident!("new"),
            &required,
            info,
            &format!(" A `{name}` with its required members, in the crate's argument order (required members naming the thing, then the others alphabetically, then cache hints and `resultType`); the optional ones are set with the `with_` methods."),
            None,
        );
        let complete = required
            .iter()
            .any(|(_, json, _)| json == RESULT_TYPE)
            .then(|| {
                constructor(
                    &format_ident!("complete"),
                    &required,
                    info,
                    &format!(" A complete `{name}` (`\"resultType\": \"complete\"`): [`Self::new`] without the result type."),
                    Some(RESULT_TYPE),
                )
            });
        quote!(impl #ty { #new #complete })
    };
    let extra_doc = format!(" Adds a member the schema does not name to `{}`; a member the type declares is refused when the value is written.", info.extra);
    let setters = quote! {
        impl #ty {
            #(#setters)*
            #[doc = #extra_doc]
            #[inline]
            #[must_use]
            pub fn with_extra(
                mut self,
                name: impl ::core::convert::Into<::alloc::string::String>,
                value: impl ::core::convert::Into<::serde_json::Value>,
            ) -> Self {
                self.#extra.insert(name.into(), value.into());
                self
            }
        }
    };
    let arguments = required.iter().map(|(_, json, _)| json);
    Ok(quote! {
        #made
        #setters
        impl #CONSTRUCTED for #ty {
            const NEW_ARGUMENTS: &'static [&'static str] = &[#(#arguments),*];
        }
    })
}

/// `fn <name>(required…) -> Self`, with `preset` (a member's JSON name) filled with "complete"
/// instead of asked for.
fn constructor(
    fn_name: &syn::Ident,
    required: &[&(String, String, syn::Type)],
    info: &StructInfo,
    doc: &str,
    preset: Option<&str>,
) -> TokenStream {
    let extra = format_ident!("{}", info.extra);
    let params = required
        .iter()
        .filter(|(_, json, _)| Some(json.as_str()) != preset)
        .map(|(ident, _, ty)| {
            let ident = format_ident!("{ident}");
            let (param, _) = argument(ty);
            quote!(#ident: #param)
        });
    let inits = info.fields.iter().map(|(ident, json, ty)| {
        let ident = format_ident!("{ident}");
        if Some(json.as_str()) == preset {
            quote!(#ident: ::core::convert::From::from(crate::cache::RESULT_TYPE_COMPLETE),)
        } else if info.required.contains(json) {
            let (_, value) = argument(ty);
            let value = rename_value(value, &ident);
            quote!(#ident: #value,)
        } else {
            quote!(#ident: ::core::option::Option::None,)
        }
    });
    quote! {
        #[doc = #doc]
        #[inline]
        #[allow(clippy::too_many_arguments)]
        pub fn #fn_name(#(#params),*) -> Self {
            Self {
                #(#inits)*
                #extra: ::serde_json::Map::new(),
            }
        }
    }
}

/// The parameter type a constructor or setter takes for a member of type `ty`, and the
/// expression that turns the parameter `value` into the member: a list from anything iterable
/// whose items convert (`[TextContent::new("hi")]` for `Vec<ContentBlock>`), anything else
/// through `Into`.
fn argument(ty: &syn::Type) -> (TokenStream, TokenStream) {
    match crate::rewrite::vec_inner(ty) {
        Some(item) => (
            quote!(impl ::core::iter::IntoIterator<Item = impl ::core::convert::Into<#item>>),
            quote!(value.into_iter().map(::core::convert::Into::into).collect()),
        ),
        // A primitive is taken as itself, so that a literal (`300_000` for `ttlMs`) needs no
        // suffix: `impl Into<u64>` would make `300_000` an `i32`, which does not convert.
        None if PRIMITIVES.contains(&crate::rewrite::type_name(ty).as_str()) => {
            (quote!(#ty), quote!(value))
        }
        None => (
            quote!(impl ::core::convert::Into<#ty>),
            quote!(value.into()),
        ),
    }
}

/// `value` with the parameter named `ident` instead of `value`.
fn rename_value(value: TokenStream, ident: &syn::Ident) -> TokenStream {
    value
        .into_iter()
        .map(|token| match token {
            proc_macro2::TokenTree::Ident(name) if name == "value" => {
                proc_macro2::TokenTree::Ident(ident.clone())
            }
            other => other,
        })
        .collect()
}
