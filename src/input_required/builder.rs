//! The server's first round: building the `InputRequiredResult` and refusing what the client
//! did not declare.

use super::kinds::InputKind;
use crate::prelude::*;
use crate::{ErrorCode, RpcError};
use core::fmt;
use serde::Serialize;
use serde_json::{Map, Value};

/// Why a revision's `InputRequired` built no result (one type for every revision).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputRequiredError {
    /// Neither input requests nor request state: the schema requires at least one.
    Empty,
    /// The request under `key` needs client capabilities the client did not declare.
    Undeclared {
        /// The request's key.
        key: String,
        /// The request's kind.
        kind: InputKind,
        /// The capabilities it needs that the client did not declare: the `ClientCapabilities`
        /// object of the request's revision, as written (what the -32021 error carries in
        /// `data.requiredCapabilities`).
        required: Map<String, Value>,
    },
}

impl InputRequiredError {
    /// [`InputRequiredError::Undeclared`] for the request under `key`, with `required` the
    /// missing capabilities as a `ClientCapabilities` of any revision (what a revision's
    /// `missing_capabilities` gives), for a server that checks capabilities its own way.
    pub fn undeclared(key: impl Into<String>, kind: InputKind, required: &impl Serialize) -> Self {
        // A `ClientCapabilities` is an object of objects: writing one as JSON cannot fail, and
        // a value that is not an object has no members to name.
        let required = match serde_json::to_value(required) {
            Ok(Value::Object(members)) => members,
            _ => Map::new(),
        };
        InputRequiredError::Undeclared {
            key: key.into(),
            kind,
            required,
        }
    }
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

impl core::error::Error for InputRequiredError {}

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
                data.insert("requiredCapabilities".to_owned(), Value::Object(required));
                RpcError::new(ErrorCode::MissingRequiredClientCapability, message)
                    .with_data(Value::Object(data))
            }
        }
    }
}

/// A revision's `InputRequired`; expanded by `input_required_api!`.
#[allow(unused_macros)] // Used by the revisions that have input requests.
macro_rules! result_builder {
    () => {
        /// Builds an [`InputRequiredResult`]: input requests under server-chosen keys, and the
        /// request state the client echoes on its retry.
        ///
        /// Asking twice under one key keeps the later request.
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct InputRequired {
            requests: ::alloc::collections::BTreeMap<String, InputRequest>,
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
            pub fn request(
                mut self,
                key: impl Into<String>,
                request: impl Into<InputRequest>,
            ) -> Self {
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
            pub fn elicit(
                self,
                key: impl Into<String>,
                params: impl Into<ElicitRequestParams>,
            ) -> Self {
                self.ask::<ElicitRequest>(key, params.into())
            }

            /// Adds a form-mode `elicitation/create` request under `key`: `message` and the
            /// flat schema of the answer.
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
                        extra: ::serde_json::Map::new(),
                    },
                )
            }

            /// Adds a `sampling/createMessage` request under `key`.
            #[must_use]
            pub fn sample(
                self,
                key: impl Into<String>,
                params: CreateMessageRequestParams,
            ) -> Self {
                self.ask::<CreateMessageRequest>(key, params)
            }

            /// Adds a `roots/list` request under `key` (with empty params).
            #[must_use]
            pub fn list_roots(self, key: impl Into<String>) -> Self {
                self.ask::<ListRootsRequest>(key, Some(ListRootsRequestParams::default()))
            }

            /// Sets the request state as given: opaque to the client, but not protected from
            /// it. State the server acts on goes through [`InputRequired::seal_state`] instead.
            #[must_use]
            pub fn with_state(mut self, state: impl Into<String>) -> Self {
                self.state = Some(state.into());
                self
            }

            /// Sets the request state to `state` sealed by `codec` (see [`seal_state`]).
            pub fn seal_state<C, T>(mut self, codec: &C, state: &T) -> Result<Self, StateError>
            where
                C: StateCodec + ?Sized,
                T: ::serde::Serialize + ?Sized,
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
            pub fn requests(&self) -> &::alloc::collections::BTreeMap<String, InputRequest> {
                &self.requests
            }

            /// The result, once every request is one `client` declared the capabilities for
            /// (see [`missing_capabilities`]) and at least one of requests or state is present.
            pub fn build(
                self,
                client: &ClientCapabilities,
            ) -> Result<InputRequiredResult, InputRequiredError> {
                for (key, request) in &self.requests {
                    if let Some(required) = missing_capabilities(client, request) {
                        return Err(InputRequiredError::undeclared(
                            key.as_str(),
                            request.kind(),
                            &required,
                        ));
                    }
                }
                self.build_ignoring_capabilities()
            }

            /// The result without checking the client's capabilities (for a server that
            /// checked them its own way); still refused when it carries neither requests nor
            /// state.
            pub fn build_ignoring_capabilities(
                self,
            ) -> Result<InputRequiredResult, InputRequiredError> {
                if self.requests.is_empty() && self.state.is_none() {
                    return Err(InputRequiredError::Empty);
                }
                Ok(InputRequiredResult {
                    input_requests: (!self.requests.is_empty())
                        .then_some(InputRequests(self.requests)),
                    meta: self.meta,
                    request_state: self.state,
                    result_type: $crate::cache::ResultType::INPUT_REQUIRED,
                    extra: ::serde_json::Map::new(),
                })
            }

            /// [`InputRequired::build`], as the result of request `R`: only the requests whose
            /// result the schema lets be an [`InputRequiredResult`] (`tools/call`,
            /// `prompts/get`, `resources/read`) compile.
            pub fn result_for<R>(
                self,
                client: &ClientCapabilities,
            ) -> Result<R::Result, InputRequiredError>
            where
                R: $crate::Request,
                R::Result: From<InputRequiredResult>,
            {
                self.build(client).map(Into::into)
            }
        }
    };
}
#[allow(unused_imports)] // Used by the revisions that have input requests.
pub(crate) use result_builder;
