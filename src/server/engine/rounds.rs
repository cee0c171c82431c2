//! `input_required` for a client of a stateful revision: a handler written against
//! 2026-07-28 asks for input by answering `input_required`, which a stateful revision has no
//! result for. The session asks the client each input request instead, as a request of the
//! client's revision (`elicitation/create`, `sampling/createMessage`, `roots/list`), one at a
//! time; once every one is answered, the call is handed out again with the answers in
//! `inputResponses` and the handler's `requestState`, as a 2026-07-28 client would retry it.

use super::call::Relay;
use super::Context;
use crate::convert::{convert_call_for_peer, convert_result};
use crate::dispatch::{CallSet, Message, MethodSet, PendingRequest};
use crate::pending::request_line;
use crate::prelude::*;
use crate::revision::{Revision, Visit};
use crate::v2026_07_28 as latest;
use crate::v2026_07_28::input_required::{Answers, RoundTripParams};
use crate::{ErrorCode, RequestId, RpcError};
use serde_json::value::RawValue;

/// How many times one request may answer `input_required` before it is refused (-32603): a
/// handler that never has enough would otherwise ask forever.
pub(in crate::server) const MAX_ROUNDS: u8 = 8;

/// A request of the client waiting for the answers to its handler's input requests.
#[derive(Debug, Clone)]
pub(in crate::server) struct Round {
    /// The client's request the round answers in the end.
    pub id: RequestId,
    pub call: latest::ClientCall,
    pub context: Context,
    /// How many times the call has answered `input_required`, this time included.
    pub rounds: u8,
    pub answers: Answers,
    /// The input requests not asked yet, the next one last.
    pub to_ask: Vec<(String, latest::InputRequest)>,
    /// The server's request the client is answering now: its id, its key, and what its
    /// answer must be (set by `Session::ask_next`, the round kept only once asked).
    pub asking: (RequestId, String, PendingRequest),
}

impl Round {
    /// The round for `relay`, the call of request `id`, before anything is asked; `Err` says
    /// why it cannot be relayed.
    pub fn new(id: RequestId, relay: Relay) -> Result<Round, RpcError> {
        let Relay {
            asked,
            call,
            context,
            rounds,
        } = relay;
        if rounds > MAX_ROUNDS {
            let message = format!("the request asked for input more than {MAX_ROUNDS} times");
            return Err(RpcError::new(ErrorCode::InternalError, message));
        }
        let answers = Answers::new(&asked);
        let mut to_ask: Vec<_> = asked.input_requests.into_iter().flat_map(|r| r.0).collect();
        if to_ask.is_empty() {
            // A 2026-07-28 client retries such a result at once; nothing here would.
            let message = "an input_required result with no input requests cannot be relayed";
            return Err(RpcError::new(ErrorCode::InternalError, message));
        }
        to_ask.reverse();
        let asking = (
            RequestId::from(0),
            String::new(),
            PendingRequest::without_task(""),
        );
        Ok(Round {
            id,
            call,
            context,
            rounds,
            answers,
            to_ask,
            asking,
        })
    }

    /// The call again, with the answers: `Err` when they do not fit what was asked.
    pub fn retry(self) -> Result<(RequestId, latest::ClientCall, Context, u8), RpcError> {
        let round_trip = self.answers.finish()?;
        let (input_responses, request_state) =
            (round_trip.input_responses, round_trip.request_state);
        let mut call = self.call;
        match &mut call {
            latest::ClientCall::CallTool(params) => {
                params.set_round_trip(input_responses, request_state)
            }
            latest::ClientCall::GetPrompt(params) => {
                params.set_round_trip(input_responses, request_state)
            }
            latest::ClientCall::ReadResource(params) => {
                params.set_round_trip(input_responses, request_state)
            }
            _ => {}
        }
        Ok((self.id, call, self.context, self.rounds))
    }
}

/// An input request as a request of the server in the client's revision, and what its answer
/// must be; `Err` when the client's revision has no such request.
pub(in crate::server) struct AskLine<'a> {
    pub id: RequestId,
    pub request: &'a latest::InputRequest,
}

impl Visit for AskLine<'_> {
    type Output = Result<(String, PendingRequest), String>;

    fn visit<V: Revision>(self) -> Self::Output {
        let call = latest::ServerCall::from(self.request.clone());
        let method = call.method();
        if !V::ServerCall::lists(method) {
            return Err(format!(
                "revision {} has no {method}",
                <V::ServerCall as MethodSet>::REVISION
            ));
        }
        let call = convert_call_for_peer::<latest::ServerCall, V::ServerCall>(&call)
            .map_err(|e| e.to_string())?
            .value;
        Ok(request_line::<_, V::ServerNotify>(self.id, call))
    }
}

/// The client's answer to the server's request, read in the client's revision `V` as the
/// input response it is.
pub(in crate::server) fn input_response<V: Revision>(
    asked: &PendingRequest,
    result: &RawValue,
) -> Result<latest::InputResponse, String> {
    let read =
        <V::ServerCall as CallSet>::parse_result(asked, result).map_err(|e| e.to_string())?;
    let result = convert_result::<V::ServerCall, latest::ServerCall>(&read, asked)
        .map_err(|e| e.to_string())?;
    latest::InputResponse::from_result(result)
        .ok_or_else(|| format!("{} is not an input request", asked.method()))
}

/// A client's answer to a request of the server: its id, and its result or error.
pub(in crate::server) type ClientAnswer = (Option<RequestId>, Result<Box<RawValue>, RpcError>);

/// The client's answer `message` is, if it is one.
pub(in crate::server) fn answer_of<R: CallSet, N: MethodSet>(
    message: Message<R, N>,
) -> Option<ClientAnswer> {
    match message {
        Message::Response(response) => Some((Some(response.id), Ok(response.result))),
        Message::Error(response) => Some((response.id, Err(response.error))),
        _ => None,
    }
}
