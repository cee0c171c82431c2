//! The serde visitors of the generated types: one for every object type, one for every union
//! told apart by a string discriminator (`type`, `method`), one for every union whose arms
//! each require a member of their own. The generated code implements a small trait per type;
//! the reading loop lives here once.

use super::trail;
use crate::prelude::*;
use alloc::borrow::Cow;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde_json::Value;

/// Writes what a visitor expected. One function for every visitor type: written inline, the
/// formatting was compiled once per generated type (about 3% of the crate's machine code).
#[inline(never)]
fn expecting(f: &mut fmt::Formatter, what: fmt::Arguments) -> fmt::Result {
    f.write_fmt(what)
}

/// A generated object type: reads its members from a map, some constants possibly already read.
pub trait Object: Sized {
    /// The schema's name for the type, for error messages.
    const NAME: &'static str;
    /// Reads the members and hands the value to `then`; `preset` is the index of a constant
    /// member the caller already read and checked (a union's discriminator). The value is
    /// built in the call to `then`, so that a caller storing it (an array pushing an element)
    /// has it built where it is stored, not built here and copied there.
    fn visit_members_then<'de, A: MapAccess<'de>, R, F: FnOnce(Self) -> R>(
        map: A,
        preset: Option<u8>,
        then: F,
    ) -> Result<R, A::Error>;
    /// Reads the members; `preset` as for [`visit_members_then`](Self::visit_members_then).
    #[inline]
    fn visit_members<'de, A: MapAccess<'de>>(map: A, preset: Option<u8>) -> Result<Self, A::Error> {
        Self::visit_members_then(map, preset, |value| value)
    }
    /// The index of a member the type declares (constants included), by its JSON name: what
    /// reading dispatches on, and what writing refuses to find in `extra`.
    fn member(name: &str) -> Option<u8>;
    /// Puts `value` into the type's `extra` under `name`, read as `extra`'s value type. For
    /// the crate's tests and fuzz targets: users set `extra` directly.
    fn put_extra(&mut self, name: String, value: Value) -> Result<(), serde_json::Error>;
}

/// The serde visitor of every generated object type.
pub struct ObjectVisitor<T>(PhantomData<T>);

impl<T> ObjectVisitor<T> {
    /// A visitor for `T`.
    pub fn new() -> Self {
        ObjectVisitor(PhantomData)
    }
}

impl<T> Default for ObjectVisitor<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de, T: Object> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        expecting(f, format_args!("a {} object", T::NAME))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        let _scope = trail::enter();
        T::visit_members(map, None)
    }
}

/// A generated enum of string values (`"enum": ["assistant", "user"]`): read from a JSON string
/// only. serde's derived enum reader also takes the externally tagged form (`{"user": null}`),
/// which the schema does not allow and which would be written back as `"user"`.
pub trait StringEnum: Sized {
    /// The schema's name for the type, for error messages.
    const NAME: &'static str;
    /// Every value the schema lists, in its order.
    const VALUES: &'static [&'static str];
    /// The variant `value` names; `None` for a value the schema does not list.
    fn from_value(value: &str) -> Option<Self>;
}

/// The serde visitor of every generated string enum.
pub struct StringEnumVisitor<T>(PhantomData<T>);

impl<T> StringEnumVisitor<T> {
    /// A visitor for `T`.
    pub fn new() -> Self {
        StringEnumVisitor(PhantomData)
    }
}

impl<T> Default for StringEnumVisitor<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: StringEnum> Visitor<'_> for StringEnumVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        expecting(
            f,
            format_args!("a {} string, one of {:?}", T::NAME, T::VALUES),
        )
    }
    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        T::from_value(v).ok_or_else(|| unknown_value(v, T::VALUES))
    }
}

/// The error for a value a string enum does not list; out of line, as it is the rare path.
#[cold]
fn unknown_value<E: de::Error>(value: &str, values: &'static [&'static str]) -> E {
    E::unknown_variant(value, values)
}

/// A generated union whose arms are told apart by a string constant under one member name.
pub trait Tagged: Sized {
    /// The schema's name for the union.
    const NAME: &'static str;
    /// The discriminating member (`type`, `method`, ...).
    const TAG: &'static str;
    /// Every value the discriminator may take.
    const TAGS: &'static [&'static str];
    /// Reads the rest of the object as the arm `tag` names.
    fn visit_tagged<'de, A: MapAccess<'de>>(tag: &str, map: A) -> Result<Self, A::Error>;
}

/// Reads a string, borrowing from the input when it can.
pub struct CowStr;

impl<'de> DeserializeSeed<'de> for CowStr {
    type Value = Cow<'de, str>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for CowStr {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

/// The serde visitor of every tagged union: streams when the discriminator comes first (as
/// every MCP implementation writes it), reads the object in full otherwise.
pub struct TaggedVisitor<T>(PhantomData<T>);

impl<T> TaggedVisitor<T> {
    /// A visitor for `T`.
    pub fn new() -> Self {
        TaggedVisitor(PhantomData)
    }
}

impl<T> Default for TaggedVisitor<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de, T: Tagged> Visitor<'de> for TaggedVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        expecting(
            f,
            format_args!("a {} object with a `{}` member", T::NAME, T::TAG),
        )
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        let _scope = trail::enter();
        Self::visit_tagged_map(map)
    }
}

impl<T: Tagged> TaggedVisitor<T> {
    fn visit_tagged_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<T, A::Error> {
        // Members before the discriminator (`jsonrpc`, `id`) are held back and replayed to the
        // arm, which then streams the rest: one pass, whatever the member order.
        let mut held = Vec::new();
        while let Some(name) = map.next_key_seed(CowStr)? {
            if name == T::TAG {
                let tag = map
                    .next_value_seed(CowStr)
                    .inspect_err(|_| trail::member(T::TAG))?;
                if !T::TAGS.contains(&&*tag) {
                    trail::member(T::TAG);
                    return Err(de::Error::unknown_variant(&tag, T::TAGS));
                }
                return T::visit_tagged(&tag, Replay::new(held, None, map));
            }
            held.push((name.into_owned(), map.next_value::<Value>()?));
        }
        Err(de::Error::missing_field(T::TAG))
    }
}

/// A map that first yields members already read, then the rest of the input (starting, for a
/// keyed union, with a member whose name was read but whose value was not).
struct Replay<A> {
    held: alloc::vec::IntoIter<(String, Value)>,
    pending: Option<Value>,
    resume: Option<String>,
    map: A,
}

impl<A> Replay<A> {
    fn new(held: Vec<(String, Value)>, resume: Option<String>, map: A) -> Self {
        Replay {
            held: held.into_iter(),
            pending: None,
            resume,
            map,
        }
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if let Some((name, value)) = self.held.next() {
            self.pending = Some(value);
            return seed
                .deserialize(de::value::StringDeserializer::<A::Error>::new(name))
                .map(Some);
        }
        if let Some(name) = self.resume.take() {
            return seed
                .deserialize(de::value::StringDeserializer::<A::Error>::new(name))
                .map(Some);
        }
        self.map.next_key_seed(seed)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.pending.take() {
            Some(value) => seed.deserialize(value).map_err(de::Error::custom),
            None => self.map.next_value_seed(seed),
        }
    }
}

/// A generated union of objects whose arms each require a member no other arm declares.
pub trait Keyed: Sized {
    /// The schema's name for the union.
    const NAME: &'static str;
    /// The arms, for error messages (`TextResourceContents or BlobResourceContents`).
    const EXPECTED: &'static str;
    /// Each arm's own members, with the arm's index.
    const KEYS: &'static [(&'static str, u8)];
    /// Reads the object as arm `arm`.
    fn visit_arm<'de, A: MapAccess<'de>>(arm: u8, map: A) -> Result<Self, A::Error>;
}

/// The serde visitor of keyed unions: members before the deciding one are held back and
/// replayed, the rest streams.
pub struct KeyedVisitor<T>(PhantomData<T>);

impl<T> KeyedVisitor<T> {
    /// A visitor for `T`.
    pub fn new() -> Self {
        KeyedVisitor(PhantomData)
    }
}

impl<T> Default for KeyedVisitor<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de, T: Keyed> Visitor<'de> for KeyedVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        expecting(f, format_args!("a {} object ({})", T::NAME, T::EXPECTED))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        let _scope = trail::enter();
        Self::visit_keyed_map(map)
    }
}

impl<T: Keyed> KeyedVisitor<T> {
    fn visit_keyed_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<T, A::Error> {
        let mut held = Vec::new();
        while let Some(name) = map.next_key_seed(CowStr)? {
            if let Some((_, arm)) = T::KEYS.iter().find(|(key, _)| *key == name) {
                return T::visit_arm(*arm, Replay::new(held, Some(name.into_owned()), map));
            }
            held.push((name.into_owned(), map.next_value::<Value>()?));
        }
        Err(de::Error::custom(format_args!(
            "{} must have one of the members {:?} ({})",
            T::NAME,
            T::KEYS.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            T::EXPECTED
        )))
    }
}
