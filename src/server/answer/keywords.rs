//! A typed tool's `inputSchema`, checked on a call's arguments: what the schema derived from
//! the arguments' type says that reading the type does not enforce (bounds, lengths, patterns,
//! item counts, enums written as a schema's words), so that a call out of range is refused
//! before the tool's function runs, as the official SDKs' schema checks (Zod, pydantic) do.
//!
//! The keywords checked, as JSON Schema 2020-12 defines them: `type`, `enum`, `const`,
//! `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `minLength`,
//! `maxLength`, `pattern` (with the crate's `pattern` feature, which brings a regex engine;
//! without it a pattern is not checked), `minItems`, `maxItems`, `uniqueItems`, `items`,
//! `prefixItems`, `minProperties`, `maxProperties`, `properties`, `additionalProperties`,
//! `allOf`, `anyOf`, `oneOf` (as `anyOf`: the arguments' type already read them as one
//! variant), `not`, and `$ref` into the schema's own `$defs`. `format` is an annotation in
//! 2020-12 and is not checked; `required` and the members' types are what reading the type
//! already refuses, with its own words.

use crate::prelude::*;
#[cfg(feature = "pattern")]
use alloc::collections::BTreeMap;
use mcp_spec_types_runtime::runtime::{Bounded, Bounds};
use serde_json::{Map, Number, Value};

/// The keywords that make a schema worth checking: a schema with none of them (a struct of
/// plain members) costs its calls nothing.
const CHECKED: &[&str] = &[
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "not",
];

/// How deep a schema is followed through `$ref`s and subschemas: far past any type's, and a
/// bound on a schema whose references loop.
const MAX_DEPTH: usize = 128;

/// A tool's input schema, for checking arguments against it.
#[derive(Debug)]
pub(in crate::server) struct Keywords {
    root: Value,
    /// The schema's patterns, each compiled once (or why it does not compile).
    #[cfg(feature = "pattern")]
    patterns: BTreeMap<String, Result<regex_lite::Regex, String>>,
}

impl Keywords {
    /// The checks of `schema` (a tool's `inputSchema` as JSON), or `None` when it states no
    /// keyword that reading the type leaves unchecked.
    pub(in crate::server) fn of(schema: Value) -> Option<Self> {
        if !states_keywords(&schema) {
            return None;
        }
        #[cfg(feature = "pattern")]
        let patterns = {
            let mut found = Vec::new();
            patterns_in(&schema, &mut found);
            found
                .into_iter()
                .map(|source| {
                    let compiled = regex_lite::Regex::new(&source).map_err(|e| e.to_string());
                    (source, compiled)
                })
                .collect()
        };
        Some(Keywords {
            root: schema,
            #[cfg(feature = "pattern")]
            patterns,
        })
    }

    /// Checks `arguments` (a call's, as JSON text; none is an empty object): `Err` with the
    /// argument's path and what it breaks (`days: 9 is greater than the maximum 7`).
    pub(in crate::server) fn check(&self, arguments: Option<&str>) -> Result<(), String> {
        let value: Value = match arguments {
            Some(text) => crate::json::from_str(text).map_err(|e| e.to_string())?,
            None => Value::Object(Map::new()),
        };
        let mut path = String::new();
        self.check_at(&self.root, &value, &mut path, 0)
    }

    fn check_at(
        &self,
        schema: &Value,
        value: &Value,
        path: &mut String,
        depth: usize,
    ) -> Result<(), String> {
        let schema = match schema {
            Value::Bool(true) => return Ok(()),
            Value::Bool(false) => return Err(at(path, "is not allowed here")),
            Value::Object(members) => members,
            _ => return Ok(()),
        };
        if depth > MAX_DEPTH {
            return Err(at(path, "is nested deeper than the schema is followed"));
        }
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            if let Some(referenced) = self.resolve(target) {
                self.check_at(referenced, value, path, depth + 1)?;
            }
        }
        if let Some(kinds) = schema.get("type") {
            if !of_type(value, kinds) {
                let expected = match kinds {
                    Value::Array(kinds) => kinds
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" or "),
                    other => other.as_str().unwrap_or("a type").to_owned(),
                };
                return Err(at(
                    path,
                    &format!("expected {expected}, found {}", kind_of(value)),
                ));
            }
        }
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
            if !allowed.iter().any(|v| same(v, value)) {
                let listed: Vec<String> = allowed.iter().map(Value::to_string).collect();
                return Err(at(
                    path,
                    &format!("{value} is not one of {}", listed.join(", ")),
                ));
            }
        }
        if let Some(constant) = schema.get("const") {
            if !same(constant, value) {
                return Err(at(path, &format!("{value} is not {constant}")));
            }
        }
        self.check_value(schema, value, path)?;
        for sub in schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.check_at(sub, value, path, depth + 1)?;
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(branches) = schema.get(keyword).and_then(Value::as_array) {
                self.check_branches(branches, value, path, depth)?;
            }
        }
        if let Some(not) = schema.get("not") {
            if self
                .check_at(not, value, &mut path.clone(), depth + 1)
                .is_ok()
            {
                return Err(at(path, "matches a schema it must not"));
            }
        }
        match value {
            Value::Array(items) => self.check_items(schema, items, path, depth),
            Value::Object(members) => self.check_members(schema, members, path, depth),
            _ => Ok(()),
        }
    }

    /// The keywords of one kind of value: a number's bounds, a string's length and pattern,
    /// an array's count and uniqueness, an object's count of members.
    fn check_value(
        &self,
        schema: &Map<String, Value>,
        value: &Value,
        path: &str,
    ) -> Result<(), String> {
        let bounds = bounds(schema);
        let broken = match value {
            Value::Number(number) => number
                .out_of_bounds(&bounds)
                .or_else(|| not_multiple(schema, number)),
            Value::String(text) => (bounds.min_length.is_some() || bounds.max_length.is_some())
                .then(|| text.to_owned().out_of_bounds(&bounds))
                .flatten()
                .map(|broken| format!("has {broken}"))
                .or_else(|| self.unmatched(schema, text)),
            Value::Array(items) => items
                .out_of_bounds(&bounds)
                .map(|broken| format!("has {broken}"))
                .or_else(|| {
                    let unique = schema.get("uniqueItems") == Some(&Value::Bool(true));
                    let repeated = unique
                        && items
                            .iter()
                            .enumerate()
                            .any(|(i, a)| items[..i].iter().any(|b| same(a, b)));
                    repeated.then(|| "has an item twice (uniqueItems)".to_owned())
                }),
            Value::Object(members) => count_out_of_bounds(schema, members.len()),
            _ => None,
        };
        match broken {
            Some(problem) => Err(at(path, &problem)),
            None => Ok(()),
        }
    }

    /// `anyOf` (and `oneOf`): the value passes one branch. When it passes none, the error is
    /// that of the first branch of the value's own type (an `Option`'s value, not its null).
    fn check_branches(
        &self,
        branches: &[Value],
        value: &Value,
        path: &str,
        depth: usize,
    ) -> Result<(), String> {
        let mut first = None;
        for branch in branches {
            match self.check_at(branch, value, &mut path.to_owned(), depth + 1) {
                Ok(()) => return Ok(()),
                Err(error) => {
                    let typed = branch.get("type").is_none_or(|kinds| of_type(value, kinds));
                    if first.is_none() || (typed && first.as_ref().is_some_and(|(t, _)| !t)) {
                        first = Some((typed, error));
                    }
                }
            }
        }
        match first {
            Some((_, error)) => Err(error),
            None => Ok(()),
        }
    }

    fn check_items(
        &self,
        schema: &Map<String, Value>,
        items: &[Value],
        path: &mut String,
        depth: usize,
    ) -> Result<(), String> {
        let prefix = schema.get("prefixItems").and_then(Value::as_array);
        let prefixed = prefix.map_or(0, Vec::len);
        for (index, item) in items.iter().enumerate() {
            let sub = match prefix.and_then(|p| p.get(index)) {
                Some(sub) => sub,
                None if index >= prefixed => match schema.get("items") {
                    Some(sub) => sub,
                    None => continue,
                },
                None => continue,
            };
            let length = path.len();
            path.push_str(&format!("[{index}]"));
            self.check_at(sub, item, path, depth + 1)?;
            path.truncate(length);
        }
        Ok(())
    }

    fn check_members(
        &self,
        schema: &Map<String, Value>,
        members: &Map<String, Value>,
        path: &mut String,
        depth: usize,
    ) -> Result<(), String> {
        let properties = schema.get("properties").and_then(Value::as_object);
        let additional = schema.get("additionalProperties");
        for (name, member) in members {
            let sub = match properties.and_then(|p| p.get(name)) {
                Some(sub) => sub,
                None => match additional {
                    Some(sub) => sub,
                    None => continue,
                },
            };
            let length = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(name);
            self.check_at(sub, member, path, depth + 1)?;
            path.truncate(length);
        }
        Ok(())
    }

    /// The schema a `$ref` names in this schema's `$defs` (or `definitions`); `None` for a
    /// reference elsewhere, which is not followed.
    fn resolve(&self, target: &str) -> Option<&Value> {
        if target == "#" {
            return Some(&self.root);
        }
        let pointer = target.strip_prefix('#')?;
        self.root.pointer(pointer)
    }
}

/// Whether `schema`, or a schema within it, states a keyword that is checked.
fn states_keywords(schema: &Value) -> bool {
    match schema {
        Value::Object(members) => members
            .iter()
            .any(|(key, value)| CHECKED.contains(&key.as_str()) || states_keywords(value)),
        Value::Array(items) => items.iter().any(states_keywords),
        Value::Bool(false) => true,
        _ => false,
    }
}

fn at(path: &str, problem: &str) -> String {
    if path.is_empty() {
        format!("the arguments: {problem}")
    } else {
        format!("{path}: {problem}")
    }
}

fn bounds(schema: &Map<String, Value>) -> Bounds {
    let number = |key: &str| schema.get(key).and_then(Value::as_f64);
    let count = |key: &str| schema.get(key).and_then(Value::as_u64);
    Bounds {
        minimum: number("minimum"),
        maximum: number("maximum"),
        exclusive_minimum: number("exclusiveMinimum"),
        exclusive_maximum: number("exclusiveMaximum"),
        min_length: count("minLength"),
        max_length: count("maxLength"),
        min_items: count("minItems"),
        max_items: count("maxItems"),
    }
}

fn count_out_of_bounds(schema: &Map<String, Value>, count: usize) -> Option<String> {
    let count = count as u64;
    if let Some(min) = schema.get("minProperties").and_then(Value::as_u64) {
        if count < min {
            return Some(format!("has {count} members, fewer than the minimum {min}"));
        }
    }
    let max = schema.get("maxProperties").and_then(Value::as_u64)?;
    (count > max).then(|| format!("has {count} members, more than the maximum {max}"))
}

fn not_multiple(schema: &Map<String, Value>, number: &Number) -> Option<String> {
    let factor = schema.get("multipleOf").and_then(Value::as_f64)?;
    let value = number.as_f64()?;
    let quotient = value / factor;
    let off = quotient - nearest_whole(quotient);
    (factor > 0.0 && !(-1e-9..=1e-9).contains(&off))
        .then(|| format!("{number} is not a multiple of {factor}"))
}

impl Keywords {
    /// Whether `text` breaks the schema's `pattern` (not anchored, as JSON Schema's are).
    #[cfg(feature = "pattern")]
    fn unmatched(&self, schema: &Map<String, Value>, text: &str) -> Option<String> {
        let pattern = schema.get("pattern").and_then(Value::as_str)?;
        match self.patterns.get(pattern)? {
            Ok(regex) if regex.is_match(text) => None,
            Ok(_) => Some(format!("{text:?} does not match the pattern {pattern:?}")),
            Err(error) => Some(format!(
                "the schema's pattern {pattern:?} does not compile: {error}"
            )),
        }
    }

    /// Without the `pattern` feature there is no regex engine: a pattern is not checked.
    #[cfg(not(feature = "pattern"))]
    fn unmatched(&self, _: &Map<String, Value>, _: &str) -> Option<String> {
        None
    }
}

/// Every `pattern` a schema states.
#[cfg(feature = "pattern")]
fn patterns_in(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(members) => {
            if let Some(pattern) = members.get("pattern").and_then(Value::as_str) {
                out.push(pattern.to_owned());
            }
            members.values().for_each(|v| patterns_in(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| patterns_in(v, out)),
        _ => {}
    }
}

/// The whole number nearest `value` (without `std`'s `round`): every float past `i64`'s
/// range is whole already.
fn nearest_whole(value: f64) -> f64 {
    const WHOLE_PAST: f64 = 9.0e18;
    if !value.is_finite() || !(-WHOLE_PAST..=WHOLE_PAST).contains(&value) {
        return value;
    }
    let half = if value < 0.0 { -0.5 } else { 0.5 };
    // In range, `as` truncates toward zero: `value ± 0.5` truncated is the nearest.
    (value + half) as i64 as f64
}

/// Whether `value` is of the JSON Schema type(s) `kinds`.
fn of_type(value: &Value, kinds: &Value) -> bool {
    let is = |kind: &str| match kind {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "number" => value.is_number(),
        "integer" => match value {
            Value::Number(n) => {
                n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| nearest_whole(f) == f)
            }
            _ => false,
        },
        _ => true,
    };
    match kinds {
        Value::String(kind) => is(kind),
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).any(is),
        _ => true,
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// JSON Schema's equality: numbers by value (`1` is `1.0`), the rest as JSON.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|b| same(a, b)))
        }
        _ => a == b,
    }
}
