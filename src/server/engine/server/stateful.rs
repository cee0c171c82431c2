//! A stateful client's session (2024-11-05 to 2025-11-25): its `initialize`, then each of its
//! messages in the revision it negotiated, batches and the answers to the engine's input
//! requests among them.

use super::{
    for_peer, hand_out, internal, invalid_params, notice, respond, unreadable_with, Server,
};
use crate::convert::{convert_call_with_text, result_for_peer};
use crate::dispatch::{CallSet, Message, MethodSet, PendingRequest};
use crate::method::method_names as names;
use crate::prelude::*;
use crate::revision::{self, ClientMessage, Revision, Visit};
use crate::server::engine::call::{Convert, PendingCall};
use crate::server::engine::incoming::Incoming;
use crate::server::engine::lifecycle;
use crate::server::engine::rounds;
use crate::server::engine::session::{Session, Stateful};
use crate::server::{Context, Handler};
use crate::v2026_07_28 as latest;
use crate::{ErrorCode, ProtocolVersion, RequestId, RpcError};
use serde_json::value::RawValue;

impl<H: Handler + ?Sized> Server<H> {
    /// `initialize` of a client whose revision is `version` (one this server offers).
    pub(super) fn initialize_in(
        &self,
        version: &ProtocolVersion,
        session: &mut Session,
        line: &str,
    ) -> Incoming {
        let visit = Initialize {
            server: self,
            session,
            line,
        };
        revision::visit(version, visit).unwrap_or(Incoming::Nothing)
    }

    /// A message of a session whose client negotiated `version`.
    pub(super) fn in_session(
        &self,
        version: &ProtocolVersion,
        session: &mut Session,
        line: &str,
    ) -> Incoming {
        let visit = InSession {
            server: self,
            session,
            line,
        };
        revision::visit(version, visit).unwrap_or(Incoming::Nothing)
    }
}

/// `initialize`, in the revision it negotiated.
struct Initialize<'a, H: ?Sized> {
    server: &'a Server<H>,
    session: &'a mut Session,
    line: &'a str,
}

impl<H: Handler + ?Sized> Visit for Initialize<'_, H> {
    type Output = Incoming;

    fn visit<V: Revision>(self) -> Incoming {
        let message = match ClientMessage::<V>::parse(self.line) {
            Ok(message) => message,
            Err(error) => return unreadable_with(self.line, &error),
        };
        // `initialize` sent as a notification asks for nothing.
        let Message::Request(request) = message else {
            return Incoming::Nothing;
        };
        let params = lifecycle::params(&request.call);
        let server = self.server;
        let capabilities = server.capabilities();
        let instructions = server.instructions.as_deref();
        let result = lifecycle::initialize::<V>(&capabilities, &server.info, instructions);
        if result.is_ok() {
            let meta = lifecycle::request_meta::<V>(&params);
            let stateful = Stateful::new(V::version(), &meta, false);
            let (kept, limit) = (stateful.meta_text.len(), server.client_info_limit);
            if kept > limit {
                let message = format!(
                    "the capabilities and clientInfo of `initialize` take {kept} bytes as JSON, \
                     more than the {limit} this server keeps for a session"
                );
                let refused: Result<<V::ClientCall as CallSet>::Result, RpcError> =
                    Err(RpcError::invalid_params(message));
                return Incoming::Answer(respond(request.id, refused));
            }
            self.session.stateful = Some(stateful);
        }
        Incoming::Answer(respond(request.id, result))
    }
}

/// A message of a stateful session, in the session's revision.
struct InSession<'a, H: ?Sized> {
    server: &'a Server<H>,
    session: &'a mut Session,
    line: &'a str,
}

impl<H: Handler + ?Sized> Visit for InSession<'_, H> {
    type Output = Incoming;

    fn visit<V: Revision>(self) -> Incoming {
        let message = match ClientMessage::<V>::parse(self.line) {
            Ok(message) => message,
            Err(error) => return unreadable_with(self.line, &error),
        };
        match message {
            Message::Batch(items) => {
                let mut batch = crate::server::Batch::default();
                for item in items {
                    batch.push(in_session::<V, H>(self.server, self.session, item, true));
                }
                match (batch.is_empty(), batch.calls()) {
                    (true, _) => Incoming::Nothing,
                    // Nothing for the handler: answered now.
                    (false, 0) => {
                        Incoming::Answer(batch.finish(self.session).0.unwrap_or_default())
                    }
                    (false, _) => Incoming::Batch(batch),
                }
            }
            message => in_session::<V, H>(self.server, self.session, message, false),
        }
    }
}

/// One message of a stateful session: the lifecycle, logging and subscriptions here, what the
/// handlers' revision has to the handler (its answer converted for the client), anything else
/// unknown.
pub(super) fn in_session<V: Revision, H: Handler + ?Sized>(
    server: &Server<H>,
    session: &mut Session,
    message: ClientMessage<V>,
    batched: bool,
) -> Incoming {
    let request = match message {
        Message::Request(request) => request,
        Message::Notification(notification) => {
            let method = notification.notification.method();
            if let (names::INITIALIZED_NOTIFICATION, Some(stateful)) =
                (method, &mut session.stateful)
            {
                stateful.initialized = true;
            }
            return notice(
                session,
                Message::<V::ClientCall, V::ClientNotify>::Notification(notification),
            );
        }
        // The answer to one of the engine's requests: an input request of a round.
        other => {
            return match rounds::answer_of(other) {
                Some((Some(id), result)) => input_answered::<V>(session, &id, result),
                _ => Incoming::Nothing,
            };
        }
    };
    let (id, call) = (request.id, request.call);
    let method = call.method();
    let now = |result: Result<<V::ClientCall as CallSet>::Result, RpcError>| {
        Incoming::Answer(respond(id.clone(), result))
    };
    match method {
        names::INITIALIZE_REQUEST => {
            let message = "the session is already initialized";
            return now(Err(RpcError::new(ErrorCode::InvalidRequest, message)));
        }
        names::PING_REQUEST => return now(lifecycle::empty_result::<V>(names::PING_REQUEST)),
        names::SUBSCRIBE_REQUEST | names::UNSUBSCRIBE_REQUEST => {
            return now(server.subscription::<V>(session, &call));
        }
        names::SET_LEVEL_REQUEST => return now(server.set_level::<V>(session, &call)),
        _ if V::ClientCall::lists(method)
            && latest::ClientCall::lists(method)
            && method != <latest::DiscoverRequest as crate::Request>::METHOD => {}
        _ => return now(Err(RpcError::method_not_found(method))),
    }
    let Some(stateful) = &session.stateful else {
        return Incoming::Nothing;
    };
    let peer = stateful.version.clone();
    let converted = convert_call_with_text(&call, &stateful.meta_text);
    let call: latest::ClientCall = match converted {
        Ok(call) => call,
        Err(error) => return now(Err(invalid_params(error))),
    };
    let convert = stateful_convert::<V>(&id, &peer, &call);
    let mut context = Context::new(peer);
    // An item of a batch gets no reports (`Context::progress` and `log` say so): the batch's
    // answer is one array of responses.
    if !batched {
        context.log_level = session.log_level;
        context.progress_token = call.meta().and_then(|meta| meta.progress_token.clone());
    }
    // A batch's answer is an array of responses: a call in one cannot ask the client for
    // input (an `input_required` answer then cannot be said: -32603).
    let retry = (!batched).then_some(0);
    hand_out(session, id, call, context, convert, retry)
}

/// How the answer to `call`, request `id` of a stateful client of revision `V`, is written.
pub(super) fn stateful_convert<V: Revision>(
    id: &RequestId,
    peer: &ProtocolVersion,
    call: &latest::ClientCall,
) -> Convert {
    let pending = PendingRequest::of(call);
    let (id, peer) = (id.clone(), peer.clone());
    Box::new(move |result| {
        let result = result.map_err(|e| for_peer(e, &peer)).and_then(|result| {
            result_for_peer::<latest::ClientCall, V::ClientCall>(&result, &pending, false)
                .map(|converted| converted.value)
                .map_err(internal)
        });
        respond(id, result)
    })
}

/// The client's answer to the server's request `id`, an input request of a round: the next
/// input request to ask, the call handed out again with every answer, or the error that ends
/// the round (the client's own error, or an answer that does not read).
pub(super) fn input_answered<V: Revision>(
    session: &mut Session,
    id: &RequestId,
    result: Result<Box<RawValue>, RpcError>,
) -> Incoming {
    let Some(at) = session
        .rounds
        .iter()
        .position(|round| round.asking.0 == *id)
    else {
        return Incoming::Nothing;
    };
    let mut round = session.rounds.swap_remove(at);
    let (_, key, asked) = &round.asking;
    let response = match result {
        Ok(result) => rounds::input_response::<V>(asked, &result).map_err(|why| {
            let message = format!(
                "the client's answer to {} does not read: {why}",
                asked.method()
            );
            RpcError::new(ErrorCode::InternalError, message)
        }),
        Err(error) => Err(error),
    };
    let answered = response.and_then(|response| {
        let key = key.clone();
        round.answers.answer(&key, response).map_err(RpcError::from)
    });
    if let Err(error) = answered {
        let peer = round.context.peer.clone();
        return Incoming::Answer(session.fail(round.id, for_peer(error, &peer)));
    }
    if !round.to_ask.is_empty() {
        return Incoming::Answer(session.ask_next(round));
    }
    let original = round.id.clone();
    match round.retry() {
        Ok((id, call, context, rounds)) => {
            let convert = stateful_convert::<V>(&id, &context.peer, &call);
            let pending = PendingCall::new(call, context, id, convert, Some(rounds));
            Incoming::Call(Box::new(pending))
        }
        Err(error) => Incoming::Answer(session.fail(original, error)),
    }
}
