//! One-pass dispatch, for every revision: each method of the schema is a `Method`, a request of
//! each method reaches its own typed variant, each result parses as its request's result, and
//! messages of the wrong side, kind or revision are refused with an error that says so.

use crate::common;

use common::instances::{instance, Mode};
use mcp_spec_types::dispatch::Message;
use mcp_spec_types::{Direction, MessageErrorKind, MethodKind};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// Definitions that carry a `method` constant without being a message of their own: the
/// direction unions (2026-07-28 spells `ClientNotification` as an inline copy of
/// `CancelledNotification`).
const NOT_MESSAGES: &[&str] = &[
    "ClientRequest",
    "ClientNotification",
    "ServerRequest",
    "ServerNotification",
];

fn method_definitions(root: &Value) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = common::definitions(root)
        .iter()
        .filter(|(name, _)| !NOT_MESSAGES.contains(&name.as_str()))
        .filter_map(|(name, def)| {
            let method = def.pointer("/properties/method/const")?.as_str()?;
            Some((name.clone(), method.to_owned()))
        })
        .collect();
    out.sort();
    out
}

/// The message for a request or notification definition: the schema's own instance, with the
/// envelope members that revisions before 2025-11-25 leave out of their per-method types.
fn message_instance(root: &Value, definition: &str, kind: MethodKind) -> Value {
    let schema =
        json!({ "$ref": common::definition_pointer(root, definition).replacen('/', "#/", 1) });
    let mut message = instance(root, &schema, Mode::Full);
    let object = message.as_object_mut().expect("messages are objects");
    object.insert("jsonrpc".into(), json!("2.0"));
    match kind {
        MethodKind::Request => {
            object.entry("id").or_insert(json!(7));
        }
        MethodKind::Notification => {
            object.remove("id");
        }
    }
    message
}

/// The message's members written in several orders: `method` before `params` (the order every
/// implementation writes), `params` first, and `id` last.
fn member_orders(message: &Value) -> Vec<String> {
    let object = message.as_object().expect("messages are objects");
    let member = |key: &str| object.get(key).map(|v| format!("{}:{v}", Value::from(key)));
    let write = |keys: &[&str]| -> String {
        let mut members: Vec<String> = keys.iter().filter_map(|k| member(k)).collect();
        members.extend(
            object
                .iter()
                .filter(|(k, _)| !["jsonrpc", "id", "method", "params"].contains(&k.as_str()))
                .map(|(k, v)| format!("{}:{v}", Value::from(k.as_str()))),
        );
        format!("{{{}}}", members.join(","))
    };
    vec![
        write(&["jsonrpc", "id", "method", "params"]),
        write(&["params", "method", "id", "jsonrpc"]),
        write(&["jsonrpc", "method", "params", "id"]),
        write(&["method", "jsonrpc", "params", "id"]),
    ]
}

/// A failed reading's kind, method, path and text.
type Failure = (MessageErrorKind, Option<String>, String, String);

/// A reading reduced to what can be compared.
fn outcome<R, N>(
    read: Result<Message<R, N>, mcp_spec_types::MessageError>,
) -> Result<Message<R, N>, Failure> {
    read.map_err(|e| {
        (
            e.kind(),
            e.method().map(str::to_owned),
            e.path().to_owned(),
            e.message().to_owned(),
        )
    })
}

macro_rules! dispatch_tests {
    ($feature:literal, $module:ident, $revision:literal) => {
        #[cfg(feature = $feature)]
        mod $module {
            use super::*;
            use mcp_spec_types::$module::{
                ClientCallResult, ClientMessage, Method, ServerCallResult, ServerMessage,
            };

            #[test]
            fn methods_are_exactly_the_schemas() {
                let root = common::load_schema($revision);
                let from_schema: BTreeSet<String> =
                    method_definitions(&root).into_iter().map(|(_, m)| m).collect();
                let from_enum: BTreeSet<String> =
                    Method::ALL.iter().map(|m| m.as_str().to_owned()).collect();
                assert_eq!(from_enum, from_schema);
                for method in Method::ALL {
                    let name = method.as_str();
                    assert_eq!(&Method::from(name), method);
                    assert_eq!(&name.parse::<Method>().unwrap(), method);
                    assert_eq!(method.to_string(), name);
                    assert_eq!(serde_json::to_value(method).unwrap(), json!(name));
                    assert_eq!(&serde_json::from_value::<Method>(json!(name)).unwrap(), method);
                    assert!(method.direction().is_some() && method.kind().is_some(), "{name}");
                }
                let unknown = Method::from("x/unknown");
                assert_eq!(unknown, Method::Unknown("x/unknown".into()));
                assert_eq!((unknown.direction(), unknown.kind()), (None, None));
            }

            #[test]
            fn every_message_reaches_its_own_variant() {
                let root = common::load_schema($revision);
                for (definition, method) in method_definitions(&root) {
                    let known = Method::known(&method).expect("a schema method is known");
                    let kind = known.kind().unwrap();
                    let message = message_instance(&root, &definition, kind);
                    let line = message.to_string();
                    let direction = known.direction().unwrap();
                    let mut parsed_by = 0;
                    if direction.allows(Direction::ClientToServer) {
                        let parsed = ClientMessage::parse(&line)
                            .unwrap_or_else(|e| panic!("{definition}: {e}\n{line}"));
                        check(&definition, &method, kind, &parsed, &message);
                        parsed_by += 1;
                    }
                    if direction.allows(Direction::ServerToClient) {
                        let parsed = ServerMessage::parse(&line)
                            .unwrap_or_else(|e| panic!("{definition}: {e}\n{line}"));
                        check(&definition, &method, kind, &parsed, &message);
                        parsed_by += 1;
                    }
                    assert!(parsed_by > 0, "{definition}: no side sends {method}");
                }
            }

            fn check<R, N>(
                definition: &str,
                method: &str,
                kind: MethodKind,
                parsed: &Message<R, N>,
                message: &Value,
            ) where
                R: mcp_spec_types::dispatch::MethodSet + std::fmt::Debug,
                N: mcp_spec_types::dispatch::MethodSet + std::fmt::Debug,
            {
                assert_eq!(parsed.method(), Some(method), "{definition}");
                let typed = match (kind, parsed) {
                    (MethodKind::Request, Message::Request(r)) => format!("{:?}", r.call),
                    (MethodKind::Notification, Message::Notification(n)) => {
                        format!("{:?}", n.notification)
                    }
                    other => panic!("{definition}: parsed as {other:?}"),
                };
                assert!(!typed.starts_with("Unknown"), "{definition}: {typed}");
                assert_eq!(&serde_json::to_value(parsed).unwrap(), message, "{definition}");
            }

            /// The params are read in the envelope's pass when `method` comes first, and in a
            /// second step otherwise: both must read the same message, or fail the same way.
            #[test]
            fn member_order_does_not_change_the_reading() {
                let root = common::load_schema($revision);
                let mut compared = 0;
                for (definition, method) in method_definitions(&root) {
                    let known = Method::known(&method).expect("a schema method is known");
                    let kind = known.kind().unwrap();
                    let message = message_instance(&root, &definition, kind);
                    let mut variants = vec![message.clone()];
                    // Broken copies: a member of the params with the wrong type, params that
                    // are not an object, a null id.
                    if let Some(params) = message.get("params").and_then(Value::as_object) {
                        if let Some(member) = params.keys().next() {
                            let mut broken = message.clone();
                            broken["params"][member.as_str()] = json!([[]]);
                            variants.push(broken);
                        }
                    }
                    for not_object in [json!(3), Value::Null] {
                        let mut broken = message.clone();
                        broken["params"] = not_object;
                        variants.push(broken);
                    }
                    if kind == MethodKind::Request {
                        let mut null_id = message.clone();
                        null_id["id"] = Value::Null;
                        variants.push(null_id);
                    }
                    for variant in &variants {
                        let orders = member_orders(variant);
                        let client: Vec<_> = orders.iter().map(|l| outcome(ClientMessage::parse(l))).collect();
                        let server: Vec<_> = orders.iter().map(|l| outcome(ServerMessage::parse(l))).collect();
                        for (line, (c, s)) in orders.iter().zip(client.iter().zip(&server)) {
                            assert_eq!(c, &client[0], "{definition}: client reads differ\n{line}\n{}", orders[0]);
                            assert_eq!(s, &server[0], "{definition}: server reads differ\n{line}\n{}", orders[0]);
                            compared += 2;
                        }
                    }
                }
                assert!(compared > 100, "only {compared} readings compared");
            }

            #[test]
            fn every_result_parses_as_its_requests_result() {
                let root = common::load_schema($revision);
                let defs = common::definitions(&root);
                let mut checked = 0;
                for (definition, method) in method_definitions(&root) {
                    let Some(stem) = definition.strip_suffix("Request") else {
                        continue;
                    };
                    // The schema names each result after its request, but for the requests
                    // answered with the empty result.
                    let result_def = [format!("{stem}Result"), "EmptyResult".to_owned()]
                        .into_iter()
                        .find(|d| defs.contains_key(d))
                        .unwrap();
                    let schema = json!({ "$ref": common::definition_pointer(&root, &result_def).replacen('/', "#/", 1) });
                    let result = instance(&root, &schema, Mode::Full);
                    let line = json!({"jsonrpc": "2.0", "id": 3, "result": result}).to_string();
                    let direction = Method::known(&method).unwrap().direction().unwrap();
                    // The response travels the other way from the request.
                    let response = if direction.allows(Direction::ClientToServer) {
                        ServerMessage::parse(&line)
                    } else {
                        ClientMessage::parse(&line).map(|m| match m {
                            Message::Response(r) => Message::Response(r),
                            other => panic!("{other:?}"),
                        })
                    }
                    .unwrap_or_else(|e| panic!("{definition}: {e}"));
                    let Message::Response(response) = response else {
                        panic!("{definition}: not a response");
                    };
                    let back = if direction.allows(Direction::ClientToServer) {
                        let typed = ClientCallResult::parse(&mcp_spec_types::dispatch::PendingRequest::without_task(&method), &response.result)
                            .unwrap_or_else(|e| panic!("{definition}: {e}"));
                        assert!(!format!("{typed:?}").starts_with("Unknown"), "{definition}");
                        serde_json::to_value(&typed).unwrap()
                    } else {
                        let typed = ServerCallResult::parse(&mcp_spec_types::dispatch::PendingRequest::without_task(&method), &response.result)
                            .unwrap_or_else(|e| panic!("{definition}: {e}"));
                        assert!(!format!("{typed:?}").starts_with("Unknown"), "{definition}");
                        serde_json::to_value(&typed).unwrap()
                    };
                    assert_eq!(back, result, "{definition} → {result_def}");
                    checked += 1;
                }
                assert!(checked > 0);
            }

            #[test]
            fn a_method_of_the_other_side_is_refused() {
                let root = common::load_schema($revision);
                let mut refused = 0;
                for (definition, method) in method_definitions(&root) {
                    let known = Method::known(&method).unwrap();
                    let kind = known.kind().unwrap();
                    let line = message_instance(&root, &definition, kind).to_string();
                    let error = match known.direction().unwrap() {
                        Direction::ClientToServer => ServerMessage::parse(&line).unwrap_err(),
                        Direction::ServerToClient => ClientMessage::parse(&line).unwrap_err(),
                        Direction::Both => continue,
                    };
                    assert_eq!(error.kind(), MessageErrorKind::WrongDirection, "{method}: {error}");
                    assert_eq!(error.method(), Some(method.as_str()));
                    assert!(error.to_string().contains("is sent by"), "{error}");
                    refused += 1;
                }
                assert!(refused > 5);
            }

            #[test]
            fn a_method_of_the_other_kind_is_refused() {
                let root = common::load_schema($revision);
                for (definition, method) in method_definitions(&root) {
                    let known = Method::known(&method).unwrap();
                    let kind = known.kind().unwrap();
                    let flipped = match kind {
                        MethodKind::Request => MethodKind::Notification,
                        MethodKind::Notification => MethodKind::Request,
                    };
                    let line = message_instance(&root, &definition, flipped).to_string();
                    for result in [ClientMessage::parse(&line).map(|_| ()), ServerMessage::parse(&line).map(|_| ())] {
                        let error = result.unwrap_err();
                        assert!(
                            matches!(error.kind(), MessageErrorKind::WrongKind | MessageErrorKind::WrongDirection),
                            "{method}: {error}"
                        );
                    }
                }
            }

            #[test]
            fn a_method_of_another_revision_is_refused_and_an_unknown_one_is_data() {
                let ours: BTreeSet<&str> = Method::ALL.iter().map(|m| m.as_str()).collect();
                // Methods that exist in some revision but not this one.
                let others: Vec<&str> = ["resources/subscribe", "server/discover", "tasks/get", "elicitation/create", "subscriptions/listen"]
                    .into_iter()
                    .filter(|m| !ours.contains(m))
                    .collect();
                assert!(!others.is_empty());
                for method in others {
                    let line = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": {}}).to_string();
                    let error = ClientMessage::parse(&line).unwrap_err();
                    assert_eq!(error.kind(), MessageErrorKind::WrongRevision, "{error}");
                    assert!(error.message().contains($revision), "{error}");
                }
                let line = r#"{"jsonrpc":"2.0","id":"a","method":"vendor/x","params":{"n":10,"f":1.5}}"#;
                let parsed = ClientMessage::parse(line).unwrap();
                let Message::Request(request) = &parsed else { panic!("{parsed:?}") };
                assert_eq!(request.id, mcp_spec_types::RequestId::from("a"));
                assert_eq!(format!("{:?}", request.call), format!("Unknown {{ method: \"vendor/x\", params: Some({:?}) }}", json!({"n": 10, "f": 1.5})));
                assert_eq!(
                    serde_json::from_str::<Value>(&parsed.to_json()).unwrap(),
                    serde_json::from_str::<Value>(line).unwrap()
                );
            }

            #[test]
            fn envelope_errors_say_what_is_wrong() {
                let cases: &[(&str, MessageErrorKind, &str)] = &[
                    (r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, MessageErrorKind::Envelope, "jsonrpc"),
                    (r#"{"id":1,"method":"ping"}"#, MessageErrorKind::Envelope, ""),
                    (r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#, MessageErrorKind::Envelope, "id"),
                    (r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, MessageErrorKind::Envelope, "id"),
                    (r#"{"jsonrpc":"2.0","id":1}"#, MessageErrorKind::Envelope, ""),
                    (r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#, MessageErrorKind::Envelope, ""),
                    (r#"{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}"#, MessageErrorKind::ErrorObject, "error.code"),
                    (r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"result":{}}"#, MessageErrorKind::Envelope, ""),
                    (r#"not json"#, MessageErrorKind::Json, ""),
                    (r#"[1, 2"#, MessageErrorKind::Json, ""),
                ];
                for (line, kind, path) in cases {
                    let error = ClientMessage::parse(line).unwrap_err();
                    let kind = if line.starts_with('[') && !<mcp_spec_types::$module::ClientCall as mcp_spec_types::dispatch::MethodSet>::BATCHES {
                        MessageErrorKind::BatchNotAllowed
                    } else {
                        *kind
                    };
                    assert_eq!((error.kind(), error.path()), (kind, *path), "{line}: {error}");
                }
            }

            #[test]
            fn truncated_and_corrupted_lines_are_errors_not_panics() {
                let root = common::load_schema($revision);
                for (definition, method) in method_definitions(&root).into_iter().take(6) {
                    let kind = Method::known(&method).unwrap().kind().unwrap();
                    let line = message_instance(&root, &definition, kind).to_string();
                    for cut in 0..line.len() {
                        if !line.is_char_boundary(cut) {
                            continue;
                        }
                        let error = ClientMessage::parse(&line[..cut]).unwrap_err();
                        assert_eq!(error.kind(), MessageErrorKind::Json, "{}", &line[..cut]);
                    }
                    // Any byte replaced by a quote, brace or digit: either an error or a message
                    // that writes back to the same JSON it was read from.
                    for at in 0..line.len() {
                        for byte in [b'"', b'}', b'7', b'\\'] {
                            let mut bytes = line.clone().into_bytes();
                            bytes[at] = byte;
                            if let Ok(parsed) = ServerMessage::parse_slice(&bytes) {
                                let again: Value = serde_json::from_slice(&bytes).unwrap();
                                assert_eq!(serde_json::to_value(&parsed).unwrap(), again);
                            }
                        }
                    }
                }
            }
        }
    };
}

for_each_revision!(dispatch_tests);

/// 2025-03-26's `JSONRPCMessage` has two array arms; the items decide which one a batch is.
#[cfg(feature = "v2025_03_26")]
#[test]
fn batch_requests_and_batch_responses_are_told_apart_by_their_items() {
    use mcp_spec_types::v2025_03_26::JsonRpcMessage;
    let requests = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}
    ]);
    let responses = json!([
        {"jsonrpc": "2.0", "id": 1, "result": {}},
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "Method not found"}}
    ]);
    let parsed: JsonRpcMessage = serde_json::from_value(requests.clone()).unwrap();
    assert!(format!("{parsed:?}").starts_with("Variant2("), "{parsed:?}");
    assert_eq!(serde_json::to_value(&parsed).unwrap(), requests);
    let parsed: JsonRpcMessage = serde_json::from_value(responses.clone()).unwrap();
    assert!(format!("{parsed:?}").starts_with("Variant5("), "{parsed:?}");
    assert_eq!(serde_json::to_value(&parsed).unwrap(), responses);
}

/// 2025-11-25: a request with `params.task` is answered with `CreateTaskResult`, in both
/// directions; the pairing knows it from the request itself.
#[cfg(feature = "v2025_11_25")]
mod task_augmented_requests {
    use mcp_spec_types::dispatch::{CallSet, Message, PendingRequest, PendingRequests};
    use mcp_spec_types::v2025_11_25::{
        ClientCall, ClientCallResult, ClientMessage, ServerCall, ServerCallResult, ServerMessage,
    };
    use mcp_spec_types::{Direction, MessageErrorKind, RequestId};
    use serde_json::value::RawValue;

    const TASK: &str = r#"{"task":{"taskId":"t1","status":"working","createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:00Z","ttl":60000}}"#;
    const TOOL_RESULT: &str = r#"{"content":[{"type":"text","text":"done"}]}"#;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    fn client_call(line: &str) -> ClientCall {
        match ClientMessage::parse(line).unwrap() {
            Message::Request(r) => r.call,
            other => panic!("{other:?}"),
        }
    }

    fn server_call(line: &str) -> ServerCall {
        match ServerMessage::parse(line).unwrap() {
            Message::Request(r) => r.call,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn which_requests_ask_for_a_task_comes_from_their_params() {
        let with = client_call(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{"ttl":1000}}}"#,
        );
        let without =
            client_call(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#);
        assert!(with.is_task_augmented());
        assert!(!without.is_task_augmented());
        let sampling = server_call(
            r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"task":{}}}"#,
        );
        assert!(sampling.is_task_augmented());
        // Elicitation params are a union of two forms: each arm carries `task`.
        let url = server_call(
            r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"url","message":"m","elicitationId":"e","url":"https://example.com","task":{}}}"#,
        );
        let form = server_call(
            r#"{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}"#,
        );
        assert!(url.is_task_augmented());
        assert!(!form.is_task_augmented());
        // A request whose params have no `task` never asks.
        let list = client_call(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        assert!(!list.is_task_augmented());
    }

    #[test]
    fn the_answer_to_a_task_is_the_task_and_a_plain_answer_is_still_read() {
        let call = client_call(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{"ttl":1000}}}"#,
        );
        let request = PendingRequest::of(&call);
        assert!(request.is_task_augmented());
        let ClientCallResult::CreateTask(created) =
            ClientCallResult::parse(&request, &raw(TASK)).unwrap()
        else {
            panic!("not the task")
        };
        assert_eq!(created.task.task_id, "t1");
        // A receiver without task support answers normally (and must, per the spec).
        assert!(matches!(
            ClientCallResult::parse(&request, &raw(TOOL_RESULT)),
            Ok(ClientCallResult::CallTool(_))
        ));
        // Written back unchanged.
        let back =
            serde_json::to_string(&ClientCallResult::parse(&request, &raw(TASK)).unwrap()).unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&back).unwrap(),
            serde_json::from_str::<serde_json::Value>(TASK).unwrap()
        );
        // Name-only pairing cannot read the task: the reason the request is kept.
        let plain = PendingRequest::without_task("tools/call");
        let error = ClientCallResult::parse(&plain, &raw(TASK)).unwrap_err();
        assert_eq!(error.kind(), MessageErrorKind::Result);
        assert!(
            error.message().contains("missing field `content`"),
            "{error}"
        );
    }

    #[test]
    fn a_broken_task_is_reported_as_a_task_and_a_broken_result_as_the_result() {
        let request = PendingRequest::of(&client_call(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{}}}"#,
        ));
        let error =
            ClientCallResult::parse(&request, &raw(r#"{"task":{"taskId":7}}"#)).unwrap_err();
        assert!(error.path().starts_with("result.task"), "{error}");
        let error = ClientCallResult::parse(&request, &raw(r#"{"content":[{"type":"text"}]}"#))
            .unwrap_err();
        assert_eq!(error.path(), "result.content[0]", "{error}");
        assert!(error.message().contains("missing field `text`"), "{error}");
    }

    #[test]
    fn the_server_asks_the_client_for_a_task_too() {
        let request = PendingRequest::of(&server_call(
            r#"{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5,"task":{"ttl":10}}}"#,
        ));
        assert!(matches!(
            ServerCallResult::parse(&request, &raw(TASK)),
            Ok(ServerCallResult::CreateTask(_))
        ));
    }

    #[test]
    fn pending_requests_are_kept_per_direction() {
        // Both sides number their requests from 0: id 1 is in flight both ways at once.
        let mut pending = PendingRequests::new();
        pending.track(
            &ClientMessage::parse(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","task":{}}}"#,
            )
            .unwrap(),
        );
        pending.track(
            &ServerMessage::parse(
                r#"{"jsonrpc":"2.0","id":1,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}"#,
            )
            .unwrap(),
        );
        assert_eq!(pending.len(), 2);
        // The client answers the server's request 1...
        let Message::Response(from_client) = ClientMessage::parse(
            r#"{"jsonrpc":"2.0","id":1,"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}"#,
        )
        .unwrap() else {
            panic!()
        };
        assert!(matches!(
            pending.answer::<ServerCall>(&from_client),
            Some(Ok(ServerCallResult::CreateMessage(_)))
        ));
        // ...and the server answers the client's request 1 with the task it asked for.
        let Message::Response(from_server) =
            ServerMessage::parse(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{TASK}}}"#))
                .unwrap()
        else {
            panic!()
        };
        assert!(matches!(
            pending.answer::<ClientCall>(&from_server),
            Some(Ok(ClientCallResult::CreateTask(_)))
        ));
        assert!(pending.is_empty());
        assert!(pending.answer::<ClientCall>(&from_server).is_none());
        assert!(pending
            .resolve(Direction::ClientToServer, &RequestId::Integer(1))
            .is_none());
    }
}

/// Each revision as one type (`revision::Revision`), reached from its version through
/// `revision::visit`: the facts it gives come from its own tables.
mod revision_facts {
    use mcp_spec_types::revision::{visit, Revision, Visit};
    use mcp_spec_types::ProtocolVersion;

    struct Facts;

    impl Visit for Facts {
        type Output = (&'static str, bool, bool, usize);
        fn visit<R: Revision>(self) -> Self::Output {
            (
                R::VERSION,
                R::is_stateless(),
                R::has_batches(),
                R::methods().len(),
            )
        }
    }

    #[test]
    fn every_enabled_revision_is_reached_by_its_own_version() {
        for version in ProtocolVersion::SUPPORTED {
            let (name, ..) = visit(version, Facts).expect("an enabled revision is visited");
            assert_eq!(name, version.as_str());
        }
        assert_eq!(visit(&ProtocolVersion::from("1999-01-01"), Facts), None);
    }

    #[cfg(feature = "v2025_03_26")]
    #[test]
    fn facts_of_2025_03_26_come_from_its_tables() {
        let (_, stateless, batches, methods) = visit(&ProtocolVersion::V2025_03_26, Facts).unwrap();
        assert!(!stateless);
        assert!(batches);
        assert_eq!(methods, mcp_spec_types::v2025_03_26::Method::ALL.len());
    }

    #[cfg(feature = "v2026_07_28")]
    #[test]
    fn the_default_revision_is_stateless_and_defines_discover() {
        use mcp_spec_types::v2026_07_28::Revision as R;
        use mcp_spec_types::{Direction, MethodKind};
        assert!(R::is_stateless());
        assert!(!R::has_batches());
        assert!(!R::is_draft());
        assert_eq!(
            R::method("server/discover"),
            Some((Some(Direction::ClientToServer), Some(MethodKind::Request)))
        );
        assert_eq!(R::method("initialize"), None);
        assert!(R::methods().contains(&"subscriptions/listen"));
    }

    #[cfg(feature = "v2025_06_18")]
    #[test]
    fn a_result_is_checked_against_its_requests_result_type() {
        use mcp_spec_types::dispatch::PendingRequest;
        use mcp_spec_types::v2025_06_18::Revision as R;
        use mcp_spec_types::Direction;
        use serde_json::value::RawValue;
        let request = PendingRequest::without_task("resources/read");
        let good = RawValue::from_string(r#"{"contents":[]}"#.to_owned()).unwrap();
        let bad = RawValue::from_string(r#"{"contents":7}"#.to_owned()).unwrap();
        assert!(R::check_result(Direction::ClientToServer, &request, &good).is_ok());
        let error = R::check_result(Direction::ClientToServer, &request, &bad).unwrap_err();
        assert_eq!(error.path(), "result.contents");
    }
}
