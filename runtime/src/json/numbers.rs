//! Numbers: written by serde_json's own formatter, so the text is the same.

#[cfg(feature = "std")]
pub(super) use with_formatter::{format_number, NumberWriter};

/// With `std`, serde_json's `CompactFormatter` writes into the output directly.
#[cfg(feature = "std")]
mod with_formatter {
    use crate::prelude::*;
    use std::io;

    /// Lets `CompactFormatter` (which writes to an `io::Write`) append to the output `String`.
    pub(crate) struct NumberWriter<'a>(pub(crate) &'a mut String);

    impl io::Write for NumberWriter<'_> {
        #[inline]
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            // Number text is ASCII; a short check keeps the output UTF-8 without `unsafe`.
            let text = core::str::from_utf8(buf)
                .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))?;
            self.0.push_str(text);
            Ok(buf.len())
        }

        #[inline]
        fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
            self.write(buf).map(drop)
        }

        #[inline]
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Runs one `CompactFormatter` method on the output (the caller imports `NumberWriter`).
    macro_rules! format_number {
        ($out:expr, $method:ident, $value:expr) => {{
            use serde_json::ser::Formatter as _;
            serde_json::ser::CompactFormatter
                .$method(&mut NumberWriter($out), $value)
                .map_err(serde_json::Error::io)
        }};
    }
    pub(crate) use format_number;
}

/// Without `std`, serde_json has no public formatter: each number is written by
/// `serde_json::to_string` itself (the same text, through a short-lived `String`).
#[cfg(not(feature = "std"))]
macro_rules! format_number {
    ($out:expr, $method:ident, $value:expr) => {
        serde_json::to_string(&$value).map(|text| $out.push_str(&text))
    };
}
#[cfg(not(feature = "std"))]
pub(super) use format_number;
