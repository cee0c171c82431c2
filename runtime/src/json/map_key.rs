//! Map keys, as serde_json's `MapKeySerializer` writes them.

use super::errors::{float_key_must_be_finite, key_must_be_a_string};
use super::numbers::format_number;
use super::strings::{display_error, write_escaped_str, EscapingWriter};
use crate::prelude::*;
use core::fmt;
use serde::ser::{self, Impossible, Serialize};
use serde_json::Error;

/// Writes a map key: a string, or a number or boolean in quotes; anything else is an error.
pub(super) struct MapKeySerializer<'a> {
    /// The output text.
    pub(super) out: &'a mut String,
}

/// Writes a key that is a number or a boolean: its text, in quotes.
macro_rules! quoted_key {
    ($self:ident, $method:ident, $value:expr) => {{
        $self.out.push('"');
        format_number!(&mut *$self.out, $method, $value)?;
        $self.out.push('"');
        Ok(())
    }};
}

impl ser::Serializer for MapKeySerializer<'_> {
    type Ok = ();
    type Error = Error;

    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    #[inline]
    fn serialize_str(self, value: &str) -> Result<(), Error> {
        write_escaped_str(self.out, value);
        Ok(())
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        quoted_key!(self, write_bool, value)
    }

    fn serialize_i8(self, value: i8) -> Result<(), Error> {
        quoted_key!(self, write_i8, value)
    }

    fn serialize_i16(self, value: i16) -> Result<(), Error> {
        quoted_key!(self, write_i16, value)
    }

    fn serialize_i32(self, value: i32) -> Result<(), Error> {
        quoted_key!(self, write_i32, value)
    }

    fn serialize_i64(self, value: i64) -> Result<(), Error> {
        quoted_key!(self, write_i64, value)
    }

    fn serialize_i128(self, value: i128) -> Result<(), Error> {
        quoted_key!(self, write_i128, value)
    }

    fn serialize_u8(self, value: u8) -> Result<(), Error> {
        quoted_key!(self, write_u8, value)
    }

    fn serialize_u16(self, value: u16) -> Result<(), Error> {
        quoted_key!(self, write_u16, value)
    }

    fn serialize_u32(self, value: u32) -> Result<(), Error> {
        quoted_key!(self, write_u32, value)
    }

    fn serialize_u64(self, value: u64) -> Result<(), Error> {
        quoted_key!(self, write_u64, value)
    }

    fn serialize_u128(self, value: u128) -> Result<(), Error> {
        quoted_key!(self, write_u128, value)
    }

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        if !value.is_finite() {
            return Err(float_key_must_be_finite());
        }
        quoted_key!(self, write_f32, value)
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        if !value.is_finite() {
            return Err(float_key_must_be_finite());
        }
        quoted_key!(self, write_f64, value)
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    /// `Some(key)` is written as `key` (as serde_json does).
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }

    fn collect_str<T: ?Sized + fmt::Display>(self, value: &T) -> Result<(), Error> {
        // As a string value: quoted, escaped as it is formatted.
        use fmt::Write;
        self.out.push('"');
        write!(EscapingWriter(self.out), "{value}").map_err(|_| display_error())?;
        self.out.push('"');
        Ok(())
    }
}
