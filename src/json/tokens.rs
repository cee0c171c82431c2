//! serde_json's private struct names, the one place the reader and the writer learn them.
//!
//! serde_json writes and reads a `RawValue` (and a `Number` under its `arbitrary_precision`
//! feature) as a struct whose name is a token only serde_json's own serializer and deserializer
//! know. This crate's reader and writer must treat the same names the same way, so they are
//! copied here, and the tests below ask serde_json's types which names they use: a release of
//! serde_json that changes them fails those tests instead of silently writing a raw value as
//! an object.

use serde::ser::{self, Serialize};

/// The struct name (and field name) `serde_json::value::RawValue` serializes as, and the
/// newtype struct name it deserializes from.
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The struct name (and field name) `serde_json::Number` serializes as when serde_json's
/// `arbitrary_precision` feature is on (this crate does not turn it on, but another crate in the
/// same build may).
pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Whether the serde_json being linked has `arbitrary_precision`: then it writes the string
/// under [`NUMBER_TOKEN`] as a bare number, and so must this writer; and it reads numbers into
/// that struct, which the crate's reader leaves to serde_json. Asked of serde_json itself, once,
/// the first time it matters.
pub(crate) fn arbitrary_precision() -> bool {
    // 0: not asked yet; 1: off; 2: on. Only loads and stores, which every target with
    // 8-bit atomics has: two threads asking at once both ask serde_json, and agree.
    static ON: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);
    use core::sync::atomic::Ordering::Relaxed;
    match ON.load(Relaxed) {
        1 => return false,
        2 => return true,
        _ => {}
    }
    let on = {
        struct Probe;
        impl Serialize for Probe {
            fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use ser::SerializeStruct;
                let mut fields = serializer.serialize_struct(NUMBER_TOKEN, 1)?;
                fields.serialize_field(NUMBER_TOKEN, "1")?;
                fields.end()
            }
        }
        matches!(serde_json::to_vec(&Probe).as_deref(), Ok(b"1"))
    };
    ON.store(if on { 2 } else { 1 }, Relaxed);
    on
}

#[cfg(test)]
mod tests {
    use super::{arbitrary_precision, NUMBER_TOKEN, RAW_VALUE_TOKEN};
    use crate::prelude::*;
    use core::fmt;
    use serde::de::{self, Deserialize};
    use serde::ser::{self, Serialize};

    /// What a probe saw: the struct name a value serialized as, or what it did instead.
    #[derive(Debug, PartialEq)]
    enum Seen {
        Struct(String),
        Other(String),
    }

    impl fmt::Display for Seen {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "{self:?}")
        }
    }

    impl core::error::Error for Seen {}

    impl ser::Error for Seen {
        fn custom<T: fmt::Display>(msg: T) -> Self {
            Seen::Other(msg.to_string())
        }
    }

    impl de::Error for Seen {
        fn custom<T: fmt::Display>(msg: T) -> Self {
            Seen::Other(msg.to_string())
        }
    }

    /// A serializer that stops at the first call, reporting a struct's name.
    struct SerializeProbe;

    macro_rules! other {
        ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
            $(fn $method(self, $(_: $arg),*) -> Result<$ok, Seen> {
                Err(Seen::Other(stringify!($method).into()))
            })*
        };
    }

    type Stop = ser::Impossible<(), Seen>;

    impl ser::Serializer for SerializeProbe {
        type Ok = ();
        type Error = Seen;
        type SerializeSeq = Stop;
        type SerializeTuple = Stop;
        type SerializeTupleStruct = Stop;
        type SerializeTupleVariant = Stop;
        type SerializeMap = Stop;
        type SerializeStruct = Stop;
        type SerializeStructVariant = Stop;

        fn serialize_struct(self, name: &'static str, _: usize) -> Result<Stop, Seen> {
            Err(Seen::Struct(name.into()))
        }

        fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), Seen> {
            Err(Seen::Other("serialize_some".into()))
        }

        fn serialize_newtype_struct<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: &T,
        ) -> Result<(), Seen> {
            Err(Seen::Other("serialize_newtype_struct".into()))
        }

        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Seen> {
            Err(Seen::Other("serialize_newtype_variant".into()))
        }

        other! {
            serialize_bool(bool) -> ();
            serialize_i8(i8) -> ();
            serialize_i16(i16) -> ();
            serialize_i32(i32) -> ();
            serialize_i64(i64) -> ();
            serialize_u8(u8) -> ();
            serialize_u16(u16) -> ();
            serialize_u32(u32) -> ();
            serialize_u64(u64) -> ();
            serialize_f32(f32) -> ();
            serialize_f64(f64) -> ();
            serialize_char(char) -> ();
            serialize_str(&str) -> ();
            serialize_bytes(&[u8]) -> ();
            serialize_none() -> ();
            serialize_unit() -> ();
            serialize_unit_struct(&'static str) -> ();
            serialize_unit_variant(&'static str, u32, &'static str) -> ();
            serialize_seq(Option<usize>) -> Stop;
            serialize_tuple(usize) -> Stop;
            serialize_tuple_struct(&'static str, usize) -> Stop;
            serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Stop;
            serialize_map(Option<usize>) -> Stop;
            serialize_struct_variant(&'static str, u32, &'static str, usize) -> Stop;
        }
    }

    /// A deserializer that stops at the first request, reporting a newtype struct's name.
    struct DeserializeProbe;

    impl<'de> de::Deserializer<'de> for DeserializeProbe {
        type Error = Seen;

        fn deserialize_any<V: de::Visitor<'de>>(self, _: V) -> Result<V::Value, Seen> {
            Err(Seen::Other("deserialize_any".into()))
        }

        fn deserialize_newtype_struct<V: de::Visitor<'de>>(
            self,
            name: &'static str,
            _: V,
        ) -> Result<V::Value, Seen> {
            Err(Seen::Struct(name.into()))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
        }
    }

    #[test]
    fn raw_value_token_is_serde_jsons() {
        let raw = serde_json::value::RawValue::from_string("[1]".into()).unwrap();
        assert_eq!(
            raw.serialize(SerializeProbe),
            Err(Seen::Struct(RAW_VALUE_TOKEN.into())),
            "serde_json's RawValue no longer serializes as the struct the writer knows"
        );
        assert_eq!(
            Box::<serde_json::value::RawValue>::deserialize(DeserializeProbe).map(drop),
            Err(Seen::Struct(RAW_VALUE_TOKEN.into())),
            "serde_json's RawValue no longer deserializes from the newtype the reader knows"
        );
    }

    #[test]
    fn number_token_is_serde_jsons_when_it_is_used() {
        // Without `arbitrary_precision` a Number is a plain number and no token is in play on
        // either side; with it, the struct serde_json writes must be the one the writer knows.
        match serde_json::Number::from(1u8).serialize(SerializeProbe) {
            Err(Seen::Struct(name)) => {
                assert_eq!(name, NUMBER_TOKEN, "serde_json's Number token changed");
                assert!(arbitrary_precision());
            }
            Err(Seen::Other(method)) => {
                assert_eq!(method, "serialize_u64");
                assert!(!arbitrary_precision());
            }
            Ok(()) => panic!("the probe serializer never succeeds"),
        }
    }
}
