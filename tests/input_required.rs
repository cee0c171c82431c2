//! The `input_required` helpers: building results, capability rules, reading retries, the
//! state codec hook and answering on the client side.
#![cfg(feature = "v2026_07_28")]

use mcp_spec_types::v2026_07_28::input_required::{
    is_input_required, missing_capabilities, open_state, result_type, seal_state, Answers,
    InputKind, InputMethod, InputRequired, InputRequiredError, InputResponseError, RoundTrip,
    RoundTripParams, StateCodec, StateError, RESULT_TYPE_COMPLETE,
};
use mcp_spec_types::v2026_07_28::{
    CallToolRequest, CallToolRequestParams, CallToolResultOrInputRequired, ClientCapabilities,
    CreateMessageRequest, CreateMessageRequestParams, ElicitRequest, ElicitRequestParams,
    ElicitResult, GetPromptRequest, GetPromptRequestParams, GetPromptResultOrInputRequired,
    InputRequest, InputRequiredResult, InputResponse, ListRootsRequest, ListRootsResult,
    ReadResourceRequest, ReadResourceRequestParams, ReadResourceResultOrInputRequired,
};
use mcp_spec_types::{ErrorCode, Request, RpcError};
use serde_json::{json, Map, Value};

fn caps(value: Value) -> ClientCapabilities {
    serde_json::from_value(value).unwrap()
}

fn form(property: &str) -> ElicitRequestParams {
    serde_json::from_value(json!({"message": "?", "requestedSchema": {"type": "object",
        "properties": {property: {"type": "string"}}, "required": [property]}}))
    .unwrap()
}

fn url_mode() -> ElicitRequestParams {
    serde_json::from_value(
        json!({"mode": "url", "message": "Sign in", "url": "https://example.com/x", "elicitationId": "e1"}),
    )
    .unwrap()
}

fn sampling(extra: Value) -> CreateMessageRequestParams {
    let mut params = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
        "maxTokens": 10});
    params
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    serde_json::from_value(params).unwrap()
}

fn elicit_request(params: ElicitRequestParams) -> InputRequest {
    ElicitRequest::input_request(params)
}

fn accepted(content: Value) -> ElicitResult {
    serde_json::from_value(json!({"action": "accept", "content": content})).unwrap()
}

fn listed_roots() -> ListRootsResult {
    serde_json::from_value(json!({"roots": [{"uri": "file:///a"}, {"uri": "file:///b"}]})).unwrap()
}

fn tool_params(extra: Value) -> CallToolRequestParams {
    let mut params = json!({"name": "t", "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}});
    params
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    serde_json::from_value(params).unwrap()
}

#[test]
fn kinds_name_their_methods() {
    assert_eq!(InputKind::Elicitation.method(), ElicitRequest::METHOD);
    assert_eq!(InputKind::Sampling.method(), "sampling/createMessage");
    assert_eq!(InputKind::Roots.to_string(), "roots/list");
    assert_eq!(<ListRootsRequest as InputMethod>::KIND, InputKind::Roots);
    assert_eq!(
        <CreateMessageRequest as InputMethod>::KIND,
        InputKind::Sampling
    );
}

#[test]
fn built_result_is_the_schema_shape() {
    let all = caps(json!({"elicitation": {}, "sampling": {}, "roots": {}}));
    let result = InputRequired::new()
        .elicit("name", form("name"))
        .sample("greeting", sampling(json!({})))
        .list_roots("roots")
        .with_state("s1")
        .build(&all)
        .unwrap();
    let value = serde_json::to_value(&result).unwrap();
    assert_eq!(value["resultType"], "input_required");
    assert_eq!(value["requestState"], "s1");
    assert_eq!(
        value["inputRequests"]["name"]["method"],
        "elicitation/create"
    );
    assert_eq!(
        value["inputRequests"]["greeting"]["params"]["maxTokens"],
        10
    );
    assert_eq!(
        value["inputRequests"]["roots"],
        json!({"method": "roots/list", "params": {}})
    );
    // What was written reads back as the same result.
    let again: InputRequiredResult = serde_json::from_value(value.clone()).unwrap();
    assert_eq!(again, result);
    assert!(is_input_required(value.as_object().unwrap()));
}

#[test]
fn a_result_needs_requests_or_state() {
    assert_eq!(
        InputRequired::new().build(&ClientCapabilities::default()),
        Err(InputRequiredError::Empty)
    );
    // State alone (load shedding: "come back later") is a result, with no inputRequests.
    let state_only = InputRequired::new()
        .with_state("later")
        .build(&ClientCapabilities::default())
        .unwrap();
    let value = serde_json::to_value(&state_only).unwrap();
    assert_eq!(
        value,
        json!({"resultType": "input_required", "requestState": "later"})
    );
    let rpc = RpcError::from(InputRequiredError::Empty);
    assert_eq!(rpc.code, ErrorCode::InternalError);
}

#[test]
fn only_requests_that_admit_input_required_get_one() {
    let client = caps(json!({"roots": {}}));
    let ask = || InputRequired::new().list_roots("r");
    assert!(matches!(
        ask().result_for::<CallToolRequest>(&client).unwrap(),
        CallToolResultOrInputRequired::InputRequiredResult(_)
    ));
    assert!(matches!(
        ask().result_for::<GetPromptRequest>(&client).unwrap(),
        GetPromptResultOrInputRequired::InputRequiredResult(_)
    ));
    assert!(matches!(
        ask().result_for::<ReadResourceRequest>(&client).unwrap(),
        ReadResourceResultOrInputRequired::InputRequiredResult(_)
    ));
    // `result_for::<ListToolsRequest>` does not compile: its result is never input_required.
}

#[test]
fn elicitation_capabilities() {
    let form_request = elicit_request(form("x"));
    let url_request = elicit_request(url_mode());
    // An empty elicitation object declares form mode only.
    assert_eq!(
        missing_capabilities(&caps(json!({"elicitation": {}})), &form_request),
        None
    );
    assert_eq!(
        missing_capabilities(&caps(json!({"elicitation": {}})), &url_request),
        Some(caps(json!({"elicitation": {"url": {}}})))
    );
    // URL mode alone does not declare form mode.
    assert_eq!(
        missing_capabilities(&caps(json!({"elicitation": {"url": {}}})), &form_request),
        Some(caps(json!({"elicitation": {"form": {}}})))
    );
    assert_eq!(
        missing_capabilities(&caps(json!({"elicitation": {"url": {}}})), &url_request),
        None
    );
    assert_eq!(
        missing_capabilities(
            &caps(json!({"elicitation": {"form": {}, "url": {}}})),
            &form_request
        ),
        None
    );
    assert_eq!(
        missing_capabilities(&caps(json!({"sampling": {}})), &form_request),
        Some(caps(json!({"elicitation": {"form": {}}})))
    );
}

#[test]
fn sampling_and_roots_capabilities() {
    let plain = CreateMessageRequest::input_request(sampling(json!({})));
    let with_tools = CreateMessageRequest::input_request(sampling(json!({"tools": [
        {"name": "t", "inputSchema": {"type": "object"}}]})));
    let with_context =
        CreateMessageRequest::input_request(sampling(json!({"includeContext": "thisServer"})));
    let no_context =
        CreateMessageRequest::input_request(sampling(json!({"includeContext": "none"})));
    let sampling_only = caps(json!({"sampling": {}}));
    assert_eq!(missing_capabilities(&sampling_only, &plain), None);
    assert_eq!(missing_capabilities(&sampling_only, &no_context), None);
    assert_eq!(
        missing_capabilities(&sampling_only, &with_tools),
        Some(caps(json!({"sampling": {"tools": {}}})))
    );
    assert_eq!(
        missing_capabilities(&sampling_only, &with_context),
        Some(caps(json!({"sampling": {"context": {}}})))
    );
    assert_eq!(
        missing_capabilities(&caps(json!({"sampling": {"tools": {}}})), &with_tools),
        None
    );
    assert_eq!(
        missing_capabilities(&caps(json!({})), &plain),
        Some(caps(json!({"sampling": {}})))
    );
    let roots = ListRootsRequest::input_request(None);
    assert_eq!(
        missing_capabilities(&sampling_only, &roots),
        Some(caps(json!({"roots": {}})))
    );
    assert_eq!(
        missing_capabilities(&caps(json!({"roots": {}})), &roots),
        None
    );
}

#[test]
fn undeclared_capability_is_refused_with_32021() {
    let error = InputRequired::new()
        .list_roots("client_roots")
        .build(&caps(json!({"sampling": {}})))
        .unwrap_err();
    let InputRequiredError::Undeclared { key, kind, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!((key.as_str(), *kind), ("client_roots", InputKind::Roots));
    assert!(error.to_string().contains("\"client_roots\""));
    let rpc = RpcError::from(error);
    assert_eq!(rpc.code, ErrorCode::MissingRequiredClientCapability);
    assert_eq!(
        rpc.data,
        Some(json!({"requiredCapabilities": {"roots": {}}}))
    );
    // The server may say it checked them its own way.
    assert!(InputRequired::new()
        .list_roots("client_roots")
        .build_ignoring_capabilities()
        .is_ok());
}

#[test]
fn retry_reads_responses_by_key_and_kind() {
    let params = tool_params(json!({"inputResponses": {
        "name": {"action": "accept", "content": {"name": "Ada"}},
        "roots": {"roots": [{"uri": "file:///a"}]},
        "answer": {"role": "assistant", "content": {"type": "text", "text": "42"}, "model": "m"},
    }, "requestState": "s"}));
    let retry = RoundTrip::of(&params);
    assert!(!retry.is_first());
    assert_eq!(retry.request_state.as_deref(), Some("s"));
    let name = retry.elicitation("name").unwrap();
    assert_eq!(
        serde_json::to_value(name).unwrap()["content"]["name"],
        "Ada"
    );
    assert_eq!(retry.roots("roots").unwrap().roots.len(), 1);
    assert_eq!(retry.sampling("answer").unwrap().model, "m");
    assert_eq!(
        retry.response::<ElicitRequest>("nope"),
        Err(InputResponseError::Missing {
            key: "nope".into(),
            expected: InputKind::Elicitation
        })
    );
    let wrong = retry.sampling("roots").unwrap_err();
    assert_eq!(
        wrong,
        InputResponseError::WrongKind {
            key: "roots".into(),
            expected: InputKind::Sampling,
            found: InputKind::Roots
        }
    );
    assert_eq!(
        wrong.to_string(),
        "the input response under \"roots\" is a roots/list result, not a sampling/createMessage result"
    );
    let rpc = RpcError::from(wrong);
    assert_eq!(rpc.code, ErrorCode::InvalidParams);
    assert_eq!(rpc.data, Some(json!({"key": "roots"})));
    // A first attempt carries neither member.
    let first = RoundTrip::of(&tool_params(json!({})));
    assert!(first.is_first());
    assert!(matches!(
        first.elicitation("name"),
        Err(InputResponseError::Missing { .. })
    ));
}

#[test]
fn retry_from_a_params_object() {
    let Value::Object(params) = json!({"name": "t", "inputResponses": {"k": {"roots": []}},
        "requestState": "s", "_meta": {}})
    else {
        unreachable!()
    };
    let retry = RoundTrip::from_params(&params).unwrap();
    assert_eq!(retry.roots("k").unwrap().roots, []);
    assert_eq!(retry.request_state.as_deref(), Some("s"));
    assert!(RoundTrip::from_params(&Map::new()).unwrap().is_first());
    for (member, value) in [
        ("inputResponses", Value::Null),
        ("inputResponses", json!({"k": 12345})),
        ("inputResponses", json!({"k": {"neither": "kind"}})),
        ("inputResponses", json!([])),
        ("requestState", json!(7)),
    ] {
        let mut params = Map::new();
        params.insert(member.to_owned(), value.clone());
        match RoundTrip::from_params(&params) {
            Err(InputResponseError::Malformed { member: m, .. }) => assert_eq!(m, member),
            other => panic!("{member}: {value}: {other:?}"),
        }
    }
}

/// A toy codec for the tests: a checksum, not a protection.
struct Checksum;

impl StateCodec for Checksum {
    fn seal(&self, state: &[u8]) -> Result<String, StateError> {
        let sum: u32 = state.iter().map(|&b| u32::from(b)).sum();
        let text =
            String::from_utf8(state.to_vec()).map_err(|e| StateError::Unsealable(e.to_string()))?;
        Ok(format!("{sum}:{text}"))
    }
    fn open(&self, sealed: &str) -> Result<Vec<u8>, StateError> {
        let (sum, text) = sealed.split_once(':').ok_or(StateError::Tampered)?;
        let expected: u32 = text.bytes().map(u32::from).sum();
        if sum.parse::<u32>().ok() != Some(expected) {
            return Err(StateError::Tampered);
        }
        Ok(text.as_bytes().to_vec())
    }
}

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Progress {
    round: u8,
    name: String,
}

#[test]
fn state_goes_through_the_codec() {
    let progress = Progress {
        round: 2,
        name: "Ada".into(),
    };
    let result = InputRequired::new()
        .seal_state(&Checksum, &progress)
        .unwrap()
        .build(&ClientCapabilities::default())
        .unwrap();
    let sealed = result.request_state.clone().unwrap();
    assert_eq!(
        open_state::<_, Progress>(&Checksum, &sealed).unwrap(),
        progress
    );
    assert_eq!(sealed, seal_state(&Checksum, &progress).unwrap());
    // The client echoes it; the server opens it from the retry.
    let params = tool_params(json!({"requestState": sealed}));
    let opened: Option<Progress> = RoundTrip::of(&params).open_state(&Checksum).unwrap();
    assert_eq!(opened, Some(progress));
    // No state: nothing to open.
    let none: Option<Progress> = RoundTrip::default().open_state(&Checksum).unwrap();
    assert_eq!(none, None);
    // Tampered.
    let tampered = format!("{sealed}-TAMPERED");
    assert_eq!(
        open_state::<_, Progress>(&Checksum, &tampered),
        Err(StateError::Tampered)
    );
    let rpc = RpcError::from(StateError::Tampered);
    assert_eq!(rpc.code, ErrorCode::InvalidParams);
    assert!(rpc.message.contains("integrity"));
    // Intact but not the expected state.
    let other = seal_state(&Checksum, &json!({"round": "two"})).unwrap();
    assert!(matches!(
        open_state::<_, Progress>(&Checksum, &other),
        Err(StateError::Unreadable(_))
    ));
    // State the codec cannot seal is the server's fault.
    let unsealable = seal_state(&Checksum, &std::collections::BTreeMap::from([((1, 2), 3)]));
    assert!(matches!(unsealable, Err(StateError::Unsealable(_))));
    assert_eq!(
        RpcError::from(unsealable.unwrap_err()).code,
        ErrorCode::InternalError
    );
}

fn asked() -> InputRequiredResult {
    InputRequired::new()
        .elicit("name", form("name"))
        .list_roots("roots")
        .with_state("opaque \"state\" as sent")
        .build(&caps(json!({"elicitation": {}, "roots": {}})))
        .unwrap()
}

#[test]
fn client_answers_each_request_with_its_kind() {
    let result = asked();
    let mut answers = Answers::new(&result);
    assert_eq!(
        answers.pending().collect::<Vec<_>>(),
        [
            ("name", InputKind::Elicitation),
            ("roots", InputKind::Roots)
        ]
    );
    assert_eq!(
        answers.answer("roots", accepted(json!({}))),
        Err(InputResponseError::WrongKind {
            key: "roots".into(),
            expected: InputKind::Roots,
            found: InputKind::Elicitation
        })
    );
    assert_eq!(
        answers.answer("other", listed_roots()),
        Err(InputResponseError::NotRequested {
            key: "other".into()
        })
    );
    answers.answer("roots", listed_roots()).unwrap();
    // Not finished while a request is unanswered.
    assert_eq!(
        answers.clone().finish(),
        Err(InputResponseError::Missing {
            key: "name".into(),
            expected: InputKind::Elicitation
        })
    );
    answers
        .answer(
            "name",
            InputResponse::from(accepted(json!({"name": "Ada"}))),
        )
        .unwrap();
    assert_eq!(answers.pending().count(), 0);
    let retry = answers.finish().unwrap();
    // The state is echoed exactly.
    assert_eq!(
        retry.request_state.as_deref(),
        Some("opaque \"state\" as sent")
    );

    // Onto typed params of each retryable request, replacing an earlier attempt's members.
    let mut call = tool_params(json!({"requestState": "old", "inputResponses": {}}));
    retry.clone().apply(&mut call);
    assert_eq!(call.request_state(), result.request_state.as_deref());
    assert_eq!(call.input_responses().unwrap().len(), 2);
    let mut prompt: GetPromptRequestParams = serde_json::from_value(json!({"name": "p",
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}))
    .unwrap();
    retry.clone().apply(&mut prompt);
    assert_eq!(RoundTrip::of(&prompt), retry);
    let mut read: ReadResourceRequestParams = serde_json::from_value(json!({"uri": "file:///a",
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientCapabilities": {}}}))
    .unwrap();
    retry.clone().apply(&mut read);
    assert_eq!(RoundTrip::of(&read), retry);

    // Onto a params object.
    let mut object = Map::new();
    object.insert("name".into(), json!("t"));
    retry.apply_to_object(&mut object).unwrap();
    assert_eq!(object["requestState"], "opaque \"state\" as sent");
    assert_eq!(
        object["inputResponses"]["roots"]["roots"][1]["uri"],
        "file:///b"
    );
    assert_eq!(object["inputResponses"]["name"]["action"], "accept");
}

#[test]
fn no_state_sent_means_none_echoed() {
    let result = InputRequired::new()
        .list_roots("roots")
        .build(&caps(json!({"roots": {}})))
        .unwrap();
    let mut answers = Answers::new(&result);
    answers.answer("roots", listed_roots()).unwrap();
    let retry = answers.finish().unwrap();
    assert_eq!(retry.request_state, None);
    // A member left from an earlier round is removed, not kept.
    let mut object = Map::new();
    object.insert("requestState".into(), json!("from round 1"));
    retry.apply_to_object(&mut object).unwrap();
    assert!(!object.contains_key("requestState"));
    // State only: retried with the state and no inputResponses.
    let later = InputRequired::new()
        .with_state("later")
        .build(&ClientCapabilities::default())
        .unwrap();
    let retry = Answers::new(&later).finish().unwrap();
    assert_eq!(retry.input_responses, None);
    assert_eq!(retry.request_state.as_deref(), Some("later"));
}

#[test]
fn result_type_defaults_to_complete() {
    let object = |value: Value| value.as_object().unwrap().clone();
    assert_eq!(
        result_type(&object(json!({"content": []}))),
        Some(RESULT_TYPE_COMPLETE)
    );
    assert_eq!(
        result_type(&object(json!({"resultType": "complete"}))),
        Some("complete")
    );
    assert_eq!(result_type(&object(json!({"resultType": 1}))), None);
    assert!(!is_input_required(&object(json!({"content": []}))));
    assert!(is_input_required(&object(
        json!({"resultType": "input_required"})
    )));
}

#[test]
fn retryable_params_are_the_schemas() {
    // Every params definition with `inputResponses` has a RoundTripParams impl; a revision
    // that adds one shows up here.
    let schema: Value =
        serde_json::from_str(include_str!("../schema/2026-07-28/schema.json")).unwrap();
    let mut with_responses: Vec<&str> = schema["$defs"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, def)| def["properties"].get("inputResponses").is_some())
        .map(|(name, _)| name.as_str())
        .collect();
    with_responses.sort_unstable();
    assert_eq!(
        with_responses,
        [
            "CallToolRequestParams",
            "GetPromptRequestParams",
            "InputResponseRequestParams",
            "ReadResourceRequestParams"
        ]
    );
}

/// The member names and the `resultType` value `input_required` types as constants are the
/// schema's, in every bundled schema that has input requests, and so are the method names
/// `InputKind` gives.
#[test]
fn names_and_values_are_the_schemas() {
    use mcp_spec_types::cache::RESULT_TYPE;
    use mcp_spec_types::input_required::{
        INPUT_RESPONSES, REQUEST_STATE, RESULT_TYPE_INPUT_REQUIRED,
    };
    use mcp_spec_types::ProtocolVersion;
    let mut checked = Vec::new();
    for revision in ProtocolVersion::KNOWN {
        let path = format!(
            "{}/schema/{revision}/schema.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let schema: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        // Older schemas keep their definitions under `definitions`, newer under `$defs`.
        let definitions = schema.get("$defs").unwrap_or(&schema["definitions"]);
        let Some(result) = definitions.get("InputRequiredResult") else {
            continue;
        };
        for member in [RESULT_TYPE, REQUEST_STATE] {
            assert!(
                result["properties"].get(member).is_some(),
                "{revision}: {member}"
            );
        }
        let retry = &definitions["InputResponseRequestParams"]["properties"];
        for member in [INPUT_RESPONSES, REQUEST_STATE] {
            assert!(retry.get(member).is_some(), "{revision}: {member}");
        }
        // The schema names the `resultType` values only in `ResultType`'s description, one per
        // line, as "<value> - <meaning>".
        let kinds = definitions["ResultType"]["description"].as_str();
        assert!(
            kinds.is_some_and(|text| text.contains(&format!("\n{RESULT_TYPE_INPUT_REQUIRED} - "))),
            "{revision}: {RESULT_TYPE_INPUT_REQUIRED}"
        );
        for (kind, request) in [
            (InputKind::Elicitation, "ElicitRequest"),
            (InputKind::Sampling, "CreateMessageRequest"),
            (InputKind::Roots, "ListRootsRequest"),
        ] {
            assert_eq!(
                definitions[request]["properties"]["method"]["const"],
                kind.method(),
                "{revision}: {request}"
            );
        }
        checked.push(revision.clone());
    }
    assert!(checked.contains(&ProtocolVersion::V2026_07_28));
}
