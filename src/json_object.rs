//! [`JsonObject`]: an object whose members the schema leaves open, kept as the JSON text read.

use serde::de::{self, DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// A JSON object whose members the schema leaves open (`_meta`, the property schemas of a
/// tool's `inputSchema`, `structuredContent`, ...), kept as the checked JSON text it was read
/// from.
///
/// Reading one checks the text and builds nothing; writing one copies the text; a message
/// forwarded unchanged keeps these objects byte for byte (numbers of any size or precision
/// included). Members are read when asked for: [`get`](Self::get) for one,
/// [`to_map`](Self::to_map) for all.
///
/// The text is always a JSON object (a value that starts with `{`), without surrounding
/// whitespace. Two objects are equal when their texts are, or when both read as equal
/// [`serde_json::Map`]s (so whitespace and member order do not matter).
///
/// Serializing writes the text as it is through `serde_json` or [`crate::json`]; other
/// serializers see serde_json's `RawValue` representation.
#[derive(Clone)]
pub struct JsonObject(Box<RawValue>);

impl JsonObject {
    /// The empty object, `{}`.
    pub fn new() -> Self {
        // A constant text, not input: it always reads.
        JsonObject(RawValue::from_string(String::from("{}")).expect("`{}` is JSON text"))
    }

    /// Reads JSON text, which must be one object (surrounding whitespace is dropped).
    pub fn from_text(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The object holding `map`'s members.
    pub fn from_map(map: &Map<String, Value>) -> Self {
        // Writing a `Map<String, Value>` cannot fail (string keys, no non-finite numbers).
        JsonObject::written(map).unwrap_or_else(|_| JsonObject::new())
    }

    /// The object a map type writes as: serde_json's text, taken as it is (not read again).
    fn written<M: Serialize>(map: &M) -> Result<Self, serde_json::Error> {
        serde_json::value::to_raw_value(map).map(JsonObject)
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
        serde_json::from_str(self.as_str())
    }

    /// The member `name` read as a `T`: `None` when the object has no such member, `Some(Err)`
    /// when its value is not a `T`. A repeated name gives its last value. Only the member names
    /// are read to find it; an object whose names cannot all be read as strings (a lone
    /// surrogate escape in a name) has no members for this lookup.
    pub fn get<T: DeserializeOwned>(&self, name: &str) -> Option<Result<T, serde_json::Error>> {
        let members = self.members().ok()?;
        members
            .get(name)
            .map(|value| serde_json::from_str(value.get()))
    }

    /// Whether the object has a member `name`.
    pub fn contains_key(&self, name: &str) -> bool {
        self.members()
            .is_ok_and(|members| members.contains_key(name))
    }

    /// Whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.as_str()[1..].trim_start().starts_with('}')
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
        serde_json::from_str(self.as_str())
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
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for JsonObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = <Box<RawValue>>::deserialize(deserializer)?;
        if !raw.get().starts_with('{') {
            return Err(de::Error::invalid_type(unexpected(raw.get()), &"an object"));
        }
        Ok(JsonObject(raw))
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
    fn schema_name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("JsonObject")
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("mcp_spec_types::JsonObject")
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "object", "additionalProperties": {}})
    }
}
