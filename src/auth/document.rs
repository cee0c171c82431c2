//! How the OAuth documents are read and written: member by member, so that an error names
//! the member, never echoes its value (a token or secret must not reach a log through an
//! error), and unknown members are kept in order and written back.

use super::AuthError;
use crate::prelude::*;
use serde_json::{Map, Value};

/// A value an OAuth document's member can hold.
pub(crate) trait Member: Sized {
    /// What the member must be, for the error ("a string").
    const EXPECTED: &'static str;
    /// The value, or `None` when it has another JSON type.
    fn read(value: Value) -> Option<Self>;
    /// The value as JSON.
    fn write(&self) -> Value;
}

impl Member for String {
    const EXPECTED: &'static str = "a string";
    fn read(value: Value) -> Option<Self> {
        match value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    fn write(&self) -> Value {
        Value::String(self.clone())
    }
}

impl Member for bool {
    const EXPECTED: &'static str = "a boolean";
    fn read(value: Value) -> Option<Self> {
        value.as_bool()
    }
    fn write(&self) -> Value {
        Value::Bool(*self)
    }
}

impl Member for u64 {
    const EXPECTED: &'static str = "a non-negative integer";
    fn read(value: Value) -> Option<Self> {
        value.as_u64()
    }
    fn write(&self) -> Value {
        Value::from(*self)
    }
}

impl Member for Vec<String> {
    const EXPECTED: &'static str = "an array of strings";
    fn read(value: Value) -> Option<Self> {
        match value {
            Value::Array(items) => items.into_iter().map(String::read).collect(),
            _ => None,
        }
    }
    fn write(&self) -> Value {
        Value::Array(self.iter().map(String::write).collect())
    }
}

impl Member for Map<String, Value> {
    const EXPECTED: &'static str = "an object";
    fn read(value: Value) -> Option<Self> {
        match value {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }
    fn write(&self) -> Value {
        Value::Object(self.clone())
    }
}

/// The JSON type of a value, for an error that must not show the value itself.
pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_u64() => "a non-negative integer",
        Value::Number(n) if n.is_i64() => "a negative integer",
        Value::Number(_) => "a fractional number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Takes `member` out of `map`. A `null` stays in `map` (kept in the document's `extra` and
/// written back) and reads as absent: several servers write `null` for "not offered".
pub(crate) fn take<T: Member>(
    map: &mut Map<String, Value>,
    document: &'static str,
    member: &'static str,
) -> Result<Option<T>, AuthError> {
    match map.get(member) {
        None | Some(Value::Null) => return Ok(None),
        Some(_) => {}
    }
    let Some(value) = map.remove(member) else {
        return Ok(None);
    };
    let found = kind(&value);
    T::read(value).map(Some).ok_or(AuthError::InvalidMember {
        document,
        member,
        expected: T::EXPECTED,
        found,
    })
}

/// [`take`] for a member the document must have.
pub(crate) fn take_required<T: Member>(
    map: &mut Map<String, Value>,
    document: &'static str,
    member: &'static str,
) -> Result<T, AuthError> {
    if map.get(member) == Some(&Value::Null) {
        return Err(AuthError::InvalidMember {
            document,
            member,
            expected: T::EXPECTED,
            found: "null",
        });
    }
    take(map, document, member)?.ok_or(AuthError::MissingMember { document, member })
}

/// The order a document's members were read in, so that it is written back in that order.
///
/// Order carries no meaning in a JSON object (RFC 8259 §4), so any two orders compare equal:
/// documents that differ only in order are equal. A document built in code has an empty
/// order and is written in declaration order; members added to a read document are written
/// after the ones it was read with.
#[derive(Debug, Clone, Default)]
pub struct MemberOrder(Vec<String>);

impl PartialEq for MemberOrder {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// A JSON object's members in the order of the text (serde_json's `Map` keeps them sorted),
/// with a repeated member refused: two readers that keep different duplicates would see
/// different documents.
pub(crate) struct Members {
    pub(crate) map: Map<String, Value>,
    pub(crate) order: MemberOrder,
}

impl<'de> serde::Deserialize<'de> for Members {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Members;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a JSON object")
            }
            // serde's own messages would quote the value, which may be a secret.
            fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Members, E> {
                Err(E::custom("expected an object, found a string"))
            }
            fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Members, E> {
                Err(E::custom("expected an object, found a boolean"))
            }
            fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Members, E> {
                Err(E::custom("expected an object, found a number"))
            }
            fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Members, E> {
                Err(E::custom("expected an object, found a number"))
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Members, E> {
                Err(E::custom("expected an object, found a number"))
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Members, E> {
                Err(E::custom("expected an object, found null"))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<Members, A::Error> {
                Err(serde::de::Error::custom(
                    "expected an object, found an array",
                ))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut access: A,
            ) -> Result<Members, A::Error> {
                let mut map = Map::new();
                let mut order = Vec::new();
                while let Some(name) = access.next_key::<String>()? {
                    let value: Value = access.next_value()?;
                    if map.contains_key(&name) {
                        return Err(serde::de::Error::custom(format_args!(
                            "member `{name}` appears twice"
                        )));
                    }
                    order.push(name.clone());
                    map.insert(name, value);
                }
                Ok(Members {
                    map,
                    order: MemberOrder(order),
                })
            }
        }
        // `any`, not `map`: serde_json answers `map` on a string with a message quoting it.
        deserializer.deserialize_any(Visitor)
    }
}

/// Reads a document's JSON text into its members.
pub(crate) fn object(text: &str, document: &'static str) -> Result<Members, AuthError> {
    crate::json::from_str(text).map_err(|e| AuthError::InvalidDocument {
        document,
        // Syntax errors name a position, never the text around it; type errors are the
        // visitor's own, which never quote a value.
        reason: e.to_string(),
    })
}

/// A document as an ordered list of members, for `Serialize`.
pub(crate) struct Writer {
    pub(crate) members: Vec<(&'static str, Value)>,
}

impl Writer {
    pub(crate) fn new() -> Self {
        Writer {
            members: Vec::new(),
        }
    }
    pub(crate) fn put<T: Member>(&mut self, member: &'static str, value: &Option<T>) {
        if let Some(value) = value {
            self.members.push((member, value.write()));
        }
    }
    pub(crate) fn put_required<T: Member>(&mut self, member: &'static str, value: &T) {
        self.members.push((member, value.write()));
    }
}

/// Defines an OAuth document: a struct with one field per member (named as the member, in the
/// order the RFC lists them), `extra` for the rest, `from_map`/`write_members`, and the
/// serde impls on top of them. `Debug` is the caller's: a document holding a secret writes
/// its own.
macro_rules! document {
    (
        $(#[$meta:meta])*
        pub struct $name:ident ($label:literal) {
            $(
                $(#[$field_meta:meta])*
                $presence:ident $field:ident : $ty:ty,
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, PartialEq, Default)]
        pub struct $name {
            $(
                $(#[$field_meta])*
                pub $field: $crate::auth::document::document!(@type $presence $ty),
            )*
            /// Members this type does not declare (extensions, language-tagged variants such
            /// as `client_name#ja-Jpan-JP`, `null` members), kept and written back.
            pub extra: ::serde_json::Map<::alloc::string::String, ::serde_json::Value>,
            /// The order the members were read in, kept for writing back.
            pub order: $crate::auth::MemberOrder,
        }

        impl $name {
            /// Reads the document from its JSON text. Errors name the member at fault and
            /// never contain a member's value.
            pub fn from_json(text: &str) -> ::core::result::Result<Self, $crate::auth::AuthError> {
                Self::from_map($crate::auth::document::object(text, $label)?)
            }

            /// Reads the document from its members (the ones it does not declare go to
            /// `extra`).
            pub(crate) fn from_map(
                members: $crate::auth::document::Members,
            ) -> ::core::result::Result<Self, $crate::auth::AuthError> {
                let $crate::auth::document::Members { mut map, order } = members;
                $(
                    let $field = $crate::auth::document::document!(@take $presence map, $label, $field);
                )*
                Ok($name { $($field,)* extra: map, order })
            }

            /// Appends the members, declared ones first, in declaration order.
            pub(crate) fn write_members(&self, writer: &mut $crate::auth::document::Writer) {
                $(
                    $crate::auth::document::document!(@put $presence writer, $field, &self.$field);
                )*
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                let mut writer = $crate::auth::document::Writer::new();
                self.write_members(&mut writer);
                $crate::auth::document::serialize(&writer, &self.extra, &self.order, serializer)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let members = <$crate::auth::document::Members as ::serde::Deserialize>::deserialize(deserializer)?;
                Self::from_map(members).map_err(<D::Error as ::serde::de::Error>::custom)
            }
        }
    };
    (@type required $ty:ty) => { $ty };
    (@type optional $ty:ty) => { ::core::option::Option<$ty> };
    (@take required $map:ident, $label:literal, $field:ident) => {
        $crate::auth::document::take_required(&mut $map, $label, stringify!($field))?
    };
    (@take optional $map:ident, $label:literal, $field:ident) => {
        $crate::auth::document::take(&mut $map, $label, stringify!($field))?
    };
    (@put required $writer:ident, $field:ident, $value:expr) => {
        $writer.put_required(stringify!($field), $value)
    };
    (@put optional $writer:ident, $field:ident, $value:expr) => {
        $writer.put(stringify!($field), $value)
    };
}
pub(crate) use document;

/// Writes the declared members and `extra` as one JSON object: in `order` first, then the
/// declared members `order` does not name, then the rest of `extra`. An `extra` member that
/// has a declared member's name is left out (the declared field wins).
pub(crate) fn serialize<S: serde::Serializer>(
    writer: &Writer,
    extra: &Map<String, Value>,
    order: &MemberOrder,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let declared = |name: &str| writer.members.iter().position(|(n, _)| *n == name);
    let mut written = vec![false; writer.members.len()];
    let mut map = serializer.serialize_map(None)?;
    for name in &order.0 {
        if let Some(i) = declared(name) {
            if !written[i] {
                written[i] = true;
                map.serialize_entry(name, &writer.members[i].1)?;
            }
        } else if let Some(value) = extra.get(name) {
            map.serialize_entry(name, value)?;
        }
    }
    for ((name, value), written) in writer.members.iter().zip(written) {
        if !written {
            map.serialize_entry(name, value)?;
        }
    }
    for (name, value) in extra {
        if !order.0.contains(name) && declared(name).is_none() {
            map.serialize_entry(name, value)?;
        }
    }
    map.end()
}

/// Defines a string vocabulary (an OAuth error code): known values as variants, any other
/// string as `Other`, each written back as read.
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident = $text:literal,
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $(
                $(#[$variant_meta])*
                $variant,
            )*
            /// A value the RFCs this type follows do not define, kept as sent.
            Other(::alloc::string::String),
        }

        impl $name {
            /// The value as written in the document.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)*
                    $name::Other(other) => other,
                }
            }
        }

        impl ::core::convert::From<&str> for $name {
            fn from(text: &str) -> Self {
                match text {
                    $($text => $name::$variant,)*
                    other => $name::Other(other.into()),
                }
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl $crate::auth::document::Member for $name {
            const EXPECTED: &'static str = "a string";
            fn read(value: ::serde_json::Value) -> ::core::option::Option<Self> {
                value.as_str().map($name::from)
            }
            fn write(&self) -> ::serde_json::Value {
                ::serde_json::Value::String(self.as_str().into())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let text = <::alloc::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(deserializer)?;
                Ok($name::from(&*text))
            }
        }
    };
}
pub(crate) use vocabulary;
