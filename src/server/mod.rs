//! A sans-IO MCP server (feature `server`): handlers written once, against the crate's default
//! revision (2026-07-28), served to a client of every revision the build enables.
//!
//! The engine ([`Server`]) takes a line a client sent and gives back the line to send (or
//! none); it does no I/O of its own, so any transport and any runtime can carry it
//! ([`Server::serve_stdio`] is the one loop the crate has, over `std::io`). It owns what every
//! server must get right, so that no handler can get it wrong:
//! - **negotiation**: `initialize` for the stateful revisions (2024-11-05 to 2025-11-25), the
//!   version each request of a stateless revision names (2026-07-28 on), refused with
//!   `-32022` and the list the server offers; `server/discover` and `ping`;
//! - **conversion**: a client's request reaches the handler as a 2026-07-28 call (with the
//!   session's version and capabilities in `_meta`, as a stateless request carries them),
//!   and the answer goes back in the client's revision, without what that revision does not
//!   define ([`crate::convert`]'s conversions for a peer);
//! - **each revision's error codes**: "resource not found" is `-32002` up to 2025-11-25 and
//!   `-32602` from 2026-07-28, whichever a handler built;
//! - **what cannot be read** gets the error response JSON-RPC names (`-32700`, `-32600`,
//!   `-32602`), with the request's id when it can be read;
//! - **asking the client for input**: a handler answers `input_required` (2026-07-28) to ask
//!   for elicitation, sampling or roots; a 2026-07-28 client gets it and retries, and a client
//!   of a stateful revision, which has no such result, is asked each input request as a
//!   request of its revision, the call then handed to the handler again with the answers, as
//!   the retry would carry them (at most 8 rounds a request; over HTTP, on the call's event
//!   stream).
//! - **progress and logging**: a handler reports progress and log messages through its
//!   [`Context`], which knows the request's progress token and the log level the client
//!   chose (`logging/setLevel`, which the engine answers for the stateful revisions, or the
//!   request's `_meta` from 2026-07-28); they go out before the answer, as notifications of
//!   the client's revision, and only as far as the client asked for them.
//!
//! The handler is a [`Handler`]: a [`Router`] of tools, resources, resource templates and
//! prompts (which derives the capabilities and pages the lists), or a function of the call.
//!
//! [`Server::handle`] runs the handler inline. To run it elsewhere (a thread pool, an async
//! task), [`Server::receive`] hands each request out as a [`PendingCall`]: its call in
//! 2026-07-28, and a [`Responder`] that writes the answer in the client's revision. The
//! [`Session`] that received it turns the answer into the line to send
//! ([`Session::finish`]), or into nothing when the client cancelled the request meanwhile; it
//! refuses a request whose id is still in flight, and more than
//! [`Session::MAX_IN_FLIGHT`] at once.
//!
//! ```
//! use mcp_spec_types::server::{Router, Server, Session};
//! use mcp_spec_types::v2026_07_28::*;
//!
//! let router = Router::new().resource(Resource::new("memo://hi", "hi"), |read| {
//!     Ok(ReadResourceResult::text(read.uri, "Hi!"))
//! });
//! let server = Server::new(Implementation::new("memo", "0.1.0"), router);
//! let mut session = Session::new();
//! let read = r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"memo://hi",
//!     "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
//!              "io.modelcontextprotocol/clientCapabilities":{}}}}"#;
//! let answer = server.handle(&mut session, read).pop().unwrap();
//! assert!(answer.contains(r#""text":"Hi!""#));
//! ```

// The layers, each importing only from those above it in this list: the sans-IO engine
// (sessions, lifecycle, calls, rounds, streams, resumption), what answers (the `Router` and
// typed handlers), and the transports (stdio; HTTP: the transport's rules, the service with
// its body, checks, session policy and store).
mod engine;

mod answer;

mod http;
#[cfg(feature = "std")]
mod stdio;

pub use answer::{
    arguments, elicited, form_schema, input_schema, object_schema, output_schema, page,
    prompt_arguments, IntoPrompt, IntoTool, InvalidArguments, Router, SchemaError, Structured,
    ToolOutput,
};
pub use engine::{
    Answer, Batch, CallFuture, Change, Context, Handler, Incoming, PendingCall, Responder, Server,
    Session, StreamEvent, StreamId,
};
#[cfg(feature = "http-server")]
pub use http::store::{MemoryStore, Store, StoreError};
#[cfg(feature = "http-server")]
pub use http::{store, HttpBody, StreamableHttp};
pub use http::{
    Broadcast, HttpAnswer, HttpBatch, HttpCall, HttpIncoming, HttpResponder, HttpResponse,
    SessionRecord, Sessions,
};
