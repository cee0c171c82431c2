//! Bumped copies of the crate, built: what the bump writes must compile, with the default
//! features, into a crate that does what the schema says. Each build compiles only the copy
//! (its build script, its library and one program); see `copy::build_copy`.

use crate::copy::{add_program, buildable_copy, run_program, todays_file};
use crate::{bump, bump_of, with_a_pattern, TOOL_NAME_PATTERN};

/// Reads a `tools/list` answer naming one tool, for each name: whether the crate's reader takes
/// it, and where and why not.
const TOOL_NAMES: &str = r#"
use mcp_spec_types::dispatch::Reply;
use mcp_spec_types::v2026_07_28::ListToolsResult;

fn main() {
    for name in ["get_weather", "Bad Name!"] {
        let line = serde_json::json!({
            "jsonrpc": "2.0",
            "id": 1,
            "result": {
                "tools": [{ "name": name, "inputSchema": { "type": "object" } }],
                "resultType": "complete",
                "ttlMs": 0,
                "cacheScope": "private"
            }
        })
        .to_string();
        match Reply::<ListToolsResult>::parse(&line) {
            Ok(Reply::Result(reply)) => println!("accepted {}", reply.result.tools[0].name),
            Ok(other) => println!("unexpected {other:?}"),
            Err(error) => println!("refused {name:?} at {}\n  {error}", error.path()),
        }
    }
}
"#;

#[test]
fn a_bumped_pattern_is_enforced_with_the_default_features() {
    let root = buildable_copy("pattern");
    let outcome = bump::apply(
        &root,
        &bump_of("2026-07-28", with_a_pattern(&todays_file())),
    )
    .expect("the bump applies");
    assert_eq!(outcome.pattern, bump::Pattern::Added);
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    assert!(
        cargo.lines().any(|l| l == r#"v2026_07_28 = ["pattern"]"#),
        "{cargo}"
    );

    add_program(&root, "tool-names", TOOL_NAMES);
    let printed = run_program(&root, "tool-names").unwrap_or_else(|e| panic!("{e}"));
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 3, "{printed}");
    assert_eq!(lines[0], "accepted get_weather");
    assert_eq!(lines[1], r#"refused "Bad Name!" at result.tools[0].name"#);
    assert!(lines[2].contains(TOOL_NAME_PATTERN), "{printed}");
}

/// A user's first program, on nothing but `latest` and the modules every revision has: it
/// answers a `tools/call` and picks a version, printing which revision `latest` is.
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
        ],
        "{printed}"
    );
}
