//! The reader's state and its token-level work: whitespace, literals, strings, numbers, and
//! skipping a whole value without building anything.

use super::scan::run_end;
use super::stop::Stop;
use crate::prelude::*;

/// serde_json's recursion limit: arrays and objects read into values may nest this deep,
/// less one. Skipped values (`IgnoredAny`, `RawValue`) have no limit, as in serde_json.
const RECURSION_LIMIT: u8 = 128;

/// serde_json's words for a leading surrogate escape not followed by another `\u` escape.
const END_OF_HEX_ESCAPE: &str = "unexpected end of hex escape";
/// serde_json's words for a surrogate escape without its partner (leading or trailing alike).
const LONE_SURROGATE: &str = "lone leading surrogate in hex escape";

/// Where reading is in the text.
pub(crate) struct Reader<'de> {
    text: &'de str,
    bytes: &'de [u8],
    pub(super) index: usize,
    /// Unescaped string text, when a string had escapes.
    scratch: String,
    /// Open arrays and objects while skipping (`[` or `{`).
    frames: Vec<u8>,
    remaining_depth: u8,
    /// Without `std` (no per-thread trail): where the read stopped, innermost first.
    #[cfg(not(feature = "std"))]
    pub(super) stop_path: StopPath,
}

/// Where a read stopped: the member names and array indexes from the stop out to the top,
/// innermost first, each with the nesting depth it was recorded at; or `unknown` when it
/// stopped on valid input it leaves to serde_json (serde_json's error, if any, is then
/// elsewhere). Bounded by the nesting limit: a crumb is recorded once per open array or
/// object an error leaves, and a failure a visitor catches and reads on from leaves crumbs
/// that the path skips (see [`StopPath::into_path`]).
#[cfg(not(feature = "std"))]
#[derive(Default)]
pub(crate) struct StopPath {
    crumbs: Vec<(u8, Crumb)>,
    unknown: core::cell::Cell<bool>,
}

#[cfg(not(feature = "std"))]
enum Crumb {
    Member(String),
    Index(usize),
}

#[cfg(not(feature = "std"))]
impl StopPath {
    /// The read stopped at nesting `depth`, inside the value of the member whose name's `"` is
    /// at `at` in `text`.
    pub(super) fn member(&mut self, depth: u8, text: &str, at: usize) {
        let mut names = serde_json::Deserializer::from_str(text.get(at..).unwrap_or_default());
        let name = <String as serde::Deserialize>::deserialize(&mut names).unwrap_or_default();
        self.crumbs.push((depth, Crumb::Member(name)));
    }

    /// The read stopped at nesting `depth`, inside array element `index`.
    pub(super) fn index(&mut self, depth: u8, index: usize) {
        self.crumbs.push((depth, Crumb::Index(index)));
    }

    /// The read stopped on valid input it leaves to serde_json.
    pub(super) fn left_to_serde_json(&self) {
        self.unknown.set(true);
    }

    /// The path (`contents[0].uri`, empty at the top), or `None` when it is not known.
    ///
    /// The last failure's crumbs are the last ones recorded, their depth falling to the top;
    /// walking back from the end while the depth rises leaves out what an earlier failure,
    /// caught by a visitor, recorded.
    pub(crate) fn into_path(self) -> Option<String> {
        if self.unknown.get() {
            return None;
        }
        let mut chain = Vec::new();
        for (depth, crumb) in self.crumbs.iter().rev() {
            match chain.last() {
                Some((outer, _)) if depth <= outer => break,
                _ => chain.push((*depth, crumb)),
            }
        }
        let mut path = String::new();
        for (_, crumb) in chain {
            match crumb {
                Crumb::Member(name) => crate::runtime::trail::push_member(&mut path, name),
                Crumb::Index(index) => crate::runtime::trail::push_index(&mut path, *index),
            }
        }
        Some(path)
    }
}

/// A string read from the text: borrowed when it had no escapes, else unescaped into the
/// reader's scratch space (serde_json makes the same distinction).
pub(super) enum Text<'de, 's> {
    Borrowed(&'de str),
    Copied(&'s str),
}

/// What each byte after a backslash stands for: the unescaped byte, or 0 when the escape is
/// `\u` (four hex digits follow) or no escape at all.
static UNESCAPED: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[b'/' as usize] = b'/';
    table[b'b' as usize] = 0x08;
    table[b'f' as usize] = 0x0c;
    table[b'n' as usize] = b'\n';
    table[b'r' as usize] = b'\r';
    table[b't' as usize] = b'\t';
    table
};

/// A number as serde_json reads it.
pub(super) enum Number {
    U64(u64),
    I64(i64),
    F64(f64),
}

impl<'de> Reader<'de> {
    pub(super) fn new(text: &'de str) -> Self {
        Reader {
            text,
            bytes: text.as_bytes(),
            index: 0,
            scratch: String::new(),
            frames: Vec::new(),
            remaining_depth: RECURSION_LIMIT,
            #[cfg(not(feature = "std"))]
            stop_path: StopPath::default(),
        }
    }

    /// The text being read.
    #[cfg(not(feature = "std"))]
    pub(super) fn text(&self) -> &'de str {
        self.text
    }

    /// How many arrays and objects being read into values are open.
    #[cfg(not(feature = "std"))]
    pub(super) fn depth(&self) -> u8 {
        RECURSION_LIMIT - self.remaining_depth
    }

    /// Skips whitespace (the four bytes JSON allows) and returns the next byte, if any.
    #[inline]
    pub(super) fn peek_value(&mut self) -> Option<u8> {
        while let Some(&byte) = self.bytes.get(self.index) {
            match byte {
                b' ' | b'\n' | b'\t' | b'\r' => self.index += 1,
                _ => return Some(byte),
            }
        }
        None
    }

    /// Consumes `expected` (after whitespace) or fails.
    #[inline]
    pub(super) fn expect(&mut self, expected: u8) -> Result<(), Stop> {
        if self.peek_value() == Some(expected) {
            self.index += 1;
            Ok(())
        } else {
            Err(Stop)
        }
    }

    /// Only whitespace may follow the value.
    pub(super) fn end(&mut self) -> Result<(), Stop> {
        match self.peek_value() {
            None => Ok(()),
            Some(_) => Err(Stop),
        }
    }

    /// Consumes the literal `word` (`null`, `true`, `false`) at the current byte.
    #[inline]
    pub(super) fn literal(&mut self, word: &[u8]) -> Result<(), Stop> {
        match self.bytes.get(self.index..self.index + word.len()) {
            Some(found) if found == word => {
                self.index += word.len();
                Ok(())
            }
            _ => Err(Stop),
        }
    }

    /// One level deeper into an array or object read into a value.
    #[inline]
    pub(super) fn descend(&mut self) -> Result<(), Stop> {
        // Checked, not `-= 1`: a visitor that swallows the error and reads on must not wrap.
        match self.remaining_depth.checked_sub(1) {
            Some(remaining) if remaining > 0 => {
                self.remaining_depth = remaining;
                Ok(())
            }
            _ => Err(super::stop::stop_with("recursion limit exceeded")),
        }
    }

    /// Back out of a level [`descend`](Self::descend) entered.
    #[inline]
    pub(super) fn ascend(&mut self) {
        self.remaining_depth = self.remaining_depth.saturating_add(1);
    }

    /// Reads the string whose opening quote is the current byte.
    #[inline]
    pub(super) fn read_str<'s>(&'s mut self) -> Result<Text<'de, 's>, Stop> {
        self.index += 1;
        let start = self.index;
        let at = run_end(self.bytes, start);
        if self.bytes.get(at) == Some(&b'"') {
            self.index = at + 1;
            // `start` and `at` are next to ASCII bytes, so both are char boundaries.
            return self.text.get(start..at).map(Text::Borrowed).ok_or(Stop);
        }
        self.scratch.clear();
        self.read_escaped_str(start, at)?;
        Ok(Text::Copied(&self.scratch))
    }

    /// The text [`read_str`](Self::read_str) last unescaped, owned: the scratch space itself,
    /// shrunk to its length (the next string with escapes starts a new one).
    pub(super) fn take_unescaped(&mut self) -> String {
        let mut text = core::mem::take(&mut self.scratch);
        text.shrink_to_fit();
        text
    }

    /// The rest of a string that has escapes, unescaped into the scratch space: `start` is
    /// where its text began, `at` the first byte that ended a plain run.
    fn read_escaped_str(&mut self, mut start: usize, mut at: usize) -> Result<(), Stop> {
        loop {
            match self.bytes.get(at) {
                Some(b'"') => {
                    self.append(start, at)?;
                    self.index = at + 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.append(start, at)?;
                    let escape = *self.bytes.get(at + 1).ok_or(Stop)?;
                    self.index = at + 2;
                    // One table lookup instead of a jump per kind of escape: in text the kinds
                    // follow each other unpredictably, and a mispredicted jump costs more.
                    match UNESCAPED[usize::from(escape)] {
                        0 if escape == b'u' => {
                            let unescaped = self.read_unicode_escape()?;
                            self.scratch.push(unescaped);
                        }
                        0 => return Err(Stop),
                        byte => self.scratch.push(char::from(byte)),
                    }
                    start = self.index;
                }
                // A control character, or the text ended inside the string.
                _ => return Err(Stop),
            }
            at = run_end(self.bytes, start);
        }
    }

    /// Appends `text[start..end]` (both next to ASCII bytes) to the scratch space.
    #[inline(always)]
    fn append(&mut self, start: usize, end: usize) -> Result<(), Stop> {
        // Most pieces between escapes are short. One of at most 16 bytes is appended as a
        // fixed 16-byte block and cut back, which compiles to two moves instead of a call to
        // `memcpy` (when the block's end falls inside a character, the exact piece is used).
        if end - start <= 16 {
            if let Some(block) = self.text.get(start..start + 16) {
                let keep = self.scratch.len() + (end - start);
                self.scratch.push_str(block);
                self.scratch.truncate(keep);
                return Ok(());
            }
        }
        self.scratch
            .push_str(self.text.get(start..end).ok_or(Stop)?);
        Ok(())
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`. A lone surrogate is refused, as serde_json
    /// refuses it in a string.
    fn read_unicode_escape(&mut self) -> Result<char, Stop> {
        let unit = self.hex4()?;
        let code = match unit {
            0xD800..=0xDBFF => {
                // Byte by byte, as serde_json: the text ending is its own error (the string
                // is not closed), any other byte the end of the escape.
                for (offset, expected) in [(0, b'\\'), (1, b'u')] {
                    match self.bytes.get(self.index + offset) {
                        None => return Err(Stop),
                        Some(&byte) if byte != expected => {
                            return Err(super::stop::stop_with(END_OF_HEX_ESCAPE));
                        }
                        Some(_) => {}
                    }
                }
                self.index += 2;
                let low = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(super::stop::stop_with(LONE_SURROGATE));
                }
                0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(super::stop::stop_with(LONE_SURROGATE)),
            _ => u32::from(unit),
        };
        char::from_u32(code).ok_or(Stop)
    }

    /// Four hex digits.
    fn hex4(&mut self) -> Result<u16, Stop> {
        let digits = self.bytes.get(self.index..self.index + 4).ok_or(Stop)?;
        let mut unit = 0u16;
        for &digit in digits {
            let value = match digit {
                b'0'..=b'9' => digit - b'0',
                b'a'..=b'f' => digit - b'a' + 10,
                b'A'..=b'F' => digit - b'A' + 10,
                _ => return Err(Stop),
            };
            unit = unit * 16 + u16::from(value);
        }
        self.index += 4;
        Ok(unit)
    }

    /// Skips the string whose opening quote is the current byte, checking its escapes as
    /// serde_json does when it skips (a `\u` needs four hex digits, surrogates are not paired).
    fn skip_str(&mut self) -> Result<(), Stop> {
        self.index += 1;
        loop {
            let at = run_end(self.bytes, self.index);
            match self.bytes.get(at) {
                Some(b'"') => {
                    self.index = at + 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.index = at + 1;
                    let byte = *self.bytes.get(self.index).ok_or(Stop)?;
                    self.index += 1;
                    match byte {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                        b'u' => {
                            self.hex4()?;
                        }
                        _ => return Err(Stop),
                    }
                }
                _ => return Err(Stop),
            }
        }
    }

    /// Consumes decimal digits; returns how many.
    #[inline]
    fn skip_digits(&mut self) -> usize {
        let start = self.index;
        while let Some(b'0'..=b'9') = self.bytes.get(self.index) {
            self.index += 1;
        }
        self.index - start
    }

    /// Reads the number at the current byte (`-` or a digit), with serde_json's results:
    /// an integer that fits is `U64` (or `I64` when negative), anything else an `f64` rounded
    /// correctly (serde_json's `float_roundtrip`, which this crate turns on). `-0` is the
    /// float `-0.0` and an integer below `i64::MIN` a float, as in serde_json. A number
    /// beyond `f64`'s range is refused.
    #[inline]
    pub(super) fn read_number(&mut self) -> Result<Number, Stop> {
        let start = self.index;
        let negative = self.bytes.get(self.index) == Some(&b'-');
        if negative {
            self.index += 1;
        }
        let mut significand: u64 = 0;
        let mut overflowed = false;
        match self.bytes.get(self.index) {
            Some(b'0') => self.index += 1,
            Some(b'1'..=b'9') => {
                while let Some(&digit @ b'0'..=b'9') = self.bytes.get(self.index) {
                    match significand
                        .checked_mul(10)
                        .and_then(|tens| tens.checked_add(u64::from(digit - b'0')))
                    {
                        Some(next) => significand = next,
                        None => overflowed = true,
                    }
                    self.index += 1;
                }
            }
            _ => return Err(self.number_stop()),
        }
        let integer_end = self.index;
        let Ok(decimal) = self.skip_fraction_and_exponent() else {
            return Err(self.number_stop());
        };
        if decimal || overflowed {
            if !overflowed {
                if let Some(value) = self.exact_float(significand, integer_end) {
                    return Ok(Number::F64(if negative { -value } else { value }));
                }
            }
            let text = self.text.get(start..self.index).ok_or(Stop)?;
            // The text is JSON's number grammar, which `f64::from_str` reads with correct
            // rounding, as serde_json's `float_roundtrip` does.
            let value: f64 = text.parse().map_err(|_| Stop)?;
            if value.is_infinite() {
                return Err(super::stop::stop_with("number out of range"));
            }
            return Ok(Number::F64(value));
        }
        if !negative {
            return Ok(Number::U64(significand));
        }
        // serde_json's rule, kept exactly: `-0` and integers below `i64::MIN` become floats.
        let negated = (significand as i64).wrapping_neg();
        Ok(if negated >= 0 {
            Number::F64(-(significand as f64))
        } else {
            Number::I64(negated)
        })
    }

    /// The stop where a number being read wants a digit: serde_json's words for it when read
    /// into a value (skipped, it says `invalid number` at the end of the text too).
    #[cold]
    #[inline(never)]
    fn number_stop(&self) -> Stop {
        if self.index >= self.bytes.len() {
            super::stop::stop_with("EOF while parsing a value")
        } else {
            super::stop::stop_with("invalid number")
        }
    }

    /// The float whose integer part (`integer`, digits up to `integer_end`) and fraction and
    /// exponent (up to the current byte) were just read, when one multiplication or division
    /// gives it exactly rounded: the digits make an integer below 2^53 and the power of ten
    /// is at most 10^22, so both are exact `f64`s and IEEE rounds the one operation correctly
    /// (Clinger's fast path). `None` otherwise (then the text is parsed in full).
    #[inline]
    fn exact_float(&self, integer: u64, integer_end: usize) -> Option<f64> {
        /// The powers of ten an `f64` holds exactly.
        const POWERS: [f64; 23] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
            1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
        ];
        let mut significand = integer;
        let mut exponent: i64 = 0;
        let mut at = integer_end;
        if self.bytes.get(at) == Some(&b'.') {
            at += 1;
            while let Some(&digit @ b'0'..=b'9') = self.bytes.get(at) {
                significand = significand
                    .checked_mul(10)?
                    .checked_add(u64::from(digit - b'0'))?;
                exponent -= 1;
                at += 1;
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(at) {
            at += 1;
            let negative = self.bytes.get(at) == Some(&b'-');
            if let Some(b'+' | b'-') = self.bytes.get(at) {
                at += 1;
            }
            let mut written: i64 = 0;
            while let Some(&digit @ b'0'..=b'9') = self.bytes.get(at) {
                // Past 22 (plus the fraction's digits) the fast path is out anyway.
                written = (written * 10 + i64::from(digit - b'0')).min(1_000_000);
                at += 1;
            }
            exponent += if negative { -written } else { written };
        }
        if significand > 1 << 53 {
            return None;
        }
        let power = *POWERS.get(usize::try_from(exponent.unsigned_abs()).ok()?)?;
        let value = significand as f64;
        Some(if exponent < 0 {
            value / power
        } else {
            value * power
        })
    }

    /// Checks a number's grammar without reading its value (serde_json does not check the
    /// range of a number it skips).
    fn skip_number(&mut self) -> Result<(), Stop> {
        if self.bytes.get(self.index) == Some(&b'-') {
            self.index += 1;
        }
        match self.bytes.get(self.index) {
            Some(b'0') => self.index += 1,
            Some(b'1'..=b'9') => {
                self.skip_digits();
            }
            _ => return Err(Stop),
        }
        self.skip_fraction_and_exponent().map(drop)
    }

    /// Consumes a number's `.digits` and `e±digits`, each when present; returns whether there
    /// was either (the number is then a float).
    #[inline]
    fn skip_fraction_and_exponent(&mut self) -> Result<bool, Stop> {
        let mut float = false;
        if self.bytes.get(self.index) == Some(&b'.') {
            self.index += 1;
            if self.skip_digits() == 0 {
                return Err(Stop);
            }
            float = true;
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.index) {
            self.index += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.index) {
                self.index += 1;
            }
            if self.skip_digits() == 0 {
                return Err(Stop);
            }
            float = true;
        }
        Ok(float)
    }

    /// Skips one value after whitespace, checking it as serde_json checks a value it skips:
    /// iteratively, with no depth limit.
    pub(super) fn skip_value(&mut self) -> Result<(), Stop> {
        self.frames.clear();
        loop {
            // A value starts here.
            match self.peek_value() {
                Some(b'n') => self.literal(b"null")?,
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'"') => self.skip_str()?,
                Some(b'-' | b'0'..=b'9') => self.skip_number()?,
                Some(b'[') => {
                    self.index += 1;
                    if self.peek_value() == Some(b']') {
                        self.index += 1;
                    } else {
                        self.frames.push(b'[');
                        continue;
                    }
                }
                Some(b'{') => {
                    self.index += 1;
                    match self.peek_value() {
                        Some(b'}') => self.index += 1,
                        Some(b'"') => {
                            self.skip_member_name()?;
                            self.frames.push(b'{');
                            continue;
                        }
                        _ => return Err(Stop),
                    }
                }
                _ => return Err(Stop),
            }
            // A value ended: close what it ends, or go on after a comma.
            loop {
                let Some(&frame) = self.frames.last() else {
                    return Ok(());
                };
                match self.peek_value() {
                    Some(b',') => {
                        self.index += 1;
                        if frame == b'{' {
                            if self.peek_value() != Some(b'"') {
                                return Err(Stop);
                            }
                            self.skip_member_name()?;
                        }
                        break;
                    }
                    Some(b']') if frame == b'[' => {
                        self.index += 1;
                        self.frames.pop();
                    }
                    Some(b'}') if frame == b'{' => {
                        self.index += 1;
                        self.frames.pop();
                    }
                    _ => return Err(Stop),
                }
            }
        }
    }

    /// Skips `"name":` (the quote is the current byte).
    fn skip_member_name(&mut self) -> Result<(), Stop> {
        self.skip_str()?;
        self.expect(b':')
    }

    /// The text from `start` to the current byte.
    pub(super) fn text_since(&self, start: usize) -> Result<&'de str, Stop> {
        self.text.get(start..self.index).ok_or(Stop)
    }
}
