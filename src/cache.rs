//! Cache hints of the stateless revisions (2026-07-28 on, SEP-2549): every result carries
//! `resultType`, and the results the schema derives from `CacheableResult` (`server/discover`,
//! the lists, `resources/read`) also carry `ttlMs` and `cacheScope`, which a server MUST set.
//!
//! A [`CacheHint`] is those two members. [`CacheHint::UNCACHED`] (`ttlMs` 0, `"private"`) is
//! the default a server gives when its handler says nothing, so a result is never missing its
//! hints; a handler that knows better says so ([`CacheHint::public`], [`CacheHint::private`]).
//! Which results take hints is the schema's fact, read from the generated result members
//! ([`is_cacheable`]), never listed here.
//!
//! ```
//! # #[cfg(feature = "v2026_07_28")] {
//! use mcp_spec_types::cache::{self, CacheHint, CacheScope};
//! use mcp_spec_types::v2026_07_28::ClientCall;
//!
//! assert!(cache::is_cacheable::<ClientCall>("tools/list"));
//! assert!(!cache::is_cacheable::<ClientCall>("tools/call"));
//!
//! let mut result = serde_json::json!({"tools": []});
//! let declared = cache::declared_members::<ClientCall>("tools/list");
//! CacheHint::public(300_000).complete_into(result.as_object_mut().unwrap(), declared);
//! assert_eq!(result["resultType"], "complete");
//! assert_eq!(result["ttlMs"], 300_000);
//! assert_eq!(result["cacheScope"], CacheScope::Public.as_str());
//! # }
//! ```

use crate::pending::CallSet;
use crate::prelude::*;
use serde_json::{Map, Value};

/// The result member naming the kind of result (`"complete"`, `"input_required"`).
pub const RESULT_TYPE: &str = "resultType";
/// The `resultType` of a result computed at once.
pub const RESULT_TYPE_COMPLETE: &str = "complete";
/// The `resultType` of a result that asks the client for more input first
/// (`InputRequiredResult`, 2026-07-28 on).
pub const RESULT_TYPE_INPUT_REQUIRED: &str = "input_required";
/// The result member saying how long, in milliseconds, the result may be reused.
pub const TTL_MS: &str = "ttlMs";
/// The result member saying who may reuse the result.
pub const CACHE_SCOPE: &str = "cacheScope";

/// Who may reuse a cached result (`cacheScope`), as HTTP's `Cache-Control: public`/`private`.
///
/// The one type of the member in every revision that has it: each cacheable result's
/// `cache_scope` field is this enum (the schema writes the enum out in each result; the build
/// makes it one definition, and tests/cache_types.rs holds it to each schema's values).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// `"public"`: no user-specific data; any client or intermediary may share it.
    Public,
    /// `"private"`: reused only within the same authorization context.
    Private,
}

impl core::fmt::Display for CacheScope {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of result a result is (`resultType`, 2026-07-28 on): [`ResultType::COMPLETE`],
/// [`ResultType::INPUT_REQUIRED`], or a kind a later revision adds (the schema leaves the
/// string open, so an unknown kind is kept, not refused).
///
/// The one type of the member in every result of every revision that has it. It compares
/// with a `&str` (`result.result_type == "complete"`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResultType(alloc::borrow::Cow<'static, str>);

impl ResultType {
    /// `"complete"`: the result is final and carries the answer.
    pub const COMPLETE: ResultType = ResultType(alloc::borrow::Cow::Borrowed(RESULT_TYPE_COMPLETE));
    /// `"input_required"`: the server needs more input before it can answer.
    pub const INPUT_REQUIRED: ResultType =
        ResultType(alloc::borrow::Cow::Borrowed(RESULT_TYPE_INPUT_REQUIRED));

    /// The wire value.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is [`ResultType::COMPLETE`].
    pub fn is_complete(&self) -> bool {
        self.as_str() == RESULT_TYPE_COMPLETE
    }
}

impl Default for ResultType {
    /// [`ResultType::COMPLETE`]: what a client assumes of a result without `resultType`.
    fn default() -> Self {
        ResultType::COMPLETE
    }
}

impl From<&str> for ResultType {
    fn from(kind: &str) -> Self {
        ResultType(alloc::borrow::Cow::Owned(kind.to_owned()))
    }
}

impl From<String> for ResultType {
    fn from(kind: String) -> Self {
        ResultType(alloc::borrow::Cow::Owned(kind))
    }
}

impl PartialEq<str> for ResultType {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ResultType {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl core::fmt::Display for ResultType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for ResultType {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for ResultType {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(ResultType::from)
    }
}

/// The schema's own `ResultType` definition: an open string.
#[cfg(feature = "schemars")]
impl schemars::JsonSchema for ResultType {
    fn schema_name() -> alloc::borrow::Cow<'static, str> {
        alloc::borrow::Cow::Borrowed("ResultType")
    }
    fn schema_id() -> alloc::borrow::Cow<'static, str> {
        alloc::borrow::Cow::Borrowed("mcp_spec_types::ResultType")
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string"})
    }
}

impl CacheScope {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }
}

/// `ttlMs` and `cacheScope` of a cacheable result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CacheHint {
    /// How long the result may be reused, in milliseconds; 0: stale at once.
    pub ttl_ms: u64,
    /// Who may reuse it.
    pub scope: CacheScope,
}

impl CacheHint {
    /// Not to be reused (`ttlMs` 0), and never shared (`"private"`): what a server says when
    /// it knows nothing better, since the hints are required.
    pub const UNCACHED: CacheHint = CacheHint {
        ttl_ms: 0,
        scope: CacheScope::Private,
    };

    /// Reusable by anyone for `ttl_ms` milliseconds.
    pub fn public(ttl_ms: u64) -> Self {
        CacheHint {
            ttl_ms,
            scope: CacheScope::Public,
        }
    }

    /// Reusable within one authorization context for `ttl_ms` milliseconds.
    pub fn private(ttl_ms: u64) -> Self {
        CacheHint {
            ttl_ms,
            scope: CacheScope::Private,
        }
    }

    /// Puts `ttlMs` and `cacheScope` into `result` where the result's definition declares them
    /// (`declared`: its member names, see [`declared_members`]) and `result` lacks them: what
    /// a handler set itself wins.
    pub fn insert_into(&self, result: &mut Map<String, Value>, declared: &[&str]) {
        put(result, declared, TTL_MS, Value::from(self.ttl_ms));
        put(
            result,
            declared,
            CACHE_SCOPE,
            Value::String(self.scope.as_str().to_owned()),
        );
    }

    /// [`CacheHint::insert_into`], and `resultType` `"complete"` where declared and absent:
    /// everything a stateless result computed at once needs besides its own members.
    pub fn complete_into(&self, result: &mut Map<String, Value>, declared: &[&str]) {
        insert_result_type(result, declared);
        self.insert_into(result, declared);
    }
}

impl Default for CacheHint {
    fn default() -> Self {
        CacheHint::UNCACHED
    }
}

/// Puts `resultType` `"complete"` into `result` where declared and absent.
pub fn insert_result_type(result: &mut Map<String, Value>, declared: &[&str]) {
    put(
        result,
        declared,
        RESULT_TYPE,
        Value::String(RESULT_TYPE_COMPLETE.to_owned()),
    );
}

fn put(result: &mut Map<String, Value>, declared: &[&str], key: &str, value: Value) {
    if declared.contains(&key) && !result.contains_key(key) {
        result.insert(key.to_owned(), value);
    }
}

/// The members the schema declares for the result of `method` in `C`'s revision.
pub fn declared_members<C: CallSet>(method: &str) -> &'static [&'static str] {
    C::result_members(method)
}

/// Whether the result of `method` in `C`'s revision carries cache hints (its definition
/// declares `ttlMs`).
pub fn is_cacheable<C: CallSet>(method: &str) -> bool {
    C::result_members(method).contains(&TTL_MS)
}
