//! A line read as a message of one side of one revision: whatever parses must serialize, parse
//! again to an equal message, and (when the input is JSON) serialize to the input's JSON value.
//!
//! Input: the first byte selects the revision (`(b >> 1) % 6`, in the order of
//! `mcp_spec_types_fuzz::REVISIONS`) and the side (`b & 1`: 0 client, 1 server); the rest is
//! the line. Duplicate member names: see `mcp_spec_types_fuzz::input_value`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::{draft, v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use mcp_spec_types_fuzz::message_round_trip as check;

macro_rules! sides {
    ($module:ident, $server:expr, $line:expr) => {
        if $server {
            let _ = check::<$module::ServerCall, $module::ServerNotify>($line);
        } else {
            let _ = check::<$module::ClientCall, $module::ClientNotify>($line);
        }
    };
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, line)) = data.split_first() else {
        return;
    };
    let server = selector & 1 == 1;
    match (selector >> 1) % 6 {
        0 => sides!(v2024_11_05, server, line),
        1 => sides!(v2025_03_26, server, line),
        2 => sides!(v2025_06_18, server, line),
        3 => sides!(v2025_11_25, server, line),
        4 => sides!(v2026_07_28, server, line),
        _ => sides!(draft, server, line),
    }
});
