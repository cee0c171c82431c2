//! Arm selection for the unions no discriminator tells apart: the value is read in full, then
//! the arm is chosen by the JSON kind and the members present, never by trial.

use super::consts::ConstValue;
use super::trail;
use crate::prelude::*;
use serde::de;
use serde_json::Value;

/// The JSON kind a union arm accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A string.
    String,
    /// An integer.
    Integer,
    /// Any number.
    Number,
    /// `true` or `false`.
    Bool,
    /// An array.
    Array,
    /// An object.
    Object,
    /// Any JSON value.
    Any,
    /// One of the shapes in `items` (a union nested in a union).
    Union,
}

/// What a union arm requires of a value, for selecting it without trying it.
pub struct ArmShape {
    /// The arm's type, for error messages.
    pub name: &'static str,
    /// The JSON kind it accepts.
    pub kind: Kind,
    /// For objects: the members it requires.
    pub required: &'static [&'static str],
    /// For objects: the constant members, with their values and whether they are required
    /// (an optional one must still have its value when present).
    pub consts: &'static [(&'static str, ConstValue, bool)],
    /// For objects: members whose string value must be one of a list, when present.
    pub enums: &'static [(&'static str, &'static [&'static str])],
    /// For objects: required members that must themselves fit a shape.
    pub members: &'static [(&'static str, &'static ArmShape)],
    /// For arrays: the shapes an item may have (empty: any item); for unions: the arms.
    pub items: &'static [ArmShape],
}

/// Picks the arm of a union for `value`: the kind must fit, and among objects the required
/// members and constants must be present; the arm that requires the most wins, the first on a
/// tie. Deterministic: no arm is tried and abandoned.
pub fn select_arm(union: &str, arms: &[ArmShape], value: &Value) -> Result<u8, String> {
    let mut best: Option<(usize, usize)> = None;
    for (index, arm) in arms.iter().enumerate() {
        let Some(score) = score(arm, value) else {
            continue;
        };
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((index, score));
        }
    }
    match best {
        Some((index, _)) => u8::try_from(index).map_err(|_| unreachable_arm(union)),
        None => {
            if let Some(member) = wrong_discriminator(arms, value) {
                trail::member(member);
            }
            Err(format!(
                "{} matches no arm of {union}; expected one of: {}",
                describe(value),
                arms.iter().map(describe_arm).collect::<Vec<_>>().join("; ")
            ))
        }
    }
}

/// The member that tells the arms apart (a constant every arm declares), when the value has it
/// with a value no arm accepts: that member is where the value is wrong.
fn wrong_discriminator(arms: &[ArmShape], value: &Value) -> Option<&'static str> {
    let object = value.as_object()?;
    let (member, _, _) = arms.first()?.consts.first()?;
    let found = object.get(*member)?;
    let mut constants = arms
        .iter()
        .map(|arm| arm.consts.iter().find(|(k, _, _)| k == member));
    constants
        .all(|c| c.is_some_and(|(_, c, _)| !c.matches(Some(found))))
        .then_some(*member)
}

/// How well `value` fits `arm`: `None` when it cannot be that arm, more for a closer fit.
fn score(arm: &ArmShape, value: &Value) -> Option<usize> {
    match (arm.kind, value) {
        (Kind::Any, _) => Some(0),
        (Kind::String, Value::String(_))
        | (Kind::Number, Value::Number(_))
        | (Kind::Bool, Value::Bool(_)) => Some(1),
        (Kind::Integer, Value::Number(n)) if n.is_i64() || n.is_u64() => Some(1),
        (Kind::Array, Value::Array(items)) => {
            if arm.items.is_empty() {
                return Some(1);
            }
            let fits = items
                .iter()
                .all(|item| arm.items.iter().any(|shape| score(shape, item).is_some()));
            fits.then_some(2)
        }
        (Kind::Union, _) => arm
            .items
            .iter()
            .filter_map(|shape| score(shape, value))
            .max(),
        (Kind::Object, Value::Object(object)) => {
            let consts_fit = arm
                .consts
                .iter()
                .all(|(k, c, required)| match object.get(*k) {
                    Some(found) => c.matches(Some(found)),
                    None => !*required,
                });
            let required_present = arm.required.iter().all(|k| object.contains_key(*k));
            let enums_fit = arm.enums.iter().all(|(k, values)| match object.get(*k) {
                Some(Value::String(found)) => values.contains(&found.as_str()),
                Some(_) => false,
                None => true,
            });
            if !(consts_fit && required_present && enums_fit) {
                return None;
            }
            let mut total = 1 + arm.required.len();
            for (k, shape) in arm.members {
                if let Some(member) = object.get(*k) {
                    total += score(shape, member)?;
                }
            }
            Some(total)
        }
        _ => None,
    }
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "the object",
    }
}

fn describe_arm(arm: &ArmShape) -> String {
    let mut text = format!("{} ({:?}", arm.name, arm.kind).to_lowercase();
    text = format!("{}{}", arm.name, &text[arm.name.len()..]);
    for (k, c, _) in arm.consts {
        text.push_str(&format!(", `{k}`: {c}"));
    }
    if !arm.required.is_empty() {
        text.push_str(&format!(", requires {:?}", arm.required));
    }
    text.push(')');
    text
}

/// Deserializes an arm from a value read in full; the path of a failure is in the [`trail`].
pub fn from_buffered<T: de::DeserializeOwned>(value: Value) -> Result<T, String> {
    let _scope = trail::enter();
    T::deserialize(value).map_err(|e| e.to_string())
}

/// The message for an arm index the generated table does not have (a generator bug).
pub fn unreachable_arm(union: &str) -> String {
    format!("internal error: arm selection for {union} is out of range")
}
