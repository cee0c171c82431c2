//! A line read as a message of each side of each revision: whatever parses must serialize,
//! parse again to an equal message, and (when the input is JSON) serialize to the input's
//! JSON value.
//!
//! Input: the line. Every execution reads it as both sides' message of every revision, so
//! each revision sees every input (and the executions count per revision as they are).
//! Duplicate member names: see `mcp_spec_types_fuzz::input_value`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::{draft, v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use mcp_spec_types_fuzz::message_round_trip as check;

macro_rules! both_sides {
    ($line:expr, $($module:ident),+) => {
        $(
            let _ = check::<$module::ClientCall, $module::ClientNotify>($line);
            let _ = check::<$module::ServerCall, $module::ServerNotify>($line);
        )+
    };
}

fuzz_target!(|line: &[u8]| {
    both_sides!(
        line,
        v2024_11_05,
        v2025_03_26,
        v2025_06_18,
        v2025_11_25,
        v2026_07_28,
        draft
    );
});
