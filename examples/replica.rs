//! The HTTP example as one of several replicas behind a load balancer: sessions, resumable
//! streams and what changed are shared through Redis, and `input_required` state is sealed
//! with keys every replica is given (the first seals, any opens: rotate by putting a new one
//! first).
//!
//! usage: replica --port <n> [--name <name>] [--redis <url>] [--keys <name=secret,...>]
//!        [--idle-ms <ms>] [--per-client <n>] [--client-header <name>]
//!
//! `--idle-ms`: how long a session may stay idle on this replica (30 minutes by default);
//! `--per-client`: the most sessions one client holds (a quarter of 1024 by default), over
//! all the replicas; `--client-header`: the header the load balancer writes the client's
//! address in (by default every client is the one unknown client: axum gives no peer address).
use base64::{engine::general_purpose::URL_SAFE_NO_PAD as BASE64, Engine};
use hmac::{Hmac, Mac};
use mcp_spec_types::input_required::{KeyRing, StateCodec, StateError};
use mcp_spec_types::server::store::RedisStore;
use mcp_spec_types::server::{Change, Router, Server, Sessions, StreamableHttp};
use mcp_spec_types::v2026_07_28::input_required::{InputRequired, RoundTrip};
use mcp_spec_types::v2026_07_28::*;

/// `requestState` signed with one key (HMAC-SHA256): `<state>.<tag>`, both base64url.
struct Signed(Vec<u8>);

impl Signed {
    fn tag(&self, state: &[u8]) -> Result<Hmac<sha2::Sha256>, StateError> {
        let mac = Hmac::<sha2::Sha256>::new_from_slice(&self.0);
        let mut mac = mac.map_err(|e| StateError::Unsealable(e.to_string()))?;
        mac.update(state);
        Ok(mac)
    }
}

impl StateCodec for Signed {
    fn seal(&self, state: &[u8]) -> Result<String, StateError> {
        let tag = self.tag(state)?.finalize().into_bytes();
        Ok(format!("{}.{}", BASE64.encode(state), BASE64.encode(tag)))
    }

    fn open(&self, sealed: &str) -> Result<Vec<u8>, StateError> {
        let (state, tag) = sealed.split_once('.').ok_or(StateError::Tampered)?;
        let state = BASE64.decode(state).map_err(|_| StateError::Tampered)?;
        let tag = BASE64.decode(tag).map_err(|_| StateError::Tampered)?;
        let verified = self.tag(&state)?.verify_slice(&tag);
        verified.map(|()| state).map_err(|_| StateError::Tampered)
    }
}

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let joined = args
        .iter()
        .find_map(|arg| arg.strip_prefix(name)?.strip_prefix('='));
    if let Some(value) = joined {
        return Some(value.to_owned()); // `--name=value`
    }
    let at = args.iter().position(|arg| arg == name)?;
    args.get(at + 1).cloned()
}

/// The `confirm` tool: asks the client to confirm twice (two rounds of `input_required`),
/// each round's state naming the replica that asked; answers with who asked and who answered.
fn confirm(
    call: CallToolRequestParams,
    here: &str,
) -> Result<CallToolResultOrInputRequired, mcp_spec_types::RpcError> {
    let client = &call.meta.io_modelcontextprotocol_client_capabilities;
    let answered = RoundTrip::of(&call).elicitation("ok").is_ok();
    let asked_on = call.request_state.clone().filter(|_| answered);
    if asked_on.as_deref().is_some_and(|on| on.contains(' ')) {
        let text = format!(
            "asked on {}, answered on {here}",
            asked_on.unwrap_or_default()
        );
        return Ok(CallToolResult::text(text).into());
    }
    let state = asked_on.map_or(here.to_owned(), |first| format!("{first} {here}"));
    let nothing = ElicitRequestFormParamsRequestedSchema::new(std::collections::BTreeMap::new());
    let asked = InputRequired::new()
        .elicit_form("ok", "Go on?", nothing)
        .with_state(state);
    let asked = asked.build(client)?;
    Ok(asked.into())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let name = arg("--name").unwrap_or_else(|| std::process::id().to_string());
    let keys = arg("--keys").unwrap_or_else(|| "k1=change-me".to_owned());
    let mut secrets = keys
        .split(',')
        .map(|key| key.split_once('=').map_or(key, |(_, secret)| secret));
    let mut ring = KeyRing::new(Signed(secrets.next().unwrap_or_default().into()));
    for older in secrets {
        ring = ring.with_older(Signed(older.into()));
    }
    let (who, asker) = (name.clone(), name.clone());
    let router = Router::new()
        .tool(Tool::new("whoami", ToolInputSchema::new()), move |_| {
            Ok(CallToolResult::text(who.clone()))
        })
        .tool_with(
            Tool::new("bump", ToolInputSchema::new()),
            |call, context| {
                let n = call.arguments.and_then(|a| a.get::<u64>("n")?.ok());
                let n = n.unwrap_or_default();
                context.changed(Change::ResourceUpdated(format!("memo://n/{n}")));
                Ok(CallToolResult::text(n.to_string()))
            },
        )
        .tool(Tool::new("confirm", ToolInputSchema::new()), move |call| {
            confirm(call, &asker)
        })
        .subscriptions(|_| Ok(()))
        .template(ResourceTemplate::new("memo://n/{n}", "n"), |read, _| {
            Ok(ReadResourceResult::text(read.uri, "bumped"))
        });
    let server =
        Server::new(Implementation::new("replica", "0.1.0"), router).with_state_codec(ring);
    let redis = arg("--redis").unwrap_or_else(|| "redis://127.0.0.1:6379".to_owned());
    let mut mcp = StreamableHttp::new(server).with_store(RedisStore::open(&redis)?);
    let idle = arg("--idle-ms").and_then(|ms| ms.parse().ok());
    let share = arg("--per-client").and_then(|n| n.parse().ok());
    if idle.is_some() || share.is_some() {
        let max = Sessions::DEFAULT_MAX;
        let idle = idle.unwrap_or(Sessions::DEFAULT_IDLE_MS);
        let idle = std::time::Duration::from_millis(idle);
        mcp = mcp.with_session_limits(max, idle, share.unwrap_or(max / 4));
    }
    if let Some(header) = arg("--client-header") {
        mcp = mcp.with_client_address_header(header.parse()?);
    }
    // How many event streams this replica holds: for a load balancer's, or a test's, eyes.
    let streams = mcp.clone();
    let count = move || async move { streams.streams().to_string() };
    let app = axum::Router::new()
        .route_service("/mcp", mcp)
        .route("/streams", axum::routing::get(count));
    let port = arg("--port").unwrap_or_else(|| "0".to_owned());
    let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}")).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, app).await?;
    Ok(())
}
