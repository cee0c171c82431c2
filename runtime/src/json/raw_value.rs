//! `RawValue` (and `Number` under `arbitrary_precision`): the string under serde_json's token
//! is JSON text, written as it is.

use super::strings::display_error;
use crate::prelude::*;
use core::fmt;
use serde::ser::{self, Impossible, Serialize};
use serde_json::Error;

/// Writes the string it is given verbatim; anything but a string is `error`.
pub(super) struct VerbatimEmitter<'a> {
    /// The output text.
    pub(super) out: &'a mut String,
    pub(super) error: fn() -> Error,
}

impl ser::Serializer for VerbatimEmitter<'_> {
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
        self.out.push_str(value);
        Ok(())
    }

    fn collect_str<T: ?Sized + fmt::Display>(self, value: &T) -> Result<(), Error> {
        // serde_json formats the whole value first (`to_string`), then writes it.
        use fmt::Write;
        let mut text = String::new();
        write!(text, "{value}").map_err(|_| display_error())?;
        self.serialize_str(&text)
    }

    fn serialize_bool(self, _value: bool) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_i8(self, _value: i8) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_i16(self, _value: i16) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_i32(self, _value: i32) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_i64(self, _value: i64) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_i128(self, _value: i128) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_u8(self, _value: u8) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_u16(self, _value: u16) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_u32(self, _value: u32) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_u64(self, _value: u64) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_u128(self, _value: u128) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_f32(self, _value: f32) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_f64(self, _value: f64) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_char(self, _value: char) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_none(self) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_unit(self) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
    ) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err((self.error)())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err((self.error)())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err((self.error)())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err((self.error)())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err((self.error)())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err((self.error)())
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err((self.error)())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err((self.error)())
    }
}
