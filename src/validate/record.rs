//! Session records: a line `{"dir": "c2s" | "s2c", "msg": <message>}`, or a bare message.

use super::Side;
use crate::__private::CowStr;
use crate::error::{MessageError, MessageErrorKind};
use crate::prelude::*;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

/// Splits a session record into its sender and message text; a bare message has no sender.
///
/// The precise reading of a line's framing, for a line whose shape
/// ([`shape::guess`](super::shape::guess)) was not recognized or did not read: the record's
/// members are read in full, so its error is the JSON reader's own.
pub(super) fn unwrap_record(line: &str) -> Result<(Option<Side>, &str), MessageError> {
    let trimmed = line.trim_start();
    if !trimmed.starts_with('{') {
        // Not an object: a batch, or not a message at all (parsing will say which). Check that
        // it is JSON first, so the error reads as such.
        crate::json::from_str::<&RawValue>(line).map_err(json_error)?;
        return Ok((None, line));
    }
    let members: RecordMembers<'_> = crate::json::from_str(line).map_err(json_error)?;
    let Some(msg) = members.msg.filter(|_| !members.jsonrpc) else {
        return Ok((None, line));
    };
    let record_error = |message: String, path: &str| {
        MessageError::new(MessageErrorKind::Envelope, message).with_path(path)
    };
    let sender = match members.dir {
        None => None,
        Some(dir) => {
            // Read as a value only for its error's sake: `found` shows it as JSON.
            let dir: Value = crate::json::from_str(dir.get()).unwrap_or(Value::Null);
            match dir.as_str().and_then(Side::from_dir) {
                Some(side) => Some(side),
                None => {
                    return Err(record_error(
                        format!("`dir` must be \"c2s\" or \"s2c\", found {dir}"),
                        "dir",
                    ))
                }
            }
        }
    };
    Ok((sender, msg.get()))
}

pub(super) fn json_error(error: serde_json::Error) -> MessageError {
    let kind = if error.is_data() {
        MessageErrorKind::Envelope
    } else {
        MessageErrorKind::Json
    };
    MessageError::new(kind, error.to_string())
}

/// The members of an object line that decide whether it is a record: whether it has
/// `jsonrpc` (then it is a bare message), and the text of `msg` and `dir`. The other members
/// are checked to be JSON and skipped; nothing is copied. As in a JSON object read into a map,
/// a repeated member counts once, with its last value.
#[derive(Default)]
struct RecordMembers<'a> {
    jsonrpc: bool,
    msg: Option<&'a RawValue>,
    dir: Option<&'a RawValue>,
}

impl<'de: 'a, 'a> Deserialize<'de> for RecordMembers<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MembersVisitor<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for MembersVisitor<'a> {
            type Value = RecordMembers<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let mut members = RecordMembers::default();
                // Names borrow from the input; an escaped one is unescaped (`"m\u0073g"` is
                // `msg`), as in a map.
                while let Some(name) = map.next_key_seed(CowStr)? {
                    match &*name {
                        "jsonrpc" => {
                            map.next_value::<IgnoredAny>()?;
                            members.jsonrpc = true;
                        }
                        "msg" => members.msg = Some(map.next_value()?),
                        "dir" => members.dir = Some(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(members)
            }
        }
        deserializer.deserialize_map(MembersVisitor(PhantomData))
    }
}
