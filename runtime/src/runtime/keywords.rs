//! The validation keywords beyond the numeric and count bounds (`pattern`, `multipleOf`,
//! `uniqueItems`, `minProperties`, `maxProperties`, a non-string `enum`, `dependentRequired`),
//! as JSON Schema 2020-12 defines them.
//!
//! No revision released so far uses them; a schema that does gets its checks emitted by the
//! build (`codegen/bounds.rs`). They run on the member's JSON value (the generated types write
//! back exactly what they read), so a type pays for them only when its schema asks.

use super::bounds::{Bounded, Bounds};
use super::lazy::Lazy;
use super::members::{read_seeded, ArraySeed, MapSeed};
use crate::prelude::*;
use alloc::collections::BTreeMap;
use core::marker::PhantomData;
use serde::de::{self, DeserializeSeed, MapAccess};
use serde::Serialize;
use serde_json::{Map, Number, Value};

/// A `pattern`, compiled on first use and then kept for the life of the program (compiled at
/// each use without `std`: see `Lazy`).
#[cfg(feature = "pattern")]
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    compiled: Lazy<Result<regex_lite::Regex, String>>,
}

#[cfg(feature = "pattern")]
impl Pattern {
    /// The pattern whose source the schema gives.
    pub const fn new(source: &'static str) -> Self {
        Pattern {
            source,
            compiled: Lazy::new(),
        }
    }

    /// Whether the pattern matches somewhere in `text` (JSON Schema patterns are not
    /// anchored).
    fn find(&self, text: &str) -> Result<bool, String> {
        self.compiled.with(
            || regex_lite::Regex::new(self.source).map_err(|e| e.to_string()),
            |compiled| match compiled {
                Ok(regex) => Ok(regex.is_match(text)),
                Err(e) => Err(format!(
                    "the schema's pattern {:?} does not compile: {e}",
                    self.source
                )),
            },
        )
    }
}

/// A JSON value the schema states (an `enum` list), parsed on first use.
#[derive(Debug)]
pub struct Literal {
    json: &'static str,
    parsed: Lazy<Option<Value>>,
}

impl Literal {
    /// The value whose JSON text the build wrote.
    pub const fn new(json: &'static str) -> Self {
        Literal {
            json,
            parsed: Lazy::new(),
        }
    }

    /// Runs `use_it` on the value, or says that the build wrote text that is not JSON.
    fn with_value<R>(&self, use_it: impl FnOnce(&Value) -> R) -> Result<R, String> {
        self.parsed
            .with(
                || crate::json::from_str(self.json).ok(),
                |parsed| parsed.as_ref().map(use_it),
            )
            .ok_or_else(|| format!("the schema's value {} is not JSON", self.json))
    }
}

/// The keywords the schema puts on one member, checked right after it is read.
#[derive(Debug)]
pub struct Keywords {
    /// The numeric and count bounds.
    pub bounds: Bounds,
    /// `multipleOf` (a number greater than 0).
    pub multiple_of: Option<f64>,
    /// `pattern`.
    #[cfg(feature = "pattern")]
    pub pattern: Option<Pattern>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `minProperties`.
    pub min_properties: Option<u64>,
    /// `maxProperties`.
    pub max_properties: Option<u64>,
    /// `enum`, when one of its values is not a string (a list of strings is a Rust enum).
    pub one_of_values: Option<Literal>,
    /// The keywords of an array's items (their own, or their definition's), checked on each.
    pub items: Option<&'static Keywords>,
}

impl Keywords {
    /// No keyword at all; generated code names the ones it sets and takes the rest from here.
    pub const NONE: Keywords = Keywords {
        bounds: Bounds {
            minimum: None,
            maximum: None,
            exclusive_minimum: None,
            exclusive_maximum: None,
            min_length: None,
            max_length: None,
            min_items: None,
            max_items: None,
        },
        multiple_of: None,
        #[cfg(feature = "pattern")]
        pattern: None,
        unique_items: false,
        min_properties: None,
        max_properties: None,
        one_of_values: None,
        items: None,
    };

    /// What the value breaks, in words; `None` when it keeps every keyword. Each keyword
    /// applies to its own kind of value only, as in JSON Schema.
    pub fn violation(&self, value: &Value) -> Option<String> {
        if let Some(problem) = self.own_violation(value) {
            return Some(problem);
        }
        let (Some(items), Value::Array(values)) = (self.items, value) else {
            return None;
        };
        values.iter().enumerate().find_map(|(index, item)| {
            items
                .violation(item)
                .map(|problem| format!("item {index}: {problem}"))
        })
    }

    /// What the value breaks of the keywords on itself (not on its items).
    fn own_violation(&self, value: &Value) -> Option<String> {
        let bounds = match value {
            Value::Number(n) => n.out_of_bounds(&self.bounds),
            Value::String(s) => s.out_of_bounds(&self.bounds),
            Value::Array(items) => items.out_of_bounds(&self.bounds),
            _ => None,
        };
        if bounds.is_some() {
            return bounds;
        }
        if let Some(values) = &self.one_of_values {
            let listed = values.with_value(|list| match list {
                Value::Array(list) => Some(list.iter().any(|v| json_equal(v, value))),
                _ => None,
            });
            match listed {
                Ok(Some(true)) => {}
                Ok(Some(false)) => return Some(format!("{value} is not one of {}", values.json)),
                Ok(None) => {
                    return Some(format!("the schema's enum {} is not a list", values.json))
                }
                Err(e) => return Some(e),
            }
        }
        match value {
            Value::Number(n) => {
                let multiple = self.multiple_of?;
                (!is_multiple_of(n, multiple))
                    .then(|| format!("{n} is not a multiple of {multiple}"))
            }
            #[cfg(feature = "pattern")]
            Value::String(s) => match self.pattern.as_ref()?.find(s) {
                Ok(true) => None,
                Ok(false) => Some(format!(
                    "{s:?} does not match the pattern {:?}",
                    self.pattern.as_ref()?.source
                )),
                Err(e) => Some(e),
            },
            Value::Array(items) if self.unique_items => {
                let repeated = items.iter().enumerate().find_map(|(i, item)| {
                    items[..i]
                        .iter()
                        .position(|earlier| json_equal(earlier, item))
                        .map(|j| (j, i))
                });
                repeated.map(|(j, i)| format!("items {j} and {i} are equal"))
            }
            Value::Object(members) => {
                count_members(members, self.min_properties, self.max_properties)
            }
            _ => None,
        }
    }
}

/// The keywords the schema puts on an object itself, checked once the object is read.
#[derive(Debug)]
pub struct ObjectKeywords {
    /// `minProperties`.
    pub min_properties: Option<u64>,
    /// `maxProperties`.
    pub max_properties: Option<u64>,
    /// `dependentRequired`: when the first member is present, every one of the others must be.
    pub dependent_required: &'static [(&'static str, &'static [&'static str])],
}

impl ObjectKeywords {
    /// What the object breaks, in words; `None` when it keeps every keyword.
    pub fn violation(&self, members: &Map<String, Value>) -> Option<String> {
        if let Some(problem) = count_members(members, self.min_properties, self.max_properties) {
            return Some(problem);
        }
        self.dependent_required
            .iter()
            .filter(|(present, _)| members.contains_key(*present))
            .find_map(|(present, needed)| {
                let missing: Vec<&str> = needed
                    .iter()
                    .copied()
                    .filter(|name| !members.contains_key(*name))
                    .collect();
                (!missing.is_empty())
                    .then(|| format!("`{present}` is present without {}", missing.join(", ")))
            })
    }
}

fn count_members(
    members: &Map<String, Value>,
    min: Option<u64>,
    max: Option<u64>,
) -> Option<String> {
    let count = u64::try_from(members.len()).unwrap_or(u64::MAX);
    if let Some(min) = min.filter(|min| count < *min) {
        return Some(format!("{count} members, fewer than the minimum {min}"));
    }
    if let Some(max) = max.filter(|max| count > *max) {
        return Some(format!("{count} members, more than the maximum {max}"));
    }
    None
}

/// JSON equality as JSON Schema has it: numbers are equal when their values are (`1` and
/// `1.0`), objects regardless of member order.
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// Whether `value / multiple` is an integer, reading both as the decimals they print as (the
/// shortest text that reads back as the same double): `0.07` is a multiple of `0.01`, `0.075`
/// is not, although neither division is exact in binary.
pub fn is_multiple_of(value: &Number, multiple: f64) -> bool {
    // `% 1.0` is `fract()`, which `core` lacks.
    if multiple % 1.0 == 0.0 && multiple > 0.0 && multiple <= (1u64 << 53) as f64 {
        if let Some(v) = value.as_u64() {
            return v % (multiple as u64) == 0;
        }
        if let Some(v) = value.as_i64() {
            return v % (multiple as i64) == 0;
        }
    }
    let Some(v) = value.as_f64() else {
        return false;
    };
    if v == 0.0 {
        return true;
    }
    if v.abs() < multiple {
        return false;
    }
    match (decimal(v), decimal(multiple)) {
        (Some((vm, ve)), Some((mm, me))) if mm != 0 => {
            // v / m = (vm * 10^ve) / (mm * 10^me): scale both to the smaller exponent.
            let shared = ve.min(me);
            let scale = |mantissa: i128, exponent: i32| {
                let places = u32::try_from(exponent - shared).ok()?;
                mantissa.checked_mul(10_i128.checked_pow(places)?)
            };
            match (scale(vm, ve), scale(mm, me)) {
                (Some(a), Some(b)) => a % b == 0,
                _ => (v / multiple) % 1.0 == 0.0,
            }
        }
        _ => (v / multiple) % 1.0 == 0.0,
    }
}

/// `x` as `mantissa * 10^exponent`, from its shortest round-trip text.
fn decimal(x: f64) -> Option<(i128, i32)> {
    let text = format!("{x:e}");
    let (mantissa, exponent) = text.split_once('e')?;
    let exponent: i32 = exponent.parse().ok()?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: i128 = format!("{whole}{fraction}").parse().ok()?;
    let fraction_len = i32::try_from(fraction.len()).ok()?;
    Some((digits, exponent - fraction_len))
}

/// Reads a member and checks its keywords on the JSON value it writes back, inside the
/// member's own read, so that a failure is placed at the member.
struct CheckedSeed<'k, S> {
    inner: S,
    keywords: &'k Keywords,
}

impl<'de, S> DeserializeSeed<'de> for CheckedSeed<'_, S>
where
    S: DeserializeSeed<'de>,
    S::Value: Serialize,
{
    type Value = S::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        let value = self.inner.deserialize(deserializer)?;
        let json = serde_json::to_value(&value).map_err(de::Error::custom)?;
        match self.keywords.violation(&json) {
            None => Ok(value),
            Some(problem) => Err(de::Error::custom(problem)),
        }
    }
}

/// [`read_member`](super::read_member) for a member with keywords beyond the bounds.
pub fn read_checked_member<'de, A: MapAccess<'de>, T: de::Deserialize<'de> + Serialize>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
    keywords: &Keywords,
) -> Result<(), A::Error> {
    read_seeded(
        slot,
        map,
        name,
        CheckedSeed {
            inner: PhantomData,
            keywords,
        },
    )
}

/// [`read_array_member`](super::read_array_member) for a member with keywords beyond the
/// bounds.
pub fn read_checked_array_member<'de, A: MapAccess<'de>, T: de::Deserialize<'de> + Serialize>(
    slot: &mut Option<Vec<T>>,
    map: &mut A,
    name: &'static str,
    keywords: &Keywords,
) -> Result<(), A::Error> {
    read_seeded(
        slot,
        map,
        name,
        CheckedSeed {
            inner: ArraySeed(PhantomData),
            keywords,
        },
    )
}

/// [`read_map_member`](super::read_map_member) for a member with keywords beyond the bounds.
pub fn read_checked_map_member<'de, A: MapAccess<'de>, V: de::Deserialize<'de> + Serialize>(
    slot: &mut Option<BTreeMap<String, V>>,
    map: &mut A,
    name: &'static str,
    keywords: &Keywords,
) -> Result<(), A::Error> {
    read_seeded(
        slot,
        map,
        name,
        CheckedSeed {
            inner: MapSeed(PhantomData),
            keywords,
        },
    )
}

/// Checks an object's own keywords once it is read, on the JSON it writes back.
pub fn check_object<T: Serialize, E: de::Error>(
    value: &T,
    keywords: &ObjectKeywords,
) -> Result<(), E> {
    match serde_json::to_value(value).map_err(E::custom)? {
        Value::Object(members) => match keywords.violation(&members) {
            None => Ok(()),
            Some(problem) => Err(E::custom(problem)),
        },
        _ => Ok(()),
    }
}
