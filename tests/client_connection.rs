//! A client connected in one line (`client::Connection`), over Streamable HTTP to the crate's
//! tower service (served by axum in this process) and over stdio to the first server's
//! process: every page of `tools/list`, `tools/call`, `resources/read` and `prompts/get` as
//! their results, on 2026-07-28 and on 2025-11-25 (a session whose id the connection keeps),
//! the server's errors as errors, and the HTTP client example against the HTTP server
//! example.
#![cfg(all(
    feature = "http-client",
    feature = "stdio-client",
    feature = "http-server",
    feature = "v2025_11_25"
))]

use crate::http_service::serve;
use mcp_spec_types::client::{CallError, Client, Connection};
use mcp_spec_types::dispatch::MethodSet;
use mcp_spec_types::server::Router;
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::ProtocolVersion;
use serde_json::json;
use std::sync::{Arc, Mutex};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add {
    a: f64,
    b: f64,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Greeting {
    name: String,
}

/// Thirty tools, so that `tools/list` comes in pages; `add`; a resource; a prompt; a tool
/// that reports progress.
fn router() -> Router {
    let mut router = Router::new()
        .typed_tool("add", |Add { a, b }| {
            Ok(CallToolResult::text((a + b).to_string()))
        })
        .tool_with(Tool::new("count", ToolInputSchema::new()), |_, context| {
            context.progress(1, Some(1.into()), Some("counted"));
            Ok(CallToolResult::text("1"))
        })
        .resource(Resource::new("memo://hi", "hi"), |read| {
            Ok(ReadResourceResult::text(read.uri, "Hi!"))
        })
        .typed_prompt("greet", |Greeting { name }| {
            let text = TextContent::new(format!("Hello, {name}!"));
            Ok(GetPromptResult::complete([PromptMessage::new(
                text,
                Role::User,
            )]))
        })
        .with_page_size(10);
    for n in 0..30 {
        let tool = Tool::new(format!("tool-{n:02}"), ToolInputSchema::new());
        router = router.tool(tool, |_| Ok(CallToolResult::text("")));
    }
    router
}

fn client(versions: &[&str]) -> Client {
    Client::new(Implementation::new("connected", "1"))
        .with_versions(versions.iter().map(|v| ProtocolVersion::from(*v)))
}

async fn exercise(server: &Connection) {
    let tools = server.list_tools().await.expect("tools/list");
    assert_eq!(tools.len(), 32, "every page: {:?}", tools.len());
    assert!(tools.iter().any(|tool| tool.name == "tool-29"));
    let sum = server
        .call_tool("add", json!({"a": 2, "b": 3.5}))
        .await
        .expect("tools/call");
    assert_eq!(json!(sum.content), json!([{"type": "text", "text": "5.5"}]));
    let bad = server
        .call_tool("add", json!({"b": 1}))
        .await
        .expect("a tool error");
    assert_eq!(bad.is_error, Some(true));
    let read = server
        .read_resource("memo://hi")
        .await
        .expect("resources/read");
    assert_eq!(
        json!(read.contents),
        json!([{"uri": "memo://hi", "text": "Hi!"}])
    );
    let missing = server.read_resource("memo://nothing").await;
    assert!(
        matches!(&missing, Err(CallError::Server(error)) if error.message.contains("not found")),
        "{missing:?}"
    );
    let prompt = server
        .get_prompt("greet", [("name", "Ada")])
        .await
        .expect("prompts/get");
    assert_eq!(
        json!(prompt.messages),
        json!([{"role": "user", "content": {"type": "text", "text": "Hello, Ada!"}}])
    );
    let unknown = server.call_tool("nothing", json!({})).await;
    assert!(matches!(unknown, Err(CallError::Server(_))), "{unknown:?}");
}

#[test]
fn a_connection_over_http_calls_in_one_line_on_both_revisions() {
    let serving = serve(router());
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        for (versions, spoken) in [
            (&["2026-07-28", "2025-11-25"][..], "2026-07-28"),
            (&["2025-11-25"][..], "2025-11-25"),
        ] {
            let server = Connection::http(&serving.url, client(versions))
                .await
                .expect("connected");
            assert_eq!(
                server.version().map(|v| v.as_str().to_owned()),
                Some(spoken.to_owned())
            );
            exercise(&server).await;
        }
    });
    // One session, for the 2025-11-25 connection, kept by the service.
    assert_eq!(serving.service.sessions(), 1);
}

#[test]
fn a_connections_notifications_reach_its_function_before_the_answer() {
    let serving = serve(router());
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let server = Connection::http(&serving.url, client(&["2025-11-25"]))
            .await
            .expect("connected");
        let heard = Arc::new(Mutex::new(Vec::new()));
        let keep = Arc::clone(&heard);
        server.on_notification(move |notification| {
            if let ServerNotify::Progress(progress) = notification {
                keep.lock().expect("unpoisoned").push(progress.message);
            }
        });
        let mut params = CallToolRequestParams::new(
            "count",
            RequestMetaObject::new(ClientCapabilities::new(), "2025-11-25"),
        );
        params.meta.progress_token = Some(7.into());
        let answer = server
            .request(ClientCall::CallTool(params))
            .await
            .expect("answered");
        assert!(
            matches!(answer, ClientCallResult::CallTool(_)),
            "{answer:?}"
        );
        let heard = heard.lock().expect("unpoisoned").clone();
        assert_eq!(heard, [Some("counted".to_owned())]);
    });
}

#[test]
fn a_connection_that_cannot_reach_its_server_says_so() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let refused = runtime.block_on(Connection::http(
        "http://127.0.0.1:1/mcp",
        client(&["2026-07-28"]),
    ));
    assert!(
        matches!(refused, Err(CallError::Transport(_))),
        "{refused:?}"
    );
    let missing = runtime.block_on(Connection::stdio(
        tokio::process::Command::new("/nonexistent/server"),
        client(&["2026-07-28"]),
    ));
    assert!(
        matches!(missing, Err(CallError::Transport(_))),
        "{missing:?}"
    );
}

#[test]
fn a_connection_over_stdio_speaks_to_the_first_servers_process() {
    let binary = crate::support::example_binary("first-server");
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        for (versions, spoken) in [
            (&["2026-07-28"][..], "2026-07-28"),
            (&["2025-11-25"][..], "2025-11-25"),
        ] {
            let server = Connection::stdio(tokio::process::Command::new(&binary), client(versions))
                .await
                .expect("connected");
            assert_eq!(
                server.version().map(|v| v.as_str().to_owned()),
                Some(spoken.to_owned())
            );
            let tools = server.list_tools().await.expect("tools/list");
            assert_eq!(tools.len(), 1);
            let sum = server
                .call_tool("add", json!({"a": 1, "b": 2}))
                .await
                .expect("added");
            assert_eq!(json!(sum.content), json!([{"type": "text", "text": "3"}]));
            let read = server.read_resource("memo://hi").await.expect("read");
            assert_eq!(
                json!(read.contents),
                json!([{"uri": "memo://hi", "text": "Hi!"}])
            );
        }
    });
}

#[test]
fn the_http_client_example_calls_the_http_server_example() {
    let server = crate::support::Listening::start_example("http-server");
    let client = crate::support::example_binary("http-client");
    let output = std::process::Command::new(client)
        .arg(&server.url)
        .output()
        .expect("the client ran");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "tool: add\ntool: sum\nadd: [{\"type\":\"text\",\"text\":\"5.5\"}]\n"
    );
}

/// The id of the last `tools/call` the hand-written server took.
static CALL_ID: Mutex<serde_json::Value> = Mutex::new(serde_json::Value::Null);

/// A 2025-11-25 server written by hand, whose `tools/call` stream ends after its priming event
/// (an id, a `retry`, no message), as a server that closes a long call's connection does; the
/// answer comes only to a `GET` that resumes after that event.
async fn closing_server(
    method: axum::http::Method,
    headers: axum::http::HeaderMap,
    body: String,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let sse = |events: String| ([("content-type", "text/event-stream")], events).into_response();
    if method == axum::http::Method::GET {
        let resumed = headers.get("last-event-id").and_then(|v| v.to_str().ok());
        let session = headers.get("mcp-session-id").and_then(|v| v.to_str().ok());
        if (resumed, session) != (Some("call-1"), Some("s-1")) {
            return axum::http::StatusCode::BAD_REQUEST.into_response();
        }
        let id = CALL_ID.lock().map(|id| id.clone()).unwrap_or_default();
        let answer = json!({"jsonrpc": "2.0", "id": id,
            "result": {"content": [{"type": "text", "text": "resumed"}]}});
        // A comment and the event split over lines as a stream may carry them.
        return sse(format!(
            ": kept alive\r\nid: call-2\r\ndata: {answer}\r\n\r\n"
        ));
    }
    let message: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
    match message["method"].as_str() {
        Some("initialize") => (
            [
                ("mcp-session-id", "s-1"),
                ("content-type", "application/json"),
            ],
            json!({"jsonrpc": "2.0", "id": message["id"], "result": {
                "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "closing", "version": "1"}}})
            .to_string(),
        )
            .into_response(),
        Some("tools/call") => {
            if let Ok(mut id) = CALL_ID.lock() {
                *id = message["id"].clone();
            }
            sse("id: call-1\nretry: 10\ndata: \n\n".to_owned())
        }
        Some(method) if method.starts_with("notifications/") => {
            axum::http::StatusCode::ACCEPTED.into_response()
        }
        // `server/discover` is not a method of this server's revision: refused as the
        // TypeScript SDK's stateful server refuses it, 400 with an error for no request.
        _ => (
            axum::http::StatusCode::BAD_REQUEST,
            [("content-type", "application/json")],
            json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32000, "message": "Bad Request: Server not initialized"}})
            .to_string(),
        )
            .into_response(),
    }
}

#[test]
fn a_stream_that_ends_before_its_answer_is_resumed_after_its_last_event() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let url = format!("http://{}/mcp", listener.local_addr().expect("its address"));
        let app = axum::Router::new().route("/mcp", axum::routing::any(closing_server));
        tokio::spawn(async move { axum::serve(listener, app).await });
        let server = Connection::http(&url, client(&["2026-07-28", "2025-11-25"]))
            .await
            .expect("connected, by initialize after discover got 404");
        assert_eq!(
            server.version().map(|v| v.as_str().to_owned()),
            Some("2025-11-25".to_owned())
        );
        let result = server
            .call_tool("slow", json!({}))
            .await
            .expect("the resumed answer");
        assert_eq!(
            json!(result.content),
            json!([{"type": "text", "text": "resumed"}])
        );
    });
}

#[test]
fn a_servers_request_for_roots_is_answered_by_the_connections_function_on_both_revisions() {
    let serving = serve(crate::http_service::tour(0));
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        // 2026-07-28 asks with `input_required` (the engine answers and retries); 2025-11-25
        // with a `roots/list` request on the call's stream (answered in a POST of its own).
        for versions in [&["2026-07-28"][..], &["2025-11-25"][..]] {
            let capabilities =
                ClientCapabilities::new().with_roots(mcp_spec_types::JsonObject::new());
            let client = client(versions).with_capabilities(capabilities);
            let server = Connection::http(&serving.url, client)
                .await
                .expect("connected");
            server.on_request(|call| match call {
                ServerCall::ListRoots(_) => {
                    let roots = [Root::new("file:///work").with_name("work")];
                    Ok(ServerCallResult::ListRoots(ListRootsResult::new(roots)))
                }
                other => Err(mcp_spec_types::RpcError::method_not_found(other.method())),
            });
            let named = server
                .call_tool("roots", json!({}))
                .await
                .expect("answered");
            assert_eq!(
                json!(named.content),
                json!([{"type": "text", "text": "file:///work"}]),
                "{versions:?}"
            );
        }
    });
}

#[test]
fn a_request_for_input_the_client_refuses_ends_the_call_with_an_error() {
    let serving = serve(crate::http_service::tour(0));
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let capabilities = ClientCapabilities::new().with_roots(mcp_spec_types::JsonObject::new());
        let client = client(&["2026-07-28"]).with_capabilities(capabilities);
        let server = Connection::http(&serving.url, client)
            .await
            .expect("connected");
        // No `on_request`: the roots the server asks for are refused, and the engine ends the
        // call saying so (over stdio, where no exchange ends, nothing else would).
        let refused = server.call_tool("roots", json!({})).await;
        let Err(CallError::Unexpected(why)) = refused else {
            panic!("{refused:?}")
        };
        assert!(
            why.contains("refused the server's input request \"roots\""),
            "{why}"
        );
    });
}

#[test]
fn a_session_hears_on_its_own_stream_what_another_session_changed() {
    let tool = Tool::new("grow", ToolInputSchema::new());
    let router = Router::new()
        .with_list_changed()
        .tool_with(tool, |_, context| {
            context.changed(mcp_spec_types::server::Change::ToolList);
            Ok(CallToolResult::text("grown"))
        });
    let serving = serve(router);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let listener = Connection::http(&serving.url, client(&["2025-11-25"]))
            .await
            .expect("connected");
        let (heard, mut hearing) = tokio::sync::mpsc::unbounded_channel();
        listener.on_notification(move |notification| {
            let _ = heard.send(notification.method().to_owned());
        });
        let caller = Connection::http(&serving.url, client(&["2025-11-25"]))
            .await
            .expect("connected");
        let grown = caller.call_tool("grow", json!({})).await.expect("called");
        assert_eq!(
            json!(grown.content),
            json!([{"type": "text", "text": "grown"}])
        );
        // Nothing of the listener's own was in flight: it heard on the stream it opened.
        let wait = std::time::Duration::from_secs(10);
        let method = tokio::time::timeout(wait, hearing.recv()).await;
        assert_eq!(
            method.ok().flatten().as_deref(),
            Some("notifications/tools/list_changed")
        );
    });
}

/// Refuses a request to `/mcp` without `Authorization: Bearer open-sesame` (401).
async fn bearer_only(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let authorized = request
        .headers()
        .get("authorization")
        .is_some_and(|value| value == "Bearer open-sesame");
    match authorized {
        true => next.run(request).await,
        false => axum::http::StatusCode::UNAUTHORIZED.into_response(),
    }
}

#[test]
fn a_connection_sends_through_the_callers_sender_which_may_authorize_each_request() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let server = mcp_spec_types::server::Server::new(Implementation::new("t", "1"), router());
    let service = mcp_spec_types::server::StreamableHttp::new(server);
    let app = axum::Router::new()
        .route_service("/mcp", service)
        .layer(axum::middleware::from_fn(bearer_only));
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
    runtime.spawn(async move { axum::serve(listener, app).await });
    runtime.block_on(async {
        let refused = Connection::http(&url, client(&["2026-07-28"])).await;
        assert!(refused.is_err(), "connected without a token");
        let sent = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&sent);
        let http = reqwest::Client::new();
        let send = move |request: http::Request<String>| {
            let (http, seen) = (http.clone(), Arc::clone(&seen));
            async move {
                if let Ok(mut seen) = seen.lock() {
                    seen.push(request.method().to_string());
                }
                let mut request = reqwest::Request::try_from(request).map_err(|e| e.to_string())?;
                let bearer = "Bearer open-sesame".parse().map_err(|_| "a header value")?;
                request.headers_mut().insert("authorization", bearer);
                let response = http.execute(request).await.map_err(|e| e.to_string())?;
                Ok(http::Response::from(response))
            }
        };
        let server = Connection::http_via(&url, client(&["2026-07-28"]), send)
            .await
            .expect("connected with the token");
        exercise(&server).await;
        let sent = sent.lock().map(|sent| sent.len()).unwrap_or_default();
        assert!(sent >= 8, "every request went through the sender: {sent}");
    });
}

#[test]
fn a_dropped_connection_ends_the_servers_own_stream() {
    let server = mcp_spec_types::server::Server::new(Implementation::new("t", "1"), router());
    // Pings find a stream whose client went away at once.
    let service = mcp_spec_types::server::StreamableHttp::new(server)
        .with_keep_alive(std::time::Duration::from_millis(10));
    let serving = crate::http_service::serve_service(service.clone());
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let connection = Connection::http(&serving.url, client(&["2025-11-25"]))
            .await
            .expect("connected");
        assert_eq!(service.streams(), 1, "the server's own stream is open");
        drop(connection);
        // Bounded only for a stream that never ends: the verdict is the count.
        for _ in 0..1_000 {
            if service.streams() == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(service.streams(), 0, "the stream outlived its connection");
    });
}
