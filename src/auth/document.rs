//! How the OAuth documents are read and written: member by member, so that an error names
//! the member, never echoes its value (a token or secret must not reach a log through an
//! error), and unknown members are kept in order and written back.

use super::AuthError;
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

/// Reads a document's JSON text into its members.
pub(crate) fn object(text: &str, document: &'static str) -> Result<Map<String, Value>, AuthError> {
    let value: Value = serde_json::from_str(text).map_err(|e| AuthError::InvalidDocument {
        document,
        // serde_json's syntax errors name a position, never the text around it.
        reason: e.to_string(),
    })?;
    match value {
        Value::Object(map) => Ok(map),
        other => Err(AuthError::InvalidDocument {
            document,
            reason: format!("expected an object, found {}", kind(&other)),
        }),
    }
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
            pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
        }

        impl $name {
            /// Reads the document from its JSON text. Errors name the member at fault and
            /// never contain a member's value.
            pub fn from_json(text: &str) -> ::std::result::Result<Self, $crate::auth::AuthError> {
                Self::from_map($crate::auth::document::object(text, $label)?)
            }

            /// Reads the document from its members (the ones it does not declare go to
            /// `extra`).
            pub(crate) fn from_map(
                mut map: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
            ) -> ::std::result::Result<Self, $crate::auth::AuthError> {
                $(
                    let $field = $crate::auth::document::document!(@take $presence map, $label, $field);
                )*
                Ok($name { $($field,)* extra: map })
            }

            /// Appends the members, declared ones first, in declaration order.
            pub(crate) fn write_members(&self, writer: &mut $crate::auth::document::Writer) {
                $(
                    $crate::auth::document::document!(@put $presence writer, $field, &self.$field);
                )*
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                let mut writer = $crate::auth::document::Writer::new();
                self.write_members(&mut writer);
                $crate::auth::document::serialize(&writer, &self.extra, serializer)
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let map = <::serde_json::Map<::std::string::String, ::serde_json::Value> as ::serde::Deserialize>::deserialize(deserializer)?;
                Self::from_map(map).map_err(<D::Error as ::serde::de::Error>::custom)
            }
        }
    };
    (@type required $ty:ty) => { $ty };
    (@type optional $ty:ty) => { ::std::option::Option<$ty> };
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

/// Writes the declared members, then `extra`, as one JSON object.
pub(crate) fn serialize<S: serde::Serializer>(
    writer: &Writer,
    extra: &Map<String, Value>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = serializer.serialize_map(Some(writer.members.len() + extra.len()))?;
    for (member, value) in &writer.members {
        map.serialize_entry(member, value)?;
    }
    for (member, value) in extra {
        map.serialize_entry(member, value)?;
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
            Other(::std::string::String),
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

        impl ::std::convert::From<&str> for $name {
            fn from(text: &str) -> Self {
                match text {
                    $($text => $name::$variant,)*
                    other => $name::Other(other.into()),
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl $crate::auth::document::Member for $name {
            const EXPECTED: &'static str = "a string";
            fn read(value: ::serde_json::Value) -> ::std::option::Option<Self> {
                value.as_str().map($name::from)
            }
            fn write(&self) -> ::serde_json::Value {
                ::serde_json::Value::String(self.as_str().into())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let text = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(deserializer)?;
                Ok($name::from(&*text))
            }
        }
    };
}
pub(crate) use vocabulary;
