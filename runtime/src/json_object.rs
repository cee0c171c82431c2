//! [`JsonObject`]: an object whose members the schema leaves open, kept as the JSON text read.

use crate::collections::HashMap;
use crate::prelude::*;
use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use core::fmt;
use serde::de::{self, DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// A JSON object whose members the schema leaves open (`_meta`, the property schemas of a
/// tool's `inputSchema`, `structuredContent`, ...), kept as the checked JSON text it was read
/// from.
///
/// Reading one checks the text and builds nothing; writing one copies the text; a message
/// forwarded unchanged keeps these objects byte for byte (numbers of any size or precision
/// included). Members are read when asked for: [`get`](Self::get) for one,
/// [`to_map`](Self::to_map) for all.
///
/// The first member access ([`len`](Self::len), [`keys`](Self::keys), [`iter`](Self::iter),
/// [`get`](Self::get), [`get_text`](Self::get_text), [`contains_key`](Self::contains_key))
/// reads the text once and keeps an index of where each member's name and value are: one
/// allocation for the index, plus one for the names that have escapes. Later accesses use the
/// index and read no text but the value asked for; a change ([`insert`](Self::insert),
/// [`remove`](Self::remove)) drops it. A look-up by name compares names one by one (these
/// objects are small). The value is 32 bytes: the text's pointer and length, and the index's.
///
/// The text is always a JSON object (a value that starts with `{`), without surrounding
/// whitespace. Two objects are equal when their texts are, or when both read as equal
/// [`serde_json::Map`]s (so whitespace and member order do not matter).
///
/// Serializing writes the text as it is through `serde_json` or [`crate::json`]. A binary serde
/// format (one whose serializer is not human-readable, such as CBOR) gets the JSON text as a
/// string, and reading one back checks that string as a JSON object. Other human-readable
/// formats see serde_json's `RawValue` representation, which only serde_json reads.
#[derive(Clone)]
pub struct JsonObject(Box<RawValue>, MemberIndex);

/// The member index: built on first use with `std`; without it (no `OnceLock`, and a cell that
/// is not `Sync` would make `JsonObject` lose `Sync`) built with the object.
#[cfg(feature = "std")]
type MemberIndex = std::sync::OnceLock<Box<Index>>;
#[cfg(not(feature = "std"))]
type MemberIndex = Box<Index>;

/// Where each member of a [`JsonObject`] is: the members in text order, a repeated name kept
/// once, with its last value.
#[derive(Clone, Debug, Default)]
struct Index {
    entries: Box<[Entry]>,
    /// The names that have escapes, decoded (the others are read in the text itself).
    decoded: Box<str>,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The name's bytes: in the text, or in [`Index::decoded`] when `decoded` is set.
    name: (usize, usize),
    decoded: bool,
    /// The value's text.
    value: (usize, usize),
}

/// A JSON object's members as read, borrowed from its text where it has no escapes.
struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> de::Visitor<'de> for Visit {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(Name(name)) = map.next_key::<Name<'de>>()? {
                    members.push((name, map.next_value::<&'de RawValue>()?));
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(Visit)
    }
}

/// A member name, borrowed from the text when it has no escapes (serde's own `Cow` always
/// copies).
struct Name<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Name<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> de::Visitor<'de> for Visit {
            type Value = Name<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E: de::Error>(self, name: &'de str) -> Result<Self::Value, E> {
                Ok(Name(Cow::Borrowed(name)))
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Self::Value, E> {
                Ok(Name(Cow::Owned(name.to_owned())))
            }
            fn visit_string<E: de::Error>(self, name: String) -> Result<Self::Value, E> {
                Ok(Name(Cow::Owned(name)))
            }
        }
        deserializer.deserialize_str(Visit)
    }
}

/// Where `part`, a slice of `text`, is in `text`; `None` if it is not one (a reader that
/// copied what it says it borrowed).
fn offset_in(text: &str, part: &str) -> Option<(usize, usize)> {
    let start = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    let end = start.checked_add(part.len())?;
    text.get(start..end)
        .filter(|found| found.as_ptr() == part.as_ptr())
        .map(|_| (start, end))
}

impl Index {
    /// Reads `text`'s members once; an object whose names cannot all be read as strings (a
    /// lone surrogate escape) has an empty index.
    fn of(text: &str) -> Index {
        let Ok(Members(members)) = crate::json::from_str::<Members<'_>>(text) else {
            return Index::default();
        };
        let mut last: HashMap<&str, usize> = crate::collections::with_capacity(members.len());
        for (at, (name, _)) in members.iter().enumerate() {
            last.insert(name.as_ref(), at);
        }
        let mut decoded = String::new();
        let mut entries = Vec::with_capacity(last.len());
        for (at, (name, value)) in members.iter().enumerate() {
            if last.get(name.as_ref()) != Some(&at) {
                continue;
            }
            let borrowed = match name {
                Cow::Borrowed(name) => offset_in(text, name),
                Cow::Owned(_) => None,
            };
            let (name, is_decoded) = match borrowed {
                Some(at) => (at, false),
                None => {
                    let start = decoded.len();
                    decoded.push_str(name);
                    ((start, decoded.len()), true)
                }
            };
            let Some(value) = offset_in(text, value.get()) else {
                return Index::default();
            };
            entries.push(Entry {
                name,
                decoded: is_decoded,
                value,
            });
        }
        Index {
            entries: entries.into_boxed_slice(),
            decoded: decoded.into_boxed_str(),
        }
    }
}

impl JsonObject {
    /// The empty object, `{}`.
    pub fn new() -> Self {
        // A constant text, not input: it always reads.
        JsonObject::wrap(RawValue::from_string(String::from("{}")).expect("`{}` is JSON text"))
    }

    /// The object whose checked text is `raw`, not indexed yet.
    fn wrap(raw: Box<RawValue>) -> Self {
        #[cfg(feature = "std")]
        let index = MemberIndex::new();
        #[cfg(not(feature = "std"))]
        let index = Box::new(Index::of(raw.get()));
        JsonObject(raw, index)
    }

    /// Reads JSON text, which must be one object (surrounding whitespace is dropped).
    pub fn from_text(text: &str) -> Result<Self, serde_json::Error> {
        crate::json::from_str(text)
    }

    /// The object holding `map`'s members.
    pub fn from_map(map: &Map<String, Value>) -> Self {
        // Writing a `Map<String, Value>` cannot fail (string keys, no non-finite numbers).
        JsonObject::written(map).unwrap_or_else(|_| JsonObject::new())
    }

    /// The object a map type writes as: serde_json's text, taken as it is (not read again).
    fn written<M: Serialize>(map: &M) -> Result<Self, serde_json::Error> {
        serde_json::value::to_raw_value(map).map(JsonObject::wrap)
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }

    /// The JSON text as serde_json's [`RawValue`].
    pub fn as_raw_value(&self) -> &RawValue {
        &self.0
    }

    /// Every member, read into a [`serde_json::Map`] (a repeated name keeps its last value).
    ///
    /// Fails where a `serde_json::Value` cannot hold what the text has: a number outside the
    /// range of `f64` (such as `1e400`), a string with a lone surrogate escape (`"\ud800"`),
    /// or nesting deeper than serde_json's recursion limit (128).
    pub fn to_map(&self) -> Result<Map<String, Value>, serde_json::Error> {
        crate::json::from_str(self.as_str())
    }

    /// The member `name` read as a `T`: `None` when the object has no such member, `Some(Err)`
    /// when its value is not a `T`. A repeated name gives its last value. Only the member names
    /// are read to find it; an object whose names cannot all be read as strings (a lone
    /// surrogate escape in a name) has no members for this lookup.
    pub fn get<T: DeserializeOwned>(&self, name: &str) -> Option<Result<T, serde_json::Error>> {
        self.get_text(name).map(crate::json::from_str)
    }

    /// The JSON text of member `name`'s value (its last value, for a repeated name).
    ///
    /// ```
    /// let object = mcp_spec_types::JsonObject::from_text(r#"{"a": [1, 2], "b\u0021": {}}"#)?;
    /// assert_eq!(object.get_text("a"), Some("[1, 2]"));
    /// assert_eq!(object.get_text("b!"), Some("{}"));
    /// assert_eq!(object.get_text("c"), None);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn get_text(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|(member, _)| *member == name)
            .map(|(_, value)| value)
    }

    /// Whether the object has a member `name`.
    pub fn contains_key(&self, name: &str) -> bool {
        self.get_text(name).is_some()
    }

    /// Whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.as_str()[1..].trim_start().starts_with('}')
    }

    /// How many members the object has (a repeated name counts once).
    pub fn len(&self) -> usize {
        self.index().entries.len()
    }

    /// The member names, in the order of the text (a repeated name once, where it last
    /// appears), with their escapes decoded.
    ///
    /// ```
    /// let object = mcp_spec_types::JsonObject::from_text(r#"{"b": 1, "a": 2, "b": 3}"#)?;
    /// assert_eq!(object.keys().collect::<Vec<_>>(), ["a", "b"]);
    /// assert_eq!(object.len(), 2);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.iter().map(|(name, _)| name)
    }

    /// The members as their names and their values' JSON texts, in the order of
    /// [`keys`](Self::keys).
    ///
    /// ```
    /// let object = mcp_spec_types::JsonObject::from_text(r#"{"n": 1e400, "s": "x"}"#)?;
    /// let members: Vec<(&str, &str)> = object.iter().collect();
    /// assert_eq!(members, [("n", "1e400"), ("s", "\"x\"")]);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        let text = self.as_str();
        let index = self.index();
        index.entries.iter().map(move |entry| {
            let names = if entry.decoded { &*index.decoded } else { text };
            (
                &names[entry.name.0..entry.name.1],
                &text[entry.value.0..entry.value.1],
            )
        })
    }

    /// The member index, built on first use (with the object, without `std`).
    fn index(&self) -> &Index {
        #[cfg(feature = "std")]
        return self.1.get_or_init(|| Box::new(Index::of(self.as_str())));
        #[cfg(not(feature = "std"))]
        return &self.1;
    }

    /// Sets the member `name` to `value` (replacing a member of that name) and returns the
    /// previous value's text, if any. Members are written in name order afterwards, as a
    /// [`serde_json::Map`] writes them.
    pub fn insert<T: Serialize + ?Sized>(
        &mut self,
        name: impl Into<String>,
        value: &T,
    ) -> Result<Option<Box<RawValue>>, serde_json::Error> {
        let value = serde_json::value::to_raw_value(value)?;
        let mut members = self.members()?;
        let previous = members.insert(name.into(), value);
        *self = JsonObject::written(&members)?;
        Ok(previous)
    }

    /// Removes the member `name`, returning its value's text.
    pub fn remove(&mut self, name: &str) -> Option<Box<RawValue>> {
        let mut members = self.members().ok()?;
        let previous = members.remove(name)?;
        *self = JsonObject::written(&members).ok()?;
        Some(previous)
    }

    /// The members with their values' texts (a repeated name keeps its last value).
    fn members(&self) -> Result<BTreeMap<String, Box<RawValue>>, serde_json::Error> {
        crate::json::from_str(self.as_str())
    }
}

impl Default for JsonObject {
    fn default() -> Self {
        JsonObject::new()
    }
}

impl fmt::Debug for JsonObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("JsonObject").field(&self.as_str()).finish()
    }
}

impl fmt::Display for JsonObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for JsonObject {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
            || matches!((self.to_map(), other.to_map()), (Ok(a), Ok(b)) if a == b)
    }
}

impl From<Map<String, Value>> for JsonObject {
    fn from(map: Map<String, Value>) -> Self {
        JsonObject::from_map(&map)
    }
}

impl From<&Map<String, Value>> for JsonObject {
    fn from(map: &Map<String, Value>) -> Self {
        JsonObject::from_map(map)
    }
}

impl TryFrom<&JsonObject> for Map<String, Value> {
    type Error = serde_json::Error;
    fn try_from(object: &JsonObject) -> Result<Self, Self::Error> {
        object.to_map()
    }
}

impl Serialize for JsonObject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            self.0.serialize(serializer)
        } else {
            // serde_json's `RawValue` form is private to serde_json: a binary format gets the
            // text as a plain string, which any format can hold.
            serializer.serialize_str(self.as_str())
        }
    }
}

impl<'de> Deserialize<'de> for JsonObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if !deserializer.is_human_readable() {
            // The string a binary format holds is unchecked input: it must read as an object.
            let text = String::deserialize(deserializer)?;
            return JsonObject::from_text(&text).map_err(|e| {
                de::Error::custom(format_args!(
                    "a JsonObject's text is not a JSON object: {e}"
                ))
            });
        }
        let raw = <Box<RawValue>>::deserialize(deserializer)?;
        if !raw.get().starts_with('{') {
            return Err(de::Error::invalid_type(unexpected(raw.get()), &"an object"));
        }
        Ok(JsonObject::wrap(raw))
    }
}

/// What a JSON text that is not an object holds, for the error.
fn unexpected(text: &str) -> de::Unexpected<'_> {
    match text.as_bytes().first() {
        Some(b'[') => de::Unexpected::Seq,
        Some(b'"') => de::Unexpected::Other("a string"),
        Some(b't') => de::Unexpected::Bool(true),
        Some(b'f') => de::Unexpected::Bool(false),
        Some(b'n') => de::Unexpected::Unit,
        _ => de::Unexpected::Other("a number"),
    }
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for JsonObject {
    fn schema_name() -> alloc::borrow::Cow<'static, str> {
        alloc::borrow::Cow::Borrowed("JsonObject")
    }
    fn schema_id() -> alloc::borrow::Cow<'static, str> {
        alloc::borrow::Cow::Borrowed("mcp_spec_types::JsonObject")
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "object", "additionalProperties": {}})
    }
}
