//! What is written once for the stateless revisions works on each such revision's own types:
//! the same checks, run in every stateless revision this build has (2026-07-28 and the draft
//! here), so that a revision the crate gains is held to them by adding one line at the end.

// A build with no stateless revision runs none of them.
#[allow(unused_macros)]
macro_rules! stateless_revision {
    ($module:ident, $version:literal) => {
        mod $module {
            use mcp_spec_types::input_required::{InputKind, InputRequiredError};
            use mcp_spec_types::$module as rev;
            use mcp_spec_types::$module::input_required::{Answers, InputRequired, RoundTrip};
            use mcp_spec_types::{negotiation, ProtocolVersion};
            use serde_json::{json, Value};

            fn read<T: serde::de::DeserializeOwned>(value: Value) -> T {
                serde_json::from_value(value).expect("the schema's shape")
            }

            #[test]
            fn input_required_builds_this_revisions_result() {
                let client: rev::ClientCapabilities = read(json!({"roots": {}, "elicitation": {}}));
                let schema =
                    read(json!({"type": "object", "properties": {"name": {"type": "string"}}}));
                let result: rev::InputRequiredResult = InputRequired::new()
                    .list_roots("roots")
                    .elicit_form("name", "Your name?", schema)
                    .with_state("opaque")
                    .build(&client)
                    .expect("every capability is declared");
                assert_eq!(
                    serde_json::to_value(&result).expect("writes"),
                    json!({
                        "resultType": "input_required",
                        "inputRequests": {
                            "name": {
                                "method": "elicitation/create",
                                "params": {
                                    "message": "Your name?",
                                    "requestedSchema": {
                                        "type": "object",
                                        "properties": {"name": {"type": "string"}}
                                    }
                                }
                            },
                            "roots": {"method": "roots/list", "params": {}}
                        },
                        "requestState": "opaque"
                    })
                );
                // What this revision's builder refuses is the one error type of every revision.
                let sampling: rev::CreateMessageRequestParams = read(json!({
                    "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                    "maxTokens": 10
                }));
                let refused: InputRequiredError = InputRequired::new()
                    .sample("draft_reply", sampling)
                    .build(&client)
                    .unwrap_err();
                assert_eq!(
                    refused,
                    InputRequiredError::Undeclared {
                        key: "draft_reply".to_owned(),
                        kind: InputKind::Sampling,
                        required: read(json!({"sampling": {}})),
                    }
                );
            }

            #[test]
            fn answers_come_back_in_this_revisions_params() {
                let asked = InputRequired::new()
                    .list_roots("roots")
                    .with_state("opaque")
                    .build_ignoring_capabilities()
                    .expect("a request and state");
                let mut answers = Answers::new(&asked);
                assert_eq!(answers.pending().collect::<Vec<_>>(), [("roots", InputKind::Roots)]);
                let roots: rev::ListRootsResult = read(json!({"roots": [{"uri": "file:///work"}]}));
                answers.answer("roots", roots).expect("a roots/list result");
                let mut params: rev::CallToolRequestParams = read(json!({"name": "scan", "_meta": {
                    "io.modelcontextprotocol/protocolVersion": $version,
                    "io.modelcontextprotocol/clientCapabilities": {"roots": {}}}}));
                answers.finish().expect("all answered").apply(&mut params);
                let retry = RoundTrip::of(&params);
                assert_eq!(retry.request_state.as_deref(), Some("opaque"));
                assert_eq!(retry.roots("roots").expect("answered").roots[0].uri, "file:///work");
                let written = serde_json::to_value(&params).expect("writes");
                assert_eq!(written["inputResponses"]["roots"]["roots"][0]["uri"], "file:///work");
            }

            #[test]
            fn discovery_reads_this_revisions_types() {
                let discovered: rev::DiscoverResult = read(json!({
                    "supportedVersions": ["2999-01-01", $version],
                    "capabilities": {},
                    "resultType": "complete",
                    "ttlMs": 0,
                    "cacheScope": "public"
                }));
                assert_eq!(
                    negotiation::choose_discovered(&discovered),
                    Some(ProtocolVersion::from($version))
                );

                let refusal = negotiation::check_request_version("2000-01-01").unwrap_err();
                let data = rev::UnsupportedProtocolVersionErrorObjectData::from(&refusal);
                assert_eq!(data.requested, "2000-01-01");
                assert_eq!(data.supported, refusal.supported);
                // A server offers released revisions; the draft only when its author names
                // it (the engine's `with_versions`), never through this helper.
                let offered = data.supported.iter().any(|v| v == $version);
                assert_eq!(offered, $version != "draft", "{:?}", data.supported);
                assert_eq!(
                    negotiation::choose_discovered(&data),
                    negotiation::choose(&refusal.supported)
                );
            }
        }
    };
}

#[cfg(feature = "v2026_07_28")]
stateless_revision!(v2026_07_28, "2026-07-28");
#[cfg(feature = "unstable-draft")]
stateless_revision!(draft, "draft");
