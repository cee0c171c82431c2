//! Runtime support for the generated serde impls. Not part of the public API: the names here
//! may change in any release.
//!
//! The generated code stays small because the logic lives here once: member lookup, constant
//! checks, duplicate detection, unknown-member capture and union arm selection.

use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

// The keywords beyond the bounds, in their own file.
#[path = "keywords.rs"]
mod keywords;
pub use keywords::*;

/// Where a failed read failed, recorded as the error travels out of the nested readers: each
/// generated reader adds the member, array index or map key it was reading, innermost first.
/// Nothing is recorded while reads succeed, so this costs nothing on the fast path, and the
/// types are compiled once (a path-tracking deserializer would compile every reader again).
pub mod trail {
    use std::cell::{Cell, RefCell};

    enum Crumb {
        Member(&'static str),
        Key(String),
        Index(usize),
    }

    thread_local! {
        static TRAIL: RefCell<Vec<Crumb>> = const { RefCell::new(Vec::new()) };
        /// How many generated readers are running on this thread, one inside the other.
        static DEPTH: Cell<u32> = const { Cell::new(0) };
    }

    /// Puts the depth back however the reader ends (an error, or a panic in a user's type).
    struct Depth(u32);

    impl Drop for Depth {
        fn drop(&mut self) {
            DEPTH.with(|d| d.set(self.0));
        }
    }

    /// Runs one generated reader, keeping the trail bounded and exact whatever drove the read
    /// (the crate's entry points, plain `serde_json`, a framework's extractor): the outermost
    /// generated reader starts from an empty trail, since what an earlier failed read left is
    /// stale, and is dropped here rather than growing with every bad input. A failure caught
    /// inside a user's type (an untagged enum trying a generated type) is stale for the next
    /// generated reader too, which starts outermost again.
    ///
    /// Nested readers only count their depth (a thread-local `Cell`), so the fast path pays
    /// two increments per object; a failed read keeps its crumbs until the next read, for
    /// [`take`].
    #[inline]
    pub fn scope<T, E>(read: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        let depth = DEPTH.with(|d| d.replace(d.get().saturating_add(1)));
        let _restore = Depth(depth);
        if depth == 0 {
            forget_stale();
        }
        read()
    }

    fn forget_stale() {
        TRAIL.with(|t| {
            if let Ok(mut t) = t.try_borrow_mut() {
                t.clear();
            }
        });
    }

    /// How many crumbs the trail holds (for tests of its bound).
    pub fn len() -> usize {
        TRAIL.with(|t| t.borrow().len())
    }

    fn push(crumb: Crumb) {
        TRAIL.with(|t| t.borrow_mut().push(crumb));
    }

    /// Records that the failure was inside member `name`.
    #[cold]
    #[inline(never)]
    pub fn member(name: &'static str) {
        push(Crumb::Member(name));
    }

    /// Records that the failure was inside the map entry `key`.
    #[cold]
    #[inline(never)]
    pub fn key(key: &str) {
        push(Crumb::Key(key.to_owned()));
    }

    /// Records that the failure was inside array element `index`.
    #[cold]
    #[inline(never)]
    pub fn index(index: usize) {
        push(Crumb::Index(index));
    }

    /// Forgets what an earlier failed read left; call before a read whose path is wanted.
    pub fn clear() {
        TRAIL.with(|t| t.borrow_mut().clear());
    }

    /// The path of the last failure (`resources[0].size`, empty at the top), forgetting it.
    pub fn take() -> String {
        let crumbs = TRAIL.with(|t| std::mem::take(&mut *t.borrow_mut()));
        let mut path = String::new();
        for crumb in crumbs.iter().rev() {
            match crumb {
                Crumb::Member(name) => dotted(&mut path, name),
                Crumb::Key(key) => dotted(&mut path, key),
                Crumb::Index(index) => path.push_str(&format!("[{index}]")),
            }
        }
        path
    }

    fn dotted(path: &mut String, name: &str) {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(name);
    }
}

/// The crate's JSON reader alone, without serde_json behind it: `None` where
/// [`crate::json::from_str`] would let serde_json read the text. For tests and fuzzing, which
/// compare the two.
pub fn read_without_fallback<'a, T: de::Deserialize<'a>>(text: &'a str) -> Option<T> {
    crate::json::without_fallback(text)
}

/// A member name as read from the input: one the type declares (by index), or any other.
pub enum Member {
    /// The index of a declared member.
    Known(u8),
    /// A member the schema does not name.
    Unknown(String),
}

/// Reads a member name and looks it up without allocating for declared members.
pub struct MemberSeed(pub fn(&str) -> Option<u8>);

impl<'de> DeserializeSeed<'de> for MemberSeed {
    type Value = Member;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Member, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for MemberSeed {
    type Value = Member;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Member, E> {
        Ok(match (self.0)(v) {
            Some(index) => Member::Known(index),
            None => Member::Unknown(v.to_owned()),
        })
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Member, E> {
        Ok(match (self.0)(&v) {
            Some(index) => Member::Known(index),
            None => Member::Unknown(v),
        })
    }
}

/// A value the schema fixes with `const`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstValue {
    /// A string constant, such as `"2.0"` or `"resources/list"`.
    Str(&'static str),
    /// An integer constant, such as an error code.
    Int(i64),
}

impl ConstValue {
    fn matches(&self, value: Option<&Value>) -> bool {
        match (self, value) {
            (ConstValue::Str(s), Some(Value::String(v))) => v == s,
            (ConstValue::Int(i), Some(Value::Number(n))) => n.as_i64() == Some(*i),
            _ => false,
        }
    }
}

impl fmt::Display for ConstValue {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ConstValue::Str(s) => write!(f, "{s:?}"),
            ConstValue::Int(i) => write!(f, "{i}"),
        }
    }
}

impl serde::Serialize for ConstValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ConstValue::Str(s) => serializer.serialize_str(s),
            ConstValue::Int(i) => serializer.serialize_i64(*i),
        }
    }
}

struct ConstSeed<'a> {
    name: &'static str,
    value: &'a ConstValue,
}

impl ConstSeed<'_> {
    fn mismatch<E: de::Error>(&self, found: fmt::Arguments) -> E {
        E::custom(format_args!(
            "member `{}` must be {}, found {found}",
            self.name, self.value
        ))
    }
}

impl<'de> DeserializeSeed<'de> for ConstSeed<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        match self.value {
            ConstValue::Str(_) => deserializer.deserialize_str(self),
            ConstValue::Int(_) => deserializer.deserialize_i64(self),
        }
    }
}

impl Visitor<'_> for ConstSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} for member `{}`", self.value, self.name)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        match self.value {
            ConstValue::Str(s) if *s == v => Ok(()),
            _ => Err(self.mismatch(format_args!("{v:?}"))),
        }
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        match self.value {
            ConstValue::Int(i) if *i == v => Ok(()),
            _ => Err(self.mismatch(format_args!("{v}"))),
        }
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        match self.value {
            ConstValue::Int(i) if u64::try_from(*i) == Ok(v) => Ok(()),
            _ => Err(self.mismatch(format_args!("{v}"))),
        }
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        Err(self.mismatch(format_args!("{v}")))
    }
}

/// Writes a constant member.
pub fn serialize_const<M: SerializeMap>(
    map: &mut M,
    name: &'static str,
    value: &ConstValue,
) -> Result<(), M::Error> {
    map.serialize_entry(name, value)
}

/// Reads a constant member, rejecting any other value and a second occurrence.
#[inline]
pub fn read_const<'de, A: MapAccess<'de>>(
    seen: &mut bool,
    map: &mut A,
    name: &'static str,
    value: &ConstValue,
) -> Result<(), A::Error> {
    if *seen {
        return Err(de::Error::duplicate_field(name));
    }
    map.next_value_seed(ConstSeed { name, value })
        .inspect_err(|_| trail::member(name))?;
    *seen = true;
    Ok(())
}

/// Reads an optional constant member, kept as the string it must equal.
#[inline]
pub fn read_optional_const<'de, A: MapAccess<'de>>(
    slot: &mut Option<String>,
    map: &mut A,
    name: &'static str,
    value: &ConstValue,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    map.next_value_seed(ConstSeed { name, value })
        .inspect_err(|_| trail::member(name))?;
    if let ConstValue::Str(s) = value {
        *slot = Some((*s).to_owned());
    }
    Ok(())
}

/// Fails when a required constant member was absent.
pub fn require_const<E: de::Error>(seen: bool, name: &'static str) -> Result<(), E> {
    if seen {
        Ok(())
    } else {
        Err(E::missing_field(name))
    }
}

/// Reads a declared member into its slot, rejecting a second occurrence.
#[inline]
pub fn read_member<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error> {
    read_seeded(slot, map, name, PhantomData)
}

/// [`read_member`] for an array member: a failure also records the element's index.
#[inline]
pub fn read_array_member<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    slot: &mut Option<Vec<T>>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error> {
    read_seeded(slot, map, name, ArraySeed(PhantomData))
}

/// [`read_member`] for a map member with typed values: a failure also records the key.
#[inline]
pub fn read_map_member<'de, A: MapAccess<'de>, V: de::Deserialize<'de>>(
    slot: &mut Option<BTreeMap<String, V>>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error> {
    read_seeded(slot, map, name, MapSeed(PhantomData))
}

#[inline]
fn read_seeded<'de, A: MapAccess<'de>, S: DeserializeSeed<'de>>(
    slot: &mut Option<S::Value>,
    map: &mut A,
    name: &'static str,
    seed: S,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    // A `match`, not `inspect_err`: that would move the (possibly large) value once more.
    match map.next_value_seed(seed) {
        Ok(value) => *slot = Some(value),
        Err(e) => {
            trail::member(name);
            return Err(e);
        }
    }
    Ok(())
}

/// Reads an array, recording the index of an element that fails.
struct ArraySeed<T>(PhantomData<T>);

impl<'de, T: de::Deserialize<'de>> DeserializeSeed<'de> for ArraySeed<T> {
    type Value = Vec<T>;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: de::Deserialize<'de>> Visitor<'de> for ArraySeed<T> {
    type Value = Vec<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<S: de::SeqAccess<'de>>(self, mut seq: S) -> Result<Vec<T>, S::Error> {
        // As serde's own `Vec` reader: trust a size hint only up to about 1 MiB.
        let limit = (1 << 20) / std::mem::size_of::<T>().max(1);
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(limit));
        loop {
            // A `match`, not `inspect_err`: that would move each (large) item once more.
            match seq.next_element() {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return Ok(items),
                Err(e) => {
                    trail::index(items.len());
                    return Err(e);
                }
            }
        }
    }
}

/// Reads an object into a map, recording the key of a value that fails.
struct MapSeed<V>(PhantomData<V>);

impl<'de, V: de::Deserialize<'de>> DeserializeSeed<'de> for MapSeed<V> {
    type Value = BTreeMap<String, V>;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, V: de::Deserialize<'de>> Visitor<'de> for MapSeed<V> {
    type Value = BTreeMap<String, V>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries = BTreeMap::new();
        while let Some(key) = map.next_key::<String>()? {
            match map.next_value() {
                Ok(value) => {
                    entries.insert(key, value);
                }
                Err(e) => {
                    trail::key(&key);
                    return Err(e);
                }
            }
        }
        Ok(entries)
    }
}

/// Takes a required member out of its slot.
pub fn required<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(name))
}

/// Where a struct keeps the members its schema does not name.
pub trait Extra {
    /// The type of an undeclared member's value.
    type Value: de::DeserializeOwned;
    /// Stores one member; a repeated name keeps the last value, as JSON parsers commonly do.
    fn put(&mut self, name: String, value: Self::Value);
}

impl Extra for Map<String, Value> {
    type Value = Value;
    fn put(&mut self, name: String, value: Value) {
        self.insert(name, value);
    }
}

impl<V: de::DeserializeOwned> Extra for BTreeMap<String, V> {
    type Value = V;
    fn put(&mut self, name: String, value: V) {
        self.insert(name, value);
    }
}

/// Reads an undeclared member into the struct's `extra` map.
#[inline]
pub fn read_extra<'de, A: MapAccess<'de>, X: Extra>(
    extra: &mut X,
    name: String,
    map: &mut A,
) -> Result<(), A::Error> {
    let value = map
        .next_value::<X::Value>()
        .inspect_err(|_| trail::key(&name))?;
    extra.put(name, value);
    Ok(())
}

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
    /// Reads the members; `preset` is the index of a constant member the caller already read
    /// and checked (a union's discriminator).
    fn visit_members<'de, A: MapAccess<'de>>(map: A, preset: Option<u8>) -> Result<Self, A::Error>;
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
        trail::scope(|| T::visit_members(map, None))
    }
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
pub(crate) struct CowStr;

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
        trail::scope(|| Self::visit_tagged_map(map))
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
    held: std::vec::IntoIter<(String, Value)>,
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
        trail::scope(|| Self::visit_keyed_map(map))
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

/// The JSON kind a union arm accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A string.
    String,
    /// An integer.
    Integer,
    /// Any number.
    Number,
    /// `true` or `false`.
    Bool,
    /// An array.
    Array,
    /// An object.
    Object,
    /// Any JSON value.
    Any,
    /// One of the shapes in `items` (a union nested in a union).
    Union,
}

/// What a union arm requires of a value, for selecting it without trying it.
pub struct ArmShape {
    /// The arm's type, for error messages.
    pub name: &'static str,
    /// The JSON kind it accepts.
    pub kind: Kind,
    /// For objects: the members it requires.
    pub required: &'static [&'static str],
    /// For objects: the constant members, with their values and whether they are required
    /// (an optional one must still have its value when present).
    pub consts: &'static [(&'static str, ConstValue, bool)],
    /// For objects: members whose string value must be one of a list, when present.
    pub enums: &'static [(&'static str, &'static [&'static str])],
    /// For objects: required members that must themselves fit a shape.
    pub members: &'static [(&'static str, &'static ArmShape)],
    /// For arrays: the shapes an item may have (empty: any item); for unions: the arms.
    pub items: &'static [ArmShape],
}

/// Picks the arm of a union for `value`: the kind must fit, and among objects the required
/// members and constants must be present; the arm that requires the most wins, the first on a
/// tie. Deterministic: no arm is tried and abandoned.
pub fn select_arm(union: &str, arms: &[ArmShape], value: &Value) -> Result<u8, String> {
    let mut best: Option<(usize, usize)> = None;
    for (index, arm) in arms.iter().enumerate() {
        let Some(score) = score(arm, value) else {
            continue;
        };
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((index, score));
        }
    }
    match best {
        Some((index, _)) => u8::try_from(index).map_err(|_| unreachable_arm(union)),
        None => {
            if let Some(member) = wrong_discriminator(arms, value) {
                trail::member(member);
            }
            Err(format!(
                "{} matches no arm of {union}; expected one of: {}",
                describe(value),
                arms.iter().map(describe_arm).collect::<Vec<_>>().join("; ")
            ))
        }
    }
}

/// The member that tells the arms apart (a constant every arm declares), when the value has it
/// with a value no arm accepts: that member is where the value is wrong.
fn wrong_discriminator(arms: &[ArmShape], value: &Value) -> Option<&'static str> {
    let object = value.as_object()?;
    let (member, _, _) = arms.first()?.consts.first()?;
    let found = object.get(*member)?;
    let mut constants = arms
        .iter()
        .map(|arm| arm.consts.iter().find(|(k, _, _)| k == member));
    constants
        .all(|c| c.is_some_and(|(_, c, _)| !c.matches(Some(found))))
        .then_some(*member)
}

/// How well `value` fits `arm`: `None` when it cannot be that arm, more for a closer fit.
fn score(arm: &ArmShape, value: &Value) -> Option<usize> {
    match (arm.kind, value) {
        (Kind::Any, _) => Some(0),
        (Kind::String, Value::String(_))
        | (Kind::Number, Value::Number(_))
        | (Kind::Bool, Value::Bool(_)) => Some(1),
        (Kind::Integer, Value::Number(n)) if n.is_i64() || n.is_u64() => Some(1),
        (Kind::Array, Value::Array(items)) => {
            if arm.items.is_empty() {
                return Some(1);
            }
            let fits = items
                .iter()
                .all(|item| arm.items.iter().any(|shape| score(shape, item).is_some()));
            fits.then_some(2)
        }
        (Kind::Union, _) => arm
            .items
            .iter()
            .filter_map(|shape| score(shape, value))
            .max(),
        (Kind::Object, Value::Object(object)) => {
            let consts_fit = arm
                .consts
                .iter()
                .all(|(k, c, required)| match object.get(*k) {
                    Some(found) => c.matches(Some(found)),
                    None => !*required,
                });
            let required_present = arm.required.iter().all(|k| object.contains_key(*k));
            let enums_fit = arm.enums.iter().all(|(k, values)| match object.get(*k) {
                Some(Value::String(found)) => values.contains(&found.as_str()),
                Some(_) => false,
                None => true,
            });
            if !(consts_fit && required_present && enums_fit) {
                return None;
            }
            let mut total = 1 + arm.required.len();
            for (k, shape) in arm.members {
                if let Some(member) = object.get(*k) {
                    total += score(shape, member)?;
                }
            }
            Some(total)
        }
        _ => None,
    }
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "the object",
    }
}

fn describe_arm(arm: &ArmShape) -> String {
    let mut text = format!("{} ({:?}", arm.name, arm.kind).to_lowercase();
    text = format!("{}{}", arm.name, &text[arm.name.len()..]);
    for (k, c, _) in arm.consts {
        text.push_str(&format!(", `{k}`: {c}"));
    }
    if !arm.required.is_empty() {
        text.push_str(&format!(", requires {:?}", arm.required));
    }
    text.push(')');
    text
}

/// Deserializes an arm from a value read in full; the path of a failure is in the [`trail`].
pub fn from_buffered<T: de::DeserializeOwned>(value: Value) -> Result<T, String> {
    trail::scope(|| T::deserialize(value).map_err(|e| e.to_string()))
}

/// The message for an arm index the generated table does not have (a generator bug).
pub fn unreachable_arm(union: &str) -> String {
    format!("internal error: arm selection for {union} is out of range")
}

/// A definition name and how to get its schema from the generator.
#[cfg(feature = "schemars")]
pub type SchemaRef = (
    &'static str,
    fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
);

/// The official schema of a definition, its `$ref`s pointed at the generator's definitions.
#[cfg(feature = "schemars")]
pub fn official_schema(
    generator: &mut schemars::SchemaGenerator,
    json: &str,
    refs: &[SchemaRef],
) -> schemars::Schema {
    fn resolve(value: &mut Value, generator: &mut schemars::SchemaGenerator, refs: &[SchemaRef]) {
        match value {
            Value::Object(object) => {
                let target = object
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.rsplit('/').next())
                    .and_then(|name| refs.iter().find(|(n, _)| *n == name));
                if let Some((_, subschema)) = target {
                    let resolved = subschema(generator).to_value();
                    object.remove("$ref");
                    if let Value::Object(resolved) = resolved {
                        for (k, v) in resolved {
                            object.entry(k).or_insert(v);
                        }
                    }
                }
                for child in object.values_mut() {
                    resolve(child, generator, refs);
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| resolve(v, generator, refs)),
            _ => {}
        }
    }
    // The JSON is the schema file's own text, so it always parses; `true` is the safe fallback.
    let mut value: Value = serde_json::from_str(json).unwrap_or(Value::Bool(true));
    resolve(&mut value, generator, refs);
    schemars::Schema::try_from(value).unwrap_or_default()
}

/// A params type with a `task` member (revision 2025-11-25): whether the request asks to run
/// as a task.
pub trait AsksForTask {
    /// Whether `task` is present.
    fn asks_for_task(&self) -> bool;
}

/// The bounds the schema puts on a member (`minimum`, `maxItems`, ...); generated code checks
/// each bounded member right after reading it.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusiveMinimum` (JSON Schema 2020-12: a number).
    pub exclusive_minimum: Option<f64>,
    /// `exclusiveMaximum` (JSON Schema 2020-12: a number).
    pub exclusive_maximum: Option<f64>,
    /// `minLength`, in characters.
    pub min_length: Option<u64>,
    /// `maxLength`, in characters.
    pub max_length: Option<u64>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
}

/// A value the bound keywords apply to. As in JSON Schema, each keyword applies to one kind
/// of value only (`minimum` to numbers, `maxItems` to arrays, ...).
pub trait Bounded {
    /// What is out of bounds, in words; `None` when the value keeps every bound.
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String>;
}

fn number_out_of_bounds(value: f64, shown: &dyn fmt::Display, b: &Bounds) -> Option<String> {
    if let Some(min) = b.minimum.filter(|min| value < *min) {
        return Some(format!("{shown} is less than the minimum {min}"));
    }
    if let Some(max) = b.maximum.filter(|max| value > *max) {
        return Some(format!("{shown} is greater than the maximum {max}"));
    }
    if let Some(min) = b.exclusive_minimum.filter(|min| value <= *min) {
        return Some(format!(
            "{shown} is not greater than the exclusive minimum {min}"
        ));
    }
    if let Some(max) = b.exclusive_maximum.filter(|max| value >= *max) {
        return Some(format!(
            "{shown} is not less than the exclusive maximum {max}"
        ));
    }
    None
}

fn count_out_of_bounds(
    count: usize,
    what: &str,
    min: Option<u64>,
    max: Option<u64>,
) -> Option<String> {
    let count = u64::try_from(count).unwrap_or(u64::MAX);
    if let Some(min) = min.filter(|min| count < *min) {
        return Some(format!("{count} {what}, fewer than the minimum {min}"));
    }
    if let Some(max) = max.filter(|max| count > *max) {
        return Some(format!("{count} {what}, more than the maximum {max}"));
    }
    None
}

impl Bounded for serde_json::Number {
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String> {
        // Integers beyond 2^53 lose digits as f64, but every bound the schemas use is small:
        // the comparison is exact wherever it can be decided.
        let value = self.as_f64()?;
        number_out_of_bounds(value, self, bounds)
    }
}

impl Bounded for u64 {
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String> {
        number_out_of_bounds(*self as f64, self, bounds)
    }
}

impl Bounded for i64 {
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String> {
        number_out_of_bounds(*self as f64, self, bounds)
    }
}

impl Bounded for String {
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String> {
        count_out_of_bounds(
            self.chars().count(),
            "characters",
            bounds.min_length,
            bounds.max_length,
        )
    }
}

impl<T> Bounded for Vec<T> {
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String> {
        count_out_of_bounds(self.len(), "items", bounds.min_items, bounds.max_items)
    }
}

/// Reads a member and checks its bounds inside the member's own read, so that a failure is
/// placed at the member by the trail (and by any path-tracking deserializer).
struct BoundedSeed<'b, S> {
    inner: S,
    bounds: &'b Bounds,
}

impl<'de, S> DeserializeSeed<'de> for BoundedSeed<'_, S>
where
    S: DeserializeSeed<'de>,
    S::Value: Bounded,
{
    type Value = S::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        let value = self.inner.deserialize(deserializer)?;
        match value.out_of_bounds(self.bounds) {
            None => Ok(value),
            Some(problem) => Err(de::Error::custom(problem)),
        }
    }
}

/// [`read_member`] for a member the schema bounds.
#[inline]
pub fn read_bounded_member<'de, A: MapAccess<'de>, T: de::Deserialize<'de> + Bounded>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
    bounds: &Bounds,
) -> Result<(), A::Error> {
    read_seeded(
        slot,
        map,
        name,
        BoundedSeed {
            inner: PhantomData,
            bounds,
        },
    )
}

/// [`read_array_member`] for an array member the schema bounds.
#[inline]
pub fn read_bounded_array_member<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    slot: &mut Option<Vec<T>>,
    map: &mut A,
    name: &'static str,
    bounds: &Bounds,
) -> Result<(), A::Error> {
    read_seeded(
        slot,
        map,
        name,
        BoundedSeed {
            inner: ArraySeed(PhantomData),
            bounds,
        },
    )
}
