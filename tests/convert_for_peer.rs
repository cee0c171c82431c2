//! Conversion *for a peer* (feature `convert`), for every pair of enabled revisions.
//!
//! - Every definition two revisions share, generated for the newer one (required members
//!   only, every member, each union arm; those its own closed schema accepts) and converted
//!   for a peer of the older one, validates
//!   against the older revision's *closed* schema (`common::closed`): no member the older
//!   revision lacks is left. What the lossless conversion refuses is refused alike. The counts
//!   per pair are printed:
//!   `for a peer <newer> -> <older>: <shared> shared, <values> values, <refused> refused, <dropped> dropped`
//! - Property: members no revision defines, added anywhere in such a value, are kept (unless
//!   inside a member that is dropped), and nothing else is left that the closed schema rejects.
//! - The lossless round trip is `tests/convert.rs`'s, unchanged.
#![cfg(feature = "convert")]
#![cfg_attr(
    not(all(feature = "all-revisions", feature = "unstable-draft")),
    allow(dead_code, unused_imports, unused_variables, unused_macros)
)]

use crate::common;

use common::closed::closed_document;
use common::instances::{instance, instance_of_arm, Mode};
use common::{at, definition_pointer, definitions, load_schema, validator, violations};
use mcp_spec_types::convert::{convert_value, convert_value_for_peer};
use mcp_spec_types::ProtocolVersion;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

fn show(line: &str) {
    use std::io::Write;
    println!("{line}");
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Enabled revisions, oldest first.
fn enabled() -> Vec<ProtocolVersion> {
    let mut versions: Vec<ProtocolVersion> = ProtocolVersion::SUPPORTED.to_vec();
    versions.sort();
    versions
}

fn roots() -> &'static BTreeMap<String, Value> {
    static ROOTS: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    ROOTS.get_or_init(|| {
        enabled()
            .iter()
            .map(|v| (v.as_str().to_owned(), load_schema(v.as_str())))
            .collect()
    })
}

/// The closed-schema validator of `definition` in `revision`, compiled once.
fn closed_validator(revision: &str, definition: &str) -> Arc<jsonschema::Validator> {
    type Cache = Mutex<BTreeMap<(String, String), Arc<jsonschema::Validator>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (revision.to_owned(), definition.to_owned());
    if let Some(found) = cache.lock().unwrap().get(&key) {
        return found.clone();
    }
    let root = &roots()[revision];
    let closed = closed_document(root, definition);
    let compiled = Arc::new(validator(&closed, &definition_pointer(&closed, definition)));
    cache.lock().unwrap().insert(key, compiled.clone());
    compiled
}

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

/// One generated value: converted from `newer` to `older` as `definition`.
#[derive(Debug, Clone)]
struct Case {
    newer: ProtocolVersion,
    older: ProtocolVersion,
    definition: String,
    value: Value,
}

fn cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let versions = enabled();
        let mut out = Vec::new();
        for (index, older) in versions.iter().enumerate() {
            for newer in &versions[index + 1..] {
                let (source, target) = (&roots()[newer.as_str()], &roots()[older.as_str()]);
                for definition in definitions(source).keys() {
                    if !definitions(target).contains_key(definition) {
                        continue;
                    }
                    let source_closed = closed_validator(newer.as_str(), definition);
                    for value in instances(source, definition) {
                        // A generated value with members its own revision's closed schema
                        // lacks (free JSON merged into a place an `allOf` part closes) carries
                        // the user's members, which are kept by design: the property below
                        // covers those.
                        if !violations(&source_closed, &value).is_empty() {
                            continue;
                        }
                        out.push(Case {
                            newer: newer.clone(),
                            older: older.clone(),
                            definition: definition.clone(),
                            value,
                        });
                    }
                }
            }
        }
        out
    })
}

#[derive(Default)]
struct Tally {
    shared: std::collections::BTreeSet<String>,
    values: usize,
    refused: usize,
    dropped: usize,
}

#[test]
fn every_shared_definition_for_a_peer_fits_the_older_closed_schema() {
    let mut failures = Vec::new();
    let mut tallies: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for case in cases() {
        let Case {
            newer,
            older,
            definition,
            value,
        } = case;
        let tally = tallies
            .entry((newer.as_str().to_owned(), older.as_str().to_owned()))
            .or_default();
        tally.shared.insert(definition.clone());
        tally.values += 1;
        let what = format!("{definition} {newer} -> {older}: {value}");
        let lossless = convert_value(definition, newer, older, value);
        let peer = convert_value_for_peer(definition, newer, older, value);
        match (lossless, peer) {
            (Some(Ok(_)), Some(Ok(converted))) => {
                tally.dropped += converted.dropped.len();
                let problems = violations(
                    &closed_validator(older.as_str(), definition),
                    &converted.value,
                );
                if !problems.is_empty() {
                    failures.push(format!(
                        "{what}: converted for a peer to {}, which the closed schema rejects: {problems:?}",
                        converted.value
                    ));
                }
            }
            (Some(Err(a)), Some(Err(b))) => {
                tally.refused += 1;
                if a != b {
                    failures.push(format!("{what}: refused otherwise: {a} / {b}"));
                }
            }
            (a, b) => failures.push(format!("{what}: lossless {a:?}, for a peer {b:?}")),
        }
    }
    for ((newer, older), tally) in &tallies {
        show(&format!(
            "for a peer {newer} -> {older}: {} shared, {} values, {} refused, {} dropped",
            tally.shared.len(),
            tally.values,
            tally.refused,
            tally.dropped
        ));
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    if cfg!(feature = "all-revisions") {
        assert!(tallies.len() >= 10, "{:?}", tallies.keys());
        assert!(
            tallies.values().map(|t| t.dropped).sum::<usize>() > 0,
            "nothing was dropped"
        );
    }
}

/// Every object in `value`: its JSON pointer and its path as the conversion reports paths.
fn objects(value: &Value, pointer: &str, path: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            out.push((pointer.to_owned(), path.to_owned()));
            for (key, child) in map {
                let pointer = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                let path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                objects(child, &pointer, &path, out);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                objects(
                    child,
                    &format!("{pointer}/{index}"),
                    &format!("{path}[{index}]"),
                    out,
                );
            }
        }
        _ => {}
    }
}

/// A member name no revision defines.
fn extension(index: usize) -> String {
    format!("com.example/ext{index}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn members_no_revision_defines_are_kept(
        case in any::<prop::sample::Index>(),
        places in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
    ) {
        let all = cases();
        prop_assume!(!all.is_empty());
        let case = case.get(all);
        let mut value = case.value.clone();
        let mut found = Vec::new();
        objects(&value, "", "", &mut found);
        prop_assume!(!found.is_empty());
        let mut added = Vec::new();
        for (index, place) in places.iter().enumerate() {
            let (pointer, path) = place.get(&found).clone();
            let name = extension(index);
            if let Some(Value::Object(map)) = value.pointer_mut(&pointer) {
                map.insert(name.clone(), json!({"kept": index}));
                let path = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
                added.push((format!("{pointer}/{}", name.replace('/', "~1")), path));
            }
        }
        let lossless = convert_value(&case.definition, &case.newer, &case.older, &value);
        let peer = convert_value_for_peer(&case.definition, &case.newer, &case.older, &value);
        match (lossless, peer) {
            (Some(Ok(_)), Some(Ok(converted))) => {
                let mut out = converted.value.clone();
                for (index, (pointer, path)) in added.iter().enumerate() {
                    prop_assert!(
                        !converted.dropped.contains(path),
                        "{path} reported dropped: {:?}", converted.dropped
                    );
                    let inside_dropped = converted.dropped.iter().any(|d| {
                        path.starts_with(&format!("{d}.")) || path.starts_with(&format!("{d}["))
                    });
                    if !inside_dropped {
                        prop_assert_eq!(
                            out.pointer(pointer),
                            Some(&json!({"kept": index})),
                            "{} lost in {}", path, converted.value
                        );
                    }
                }
                // What is left once the user's own members are taken out again fits the
                // closed schema.
                for (pointer, _) in &added {
                    let (parent, name) = pointer.rsplit_once('/').unwrap();
                    if let Some(Value::Object(map)) = out.pointer_mut(parent) {
                        map.remove(&name.replace("~1", "/").replace("~0", "~"));
                    }
                }
                let problems = violations(
                    &closed_validator(case.older.as_str(), &case.definition),
                    &out,
                );
                prop_assert!(
                    problems.is_empty(),
                    "{} {} -> {}: {} gave {}: {:?}",
                    case.definition, case.newer, case.older, value, out, problems
                );
            }
            (Some(Err(a)), Some(Err(b))) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "lossless {:?}, for a peer {:?}", a, b),
        }
    }
}

/// The documented cases of `convert::peer`, one each.
#[cfg(all(
    feature = "v2024_11_05",
    feature = "v2025_06_18",
    feature = "v2025_11_25",
    feature = "v2026_07_28"
))]
mod cases {
    use mcp_spec_types::convert::{convert_result_for_peer, convert_value_for_peer, ConvertTo};
    use mcp_spec_types::dispatch::PendingRequest;
    use mcp_spec_types::ProtocolVersion;
    use mcp_spec_types::{v2024_11_05 as v1, v2025_11_25 as v4, v2026_07_28 as v5};
    use serde_json::{json, value::RawValue};

    fn version(name: &str) -> ProtocolVersion {
        ProtocolVersion::from(name)
    }

    #[test]
    fn a_capability_the_peer_lacks_is_dropped() {
        // What the conformance server announced to 2024-11-05 clients.
        let result = json!({
            "protocolVersion": "2024-11-05",
            "capabilities": {"completions": {}, "logging": {}, "tools": {"listChanged": true}},
            "serverInfo": {"name": "s", "version": "1", "title": "S"}
        });
        let sent = convert_value_for_peer(
            "InitializeResult",
            &version("2025-11-25"),
            &version("2024-11-05"),
            &result,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            sent.dropped,
            ["capabilities.completions", "serverInfo.title"]
        );
        assert_eq!(
            sent.value["capabilities"],
            json!({"logging": {}, "tools": {"listChanged": true}})
        );
        // Lossless keeps both, for a round trip.
        let kept = mcp_spec_types::convert::convert_value(
            "InitializeResult",
            &version("2025-11-25"),
            &version("2024-11-05"),
            &result,
        )
        .unwrap()
        .unwrap();
        assert_eq!(kept, result);
    }

    #[test]
    fn members_inside_content_blocks_and_users_members_are_told_apart() {
        let result = json!({
            "content": [{
                "type": "text", "text": "hi",
                "annotations": {"audience": ["user"], "lastModified": "2025-01-01T00:00:00Z"},
                "com.example/mine": 1
            }],
            "structuredContent": {"title": "kept: free JSON"},
            "isError": false
        });
        let sent = convert_value_for_peer(
            "CallToolResult",
            &version("2025-11-25"),
            &version("2024-11-05"),
            &result,
        )
        .unwrap()
        .unwrap();
        // `lastModified` is 2025-06-18's, `structuredContent` too; the user's member is no
        // revision's and stays, and nothing inside `structuredContent` is looked at.
        assert_eq!(
            sent.dropped,
            ["content[0].annotations.lastModified", "structuredContent"]
        );
        assert_eq!(sent.value["content"][0]["com.example/mine"], 1);
    }

    #[test]
    fn a_content_block_the_peer_lacks_is_refused() {
        let result = v4::CallToolResult {
            content: vec![v4::ContentBlock::resource_link("file:///a.txt", "a")],
            is_error: None,
            meta: None,
            structured_content: None,
            extra: Default::default(),
        };
        let error = ConvertTo::<v1::CallToolResult>::convert_for_peer(&result).unwrap_err();
        assert_eq!(error.path(), "content[0].type");
    }

    fn read_result(json: &str) -> (PendingRequest, v5::ClientCallResult) {
        let request = PendingRequest::without_task("resources/read");
        let raw = RawValue::from_string(json.to_owned()).unwrap();
        let result = v5::ClientCallResult::parse(&request, &raw).unwrap();
        (request, result)
    }

    #[test]
    fn a_result_asking_for_input_is_refused_for_a_stateful_peer() {
        let (request, result) =
            read_result(r#"{"resultType":"input_required","requestState":"opaque"}"#);
        let error = convert_result_for_peer::<v5::ClientCall, v4::ClientCall>(&result, &request)
            .unwrap_err();
        assert_eq!(error.path(), "resultType");
        assert!(error.reason().contains("input_required"), "{error}");
        // A complete result loses what 2025-11-25 does not define, and nothing else.
        let (request, result) = read_result(
            r#"{"resultType":"complete","ttlMs":0,"cacheScope":"private",
                "contents":[{"uri":"file:///a","text":"a","com.example/mine":true}]}"#,
        );
        let sent =
            convert_result_for_peer::<v5::ClientCall, v4::ClientCall>(&result, &request).unwrap();
        assert_eq!(sent.dropped, ["cacheScope", "resultType", "ttlMs"]);
        let json = serde_json::to_value(&sent.value).unwrap();
        assert_eq!(
            json,
            json!({"contents":[{"uri":"file:///a","text":"a","com.example/mine":true}]})
        );
    }
}
