//! Emits the method tables of a revision from the `method` constants of its schema: the
//! `Method` enum, and the `Request`/`Notification` impls that pair each method with its params
//! and result types.

use crate::normalize::Facts;
use crate::rewrite::{Rewritten, StructInfo};
use crate::runtime_api::ASKS_FOR_TASK;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::{BTreeMap, BTreeSet};

/// Requests whose result the schema does not name after the request: they are answered with
/// the empty result. Checked against every revision: a name here that a revision defines
/// with its own `XResult` fails the build.
pub const EMPTY_RESULT: &[&str] = &[
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

pub fn generate(
    revision: &str,
    facts: &Facts,
    rewritten: &Rewritten,
) -> Result<Vec<syn::Item>, String> {
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
    let mut results = BTreeMap::new();
    for m in &methods {
        let (code, result) = typed_impl(m, facts, rewritten, &rust_name)?;
        items.push(code);
        if let Some(result) = result {
            results.insert(m.method.clone(), result);
        }
    }
    let tasks = crate::tasks::tasks(facts, rewritten, &rust_name)?;
    if let Some(tasks) = &tasks {
        items.push(tasks.impls.clone());
    }
    items.push(dispatch_sets(
        revision,
        facts,
        rewritten,
        &methods,
        &results,
        tasks.as_ref(),
        &rust_name,
    )?);
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
        quote!(Method::#v => ::core::option::Option::Some(crate::Direction::#d),)
    });
    let kinds = methods.iter().map(|m| {
        let v = format_ident!("{}", m.variant);
        let k = if m.is_request {
            quote!(Request)
        } else {
            quote!(Notification)
        };
        quote!(Method::#v => ::core::option::Option::Some(crate::MethodKind::#k),)
    });
    quote! {
        /// Every method this revision defines, requests and notifications in both directions.
        ///
        /// A method the revision does not define is [`Method::Unknown`]: data, not a failure.
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Method {
            #(#variants)*
            /// A method this revision does not define, as it was spelled.
            Unknown(::alloc::string::String),
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
            pub fn known(name: &str) -> ::core::option::Option<Method> {
                ::core::option::Option::Some(match name {
                    #(#from_str)*
                    _ => return ::core::option::Option::None,
                })
            }

            /// Who sends it; `None` for an unknown method.
            pub fn direction(&self) -> ::core::option::Option<crate::Direction> {
                match self {
                    #(#directions)*
                    Method::Unknown(_) => ::core::option::Option::None,
                }
            }

            /// Whether it is a request (answered) or a notification; `None` for an unknown method.
            pub fn kind(&self) -> ::core::option::Option<crate::MethodKind> {
                match self {
                    #(#kinds)*
                    Method::Unknown(_) => ::core::option::Option::None,
                }
            }
        }

        impl ::core::str::FromStr for Method {
            type Err = ::core::convert::Infallible;
            fn from_str(name: &str) -> ::core::result::Result<Self, Self::Err> {
                ::core::result::Result::Ok(Method::from(name))
            }
        }

        impl ::core::convert::From<&str> for Method {
            fn from(name: &str) -> Self {
                Method::known(name).unwrap_or_else(|| Method::Unknown(::alloc::borrow::ToOwned::to_owned(name)))
            }
        }

        impl ::core::fmt::Display for Method {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for Method {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for Method {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let name = <::alloc::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(deserializer)?;
                ::core::result::Result::Ok(Method::from(&*name))
            }
        }
    }
}

fn typed_impl(
    m: &MethodDef,
    facts: &Facts,
    rewritten: &Rewritten,
    rust_name: &dyn Fn(&str) -> Result<String, String>,
) -> Result<(TokenStream, Option<syn::Type>), String> {
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
        let code = quote! {
            impl crate::Notification for #ty {
                const METHOD: &'static str = #method;
                type Params = #params;
            }
        };
        return Ok((code, None));
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
    let code = quote! {
        impl crate::Request for #ty {
            const METHOD: &'static str = #method;
            type Params = #params;
            type Result = #result;
        }
    };
    Ok((code, Some(result)))
}

/// The params type of a method's struct, and whether the schema makes params optional.
fn params_of(rewritten: &Rewritten, m: &MethodDef) -> Result<(syn::Type, bool), String> {
    let info = rewritten
        .structs
        .get(&m.rust)
        .ok_or(format!("{} is not a generated struct", m.rust))?;
    let (_, _, ty) = info
        .fields
        .iter()
        .find(|f| f.1 == "params")
        .ok_or(format!("{} has no params member", m.rust))?;
    let optional = !info.required.iter().any(|r| r == "params");
    let inner = if optional {
        crate::rewrite::option_inner(ty)
            .cloned()
            .ok_or(format!("{}.params is optional but not an Option", m.rust))?
    } else {
        ty.clone()
    };
    Ok((inner, optional))
}

/// The typed dispatch enums of a revision: what each side sends, requests and notifications,
/// and the results of each side's requests.
fn dispatch_sets(
    revision: &str,
    facts: &Facts,
    rewritten: &Rewritten,
    methods: &[MethodDef],
    results: &BTreeMap<String, syn::Type>,
    tasks: Option<&crate::tasks::Tasks>,
    rust_name: &dyn Fn(&str) -> Result<String, String>,
) -> Result<TokenStream, String> {
    // 2025-03-26 is the one revision whose JSONRPCMessage admits batch arrays.
    let batches = facts
        .definitions
        .get("JSONRPCMessage")
        .and_then(|d| d.get("oneOf"))
        .and_then(|arms| arms.as_array())
        .is_some_and(|arms| {
            arms.iter()
                .any(|a| a.get("type").and_then(|t| t.as_str()) == Some("array"))
        });
    let mut out = TokenStream::new();
    for (sender, sender_name, direction) in [
        ("Client", "the client", quote!(ClientToServer)),
        ("Server", "the server", quote!(ServerToClient)),
    ] {
        for (is_request, suffix, kind) in [
            (true, "Call", quote!(Request)),
            (false, "Notify", quote!(Notification)),
        ] {
            let name = format_ident!("{sender}{suffix}");
            let members: Vec<&MethodDef> = methods
                .iter()
                .filter(|m| m.is_request == is_request)
                .filter(|m| {
                    m.direction == "Both"
                        || m.direction
                            == format!(
                                "{sender}To{}",
                                if sender == "Client" {
                                    "Server"
                                } else {
                                    "Client"
                                }
                            )
                })
                .collect();
            let mut variants = Vec::new();
            let mut parse_arms = Vec::new();
            let mut method_arms = Vec::new();
            let mut params_arms = Vec::new();
            let mut seed_arms = Vec::new();
            let mut task_arms = Vec::new();
            let mut listed = Vec::new();
            for m in &members {
                let v = format_ident!("{}", m.variant);
                let (params, optional) = params_of(rewritten, m)?;
                if tasks.is_some_and(|t| t.requests.contains(&m.definition)) {
                    task_arms.push(if optional {
                        quote!(Self::#v(params) => params.as_ref().is_some_and(#ASKS_FOR_TASK::asks_for_task),)
                    } else {
                        quote!(Self::#v(params) => #ASKS_FOR_TASK::asks_for_task(params),)
                    });
                }
                let method = &m.method;
                let doc = format!(" `{method}` ([`{}`]).", m.rust);
                if optional {
                    variants.push(quote!(#[doc = #doc] #v(::core::option::Option<#params>),));
                    parse_arms.push(quote!(#method => crate::dispatch::optional_params(method, params).map(Self::#v),));
                    // `params` present is an object: `null` is refused, as on the two-step path.
                    seed_arms.push(quote!(#method => <#params as ::serde::Deserialize>::deserialize(params).map(|p| Self::#v(::core::option::Option::Some(p))),));
                    params_arms.push(quote!(Self::#v(params) => if let ::core::option::Option::Some(params) = params {
                        ::serde::ser::SerializeMap::serialize_entry(map, "params", params)?;
                    },));
                } else {
                    variants.push(quote!(#[doc = #doc] #v(#params),));
                    parse_arms.push(quote!(#method => crate::dispatch::required_params(method, params).map(Self::#v),));
                    seed_arms.push(quote!(#method => <#params as ::serde::Deserialize>::deserialize(params).map(Self::#v),));
                    params_arms.push(quote!(Self::#v(params) => ::serde::ser::SerializeMap::serialize_entry(map, "params", params)?,));
                }
                method_arms.push(quote!(Self::#v(_) => #method,));
                listed.push(method.clone());
            }
            let what = if is_request {
                "request"
            } else {
                "notification"
            };
            let doc = format!(
                " Every {what} {sender_name} sends in revision {revision}, with its typed params."
            );
            let accessors = accessors(rewritten, &members, is_request)?;
            let lists_body = if listed.is_empty() {
                quote!(let _ = method; false)
            } else {
                quote!(matches!(method, #(#listed)|*))
            };
            out.extend(quote! {
                #[doc = #doc]
                #[derive(Debug, Clone, PartialEq)]
                pub enum #name {
                    #(#variants)*
                    /// A method no revision defines, with its params as sent.
                    Unknown {
                        /// The method name.
                        method: ::alloc::string::String,
                        /// The params, as JSON.
                        params: ::core::option::Option<::serde_json::Value>,
                    },
                }

                impl #name {
                    #accessors
                }

                impl crate::dispatch::MethodSet for #name {
                    const REVISION: &'static str = #revision;
                    const SENDER: crate::Direction = crate::Direction::#direction;
                    const KIND: crate::MethodKind = crate::MethodKind::#kind;
                    const BATCHES: bool = #batches;

                    // Inline: a crate that reads no message compiles none of the readers
                    // this names; one that does compiles them where it reads.
                    #[inline]
                    fn from_parts(
                        method: &str,
                        params: ::core::option::Option<&::serde_json::value::RawValue>,
                    ) -> ::core::result::Result<Self, crate::MessageError> {
                        match method {
                            #(#parse_arms)*
                            other => crate::dispatch::unknown_method(
                                other,
                                params,
                                Method::known(other).map(|m| (m.direction(), m.kind())),
                                #revision,
                                crate::Direction::#direction,
                                crate::MethodKind::#kind,
                            )
                            .map(|params| Self::Unknown { method: ::alloc::borrow::ToOwned::to_owned(other), params }),
                        }
                    }

                    fn lists(method: &str) -> bool {
                        #lists_body
                    }

                    fn deserialize_params<'de, D: ::serde::Deserializer<'de>>(
                        method: &str,
                        params: D,
                    ) -> ::core::result::Result<Self, D::Error> {
                        match method {
                            #(#seed_arms)*
                            other => ::core::result::Result::Err(<D::Error as ::serde::de::Error>::custom(
                                ::core::format_args!("{other} is not one of this set's methods"),
                            )),
                        }
                    }

                    fn method(&self) -> &str {
                        match self {
                            #(#method_arms)*
                            Self::Unknown { method, .. } => method,
                        }
                    }

                    fn serialize_params<M: ::serde::ser::SerializeMap>(&self, map: &mut M) -> ::core::result::Result<(), M::Error> {
                        match self {
                            #(#params_arms)*
                            Self::Unknown { params, .. } => if let ::core::option::Option::Some(params) = params {
                                ::serde::ser::SerializeMap::serialize_entry(map, "params", params)?;
                            },
                        }
                        ::core::result::Result::Ok(())
                    }
                }
            });
            if is_request {
                let result_name = format_ident!("{sender}CallResult");
                let mut variant_types = Vec::new();
                let mut variants = Vec::new();
                let mut parse_arms = Vec::new();
                let mut de_arms = Vec::new();
                let mut ser_arms = Vec::new();
                let mut member_arms = Vec::new();
                for m in &members {
                    // The members of the method's named result (`ListResourcesResult`).
                    let stem = m
                        .definition
                        .strip_suffix("Request")
                        .unwrap_or(&m.definition);
                    let named = format!("{stem}Result");
                    let declared: Vec<String> = match rust_name(&named) {
                        Ok(rust) if facts.definitions.contains_key(&named) => rewritten
                            .structs
                            .get(&rust)
                            .map(|info| info.members.clone())
                            .unwrap_or_default(),
                        _ => Vec::new(),
                    };
                    if !declared.is_empty() {
                        let method = &m.method;
                        member_arms.push(quote!(#method => &[#(#declared),*],));
                    }
                }
                // A set with a request that can ask for a task also answers with the task.
                let task_result = tasks
                    .filter(|_| !task_arms.is_empty())
                    .map(|t| &t.create_result);
                let task_body = if task_arms.is_empty() {
                    quote!(false)
                } else {
                    quote!(match self {
                        #(#task_arms)*
                        _ => false,
                    })
                };
                let task_parse = match task_result {
                    Some(create) => {
                        let doc = format!(
                            " The answer to a request that asked to run as a task: [`{create}`]."
                        );
                        variants.push(quote!(#[doc = #doc] CreateTask(#create),));
                        ser_arms.push(quote!(Self::CreateTask(value) => ::serde::Serialize::serialize(value, serializer),));
                        quote! {
                            if request.is_task_augmented() {
                                return crate::dispatch::read_task_result(request.method(), result, Self::CreateTask, || Self::parse_own(request.method(), result));
                            }
                        }
                    }
                    None => quote!(),
                };
                for m in &members {
                    let v = format_ident!("{}", m.variant);
                    let ty = results
                        .get(&m.method)
                        .ok_or(format!("no result for {}", m.method))?;
                    let method = &m.method;
                    let doc = format!(" The result of `{method}`.");
                    variants.push(quote!(#[doc = #doc] #v(#ty),));
                    variant_types.push((v.clone(), ty.clone()));
                    parse_arms.push(quote!(#method => crate::dispatch::read_result(method, result).map(Self::#v),));
                    de_arms.push(quote!(#method => <#ty as ::serde::Deserialize>::deserialize(deserializer).map(#result_name::#v),));
                    ser_arms.push(quote!(Self::#v(value) => ::serde::Serialize::serialize(value, serializer),));
                }
                let froms = result_froms(rewritten, &result_name, &variant_types);
                let doc = format!(" The result of a request {sender_name} sends in revision {revision}, typed by the request's method.");
                out.extend(quote! {
                    #(#froms)*

                    #[doc = #doc]
                    #[derive(Debug, Clone, PartialEq)]
                    pub enum #result_name {
                        #(#variants)*
                        /// The result of a method no revision defines, as JSON.
                        Unknown(::serde_json::Value),
                    }

                    impl #result_name {
                        /// Reads `result` as the answer to `request`: its method's result type,
                        /// or the task it created when it asked to run as a task.
                        #[inline]
                        pub fn parse(request: &crate::dispatch::PendingRequest, result: &::serde_json::value::RawValue) -> ::core::result::Result<Self, crate::MessageError> {
                            #task_parse
                            Self::parse_own(request.method(), result)
                        }

                        #[inline]
                        fn parse_own(method: &str, result: &::serde_json::value::RawValue) -> ::core::result::Result<Self, crate::MessageError> {
                            match method {
                                #(#parse_arms)*
                                _ => crate::dispatch::read_result(method, result).map(Self::Unknown),
                            }
                        }
                    }

                    impl crate::dispatch::CallSet for #name {
                        type Result = #result_name;

                        fn is_task_augmented(&self) -> bool {
                            #task_body
                        }

                        #[inline]
                        fn parse_result(
                            request: &crate::dispatch::PendingRequest,
                            result: &::serde_json::value::RawValue,
                        ) -> ::core::result::Result<#result_name, crate::MessageError> {
                            #result_name::parse(request, result)
                        }

                        fn deserialize_result<'de, D: ::serde::Deserializer<'de>>(
                            method: &str,
                            deserializer: D,
                        ) -> ::core::result::Result<#result_name, D::Error> {
                            match method {
                                #(#de_arms)*
                                _ => <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer).map(#result_name::Unknown),
                            }
                        }

                        fn result_members(method: &str) -> &'static [&'static str] {
                            match method {
                                #(#member_arms)*
                                _ => &[],
                            }
                        }
                    }

                    impl ::serde::Serialize for #result_name {
                        fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                            match self {
                                #(#ser_arms)*
                                Self::Unknown(value) => ::serde::Serialize::serialize(value, serializer),
                            }
                        }
                    }
                });
            }
        }
    }
    out.extend(quote! {
        /// The revision these types implement, as the specification names it.
        pub const REVISION: &str = #revision;
        /// What a client sends in this revision (and a server reads).
        pub type ClientMessage = crate::dispatch::Message<ClientCall, ClientNotify>;
        /// What a server sends in this revision (and a client reads).
        pub type ServerMessage = crate::dispatch::Message<ServerCall, ServerNotify>;
    });
    Ok(out)
}

/// How a variant's params reach a value: `Sure` holds a place of the value's type (a field
/// path, always there), `Maybe` an expression of type `Option<&T>`.
enum Reach {
    Sure(TokenStream),
    Maybe(TokenStream),
}

impl Reach {
    /// `self`, then `step` applied to what it reaches, bound as `binding` where it may be absent.
    fn then(
        self,
        binding: &syn::Ident,
        step: impl FnOnce(TokenStream) -> Option<Reach>,
    ) -> Option<Reach> {
        match self {
            Reach::Sure(place) => step(place),
            Reach::Maybe(option) => Some(Reach::Maybe(match step(quote!(#binding))? {
                Reach::Sure(place) => quote!(#option.map(|#binding| &#place)),
                Reach::Maybe(inner) => quote!(#option.and_then(|#binding| #inner)),
            })),
        }
    }

    /// The expression of type `Option<&T>`.
    fn reference(self) -> TokenStream {
        match self {
            Reach::Sure(place) => quote!(::core::option::Option::Some(&#place)),
            Reach::Maybe(option) => option,
        }
    }
}

/// The field of `info` whose JSON name `matches`, as reached from `base`, with the type it holds
/// (the `T` of an `Option<T>`) and its JSON name.
fn member(
    info: &StructInfo,
    base: &TokenStream,
    matches: impl Fn(&str) -> bool,
) -> Option<(Reach, syn::Type, String)> {
    let (field, json, ty) = info.fields.iter().find(|(_, json, _)| matches(json))?;
    let field = format_ident!("{field}");
    Some(match crate::rewrite::option_inner(ty) {
        Some(inner) => (
            Reach::Maybe(quote!(#base.#field.as_ref())),
            inner.clone(),
            json.clone(),
        ),
        None => (Reach::Sure(quote!(#base.#field)), ty.clone(), json.clone()),
    })
}

/// The struct generated for a type named by a bare identifier (`CallToolRequestParams`).
fn struct_named<'a>(rewritten: &'a Rewritten, ty: &syn::Type) -> Option<&'a StructInfo> {
    rewritten.structs.get(&local_name(ty)?)
}

/// The identifier of a type written as a bare, local name; `None` for `crate::JsonObject`,
/// `Option<T>` and the like.
fn local_name(ty: &syn::Type) -> Option<String> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    match (
        path.qself.as_ref(),
        path.path.segments.len(),
        path.path.leading_colon,
    ) {
        (None, 1, None) if path.path.segments[0].arguments.is_none() => {
            Some(path.path.segments[0].ident.to_string())
        }
        _ => None,
    }
}

/// The arms of a generated union whose every arm holds one value: (arm, the value's type).
fn union_arms(rewritten: &Rewritten, ty: &syn::Type) -> Option<Vec<(syn::Ident, syn::Type)>> {
    let name = local_name(ty)?;
    rewritten.file.items.iter().find_map(|item| match item {
        syn::Item::Enum(e) if e.ident == name => e
            .variants
            .iter()
            .map(|v| match &v.fields {
                syn::Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                    Some((v.ident.clone(), f.unnamed[0].ty.clone()))
                }
                _ => None,
            })
            .collect(),
        _ => None,
    })
}

/// Reaches a value in a params struct from `base` (`None` where the struct has none), naming
/// what it reached (its type, or where it is).
type Leaf<'a> = &'a dyn Fn(&StructInfo, TokenStream) -> Result<Option<(Reach, String)>, String>;

/// What `leaf` reaches from a variant's params, bound as `params`: in the params struct, or in
/// each arm of a union of structs (an arm without it gives `None`). `leaf` also names the type
/// it reached, for the caller to compare. `None` when no part of the params has it.
fn reach_in_params(
    rewritten: &Rewritten,
    params: &syn::Type,
    optional: bool,
    leaf: Leaf<'_>,
    types: &mut Vec<String>,
) -> Result<Option<Reach>, String> {
    let binding = format_ident!("params");
    let inner = if let Some(info) = struct_named(rewritten, params) {
        leaf(info, quote!(#binding))?.map(|(reach, ty)| {
            types.push(ty);
            reach
        })
    } else if let Some(arms) = union_arms(rewritten, params) {
        let mut found = false;
        let mut match_arms = Vec::new();
        for (arm, ty) in &arms {
            let reached = match struct_named(rewritten, ty) {
                Some(info) => leaf(info, quote!(#binding))?,
                None => None,
            };
            let body = match reached {
                Some((reach, ty)) => {
                    found = true;
                    types.push(ty);
                    reach.reference()
                }
                None => quote!(::core::option::Option::None),
            };
            match_arms.push(quote!(#params::#arm(#binding) => #body,));
        }
        found.then(|| Reach::Maybe(quote!(match #binding { #(#match_arms)* })))
    } else {
        None
    };
    let Some(inner) = inner else {
        return Ok(None);
    };
    if !optional {
        return Ok(Some(inner));
    }
    Ok(Reach::Maybe(quote!(#binding.as_ref())).then(&binding, |_| Some(inner)))
}

/// `_meta` of a params struct, with the Rust type it holds.
fn meta_leaf(info: &StructInfo, base: TokenStream) -> Result<Option<(Reach, String)>, String> {
    Ok(member(info, &base, |json| json == "_meta").map(|(reach, ty, _)| (reach, type_text(&ty))))
}

/// A member naming the protocol version (`protocolVersion`, or a `_meta` key ending in
/// `/protocolVersion`).
fn is_protocol_version(json: &str) -> bool {
    json == "protocolVersion" || json.ends_with("/protocolVersion")
}

/// The protocol version of a params struct: its own member, else its `_meta`'s, as a `&str`.
fn protocol_version_leaf(
    rewritten: &Rewritten,
    info: &StructInfo,
    base: TokenStream,
) -> Result<Option<(Reach, String)>, String> {
    let as_str =
        |(reach, ty, json): (Reach, syn::Type, String)| -> Result<(Reach, String), String> {
            if !matches!(
                type_text(&ty).as_str(),
                "::alloc::string::String" | "String"
            ) {
                return Err(format!(
                "`{json}` is a {}, not a string: teach codegen/methods.rs to read it as a `&str`",
                type_text(&ty)
            ));
            }
            Ok((reach, json))
        };
    if let Some(found) = member(info, &base, is_protocol_version) {
        return as_str(found).map(Some);
    }
    let Some((meta, meta_ty, _)) = member(info, &base, |json| json == "_meta") else {
        return Ok(None);
    };
    let Some(meta_info) = struct_named(rewritten, &meta_ty) else {
        return Ok(None);
    };
    let mut outcome = Ok(None);
    let reach = meta.then(&format_ident!("meta"), |meta| {
        let found = member(meta_info, &meta, is_protocol_version)?;
        match as_str(found) {
            Ok((reach, json)) => {
                outcome = Ok(Some(format!("_meta[\"{json}\"]")));
                Some(reach)
            }
            Err(e) => {
                outcome = Err(e);
                None
            }
        }
    });
    Ok(outcome?.and_then(|json| reach.map(|reach| (reach, json))))
}

/// A type as source text without spaces (`crate::JsonObject`).
fn type_text(ty: &syn::Type) -> String {
    quote!(#ty).to_string().replace(' ', "")
}

/// `meta()` and `protocol_version()` of a call set, from where its methods' params declare
/// `_meta` and a protocol version. `meta()` is left out when the methods' `_meta` types differ
/// (or none has one): there is no one type to return.
fn accessors(
    rewritten: &Rewritten,
    members: &[&MethodDef],
    is_request: bool,
) -> Result<TokenStream, String> {
    let what = if is_request {
        "request"
    } else {
        "notification"
    };
    let mut meta_arms = Vec::new();
    let mut meta_types: Vec<String> = Vec::new();
    let mut without_meta = Vec::new();
    // Whether every method's params, and their `_meta`, are required.
    let mut meta_always = true;
    let mut version_arms = Vec::new();
    let mut version_sources: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // Whether every method carries a version that cannot be left out.
    let mut version_always = true;
    for m in members {
        let v = format_ident!("{}", m.variant);
        let (params, optional) = params_of(rewritten, m)?;
        match reach_in_params(rewritten, &params, optional, &meta_leaf, &mut meta_types)? {
            Some(reach) => {
                meta_always &= matches!(reach, Reach::Sure(_));
                let body = reach.reference();
                meta_arms.push(quote!(Self::#v(params) => #body,));
            }
            None => {
                meta_always = false;
                without_meta.push(format!("`{}`", m.method));
            }
        }
        let mut sources = Vec::new();
        let leaf =
            |info: &StructInfo, base: TokenStream| protocol_version_leaf(rewritten, info, base);
        let reached = reach_in_params(rewritten, &params, optional, &leaf, &mut sources)
            .map_err(|e| format!("{}: {e}", m.definition))?;
        version_always &= matches!(reached, Some(Reach::Sure(_)));
        if let Some(reach) = reached {
            let body = match reach {
                Reach::Sure(place) => quote!(::core::option::Option::Some(#place.as_str())),
                Reach::Maybe(option) => quote!(#option.map(::alloc::string::String::as_str)),
            };
            version_arms.push(quote!(Self::#v(params) => #body,));
            sources.sort();
            sources.dedup();
            version_sources
                .entry(sources.join("` or `params."))
                .or_default()
                .push(format!("`{}`", m.method));
        }
    }
    let everywhere = |methods: &[String]| methods.len() == members.len();
    let mut out = TokenStream::new();
    meta_types.sort();
    meta_types.dedup();
    if let [meta_type] = meta_types.as_slice() {
        let ty: syn::Type = syn::parse_str(meta_type)
            .map_err(|e| format!("`_meta` type {meta_type} does not parse: {e}"))?;
        let mut doc = vec![
            format!(" The {what}'s `_meta`: the params' member `_meta`, which the schema types [`{meta_type}`]."),
            String::new(),
        ];
        doc.push(if meta_always {
            " Always `Some`, but for [`Self::Unknown`].".to_owned()
        } else if without_meta.is_empty() {
            " `None` when the params or their `_meta` are left out, and for [`Self::Unknown`].".to_owned()
        } else {
            format!(
                " `None` when the params or their `_meta` are left out, for {} (whose params the schema gives no `_meta`), and for [`Self::Unknown`].",
                without_meta.join(", ")
            )
        });
        out.extend(quote! {
            #(#[doc = #doc])*
            pub fn meta(&self) -> ::core::option::Option<&#ty> {
                match self {
                    #(#meta_arms)*
                    _ => ::core::option::Option::None,
                }
            }
        });
    }
    // A request set always answers (`None` where no method carries a version); a notification
    // set only when one of its methods carries one.
    if version_sources.is_empty() && !is_request {
        return Ok(out);
    }
    let mut doc = Vec::new();
    let body = if version_sources.is_empty() {
        doc.push(format!(
            " The protocol version the {what} carries: always `None`, as the schema gives no method of this set one in its params."
        ));
        quote!(::core::option::Option::None)
    } else {
        doc.push(format!(
            " The protocol version the {what} carries, where the schema puts one in the params:"
        ));
        for (source, methods) in &version_sources {
            let which = if everywhere(methods) {
                format!("every method's `params.{source}`")
            } else {
                format!("`params.{source}` of {}", methods.join(", "))
            };
            doc.push(format!(" {which}."));
        }
        doc.push(String::new());
        doc.push(if version_always {
            " Always `Some`, but for [`Self::Unknown`].".to_owned()
        } else {
            " `None` where the params (or the `_meta` holding it) are left out, for a method without one, and for [`Self::Unknown`].".to_owned()
        });
        quote!(match self {
            #(#version_arms)*
            _ => ::core::option::Option::None,
        })
    };
    out.extend(quote! {
        #(#[doc = #doc])*
        pub fn protocol_version(&self) -> ::core::option::Option<&str> {
            #body
        }
    });
    Ok(out)
}

/// The method of each definition a schema file gives one (its `method` constant), by
/// definition name, read without the full pipeline.
pub fn definition_methods(path: &std::path::Path) -> Result<Vec<(String, String)>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let schema: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("parsing {}: {e}", path.display()))?;
    let defs = schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .and_then(|d| d.as_object())
        .ok_or(format!("{} has no definitions", path.display()))?;
    Ok(defs
        .iter()
        .filter_map(|(name, d)| {
            let method = d.pointer("/properties/method/const")?.as_str()?;
            Some((name.clone(), method.to_owned()))
        })
        .collect())
}

/// `mod method_names`: for each definition that names a method in some revision, a
/// constant (`ELICIT_REQUEST = "elicitation/create"`), so that code written for every revision
/// names a method through the schema, not by typing it. A definition whose method differs
/// between revisions gets none.
pub fn method_constants(revisions: &[(String, Vec<(String, String)>)]) -> String {
    let mut by_definition: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (_, pairs) in revisions {
        for (definition, method) in pairs {
            by_definition.entry(definition).or_default().insert(method);
        }
    }
    let constants = by_definition
        .iter()
        .filter(|(_, methods)| methods.len() == 1)
        .map(|(definition, methods)| {
            let method = methods.iter().next().copied().unwrap_or_default();
            let name = format_ident!("{}", screaming_snake(definition));
            let doc = format!(" `{method}`, the method of `{definition}`.");
            quote!(#[doc = #doc] pub const #name: &str = #method;)
        });
    quote! {
        /// The method of each request and notification definition, the same in every revision
        /// that has it, generated from the schemas. Code written for every revision names the
        /// ones it needs; the rest are there for the next that does.
        #[allow(dead_code)]
        pub(crate) mod method_names {
            #(#constants)*
        }
    }
    .to_string()
}

/// `ElicitRequest` → `ELICIT_REQUEST`.
fn screaming_snake(name: &str) -> String {
    let mut out = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if c.is_uppercase() && previous.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit()) {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
        previous = Some(c);
    }
    out
}

/// `const ALL_METHODS: &[(&str, &[&str])]`: each method with the revisions defining it.
pub fn all_methods_table(revisions: &[(String, Vec<String>)]) -> String {
    let mut by_method: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (revision, names) in revisions {
        for name in names {
            by_method.entry(name).or_default().push(revision);
        }
    }
    let rows = by_method
        .iter()
        .map(|(method, revisions)| quote!((#method, &[#(#revisions),*]),));
    let table = quote! {
        /// Every method of every revision the crate knows, with the revisions defining it.
        const ALL_METHODS: &[(&str, &[&str])] = &[#(#rows)*];
    };
    table.to_string()
}

/// `From` impls into a call-result enum, so a handler writes `ListToolsResult::complete(…).into()`:
/// one from each result type only one method answers with, and one from each arm of a union
/// result (`CallToolResult` of the union with `InputRequiredResult`) that no other variant or
/// union holds. A type several methods share (an empty result) gets none: which method it
/// answers is the caller's to say.
fn result_froms(
    rewritten: &Rewritten,
    result_name: &syn::Ident,
    variants: &[(syn::Ident, syn::Type)],
) -> Vec<TokenStream> {
    let text = |ty: &syn::Type| quote!(#ty).to_string().replace(' ', "");
    let union_arms = |ty: &syn::Type| -> Vec<String> {
        let name = text(ty);
        rewritten
            .file
            .items
            .iter()
            .find_map(|item| match item {
                syn::Item::Enum(e) if e.ident == name => Some(
                    e.variants
                        .iter()
                        .filter_map(|v| match &v.fields {
                            syn::Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                                let ty = &f.unnamed[0].ty;
                                Some(quote!(#ty).to_string().replace(' ', ""))
                            }
                            _ => None,
                        })
                        .collect(),
                ),
                _ => None,
            })
            .unwrap_or_default()
    };
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for (_, ty) in variants {
        *count.entry(text(ty)).or_default() += 1;
        for arm in union_arms(ty) {
            *count.entry(arm).or_default() += 1;
        }
    }
    let mut out = Vec::new();
    for (v, ty) in variants {
        if count[&text(ty)] == 1 {
            out.push(quote! {
                impl ::core::convert::From<#ty> for #result_name {
                    #[inline]
                    fn from(value: #ty) -> Self {
                        Self::#v(value)
                    }
                }
            });
        }
        for arm in union_arms(ty) {
            if count[&arm] == 1 {
                let Ok(arm) = syn::parse_str::<syn::Type>(&arm) else {
                    continue;
                };
                out.push(quote! {
                    impl ::core::convert::From<#arm> for #result_name {
                        #[inline]
                        fn from(value: #arm) -> Self {
                            Self::#v(::core::convert::From::from(value))
                        }
                    }
                });
            }
        }
    }
    out
}
