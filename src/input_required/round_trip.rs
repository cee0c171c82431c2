//! The server's second round: what a retried request brought back, typed by key.

use super::kinds::InputKind;
use crate::prelude::*;
use crate::RpcError;
use core::fmt;
use serde_json::{Map, Value};

/// Why an input response could not be read or given (one type for every revision).
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

impl core::error::Error for InputResponseError {}

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

/// A revision's `RoundTripParams` (with its impls) and `RoundTrip`; expanded by
/// `input_required_api!`.
#[allow(unused_macros)] // Used by the revisions that have input requests.
macro_rules! round_trip_api {
    () => {
        /// The params of a request that may be retried with input responses: those of the
        /// requests whose result may be an [`InputRequiredResult`], and the schema's common
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

        $crate::input_required::round_trip_params!(
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

            /// The members of a params object as it came off the wire; a member that is
            /// present but does not fit the schema (`inputResponses: null`, a response that is
            /// a number, a state that is not a string) is [`InputResponseError::Malformed`].
            // Inline: its readers (every input response's type) are compiled where it is
            // called, not in every build of the crate.
            #[inline]
            pub fn from_params(
                params: &::serde_json::Map<String, ::serde_json::Value>,
            ) -> Result<Self, InputResponseError> {
                let input_responses = match params.get(INPUT_RESPONSES) {
                    None => None,
                    Some(value) => Some(
                        <InputResponses as ::serde::Deserialize>::deserialize(value).map_err(
                            |e| InputResponseError::Malformed {
                                member: INPUT_RESPONSES,
                                reason: e.to_string(),
                            },
                        )?,
                    ),
                };
                let request_state = match params.get(REQUEST_STATE) {
                    None => None,
                    Some(::serde_json::Value::String(state)) => Some(state.clone()),
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

            /// Whether the request carries neither input responses nor state (a first
            /// attempt).
            pub fn is_first(&self) -> bool {
                self.input_responses.is_none() && self.request_state.is_none()
            }

            /// The response under `key`, as the result of method `M`.
            pub fn response<M: InputMethod>(
                &self,
                key: &str,
            ) -> Result<&M::Result, InputResponseError> {
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
                    found: response.kind(),
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

            /// The request state opened by `codec` (see [`open_state`]); `None` when there is
            /// none.
            pub fn open_state<C, T>(&self, codec: &C) -> Result<Option<T>, StateError>
            where
                C: StateCodec + ?Sized,
                T: ::serde::de::DeserializeOwned,
            {
                self.request_state
                    .as_deref()
                    .map(|sealed| open_state(codec, sealed))
                    .transpose()
            }

            /// Writes both members onto the params of the retried request, replacing what an
            /// earlier attempt carried (a member that is absent here is removed).
            pub fn apply<P: RoundTripParams + ?Sized>(self, params: &mut P) {
                params.set_round_trip(self.input_responses, self.request_state);
            }

            /// [`RoundTrip::apply`] on a params object.
            // Inline: its writers (every input response's type), as `from_params`'s readers.
            #[inline]
            pub fn apply_to_object(
                self,
                params: &mut ::serde_json::Map<String, ::serde_json::Value>,
            ) -> Result<(), ::serde_json::Error> {
                match self.input_responses {
                    Some(responses) => {
                        params.insert(
                            INPUT_RESPONSES.to_owned(),
                            ::serde_json::to_value(responses)?,
                        );
                    }
                    None => {
                        params.remove(INPUT_RESPONSES);
                    }
                }
                match self.request_state {
                    Some(state) => {
                        params.insert(REQUEST_STATE.to_owned(), ::serde_json::Value::String(state));
                    }
                    None => {
                        params.remove(REQUEST_STATE);
                    }
                }
                Ok(())
            }
        }
    };
}
#[allow(unused_imports)] // Used by the revisions that have input requests.
pub(crate) use round_trip_api;

/// `RoundTripParams` for params types whose `inputResponses` and `requestState` are fields;
/// expanded by `round_trip_api!`.
#[allow(unused_macros)] // Used by the revisions that have input requests.
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
#[allow(unused_imports)] // Used by the revisions that have input requests.
pub(crate) use round_trip_params;
