//! Numbers: written by serde_json's own formatter, so the text is the same.

use std::io;

/// Lets `CompactFormatter` (which writes to an `io::Write`) append to the output `String`.
pub(super) struct NumberWriter<'a>(pub(super) &'a mut String);

impl io::Write for NumberWriter<'_> {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Number text is ASCII; a short check keeps the output UTF-8 without `unsafe`.
        let text = std::str::from_utf8(buf)
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

/// Runs one `CompactFormatter` method on the output.
macro_rules! format_number {
    ($out:expr, $method:ident, $value:expr) => {
        CompactFormatter
            .$method(&mut NumberWriter($out), $value)
            .map_err(Error::io)
    };
}
pub(super) use format_number;
