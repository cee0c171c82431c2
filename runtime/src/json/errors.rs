//! Errors: taken from serde_json itself, so that their code, category and text are the same.

use super::tokens::{NUMBER_TOKEN, RAW_VALUE_TOKEN};
use serde::ser::{self, Error as _, Serialize};
use serde_json::Error;

/// serde_json's `key must be a string`, for a map key JSON cannot write as a string.
pub(super) fn key_must_be_a_string() -> Error {
    struct UnitKey;
    impl Serialize for UnitKey {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeMap;
            let mut map = serializer.serialize_map(Some(1))?;
            map.serialize_entry(&(), &())?;
            map.end()
        }
    }
    match serde_json::to_vec(&UnitKey) {
        Err(error) => error,
        Ok(_) => Error::custom("key must be a string"),
    }
}

/// serde_json's `float key must be finite`, for a NaN or infinite map key.
pub(super) fn float_key_must_be_finite() -> Error {
    struct NanKey;
    impl Serialize for NanKey {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeMap;
            let mut map = serializer.serialize_map(Some(1))?;
            map.serialize_entry(&f64::NAN, &())?;
            map.end()
        }
    }
    match serde_json::to_vec(&NanKey) {
        Err(error) => error,
        Ok(_) => Error::custom("float key must be finite (got NaN or +/-inf)"),
    }
}

/// serde_json's error for a raw value struct with a field other than the raw value token.
pub(super) fn invalid_raw_value() -> Error {
    struct WrongField;
    impl Serialize for WrongField {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeStruct;
            let mut fields = serializer.serialize_struct(RAW_VALUE_TOKEN, 1)?;
            fields.serialize_field("", "null")?;
            fields.end()
        }
    }
    match serde_json::to_vec(&WrongField) {
        Err(error) => error,
        Ok(_) => Error::custom("expected value"),
    }
}

/// serde_json's error for a raw value token holding something other than a string.
pub(super) fn expected_raw_value() -> Error {
    Error::custom("expected RawValue")
}

/// serde_json's `invalid number`, for a number token struct (`arbitrary_precision`) with
/// another field or holding something other than a string.
pub(super) fn invalid_number() -> Error {
    struct WrongField;
    impl Serialize for WrongField {
        fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use ser::SerializeStruct;
            let mut fields = serializer.serialize_struct(NUMBER_TOKEN, 1)?;
            fields.serialize_field("", "1")?;
            fields.end()
        }
    }
    match serde_json::to_vec(&WrongField) {
        Err(error) => error,
        Ok(_) => Error::custom("invalid number"),
    }
}
