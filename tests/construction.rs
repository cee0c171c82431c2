//! The types are correct by construction, for every revision:
//! - a `const` member accepts only its value;
//! - a union picks its arm from what the message says (the discriminator, or the members the
//!   arm requires), never by trial, whatever the member order;
//! - what was read is written back unchanged: unknown members, `_meta`, the form of numbers,
//!   and the difference between an absent and an empty optional member.
//!
//! Payloads are written from the specification text; where a revision changed the wire shape
//! (the JSON-RPC envelope inside request types from 2025-11-25 on, the stateless `_meta`,
//! `resultType` and cache members of 2026-07-28) the [`Wire`] helper adds what the revision's
//! schema requires.

// With only some revisions enabled, the helpers the missing ones would use go unused.
#![cfg_attr(
    not(all(feature = "all-revisions", feature = "unstable-draft")),
    allow(dead_code, unused_imports, unused_variables)
)]

use crate::common;

use common::definitions::{Arm, Union};
use common::instances::{instance, instance_of_arm, merge, Mode};
use common::{at, definition_pointer, definitions, load_schema, pointer_escape};
use common::{validator, violations};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Map, Value};

type Parse = fn(&str, Value) -> Option<Result<(Value, String), String>>;

/// Reads `value` as `T` and writes it back; the error keeps serde's message.
fn typed<T: DeserializeOwned + Serialize>(value: Value) -> Result<(T, Value), String> {
    let parsed: T = serde_json::from_value(value).map_err(|e| e.to_string())?;
    let back = serde_json::to_value(&parsed).expect("every type serializes");
    Ok((parsed, back))
}

/// Reads `value` as `T`, expecting an error, and returns its message.
fn rejected<T: DeserializeOwned + Serialize + std::fmt::Debug>(value: Value) -> String {
    match serde_json::from_value::<T>(value.clone()) {
        Ok(parsed) => panic!(
            "{} accepted {value} as {parsed:?}",
            std::any::type_name::<T>()
        ),
        Err(e) => e.to_string(),
    }
}

/// Asserts that `value` reads as `T` and is written back equal; returns the parsed value.
fn lossless<T: DeserializeOwned + Serialize>(value: Value) -> T {
    let (parsed, back) = typed::<T>(value.clone())
        .unwrap_or_else(|e| panic!("{} rejected {value}: {e}", std::any::type_name::<T>()));
    assert_eq!(
        back,
        value,
        "{} changed the value",
        std::any::type_name::<T>()
    );
    parsed
}

/// The wire shape of a revision, as its schema defines it.
#[derive(Clone, Copy)]
struct Wire(&'static str);

impl Wire {
    /// From 2025-11-25 on, request and notification types are whole JSON-RPC messages
    /// (`jsonrpc`, `id`); before, they are the inner `{method, params}` and `JSONRPCRequest` is
    /// the envelope.
    fn enveloped(self) -> bool {
        !matches!(self.0, "2024-11-05" | "2025-03-26" | "2025-06-18")
    }

    /// 2026-07-28 is stateless: requests carry the protocol version and client capabilities in
    /// `params._meta`, results say their `resultType`, cacheable results their lifetime.
    fn stateless(self) -> bool {
        matches!(self.0, "2026-07-28" | "draft")
    }

    /// The revision's content blocks know audio (added in 2025-03-26).
    fn has_audio(self) -> bool {
        self.0 != "2024-11-05"
    }

    fn request(self, id: Value, method: &str, params: Value) -> Value {
        let mut params = params;
        if self.stateless() {
            merge(
                &mut params,
                json!({"_meta": {
                    "io.modelcontextprotocol/protocolVersion": self.0,
                    "io.modelcontextprotocol/clientCapabilities": {}
                }}),
            );
        }
        if self.enveloped() {
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        } else {
            json!({"method": method, "params": params})
        }
    }

    fn notification(self, method: &str, params: Value) -> Value {
        if self.enveloped() {
            json!({"jsonrpc": "2.0", "method": method, "params": params})
        } else {
            json!({"method": method, "params": params})
        }
    }

    /// A result body: `resultType` where the revision requires it.
    fn result(self, body: Value) -> Value {
        let mut body = body;
        if self.stateless() {
            merge(&mut body, json!({"resultType": "complete"}));
        }
        body
    }

    /// A cacheable result body (list and read results).
    fn cacheable(self, body: Value) -> Value {
        let mut body = self.result(body);
        if self.stateless() {
            merge(&mut body, json!({"ttlMs": 60000, "cacheScope": "public"}));
        }
        body
    }

    /// The schema pointer of this revision's content union: `ContentBlock` from
    /// 2025-06-18, the inline union of `CallToolResult.content` before.
    fn content_union(self, root: &Value) -> String {
        let block = definition_pointer(root, "ContentBlock");
        if root.pointer(&block).is_some() {
            block
        } else {
            format!(
                "{}/properties/content/items",
                definition_pointer(root, "CallToolResult")
            )
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Constants, found in the schema: every `const` reachable from a definition through members,
// `$ref`s, `allOf` parts and array items (not through unions, whose arm a changed constant
// would change).

/// Where a constant sits in a definition's full instance, and the member that holds it.
struct ConstSite {
    definition: String,
    pointer: String,
    member: String,
}

fn const_sites(root: &Value) -> Vec<ConstSite> {
    fn walk(
        root: &Value,
        schema: &Value,
        pointer: &str,
        member: &str,
        depth: usize,
        out: &mut Vec<(String, String)>,
    ) {
        let Some(object) = schema.as_object() else {
            return;
        };
        if depth > 4 {
            return;
        }
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            let target = root
                .pointer(reference.trim_start_matches('#'))
                .expect("resolvable");
            return walk(root, target, pointer, member, depth, out);
        }
        if object.contains_key("const") && !member.is_empty() {
            out.push((pointer.to_owned(), member.to_owned()));
            return;
        }
        for part in object
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            walk(root, part, pointer, member, depth, out);
        }
        if let Some(items) = object.get("items") {
            walk(root, items, &format!("{pointer}/0"), member, depth + 1, out);
        }
        if let Some(Value::Object(properties)) = object.get("properties") {
            for (name, property) in properties {
                let child = format!("{pointer}/{}", pointer_escape(name));
                walk(root, property, &child, name, depth + 1, out);
            }
        }
    }
    let mut sites = Vec::new();
    for (name, schema) in definitions(root) {
        let mut found = Vec::new();
        walk(root, schema, "", "", 0, &mut found);
        found.sort();
        found.dedup();
        for (pointer, member) in found {
            sites.push(ConstSite {
                definition: name.clone(),
                pointer,
                member,
            });
        }
    }
    sites
}

/// A different value of the same JSON kind, so only the constant's value is wrong.
fn other_value(value: &Value) -> Value {
    match value {
        Value::String(s) => Value::String(format!("{s}-other")),
        Value::Number(n) => json!(n.as_i64().expect("integer constants") + 1),
        other => panic!("unexpected const {other}"),
    }
}

/// For each constant site of the revision (those inside `allOf` refinements too, such as
/// `error.code` of URLElicitationRequiredError, HeaderMismatchError,
/// MissingRequiredClientCapabilityError and UnsupportedProtocolVersionError), the full instance
/// with that constant changed must be rejected with an error naming the member. Returns the
/// number of sites checked and the failures.
fn check_const_sites(revision: &str, parse: Parse) -> (usize, Vec<String>) {
    let root = load_schema(revision);
    let mut failures = Vec::new();
    let mut checked = 0;
    for site in const_sites(&root) {
        let schema = at(&root, &definition_pointer(&root, &site.definition));
        let mut value = instance(&root, schema, Mode::Full);
        let Some(slot) = value.pointer_mut(&site.pointer) else {
            // An optional member the depth bound left out.
            continue;
        };
        let original = slot.clone();
        *slot = other_value(&original);
        checked += 1;
        match parse(&site.definition, value.clone()).expect("in the table") {
            Ok((back, _)) => failures.push(format!(
                "{}{}: accepted {} instead of {original}; wrote back {back}",
                site.definition,
                site.pointer,
                value.pointer(&site.pointer).unwrap()
            )),
            Err(e) if !e.contains(&format!("`{}`", site.member)) => failures.push(format!(
                "{}{}: the error does not name `{}`: {e}",
                site.definition, site.pointer, site.member
            )),
            Err(_) => {}
        }
    }
    let failures = failures
        .into_iter()
        .map(|f| format!("{revision}: {f}"))
        .collect();
    (checked, failures)
}

// ---------------------------------------------------------------------------------------------
// Unions: every arm, given an instance of itself, is the arm chosen.

/// (revision, union pointer, arm, modes, arm chosen instead, why)
type Tie = (
    &'static str,
    &'static str,
    usize,
    &'static [Mode],
    usize,
    &'static str,
);

const BOTH: &[Mode] = &[Mode::Minimal, Mode::Full];
const MINIMAL: &[Mode] = &[Mode::Minimal];

/// Arms that the schema cannot tell from an earlier arm of the same union: both require the
/// same members with the same constants, and the arm's instances are valid instances of the
/// earlier arm too, so the crate's documented tie rule (first arm wins) picks the earlier one
/// and keeps the rest as unknown members. Each entry is checked (same requirements, the
/// instance valid for both, parsed as the earlier arm, written back unchanged), not skipped.
const INDISTINGUISHABLE: &[Tie] = &[
    (
        "2025-03-26",
        "/definitions/JSONRPCMessage",
        5,
        MINIMAL,
        2,
        EMPTY_BATCH,
    ),
    (
        "2025-11-25",
        "/$defs/ClientResult",
        2,
        BOTH,
        0,
        TASK_PAYLOAD,
    ),
    ("2025-11-25", "/$defs/ClientResult", 3, BOTH, 1, CANCEL_TASK),
    (
        "2025-11-25",
        "/$defs/ServerResult",
        10,
        BOTH,
        0,
        TASK_PAYLOAD,
    ),
    (
        "2025-11-25",
        "/$defs/ServerResult",
        11,
        BOTH,
        9,
        CANCEL_TASK,
    ),
    ("2025-11-25", "/$defs/EnumSchema", 4, BOTH, 0, LEGACY_ENUM),
    (
        "2025-11-25",
        "/$defs/PrimitiveSchemaDefinition",
        7,
        BOTH,
        3,
        LEGACY_ENUM,
    ),
    (
        "2026-07-28",
        "/$defs/ServerResult",
        1,
        BOTH,
        0,
        INPUT_REQUIRED,
    ),
    ("2026-07-28", "/$defs/EnumSchema", 4, BOTH, 0, LEGACY_ENUM),
    (
        "2026-07-28",
        "/$defs/PrimitiveSchemaDefinition",
        7,
        BOTH,
        3,
        LEGACY_ENUM,
    ),
    ("draft", "/$defs/ServerResult", 1, BOTH, 0, INPUT_REQUIRED),
    ("draft", "/$defs/EnumSchema", 4, BOTH, 0, LEGACY_ENUM),
    (
        "draft",
        "/$defs/PrimitiveSchemaDefinition",
        7,
        BOTH,
        3,
        LEGACY_ENUM,
    ),
];

const EMPTY_BATCH: &str = "`[]` is a valid batch request and a valid batch response";
const TASK_PAYLOAD: &str = "GetTaskPayloadResult is declared exactly like Result (only `_meta`, \
                            any other member allowed)";
const CANCEL_TASK: &str = "CancelTaskResult and GetTaskResult are both `allOf: [Result, Task]`";
const LEGACY_ENUM: &str = "LegacyTitledEnumSchema and UntitledSingleSelectEnumSchema both \
                           require `type: \"string\"` and `enum`; `enumNames` is optional and \
                           allowed as an extra member of the untitled schema";
const INPUT_REQUIRED: &str = "InputRequiredResult and Result both require only `resultType`, \
                              with no constant (the schema's \"at least one of inputRequests or \
                              requestState\" is prose, not schema)";

/// The required members of an object schema (following `$ref`s and `allOf` parts), and its
/// required constants.
fn requirements(root: &Value, schema: &Value) -> (Vec<String>, Map<String, Value>) {
    let mut required = Vec::new();
    let mut consts = Map::new();
    fn collect(
        root: &Value,
        schema: &Value,
        required: &mut Vec<String>,
        consts: &mut Map<String, Value>,
    ) {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let target = root
                .pointer(reference.trim_start_matches('#'))
                .expect("resolvable");
            return collect(root, target, required, consts);
        }
        for part in schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            collect(root, part, required, consts);
        }
        for name in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = name.as_str().expect("a member name").to_owned();
            if let Some(value) =
                schema.pointer(&format!("/properties/{}/const", pointer_escape(&name)))
            {
                consts.insert(name.clone(), value.clone());
            }
            if !required.contains(&name) {
                required.push(name);
            }
        }
    }
    collect(root, schema, &mut required, &mut consts);
    required.sort();
    (required, consts)
}

/// `debug` is `Variant(Type ...)`: the arm's variant, holding the arm's type.
fn is_arm(debug: &str, arm: &Arm) -> bool {
    let Some(inner) = debug.strip_prefix(&format!("{}(", arm.variant)) else {
        return false;
    };
    match arm.rust {
        Some(rust) => inner
            .strip_prefix(rust)
            .is_some_and(|rest| rest.starts_with(" {") || rest.starts_with('(')),
        None => true,
    }
}

/// For each union arm of the revision, the arm's own instance in `mode` is valid for it, is read
/// as that arm (or, for an arm listed in [`INDISTINGUISHABLE`], as the earlier arm the schema
/// cannot tell it from) and is written back unchanged. Returns the number of arms checked and the
/// failures.
fn check_union_arms(
    revision: &str,
    unions: &[Union],
    parse_union: Parse,
    mode: Mode,
) -> (usize, Vec<String>) {
    let root = load_schema(revision);
    let mut failures = Vec::new();
    let mut checked = 0;
    for union in unions {
        let schema = at(&root, union.pointer);
        let keyword = if schema.get("anyOf").is_some() {
            "anyOf"
        } else {
            "oneOf"
        };
        let whole = validator(&root, union.pointer);
        for arm in union.arms {
            checked += 1;
            let value = instance_of_arm(&root, schema, mode, arm.index);
            let arm_pointer = format!("{}/{keyword}/{}", union.pointer, arm.index);
            // The instance is the arm's, by the official schema, before anything is asserted.
            let errors = violations(&validator(&root, &arm_pointer), &value);
            assert!(errors.is_empty(), "{arm_pointer}: {errors:?} for {value}");
            assert!(violations(&whole, &value).is_empty(), "{}", union.pointer);

            let what = format!(
                "{} arm {} ({}) {mode:?}",
                union.pointer,
                arm.index,
                arm.definition.unwrap_or("inline")
            );
            let (back, debug) =
                match parse_union(union.pointer, value.clone()).expect("in the table") {
                    Ok(parsed) => parsed,
                    Err(e) => {
                        failures.push(format!("{what}: rejected: {e}\n  instance: {value}"));
                        continue;
                    }
                };
            if back != value {
                failures.push(format!(
                    "{what}: written back as {back}\n  instance: {value}"
                ));
            }
            let expected = INDISTINGUISHABLE
                .iter()
                .find(|(r, p, a, modes, _, _)| {
                    *r == revision
                        && *p == union.pointer
                        && *a == arm.index
                        && modes.contains(&mode)
                })
                .map(|(_, _, a, _, chosen, why)| {
                    assert_same_requirements(&root, schema, keyword, *a, *chosen, why);
                    let chosen_pointer = format!("{}/{keyword}/{chosen}", union.pointer);
                    let errors = violations(&validator(&root, &chosen_pointer), &value);
                    assert!(
                        errors.is_empty(),
                        "{what}: listed as indistinguishable ({why}), but not an instance of \
                         arm {chosen}: {errors:?}"
                    );
                    &union.arms[*chosen]
                })
                .unwrap_or(arm);
            if !is_arm(&debug, expected) {
                let shown: String = debug.chars().take(120).collect();
                failures.push(format!(
                    "{what}: expected {}({}), parsed as {shown}",
                    expected.variant,
                    expected.rust.unwrap_or("_")
                ));
            }
        }
    }
    let failures = failures
        .into_iter()
        .map(|f| format!("{revision}: {f}"))
        .collect();
    (checked, failures)
}

fn assert_no_failures(what: &str, failures: &[String]) {
    assert!(failures.is_empty(), "{what}:\n{}", failures.join("\n"));
}

/// An entry of [`INDISTINGUISHABLE`] is only allowed where the schema really cannot tell the
/// two arms apart by what they require.
fn assert_same_requirements(
    root: &Value,
    union: &Value,
    keyword: &str,
    a: usize,
    b: usize,
    why: &str,
) {
    let arms = union[keyword].as_array().expect("arms");
    let (required_a, consts_a) = requirements(root, &arms[a]);
    let (required_b, consts_b) = requirements(root, &arms[b]);
    assert_eq!(
        required_a, required_b,
        "arms {a} and {b}, listed as indistinguishable ({why}), differ in required members"
    );
    for (name, value) in &consts_a {
        if let Some(other) = consts_b.get(name) {
            assert_eq!(
                value, other,
                "arms {a} and {b}, listed as indistinguishable ({why}), differ in `{name}`"
            );
        }
    }
    assert!(b < a, "the tie rule picks the earlier arm");
}

// ---------------------------------------------------------------------------------------------

macro_rules! construction_tests {
    ($feature:literal, $module:ident, $revision:literal) => {
        #[cfg(feature = $feature)]
        mod $module {
            use super::*;
            use crate::common::definitions::$module as table;
            use mcp_spec_types::$module as rev;

            const WIRE: Wire = Wire($revision);

            // --- constants ------------------------------------------------------------------

            #[test]
            fn jsonrpc_accepts_only_2_0() {
                let request = json!({"jsonrpc": "1.0", "id": 1, "method": "resources/list"});
                let error = rejected::<rev::JsonRpcRequest>(request);
                assert!(
                    error.contains("`jsonrpc`")
                        && error.contains("\"2.0\"")
                        && error.contains("\"1.0\""),
                    "{error}"
                );
                let notification = json!({"jsonrpc": "1.0", "method": "notifications/initialized"});
                let error = rejected::<rev::JsonRpcNotification>(notification);
                assert!(error.contains("`jsonrpc`"), "{error}");
                let missing = rejected::<rev::JsonRpcRequest>(json!({"id": 1, "method": "ping"}));
                assert!(missing.contains("missing field `jsonrpc`"), "{missing}");

                let mut list = WIRE.request(json!(1), "resources/list", json!({}));
                if WIRE.enveloped() {
                    list["jsonrpc"] = json!("1.0");
                    let error = rejected::<rev::ListResourcesRequest>(list.clone());
                    assert!(error.contains("`jsonrpc`"), "{error}");
                    let error = rejected::<rev::ClientRequest>(list);
                    assert!(error.contains("`jsonrpc`"), "{error}");
                } else {
                    // The inner request shape has no `jsonrpc` member: one that appears is an
                    // unknown member, kept as it was.
                    list["jsonrpc"] = json!("1.0");
                    let parsed = lossless::<rev::ListResourcesRequest>(list);
                    assert_eq!(parsed.extra["jsonrpc"], json!("1.0"));
                }
            }

            #[test]
            fn a_request_type_rejects_another_methods_name() {
                let tools = WIRE.request(json!(1), "tools/list", json!({}));
                let error = rejected::<rev::ListResourcesRequest>(tools.clone());
                assert!(
                    error.contains(
                        "member `method` must be \"resources/list\", found \"tools/list\""
                    ),
                    "{error}"
                );
                // Its own method is accepted.
                lossless::<rev::ListToolsRequest>(tools);
                let updated = WIRE.notification(
                    "notifications/resources/updated",
                    json!({"uri": "file:///a.txt"}),
                );
                let error = rejected::<rev::ResourceListChangedNotification>(updated);
                assert!(
                    error.contains("`method`") && error.contains("notifications/resources/updated"),
                    "{error}"
                );
                // A union names the method it does not know.
                let unknown = WIRE.request(json!(1), "resources/lists", json!({}));
                let error = rejected::<rev::ClientRequest>(unknown);
                assert!(error.contains("resources/lists"), "{error}");
            }

            #[test]
            fn text_content_rejects_an_image_block() {
                let image = json!({"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"});
                let error = rejected::<rev::TextContent>(image.clone());
                assert!(
                    error.contains("member `type` must be \"text\", found \"image\""),
                    "{error}"
                );
                lossless::<rev::ImageContent>(image);
                let untyped = rejected::<rev::TextContent>(json!({"text": "hello"}));
                assert!(untyped.contains("missing field `type`"), "{untyped}");
                lossless::<rev::TextContent>(json!({"type": "text", "text": "hello"}));
            }

            #[test]
            fn every_const_member_accepts_only_its_value() {
                let (checked, failures) = check_const_sites($revision, table::parse);
                assert_no_failures("constants not enforced", &failures);
                assert!(checked > 20, "only {checked} constants found");
            }

            #[test]
            fn a_declared_member_in_extra_is_never_written_twice() {
                let root = load_schema($revision);
                let (mut structs, mut names_put) = (0, 0);
                let mut failures = Vec::new();
                for (name, schema) in definitions(&root) {
                    let declared: Vec<String> = schema
                        .get("properties")
                        .and_then(Value::as_object)
                        .map(|p| p.keys().cloned().collect())
                        .unwrap_or_default();
                    let value = instance(&root, schema, Mode::Full);
                    match table::declared_in_extra(name, value, &declared) {
                        None => {}
                        Some(Ok(put)) => {
                            structs += 1;
                            names_put += put;
                        }
                        Some(Err(e)) => failures.push(format!("{name}: {e}")),
                    }
                }
                assert_no_failures("declared members written from extra", &failures);
                // Not vacuous: most definitions are objects, and their members were tried.
                assert!(structs >= 50 && names_put >= 150, "{structs} structs, {names_put} members");
            }

            #[test]
            fn every_struct_has_constructors_taking_what_its_schema_requires() {
                let root = load_schema($revision);
                let (mut structs, mut failures) = (0, Vec::new());
                for (name, schema) in definitions(&root) {
                    let Some(arguments) = table::new_arguments(name) else {
                        continue;
                    };
                    structs += 1;
                    let Some(arguments) = arguments else {
                        failures.push(format!("{name}: no `new`"));
                        continue;
                    };
                    let expected = expected_new_arguments(&root, schema);
                    if arguments != expected.as_slice() {
                        failures.push(format!("{name}: new({arguments:?}), expected new({expected:?})"));
                    }
                }
                assert_no_failures("constructors", &failures);
                // Every object definition of the schema is a struct here: the count is the
                // schema's, so a new definition without constructors fails above.
                let objects = definitions(&root)
                    .values()
                    .filter(|d| d.get("properties").is_some() || d["type"] == "object")
                    .count();
                assert!(structs >= objects * 9 / 10 && structs >= 50, "{structs} structs of {objects} objects");
            }

            #[test]
            fn a_member_given_twice_is_rejected() {
                let text = r#"{"type": "text", "text": "a", "text": "b"}"#;
                let error = serde_json::from_str::<rev::TextContent>(text).unwrap_err();
                assert!(
                    error.to_string().contains("duplicate field `text`"),
                    "{error}"
                );
                let text = r#"{"type": "text", "type": "text", "text": "a"}"#;
                let error = serde_json::from_str::<rev::TextContent>(text).unwrap_err();
                assert!(
                    error.to_string().contains("duplicate field `type`"),
                    "{error}"
                );
            }

            // --- unions ---------------------------------------------------------------------

            #[test]
            fn every_union_arm_is_chosen_for_its_own_full_instance() {
                let (checked, failures) = check_union_arms(
                    $revision,
                    table::UNIONS,
                    table::parse_union,
                    Mode::Full,
                );
                assert_no_failures("union arms not chosen for their own instances", &failures);
                assert!(checked >= table::UNIONS.len(), "{checked}");
            }

            #[test]
            fn every_union_arm_is_chosen_for_its_own_minimal_instance() {
                let (checked, failures) = check_union_arms(
                    $revision,
                    table::UNIONS,
                    table::parse_union,
                    Mode::Minimal,
                );
                assert_no_failures("union arms not chosen for their own instances", &failures);
                assert!(checked >= table::UNIONS.len(), "{checked}");
            }

            #[test]
            fn resources_list_is_the_list_resources_arm() {
                let list = WIRE.request(json!(7), "resources/list", json!({"cursor": "page-2"}));
                let parsed = lossless::<rev::ClientRequest>(list);
                let rev::ClientRequest::ListResourcesRequest(request) = parsed else {
                    panic!("resources/list parsed as {parsed:?}");
                };
                // `params` is optional before 2026-07-28 and required after: read it as JSON.
                let request = serde_json::to_value(&request).unwrap();
                assert_eq!(request["params"]["cursor"], "page-2");
            }

            #[test]
            fn resource_updated_is_not_list_changed() {
                let updated = WIRE.notification(
                    "notifications/resources/updated",
                    json!({"uri": "file:///project/src/main.rs"}),
                );
                let parsed = lossless::<rev::ServerNotification>(updated);
                let rev::ServerNotification::ResourceUpdatedNotification(notification) = parsed
                else {
                    panic!("notifications/resources/updated parsed as {parsed:?}");
                };
                assert_eq!(notification.params.uri, "file:///project/src/main.rs");
                let changed = WIRE.notification("notifications/resources/list_changed", json!({}));
                let parsed = lossless::<rev::ServerNotification>(changed);
                assert!(
                    matches!(
                        parsed,
                        rev::ServerNotification::ResourceListChangedNotification(_)
                    ),
                    "{parsed:?}"
                );
            }

            #[test]
            fn audio_block_is_audio_content() {
                let root = load_schema($revision);
                let pointer = WIRE.content_union(&root);
                let audio =
                    json!({"type": "audio", "data": "UklGRiQAAABXQVZF", "mimeType": "audio/wav"});
                let parsed = table::parse_union(&pointer, audio.clone()).expect("in the table");
                if WIRE.has_audio() {
                    let (back, debug) = parsed.unwrap_or_else(|e| panic!("{pointer}: {e}"));
                    assert_eq!(back, audio);
                    assert!(debug.starts_with("AudioContent(AudioContent {"), "{debug}");
                    let image =
                        json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"});
                    let (_, debug) = table::parse_union(&pointer, image).unwrap().unwrap();
                    assert!(debug.starts_with("ImageContent(ImageContent {"), "{debug}");
                } else {
                    // 2024-11-05 has no audio content: the block is not one of its arms.
                    let error = parsed.expect_err("2024-11-05 knows no audio");
                    assert!(error.contains("audio"), "{error}");
                }
            }

            #[test]
            fn read_resource_result_is_its_own_server_result_arm() {
                let result = WIRE.cacheable(json!({
                    "contents": [
                        {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "hello"}
                    ]
                }));
                let parsed = lossless::<rev::ServerResult>(result);
                let rev::ServerResult::ReadResourceResult(read) = parsed else {
                    panic!("a ReadResourceResult parsed as {parsed:?}");
                };
                assert_eq!(read.contents.len(), 1);
            }

            #[test]
            fn member_order_does_not_matter() {
                let mut params = json!({"uri": "file:///a.txt"});
                if WIRE.stateless() {
                    params = WIRE.request(json!(1), "resources/read", params)["params"].clone();
                }
                // Discriminator last, envelope after the params.
                let text = if WIRE.enveloped() {
                    format!(
                        r#"{{"params":{params},"method":"resources/read","id":1,"jsonrpc":"2.0"}}"#
                    )
                } else {
                    format!(r#"{{"params":{params},"method":"resources/read"}}"#)
                };
                let parsed: rev::ClientRequest = serde_json::from_str(&text).expect("reads");
                let rev::ClientRequest::ReadResourceRequest(ref request) = parsed else {
                    panic!("resources/read parsed as {parsed:?}");
                };
                assert_eq!(request.params.uri, "file:///a.txt");
                let expected: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(serde_json::to_value(&parsed).unwrap(), expected);

                let audio = r#"{"mimeType":"audio/wav","data":"UklGRg==","type":"audio"}"#;
                let image = r#"{"mimeType":"image/png","data":"iVBORw==","type":"image"}"#;
                let root = load_schema($revision);
                let pointer = WIRE.content_union(&root);
                let (_, debug) = table::parse_union(&pointer, serde_json::from_str(image).unwrap())
                    .unwrap()
                    .unwrap();
                assert!(debug.starts_with("ImageContent(ImageContent {"), "{debug}");
                if WIRE.has_audio() {
                    let (_, debug) =
                        table::parse_union(&pointer, serde_json::from_str(audio).unwrap())
                            .unwrap()
                            .unwrap();
                    assert!(debug.starts_with("AudioContent(AudioContent {"), "{debug}");
                }
            }

            // --- lossless round trips -------------------------------------------------------

            #[test]
            fn unknown_members_survive_at_every_level() {
                // After the 2025-06-18 specification's resources/read example, whose contents
                // carry `name` and `title`, with vendor members added at each level.
                let result = WIRE.cacheable(json!({
                    "contents": [
                        {
                            "uri": "file:///project/src/main.rs",
                            "name": "main.rs",
                            "title": "Rust Software Application Main File",
                            "mimeType": "text/x-rust",
                            "text": "fn main() {\n    println!(\"Hello world!\");\n}",
                            "x-vendor": {"checksum": [1, 2.5, "three", null]}
                        },
                        {"uri": "file:///logo.png", "blob": "iVBORw0KGgo=", "x-size": 8}
                    ],
                    "x-trace": {"span": 42}
                }));
                let read = lossless::<rev::ReadResourceResult>(result.clone());
                assert_eq!(read.extra["x-trace"], json!({"span": 42}));
                let rev::ReadResourceResultContentsItem::TextResourceContents(ref text) =
                    read.contents[0]
                else {
                    panic!("{:?}", read.contents[0]);
                };
                assert_eq!(text.extra["name"], json!("main.rs"));
                assert_eq!(
                    text.extra["title"],
                    json!("Rust Software Application Main File")
                );
                assert!(matches!(
                    read.contents[1],
                    rev::ReadResourceResultContentsItem::BlobResourceContents(_)
                ));
                lossless::<rev::ServerResult>(result.clone());
                let response =
                    json!({"jsonrpc": "2.0", "id": "req-1", "result": result, "x-hop": 1});
                let response_type = if WIRE.enveloped() {
                    "JSONRPCResultResponse"
                } else {
                    "JSONRPCResponse"
                };
                let (back, _) = table::parse(response_type, response.clone())
                    .unwrap()
                    .unwrap();
                assert_eq!(back, response);

                let request = WIRE.request(
                    json!("abc"),
                    "resources/read",
                    json!({"uri": "file:///a.txt", "x-hint": {"deep": {"deeper": [true]}}}),
                );
                let mut request = request;
                request["x-envelope"] = json!("kept");
                lossless::<rev::ClientRequest>(request.clone());
                lossless::<rev::ReadResourceRequest>(request);
            }

            #[test]
            fn meta_survives_everywhere() {
                let meta = json!({
                    "progressToken": 7,
                    "com.example/trace": {"id": "t-1", "sampled": true}
                });
                let request = WIRE.request(
                    json!(1),
                    "resources/read",
                    json!({"uri": "file:///a.txt", "_meta": meta}),
                );
                lossless::<rev::ClientRequest>(request.clone());
                let mut envelope = request.clone();
                envelope["jsonrpc"] = json!("2.0");
                envelope["id"] = json!(1);
                lossless::<rev::JsonRpcRequest>(envelope);

                let block_meta = json!({"com.example/origin": "cache", "weight": 0.25});
                let result = WIRE.cacheable(json!({
                    "_meta": {"com.example/elapsedMs": 12},
                    "contents": [{"uri": "file:///a.txt", "text": "hi", "_meta": block_meta}]
                }));
                lossless::<rev::ServerResult>(result);
                let tool_result = WIRE.result(json!({
                    "_meta": {"com.example/elapsedMs": 3},
                    "content": [
                        {"type": "text", "text": "ok", "_meta": block_meta},
                        {
                            "type": "resource",
                            "resource": {"uri": "file:///b", "blob": "aGk=", "_meta": block_meta},
                            "_meta": block_meta
                        }
                    ]
                }));
                lossless::<rev::CallToolResult>(tool_result);
                let notification = WIRE.notification(
                    "notifications/resources/list_changed",
                    json!({"_meta": {"com.example/reason": "reindex"}}),
                );
                lossless::<rev::ServerNotification>(notification);
            }

            #[test]
            fn numbers_keep_their_form() {
                for (progress, total) in [
                    (json!(10), json!(100)),
                    (json!(1.5), json!(2.5)),
                    (json!(0), json!(1e3)),
                ] {
                    let notification = WIRE.notification(
                        "notifications/progress",
                        json!({"progressToken": 7, "progress": progress, "total": total}),
                    );
                    let parsed = lossless::<rev::ProgressNotification>(notification.clone());
                    assert_eq!(parsed.params.progress.to_string(), progress.to_string());
                    assert_eq!(
                        parsed.params.progress_token,
                        mcp_spec_types::ProgressToken::Integer(7)
                    );
                    let text = serde_json::to_string(&parsed).unwrap();
                    assert!(text.contains(&format!("\"progress\":{progress}")), "{text}");
                    lossless::<rev::ServerNotification>(notification);
                }
                let written = serde_json::to_string(&lossless::<rev::ProgressNotification>(
                    WIRE.notification(
                        "notifications/progress",
                        json!({"progressToken": "p", "progress": 10}),
                    ),
                ))
                .unwrap();
                assert!(
                    written.contains("\"progress\":10") && !written.contains("10.0"),
                    "{written}"
                );
                // Request ids keep their kind: 1 and "1" are different ids.
                for id in [json!(1), json!("1")] {
                    let request = WIRE.request(id.clone(), "resources/list", json!({}));
                    let mut envelope = request.clone();
                    envelope["jsonrpc"] = json!("2.0");
                    envelope["id"] = id.clone();
                    let parsed = lossless::<rev::JsonRpcRequest>(envelope);
                    assert_eq!(serde_json::to_value(&parsed.id).unwrap(), id);
                }
            }

            #[test]
            fn optional_arrays_keep_absent_and_empty_apart() {
                let absent = lossless::<rev::Prompt>(json!({"name": "code_review"}));
                assert!(absent.arguments.is_none());
                let empty =
                    lossless::<rev::Prompt>(json!({"name": "code_review", "arguments": []}));
                assert_eq!(empty.arguments.map(|a| a.len()), Some(0));
                let one = lossless::<rev::Prompt>(json!({
                    "name": "code_review",
                    "arguments": [{"name": "code", "required": true}]
                }));
                assert_eq!(one.arguments.map(|a| a.len()), Some(1));
                // A required array may be empty too.
                lossless::<rev::ListPromptsResult>(WIRE.cacheable(json!({"prompts": []})));
            }

            #[test]
            fn null_is_not_an_absent_optional_member() {
                let error = rejected::<rev::Prompt>(json!({"name": "p", "arguments": null}));
                assert!(error.contains("invalid type: null"), "{error}");
            }
        }
    };
}

for_each_revision!(construction_tests);

/// Hand-written checks of the union and constant defects this suite found (fixed since: arms
/// told apart by their enum members, by required members one level down and by scalar arms
/// that are unions; constants inside `allOf` refinements enforced), with payloads from the
/// specification's elicitation, batching, error and result sections; plus the counterparts that
/// always worked.
mod defects {
    use super::*;

    macro_rules! boolean_schema {
        ($feature:literal, $module:ident) => {
            #[cfg(feature = $feature)]
            #[test]
            fn $module() {
                use mcp_spec_types::$module as rev;
                let boolean = json!({"type": "boolean", "title": "Subscribe", "default": false});
                let parsed = lossless::<rev::PrimitiveSchemaDefinition>(boolean);
                assert!(
                    matches!(parsed, rev::PrimitiveSchemaDefinition::BooleanSchema(_)),
                    "{parsed:?}"
                );
            }
        };
    }

    mod boolean_schema_is_a_primitive_schema {
        use super::*;
        boolean_schema!("v2025_06_18", v2025_06_18);
        boolean_schema!("v2025_11_25", v2025_11_25);
        boolean_schema!("v2026_07_28", v2026_07_28);
        boolean_schema!("unstable-draft", draft);
    }

    macro_rules! titled_multi_select {
        ($feature:literal, $module:ident) => {
            #[cfg(feature = $feature)]
            #[test]
            fn $module() {
                use mcp_spec_types::$module as rev;
                let colors = json!({
                    "type": "array",
                    "title": "Colors",
                    "items": {"anyOf": [
                        {"const": "#FF0000", "title": "Red"},
                        {"const": "#00FF00", "title": "Green"}
                    ]},
                    "default": ["#FF0000"]
                });
                let parsed = lossless::<rev::PrimitiveSchemaDefinition>(colors.clone());
                assert!(
                    matches!(
                        parsed,
                        rev::PrimitiveSchemaDefinition::TitledMultiSelectEnumSchema(_)
                    ),
                    "{parsed:?}"
                );
                let parsed = lossless::<rev::EnumSchema>(colors);
                assert!(
                    matches!(parsed, rev::EnumSchema::TitledMultiSelectEnumSchema(_)),
                    "{parsed:?}"
                );
            }
        };
    }

    mod titled_multi_select_is_a_primitive_schema {
        use super::*;
        titled_multi_select!("v2025_11_25", v2025_11_25);
        titled_multi_select!("v2026_07_28", v2026_07_28);
        titled_multi_select!("unstable-draft", draft);
    }

    macro_rules! elicitation_answers {
        ($feature:literal, $module:ident) => {
            #[cfg(feature = $feature)]
            #[test]
            fn $module() {
                use mcp_spec_types::$module as rev;
                let answer = json!({
                    "action": "accept",
                    "content": {"name": "octocat", "age": 30, "subscribe": true, "colors": ["red"]}
                });
                let parsed = lossless::<rev::ElicitResult>(answer);
                assert_eq!(parsed.content.map(|c| c.len()), Some(4));
            }
        };
    }

    mod elicitation_answers_may_be_scalars {
        use super::*;
        elicitation_answers!("v2025_11_25", v2025_11_25);
        elicitation_answers!("v2026_07_28", v2026_07_28);
        elicitation_answers!("unstable-draft", draft);

        /// 2025-06-18 declares the values as `type: [string, integer, boolean]` with no union,
        /// and reads them.
        #[cfg(feature = "v2025_06_18")]
        #[test]
        fn v2025_06_18_reads_them() {
            use mcp_spec_types::v2025_06_18 as rev;
            let answer = json!({
                "action": "accept",
                "content": {"name": "octocat", "age": 30, "subscribe": true}
            });
            lossless::<rev::ElicitResult>(answer);
        }

        /// String arrays, the other arm, are read.
        #[cfg(feature = "v2025_11_25")]
        #[test]
        fn v2025_11_25_reads_string_arrays() {
            use mcp_spec_types::v2025_11_25 as rev;
            let answer = json!({"action": "accept", "content": {"colors": ["red", "green"]}});
            lossless::<rev::ElicitResult>(answer);
        }
    }

    macro_rules! results_with_meta {
        ($feature:literal, $module:ident) => {
            #[cfg(feature = $feature)]
            #[test]
            fn $module() {
                use mcp_spec_types::$module as rev;
                let plain = json!({
                    "resultType": "complete",
                    "_meta": {
                        "io.modelcontextprotocol/serverInfo": {"name": "srv", "version": "1.0.0"}
                    }
                });
                let parsed = lossless::<rev::ServerResult>(plain);
                assert!(matches!(parsed, rev::ServerResult::Result(_)), "{parsed:?}");
                let tool = json!({
                    "resultType": "complete",
                    "content": [{"type": "text", "text": "72°F and sunny"}],
                    "_meta": {"com.example/elapsedMs": 12}
                });
                let parsed = lossless::<rev::ServerResult>(tool);
                assert!(
                    matches!(parsed, rev::ServerResult::CallToolResult(_)),
                    "{parsed:?}"
                );
            }
        };
    }

    mod results_with_meta_are_read_as_their_own_arm {
        use super::*;
        results_with_meta!("v2026_07_28", v2026_07_28);
        results_with_meta!("unstable-draft", draft);

        /// Without `_meta` the same tool result is read as its own arm.
        #[cfg(feature = "v2026_07_28")]
        #[test]
        fn without_meta_it_is() {
            use mcp_spec_types::v2026_07_28 as rev;
            let tool = json!({
                "resultType": "complete",
                "content": [{"type": "text", "text": "72°F and sunny"}]
            });
            let parsed = lossless::<rev::ServerResult>(tool);
            assert!(
                matches!(parsed, rev::ServerResult::CallToolResult(_)),
                "{parsed:?}"
            );
        }
    }

    #[cfg(feature = "v2025_03_26")]
    mod batches {
        use super::*;
        use mcp_spec_types::v2025_03_26 as rev;

        #[test]
        fn a_batch_of_responses_is_a_batch_response() {
            let batch = json!([
                {"jsonrpc": "2.0", "id": 1, "result": {}},
                {
                    "jsonrpc": "2.0",
                    "id": 2,
                    "error": {"code": -32601, "message": "Method not found"}
                }
            ]);
            let parsed = lossless::<rev::JsonRpcMessage>(batch);
            assert!(
                matches!(parsed, rev::JsonRpcMessage::Variant5(_)),
                "{parsed:?}"
            );
        }

        #[test]
        fn a_batch_of_requests_is_a_batch_request() {
            let batch = json!([
                {"jsonrpc": "2.0", "id": 1, "method": "ping"},
                {"jsonrpc": "2.0", "method": "notifications/initialized"}
            ]);
            let parsed = lossless::<rev::JsonRpcMessage>(batch);
            assert!(
                matches!(parsed, rev::JsonRpcMessage::Variant2(_)),
                "{parsed:?}"
            );
            // The batch response definition itself reads responses.
            lossless::<rev::JsonRpcBatchResponse>(
                json!([{"jsonrpc": "2.0", "id": 1, "result": {}}]),
            );
        }
    }

    #[cfg(feature = "v2025_11_25")]
    #[test]
    fn url_elicitation_required_error_code_is_a_constant() {
        use mcp_spec_types::v2025_11_25 as rev;
        let wrong = json!({
            "jsonrpc": "2.0",
            "id": 2,
            "error": {
                "code": -32600,
                "message": "This request requires more information.",
                "data": {"elicitations": []}
            }
        });
        let error = rejected::<rev::UrlElicitationRequiredError>(wrong);
        assert!(
            error.contains("`code`") && error.contains("-32042"),
            "{error}"
        );
    }

    #[cfg(feature = "v2026_07_28")]
    #[test]
    fn header_mismatch_error_code_is_a_constant() {
        use mcp_spec_types::v2026_07_28 as rev;
        let wrong = json!({
            "jsonrpc": "2.0",
            "id": 2,
            "error": {"code": -32600, "message": "Mcp-Method header does not match the body"}
        });
        let error = rejected::<rev::HeaderMismatchError>(wrong);
        assert!(
            error.contains("`code`") && error.contains("-32020"),
            "{error}"
        );
    }
}

/// What `new` takes, by the rule `docs/engines.md` states, computed from the schema alone: the
/// required members the schema does not fix to one string or integer (those are constants,
/// written by the type itself), first the ones that name or carry the thing, then the rest
/// alphabetically, then the cache hints and `resultType`.
#[allow(dead_code)] // Unused in a build with no revision enabled.
fn expected_new_arguments(root: &Value, schema: &Value) -> Vec<String> {
    const LEADING: &[&str] = &[
        "uri",
        "uriTemplate",
        "name",
        "text",
        "blob",
        "data",
        "mimeType",
        "resource",
    ];
    const TRAILING: &[&str] = &["ttlMs", "cacheScope", "resultType"];
    // An `allOf` (2025-11-25's `GetTaskResult`: a result and a task) requires what each of
    // its parts requires.
    fn collect(
        root: &Value,
        schema: &Value,
        properties: &mut Map<String, Value>,
        required: &mut Vec<String>,
    ) {
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            let name = target.rsplit('/').next().unwrap_or_default();
            return collect(root, &definitions(root)[name], properties, required);
        }
        for part in schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            collect(root, part, properties, required);
        }
        if let Some(declared) = schema.get("properties").and_then(Value::as_object) {
            properties.extend(declared.clone());
        }
        for member in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(member) = member.as_str().filter(|m| !required.iter().any(|r| r == m)) {
                required.push(member.to_owned());
            }
        }
    }
    let (mut properties, mut required) = (Map::new(), Vec::new());
    collect(root, schema, &mut properties, &mut required);
    required.retain(|member| {
        let constant = properties.get(member).and_then(|p| p.get("const"));
        !constant.is_some_and(|c| c.is_string() || c.is_i64() || c.is_u64())
    });
    let key = |member: &str| {
        if let Some(at) = LEADING.iter().position(|l| *l == member) {
            (0, at, String::new())
        } else if let Some(at) = TRAILING.iter().position(|t| *t == member) {
            (2, at, String::new())
        } else {
            (1, 0, member.to_owned())
        }
    };
    required.sort_by_key(|m| key(m));
    required
}

/// What a `number` member's setter takes (`IntoNumber`): an integer stays an integer, a float
/// keeps the value its literal wrote, and a float JSON cannot write is no number.
mod into_number {
    use mcp_spec_types::IntoNumber;

    #[test]
    fn integers_stay_integers_and_floats_keep_their_value() {
        assert_eq!(7u8.into_number().map(|n| n.to_string()), Some("7".into()));
        assert_eq!((-3i64).into_number().and_then(|n| n.as_i64()), Some(-3));
        assert_eq!(
            u64::MAX.into_number().and_then(|n| n.as_u64()),
            Some(u64::MAX)
        );
        assert_eq!(0.5f64.into_number().and_then(|n| n.as_f64()), Some(0.5));
        assert_eq!(
            0.1f32.into_number().map(|n| n.to_string()),
            Some("0.1".into())
        );
    }

    #[test]
    fn a_float_json_cannot_write_gives_none() {
        assert_eq!(f64::NAN.into_number(), None);
        assert_eq!(f64::INFINITY.into_number(), None);
        assert_eq!(f32::NEG_INFINITY.into_number(), None);
    }
}
