//! Annotations: hints for the client about who content is for (`audience`), how important it is
//! (`priority`, from 0.0 to 1.0) and when it last changed (`lastModified`, ISO 8601).
//!
//! The revisions spell them differently:
//!
//! | revision | type | members |
//! |---|---|---|
//! | 2024-11-05 | `Annotations` (the schema writes it out in each owner; the build makes it one type) | `audience`, `priority` |
//! | 2025-03-26 | `Annotations` | `audience`, `priority` |
//! | 2025-06-18 and later | `Annotations` | `audience`, `priority`, `lastModified` |
//!
//! Every one of these types gets the generated `new()`, `with_audience` and `with_priority`
//! (any integer or float), and the same checked API:
//!
//! * `try_with_priority(f64) -> Result<Self, AnnotationError>` rejects a priority outside
//!   0.0–1.0, NaN and the infinities (the generated `with_priority` takes any JSON number);
//! * `try_with_last_modified(text) -> Result<Self, AnnotationError>` (where the revision has
//!   `lastModified`) rejects text that is not an ISO 8601 date-time (see [`check_last_modified`]);
//! * `validate(&self) -> Result<(), AnnotationError>` reports a value built with the unchecked
//!   setters that is out of range.
//!
//! Reading checks what the schema bounds (`priority`, `minimum: 0, maximum: 1`) and rejects a
//! peer's out-of-range value with the path of the member; `lastModified` is a `format`, an
//! annotation in JSON Schema, so reading keeps any string and `validate` says what is wrong.
//!
//! ```
//! # #[cfg(feature = "v2025_06_18")] {
//! use mcp_spec_types::v2025_06_18::{Annotations, Role};
//! use mcp_spec_types::AnnotationError;
//!
//! let annotations = Annotations::new()
//!     .with_audience(vec![Role::User])
//!     .try_with_priority(0.8)?
//!     .try_with_last_modified("2025-01-12T15:00:58Z")?;
//! assert_eq!(
//!     serde_json::to_value(&annotations).unwrap(),
//!     serde_json::json!({"audience": ["user"], "priority": 0.8, "lastModified": "2025-01-12T15:00:58Z"})
//! );
//! assert!(matches!(
//!     Annotations::new().try_with_priority(1.5),
//!     Err(AnnotationError::PriorityOutOfRange { .. })
//! ));
//!
//! // A peer's out-of-range value is refused when read.
//! let sent = serde_json::from_str::<Annotations>(r#"{"priority": 7}"#).unwrap_err();
//! assert!(sent.to_string().starts_with("7 is greater than the maximum 1"));
//! // One built with the unchecked setter is reported by `validate`.
//! let built = Annotations::new().with_priority(7);
//! assert_eq!(built.validate(), Err(AnnotationError::PriorityOutOfRange { priority: 7.0 }));
//! # }
//! # Ok::<(), mcp_spec_types::AnnotationError>(())
//! ```

use crate::prelude::*;
use core::fmt;

/// What is wrong with an annotation.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AnnotationError {
    /// `priority` is not a number from 0.0 to 1.0 inclusive (NaN and the infinities included).
    PriorityOutOfRange {
        /// The priority given or received.
        priority: f64,
    },
    /// `lastModified` is not an ISO 8601 date-time.
    InvalidLastModified {
        /// The text given or received.
        value: String,
        /// The byte offset of the problem in `value`.
        offset: usize,
        /// What was expected there.
        expected: &'static str,
    },
}

impl fmt::Display for AnnotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnnotationError::PriorityOutOfRange { priority } => write!(
                f,
                "annotation `priority` must be a number from 0 to 1, found {priority}"
            ),
            AnnotationError::InvalidLastModified {
                value,
                offset,
                expected,
            } => write!(
                f,
                "annotation `lastModified` {value:?} is not an ISO 8601 date-time: expected {expected} at offset {offset}"
            ),
        }
    }
}

impl core::error::Error for AnnotationError {}

/// Checks a priority and turns it into the JSON number the generated types hold.
///
/// ```
/// use mcp_spec_types::annotations::check_priority;
/// assert_eq!(check_priority(0.5).unwrap().to_string(), "0.5");
/// assert!(check_priority(-0.1).is_err());
/// assert!(check_priority(f64::NAN).is_err());
/// ```
pub fn check_priority(priority: f64) -> Result<serde_json::Number, AnnotationError> {
    if !(0.0..=1.0).contains(&priority) {
        return Err(AnnotationError::PriorityOutOfRange { priority });
    }
    // In range, so finite: `from_f64` only refuses NaN and the infinities.
    serde_json::Number::from_f64(priority).ok_or(AnnotationError::PriorityOutOfRange { priority })
}

/// Checks a priority as received (any JSON number).
pub fn check_priority_number(priority: &serde_json::Number) -> Result<(), AnnotationError> {
    let value = priority
        .as_f64()
        .or_else(|| priority.to_string().parse().ok())
        .unwrap_or(f64::NAN);
    check_priority(value).map(|_| ())
}

/// Checks that `value` is an ISO 8601 date-time, as `lastModified` should be (the specification's
/// example: `"2025-01-12T15:00:58Z"`).
///
/// Accepted: the extended calendar form `YYYY-MM-DDThh:mm`, with optional seconds `:ss` (up to
/// 60, for leap seconds) and fraction (`.` or `,` and one or more digits), then an optional zone:
/// `Z`, `±hh`, `±hh:mm` or `±hhmm`. `24:00` (end of day) is accepted with zero seconds and
/// fraction. Months, days (leap years included), hours and minutes are range-checked. Lower-case
/// `t` and `z` are accepted, as RFC 3339 allows. Not accepted: a date without a time, the basic
/// form without separators (`20250112T150058Z`), week and ordinal dates, and a space instead of
/// `T`. A date-time without a zone is valid ISO 8601 (local time) and accepted.
///
/// ```
/// use mcp_spec_types::annotations::check_last_modified;
/// assert!(check_last_modified("2025-01-12T15:00:58Z").is_ok());
/// assert!(check_last_modified("2024-02-29T23:59:60.123+05:30").is_ok());
/// assert!(check_last_modified("2025-02-29T00:00:00Z").is_err());
/// assert!(check_last_modified("yesterday").is_err());
/// ```
pub fn check_last_modified(value: &str) -> Result<(), AnnotationError> {
    DateTimeParser {
        bytes: value.as_bytes(),
        pos: 0,
    }
    .parse()
    .map_err(|(offset, expected)| AnnotationError::InvalidLastModified {
        value: value.to_owned(),
        offset,
        expected,
    })
}

struct DateTimeParser<'a> {
    bytes: &'a [u8],
    pos: usize,
}

type Failure = (usize, &'static str);

impl DateTimeParser<'_> {
    fn parse(mut self) -> Result<(), Failure> {
        let year = self.digits(4, "a four-digit year")?;
        self.literal(b'-', "`-` after the year")?;
        let month_at = self.pos;
        let month = self.digits(2, "a two-digit month")?;
        if !(1..=12).contains(&month) {
            return Err((month_at, "a month from 01 to 12"));
        }
        self.literal(b'-', "`-` after the month")?;
        let day_at = self.pos;
        let day = self.digits(2, "a two-digit day")?;
        if day < 1 || day > days_in_month(year, month) {
            return Err((day_at, "a day that exists in that month"));
        }
        match self.peek() {
            Some(b'T' | b't') => self.pos += 1,
            None => return Err((self.pos, "`T` and a time (a date alone is not a date-time)")),
            Some(_) => return Err((self.pos, "`T` between the date and the time")),
        }
        let hour_at = self.pos;
        let hour = self.digits(2, "a two-digit hour")?;
        if hour > 24 {
            return Err((hour_at, "an hour from 00 to 24"));
        }
        self.literal(b':', "`:` after the hour")?;
        let minute_at = self.pos;
        let minute = self.digits(2, "two-digit minutes")?;
        if minute > 59 {
            return Err((minute_at, "minutes from 00 to 59"));
        }
        let mut second = 0;
        let mut fraction_zero = true;
        if self.peek() == Some(b':') {
            self.pos += 1;
            let second_at = self.pos;
            second = self.digits(2, "two-digit seconds")?;
            if second > 60 {
                return Err((second_at, "seconds from 00 to 60"));
            }
            if let Some(b'.' | b',') = self.peek() {
                self.pos += 1;
                let start = self.pos;
                while let Some(digit @ b'0'..=b'9') = self.peek() {
                    fraction_zero &= digit == b'0';
                    self.pos += 1;
                }
                if self.pos == start {
                    return Err((self.pos, "digits of the fraction of a second"));
                }
            }
        }
        if hour == 24 && (minute != 0 || second != 0 || !fraction_zero) {
            return Err((hour_at, "24 only as 24:00:00 (the end of the day)"));
        }
        match self.peek() {
            None => return Ok(()),
            Some(b'Z' | b'z') => self.pos += 1,
            Some(b'+' | b'-') => {
                self.pos += 1;
                let offset_at = self.pos;
                let hours = self.digits(2, "a two-digit zone offset hour")?;
                if hours > 23 {
                    return Err((offset_at, "a zone offset hour from 00 to 23"));
                }
                if self.peek() == Some(b':') {
                    self.pos += 1;
                    self.offset_minutes()?;
                } else if self.peek().is_some() {
                    self.offset_minutes()?;
                }
            }
            Some(_) => return Err((self.pos, "a zone (`Z`, `+hh:mm` or `-hh:mm`) or the end")),
        }
        match self.peek() {
            None => Ok(()),
            Some(_) => Err((self.pos, "the end of the date-time")),
        }
    }

    fn offset_minutes(&mut self) -> Result<(), Failure> {
        let at = self.pos;
        let minutes = self.digits(2, "two-digit zone offset minutes")?;
        if minutes > 59 {
            return Err((at, "zone offset minutes from 00 to 59"));
        }
        Ok(())
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn literal(&mut self, byte: u8, expected: &'static str) -> Result<(), Failure> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err((self.pos, expected))
        }
    }

    fn digits(&mut self, count: usize, expected: &'static str) -> Result<u32, Failure> {
        let mut value = 0;
        for _ in 0..count {
            match self.peek() {
                Some(digit @ b'0'..=b'9') => {
                    value = value * 10 + u32::from(digit - b'0');
                    self.pos += 1;
                }
                _ => return Err((self.pos, expected)),
            }
        }
        Ok(value)
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Adds the checked annotation API to one revision's annotations type.
///
/// `$ty` names the type; `last_modified` when the revision has the member; `builders` for the
/// 2024-11-05 types, which have no generated `new`/`with_` methods.
#[allow(unused_macros)] // Which macros are used depends on the enabled revisions.
macro_rules! annotations_api {
    (@common $ty:ident) => {
        impl $ty {
            /// Sets `priority`, checking that it is a number from 0.0 to 1.0 (NaN rejected).
            ///
            /// The generated `with_priority` takes any JSON number unchecked.
            pub fn try_with_priority(
                mut self,
                priority: f64,
            ) -> ::core::result::Result<Self, $crate::AnnotationError> {
                self.priority = ::core::option::Option::Some($crate::annotations::check_priority(
                    priority,
                )?);
                ::core::result::Result::Ok(self)
            }

            /// The priority as a float, if present.
            pub fn priority_f64(&self) -> ::core::option::Option<f64> {
                self.priority.as_ref().and_then(::serde_json::Number::as_f64)
            }
        }
    };
    (@validate $ty:ident) => {
        impl $ty {
            /// Reports the first problem with what the annotations hold: a priority outside
            /// 0.0–1.0.
            pub fn validate(&self) -> ::core::result::Result<(), $crate::AnnotationError> {
                if let ::core::option::Option::Some(priority) = &self.priority {
                    $crate::annotations::check_priority_number(priority)?;
                }
                ::core::result::Result::Ok(())
            }
        }
    };
    ($ty:ident) => {
        $crate::annotations::annotations_api!(@common $ty);
        $crate::annotations::annotations_api!(@validate $ty);
    };
    ($ty:ident, last_modified) => {
        $crate::annotations::annotations_api!(@common $ty);
        impl $ty {
            /// Sets `lastModified`, checking that it is an ISO 8601 date-time (see
            /// [`check_last_modified`](crate::annotations::check_last_modified)).
            pub fn try_with_last_modified(
                mut self,
                last_modified: impl ::core::convert::Into<::alloc::string::String>,
            ) -> ::core::result::Result<Self, $crate::AnnotationError> {
                let last_modified = last_modified.into();
                $crate::annotations::check_last_modified(&last_modified)?;
                self.last_modified = ::core::option::Option::Some(last_modified);
                ::core::result::Result::Ok(self)
            }

            /// Reports the first problem with what the annotations hold: a priority outside
            /// 0.0–1.0, or a `lastModified` that is not an ISO 8601 date-time.
            pub fn validate(&self) -> ::core::result::Result<(), $crate::AnnotationError> {
                if let ::core::option::Option::Some(priority) = &self.priority {
                    $crate::annotations::check_priority_number(priority)?;
                }
                if let ::core::option::Option::Some(last_modified) = &self.last_modified {
                    $crate::annotations::check_last_modified(last_modified)?;
                }
                ::core::result::Result::Ok(())
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use annotations_api;
