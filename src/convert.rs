//! Conversions between revisions (feature `convert`): write a handler once, against the
//! newest revision it implements, and speak every other enabled revision at the edge.
//!
//! Every definition two enabled revisions share by name converts both ways
//! ([`ConvertTo::convert`]), as do messages ([`Message::convert`]), calls
//! ([`convert_call`]) and results ([`convert_result`]) wherever the method exists in both.
//! The build generates the pairs from the schemas; the body is one rule, here:
//!
//! **A value is written as JSON and read as the other revision's type.** So:
//!
//! - a member the target does not declare is kept in the target's `extra` and written back out:
//!   old → new → old gives back exactly the input, and what a newer server sends an older
//!   client stays valid for the older schema (MCP objects allow members they do not name);
//! - what the target cannot hold (a union arm it lacks, such as `resource_link` content for
//!   2024-11-05; a required member with no source; a member of another type) is a
//!   [`ConversionError`] naming the definition, the JSON path and the reason: never a panic,
//!   never a silent drop;
//! - non-adjacent revisions convert directly, which gives what converting through every
//!   revision between them gives whenever that succeeds (each step keeps the JSON as it is).
//!
//! ```
//! # #[cfg(all(feature = "v2024_11_05", feature = "v2025_11_25"))] {
//! use mcp_spec_types::convert::ConvertTo;
//! use mcp_spec_types::{v2024_11_05 as old, v2025_11_25 as new};
//!
//! let resource = new::Resource::new("file:///a.txt", "a.txt").with_title("A");
//! // 2024-11-05 has no `title`: it travels as an extra member, and comes back.
//! let sent: old::Resource = resource.convert().unwrap();
//! assert_eq!(sent.extra["title"], "A");
//! let back: new::Resource = sent.convert().unwrap();
//! assert_eq!(back, resource);
//!
//! // A content type 2024-11-05 lacks is refused, with where and why.
//! let result = new::CallToolResult {
//!     content: vec![new::ContentBlock::resource_link("file:///a.txt", "a")],
//!     is_error: None,
//!     meta: None,
//!     structured_content: None,
//!     extra: Default::default(),
//! };
//! let error = ConvertTo::<old::CallToolResult>::convert(&result).unwrap_err();
//! assert_eq!(error.path(), "content[0].type");
//! # }
//! ```
//!
//! That is the *lossless* intent, for round trips and proxies. For replies to a peer of an
//! older revision, the *for a peer* intent ([`ConvertTo::convert_for_peer`] and the
//! [`peer`] module) also drops what the peer's revision does not define, and says what.
//!
//! Where revisions differ in meaning, not only in shape, a conversion needs what the source
//! does not carry. The stateless revisions (2026-07-28 on) have no `initialize`: each request
//! carries the protocol version and the client's capabilities in `params._meta`, and results
//! carry `resultType` (and, for cacheable results, `ttlMs` and `cacheScope`).
//! [`StatelessRequestMeta`] makes the former from a stateful session's negotiated state, and
//! [`StatelessResult`] supplies the latter, for [`convert_call_with`] and
//! [`convert_result_with`].

use crate::dispatch::{
    CallSet, ErrorResponse, Message, MethodSet, NotificationEnvelope, PendingRequest,
    RequestEnvelope,
};
use crate::error::MessageError;
use crate::prelude::*;
use crate::ProtocolVersion;
use core::fmt;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

include!(concat!(env!("OUT_DIR"), "/conversions.rs"));

/// One definition's conversions between revisions, with the definition's name: an item of
/// [`by_definition`], so that a caller names the definition once.
// Read by `convert_value`'s match (two revisions or more) and by the engines' conversions for
// a peer (`server`, `client`): a build with neither reads no field.
#[allow(dead_code)]
#[derive(Clone, Copy)]
pub(crate) struct ByDefinition {
    /// The definition, as the schema names it.
    pub(crate) definition: &'static str,
    /// Converts a value of it from the first revision to the second: `None` when the two do
    /// not share it.
    pub(crate) convert: fn(&str, &str, &Value) -> Option<Result<Value, ConversionError>>,
}

pub mod peer;
#[cfg(feature = "server")]
pub(crate) use peer::result_for_peer;
pub use peer::{convert_call_for_peer, convert_result_for_peer, convert_value_for_peer, Converted};

/// Why a value could not be carried into another revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversionError {
    subject: String,
    from: String,
    to: String,
    path: String,
    reason: String,
}

impl ConversionError {
    fn new(subject: &str, from: &str, to: &str, path: String, reason: String) -> Self {
        ConversionError {
            subject: subject.to_owned(),
            from: from.to_owned(),
            to: to.to_owned(),
            path,
            reason,
        }
    }

    fn from_message(subject: &str, from: &str, to: &str, error: &MessageError) -> Self {
        Self::new(
            subject,
            from,
            to,
            error.path().to_owned(),
            error.message().to_owned(),
        )
    }

    /// The definition (`CallToolResult`) or, for a call or result, the method converted.
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The source revision.
    pub fn from(&self) -> &str {
        &self.from
    }

    /// The target revision.
    pub fn to(&self) -> &str {
        &self.to
    }

    /// The JSON path of what the target cannot hold (`content[0].type`); empty for the value
    /// itself.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Why, in words.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} from {} to {}: ", self.subject, self.from, self.to)?;
        if !self.path.is_empty() {
            write!(f, "at {}: ", self.path)?;
        }
        f.write_str(&self.reason)
    }
}

impl core::error::Error for ConversionError {}

/// A type generated for a schema definition: its name and revision.
pub trait Definition: Serialize + DeserializeOwned {
    /// The definition's name in the schema (`Resource`).
    const NAME: &'static str;
    /// The revision (`2025-06-18`).
    const REVISION: &'static str;
}

/// The same definition in another revision: `T` is what `Self` becomes there. Implemented by
/// the build for every definition two enabled revisions share.
pub trait ConvertTo<T: Definition>: Definition {
    /// Carries the value into `T`'s revision (see the [module](self) for the rule).
    fn convert(&self) -> Result<T, ConversionError> {
        let error = |path: String, reason: String| {
            ConversionError::new(Self::NAME, Self::REVISION, T::REVISION, path, reason)
        };
        let text = crate::json::to_string(self).map_err(|e| error(String::new(), e.to_string()))?;
        read::<T>(&text).map_err(|(path, reason)| error(path, reason))
    }

    /// Carries the value into `T`'s revision *for a peer*: as [`ConvertTo::convert`], without
    /// the members `T`'s revision does not define and another revision does, whose paths are
    /// returned (see [`peer`]).
    fn convert_for_peer(&self) -> Result<Converted<T>, ConversionError> {
        peer::definition_for_peer(self)
    }
}

/// Reads `T` from JSON text, with the path of a failure and serde_json's words for it
/// ([`crate::__private::from_str_explained`]).
fn read<T: DeserializeOwned>(text: &str) -> Result<T, (String, String)> {
    crate::__private::from_str_explained(text)
        .map_err(|explained| (explained.path, explained.message))
}

/// Converts a JSON value of `definition` from revision `from` to revision `to`: the value is
/// first read as `from`'s type (so it must be valid there), then as `to`'s. `None` when the
/// two revisions do not share the definition, or one of them is not enabled.
///
/// ```
/// # #[cfg(all(feature = "v2025_06_18", feature = "v2025_11_25"))] {
/// use mcp_spec_types::{convert::convert_value, ProtocolVersion};
/// let tool = serde_json::json!({"name": "echo", "inputSchema": {"type": "object"}});
/// let converted = convert_value(
///     "Tool",
///     &ProtocolVersion::from("2025-06-18"),
///     &ProtocolVersion::from("2025-11-25"),
///     &tool,
/// );
/// assert_eq!(converted, Some(Ok(tool)));
/// # }
/// ```
#[inline]
pub fn convert_value(
    definition: &str,
    from: &ProtocolVersion,
    to: &ProtocolVersion,
    value: &Value,
) -> Option<Result<Value, ConversionError>> {
    convert_generated(definition, from.as_str(), to.as_str(), value)
}

/// The body of every generated arm of [`convert_value`].
#[doc(hidden)]
pub fn via_json<A, B>(
    definition: &str,
    from: &str,
    to: &str,
    value: &Value,
) -> Result<Value, ConversionError>
where
    A: Serialize + DeserializeOwned,
    B: Serialize + DeserializeOwned,
{
    let text = value.to_string();
    let source: A = read(&text).map_err(|(path, reason)| {
        ConversionError::new(
            definition,
            from,
            to,
            path,
            format!("not a valid {definition} of revision {from}: {reason}"),
        )
    })?;
    let text = crate::json::to_string(&source)
        .map_err(|e| ConversionError::new(definition, from, to, String::new(), e.to_string()))?;
    let target: B = read(&text)
        .map_err(|(path, reason)| ConversionError::new(definition, from, to, path, reason))?;
    let text = crate::json::to_string(&target)
        .map_err(|e| ConversionError::new(definition, from, to, String::new(), e.to_string()))?;
    crate::json::from_str(&text)
        .map_err(|e| ConversionError::new(definition, from, to, String::new(), e.to_string()))
}

/// The `params` of a call or notification as JSON (`None` when it has none).
pub(crate) use crate::dispatch::params_of;

/// Converts a request or notification of one revision into another's: the same method, its
/// params read as the target's. A method the target lacks is a [`ConversionError`].
pub fn convert_call<A: MethodSet, B: MethodSet>(call: &A) -> Result<B, ConversionError> {
    convert_params(call, |_| {})
}

/// [`convert_call`], with [`StatelessRequestMeta`] put into `params._meta` (for a stateless
/// target revision, whose requests carry it).
pub fn convert_call_with<A: MethodSet, B: MethodSet>(
    call: &A,
    meta: &StatelessRequestMeta,
) -> Result<B, ConversionError> {
    match meta
        .meta_text()
        .and_then(|text| with_meta_text(call, &text))
    {
        Some(params) => read_params_text::<A, B>(call.method(), params),
        None => convert_params(call, |params| meta.insert_into(params)),
    }
}

/// [`convert_call_with`], with `meta_text` the JSON of the `_meta` object to put in (see
/// [`StatelessRequestMeta::meta_text`]), written once by a caller that converts many calls
/// with the same keys (a session's).
#[cfg(feature = "server")]
pub(crate) fn convert_call_with_text<A: MethodSet, B: MethodSet>(
    call: &A,
    meta_text: &str,
) -> Result<B, ConversionError> {
    if let Some(params) = with_meta_text(call, meta_text) {
        return read_params_text::<A, B>(call.method(), params);
    }
    // Params with a `_meta` of their own: the keys read back and merged into it.
    let Some(meta) = StatelessRequestMeta::from_meta_text(meta_text) else {
        let reason = "the request's `_meta` keys are not a `_meta` object's JSON";
        let method = call.method();
        return Err(ConversionError::new(
            method,
            A::REVISION,
            B::REVISION,
            String::new(),
            reason.to_owned(),
        ));
    };
    convert_params(call, |params| meta.insert_into(params))
}

/// Reads `params`, the text [`with_meta_text`] made of a call of `method`, as `B`'s. Params
/// without `_meta` (a session's usual call) get the keys written in front of them, and the
/// text is read as the target's with no JSON tree built between: by the reader alone first
/// (the text was just written, so it is JSON); a read it stops on goes the way that names
/// what is wrong, and where.
fn read_params_text<A: MethodSet, B: MethodSet>(
    method: &str,
    params: String,
) -> Result<B, ConversionError> {
    if B::lists(method) {
        let seed = ParamsSeed::<B>(method, core::marker::PhantomData);
        if let Some(call) = crate::__private::seed_without_fallback(&params, seed) {
            return Ok(call);
        }
    }
    let raw = RawValue::from_string(params).map_err(|e| {
        ConversionError::new(
            method,
            A::REVISION,
            B::REVISION,
            String::new(),
            e.to_string(),
        )
    })?;
    B::from_parts(method, Some(&raw))
        .map_err(|e| ConversionError::from_message(method, A::REVISION, B::REVISION, &e))
}

/// Reads the params of `.0`, a method set `M` lists, as [`MethodSet::deserialize_params`].
struct ParamsSeed<'a, M>(&'a str, core::marker::PhantomData<M>);

impl<'de, M: MethodSet> serde::de::DeserializeSeed<'de> for ParamsSeed<'_, M> {
    type Value = M;

    fn deserialize<D: serde::Deserializer<'de>>(self, params: D) -> Result<M, D::Error> {
        M::deserialize_params(self.0, params)
    }
}

/// `call`'s params as text with `meta` (the `_meta` object's JSON) put first; `None` when the
/// params may hold a `_meta` already (its keys are merged member by member instead) or do not
/// write as JSON.
fn with_meta_text<A: MethodSet>(call: &A, meta: &str) -> Option<String> {
    let whole = crate::json::to_string(&crate::dispatch::ParamsOf(call)).ok()?;
    // `{"params":{...}}`, or `{}` for a call without params.
    let params = match whole.strip_prefix("{\"params\":") {
        Some(rest) => rest.strip_suffix('}')?,
        None if whole == "{}" => "{}",
        None => return None,
    };
    // A `_meta` anywhere, even deep in the arguments, takes the general path: the text is
    // not read here, so a top-level one cannot be told from another.
    if params.contains("\"_meta\"") {
        return None;
    }
    let members = params.strip_prefix('{')?.strip_suffix('}')?;
    let mut text = String::with_capacity(meta.len() + members.len() + 12);
    text.push_str("{\"_meta\":");
    text.push_str(meta);
    if !members.is_empty() {
        text.push(',');
        text.push_str(members);
    }
    text.push('}');
    Some(text)
}

fn convert_params<A: MethodSet, B: MethodSet>(
    call: &A,
    adjust: impl FnOnce(&mut Map<String, Value>),
) -> Result<B, ConversionError> {
    let method = call.method().to_owned();
    let error = |path: String, reason: String| {
        ConversionError::new(&method, A::REVISION, B::REVISION, path, reason)
    };
    let mut params = params_of(call).map_err(|e| error(String::new(), e))?;
    let mut object = match params.take() {
        Some(Value::Object(object)) => Some(object),
        Some(other) => {
            return Err(error(
                "params".into(),
                format!("params is not an object: {other}"),
            ))
        }
        None => None,
    };
    let had = object.is_some();
    let mut adjusted = object.take().unwrap_or_default();
    adjust(&mut adjusted);
    if had || !adjusted.is_empty() {
        object = Some(adjusted);
    }
    let raw = match object {
        Some(object) => Some(
            serde_json::value::to_raw_value(&object)
                .map_err(|e| error(String::new(), e.to_string()))?,
        ),
        None => None,
    };
    B::from_parts(&method, raw.as_deref())
        .map_err(|e| ConversionError::from_message(&method, A::REVISION, B::REVISION, &e))
}

/// Converts the result of `request` from `A`'s revision to `B`'s.
pub fn convert_result<A: CallSet, B: CallSet>(
    result: &A::Result,
    request: &PendingRequest,
) -> Result<B::Result, ConversionError> {
    convert_result_inner::<A, B>(result, request, None)
}

/// [`convert_result`] into a stateless revision: `resultType` and, where the target's result
/// declares them, `ttlMs` and `cacheScope` are supplied from `fill` when the source lacks them.
pub fn convert_result_with<A: CallSet, B: CallSet>(
    result: &A::Result,
    request: &PendingRequest,
    fill: &StatelessResult,
) -> Result<B::Result, ConversionError> {
    convert_result_inner::<A, B>(result, request, Some(fill))
}

fn convert_result_inner<A: CallSet, B: CallSet>(
    result: &A::Result,
    request: &PendingRequest,
    fill: Option<&StatelessResult>,
) -> Result<B::Result, ConversionError> {
    let method = request.method();
    let error = |path: String, reason: String| {
        ConversionError::new(method, A::REVISION, B::REVISION, path, reason)
    };
    let text = crate::json::to_string(result).map_err(|e| error(String::new(), e.to_string()))?;
    let raw = match fill {
        None => RawValue::from_string(text).map_err(|e| error(String::new(), e.to_string()))?,
        Some(fill) => {
            let mut value: Value =
                crate::json::from_str(&text).map_err(|e| error(String::new(), e.to_string()))?;
            if let Value::Object(object) = &mut value {
                fill.insert_into(object, B::result_members(method));
            }
            serde_json::value::to_raw_value(&value)
                .map_err(|e| error(String::new(), e.to_string()))?
        }
    };
    B::parse_result(request, &raw).map_err(|e| {
        // The result's own path, without the envelope's `result.`.
        let path = e.path().strip_prefix("result").unwrap_or(e.path());
        let path = path.strip_prefix('.').unwrap_or(path).to_owned();
        error(path, e.message().to_owned())
    })
}

impl<R: MethodSet, N: MethodSet> Message<R, N> {
    /// Converts the message into another revision's (see [`convert_call`]). A result is
    /// carried as the JSON it is (it is typed once its request is known: see
    /// [`convert_result`]); a batch needs a target revision that has batches.
    pub fn convert<R2: MethodSet, N2: MethodSet>(
        &self,
    ) -> Result<Message<R2, N2>, ConversionError> {
        let request = |call: &R| convert_call(call).map(|call| (call, Vec::new()));
        let notification = |call: &N| convert_call(call).map(|call| (call, Vec::new()));
        convert_message(self, &request, &notification).map(|(message, _)| message)
    }
}

/// Dropped JSON paths, in the intent that reports them (none for a lossless conversion).
type Dropped = Vec<String>;

/// How one intent converts a call: the target's call and what it dropped.
type CallConversion<'a, A, B> = &'a dyn Fn(&A) -> Result<(B, Dropped), ConversionError>;

/// One message into another revision, whichever intent: the envelopes kept, each request and
/// notification converted by `request` and `notification`, a batch item by item (a target
/// revision without batches refuses it); a dropped path or an error inside a batch is
/// prefixed by its item's index.
fn convert_message<R: MethodSet, N: MethodSet, R2: MethodSet, N2: MethodSet>(
    message: &Message<R, N>,
    request: CallConversion<'_, R, R2>,
    notification: CallConversion<'_, N, N2>,
) -> Result<(Message<R2, N2>, Dropped), ConversionError> {
    Ok(match message {
        Message::Request(r) => {
            let (call, dropped) = request(&r.call)?;
            let envelope = RequestEnvelope {
                id: r.id.clone(),
                call,
                extra: r.extra.clone(),
            };
            (Message::Request(envelope), dropped)
        }
        Message::Notification(n) => {
            let (notification, dropped) = notification(&n.notification)?;
            let envelope = NotificationEnvelope {
                notification,
                extra: n.extra.clone(),
            };
            (Message::Notification(envelope), dropped)
        }
        Message::Response(r) => (Message::Response(r.clone()), Vec::new()),
        Message::Error(e) => {
            let error = ErrorResponse {
                id: e.id.clone(),
                error: e.error.clone(),
                extra: e.extra.clone(),
            };
            (Message::Error(error), Vec::new())
        }
        Message::Batch(items) => {
            if !R2::BATCHES {
                return Err(ConversionError::new(
                    "batch",
                    R::REVISION,
                    R2::REVISION,
                    String::new(),
                    format!("revision {} has no JSON-RPC batches", R2::REVISION),
                ));
            }
            let mut converted = Vec::with_capacity(items.len());
            let mut dropped = Vec::new();
            for (index, item) in items.iter().enumerate() {
                let (item, item_dropped) = convert_message(item, request, notification).map_err(
                    |mut e: ConversionError| {
                        e.path = if e.path.is_empty() {
                            format!("[{index}]")
                        } else {
                            format!("[{index}].{}", e.path)
                        };
                        e
                    },
                )?;
                dropped.extend(item_dropped.into_iter().map(|p| format!("[{index}].{p}")));
                converted.push(item);
            }
            (Message::Batch(converted), dropped)
        }
    })
}

/// The `_meta` keys a stateless request carries, as the 2026-07-28 schema names them
/// (`RequestMetaObject`; `tests/convert.rs` checks them against the schema).
pub mod meta_keys {
    /// The protocol version of the request.
    pub const PROTOCOL_VERSION: &str = crate::version::PROTOCOL_VERSION_META_KEY;
    /// The client's capabilities.
    pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
    /// The client's name and version.
    pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
    /// The level of the log messages the request opts in to.
    pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
}

/// What every request of a stateless revision carries in `params._meta`, made from what a
/// stateful session negotiated in `initialize` (the version, the client's capabilities and
/// `clientInfo`). Stateless revisions have no `initialize`: the server learns these per request.
#[derive(Debug, Clone, PartialEq)]
pub struct StatelessRequestMeta {
    /// The protocol version the request speaks (`2026-07-28`).
    pub protocol_version: String,
    /// The client's capabilities, as the `initialize` request sent them.
    pub client_capabilities: Value,
    /// The client's `clientInfo`, as the `initialize` request sent it.
    pub client_info: Option<Value>,
}

impl StatelessRequestMeta {
    /// The `_meta` object [`StatelessRequestMeta::insert_into`] puts into params that have
    /// none, as JSON; `None` if it does not write (a value that is not JSON's).
    pub(crate) fn meta_text(&self) -> Option<String> {
        let mut keys = Map::new();
        self.insert_into(&mut keys);
        crate::json::to_string(keys.get("_meta")?).ok()
    }

    /// The keys back from [`StatelessRequestMeta::meta_text`]'s JSON; `None` if it is not
    /// such an object.
    #[cfg(feature = "server")]
    pub(crate) fn from_meta_text(text: &str) -> Option<Self> {
        let mut keys: Map<String, Value> = crate::json::from_str(text).ok()?;
        let protocol_version = match keys.remove(meta_keys::PROTOCOL_VERSION)? {
            Value::String(version) => version,
            _ => return None,
        };
        Some(StatelessRequestMeta {
            protocol_version,
            client_capabilities: keys.remove(meta_keys::CLIENT_CAPABILITIES)?,
            client_info: keys.remove(meta_keys::CLIENT_INFO),
        })
    }

    /// Puts the three keys into `params._meta`, keeping whatever `_meta` already holds (a
    /// key already present wins).
    pub fn insert_into(&self, params: &mut Map<String, Value>) {
        let meta = params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if !meta.is_object() {
            return;
        }
        if let Value::Object(meta) = meta {
            meta.entry(meta_keys::PROTOCOL_VERSION)
                .or_insert_with(|| Value::String(self.protocol_version.clone()));
            meta.entry(meta_keys::CLIENT_CAPABILITIES)
                .or_insert_with(|| self.client_capabilities.clone());
            if let Some(info) = &self.client_info {
                meta.entry(meta_keys::CLIENT_INFO)
                    .or_insert_with(|| info.clone());
            }
        }
    }
}

/// What a stateless revision's results carry that stateful results do not: `resultType`
/// (always `"complete"` for a result computed at once) and, for cacheable results, how long
/// and for whom the result may be cached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatelessResult {
    /// `ttlMs`: how long the result may be reused, in milliseconds (0: not at all).
    pub ttl_ms: u64,
    /// `cacheScope`: `"private"` (one client) or `"public"` (anyone).
    pub cache_scope: String,
    /// Members for the result's `_meta` (such as the server's
    /// `io.modelcontextprotocol/serverInfo`), added where the source's `_meta` lacks them.
    pub meta: Map<String, Value>,
}

impl StatelessResult {
    /// A result not to be cached (`ttlMs` 0, `cacheScope` `"private"`).
    pub fn uncached() -> Self {
        Self::cached(crate::cache::CacheHint::UNCACHED)
    }

    /// A result with `hint`'s `ttlMs` and `cacheScope` (see [`crate::cache`]).
    pub fn cached(hint: crate::cache::CacheHint) -> Self {
        StatelessResult {
            ttl_ms: hint.ttl_ms,
            cache_scope: hint.scope.as_str().to_owned(),
            meta: Map::new(),
        }
    }

    /// Adds a member for the result's `_meta`.
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.insert(key.into(), value);
        self
    }

    /// Supplies what `result` lacks of `resultType`, `ttlMs` and `cacheScope`, each only
    /// where the target's result declares it (`declared`: its member names).
    pub fn insert_into(&self, result: &mut Map<String, Value>, declared: &[&str]) {
        crate::cache::insert_result_type(result, declared);
        let mut put = |key: &str, value: Value| {
            if declared.contains(&key) && !result.contains_key(key) {
                result.insert(key.to_owned(), value);
            }
        };
        put(crate::cache::TTL_MS, Value::from(self.ttl_ms));
        put(
            crate::cache::CACHE_SCOPE,
            Value::String(self.cache_scope.clone()),
        );
        if self.meta.is_empty() || !declared.contains(&"_meta") {
            return;
        }
        let meta = result
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(meta) = meta {
            for (key, value) in &self.meta {
                meta.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
    }
}
