//! Finding the end of a run of string bytes that need no attention.
//!
//! Inside a JSON string only three kinds of byte end a plain run: `"` (the end of the string),
//! `\` (an escape) and a control character below `0x20` (an error). serde_json looks for them
//! eight bytes at a time in a `u64`, and so does this reader for the first 16 bytes of a run
//! (most runs are shorter). Past those, the test is written over 64-byte arrays, which the
//! compiler turns into 16-byte vector compares on every target that has them (SSE2 is part of
//! x86-64 itself; NEON of aarch64), without `unsafe` and without target flags.

// tests/json_reader.rs compiles this file by itself to test `run_end`, which the crate keeps
// private: it uses nothing of the crate.

/// Whether `byte` ends a plain run inside a string.
#[inline(always)]
fn ends_run(byte: u8) -> bool {
    // `|`, not `||`: no branches, so the per-byte tests become one vector compare each.
    (byte == b'"') | (byte == b'\\') | (byte < 0x20)
}

/// Whether any byte of `chunk` ends a plain run.
#[inline(always)]
fn any_ends_run<const N: usize>(chunk: &[u8; N]) -> bool {
    chunk
        .iter()
        .fold(0u8, |found, &byte| found | u8::from(ends_run(byte)))
        != 0
}

/// One bit per byte of a little-endian `u64`: the high bit of each byte.
const ONES: u64 = u64::MAX / 255;

/// The high bit of every byte of `word` that ends a plain run, and possibly of bytes after the
/// first such byte (a borrow can carry into them), never of bytes before it: the lowest set bit
/// marks the first ending byte exactly. serde_json's test.
#[inline(always)]
fn word_ends_run(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    let quotes = word ^ (ONES * u64::from(b'"'));
    let quote = quotes.wrapping_sub(ONES) & !quotes;
    let backslashes = word ^ (ONES * u64::from(b'\\'));
    let backslash = backslashes.wrapping_sub(ONES) & !backslashes;
    (control | quote | backslash) & (ONES << 7)
}

/// The index of the first byte at or after `from` that ends a plain run (`"`, `\` or a
/// control character), or `bytes.len()` when there is none.
#[inline(always)]
pub(super) fn run_end(bytes: &[u8], mut from: usize) -> usize {
    // Most strings (member names, identifiers, short values, the text between two escapes)
    // end within 16 bytes: two words, where the position comes straight out of the test.
    for _ in 0..2 {
        match bytes.get(from..).and_then(<[u8]>::first_chunk::<8>) {
            Some(word) => {
                let found = word_ends_run(u64::from_le_bytes(*word));
                if found != 0 {
                    return from + (found.trailing_zeros() / 8) as usize;
                }
                from += 8;
            }
            None => return run_end_slowly(bytes, from),
        }
    }
    // A longer run: 16 bytes a step with the vector test up to 64 bytes in (URIs, names,
    // descriptions end there), then 64 a step; then 16 within the 64 that hold the end, and
    // the word within the 16.
    let mut steps = 3;
    while let Some(chunk) = bytes.get(from..).and_then(<[u8]>::first_chunk::<16>) {
        if any_ends_run(chunk) {
            return locate_in_words(bytes, from);
        }
        from += 16;
        steps -= 1;
        if steps == 0 {
            break;
        }
    }
    while let Some(chunk) = bytes.get(from..).and_then(<[u8]>::first_chunk::<64>) {
        if any_ends_run(chunk) {
            break;
        }
        from += 64;
    }
    while let Some(chunk) = bytes.get(from..).and_then(<[u8]>::first_chunk::<16>) {
        if any_ends_run(chunk) {
            break;
        }
        from += 16;
    }
    locate_in_words(bytes, from)
}

/// The first ending byte at or after `from`, a word at a time.
#[inline(always)]
fn locate_in_words(bytes: &[u8], mut from: usize) -> usize {
    while let Some(word) = bytes.get(from..).and_then(<[u8]>::first_chunk::<8>) {
        let found = word_ends_run(u64::from_le_bytes(*word));
        if found != 0 {
            return from + (found.trailing_zeros() / 8) as usize;
        }
        from += 8;
    }
    run_end_slowly(bytes, from)
}

/// The last few bytes of the text, one at a time.
#[cold]
fn run_end_slowly(bytes: &[u8], mut from: usize) -> usize {
    while let Some(&byte) = bytes.get(from) {
        if ends_run(byte) {
            return from;
        }
        from += 1;
    }
    from
}
