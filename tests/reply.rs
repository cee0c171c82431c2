//! `Reply::parse` reads a response in one pass to what the two-step read gives:
//! `ServerMessage::parse`, then `ResultResponse::result_as` on its result. Every case compares
//! the two, for values and for errors alike.
#![cfg(feature = "v2025_06_18")]

use mcp_spec_types::dispatch::{Message, Reply, TypedResult};
use mcp_spec_types::json::fallbacks_on_valid_input;
use mcp_spec_types::v2025_06_18::{ListResourcesResult, ServerMessage};
use mcp_spec_types::{MessageError, MessageErrorKind, RequestId};

/// The two-step read of `text` as the answer to a `resources/list` request.
fn two_steps(text: &str) -> Result<Reply<ListResourcesResult>, MessageError> {
    match ServerMessage::parse(text)? {
        Message::Response(response) => Ok(Reply::Result(TypedResult {
            result: response.result_as()?,
            id: response.id,
            extra: response.extra,
        })),
        Message::Error(error) => Ok(Reply::Error(error)),
        other => panic!("not a response: {other:?}"),
    }
}

#[track_caller]
fn reads_as_two_steps(text: &str) {
    let one = Reply::<ListResourcesResult>::parse(text);
    let two = two_steps(text);
    match (&one, &two) {
        (Ok(one), Ok(two)) => assert_eq!(one, two, "{text}"),
        (Err(one), Err(two)) => {
            assert_eq!(one.kind(), two.kind(), "{text}");
            assert_eq!(one.to_string(), two.to_string(), "{text}");
        }
        _ => panic!("{text}: one pass {one:?}, two steps {two:?}"),
    }
    assert_eq!(
        Reply::<ListResourcesResult>::parse_slice(text.as_bytes()).map_err(|e| e.to_string()),
        one.map_err(|e| e.to_string())
    );
}

const RESOURCES: &str = r#"{"resources":[{"uri":"file:///a.txt","name":"a","title":"A \"quoted\" name\n","size":12,"annotations":{"audience":["user"],"priority":0.5},"_meta":{"k":[1,2.5,-0]}}],"nextCursor":"c2"}"#;

#[test]
fn responses_read_as_the_two_step_read_gives() {
    let cases = [
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{RESOURCES}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":"s-1","result":{RESOURCES},"x-trace":{{"a":[1]}}}}"#),
        format!(r#"{{"result":{RESOURCES},"id":2,"jsonrpc":"2.0"}}"#),
        format!(" \n{{ \"jsonrpc\" : \"2.0\" , \"id\" : 3 , \"result\" : {RESOURCES} }} \n"),
        // `jsonrpc` written with an escape is still "2.0".
        format!(r#"{{"jsonrpc":"2\u002e0","id":4,"result":{RESOURCES}}}"#),
        r#"{"jsonrpc":"2.0","id":5,"result":{"resources":[]}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"file:///x"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#.to_owned(),
    ];
    for text in &cases {
        reads_as_two_steps(text);
    }
}

#[test]
fn bad_responses_get_the_two_step_reads_error() {
    let cases = [
        // The result is not a `ListResourcesResult`: the path names the member.
        r#"{"jsonrpc":"2.0","id":1,"result":{"resources":[{"uri":"file:///a","name":7}]}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resources":{}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":7}"#,
        // The envelope is wrong.
        r#"{"jsonrpc":"1.0","id":1,"result":{"resources":[]}}"#,
        r#"{"id":1,"result":{"resources":[]}}"#,
        r#"{"jsonrpc":"2.0","id":null,"result":{"resources":[]}}"#,
        r#"{"jsonrpc":"2.0","id":1.5,"result":{"resources":[]}}"#,
        r#"{"jsonrpc":"2.0","result":{"resources":[]}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resources":[]},"error":{"code":1,"message":"m"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resources":[]},"result":{"resources":[]}}"#,
        // Not JSON.
        r#"{"jsonrpc":"2.0","id":1,"result":{"resources":[]}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resources":[]}} x"#,
        "",
        "7",
    ];
    for text in cases {
        reads_as_two_steps(text);
        assert!(Reply::<ListResourcesResult>::parse(text).is_err(), "{text}");
    }
}

#[test]
fn the_path_of_a_result_error_names_the_member() {
    let text = r#"{"jsonrpc":"2.0","id":1,"result":{"resources":[{"uri":"file:///a","name":7}]}}"#;
    let error = Reply::<ListResourcesResult>::parse(text).unwrap_err();
    assert_eq!(error.kind(), MessageErrorKind::Result);
    assert_eq!(error.path(), "result.resources[0].name");
}

#[test]
fn requests_notifications_and_batches_are_not_replies() {
    for text in [
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/list","result":{"resources":[]}}"#,
        r#"[{"jsonrpc":"2.0","id":1,"result":{"resources":[]}}]"#,
    ] {
        let error = Reply::<ListResourcesResult>::parse(text).unwrap_err();
        assert_eq!(error.kind(), MessageErrorKind::Envelope, "{text}: {error}");
    }
}

#[test]
fn a_reply_writes_back_what_it_read() {
    let text = format!(r#"{{"jsonrpc":"2.0","id":"r","result":{RESOURCES},"x-trace":7}}"#);
    let reply = Reply::<ListResourcesResult>::parse(&text).unwrap();
    // The types write their members in the schema's order, so the texts are equal as JSON.
    let value = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
    assert_eq!(value(&reply.to_json().unwrap()), value(&text));
    let Reply::Result(response) = reply else {
        panic!("a result")
    };
    assert_eq!(response.id, RequestId::from("r"));
    assert_eq!(response.result.resources[0].size, Some(12));
    let error = r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32601,"message":"Method not found"}}"#;
    assert_eq!(
        Reply::<ListResourcesResult>::parse(error)
            .unwrap()
            .to_json()
            .unwrap(),
        error
    );
}

#[test]
fn valid_replies_are_read_without_serde_json() {
    let before = fallbacks_on_valid_input();
    for id in 0..50 {
        let text = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{RESOURCES}}}"#);
        assert!(matches!(
            Reply::<ListResourcesResult>::parse(&text),
            Ok(Reply::Result(_))
        ));
        assert!(ServerMessage::parse(&text).is_ok());
    }
    assert_eq!(fallbacks_on_valid_input(), before);
}
