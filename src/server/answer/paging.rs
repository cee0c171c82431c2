//! Lists in pages: the cursor a page gives for the next, and the refusal of one it did not
//! give.

use crate::prelude::*;
use crate::RpcError;

/// The page of `entries` that `cursor` points at (the first page without one), at most `size`
/// entries (at least one), and the cursor of the next page when there is one.
///
/// A cursor is the index of its page's first entry, as text: a client must not read it (the
/// specification makes cursors opaque), and one the list cannot have given, such as an index
/// past its end, is refused with -32602 ("Invalid cursor"), as the specification asks.
///
/// ```
/// use mcp_spec_types::server::page;
///
/// let names = ["a", "b", "c"];
/// let (first, next) = page(&names, None, 2).unwrap();
/// assert_eq!((first, next.as_deref()), (&names[..2], Some("2")));
/// let (last, next) = page(&names, Some("2"), 2).unwrap();
/// assert_eq!((last, next), (&names[2..], None));
/// assert_eq!(page(&names, Some("7"), 2).unwrap_err().code.code(), -32602);
/// ```
///
/// # Errors
///
/// -32602 for a cursor that is not the index of an entry.
pub fn page<'a, T>(
    entries: &'a [T],
    cursor: Option<&str>,
    size: usize,
) -> Result<(&'a [T], Option<String>), RpcError> {
    let start = match cursor {
        None => 0,
        Some(cursor) => match cursor.parse::<usize>() {
            // `parse` takes a leading `+`: a cursor the list gave has none.
            Ok(start) if start < entries.len() && !cursor.starts_with('+') => start,
            _ => return Err(RpcError::invalid_params("Invalid cursor")),
        },
    };
    let end = start.saturating_add(size.max(1)).min(entries.len());
    let next = (end < entries.len()).then(|| end.to_string());
    Ok((&entries[start..end], next))
}
