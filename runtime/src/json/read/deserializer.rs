//! `serde::Deserializer` for the reader: for every request a `Deserialize` implementation can
//! make, the same visitor calls serde_json's deserializer makes on the same text, or [`Stop`]
//! where this reader does not follow serde_json (then serde_json reads the text instead).

use super::access::{Elements, EnumObject, Members, RawValueAccess, UnitVariant};
use super::reader::{Number, Reader, Text};
use super::stop::Stop;
use crate::json::RAW_VALUE_TOKEN;
use serde::de::{self, Visitor};

impl Number {
    #[inline]
    fn visit<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self {
            Number::U64(value) => visitor.visit_u64(value),
            Number::I64(value) => visitor.visit_i64(value),
            Number::F64(value) => visitor.visit_f64(value),
        }
    }
}

/// From this length on, a string unescaped into the scratch space is handed to its visitor
/// owned. Below it, copying is cheap and the scratch space, kept, serves the next string.
const HAND_OVER_BYTES: usize = 4096;

impl<'de> Reader<'de> {
    /// The string at the current byte (a `"`), given to `visitor` borrowed when it can be.
    /// A long string with escapes is handed over owned: the scratch space it was unescaped
    /// into becomes the visitor's `String`, rather than be copied into one.
    #[inline]
    pub(super) fn visit_str<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Stop> {
        match self.read_str()? {
            Text::Borrowed(text) => return visitor.visit_borrowed_str(text),
            Text::Copied(text) if text.len() < HAND_OVER_BYTES => return visitor.visit_str(text),
            Text::Copied(_) => {}
        }
        visitor.visit_string(self.take_unescaped())
    }

    /// `[` ... `]` at the current byte, elements given to `visitor`.
    #[inline]
    fn visit_array<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Stop> {
        self.nested(b']', |reader| visitor.visit_seq(Elements::new(reader)))
    }

    /// `{` ... `}` at the current byte, members given to `visitor`.
    #[inline]
    fn visit_object<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Stop> {
        self.nested(b'}', |reader| visitor.visit_map(Members::new(reader)))
    }

    /// One level deeper: past the opening byte, `visit`, then the `close` byte.
    #[inline]
    fn nested<T>(
        &mut self,
        close: u8,
        visit: impl FnOnce(&mut Self) -> Result<T, Stop>,
    ) -> Result<T, Stop> {
        self.descend()?;
        self.index += 1;
        // One place for the value, returned as it is: binding it and wrapping it again
        // moved it twice, a memory copy of the whole struct each (280 bytes for a resource).
        let value = visit(self);
        self.ascend();
        if value.is_err() || self.expect(close).is_ok() {
            return value;
        }
        drop(value);
        Err(Stop)
    }

    /// A number after whitespace, or nothing else.
    #[inline]
    fn visit_number<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Stop> {
        match self.peek_value() {
            Some(b'-' | b'0'..=b'9') => self.read_number()?.visit(visitor),
            _ => Err(self.mismatch(&visitor)),
        }
    }

    /// The stop at a token of another kind than `expected` asked for. When the reader is
    /// explaining a failure, it says so as serde_json's `peek_invalid_type` does: the token
    /// described (``integer `7` ``, `null`, `a string "x"`), or nothing where the token itself is
    /// not JSON (that error is serde_json's own, from skipping the text).
    #[cold]
    #[inline(never)]
    fn mismatch(&mut self, expected: &dyn de::Expected) -> Stop {
        if !super::stop::is_explaining() {
            return Stop;
        }
        use de::Unexpected;
        let invalid =
            |unexpected: Unexpected| -> Stop { de::Error::invalid_type(unexpected, expected) };
        match self.peek_value() {
            // A literal cut short or misspelt: serde_json's own error, from skipping the text.
            Some(b'n' | b't' | b'f') => match self.peek_value() {
                Some(b'n') if self.literal(b"null").is_ok() => invalid(Unexpected::Unit),
                Some(b't') if self.literal(b"true").is_ok() => invalid(Unexpected::Bool(true)),
                Some(b'f') if self.literal(b"false").is_ok() => invalid(Unexpected::Bool(false)),
                _ => Stop,
            },
            Some(b'-' | b'0'..=b'9') => match self.read_number() {
                Ok(Number::U64(value)) => invalid(Unexpected::Unsigned(value)),
                Ok(Number::I64(value)) => invalid(Unexpected::Signed(value)),
                Ok(Number::F64(value)) => invalid(Unexpected::Float(value)),
                Err(stop) => stop,
            },
            Some(b'"') => match self.read_str() {
                Ok(Text::Borrowed(text) | Text::Copied(text)) => invalid(Unexpected::Str(text)),
                Err(stop) => stop,
            },
            Some(b'[') => invalid(Unexpected::Seq),
            Some(b'{') => invalid(Unexpected::Map),
            Some(_) => super::stop::stop_with("expected value"),
            None => super::stop::stop_with("EOF while parsing a value"),
        }
    }
}

macro_rules! numbers {
    ($($method:ident)*) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
                self.visit_number(visitor)
            }
        )*
    };
}

impl super::stop::ReadsThrough for &mut Reader<'_> {
    fn left_to_serde_json(&self) {
        #[cfg(not(feature = "std"))]
        self.stop_path.left_to_serde_json();
    }
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Stop;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.peek_value() {
            Some(b'"') => self.visit_str(visitor),
            Some(b'{') => self.visit_object(visitor),
            Some(b'[') => self.visit_array(visitor),
            Some(b'-' | b'0'..=b'9') => self.read_number()?.visit(visitor),
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            Some(b't' | b'f') => self.deserialize_bool(visitor),
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.peek_value() {
            Some(b't') => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f64
    }

    // serde_json reads an `f32` straight from the text (one rounding, not two) and 128-bit
    // integers from the digits; no MCP type has either. Left to serde_json.
    super::stop::stop! { deserialize_f32 deserialize_i128 deserialize_u128 }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.peek_value() {
            Some(b'"') => self.visit_str(visitor),
            _ => Err(self.mismatch(&visitor)),
        }
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        self.deserialize_str(visitor)
    }

    // serde_json gives byte strings their raw bytes (lone surrogates allowed); left to it.
    super::stop::stop! { deserialize_bytes deserialize_byte_buf }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.peek_value() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_none()
            }
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.peek_value() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        self.deserialize_unit(visitor)
    }

    /// serde_json's `RawValue` asks for a newtype struct of a reserved name: its text is
    /// skipped and handed over as it is.
    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        if name == RAW_VALUE_TOKEN {
            self.peek_value();
            let start = self.index;
            self.skip_value()?;
            let raw = self.text_since(start)?;
            return visitor.visit_map(RawValueAccess::new(raw));
        }
        visitor.visit_newtype_struct(self)
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.peek_value() {
            Some(b'[') => self.visit_array(visitor),
            _ => Err(self.mismatch(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Stop> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        match self.peek_value() {
            Some(b'{') => self.visit_object(visitor),
            _ => Err(self.mismatch(&visitor)),
        }
    }

    /// An object, or (as serde_json allows) an array of the fields in order.
    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        match self.peek_value() {
            Some(b'{') => self.visit_object(visitor),
            Some(b'[') => self.visit_array(visitor),
            _ => Err(self.mismatch(&visitor)),
        }
    }

    /// `"Variant"`, or `{"Variant": content}`.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        match self.peek_value() {
            Some(b'{') => self.nested(b'}', |reader| visitor.visit_enum(EnumObject::new(reader))),
            Some(b'"') => visitor.visit_enum(UnitVariant::new(self)),
            // serde_json: "expected value" at any other token, JSON or not.
            Some(_) => Err(super::stop::stop_with("expected value")),
            None => Err(super::stop::stop_with("EOF while parsing a value")),
        }
    }

    #[inline]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        self.skip_value()?;
        visitor.visit_unit()
    }
}
