//! The members the schema fixes with `const`: written from the type, checked when read (any
//! other value, and a second occurrence, are errors), and never Rust fields when required.

use super::trail;
use crate::prelude::*;
use core::fmt;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde_json::Value;

/// A value the schema fixes with `const`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstValue {
    /// A string constant, such as `"2.0"` or `"resources/list"`.
    Str(&'static str),
    /// An integer constant, such as an error code.
    Int(i64),
}

impl ConstValue {
    pub(super) fn matches(&self, value: Option<&Value>) -> bool {
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
