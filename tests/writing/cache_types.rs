//! The cache hints and the result kind are one hand-written type each (`cache::CacheScope`,
//! `cache::ResultType`), used by every generated result of every revision that has them: held
//! here to each bundled schema's own values.

use serde_json::Value;
use std::path::PathBuf;

/// Every bundled schema, by directory.
fn schemas() -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("schema/") {
        let path = entry.expect("an entry").path().join("schema.json");
        if let Ok(text) = std::fs::read_to_string(&path) {
            let name = path
                .parent()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned());
            out.push((
                name.unwrap_or_default(),
                serde_json::from_str(&text).expect("a schema"),
            ));
        }
    }
    out
}

/// Every inline schema of a member named `member`, in every definition.
fn members<'a>(schema: &'a Value, member: &str) -> Vec<(&'a str, &'a Value)> {
    let definitions = schema.get("$defs").or_else(|| schema.get("definitions"));
    definitions
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(name, definition)| {
            Some((name.as_str(), definition.get("properties")?.get(member)?))
        })
        .collect()
}

#[test]
fn every_cache_scope_of_every_schema_has_the_values_of_cache_scope() {
    use mcp_spec_types::cache::CacheScope;
    let ours: Vec<Value> = [CacheScope::Private, CacheScope::Public]
        .iter()
        .map(|scope| serde_json::to_value(scope).expect("a scope writes"))
        .collect();
    let mut seen = 0;
    for (revision, schema) in schemas() {
        for (definition, member) in members(&schema, "cacheScope") {
            let mut values = member["enum"].as_array().cloned().unwrap_or_default();
            values.sort_by_key(Value::to_string);
            assert_eq!(values, ours, "{revision}: {definition}.cacheScope");
            seen += 1;
        }
    }
    // 2026-07-28 and the draft: seven results each.
    assert!(seen >= 14, "{seen} cacheScope members");
    for value in &ours {
        let scope: CacheScope = serde_json::from_value(value.clone()).expect("reads back");
        assert_eq!(Value::from(scope.as_str()), *value);
    }
    assert!(serde_json::from_value::<CacheScope>(Value::from("shared")).is_err());
}

#[test]
fn every_result_type_of_every_schema_is_the_result_type_definition() {
    use mcp_spec_types::cache::ResultType;
    let mut seen = 0;
    for (revision, schema) in schemas() {
        let definitions = schema.get("$defs").or_else(|| schema.get("definitions"));
        let Some(named) = definitions.and_then(|d| d.get("ResultType")) else {
            assert!(members(&schema, "resultType").is_empty(), "{revision}");
            continue;
        };
        assert_eq!(
            named["type"], "string",
            "{revision}: the kind stays an open string"
        );
        let description = named["description"].as_str().unwrap_or_default();
        for kind in [ResultType::COMPLETE, ResultType::INPUT_REQUIRED] {
            assert!(
                description.contains(&format!("\n{kind} - ")),
                "{revision}: {kind}"
            );
        }
        for (definition, member) in members(&schema, "resultType") {
            assert_eq!(
                member["type"], "string",
                "{revision}: {definition}.resultType"
            );
            seen += 1;
        }
    }
    assert!(seen >= 20, "{seen} resultType members");
    // An unknown kind is kept, as the open string it is.
    let later: ResultType = serde_json::from_value(Value::from("streaming")).expect("reads");
    assert_eq!(later, "streaming");
    assert_eq!(
        serde_json::to_value(&later).expect("writes"),
        Value::from("streaming")
    );
}

/// Whether a schema's definitions name `kind` as a `resultType` value. The schema names the
/// values only in `ResultType`'s description, one per line, as "<value> - <meaning>".
fn describes_result_type(definitions: &Value, kind: &str) -> bool {
    definitions["ResultType"]["description"]
        .as_str()
        .is_some_and(|text| text.contains(&format!("\n{kind} - ")))
}

#[test]
fn hints_go_only_where_declared_and_absent() {
    use mcp_spec_types::cache::{CacheHint, CACHE_SCOPE, RESULT_TYPE, TTL_MS};
    use serde_json::Map;
    let mut result = Map::new();
    result.insert(TTL_MS.into(), Value::from(5));
    CacheHint::public(9).complete_into(&mut result, &[RESULT_TYPE, TTL_MS, CACHE_SCOPE]);
    assert_eq!(result[TTL_MS], 5, "the handler's own ttlMs wins");
    assert_eq!(result[CACHE_SCOPE], "public");
    assert_eq!(result[RESULT_TYPE], "complete");

    let mut call_result = Map::new();
    CacheHint::UNCACHED.complete_into(&mut call_result, &[RESULT_TYPE, "content"]);
    assert!(!call_result.contains_key(TTL_MS));
    assert!(!call_result.contains_key(CACHE_SCOPE));
    assert_eq!(call_result[RESULT_TYPE], "complete");
}

#[test]
fn default_is_uncached_private() {
    use mcp_spec_types::cache::{CacheHint, CacheScope};
    assert_eq!(CacheHint::default().ttl_ms, 0);
    assert_eq!(CacheHint::default().scope, CacheScope::Private);
    assert_eq!(CacheHint::private(3).scope.as_str(), "private");
}

/// The member names and values `cache` types as constants are the schema's: every schema with
/// cacheable results declares them where the module uses them (a bump that renames one fails
/// here, not in a peer).
#[test]
fn names_and_values_are_the_schemas() {
    use mcp_spec_types::cache::{
        CacheScope, CACHE_SCOPE, RESULT_TYPE, RESULT_TYPE_COMPLETE, TTL_MS,
    };
    use mcp_spec_types::ProtocolVersion;
    let mut cacheable_in = Vec::new();
    for (revision, schema) in schemas() {
        let definitions = schema.get("$defs").unwrap_or(&schema["definitions"]);
        let Some(cacheable) = definitions.get("CacheableResult") else {
            continue;
        };
        let cacheable = &cacheable["properties"];
        let result = &definitions["Result"]["properties"];
        assert!(
            result.get(RESULT_TYPE).is_some(),
            "{revision}: {RESULT_TYPE}"
        );
        assert_eq!(cacheable[TTL_MS]["type"], "integer", "{revision}: {TTL_MS}");
        let mut scopes: Vec<&str> = cacheable[CACHE_SCOPE]["enum"]
            .as_array()
            .map(|values| values.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        scopes.sort_unstable();
        assert_eq!(
            scopes,
            [CacheScope::Private.as_str(), CacheScope::Public.as_str()],
            "{revision}: {CACHE_SCOPE}"
        );
        assert!(
            describes_result_type(definitions, RESULT_TYPE_COMPLETE),
            "{revision}: {RESULT_TYPE_COMPLETE}"
        );
        cacheable_in.push(ProtocolVersion::from(revision.as_str()));
    }
    assert!(cacheable_in.contains(&ProtocolVersion::V2026_07_28));
}

/// The generated results hold these types, not strings or per-result enums (a compile-time
/// check: each function only builds if the field has the shared type).
#[cfg(feature = "v2026_07_28")]
#[allow(dead_code)]
mod generated_fields {
    use mcp_spec_types::cache::{CacheScope, ResultType};
    use mcp_spec_types::v2026_07_28 as rev;

    fn scope_of_list(result: &rev::ListToolsResult) -> CacheScope {
        result.cache_scope
    }
    fn scope_of_discover(result: &rev::DiscoverResult) -> CacheScope {
        result.cache_scope
    }
    fn kind_of_call(result: &rev::CallToolResult) -> &ResultType {
        &result.result_type
    }
    fn kind_of_input_required(result: &rev::InputRequiredResult) -> &ResultType {
        &result.result_type
    }
}

/// Which results take cache hints is read from the generated result members (the module names
/// no revision, so the check on one revision's method table is here).
#[cfg(feature = "v2026_07_28")]
#[test]
fn cacheable_results_follow_the_schema() {
    use mcp_spec_types::cache::{declared_members, is_cacheable, RESULT_TYPE};
    use mcp_spec_types::v2026_07_28::ClientCall;
    for method in [
        "server/discover",
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "resources/read",
    ] {
        assert!(is_cacheable::<ClientCall>(method), "{method}");
    }
    for method in ["tools/call", "prompts/get", "completion/complete"] {
        assert!(!is_cacheable::<ClientCall>(method), "{method}");
        assert!(declared_members::<ClientCall>(method).contains(&RESULT_TYPE));
    }
}
