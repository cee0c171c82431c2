//! `Message::parse_answering`: a response to a pending request comes back typed as that
//! request's result, whatever the order of its members (one pass when the `id` comes first,
//! two otherwise), with what `parse` and `parse_result` would give; every other line is what
//! `parse` gives.
#![cfg(feature = "v2025_11_25")]

use mcp_spec_types::dispatch::{
    answers_read_in_one_pass, Message, Parsed, PendingRequest, PendingRequests,
};
use mcp_spec_types::v2025_11_25::{ClientCall, ClientCallResult, ServerMessage};
use mcp_spec_types::{Direction, RequestId};
use serde_json::{json, Map, Value};

type Read = Parsed<
    mcp_spec_types::v2025_11_25::ServerCall,
    mcp_spec_types::v2025_11_25::ServerNotify,
    ClientCallResult,
>;

fn pending(id: i64, method: &str) -> PendingRequests {
    let mut pending = PendingRequests::new();
    let request = PendingRequest::without_task(method);
    pending.insert(Direction::ClientToServer, RequestId::from(id), request);
    pending
}

fn read(line: &str, pending: &mut PendingRequests) -> Read {
    ServerMessage::parse_answering::<ClientCall>(line, pending).unwrap()
}

/// The result as `parse` then `parse_result` type it: what the one pass must agree with.
fn two_passes(line: &str, method: &str) -> ClientCallResult {
    let Message::Response(response) = ServerMessage::parse(line).unwrap() else {
        panic!("not a response: {line}")
    };
    let request = PendingRequest::without_task(method);
    ClientCallResult::parse(&request, &response.result).unwrap()
}

/// Every order of `members` as a JSON object's text.
fn orders(members: &[(&str, Value)]) -> Vec<String> {
    let mut all = Vec::new();
    let mut indexes: Vec<usize> = (0..members.len()).collect();
    permute(&mut indexes, 0, &mut |order| {
        let written: Vec<String> = order
            .iter()
            .map(|&i| format!("{}:{}", json!(members[i].0), members[i].1))
            .collect();
        all.push(format!("{{{}}}", written.join(",")));
    });
    all
}

fn permute(items: &mut Vec<usize>, from: usize, each: &mut dyn FnMut(&[usize])) {
    if from == items.len() {
        return each(items);
    }
    for i in from..items.len() {
        items.swap(from, i);
        permute(items, from + 1, each);
        items.swap(from, i);
    }
}

#[test]
fn an_answer_is_typed_the_same_whatever_the_order_of_its_members() {
    let result = json!({
        "resources": [
            {"uri": "file:///a", "name": "a", "title": "Ä", "annotations": {"priority": 0.5}},
            {"uri": "file:///b", "name": "b", "description": "\"quoted\" \\ 🦀"}
        ],
        "nextCursor": "c2",
        "_meta": {"k": 1}
    });
    let members = [
        ("jsonrpc", json!("2.0")),
        ("id", json!(7)),
        ("result", result),
        ("x-trace", json!({"span": 3})),
    ];
    let lines = orders(&members);
    assert_eq!(lines.len(), 24);
    let expected = two_passes(&lines[0], "resources/list");
    let ClientCallResult::ListResources(list) = &expected else {
        panic!("{expected:?}")
    };
    assert_eq!(list.resources.len(), 2);
    let mut extra = Map::new();
    extra.insert("x-trace".into(), json!({"span": 3}));
    let mut one_pass = 0;
    for line in &lines {
        let mut pending = pending(7, "resources/list");
        let before = answers_read_in_one_pass();
        let Parsed::Answer {
            id,
            request,
            result,
            extra: kept,
        } = read(line, &mut pending)
        else {
            panic!("not an answer: {line}")
        };
        assert_eq!(id, RequestId::from(7), "{line}");
        assert_eq!(request.method(), "resources/list", "{line}");
        assert_eq!(result, expected, "{line}");
        assert_eq!(kept, extra, "{line}");
        assert!(pending.is_empty(), "the request is resolved: {line}");
        // The one pass reads the lines whose `id` comes before their `result`; the general
        // path the others, with the same value.
        let id_first = line.find(r#""id""#) < line.find(r#""result""#);
        let read_once = answers_read_in_one_pass() - before;
        assert_eq!(read_once, u64::from(id_first), "{line}");
        one_pass += read_once;
    }
    assert_eq!(one_pass, 12, "half the orders put the id first");
}

#[test]
fn a_response_to_no_pending_request_is_the_message_parse_gives() {
    let line = r#"{"jsonrpc":"2.0","id":8,"result":{"resources":[]}}"#;
    // Pending under another id, and under the other direction with this id.
    let mut pending = pending(7, "resources/list");
    let theirs = PendingRequest::without_task("roots/list");
    pending.insert(Direction::ServerToClient, RequestId::from(8), theirs);
    let parsed = read(line, &mut pending);
    assert_eq!(parsed, Parsed::Message(ServerMessage::parse(line).unwrap()));
    assert_eq!(pending.len(), 2, "nothing resolved");
}

#[test]
fn every_other_message_is_the_message_parse_gives() {
    let lines = [
        r#"{"jsonrpc":"2.0","id":7,"method":"roots/list"}"#,
        r#"{"method":"notifications/progress","jsonrpc":"2.0","params":{"progressToken":7,"progress":1}}"#,
        r#"{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"Method not found"}}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
    ];
    for line in lines {
        let mut pending = pending(7, "resources/list");
        let parsed = read(line, &mut pending);
        assert_eq!(
            parsed,
            Parsed::Message(ServerMessage::parse(line).unwrap()),
            "{line}"
        );
        assert_eq!(pending.len(), 1, "nothing resolved: {line}");
    }
}

#[test]
fn an_error_to_a_pending_request_resolves_it() {
    for line in [
        r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"no","data":{"k":1}},"x":2}"#,
        r#"{"error":{"code":-32602,"message":"no","data":{"k":1}},"x":2,"id":7,"jsonrpc":"2.0"}"#,
    ] {
        let mut pending = pending(7, "resources/list");
        let Message::Error(general) = ServerMessage::parse(line).unwrap() else {
            panic!("not an error: {line}")
        };
        let Parsed::Refused {
            id,
            request,
            error,
            extra,
        } = read(line, &mut pending)
        else {
            panic!("not a refusal: {line}")
        };
        assert_eq!(id, RequestId::from(7), "{line}");
        assert_eq!(request.method(), "resources/list", "{line}");
        assert_eq!(error, general.error, "{line}");
        assert_eq!(
            error.code,
            mcp_spec_types::ErrorCode::InvalidParams,
            "{line}"
        );
        assert_eq!(extra, general.extra, "{line}");
        assert!(pending.is_empty(), "the request is resolved: {line}");
    }
}

#[test]
fn what_parse_refuses_is_refused_alike() {
    let lines = [
        r#"{"jsonrpc":"2.0","id":7,"id":7,"result":{"resources":[]}}"#,
        r#"{"jsonrpc":"1.0","id":7,"result":{"resources":[]}}"#,
        r#"{"jsonrpc":"2.0","id":7,"result":{"resources":[]}"#,
        r#"[{"jsonrpc":"2.0","id":7,"result":{"resources":[]}}]"#,
    ];
    for line in lines {
        let mut pending = pending(7, "resources/list");
        let general = ServerMessage::parse(line).unwrap_err();
        let error = ServerMessage::parse_answering::<ClientCall>(line, &mut pending).unwrap_err();
        assert_eq!(error, general, "{line}");
        assert_eq!(pending.len(), 1, "nothing resolved: {line}");
    }
}

#[test]
fn an_envelope_member_twice_is_kept_as_parse_keeps_it() {
    let line = r#"{"jsonrpc":"2.0","id":7,"result":{"resources":[]},"x":1,"x":2}"#;
    let Message::Response(general) = ServerMessage::parse(line).unwrap() else {
        panic!("not a response")
    };
    let Parsed::Answer { extra, .. } = read(line, &mut pending(7, "resources/list")) else {
        panic!("not an answer")
    };
    assert_eq!(extra, general.extra);
    assert_eq!(extra.get("x"), Some(&json!(2)));
}

#[test]
fn a_result_that_is_not_its_requests_says_where_in_either_order() {
    for line in [
        r#"{"jsonrpc":"2.0","id":7,"result":{"resources":[{"uri":5,"name":"a"}]}}"#,
        r#"{"result":{"resources":[{"uri":5,"name":"a"}]},"jsonrpc":"2.0","id":7}"#,
    ] {
        let mut pending = pending(7, "resources/list");
        let error = ServerMessage::parse_answering::<ClientCall>(line, &mut pending).unwrap_err();
        assert_eq!(error.path(), "result.resources[0].uri", "{line}");
        assert_eq!(error.method(), Some("resources/list"), "{line}");
        assert!(
            pending.is_empty(),
            "an answered request is resolved: {line}"
        );
    }
}

#[test]
fn a_task_augmented_request_gets_its_task() {
    let call = mcp_spec_types::v2025_11_25::ClientMessage::parse(
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","task":{"ttl":60000}}}"#,
    )
    .unwrap();
    let mut pending = PendingRequests::new();
    pending.track(&call);
    let line = r#"{"jsonrpc":"2.0","id":3,"result":{"task":{"taskId":"t1","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000}}}"#;
    let Parsed::Answer {
        request, result, ..
    } = read(line, &mut pending)
    else {
        panic!("not an answer")
    };
    assert!(request.is_task_augmented());
    assert!(
        matches!(result, ClientCallResult::CreateTask(_)),
        "{result:?}"
    );
}
