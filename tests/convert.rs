//! Conversions between revisions (feature `convert`), for every pair of enabled revisions.
//!
//! - Every definition the two schemas share by name has a conversion (found by reading the
//!   schema files, not the generated list), so a schema bump cannot leave one out.
//! - Instances generated from the source schema (required members only, every member, and
//!   each arm of a union) convert exactly when the target's official schema accepts them:
//!   a converted value is the same JSON and validates against the target schema, and converts
//!   back unchanged; a refused one is a typed error, and the target schema rejects the value
//!   too. The counts per pair are printed:
//!   `convert <from> -> <to>: <shared> shared, <lossless> lossless, <partial> partial, <none> none`
//! - Every request and notification of the spec's examples converts to every other revision
//!   that has its method and back unchanged, or is refused with a typed error.
#![cfg(feature = "convert")]
// With only some revisions enabled, the helpers the missing ones would use go unused.
#![cfg_attr(
    not(all(feature = "all-revisions", feature = "unstable-draft")),
    allow(dead_code, unused_imports, unused_variables, unused_macros)
)]

use crate::common;

use common::instances::{instance, instance_of_arm, Mode};
use common::{at, definition_pointer, definitions, load_schema, validator, violations};
use mcp_spec_types::convert::{convert_value, ConversionError};
use mcp_spec_types::ProtocolVersion;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Prints a line past libtest's capture (as the conformance summary does).
fn show(line: &str) {
    use std::io::Write;
    println!("{line}");
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn enabled() -> Vec<ProtocolVersion> {
    let mut versions: Vec<ProtocolVersion> = ProtocolVersion::SUPPORTED.to_vec();
    versions.sort();
    versions
}

/// The arms of `schema`'s top-level union, following references (0 when it is not one).
fn arm_count(root: &Value, schema: &Value) -> usize {
    let mut here = schema;
    for _ in 0..8 {
        if let Some(reference) = here.get("$ref").and_then(Value::as_str) {
            here = at(root, reference.trim_start_matches('#'));
            continue;
        }
        break;
    }
    here.get("anyOf")
        .or_else(|| here.get("oneOf"))
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

/// Instances of a definition: required members only, every member, and each union arm.
fn instances(root: &Value, definition: &str) -> Vec<Value> {
    let schema = at(root, &definition_pointer(root, definition));
    let mut out = vec![
        instance(root, schema, Mode::Minimal),
        instance(root, schema, Mode::Full),
    ];
    for arm in 0..arm_count(root, schema) {
        for mode in [Mode::Minimal, Mode::Full] {
            out.push(instance_of_arm(root, schema, mode, arm));
        }
    }
    out.sort_by_key(Value::to_string);
    out.dedup();
    out
}

/// Unions one of whose arms is the bare `Result`, which accepts any object: the schema takes
/// a broken `ListToolsResult` as a bare `Result`, while the crate reads a value with `tools`
/// as the `ListToolsResult` it claims to be and reports what is broken. Deliberately stricter
/// (reading a result by its request's method, as the dispatch does, never meets the union).
const CATCH_ALL_UNIONS: &[&str] = &["ServerResult", "ClientResult"];

#[derive(Default)]
struct Tally {
    shared: usize,
    lossless: usize,
    partial: usize,
    none: usize,
}

#[test]
fn every_shared_definition_converts_as_the_target_schema_says() {
    let versions = enabled();
    let roots: BTreeMap<String, Value> = versions
        .iter()
        .map(|v| (v.as_str().to_owned(), load_schema(v.as_str())))
        .collect();
    // A validator compiles the whole schema: each target's, once per definition, not once
    // per pair.
    let mut target_checks: BTreeMap<(&str, &str), jsonschema::Validator> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut lines = Vec::new();
    for from in &versions {
        for to in &versions {
            if from == to {
                continue;
            }
            let (source, target) = (&roots[from.as_str()], &roots[to.as_str()]);
            let mut tally = Tally::default();
            for definition in definitions(source).keys() {
                if !definitions(target).contains_key(definition) {
                    continue;
                }
                tally.shared += 1;
                let target_check = target_checks
                    .entry((to.as_str(), definition.as_str()))
                    .or_insert_with(|| validator(target, &definition_pointer(target, definition)));
                let (mut carried, mut refused) = (0, 0);
                for value in instances(source, definition) {
                    let what = format!("{definition} {from} -> {to}: {value}");
                    let Some(converted) = convert_value(definition, from, to, &value) else {
                        failures.push(format!("{what}: no conversion"));
                        break;
                    };
                    let accepted = violations(target_check, &value).is_empty();
                    match converted {
                        Ok(out) => {
                            carried += 1;
                            if out != value {
                                failures.push(format!("{what}: changed to {out}"));
                            }
                            if !accepted {
                                failures.push(format!(
                                    "{what}: converted, but the target schema rejects it: {:?}",
                                    violations(target_check, &value)
                                ));
                            }
                            match convert_value(definition, to, from, &out) {
                                Some(Ok(back)) if back == value => {}
                                other => failures.push(format!("{what}: back: {other:?}")),
                            }
                        }
                        Err(error) => {
                            refused += 1;
                            check_refusal(&error, definition, &mut failures, &what);
                            if accepted && !CATCH_ALL_UNIONS.contains(&definition.as_str()) {
                                failures.push(format!(
                                    "{what}: refused ({error}) though the target schema accepts it"
                                ));
                            }
                        }
                    }
                }
                match (carried, refused) {
                    (_, 0) => tally.lossless += 1,
                    (0, _) => tally.none += 1,
                    _ => tally.partial += 1,
                }
            }
            lines.push(format!(
                "convert {from} -> {to}: {} shared, {} lossless, {} partial, {} none",
                tally.shared, tally.lossless, tally.partial, tally.none
            ));
        }
    }
    for line in &lines {
        show(line);
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
    if cfg!(feature = "all-revisions") {
        assert!(lines.len() >= 20, "{lines:?}");
    }
}

fn check_refusal(
    error: &ConversionError,
    definition: &str,
    failures: &mut Vec<String>,
    what: &str,
) {
    if error.subject() != definition || error.reason().is_empty() {
        failures.push(format!("{what}: an untyped refusal: {error:?}"));
    }
}

#[test]
fn a_definition_shared_by_no_pair_has_no_conversion() {
    let versions = enabled();
    if versions.len() < 2 {
        return;
    }
    let value = serde_json::json!({});
    assert!(convert_value("NoSuchDefinition", &versions[0], &versions[1], &value).is_none());
    // A revision this build does not have converts nothing.
    let unknown = ProtocolVersion::from("1999-01-01");
    assert!(convert_value("Resource", &unknown, &versions[0], &value).is_none());
}

/// Calls `$callback!(feature, module, revision)` for every revision, as `for_each_revision!`.
macro_rules! message_converter {
    ($($feature:literal, $module:ident, $revision:literal;)*) => {
        /// Parses `text`, a message of `method`, as its sender sends it in `from` (the side
        /// the revision's generated `Method::direction` names; either side's methods are read
        /// as the client's) and converts it to `to`'s types; `None` when a revision is not
        /// enabled.
        fn convert_message(from: &str, to: &str, method: &str, text: &str) -> Option<Result<(String, String), String>> {
            match from {
                $(
                    #[cfg(feature = $feature)]
                    $revision => {
                        use mcp_spec_types::$module as m;
                        let server = m::Method::known(method).and_then(|m| m.direction())
                            == Some(mcp_spec_types::Direction::ServerToClient);
                        if !server {
                            into::<m::ClientCall, m::ClientNotify>(to, true, text)
                        } else {
                            into::<m::ServerCall, m::ServerNotify>(to, false, text)
                        }
                    }
                )*
                _ => None,
            }
        }

        fn into<R: mcp_spec_types::dispatch::MethodSet, N: mcp_spec_types::dispatch::MethodSet>(
            to: &str,
            client: bool,
            text: &str,
        ) -> Option<Result<(String, String), String>> {
            match to {
                $(
                    #[cfg(feature = $feature)]
                    $revision => {
                        use mcp_spec_types::$module as m;
                        Some(if client {
                            there_and_back::<R, N, m::ClientCall, m::ClientNotify>(text)
                        } else {
                            there_and_back::<R, N, m::ServerCall, m::ServerNotify>(text)
                        })
                    }
                )*
                _ => None,
            }
        }
    };
}

message_converter! {
    "v2024_11_05", v2024_11_05, "2024-11-05";
    "v2025_03_26", v2025_03_26, "2025-03-26";
    "v2025_06_18", v2025_06_18, "2025-06-18";
    "v2025_11_25", v2025_11_25, "2025-11-25";
    "v2026_07_28", v2026_07_28, "2026-07-28";
    "unstable-draft", draft, "draft";
}

/// Converts a message to the other revision and back: the text there, and the text back.
fn there_and_back<R, N, R2, N2>(text: &str) -> Result<(String, String), String>
where
    R: mcp_spec_types::dispatch::MethodSet,
    N: mcp_spec_types::dispatch::MethodSet,
    R2: mcp_spec_types::dispatch::MethodSet,
    N2: mcp_spec_types::dispatch::MethodSet,
{
    use mcp_spec_types::dispatch::Message;
    let message = Message::<R, N>::parse(text).map_err(|e| format!("source: {e}"))?;
    let there: Message<R2, N2> = message.convert().map_err(|e| e.to_string())?;
    let back: Message<R, N> = there.convert().map_err(|e| format!("back: {e}"))?;
    Ok((there.to_json(), back.to_json()))
}

/// The spec's examples of `revision` that are requests or notifications, with their method.
fn spec_calls(revision: &str) -> Vec<(String, String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/spec")
        .join(revision)
        .join("docs");
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return out;
    };
    let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if name == "index.json" {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let Some(method) = value.get("method").and_then(Value::as_str) else {
            continue;
        };
        if value.get("jsonrpc").is_none() {
            continue;
        }
        out.push((name, method.to_owned(), value));
    }
    out
}

#[test]
fn the_spec_examples_convert_to_every_revision_with_their_method_and_back() {
    let versions = enabled();
    let mut failures = Vec::new();
    let (mut converted, mut refused) = (0, 0);
    for from in &versions {
        for (name, method, value) in spec_calls(from.as_str()) {
            let text = value.to_string();
            for to in &versions {
                if from == to {
                    continue;
                }
                let Some(outcome) = convert_message(from.as_str(), to.as_str(), &method, &text)
                else {
                    continue;
                };
                match outcome {
                    Ok((_, back)) => {
                        converted += 1;
                        let back: Value = serde_json::from_str(&back).unwrap();
                        if back != value {
                            failures.push(format!("{from}/{name} -> {to}: back as {back}"));
                        }
                    }
                    // The source example itself may be one the source revision refuses (the
                    // conformance suite lists those); only conversions are judged here.
                    Err(e) if e.starts_with("source: ") => {}
                    Err(e) => {
                        refused += 1;
                        if !e.contains(" from ") || !e.contains(" to ") {
                            failures.push(format!("{from}/{name} -> {to}: untyped refusal {e}"));
                        }
                    }
                }
            }
        }
    }
    show(&format!(
        "convert spec examples: {converted} converted there and back, {refused} refused with a typed error"
    ));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if cfg!(feature = "all-revisions") {
        assert!(converted > 100, "{converted}");
    }
}

#[test]
fn the_stateless_meta_keys_are_the_schemas() {
    use mcp_spec_types::convert::meta_keys;
    for revision in ["2026-07-28", "draft"] {
        let root = load_schema(revision);
        let properties = at(&root, &definition_pointer(&root, "RequestMetaObject"))["properties"]
            .as_object()
            .unwrap()
            .clone();
        for key in [
            meta_keys::PROTOCOL_VERSION,
            meta_keys::CLIENT_CAPABILITIES,
            meta_keys::CLIENT_INFO,
            meta_keys::LOG_LEVEL,
        ] {
            assert!(properties.contains_key(key), "{revision}: {key}");
        }
    }
}

#[cfg(all(feature = "v2025_11_25", feature = "v2026_07_28"))]
#[test]
fn a_stateful_call_and_result_become_stateless_with_the_session_state() {
    use mcp_spec_types::convert::{
        convert_call_with, convert_result, convert_result_with, StatelessRequestMeta,
        StatelessResult,
    };
    use mcp_spec_types::dispatch::PendingRequest;
    use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};
    use serde_json::json;

    let call = old::ClientCall::ReadResource(old::ReadResourceRequestParams::new("file:///a"));
    let meta = StatelessRequestMeta {
        protocol_version: "2026-07-28".into(),
        client_capabilities: json!({}),
        client_info: Some(json!({"name": "c", "version": "1"})),
    };
    // Without the session's state the stateless request lacks its required `_meta`.
    let refused = mcp_spec_types::convert::convert_call::<old::ClientCall, new::ClientCall>(&call)
        .unwrap_err();
    assert_eq!(refused.subject(), "resources/read");
    let stateless: new::ClientCall = convert_call_with(&call, &meta).unwrap();
    let new::ClientCall::ReadResource(params) = &stateless else {
        panic!("{stateless:?}")
    };
    assert_eq!(params.uri, "file:///a");
    assert_eq!(
        params.meta.io_modelcontextprotocol_protocol_version,
        "2026-07-28"
    );

    let request = PendingRequest::of(&call);
    let result =
        old::ClientCallResult::ReadResource(old::ReadResourceResult::text("file:///a", "hi"));
    // 2026-07-28 results need `resultType`, `ttlMs` and `cacheScope`.
    let refused =
        convert_result::<old::ClientCall, new::ClientCall>(&result, &request).unwrap_err();
    assert!(!refused.reason().is_empty());
    let converted = convert_result_with::<old::ClientCall, new::ClientCall>(
        &result,
        &request,
        &StatelessResult::uncached(),
    )
    .unwrap();
    let value = serde_json::to_value(&converted).unwrap();
    assert_eq!(value["resultType"], "complete");
    assert_eq!(value["ttlMs"], 0);
    assert_eq!(value["cacheScope"], "private");
    assert_eq!(value["contents"][0]["text"], "hi");
    // And back: the stateless members travel as extra members of the older result.
    let back = convert_result::<new::ClientCall, old::ClientCall>(&converted, &request).unwrap();
    let back = serde_json::to_value(&back).unwrap();
    assert_eq!(back["contents"], value["contents"]);
    assert_eq!(back["resultType"], "complete");
}

/// A session's call gets the session's `_meta` keys whichever way its params are written:
/// without a `_meta` (written in front of the params' text), with one (merged member by
/// member, a key already present winning), with a `_meta` deep in its arguments only, and
/// without params.
#[cfg(all(feature = "v2025_11_25", feature = "v2026_07_28"))]
#[test]
fn a_stateful_call_gets_the_session_meta_whatever_its_params_hold() {
    use mcp_spec_types::convert::{convert_call_with, StatelessRequestMeta};
    use mcp_spec_types::dispatch::{MethodSet, RequestEnvelope};
    use mcp_spec_types::{v2025_11_25 as old, v2026_07_28 as new};
    use serde_json::{json, Value};

    let meta = StatelessRequestMeta {
        protocol_version: "2026-07-28".into(),
        client_capabilities: json!({"roots": {}}),
        client_info: Some(json!({"name": "c", "version": "1"})),
    };
    let session_meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"roots": {}},
        "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
    });
    let params_of = |call: &new::ClientCall| -> Value {
        let request = new::ClientMessage::Request(RequestEnvelope::new(1, call.clone()));
        let written: Value =
            serde_json::from_str(&mcp_spec_types::json::to_string(&request).unwrap()).unwrap();
        written.get("params").cloned().unwrap_or(Value::Null)
    };
    let convert = |method: &str, params: Option<Value>| -> Value {
        let raw = params.map(|p| serde_json::value::to_raw_value(&p).unwrap());
        let call = old::ClientCall::from_parts(method, raw.as_deref()).unwrap();
        let converted: new::ClientCall = convert_call_with(&call, &meta).unwrap();
        params_of(&converted)
    };

    let plain = convert(
        "tools/call",
        Some(json!({"name": "add", "arguments": {"a": 1}})),
    );
    assert_eq!(
        plain,
        json!({"name": "add", "arguments": {"a": 1}, "_meta": session_meta})
    );

    let own = convert(
        "tools/call",
        Some(json!({"name": "add", "_meta": {
            "progressToken": 7,
            "io.modelcontextprotocol/protocolVersion": "2025-11-25",
        }})),
    );
    let mut expected = session_meta.clone();
    expected["progressToken"] = json!(7);
    expected["io.modelcontextprotocol/protocolVersion"] = json!("2025-11-25");
    assert_eq!(own, json!({"name": "add", "_meta": expected}));

    let deep = convert(
        "tools/call",
        Some(json!({"name": "add", "arguments": {"_meta": "theirs"}})),
    );
    assert_eq!(
        deep,
        json!({"name": "add", "arguments": {"_meta": "theirs"}, "_meta": session_meta})
    );

    let bare = convert("tools/list", None);
    assert_eq!(bare, json!({"_meta": session_meta}));
}
