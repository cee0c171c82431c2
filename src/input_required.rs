//! Multi round-trip requests (revision 2026-07-28): a server that needs more from the client
//! before it can answer `tools/call`, `prompts/get` or `resources/read` answers with an
//! [`InputRequiredResult`] instead; the client fulfils its `inputRequests` and sends the same
//! request again, with the answers in `inputResponses` and the server's `requestState` echoed
//! unchanged.
//!
//! The server side:
//!
//! * [`InputRequired`] builds the result: elicitation, sampling and `roots/list` requests under
//!   the keys the server picks, and the request state. [`InputRequired::build`] refuses a request
//!   the client did not declare the capability for (capabilities travel with every request in
//!   this revision), and a result with neither requests nor state.
//! * [`RoundTrip`] reads what a retried request brought back: each input response typed by its
//!   key ([`RoundTrip::elicitation`], [`RoundTrip::sampling`], [`RoundTrip::roots`]), with a
//!   missing or wrong-kind response an [`InputResponseError`] naming the key.
//! * [`StateCodec`] is the hook through which the server seals the state it hands out (signs or
//!   encrypts it) and opens it when it comes back: the client is not trusted with it, and state
//!   that fails the check is a [`StateError::Tampered`]. The crate has no cryptography of its
//!   own; [`seal_state`] and [`open_state`] carry any serializable state through a codec.
//!
//! The client side: [`Answers`] collects the client's responses to one [`InputRequiredResult`],
//! checking each against the kind of request under its key, and turns them into the
//! [`RoundTrip`] that [`RoundTrip::apply`] writes onto the retried request's params.
//!
//! ```
//! use mcp_spec_types::input_required::{Answers, InputRequired, RoundTrip};
//! use mcp_spec_types::v2026_07_28::{
//!     CallToolRequest, CallToolRequestParams, ClientCapabilities, ElicitResult, ElicitResultAction,
//!     ListRootsResult, Root,
//! };
//!
//! // Server, first round: ask for the client's roots.
//! let client: ClientCapabilities = serde_json::from_str(r#"{"roots":{}}"#).unwrap();
//! let asked = InputRequired::new()
//!     .list_roots("client_roots")
//!     .with_state("opaque")
//!     .build(&client)
//!     .unwrap();
//! assert_eq!(serde_json::to_value(&asked).unwrap()["inputRequests"]["client_roots"]["method"], "roots/list");
//! // Elicitation was not declared: asking for it is refused, naming the key.
//! let schema = serde_json::from_str(r#"{"type":"object","properties":{"name":{"type":"string"}}}"#).unwrap();
//! let refused = InputRequired::new().elicit_form("name", "Your name?", schema).build(&client);
//! assert!(refused.unwrap_err().to_string().contains("\"name\""));
//!
//! // Client: answer every request, then retry with the answers and the echoed state.
//! let mut answers = Answers::new(&asked);
//! let roots = ListRootsResult { roots: vec![Root::new("file:///work")], extra: Default::default() };
//! answers.answer("client_roots", roots).unwrap();
//! // An elicitation result is not an answer to `roots/list`.
//! let wrong = ElicitResult { action: ElicitResultAction::Decline, content: None, extra: Default::default() };
//! assert!(answers.answer("client_roots", wrong).is_err());
//! let mut params: CallToolRequestParams = serde_json::from_value(serde_json::json!({
//!     "name": "scan", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
//!     "io.modelcontextprotocol/clientCapabilities": {"roots": {}}}})).unwrap();
//! answers.finish().unwrap().apply(&mut params);
//! assert_eq!(params.request_state.as_deref(), Some("opaque"));
//!
//! // Server, second round: read the roots under their key.
//! let retry = RoundTrip::of(&params);
//! assert_eq!(retry.roots("client_roots").unwrap().roots[0].uri, "file:///work");
//! assert!(retry.elicitation("client_roots").is_err());
//! ```

use crate::v2026_07_28::{
    CallToolRequestParams, ClientCapabilities, ClientCapabilitiesElicitation,
    ClientCapabilitiesSampling, CreateMessageRequest, CreateMessageRequestParams,
    CreateMessageRequestParamsIncludeContext, CreateMessageResult, ElicitRequest,
    ElicitRequestFormParams, ElicitRequestFormParamsRequestedSchema, ElicitRequestParams,
    ElicitResult, GetPromptRequestParams, InputRequest, InputRequests, InputRequiredResult,
    InputResponse, InputResponseRequestParams, InputResponses, ListRootsRequest,
    ListRootsRequestParams, ListRootsResult, ReadResourceRequestParams, ResultMetaObject,
};
use crate::{ErrorCode, JsonObject, Request, RpcError};
use serde::de::DeserializeOwned;
use serde::{Deserialize as _, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// `resultType` of a result that answers its request (also what an absent `resultType` means:
/// results of earlier revisions carry none).
pub use crate::cache::RESULT_TYPE_COMPLETE;
/// `resultType` of an [`InputRequiredResult`].
pub const RESULT_TYPE_INPUT_REQUIRED: &str = "input_required";

/// The `params` member that carries the input responses of a retried request.
pub const INPUT_RESPONSES: &str = "inputResponses";
/// The `params` member (and [`InputRequiredResult`] member) that carries the request state.
pub const REQUEST_STATE: &str = "requestState";

/// The `resultType` of a result object, [`RESULT_TYPE_COMPLETE`] when it has none (the
/// schema's rule for results of servers on earlier revisions), `None` when it is not a string.
pub fn result_type(result: &Map<String, Value>) -> Option<&str> {
    match result.get("resultType") {
        None => Some(RESULT_TYPE_COMPLETE),
        Some(Value::String(kind)) => Some(kind),
        Some(_) => None,
    }
}

/// Whether a result object is an [`InputRequiredResult`] (its `resultType` says so).
pub fn is_input_required(result: &Map<String, Value>) -> bool {
    result_type(result) == Some(RESULT_TYPE_INPUT_REQUIRED)
}

// ---------------------------------------------------------------------------------------------
// The kinds of input request
// ---------------------------------------------------------------------------------------------

/// Which of the three requests an input request is (and so which result answers it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InputKind {
    /// `elicitation/create`, answered with an [`ElicitResult`].
    Elicitation,
    /// `sampling/createMessage`, answered with a [`CreateMessageResult`].
    Sampling,
    /// `roots/list`, answered with a [`ListRootsResult`].
    Roots,
}

impl InputKind {
    /// The method name of the request.
    pub fn method(self) -> &'static str {
        match self {
            InputKind::Elicitation => ElicitRequest::METHOD,
            InputKind::Sampling => CreateMessageRequest::METHOD,
            InputKind::Roots => ListRootsRequest::METHOD,
        }
    }

    /// The kind of an input request.
    pub fn of_request(request: &InputRequest) -> Self {
        match request {
            InputRequest::ElicitRequest(_) => InputKind::Elicitation,
            InputRequest::CreateMessageRequest(_) => InputKind::Sampling,
            InputRequest::ListRootsRequest(_) => InputKind::Roots,
        }
    }

    /// The kind of request an input response answers.
    pub fn of_response(response: &InputResponse) -> Self {
        match response {
            InputResponse::ElicitResult(_) => InputKind::Elicitation,
            InputResponse::CreateMessageResult(_) => InputKind::Sampling,
            InputResponse::ListRootsResult(_) => InputKind::Roots,
        }
    }
}

impl fmt::Display for InputKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.method())
    }
}

/// A request a server may send inside `inputRequests`, paired with the result that answers it:
/// [`ElicitRequest`], [`CreateMessageRequest`] and [`ListRootsRequest`].
///
/// Used to ask and read generically: [`InputRequired::ask`], [`RoundTrip::response`].
pub trait InputMethod: Request + private::Sealed {
    /// Which kind this is.
    const KIND: InputKind;
    /// The input request with these params.
    fn input_request(params: Self::Params) -> InputRequest;
    /// The response, when it is this method's result.
    fn result_of(response: &InputResponse) -> Option<&Self::Result>;
}

mod private {
    pub trait Sealed {}
    impl Sealed for super::ElicitRequest {}
    impl Sealed for super::CreateMessageRequest {}
    impl Sealed for super::ListRootsRequest {}
}

impl InputMethod for ElicitRequest {
    const KIND: InputKind = InputKind::Elicitation;
    fn input_request(params: ElicitRequestParams) -> InputRequest {
        InputRequest::ElicitRequest(ElicitRequest {
            params,
            extra: Map::new(),
        })
    }
    fn result_of(response: &InputResponse) -> Option<&ElicitResult> {
        match response {
            InputResponse::ElicitResult(result) => Some(result),
            _ => None,
        }
    }
}

impl InputMethod for CreateMessageRequest {
    const KIND: InputKind = InputKind::Sampling;
    fn input_request(params: CreateMessageRequestParams) -> InputRequest {
        InputRequest::CreateMessageRequest(CreateMessageRequest {
            params,
            extra: Map::new(),
        })
    }
    fn result_of(response: &InputResponse) -> Option<&CreateMessageResult> {
        match response {
            InputResponse::CreateMessageResult(result) => Some(result),
            _ => None,
        }
    }
}

impl InputMethod for ListRootsRequest {
    const KIND: InputKind = InputKind::Roots;
    fn input_request(params: Option<ListRootsRequestParams>) -> InputRequest {
        InputRequest::ListRootsRequest(ListRootsRequest {
            params,
            extra: Map::new(),
        })
    }
    fn result_of(response: &InputResponse) -> Option<&ListRootsResult> {
        match response {
            InputResponse::ListRootsResult(result) => Some(result),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Capabilities
// ---------------------------------------------------------------------------------------------

/// The client capabilities an input request needs that `client` did not declare, or `None`
/// when it declared them all.
///
/// The rules: elicitation in form mode needs `elicitation` with `form` (an `elicitation`
/// object with neither `form` nor `url` declares form mode only, for backwards compatibility);
/// URL mode needs `elicitation.url`. Sampling needs `sampling`, plus `sampling.tools` when the
/// request carries `tools` or `toolChoice`, and `sampling.context` when it asks for an
/// `includeContext` other than `"none"`. `roots/list` needs `roots`.
pub fn missing_capabilities(
    client: &ClientCapabilities,
    request: &InputRequest,
) -> Option<ClientCapabilities> {
    let some = || Some(JsonObject::new());
    match request {
        InputRequest::ElicitRequest(request) => {
            let declared = client.elicitation.as_ref();
            let url_mode = matches!(request.params, ElicitRequestParams::UrlParams(_));
            let ok = declared.is_some_and(|e| {
                if url_mode {
                    e.url.is_some()
                } else {
                    e.form.is_some() || e.url.is_none()
                }
            });
            (!ok).then(|| ClientCapabilities {
                elicitation: Some(ClientCapabilitiesElicitation {
                    form: (!url_mode).then(JsonObject::new),
                    url: url_mode.then(JsonObject::new),
                    extra: Map::new(),
                }),
                ..ClientCapabilities::default()
            })
        }
        InputRequest::CreateMessageRequest(request) => {
            let params = &request.params;
            let wants_tools = params.tools.is_some() || params.tool_choice.is_some();
            let wants_context = matches!(
                params.include_context,
                Some(
                    CreateMessageRequestParamsIncludeContext::ThisServer
                        | CreateMessageRequestParamsIncludeContext::AllServers
                )
            );
            let declared = client.sampling.as_ref();
            let tools = wants_tools && declared.is_none_or(|s| s.tools.is_none());
            let context = wants_context && declared.is_none_or(|s| s.context.is_none());
            (declared.is_none() || tools || context).then(|| ClientCapabilities {
                sampling: Some(ClientCapabilitiesSampling {
                    tools: if tools { some() } else { None },
                    context: if context { some() } else { None },
                    extra: Map::new(),
                }),
                ..ClientCapabilities::default()
            })
        }
        InputRequest::ListRootsRequest(_) => client.roots.is_none().then(|| ClientCapabilities {
            roots: some(),
            ..ClientCapabilities::default()
        }),
    }
}

// ---------------------------------------------------------------------------------------------
// Server: building the result
// ---------------------------------------------------------------------------------------------

/// Builds an [`InputRequiredResult`]: input requests under server-chosen keys, and the request
/// state the client echoes on its retry.
///
/// Asking twice under one key keeps the later request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputRequired {
    requests: BTreeMap<String, InputRequest>,
    state: Option<String>,
    meta: Option<ResultMetaObject>,
}

impl InputRequired {
    /// No requests and no state yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an input request under `key`.
    #[must_use]
    pub fn request(mut self, key: impl Into<String>, request: impl Into<InputRequest>) -> Self {
        self.requests.insert(key.into(), request.into());
        self
    }

    /// Adds the request of method `M` with `params` under `key`
    /// (`ask::<ElicitRequest>("name", params)`).
    #[must_use]
    pub fn ask<M: InputMethod>(self, key: impl Into<String>, params: M::Params) -> Self {
        self.request(key, M::input_request(params))
    }

    /// Adds an `elicitation/create` request under `key`.
    #[must_use]
    pub fn elicit(self, key: impl Into<String>, params: impl Into<ElicitRequestParams>) -> Self {
        self.ask::<ElicitRequest>(key, params.into())
    }

    /// Adds a form-mode `elicitation/create` request under `key`: `message` and the flat schema
    /// of the answer.
    #[must_use]
    pub fn elicit_form(
        self,
        key: impl Into<String>,
        message: impl Into<String>,
        requested_schema: ElicitRequestFormParamsRequestedSchema,
    ) -> Self {
        self.elicit(
            key,
            ElicitRequestFormParams {
                message: message.into(),
                mode: None,
                requested_schema,
                extra: Map::new(),
            },
        )
    }

    /// Adds a `sampling/createMessage` request under `key`.
    #[must_use]
    pub fn sample(self, key: impl Into<String>, params: CreateMessageRequestParams) -> Self {
        self.ask::<CreateMessageRequest>(key, params)
    }

    /// Adds a `roots/list` request under `key` (with empty params).
    #[must_use]
    pub fn list_roots(self, key: impl Into<String>) -> Self {
        self.ask::<ListRootsRequest>(key, Some(ListRootsRequestParams::default()))
    }

    /// Sets the request state as given: opaque to the client, but not protected from it. State
    /// the server acts on goes through [`InputRequired::seal_state`] instead.
    #[must_use]
    pub fn with_state(mut self, state: impl Into<String>) -> Self {
        self.state = Some(state.into());
        self
    }

    /// Sets the request state to `state` sealed by `codec` (see [`seal_state`]).
    pub fn seal_state<C, T>(mut self, codec: &C, state: &T) -> Result<Self, StateError>
    where
        C: StateCodec + ?Sized,
        T: Serialize + ?Sized,
    {
        self.state = Some(seal_state(codec, state)?);
        Ok(self)
    }

    /// Sets the result's `_meta`.
    #[must_use]
    pub fn with_meta(mut self, meta: ResultMetaObject) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The input requests so far, by key.
    pub fn requests(&self) -> &BTreeMap<String, InputRequest> {
        &self.requests
    }

    /// The result, once every request is one `client` declared the capabilities for (see
    /// [`missing_capabilities`]) and at least one of requests or state is present.
    pub fn build(
        self,
        client: &ClientCapabilities,
    ) -> Result<InputRequiredResult, InputRequiredError> {
        for (key, request) in &self.requests {
            if let Some(required) = missing_capabilities(client, request) {
                return Err(InputRequiredError::Undeclared {
                    key: key.clone(),
                    kind: InputKind::of_request(request),
                    required: Box::new(required),
                });
            }
        }
        self.build_ignoring_capabilities()
    }

    /// The result without checking the client's capabilities (for a server that checked them
    /// its own way); still refused when it carries neither requests nor state.
    pub fn build_ignoring_capabilities(self) -> Result<InputRequiredResult, InputRequiredError> {
        if self.requests.is_empty() && self.state.is_none() {
            return Err(InputRequiredError::Empty);
        }
        Ok(InputRequiredResult {
            input_requests: (!self.requests.is_empty()).then_some(InputRequests(self.requests)),
            meta: self.meta,
            request_state: self.state,
            result_type: RESULT_TYPE_INPUT_REQUIRED.to_owned(),
            extra: Map::new(),
        })
    }

    /// [`InputRequired::build`], as the result of request `R`: only the requests whose result
    /// the schema lets be an [`InputRequiredResult`] (`tools/call`, `prompts/get`,
    /// `resources/read`) compile.
    pub fn result_for<R>(self, client: &ClientCapabilities) -> Result<R::Result, InputRequiredError>
    where
        R: Request,
        R::Result: From<InputRequiredResult>,
    {
        self.build(client).map(Into::into)
    }
}

/// Why [`InputRequired`] built no result.
#[derive(Clone, Debug, PartialEq)]
pub enum InputRequiredError {
    /// Neither input requests nor request state: the schema requires at least one.
    Empty,
    /// The request under `key` needs client capabilities the client did not declare.
    Undeclared {
        /// The request's key.
        key: String,
        /// The request's kind.
        kind: InputKind,
        /// The capabilities it needs that the client did not declare.
        required: Box<ClientCapabilities>,
    },
}

impl fmt::Display for InputRequiredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputRequiredError::Empty => f.write_str(
                "an InputRequiredResult needs at least one of inputRequests or requestState",
            ),
            InputRequiredError::Undeclared { key, kind, required } => write!(
                f,
                "input request {key:?} ({kind}) needs client capabilities the client did not declare: {}",
                serde_json::to_string(required).unwrap_or_default()
            ),
        }
    }
}

impl std::error::Error for InputRequiredError {}

impl From<InputRequiredError> for RpcError {
    /// [`InputRequiredError::Undeclared`] is the -32021 error, with the missing capabilities in
    /// `data.requiredCapabilities`; [`InputRequiredError::Empty`] is the server's own fault
    /// (-32603).
    fn from(error: InputRequiredError) -> Self {
        let message = error.to_string();
        match error {
            InputRequiredError::Empty => RpcError::new(ErrorCode::InternalError, message),
            InputRequiredError::Undeclared { required, .. } => {
                let mut data = Map::new();
                if let Ok(required) = serde_json::to_value(&*required) {
                    data.insert("requiredCapabilities".to_owned(), required);
                }
                RpcError::new(ErrorCode::MissingRequiredClientCapability, message)
                    .with_data(Value::Object(data))
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Request state
// ---------------------------------------------------------------------------------------------

/// How a server protects the request state it hands the client, which comes back as input
/// from a party it does not trust: [`StateCodec::seal`] signs or encrypts the state's bytes
/// into the opaque string, [`StateCodec::open`] checks and recovers them.
///
/// The crate ships no implementation (it has no cryptography): an HMAC over the bytes, or an
/// AEAD cipher, from the server's own dependencies.
pub trait StateCodec {
    /// The opaque `requestState` string for `state`.
    fn seal(&self, state: &[u8]) -> Result<String, StateError>;
    /// The bytes sealed into `sealed`; [`StateError::Tampered`] when the check fails.
    fn open(&self, sealed: &str) -> Result<Vec<u8>, StateError>;
}

/// `state` serialized to JSON and sealed by `codec`.
pub fn seal_state<C, T>(codec: &C, state: &T) -> Result<String, StateError>
where
    C: StateCodec + ?Sized,
    T: Serialize + ?Sized,
{
    let bytes = serde_json::to_vec(state).map_err(|e| StateError::Unsealable(e.to_string()))?;
    codec.seal(&bytes)
}

/// The state [`seal_state`] sealed into `sealed`, opened by `codec` and read from JSON.
pub fn open_state<C, T>(codec: &C, sealed: &str) -> Result<T, StateError>
where
    C: StateCodec + ?Sized,
    T: DeserializeOwned,
{
    let bytes = codec.open(sealed)?;
    serde_json::from_slice(&bytes).map_err(|e| StateError::Unreadable(e.to_string()))
}

/// Why request state could not be sealed or opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    /// The state failed the codec's integrity check: it is not what the server handed out.
    Tampered,
    /// The state passed the check (or has none) but could not be read.
    Unreadable(String),
    /// The state could not be sealed.
    Unsealable(String),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Tampered => f.write_str("requestState failed its integrity check"),
            StateError::Unreadable(why) => write!(f, "requestState could not be read: {why}"),
            StateError::Unsealable(why) => write!(f, "requestState could not be sealed: {why}"),
        }
    }
}

impl std::error::Error for StateError {}

impl From<StateError> for RpcError {
    /// State from the client that fails to open is invalid params (-32602); state the server
    /// could not seal is its own fault (-32603).
    fn from(error: StateError) -> Self {
        match error {
            StateError::Unsealable(_) => RpcError::new(ErrorCode::InternalError, error.to_string()),
            _ => RpcError::invalid_params(error.to_string()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The retried request
// ---------------------------------------------------------------------------------------------

/// The params of a request that may be retried with input responses: those of the requests
/// whose result may be an [`InputRequiredResult`], and the schema's common
/// [`InputResponseRequestParams`].
pub trait RoundTripParams {
    /// `inputResponses`.
    fn input_responses(&self) -> Option<&InputResponses>;
    /// `requestState`.
    fn request_state(&self) -> Option<&str>;
    /// Replaces both members.
    fn set_round_trip(
        &mut self,
        input_responses: Option<InputResponses>,
        request_state: Option<String>,
    );
}

macro_rules! round_trip_params {
    ($($ty:ty),*) => {$(
        impl RoundTripParams for $ty {
            fn input_responses(&self) -> Option<&InputResponses> {
                self.input_responses.as_ref()
            }
            fn request_state(&self) -> Option<&str> {
                self.request_state.as_deref()
            }
            fn set_round_trip(
                &mut self,
                input_responses: Option<InputResponses>,
                request_state: Option<String>,
            ) {
                self.input_responses = input_responses;
                self.request_state = request_state;
            }
        }
    )*};
}
round_trip_params!(
    CallToolRequestParams,
    GetPromptRequestParams,
    ReadResourceRequestParams,
    InputResponseRequestParams
);

/// The round-trip members of a request: the input responses and request state a retry
/// carries (both absent on a first attempt).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoundTrip {
    /// `inputResponses`.
    pub input_responses: Option<InputResponses>,
    /// `requestState`, exactly as the server sent it.
    pub request_state: Option<String>,
}

impl RoundTrip {
    /// The members of typed params.
    pub fn of<P: RoundTripParams + ?Sized>(params: &P) -> Self {
        RoundTrip {
            input_responses: params.input_responses().cloned(),
            request_state: params.request_state().map(str::to_owned),
        }
    }

    /// The members of a params object as it came off the wire; a member that is present but
    /// does not fit the schema (`inputResponses: null`, a response that is a number, a state
    /// that is not a string) is [`InputResponseError::Malformed`].
    pub fn from_params(params: &Map<String, Value>) -> Result<Self, InputResponseError> {
        let input_responses = match params.get(INPUT_RESPONSES) {
            None => None,
            Some(value) => Some(InputResponses::deserialize(value).map_err(|e| {
                InputResponseError::Malformed {
                    member: INPUT_RESPONSES,
                    reason: e.to_string(),
                }
            })?),
        };
        let request_state = match params.get(REQUEST_STATE) {
            None => None,
            Some(Value::String(state)) => Some(state.clone()),
            Some(_) => {
                return Err(InputResponseError::Malformed {
                    member: REQUEST_STATE,
                    reason: "not a string".to_owned(),
                })
            }
        };
        Ok(RoundTrip {
            input_responses,
            request_state,
        })
    }

    /// Whether the request carries neither input responses nor state (a first attempt).
    pub fn is_first(&self) -> bool {
        self.input_responses.is_none() && self.request_state.is_none()
    }

    /// The response under `key`, as the result of method `M`.
    pub fn response<M: InputMethod>(&self, key: &str) -> Result<&M::Result, InputResponseError> {
        let response = self
            .input_responses
            .as_ref()
            .and_then(|responses| responses.get(key))
            .ok_or_else(|| InputResponseError::Missing {
                key: key.to_owned(),
                expected: M::KIND,
            })?;
        M::result_of(response).ok_or_else(|| InputResponseError::WrongKind {
            key: key.to_owned(),
            expected: M::KIND,
            found: InputKind::of_response(response),
        })
    }

    /// The elicitation result under `key`.
    pub fn elicitation(&self, key: &str) -> Result<&ElicitResult, InputResponseError> {
        self.response::<ElicitRequest>(key)
    }

    /// The sampling result under `key`.
    pub fn sampling(&self, key: &str) -> Result<&CreateMessageResult, InputResponseError> {
        self.response::<CreateMessageRequest>(key)
    }

    /// The `roots/list` result under `key`.
    pub fn roots(&self, key: &str) -> Result<&ListRootsResult, InputResponseError> {
        self.response::<ListRootsRequest>(key)
    }

    /// The request state opened by `codec` (see [`open_state`]); `None` when there is none.
    pub fn open_state<C, T>(&self, codec: &C) -> Result<Option<T>, StateError>
    where
        C: StateCodec + ?Sized,
        T: DeserializeOwned,
    {
        self.request_state
            .as_deref()
            .map(|sealed| open_state(codec, sealed))
            .transpose()
    }

    /// Writes both members onto the params of the retried request, replacing what an earlier
    /// attempt carried (a member that is absent here is removed).
    pub fn apply<P: RoundTripParams + ?Sized>(self, params: &mut P) {
        params.set_round_trip(self.input_responses, self.request_state);
    }

    /// [`RoundTrip::apply`] on a params object.
    pub fn apply_to_object(self, params: &mut Map<String, Value>) -> Result<(), serde_json::Error> {
        match self.input_responses {
            Some(responses) => {
                params.insert(INPUT_RESPONSES.to_owned(), serde_json::to_value(responses)?);
            }
            None => {
                params.remove(INPUT_RESPONSES);
            }
        }
        match self.request_state {
            Some(state) => {
                params.insert(REQUEST_STATE.to_owned(), Value::String(state));
            }
            None => {
                params.remove(REQUEST_STATE);
            }
        }
        Ok(())
    }
}

/// Why an input response could not be read or given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputResponseError {
    /// No response under `key` (a server typically asks again).
    Missing {
        /// The key.
        key: String,
        /// The kind of response that was expected.
        expected: InputKind,
    },
    /// The response under `key` answers another kind of request.
    WrongKind {
        /// The key.
        key: String,
        /// The kind of response that was expected.
        expected: InputKind,
        /// The kind it is.
        found: InputKind,
    },
    /// A response under a key the server did not ask for.
    NotRequested {
        /// The key.
        key: String,
    },
    /// A round-trip member that does not fit the schema.
    Malformed {
        /// `inputResponses` or `requestState`.
        member: &'static str,
        /// What is wrong with it.
        reason: String,
    },
}

impl InputResponseError {
    /// The key the error is about, if any.
    pub fn key(&self) -> Option<&str> {
        match self {
            InputResponseError::Missing { key, .. }
            | InputResponseError::WrongKind { key, .. }
            | InputResponseError::NotRequested { key } => Some(key),
            InputResponseError::Malformed { .. } => None,
        }
    }
}

impl fmt::Display for InputResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputResponseError::Missing { key, expected } => {
                write!(
                    f,
                    "no input response under {key:?} (expected a {expected} result)"
                )
            }
            InputResponseError::WrongKind {
                key,
                expected,
                found,
            } => write!(
                f,
                "the input response under {key:?} is a {found} result, not a {expected} result"
            ),
            InputResponseError::NotRequested { key } => {
                write!(f, "no input request under {key:?}")
            }
            InputResponseError::Malformed { member, reason } => write!(f, "{member}: {reason}"),
        }
    }
}

impl std::error::Error for InputResponseError {}

impl From<InputResponseError> for RpcError {
    /// Input responses that do not fit are invalid params (-32602), with the key in
    /// `data.key` when there is one.
    fn from(error: InputResponseError) -> Self {
        let rpc = RpcError::invalid_params(error.to_string());
        match error.key() {
            Some(key) => {
                let mut data = Map::new();
                data.insert("key".to_owned(), Value::String(key.to_owned()));
                rpc.with_data(Value::Object(data))
            }
            None => rpc,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Client: answering
// ---------------------------------------------------------------------------------------------

/// The client's answers to one [`InputRequiredResult`], each checked against the kind of the
/// request under its key; [`Answers::finish`] makes the retry's [`RoundTrip`], with the
/// server's request state echoed unchanged (and none when the server sent none).
#[derive(Clone, Debug, PartialEq)]
pub struct Answers {
    asked: BTreeMap<String, InputKind>,
    state: Option<String>,
    responses: BTreeMap<String, InputResponse>,
}

impl Answers {
    /// Answers to `result`, none given yet.
    pub fn new(result: &InputRequiredResult) -> Self {
        let asked = result
            .input_requests
            .iter()
            .flat_map(|requests| requests.iter())
            .map(|(key, request)| (key.clone(), InputKind::of_request(request)))
            .collect();
        Answers {
            asked,
            state: result.request_state.clone(),
            responses: BTreeMap::new(),
        }
    }

    /// The keys asked for and not answered yet, with their kinds.
    pub fn pending(&self) -> impl Iterator<Item = (&str, InputKind)> + '_ {
        self.asked
            .iter()
            .filter(|(key, _)| !self.responses.contains_key(*key))
            .map(|(key, kind)| (key.as_str(), *kind))
    }

    /// Gives the response to the request under `key` (replacing an earlier one); refused when
    /// the server asked nothing under `key`, or asked another kind of request.
    pub fn answer(
        &mut self,
        key: &str,
        response: impl Into<InputResponse>,
    ) -> Result<(), InputResponseError> {
        let response = response.into();
        let expected = *self
            .asked
            .get(key)
            .ok_or_else(|| InputResponseError::NotRequested {
                key: key.to_owned(),
            })?;
        let found = InputKind::of_response(&response);
        if found != expected {
            return Err(InputResponseError::WrongKind {
                key: key.to_owned(),
                expected,
                found,
            });
        }
        self.responses.insert(key.to_owned(), response);
        Ok(())
    }

    /// The retry's members, once every request is answered (else
    /// [`InputResponseError::Missing`] for the first one that is not). A result that asked
    /// nothing (state only) is retried with no `inputResponses`.
    pub fn finish(self) -> Result<RoundTrip, InputResponseError> {
        if let Some((key, kind)) = self.pending().next() {
            return Err(InputResponseError::Missing {
                key: key.to_owned(),
                expected: kind,
            });
        }
        Ok(RoundTrip {
            input_responses: (!self.responses.is_empty()).then_some(InputResponses(self.responses)),
            request_state: self.state,
        })
    }
}
