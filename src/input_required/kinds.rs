//! Which of the three requests an input request is, and, in each revision that has input
//! requests, the requests a server may send inside `inputRequests` with the results that
//! answer them.

use core::fmt;

/// Which of the three requests an input request is (and so which result answers it), in any
/// revision: a revision's `InputRequest::kind` and `InputResponse::kind` give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InputKind {
    /// `elicitation/create`, answered with an `ElicitResult`.
    Elicitation,
    /// `sampling/createMessage`, answered with a `CreateMessageResult`.
    Sampling,
    /// `roots/list`, answered with a `ListRootsResult`.
    Roots,
}

impl InputKind {
    /// The method name of the request.
    pub fn method(self) -> &'static str {
        // The schema's `method` constants, the same in every revision, so no revision is
        // needed here.
        use crate::method::method_names::{
            CREATE_MESSAGE_REQUEST, ELICIT_REQUEST, LIST_ROOTS_REQUEST,
        };
        match self {
            InputKind::Elicitation => ELICIT_REQUEST,
            InputKind::Sampling => CREATE_MESSAGE_REQUEST,
            InputKind::Roots => LIST_ROOTS_REQUEST,
        }
    }
}

impl fmt::Display for InputKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.method())
    }
}

/// A revision's `InputMethod` with its three impls, and the kind of its input requests and
/// responses; expanded by `input_required_api!`.
#[allow(unused_macros)] // Used by the revisions that have input requests.
macro_rules! input_methods {
    () => {
        /// A request a server may send inside `inputRequests`, paired with the result that
        /// answers it: [`ElicitRequest`], [`CreateMessageRequest`] and [`ListRootsRequest`].
        ///
        /// Used to ask and read generically: [`InputRequired::ask`], [`RoundTrip::response`].
        pub trait InputMethod: $crate::Request + sealed::Sealed {
            /// Which kind this is.
            const KIND: InputKind;
            /// The input request with these params.
            fn input_request(params: Self::Params) -> InputRequest;
            /// The response, when it is this method's result.
            fn result_of(response: &InputResponse) -> Option<&Self::Result>;
        }

        // Only the three requests the schema lets travel in `inputRequests`.
        mod sealed {
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
                    extra: ::serde_json::Map::new(),
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
                    extra: ::serde_json::Map::new(),
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
                    extra: ::serde_json::Map::new(),
                })
            }
            fn result_of(response: &InputResponse) -> Option<&ListRootsResult> {
                match response {
                    InputResponse::ListRootsResult(result) => Some(result),
                    _ => None,
                }
            }
        }

        impl InputRequest {
            /// Which of the three requests this is (and so which result answers it).
            pub fn kind(&self) -> InputKind {
                match self {
                    InputRequest::ElicitRequest(_) => InputKind::Elicitation,
                    InputRequest::CreateMessageRequest(_) => InputKind::Sampling,
                    InputRequest::ListRootsRequest(_) => InputKind::Roots,
                }
            }
        }

        impl ::core::convert::From<InputRequest> for ServerCall {
            /// The input request as a request the server sends on its own: what a client of a
            /// revision without `inputRequests` is asked instead.
            fn from(request: InputRequest) -> ServerCall {
                match request {
                    InputRequest::ElicitRequest(r) => ServerCall::Elicit(r.params),
                    InputRequest::CreateMessageRequest(r) => ServerCall::CreateMessage(r.params),
                    InputRequest::ListRootsRequest(r) => ServerCall::ListRoots(r.params),
                }
            }
        }

        impl ClientCallResult {
            /// The `input_required` result this is, if it is one (the answer to `tools/call`,
            /// `prompts/get` or `resources/read` asking the client for input first).
            pub fn input_required(&self) -> Option<&InputRequiredResult> {
                match self {
                    ClientCallResult::CallTool(
                        CallToolResultOrInputRequired::InputRequiredResult(asked),
                    )
                    | ClientCallResult::GetPrompt(
                        GetPromptResultOrInputRequired::InputRequiredResult(asked),
                    )
                    | ClientCallResult::ReadResource(
                        ReadResourceResultOrInputRequired::InputRequiredResult(asked),
                    ) => Some(asked),
                    _ => None,
                }
            }
        }

        impl InputResponse {
            /// The answer to a request of the server as an input response; `None` for the
            /// result of a request that is not an input request.
            pub fn from_result(result: ServerCallResult) -> Option<InputResponse> {
                match result {
                    ServerCallResult::Elicit(r) => Some(InputResponse::ElicitResult(r)),
                    ServerCallResult::CreateMessage(r) => {
                        Some(InputResponse::CreateMessageResult(r))
                    }
                    ServerCallResult::ListRoots(r) => Some(InputResponse::ListRootsResult(r)),
                    _ => None,
                }
            }

            /// The kind of request this response answers.
            pub fn kind(&self) -> InputKind {
                match self {
                    InputResponse::ElicitResult(_) => InputKind::Elicitation,
                    InputResponse::CreateMessageResult(_) => InputKind::Sampling,
                    InputResponse::ListRootsResult(_) => InputKind::Roots,
                }
            }
        }
    };
}
#[allow(unused_imports)] // Used by the revisions that have input requests.
pub(crate) use input_methods;
