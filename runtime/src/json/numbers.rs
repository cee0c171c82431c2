//! Numbers: written by the formatters serde_json writes them with, so the text is the same:
//! `itoa` for integers and `zmij` for finite floats (serde_json 1.0.147 and later, which the
//! crate requires; both crates are serde_json's own dependencies, unified with it in a build).
//! Each gives its text as a `&str`, appended as it is: no `io::Write` between, and the same
//! code with and without `std`.

/// Appends `$value` (any integer type, a finite `f32`/`f64` for `write_f32`/`write_f64`, a
/// `bool` for `write_bool`)
/// to the output `String`; `Ok(())` as a `serde_json` result, for the serializers' returns.
macro_rules! format_number {
    ($out:expr, write_f32, $value:expr) => {{
        $out.push_str(zmij::Buffer::new().format_finite($value));
        Ok::<(), serde_json::Error>(())
    }};
    ($out:expr, write_f64, $value:expr) => {{
        $out.push_str(zmij::Buffer::new().format_finite($value));
        Ok::<(), serde_json::Error>(())
    }};
    ($out:expr, write_bool, $value:expr) => {{
        $out.push_str(if $value { "true" } else { "false" });
        Ok::<(), serde_json::Error>(())
    }};
    ($out:expr, $integer:ident, $value:expr) => {{
        $out.push_str(itoa::Buffer::new().format($value));
        Ok::<(), serde_json::Error>(())
    }};
}
pub(super) use format_number;
