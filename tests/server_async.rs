//! Async tools (`Router::tool_async`, `Router::typed_tool_async`): awaited as tasks by the
//! HTTP service, so that many waiting calls hold no thread and hold up no other call, their
//! reports going out as they are made; run to their end on the call's thread by the stdio loop
//! (inside the runtime the loop was started in) and by `Server::handle` (with no runtime at
//! all); told of a cancel; their reports and changes reaching the client as a synchronous
//! tool's do. No clock decides a verdict: the tools wait on what the test releases.
#![cfg(all(feature = "http-server", feature = "v2025_11_25"))]

use crate::http_service::{header, next_data, post_stateless, request, serve, stateless};
use crate::server_notify::{cancel, drive_loop_in, initialize_session};
use mcp_spec_types::server::{Change, Context, Router, Server, Session};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::RpcError;
use serde_json::{json, Value};
use std::sync::{mpsc, Arc};
use std::time::Duration;
use tokio::sync::Semaphore;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Double {
    n: i64,
}

fn failed(why: impl std::fmt::Display) -> RpcError {
    RpcError::new(mcp_spec_types::ErrorCode::InternalError, why.to_string())
}

/// A tool that waits until the test adds a permit to `gate`, reporting before and after.
fn gated(gate: Arc<Semaphore>) -> Router {
    Router::new().tool_async(
        Tool::new("gated", ToolInputSchema::new()),
        move |_, mut context: Context| {
            let gate = Arc::clone(&gate);
            async move {
                context.progress(1, Some(2.into()), Some("waiting"));
                let permit = gate.acquire().await.map_err(failed)?;
                permit.forget();
                context.progress(2, Some(2.into()), Some("released"));
                Ok(CallToolResult::text("gated"))
            }
        },
    )
}

#[test]
fn without_a_runtime_an_async_tool_answers_inline_with_its_reports_and_changes() {
    // The value comes from another thread, so the future is pending at first: the call's
    // thread parks until it is woken.
    let router = Router::new().with_list_changed().typed_tool_async(
        "double",
        |Double { n }, mut context| async move {
            let (sent, received) = tokio::sync::oneshot::channel();
            std::thread::spawn(move || sent.send(n * 2));
            let doubled = received.await.map_err(failed)?;
            context.progress(1, Some(1.into()), Some("doubled"));
            context.changed(Change::ToolList);
            Ok(CallToolResult::text(doubled.to_string()))
        },
    );
    let server = Server::new(Implementation::new("t", "1"), router);
    let mut session = Session::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}});
    assert_eq!(
        server.handle(&mut session, &initialize.to_string()).len(),
        1
    );
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "double", "arguments": {"n": 21}, "_meta": {"progressToken": "p"}}});
    let lines: Vec<Value> = server
        .handle(&mut session, &call.to_string())
        .iter()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    let methods: Vec<&Value> = lines.iter().map(|line| &line["method"]).collect();
    assert_eq!(
        methods,
        [
            &json!("notifications/progress"),
            &Value::Null, // the answer
            &json!("notifications/tools/list_changed"),
        ],
        "{lines:?}"
    );
    assert_eq!(lines[0]["params"]["message"], "doubled");
    assert_eq!(
        lines[1]["result"]["content"][0]["text"], "42",
        "{}",
        lines[1]
    );
    // Arguments that do not read never reach the function: a tool error names the member.
    let wrong = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "double", "arguments": {"n": "x"}}});
    let answer = server.handle(&mut session, &wrong.to_string());
    let answer: Value = serde_json::from_str(&answer[0]).expect("JSON");
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(answer.to_string().contains("n: invalid type"), "{answer}");
}

#[test]
fn over_http_waiting_async_calls_hold_no_thread_and_report_as_they_go() {
    // The service's runtime has two workers and the blocking pool is not used for async
    // calls: 64 calls waiting at once would stall a server that gave each a thread of those.
    let gate = Arc::new(Semaphore::new(0));
    let serving = serve(gated(Arc::clone(&gate)));
    let address = serving.address;
    let (started, reports) = mpsc::channel::<Value>();
    let waiting: Vec<_> = (0..64)
        .map(|id| {
            let started = started.clone();
            std::thread::spawn(move || {
                let params = json!({"name": "gated", "_meta": {"progressToken": id}});
                let (headers, body) = stateless(id, "tools/call", params);
                let pairs: Vec<(&str, &str)> =
                    headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
                let (status, headers, mut reader) = request(address, "POST", "/mcp", &pairs, &body);
                assert_eq!(status, 200);
                assert_eq!(header(&headers, "content-type"), Some("text/event-stream"));
                let first = next_data(&mut reader).expect("the first report");
                let _ = started.send(first);
                let second = next_data(&mut reader).expect("the second report");
                let answer = next_data(&mut reader).expect("the answer");
                (second, answer)
            })
        })
        .collect();
    // Every call has reported while waiting: the reports went out before any answer.
    for _ in 0..64 {
        let first = reports
            .recv_timeout(Duration::from_secs(30))
            .expect("a waiting call's first report");
        assert_eq!(first["params"]["message"], "waiting", "{first}");
    }
    // While all 64 wait, quick calls are answered.
    for id in 100..120 {
        let (status, body) = post_stateless(&serving, id, "tools/list", json!({}));
        assert_eq!((status, &body["id"]), (200, &json!(id)), "{body}");
    }
    assert!(waiting.iter().all(|call| !call.is_finished()));
    gate.add_permits(64);
    for call in waiting {
        let (second, answer) = call.join().expect("the call's thread");
        assert_eq!(second["params"]["message"], "released", "{second}");
        assert_eq!(answer["result"]["content"][0]["text"], "gated", "{answer}");
    }
}

#[test]
fn over_http_an_async_call_without_reports_is_one_json_answer() {
    let router = Router::new().typed_tool_async("double", |Double { n }, _| async move {
        tokio::task::yield_now().await;
        Ok(CallToolResult::text((n * 2).to_string()))
    });
    let serving = serve(router);
    let params = json!({"name": "double", "arguments": {"n": 4}});
    let (status, body) = post_stateless(&serving, 1, "tools/call", params);
    assert_eq!(status, 200);
    assert_eq!(body["result"]["content"][0]["text"], "8", "{body}");
}

#[test]
fn over_stdio_an_async_tool_runs_in_the_loops_runtime_and_sees_a_cancel() {
    let (saw, seen) = mpsc::channel::<bool>();
    let router = Router::new()
        .tool_async(
            Tool::new("nap", ToolInputSchema::new()),
            |_, _| async move {
                // A tokio timer: it needs the runtime's timer driver.
                tokio::time::sleep(Duration::from_millis(1)).await;
                Ok(CallToolResult::text("napped"))
            },
        )
        .tool_async(
            Tool::new("long", ToolInputSchema::new()),
            move |_, context| {
                let saw = saw.clone();
                async move {
                    // Runs until the client cancels it (or a bound no test reaches).
                    for _ in 0..30_000 {
                        if context.is_cancelled() {
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                    let _ = saw.send(context.is_cancelled());
                    Ok(CallToolResult::text("too late"))
                }
            },
        );
    let server = Server::new(Implementation::new("t", "1"), router);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    drive_loop_in(Some(runtime.handle().clone()), &server, |input, next| {
        initialize_session(input, next);
        let nap = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "nap"}});
        input.send(nap.to_string()).unwrap();
        let napped = next();
        assert_eq!(napped["result"]["content"][0]["text"], "napped", "{napped}");
        let long = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "long"}});
        input.send(long.to_string()).unwrap();
        cancel(input, 2);
        let cancelled = seen
            .recv_timeout(Duration::from_secs(40))
            .expect("the tool ended");
        assert!(cancelled, "the tool did not see the cancel");
        // The cancelled call's answer is never written: the next line is the ping's.
        let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
        input.send(ping.to_string()).unwrap();
        assert_eq!(next()["id"], 3);
    });
}
