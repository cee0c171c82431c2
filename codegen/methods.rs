//! Emits the method tables of a revision from the `method` constants of its schema: the
//! `Method` enum, and the `Request`/`Notification` impls that pair each method with its params
//! and result types.

use crate::normalize::Facts;
use crate::rewrite::Rewritten;
use crate::runtime_api::ASKS_FOR_TASK;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;

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
                    variants.push(quote!(#[doc = #doc] #v(::std::option::Option<#params>),));
                    parse_arms.push(quote!(#method => crate::dispatch::optional_params(method, params).map(Self::#v),));
                    // `params` present is an object: `null` is refused, as on the two-step path.
                    seed_arms.push(quote!(#method => <#params as ::serde::Deserialize>::deserialize(params).map(|p| Self::#v(::std::option::Option::Some(p))),));
                    params_arms.push(quote!(Self::#v(params) => if let ::std::option::Option::Some(params) = params {
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
                        method: ::std::string::String,
                        /// The params, as JSON.
                        params: ::std::option::Option<::serde_json::Value>,
                    },
                }

                impl crate::dispatch::MethodSet for #name {
                    const REVISION: &'static str = #revision;
                    const SENDER: crate::Direction = crate::Direction::#direction;
                    const KIND: crate::MethodKind = crate::MethodKind::#kind;
                    const BATCHES: bool = #batches;

                    fn from_parts(
                        method: &str,
                        params: ::std::option::Option<&::serde_json::value::RawValue>,
                    ) -> ::std::result::Result<Self, crate::MessageError> {
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
                            .map(|params| Self::Unknown { method: other.to_owned(), params }),
                        }
                    }

                    fn lists(method: &str) -> bool {
                        #lists_body
                    }

                    fn deserialize_params<'de, D: ::serde::Deserializer<'de>>(
                        method: &str,
                        params: D,
                    ) -> ::std::result::Result<Self, D::Error> {
                        match method {
                            #(#seed_arms)*
                            other => ::std::result::Result::Err(<D::Error as ::serde::de::Error>::custom(
                                ::std::format_args!("{other} is not one of this set's methods"),
                            )),
                        }
                    }

                    fn method(&self) -> &str {
                        match self {
                            #(#method_arms)*
                            Self::Unknown { method, .. } => method,
                        }
                    }

                    fn serialize_params<M: ::serde::ser::SerializeMap>(&self, map: &mut M) -> ::std::result::Result<(), M::Error> {
                        match self {
                            #(#params_arms)*
                            Self::Unknown { params, .. } => if let ::std::option::Option::Some(params) = params {
                                ::serde::ser::SerializeMap::serialize_entry(map, "params", params)?;
                            },
                        }
                        ::std::result::Result::Ok(())
                    }
                }
            });
            if is_request {
                let result_name = format_ident!("{sender}CallResult");
                let mut variants = Vec::new();
                let mut parse_arms = Vec::new();
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
                    parse_arms.push(quote!(#method => crate::dispatch::read_result(method, result).map(Self::#v),));
                    ser_arms.push(quote!(Self::#v(value) => ::serde::Serialize::serialize(value, serializer),));
                }
                let doc = format!(" The result of a request {sender_name} sends in revision {revision}, typed by the request's method.");
                out.extend(quote! {
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
                        pub fn parse(request: &crate::dispatch::PendingRequest, result: &::serde_json::value::RawValue) -> ::std::result::Result<Self, crate::MessageError> {
                            #task_parse
                            Self::parse_own(request.method(), result)
                        }

                        fn parse_own(method: &str, result: &::serde_json::value::RawValue) -> ::std::result::Result<Self, crate::MessageError> {
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

                        fn parse_result(
                            request: &crate::dispatch::PendingRequest,
                            result: &::serde_json::value::RawValue,
                        ) -> ::std::result::Result<#result_name, crate::MessageError> {
                            #result_name::parse(request, result)
                        }

                        fn result_members(method: &str) -> &'static [&'static str] {
                            match method {
                                #(#member_arms)*
                                _ => &[],
                            }
                        }
                    }

                    impl ::serde::Serialize for #result_name {
                        fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
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

/// The method names a schema file defines (its `method` constants), read without the full
/// pipeline.
pub fn method_names(path: &std::path::Path) -> Result<Vec<String>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let schema: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("parsing {}: {e}", path.display()))?;
    let defs = schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .and_then(|d| d.as_object())
        .ok_or(format!("{} has no definitions", path.display()))?;
    let mut names: Vec<String> = defs
        .values()
        .filter_map(|d| {
            d.pointer("/properties/method/const")?
                .as_str()
                .map(str::to_owned)
        })
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
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
