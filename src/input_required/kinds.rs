//! Which of the three requests an input request is, and the requests a server may send inside
//! `inputRequests` with the results that answer them.

use crate::v2026_07_28::{
    CreateMessageRequest, CreateMessageRequestParams, CreateMessageResult, ElicitRequest,
    ElicitRequestParams, ElicitResult, InputRequest, InputResponse, ListRootsRequest,
    ListRootsRequestParams, ListRootsResult,
};
use crate::Request;
use serde_json::Map;
use std::fmt;

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
/// Used to ask and read generically: [`InputRequired::ask`](super::InputRequired::ask),
/// [`RoundTrip::response`](super::RoundTrip::response).
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
