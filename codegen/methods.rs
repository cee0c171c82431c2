//! Emits the method tables of a revision from the `method` constants of its schema: the
//! `Method` enum, and the `Request`/`Notification` impls that pair each method with its params
//! and result types.

use crate::normalize::Facts;
use crate::rewrite::Rewritten;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;

/// Requests whose result the schema does not name after the request: they are answered with
/// the empty result. Checked against every revision: a name here that a revision defines
/// with its own `XResult` fails the build.
const EMPTY_RESULT: &[&str] = &[
    "PingRequest",
    "SubscribeRequest",
    "UnsubscribeRequest",
    "SetLevelRequest",
];

/// Which side sends a method, from the union definitions that list it.
const DIRECTIONS: &[(&str, &str)] = &[
    ("ClientRequest", "ClientToServer"),
    ("ClientNotification", "ClientToServer"),
    ("ServerRequest", "ServerToClient"),
    ("ServerNotification", "ServerToClient"),
    // 2026-07-28: server-to-client requests travel inside `InputRequiredResult`.
    ("InputRequest", "ServerToClient"),
];

struct MethodDef {
    /// The schema definition (`ListResourcesRequest`).
    definition: String,
    /// The Rust type generated for it.
    rust: String,
    /// The method string (`resources/list`).
    method: String,
    /// The `Method` variant (`ListResources`).
    variant: String,
    is_request: bool,
    direction: &'static str,
}

/// Maps schema definition names to the names typify gave them.
pub fn rust_names(rewritten: &Rewritten) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for item in &rewritten.file.items {
        let ident = match item {
            syn::Item::Struct(s) => &s.ident,
            syn::Item::Enum(e) => &e.ident,
            syn::Item::Type(t) => &t.ident,
            _ => continue,
        };
        out.insert(fold(&ident.to_string()), ident.to_string());
    }
    out
}

/// `JSONRPCRequest` and `JsonRpcRequest` fold to the same key.
pub fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

pub fn generate(facts: &Facts, rewritten: &Rewritten) -> Result<Vec<syn::Item>, String> {
    let names = rust_names(rewritten);
    let rust_name = |definition: &str| -> Result<String, String> {
        let renamed = crate::types::RENAMES
            .iter()
            .find(|(from, _)| *from == definition)
            .map(|(_, to)| to.to_string());
        renamed
            .or_else(|| names.get(&fold(definition)).cloned())
            .ok_or(format!("no Rust type for definition {definition}"))
    };

    // Who sends each method. 2026-07-28 spells ClientNotification as an inline copy of
    // CancelledNotification rather than a union, so a union definition that is itself a
    // message counts for its own method.
    let mut senders: BTreeMap<String, Vec<&'static str>> = BTreeMap::new();
    for (union, direction) in DIRECTIONS {
        if let Some(method) = facts.const_of(union, "method") {
            let method = method.as_str().unwrap_or_default().to_owned();
            senders.entry(method).or_default().push(direction);
        }
        for arm in facts.unions.get(*union).into_iter().flatten() {
            if let Some(method) = facts.const_of(arm, "method") {
                let method = method.as_str().unwrap_or_default().to_owned();
                senders.entry(method).or_default().push(direction);
            }
        }
    }

    let mut methods: Vec<MethodDef> = Vec::new();
    for definition in facts.definitions.keys() {
        if DIRECTIONS.iter().any(|(union, _)| union == definition) {
            continue;
        }
        let Some(method) = facts.const_of(definition, "method") else {
            continue;
        };
        let method = method
            .as_str()
            .ok_or(format!("{definition}.method is not a string"))?
            .to_owned();
        let mut sent_by = senders.get(&method).cloned().unwrap_or_default();
        sent_by.sort();
        sent_by.dedup();
        let direction = match sent_by.as_slice() {
            [one] => *one,
            [_, _] => "Both",
            _ => return Err(format!("{definition}: no union says who sends {method}")),
        };
        let (is_request, stem) = if let Some(stem) = definition.strip_suffix("Request") {
            (true, stem)
        } else if let Some(stem) = definition.strip_suffix("Notification") {
            (false, stem)
        } else {
            return Err(format!(
                "{definition} has a method but is neither a request nor a notification"
            ));
        };
        methods.push(MethodDef {
            definition: definition.clone(),
            rust: rust_name(definition)?,
            method,
            variant: stem.to_owned(),
            is_request,
            direction,
        });
    }
    methods.sort_by(|a, b| a.method.cmp(&b.method));

    let mut items = Vec::new();
    items.push(method_enum(&methods));
    for m in &methods {
        items.push(typed_impl(m, facts, rewritten, &rust_name)?);
    }
    let file: syn::File = syn::parse2(quote!(#(#items)*))
        .map_err(|e| format!("emitted method code does not parse: {e}"))?;
    Ok(file.items)
}

fn method_enum(methods: &[MethodDef]) -> TokenStream {
    let variants = methods.iter().map(|m| {
        let v = format_ident!("{}", m.variant);
        let doc = format!(" `{}`: see [`{}`].", m.method, m.rust);
        quote!(#[doc = #doc] #v,)
    });
    let as_str = methods.iter().map(|m| {
        let v = format_ident!("{}", m.variant);
        let s = &m.method;
        quote!(Method::#v => #s,)
    });
    let from_str = methods.iter().map(|m| {
        let v = format_ident!("{}", m.variant);
        let s = &m.method;
        quote!(#s => Method::#v,)
    });
    let all = methods.iter().map(|m| {
        let v = format_ident!("{}", m.variant);
        quote!(Method::#v,)
    });
    let directions = methods.iter().map(|m| {
        let v = format_ident!("{}", m.variant);
        let d = format_ident!("{}", m.direction);
        quote!(Method::#v => ::std::option::Option::Some(crate::Direction::#d),)
    });
    let kinds = methods.iter().map(|m| {
        let v = format_ident!("{}", m.variant);
        let k = if m.is_request {
            quote!(Request)
        } else {
            quote!(Notification)
        };
        quote!(Method::#v => ::std::option::Option::Some(crate::MethodKind::#k),)
    });
    quote! {
        /// Every method this revision defines, requests and notifications in both directions.
        ///
        /// A method the revision does not define is [`Method::Unknown`]: data, not a failure.
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Method {
            #(#variants)*
            /// A method this revision does not define, as it was spelled.
            Unknown(::std::string::String),
        }

        impl Method {
            /// Every method the revision defines, in the order of their names.
            pub const ALL: &'static [Method] = &[#(#all)*];

            /// The method's name on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    #(#as_str)*
                    Method::Unknown(name) => name,
                }
            }

            /// Looks a method name up without allocating; `None` for a name the revision does
            /// not define.
            pub fn known(name: &str) -> ::std::option::Option<Method> {
                ::std::option::Option::Some(match name {
                    #(#from_str)*
                    _ => return ::std::option::Option::None,
                })
            }

            /// Who sends it; `None` for an unknown method.
            pub fn direction(&self) -> ::std::option::Option<crate::Direction> {
                match self {
                    #(#directions)*
                    Method::Unknown(_) => ::std::option::Option::None,
                }
            }

            /// Whether it is a request (answered) or a notification; `None` for an unknown method.
            pub fn kind(&self) -> ::std::option::Option<crate::MethodKind> {
                match self {
                    #(#kinds)*
                    Method::Unknown(_) => ::std::option::Option::None,
                }
            }
        }

        impl ::std::str::FromStr for Method {
            type Err = ::std::convert::Infallible;
            fn from_str(name: &str) -> ::std::result::Result<Self, Self::Err> {
                ::std::result::Result::Ok(Method::from(name))
            }
        }

        impl ::std::convert::From<&str> for Method {
            fn from(name: &str) -> Self {
                Method::known(name).unwrap_or_else(|| Method::Unknown(name.to_owned()))
            }
        }

        impl ::std::fmt::Display for Method {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for Method {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for Method {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let name = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(deserializer)?;
                ::std::result::Result::Ok(Method::from(&*name))
            }
        }
    }
}

fn typed_impl(
    m: &MethodDef,
    facts: &Facts,
    rewritten: &Rewritten,
    rust_name: &dyn Fn(&str) -> Result<String, String>,
) -> Result<TokenStream, String> {
    let ty = format_ident!("{}", m.rust);
    let method = &m.method;
    let info = rewritten
        .structs
        .get(&m.rust)
        .ok_or(format!("{} is not a generated struct", m.rust))?;
    let params: syn::Type = match info.fields.iter().find(|f| f.1 == "params") {
        Some((_, _, ty)) => ty.clone(),
        None => syn::parse_quote!(()),
    };
    if !m.is_request {
        return Ok(quote! {
            impl crate::Notification for #ty {
                const METHOD: &'static str = #method;
                type Params = #params;
            }
        });
    }
    let stem = m
        .definition
        .strip_suffix("Request")
        .unwrap_or(&m.definition);
    let named_result = format!("{stem}Result");
    let response = format!("{stem}ResultResponse");
    let result: syn::Type = if facts.definitions.contains_key(&response) {
        // 2026-07-28 names the response, whose result may also be `InputRequiredResult`.
        let response_rust = rust_name(&response)?;
        let info = rewritten
            .structs
            .get(&response_rust)
            .ok_or(format!("{response_rust} is not a generated struct"))?;
        info.fields
            .iter()
            .find(|f| f.1 == "result")
            .map(|f| f.2.clone())
            .ok_or(format!("{response} has no result"))?
    } else if facts.definitions.contains_key(&named_result) {
        if EMPTY_RESULT.contains(&m.definition.as_str()) {
            return Err(format!(
                "{} now has its own {named_result}: drop it from EMPTY_RESULT",
                m.definition
            ));
        }
        let r = format_ident!("{}", rust_name(&named_result)?);
        syn::parse_quote!(#r)
    } else if EMPTY_RESULT.contains(&m.definition.as_str()) {
        let r = format_ident!("{}", rust_name("EmptyResult")?);
        syn::parse_quote!(#r)
    } else {
        return Err(format!("{}: no result type pairs with it", m.definition));
    };
    Ok(quote! {
        impl crate::Request for #ty {
            const METHOD: &'static str = #method;
            type Params = #params;
            type Result = #result;
        }
    })
}
