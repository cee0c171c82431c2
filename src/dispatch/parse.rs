//! `Message::parse`: one pass through the crate's reader for the envelope, the params (typed
//! when `method` precedes them) and an error object; any other order, and any failure, in two
//! steps.

use super::read::{read_member, strip};
use super::{
    ErrorResponse, Message, MethodSet, NotificationEnvelope, RequestEnvelope, ResultResponse,
};
use crate::error::{MessageError, MessageErrorKind};
use crate::jsonrpc::{RequestId, RpcError};
use crate::prelude::*;
use alloc::borrow::Cow;
use core::fmt;
use serde::de::{self, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

impl<R: MethodSet, N: MethodSet> Message<R, N> {
    /// Parses one message (or a batch, where the revision has them) from JSON text.
    pub fn parse(text: &str) -> Result<Self, MessageError> {
        // JSON's own white space only: anything else before `[` is not JSON at all.
        let first = text
            .trim_start_matches([' ', '\t', '\n', '\r'])
            .as_bytes()
            .first()
            .copied();
        if first == Some(b'[') {
            if !R::BATCHES {
                return Err(MessageError::new(
                    MessageErrorKind::BatchNotAllowed,
                    format!("revision {} has no JSON-RPC batches", R::REVISION),
                ));
            }
            let items: Vec<&RawValue> = crate::json::from_str(text).map_err(json_error)?;
            if items.is_empty() {
                return Err(MessageError::new(
                    MessageErrorKind::Envelope,
                    "an empty batch is not a JSON-RPC message",
                ));
            }
            let mut messages = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                if item.get().starts_with('[') {
                    return Err(MessageError::new(
                        MessageErrorKind::Envelope,
                        "a batch cannot contain a batch",
                    )
                    .under(&format!("[{index}]")));
                }
                messages.push(Self::parse(item.get()).map_err(|e| e.under(&format!("[{index}]")))?);
            }
            // A batch is requests and notifications, or the responses to them; never both.
            let calls = messages
                .iter()
                .filter(|m| matches!(m, Message::Request(_) | Message::Notification(_)))
                .count();
            if calls != 0 && calls != messages.len() {
                return Err(MessageError::new(
                    MessageErrorKind::Envelope,
                    "a batch mixes requests or notifications with responses",
                ));
            }
            return Ok(Message::Batch(messages));
        }
        // One pass through the crate's reader: when `method` comes before `params` (as every
        // implementation writes it), the params are read straight into their type. Anything
        // else (params first, an unlisted method) is read again in two steps, raw envelope
        // then params; so is any failure, which then gets its precise error (method, JSON
        // path, serde_json's words and position).
        let mut envelope = RawEnvelope::new();
        let mut params = None;
        let seed = EnvelopeSeed::<R, N, true> {
            envelope: &mut envelope,
            params: Some(&mut params),
        };
        match crate::__private::seed_without_fallback(text, seed) {
            // Matched one by one rather than as a tuple, which would copy the params once more.
            Some(Reading::Request) => {
                if let Some(Id::Read(Some(id))) = envelope.id {
                    if let Some(TypedParams::Call(call)) = params {
                        return Ok(Message::Request(RequestEnvelope {
                            id,
                            call,
                            extra: envelope.extra,
                        }));
                    }
                }
            }
            Some(Reading::Notification) => {
                if let Some(TypedParams::Notify(notification)) = params {
                    return Ok(Message::Notification(NotificationEnvelope {
                        notification,
                        extra: envelope.extra,
                    }));
                }
            }
            Some(Reading::Response) => {
                if let (Some(Id::Read(Some(id))), Some(result)) = (envelope.id, envelope.result) {
                    return Ok(Message::Response(ResultResponse {
                        id,
                        result: result.to_owned(),
                        extra: envelope.extra,
                    }));
                }
            }
            Some(Reading::Error) => {
                if let (Some(Id::Read(id)), Some(ErrorMember::Read(error))) =
                    (envelope.id, envelope.error)
                {
                    return Ok(Message::Error(ErrorResponse {
                        id,
                        error,
                        extra: envelope.extra,
                    }));
                }
            }
            Some(Reading::Raw) => return envelope.into_message(),
            Some(Reading::Again) | None => {}
        }
        RawEnvelope::deserialize_raw::<R, N>(text)
            .map_err(json_error)?
            .into_message()
    }

    /// Parses one message from bytes, which must be UTF-8.
    pub fn parse_slice(bytes: &[u8]) -> Result<Self, MessageError> {
        Self::parse(utf8(bytes)?)
    }
}

/// `bytes` as text, or the JSON error every `parse_slice` gives for bytes that are not UTF-8.
pub(super) fn utf8(bytes: &[u8]) -> Result<&str, MessageError> {
    core::str::from_utf8(bytes).map_err(|e| {
        MessageError::new(
            MessageErrorKind::Json,
            format!("the input is not UTF-8: {e}"),
        )
    })
}

fn json_error(error: serde_json::Error) -> MessageError {
    let kind = if error.is_data() {
        MessageErrorKind::Envelope
    } else {
        MessageErrorKind::Json
    };
    MessageError::new(kind, error.to_string())
}

/// What one pass over a message found; what it read is in the seed's slots.
enum Reading {
    /// A plain request (`jsonrpc` "2.0", a request id, a request's method): its params are
    /// typed.
    Request,
    /// A plain notification: its params are typed.
    Notification,
    /// A plain response (`jsonrpc` "2.0", a request id, `result` alone).
    Response,
    /// A plain error response (`jsonrpc` "2.0", an id or null, `error` alone): its error object
    /// is typed.
    Error,
    /// The payload is raw JSON still, for `into_message` to judge.
    Raw,
    /// The params were typed, but the envelope needs the two-step path (a request without
    /// an id or with a null one, a notification with an id, members that do not belong
    /// together).
    Again,
}

/// The members of a message, with the payload left as raw JSON.
struct RawEnvelope<'a> {
    jsonrpc: Option<Version<'a>>,
    id: Option<Id<'a>>,
    method: Option<Cow<'a, str>>,
    params: Option<&'a RawValue>,
    result: Option<&'a RawValue>,
    error: Option<ErrorMember<'a>>,
    extra: Map<String, Value>,
}

/// The `jsonrpc` member: compared in the one-pass read, kept raw in the two-step one (whose
/// error quotes it).
enum Version<'a> {
    /// Exactly `"2.0"`, without escapes.
    Plain,
    Raw(&'a RawValue),
}

/// The `id` member: read in the one-pass read, kept raw in the two-step one (whose error
/// names the member).
enum Id<'a> {
    /// `null` or a request id.
    Read(Option<RequestId>),
    Raw(&'a RawValue),
}

/// The `error` member: read in the one-pass read, kept raw in the two-step one (whose error
/// names the member).
enum ErrorMember<'a> {
    Read(RpcError),
    Raw(&'a RawValue),
}

/// Params read in the envelope's pass, as a request's or a notification's: the method's name
/// says which.
enum TypedParams<R, N> {
    Call(R),
    Notify(N),
}

/// Reads params into the request or notification set's variant for `method`.
struct ParamsSeed<'m, T> {
    method: &'m str,
    set: core::marker::PhantomData<T>,
}

impl<'de, T: MethodSet> de::DeserializeSeed<'de> for ParamsSeed<'_, T> {
    type Value = T;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize_params(self.method, deserializer)
    }
}

/// Reads `jsonrpc` when it is the literal `"2.0"`; anything else stops the one-pass read (the
/// two-step read accepts the same string written with escapes, and reports the rest).
struct PlainVersion;

impl<'de> de::DeserializeSeed<'de> for PlainVersion {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for PlainVersion {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("\"2.0\"")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<(), E> {
        if v == "2.0" {
            Ok(())
        } else {
            Err(E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }
}

impl<'a> RawEnvelope<'a> {
    fn new() -> Self {
        RawEnvelope {
            jsonrpc: None,
            id: None,
            method: None,
            params: None,
            result: None,
            error: None,
            extra: Map::new(),
        }
    }

    /// The envelope with every payload member kept raw: through the crate's reader, and
    /// through serde_json only when that stops (invalid text), for serde_json's error.
    fn deserialize_raw<R: MethodSet, N: MethodSet>(
        text: &'a str,
    ) -> Result<Self, serde_json::Error> {
        let mut envelope = RawEnvelope::new();
        let seed = EnvelopeSeed::<R, N, false> {
            envelope: &mut envelope,
            params: None,
        };
        if crate::__private::seed_without_fallback(text, seed).is_none() {
            crate::__private::trail::clear();
            envelope = RawEnvelope::new();
            let seed = EnvelopeSeed::<R, N, false> {
                envelope: &mut envelope,
                params: None,
            };
            let mut de = serde_json::Deserializer::from_str(text);
            let reading = de::DeserializeSeed::deserialize(seed, &mut de)?;
            de.end()?;
            crate::__private::count_fallback(Ok(reading))?;
        }
        // This reading types no params, so it always ends raw.
        Ok(envelope)
    }
}

/// The next member's value as raw JSON; a failure records the member's name, as the reads of
/// declared members do.
fn raw_member<'a, A: MapAccess<'a>>(
    map: &mut A,
    name: &'static str,
) -> Result<&'a RawValue, A::Error> {
    let mut raw = None;
    crate::__private::read_member(&mut raw, map, name)?;
    raw.ok_or_else(|| de::Error::missing_field(name))
}

/// Reads member `name`, which may appear once: typed with `typed` in the one pass, else kept
/// raw, for the two-step read's error.
fn read_once<'a, A: MapAccess<'a>, T>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
    one_pass: bool,
    typed: impl FnOnce(&mut A) -> Result<T, A::Error>,
    raw: impl FnOnce(&'a RawValue) -> T,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(if one_pass {
        typed(map)?
    } else {
        raw(raw_member(map, name)?)
    });
    Ok(())
}

/// Reads a message's envelope with [`EnvelopeVisitor`], from whichever deserializer, into
/// slots the caller owns rather than through the returned value: a message can be several
/// hundred bytes, and each layer of the reader that returned it would copy it once more.
///
/// `TYPED` is whether it may type the params: a constant, so that the two-step read, which
/// serde_json drives for its error, compiles no params type's reading into serde_json's.
struct EnvelopeSeed<'s, 'a, R, N, const TYPED: bool> {
    envelope: &'s mut RawEnvelope<'a>,
    /// Where the one-pass read puts the params it types; `None` keeps them raw.
    params: Option<&'s mut Option<TypedParams<R, N>>>,
}

impl<'a, R: MethodSet, N: MethodSet, const TYPED: bool> de::DeserializeSeed<'a>
    for EnvelopeSeed<'_, 'a, R, N, TYPED>
{
    type Value = Reading;
    fn deserialize<D: de::Deserializer<'a>>(self, deserializer: D) -> Result<Reading, D::Error> {
        deserializer.deserialize_map(EnvelopeVisitor { seed: self })
    }
}

struct EnvelopeVisitor<'s, 'a, R, N, const TYPED: bool> {
    seed: EnvelopeSeed<'s, 'a, R, N, TYPED>,
}

impl<'a, R: MethodSet, N: MethodSet, const TYPED: bool> Visitor<'a>
    for EnvelopeVisitor<'_, 'a, R, N, TYPED>
{
    type Value = Reading;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC message object")
    }
    fn visit_map<A: MapAccess<'a>>(self, mut map: A) -> Result<Reading, A::Error> {
        let envelope = self.seed.envelope;
        let mut slot = self.seed.params;
        let one_pass = TYPED && slot.is_some();
        // Keys and the method borrow from the input: no allocation for a plain message.
        while let Some(key) = map.next_key_seed(crate::__private::CowStr)? {
            use crate::__private::read_member as read;
            match &*key {
                "jsonrpc" => read_once(
                    &mut envelope.jsonrpc,
                    &mut map,
                    "jsonrpc",
                    one_pass,
                    |map| map.next_value_seed(PlainVersion).map(|()| Version::Plain),
                    Version::Raw,
                )?,
                "id" => read_once(
                    &mut envelope.id,
                    &mut map,
                    "id",
                    one_pass,
                    |map| map.next_value().map(Id::Read),
                    Id::Raw,
                )?,
                "method" => {
                    if envelope.method.is_some() {
                        return Err(de::Error::duplicate_field("method"));
                    }
                    envelope.method = Some(map.next_value_seed(crate::__private::CowStr)?);
                }
                "params" => {
                    let typed = slot.as_deref_mut();
                    if envelope.params.is_some() || typed.as_ref().is_some_and(|t| t.is_some()) {
                        return Err(de::Error::duplicate_field("params"));
                    }
                    match (typed, envelope.method.as_deref()) {
                        // A method is a request's or a notification's by its name; the
                        // `id` (before or after) must agree, or the two-step read says why.
                        (Some(typed), Some(method)) if TYPED && R::lists(method) => {
                            let seed = ParamsSeed::<R> {
                                method,
                                set: core::marker::PhantomData,
                            };
                            *typed = Some(TypedParams::Call(map.next_value_seed(seed)?));
                        }
                        (Some(typed), Some(method)) if TYPED && N::lists(method) => {
                            let seed = ParamsSeed::<N> {
                                method,
                                set: core::marker::PhantomData,
                            };
                            *typed = Some(TypedParams::Notify(map.next_value_seed(seed)?));
                        }
                        _ => envelope.params = Some(map.next_value()?),
                    }
                }
                "result" => read(&mut envelope.result, &mut map, "result")?,
                "error" => read_once(
                    &mut envelope.error,
                    &mut map,
                    "error",
                    one_pass,
                    |map| map.next_value().map(ErrorMember::Read),
                    ErrorMember::Raw,
                )?,
                _ => {
                    let value = map.next_value()?;
                    envelope.extra.insert(key.into_owned(), value);
                }
            }
        }
        // The two-step read decides in `into_message`, which says what is wrong.
        let Some(typed) = slot.as_deref() else {
            return Ok(Reading::Raw);
        };
        if !matches!(envelope.jsonrpc, Some(Version::Plain)) {
            return Ok(if typed.is_some() {
                Reading::Again
            } else {
                Reading::Raw
            });
        }
        let e = &*envelope;
        let payload = (
            e.method.is_some(),
            e.params.is_some(),
            e.result.is_some(),
            e.error.is_some(),
        );
        Ok(match (typed, &e.id, payload) {
            (Some(TypedParams::Call(_)), Some(Id::Read(Some(_))), (true, false, false, false)) => {
                Reading::Request
            }
            (Some(TypedParams::Notify(_)), None, (true, false, false, false)) => {
                Reading::Notification
            }
            (None, Some(Id::Read(Some(_))), (false, false, true, false)) => Reading::Response,
            (None, Some(Id::Read(_)), (false, false, false, true)) => Reading::Error,
            (Some(_), ..) => Reading::Again,
            (None, ..) => Reading::Raw,
        })
    }
}

impl RawEnvelope<'_> {
    fn into_message<R: MethodSet, N: MethodSet>(self) -> Result<Message<R, N>, MessageError> {
        let envelope_error =
            |message: String| MessageError::new(MessageErrorKind::Envelope, message);
        match self.jsonrpc.map(|version| match version {
            Version::Plain => "\"2.0\"",
            Version::Raw(raw) => raw.get(),
        }) {
            Some("\"2.0\"") => {}
            // The same string written with escapes.
            Some(other) if crate::json::from_str::<String>(other).is_ok_and(|s| s == "2.0") => {}
            Some(other) => {
                return Err(envelope_error(format!(
                    "member `jsonrpc` must be \"2.0\", found {other}"
                ))
                .with_path("jsonrpc"))
            }
            None => return Err(envelope_error("missing field `jsonrpc`".into())),
        }
        let id = match self.id {
            None => None,
            Some(Id::Read(id)) => Some(id),
            Some(Id::Raw(raw)) if raw.get() == "null" => Some(None),
            Some(Id::Raw(raw)) => Some(Some(
                crate::json::from_str::<RequestId>(raw.get())
                    .map_err(|e| envelope_error(strip(e)).with_path("id"))?,
            )),
        };
        if let Some(method) = self.method {
            if self.result.is_some() || self.error.is_some() {
                return Err(envelope_error(
                    "a message with `method` cannot also carry `result` or `error`".into(),
                )
                .with_method(&method));
            }
            return match id {
                Some(Some(id)) => Ok(Message::Request(RequestEnvelope {
                    id,
                    call: R::from_parts(&method, self.params)?,
                    extra: self.extra,
                })),
                Some(None) => Err(envelope_error("a request id cannot be null".into())
                    .with_method(&method)
                    .with_path("id")),
                None => Ok(Message::Notification(NotificationEnvelope {
                    notification: N::from_parts(&method, self.params)?,
                    extra: self.extra,
                })),
            };
        }
        if self.params.is_some() {
            return Err(envelope_error("`params` without `method`".into()).with_path("params"));
        }
        match (self.result, self.error) {
            (Some(_), Some(_)) => Err(envelope_error(
                "a response cannot carry both `result` and `error`".into(),
            )),
            (Some(result), None) => match id {
                Some(Some(id)) => Ok(Message::Response(ResultResponse {
                    id,
                    result: result.to_owned(),
                    extra: self.extra,
                })),
                _ => Err(
                    envelope_error("a response needs a string or integer `id`".into())
                        .with_path("id"),
                ),
            },
            (None, Some(error)) => {
                let id = id.ok_or_else(|| {
                    envelope_error("an error response needs an `id` (null when unknown)".into())
                })?;
                let error = match error {
                    ErrorMember::Read(error) => error,
                    ErrorMember::Raw(raw) => {
                        read_member(raw, MessageErrorKind::ErrorObject, "error")?
                    }
                };
                Ok(Message::Error(ErrorResponse {
                    id,
                    error,
                    extra: self.extra,
                }))
            }
            (None, None) => Err(envelope_error(
                "not a JSON-RPC message: no `method`, `result` or `error`".into(),
            )),
        }
    }
}

#[cfg(all(test, feature = "v2025_06_18"))]
mod tests;
