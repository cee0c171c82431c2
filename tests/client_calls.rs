//! A call of a connected client (`client::Connection`) watched, timed out and cancelled
//! (`client::CallOptions`), against the crate's own server: over Streamable HTTP (the tower
//! service in this process), a tool that reports its progress three times, each report
//! acknowledged by the client's per-call function before the tool goes on (so every report
//! reaches it before the answer, ordered by the reports themselves, not by a clock), and its
//! log messages; calls past their timeout and a call whose future is dropped, cancelled at
//! the server in a 2025-11-25 session (the tool's context sees it); a client whose build
//! shares no revision with the server, told so as its own refusal. Over stdio (this test
//! binary run again as the server's process, its async handler telling the test what its
//! context saw), a call whose future is dropped, and one past its timeout, cancelled at the
//! server in 2026-07-28 and in 2025-11-25: the handler's context sees it.
//!
//! No clock decides a verdict: calls are held by channels the test or the client's functions
//! feed. The waits that bound a held call (so that a broken guard fails its test rather than
//! hang it) are far longer than any step takes.
#![cfg(all(
    feature = "http-client",
    feature = "stdio-client",
    feature = "http-server",
    feature = "v2025_06_18",
    feature = "v2025_11_25"
))]

use crate::http_service::{serve, serve_service};
use mcp_spec_types::client::{CallError, CallOptions, Client, Connection};
use mcp_spec_types::server::{Router, Server, StreamableHttp};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::ProtocolVersion;
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

/// How long a held step may wait before the test gives it up as failed: never reached when
/// what the test guards works.
const HELD: Duration = Duration::from_secs(20);

fn client(versions: &[&str]) -> Client {
    Client::new(Implementation::new("watcher", "1"))
        .with_versions(versions.iter().map(|v| ProtocolVersion::from(*v)))
}

/// What the server's tools tell the test, and what the test tells them.
#[derive(Clone)]
struct Wires {
    /// The client's acknowledgements of each progress report, for `report` to go on.
    acks: Arc<tokio::sync::Mutex<mpsc::UnboundedReceiver<f64>>>,
    /// What `hold` saw: `started`, then `cancelled` once its context says so.
    seen: mpsc::UnboundedSender<&'static str>,
}

/// `report`: three progress reports, each waiting for the client's acknowledgement; a log
/// message; then the answer. `hold`: says it started, then is held until its context is
/// cancelled (which it says too) or the test's bound passes. It is not async: the HTTP
/// service does not yet tell an async tool's context of a session's `notifications/cancelled`
/// (the stdio loop does: the stdio tests below hold an async tool).
fn router(wires: Wires) -> Router {
    let report_wires = wires.clone();
    let hold_wires = wires;
    Router::new()
        .tool_async(
            Tool::new("report", ToolInputSchema::new()),
            move |_, mut context| {
                let acks = Arc::clone(&report_wires.acks);
                async move {
                    let mut acks = acks.lock().await;
                    context.log(LoggingLevel::Info, "reporting");
                    for step in 1..=3 {
                        context.progress(step, Some(3.into()), Some(&format!("step {step}")));
                        // The client's function saw this report before the tool goes on.
                        match tokio::time::timeout(HELD, acks.recv()).await {
                            Ok(Some(acked)) if acked == f64::from(step) => {}
                            other => {
                                let why = format!("report {step} acknowledged as {other:?}");
                                return Ok(CallToolResult::text(why).with_is_error(true));
                            }
                        }
                    }
                    Ok(CallToolResult::text("reported"))
                }
            },
        )
        .tool_with(
            Tool::new("hold", ToolInputSchema::new()),
            move |_, context| {
                // A tool that is not async: the service runs it on the blocking pool.
                let _ = hold_wires.seen.send("started");
                // The context is the handler's only news of the client: looked at until it
                // says the call was cancelled, or the test's bound passes.
                let started = std::time::Instant::now();
                while !context.is_cancelled() && started.elapsed() < HELD {
                    std::thread::sleep(Duration::from_millis(5));
                }
                if context.is_cancelled() {
                    let _ = hold_wires.seen.send("cancelled");
                }
                Ok(CallToolResult::text("held"))
            },
        )
}

/// The router's wires: the sender of acknowledgements and the receiver of what `hold` saw.
fn wires() -> (
    Wires,
    mpsc::UnboundedSender<f64>,
    mpsc::UnboundedReceiver<&'static str>,
) {
    let (ack, acks) = mpsc::unbounded_channel();
    let (seen, saw) = mpsc::unbounded_channel();
    let wires = Wires {
        acks: Arc::new(tokio::sync::Mutex::new(acks)),
        seen,
    };
    (wires, ack, saw)
}

#[test]
fn a_calls_progress_reaches_its_own_function_report_by_report_before_the_answer() {
    let (wires, ack, _saw) = wires();
    let serving = serve(router(wires));
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        for versions in [&["2026-07-28"][..], &["2025-11-25"][..]] {
            let server = Connection::http(&serving.url, client(versions))
                .await
                .expect("connected");
            let elsewhere = Arc::new(Mutex::new(Vec::new()));
            let heard = Arc::clone(&elsewhere);
            server.on_notification(move |notification| {
                heard.lock().expect("unpoisoned").push(notification);
            });
            // What the call's functions saw, and the answer, in the order they came.
            let events = Arc::new(Mutex::new(Vec::new()));
            let progress_events = Arc::clone(&events);
            let ack = ack.clone();
            let log_events = Arc::clone(&events);
            let watched = CallOptions::new()
                .on_progress(move |progress| {
                    let step = progress.progress.as_f64().unwrap_or(f64::NAN);
                    let message = progress.message.unwrap_or_default();
                    progress_events.lock().expect("unpoisoned").push(message);
                    let _ = ack.send(step);
                })
                .on_log(LoggingLevel::Info, move |log| {
                    log_events
                        .lock()
                        .expect("unpoisoned")
                        .push(format!("log {}", log.data));
                });
            let answer = server
                .call_tool_with("report", json!({}), watched)
                .await
                .expect("answered");
            events.lock().expect("unpoisoned").push("answer".to_owned());
            assert_eq!(
                json!(answer.content),
                json!([{"type": "text", "text": "reported"}]),
                "{versions:?}"
            );
            let events = events.lock().expect("unpoisoned").clone();
            let progress: Vec<&String> = events.iter().filter(|e| e.starts_with("step")).collect();
            assert_eq!(progress, ["step 1", "step 2", "step 3"], "{versions:?}");
            assert_eq!(
                events.last().map(String::as_str),
                Some("answer"),
                "{versions:?}: {events:?}"
            );
            // A 2026-07-28 server is asked for the call's log messages with it; a session of
            // 2025-11-25 sends none before `logging/setLevel`.
            let logged = events.iter().filter(|e| e.starts_with("log")).count();
            assert_eq!(
                logged,
                usize::from(versions == ["2026-07-28"]),
                "{versions:?}: {events:?}"
            );
            // The call's progress and logs went to its own functions, not to the connection's.
            let elsewhere = elsewhere.lock().expect("unpoisoned");
            assert!(elsewhere.is_empty(), "{versions:?}: {elsewhere:?}");
        }
    });
}

/// Starts `hold` on `server` with `options` in a task of its own, and waits until the tool
/// has started.
async fn held(
    server: &Arc<Connection>,
    options: CallOptions,
    saw: &mut mpsc::UnboundedReceiver<&'static str>,
) -> tokio::task::JoinHandle<Result<CallToolResult, CallError>> {
    let calling = Arc::clone(server);
    let call =
        tokio::spawn(async move { calling.call_tool_with("hold", json!({}), options).await });
    let started = tokio::time::timeout(HELD, saw.recv()).await;
    assert_eq!(started, Ok(Some("started")));
    call
}

#[test]
fn a_call_past_its_timeout_ends_with_the_timeout_error() {
    let (wires, _ack, mut saw) = wires();
    let serving = serve(router(wires));
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        for versions in [&["2026-07-28"][..], &["2025-11-25"][..]] {
            let server = Connection::http(&serving.url, client(versions))
                .await
                .expect("connected");
            let server = Arc::new(server);
            // Its own timeout: the tool holds the call until cancelled, so only the timeout
            // ends it.
            let short = Duration::from_millis(200);
            let call = held(&server, CallOptions::new().with_timeout(short), &mut saw).await;
            let ended = call.await.expect("the call's task");
            assert_eq!(ended, Err(CallError::Timeout(short)), "{versions:?}");
            cancelled_in_a_session(versions, &mut saw).await;
            // The connection's timeout, for a call that sets none.
            let server = Arc::new(
                Connection::http(&serving.url, client(versions))
                    .await
                    .expect("connected")
                    .with_call_timeout(short),
            );
            let call = held(&server, CallOptions::new(), &mut saw).await;
            let ended = call.await.expect("the call's task");
            assert_eq!(ended, Err(CallError::Timeout(short)), "{versions:?}");
            cancelled_in_a_session(versions, &mut saw).await;
        }
    });
}

/// In a session (2025-11-25), that the held tool saw its call cancelled. Over HTTP in
/// 2026-07-28 the call's stream closed is its cancellation, which the service does not tell a
/// handler: nothing to see.
async fn cancelled_in_a_session(
    versions: &[&str],
    saw: &mut mpsc::UnboundedReceiver<&'static str>,
) {
    if versions == ["2025-11-25"] {
        let seen = tokio::time::timeout(HELD, saw.recv()).await;
        assert_eq!(seen, Ok(Some("cancelled")), "the tool saw no cancellation");
    }
}

#[test]
fn a_call_whose_future_is_dropped_is_cancelled_at_the_server_over_http() {
    let (wires, _ack, mut saw) = wires();
    let serving = serve(router(wires));
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        // A session's server is told with `notifications/cancelled`.
        let server = Connection::http(&serving.url, client(&["2025-11-25"]))
            .await
            .expect("connected");
        let server = Arc::new(server);
        let call = held(&server, CallOptions::new(), &mut saw).await;
        // The call's future dropped while the tool holds it.
        call.abort();
        assert!(call.await.is_err_and(|e| e.is_cancelled()));
        cancelled_in_a_session(&["2025-11-25"], &mut saw).await;
        // The connection goes on.
        let tools = server.list_tools().await.expect("tools/list");
        assert_eq!(tools.len(), 2);
    });
}

/// Set, to the file its handler reports to, in the environment of this test binary run again
/// as a server's process by [`stdio_server`].
const SERVE_ENV: &str = "MCP_SPEC_TYPES_CLIENT_CALLS_SERVE";

/// Not a test of its own: the server's process of the stdio tests below, when this binary is
/// run again with [`SERVE_ENV`] set (elsewhere it returns at once). Its tool `hold` reports
/// progress once (the call has started), then waits until its context says the call was
/// cancelled, and writes `cancelled` to the file [`SERVE_ENV`] names.
#[test]
fn serves_over_stdio_when_run_by_the_cancel_tests() {
    let Some(report) = std::env::var_os(SERVE_ENV) else {
        return;
    };
    let router = Router::new().tool_async(
        Tool::new("hold", ToolInputSchema::new()),
        move |_, mut context| {
            let report = report.clone();
            async move {
                context.progress(0, None, Some("started"));
                let waited = tokio::time::timeout(HELD, async {
                    while !context.is_cancelled() {
                        tokio::time::sleep(Duration::from_millis(5)).await;
                    }
                });
                if waited.await.is_ok() {
                    let _ = std::fs::write(&report, "cancelled");
                }
                Ok(CallToolResult::text("held"))
            }
        },
    );
    let server = Server::new(Implementation::new("holder", "1"), router);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    // The loop blocks its thread: it runs beside the runtime's workers, which the tool uses.
    let served =
        runtime.block_on(async { tokio::task::spawn_blocking(move || server.serve_stdio()).await });
    assert!(matches!(served, Ok(Ok(()))), "{served:?}");
}

/// This test binary run again as the server's process ([`serves_over_stdio_when_run_by_the_cancel_tests`]),
/// its handler reporting to `report`.
fn stdio_server(report: &std::path::Path) -> tokio::process::Command {
    let exe = std::env::current_exe().expect("this test binary");
    let mut command = tokio::process::Command::new(exe);
    command
        .args([
            "client_calls::serves_over_stdio_when_run_by_the_cancel_tests",
            "--exact",
            "--nocapture",
            "--test-threads=1",
            "-q",
        ])
        .env(SERVE_ENV, report);
    command
}

/// Waits until the server's handler wrote `cancelled` to `report`.
async fn handler_saw_cancellation(report: &std::path::Path) -> bool {
    let seen = tokio::time::timeout(HELD, async {
        while std::fs::read_to_string(report).unwrap_or_default() != "cancelled" {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    seen.await.is_ok()
}

/// Calls `hold` on a server process over stdio in `versions` with `options` in a task of its
/// own; returns the call's task once the tool reported that it started, and the file its
/// handler reports to.
async fn held_over_stdio(
    versions: &[&str],
    options: CallOptions,
) -> (
    Arc<Connection>,
    tokio::task::JoinHandle<Result<CallToolResult, CallError>>,
    std::path::PathBuf,
) {
    let scratch = crate::support::scratch_dir(&format!("client-calls-{}", versions.join("-")));
    let report = scratch.join("handler-saw");
    let server = Connection::stdio(stdio_server(&report), client(versions))
        .await
        .expect("connected");
    let server = Arc::new(server);
    let (started, mut starts) = mpsc::unbounded_channel();
    let options = options.on_progress(move |progress| {
        let _ = started.send(progress.message);
    });
    let calling = Arc::clone(&server);
    let call =
        tokio::spawn(async move { calling.call_tool_with("hold", json!({}), options).await });
    let started = tokio::time::timeout(HELD, starts.recv()).await;
    assert_eq!(
        started,
        Ok(Some(Some("started".to_owned()))),
        "{versions:?}"
    );
    (server, call, report)
}

#[test]
fn a_call_whose_future_is_dropped_is_cancelled_at_the_server() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        for versions in [&["2026-07-28"][..], &["2025-11-25"][..]] {
            let (server, call, report) = held_over_stdio(versions, CallOptions::new()).await;
            // The call's future dropped while the tool holds it.
            call.abort();
            assert!(call.await.is_err_and(|e| e.is_cancelled()));
            assert!(
                handler_saw_cancellation(&report).await,
                "{versions:?}: the handler saw no cancellation"
            );
            // The connection goes on.
            let tools = server.list_tools().await.expect("tools/list");
            assert_eq!(tools.len(), 1, "{versions:?}");
        }
    });
}

#[test]
fn a_call_past_its_timeout_is_cancelled_at_the_server() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        for versions in [&["2026-07-28"][..], &["2025-11-25"][..]] {
            let short = Duration::from_millis(300);
            let options = CallOptions::new().with_timeout(short);
            let (_server, call, report) = held_over_stdio(versions, options).await;
            let ended = call.await.expect("the call's task");
            assert_eq!(ended, Err(CallError::Timeout(short)), "{versions:?}");
            assert!(
                handler_saw_cancellation(&report).await,
                "{versions:?}: the handler saw no cancellation"
            );
        }
    });
}

#[test]
fn a_client_that_shares_no_revision_with_the_server_says_its_own_build_refused() {
    let server = Server::new(Implementation::new("old", "1"), Router::new())
        .with_versions([ProtocolVersion::from("2025-11-25")]);
    let serving = serve_service(StreamableHttp::new(server));
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        // A stateful revision the server does not speak: its `initialize` answer names the
        // one it does.
        let refused = Connection::http(&serving.url, client(&["2025-06-18"])).await;
        let Err(error) = refused else {
            panic!("connected to a server of another revision");
        };
        assert_eq!(
            error,
            CallError::NoRevisionInCommon {
                client: vec![ProtocolVersion::from("2025-06-18")],
                server: vec!["2025-11-25".to_owned()],
            }
        );
        // No stateful revision at all: the server refuses `server/discover`, and the client
        // has nothing to `initialize` with.
        let refused = Connection::http(&serving.url, client(&["2026-07-28"])).await;
        assert!(
            matches!(
                &refused,
                Err(CallError::NoRevisionInCommon { client, server })
                    if client == &[ProtocolVersion::from("2026-07-28")] && server.is_empty()
            ),
            "{refused:?}"
        );
        // The build's default speaks both, and so connects.
        let server = Connection::http(&serving.url, Client::new(Implementation::new("any", "1")))
            .await
            .expect("connected");
        assert_eq!(
            server.version().map(|v| v.as_str().to_owned()),
            Some("2025-11-25".to_owned())
        );
    });
}
