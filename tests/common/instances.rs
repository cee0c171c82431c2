//! Builds JSON instances of a schema from the schema alone, so every definition of every
//! revision gets a payload without anyone writing one by hand.
//!
//! The values are chosen to exercise the types, not only to satisfy the schema: numbers are
//! non-integers in full mode and integers in minimal mode (both forms must survive a round
//! trip), binary members are real base64, formats are honoured because the instances are
//! checked against the official schema with format validation on.

use serde_json::{json, Map, Number, Value};

/// How many members an object instance gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Required members only; arrays as short as `minItems` allows.
    Minimal,
    /// Every declared member; arrays with one item.
    Full,
}

/// Below this nesting depth instances follow the mode; past it they take the shortest path
/// (optional members omitted, arrays empty, the smallest `anyOf` arm), which is what keeps
/// recursive definitions (JSON values, elicitation schemas) finite.
pub const DEPTH: usize = 6;

/// Past this depth a branch counts as having no finite instance at all.
const LIMIT: usize = DEPTH + 16;

/// An instance of `schema` (a subschema of the document `schema_root`).
pub fn instance(schema_root: &Value, schema: &Value, mode: Mode) -> Value {
    generate(schema_root, schema, mode, None)
}

/// An instance of `schema`, taking arm `arm` of its top-level `anyOf`/`oneOf` (after following
/// `$ref`s) instead of the first.
pub fn instance_of_arm(schema_root: &Value, schema: &Value, mode: Mode, arm: usize) -> Value {
    generate(schema_root, schema, mode, Some(arm))
}

fn generate(schema_root: &Value, schema: &Value, mode: Mode, arm: Option<usize>) -> Value {
    Generator {
        root: schema_root,
        mode,
    }
    .value(schema, 0, arm)
    .unwrap_or_else(|| panic!("no finite instance of {schema}"))
}

struct Generator<'a> {
    root: &'a Value,
    mode: Mode,
}

impl Generator<'_> {
    fn value(&self, schema: &Value, depth: usize, arm: Option<usize>) -> Option<Value> {
        if depth > LIMIT {
            return None;
        }
        let object = match schema {
            Value::Bool(true) => return Some(self.anything(depth)),
            Value::Bool(false) => return None,
            Value::Object(object) => object,
            other => panic!("not a schema: {other}"),
        };
        if let Some(reference) = object.get("$ref") {
            let reference = reference.as_str().expect("$ref is a string");
            return self.value(self.resolve(reference), depth, arm);
        }
        if arm.is_some() && !object.contains_key("anyOf") && !object.contains_key("oneOf") {
            panic!("an arm was chosen for a schema that is not a union: {schema}");
        }
        if let Some(value) = object.get("const") {
            return Some(value.clone());
        }
        if let Some(values) = object.get("enum") {
            return values.as_array().and_then(|v| v.first()).cloned();
        }
        if let Some(parts) = object.get("allOf") {
            return self.all_of(object, parts, depth);
        }
        if let Some(arms) = object.get("anyOf").or_else(|| object.get("oneOf")) {
            let arms = arms.as_array().expect("anyOf/oneOf is an array");
            return match arm {
                Some(index) => {
                    let chosen = arms.get(index).unwrap_or_else(|| {
                        panic!("arm {index} of a union with {} arms", arms.len())
                    });
                    self.value(chosen, depth, None)
                }
                None if depth > DEPTH => arms
                    .iter()
                    .filter_map(|a| self.value(a, depth, None))
                    .min_by_key(|v| v.to_string().len()),
                None => arms.iter().find_map(|a| self.value(a, depth, None)),
            };
        }
        let kind = match object.get("type") {
            Some(Value::String(kind)) => kind.as_str(),
            // A list of types admits any of them; the first is as good as any.
            Some(Value::Array(kinds)) => kinds
                .first()
                .and_then(Value::as_str)
                .expect("a type list names a type"),
            Some(other) => panic!("unexpected type keyword {other}"),
            None if ["properties", "required", "additionalProperties"]
                .iter()
                .any(|k| object.contains_key(*k)) =>
            {
                "object"
            }
            None => return Some(self.anything(depth)),
        };
        self.typed(kind, object, depth)
    }

    fn resolve(&self, reference: &str) -> &Value {
        let pointer = reference
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("only local references are expected, found {reference}"));
        assert!(
            pointer.starts_with("/definitions/") || pointer.starts_with("/$defs/"),
            "unexpected reference {reference}"
        );
        self.root
            .pointer(pointer)
            .unwrap_or_else(|| panic!("unresolvable reference {reference}"))
    }

    /// Every part must hold, so the parts' objects are merged, later members refining earlier
    /// ones (`{"$ref": "Error"}` then `{"code": {"const": -32020}}`).
    fn all_of(&self, object: &Map<String, Value>, parts: &Value, depth: usize) -> Option<Value> {
        let mut rest = object.clone();
        rest.remove("allOf");
        let mut merged = if ["type", "properties", "required"]
            .iter()
            .any(|k| rest.contains_key(*k))
        {
            self.value(&Value::Object(rest), depth, None)?
        } else {
            Value::Object(Map::new())
        };
        for part in parts.as_array().expect("allOf is an array") {
            merge(&mut merged, self.value(part, depth, None)?);
        }
        Some(merged)
    }

    fn typed(&self, kind: &str, object: &Map<String, Value>, depth: usize) -> Option<Value> {
        let bound = |name: &str| object.get(name).and_then(Value::as_f64);
        Some(match kind {
            "string" => Value::String(string_for(object.get("format").and_then(Value::as_str))),
            "integer" => {
                let (min, max) = (bound("minimum"), bound("maximum"));
                let mut value = 1.0_f64;
                if min.is_some_and(|m| value < m) {
                    value = min.unwrap_or_default().ceil();
                } else if max.is_some_and(|m| value > m) {
                    value = max.unwrap_or_default().floor();
                }
                json!(value as i64)
            }
            "number" => number(self.mode, bound("minimum"), bound("maximum")),
            "boolean" => Value::Bool(true),
            "null" => Value::Null,
            "array" => return self.array(object, depth),
            "object" => return self.object(object, depth),
            other => panic!("unexpected type {other}"),
        })
    }

    fn array(&self, object: &Map<String, Value>, depth: usize) -> Option<Value> {
        let count = |name: &str| object.get(name).and_then(Value::as_u64).map(|n| n as usize);
        let min = count("minItems").unwrap_or(0);
        let max = count("maxItems").unwrap_or(usize::MAX);
        let wanted = match self.mode {
            Mode::Full if depth <= DEPTH => min.max(1).min(max),
            _ => min,
        };
        let items = object.get("items").cloned().unwrap_or(Value::Bool(true));
        let mut out = Vec::with_capacity(wanted);
        for _ in 0..wanted {
            match self.value(&items, depth + 1, None) {
                Some(item) => out.push(item),
                None if min == 0 => return Some(Value::Array(Vec::new())),
                None => return None,
            }
        }
        Some(Value::Array(out))
    }

    fn object(&self, object: &Map<String, Value>, depth: usize) -> Option<Value> {
        let required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let every_member = self.mode == Mode::Full && depth <= DEPTH;
        let mut out = Map::new();
        if let Some(Value::Object(properties)) = object.get("properties") {
            for (name, schema) in properties {
                let is_required = required.contains(&name.as_str());
                if !is_required && !every_member {
                    continue;
                }
                match self.value(schema, depth + 1, None) {
                    Some(value) => {
                        out.insert(name.clone(), value);
                    }
                    None if is_required => return None,
                    None => {}
                }
            }
        }
        for name in required {
            if !out.contains_key(name) {
                out.insert(name.to_owned(), self.anything(depth + 1));
            }
        }
        Some(Value::Object(out))
    }

    /// An instance of the empty schema: in full mode one that carries every JSON kind (an
    /// integer and a non-integer among them), so "any value" members are round-tripped with
    /// something worth keeping.
    fn anything(&self, depth: usize) -> Value {
        if self.mode == Mode::Full && depth <= DEPTH {
            json!({"kinds": [1, 1.5, "text", true, null, {"nested": []}]})
        } else {
            Value::String("text".into())
        }
    }
}

/// A short string valid for `format` (the formats the MCP schemas use, and those a
/// `StringSchema` may name).
fn string_for(format: Option<&str>) -> String {
    match format {
        Some("uri") => "https://example.com/a",
        Some("uri-template") => "https://example.com/{id}",
        // base64 of "hello": binary members must carry real base64.
        Some("byte") => "aGVsbG8=",
        Some("date") => "2025-06-18",
        Some("date-time") => "2025-06-18T12:00:00Z",
        Some("email") => "user@example.com",
        _ => "text",
    }
    .to_owned()
}

/// 1.5 in full mode and 2 in minimal mode, so that both a non-integer and an integer reach
/// every `number` member; moved inside `[minimum, maximum]` when the schema bounds it.
fn number(mode: Mode, min: Option<f64>, max: Option<f64>) -> Value {
    let inside = |v: f64| min.is_none_or(|m| v >= m) && max.is_none_or(|m| v <= m);
    match mode {
        Mode::Full => {
            let value = if inside(1.5) {
                1.5
            } else {
                match (min, max) {
                    (Some(lo), Some(hi)) => (lo + hi) / 2.0,
                    (Some(lo), None) => lo + 0.5,
                    (None, Some(hi)) => hi - 0.5,
                    (None, None) => 1.5,
                }
            };
            Value::Number(Number::from_f64(value).expect("finite"))
        }
        Mode::Minimal => {
            let value = if inside(2.0) {
                2
            } else if min.is_some_and(|m| 2.0 < m) {
                min.unwrap_or_default().ceil() as i64
            } else {
                max.unwrap_or_default().floor() as i64
            };
            json!(value)
        }
    }
}

/// Merges `other` into `target`: objects member by member (recursively), anything else
/// replaced.
pub fn merge(target: &mut Value, other: Value) {
    match (target, other) {
        (Value::Object(target), Value::Object(other)) => {
            for (name, value) in other {
                match target.get_mut(&name) {
                    Some(existing) => merge(existing, value),
                    None => {
                        target.insert(name, value);
                    }
                }
            }
        }
        (target, other) => *target = other,
    }
}
