//! The official schema's verdict on a recorded session, line by line (`SchemaJudge`), and the
//! rules a revision's pages state that its schema cannot (`page_objections`). Shared by the
//! recorded-traffic test (`traffic.rs`) and the end-to-end test (`tests/e2e.rs`), which checks
//! every session the crate's example server records.
//!
//! The schema's verdict on a line: the message fits `JSONRPCMessage`; a request or notification
//! fits its side's union (`ClientRequest` for a `c2s` request, ...); a response fits the result
//! of the request it answers, found by the direction that request travelled and its id (each
//! side numbers its own requests), and for a request that asked to run as a task
//! (`params.task`) either that result or `CreateTaskResult` (receivers without task support
//! answer normally). An error response fits the error envelope.

use crate::oracle::{oracle, Oracle};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The schema's verdict on each line of a session, pairing responses by (direction, id).
pub struct SchemaJudge {
    oracle: &'static Oracle,
    /// (the side that sent the request, its id as JSON text) -> (method, asked for a task).
    pending: HashMap<(bool, String), (String, bool)>,
}

impl SchemaJudge {
    pub fn new(revision: &'static str) -> Self {
        SchemaJudge {
            oracle: oracle(revision),
            pending: HashMap::new(),
        }
    }

    /// The schema's objections to one line (empty when it is valid).
    pub fn judge(&mut self, line: &str) -> Vec<String> {
        let Ok(record) = serde_json::from_str::<Value>(line) else {
            return vec!["not JSON".into()];
        };
        let client = match record.get("dir").and_then(Value::as_str) {
            Some("c2s") => true,
            Some("s2c") => false,
            other => return vec![format!("no valid dir: {other:?}")],
        };
        let Some(msg) = record.get("msg") else {
            return vec!["no msg".into()];
        };
        let o = self.oracle;
        let mut errors = o.errors(&o.message(), msg);
        let id = msg.get("id").map(Value::to_string);
        if let Some(method) = msg.get("method").and_then(Value::as_str) {
            let request = id.is_some();
            if let Some(id) = id {
                let task = msg.pointer("/params/task").is_some();
                self.pending.insert((client, id), (method.to_owned(), task));
            }
            if method == "notifications/cancelled" {
                if let Some(cancelled) = msg.pointer("/params/requestId") {
                    self.pending.remove(&(client, cancelled.to_string()));
                }
            }
            match o.side_union(client, request) {
                Some(union) => errors.extend(o.errors(&union, msg)),
                None => errors.push(format!("the schema has no union for {method}")),
            }
            return errors;
        }
        let Some(id) = id else {
            return errors;
        };
        // A response answers a request the other side sent.
        let answered = self.pending.remove(&(!client, id));
        if msg.get("error").is_some() {
            errors.extend(o.errors(&o.error_envelope(), msg));
            return errors;
        }
        let Some((method, task)) = answered else {
            // Nothing to pair with: only the envelope can be checked.
            return errors;
        };
        let Some(own) = o.response_schema(&method) else {
            // A method no revision defines: its result is free-form.
            return errors;
        };
        let schema = if task {
            let created = json!({
                "type": "object",
                "required": ["result"],
                "properties": { "result": o.def("CreateTaskResult") }
            });
            o.any_of(vec![own, created])
        } else {
            own
        };
        errors.extend(o.errors(&o.all_of(vec![o.result_envelope(), schema]), msg));
        errors
    }
}

/// The message of "resource not found" on every revision's resources page.
const RESOURCE_NOT_FOUND: &str = "Resource not found";

/// What a line breaks of the rules `revision`'s pages state beyond its schema (empty when it
/// keeps them). Written from the pages' text, not from the crate:
///
/// - "Resource not found": the resources page of 2024-11-05, 2025-03-26, 2025-06-18 and
///   2025-11-25 gives `-32002` with the URI in `data.uri`; from 2026-07-28 (SEP-2164) the page
///   gives `-32602` (Invalid params) with the URI in `data.uri`, and the schema's error-code
///   notes say `-32002` is "reserved and never reused".
pub fn page_objections(revision: &str, line: &str) -> Vec<String> {
    let Ok(record) = serde_json::from_str::<Value>(line) else {
        return vec!["not JSON".into()];
    };
    let msg = record.get("msg").unwrap_or(&record);
    let Some(error) = msg.get("error") else {
        return Vec::new();
    };
    let code = error.get("code").and_then(Value::as_i64);
    let stateless = revision == "draft" || revision >= "2026-07-28";
    let mut objections = Vec::new();
    if stateless && code == Some(-32002) {
        objections.push(format!("{revision} reserves -32002 and never reuses it"));
    }
    if error.get("message").and_then(Value::as_str) == Some(RESOURCE_NOT_FOUND) {
        let expected = if stateless { -32602 } else { -32002 };
        if code != Some(expected) {
            objections.push(format!(
                "\"{RESOURCE_NOT_FOUND}\" is {expected} at {revision}, not {code:?}"
            ));
        }
        if !error.pointer("/data/uri").is_some_and(Value::is_string) {
            objections.push(format!("\"{RESOURCE_NOT_FOUND}\" carries no data.uri"));
        }
    }
    objections
}

#[test]
fn the_page_rules_say_no() {
    let error = |code: i64, data: Value| {
        json!({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 1, "error": {
            "code": code, "message": RESOURCE_NOT_FOUND, "data": data}}})
        .to_string()
    };
    let uri = json!({"uri": "file:///missing"});
    assert!(page_objections("2025-11-25", &error(-32002, uri.clone())).is_empty());
    assert!(page_objections("2026-07-28", &error(-32602, uri.clone())).is_empty());
    assert!(page_objections("draft", &error(-32602, uri.clone())).is_empty());
    assert_eq!(
        page_objections("2026-07-28", &error(-32002, uri.clone())).len(),
        2
    );
    assert_eq!(page_objections("2024-11-05", &error(-32602, uri)).len(), 1);
    assert_eq!(
        page_objections("2025-06-18", &error(-32002, json!({}))).len(),
        1
    );
}
