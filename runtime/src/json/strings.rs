//! Strings: which bytes need an escape (eight at a time, and 64 in long runs), and the escaped
//! copy (the writer's one `unsafe` block, in [`write_escaped_from`]).

use crate::prelude::*;
use core::fmt;
use serde::ser::Error as _;
use serde_json::Error;

/// `0x01` in every byte.
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// `0x80` in every byte.
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
/// `0x20` in every byte.
const SPACES: u64 = u64::from_le_bytes([0x20; 8]);
/// `"` in every byte.
const QUOTES: u64 = u64::from_le_bytes([b'"'; 8]);
/// `\` in every byte.
const BACKSLASHES: u64 = u64::from_le_bytes([b'\\'; 8]);

/// The bytes of `word` (read little-endian) that must be escaped: bit 7 of a byte is set in the
/// result when the byte is below `0x20`, `"` or `\`.
///
/// `x - 0x20` borrows (sets bit 7, with bit 7 of `x` clear) exactly when the byte `x` is below
/// `0x20`; comparing with `"` and `\` is the same test for zero on `word ^ pattern`. A borrow can
/// only mark a byte *above* a byte that really matches, so the lowest set bit is always exact:
/// `trailing_zeros() / 8` is the index of the first byte to escape.
#[inline(always)]
fn escape_mask(word: u64) -> u64 {
    let below_space = word.wrapping_sub(SPACES) & !word;
    let quote = word ^ QUOTES;
    let quote = quote.wrapping_sub(ONES) & !quote;
    let backslash = word ^ BACKSLASHES;
    let backslash = backslash.wrapping_sub(ONES) & !backslash;
    (below_space | quote | backslash) & HIGHS
}

/// The index of the first byte to escape among the 16 of `block`, 16 when there is none (or
/// `block` is not 16 bytes long), without a branch: both words' masks as one `u128`, whose
/// `trailing_zeros` is a conditional move rather than a jump.
#[inline(always)]
fn escape_index_16(block: &[u8]) -> usize {
    let Ok(block) = <[u8; 16]>::try_from(block) else {
        return 16;
    };
    let pair = u128::from_le_bytes(block);
    let mask =
        u128::from(escape_mask(pair as u64)) | (u128::from(escape_mask((pair >> 64) as u64)) << 64);
    (mask.trailing_zeros() / 8) as usize
}

/// The index of the first byte to escape among 16 (`None` when `block` is not 16 bytes long):
/// two words tested, one branch.
#[inline(always)]
fn first_escape_in_16(block: &[u8]) -> Option<usize> {
    let pair = u128::from_le_bytes(<[u8; 16]>::try_from(block).ok()?);
    let low = escape_mask(pair as u64);
    let high = escape_mask((pair >> 64) as u64);
    if low | high == 0 {
        return None;
    }
    let index = if low != 0 {
        low.trailing_zeros() / 8
    } else {
        8 + high.trailing_zeros() / 8
    };
    Some(index as usize)
}

/// Whether any byte of `chunk` must be escaped: written byte by byte without branches (`|`,
/// not `||`), which the compiler turns into 16-byte vector compares on every target that has
/// them (SSE2 is part of x86-64 itself), without `unsafe` and without target flags.
#[inline(always)]
fn any_escape<const N: usize>(chunk: &[u8; N]) -> bool {
    chunk.iter().fold(0u8, |found, &byte| {
        found | u8::from((byte < 0x20) | (byte == b'"') | (byte == b'\\'))
    }) != 0
}

/// The index of the first byte of `bytes` at or after `from` that must be escaped.
#[inline]
fn find_escape(bytes: &[u8], from: usize) -> Option<usize> {
    let mut offset = from;
    // 16 bytes per step (two words, one branch), then 8, then the tail.
    let mut steps = 0;
    while let Some(pair) = bytes.get(offset..offset + 16) {
        if let Some(index) = first_escape_in_16(pair) {
            return Some(offset + index);
        }
        offset += 16;
        steps += 1;
        if steps == 4 {
            // 64 bytes without an escape: a long run (a base64 blob, a long text). The rest of
            // it 64 bytes a step, with a test the compiler makes vector compares; the 16-byte
            // steps then find the escape within the 64 bytes that hold it.
            while let Some(chunk) = bytes.get(offset..).and_then(<[u8]>::first_chunk::<64>) {
                if any_escape(chunk) {
                    break;
                }
                offset += 64;
            }
        }
    }
    let mut chunks = bytes.get(offset..)?.chunks_exact(8);
    for chunk in &mut chunks {
        if let Ok(chunk) = <[u8; 8]>::try_from(chunk) {
            let mask = escape_mask(u64::from_le_bytes(chunk));
            if mask != 0 {
                return Some(offset + (mask.trailing_zeros() / 8) as usize);
            }
        }
        offset += 8;
    }
    let tail = chunks.remainder();
    if tail.is_empty() {
        return None;
    }
    // 1 to 7 bytes are left. When the string has 8 bytes or more, read its last 8 and shift out
    // the bytes already seen (not masking them: a byte already seen that must be escaped could
    // mark the next one); otherwise assemble the word from overlapping smaller reads. Either way
    // the top is filled with spaces, which never need an escape, and nothing is copied to the
    // stack (a copy followed by a wide load stalls).
    let word = match last_word(bytes) {
        Some(last) => last >> (8 * (8 - tail.len())),
        None => short_word(tail),
    } | (SPACES << (8 * tail.len()));
    let mask = escape_mask(word);
    if mask == 0 {
        None
    } else {
        Some(offset + (mask.trailing_zeros() / 8) as usize)
    }
}

/// The last 8 bytes of `bytes` as a little-endian word, if it has 8.
#[inline(always)]
fn last_word(bytes: &[u8]) -> Option<u64> {
    let start = bytes.len().checked_sub(8)?;
    let last = <[u8; 8]>::try_from(bytes.get(start..)?).ok()?;
    Some(u64::from_le_bytes(last))
}

/// The bytes of `short` (at most 7) as a little-endian word, zero above them: two reads that
/// overlap (the shared bytes are equal, so or-ing them is harmless).
#[inline(always)]
fn short_word(short: &[u8]) -> u64 {
    let len = short.len();
    let read4 = |at: usize| {
        short
            .get(at..at + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map_or(0, |b| u64::from(u32::from_le_bytes(b)))
    };
    let read2 = |at: usize| {
        short
            .get(at..at + 2)
            .and_then(|b| <[u8; 2]>::try_from(b).ok())
            .map_or(0, |b| u64::from(u16::from_le_bytes(b)))
    };
    if len >= 4 {
        read4(0) | (read4(len - 4) << (8 * (len - 4)))
    } else if len >= 2 {
        read2(0) | (read2(len - 2) << (8 * (len - 2)))
    } else {
        short.first().map_or(0, |&b| u64::from(b))
    }
}

/// The character after the backslash of each byte's escape, as `serde_json` writes it: `"`,
/// `\\`, `b`, `t`, `n`, `f`, `r` for the short escapes, `u` for the other bytes below `0x20`
/// (written `\u00XX`), 0 for the bytes written as they are. A table rather than a `match`: the
/// compiler turns the `match` into a jump table, whose indirect jump is mispredicted at nearly
/// every escape of escape-dense text.
const ESCAPES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0A] = b'n';
    table[0x0C] = b'f';
    table[0x0D] = b'r';
    table
};

/// Each byte's escape sequence as `serde_json` writes it, in the first six bytes of its entry,
/// and the sequence's length in the last (0 for a byte written as it is): an escape is then
/// written with one 8-byte copy and the buffer cut back to its length, with no branch on its
/// kind. In escape-dense text the kinds come at random, and a branch on whether the escape
/// needs its four hexadecimal digits is mispredicted at a third of them.
const ESCAPE_SEQUENCES: [[u8; 8]; 256] = {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let escape = ESCAPES[byte];
        if escape == b'u' {
            table[byte] = [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[byte >> 4],
                HEX[byte & 0xF],
                0,
                6,
            ];
        } else if escape != 0 {
            table[byte] = [b'\\', escape, 0, 0, 0, 0, 0, 2];
        }
        byte += 1;
    }
    table
};

/// Appends the escape sequence of a byte that [`escape_mask`] marks, as `serde_json` writes
/// it: `\"`, `\\`, the five short escapes `\b` `\t` `\n` `\f` `\r`, and `\u00XX` with
/// lowercase hexadecimal digits for the other bytes below `0x20` (see [`ESCAPE_SEQUENCES`]).
#[inline(always)]
fn push_escape(out: &mut Vec<u8>, byte: u8) {
    let sequence = &ESCAPE_SEQUENCES[usize::from(byte)];
    out.extend_from_slice(sequence);
    out.truncate(out.len() - 8 + usize::from(sequence[7]));
}

/// Appends the contents of a JSON string (without the quotes) for `value`.
#[inline]
fn write_escaped_contents(out: &mut String, value: &str) {
    match find_escape(value.as_bytes(), 0) {
        None => out.push_str(value),
        Some(first) => write_escaped_from(out, value, first),
    }
}

/// Appends the contents of a JSON string for `value`, whose first byte to escape is `first`.
///
/// Text with many escapes is written 16 bytes at a time, as bytes: a block of 16 is copied (a
/// copy of fixed length, where `memcpy` of each run between escapes mispredicts its branch on
/// the length at nearly every escape), then cut back to the bytes before its first escape, and
/// the escape written. Where the escapes fall is random in such text, so no step branches on
/// it: the position of the first escape comes out of one `u128` (a conditional move), and an
/// escape is always written, then taken back when the block held none.
fn write_escaped_from(out: &mut String, value: &str, first: usize) {
    // SAFETY: `as_mut_vec` lets the bytes be changed without checks, on condition that they
    // are UTF-8 again before the `String` is used. `write_escaped_bytes` appends `value`'s
    // bytes in order, with every byte that must be escaped (all ASCII) replaced by its ASCII
    // escape, and cuts back only to just before such a byte: the bytes appended are UTF-8 when
    // it returns. A block copied in passing may end inside a character for a moment; the next
    // block or the last run completes it before the function returns. Nothing in between
    // panics but growing the buffer past `isize::MAX` bytes (more output than memory holds;
    // a failed allocation aborts), and that would unwind out of `json::to_string`, whose
    // serializer owns the `String` and is dropped without being read.
    // Why `unsafe`: the safe version has to copy each block as a `&str` (so cut at a character
    // boundary: 13 to 16 bytes, a branch mispredicted wherever a block ends inside a
    // character) and checks every cut; on the bench's W2 (1 MiB of text, an escape every 13
    // bytes) it ran 12.74M instructions a pass against 10.39M here, and 1.2-1.3x the best
    // peer's speed against 1.7-1.9x here, about 1.4x slower (bench/README.md, "The writer").
    let out = unsafe { out.as_mut_vec() };
    let before = out.len();
    write_escaped_bytes(out, value.as_bytes(), first);
    debug_assert!(out
        .get(before..)
        .is_some_and(|new| core::str::from_utf8(new).is_ok()));
}

/// [`write_escaped_from`] over bytes.
#[inline(always)]
fn write_escaped_bytes(out: &mut Vec<u8>, bytes: &[u8], first: usize) {
    if let Some(run) = bytes.get(..first) {
        out.extend_from_slice(run);
    }
    if let Some(&byte) = bytes.get(first) {
        push_escape(out, byte);
    }
    let mut start = first + 1;
    while let Some(block) = bytes.get(start..).and_then(<[u8]>::first_chunk::<16>) {
        out.extend_from_slice(block);
        let clean = escape_index_16(block);
        // `clean` is 16 when the block holds no escape: then nothing is cut, and the byte
        // looked up is one written as it is, whose sequence has length 0: the eight bytes
        // written after the block are all taken back.
        let none = clean >> 4;
        let sequence = &ESCAPE_SEQUENCES[usize::from(block[clean & 15])];
        out.truncate(out.len() - (16 - clean));
        out.extend_from_slice(sequence);
        out.truncate(out.len() - 8 + usize::from(sequence[7]));
        start += clean + 1 - none;
    }
    // The last bytes: one run and one escape at a time (or the end).
    loop {
        match next_escape(bytes, start) {
            Some(index) => {
                if let Some(run) = bytes.get(start..index) {
                    out.extend_from_slice(run);
                }
                if let Some(&byte) = bytes.get(index) {
                    push_escape(out, byte);
                }
                start = index + 1;
            }
            None => {
                if let Some(run) = bytes.get(start..) {
                    out.extend_from_slice(run);
                }
                return;
            }
        }
    }
}

/// [`find_escape`] for text dense with escapes: the word right after the last escape is tested
/// here, without the setup of a full scan, since the next escape is often close.
#[inline(always)]
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    let word = bytes
        .get(from..from + 8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(u64::from_le_bytes);
    match word {
        Some(word) => {
            let mask = escape_mask(word);
            if mask != 0 {
                Some(from + (mask.trailing_zeros() / 8) as usize)
            } else {
                find_escape(bytes, from + 8)
            }
        }
        None => find_escape(bytes, from),
    }
}

/// Appends `value` as a JSON string, quotes included.
#[inline]
pub(super) fn write_escaped_str(out: &mut String, value: &str) {
    // Room for the quotes, and for a long string also for some escapes and what usually
    // follows (a few closing brackets): a long string that filled the buffer it reserved
    // exactly would be copied again at the next byte. Short strings reserve only what they
    // need, which keeps the buffer of a small message from growing early.
    let room = if value.len() < 4096 {
        2
    } else {
        value.len() / 8 + 16
    };
    out.reserve(value.len() + room);
    out.push('"');
    write_escaped_contents(out, value);
    out.push('"');
}

/// Escapes what a `Display` implementation writes, piece by piece.
pub(super) struct EscapingWriter<'a>(pub(super) &'a mut String);

impl fmt::Write for EscapingWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        write_escaped_contents(self.0, s);
        Ok(())
    }
}

/// The error for a `Display` implementation that failed by itself (`serde_json` panics).
pub(super) fn display_error() -> Error {
    Error::custom("a Display implementation returned an error unexpectedly")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SWAR scan agrees with a byte-by-byte scan for every byte at every position of a
    /// string of 1 to 17 bytes, starting the scan at every offset.
    #[test]
    fn find_escape_matches_bytewise_scan() {
        let needs_escape = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
        for byte in 0..=u8::MAX {
            for len in 1..=17 {
                for position in 0..len {
                    for fill in [b'a', 0xC3, 0x7F, 0xFF, 0x21, 0x23, 0x5D, 0x1F, 0x00] {
                        let mut bytes = vec![fill; len];
                        bytes[position] = byte;
                        for from in 0..=len {
                            let expected = bytes[from..]
                                .iter()
                                .position(|&b| needs_escape(b))
                                .map(|index| from + index);
                            assert_eq!(
                                find_escape(&bytes, from),
                                expected,
                                "{bytes:?} from {from} (byte {byte:#x} at {position})"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Long runs, where 64-byte steps follow the first four 16-byte ones: one byte to escape at
    /// every position of strings around those sizes, from several starting offsets.
    #[test]
    fn find_escape_in_long_runs_matches_bytewise_scan() {
        let needs_escape = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
        for len in [
            63, 64, 65, 79, 80, 81, 127, 128, 129, 143, 144, 145, 200, 257,
        ] {
            for fill in [b'a', 0xC3, 0x7F] {
                for byte in [b'"', b'\\', 0x00, 0x1F, b' '] {
                    for position in 0..len {
                        let mut bytes = vec![fill; len];
                        bytes[position] = byte;
                        for from in [0, 1, 15, 16, 17, 63, 64, 65] {
                            let expected = bytes
                                .get(from..)
                                .and_then(|rest| rest.iter().position(|&b| needs_escape(b)))
                                .map(|index| from + index);
                            assert_eq!(
                                find_escape(&bytes, from),
                                expected,
                                "len {len}, byte {byte:#x} at {position}, from {from}"
                            );
                        }
                    }
                }
            }
        }
    }
}
