//! A response's `result` read as the result of each resource method of each revision
//! (`resources/list`, `resources/read`, `resources/templates/list`, and `resources/subscribe`
//! and `resources/unsubscribe` where they exist): whatever parses must serialize, parse again
//! to an equal value, and (when the input is JSON) serialize to the input's JSON value. The
//! generated result type read directly must agree with the dispatch, and the contents
//! helpers never panic.
//!
//! Input: the result. Every execution reads it as the result of every method above of every
//! revision, so each revision sees every input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::{draft, v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
use mcp_spec_types_fuzz::result_round_trip;

const WITH_SUBSCRIBE: &[&str] = &[
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
];
const STATELESS: &[&str] = &[
    "resources/list",
    "resources/read",
    "resources/templates/list",
];

/// Checks the typed struct itself against the dispatch's answer.
fn direct<T>(raw: &[u8], dispatched: Option<&T>)
where
    T: serde::de::DeserializeOwned + serde::Serialize + PartialEq + std::fmt::Debug,
{
    let direct = serde_json::from_slice::<T>(raw).ok();
    if let Some(direct) = &direct {
        // The same type through serde alone: what it writes reads back equal.
        let text = serde_json::to_string(direct).expect("serializes");
        let again: T =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("reparse of {text} failed: {e}"));
        assert_eq!(direct, &again);
    }
    assert_eq!(
        direct.as_ref(),
        dispatched,
        "serde and the dispatch disagree"
    );
}

macro_rules! revision {
    // Before 2026-07-28 `resources/read` answers a `ReadResourceResult`.
    ($module:ident, $methods:expr, $raw:expr) => {{
        fn contents(
            r: &$module::ReadResourceResult,
        ) -> Option<&Vec<$module::ReadResourceResultContentsItem>> {
            Some(&r.contents)
        }
        revision!($module, $methods, $raw, ReadResourceResult, contents)
    }};
    // From 2026-07-28 it may also answer an `InputRequiredResult`.
    ($module:ident, $methods:expr, $raw:expr, stateless) => {{
        fn contents(
            r: &$module::ReadResourceResultOrInputRequired,
        ) -> Option<&Vec<$module::ReadResourceResultContentsItem>> {
            match r {
                $module::ReadResourceResultOrInputRequired::ReadResourceResult(r) => {
                    Some(&r.contents)
                }
                _ => None,
            }
        }
        revision!(
            $module,
            $methods,
            $raw,
            ReadResourceResultOrInputRequired,
            contents
        )
    }};
    ($module:ident, $methods:expr, $raw:expr, $read:ident, $contents:ident) => {{
        #[allow(unused_imports)]
        use $module::$read;
        #[allow(unused_imports)]
        use $module::{ClientCallResult as C, ListResourceTemplatesResult, ListResourcesResult};
        let methods: &[&str] = $methods;
        for &method in methods {
            let parsed = result_round_trip(method, $raw, |method, raw| {
                C::parse(
                    &mcp_spec_types::dispatch::PendingRequest::without_task(method),
                    raw,
                )
            });
            match (method, parsed.as_ref()) {
                ("resources/read", parsed) => {
                    let read = match parsed {
                        Some(C::ReadResource(r)) => Some(r),
                        Some(other) => panic!("resources/read typed as {other:?}"),
                        None => None,
                    };
                    direct::<$read>($raw, read);
                    if let Some(contents) = read.and_then($contents) {
                        for item in contents {
                            let _ = (item.uri(), item.mime_type(), item.as_text());
                            let _ = item.to_bytes();
                        }
                    }
                }
                ("resources/list", parsed) => {
                    let list = match parsed {
                        Some(C::ListResources(r)) => Some(r),
                        Some(other) => panic!("resources/list typed as {other:?}"),
                        None => None,
                    };
                    direct::<ListResourcesResult>($raw, list);
                }
                ("resources/templates/list", parsed) => {
                    let list = match parsed {
                        Some(C::ListResourceTemplates(r)) => Some(r),
                        Some(other) => panic!("resources/templates/list typed as {other:?}"),
                        None => None,
                    };
                    direct::<ListResourceTemplatesResult>($raw, list);
                    if let Some(list) = list {
                        for template in &list.resource_templates {
                            if let Ok(parsed) = template.parse_uri_template() {
                                let _ = parsed.match_uri(&template.uri_template);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }};
}

fuzz_target!(|raw: &[u8]| {
    revision!(v2024_11_05, WITH_SUBSCRIBE, raw);
    revision!(v2025_03_26, WITH_SUBSCRIBE, raw);
    revision!(v2025_06_18, WITH_SUBSCRIBE, raw);
    revision!(v2025_11_25, WITH_SUBSCRIBE, raw);
    revision!(v2026_07_28, STATELESS, raw, stateless);
    revision!(draft, STATELESS, raw, stateless);
});
