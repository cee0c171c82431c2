//! Turns typify's output into the crate's types: exact, lossless and dispatched by discriminator.
//!
//! typify derives serde for every type. Its derives are replaced here wherever they would be
//! wrong or slow:
//! - structs get hand-emitted `Serialize`/`Deserialize` impls that write and check `const`
//!   members (which are no longer Rust fields), keep unknown members in `extra`, reject `null`
//!   for optional members that are not nullable, and never buffer the input (no `flatten`);
//! - unions (`oneOf`, typify's untagged enums) select their arm by a `const` discriminator when
//!   every arm has one (`type`, `method`, ...), streaming when the discriminator comes first;
//!   other unions select by the JSON kind and then by the members present, never by trial;
//! - optional members are `Option<T>` whatever typify chose (`Vec` with `default`, ...), so an
//!   absent member and an empty one stay different on the way back out;
//! - `number` is held as `serde_json::Number`, so `10` never comes back as `10.0`.

use crate::normalize::{marker_value, CONST_MARKER};
use crate::runtime_api::{
    self, ARM_SHAPE, BOUNDS, CHECK_OBJECT, CONST_VALUE, DECLARED_IN_EXTRA, FROM_BUFFERED, KEYED,
    KEYED_VISITOR, KEYWORDS, KIND, LITERAL, MEMBER, MEMBER_SEED, OBJECT, OBJECT_KEYWORDS,
    OBJECT_VISITOR, PATTERN, PUT_EXTRA, READ_CONST, READ_EXTRA, READ_OPTIONAL_CONST, REQUIRED,
    REQUIRE_CONST, SELECT_ARM, SERIALIZE_CONST, STRING_ENUM, STRING_ENUM_VISITOR, TAGGED,
    TAGGED_VISITOR, UNREACHABLE_ARM,
};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use syn::visit_mut::VisitMut;

/// What the other passes need to know about one rewritten struct.
#[derive(Clone)]
pub struct StructInfo {
    /// Members whose value is fixed by the schema: (JSON name, value, required).
    pub consts: Vec<(String, Value, bool)>,
    /// Names of members the schema requires (consts included).
    pub required: Vec<String>,
    /// Every member name the schema declares (consts included).
    pub members: Vec<String>,
    /// Rust field name and JSON name of each remaining field, for lookups.
    pub fields: Vec<(String, String, syn::Type)>,
    /// The field that keeps the members the schema does not name.
    pub extra: String,
    /// Whether the struct derives `Default` (every member optional, no constant required).
    pub derives_default: bool,
}

/// The rewritten file plus what was learned while rewriting it.
pub struct Rewritten {
    pub file: syn::File,
    pub structs: BTreeMap<String, StructInfo>,
}

pub fn rewrite(mut file: syn::File, _facts: &crate::normalize::Facts) -> Result<Rewritten, String> {
    RenameIdents.visit_file_mut(&mut file);
    let stutters = stuttering_names(&file);
    if !stutters.is_empty() {
        return Err(format!(
            "generated names that stutter: {} (name them in rewrite.rs's STUTTERS)",
            stutters.join(", ")
        ));
    }
    NumberType.visit_file_mut(&mut file);
    strip_schema_dumps(&mut file);

    let mut structs = BTreeMap::new();
    let mut impls: Vec<TokenStream> = Vec::new();
    let is_object = |item: &syn::ItemStruct| {
        has_serde_derive(&item.attrs) && matches!(item.fields, syn::Fields::Named(_))
    };
    // The types that become `Object`s: an array of one is read by a reader that builds each
    // element in place.
    let objects: BTreeSet<String> = file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(item) if is_object(item) => Some(item.ident.to_string()),
            _ => None,
        })
        .collect();
    for item in &mut file.items {
        if let syn::Item::Struct(item) = item {
            if is_object(item) {
                let (info, code) = rewrite_struct(item, &objects)?;
                structs.insert(item.ident.to_string(), info);
                impls.push(code);
            }
        }
    }
    let string_like = string_like_types(&file);
    let enums = string_enum_values(&file)?;
    for item in &mut file.items {
        if let syn::Item::Enum(item) = item {
            if let Some(values) = enums.get(&item.ident.to_string()) {
                if has_serde_derive(&item.attrs) {
                    impls.push(rewrite_string_enum(item, values));
                }
            }
        }
    }
    let mut unions = BTreeMap::new();
    for item in &file.items {
        if let syn::Item::Enum(item) = item {
            if is_untagged(&item.attrs) {
                unions.insert(item.ident.to_string(), union_arms(item, &string_like)?);
            }
        }
    }
    for item in &mut file.items {
        if let syn::Item::Enum(item) = item {
            if is_untagged(&item.attrs) {
                let context = ShapeContext {
                    structs: &structs,
                    unions: &unions,
                    enums: &enums,
                };
                impls.push(rewrite_union(item, &context)?);
            }
        }
    }
    for code in impls {
        let parsed: syn::File =
            syn::parse2(code).map_err(|e| format!("emitted code does not parse: {e}"))?;
        file.items.extend(parsed.items);
    }
    Ok(Rewritten { file, structs })
}

/// `JSONRPCRequest` is `JsonrpcRequest` to typify; a Rust user would write `JsonRpcRequest`.
/// typify names an inline member's type `{Parent}{Member}`, which stutters where the member is
/// named like its parent's last word: `HeaderMismatchError.error` would be
/// `HeaderMismatchErrorError`. Each such pair is named for what the member holds instead (the
/// JSON-RPC error object, as the `Error` definition is `ErrorObject`; the contents of an
/// embedded resource); [`stuttering_names`] fails the build on any other.
const STUTTERS: &[(&str, &str)] = &[
    ("ErrorError", "ErrorObject"),
    ("ResourceResource", "ResourceContents"),
];

struct RenameIdents;

impl VisitMut for RenameIdents {
    fn visit_ident_mut(&mut self, ident: &mut syn::Ident) {
        let mut name = ident.to_string();
        if let Some(rest) = name.strip_prefix("Jsonrpc") {
            name = format!("JsonRpc{rest}");
        }
        for (stutter, meant) in STUTTERS {
            name = name.replace(stutter, meant);
        }
        if *ident != name {
            *ident = syn::Ident::new(&name, ident.span());
        }
    }
}

/// The generated type names in which a word follows itself (`ResourceResource`).
fn stuttering_names(file: &syn::File) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) => Some(s.ident.to_string()),
            syn::Item::Enum(e) => Some(e.ident.to_string()),
            _ => None,
        })
        .filter(|name| {
            let mut words: Vec<String> = Vec::new();
            for c in name.chars() {
                match words.last_mut() {
                    Some(word) if !c.is_ascii_uppercase() => word.push(c),
                    _ => words.push(c.to_string()),
                }
            }
            words.windows(2).any(|pair| pair[0] == pair[1])
        })
        .collect()
}

/// JSON numbers keep their written form (integer or not) through `serde_json::Number`.
struct NumberType;

impl VisitMut for NumberType {
    fn visit_type_mut(&mut self, ty: &mut syn::Type) {
        if let syn::Type::Path(path) = ty {
            if path.qself.is_none() && path.path.is_ident("f64") {
                *ty = syn::parse_quote!(::serde_json::Number);
                return;
            }
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}

/// typify appends the JSON schema of each type to its docs; the descriptions are the docs.
fn strip_schema_dumps(file: &mut syn::File) {
    struct Strip;
    impl VisitMut for Strip {
        fn visit_attributes_mut(&mut self, attrs: &mut Vec<syn::Attribute>) {
            for attr in attrs.iter_mut() {
                if let Some(text) = doc_text(attr) {
                    let kept = match text.find("<details><summary>JSON schema</summary>") {
                        Some(cut) => text[..cut].trim_end().to_owned(),
                        None => text.clone(),
                    };
                    let cleaned = rustdoc_text(&kept);
                    if cleaned != text {
                        *attr = syn::parse_quote!(#[doc = #cleaned]);
                    }
                }
            }
            attrs.retain(|a| doc_text(a).is_none_or(|t| !t.trim().is_empty()));
        }
    }
    Strip.visit_file_mut(file);
}

/// Makes the schema's TypeScript-flavoured descriptions read well in rustdoc: `{@link X}`
/// becomes `` `X` ``, site-relative links point at the specification site, bare URLs become
/// links.
fn rustdoc_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{@link ") {
        out.push_str(&rest[..start]);
        let after = &rest[start + "{@link ".len()..];
        match after.find('}') {
            Some(end) => {
                out.push('`');
                out.push_str(after[..end].trim());
                out.push('`');
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    let out = out.replace("](/", "](https://modelcontextprotocol.io/");
    wrap_bare_urls(&out)
}

fn wrap_bare_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    loop {
        let next = ["https://", "http://"]
            .iter()
            .filter_map(|p| rest.find(p))
            .min();
        let Some(start) = next else {
            out.push_str(rest);
            return out;
        };
        let before = rest[..start].chars().last();
        let len = rest[start..]
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | '>' | '"' | '`' | '*'))
            .unwrap_or(rest.len() - start);
        let mut url = &rest[start..start + len];
        // A sentence's full stop or comma is not part of the address.
        while url.ends_with(['.', ',', ';', ':']) {
            url = &url[..url.len() - 1];
        }
        out.push_str(&rest[..start]);
        if matches!(before, Some('(' | '<' | '`' | '[')) {
            out.push_str(url);
        } else {
            out.push('<');
            out.push_str(url);
            out.push('>');
        }
        rest = &rest[start + url.len()..];
    }
}

fn doc_text(attr: &syn::Attribute) -> Option<String> {
    if !attr.path().is_ident("doc") {
        return None;
    }
    if let syn::Meta::NameValue(nv) = &attr.meta {
        if let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = &nv.value
        {
            return Some(s.value());
        }
    }
    None
}

fn has_serde_derive(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("derive") && quote!(#a).to_string().contains("Deserialize"))
}

fn is_untagged(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("serde") && quote!(#a).to_string().contains("untagged"))
}

/// A string enum reads through the runtime's [`STRING_ENUM_VISITOR`]: from a JSON string only,
/// as the schema's `enum` allows (serde's derive also takes `{"value": null}`). Its derived
/// `Serialize` stays: it writes the value as a string.
fn rewrite_string_enum(item: &mut syn::ItemEnum, values: &[String]) -> TokenStream {
    drop_derive(&mut item.attrs, "Deserialize");
    let name = &item.ident;
    let schema_name = name.to_string();
    let variants: Vec<&syn::Ident> = item.variants.iter().map(|v| &v.ident).collect();
    quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                deserializer.deserialize_str(#STRING_ENUM_VISITOR::<Self>::new())
            }
        }
        impl #STRING_ENUM for #name {
            const NAME: &'static str = #schema_name;
            const VALUES: &'static [&'static str] = &[#(#values),*];
            fn from_value(value: &str) -> ::core::option::Option<Self> {
                match value {
                    #(#values => ::core::option::Option::Some(Self::#variants),)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    }
}

/// Removes one trait from the derives.
fn drop_derive(attrs: &mut [syn::Attribute], derived: &str) {
    for attr in attrs.iter_mut() {
        if !attr.path().is_ident("derive") {
            continue;
        }
        let Ok(paths) = attr.parse_args_with(
            syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
        ) else {
            continue;
        };
        let kept: Vec<&syn::Path> = paths
            .iter()
            .filter(|p| p.segments.last().is_none_or(|s| s.ident != derived))
            .collect();
        *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
    }
}

/// Removes `::serde::Deserialize, ::serde::Serialize` from the derives and every `#[serde]`.
fn drop_serde_attrs(attrs: &mut Vec<syn::Attribute>) {
    attrs.retain(|a| !a.path().is_ident("serde"));
    drop_derive(attrs, "Serialize");
    drop_derive(attrs, "Deserialize");
}

/// The serde options typify put on one field.
#[derive(Default)]
struct SerdeField {
    rename: Option<String>,
    flatten: bool,
    /// `default` or `skip_serializing_if`: typify's way of saying "not required".
    optional: bool,
}

fn serde_field(attrs: &[syn::Attribute]) -> Result<SerdeField, String> {
    let mut out = SerdeField::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let value: syn::LitStr = meta.value()?.parse()?;
                out.rename = Some(value.value());
            } else if meta.path.is_ident("flatten") {
                out.flatten = true;
            } else if meta.path.is_ident("default") {
                out.optional = true;
                if meta.input.peek(syn::Token![=]) {
                    let _: syn::LitStr = meta.value()?.parse()?;
                }
            } else if meta.path.is_ident("deserialize_with") {
                // typify's spelling of "required but nullable"; `Option<T>` read as a required
                // member already means exactly that.
                let _: syn::LitStr = meta.value()?.parse()?;
            } else if meta.path.is_ident("skip_serializing_if") {
                out.optional = true;
                let _: syn::LitStr = meta.value()?.parse()?;
            } else {
                return Err(meta.error(format!(
                    "unexpected serde field option `{}` from typify",
                    quote!(#attr)
                )));
            }
            Ok(())
        })
        .map_err(|e| format!("reading typify's serde attributes: {e}"))?;
    }
    Ok(out)
}

/// `Option<T>` → `Some(T)`.
pub fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    type_argument(ty, "Option")
}

/// The `T` of `Vec<T>`.
pub fn vec_inner(ty: &syn::Type) -> Option<&syn::Type> {
    type_argument(ty, "Vec")
}

/// The `T` of `Wrapper<T>` (the last path segment named `wrapper`).
fn type_argument<'a>(ty: &'a syn::Type, wrapper: &str) -> Option<&'a syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) => Some(inner),
        _ => None,
    }
}

fn const_tokens(value: &Value) -> Result<TokenStream, String> {
    match value {
        Value::String(s) => Ok(quote!(#CONST_VALUE::Str(#s))),
        Value::Number(n) if n.is_i64() => {
            let n = n.as_i64().unwrap_or_default();
            Ok(quote!(#CONST_VALUE::Int(#n)))
        }
        other => Err(format!("unsupported const value {other}")),
    }
}

fn rewrite_struct(
    item: &mut syn::ItemStruct,
    objects: &BTreeSet<String>,
) -> Result<(StructInfo, TokenStream), String> {
    let name = item.ident.clone();
    let object_keywords = take_object_keywords(&mut item.attrs)
        .map(|k| object_keywords_tokens(&k))
        .transpose()
        .map_err(|e| format!("{name}: {e}"))?;
    let syn::Fields::Named(named) = &mut item.fields else {
        return Err(format!("{name}: not a struct with named fields"));
    };

    struct Member {
        json: String,
        kind: MemberKind,
    }
    enum MemberKind {
        Const(Value, bool),
        Required(syn::Ident, Option<Check>),
        Optional(syn::Ident, Box<syn::Type>, Option<Check>),
    }

    let mut members: Vec<Member> = Vec::new();
    let mut extra: Option<syn::Ident> = None;
    let mut optional_const_fields: Vec<(String, syn::Ident)> = Vec::new();
    let mut kept = syn::punctuated::Punctuated::<syn::Field, syn::Token![,]>::new();
    for mut field in std::mem::take(&mut named.named) {
        let ident = field
            .ident
            .clone()
            .ok_or(format!("{name}: unnamed field"))?;
        let serde = serde_field(&field.attrs)?;
        let json = serde.rename.clone().unwrap_or_else(|| {
            let text = ident.to_string();
            text.strip_prefix("r#").unwrap_or(&text).to_owned()
        });
        let marker = field
            .attrs
            .iter()
            .filter_map(doc_text)
            .find_map(|t| t.contains(CONST_MARKER).then(|| marker_value(&t)))
            .flatten();
        field.attrs.retain(|a| !a.path().is_ident("serde"));
        let required = !serde.optional && option_inner(&field.ty).is_none();
        // A constant the dedicated reader cannot hold (a boolean, a fraction, an object, or an
        // optional non-string) stays a member, checked as a one-value `enum`.
        let (marker, generic_const) = match marker {
            Some(value) if const_tokens(&value).is_err() || (!required && !value.is_string()) => {
                field
                    .attrs
                    .retain(|a| !doc_text(a).is_some_and(|t| t.contains(CONST_MARKER)));
                (None, Some(value))
            }
            marker => (marker, None),
        };
        let mut recorded = take_bounds(&mut field.attrs);
        if let Some(value) = generic_const {
            recorded
                .get_or_insert_with(Map::new)
                .insert("enum".into(), Value::Array(vec![value]));
        }
        let value_type = option_inner(&field.ty).unwrap_or(&field.ty).clone();
        let bounds = recorded
            .map(|b| bounds_tokens(&b, &value_type))
            .transpose()
            .map_err(|e| format!("{name}.{json}: {e}"))?;
        if let Some(value) = marker {
            members.push(Member {
                json: json.clone(),
                kind: MemberKind::Const(value.clone(), required),
            });
            if !required {
                if type_name(option_inner(&field.ty).unwrap_or(&field.ty)) != "String" {
                    return Err(format!("{name}.{json}: optional non-string const"));
                }
                field.ty = syn::parse_quote!(::core::option::Option<::alloc::string::String>);
                field.attrs.retain(|a| doc_text(a).is_none());
                let doc = format!(" Always {value} when present.");
                field.attrs.push(syn::parse_quote!(#[doc = #doc]));
                optional_const_fields.push((json, ident));
                kept.push(field);
            }
            continue;
        }
        if serde.flatten {
            if option_inner(&field.ty).is_some() {
                return Err(format!(
                    "{name}.{ident}: typify flattened an optional member; an anyOf of objects \
                     slipped through normalization"
                ));
            }
            extra = Some(ident.clone());
            field.attrs.clear();
            field.attrs.push(syn::parse_quote!(
                #[doc = " Members the schema does not name, kept so that what was read is written back unchanged."]
            ));
            kept.push(field);
            continue;
        }
        if serde.optional {
            let inner = match option_inner(&field.ty) {
                Some(inner) => inner.clone(),
                None => field.ty.clone(),
            };
            field.ty = syn::parse_quote!(::core::option::Option<#inner>);
            members.push(Member {
                json,
                kind: MemberKind::Optional(ident, Box::new(inner), bounds),
            });
        } else {
            members.push(Member {
                json,
                kind: MemberKind::Required(ident, bounds),
            });
        }
        kept.push(field);
    }
    let extra = match extra {
        Some(extra) => extra,
        None => {
            if kept
                .iter()
                .any(|f| f.ident.as_ref().is_some_and(|i| i == "extra"))
            {
                return Err(format!("{name} has a member named `extra`"));
            }
            kept.push(syn::parse_quote!(
                /// Members the schema does not name, kept so that what was read is written back unchanged.
                /// A member the type declares (a field, or a constant it writes itself) does not
                /// belong here: writing the value then fails rather than write the member twice.
                pub extra: ::serde_json::Map<::alloc::string::String, ::serde_json::Value>
            ));
            format_ident!("extra")
        }
    };
    named.named = kept;
    drop_serde_attrs(&mut item.attrs);
    // Adding `extra` keeps an all-optional struct `Default`; nothing else about derives changes.

    let name_str = name.to_string();
    let mut ser = Vec::new();
    let mut slots = Vec::new();
    let mut arms = Vec::new();
    let mut key_arms = Vec::new();
    let mut finish = Vec::new();
    let mut build = Vec::new();
    let mut info = StructInfo {
        consts: Vec::new(),
        required: Vec::new(),
        members: Vec::new(),
        fields: Vec::new(),
        extra: extra.to_string(),
        derives_default: item
            .attrs
            .iter()
            .any(|a| a.path().is_ident("derive") && quote!(#a).to_string().contains("Default")),
    };
    // Constants first: a reader that dispatches on `method` or `type` finds them at once.
    members.sort_by_key(|m| !matches!(m.kind, MemberKind::Const(..)));
    for (index, member) in members.iter().enumerate() {
        let index = u8::try_from(index).map_err(|_| format!("{name}: too many members"))?;
        let json = &member.json;
        let slot = format_ident!("m{index}");
        key_arms.push(quote!(#json => ::core::option::Option::Some(#index),));
        info.members.push(json.clone());
        match &member.kind {
            MemberKind::Const(value, required) => {
                let value_tokens =
                    const_tokens(value).map_err(|e| format!("{name}.{json}: {e}"))?;
                info.consts.push((json.clone(), value.clone(), *required));
                if *required {
                    info.required.push(json.clone());
                    ser.push(quote!(#SERIALIZE_CONST(&mut map, #json, &#value_tokens)?;));
                    finish.push(quote!(#REQUIRE_CONST::<A::Error>(#slot, #json)?;));
                } else {
                    // An optional constant stays a field, so that its absence survives a round
                    // trip; reading still rejects any other value.
                    let ident = optional_const_fields
                        .iter()
                        .find(|(j, _)| j == json)
                        .map(|(_, i)| i.clone())
                        .ok_or(format!("{name}.{json}: optional const lost its field"))?;
                    let ty = named_field_type(&item.fields, &ident)?;
                    info.fields.push((ident.to_string(), json.clone(), ty));
                    ser.push(
                        quote!(if let ::core::option::Option::Some(value) = &self.#ident {
                            ::serde::ser::SerializeMap::serialize_entry(&mut map, #json, value)?;
                        }),
                    );
                    slots.push(quote!(let mut #slot: ::core::option::Option<::alloc::string::String> = ::core::option::Option::None;));
                    arms.push(quote!(#MEMBER::Known(#index) => #READ_OPTIONAL_CONST(&mut #slot, &mut map, #json, &#value_tokens)?,));
                    build.push(quote!(#ident: #slot,));
                    continue;
                }
                slots.push(quote!(let mut #slot = preset == ::core::option::Option::Some(#index);));
                arms.push(quote!(#MEMBER::Known(#index) => #READ_CONST(&mut #slot, &mut map, #json, &#value_tokens)?,));
            }
            MemberKind::Required(ident, bounds) => {
                info.required.push(json.clone());
                let ty = named_field_type(&item.fields, ident)?;
                info.fields
                    .push((ident.to_string(), json.clone(), ty.clone()));
                ser.push(quote!(::serde::ser::SerializeMap::serialize_entry(&mut map, #json, &self.#ident)?;));
                slots.push(quote!(let mut #slot: ::core::option::Option<#ty> = ::core::option::Option::None;));
                arms.push(read_arm(objects, index, &slot, &ty, json, bounds.as_ref())?);
                build.push(quote!(#ident: #REQUIRED::<_, A::Error>(#slot, #json)?,));
            }
            MemberKind::Optional(ident, inner, bounds) => {
                let ty = named_field_type(&item.fields, ident)?;
                info.fields.push((ident.to_string(), json.clone(), ty));
                ser.push(
                    quote!(if let ::core::option::Option::Some(value) = &self.#ident {
                        ::serde::ser::SerializeMap::serialize_entry(&mut map, #json, value)?;
                    }),
                );
                slots.push(quote!(let mut #slot: ::core::option::Option<#inner> = ::core::option::Option::None;));
                arms.push(read_arm(
                    objects,
                    index,
                    &slot,
                    inner,
                    json,
                    bounds.as_ref(),
                )?);
                build.push(quote!(#ident: #slot,));
            }
        }
    }
    // The constants are written by the serde impl, not stored: say so where a reader of the
    // struct's documentation looks.
    let written: Vec<String> = info
        .consts
        .iter()
        .filter(|(_, _, required)| *required)
        .map(|(json, value, _)| format!("`\"{json}\": {value}`"))
        .collect();
    if !written.is_empty() {
        let doc = format!(
            " Always written with {}: a constant of the schema, checked when read and not stored.",
            written.join(", ")
        );
        item.attrs.push(syn::parse_quote!(#[doc = ""]));
        item.attrs.push(syn::parse_quote!(#[doc = #doc]));
    }
    let uses_preset = members
        .iter()
        .any(|m| matches!(m.kind, MemberKind::Const(_, true)));
    let preset_binding = if uses_preset {
        quote!(preset)
    } else {
        quote!(_preset)
    };
    let check_object = match object_keywords {
        None => quote!(::core::result::Result::Ok(then(Self { #(#build)* #extra }))),
        Some(keywords) => quote! {
            static KEYWORDS: #OBJECT_KEYWORDS = #keywords;
            let value = Self { #(#build)* #extra };
            #CHECK_OBJECT::<_, A::Error>(&value, &KEYWORDS)?;
            ::core::result::Result::Ok(then(value))
        },
    };
    let code = quote! {
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(::core::option::Option::None)?;
                #(#ser)*
                for (key, value) in &self.#extra {
                    if <Self as #OBJECT>::member(key).is_some() {
                        return ::core::result::Result::Err(#DECLARED_IN_EXTRA(#name_str, key));
                    }
                    ::serde::ser::SerializeMap::serialize_entry(&mut map, key, value)?;
                }
                ::serde::ser::SerializeMap::end(map)
            }
        }
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                deserializer.deserialize_map(#OBJECT_VISITOR::<Self>::new())
            }
        }
        impl #OBJECT for #name {
            const NAME: &'static str = #name_str;
            fn member(name: &str) -> ::core::option::Option<u8> {
                match name {
                    #(#key_arms)*
                    _ => ::core::option::Option::None,
                }
            }
            fn put_extra(
                &mut self,
                name: ::alloc::string::String,
                value: ::serde_json::Value,
            ) -> ::core::result::Result<(), ::serde_json::Error> {
                #PUT_EXTRA(&mut self.#extra, name, value)
            }
            fn visit_members_then<'de, A: ::serde::de::MapAccess<'de>, R, F: ::core::ops::FnOnce(Self) -> R>(
                mut map: A,
                #preset_binding: ::core::option::Option<u8>,
                then: F,
            ) -> ::core::result::Result<R, A::Error> {
                #(#slots)*
                let mut #extra = ::core::default::Default::default();
                while let ::core::option::Option::Some(key) = ::serde::de::MapAccess::next_key_seed(&mut map, #MEMBER_SEED::<Self>::new())? {
                    match key {
                        #(#arms)*
                        #MEMBER::Unknown(name) => #READ_EXTRA(&mut #extra, name, &mut map)?,
                        #MEMBER::Known(_) => {}
                    }
                }
                #(#finish)*
                #check_object
            }
        }
    };
    Ok((info, code))
}

/// The match arm that reads a declared member of type `ty`, checking its bounds when it has any.
fn read_arm(
    objects: &BTreeSet<String>,
    index: u8,
    slot: &syn::Ident,
    ty: &syn::Type,
    json: &str,
    bounds: Option<&Check>,
) -> Result<TokenStream, String> {
    let checked = match bounds {
        None => runtime_api::Checked::Nothing,
        Some(Check::Bounds(_)) => runtime_api::Checked::Bounds,
        Some(Check::Keywords(_)) => runtime_api::Checked::Keywords,
    };
    let read = runtime_api::member_reader(holds(ty, objects), checked)
        .map_err(|e| format!("member `{json}`: {e}"))?;
    Ok(match bounds {
        None => quote!(#MEMBER::Known(#index) => #read(&mut #slot, &mut map, #json)?,),
        Some(Check::Bounds(bounds)) => {
            quote!(#MEMBER::Known(#index) => #read(&mut #slot, &mut map, #json, &#bounds)?,)
        }
        // A static, so that a `pattern` is compiled once for the program's life.
        Some(Check::Keywords(keywords)) => quote!(#MEMBER::Known(#index) => {
            static KEYWORDS: #KEYWORDS = #keywords;
            #read(&mut #slot, &mut map, #json, &KEYWORDS)?
        },),
    })
}

/// The check a member's recorded keywords call for.
enum Check {
    /// Only numeric and count bounds: checked on the Rust value.
    Bounds(TokenStream),
    /// Anything else too: checked on the JSON value.
    Keywords(TokenStream),
}

/// Takes the bounds marker out of a field's docs, returning the bounds it recorded.
fn take_bounds(attrs: &mut Vec<syn::Attribute>) -> Option<Map<String, Value>> {
    let mut found = None;
    attrs.retain_mut(|attr| {
        let Some(text) = doc_text(attr) else {
            return true;
        };
        let Some(bounds) = crate::bounds::bounds_in(&text) else {
            return true;
        };
        found = Some(bounds);
        let kept = crate::bounds::strip_marker(&text);
        if kept.trim().is_empty() {
            return false;
        }
        *attr = syn::parse_quote!(#[doc = #kept]);
        true
    });
    // typify may end the docs with an empty line that led to the marker.
    while attrs
        .last()
        .and_then(doc_text)
        .is_some_and(|t| t.trim().is_empty())
    {
        attrs.pop();
    }
    found
}

/// The check for the recorded keywords of a member of type `ty`: a [`BOUNDS`] value when the
/// bounds are all and the runtime checks them on `ty` itself, else a [`KEYWORDS`] value.
fn bounds_tokens(bounds: &Map<String, Value>, ty: &syn::Type) -> Result<Check, String> {
    let on_rust_value = vec_item(ty).is_some()
        || ["String", "u64", "i64", "Number"].contains(&type_name(ty).as_str());
    if on_rust_value
        && bounds
            .keys()
            .all(|k| crate::bounds::CHECKED.contains(&k.as_str()))
    {
        return Ok(Check::Bounds(bounds_only_tokens(bounds)?));
    }
    Ok(Check::Keywords(keywords_tokens(bounds)?))
}

/// `Some(n)` for a recorded number, `None` when the keyword is absent.
fn recorded_float(bounds: &Map<String, Value>, keyword: &str) -> Result<TokenStream, String> {
    recorded(bounds, keyword, Value::as_f64, "a number")
}

/// `Some(n)` for a recorded count, `None` when the keyword is absent.
fn recorded_count(bounds: &Map<String, Value>, keyword: &str) -> Result<TokenStream, String> {
    recorded(bounds, keyword, Value::as_u64, "a non-negative integer")
}

/// `Some(n)` for a recorded keyword's value read by `read`, `None` when the keyword is absent.
fn recorded<T: quote::ToTokens>(
    bounds: &Map<String, Value>,
    keyword: &str,
    read: fn(&Value) -> Option<T>,
    what: &str,
) -> Result<TokenStream, String> {
    match bounds.get(keyword) {
        None => Ok(quote!(::core::option::Option::None)),
        Some(value) => {
            let n = read(value).ok_or(format!("`{keyword}` is not {what}"))?;
            Ok(quote!(::core::option::Option::Some(#n)))
        }
    }
}

/// A [`BOUNDS`] value with the numeric and count bounds of `bounds`.
fn bounds_only_tokens(bounds: &Map<String, Value>) -> Result<TokenStream, String> {
    let float = |keyword: &str| recorded_float(bounds, keyword);
    let count = |keyword: &str| recorded_count(bounds, keyword);
    let (minimum, maximum) = (float("minimum")?, float("maximum")?);
    let (exclusive_minimum, exclusive_maximum) =
        (float("exclusiveMinimum")?, float("exclusiveMaximum")?);
    let (min_length, max_length) = (count("minLength")?, count("maxLength")?);
    let (min_items, max_items) = (count("minItems")?, count("maxItems")?);
    Ok(quote!(#BOUNDS {
        minimum: #minimum,
        maximum: #maximum,
        exclusive_minimum: #exclusive_minimum,
        exclusive_maximum: #exclusive_maximum,
        min_length: #min_length,
        max_length: #max_length,
        min_items: #min_items,
        max_items: #max_items,
    }))
}

/// A [`KEYWORDS`] value for every recorded keyword; array items' keywords are a static of
/// their own, which the value refers to.
fn keywords_tokens(bounds: &Map<String, Value>) -> Result<TokenStream, String> {
    let float = |keyword: &str| recorded_float(bounds, keyword);
    let count = |keyword: &str| recorded_count(bounds, keyword);
    let bounds_only = bounds_only_tokens(bounds)?;
    let mut fields = vec![quote!(bounds: #bounds_only,)];
    if bounds.contains_key("multipleOf") {
        let multiple = float("multipleOf")?;
        fields.push(quote!(multiple_of: #multiple,));
    }
    if let Some(pattern) = bounds.get("pattern") {
        let pattern = pattern.as_str().ok_or("`pattern` is not a string")?;
        if std::env::var_os("CARGO_FEATURE_PATTERN").is_none() {
            return Err(format!(
                "`pattern` {pattern:?} needs the crate's `pattern` feature: list it in the \
                 revision's feature in Cargo.toml"
            ));
        }
        fields.push(quote!(pattern: ::core::option::Option::Some(#PATTERN::new(#pattern)),));
    }
    if let Some(unique) = bounds.get("uniqueItems") {
        let unique = unique.as_bool().ok_or("`uniqueItems` is not a boolean")?;
        fields.push(quote!(unique_items: #unique,));
    }
    let (min_properties, max_properties) = (count("minProperties")?, count("maxProperties")?);
    fields.push(quote!(min_properties: #min_properties, max_properties: #max_properties,));
    if let Some(values) = bounds.get("enum") {
        let json = values.to_string();
        fields.push(quote!(one_of_values: ::core::option::Option::Some(#LITERAL::new(#json)),));
    }
    if let Some(items) = bounds.get("items") {
        let items = items
            .as_object()
            .ok_or("the items' keywords are not an object")?;
        let items = keywords_tokens(items).map_err(|e| format!("its items: {e}"))?;
        return Ok(quote!({
            static ITEMS: #KEYWORDS = #items;
            #KEYWORDS {
                #(#fields)*
                items: ::core::option::Option::Some(&ITEMS),
                ..#KEYWORDS::NONE
            }
        }));
    }
    Ok(quote!(#KEYWORDS {
        #(#fields)*
        ..#KEYWORDS::NONE
    }))
}

/// Takes the object keywords marker out of a struct's docs.
fn take_object_keywords(attrs: &mut Vec<syn::Attribute>) -> Option<Map<String, Value>> {
    let mut found = None;
    attrs.retain_mut(|attr| {
        let Some(text) = doc_text(attr) else {
            return true;
        };
        let Some(keywords) = crate::bounds::recorded_in(&text, crate::bounds::OBJECT_MARKER) else {
            return true;
        };
        found = Some(keywords);
        let kept = crate::bounds::strip_marker(&text);
        if kept.trim().is_empty() {
            return false;
        }
        *attr = syn::parse_quote!(#[doc = #kept]);
        true
    });
    while attrs
        .last()
        .and_then(doc_text)
        .is_some_and(|t| t.trim().is_empty())
    {
        attrs.pop();
    }
    found
}

/// An [`OBJECT_KEYWORDS`] value for an object's recorded keywords.
fn object_keywords_tokens(keywords: &Map<String, Value>) -> Result<TokenStream, String> {
    let count = |keyword: &str| -> Result<TokenStream, String> {
        match keywords.get(keyword) {
            None => Ok(quote!(::core::option::Option::None)),
            Some(value) => {
                let n = value
                    .as_u64()
                    .ok_or(format!("`{keyword}` is not a non-negative integer"))?;
                Ok(quote!(::core::option::Option::Some(#n)))
            }
        }
    };
    let (min, max) = (count("minProperties")?, count("maxProperties")?);
    let mut dependent = Vec::new();
    for (present, needed) in keywords
        .get("dependentRequired")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let needed: Vec<&str> = needed
            .as_array()
            .ok_or("`dependentRequired` lists no names")?
            .iter()
            .map(|n| n.as_str().ok_or("`dependentRequired` names a non-string"))
            .collect::<Result<_, _>>()?;
        dependent.push(quote!((#present, &[#(#needed),*]),));
    }
    Ok(quote!(#OBJECT_KEYWORDS {
        min_properties: #min,
        max_properties: #max,
        dependent_required: &[#(#dependent)*],
    }))
}

fn named_field_type(fields: &syn::Fields, ident: &syn::Ident) -> Result<syn::Type, String> {
    fields
        .iter()
        .find(|f| f.ident.as_ref() == Some(ident))
        .map(|f| f.ty.clone())
        .ok_or_else(|| format!("field {ident} vanished"))
}

/// Types whose JSON form is a string: typify's string enums and string newtypes.
fn string_like_types(file: &syn::File) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for item in &file.items {
        match item {
            syn::Item::Enum(e)
                if !is_untagged(&e.attrs)
                    && e.variants
                        .iter()
                        .all(|v| matches!(v.fields, syn::Fields::Unit)) =>
            {
                out.insert(e.ident.to_string());
            }
            syn::Item::Struct(s) => {
                if let syn::Fields::Unnamed(f) = &s.fields {
                    if f.unnamed.len() == 1 && type_name(&f.unnamed[0].ty) == "String" {
                        out.insert(s.ident.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The last path segment of a type (`::alloc::string::String` → `String`).
pub fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// The JSON kind an arm's type accepts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    String,
    Integer,
    Number,
    Bool,
    Array,
    Object,
    Any,
}

fn kind_of(ty: &syn::Type, string_like: &BTreeSet<String>) -> Kind {
    let name = type_name(ty);
    match name.as_str() {
        "String" => Kind::String,
        "i64" | "u64" | "i32" | "u32" | "NonZeroU64" => Kind::Integer,
        "Number" => Kind::Number,
        "bool" => Kind::Bool,
        "Vec" => Kind::Array,
        "Value" => Kind::Any,
        _ if string_like.contains(&name) => Kind::String,
        _ => Kind::Object,
    }
}

type Arms = Vec<(syn::Ident, syn::Type, Kind)>;

fn union_arms(item: &syn::ItemEnum, string_like: &BTreeSet<String>) -> Result<Arms, String> {
    let name = &item.ident;
    let mut arms = Vec::new();
    for variant in &item.variants {
        let syn::Fields::Unnamed(fields) = &variant.fields else {
            return Err(format!(
                "{name}::{}: union arm is not a newtype",
                variant.ident
            ));
        };
        if fields.unnamed.len() != 1 {
            return Err(format!(
                "{name}::{}: union arm is not a newtype",
                variant.ident
            ));
        }
        let ty = fields.unnamed[0].ty.clone();
        let kind = kind_of(&ty, string_like);
        arms.push((variant.ident.clone(), ty, kind));
    }
    Ok(arms)
}

/// What a member of type `ty` holds: arrays and typed maps get readers that add the failing
/// element's index or key to the error's path; an array of one of the generated `objects`
/// also builds each element in place.
fn holds(ty: &syn::Type, objects: &BTreeSet<String>) -> runtime_api::Holds {
    if let Some(item) = vec_item(ty) {
        match objects.contains(&type_name(item)) {
            true => runtime_api::Holds::ObjectArray,
            false => runtime_api::Holds::Array,
        }
    } else if type_argument(ty, "BTreeMap").is_some() {
        runtime_api::Holds::Map
    } else {
        runtime_api::Holds::Value
    }
}

/// The element type of `Vec<T>`.
fn vec_item(ty: &syn::Type) -> Option<&syn::Type> {
    type_argument(ty, "Vec")
}

/// What arm selection may look at: the structs, unions and string enums of the file.
struct ShapeContext<'a> {
    structs: &'a BTreeMap<String, StructInfo>,
    unions: &'a BTreeMap<String, Arms>,
    enums: &'a BTreeMap<String, Vec<String>>,
}

/// The values of each string enum typify generated (`NumberSchemaType` → `integer`, `number`).
fn string_enum_values(file: &syn::File) -> Result<BTreeMap<String, Vec<String>>, String> {
    let mut out = BTreeMap::new();
    for item in &file.items {
        let syn::Item::Enum(e) = item else { continue };
        if is_untagged(&e.attrs)
            || !e
                .variants
                .iter()
                .all(|v| matches!(v.fields, syn::Fields::Unit))
        {
            continue;
        }
        let mut values = Vec::new();
        for variant in &e.variants {
            let serde = serde_field(&variant.attrs)?;
            values.push(serde.rename.unwrap_or_else(|| variant.ident.to_string()));
        }
        out.insert(e.ident.to_string(), values);
    }
    Ok(out)
}

/// The selection shape of one arm: its kind, and for objects the members it requires, their
/// constants, the values its string-enum members allow and the shapes of its required object
/// members (one level down), so that arms alike at the top (NumberSchema and BooleanSchema,
/// titled and untitled multi-selects) are still told apart. Array arms describe their items and
/// nested unions their arms.
fn arm_shape(
    ty: &syn::Type,
    kind: Kind,
    cx: &ShapeContext,
    depth: usize,
) -> Result<TokenStream, String> {
    let name = type_name(ty);
    let nested_union = cx.unions.get(&name);
    let kind_tokens = match (kind, nested_union) {
        (_, Some(_)) => quote!(Union),
        (Kind::String, _) => quote!(String),
        (Kind::Integer, _) => quote!(Integer),
        (Kind::Number, _) => quote!(Number),
        (Kind::Bool, _) => quote!(Bool),
        (Kind::Array, _) => quote!(Array),
        (Kind::Object, _) => quote!(Object),
        (Kind::Any, _) => quote!(Any),
    };
    let info = cx.structs.get(&name);
    let required: Vec<&String> = info
        .map(|i| i.required.iter().collect())
        .unwrap_or_default();
    let consts = info
        .map(|i| {
            i.consts
                .iter()
                .map(|(k, v, r)| const_tokens(v).map(|v| quote!((#k, #v, #r))))
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?
        .unwrap_or_default();
    let mut enums = Vec::new();
    let mut members = Vec::new();
    if let Some(info) = info {
        for (_, json, field_ty) in &info.fields {
            let inner = option_inner(field_ty).unwrap_or(field_ty);
            let inner_name = type_name(inner);
            if let Some(values) = cx.enums.get(&inner_name) {
                enums.push(quote!((#json, &[#(#values),*]),));
            } else if depth < 2
                && info.required.contains(json)
                && (cx.structs.contains_key(&inner_name) || cx.unions.contains_key(&inner_name))
            {
                let kind = if cx.unions.contains_key(&inner_name) {
                    Kind::Any
                } else {
                    Kind::Object
                };
                let shape = arm_shape(inner, kind, cx, depth + 1)?;
                members.push(quote!((#json, &#shape),));
            }
        }
    }
    let mut items = Vec::new();
    if let Some(arms) = nested_union {
        if depth < 3 {
            for (_, arm_ty, arm_kind) in arms {
                items.push(arm_shape(arm_ty, *arm_kind, cx, depth + 1)?);
            }
        }
    } else if kind == Kind::Array && depth < 2 {
        if let Some(item) = vec_item(ty) {
            let item_name = type_name(item);
            if cx.unions.contains_key(&item_name) || cx.structs.contains_key(&item_name) {
                items.push(arm_shape(item, Kind::Object, cx, depth + 1)?);
            }
        }
    }
    Ok(quote!(#ARM_SHAPE {
        name: #name,
        kind: #KIND::#kind_tokens,
        required: &[#(#required),*],
        consts: &[#(#consts),*],
        enums: &[#(#enums)*],
        members: &[#(#members)*],
        items: &[#(#items),*],
    }))
}

fn rewrite_union(item: &mut syn::ItemEnum, cx: &ShapeContext) -> Result<TokenStream, String> {
    let structs = cx.structs;
    let name = item.ident.clone();
    let name_str = name.to_string();
    let arms = cx
        .unions
        .get(&name_str)
        .cloned()
        .ok_or(format!("{name}: union arms were not collected"))?;
    drop_serde_attrs(&mut item.attrs);

    let serialize_arms = arms.iter().map(
        |(v, _, _)| quote!(Self::#v(value) => ::serde::Serialize::serialize(value, serializer),),
    );
    let serialize = quote! {
        impl ::serde::Serialize for #name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                match self { #(#serialize_arms)* }
            }
        }
    };

    if let Some(tagged) = tagged_union(&name, &arms, structs)? {
        return Ok(quote!(#serialize #tagged));
    }
    if let Some(keyed) = keyed_union(&name, &arms, structs)? {
        return Ok(quote!(#serialize #keyed));
    }

    // Select by kind, then among objects by the members present.
    let mut shapes = Vec::new();
    let mut builds = Vec::new();
    for (index, (variant, ty, kind)) in arms.iter().enumerate() {
        let shape = arm_shape(ty, *kind, cx, 0)?;
        shapes.push(quote!(#shape,));
        let index = index as u8;
        builds.push(quote!(#index => #FROM_BUFFERED(value).map(Self::#variant),));
    }
    let deserialize = quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                const ARMS: &[#ARM_SHAPE] = &[#(#shapes)*];
                let value = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                let arm = #SELECT_ARM(#name_str, ARMS, &value).map_err(<D::Error as ::serde::de::Error>::custom)?;
                let result = match arm {
                    #(#builds)*
                    _ => ::core::result::Result::Err(#UNREACHABLE_ARM(#name_str)),
                };
                result.map_err(<D::Error as ::serde::de::Error>::custom)
            }
        }
    };
    Ok(quote!(#serialize #deserialize))
}

/// A union whose object arms all carry a required string constant under one member name.
fn tagged_union(
    name: &syn::Ident,
    arms: &[(syn::Ident, syn::Type, Kind)],
    structs: &BTreeMap<String, StructInfo>,
) -> Result<Option<TokenStream>, String> {
    if arms.len() < 2 || arms.iter().any(|a| a.2 != Kind::Object) {
        return Ok(None);
    }
    let infos: Vec<&StructInfo> = match arms
        .iter()
        .map(|a| structs.get(&type_name(&a.1)))
        .collect::<Option<Vec<_>>>()
    {
        Some(infos) => infos,
        None => return Ok(None),
    };
    let candidates: BTreeSet<&String> = infos[0]
        .consts
        .iter()
        .filter(|c| c.2 && c.1.is_string())
        .map(|c| &c.0)
        .collect();
    // Prefer the member whose values differ across every arm; `jsonrpc` is the same for all.
    let tag = candidates.into_iter().find(|key| {
        let values: Option<Vec<&Value>> = infos
            .iter()
            .map(|i| i.consts.iter().find(|c| &c.0 == *key && c.2).map(|c| &c.1))
            .collect();
        values.is_some_and(|v| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<BTreeSet<_>>()
                .len()
                == v.len()
        })
    });
    let Some(tag) = tag else {
        return Ok(None);
    };
    let mut tags = Vec::new();
    let mut stream_arms = Vec::new();
    for ((variant, ty, _), info) in arms.iter().zip(&infos) {
        let value = info
            .consts
            .iter()
            .find(|c| &c.0 == tag)
            .and_then(|c| c.1.as_str())
            .ok_or("tag vanished")?;
        let index = info
            .members
            .iter()
            .position(|m| m == tag)
            .ok_or("tag member vanished")? as u8;
        tags.push(value.to_owned());
        stream_arms.push(quote!(#value => <#ty as #OBJECT>::visit_members_then(map, ::core::option::Option::Some(#index), Self::#variant),));
    }
    let name_str = name.to_string();
    Ok(Some(quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                deserializer.deserialize_map(#TAGGED_VISITOR::<Self>::new())
            }
        }
        impl #TAGGED for #name {
            const NAME: &'static str = #name_str;
            const TAG: &'static str = #tag;
            const TAGS: &'static [&'static str] = &[#(#tags),*];
            fn visit_tagged<'de, A: ::serde::de::MapAccess<'de>>(tag: &str, map: A) -> ::core::result::Result<Self, A::Error> {
                match tag {
                    #(#stream_arms)*
                    other => ::core::result::Result::Err(<A::Error as ::serde::de::Error>::unknown_variant(other, Self::TAGS)),
                }
            }
        }
    }))
}

/// A union of objects in which every arm requires a member that no other arm declares
/// (`text` for text contents, `blob` for blob contents): that member names the arm.
fn keyed_union(
    name: &syn::Ident,
    arms: &[(syn::Ident, syn::Type, Kind)],
    structs: &BTreeMap<String, StructInfo>,
) -> Result<Option<TokenStream>, String> {
    if arms.len() < 2 || arms.iter().any(|a| a.2 != Kind::Object) {
        return Ok(None);
    }
    let Some(infos) = arms
        .iter()
        .map(|a| structs.get(&type_name(&a.1)))
        .collect::<Option<Vec<_>>>()
    else {
        return Ok(None);
    };
    let mut keys = Vec::new();
    let mut visit_arms = Vec::new();
    for (index, ((variant, ty, _), info)) in arms.iter().zip(&infos).enumerate() {
        let own: Vec<&String> = info
            .required
            .iter()
            .filter(|member| {
                infos
                    .iter()
                    .enumerate()
                    .all(|(other, o)| other == index || !o.members.contains(member))
            })
            .collect();
        if own.is_empty() {
            return Ok(None);
        }
        let index = index as u8;
        for key in own {
            keys.push(quote!((#key, #index),));
        }
        visit_arms.push(quote!(#index => <#ty as #OBJECT>::visit_members_then(map, ::core::option::Option::None, Self::#variant),));
    }
    let name_str = name.to_string();
    let expected: Vec<String> = arms.iter().map(|(_, ty, _)| type_name(ty)).collect();
    let expected = expected.join(" or ");
    Ok(Some(quote! {
        impl<'de> ::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                deserializer.deserialize_map(#KEYED_VISITOR::<Self>::new())
            }
        }
        impl #KEYED for #name {
            const NAME: &'static str = #name_str;
            const EXPECTED: &'static str = #expected;
            const KEYS: &'static [(&'static str, u8)] = &[#(#keys)*];
            fn visit_arm<'de, A: ::serde::de::MapAccess<'de>>(arm: u8, map: A) -> ::core::result::Result<Self, A::Error> {
                match arm {
                    #(#visit_arms)*
                    _ => ::core::result::Result::Err(<A::Error as ::serde::de::Error>::custom(#UNREACHABLE_ARM(#name_str))),
                }
            }
        }
    }))
}
