//! The server engine (`server`): what a client sends, line by line, to one session of a
//! server offering every revision (the draft too), with two tools (one asks the client for its
//! roots first: `input_required`, relayed to a stateful client as `roots/list`), a resource, a
//! template and a prompt.
//!
//! Input: lines (split on `\n`, lossily decoded from UTF-8), each handed to `Server::handle`
//! of one session, in order, then again each to `Server::receive` of a fresh session whose
//! calls are left unfinished, then again each as an HTTP request to `Server::http`: a line
//! starting with `GET`, `DELETE` or `CLOSE` opens the last session's stream, ends the session,
//! or closes its stream; a line starting with `LONG` is a POST body (after it) whose call is
//! answered on a stream opened first (`Sessions::open_stream`), then finished; any other line
//! is a POST body, with the last session's id when one was opened (and an
//! `MCP-Protocol-Version` header when the line is a space, the version, then the body from its
//! `{`). The `region` tool's `region` argument is annotated `x-mcp-header`, so a stateless
//! call of it is checked against its `Mcp-Param-Region` header.
//!
//! Properties:
//! - the engine never panics;
//! - every answer is JSON: one response object (`jsonrpc` "2.0", exactly one of `result` and
//!   `error`), or for a batch an array of them; an answer to a line with an integer or
//!   string `id` is that id's, or an error with a null id when the engine's reader cannot
//!   read it (a duplicated `id`: serde_json's value keeps the last, the reader refuses); the
//!   answer to a client's response is the answer to the call that asked it for input;
//! - a line that is a notification (an object with a `method` and no `id`) gets no answer;
//! - what comes before an answer is what the handler reported (the `echo` tool reports
//!   progress and logs): progress notifications with the line's token, log messages;
//! - run inline, no request stays in flight but the `subscriptions/listen` streams, which are
//!   acknowledged, and the calls waiting for the client's answers to their input requests
//!   (whose `roots/list` requests are the only lines the engine sends unasked); left
//!   unfinished, the session's calls in flight never pass `Session::MAX_IN_FLIGHT`;
//! - after each line, whatever the server tells the client of a change is JSON notifications;
//! - over HTTP, every status is one the transport names, a body is JSON, a response opens a
//!   stream only as a 200 with no body, and every event (the responses' and what
//!   `Sessions::notify` gives) goes on a stream that was opened and has not ended, is one
//!   JSON-RPC message, and is the answer to the stream's request when it ends the stream; a
//!   stream a response says ended was open; a session's events have ids that grow, a
//!   stateless stream's none; an event without a message is only the first of a stream
//!   opened for a long call, with an id.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::http_headers::{lookup, MCP_PROTOCOL_VERSION, MCP_SESSION_ID};
use mcp_spec_types::server::{
    Change, Handler, HttpIncoming, HttpResponse, Incoming, Router, Server, Session, Sessions,
    StreamEvent, StreamId,
};
use mcp_spec_types::v2026_07_28::input_required::{InputRequired, RoundTrip};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::{ProtocolVersion, RpcError};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

fn server() -> Server<Router> {
    let router = Router::new()
        .tool_with(
            Tool::new("echo", ToolInputSchema::new()),
            |call, context| {
                context.progress(1, None, Some("echoing"));
                context.log(LoggingLevel::Warning, "echoed");
                let arguments = call.arguments.unwrap_or_default();
                let text = arguments.get::<String>("text").and_then(Result::ok);
                Ok(CallToolResult::text(text.unwrap_or_default()))
            },
        )
        .tool(Tool::new("roots", ToolInputSchema::new()), |call| {
            let asked = match RoundTrip::of(&call).roots("roots") {
                Ok(listed) => {
                    return Ok(CallToolResult::text(listed.roots.len().to_string()).into())
                }
                Err(_) => InputRequired::new().list_roots("roots"),
            };
            Ok(CallToolResultOrInputRequired::from(
                asked.build_ignoring_capabilities()?,
            ))
        })
        .tool(
            Tool::new(
                "region",
                ToolInputSchema::new().with_extra(
                    "properties",
                    serde_json::json!({"region": {"type": "string", "x-mcp-header": "Region"}}),
                ),
            ),
            |_| Ok(CallToolResult::text("routed")),
        )
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        })
        .prompt(Prompt::new("greet"), |_| {
            Ok(GetPromptResult::complete(Vec::<PromptMessage>::new()))
        })
        .with_page_size(1)
        .with_list_changed()
        .with_logging()
        .subscriptions(|uri| match uri.starts_with("memo://") {
            true => Ok(()),
            false => Err(RpcError::resource_not_found(uri)),
        });
    let router = router
        .template(ResourceTemplate::new("note:///{id}", "note"), |read, _| {
            Ok(ReadResourceResult::text(read.uri, "note"))
        });
    Server::new(Implementation::new("fuzz", "1"), router)
        .with_versions(ProtocolVersion::SUPPORTED.iter().cloned())
}

fn response(answer: &Value, line: &str) {
    assert_eq!(answer["jsonrpc"], "2.0", "{answer}\nto {line}");
    let has = |member: &str| answer.get(member).is_some();
    assert!(has("result") != has("error"), "{answer}\nto {line}");
}

/// What the handler reported before its answer: progress with the token the line gave, or
/// log messages.
fn notes(line: &str, notes: &[String]) {
    let sent: Option<Value> = serde_json::from_str(line).ok();
    for note in notes {
        let note: Value = serde_json::from_str(note)
            .unwrap_or_else(|e| panic!("a report is not JSON ({e}): {note}\nfor {line}"));
        assert!(note.get("id").is_none(), "{note}\nfor {line}");
        match note["method"].as_str() {
            Some("notifications/progress") => {
                let token = sent
                    .as_ref()
                    .map(|m| &m["params"]["_meta"]["progressToken"]);
                assert_eq!(
                    Some(&note["params"]["progressToken"]),
                    token,
                    "{note}\nfor {line}"
                );
            }
            Some("notifications/message") => {}
            _ => panic!("not a report: {note}\nfor {line}"),
        }
    }
}

fn check(line: &str, answer: Option<&str>) {
    let sent: Option<Value> = serde_json::from_str(line).ok();
    let notification = sent
        .as_ref()
        .and_then(Value::as_object)
        .is_some_and(|m| m.contains_key("method") && !m.contains_key("id"));
    let Some(answer) = answer else { return };
    assert!(
        !notification,
        "a notification was answered: {line}\n-> {answer}"
    );
    let answer: Value = serde_json::from_str(answer)
        .unwrap_or_else(|e| panic!("the answer is not JSON ({e}): {answer}\nto {line}"));
    if answer["method"] == "notifications/subscriptions/acknowledged" {
        // A stream opened: acknowledged, its request left open.
        let listen = sent.as_ref().map(|m| &m["method"]);
        assert_eq!(
            listen,
            Some(&Value::from("subscriptions/listen")),
            "{answer}\nto {line}"
        );
        return;
    }
    if answer["method"] == "roots/list" {
        // The `roots` tool asking a stateful client for its roots, for a call or an answer.
        assert!(
            answer["id"].is_i64() && answer.get("result").is_none(),
            "{answer}\nto {line}"
        );
        return;
    }
    match &answer {
        Value::Array(items) => items.iter().for_each(|item| response(item, line)),
        one => {
            response(one, line);
            // A request's answer has its id; the line after a client's answer to the
            // engine's `roots/list` is the answer to the call that asked (another id).
            let request = sent.as_ref().filter(|m| m.get("method").is_some());
            if let Some(id) = request.and_then(|m| m.get("id")) {
                if id.is_string() || id.is_i64() {
                    let unread = one["id"].is_null() && one.get("error").is_some();
                    assert!(one["id"] == *id || unread, "{one}\nto {line}");
                }
            }
        }
    }
}

/// What the server tells the session's client of each kind of change: notifications only.
fn told(server: &Server<Router>, session: &Session) {
    let changes = [
        Change::ResourceUpdated("memo://hi".into()),
        Change::ResourceList,
        Change::ToolList,
        Change::PromptList,
    ];
    for change in &changes {
        for line in server.notify(session, change) {
            let told: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("a notification is not JSON ({e}): {line}"));
            assert_eq!(told["jsonrpc"], "2.0", "{line}");
            assert!(
                told["method"].is_string() && told.get("id").is_none(),
                "{line}"
            );
        }
    }
}

/// The streams opened over HTTP and not yet ended, and the session the lines speak in.
#[derive(Default)]
struct Http {
    open: BTreeSet<StreamId>,
    session: Option<String>,
    /// The id of the last event of each session: ids grow within a session.
    last_ids: BTreeMap<String, u64>,
}

impl Http {
    fn events(&mut self, events: &[StreamEvent], line: &str) {
        for event in events {
            assert!(
                self.open.contains(&event.stream),
                "{event:?} on no open stream\nfor {line}"
            );
            match event.stream.session() {
                Some(session) => {
                    let id = event.id.as_deref().and_then(|id| id.parse::<u64>().ok());
                    let id =
                        id.unwrap_or_else(|| panic!("a session's event without an id: {event:?}"));
                    let last = self.last_ids.insert(session.to_owned(), id);
                    assert!(last < Some(id), "ids do not grow: {last:?} then {event:?}");
                }
                None => assert_eq!(event.id, None, "a stateless stream's event has an id"),
            }
            if event.message.is_empty() {
                // The priming event of a long call's stream: something to resume after.
                assert!(
                    event.id.is_some() && !event.last && event.stream.request().is_some(),
                    "{event:?}"
                );
                continue;
            }
            let message: Value = serde_json::from_str(&event.message)
                .unwrap_or_else(|e| panic!("an event is not JSON ({e}): {event:?}"));
            assert_eq!(message["jsonrpc"], "2.0", "{event:?}");
            if event.last {
                response(&message, line);
                let request = event
                    .stream
                    .request()
                    .map(|id| serde_json::to_value(id).unwrap());
                assert_eq!(Some(&message["id"]), request.as_ref(), "{event:?}");
                self.open.remove(&event.stream);
            }
        }
    }

    fn response(&mut self, response: &HttpResponse, line: &str) {
        let known = [200, 202, 400, 403, 404, 405, 406, 409, 500, 503];
        assert!(known.contains(&response.status), "{response:?}\nfor {line}");
        if let Some(body) = &response.body {
            let body: Value = serde_json::from_str(body)
                .unwrap_or_else(|e| panic!("the body is not JSON ({e}): {response:?}"));
            assert!(body.is_object() || body.is_array(), "{response:?}");
        }
        for ended in &response.ended {
            assert!(self.open.remove(ended), "{ended:?} ended but was not open");
        }
        if let Some(stream) = &response.stream {
            assert_eq!(
                (response.status, &response.body),
                (200, &None),
                "{response:?}"
            );
            assert_eq!(response.content_type(), Some("text/event-stream"));
            assert!(self.open.insert(stream.clone()), "{stream:?} opened twice");
        }
        if let Some((_, id)) = response
            .headers
            .iter()
            .find(|(name, _)| *name == MCP_SESSION_ID)
        {
            self.session = Some(id.clone());
        }
        self.events(&response.events, line);
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let server = server();
    let mut session = Session::new();
    for line in text.split('\n') {
        let mut lines = server.handle(&mut session, line);
        let answer = lines.pop();
        notes(line, &lines);
        check(line, answer.as_deref());
        let waiting = session.streams() + session.waiting_for_input();
        assert_eq!(session.in_flight(), waiting, "a request stayed in flight");
        told(&server, &session);
    }
    let mut unfinished = Session::new();
    let mut calls = Vec::new();
    // A batch's calls are in flight too, until the batch is finished.
    let mut batches = Vec::new();
    let mut batched = 0;
    for line in text.split('\n') {
        match server.receive(&mut unfinished, line) {
            Incoming::Call(call) => calls.push(call),
            Incoming::Batch(batch) => {
                batched += batch.calls();
                batches.push(batch);
            }
            _ => {}
        }
        assert!(unfinished.in_flight() <= Session::MAX_IN_FLIGHT);
        assert!(unfinished.in_flight() <= calls.len() + batched + unfinished.streams());
    }
    let mut sessions = Sessions::new({
        let mut next = 0u64;
        move || {
            next += 1;
            format!("s{next}")
        }
    });
    let mut http = Http::default();
    for (now_ms, line) in (0u64..).zip(text.split('\n')) {
        let session = http.session.clone().unwrap_or_default();
        let mut headers = vec![
            (MCP_SESSION_ID, session.as_str()),
            ("Accept", "text/event-stream"),
        ];
        if http.session.is_none() {
            headers.remove(0);
        }
        // ` <version>{...}`: the body with an `MCP-Protocol-Version` header.
        let versioned = line
            .strip_prefix(' ')
            .and_then(|rest| rest.find('{').map(|at| rest.split_at(at)));
        let line = match versioned {
            Some((version, body)) => {
                headers.push((MCP_PROTOCOL_VERSION, version));
                body
            }
            None => line,
        };
        let (method, body) = match line {
            "GET" => ("GET", ""),
            "DELETE" => ("DELETE", ""),
            "CLOSE" => {
                let own = StreamId::clone;
                let listening: Vec<StreamId> = http
                    .open
                    .iter()
                    .filter(|s| s.request().is_none())
                    .map(own)
                    .collect();
                for stream in listening {
                    sessions.close(&stream, now_ms);
                    http.open.remove(&stream);
                }
                continue;
            }
            body => ("POST", body),
        };
        if let Some(body) = body.strip_prefix("LONG") {
            let incoming =
                server.http_receive(&mut sessions, "POST", lookup(&headers), body, now_ms);
            match incoming {
                HttpIncoming::Respond(answered) => http.response(&answered, line),
                HttpIncoming::Call(mut call) => {
                    if let Some(opened) = sessions.open_stream(&mut call, Some(100)) {
                        http.response(&opened, line);
                    }
                    let (request, mut context, responder) = call.into_parts();
                    let result = server.handler().call(request, &mut context);
                    let finished = sessions.finish(responder.respond_with(&mut context, result));
                    http.response(&finished, line);
                }
                HttpIncoming::Batch(mut batch) => {
                    batch.answer_with(|request, context| server.handler().call(request, context));
                    let finished = sessions.finish_batch(batch);
                    http.response(&finished, line);
                }
                _ => {}
            }
            continue;
        }
        let answered = server.http(&mut sessions, method, lookup(&headers), body, now_ms);
        http.response(&answered, line);
        for change in [
            Change::ResourceUpdated("memo://hi".into()),
            Change::ToolList,
        ] {
            let told = sessions.notify(&server, &change);
            assert!(
                told.iter().all(|e| e.stream.request().is_none() && !e.last),
                "{told:?}"
            );
            http.events(&told, line);
        }
        assert!(sessions.len() <= sessions.max());
    }
});
