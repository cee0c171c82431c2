//! A message read with the requests it may answer at hand: a result response to a pending
//! request has its `result` typed as that request's answer while the envelope is read, in one
//! pass, with no raw copy of the result to read again.

use super::{CallSet, Message, MethodSet, PendingRequest, PendingRequests};
use crate::error::MessageError;
use crate::prelude::*;
use crate::{RequestId, RpcError};
use core::fmt;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// What [`Message::parse_answering`] read.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Parsed<R, N, T> {
    /// A result response to a request that was pending: the request is resolved (no longer
    /// pending) and its answer typed.
    Answer {
        /// The id of the request it answers.
        id: RequestId,
        /// The request it answers.
        request: PendingRequest,
        /// The result, typed as that request's.
        result: T,
        /// Envelope members JSON-RPC does not name, kept for the way back out.
        extra: Map<String, Value>,
    },
    /// An error response to a request that was pending: the request is resolved (an error
    /// answers it as a result does).
    Refused {
        /// The id of the request it answers.
        id: RequestId,
        /// The request it answers.
        request: PendingRequest,
        /// What went wrong.
        error: RpcError,
        /// Envelope members JSON-RPC does not name, kept for the way back out.
        extra: Map<String, Value>,
    },
    /// Any other message, as [`Message::parse`] reads it: requests, notifications, a response
    /// or an error to no pending request (a result kept raw), and batches (whose answers are
    /// left pending: resolve them with [`PendingRequests::answer`] and
    /// [`PendingRequests::resolve`]).
    Message(Message<R, N>),
}

impl<R: MethodSet, N: MethodSet> Message<R, N> {
    /// [`Message::parse`] for the peer of `C`'s side (a client reads its server's lines with
    /// `C` = its own `ClientCall`): a result response to a request of `C`'s side pending in
    /// `pending` is resolved and its result typed as that request's answer. When the envelope
    /// names the `id` before the `result` (as every SDK writes it), the result is typed while
    /// it is read, in one pass; otherwise the message is read as `parse` reads it and the
    /// result typed after. Either way the outcome is the same.
    ///
    /// Errors: what [`Message::parse`] gives, and a result that is not its request's (the
    /// error's path starts at `result`; the request stays resolved, as an answered request
    /// is).
    ///
    /// ```
    /// # #[cfg(feature = "v2025_11_25")] {
    /// use mcp_spec_types::dispatch::{Parsed, PendingRequest, PendingRequests};
    /// use mcp_spec_types::v2025_11_25::{ClientCall, ClientCallResult, ServerMessage};
    /// use mcp_spec_types::{Direction, RequestId};
    ///
    /// let mut pending = PendingRequests::new();
    /// let list = PendingRequest::without_task("resources/list");
    /// pending.insert(Direction::ClientToServer, RequestId::from(7), list);
    ///
    /// let line = r#"{"jsonrpc":"2.0","id":7,"result":{"resources":[]}}"#;
    /// let parsed = ServerMessage::parse_answering::<ClientCall>(line, &mut pending).unwrap();
    /// let Parsed::Answer { id, result, .. } = parsed else { unreachable!() };
    /// assert_eq!(id, RequestId::from(7));
    /// assert!(matches!(result, ClientCallResult::ListResources(_)));
    /// assert!(pending.is_empty());
    ///
    /// // Anything else is the message `parse` gives.
    /// let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    /// let parsed = ServerMessage::parse_answering::<ClientCall>(ping, &mut pending).unwrap();
    /// assert_eq!(parsed, Parsed::Message(ServerMessage::parse(ping).unwrap()));
    /// # }
    /// ```
    pub fn parse_answering<C: CallSet>(
        line: &str,
        pending: &mut PendingRequests,
    ) -> Result<Parsed<R, N, C::Result>, MessageError> {
        let one_pass = read_answer::<C>(line, &|id| pending.get(C::SENDER, id));
        if let Some((id, result, extra)) = one_pass {
            if let Some(request) = pending.resolve(C::SENDER, &id) {
                return Ok(Parsed::Answer {
                    id,
                    request,
                    result,
                    extra,
                });
            }
        }
        let response = match Self::parse(line)? {
            Message::Response(response) => response,
            Message::Error(refusal) => {
                let request = (refusal.id.as_ref()).and_then(|id| pending.resolve(C::SENDER, id));
                return Ok(match (refusal.id.clone(), request) {
                    (Some(id), Some(request)) => Parsed::Refused {
                        id,
                        request,
                        error: refusal.error,
                        extra: refusal.extra,
                    },
                    _ => Parsed::Message(Message::Error(refusal)),
                });
            }
            other => return Ok(Parsed::Message(other)),
        };
        let Some(request) = pending.resolve(C::SENDER, &response.id) else {
            return Ok(Parsed::Message(Message::Response(response)));
        };
        let result = C::parse_result(&request, &response.result)?;
        Ok(Parsed::Answer {
            id: response.id,
            request,
            result,
            extra: response.extra,
        })
    }
}

/// The requests a line may answer, by id.
pub(crate) type Lookup<'a> = &'a dyn Fn(&RequestId) -> Option<&'a PendingRequest>;

/// `line` read as a plain result response to a request `lookup` knows: its id, its typed
/// result and the envelope's other members. `None` for anything else, and for anything the one
/// pass cannot settle (the `result` before the `id`, a member twice, a task's result, a result
/// that is not its request's), which the general path then reads and explains. A line that
/// shows it is not a result response (a `method`, an `error`, a batch) is given up at once.
pub(crate) fn read_answer<C: CallSet>(
    line: &str,
    lookup: Lookup<'_>,
) -> Option<(RequestId, C::Result, Map<String, Value>)> {
    let envelope = Envelope::<C> {
        lookup,
        set: core::marker::PhantomData,
    };
    let read = crate::__private::seed_without_fallback(line, envelope).flatten();
    if read.is_some() {
        count_one_pass();
    }
    read
}

#[cfg(feature = "std")]
std::thread_local! {
    /// How many answers this thread read in one pass. A fixed-size counter.
    static ONE_PASS_ANSWERS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// Without `std`, one counter for the program, counted with loads and stores only: a test's
/// probe, not a statistic (two threads counting at once may lose a count).
#[cfg(not(feature = "std"))]
static ONE_PASS_ANSWERS: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

fn count_one_pass() {
    #[cfg(feature = "std")]
    ONE_PASS_ANSWERS.with(|count| count.set(count.get().wrapping_add(1)));
    #[cfg(not(feature = "std"))]
    {
        use core::sync::atomic::Ordering::Relaxed;
        let count = ONE_PASS_ANSWERS.load(Relaxed);
        ONE_PASS_ANSWERS.store(count.wrapping_add(1), Relaxed);
    }
}

/// How many answers the calling thread read in one pass (their `result` typed as their
/// request's while it was read: [`Message::parse_answering`](crate::dispatch::Message), and the
/// client engine's read of its answers), rather than by the general path that reads the
/// envelope, then the result. Both give the same value, so only this count tells a test which
/// path was taken. Without the `std` feature the count is the program's, not the thread's.
#[doc(hidden)]
pub fn answers_read_in_one_pass() -> u64 {
    #[cfg(feature = "std")]
    return ONE_PASS_ANSWERS.with(core::cell::Cell::get);
    #[cfg(not(feature = "std"))]
    return ONE_PASS_ANSWERS.load(core::sync::atomic::Ordering::Relaxed) as u64;
}

struct Envelope<'a, C> {
    lookup: Lookup<'a>,
    set: core::marker::PhantomData<C>,
}

type Read<C> = Option<(RequestId, <C as CallSet>::Result, Map<String, Value>)>;

impl<'de, C: CallSet> DeserializeSeed<'de> for Envelope<'_, C> {
    type Value = Read<C>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, C: CallSet> Visitor<'de> for Envelope<'_, C> {
    type Value = Read<C>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC result response")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut jsonrpc: Option<&'de RawValue> = None;
        let mut id: Option<RequestId> = None;
        let mut result = None;
        let mut extra = Map::new();
        let mut plain = true;
        while let Some(key) = map.next_key_seed(crate::__private::CowStr)? {
            match &*key {
                "jsonrpc" if jsonrpc.is_none() => jsonrpc = Some(map.next_value()?),
                "id" if id.is_none() && result.is_none() => {
                    let raw: &'de RawValue = map.next_value()?;
                    id = crate::json::from_str_strict(raw.get()).ok();
                    plain &= id.is_some();
                }
                "result" if result.is_none() => {
                    let request = id.as_ref().and_then(|id| (self.lookup)(id));
                    match request {
                        Some(request) if !request.is_task_augmented() => {
                            let seed = ResultOf::<C>(request.method(), core::marker::PhantomData);
                            result = Some(map.next_value_seed(seed)?);
                        }
                        _ => {
                            plain = false;
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                // A request, a notification or an error response: not this pass's to read.
                "method" | "params" | "error" => {
                    return Err(de::Error::custom("not a result response"));
                }
                // A member twice: the general path says so.
                "jsonrpc" | "id" | "result" => {
                    plain = false;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    let value: Value = map.next_value()?;
                    plain &= extra.insert(key.into_owned(), value).is_none();
                }
            }
        }
        let is_2_0 = jsonrpc.is_some_and(|v| v.get() == "\"2.0\"");
        Ok(match (id, result) {
            (Some(id), Some(result)) if plain && is_2_0 => Some((id, result, extra)),
            _ => None,
        })
    }
}

/// The result of a request of this method, typed as it is read.
struct ResultOf<'a, C>(&'a str, core::marker::PhantomData<C>);

impl<'de, C: CallSet> DeserializeSeed<'de> for ResultOf<'_, C> {
    type Value = C::Result;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        C::deserialize_result(self.0, deserializer)
    }
}
