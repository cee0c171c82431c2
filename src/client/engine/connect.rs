//! Connecting: `server/discover` or `initialize`, their answers, and the revision both sides
//! speak from then on.

use super::{Client, Stage};
use crate::client::input::Retry;
use crate::client::peer::RequestLine;
use crate::client::Event;
use crate::convert::by_definition;
use crate::convert::peer::lookup_for_peer;
use crate::method::method_names as names;
use crate::negotiation;
use crate::prelude::*;
use crate::revision;
use crate::v2026_07_28 as latest;
use crate::{ErrorCode, ProtocolVersion, RequestId, RpcError};
use serde_json::{Map, Value};

impl Client {
    /// `server/discover` in `version`.
    pub(super) fn discover(&mut self, version: ProtocolVersion, retry: bool) -> Option<String> {
        let id = self.fresh_id();
        let meta = self.meta_keys(&version);
        let line = RequestLine {
            id: id.clone(),
            method: names::DISCOVER_REQUEST,
            params: None,
            meta: Some(&meta),
        };
        let line = revision::visit(&version, line).and_then(Result::ok);
        self.stage = match line {
            Some(_) => Stage::Discovering(id, retry),
            None => Stage::Refused,
        };
        line.map(|(line, _)| line)
    }

    /// The answer to `server/discover`: connected in the newest stateless revision both speak,
    /// or on to `initialize`.
    pub(super) fn discovered(
        &mut self,
        answer: Result<&serde_json::value::RawValue, RpcError>,
    ) -> Vec<Event> {
        let offered: Option<Vec<String>> = match answer {
            Ok(result) => crate::json::from_str::<latest::DiscoverResult>(result.get())
                .ok()
                .map(|discovered| {
                    self.server_capabilities = Some(discovered.capabilities);
                    discovered.supported_versions
                }),
            // The version refused, and others named: `server/discover` again, once, in the
            // newest both speak (the error's `supported` list, as every request's).
            Err(error) if error.code == ErrorCode::UnsupportedProtocolVersion => {
                if let Some(line) = self.discover_again(&error) {
                    return vec![Event::Send(line)];
                }
                None
            }
            // A stateless server refusing what this client sent: falling back would hide it.
            Err(error)
                if matches!(
                    error.code,
                    ErrorCode::HeaderMismatch | ErrorCode::MissingRequiredClientCapability
                ) =>
            {
                self.stage = Stage::Refused;
                return vec![Event::Refused(error)];
            }
            Err(_) => None,
        };
        // The newest released revision both speak, the draft only when they share no other.
        let shared = offered
            .as_ref()
            .and_then(|offered| self.newest_spoken(offered));
        match shared {
            Some(version) => {
                self.stage = Stage::Connected(version.clone());
                vec![Event::Connected(version)]
            }
            None => {
                let id = self.fresh_id();
                match self.initialize(id) {
                    Some(line) => vec![Event::Send(line)],
                    // The client speaks no stateful revision, and none the server offers.
                    None => vec![Event::NoRevisionInCommon {
                        client: self.versions.clone(),
                        server: offered.unwrap_or_default(),
                    }],
                }
            }
        }
    }

    /// `retry`'s request sent again after `refusal` (-32022), once, in the newest stateless
    /// version both speak among those the refusal names, which the client speaks from then
    /// on; `None` without such a version (or when the request cannot be written in it).
    pub(super) fn in_version_named(
        &mut self,
        mut retry: Retry,
        refusal: &RpcError,
    ) -> Option<String> {
        let version = self.newest_named(refusal)?;
        self.stage = Stage::Connected(version);
        retry.version_retried = true;
        let (sent, line) = self.send_request(&retry.call).ok()?;
        self.inputs.retryable.insert(sent, retry);
        Some(line)
    }

    /// The newest stateless version the client speaks among those `refusal` (-32022) names
    /// in its `data.supported`.
    pub(super) fn newest_named(&self, refusal: &RpcError) -> Option<ProtocolVersion> {
        use crate::negotiation::SupportedVersions;
        let data = crate::json::to_string(refusal.data.as_ref()?).ok()?;
        let named =
            crate::json::from_str::<latest::UnsupportedProtocolVersionErrorObjectData>(&data)
                .ok()?;
        self.newest_spoken(named.supported_versions())
    }

    /// The newest stateless version among `offered` that the client speaks (the draft only
    /// when they share no other).
    pub(super) fn newest_spoken(&self, offered: &[String]) -> Option<ProtocolVersion> {
        let spoken: Vec<&str> = offered
            .iter()
            .map(String::as_str)
            .filter(|o| self.stateless().any(|v| v.as_str() == *o))
            .collect();
        negotiation::choose(&spoken)
    }

    /// `server/discover` again after `refusal` (-32022), in the newest stateless version both
    /// speak among those it names; `None` after a retry already (so a server that refuses every
    /// version it names is not asked forever), or without such a version.
    pub(super) fn discover_again(&mut self, refusal: &RpcError) -> Option<String> {
        let Stage::Discovering(_, false) = &self.stage else {
            return None;
        };
        // The same version too: a server may refuse a request for a passing reason and name
        // the version it was sent in.
        let version = self.newest_named(refusal)?;
        self.discover(version, true)
    }

    /// The answer to `initialize`: connected in the revision the server chose, when the
    /// client speaks it.
    pub(super) fn initialized(&mut self, result: &serde_json::value::RawValue) -> Vec<Event> {
        #[derive(serde::Deserialize)]
        struct Chosen {
            #[serde(rename = "protocolVersion")]
            protocol_version: String,
            capabilities: Option<Value>,
        }
        let chosen = crate::json::from_str::<Chosen>(result.get()).ok();
        let offered = chosen.as_ref().and_then(|c| c.capabilities.clone());
        let Some(chosen) = chosen.map(|c| c.protocol_version) else {
            self.stage = Stage::Refused;
            let message = "the server's answer to initialize names no revision";
            return vec![Event::Refused(RpcError::new(
                ErrorCode::InvalidRequest,
                message,
            ))];
        };
        let version = Some(ProtocolVersion::from(chosen.as_str()))
            .filter(|v| self.versions.contains(v) && !negotiation::is_stateless(v));
        let Some(version) = version else {
            // The server answers with the revision it speaks when it does not speak the one
            // asked for (the lifecycle page): one this client does not.
            self.stage = Stage::Refused;
            return vec![Event::NoRevisionInCommon {
                client: self.versions.clone(),
                server: vec![chosen],
            }];
        };
        self.server_capabilities = offered.and_then(|offered| capabilities_up(&version, &offered));
        self.stage = Stage::Connected(version.clone());
        let initialized = format!(
            r#"{{"jsonrpc":"2.0","method":"{}"}}"#,
            names::INITIALIZED_NOTIFICATION
        );
        vec![Event::Send(initialized), Event::Connected(version)]
    }

    /// `initialize`, asking for the newest stateful revision the client speaks.
    pub(super) fn initialize(&mut self, id: RequestId) -> Option<String> {
        let stateful = self
            .versions
            .iter()
            .find(|v| !negotiation::is_stateless(v))
            .cloned();
        let Some(version) = stateful else {
            self.stage = Stage::Refused;
            return None;
        };
        let capabilities = crate::json::to_string(&self.capabilities)
            .ok()
            .and_then(|text| crate::json::from_str::<Value>(&text).ok())
            .unwrap_or_else(|| Value::Object(Map::new()));
        let info = crate::json::to_string(&self.info)
            .ok()
            .and_then(|text| crate::json::from_str::<Value>(&text).ok())
            .unwrap_or_else(|| Value::Object(Map::new()));
        let from = ProtocolVersion::from(latest::REVISION);
        let for_peer = |lookup, value: Value| {
            let converted = lookup_for_peer(lookup, &from, &version, &value);
            match converted {
                Some(Ok(converted)) => converted.value,
                _ => value,
            }
        };
        let mut params = Map::new();
        params.insert("protocolVersion".into(), version.as_str().into());
        params.insert(
            "capabilities".into(),
            for_peer(by_definition::ClientCapabilities, capabilities),
        );
        let info = for_peer(by_definition::Implementation, info);
        params.insert("clientInfo".into(), info);
        self.stage = Stage::Initializing(id.clone(), version.clone());
        let line = RequestLine {
            id,
            method: names::INITIALIZE_REQUEST,
            params: Some(params),
            meta: None,
        };
        let line = revision::visit(&version, line).and_then(Result::ok);
        if line.is_none() {
            self.stage = Stage::Refused;
        }
        line.map(|(line, _)| line)
    }

    /// The stateless revisions the client speaks, newest first (the draft, when spoken, first).
    pub(super) fn stateless(&self) -> impl Iterator<Item = &ProtocolVersion> {
        self.versions
            .iter()
            .filter(|v| negotiation::is_stateless(v))
    }

    /// The `_meta` keys of a stateless request in `version`.
    pub(super) fn meta_keys(&self, version: &ProtocolVersion) -> Map<String, Value> {
        let meta = self.meta();
        let mut written = match crate::json::to_string(&meta)
            .ok()
            .and_then(|text| crate::json::from_str::<Value>(&text).ok())
        {
            Some(Value::Object(written)) => written,
            _ => Map::new(),
        };
        written.insert(
            "io.modelcontextprotocol/protocolVersion".into(),
            version.as_str().into(),
        );
        written
    }
}

/// A stateful server's capabilities (`offered`, in `version`'s terms) in 2026-07-28 terms.
fn capabilities_up(
    version: &ProtocolVersion,
    offered: &Value,
) -> Option<latest::ServerCapabilities> {
    // The definition's own lookup, not `convert_value`: that names every shared definition,
    // and would compile all their conversions into every client.
    let up =
        (by_definition::ServerCapabilities.convert)(version.as_str(), latest::REVISION, offered)?;
    let text = crate::json::to_string(&up.ok()?).ok()?;
    crate::json::from_str(&text).ok()
}
