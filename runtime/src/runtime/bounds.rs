//! The numeric and count bounds the schema puts on a member (`minimum`, `maxLength`,
//! `maxItems`, ...), checked on the Rust value inside the member's own read.

use super::members::{read_seeded, ArraySeed};
use crate::prelude::*;
use core::fmt;
use core::marker::PhantomData;
use serde::de::{self, DeserializeSeed, MapAccess};

/// The bounds the schema puts on a member (`minimum`, `maxItems`, ...); generated code checks
/// each bounded member right after reading it.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusiveMinimum` (JSON Schema 2020-12: a number).
    pub exclusive_minimum: Option<f64>,
    /// `exclusiveMaximum` (JSON Schema 2020-12: a number).
    pub exclusive_maximum: Option<f64>,
    /// `minLength`, in characters.
    pub min_length: Option<u64>,
    /// `maxLength`, in characters.
    pub max_length: Option<u64>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
}

/// A value the bound keywords apply to. As in JSON Schema, each keyword applies to one kind
/// of value only (`minimum` to numbers, `maxItems` to arrays, ...).
pub trait Bounded {
    /// What is out of bounds, in words; `None` when the value keeps every bound.
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String>;
}

/// Whether `value` keeps every numeric bound: inline, so that the bounds a generated type
/// passes (constants) fold into the comparisons they need; the words come only on failure.
#[inline(always)]
fn number_within(value: f64, b: &Bounds) -> bool {
    !(b.minimum.is_some_and(|min| value < min)
        || b.maximum.is_some_and(|max| value > max)
        || b.exclusive_minimum.is_some_and(|min| value <= min)
        || b.exclusive_maximum.is_some_and(|max| value >= max))
}

#[cold]
fn number_out_of_bounds(value: f64, shown: &dyn fmt::Display, b: &Bounds) -> Option<String> {
    if let Some(min) = b.minimum.filter(|min| value < *min) {
        return Some(format!("{shown} is less than the minimum {min}"));
    }
    if let Some(max) = b.maximum.filter(|max| value > *max) {
        return Some(format!("{shown} is greater than the maximum {max}"));
    }
    if let Some(min) = b.exclusive_minimum.filter(|min| value <= *min) {
        return Some(format!(
            "{shown} is not greater than the exclusive minimum {min}"
        ));
    }
    if let Some(max) = b.exclusive_maximum.filter(|max| value >= *max) {
        return Some(format!(
            "{shown} is not less than the exclusive maximum {max}"
        ));
    }
    None
}

fn count_out_of_bounds(
    count: usize,
    what: &str,
    min: Option<u64>,
    max: Option<u64>,
) -> Option<String> {
    let count = u64::try_from(count).unwrap_or(u64::MAX);
    if let Some(min) = min.filter(|min| count < *min) {
        return Some(format!("{count} {what}, fewer than the minimum {min}"));
    }
    if let Some(max) = max.filter(|max| count > *max) {
        return Some(format!("{count} {what}, more than the maximum {max}"));
    }
    None
}

impl Bounded for serde_json::Number {
    #[inline]
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String> {
        // Integers beyond 2^53 lose digits as f64, but every bound the schemas use is small:
        // the comparison is exact wherever it can be decided.
        let value = self.as_f64()?;
        if number_within(value, bounds) {
            return None;
        }
        number_out_of_bounds(value, self, bounds)
    }
}

impl Bounded for u64 {
    #[inline]
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String> {
        if number_within(*self as f64, bounds) {
            return None;
        }
        number_out_of_bounds(*self as f64, self, bounds)
    }
}

impl Bounded for i64 {
    #[inline]
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String> {
        if number_within(*self as f64, bounds) {
            return None;
        }
        number_out_of_bounds(*self as f64, self, bounds)
    }
}

impl Bounded for String {
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String> {
        count_out_of_bounds(
            self.chars().count(),
            "characters",
            bounds.min_length,
            bounds.max_length,
        )
    }
}

impl<T> Bounded for Vec<T> {
    fn out_of_bounds(&self, bounds: &Bounds) -> Option<String> {
        count_out_of_bounds(self.len(), "items", bounds.min_items, bounds.max_items)
    }
}

/// Reads a member and checks its bounds inside the member's own read, so that a failure is
/// placed at the member by the trail (and by any path-tracking deserializer).
struct BoundedSeed<'b, S> {
    inner: S,
    bounds: &'b Bounds,
}

impl<'de, S> DeserializeSeed<'de> for BoundedSeed<'_, S>
where
    S: DeserializeSeed<'de>,
    S::Value: Bounded,
{
    type Value = S::Value;
    #[inline]
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        let value = self.inner.deserialize(deserializer)?;
        match value.out_of_bounds(self.bounds) {
            None => Ok(value),
            Some(problem) => Err(de::Error::custom(problem)),
        }
    }
}

/// [`read_member`](super::read_member) for a member the schema bounds.
#[inline]
pub fn read_bounded_member<'de, A: MapAccess<'de>, T: de::Deserialize<'de> + Bounded>(
    slot: &mut Option<T>,
    map: &mut A,
    name: &'static str,
    bounds: &Bounds,
) -> Result<(), A::Error> {
    read_seeded(
        slot,
        map,
        name,
        BoundedSeed {
            inner: PhantomData,
            bounds,
        },
    )
}

/// [`read_array_member`](super::read_array_member) for an array member the schema bounds.
#[inline]
pub fn read_bounded_array_member<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    slot: &mut Option<Vec<T>>,
    map: &mut A,
    name: &'static str,
    bounds: &Bounds,
) -> Result<(), A::Error> {
    read_seeded(
        slot,
        map,
        name,
        BoundedSeed {
            inner: ArraySeed(PhantomData),
            bounds,
        },
    )
}
