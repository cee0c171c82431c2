//! The accessors the reader hands to visitors: array elements, object members (and their
//! names), enum variants, and serde_json's `RawValue` protocol.

use super::reader::Reader;
use super::stop::stop_with;
use super::stop::Stop;
use crate::json::RAW_VALUE_TOKEN;
use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Visitor};

/// The elements of an array whose `[` has been read.
pub(super) struct Elements<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
    /// The index of the next element, for the stop path (without `std`).
    #[cfg(not(feature = "std"))]
    next: usize,
}

impl<'a, 'de> Elements<'a, 'de> {
    pub(super) fn new(reader: &'a mut Reader<'de>) -> Self {
        Elements {
            reader,
            first: true,
            #[cfg(not(feature = "std"))]
            next: 0,
        }
    }
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de> {
    type Error = Stop;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Stop> {
        // The stops say what serde_json's `SeqAccess` says at the same byte.
        match self.reader.peek_value() {
            Some(b']') => return Ok(None),
            Some(b',') if !self.first => {
                self.reader.index += 1;
                // `[1,]`: a trailing comma is an error.
                if let found @ (None | Some(b']')) = self.reader.peek_value() {
                    return Err(separator_stop(Separator::AfterComma(b']'), found));
                }
            }
            Some(_) if self.first => self.first = false,
            found => return Err(separator_stop(Separator::AfterValue(b']'), found)),
        }
        #[cfg(feature = "std")]
        return seed.deserialize(&mut *self.reader).map(Some);
        #[cfg(not(feature = "std"))]
        {
            let index = self.next;
            self.next += 1;
            seed.deserialize(&mut *self.reader)
                .map(Some)
                .inspect_err(|_| {
                    let depth = self.reader.depth();
                    self.reader.stop_path.index(depth, index)
                })
        }
    }
}

/// The members of an object whose `{` has been read.
pub(super) struct Members<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
    /// Where the current member's name starts, for the stop path (without `std`).
    #[cfg(not(feature = "std"))]
    name_at: usize,
}

impl<'a, 'de> Members<'a, 'de> {
    pub(super) fn new(reader: &'a mut Reader<'de>) -> Self {
        Members {
            reader,
            first: true,
            #[cfg(not(feature = "std"))]
            name_at: 0,
        }
    }
}

impl<'de> de::MapAccess<'de> for Members<'_, 'de> {
    type Error = Stop;

    // Always: with its stops in words, the member loop's step crossed the inliner's threshold
    // in `Message::parse`, and reading 10,000 mixed messages took 1.7% more instructions
    // (callgrind, bench `profile project W5 de`); inlined, 1.5% fewer than before the words.
    #[inline(always)]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        // The stops say what serde_json's `MapAccess` says at the same byte.
        let next = match self.reader.peek_value() {
            Some(b'}') => return Ok(None),
            Some(b',') if !self.first => {
                self.reader.index += 1;
                self.reader.peek_value()
            }
            Some(byte) if self.first => {
                self.first = false;
                Some(byte)
            }
            found => return Err(separator_stop(Separator::AfterValue(b'}'), found)),
        };
        #[cfg(not(feature = "std"))]
        {
            self.name_at = self.reader.index;
        }
        match next {
            Some(b'"') => seed.deserialize(MemberName(&mut *self.reader)).map(Some),
            // Not a name; after a comma, `}` is a trailing comma.
            found => Err(separator_stop(Separator::AfterComma(b'}'), found)),
        }
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Stop> {
        match self.reader.peek_value() {
            Some(b':') => self.reader.index += 1,
            found => return Err(separator_stop(Separator::Colon, found)),
        }
        #[cfg(feature = "std")]
        return seed.deserialize(&mut *self.reader);
        #[cfg(not(feature = "std"))]
        seed.deserialize(&mut *self.reader).inspect_err(|_| {
            let (depth, text) = (self.reader.depth(), self.reader.text());
            self.reader.stop_path.member(depth, text, self.name_at);
        })
    }
}

/// A member name (the current byte is its `"`). Asked for a string, or for anything serde_json
/// answers with the string, it gives the string; asked for what serde_json reads out of a
/// name's text (numbers, booleans, bytes), it stops and leaves the text to serde_json.
struct MemberName<'a, 'de>(&'a mut Reader<'de>);

impl super::stop::ReadsThrough for MemberName<'_, '_> {
    fn left_to_serde_json(&self) {
        #[cfg(not(feature = "std"))]
        self.0.stop_path.left_to_serde_json();
    }
}

impl<'de> de::Deserializer<'de> for MemberName<'_, 'de> {
    type Error = Stop;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        self.0.visit_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        // A name is never `null`.
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        if name == RAW_VALUE_TOKEN {
            super::stop::ReadsThrough::left_to_serde_json(&self);
            return Err(Stop);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        de::Deserializer::deserialize_enum(self.0, name, variants, visitor)
    }

    // serde_json reads these out of a name's text (`{"1": ..}` as a `u32` key); left to it.
    super::stop::stop! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32
        deserialize_f64 deserialize_bytes deserialize_byte_buf
    }

    // serde_json's member-name deserializer answers these with the string, as here.
    serde::forward_to_deserialize_any! {
        char str string unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// serde_json's `RawValue` protocol: a map of one member whose name is the reserved token and
/// whose value is the raw text.
pub(super) struct RawValueAccess<'de> {
    raw: Option<&'de str>,
}

impl<'de> RawValueAccess<'de> {
    pub(super) fn new(raw: &'de str) -> Self {
        RawValueAccess { raw: Some(raw) }
    }
}

impl<'de> de::MapAccess<'de> for RawValueAccess<'de> {
    type Error = Stop;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        if self.raw.is_none() {
            return Ok(None);
        }
        seed.deserialize(BorrowedStrDeserializer::new(RAW_VALUE_TOKEN))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Stop> {
        let raw = self.raw.take().ok_or(Stop)?;
        seed.deserialize(BorrowedStrDeserializer::new(raw))
    }
}

/// `{"Variant": content}` after its `{`.
pub(super) struct EnumObject<'a, 'de>(&'a mut Reader<'de>);

impl<'a, 'de> EnumObject<'a, 'de> {
    pub(super) fn new(reader: &'a mut Reader<'de>) -> Self {
        EnumObject(reader)
    }
}

impl<'a, 'de> de::EnumAccess<'de> for EnumObject<'a, 'de> {
    type Error = Stop;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Stop> {
        let variant = seed.deserialize(&mut *self.0)?;
        self.0.expect(b':')?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for EnumObject<'_, 'de> {
    type Error = Stop;

    fn unit_variant(self) -> Result<(), Stop> {
        de::Deserialize::deserialize(self.0)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Stop> {
        seed.deserialize(self.0)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Stop> {
        de::Deserializer::deserialize_seq(self.0, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        de::Deserializer::deserialize_struct(self.0, "", fields, visitor)
    }
}

/// `"Variant"`: a variant without content.
pub(super) struct UnitVariant<'a, 'de>(&'a mut Reader<'de>);

impl<'a, 'de> UnitVariant<'a, 'de> {
    pub(super) fn new(reader: &'a mut Reader<'de>) -> Self {
        UnitVariant(reader)
    }
}

impl<'a, 'de> de::EnumAccess<'de> for UnitVariant<'a, 'de> {
    type Error = Stop;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Stop> {
        let variant = seed.deserialize(&mut *self.0)?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariant<'_, 'de> {
    type Error = Stop;

    fn unit_variant(self) -> Result<(), Stop> {
        Ok(())
    }

    // serde_json refuses content for a variant written as a bare string.
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value, Stop> {
        Err(de::Error::invalid_type(
            de::Unexpected::UnitVariant,
            &"newtype variant",
        ))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, Stop> {
        Err(de::Error::invalid_type(
            de::Unexpected::UnitVariant,
            &"tuple variant",
        ))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Stop> {
        Err(de::Error::invalid_type(
            de::Unexpected::UnitVariant,
            &"struct variant",
        ))
    }
}

/// Where in an array or object the reader stopped at a byte that is not what comes next.
#[derive(Clone, Copy)]
enum Separator {
    /// After a value (or the opening bracket): `,` or the closing byte (`]` or `}`) was due.
    AfterValue(u8),
    /// After a comma: a value (`]`), or a member name (`}`), was due.
    AfterComma(u8),
    /// After a member name: `:` was due.
    Colon,
}

/// The stop at `found` where `at` wanted something else, in the words serde_json's
/// `SeqAccess` and `MapAccess` use there. Out of line, so that the loops over members and
/// elements stay as small as they were before the stops had words.
#[cold]
#[inline(never)]
fn separator_stop(at: Separator, found: Option<u8>) -> Stop {
    stop_with(match (at, found) {
        (Separator::AfterValue(b']'), Some(_)) => "expected `,` or `]`",
        (Separator::AfterValue(b']'), None) => "EOF while parsing a list",
        (Separator::AfterValue(_), Some(_)) => "expected `,` or `}`",
        (Separator::AfterValue(_) | Separator::Colon, None) => "EOF while parsing an object",
        (Separator::AfterComma(close), Some(byte)) if byte == close => "trailing comma",
        (Separator::AfterComma(b']'), Some(_)) => "expected value",
        (Separator::AfterComma(_), Some(_)) => "key must be a string",
        (Separator::AfterComma(_), None) => "EOF while parsing a value",
        (Separator::Colon, Some(_)) => "expected `:`",
    })
}
