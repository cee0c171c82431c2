//! Where the crate and the schema validator disagree, on purpose or not: each case pins both
//! sides' current behaviour, with the reason, so that a change on either side is noticed.
//!
//! | case | schema | crate | reason |
//! |---|---|---|---|
//! | an integer past i64 (`error.code`, a request `id`) | accepts (`integer` has no bound) | refuses | integers are `i64` (request ids, progress tokens and integer members): a peer that sends JSON numbers from JavaScript cannot exceed 2^53, and JSON-RPC ids are compared exactly |
//! | an error response without `id` (2025-11-25 and later) | accepts (`JSONRPCErrorResponse.id` is optional) | refuses (`Envelope`) | JSON-RPC 2.0 requires `id` on every response, `null` when the request's id could not be read |
//! | 2025-03-26: an empty batch (`[]`) | accepts (`JSONRPCBatchRequest` has no `minItems`) | refuses (`Envelope`) | JSON-RPC 2.0 §6: "an empty Array" is an invalid request, answered with a single error |
//! | an error response with `"id": null` | refuses (`RequestId` is a string or an integer) | accepts (`ErrorResponse::id` is `None`) | JSON-RPC 2.0 §5: a parse error or an invalid request is answered with `"id": null` |
//! | a `uri` member that is not a URI | refuses (`format: uri`, asserted by this suite's oracle) | accepts | formats are annotations in 2020-12 and the crate does not check them; `uri` is kept as the peer's text |
//! | 2026-07-28: a `tools/call` result that is a broken CallToolResult (`content[0].text` a number) | accepts: `CallToolResultResponse.result` is `anyOf [InputRequiredResult, CallToolResult]`, and InputRequiredResult requires only `resultType` and admits any other member | refuses (`Result`, at `result`) | the crate picks the arm that requires the most members present (CallToolResult) and reads only that arm; the schema's "at least one of inputRequests or requestState" is prose, not schema |
//! | 2025-06-18 and later: an elicitation answer with a fractional number (`{"score": 95.5}`) | refuses (`ElicitResult.content` says `integer`) | accepts | the schema's TypeScript source says `number`, and a form's number field asks for one: the generated schema.json lost it (a named patch in `codegen/patches.rs`) |
//! | 2026-07-28: a `resources/read` result without `contents` | accepts (as InputRequiredResult) | accepts (as InputRequiredResult) | agreement, noted: a complete result missing a required member is not refused by either |

use crate::oracle::oracle;
use crate::revision::{Kind, Revision};
use mcp_spec_types::MessageErrorKind;
use serde_json::json;
use serde_json::value::RawValue;

fn check<R: Revision>() {
    let oracle = oracle(R::NAME);
    let errors = oracle.all_of(vec![oracle.message(), oracle.error_envelope()]);

    // An integer past i64.
    let big = json!({ "jsonrpc": "2.0", "id": 1, "error": { "code": 9223372036854775808u64, "message": "m" } });
    assert!(
        oracle.is_valid(&errors, &big),
        "{}: the schema accepts error.code 2^63",
        R::NAME
    );
    let e = R::parse_server(&big.to_string()).expect_err("the crate refuses error.code 2^63");
    assert_eq!(
        (e.kind(), e.path()),
        (MessageErrorKind::ErrorObject, "error.code"),
        "{e}"
    );
    let big_id = json!({ "jsonrpc": "2.0", "id": 9223372036854775808u64, "method": "ping" });
    assert!(
        oracle.is_valid(&oracle.message(), &big_id),
        "{}: the schema accepts id 2^63",
        R::NAME
    );
    let e = R::parse_client(&big_id.to_string()).expect_err("the crate refuses id 2^63");
    assert_eq!(
        (e.kind(), e.path()),
        (MessageErrorKind::Envelope, "id"),
        "{e}"
    );

    // An error response without id.
    let no_id = json!({ "jsonrpc": "2.0", "error": { "code": -32700, "message": "Parse error" } });
    let schema_accepts = oracle.is_valid(&errors, &no_id);
    assert_eq!(
        schema_accepts,
        oracle.has("JSONRPCErrorResponse"),
        "{}: the schema admits an error response without id from 2025-11-25 on",
        R::NAME
    );
    let e = R::parse_server(&no_id.to_string()).expect_err("the crate refuses an error without id");
    assert_eq!(e.kind(), MessageErrorKind::Envelope, "{e}");

    // An error response with a null id.
    let null_id = json!({ "jsonrpc": "2.0", "id": null, "error": { "code": -32700, "message": "Parse error" } });
    assert!(
        !oracle.is_valid(&errors, &null_id),
        "{}: the schema refuses id null",
        R::NAME
    );
    let parsed = R::parse_server(&null_id.to_string()).expect("the crate accepts id null");
    assert_eq!(parsed.kind, Kind::Error);
    assert_eq!(parsed.back, null_id, "written back unchanged");

    // A uri that is not a URI.
    let resource = json!({ "uri": "not a uri", "name": "a" });
    assert!(
        !oracle.is_valid(&oracle.def("Resource"), &resource),
        "{}: format uri is asserted",
        R::NAME
    );
    let back = R::roundtrip("Resource", resource.clone())
        .expect("Resource is in the table")
        .expect("the crate accepts any text as uri");
    assert_eq!(back, resource);
}

/// 2026-07-28 and draft: the result unions with InputRequiredResult.
#[allow(dead_code)] // Without those revisions' features.
fn input_required_catch_all<R: Revision>() {
    let oracle = oracle(R::NAME);
    let response = |method: &str| {
        oracle.all_of(vec![
            oracle.message(),
            oracle.response_schema(method).expect("a response schema"),
        ])
    };
    let raw = |v: &serde_json::Value| RawValue::from_string(v.to_string()).unwrap();

    let broken_tool_result =
        json!({ "resultType": "complete", "content": [{ "type": "text", "text": 5 }] });
    let message = json!({ "jsonrpc": "2.0", "id": 1, "result": broken_tool_result });
    assert!(
        oracle.is_valid(&response("tools/call"), &message),
        "{}: the schema accepts it",
        R::NAME
    );
    let e = R::client_call_result("tools/call", &raw(&broken_tool_result))
        .expect_err("the crate refuses a broken CallToolResult");
    assert_eq!(
        (e.kind(), e.path()),
        (MessageErrorKind::Result, "result.content[0].text"),
        "{e}"
    );

    let no_contents = json!({ "resultType": "complete", "ttlMs": 1, "cacheScope": "private" });
    let message = json!({ "jsonrpc": "2.0", "id": 1, "result": no_contents });
    assert!(
        oracle.is_valid(&response("resources/read"), &message),
        "{}: the schema accepts it",
        R::NAME
    );
    let (back, _) = R::client_call_result("resources/read", &raw(&no_contents))
        .expect("the crate accepts it as InputRequiredResult");
    assert_eq!(back, no_contents);
}

/// 2025-06-18 and later: the patched `ElicitResult.content` takes any JSON number.
#[allow(dead_code)] // Without those revisions' features.
fn elicitation_numbers<R: Revision>() {
    let oracle = oracle(R::NAME);
    let schema = oracle.all_of(vec![
        oracle.message(),
        oracle
            .response_schema("elicitation/create")
            .expect("a response schema"),
    ]);
    let answer = json!({ "action": "accept", "content": { "score": 95.5, "age": 30 } });
    let message = json!({ "jsonrpc": "2.0", "id": 1, "result": answer });
    assert!(
        !oracle.is_valid(&schema, &message),
        "{}: schema.json refuses 95.5; when it stops, drop the patch",
        R::NAME
    );
    let raw = RawValue::from_string(answer.to_string()).unwrap();
    let (back, _) = R::server_call_result("elicitation/create", &raw)
        .expect("the crate accepts a fractional number, as schema.ts says");
    assert_eq!(back, answer);
    // Still no objects: only the scalar types (and string lists) the source names.
    let object = json!({ "action": "accept", "content": { "score": { "n": 1 } } });
    let raw = RawValue::from_string(object.to_string()).unwrap();
    assert!(R::server_call_result("elicitation/create", &raw).is_err());
}

/// One test per revision for a check generic over the revision: `$check::<$ty>()` under
/// `$feature`.
macro_rules! revision_test {
    ($check:ident: $($feature:literal, $name:ident, $ty:ident;)*) => {
        $(
            #[cfg(feature = $feature)]
            #[test]
            fn $name() {
                $check::<crate::revision::$ty>();
            }
        )*
    };
}

revision_test!(check:
    "v2024_11_05", disagreements_v2024_11_05, V2024_11_05;
    "v2025_03_26", disagreements_v2025_03_26, V2025_03_26;
    "v2025_06_18", disagreements_v2025_06_18, V2025_06_18;
    "v2025_11_25", disagreements_v2025_11_25, V2025_11_25;
    "v2026_07_28", disagreements_v2026_07_28, V2026_07_28;
    "unstable-draft", disagreements_draft, Draft;
);
revision_test!(input_required_catch_all:
    "v2026_07_28", input_required_catch_all_v2026_07_28, V2026_07_28;
    "unstable-draft", input_required_catch_all_draft, Draft;
);
// Every revision the patch in `codegen/patches.rs` names.
revision_test!(elicitation_numbers:
    "v2025_06_18", elicitation_numbers_v2025_06_18, V2025_06_18;
    "v2025_11_25", elicitation_numbers_v2025_11_25, V2025_11_25;
    "v2026_07_28", elicitation_numbers_v2026_07_28, V2026_07_28;
    "unstable-draft", elicitation_numbers_draft, Draft;
);
