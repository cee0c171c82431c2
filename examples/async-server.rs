//! The server engine with an async handler: each request runs in a tokio task, so a slow
//! call does not hold up the next line, and answers go out as they finish, in any order.
//! The engine does the protocol (negotiation, conversions for a 2025-11-25 client,
//! cancellation, the limit of requests in flight); this file only moves lines and answers.
//!
//! cargo run --example async-server --features server,v2025_11_25
//!
//! Two tools: `wait` answers after `ms` milliseconds (at most 10 s), reporting its progress each
//! quarter to a client that asked for it (`Responder::notes`, from the call's task); `roots`
//! asks the client for its roots (`input_required`, which the engine relays to a 2025-11-25
//! client as a `roots/list` request, handing the call out again with the answer) and names
//! them.

use mcp_spec_types::cache::CacheScope;
use mcp_spec_types::dispatch::MethodSet;
use mcp_spec_types::server::{arguments, input_schema, Answer, Context, Incoming, Server, Session};
use mcp_spec_types::v2026_07_28::input_required::{InputRequired, RoundTrip};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::RpcError;
use std::io::{BufRead, Write};
use std::time::Duration;
use tokio::sync::mpsc;

/// What the loop waits for: a line from the client, the end of its input, a report of a
/// call still running, or a finished call.
enum Event {
    Line(String),
    End,
    Note(String),
    Done(Answer),
}

/// `wait`'s arguments: its schema is the tool's `inputSchema`, and a call whose arguments do
/// not read is answered with a tool error before any waiting.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Wait {
    /// How long to wait, in milliseconds.
    #[schemars(range(max = 10_000))]
    ms: Option<u64>,
}

fn wait_tool() -> Tool {
    Tool::new("wait", input_schema::<Wait>().expect("Wait is an object"))
}

/// The handler, written as async code against 2026-07-28. `report` sends what it reported in
/// `context` so far: `wait` reports its progress as it goes, to a client that asked for it.
async fn answer(
    call: ClientCall,
    context: &mut Context,
    report: impl Fn(&mut Context),
) -> Result<ClientCallResult, RpcError> {
    match call {
        ClientCall::ListTools(_) => {
            let roots = Tool::new("roots", ToolInputSchema::new());
            Ok(ListToolsResult::complete([wait_tool(), roots], 0, CacheScope::Private).into())
        }
        ClientCall::CallTool(call) if call.name == "wait" => {
            let ms = match arguments::<Wait>(&call) {
                Ok(Wait { ms }) => ms.unwrap_or(0),
                Err(invalid) => return Ok(CallToolResult::from(invalid).into()),
            };
            for quarter in 1..=4u64 {
                tokio::time::sleep(Duration::from_millis(ms.min(10_000) / 4)).await;
                context.progress(quarter, Some(4.into()), None);
                report(context);
            }
            Ok(CallToolResult::text(format!("waited {ms} ms")).into())
        }
        ClientCall::CallTool(call) if call.name == "roots" => match RoundTrip::of(&call)
            .roots("roots")
        {
            Ok(listed) => {
                let uris: Vec<&str> = listed.roots.iter().map(|root| root.uri.as_str()).collect();
                Ok(CallToolResult::text(uris.join(" ")).into())
            }
            Err(_) => {
                let client = &call.meta.io_modelcontextprotocol_client_capabilities;
                let asked = InputRequired::new().list_roots("roots").build(client)?;
                Ok(CallToolResultOrInputRequired::from(asked).into())
            }
        },
        ClientCall::CallTool(call) => Err(RpcError::invalid_params(format!(
            "Unknown tool: {}",
            call.name
        ))),
        other => Err(RpcError::method_not_found(other.method())),
    }
}

/// What runs inline: a JSON-RPC batch (2025-03-26) is answered whole, at once.
fn inline(call: ClientCall) -> Result<ClientCallResult, RpcError> {
    Err(RpcError::method_not_found(call.method()))
}

fn main() -> std::io::Result<()> {
    let capabilities = ServerCapabilities::new().with_tools(ServerCapabilitiesTools::new());
    let server =
        Server::new(Implementation::new("waiter", "0.1.0"), inline).with_capabilities(capabilities);
    let runtime = tokio::runtime::Runtime::new()?;
    let (events, mut incoming) = mpsc::unbounded_channel();
    let lines = events.clone();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            if lines.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = lines.send(Event::End);
    });
    let mut session = Session::new();
    let mut stdout = std::io::stdout().lock();
    // The loop ends when the input has ended and every call has finished.
    let mut ended = false;
    runtime.block_on(async {
        while let Some(event) = incoming.recv().await {
            let line = match event {
                Event::Line(line) => match server.receive(&mut session, &line) {
                    Incoming::Answer(line) => Some(line),
                    Incoming::Call(pending) => {
                        let (call, mut context, responder) = pending.into_parts();
                        let done = events.clone();
                        tokio::spawn(async move {
                            let report = |context: &mut Context| {
                                for line in responder.notes(context) {
                                    let _ = done.send(Event::Note(line));
                                }
                            };
                            let result = answer(call, &mut context, report).await;
                            let answer = responder.respond(result);
                            // The loop outlives every call: it waits for all of them.
                            let _ = done.send(Event::Done(answer));
                        });
                        None
                    }
                    _ => None,
                },
                Event::End => {
                    ended = true;
                    None
                }
                Event::Note(line) => Some(line),
                Event::Done(answer) => session.finish(answer),
            };
            if let Some(line) = line {
                writeln!(stdout, "{line}")?;
                stdout.flush()?;
            }
            if ended && session.in_flight() == 0 {
                break;
            }
        }
        Ok(())
    })
}
