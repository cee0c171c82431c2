//! Messages: one pass from a line of JSON to the typed request or notification of its method.
//!
//! When `method` comes before `params`, as every implementation writes it, the params are read
//! straight into the method's type in the same pass as the envelope; `result` and `error` are
//! kept as raw JSON slices until the request they answer is known. Any other member order, and
//! any failure, is read again in two steps (raw envelope, then params), so that an error names
//! the method and the JSON path of the culprit. No intermediate `serde_json::Value` is built
//! for the payload, and no union arm is tried and abandoned.

use crate::error::{MessageError, MessageErrorKind};
use crate::jsonrpc::{RequestId, RpcError};
use crate::method::{Direction, MethodKind};
use crate::{ErrorCode, ProgressToken};
use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

pub use crate::pending::{CallSet, PendingRequest, PendingRequests};

include!(concat!(env!("OUT_DIR"), "/all_methods.rs"));

/// The revisions that define `method`, across every revision the crate knows (enabled or not).
pub fn revisions_defining(method: &str) -> &'static [&'static str] {
    ALL_METHODS
        .iter()
        .find(|(name, _)| *name == method)
        .map(|(_, revisions)| *revisions)
        .unwrap_or(&[])
}

/// `method` as it is written in the static method table, when some revision defines it.
pub(crate) fn static_method_name(method: &str) -> Option<&'static str> {
    ALL_METHODS
        .iter()
        .find(|(name, _)| *name == method)
        .map(|(name, _)| *name)
}

/// The requests or the notifications one side sends in one revision, typed by method.
///
/// Generated for every revision: `ClientCall`, `ServerCall` (requests) and `ClientNotify`,
/// `ServerNotify` (notifications). Implemented by generated code only.
pub trait MethodSet: Sized {
    /// The revision the set belongs to (`"2025-06-18"`).
    const REVISION: &'static str;
    /// Who sends these methods.
    const SENDER: Direction;
    /// Requests or notifications.
    const KIND: MethodKind;
    /// Whether the revision allows JSON-RPC batches.
    const BATCHES: bool;

    /// Reads the params of `method` into its typed variant; an unknown method becomes the
    /// `Unknown` variant with its params kept as JSON.
    fn from_parts(method: &str, params: Option<&RawValue>) -> Result<Self, MessageError>;

    /// Whether `method` is one of the set's own methods (not `Unknown`).
    fn lists(method: &str) -> bool;

    /// Reads the params of one of the set's own methods (see [`MethodSet::lists`]) straight
    /// from the deserializer, in the same pass as the envelope.
    fn deserialize_params<'de, D: de::Deserializer<'de>>(
        method: &str,
        params: D,
    ) -> Result<Self, D::Error>;

    /// The method name.
    fn method(&self) -> &str;

    /// Writes the `params` member, when there are params.
    fn serialize_params<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error>;
}

/// What a peer sends, in one revision: requests `R`, notifications `N`, responses and errors.
///
/// Use the revision's aliases: `ClientMessage` (what a client sends, what a server reads) and
/// `ServerMessage`.
#[derive(Debug, Clone, PartialEq)]
pub enum Message<R, N> {
    /// A request, answered by a response with the same id.
    Request(RequestEnvelope<R>),
    /// A notification.
    Notification(NotificationEnvelope<N>),
    /// A successful response; its result is typed once the request it answers is known.
    Response(ResultResponse),
    /// An error response.
    Error(ErrorResponse),
    /// A JSON-RPC batch (2025-03-26 only).
    Batch(Vec<Message<R, N>>),
}

/// A request with its id.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestEnvelope<R> {
    /// The id the response will carry.
    pub id: RequestId,
    /// The method and its typed params.
    pub call: R,
    /// Envelope members JSON-RPC does not name, kept for the way back out.
    pub extra: Map<String, Value>,
}

/// A notification.
#[derive(Debug, Clone, PartialEq)]
pub struct NotificationEnvelope<N> {
    /// The method and its typed params.
    pub notification: N,
    /// Envelope members JSON-RPC does not name, kept for the way back out.
    pub extra: Map<String, Value>,
}

/// A successful response, with its result as the JSON the peer sent.
#[derive(Debug, Clone)]
pub struct ResultResponse {
    /// The id of the request it answers.
    pub id: RequestId,
    /// The result, unparsed until its type is known: see [`ResultResponse::result_as`].
    pub result: Box<RawValue>,
    /// Envelope members JSON-RPC does not name, kept for the way back out.
    pub extra: Map<String, Value>,
}

impl PartialEq for ResultResponse {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.result.get() == other.result.get() && self.extra == other.extra
    }
}

/// An error response.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorResponse {
    /// The id of the request it answers; `None` (JSON `null`) when the request could not be
    /// read far enough to know it.
    pub id: Option<RequestId>,
    /// What went wrong.
    pub error: RpcError,
    /// Envelope members JSON-RPC does not name, kept for the way back out.
    pub extra: Map<String, Value>,
}

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
            let items: Vec<&RawValue> = serde_json::from_str(text).map_err(json_error)?;
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
        // One pass: when `method` comes before `params` (as every implementation writes it),
        // the params are read straight into their type. Anything else (params first, an
        // unlisted method, a request whose `id` follows its params) or any failure is read
        // again in two steps, raw envelope then params, which also gives the precise error.
        let mut de = serde_json::Deserializer::from_str(text);
        let reading = de::Deserializer::deserialize_map(
            &mut de,
            EnvelopeVisitor::<R, N> {
                type_params: true,
                sets: std::marker::PhantomData,
            },
        );
        match reading {
            Ok(Reading::Done(message)) if de.end().is_ok() => return Ok(message),
            Ok(Reading::Raw(envelope)) if de.end().is_ok() => return envelope.into_message(),
            _ => {}
        }
        RawEnvelope::deserialize_raw::<R, N>(text)
            .map_err(json_error)?
            .into_message()
    }

    /// Parses one message from bytes, which must be UTF-8.
    pub fn parse_slice(bytes: &[u8]) -> Result<Self, MessageError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            MessageError::new(
                MessageErrorKind::Json,
                format!("the input is not UTF-8: {e}"),
            )
        })?;
        Self::parse(text)
    }

    /// The method, for requests and notifications.
    pub fn method(&self) -> Option<&str> {
        match self {
            Message::Request(r) => Some(r.call.method()),
            Message::Notification(n) => Some(n.notification.method()),
            _ => None,
        }
    }

    /// Writes the message as JSON text (with [`crate::json::to_string`]: the bytes
    /// `serde_json::to_string` writes, sooner).
    pub fn to_json(&self) -> String {
        // Serializing these types cannot fail: every map key is a string.
        crate::json::to_string(self).unwrap_or_default()
    }
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
    /// The envelope with every payload member kept raw.
    fn deserialize_raw<R: MethodSet, N: MethodSet>(
        text: &'a str,
    ) -> Result<Self, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        let reading = de::Deserializer::deserialize_map(
            &mut de,
            EnvelopeVisitor::<R, N> {
                type_params: false,
                sets: std::marker::PhantomData,
            },
        )?;
        de.end()?;
        match reading {
            Reading::Raw(envelope) => Ok(envelope),
            // Only typed params lead elsewhere, and this reading types none.
            Reading::Done(_) | Reading::Again => Err(de::Error::custom("unreachable reading")),
        }
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
                match serde_json::from_str::<RequestId>(raw.get()) {
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
            Some(other) if serde_json::from_str::<String>(other).is_ok_and(|s| s == "2.0") => {}
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
                serde_json::from_str::<RequestId>(raw.get())
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

fn strip(error: serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_owned(),
        None => text,
    }
}

/// Reads params that the method requires.
pub fn required_params<T: DeserializeOwned>(
    method: &str,
    params: Option<&RawValue>,
) -> Result<T, MessageError> {
    match params {
        Some(raw) => read_params(method, raw),
        None => Err(
            MessageError::new(MessageErrorKind::Params, "missing member `params`")
                .with_method(method),
        ),
    }
}

/// Reads params that the method makes optional.
pub fn optional_params<T: DeserializeOwned>(
    method: &str,
    params: Option<&RawValue>,
) -> Result<Option<T>, MessageError> {
    params.map(|raw| read_params(method, raw)).transpose()
}

fn read_params<T: DeserializeOwned>(method: &str, raw: &RawValue) -> Result<T, MessageError> {
    read_member(raw, MessageErrorKind::Params, "params").map_err(|e| e.with_method(method))
}

/// Reads a result as `T`, naming the method and the path of any mismatch.
pub fn read_result<T: DeserializeOwned>(method: &str, raw: &RawValue) -> Result<T, MessageError> {
    read_member(raw, MessageErrorKind::Result, "result").map_err(|e| e.with_method(method))
}

/// Reads the answer to a request that asked to run as a task: the task it created (`task`
/// read with `C`), or the request's own result (`own`), since receivers that do not support
/// tasks for a request "MUST process requests of that type normally, ignoring any
/// task-augmentation metadata" (2025-11-25, Tasks). When neither fits, the error is the
/// `CreateTaskResult` one if the result has a `task` member, else the method's own.
pub fn read_task_result<T, C: DeserializeOwned>(
    method: &str,
    raw: &RawValue,
    task: fn(C) -> T,
    own: impl FnOnce() -> Result<T, MessageError>,
) -> Result<T, MessageError> {
    let task_error = match read_result::<C>(method, raw) {
        Ok(created) => return Ok(task(created)),
        Err(e) => e,
    };
    own().map_err(|own_error| {
        let members: Result<std::collections::BTreeMap<Cow<str>, &RawValue>, _> =
            serde_json::from_str(raw.get());
        if members.is_ok_and(|m| m.contains_key("task")) {
            task_error
        } else {
            own_error
        }
    })
}

/// Reads one member of a message as `T`; a failure names the JSON path of the culprit, from
/// the [`trail`](crate::__private::trail) the generated readers leave.
fn read_member<T: DeserializeOwned>(
    raw: &RawValue,
    kind: MessageErrorKind,
    member: &str,
) -> Result<T, MessageError> {
    crate::__private::trail::clear();
    serde_json::from_str(raw.get()).map_err(|e| MessageError::from_serde(kind, member, &e))
}

/// Decides what an unlisted method is: another direction's or kind's method of this revision
/// (an error), another revision's method (an error), or a method nobody defines (kept as data).
pub fn unknown_method(
    method: &str,
    params: Option<&RawValue>,
    in_revision: Option<(Option<Direction>, Option<MethodKind>)>,
    set_revision: &str,
    set_sender: Direction,
    set_kind: MethodKind,
) -> Result<Option<Value>, MessageError> {
    if let Some((direction, kind)) = in_revision {
        if let Some(kind) = kind {
            if kind != set_kind {
                let (is, came) = match kind {
                    MethodKind::Request => ("a request", "a notification (no `id`)"),
                    MethodKind::Notification => ("a notification", "a request (with `id`)"),
                };
                return Err(MessageError::new(
                    MessageErrorKind::WrongKind,
                    format!("{method} is {is} in revision {set_revision}, but came as {came}"),
                )
                .with_method(method));
            }
        }
        let sender = match direction {
            Some(Direction::ClientToServer) => "the client",
            Some(Direction::ServerToClient) => "the server",
            _ => "either side",
        };
        let expected = match set_sender {
            Direction::ClientToServer => "the client",
            _ => "the server",
        };
        return Err(MessageError::new(
            MessageErrorKind::WrongDirection,
            format!("{method} is sent by {sender} in revision {set_revision}, not by {expected}"),
        )
        .with_method(method));
    }
    let elsewhere = revisions_defining(method);
    if !elsewhere.is_empty() {
        return Err(MessageError::new(
            MessageErrorKind::WrongRevision,
            format!(
                "{method} is not part of revision {set_revision}; it is defined in {}",
                elsewhere.join(", ")
            ),
        )
        .with_method(method));
    }
    match params {
        None => Ok(None),
        Some(raw) => serde_json::from_str(raw.get())
            .map(Some)
            .map_err(|e| MessageError::new(MessageErrorKind::Params, strip(e)).with_method(method)),
    }
}

impl<R: MethodSet, N: MethodSet> Serialize for Message<R, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Message::Request(r) => r.serialize(serializer),
            Message::Notification(n) => n.serialize(serializer),
            Message::Response(r) => r.serialize(serializer),
            Message::Error(e) => e.serialize(serializer),
            Message::Batch(items) => serializer.collect_seq(items),
        }
    }
}

fn write_extra<M: SerializeMap>(map: &mut M, extra: &Map<String, Value>) -> Result<(), M::Error> {
    for (k, v) in extra {
        map.serialize_entry(k, v)?;
    }
    Ok(())
}

impl<R: MethodSet> Serialize for RequestEnvelope<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("method", self.call.method())?;
        self.call.serialize_params(&mut map)?;
        write_extra(&mut map, &self.extra)?;
        map.end()
    }
}

impl<N: MethodSet> Serialize for NotificationEnvelope<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("method", self.notification.method())?;
        self.notification.serialize_params(&mut map)?;
        write_extra(&mut map, &self.extra)?;
        map.end()
    }
}

impl Serialize for ResultResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("result", &self.result)?;
        write_extra(&mut map, &self.extra)?;
        map.end()
    }
}

impl Serialize for ErrorResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("error", &self.error)?;
        write_extra(&mut map, &self.extra)?;
        map.end()
    }
}

impl<R> RequestEnvelope<R> {
    /// A request with `id`.
    pub fn new(id: impl Into<RequestId>, call: R) -> Self {
        RequestEnvelope {
            id: id.into(),
            call,
            extra: Map::new(),
        }
    }
}

impl<R: MethodSet> RequestEnvelope<R> {
    /// Asks for progress notifications: puts `token` at `params._meta.progressToken`, creating
    /// `params` and `_meta` when absent. Fails when the method's params cannot carry it.
    pub fn with_progress_token(
        self,
        token: impl Into<ProgressToken>,
    ) -> Result<Self, MessageError> {
        let method = self.call.method().to_owned();
        let mut params = params_value(&self.call).unwrap_or_else(|| Value::Object(Map::new()));
        let Value::Object(object) = &mut params else {
            return Err(
                MessageError::new(MessageErrorKind::Params, "params is not an object")
                    .with_method(&method),
            );
        };
        let meta = object
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(meta) = meta else {
            return Err(
                MessageError::new(MessageErrorKind::Params, "`_meta` is not an object")
                    .with_method(&method)
                    .with_path("params._meta"),
            );
        };
        let token = match token.into() {
            ProgressToken::Integer(i) => Value::from(i),
            ProgressToken::String(s) => Value::from(s),
        };
        meta.insert("progressToken".into(), token);
        let raw = serde_json::value::to_raw_value(&params)
            .map_err(|e| MessageError::new(MessageErrorKind::Params, e.to_string()))?;
        Ok(RequestEnvelope {
            id: self.id,
            call: R::from_parts(&method, Some(&raw))?,
            extra: self.extra,
        })
    }
}

fn params_value<R: MethodSet>(call: &R) -> Option<Value> {
    // Reuse the set's own params writer instead of a second way of reaching the params.
    let mut map = serde_json::value::Serializer.serialize_map(None).ok()?;
    call.serialize_params(&mut map).ok()?;
    match map.end().ok()? {
        Value::Object(mut object) => object.remove("params"),
        _ => None,
    }
}

impl<N> NotificationEnvelope<N> {
    /// A notification.
    pub fn new(notification: N) -> Self {
        NotificationEnvelope {
            notification,
            extra: Map::new(),
        }
    }
}

impl ResultResponse {
    /// A response to `id` carrying `result`.
    pub fn new(
        id: impl Into<RequestId>,
        result: &impl Serialize,
    ) -> Result<Self, serde_json::Error> {
        Ok(ResultResponse {
            id: id.into(),
            result: serde_json::value::to_raw_value(result)?,
            extra: Map::new(),
        })
    }

    /// Reads the result as `T`, with the JSON path of any mismatch.
    pub fn result_as<T: DeserializeOwned>(&self) -> Result<T, MessageError> {
        read_member(&self.result, MessageErrorKind::Result, "result")
    }

    /// Reads the result as the result type of request `R`.
    ///
    /// This knows the method only: a request that asked to run as a task (2025-11-25's
    /// `params.task`) is answered with a `CreateTaskResult` instead. Where the request itself
    /// is at hand, [`ResultResponse::result_of`] types both answers.
    pub fn result_for<R: crate::Request>(&self) -> Result<R::Result, MessageError> {
        self.result_as::<R::Result>()
            .map_err(|e| e.with_method(R::METHOD))
    }
}

impl ResultResponse {
    /// Reads the result as the answer to `request` (see [`PendingRequest::of`]): the
    /// method's result type, or `CreateTaskResult` for a request that asked for a task.
    pub fn result_of<R: CallSet>(
        &self,
        request: &PendingRequest,
    ) -> Result<R::Result, MessageError> {
        R::parse_result(request, &self.result)
    }
}

impl ErrorResponse {
    /// An error response to `id`.
    pub fn new(id: impl Into<RequestId>, error: RpcError) -> Self {
        ErrorResponse {
            id: Some(id.into()),
            error,
            extra: Map::new(),
        }
    }

    /// The response to a message whose id could not be read (`"id": null`).
    pub fn without_id(error: RpcError) -> Self {
        ErrorResponse {
            id: None,
            error,
            extra: Map::new(),
        }
    }

    /// MCP's -32002 for `uri`, as the specification shows it.
    pub fn resource_not_found(id: impl Into<RequestId>, uri: impl Into<String>) -> Self {
        ErrorResponse::new(id, RpcError::resource_not_found(uri))
    }

    /// The error's code.
    pub fn code(&self) -> ErrorCode {
        self.error.code
    }
}
