//! `Message::parse`: the envelope and, when `method` precedes `params`, the params in one pass
//! through the crate's reader; any other order, and any failure, in two steps.

use super::read::{read_member, strip};
use super::{
    ErrorResponse, Message, MethodSet, NotificationEnvelope, RequestEnvelope, ResultResponse,
};
use crate::error::{MessageError, MessageErrorKind};
use crate::jsonrpc::RequestId;
use serde::de::{self, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

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
        // else (params first, an unlisted method, a request whose `id` follows its params) is
        // read again in two steps, raw envelope then params; so is any failure, which then
        // gets its precise error (method, JSON path, serde_json's words and position).
        let seed = EnvelopeSeed::<R, N> {
            type_params: true,
            sets: std::marker::PhantomData,
        };
        match crate::json::seed_without_fallback(text, seed) {
            Some(Reading::Done(message)) => return Ok(message),
            Some(Reading::Raw(envelope)) => return envelope.into_message(),
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
    std::str::from_utf8(bytes).map_err(|e| {
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

/// What one pass over a message gives.
enum Reading<'a, R, N> {
    /// The params were typed in the pass and the envelope needs nothing more.
    Done(Message<R, N>),
    /// The payload is raw JSON still.
    Raw(RawEnvelope<'a>),
    /// The params were typed, but the envelope needs the two-step path (an `id` after the
    /// params, a `jsonrpc` written with escapes, members that do not belong together).
    Again,
}

/// The members of a message, with the payload left as raw JSON.
struct RawEnvelope<'a> {
    jsonrpc: Option<&'a RawValue>,
    id: Option<&'a RawValue>,
    method: Option<Cow<'a, str>>,
    params: Option<&'a RawValue>,
    result: Option<&'a RawValue>,
    error: Option<&'a RawValue>,
    extra: Map<String, Value>,
}

/// Params read in the envelope's pass, as a request's (an `id` came before them) or a
/// notification's (no `id` so far).
enum TypedParams<R, N> {
    Call(R),
    Notify(N),
}

/// Reads params into the request or notification set's variant for `method`.
struct ParamsSeed<'m, T> {
    method: &'m str,
    set: std::marker::PhantomData<T>,
}

impl<'de, T: MethodSet> de::DeserializeSeed<'de> for ParamsSeed<'_, T> {
    type Value = T;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize_params(self.method, deserializer)
    }
}

impl<'a> RawEnvelope<'a> {
    /// The envelope with every payload member kept raw: through the crate's reader, and
    /// through serde_json only when that stops (invalid text), for serde_json's error.
    fn deserialize_raw<R: MethodSet, N: MethodSet>(
        text: &'a str,
    ) -> Result<Self, serde_json::Error> {
        let seed = || EnvelopeSeed::<R, N> {
            type_params: false,
            sets: std::marker::PhantomData,
        };
        let reading = match crate::json::seed_without_fallback(text, seed()) {
            Some(reading) => reading,
            None => {
                crate::__private::trail::clear();
                let mut de = serde_json::Deserializer::from_str(text);
                let reading = de::DeserializeSeed::deserialize(seed(), &mut de)?;
                de.end()?;
                crate::json::count_fallback(Ok(reading))?
            }
        };
        match reading {
            Reading::Raw(envelope) => Ok(envelope),
            // Only typed params lead elsewhere, and this reading types none.
            Reading::Done(_) | Reading::Again => Err(de::Error::custom("unreachable reading")),
        }
    }
}

/// Reads a message's envelope with [`EnvelopeVisitor`], from whichever deserializer.
struct EnvelopeSeed<R, N> {
    type_params: bool,
    sets: std::marker::PhantomData<(R, N)>,
}

impl<'de, R: MethodSet, N: MethodSet> de::DeserializeSeed<'de> for EnvelopeSeed<R, N> {
    type Value = Reading<'de, R, N>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(EnvelopeVisitor::<R, N> {
            type_params: self.type_params,
            sets: self.sets,
        })
    }
}

struct EnvelopeVisitor<R, N> {
    type_params: bool,
    sets: std::marker::PhantomData<(R, N)>,
}

impl<'de, R: MethodSet, N: MethodSet> Visitor<'de> for EnvelopeVisitor<R, N> {
    type Value = Reading<'de, R, N>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC message object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut envelope = RawEnvelope {
            jsonrpc: None,
            id: None,
            method: None,
            params: None,
            result: None,
            error: None,
            extra: Map::new(),
        };
        let mut typed = None;
        // Keys and the method borrow from the input: no allocation for a plain message.
        while let Some(key) = map.next_key_seed(crate::__private::CowStr)? {
            use crate::__private::read_member as read;
            match &*key {
                "jsonrpc" => read(&mut envelope.jsonrpc, &mut map, "jsonrpc")?,
                "id" => read(&mut envelope.id, &mut map, "id")?,
                "method" => {
                    if envelope.method.is_some() {
                        return Err(de::Error::duplicate_field("method"));
                    }
                    envelope.method = Some(map.next_value_seed(crate::__private::CowStr)?);
                }
                "params" => {
                    if envelope.params.is_some() || typed.is_some() {
                        return Err(de::Error::duplicate_field("params"));
                    }
                    let method = envelope.method.as_deref().filter(|_| self.type_params);
                    match method {
                        Some(method) if envelope.id.is_some() && R::lists(method) => {
                            let seed = ParamsSeed::<R> {
                                method,
                                set: std::marker::PhantomData,
                            };
                            typed = Some(TypedParams::Call(map.next_value_seed(seed)?));
                        }
                        Some(method) if envelope.id.is_none() && N::lists(method) => {
                            let seed = ParamsSeed::<N> {
                                method,
                                set: std::marker::PhantomData,
                            };
                            typed = Some(TypedParams::Notify(map.next_value_seed(seed)?));
                        }
                        _ => envelope.params = Some(map.next_value()?),
                    }
                }
                "result" => read(&mut envelope.result, &mut map, "result")?,
                "error" => read(&mut envelope.error, &mut map, "error")?,
                _ => {
                    let value = map.next_value()?;
                    envelope.extra.insert(key.into_owned(), value);
                }
            }
        }
        let Some(typed) = typed else {
            return Ok(Reading::Raw(envelope));
        };
        let plain = envelope.jsonrpc.map(RawValue::get) == Some("\"2.0\"")
            && envelope.result.is_none()
            && envelope.error.is_none();
        Ok(match (typed, envelope.id) {
            (TypedParams::Call(call), Some(raw)) if plain => {
                match crate::json::from_str_strict::<RequestId>(raw.get()) {
                    Ok(id) => Reading::Done(Message::Request(RequestEnvelope {
                        id,
                        call,
                        extra: envelope.extra,
                    })),
                    Err(_) => Reading::Again,
                }
            }
            (TypedParams::Notify(notification), None) if plain => {
                Reading::Done(Message::Notification(NotificationEnvelope {
                    notification,
                    extra: envelope.extra,
                }))
            }
            _ => Reading::Again,
        })
    }
}

impl RawEnvelope<'_> {
    fn into_message<R: MethodSet, N: MethodSet>(self) -> Result<Message<R, N>, MessageError> {
        let envelope_error =
            |message: String| MessageError::new(MessageErrorKind::Envelope, message);
        match self.jsonrpc.map(RawValue::get) {
            Some("\"2.0\"") => {}
            // The same string written with escapes.
            Some(other) if crate::json::from_str::<String>(other).is_ok_and(|s| s == "2.0") => {}
            Some(other) => {
                return Err(envelope_error(format!(
                    "member `jsonrpc` must be \"2.0\", found {other}"
                ))
                .with_path("jsonrpc"))
            }
            None => return Err(envelope_error("missing member `jsonrpc`".into())),
        }
        let id = match self.id {
            None => None,
            Some(raw) if raw.get() == "null" => Some(None),
            Some(raw) => Some(Some(
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
                let error = read_member(error, MessageErrorKind::ErrorObject, "error")?;
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
