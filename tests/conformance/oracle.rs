//! The official schema as the oracle: validators for any definition (or any combination of
//! definitions) of `schema/<rev>/schema.json`, compiled once and cached.
//!
//! A subschema is validated by compiling a document that holds the root's `$schema` and its
//! definitions unchanged, with the subschema as the root keyword (`{"$ref": "#/$defs/X"}`), so
//! references resolve exactly as in the official file. The dialect is the one the file's
//! `$schema` names: draft-07 for 2024-11-05 … 2025-06-18, 2020-12 for 2025-11-25 and later.
//!
//! Formats are asserted (`uri`, `date-time`, `email`, …): in 2020-12 they would otherwise only
//! be annotations, and asserting them is the stricter oracle. `byte` (base64) is not a format
//! the validator knows, so base64 is not asserted by the schema: see `negative.rs`.

use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

pub struct Oracle {
    pub revision: &'static str,
    pub root: Value,
    /// `definitions` (draft-07) or `$defs` (2020-12).
    pub key: &'static str,
    pub dialect: String,
    cache: Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
}

/// The oracle of `revision` (`"2025-06-18"`, `"draft"`), loaded once per process.
pub fn oracle(revision: &'static str) -> &'static Oracle {
    static ORACLES: OnceLock<Mutex<HashMap<&'static str, &'static Oracle>>> = OnceLock::new();
    let mut map = ORACLES.get_or_init(Default::default).lock().unwrap();
    map.entry(revision)
        .or_insert_with(|| Box::leak(Box::new(Oracle::load(revision))))
}

impl Oracle {
    fn load(revision: &'static str) -> Oracle {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("schema")
            .join(revision)
            .join("schema.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let root: Value = serde_json::from_str(&text).expect("schema.json parses");
        let dialect = root["$schema"]
            .as_str()
            .expect("schema names its dialect")
            .to_owned();
        let key = match (root.get("definitions"), root.get("$defs")) {
            (Some(_), None) => "definitions",
            (None, Some(_)) => "$defs",
            _ => panic!("{revision}: expected exactly one of definitions/$defs"),
        };
        // The dialect decides the keyword, as the README says.
        match key {
            "definitions" => assert!(dialect.contains("draft-07"), "{revision}: {dialect}"),
            _ => assert!(dialect.contains("2020-12"), "{revision}: {dialect}"),
        }
        Oracle {
            revision,
            root,
            key,
            dialect,
            cache: Mutex::new(HashMap::new()),
        }
    }

    pub fn definitions(&self) -> &Map<String, Value> {
        self.root[self.key].as_object().expect("definitions object")
    }

    pub fn has(&self, definition: &str) -> bool {
        self.definitions().contains_key(definition)
    }

    pub fn definition(&self, name: &str) -> &Value {
        self.definitions()
            .get(name)
            .unwrap_or_else(|| panic!("{}: the schema has no definition {name}", self.revision))
    }

    /// `{"$ref": "#/$defs/<name>"}`, panicking when the schema has no such definition.
    pub fn def(&self, name: &str) -> Value {
        self.definition(name);
        json!({ "$ref": format!("#/{}/{}", self.key, name) })
    }

    /// `{"$ref": "#<pointer>"}` for a pointer into the schema file (written with `$defs` or
    /// `definitions` as the file has it).
    pub fn at(&self, pointer: &str) -> Value {
        assert!(
            self.root.pointer(pointer).is_some(),
            "{}: the schema has nothing at {pointer}",
            self.revision
        );
        json!({ "$ref": format!("#{pointer}") })
    }

    /// A schema every part of which must hold.
    pub fn all_of(&self, parts: Vec<Value>) -> Value {
        match parts.len() {
            1 => parts.into_iter().next().unwrap(),
            _ => json!({ "allOf": parts }),
        }
    }

    /// A schema one of whose parts must hold.
    pub fn any_of(&self, parts: Vec<Value>) -> Value {
        match parts.len() {
            1 => parts.into_iter().next().unwrap(),
            _ => json!({ "anyOf": parts }),
        }
    }

    fn validator(&self, schema: &Value) -> Arc<jsonschema::Validator> {
        let key = schema.to_string();
        if let Some(v) = self.cache.lock().unwrap().get(&key) {
            return v.clone();
        }
        let mut document = Map::new();
        document.insert("$schema".into(), Value::String(self.dialect.clone()));
        document.insert(self.key.into(), self.root[self.key].clone());
        match schema {
            Value::Object(members) => {
                for (k, v) in members {
                    document.insert(k.clone(), v.clone());
                }
            }
            other => panic!("not a schema object: {other}"),
        }
        let options = if self.key == "definitions" {
            jsonschema::draft7::options()
        } else {
            jsonschema::draft202012::options()
        };
        let validator = options
            .should_validate_formats(true)
            .build(&Value::Object(document))
            .unwrap_or_else(|e| panic!("{}: compiling {schema}: {e}", self.revision));
        let validator = Arc::new(validator);
        self.cache.lock().unwrap().insert(key, validator.clone());
        validator
    }

    /// Every way `instance` violates `schema`, one line each (empty when valid).
    pub fn errors(&self, schema: &Value, instance: &Value) -> Vec<String> {
        let validator = self.validator(schema);
        if validator.is_valid(instance) {
            return Vec::new();
        }
        let mut errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| {
                let at = e.instance_path().to_string();
                let at = if at.is_empty() { "/".to_owned() } else { at };
                format!("at {at}: {e}")
            })
            .collect();
        errors.truncate(6);
        errors
    }

    pub fn is_valid(&self, schema: &Value, instance: &Value) -> bool {
        self.validator(schema).is_valid(instance)
    }

    /// The definition whose `method` is the constant `method`, among the message definitions
    /// (the side unions `ClientRequest` … and `InputRequest` are not messages of one method).
    pub fn method_definition(&self, method: &str) -> Option<String> {
        const UNIONS: &[&str] = &[
            "ClientRequest",
            "ServerRequest",
            "ClientNotification",
            "ServerNotification",
            "InputRequest",
        ];
        let mut found: Vec<&String> = self
            .definitions()
            .iter()
            .filter(|(name, _)| !UNIONS.contains(&name.as_str()))
            .filter(|(_, d)| d.pointer("/properties/method/const") == Some(&json!(method)))
            .map(|(name, _)| name)
            .collect();
        assert!(
            found.len() <= 1,
            "{}: several definitions for {method}: {found:?}",
            self.revision
        );
        found.pop().cloned()
    }

    /// The schema of a successful response to a request of `method`: the named response
    /// (`CallToolResultResponse`, 2026-07-28) when the schema has one, otherwise a response whose
    /// `result` is the named result (`CallToolResult`), or `EmptyResult` for the requests the
    /// schema answers with the empty result.
    pub fn response_schema(&self, method: &str) -> Option<Value> {
        let request = self.method_definition(method)?;
        let stem = request.strip_suffix("Request")?;
        let response = format!("{stem}ResultResponse");
        if self.has(&response) {
            return Some(self.def(&response));
        }
        let result = format!("{stem}Result");
        let result = if self.has(&result) {
            result
        } else {
            assert!(
                ["Ping", "Subscribe", "Unsubscribe", "SetLevel"].contains(&stem),
                "{}: no result definition for {method}",
                self.revision
            );
            "EmptyResult".to_owned()
        };
        Some(json!({
            "type": "object",
            "required": ["result"],
            "properties": { "result": self.def(&result) }
        }))
    }

    /// The schema of the `result` member alone (for the result types that are checked apart
    /// from their envelope).
    pub fn result_schema(&self, method: &str) -> Option<Value> {
        let response = self.response_schema(method)?;
        Some(match response.get("$ref") {
            Some(Value::String(r)) => json!({ "$ref": format!("{r}/properties/result") }),
            _ => response["properties"]["result"].clone(),
        })
    }

    /// The JSON-RPC envelope every message must fit (`JSONRPCMessage`).
    pub fn message(&self) -> Value {
        self.def("JSONRPCMessage")
    }

    /// The envelope of an error response (`JSONRPCError`, `JSONRPCErrorResponse` from
    /// 2025-11-25).
    pub fn error_envelope(&self) -> Value {
        if self.has("JSONRPCErrorResponse") {
            self.def("JSONRPCErrorResponse")
        } else {
            self.def("JSONRPCError")
        }
    }

    /// The envelope of a successful response (`JSONRPCResponse`, `JSONRPCResultResponse` from
    /// 2025-11-25).
    pub fn result_envelope(&self) -> Value {
        if self.has("JSONRPCResultResponse") {
            self.def("JSONRPCResultResponse")
        } else {
            self.def("JSONRPCResponse")
        }
    }

    /// The union of what `sender` sends of `kind` (`ClientRequest`, `ServerNotification`, …),
    /// where the schema defines it as a JSON-RPC message union.
    pub fn side_union(&self, client: bool, request: bool) -> Option<Value> {
        let name = match (client, request) {
            (true, true) => "ClientRequest",
            (true, false) => "ClientNotification",
            (false, true) => "ServerRequest",
            (false, false) => "ServerNotification",
        };
        self.has(name).then(|| self.def(name))
    }
}
