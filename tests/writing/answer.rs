//! `answer`: the JSON-RPC error each kind of read error calls for, the id read back from the
//! text, and the messages that get no answer at all.

#![cfg(feature = "v2025_06_18")]
use mcp_spec_types::answer::{error_code, error_response, request_id, rpc_error};
use mcp_spec_types::dispatch::Reply;
use mcp_spec_types::v2025_06_18::{ClientMessage, ListResourcesResult};
use mcp_spec_types::{ErrorCode, MessageError, MessageErrorKind, RequestId};

/// The error the client's reader gives `line`, which must be of `kind`.
#[track_caller]
fn error(line: &str, kind: MessageErrorKind) -> MessageError {
    let error = ClientMessage::parse(line).expect_err(line);
    assert_eq!(error.kind(), kind, "{line}: {error}");
    error
}

/// Params that do not fit `resources/read` (`uri` must be a string).
const BAD_PARAMS: &str = r#"{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":7}}"#;

#[test]
fn codes_follow_json_rpc() {
    assert_eq!(
        error_code(&error("{", MessageErrorKind::Json)),
        ErrorCode::ParseError
    );
    assert_eq!(
        error_code(&error(r#"{"jsonrpc":"2.0"}"#, MessageErrorKind::Envelope)),
        ErrorCode::InvalidRequest
    );
    assert_eq!(
        error_code(&error(
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            MessageErrorKind::BatchNotAllowed
        )),
        ErrorCode::InvalidRequest
    );
    assert_eq!(
        error_code(&error(
            r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#,
            MessageErrorKind::WrongDirection
        )),
        ErrorCode::MethodNotFound
    );
    assert_eq!(
        error_code(&error(BAD_PARAMS, MessageErrorKind::Params)),
        ErrorCode::InvalidParams
    );
}

#[test]
fn ids_are_read_when_present() {
    assert_eq!(
        request_id(r#"{"id":"a","x":[1]}"#),
        Some(RequestId::from("a"))
    );
    assert_eq!(request_id(r#"{"id":null}"#), None);
    assert_eq!(request_id("[1]"), None);
    assert_eq!(request_id("not json"), None);
}

#[test]
fn notifications_and_results_get_no_answer() {
    let e = error(BAD_PARAMS, MessageErrorKind::Params);
    assert!(error_response(r#"{"jsonrpc":"2.0","method":"x","params":1}"#, &e).is_none());
    // A null id is no id, but the message still is a (broken) request that gets an answer.
    let null_id = error_response(r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#, &e).unwrap();
    assert_eq!(null_id.id, None);
    let result = Reply::<ListResourcesResult>::parse(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#)
        .expect_err("`resources` is required");
    assert_eq!(result.kind(), MessageErrorKind::Result);
    assert!(error_response("{}", &result).is_none());
    let unreadable = error_response("{", &error("{", MessageErrorKind::Json)).unwrap();
    assert_eq!(unreadable.id, None);
    assert_eq!(unreadable.code(), ErrorCode::ParseError);
    let data = rpc_error(&e).data.unwrap();
    assert_eq!(data["method"], "resources/read");
    assert_eq!(data["path"], "params.uri");
}
