//! Multi round-trip requests (`input_required`, 2026-07-28): what a client sends back on a
//! retry (`inputResponses`, the echoed `requestState`), what a server's `InputRequiredResult`
//! asks of the client, and the request state a server seals and opens.
//!
//! Input: NUL-separated parts: the retried request's `params` (JSON), an
//! `InputRequiredResult` (JSON), the client's capabilities (JSON), then the bytes a state
//! codec opens (raw, not decoded) and, the same part as text, a sealed `requestState`.
//!
//! Properties:
//! - `RoundTrip::from_params` never panics; a refusal is `Malformed` naming `inputResponses` or
//!   `requestState`, and the `-32602` error; what it reads, written back with
//!   `apply_to_object`, gives the same params object and reads back equal; the typed params of
//!   the four retryable requests, where they read, give the same `RoundTrip` (`of`), and
//!   `apply` of it leaves them unchanged;
//! - each response is exactly the kind `InputResponse::kind` says (`elicitation`,
//!   `sampling`, `roots`), the others a `WrongKind`, an absent key `Missing`, each error the
//!   `-32602` error with the key in `data.key`;
//! - `result_type` and `is_input_required` agree with the result's `resultType`;
//! - `Answers` for a server's result: `pending` is what it asks; an answer is accepted exactly
//!   when its key was asked for with its kind; `finish` succeeds exactly when every key is
//!   answered, and its `RoundTrip`, applied to the params, reads back equal;
//! - `InputRequired` rebuilt from the result's requests, state and `_meta` gives that result
//!   (without its undeclared members), which serializes and reads back equal; `build` refuses
//!   exactly the first request whose capabilities `missing_capabilities` finds missing;
//! - request state: opening arbitrary bytes never panics (a refusal is `Tampered` or
//!   `Unreadable`, the `-32602` error), reads what serde_json reads, and state sealed by the
//!   crate opens to the value sealed, also through `InputRequired::seal_state` and
//!   `RoundTrip::open_state`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::v2026_07_28::input_required::{
    is_input_required, missing_capabilities, open_state, result_type, seal_state, Answers,
    InputKind, InputRequired, InputRequiredError, InputResponseError, RoundTrip, RoundTripParams,
    StateCodec, StateError, RESULT_TYPE_COMPLETE, RESULT_TYPE_INPUT_REQUIRED,
};
use mcp_spec_types::v2026_07_28::{
    CallToolRequestParams, ClientCapabilities, GetPromptRequestParams, InputRequiredResult,
    InputResponseRequestParams, ReadResourceRequestParams,
};
use mcp_spec_types::{blob, json, ErrorCode, RpcError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt::Debug;

/// A codec whose sealed form is `v1.` and the base64 of the bytes: not a protection, but it
/// refuses what it did not make.
struct Prefixed;

impl StateCodec for Prefixed {
    fn seal(&self, state: &[u8]) -> Result<String, StateError> {
        Ok(format!("v1.{}", blob::encode(state)))
    }
    fn open(&self, sealed: &str) -> Result<Vec<u8>, StateError> {
        let encoded = sealed.strip_prefix("v1.").ok_or(StateError::Tampered)?;
        blob::decode(encoded).map_err(|_| StateError::Tampered)
    }
}

/// A codec that opens any state to the fuzzer's bytes (which need not be UTF-8).
struct Raw<'a>(&'a [u8]);

impl StateCodec for Raw<'_> {
    fn seal(&self, _: &[u8]) -> Result<String, StateError> {
        Err(StateError::Unsealable("this codec only opens".into()))
    }
    fn open(&self, _: &str) -> Result<Vec<u8>, StateError> {
        Ok(self.0.to_vec())
    }
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Progress {
    round: u8,
    tool: String,
    asked: Vec<String>,
    #[serde(default)]
    answers: Option<Map<String, Value>>,
}

fn state_error_is_client_side(error: &StateError) {
    assert!(
        matches!(error, StateError::Tampered | StateError::Unreadable(_)),
        "opening state gave {error:?}"
    );
    let _ = error.to_string();
    assert_eq!(RpcError::from(error.clone()).code, ErrorCode::InvalidParams);
}

/// Seals with `Prefixed`, opens again: the same value; and through `InputRequired`.
fn sealed_round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T) {
    let sealed = seal_state(&Prefixed, value).expect("a value that serialized seals");
    let opened: T = open_state(&Prefixed, &sealed)
        .unwrap_or_else(|e| panic!("state sealed by the crate does not open: {e}: {sealed}"));
    assert_eq!(&opened, value);
    let result = InputRequired::new()
        .seal_state(&Prefixed, value)
        .expect("seals")
        .build_ignoring_capabilities()
        .expect("state alone is a result");
    assert_eq!(result.request_state.as_deref(), Some(sealed.as_str()));
    let retry = RoundTrip {
        input_responses: None,
        request_state: result.request_state,
    };
    let opened: Option<T> = retry.open_state(&Prefixed).expect("opens");
    assert_eq!(opened.as_ref(), Some(value));
}

fn state(bytes: &[u8]) {
    let ours = open_state::<_, Value>(&Raw(bytes), "");
    let theirs = serde_json::from_slice::<Value>(bytes);
    match (&ours, &theirs) {
        (Ok(ours), Ok(theirs)) => assert_eq!(ours, theirs),
        (Err(error), Err(_)) => state_error_is_client_side(error),
        _ => panic!("open_state and serde_json disagree: {ours:?} / {theirs:?}"),
    }
    if let Ok(value) = &ours {
        sealed_round_trip(value);
    }
    match open_state::<_, Progress>(&Raw(bytes), "") {
        Ok(progress) => sealed_round_trip(&progress),
        Err(error) => state_error_is_client_side(&error),
    }
    // The bytes as a sealed string from the client.
    let text = String::from_utf8_lossy(bytes);
    for result in [
        open_state::<_, Value>(&Prefixed, &text).map(drop),
        open_state::<_, Progress>(&Prefixed, &text).map(drop),
    ] {
        if let Err(error) = result {
            state_error_is_client_side(&error);
        }
    }
    let retry = RoundTrip {
        input_responses: None,
        request_state: Some(text.into_owned()),
    };
    if let Err(error) = retry.open_state::<_, Progress>(&Prefixed) {
        state_error_is_client_side(&error);
    }
    let none: Option<Progress> = RoundTrip::default()
        .open_state(&Prefixed)
        .expect("no state");
    assert_eq!(none, None);
}

fn response_error(error: &InputResponseError, key: Option<&str>) {
    assert_eq!(error.key(), key);
    let rpc = RpcError::from(error.clone());
    assert_eq!(rpc.code, ErrorCode::InvalidParams);
    assert_eq!(rpc.message, error.to_string());
    match key {
        Some(key) => assert_eq!(
            rpc.data.as_ref().and_then(|d| d.get("key")),
            Some(&Value::from(key))
        ),
        None => assert_eq!(rpc.data, None),
    }
}

fn responses(retry: &RoundTrip) {
    let Some(responses) = &retry.input_responses else {
        for key in ["", "k"] {
            let error = retry.roots(key).expect_err("no responses");
            assert!(matches!(error, InputResponseError::Missing { .. }));
            response_error(&error, Some(key));
        }
        return;
    };
    for (key, response) in responses.iter() {
        let kind = response.kind();
        let results = [
            (InputKind::Elicitation, retry.elicitation(key).map(drop)),
            (InputKind::Sampling, retry.sampling(key).map(drop)),
            (InputKind::Roots, retry.roots(key).map(drop)),
        ];
        for (expected, result) in results {
            match result {
                Ok(()) => assert_eq!(expected, kind),
                Err(error) => {
                    assert_ne!(expected, kind);
                    assert_eq!(
                        error,
                        InputResponseError::WrongKind {
                            key: key.clone(),
                            expected,
                            found: kind
                        }
                    );
                    response_error(&error, Some(key));
                }
            }
        }
        let _ = kind.to_string();
    }
    let absent = format!(
        "{}~",
        responses.keys().next_back().cloned().unwrap_or_default()
    );
    let error = retry.sampling(&absent).expect_err("an absent key");
    assert_eq!(
        error,
        InputResponseError::Missing {
            key: absent.clone(),
            expected: InputKind::Sampling
        }
    );
    response_error(&error, Some(&absent));
}

/// Typed params of a retryable request: the same round trip as the object gives, and
/// `apply` of it changes nothing.
fn typed<P>(part: &[u8], expected: Option<&RoundTrip>)
where
    P: RoundTripParams + DeserializeOwned + Serialize + Clone + PartialEq + Debug,
{
    let Ok(params) = json::from_slice::<P>(part) else {
        return;
    };
    let retry = RoundTrip::of(&params);
    if let Some(expected) = expected {
        assert_eq!(&retry, expected, "RoundTrip::of and from_params disagree");
    }
    let mut applied = params.clone();
    retry.clone().apply(&mut applied);
    assert_eq!(applied, params);
    let Ok(Value::Object(object)) = serde_json::to_value(&params) else {
        panic!("typed params do not serialize as an object");
    };
    assert_eq!(
        RoundTrip::from_params(&object).as_ref(),
        Ok(&retry),
        "serialized typed params read another round trip"
    );
}

fn round_trip(part: &[u8], object: Option<&Map<String, Value>>) -> Option<RoundTrip> {
    let retry = match object.map(RoundTrip::from_params) {
        None => None,
        Some(Ok(retry)) => Some(retry),
        Some(Err(error)) => {
            assert!(
                matches!(
                    &error,
                    InputResponseError::Malformed {
                        member: "inputResponses" | "requestState",
                        ..
                    }
                ),
                "from_params gave {error:?}"
            );
            response_error(&error, None);
            None
        }
    };
    if let (Some(retry), Some(object)) = (&retry, object) {
        assert_eq!(
            retry.is_first(),
            retry.input_responses.is_none() && retry.request_state.is_none()
        );
        assert_eq!(
            retry.request_state.as_deref(),
            object.get("requestState").and_then(Value::as_str)
        );
        let mut written = object.clone();
        retry.clone().apply_to_object(&mut written).expect("writes");
        assert_eq!(&written, object, "apply_to_object changed the params");
        let mut fresh = Map::new();
        retry.clone().apply_to_object(&mut fresh).expect("writes");
        assert_eq!(RoundTrip::from_params(&fresh).as_ref(), Ok(retry));
        responses(retry);
    }
    typed::<CallToolRequestParams>(part, retry.as_ref());
    typed::<GetPromptRequestParams>(part, retry.as_ref());
    typed::<ReadResourceRequestParams>(part, retry.as_ref());
    typed::<InputResponseRequestParams>(part, retry.as_ref());
    retry
}

fn result_types(object: &Map<String, Value>) {
    let kind = result_type(object);
    match object.get("resultType") {
        None => assert_eq!(kind, Some(RESULT_TYPE_COMPLETE)),
        Some(Value::String(text)) => assert_eq!(kind, Some(text.as_str())),
        Some(_) => assert_eq!(kind, None),
    }
    assert_eq!(
        is_input_required(object),
        kind == Some(RESULT_TYPE_INPUT_REQUIRED)
    );
}

fn answers(
    result: &InputRequiredResult,
    retry: Option<&RoundTrip>,
    params: Option<&Map<String, Value>>,
) {
    let asked: Vec<(String, InputKind)> = result
        .input_requests
        .iter()
        .flat_map(|requests| requests.iter())
        .map(|(key, request)| (key.clone(), request.kind()))
        .collect();
    let mut answers = Answers::new(result);
    let pending: Vec<(String, InputKind)> = answers
        .pending()
        .map(|(key, kind)| (key.to_owned(), kind))
        .collect();
    assert_eq!(pending, asked);
    let mut answered = Vec::new();
    if let Some(responses) = retry.and_then(|r| r.input_responses.as_ref()) {
        for (key, response) in responses.iter() {
            let found = response.kind();
            let expected = asked.iter().find(|(k, _)| k == key).map(|(_, kind)| *kind);
            match answers.answer(key, response.clone()) {
                Ok(()) => {
                    assert_eq!(expected, Some(found));
                    answered.push(key.clone());
                }
                Err(InputResponseError::NotRequested { key: k }) => {
                    assert_eq!(&k, key);
                    assert_eq!(expected, None);
                }
                Err(InputResponseError::WrongKind {
                    key: k,
                    expected: e,
                    found: f,
                }) => {
                    assert_eq!(&k, key);
                    assert_eq!((Some(e), f), (expected, found));
                    assert_ne!(e, f);
                }
                Err(other) => panic!("answer gave {other:?}"),
            }
        }
    }
    let unanswered: Vec<&(String, InputKind)> = asked
        .iter()
        .filter(|(key, _)| !answered.contains(key))
        .collect();
    match answers.finish() {
        Ok(finished) => {
            assert!(
                unanswered.is_empty(),
                "finish with {unanswered:?} unanswered"
            );
            assert_eq!(finished.request_state, result.request_state);
            let keys: Option<Vec<&String>> = finished
                .input_responses
                .as_ref()
                .map(|r| r.keys().collect());
            let asked_keys: Vec<&String> = asked.iter().map(|(key, _)| key).collect();
            assert_eq!(keys.unwrap_or_default(), asked_keys);
            let mut object = params.cloned().unwrap_or_default();
            finished
                .clone()
                .apply_to_object(&mut object)
                .expect("writes");
            assert_eq!(
                RoundTrip::from_params(&object).as_ref(),
                Ok(&finished),
                "the retry the client built reads back otherwise"
            );
            responses(&finished);
        }
        Err(error) => {
            let (key, kind) = unanswered.first().expect("finish refuses a complete set");
            assert_eq!(
                error,
                InputResponseError::Missing {
                    key: key.clone(),
                    expected: *kind
                }
            );
        }
    }
}

fn rebuild(result: &InputRequiredResult, client: Option<&ClientCapabilities>) {
    let mut builder = InputRequired::new();
    for (key, request) in result.input_requests.iter().flat_map(|r| r.iter()) {
        builder = builder.request(key.clone(), request.clone());
    }
    if let Some(state) = &result.request_state {
        builder = builder.with_state(state.clone());
    }
    if let Some(meta) = &result.meta {
        builder = builder.with_meta(meta.clone());
    }
    assert_eq!(
        builder.requests().iter().collect::<Vec<_>>(),
        result
            .input_requests
            .iter()
            .flat_map(|r| r.iter())
            .collect::<Vec<_>>()
    );
    let expected = InputRequiredResult {
        input_requests: result.input_requests.clone().filter(|r| !r.is_empty()),
        meta: result.meta.clone(),
        request_state: result.request_state.clone(),
        result_type: mcp_spec_types::cache::ResultType::INPUT_REQUIRED,
        extra: Map::new(),
    };
    let empty = expected.input_requests.is_none() && expected.request_state.is_none();
    match builder.clone().build_ignoring_capabilities() {
        Ok(built) => {
            assert!(!empty);
            assert_eq!(built, expected);
            let text = json::to_string(&built).expect("serializes");
            let reread: InputRequiredResult = json::from_str(&text)
                .unwrap_or_else(|e| panic!("a built result does not read back: {e}: {text}"));
            assert_eq!(reread, built);
            let Ok(Value::Object(object)) = serde_json::to_value(&built) else {
                panic!("a result that is not an object");
            };
            assert!(is_input_required(&object));
        }
        Err(error) => {
            assert!(empty);
            assert_eq!(error, InputRequiredError::Empty);
            assert_eq!(RpcError::from(error).code, ErrorCode::InternalError);
        }
    }
    let Some(client) = client else {
        return;
    };
    let missing = result
        .input_requests
        .iter()
        .flat_map(|r| r.iter())
        .find_map(|(key, request)| {
            missing_capabilities(client, request).map(|required| (key, request, required))
        });
    match (builder.build(client), missing) {
        (Ok(built), None) => assert_eq!(built, expected),
        (Err(InputRequiredError::Empty), None) => assert!(empty),
        (Err(error), Some((key, request, required))) => {
            assert_eq!(
                error,
                InputRequiredError::Undeclared {
                    key: key.clone(),
                    kind: request.kind(),
                    required: match serde_json::to_value(&required) {
                        Ok(Value::Object(members)) => members,
                        other => panic!("capabilities write as an object: {other:?}"),
                    },
                }
            );
            let rpc = RpcError::from(error);
            assert_eq!(rpc.code, ErrorCode::MissingRequiredClientCapability);
            assert_eq!(
                rpc.data
                    .as_ref()
                    .and_then(|d| d.get("requiredCapabilities")),
                Some(&serde_json::to_value(&required).expect("serializes"))
            );
        }
        (built, missing) => panic!("build gave {built:?}; missing capabilities {missing:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let parts: Vec<&[u8]> = data.split(|&b| b == 0).collect();
    let part = |i: usize| parts.get(i).copied().unwrap_or_default();

    let params = match serde_json::from_slice::<Value>(part(0)) {
        Ok(Value::Object(object)) => Some(object),
        _ => None,
    };
    let retry = round_trip(part(0), params.as_ref());
    assert!(RoundTrip::from_params(&Map::new())
        .expect("an empty object")
        .is_first());

    if let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(part(1)) {
        result_types(&object);
    }
    if let Ok(result) = json::from_slice::<InputRequiredResult>(part(1)) {
        let text = json::to_string(&result).expect("serializes");
        let reread: InputRequiredResult = json::from_str(&text).expect("reads back");
        assert_eq!(reread, result);
        answers(&result, retry.as_ref(), params.as_ref());
        let client = json::from_slice::<ClientCapabilities>(part(2)).ok();
        rebuild(&result, client.as_ref());
    }
    state(part(3));
});
