//! `meta()` and `protocol_version()` of the generated call sets, and `progress::progress_token`
//! of any revision's: real request lines, parsed with `ClientMessage::parse` (or
//! `ServerMessage::parse`), give back the `_meta`, the protocol version and the progress token
//! they carry, and `None` where the schema declares none or the line leaves it out.
//!
//! Which sets have `meta()` follows from the schema: it is generated where every method of the
//! set whose params declare `_meta` types it alike (in 2025-11-25 since the build made the
//! fifteen inline request `_meta` schemas one `Meta`).
// With only some revisions enabled, the helpers the missing ones would use go unused.
#![allow(dead_code, unused_imports)]

use mcp_spec_types::dispatch::{Message, RequestEnvelope};
use mcp_spec_types::ProgressToken;

/// The request of a parsed message.
#[track_caller]
fn request<R: std::fmt::Debug, N: std::fmt::Debug>(message: Message<R, N>) -> R {
    match message {
        Message::Request(RequestEnvelope { call, .. }) => call,
        other => panic!("not a request: {other:?}"),
    }
}

/// The notification of a parsed message.
#[track_caller]
fn notification<R: std::fmt::Debug, N: std::fmt::Debug>(message: Message<R, N>) -> N {
    match message {
        Message::Notification(notification) => notification.notification,
        other => panic!("not a notification: {other:?}"),
    }
}

#[cfg(feature = "v2026_07_28")]
mod v2026_07_28 {
    use super::*;
    use mcp_spec_types::v2026_07_28::{ClientCall, ClientMessage, ServerCall, ServerMessage};

    fn tools_call(version: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"hi"}},"_meta":{{"progressToken":"tok-7","io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientCapabilities":{{}},"vendor.example/trace":"abc"}}}}}}"#
        )
    }

    #[test]
    fn tools_call_gives_its_meta_and_protocol_version() {
        let call = request(ClientMessage::parse(&tools_call("2026-07-28")).unwrap());
        assert!(matches!(call, ClientCall::CallTool(_)), "{call:?}");
        let meta = call.meta().expect("every 2026-07-28 request carries _meta");
        assert_eq!(
            meta.progress_token,
            Some(ProgressToken::String("tok-7".into()))
        );
        assert_eq!(meta.io_modelcontextprotocol_protocol_version, "2026-07-28");
        assert_eq!(meta.extra["vendor.example/trace"], "abc");
        assert_eq!(call.protocol_version(), Some("2026-07-28"));
    }

    /// The version is the one the line carries, not the module's revision.
    #[test]
    fn protocol_version_is_read_from_the_line() {
        let call = request(ClientMessage::parse(&tools_call("2099-01-01")).unwrap());
        assert_eq!(call.protocol_version(), Some("2099-01-01"));
        assert_eq!(
            call.meta()
                .map(|m| m.io_modelcontextprotocol_protocol_version.as_str()),
            Some("2099-01-01")
        );
    }

    #[test]
    fn every_client_request_has_both() {
        let line = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let call = request(ClientMessage::parse(line).unwrap());
        assert!(call.meta().unwrap().progress_token.is_none());
        assert_eq!(call.protocol_version(), Some("2026-07-28"));
    }

    #[test]
    fn unknown_methods_give_none() {
        let line = r#"{"jsonrpc":"2.0","id":1,"method":"vendor/thing","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        let call = request(ClientMessage::parse(line).unwrap());
        assert!(matches!(call, ClientCall::Unknown { .. }), "{call:?}");
        assert!(call.meta().is_none());
        assert_eq!(call.protocol_version(), None);
    }

    /// `roots/list` leaves its params, and their `_meta`, optional.
    #[test]
    fn server_request_meta_is_optional() {
        let bare = r#"{"jsonrpc":"2.0","id":2,"method":"roots/list"}"#;
        let call = request(ServerMessage::parse(bare).unwrap());
        assert!(matches!(call, ServerCall::ListRoots(None)), "{call:?}");
        assert!(call.meta().is_none());
        assert_eq!(call.protocol_version(), None);

        let no_meta = r#"{"jsonrpc":"2.0","id":2,"method":"roots/list","params":{}}"#;
        let call = request(ServerMessage::parse(no_meta).unwrap());
        assert!(matches!(call, ServerCall::ListRoots(Some(_))), "{call:?}");
        assert!(call.meta().is_none());

        let with_meta = r#"{"jsonrpc":"2.0","id":2,"method":"roots/list","params":{"_meta":{"progressToken":5}}}"#;
        let call = request(ServerMessage::parse(with_meta).unwrap());
        let meta = call.meta().expect("_meta was sent");
        assert_eq!(
            meta.get::<ProgressToken>("progressToken").unwrap().unwrap(),
            ProgressToken::Integer(5)
        );
    }
}

#[cfg(feature = "v2025_11_25")]
mod v2025_11_25 {
    use super::*;
    use mcp_spec_types::v2025_11_25::{ClientCall, ClientMessage, ClientNotify};

    fn initialize(version: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
        )
    }

    #[test]
    fn initialize_gives_its_protocol_version() {
        for version in ["2025-11-25", "2025-06-18"] {
            let call = request(ClientMessage::parse(&initialize(version)).unwrap());
            let ClientCall::Initialize(params) = &call else {
                panic!("not initialize: {call:?}");
            };
            assert_eq!(
                call.protocol_version(),
                Some(params.protocol_version.as_str())
            );
            assert_eq!(call.protocol_version(), Some(version));
        }
    }

    /// Only `initialize` carries a version in this revision; a `tools/call` with `_meta` has none.
    #[test]
    fn other_requests_have_no_protocol_version() {
        let line = r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","_meta":{"progressToken":"tok-1"}}}"#;
        let call = request(ClientMessage::parse(line).unwrap());
        let ClientCall::CallTool(params) = &call else {
            panic!("not tools/call: {call:?}");
        };
        // The `_meta` is typed, reached through the variant (this set has no `meta()` while
        // each request's `_meta` has its own type).
        assert_eq!(
            params.meta.as_ref().and_then(|m| m.progress_token.clone()),
            Some(ProgressToken::String("tok-1".into()))
        );
        assert_eq!(call.protocol_version(), None);

        let ping = r#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#;
        assert_eq!(
            request(ClientMessage::parse(ping).unwrap()).protocol_version(),
            None
        );
    }

    /// The notification sets' `_meta` is one type (`JsonObject`), and optional.
    #[test]
    fn notification_meta_is_optional() {
        let with_meta = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4,"_meta":{"vendor.example/why":"user"}}}"#;
        let notice = notification(ClientMessage::parse(with_meta).unwrap());
        assert!(matches!(notice, ClientNotify::Cancelled(_)), "{notice:?}");
        assert_eq!(
            notice
                .meta()
                .and_then(|m| m.get::<String>("vendor.example/why"))
                .map(Result::unwrap)
                .as_deref(),
            Some("user")
        );

        let without =
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}"#;
        assert!(notification(ClientMessage::parse(without).unwrap())
            .meta()
            .is_none());

        let bare = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        assert!(notification(ClientMessage::parse(bare).unwrap())
            .meta()
            .is_none());
    }
}

#[cfg(feature = "v2024_11_05")]
mod v2024_11_05 {
    use super::*;
    use mcp_spec_types::v2024_11_05::{ClientCall, ClientMessage};

    #[test]
    fn initialize_gives_its_protocol_version() {
        let line = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
        let call = request(ClientMessage::parse(line).unwrap());
        assert!(matches!(call, ClientCall::Initialize(_)), "{call:?}");
        assert_eq!(call.protocol_version(), Some("2024-11-05"));
        assert!(call.meta().is_none());
    }

    /// This revision's schema declares `_meta` on the params of `ping` (and the other requests
    /// with bare params), not on `tools/call`'s: there the `_meta` sent stays in `extra`.
    #[test]
    fn meta_where_the_schema_declares_it() {
        let ping =
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"progressToken":9}}}"#;
        let call = request(ClientMessage::parse(ping).unwrap());
        assert_eq!(
            call.meta().and_then(|m| m.progress_token.clone()),
            Some(ProgressToken::Integer(9))
        );
        assert_eq!(call.protocol_version(), None);

        let bare = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert!(request(ClientMessage::parse(bare).unwrap())
            .meta()
            .is_none());

        let tool = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","_meta":{"progressToken":9}}}"#;
        let call = request(ClientMessage::parse(tool).unwrap());
        let ClientCall::CallTool(params) = &call else {
            panic!("not tools/call: {call:?}");
        };
        assert!(params.extra.contains_key("_meta"));
        assert!(call.meta().is_none());
    }
}

/// `progress`, written once for every revision: the token of a request of the oldest and of a
/// newer revision, and the notification that reports on it.
#[cfg(all(feature = "v2025_11_25", feature = "v2024_11_05"))]
mod progress {
    use super::request;
    use mcp_spec_types::progress::{progress_token, Progress};
    use mcp_spec_types::ProgressToken;
    use mcp_spec_types::{v2024_11_05 as old, v2025_11_25 as new};

    #[test]
    fn tokens_are_found_in_every_revision_and_only_where_sent() {
        let with = r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"a:b","_meta":{"progressToken":7}}}"#;
        let without = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        let c = request(old::ClientMessage::parse(with).unwrap());
        assert_eq!(progress_token(&c), Some(ProgressToken::from(7)));
        let c = request(new::ClientMessage::parse(with).unwrap());
        assert_eq!(progress_token(&c), Some(ProgressToken::from(7)));
        let c = request(new::ClientMessage::parse(without).unwrap());
        assert_eq!(progress_token(&c), None);
        assert!(Progress::of(&c).is_none());
    }

    #[test]
    fn notifications_carry_the_token_and_total() {
        let p = Progress::new(ProgressToken::from(3)).with_total(10);
        assert_eq!(p.token(), &ProgressToken::from(3));
        let new::ServerNotify::Progress(n) = p.notification(4, None) else {
            unreachable!()
        };
        assert_eq!(n.total, Some(10.into()));
        assert_eq!(n.message, None);
    }
}
