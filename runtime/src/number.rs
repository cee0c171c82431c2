//! What a number member's setter takes: any integer or float, kept exact.
//!
//! The schema's `number` members are `serde_json::Number`, so that an integer read stays an
//! integer when written back. `Into<Number>` covers only the integers; a setter such as
//! `Annotations::with_priority(0.5)` takes an [`IntoNumber`], which covers floats as well.

use crate::prelude::*;
use serde_json::Number;

/// A value a `number` member can be set from: every integer type, `f32`, `f64`, and
/// `Number` itself.
///
/// A float with no JSON form (NaN or an infinity) gives `None`, and the setter leaves the
/// member unset: JSON can write no such number, and an absent member is the schema's way of
/// saying "not given".
pub trait IntoNumber {
    /// The JSON number, or `None` for a float JSON cannot write.
    fn into_number(self) -> Option<Number>;
}

impl IntoNumber for Number {
    fn into_number(self) -> Option<Number> {
        Some(self)
    }
}

macro_rules! exact {
    ($($ty:ty),*) => {$(
        impl IntoNumber for $ty {
            fn into_number(self) -> Option<Number> {
                Some(Number::from(self))
            }
        }
    )*};
}
exact!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl IntoNumber for f64 {
    fn into_number(self) -> Option<Number> {
        Number::from_f64(self)
    }
}

impl IntoNumber for f32 {
    fn into_number(self) -> Option<Number> {
        // Through the shortest decimal that reads back as this `f32` (0.1f32 is 0.1, not
        // 0.10000000149011612): what a person who wrote the literal meant.
        self.to_string()
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
    }
}
