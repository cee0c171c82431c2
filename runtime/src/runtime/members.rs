//! Member lookup and member reads: a member name becomes the index of a declared member
//! without allocating, a declared member is read into its slot once (a second occurrence is an
//! error), and an undeclared one into the struct's `extra` map. A failure records the member,
//! the array index or the map key in the [`trail`](super::trail).

use super::trail;
use super::visitors::Object;
use crate::prelude::*;
use alloc::collections::BTreeMap;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde_json::{Map, Value};

/// A member name as read from the input: one the type declares (by index), or any other.
pub enum Member {
    /// The index of a declared member.
    Known(u8),
    /// A member the schema does not name.
    Unknown(String),
}

/// Reads a member name and looks it up without allocating for declared members. Generic over
/// the type, not holding its lookup as a function pointer, so that the lookup is a direct call
/// the compiler may inline into the read of the name.
pub struct MemberSeed<T>(PhantomData<T>);

impl<T> MemberSeed<T> {
    /// The seed of `T`'s member names.
    #[inline]
    pub fn new() -> Self {
        MemberSeed(PhantomData)
    }
}

impl<T> Default for MemberSeed<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de, T: Object> DeserializeSeed<'de> for MemberSeed<T> {
    type Value = Member;
    #[inline]
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Member, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<T: Object> Visitor<'_> for MemberSeed<T> {
    type Value = Member;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a member name")
    }
    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Member, E> {
        Ok(match T::member(v) {
            Some(index) => Member::Known(index),
            None => Member::Unknown(v.to_owned()),
        })
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Member, E> {
        Ok(match T::member(&v) {
            Some(index) => Member::Known(index),
            None => Member::Unknown(v),
        })
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
pub(super) fn read_seeded<'de, A: MapAccess<'de>, S: DeserializeSeed<'de>>(
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
pub(super) struct ArraySeed<T>(pub(super) PhantomData<T>);

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
    fn visit_seq<S: de::SeqAccess<'de>>(self, seq: S) -> Result<Vec<T>, S::Error> {
        read_elements(seq, |seq, items| seq.next_element_seed(Push(items)))
    }
}

/// The elements of an array, each read and pushed by `next` (which returns `None` at the
/// end); a failure records the failing element's index.
#[inline]
fn read_elements<'de, T, S: de::SeqAccess<'de>>(
    mut seq: S,
    mut next: impl FnMut(&mut S, &mut Vec<T>) -> Result<Option<()>, S::Error>,
) -> Result<Vec<T>, S::Error> {
    // As serde's own `Vec` reader: trust a size hint only up to about 1 MiB.
    let limit = (1 << 20) / core::mem::size_of::<T>().max(1);
    let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(limit));
    loop {
        match next(&mut seq, &mut items) {
            Ok(Some(())) => {}
            Ok(None) => return Ok(items),
            Err(e) => {
                trail::index(items.len());
                return Err(e);
            }
        }
    }
}

/// Reads one element and pushes it: the item is moved once, from where its reader put it into
/// the vector (returned through `next_element` and bound, it was moved twice more). An array
/// of generated objects is read by [`PushObject`], which does not move the item at all.
struct Push<'v, T>(&'v mut Vec<T>);

impl<'de, T: de::Deserialize<'de>> DeserializeSeed<'de> for Push<'_, T> {
    type Value = ();
    #[inline]
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        // Room first, so that nothing runs between the read and the move into place.
        self.0.reserve(1);
        match T::deserialize(deserializer) {
            Ok(item) => {
                self.0.push(item);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}

/// [`read_array_member`] for an array of a generated object type: each element is built in
/// the array's own memory (see [`Object::visit_members_then`]), not built apart and moved in.
#[inline]
pub fn read_object_array_member<'de, A: MapAccess<'de>, T: Object>(
    slot: &mut Option<Vec<T>>,
    map: &mut A,
    name: &'static str,
) -> Result<(), A::Error> {
    read_seeded(slot, map, name, ObjectArraySeed(PhantomData))
}

/// Reads an array of objects, recording the index of an element that fails.
struct ObjectArraySeed<T>(PhantomData<T>);

impl<'de, T: Object> DeserializeSeed<'de> for ObjectArraySeed<T> {
    type Value = Vec<T>;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Object> Visitor<'de> for ObjectArraySeed<T> {
    type Value = Vec<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<S: de::SeqAccess<'de>>(self, seq: S) -> Result<Vec<T>, S::Error> {
        read_elements(seq, |seq, items| seq.next_element_seed(PushObject(items)))
    }
}

/// Reads one object and pushes it: the object's reader ends in the push, so that its fields
/// are written into the vector's memory. Returned from the reader instead, the object was
/// built apart and copied in (280 bytes for a resource).
struct PushObject<'v, T>(&'v mut Vec<T>);

impl<'de, T: Object> DeserializeSeed<'de> for PushObject<'_, T> {
    type Value = ();
    #[inline]
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        // Room first: the push at the end of the read then never grows the vector, and the
        // fields go straight to their place.
        self.0.reserve(1);
        deserializer.deserialize_map(self)
    }
}

impl<'de, T: Object> Visitor<'de> for PushObject<'_, T> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        super::visitors::ObjectVisitor::<T>::new().expecting(f)
    }
    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let _scope = trail::enter();
        let items = self.0;
        T::visit_members_then(map, None, |item| items.push(item))
    }
}

/// Reads an object into a map, recording the key of a value that fails.
pub(super) struct MapSeed<V>(pub(super) PhantomData<V>);

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

/// Puts a JSON value into an `extra` map, read as the map's value type.
pub fn put_extra<X: Extra>(
    extra: &mut X,
    name: String,
    value: Value,
) -> Result<(), serde_json::Error> {
    extra.put(name, serde_json::from_value(value)?);
    Ok(())
}

/// The error of writing a struct whose `extra` holds a member the struct declares or writes as
/// a constant: written, the member would appear twice, which JSON readers (this crate's
/// among them) refuse or read as either value.
#[cold]
pub fn declared_in_extra<E: serde::ser::Error>(type_name: &str, member: &str) -> E {
    E::custom(format_args!(
        "{type_name} declares the member `{member}`: set it on its field, not in `extra`"
    ))
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
