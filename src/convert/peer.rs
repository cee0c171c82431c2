//! Conversion *for a peer*: what a server sends a client (or a client a server) of another
//! revision, in that revision's vocabulary only.
//!
//! The crate has two conversion intents:
//!
//! - **lossless** ([`ConvertTo::convert`](super::ConvertTo::convert),
//!   [`convert_call`](super::convert_call), [`convert_result`](super::convert_result),
//!   [`Message::convert`]): a member the target does not declare travels in the target's
//!   `extra` and is written back out, so old → new → old gives back the input. Right for round
//!   trips, proxies and storage.
//! - **for a peer** ([`ConvertTo::convert_for_peer`](super::ConvertTo::convert_for_peer),
//!   [`convert_call_for_peer`], [`convert_result_for_peer`], [`Message::convert_for_peer`],
//!   [`convert_value_for_peer`]): the same conversion, except that every member the
//!   specification defines at that place in *some* revision but not in the target is dropped,
//!   at any depth (inside unions, content blocks, capabilities, arrays and maps), and its JSON
//!   path reported in [`Converted::dropped`]. Right for replies: a 2024-11-05 client is not
//!   sent `title`, `icons`, `resultType` or the `completions` capability, which its revision
//!   does not define. Members no revision defines (a user's own extension members) are kept:
//!   they are the user's, not a newer revision's.
//!
//! ```
//! # #[cfg(all(feature = "v2024_11_05", feature = "v2026_07_28"))] {
//! use mcp_spec_types::convert::ConvertTo;
//! use mcp_spec_types::{v2024_11_05 as old, v2026_07_28 as new};
//!
//! let mut resource = new::Resource::new("file:///a.txt", "a.txt").with_title("A");
//! resource.extra.insert("x-origin".into(), "mine".into());
//! let sent = ConvertTo::<old::Resource>::convert_for_peer(&resource).unwrap();
//! // `title` is 2025-06-18's: a 2024-11-05 client is not sent it. `x-origin` is no
//! // revision's: it is the user's, and stays.
//! assert_eq!(sent.dropped, ["title"]);
//! assert!(!sent.value.extra.contains_key("title"));
//! assert_eq!(sent.value.extra["x-origin"], "mine");
//! # }
//! ```
//!
//! # How it is decided
//!
//! Which members exist in which revision is a fact of the schemas: the build reads every
//! revision's schema (enabled or not, so the answer does not depend on the features chosen)
//! into a table of each definition's objects, their members, and what each member holds. The
//! value, as the JSON the lossless conversion would write, is walked against the target
//! revision's table and, at the same place, every other revision's. "The same place" is the
//! path from the definition, not a definition's name: 2025-06-18's `CallToolRequest.params` is
//! an inline object, 2025-11-25's a `$ref` to `CallToolRequestParams`, and both are the place
//! `params` of `CallToolRequest`. At each object, a member:
//!
//! - that the target declares is kept, and walked into;
//! - that the target does not declare but another revision declares at that place is dropped;
//! - that no revision declares at that place is kept, untouched.
//!
//! Union arms (content blocks, resource contents, elicitation modes) are told apart as the
//! schema tells them: by their `const` members (`type: "text"`) and required members. JSON the
//! specification leaves to the user is never walked into: `_meta`, objects without declared
//! members (`arguments`, `structuredContent`), and the JSON Schemas a tool or an elicitation
//! carries (`inputSchema`, `outputSchema`, `requestedSchema`).
//!
//! This was chosen over stripping each type's `extra` map in generated Rust: walking the JSON
//! against generated tables covers every depth and union with one small walker, and reads the
//! result with the target's own reader afterwards, so a value the walk leaves is exactly as
//! valid as the lossless conversion's (what the lossless conversion refuses, this refuses too,
//! with the same [`ConversionError`]).
//!
//! # Differences in meaning
//!
//! Where revisions differ in meaning, not only in members, each case is decided as follows:
//!
//! - **A capability the target lacks** (`completions` before 2025-03-26, `tasks` before
//!   2025-11-25, `extensions` before 2026-07-28; the same for a client's capabilities) is a
//!   member of `ServerCapabilities` / `ClientCapabilities` the target does not declare:
//!   dropped, so the peer is not told of what it cannot ask for.
//! - **A result member the target lacks** is dropped: `structuredContent` for a revision before
//!   2025-06-18 (the specification asks a tool returning structured content to return it
//!   serialized in a text block too, which stays), and the stateless revisions' `resultType`,
//!   `ttlMs` and `cacheScope` for a stateful peer.
//! - **A result that asks for more input** (`resultType` other than `"complete"`, the
//!   stateless revisions' `InputRequiredResult`) has no equivalent in a revision whose result
//!   has no `resultType`: it is **refused** with a [`ConversionError`] (a stateful server asks
//!   its client with a request of its own instead). A `"complete"` result loses the member,
//!   which the specification tells a client to assume when it is absent.
//! - **A content block or other union arm the target lacks** (`audio` for 2024-11-05,
//!   `resource_link` before 2025-06-18, `tool_use` in sampling before 2025-11-25) is
//!   **refused**, as by the lossless conversion: reducing it (to text, say) would put words in
//!   the sender's mouth.
//! - **A method the target lacks** is refused, as by the lossless conversion.

use super::{convert_params, read, ConversionError, Definition};
use crate::cache::{RESULT_TYPE, RESULT_TYPE_COMPLETE};
use crate::dispatch::{CallSet, Message, MethodSet, PendingRequest};
use crate::prelude::*;
use serde_json::{Map, Value};

/// A converted value and the JSON paths of the members dropped on the way (`title`,
/// `content[0].annotations.lastModified`, `capabilities.completions`), for logging or
/// asserting on. Returned by the *for a peer* conversions.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Converted<T> {
    /// The value, in the target revision.
    pub value: T,
    /// The members dropped because the target revision does not define them, as JSON paths
    /// from the value's root; empty when nothing was dropped.
    pub dropped: Vec<String>,
}

impl<T> Converted<T> {
    /// The value, without the list of what was dropped.
    pub fn into_value(self) -> T {
        self.value
    }
}

mod walk;
use walk::{arms, lookup, member, object_of, revision, strip_definition, strip_for};
use walk::{Revision, Shape};

fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|e| e.to_string())
}

/// The body of [`ConvertTo::convert_for_peer`](super::ConvertTo::convert_for_peer).
pub(super) fn definition_for_peer<A: Definition, B: Definition>(
    source: &A,
) -> Result<Converted<B>, ConversionError> {
    let error = |path: String, reason: String| {
        ConversionError::new(A::NAME, A::REVISION, B::REVISION, path, reason)
    };
    let mut value = to_json(source).map_err(|e| error(String::new(), e))?;
    let dropped = strip_definition(B::NAME, B::REVISION, &mut value);
    let value = read::<B>(&value.to_string()).map_err(|(path, reason)| error(path, reason))?;
    Ok(Converted { value, dropped })
}

/// [`convert_value`](super::convert_value) for a peer (see the [module](self)): the JSON of
/// `definition` in revision `to`, without what `to` does not define. `None` when the two
/// revisions do not share the definition, or one of them is not enabled.
///
/// ```
/// # #[cfg(all(feature = "v2024_11_05", feature = "v2025_11_25"))] {
/// use mcp_spec_types::{convert::convert_value_for_peer, ProtocolVersion};
/// let capabilities = serde_json::json!({"completions": {}, "tools": {"listChanged": true}});
/// let converted = convert_value_for_peer(
///     "ServerCapabilities",
///     &ProtocolVersion::from("2025-11-25"),
///     &ProtocolVersion::from("2024-11-05"),
///     &capabilities,
/// )
/// .unwrap()
/// .unwrap();
/// assert_eq!(converted.value, serde_json::json!({"tools": {"listChanged": true}}));
/// assert_eq!(converted.dropped, ["completions"]);
/// # }
/// ```
#[inline]
pub fn convert_value_for_peer(
    definition: &str,
    from: &crate::ProtocolVersion,
    to: &crate::ProtocolVersion,
    value: &Value,
) -> Option<Result<Converted<Value>, ConversionError>> {
    let converted = super::convert_value(definition, from, to, value)?;
    Some(converted.map(|mut value| {
        let dropped = strip_definition(definition, to.as_str(), &mut value);
        Converted { value, dropped }
    }))
}

/// [`convert_value_for_peer`] of the definition `lookup` converts: what converts a few
/// definitions compiles theirs alone.
#[cfg(any(feature = "server", feature = "client"))]
pub(crate) fn lookup_for_peer(
    lookup: super::ByDefinition,
    from: &crate::ProtocolVersion,
    to: &crate::ProtocolVersion,
    value: &Value,
) -> Option<Result<Converted<Value>, ConversionError>> {
    let converted = (lookup.convert)(from.as_str(), to.as_str(), value)?;
    Some(converted.map(|mut value| {
        let dropped = strip_definition(lookup.definition, to.as_str(), &mut value);
        Converted { value, dropped }
    }))
}

/// [`convert_call`](super::convert_call) for a peer (see the [module](self)): a request or
/// notification of one revision as another's, without what the target does not define. Paths
/// start at the call (`params.task`).
///
/// ```
/// # #[cfg(all(feature = "v2025_06_18", feature = "v2025_11_25"))] {
/// use mcp_spec_types::convert::convert_call_for_peer;
/// use mcp_spec_types::dispatch::MethodSet;
/// use mcp_spec_types::{v2025_06_18 as old, v2025_11_25 as new};
///
/// let params = serde_json::value::RawValue::from_string(
///     r#"{"messages":[],"maxTokens":100,"toolChoice":{"mode":"auto"}}"#.to_owned(),
/// )
/// .unwrap();
/// let call = new::ServerCall::from_parts("sampling/createMessage", Some(&params)).unwrap();
/// // Tool use in sampling is 2025-11-25's: a 2025-06-18 client is not asked for it.
/// let sent = convert_call_for_peer::<_, old::ServerCall>(&call).unwrap();
/// assert_eq!(sent.dropped, ["params.toolChoice"]);
/// # }
/// ```
pub fn convert_call_for_peer<A: MethodSet, B: MethodSet>(
    call: &A,
) -> Result<Converted<B>, ConversionError> {
    let method = call.method().to_owned();
    let mut dropped = Vec::new();
    let value = convert_params::<A, B>(call, |params| {
        let mut whole = Map::new();
        whole.insert("method".into(), Value::String(method.clone()));
        whole.insert("params".into(), Value::Object(core::mem::take(params)));
        let mut whole = Value::Object(whole);
        dropped = strip_for(B::REVISION, &|r| lookup(r.calls, &method), &mut whole, true);
        if let Some(Value::Object(stripped)) = whole.get_mut("params").map(Value::take) {
            *params = stripped;
        }
    })?;
    Ok(Converted { value, dropped })
}

/// [`convert_result`](super::convert_result) for a peer (see the [module](self)): the result of
/// `request` as revision `B`'s, without what `B` does not define. A result that asks for more
/// input has no equivalent in a revision without `resultType`, and is refused.
///
/// ```
/// # #[cfg(all(feature = "v2024_11_05", feature = "v2026_07_28"))] {
/// use mcp_spec_types::convert::convert_result_for_peer;
/// use mcp_spec_types::dispatch::PendingRequest;
/// use mcp_spec_types::{v2024_11_05 as old, v2026_07_28 as new};
///
/// let request = PendingRequest::without_task("resources/list");
/// let result: new::ClientCallResult = new::ClientCallResult::parse(
///     &request,
///     &serde_json::value::RawValue::from_string(
///         r#"{"resultType":"complete","ttlMs":0,"cacheScope":"private",
///             "resources":[{"uri":"file:///a","name":"a","title":"A"}]}"#
///             .to_owned(),
///     )
///     .unwrap(),
/// )
/// .unwrap();
/// let sent = convert_result_for_peer::<new::ClientCall, old::ClientCall>(&result, &request)
///     .unwrap();
/// assert_eq!(
///     sent.dropped,
///     ["cacheScope", "resources[0].title", "resultType", "ttlMs"]
/// );
/// # }
/// ```
pub fn convert_result_for_peer<A: CallSet, B: CallSet>(
    result: &A::Result,
    request: &PendingRequest,
) -> Result<Converted<B::Result>, ConversionError> {
    result_for_peer::<A, B>(result, request, true)
}

/// [`convert_result_for_peer`]; the dropped members' paths are recorded only when `record`
/// (a server answering its client has no use for them).
pub(crate) fn result_for_peer<A: CallSet, B: CallSet>(
    result: &A::Result,
    request: &PendingRequest,
    record: bool,
) -> Result<Converted<B::Result>, ConversionError> {
    let method = request.method();
    let error = |path: String, reason: String| {
        ConversionError::new(method, A::REVISION, B::REVISION, path, reason)
    };
    let mut value = to_json(result).map_err(|e| error(String::new(), e))?;
    let select = |r: &'static Revision| {
        if request.is_task_augmented() {
            lookup(r.definitions, "CreateTaskResult")
        } else {
            lookup(r.results, method)
        }
    };
    refuse_incomplete(&value, B::REVISION, &select)
        .map_err(|reason| error(RESULT_TYPE.into(), reason))?;
    let dropped = strip_for(B::REVISION, &select, &mut value, record);
    let text = crate::json::to_string(&value).map_err(|e| error(String::new(), e.to_string()))?;
    // The target's reader alone first, in one pass; a read it stops on is read again the way
    // that says what is wrong, and where.
    if !request.is_task_augmented() {
        let seed = ResultSeed::<B>(method, core::marker::PhantomData);
        if let Some(value) = crate::__private::seed_without_fallback(&text, seed) {
            return Ok(Converted { value, dropped });
        }
    }
    let raw = serde_json::value::RawValue::from_string(text)
        .map_err(|e| error(String::new(), e.to_string()))?;
    let value = B::parse_result(request, &raw).map_err(|e| {
        let path = e.path().strip_prefix("result").unwrap_or(e.path());
        let path = path.strip_prefix('.').unwrap_or(path).to_owned();
        error(path, e.message().to_owned())
    })?;
    Ok(Converted { value, dropped })
}

/// Reads the result of a request of method `.0` (not task-augmented), as
/// [`CallSet::deserialize_result`].
struct ResultSeed<'a, C>(&'a str, core::marker::PhantomData<C>);

impl<'de, C: CallSet> serde::de::DeserializeSeed<'de> for ResultSeed<'_, C> {
    type Value = C::Result;

    fn deserialize<D: serde::Deserializer<'de>>(self, result: D) -> Result<C::Result, D::Error> {
        C::deserialize_result(self.0, result)
    }
}

/// A result whose `resultType` is not `"complete"` asks the client for more input; a revision
/// whose result declares no `resultType` cannot say so (its clients read every result as
/// complete, as the specification tells clients to read a result without the member).
fn refuse_incomplete(
    value: &Value,
    target: &str,
    select: &dyn Fn(&'static Revision) -> Option<Shape>,
) -> Result<(), String> {
    let Some(kind) = value.get(RESULT_TYPE).and_then(Value::as_str) else {
        return Ok(());
    };
    if kind == RESULT_TYPE_COMPLETE {
        return Ok(());
    }
    let mut declares = false;
    if let Some(shape) =
        revision(target).and_then(|revision| select(revision).map(|s| (revision, s)))
    {
        let (revision, shape) = shape;
        arms(shape, &mut |arm| {
            declares |= object_of(revision, arm).is_some_and(|o| member(o, RESULT_TYPE).is_some());
        });
    }
    if declares {
        Ok(())
    } else {
        Err(format!(
            "a result of type `{kind}` has no equivalent in revision {target}, whose results are \
             always complete"
        ))
    }
}

impl<R: MethodSet, N: MethodSet> Message<R, N> {
    /// [`Message::convert`] for a peer (see the [module](self)): requests and notifications
    /// lose what the target revision does not define (paths start at the call, `params.…`,
    /// with `[i].` before them in a batch). A result is carried as the JSON it is: it is typed
    /// once its request is known, so convert it with [`convert_result_for_peer`].
    ///
    /// ```
    /// # #[cfg(all(feature = "v2025_06_18", feature = "v2025_11_25"))] {
    /// use mcp_spec_types::{v2025_06_18 as old, v2025_11_25 as new};
    ///
    /// let message = new::ServerMessage::parse(
    ///     r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage",
    ///         "params":{"messages":[],"maxTokens":100,"toolChoice":{"mode":"auto"}}}"#,
    /// )
    /// .unwrap();
    /// let sent = message.convert_for_peer::<old::ServerCall, old::ServerNotify>().unwrap();
    /// assert_eq!(sent.dropped, ["params.toolChoice"]);
    /// # }
    /// ```
    pub fn convert_for_peer<R2: MethodSet, N2: MethodSet>(
        &self,
    ) -> Result<Converted<Message<R2, N2>>, ConversionError> {
        let request = |call: &R| convert_call_for_peer(call).map(|c| (c.value, c.dropped));
        let notification = |call: &N| convert_call_for_peer(call).map(|c| (c.value, c.dropped));
        let (value, dropped) = super::convert_message(self, &request, &notification)?;
        Ok(Converted { value, dropped })
    }
}
