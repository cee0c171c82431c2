//! The member tables behind the "for a peer" conversion (feature `convert`): for every
//! revision the crate knows (enabled or not, so what counts as "a member the spec defines"
//! does not depend on the features chosen), the shape of every definition as far as members
//! go: which members each object declares, what each member holds (another object, an array
//! or map of them, a union, or JSON the spec leaves free), and what tells union arms apart
//! (their `const` members and required lists). `src/convert/peer.rs` walks a value against
//! these tables, for the target revision and, at the same place, for every other revision.
//!
//! The tables are read from the official schemas as published (before `codegen/patches.rs`,
//! whose patches work around the type generator, not what the spec defines).

use quote::quote;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Members whose value is JSON a user writes, not a structure of the spec, although the schema
/// describes it with `properties`: `_meta` (whose keys are anyone's) and the JSON Schemas a
/// server or client writes for its tools and elicitations. Members the schema leaves free by
/// shape (`arguments`, `structuredContent`: objects without `properties`) need no name here.
const FREE_MEMBERS: &[&str] = &["_meta", "inputSchema", "outputSchema", "requestedSchema"];

/// What a schema holds, as far as members go.
#[derive(Clone, Debug)]
enum Shape {
    /// A scalar, or anything without members to check.
    Leaf,
    /// JSON the spec does not structure: never descended into.
    Free,
    /// An object with declared members: an index into the revision's objects.
    Object(usize),
    Array(Box<Shape>),
    /// An object whose every value has this shape (`additionalProperties`).
    Map(Box<Shape>),
    AnyOf(Vec<Shape>),
}

#[derive(Default)]
struct Object {
    members: BTreeMap<String, Shape>,
    /// Members with a `const` value, as JSON text.
    consts: BTreeMap<String, String>,
    required: Vec<String>,
}

struct Tables<'a> {
    defs: &'a Map<String, Value>,
    objects: Vec<Object>,
    /// A definition's shape once known; `None` while it is being computed.
    done: BTreeMap<String, Option<Shape>>,
}

impl Tables<'_> {
    fn definition(&mut self, name: &str) -> Result<Shape, String> {
        match self.done.get(name) {
            Some(Some(shape)) => return Ok(shape.clone()),
            // A definition that holds itself with no declared member in between
            // (`JSONValue`, `JSONObject`) is JSON the spec does not structure.
            Some(None) => return Ok(Shape::Free),
            None => {}
        }
        let schema = self
            .defs
            .get(name)
            .ok_or(format!("$ref to undefined {name}"))?;
        if schema.get("properties").is_some() {
            // An object is given its index before its members are read, so a member may
            // refer back to it (`EmbeddedResource` inside content inside ...).
            let index = self.objects.len();
            self.objects.push(Object::default());
            self.done
                .insert(name.to_owned(), Some(Shape::Object(index)));
            let object = self.object(schema)?;
            self.objects[index] = object;
            return Ok(Shape::Object(index));
        }
        self.done.insert(name.to_owned(), None);
        let shape = self.shape(schema)?;
        self.done.insert(name.to_owned(), Some(shape.clone()));
        Ok(shape)
    }

    fn reference(&mut self, schema: &Value) -> Result<Option<Shape>, String> {
        let Some(target) = schema.get("$ref").and_then(Value::as_str) else {
            return Ok(None);
        };
        let name = target
            .strip_prefix("#/$defs/")
            .or_else(|| target.strip_prefix("#/definitions/"))
            .ok_or(format!("unsupported $ref {target}"))?;
        self.definition(name).map(Some)
    }

    fn shape(&mut self, schema: &Value) -> Result<Shape, String> {
        if let Some(shape) = self.reference(schema)? {
            return Ok(shape);
        }
        let Some(object) = schema.as_object() else {
            // `true` / `false` schemas.
            return Ok(Shape::Free);
        };
        if object.contains_key("allOf") || object.contains_key("properties") {
            let merged = self.object(schema)?;
            self.objects.push(merged);
            return Ok(Shape::Object(self.objects.len() - 1));
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(arms) = object.get(key).and_then(Value::as_array) {
                let mut shapes = Vec::new();
                for arm in arms {
                    shapes.push(self.shape(arm)?);
                }
                return Ok(if shapes.iter().all(|s| matches!(s, Shape::Leaf)) {
                    Shape::Leaf
                } else {
                    Shape::AnyOf(shapes)
                });
            }
        }
        let types: Vec<&str> = match object.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if types.contains(&"array") {
            return Ok(match object.get("items") {
                Some(items) => match self.shape(items)? {
                    Shape::Leaf => Shape::Leaf,
                    inner => Shape::Array(Box::new(inner)),
                },
                None => Shape::Free,
            });
        }
        if let Some(values) = object.get("additionalProperties") {
            return Ok(match self.shape(values)? {
                Shape::Leaf | Shape::Free => Shape::Free,
                inner => Shape::Map(Box::new(inner)),
            });
        }
        if types.contains(&"object") || types.is_empty() {
            // An object without `properties` (`JSONObject`, `arguments`) or an empty schema.
            return Ok(Shape::Free);
        }
        Ok(Shape::Leaf)
    }

    /// The members of an object schema, merging the parts of an `allOf`.
    fn object(&mut self, schema: &Value) -> Result<Object, String> {
        let mut out = Object::default();
        self.merge_into(schema, &mut out)?;
        Ok(out)
    }

    fn merge_into(&mut self, schema: &Value, out: &mut Object) -> Result<(), String> {
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            let name = target
                .strip_prefix("#/$defs/")
                .or_else(|| target.strip_prefix("#/definitions/"))
                .ok_or(format!("unsupported $ref {target}"))?;
            let def = self
                .defs
                .get(name)
                .ok_or(format!("$ref to undefined {name}"))?;
            return self.merge_into(def, out);
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            for part in parts {
                self.merge_into(part, out)?;
            }
        }
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            for (name, member) in properties {
                let shape = if FREE_MEMBERS.contains(&name.as_str()) {
                    Shape::Free
                } else {
                    self.shape(member)?
                };
                if let Some(value) = member.get("const") {
                    out.consts.insert(name.clone(), value.to_string());
                }
                // A later part of an `allOf` narrows an earlier one (`code` of an error):
                // keep the more structured shape.
                match (out.members.get(name), &shape) {
                    (Some(Shape::Object(_) | Shape::AnyOf(_)), Shape::Leaf | Shape::Free) => {}
                    _ => {
                        out.members.insert(name.clone(), shape);
                    }
                }
            }
        }
        if let Some(required) = schema.get("required").and_then(Value::as_array) {
            for name in required.iter().filter_map(Value::as_str) {
                if !out.required.iter().any(|r| r == name) {
                    out.required.push(name.to_owned());
                }
            }
        }
        Ok(())
    }
}

fn emit(shape: &Shape) -> proc_macro2::TokenStream {
    match shape {
        Shape::Leaf => quote!(Shape::Leaf),
        Shape::Free => quote!(Shape::Free),
        Shape::Object(i) => quote!(Shape::Object(#i)),
        Shape::Array(inner) => {
            let inner = emit(inner);
            quote!(Shape::Array(&#inner))
        }
        Shape::Map(inner) => {
            let inner = emit(inner);
            quote!(Shape::Map(&#inner))
        }
        Shape::AnyOf(arms) => {
            let arms = arms.iter().map(emit);
            quote!(Shape::AnyOf(&[#(#arms),*]))
        }
    }
}

/// How much the tables hold, for their doc comment.
struct Counts {
    revisions: usize,
    objects: usize,
    members: usize,
}

/// The tables of every revision: `(revision name, parsed schema)`, oldest first.
pub fn generate(schemas: &[(String, Value)], empty_result: &[&str]) -> Result<String, String> {
    let mut revisions = Vec::new();
    let mut statics = Vec::new();
    let mut counts = Counts {
        revisions: schemas.len(),
        objects: 0,
        members: 0,
    };
    for (index, (revision, schema)) in schemas.iter().enumerate() {
        let defs = schema
            .get("$defs")
            .or_else(|| schema.get("definitions"))
            .and_then(Value::as_object)
            .ok_or(format!(
                "revision {revision}: the schema has no definitions"
            ))?;
        let mut tables = Tables {
            defs,
            objects: Vec::new(),
            done: BTreeMap::new(),
        };
        let mut definitions = Vec::new();
        for name in defs.keys() {
            let shape = tables
                .definition(name)
                .map_err(|e| format!("revision {revision}: {e}"))?;
            definitions.push((name.clone(), shape));
        }
        // Calls by method (requests and notifications alike: a method names one of them), and
        // each request's result: the response's `result` where the revision names the
        // response (2026-07-28 on, where it may also be `InputRequiredResult`), else
        // `<Stem>Result`, else the empty result for the requests the schema answers so.
        let mut calls = Vec::new();
        let mut results = Vec::new();
        for (name, def) in defs {
            let Some(method) = def
                .pointer("/properties/method/const")
                .and_then(Value::as_str)
            else {
                continue;
            };
            let shape = tables
                .definition(name)
                .map_err(|e| format!("revision {revision}: {e}"))?;
            calls.push((method.to_owned(), shape));
            let Some(stem) = name.strip_suffix("Request") else {
                continue;
            };
            let response = format!("{stem}ResultResponse");
            let named = format!("{stem}Result");
            let result = if let Some(result) = defs
                .get(&response)
                .and_then(|r| r.pointer("/properties/result"))
            {
                Some(tables.shape(result)?)
            } else if defs.contains_key(&named) {
                Some(tables.definition(&named)?)
            } else if empty_result.contains(&name.as_str()) {
                Some(tables.definition("EmptyResult")?)
            } else {
                None
            };
            if let Some(result) = result {
                results.push((method.to_owned(), result));
            }
        }
        definitions.sort_by(|a, b| a.0.cmp(&b.0));
        calls.sort_by(|a, b| a.0.cmp(&b.0));
        results.sort_by(|a, b| a.0.cmp(&b.0));
        counts.objects += tables.objects.len();
        counts.members += tables
            .objects
            .iter()
            .map(|o| o.members.len())
            .sum::<usize>();
        let objects = tables.objects.iter().map(|object| {
            let members = object.members.iter().map(|(name, shape)| {
                let shape = emit(shape);
                quote!((#name, #shape))
            });
            let consts = object
                .consts
                .iter()
                .map(|(name, value)| quote!((#name, #value)));
            let required = &object.required;
            quote! {
                Object {
                    members: &[#(#members),*],
                    consts: &[#(#consts),*],
                    required: &[#(#required),*],
                }
            }
        });
        let pairs = |list: &[(String, Shape)]| {
            let items = list.iter().map(|(name, shape)| {
                let shape = emit(shape);
                quote!((#name, #shape))
            });
            quote!(&[#(#items),*])
        };
        let (definitions, calls, results) = (pairs(&definitions), pairs(&calls), pairs(&results));
        let ident = quote::format_ident!("REVISION_{}", index);
        statics.push(quote! {
            static #ident: Revision = Revision {
                name: #revision,
                objects: &[#(#objects),*],
                definitions: #definitions,
                calls: #calls,
                results: #results,
            };
        });
        revisions.push(quote!(&#ident));
    }
    let summary = format!(
        " Every revision the crate knows, oldest first ({} revisions, {} objects, {} members).",
        counts.revisions, counts.objects, counts.members
    );
    let code = quote! {
        #(#statics)*
        #[doc = #summary]
        static REVISIONS: &[&Revision] = &[#(#revisions),*];
    };
    let mut file: syn::File =
        syn::parse2(code).map_err(|e| format!("emitted member tables do not parse: {e}"))?;
    crate::core_paths::rewrite(&mut file);
    Ok(crate::render::items(&file))
}
