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

/// What a schema holds, as far as members go (see `codegen/members.rs`).
#[derive(Debug, Clone, Copy)]
enum Shape {
    Leaf,
    Free,
    /// An index into the revision's objects.
    Object(usize),
    Array(&'static Shape),
    Map(&'static Shape),
    AnyOf(&'static [Shape]),
}

#[derive(Debug)]
struct Object {
    members: &'static [(&'static str, Shape)],
    /// Members with a `const` value, as JSON text.
    consts: &'static [(&'static str, &'static str)],
    required: &'static [&'static str],
}

#[derive(Debug)]
struct Revision {
    name: &'static str,
    objects: &'static [Object],
    /// By definition name, sorted.
    definitions: &'static [(&'static str, Shape)],
    /// By method (requests and notifications), sorted.
    calls: &'static [(&'static str, Shape)],
    /// Each request's result, by method, sorted.
    results: &'static [(&'static str, Shape)],
}

include!(concat!(env!("OUT_DIR"), "/member_tables.rs"));

fn lookup(list: &'static [(&'static str, Shape)], name: &str) -> Option<Shape> {
    list.binary_search_by(|(key, _)| (*key).cmp(name))
        .ok()
        .map(|index| list[index].1)
}

/// Shapes at one place of a value: for each revision, what the place may hold (unions
/// flattened into their arms).
type Place = Vec<(&'static Revision, Shape)>;

fn flatten_into(revision: &'static Revision, shape: Shape, out: &mut Place) {
    match shape {
        Shape::AnyOf(arms) => {
            for arm in arms {
                flatten_into(revision, *arm, out);
            }
        }
        shape => out.push((revision, shape)),
    }
}

/// Calls `each` with every arm of `shape` (unions flattened), allocating nothing.
fn arms(shape: Shape, each: &mut dyn FnMut(Shape)) {
    match shape {
        Shape::AnyOf(inner) => inner.iter().for_each(|arm| arms(*arm, each)),
        shape => each(shape),
    }
}

fn object_of(revision: &'static Revision, shape: Shape) -> Option<&'static Object> {
    match shape {
        Shape::Object(index) => revision.objects.get(index),
        _ => None,
    }
}

fn member(object: &Object, name: &str) -> Option<Shape> {
    object
        .members
        .iter()
        .find(|(member, _)| *member == name)
        .map(|(_, shape)| *shape)
}

/// Whether `map` can be an instance of `object` as far as its `const` members go (and, when
/// `strict`, its required members).
fn fits(object: &Object, map: &Map<String, Value>, strict: bool) -> bool {
    let consts = object
        .consts
        .iter()
        .all(|(name, text)| match map.get(*name) {
            Some(value) => is_const(text, value),
            None => !object.required.contains(name),
        });
    consts && (!strict || object.required.iter().all(|name| map.contains_key(*name)))
}

/// Whether `value` is the JSON `text` of a `const`. A string without escapes (`"text"`,
/// `"complete"`: the consts that tell union arms apart in results and calls) is compared as it
/// is, with no JSON read; any other (the error codes of the error definitions) is read first.
fn is_const(text: &str, value: &Value) -> bool {
    let plain = text
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .filter(|inner| !inner.contains(['\\', '"']));
    match plain {
        Some(inner) => value.as_str() == Some(inner),
        None => crate::json::from_str::<Value>(text).is_ok_and(|c| c == *value),
    }
}

fn objects_fitting(
    place: &Place,
    map: &Map<String, Value>,
    strict: bool,
) -> Vec<(&'static Revision, &'static Object)> {
    place
        .iter()
        .filter_map(|(revision, shape)| object_of(revision, *shape).map(|o| (*revision, o)))
        .filter(|(_, object)| fits(object, map, strict))
        .collect()
}

/// The JSON path of the value being walked: segments pushed on the way down and cut on the
/// way up, so that a path is written out only for a member dropped.
struct Path(String);

impl Path {
    /// Runs `walk` with `key` (a member) appended to the path.
    fn member<T>(&mut self, key: &str, walk: impl FnOnce(&mut Self) -> T) -> T {
        let at = self.0.len();
        if at > 0 {
            self.0.push('.');
        }
        self.0.push_str(key);
        let walked = walk(self);
        self.0.truncate(at);
        walked
    }

    /// Runs `walk` with `[index]` appended to the path.
    fn item<T>(&mut self, index: usize, walk: impl FnOnce(&mut Self) -> T) -> T {
        use core::fmt::Write;
        let at = self.0.len();
        let _ = write!(self.0, "[{index}]");
        let walked = walk(self);
        self.0.truncate(at);
        walked
    }
}

/// Drops from `value` what `all` declares and `target` does not, recording the paths.
fn strip(
    value: &mut Value,
    target: &Place,
    all: &Place,
    path: &mut Path,
    dropped: &mut Vec<String>,
) {
    match value {
        Value::Array(items) => {
            let inner = |place: &Place| {
                let mut out = Place::new();
                for (revision, shape) in place {
                    if let Shape::Array(inner) = shape {
                        flatten_into(revision, **inner, &mut out);
                    }
                }
                out
            };
            let (target, all) = (inner(target), inner(all));
            if target.is_empty() {
                return;
            }
            for (index, item) in items.iter_mut().enumerate() {
                path.item(index, |path| strip(item, &target, &all, path, dropped));
            }
        }
        Value::Object(map) => {
            let mut mine = objects_fitting(target, map, true);
            if mine.is_empty() {
                // A value the target cannot read: its reader will say why; drop what the
                // closest arms tell apart meanwhile.
                mine = objects_fitting(target, map, false);
            }
            if mine.is_empty() {
                strip_map(map, target, all, path, dropped);
                return;
            }
            let declared = |key: &str| {
                let mut declared = Place::new();
                for (revision, object) in &mine {
                    if let Some(shape) = member(object, key) {
                        flatten_into(revision, shape, &mut declared);
                    }
                }
                declared
            };
            // A member the target declares as a leaf or as free JSON is kept as it is; what
            // the other revisions declare is needed for any other.
            let settled = |key: &str| {
                let (mut any, mut leaves, mut free) = (false, true, false);
                for (_, object) in &mine {
                    if let Some(shape) = member(object, key) {
                        arms(shape, &mut |arm| {
                            any = true;
                            leaves &= matches!(arm, Shape::Leaf);
                            free |= matches!(arm, Shape::Free);
                        });
                    }
                }
                any && (leaves || free)
            };
            if map.keys().all(|key| settled(key)) {
                return;
            }
            let theirs = objects_fitting(all, map, false);
            map.retain(|key, inner| {
                if settled(key) {
                    return true;
                }
                let declared = declared(key);
                if !declared.is_empty() {
                    let mut others = Place::new();
                    for (revision, object) in &theirs {
                        if let Some(shape) = member(object, key) {
                            flatten_into(revision, shape, &mut others);
                        }
                    }
                    path.member(key, |path| strip(inner, &declared, &others, path, dropped));
                    true
                } else if theirs
                    .iter()
                    .any(|(_, object)| member(object, key).is_some())
                {
                    dropped.push(path.member(key, |path| path.0.clone()));
                    false
                } else {
                    true
                }
            });
        }
        _ => {}
    }
}

/// An object whose values all have one shape (`additionalProperties`).
fn strip_map(
    map: &mut Map<String, Value>,
    target: &Place,
    all: &Place,
    path: &mut Path,
    dropped: &mut Vec<String>,
) {
    let inner = |place: &Place| {
        let mut out = Place::new();
        for (revision, shape) in place {
            if let Shape::Map(inner) = shape {
                flatten_into(revision, **inner, &mut out);
            }
        }
        out
    };
    let (target, all) = (inner(target), inner(all));
    if target.is_empty() {
        return;
    }
    for (key, value) in map.iter_mut() {
        path.member(key, |path| strip(value, &target, &all, path, dropped));
    }
}

fn revision(name: &str) -> Option<&'static Revision> {
    REVISIONS.iter().copied().find(|r| r.name == name)
}

/// The places `select` names, in the target and in every revision.
fn places(target: &str, select: &dyn Fn(&'static Revision) -> Option<Shape>) -> (Place, Place) {
    let mut mine = Place::new();
    if let Some(target) = revision(target) {
        if let Some(shape) = select(target) {
            flatten_into(target, shape, &mut mine);
        }
    }
    let mut all = Place::new();
    for revision in REVISIONS {
        if let Some(shape) = select(revision) {
            flatten_into(revision, shape, &mut all);
        }
    }
    (mine, all)
}

/// Drops from `value` (at the place `select` names in each revision) what revision `target`
/// does not define and another does; returns the dropped paths. Nothing is dropped when the
/// target does not have the place.
fn strip_for(
    target: &str,
    select: &dyn Fn(&'static Revision) -> Option<Shape>,
    value: &mut Value,
) -> Vec<String> {
    let (mine, all) = places(target, select);
    let mut dropped = Vec::new();
    if !mine.is_empty() {
        strip(value, &mine, &all, &mut Path(String::new()), &mut dropped);
    }
    dropped
}

/// Drops what the target revision's `definition` does not define from `value` (already that
/// definition's JSON in some revision), returning the dropped paths.
fn strip_definition(definition: &str, target: &str, value: &mut Value) -> Vec<String> {
    strip_for(target, &|r| lookup(r.definitions, definition), value)
}

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
        dropped = strip_for(B::REVISION, &|r| lookup(r.calls, &method), &mut whole);
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
    let dropped = strip_for(B::REVISION, &select, &mut value);
    let raw =
        serde_json::value::to_raw_value(&value).map_err(|e| error(String::new(), e.to_string()))?;
    let value = B::parse_result(request, &raw).map_err(|e| {
        let path = e.path().strip_prefix("result").unwrap_or(e.path());
        let path = path.strip_prefix('.').unwrap_or(path).to_owned();
        error(path, e.message().to_owned())
    })?;
    Ok(Converted { value, dropped })
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
    let (mine, _) = places(target, select);
    let declares = mine.iter().any(|(revision, shape)| {
        object_of(revision, *shape).is_some_and(|o| member(o, RESULT_TYPE).is_some())
    });
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
