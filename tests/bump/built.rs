//! Bumped copies of the crate, built: what the bump writes must compile, with the default
//! features, into a crate that does what the schema says. Each build compiles only the copy
//! (its build script, its library and one program); see `copy::build_copy`.

use crate::copy::{add_program, buildable_copy, run_program, todays_file};
use crate::{bump, bump_of, TOOL_NAME_PATTERN};
use serde_json::{json, Value};

/// What the specification's next schema adds (its open change adding type constraints, in
/// kind: bounds on a top-level definition, on properties, on array items, an integer with
/// `minimum: 1`, a `maximum` on `ttlMs` and `pattern`s), laid over today's draft.
fn with_next_constraints(file: &[u8]) -> Vec<u8> {
    let mut schema: Value = serde_json::from_slice(file).unwrap();
    let defs = schema["$defs"]
        .as_object_mut()
        .expect("the draft has $defs");
    defs["Cursor"]["maxLength"] = json!(CURSOR_MAX);
    for definition in defs.values_mut() {
        let Some(properties) = definition
            .get_mut("properties")
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        for (name, property) in properties.iter_mut() {
            match name.as_str() {
                // Written out like `Cursor`, so they stay one type with it.
                "cursor" | "nextCursor" => property["maxLength"] = json!(CURSOR_MAX),
                "ttlMs" => property["maximum"] = json!(TTL_MAX),
                _ => {}
            }
        }
    }
    defs["Tool"]["properties"]["name"]["pattern"] = json!(TOOL_NAME_PATTERN);
    defs["Icon"]["properties"]["sizes"]["items"]["pattern"] = json!("^([0-9]+x[0-9]+|any)$");
    defs["CompleteResult"]["properties"]["completion"]["properties"]["total"]["minimum"] = json!(1);
    serde_json::to_vec_pretty(&schema).unwrap()
}

const CURSOR_MAX: u64 = 64;
const TTL_MAX: u64 = 86_400_000;

/// Reads one line per bound, kept and broken, and every JSON-RPC request and notification of
/// the specification's pages (`EXAMPLES`) as a client or server message: what it accepts, and
/// where it refuses.
const NEXT_SCHEMA: &str = r##"
use mcp_spec_types::dispatch::Reply;
use mcp_spec_types::draft::{ClientMessage, CompleteResult, ListToolsResult, ServerMessage};

const META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn tools(name: &str, sizes: &str, ttl: u64) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"{name}","inputSchema":{{"type":"object"}},"icons":[{{"src":"https://example.com/a.png","sizes":{sizes}}}]}}],"resultType":"complete","ttlMs":{ttl},"cacheScope":"private"}}}}"#)
}

fn main() {
    for cursor in ["c".repeat(64), "c".repeat(65)] {
        let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"cursor":"{cursor}","_meta":{META}}}}}"#);
        match ClientMessage::parse(&line) {
            Ok(_) => println!("accepted cursor {}", cursor.len()),
            Err(e) => println!("refused cursor {} at {}", cursor.len(), e.path()),
        }
    }
    for (label, line) in [
        ("tools", tools("get_weather", r#"["48x48","any"]"#, 86_400_000)),
        ("name", tools("Bad Name!", "[]", 0)),
        ("sizes", tools("get_weather", r#"["48x48","big"]"#, 0)),
        ("ttl", tools("get_weather", "[]", 86_400_001)),
    ] {
        match Reply::<ListToolsResult>::parse(&line) {
            Ok(_) => println!("accepted {label}"),
            Err(e) => println!("refused {label} at {}", e.path()),
        }
    }
    for total in [1, 0] {
        let line = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"completion":{{"values":[],"total":{total}}},"resultType":"complete"}}}}"#);
        match Reply::<CompleteResult>::parse(&line) {
            Ok(_) => println!("accepted total {total}"),
            Err(e) => println!("refused total {total} at {}", e.path()),
        }
    }
    let mut examples: Vec<_> = std::fs::read_dir(EXAMPLES).unwrap().map(|e| e.unwrap().path()).collect();
    examples.sort();
    for path in examples {
        let text = std::fs::read_to_string(&path).unwrap();
        let is_call = serde_json::from_str::<serde_json::Value>(&text)
            .is_ok_and(|v| v.get("jsonrpc").is_some() && v.get("method").is_some());
        if is_call {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let read = ClientMessage::parse(&text).is_ok() || ServerMessage::parse(&text).is_ok();
            let answer = if read { "accepted" } else { "refused" };
            println!("{answer} example {name}");
        }
    }
}
"##;

#[test]
fn the_next_schema_builds_with_one_bump_and_refuses_each_violation_at_its_member() {
    let root = buildable_copy("next-schema");
    let draft = std::fs::read(crate::copy::repo().join("schema/draft/schema.json")).unwrap();
    let outcome = bump::apply(&root, &bump_of("draft", with_next_constraints(&draft)))
        .expect("the bump applies");
    assert_eq!(outcome.pattern, bump::Pattern::Added);
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        cargo
            .lines()
            .any(|l| l == r#"unstable-draft = ["pattern"]"#),
        "{cargo}"
    );

    let examples = crate::copy::repo().join("tests/fixtures/spec/draft/docs");
    let source = NEXT_SCHEMA.replace(
        "fn main() {",
        &format!(
            "const EXAMPLES: &str = {:?};\n\nfn main() {{",
            examples.display().to_string()
        ),
    );
    add_program(&root, "next-schema", &source);
    let printed = crate::copy::run_program_with(&root, "next-schema", &["unstable-draft"])
        .unwrap_or_else(|e| panic!("{e}"));
    let lines: Vec<&str> = printed.lines().collect();
    assert!(lines.len() > 8, "{printed}");
    assert_eq!(
        lines[..8],
        [
            "accepted cursor 64",
            "refused cursor 65 at params.cursor",
            "accepted tools",
            "refused name at result.tools[0].name",
            "refused sizes at result.tools[0].icons[0].sizes",
            "refused ttl at result.ttlMs",
            "accepted total 1",
            "refused total 0 at result.completion.total",
        ],
        "{printed}"
    );
    // The bounds refuse none of the requests and notifications of the draft's pages that
    // today's draft accepts (some pages leave out the `_meta` every request needs).
    let examples = &lines[8..];
    let accepted = examples
        .iter()
        .filter(|l| l.starts_with("accepted example "))
        .count();
    assert!(accepted >= 10, "{printed}");
    #[cfg(feature = "unstable-draft")]
    {
        use mcp_spec_types::draft::{ClientMessage, ServerMessage};
        let newly_refused: Vec<&&str> = examples
            .iter()
            .filter(|line| {
                let Some(name) = line.strip_prefix("refused example ") else {
                    return false;
                };
                let text = std::fs::read_to_string(
                    crate::copy::repo()
                        .join("tests/fixtures/spec/draft/docs")
                        .join(name),
                )
                .unwrap();
                ClientMessage::parse(&text).is_ok() || ServerMessage::parse(&text).is_ok()
            })
            .collect();
        assert!(newly_refused.is_empty(), "{newly_refused:?}");
    }
}

/// A user's first program, on nothing but `latest` and the modules every revision has: it
/// answers a `tools/call`, picks a version, and uses the stateless helpers (discovery, an
/// input-required result, the HTTP headers) on the new revision's types, printing which
/// revision `latest` is.
const FIRST_PROGRAM: &str = r##"
use mcp_spec_types::{latest, negotiation, ProtocolVersion, RpcError};

fn main() {
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","_meta":{{"io.modelcontextprotocol/protocolVersion":"{}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#,
        latest::REVISION
    );
    let reply = latest::reply_to(&line, |call| match call {
        latest::ClientCall::CallTool(params) => Ok(latest::CallToolResult::text(params.name)),
        _ => Err(RpcError::invalid_params("only tools/call")),
    });
    println!("{}", latest::REVISION);
    println!("{}", reply.expect("a request gets an answer"));
    let chosen = negotiation::choose(&["2024-11-05", latest::REVISION]).expect("a shared version");
    println!("{}", chosen.as_str());
    let checked = negotiation::check_request_version(latest::REVISION).expect("a stateless revision");
    println!("{}", checked.as_str());
    // Only stateless revisions are enabled: nothing to answer an `initialize` with.
    println!("{:?}", ProtocolVersion::negotiate("2025-06-18"));
    // The stateless helpers, on the new revision's own types.
    let offer: latest::DiscoverResult = serde_json::from_value(serde_json::json!({
        "supportedVersions": [latest::REVISION], "capabilities": {},
        "serverInfo": {"name": "s", "version": "1"}, "resultType": "complete",
        "ttlMs": 0, "cacheScope": "private"
    })).expect("a discover result");
    println!("{:?}", negotiation::choose_discovered(&offer).map(|v| v.as_str().to_owned()));
    let asked = latest::input_required::InputRequired::new()
        .list_roots("roots")
        .build_ignoring_capabilities()
        .expect("one request");
    println!("{}", serde_json::to_value(&asked).unwrap()["inputRequests"]["roots"]["method"]);
    let params = serde_json::json!({"name": "echo"});
    let headers = mcp_spec_types::http_headers::request_headers(latest::REVISION, "tools/call", Some(&params));
    let named = headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("mcp-name") && v == "echo");
    println!("mcp-name {named}");
}
"##;

#[test]
fn a_new_revision_compiles_a_first_program_with_the_default_features() {
    let root = buildable_copy("new-revision");
    let outcome =
        bump::apply(&root, &bump_of("2027-01-01", todays_file())).expect("the bump applies");
    assert!(outcome.new_revision);
    add_program(&root, "first-program", FIRST_PROGRAM);
    let printed = run_program(&root, "first-program").unwrap_or_else(|e| panic!("{e}"));
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(
        lines,
        [
            "2027-01-01",
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"echo"}],"resultType":"complete"}}"#,
            "2027-01-01",
            "2027-01-01",
            "None",
            r#"Some("2027-01-01")"#,
            r#""roots/list""#,
            "mcp-name true",
        ],
        "{printed}"
    );
}
