//! `input_required` from a 2026-07-28 server, answered as a stateful server's requests are:
//! each input request reaches the caller as an [`Event::Request`](super::Event::Request), and
//! once every one is answered with [`Client::respond`](super::Client::respond), the engine
//! sends the request again with the answers (`inputResponses`, and the server's
//! `requestState` unchanged). Its final answer comes under the id the caller first got.

use crate::collections::HashMap;
use crate::prelude::*;
use crate::v2026_07_28 as latest;
use crate::v2026_07_28::input_required::{Answers, InputResponseError, RoundTripParams};
use crate::RequestId;

/// How many times one request may answer `input_required`; past it, the request ends with an
/// internal error, so that a server that never has enough cannot keep the client asking.
pub(super) const MAX_ROUNDS: u8 = 8;

/// A request that may be retried: the call, the id the caller knows it by, how many times it
/// has answered `input_required`, and whether it was sent again in another version already.
#[derive(Debug, Clone)]
pub(super) struct Retry {
    pub original: RequestId,
    pub call: latest::ClientCall,
    pub rounds: u8,
    pub version_retried: bool,
}

/// The input rounds of one client.
#[derive(Debug, Clone, Default)]
pub(super) struct Inputs {
    /// The requests in flight whose answer may be `input_required`, by the id they were sent
    /// under.
    pub retryable: HashMap<RequestId, Retry>,
    /// The rounds waiting for the caller's answers, by the id the caller knows the request by.
    rounds: HashMap<RequestId, (Retry, Answers)>,
    /// The input requests given to the caller, by the id of their event: the round's id and
    /// the request's key.
    given: HashMap<RequestId, (RequestId, String)>,
    given_ever: u64,
}

/// What an answer to an input request amounts to.
pub(super) enum Answered {
    /// More answers are awaited.
    Waiting,
    /// Every answer is in: the request to send again.
    Retry(Box<Retry>),
    /// The caller refused one (an input request cannot be answered with an error): the
    /// request is given up, and its caller, who knows it as `original`, gets `why`.
    Refused {
        original: RequestId,
        why: crate::RpcError,
    },
    /// The round is over already: nothing more to say.
    Over,
}

impl Inputs {
    pub fn clear(&mut self) {
        *self = Inputs::default();
    }

    /// How many requests wait for the caller's answers to their input requests.
    pub fn waiting(&self) -> usize {
        self.rounds.len()
    }

    /// How many input requests wait for the caller's answer.
    pub fn given(&self) -> usize {
        self.given.len()
    }

    /// Forgets the request the caller knows as `original` (its caller gave it up): its input
    /// round, the input requests given for it, and the id it is in flight under now, if it is
    /// (a request sent again with its input has an id of its own).
    pub fn forget(&mut self, original: &RequestId) -> Option<RequestId> {
        self.rounds.remove(original);
        self.given.retain(|_, (round, _)| round != original);
        let sent = self
            .retryable
            .iter()
            .find(|(_, retry)| retry.original == *original)
            .map(|(sent, _)| sent.clone())?;
        self.retryable.remove(&sent);
        Some(sent)
    }

    /// Whether `id` names an input request given to the caller.
    pub fn is_given(&self, id: &RequestId) -> bool {
        self.given.contains_key(id)
    }

    /// Starts a round for `retry`, whose answer asked for `asked`: the input requests to give
    /// the caller, each under the id of its event.
    pub fn start(
        &mut self,
        mut retry: Retry,
        asked: &latest::InputRequiredResult,
    ) -> Vec<(RequestId, latest::ServerCall)> {
        retry.rounds = retry.rounds.saturating_add(1);
        let requests = asked.input_requests.iter().flat_map(|r| r.0.iter());
        let mut events = Vec::new();
        for (key, request) in requests {
            self.given_ever += 1;
            let id = RequestId::from(format!("input-{}", self.given_ever));
            let round = (retry.original.clone(), key.clone());
            self.given.insert(id.clone(), round);
            events.push((id, latest::ServerCall::from(request.clone())));
        }
        let original = retry.original.clone();
        self.rounds.insert(original, (retry, Answers::new(asked)));
        events
    }

    /// The caller's answer to input request `id` (given by [`Inputs::start`]).
    ///
    /// # Errors
    ///
    /// When the result does not answer the request asked under its key (the request then
    /// still waits for an answer).
    pub fn answer(
        &mut self,
        id: &RequestId,
        result: Result<latest::ServerCallResult, crate::RpcError>,
    ) -> Result<Answered, InputResponseError> {
        let Some((original, key)) = self.given.get(id).cloned() else {
            return Ok(Answered::Waiting);
        };
        let result = match result {
            Ok(result) => result,
            Err(refusal) => {
                // An input request cannot be answered with an error: the request is given up.
                self.rounds.remove(&original);
                self.given.retain(|_, (round, _)| *round != original);
                let message = format!(
                    "the client refused the server's input request {key:?}, so the request was \
                     given up: {}",
                    refusal.message
                );
                let why = crate::RpcError::new(refusal.code, message);
                return Ok(Answered::Refused { original, why });
            }
        };
        let Some((_, answers)) = self.rounds.get_mut(&original) else {
            self.given.remove(id);
            return Ok(Answered::Over);
        };
        let response = latest::InputResponse::from_result(result).ok_or_else(|| {
            InputResponseError::Malformed {
                member: latest::input_required::INPUT_RESPONSES,
                reason: format!("the answer under {key:?} is not an input request's result"),
            }
        })?;
        answers.answer(&key, response)?;
        self.given.remove(id);
        if answers.pending().next().is_some() {
            return Ok(Answered::Waiting);
        }
        let Some((mut retry, answers)) = self.rounds.remove(&original) else {
            return Ok(Answered::Over);
        };
        let round_trip = answers.finish()?;
        let (responses, state) = (round_trip.input_responses, round_trip.request_state);
        match &mut retry.call {
            latest::ClientCall::CallTool(params) => params.set_round_trip(responses, state),
            latest::ClientCall::GetPrompt(params) => params.set_round_trip(responses, state),
            latest::ClientCall::ReadResource(params) => params.set_round_trip(responses, state),
            _ => {}
        }
        Ok(Answered::Retry(Box::new(retry)))
    }
}
