//! serde_json's private struct names, the one place the reader and the writer learn them.
//!
//! serde_json writes and reads a `RawValue` (and a `Number` under its `arbitrary_precision`
//! feature) as a struct whose name is a token only serde_json's own serializer and deserializer
//! know. This crate's reader and writer must treat the same names the same way, so they are
//! copied here, and tests/json_writer.rs, which compiles this file by itself (so it uses
//! nothing of the crate), asks serde_json's types which names they use: a release of serde_json
//! that changes them fails there instead of silently writing a raw value as an object.

use serde::ser::{self, Serialize};

/// The struct name (and field name) `serde_json::value::RawValue` serializes as, and the
/// newtype struct name it deserializes from.
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// The struct name (and field name) `serde_json::Number` serializes as when serde_json's
/// `arbitrary_precision` feature is on (this crate does not turn it on, but another crate in the
/// same build may).
pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// [`arbitrary_precision`], known while compiling: under that feature `serde_json::Number` holds
/// its digits in a `String`, which needs dropping; without it, a `u64`, `i64` or `f64`, which
/// does not. Code behind `if !ARBITRARY_PRECISION` is left out of the builds that do not need
/// it (serde_json's reading of each type, in `from_str_explained`). Tests hold it to the probe.
#[cfg(feature = "std")]
pub(crate) const ARBITRARY_PRECISION: bool = core::mem::needs_drop::<serde_json::Number>();

/// Whether the serde_json being linked has `arbitrary_precision`: then it writes the string
/// under [`NUMBER_TOKEN`] as a bare number, and so must this writer; and it reads numbers into
/// that struct, which the crate's reader leaves to serde_json. Asked of serde_json itself, once,
/// the first time it matters.
pub(crate) fn arbitrary_precision() -> bool {
    // 0: not asked yet; 1: off; 2: on. Only loads and stores, which every target with
    // 8-bit atomics has: two threads asking at once both ask serde_json, and agree.
    static ON: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);
    use core::sync::atomic::Ordering::Relaxed;
    match ON.load(Relaxed) {
        1 => return false,
        2 => return true,
        _ => {}
    }
    let on = {
        struct Probe;
        impl Serialize for Probe {
            fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use ser::SerializeStruct;
                let mut fields = serializer.serialize_struct(NUMBER_TOKEN, 1)?;
                fields.serialize_field(NUMBER_TOKEN, "1")?;
                fields.end()
            }
        }
        matches!(serde_json::to_vec(&Probe).as_deref(), Ok(b"1"))
    };
    ON.store(if on { 2 } else { 1 }, Relaxed);
    on
}
