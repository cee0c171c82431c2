//! The serializer: the output text, and the states of the sequences, maps and structs being
//! written.

use super::errors::{expected_raw_value, invalid_number, invalid_raw_value};
use super::map_key::MapKeySerializer;
use super::numbers::format_number;
use super::raw_value::VerbatimEmitter;
use super::strings::{display_error, write_escaped_str, EscapingWriter};
use super::tokens::{arbitrary_precision, NUMBER_TOKEN, RAW_VALUE_TOKEN};
use crate::prelude::*;
use core::fmt;
use serde::ser::{self, Serialize};
use serde_json::Error;

/// The serializer: the text written so far.
///
/// It writes into a `String` (not a `Vec<u8>`): every piece it appends is a `&str` cut at an
/// ASCII byte, so the output is UTF-8 by construction, without checking the whole output again
/// at the end. The one exception is the escaped copy of a string with escapes, which works on
/// the bytes for speed and leaves them UTF-8 (see `strings::write_escaped_from`).
pub(super) struct Serializer {
    pub(super) out: String,
}

impl<'a> ser::Serializer for &'a mut Serializer {
    type Ok = ();
    type Error = Error;

    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = StructCompound<'a>;
    type SerializeStructVariant = Compound<'a>;

    #[inline]
    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.out.push_str(if value { "true" } else { "false" });
        Ok(())
    }

    #[inline]
    fn serialize_i8(self, value: i8) -> Result<(), Error> {
        format_number!(&mut self.out, write_i8, value)
    }

    #[inline]
    fn serialize_i16(self, value: i16) -> Result<(), Error> {
        format_number!(&mut self.out, write_i16, value)
    }

    #[inline]
    fn serialize_i32(self, value: i32) -> Result<(), Error> {
        format_number!(&mut self.out, write_i32, value)
    }

    #[inline]
    fn serialize_i64(self, value: i64) -> Result<(), Error> {
        format_number!(&mut self.out, write_i64, value)
    }

    fn serialize_i128(self, value: i128) -> Result<(), Error> {
        format_number!(&mut self.out, write_i128, value)
    }

    #[inline]
    fn serialize_u8(self, value: u8) -> Result<(), Error> {
        format_number!(&mut self.out, write_u8, value)
    }

    #[inline]
    fn serialize_u16(self, value: u16) -> Result<(), Error> {
        format_number!(&mut self.out, write_u16, value)
    }

    #[inline]
    fn serialize_u32(self, value: u32) -> Result<(), Error> {
        format_number!(&mut self.out, write_u32, value)
    }

    #[inline]
    fn serialize_u64(self, value: u64) -> Result<(), Error> {
        format_number!(&mut self.out, write_u64, value)
    }

    fn serialize_u128(self, value: u128) -> Result<(), Error> {
        format_number!(&mut self.out, write_u128, value)
    }

    #[inline]
    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        if value.is_finite() {
            format_number!(&mut self.out, write_f32, value)
        } else {
            self.serialize_unit()
        }
    }

    #[inline]
    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        if value.is_finite() {
            format_number!(&mut self.out, write_f64, value)
        } else {
            self.serialize_unit()
        }
    }

    #[inline]
    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }

    #[inline]
    fn serialize_str(self, value: &str) -> Result<(), Error> {
        write_escaped_str(&mut self.out, value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), Error> {
        self.out.push('[');
        for (index, byte) in value.iter().enumerate() {
            if index != 0 {
                self.out.push(',');
            }
            format_number!(&mut self.out, write_u8, *byte)?;
        }
        self.out.push(']');
        Ok(())
    }

    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    #[inline]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<(), Error> {
        self.out.push_str("null");
        Ok(())
    }

    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
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

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.out.push('{');
        write_escaped_str(&mut self.out, variant);
        self.out.push(':');
        value.serialize(&mut *self)?;
        self.out.push('}');
        Ok(())
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>, Error> {
        self.out.push('[');
        let state = if len == Some(0) {
            self.out.push(']');
            State::Empty
        } else {
            State::First
        };
        Ok(Compound { ser: self, state })
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    #[inline]
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        write_escaped_str(&mut self.out, variant);
        self.out.push(':');
        self.serialize_seq(Some(len))
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        let state = if len == Some(0) {
            self.out.push('}');
            State::Empty
        } else {
            State::First
        };
        Ok(Compound { ser: self, state })
    }

    #[inline]
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<StructCompound<'a>, Error> {
        match name {
            RAW_VALUE_TOKEN => Ok(StructCompound::Verbatim {
                ser: self,
                token: RAW_VALUE_TOKEN,
                error: invalid_raw_value,
                emitter_error: expected_raw_value,
            }),
            NUMBER_TOKEN if arbitrary_precision() => Ok(StructCompound::Verbatim {
                ser: self,
                token: NUMBER_TOKEN,
                error: invalid_number,
                emitter_error: invalid_number,
            }),
            _ => self.serialize_map(Some(len)).map(StructCompound::Map),
        }
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _variant_index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        write_escaped_str(&mut self.out, variant);
        self.out.push(':');
        self.serialize_map(Some(len))
    }

    fn collect_str<T: ?Sized + fmt::Display>(self, value: &T) -> Result<(), Error> {
        use fmt::Write;
        self.out.push('"');
        write!(EscapingWriter(&mut self.out), "{value}").map_err(|_| display_error())?;
        self.out.push('"');
        Ok(())
    }
}

/// Where a sequence or map is: `Empty` when its length was given as 0 and it is already closed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Empty,
    First,
    Rest,
}

/// An array or an object being written (also the array or object of a tuple or struct variant).
pub(super) struct Compound<'a> {
    ser: &'a mut Serializer,
    state: State,
}

impl Compound<'_> {
    /// The `,` before every element or key but the first.
    #[inline]
    fn separator(&mut self) {
        if self.state != State::First {
            self.ser.out.push(',');
        }
        self.state = State::Rest;
    }

    /// The closing `]` or `}`, unless it was written at once for an announced length of 0.
    #[inline]
    fn close(&mut self, closing: char) {
        if self.state != State::Empty {
            self.ser.out.push(closing);
        }
    }

    /// A struct field: its name is a `&str`, written as the map key serializer writes a string.
    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        self.separator();
        write_escaped_str(&mut self.ser.out, key);
        self.ser.out.push(':');
        value.serialize(&mut *self.ser)
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.separator();
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn end(mut self) -> Result<(), Error> {
        self.close(']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(mut self) -> Result<(), Error> {
        self.close(']');
        self.ser.out.push('}');
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        self.separator();
        key.serialize(MapKeySerializer {
            out: &mut self.ser.out,
        })
    }

    #[inline]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.ser.out.push(':');
        value.serialize(&mut *self.ser)
    }

    #[inline]
    fn end(mut self) -> Result<(), Error> {
        self.close('}');
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }

    #[inline]
    fn end(mut self) -> Result<(), Error> {
        self.close('}');
        self.ser.out.push('}');
        Ok(())
    }
}

/// A struct being written: an object, or one of serde_json's private structs whose only field
/// holds JSON text to write as it is (a `RawValue`, or a `Number` under `arbitrary_precision`).
pub(super) enum StructCompound<'a> {
    Map(Compound<'a>),
    Verbatim {
        ser: &'a mut Serializer,
        /// The one field name accepted.
        token: &'static str,
        /// The error for any other field.
        error: fn() -> Error,
        /// The error for a field value that is not a string.
        emitter_error: fn() -> Error,
    },
}

impl ser::SerializeStruct for StructCompound<'_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        match self {
            StructCompound::Map(map) => map.field(key, value),
            StructCompound::Verbatim {
                ser,
                token,
                error,
                emitter_error,
            } => {
                if key == *token {
                    value.serialize(VerbatimEmitter {
                        out: &mut ser.out,
                        error: *emitter_error,
                    })
                } else {
                    Err(error())
                }
            }
        }
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        match self {
            StructCompound::Map(map) => ser::SerializeMap::end(map),
            StructCompound::Verbatim { .. } => Ok(()),
        }
    }
}
