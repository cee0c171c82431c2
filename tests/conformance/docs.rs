//! The docs blocks of every spec page, checked through the crate's own dispatch and types, with
//! the schema as the oracle.
//!
//! - requests and notifications: `ClientMessage::parse` or `ServerMessage::parse` by the
//!   method's direction (`Method::known(m).direction()`; both for methods either side sends and
//!   for unknown methods), the typed variant (not `Unknown` for a known method), written back
//!   equal; the other side's parser refuses with `WrongDirection`.
//! - responses and errors: paired with their request (nearest preceding request with the same
//!   id on the same page, or the explicit table), parsed by the answering side, the result typed
//!   with `ClientCallResult::parse` / `ServerCallResult::parse` for the request's method.
//! - bare objects: the type the table names, at the pointer it names.
//!
//! Every value is validated against the matching schema definition; everything read is written
//! back and compared as `serde_json::Value` (unknown members and integer forms included).

use crate::fixtures::{self, strip_comments, Block};
use crate::oracle::{oracle, Oracle};
use crate::revision::{Kind, Parsed, Revision};
use crate::tables::{Tables, Target};
use mcp_spec_types::{Direction, MessageErrorKind, MethodKind};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::collections::BTreeSet;

#[derive(Debug, Default)]
pub struct DocsReport {
    pub total: usize,
    pub checked: usize,
    pub skipped: usize,
    pub strict_total: usize,
    pub strict_checked: usize,
    pub failures: Vec<String>,
}

/// The number of blocks and of strict JSON blocks per revision (README of the corpus).
pub fn expected_counts(revision: &str) -> (usize, usize) {
    match revision {
        "2024-11-05" => (66, 61),
        "2025-03-26" => (70, 65),
        "2025-06-18" => (89, 79),
        "2025-11-25" => (131, 122),
        "2026-07-28" | "draft" => (117, 110),
        other => panic!("unknown revision {other}"),
    }
}

/// What a JSON value is, by the index's rules.
pub fn classify(value: &Value) -> &'static str {
    match value {
        Value::Object(o) if o.contains_key("jsonrpc") => {
            if o.contains_key("method") {
                if o.contains_key("id") {
                    "request"
                } else {
                    "notification"
                }
            } else if o.contains_key("result") {
                "response"
            } else if o.contains_key("error") {
                "error"
            } else {
                "bare-object"
            }
        }
        Value::Object(_) => "bare-object",
        Value::Array(_) => "array",
        _ => "scalar",
    }
}

/// Accumulates the failures of one check.
#[derive(Default)]
pub struct Check {
    pub failures: Vec<String>,
}

impl Check {
    pub fn fail(&mut self, message: impl Into<String>) {
        self.failures.push(message.into());
    }

    /// The schema accepts `value`.
    pub fn valid(&mut self, oracle: &Oracle, schema: &Value, value: &Value, what: &str) {
        let errors = oracle.errors(schema, value);
        if !errors.is_empty() {
            self.fail(format!(
                "the schema ({schema}) rejects {what}: {}",
                errors.join("; ")
            ));
        }
    }

    /// `back` (what the crate wrote) equals `value` (what it read).
    pub fn same(&mut self, value: &Value, back: &Value, what: &str) {
        if value != back {
            self.fail(format!(
                "{what} changed on the way back:\n      read:    {value}\n      written: {back}"
            ));
        }
    }
}

/// The sides that send a method: `[true]` client, `[false]` server, both for methods either side
/// sends and for methods the revision does not define.
fn senders(direction: Option<Direction>) -> Vec<bool> {
    match direction {
        Some(Direction::ClientToServer) => vec![true],
        Some(Direction::ServerToClient) => vec![false],
        _ => vec![true, false],
    }
}

fn side(client: bool) -> &'static str {
    if client {
        "ClientMessage"
    } else {
        "ServerMessage"
    }
}

fn parse<R: Revision>(client: bool, text: &str) -> Result<Parsed, mcp_spec_types::MessageError> {
    if client {
        R::parse_client(text)
    } else {
        R::parse_server(text)
    }
}

/// The schema of a request or notification of `method`: the JSON-RPC message and the envelope of
/// its kind, the method's definition, and the union of what its sender sends (when the schema
/// has one).
pub fn call_schema<R: Revision>(oracle: &Oracle, method: &str, request: bool) -> Value {
    // JSONRPCMessage, and the envelope of the kind: before 2025-11-25 a message with a broken
    // `id` still fits JSONRPCMessage as a notification.
    let envelope = if request {
        "JSONRPCRequest"
    } else {
        "JSONRPCNotification"
    };
    let mut parts = vec![oracle.message(), oracle.def(envelope)];
    if let Some(definition) = oracle.method_definition(method) {
        parts.push(oracle.def(&definition));
        let unions: Vec<Value> = senders(R::direction(method))
            .into_iter()
            .filter_map(|client| oracle.side_union(client, request))
            .collect();
        if !unions.is_empty() && R::direction(method).is_some() {
            parts.push(oracle.any_of(unions));
        }
    }
    oracle.all_of(parts)
}

/// A request or notification: dispatched by its sender, typed, written back unchanged, valid.
pub fn check_call<R: Revision>(check: &mut Check, value: &Value, text: &str) {
    let oracle = oracle(R::NAME);
    let method = value["method"].as_str().unwrap_or_default();
    let request = value.get("id").is_some();
    let expected_kind = if request {
        Kind::Request
    } else {
        Kind::Notification
    };
    let direction = R::direction(method);
    let known = direction.is_some();
    if let Some(kind) = R::method_kind(method) {
        if (kind == MethodKind::Request) != request {
            check.fail(format!(
                "{method} is a {kind:?} in this revision but the block is a {}: list it as an \
                 invalid example",
                if request { "request" } else { "notification" }
            ));
        }
    }
    let schema = call_schema::<R>(oracle, method, request);
    check.valid(oracle, &schema, value, "the message");
    for client in senders(direction) {
        match parse::<R>(client, text) {
            Err(e) => check.fail(format!(
                "{}::parse rejects it: {e} (path `{}`)",
                side(client),
                e.path()
            )),
            Ok(parsed) => {
                if parsed.kind != expected_kind {
                    check.fail(format!("{}::parse reads a {:?}", side(client), parsed.kind));
                }
                if parsed.method.as_deref() != Some(method) {
                    check.fail(format!(
                        "{}::parse reads method {:?}",
                        side(client),
                        parsed.method
                    ));
                }
                if parsed.unknown == known {
                    check.fail(format!(
                        "{}::parse: method {method} typed as Unknown: {} (known to the revision: {known})",
                        side(client),
                        parsed.unknown
                    ));
                }
                check.same(
                    value,
                    &parsed.back,
                    &format!("the message ({})", side(client)),
                );
                if parsed.back != *value {
                    check.valid(oracle, &schema, &parsed.back, "the message written back");
                }
            }
        }
    }
    // The other side does not send it.
    if let Some(d @ (Direction::ClientToServer | Direction::ServerToClient)) = direction {
        let other = d == Direction::ServerToClient;
        match parse::<R>(other, text) {
            Err(e) if e.kind() == MessageErrorKind::WrongDirection => {}
            other_result => check.fail(format!(
                "{}::parse of a {method} (sent by the other side) should fail with WrongDirection: {:?}",
                side(other),
                other_result.map(|p| p.kind)
            )),
        }
    }
    // The whole message through the type of the method's definition (its `jsonrpc`/`id` are
    // members that definition keeps, or unknown members before 2025-11-25).
    if let Some(definition) = oracle.method_definition(method) {
        roundtrip_def::<R>(check, &definition, value, "the message");
    }
    roundtrip_def::<R>(check, "JSONRPCMessage", value, "the message");
}

/// `value` read as the type of `definition` and written back unchanged; valid per that
/// definition.
pub fn roundtrip_def<R: Revision>(check: &mut Check, definition: &str, value: &Value, what: &str) {
    let oracle = oracle(R::NAME);
    check.valid(
        oracle,
        &oracle.def(definition),
        value,
        &format!("{what} as {definition}"),
    );
    match R::roundtrip(definition, value.clone()) {
        None => panic!(
            "{}: the definition table has no Rust type for {definition}",
            R::NAME
        ),
        Some(Err(e)) => check.fail(format!("{what} as {definition}: the crate rejects it: {e}")),
        Some(Ok(back)) => {
            // A value written back unchanged is as valid as the value read.
            if back != *value {
                check.same(value, &back, &format!("{what} as {definition}"));
                check.valid(
                    oracle,
                    &oracle.def(definition),
                    &back,
                    &format!("{what} as {definition}, written back"),
                );
            }
        }
    }
}

/// The error response envelope (`JSONRPCError` / `JSONRPCErrorResponse`) by name.
fn error_envelope_name(oracle: &Oracle) -> &'static str {
    if oracle.has("JSONRPCErrorResponse") {
        "JSONRPCErrorResponse"
    } else {
        "JSONRPCError"
    }
}

fn result_envelope_name(oracle: &Oracle) -> &'static str {
    if oracle.has("JSONRPCResultResponse") {
        "JSONRPCResultResponse"
    } else {
        "JSONRPCResponse"
    }
}

/// How the result of a response is checked.
pub enum ResultCheck<'a> {
    /// By the dispatch: `ClientCallResult::parse` / `ServerCallResult::parse` for the method.
    Dispatch,
    /// A known crate defect: the dispatch must still fail; the result is checked as the named
    /// definition instead.
    Defect(&'a crate::tables::ResultOverride),
}

/// A response or an error answering a request of `method`.
pub fn check_answer<R: Revision>(
    check: &mut Check,
    value: &Value,
    text: &str,
    method: &str,
    error_definition: Option<(&str, &str)>,
    result_check: ResultCheck,
) {
    let oracle = oracle(R::NAME);
    let is_error = value.get("error").is_some();
    let direction = R::direction(method);
    // The answer travels the other way.
    let answerers: Vec<bool> = senders(direction)
        .into_iter()
        .map(|client| !client)
        .collect();
    let mut parts = vec![oracle.message()];
    if is_error {
        parts.push(oracle.error_envelope());
        if let Some((at, definition)) = error_definition {
            parts.push(at_pointer(oracle.def(definition), at));
        }
    } else {
        parts.push(oracle.result_envelope());
        match &result_check {
            ResultCheck::Dispatch => parts.extend(oracle.response_schema(method)),
            ResultCheck::Defect(d) => parts.push(json!({
                "type": "object",
                "properties": { "result": oracle.def(d.definition) }
            })),
        }
    }
    let schema = oracle.all_of(parts);
    check.valid(oracle, &schema, value, "the message");
    for answerer in answerers {
        let parsed = match parse::<R>(answerer, text) {
            Err(e) => {
                check.fail(format!(
                    "{}::parse rejects it: {e} (path `{}`)",
                    side(answerer),
                    e.path()
                ));
                continue;
            }
            Ok(parsed) => parsed,
        };
        let expected = if is_error {
            Kind::Error
        } else {
            Kind::Response
        };
        if parsed.kind != expected {
            check.fail(format!(
                "{}::parse reads a {:?}",
                side(answerer),
                parsed.kind
            ));
            continue;
        }
        check.same(
            value,
            &parsed.back,
            &format!("the message ({})", side(answerer)),
        );
        if parsed.back != *value {
            check.valid(oracle, &schema, &parsed.back, "the message written back");
        }
        if is_error {
            continue;
        }
        let raw: &RawValue = parsed.result.as_deref().expect("a response has a result");
        // The requester's side types the result.
        let requester_is_client = !answerer;
        let typed = if requester_is_client {
            R::client_call_result(method, raw)
        } else {
            R::server_call_result(method, raw)
        };
        let which = if requester_is_client {
            "ClientCallResult"
        } else {
            "ServerCallResult"
        };
        match (&result_check, typed) {
            (ResultCheck::Dispatch, Err(e)) => check.fail(format!(
                "{which}::parse({method:?}) rejects the result: {e} (path `{}`)",
                e.path()
            )),
            (ResultCheck::Dispatch, Ok((back, unknown))) => {
                if unknown == direction.is_some() {
                    check.fail(format!(
                        "{which}::parse({method:?}): Unknown variant is {unknown}"
                    ));
                }
                check.same(&value["result"], &back, &format!("the result ({which})"));
                if let Some(result_schema) = oracle.result_schema(method) {
                    if back != value["result"] {
                        check.valid(oracle, &result_schema, &back, "the result written back");
                    }
                }
            }
            (ResultCheck::Defect(d), Ok(_)) => check.fail(format!(
                "{which}::parse({method:?}) now accepts the result: the known defect is fixed, \
                 remove its entry ({})",
                d.defect
            )),
            (ResultCheck::Defect(d), Err(_)) => {
                roundtrip_def::<R>(check, d.definition, &value["result"], "the result");
            }
        }
    }
    // The whole message through the envelope types, and the specific error definition.
    let envelope = if is_error {
        error_envelope_name(oracle)
    } else {
        result_envelope_name(oracle)
    };
    roundtrip_def::<R>(check, envelope, value, "the message");
    roundtrip_def::<R>(check, "JSONRPCMessage", value, "the message");
    if let Some((at, definition)) = error_definition {
        match value.pointer(at) {
            Some(part) => {
                roundtrip_def::<R>(check, definition, part, &format!("the value at {at:?}"))
            }
            None => check.fail(format!("nothing at {at:?}")),
        }
    }
    if !is_error {
        if let Some(request) = oracle.method_definition(method) {
            let stem = request.trim_end_matches("Request");
            let response = format!("{stem}ResultResponse");
            if oracle.has(&response) && matches!(result_check, ResultCheck::Dispatch) {
                roundtrip_def::<R>(check, &response, value, "the message");
            }
        }
    }
}

/// A bare object (or array), as the types its table entries name.
fn check_bare<R: Revision>(check: &mut Check, tables: &Tables, file: &str, value: &Value) {
    let oracle = oracle(R::NAME);
    let entries: Vec<_> = tables.bare.iter().filter(|b| b.file == file).collect();
    if entries.is_empty() {
        check.fail("a bare object with no entry in the type table (tables.rs): map it to its type or skip it with a reason");
        return;
    }
    for entry in entries {
        let Some(part) = value.pointer(entry.at) else {
            check.fail(format!("nothing at {:?}", entry.at));
            continue;
        };
        match &entry.target {
            Target::Def(definition) => roundtrip_def::<R>(
                check,
                definition,
                part,
                &format!("the value at {:?}", entry.at),
            ),
            Target::Inline {
                schema,
                rust_name,
                rust,
            } => {
                let what = format!("the value at {:?} as {rust_name} ({schema})", entry.at);
                let schema = oracle.at(schema);
                check.valid(oracle, &schema, part, &what);
                match rust(part.clone()) {
                    Err(e) => check.fail(format!("{what}: the crate rejects it: {e}")),
                    Ok(back) => {
                        if back != *part {
                            check.same(part, &back, &what);
                            check.valid(oracle, &schema, &back, &format!("{what}, written back"));
                        }
                    }
                }
            }
        }
    }
}

/// A spec example its own schema rejects: the validator must say so (with the listed message),
/// and the crate must refuse it too, with the listed error kind and path.
fn check_invalid<R: Revision>(
    check: &mut Check,
    value: &Value,
    text: &str,
    invalid: &crate::tables::Invalid,
) {
    let oracle = oracle(R::NAME);
    match classify(value) {
        c @ ("request" | "notification") => {
            let method = value["method"].as_str().unwrap_or_default();
            let schema = call_schema::<R>(oracle, method, c == "request");
            let errors = oracle.errors(&schema, value);
            if errors.is_empty() {
                check.fail(format!(
                    "listed as invalid, but the schema ({schema}) accepts it"
                ));
            } else if !errors.iter().any(|e| e.contains(invalid.validator)) {
                check.fail(format!(
                    "the validator rejects it, but not with {:?}: {}",
                    invalid.validator,
                    errors.join("; ")
                ));
            }
            for client in senders(R::direction(method)) {
                match parse::<R>(client, text) {
                    Ok(p) => check.fail(format!(
                        "listed as invalid, but {}::parse accepts it as {:?} (the crate must follow the schema)",
                        side(client),
                        p.kind
                    )),
                    Err(e) if e.kind() != invalid.kind || e.path() != invalid.path => {
                        check.fail(format!(
                            "{}::parse fails with {:?} at `{}`, expected {:?} at `{}`: {e}",
                            side(client),
                            e.kind(),
                            e.path(),
                            invalid.kind,
                            invalid.path
                        ))
                    }
                    Err(_) => {}
                }
            }
        }
        other => check.fail(format!("invalid examples of kind {other} are not handled")),
    }
}

/// Removes the failures a known defect of `file` explains; a defect entry that explains none
/// becomes a failure itself (the defect is fixed: remove the entry).
pub fn excuse_known_defects(
    file: &str,
    failures: Vec<String>,
    defects: &[crate::tables::Defect],
) -> Vec<String> {
    let mut remaining = failures;
    let mut stale = Vec::new();
    for defect in defects.iter().filter(|d| d.file == file) {
        let before = remaining.len();
        remaining.retain(|f| !f.contains(defect.symptom));
        if remaining.len() == before {
            stale.push(format!(
                "known crate defect no longer shows ({:?} not among the failures): remove its entry: {}",
                defect.symptom, defect.defect
            ));
        }
    }
    remaining.extend(stale);
    remaining
}

/// `{"properties": {"a": {"properties": {"b": schema}}}}` for `at` = "/a/b" (the schema itself
/// for "").
fn at_pointer(schema: Value, at: &str) -> Value {
    let members: Vec<&str> = at.split('/').skip(1).collect();
    members.into_iter().rev().fold(
        schema,
        |inner, member| json!({ "properties": { member: inner } }),
    )
}

/// Pairs each response and error with the method of the request it answers: the explicit table
/// first, otherwise the nearest preceding request on the same page with an equal id.
fn paired_method(
    blocks: &[Block],
    values: &[Option<Value>],
    index: usize,
    tables: &Tables,
) -> Result<String, String> {
    let block = &blocks[index];
    if let Some(pair) = tables.pairs.iter().find(|p| p.file == block.file) {
        return Ok(pair.method.to_owned());
    }
    let id = values[index].as_ref().and_then(|v| v.get("id")).cloned();
    for j in (0..index).rev() {
        if blocks[j].source != block.source {
            continue;
        }
        if let Some(v) = &values[j] {
            if classify(v) == "request" && v.get("id").cloned() == id {
                return Ok(v["method"].as_str().unwrap_or_default().to_owned());
            }
        }
    }
    Err(format!(
        "no request with id {} precedes it on {} and the pairing table has no entry",
        id.unwrap_or(Value::Null),
        block.source
    ))
}

/// Every docs block of the revision, checked or skipped with a reason.
pub fn check_docs<R: Revision>() -> DocsReport {
    let blocks = fixtures::docs(R::NAME);
    let tables = R::tables();
    let mut report = DocsReport {
        total: blocks.len(),
        ..DocsReport::default()
    };
    let files: BTreeSet<&str> = blocks.iter().map(|b| b.file.as_str()).collect();
    assert_eq!(
        files.len(),
        blocks.len(),
        "{}: duplicate files in index.json",
        R::NAME
    );

    // Every table entry names a block of this revision, and says why.
    let mut entries: Vec<(&str, &str)> = Vec::new();
    entries.extend(tables.skips.iter().map(|s| ("skip", s.file)));
    entries.extend(tables.not_mcp.iter().map(|f| ("not_mcp", *f)));
    entries.extend(tables.normalize.iter().map(|n| ("normalize", n.file)));
    entries.extend(tables.pairs.iter().map(|p| ("pair", p.file)));
    entries.extend(
        tables
            .error_definitions
            .iter()
            .map(|e| ("error_definition", e.file)),
    );
    entries.extend(tables.bare.iter().map(|b| ("bare", b.file)));
    entries.extend(tables.invalid.iter().map(|i| ("invalid", i.file)));
    entries.extend(
        tables
            .result_overrides
            .iter()
            .map(|d| ("result_override", d.file)),
    );
    entries.extend(tables.defects.iter().map(|d| ("defect", d.file)));
    for (table, file) in &entries {
        if !files.contains(file) {
            report.failures.push(format!(
                "{}: {table} entry for {file}, which is not a docs block",
                R::NAME
            ));
        }
    }
    for skip in &tables.skips {
        assert!(
            skip.reason.len() > 20,
            "{}: skip of {} needs a reason",
            R::NAME,
            skip.file
        );
    }
    for file in &tables.not_mcp {
        assert!(
            tables.skips.iter().any(|s| s.file == *file),
            "{file}: not_mcp but not skipped"
        );
    }
    let mut used_pairs = BTreeSet::new();

    // The values of the blocks that parse, for pairing.
    let texts: Vec<Option<String>> = blocks
        .iter()
        .map(|b| {
            if tables.skips.iter().any(|s| s.file == b.file) {
                None
            } else if b.strict_json {
                Some(b.body.clone())
            } else if let Some(n) = tables.normalize.iter().find(|n| n.file == b.file) {
                Some((n.how)(&b.body))
            } else if b.parses_after_stripping_comments {
                Some(strip_comments(&b.body))
            } else {
                None
            }
        })
        .collect();
    let values: Vec<Option<Value>> = texts
        .iter()
        .map(|t| t.as_ref().and_then(|t| serde_json::from_str(t).ok()))
        .collect();

    for (index, block) in blocks.iter().enumerate() {
        if block.strict_json {
            report.strict_total += 1;
        }
        // The index's strict_json is what serde_json says of the block.
        let strict = serde_json::from_str::<Value>(&block.body).is_ok();
        if strict != block.strict_json {
            report.failures.push(format!(
                "{}: strict_json is {} in the index",
                block.file, block.strict_json
            ));
        }
        if let Some(skip) = tables.skips.iter().find(|s| s.file == block.file) {
            if block.strict_json && !tables.not_mcp.contains(&block.file.as_str()) {
                report.failures.push(format!(
                    "{}: strict JSON, must be checked, not skipped ({})",
                    block.file, skip.reason
                ));
            }
            report.skipped += 1;
            continue;
        }
        let Some(text) = &texts[index] else {
            report.failures.push(format!(
                "{}: not JSON even without comments (line {} of {}), and neither normalized nor skipped with a reason",
                block.file, block.line, block.source
            ));
            continue;
        };
        let Some(value) = &values[index] else {
            report.failures.push(format!(
                "{}: does not parse after normalization",
                block.file
            ));
            continue;
        };
        let kind = classify(value);
        if block.method.as_deref() != value.get("method").and_then(Value::as_str) {
            report.failures.push(format!(
                "{}: the index names method {:?}",
                block.file, block.method
            ));
        }
        if let Some(indexed) = &block.message_kind {
            if indexed != kind {
                report.failures.push(format!(
                    "{}: the index says {indexed}, the value is {kind}",
                    block.file
                ));
            }
        }
        // What the crate and the schema read is the JSON value; a block with comments is given to
        // the parsers as compact text.
        let text = if block.strict_json {
            text.clone()
        } else {
            value.to_string()
        };
        let mut check = Check::default();
        if let Some(invalid) = tables.invalid.iter().find(|i| i.file == block.file) {
            check_invalid::<R>(&mut check, value, &text, invalid);
        } else {
            match kind {
                "request" | "notification" => check_call::<R>(&mut check, value, &text),
                "response" | "error" => match paired_method(&blocks, &values, index, &tables) {
                    Err(e) => check.fail(e),
                    Ok(method) => {
                        used_pairs.insert(block.file.clone());
                        let error_definition = tables
                            .error_definitions
                            .iter()
                            .find(|e| e.file == block.file)
                            .map(|e| (e.at, e.definition));
                        let result_check = match tables
                            .result_overrides
                            .iter()
                            .find(|d| d.file == block.file)
                        {
                            Some(defect) => ResultCheck::Defect(defect),
                            None => ResultCheck::Dispatch,
                        };
                        check_answer::<R>(
                            &mut check,
                            value,
                            &text,
                            &method,
                            error_definition,
                            result_check,
                        );
                    }
                },
                "bare-object" | "array" => check_bare::<R>(&mut check, &tables, &block.file, value),
                other => check.fail(format!("unexpected block kind {other}")),
            }
        }
        let failures = excuse_known_defects(&block.file, check.failures, &tables.defects);
        if failures.is_empty() {
            report.checked += 1;
            if block.strict_json {
                report.strict_checked += 1;
            }
        } else {
            for failure in failures {
                report.failures.push(format!(
                    "{} ({}, line {}, under {:?}{}): {failure}",
                    block.file,
                    block.source,
                    block.line,
                    block.heading.as_deref().unwrap_or(""),
                    block
                        .bold_label
                        .as_deref()
                        .map(|l| format!(", {l:?}"))
                        .unwrap_or_default()
                ));
            }
        }
    }
    for pair in &tables.pairs {
        if !used_pairs.contains(pair.file) {
            report
                .failures
                .push(format!("pair entry for {} is unused", pair.file));
        }
    }
    report
}
