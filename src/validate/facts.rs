//! A few envelope facts of a message that is not read in its revision's types: its method, its
//! id, whether it answers, and the protocol versions it names.
//!
//! Revision detection reads every line this way (the revision is what it looks for), and so
//! does the label of a message whose own reader failed before naming its method. The facts are
//! those a [`serde_json::Value`] of the text would give (`value.get("method")` as a string, a
//! repeated member keeping its last value, nothing from a value that is not an object), read in
//! one pass through the crate's reader without building the value: every member is read as a
//! `Value` reads it, so a text a `Value` refuses (a lone surrogate, a number out of range) is
//! refused here too, and only the facts are kept.

use crate::jsonrpc::RequestId;
use crate::prelude::*;
use crate::version::{
    PROTOCOL_VERSION_MEMBER, PROTOCOL_VERSION_META_KEY, SUPPORTED_VERSIONS_MEMBER,
};
use alloc::borrow::Cow;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

/// What a message says of itself, read as a `Value` would be.
#[derive(Debug, Default)]
pub(super) struct MessageFacts<'a> {
    /// Whether the message is a JSON object (nothing is read from any other value).
    pub is_object: bool,
    /// `id`, when it is a request id (a string, or an integer that fits in `i64`).
    pub id: Option<RequestId>,
    /// `method`, when it is a string.
    pub method: Option<Cow<'a, str>>,
    /// `params.protocolVersion`, when it is a string.
    pub params_version: Option<Cow<'a, str>>,
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]`, when it is a string.
    pub meta_version: Option<Cow<'a, str>>,
    /// `result`, when the message has one (whatever its value).
    pub result: Option<ResultFacts<'a>>,
    /// Whether the message has an `error` member.
    pub has_error: bool,
}

/// What a result says of protocol versions.
#[derive(Debug, Default)]
pub(super) struct ResultFacts<'a> {
    /// `protocolVersion`, when it is a string.
    pub version: Option<Cow<'a, str>>,
    /// The strings of `supportedVersions`, when it is an array.
    pub supported: Vec<Cow<'a, str>>,
}

/// The messages of a session line: the line's own, or its `msg`'s when the line is a record
/// (an object with `msg` and without `jsonrpc`); one per item of a batch.
#[derive(Debug, Default)]
pub(super) struct LineFacts<'a> {
    /// The messages, in order.
    pub items: Vec<MessageFacts<'a>>,
}

impl<'de> Deserialize<'de> for MessageFacts<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Gather::SEED)
    }
}

impl<'de> Deserialize<'de> for LineFacts<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LineVisitor)
    }
}

/// A visitor that reads any value (`deserialize_any`), as its own seed.
macro_rules! seed {
    ($visitor:ident => $value:ty) => {
        impl<'de> DeserializeSeed<'de> for $visitor {
            type Value = $value;
            fn deserialize<D: Deserializer<'de>>(
                self,
                deserializer: D,
            ) -> Result<$value, D::Error> {
                deserializer.deserialize_any(self)
            }
        }
    };
}

/// What a visitor that takes any value keeps of a scalar: nothing.
macro_rules! ignore_scalars {
    () => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Default::default())
        }
    };
}

/// The object visits of a visitor that keeps nothing of objects or arrays.
macro_rules! ignore_containers {
    () => {
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_key::<Skip>()?.is_some() {
                map.next_value::<Skip>()?;
            }
            Ok(Default::default())
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<Skip>()?.is_some() {}
            Ok(Default::default())
        }
    };
}

/// Reads the members of an object into `facts`, a later member overwriting an earlier one.
/// Names are unescaped (`"m\u0065thod"` is `method`), as in a map.
fn members<'de, A: MapAccess<'de>>(
    map: &mut A,
    mut member: impl FnMut(&str, &mut A) -> Result<(), A::Error>,
) -> Result<(), A::Error> {
    while let Some(name) = map.next_key_seed(crate::__private::CowStr)? {
        member(&name, map)?;
    }
    Ok(())
}

/// Facts gathered from the members of an object; any other value gives the default.
trait Gathered<'de>: Default {
    /// Reads the member `name` (its value is next in `map`).
    fn member<A: MapAccess<'de>>(&mut self, name: &str, map: &mut A) -> Result<(), A::Error>;

    /// The facts of an object before its members are read.
    fn object() -> Self {
        Self::default()
    }
}

/// Reads any value as a `T`: an object member by member, an array or a scalar skipped.
struct Gather<T>(PhantomData<T>);

impl<T> Gather<T> {
    const SEED: Self = Gather(PhantomData);
}

impl<'de, T: Gathered<'de>> DeserializeSeed<'de> for Gather<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T: Gathered<'de>> Visitor<'de> for Gather<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut facts = T::object();
        members(&mut map, |name, map| facts.member(name, map))?;
        Ok(facts)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(T::default())
    }
    ignore_scalars!();
}

impl<'de> Gathered<'de> for MessageFacts<'de> {
    fn object() -> Self {
        MessageFacts {
            is_object: true,
            ..MessageFacts::default()
        }
    }

    fn member<A: MapAccess<'de>>(&mut self, name: &str, map: &mut A) -> Result<(), A::Error> {
        match name {
            "id" => self.id = map.next_value_seed(Id)?,
            "method" => self.method = map.next_value_seed(Text)?,
            "params" => {
                let params = map.next_value_seed(Gather::<ParamsFacts>::SEED)?;
                self.params_version = params.version;
                self.meta_version = params.meta_version;
            }
            "result" => self.result = Some(map.next_value_seed(Gather::SEED)?),
            "error" => {
                map.next_value::<Skip>()?;
                self.has_error = true;
            }
            _ => {
                map.next_value::<Skip>()?;
            }
        }
        Ok(())
    }
}

/// A message's object.
fn message_object<'de, A: MapAccess<'de>>(map: A) -> Result<MessageFacts<'de>, A::Error> {
    Gather::SEED.visit_map(map)
}

/// A batch's items.
fn batch_items<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Vec<MessageFacts<'de>>, A::Error> {
    let mut items = Vec::new();
    while let Some(item) = seq.next_element_seed(Gather::SEED)? {
        items.push(item);
    }
    Ok(items)
}

/// A message or a batch: its messages.
struct ItemsVisitor;

seed!(ItemsVisitor => Vec<MessageFacts<'de>>);

impl<'de> Visitor<'de> for ItemsVisitor {
    type Value = Vec<MessageFacts<'de>>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Ok(vec![message_object(map)?])
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        batch_items(seq)
    }
    ignore_scalars!();
}

struct LineVisitor;

impl<'de> Visitor<'de> for LineVisitor {
    type Value = LineFacts<'de>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // Whether the object is a record is known only at its end (`jsonrpc` may follow
        // `msg`): both readings are kept until then.
        let mut own = MessageFacts::object();
        let mut jsonrpc = false;
        let mut msg = None;
        members(&mut map, |name, map| match name {
            "msg" => {
                msg = Some(map.next_value_seed(ItemsVisitor)?);
                Ok(())
            }
            "jsonrpc" => {
                jsonrpc = true;
                map.next_value::<Skip>().map(drop)
            }
            _ => own.member(name, map),
        })?;
        let items = match msg {
            Some(items) if !jsonrpc => items,
            _ => vec![own],
        };
        Ok(LineFacts { items })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Ok(LineFacts {
            items: batch_items(seq)?,
        })
    }
    ignore_scalars!();
}

/// The facts of `params`.
#[derive(Default)]
struct ParamsFacts<'a> {
    version: Option<Cow<'a, str>>,
    meta_version: Option<Cow<'a, str>>,
}

impl<'de> Gathered<'de> for ParamsFacts<'de> {
    fn member<A: MapAccess<'de>>(&mut self, name: &str, map: &mut A) -> Result<(), A::Error> {
        match name {
            PROTOCOL_VERSION_MEMBER => self.version = map.next_value_seed(Text)?,
            "_meta" => self.meta_version = map.next_value_seed(Gather::<MetaFacts>::SEED)?.0,
            _ => {
                map.next_value::<Skip>()?;
            }
        }
        Ok(())
    }
}

/// The protocol version of a `_meta`.
#[derive(Default)]
struct MetaFacts<'a>(Option<Cow<'a, str>>);

impl<'de> Gathered<'de> for MetaFacts<'de> {
    fn member<A: MapAccess<'de>>(&mut self, name: &str, map: &mut A) -> Result<(), A::Error> {
        if name == PROTOCOL_VERSION_META_KEY {
            self.0 = map.next_value_seed(Text)?;
        } else {
            map.next_value::<Skip>()?;
        }
        Ok(())
    }
}

impl<'de> Gathered<'de> for ResultFacts<'de> {
    fn member<A: MapAccess<'de>>(&mut self, name: &str, map: &mut A) -> Result<(), A::Error> {
        match name {
            PROTOCOL_VERSION_MEMBER => self.version = map.next_value_seed(Text)?,
            SUPPORTED_VERSIONS_MEMBER => self.supported = map.next_value_seed(Texts)?,
            _ => {
                map.next_value::<Skip>()?;
            }
        }
        Ok(())
    }
}

/// The strings of an array; nothing from any other value.
struct Texts;

seed!(Texts => Vec<Cow<'de, str>>);

impl<'de> Visitor<'de> for Texts {
    type Value = Vec<Cow<'de, str>>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut texts = Vec::new();
        while let Some(text) = seq.next_element_seed(Text)? {
            texts.extend(text);
        }
        Ok(texts)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_key::<Skip>()?.is_some() {
            map.next_value::<Skip>()?;
        }
        Ok(Vec::new())
    }
    ignore_scalars!();
}

/// A string; nothing from any other value.
struct Text;

seed!(Text => Option<Cow<'de, str>>);

impl<'de> Visitor<'de> for Text {
    type Value = Option<Cow<'de, str>>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Some(Cow::Owned(v)))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    ignore_containers!();
}

/// A request id: a string, or an integer that fits in `i64` (what [`RequestId`] reads);
/// nothing from any other value.
struct Id;

seed!(Id => Option<RequestId>);

impl<'de> Visitor<'de> for Id {
    type Value = Option<RequestId>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(RequestId::from(v)))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Some(RequestId::from(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(RequestId::from(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(i64::try_from(v).ok().map(RequestId::from))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    ignore_containers!();
}

/// Any JSON value, read as a `Value` reads it and dropped: unlike `IgnoredAny`, a string is
/// unescaped (so a lone surrogate is refused) and a number is read (so one out of range is).
struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
        while map.next_key::<Skip>()?.is_some() {
            map.next_value::<Skip>()?;
        }
        Ok(Skip)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// Whether the text is an object, its id, method, the three versions (params, `_meta`,
    /// result), the supported versions, and whether it has `result` and `error`.
    type Seen = (
        bool,
        Option<RequestId>,
        Option<String>,
        [Option<String>; 3],
        Vec<String>,
        bool,
        bool,
    );

    /// The facts of `text` as a `serde_json::Value` of it gives them.
    fn from_value(text: &str) -> Option<Seen> {
        let value: Value = crate::json::from_str(text).ok()?;
        let text_at = |pointer: &str| {
            value
                .pointer(pointer)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let meta = value
            .get("params")
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(PROTOCOL_VERSION_META_KEY))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let supported = value
            .pointer("/result/supportedVersions")
            .and_then(Value::as_array)
            .map(|v| {
                v.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let id = value.get("id").and_then(|id| match id {
            Value::String(s) => Some(RequestId::from(s.as_str())),
            Value::Number(n) => n.as_i64().map(RequestId::from),
            _ => None,
        });
        Some((
            value.is_object(),
            id,
            text_at("/method"),
            [
                text_at("/params/protocolVersion"),
                meta,
                text_at("/result/protocolVersion"),
            ],
            supported,
            value.get("result").is_some(),
            value.get("error").is_some(),
        ))
    }

    fn from_facts(text: &str) -> Option<Seen> {
        let facts: MessageFacts<'_> = crate::json::from_str(text).ok()?;
        let owned = |text: Option<Cow<'_, str>>| text.map(Cow::into_owned);
        let has_result = facts.result.is_some();
        let (result_version, supported) = match facts.result {
            Some(result) => (
                owned(result.version),
                result.supported.into_iter().map(Cow::into_owned).collect(),
            ),
            None => (None, Vec::new()),
        };
        Some((
            facts.is_object,
            facts.id,
            owned(facts.method),
            [
                owned(facts.params_version),
                owned(facts.meta_version),
                result_version,
            ],
            supported,
            has_result,
            facts.has_error,
        ))
    }

    #[test]
    fn the_facts_are_those_of_a_value() {
        for text in [
            r#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}"#,
            r#"{"id":"a","method":"x","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
            r#"{"id":1,"result":{"protocolVersion":"2025-03-26","supportedVersions":["draft",7,"2026-07-28"]}}"#,
            r#"{"id":1,"result":{"supportedVersions":{"a":"b"}},"error":null}"#,
            r#"{"id":1.5,"m\u0065thod":"x","method":"y"}"#,
            r#"{"id":18446744073709551615,"method":7}"#,
            r#"{"id":null,"result":null,"params":[1]}"#,
            r#"{"method":"a","method":"b","params":{"protocolVersion":"x"},"params":7}"#,
            r#"{"method":"a","extra":"\ud800"}"#,
            r#"{"method":"a","extra":1e400}"#,
            r#"{"method":"a","extra":[{"b":[true,false,null,-0.5]}]}"#,
            r#"[{"method":"a"}]"#,
            r#""text""#,
            "7",
            "{",
        ] {
            assert_eq!(from_facts(text), from_value(text), "{text}");
        }
    }
}
