//! What a server tells its clients unasked: a resource that changed, a list that changed.
//!
//! The engine keeps what each client asked to be told of (`resources/subscribe` in a session
//! of a stateful revision, `subscriptions/listen` streams from 2026-07-28 on) and writes each
//! notification in the client's revision, only to a client that asked for it, and only for
//! what the server's capabilities announce: a client is never told what it did not ask for.

use super::call::error_line;
use super::notification::notification_line;
use super::server::for_peer;
use super::session::Listen;
use super::{Change, Context, Handler, Incoming, Server, Session};
use crate::dispatch::{CallSet, MethodSet};
use crate::method::method_names as names;
use crate::prelude::*;
use crate::revision::Revision;
use crate::v2026_07_28 as latest;
use crate::{ErrorCode, ProtocolVersion, RequestId, RpcError};
use serde_json::Value;

/// Whether stream `listen` asked for `change`.
fn wants(listen: &Listen, change: &Change) -> bool {
    let filter = &listen.honoured;
    match change {
        Change::ResourceUpdated(uri) => listen.uris().any(|u| u == uri),
        Change::ResourceList => filter.resources_list_changed == Some(true),
        Change::ToolList => filter.tools_list_changed == Some(true),
        Change::PromptList => filter.prompts_list_changed == Some(true),
    }
}

/// Whether `capabilities` announce the list changes `change` is one of.
fn announced(capabilities: &latest::ServerCapabilities, change: &Change) -> bool {
    let list_changed = match change {
        Change::ResourceUpdated(_) => None,
        Change::ResourceList => capabilities.resources.as_ref().and_then(|r| r.list_changed),
        Change::ToolList => capabilities.tools.as_ref().and_then(|t| t.list_changed),
        Change::PromptList => capabilities.prompts.as_ref().and_then(|p| p.list_changed),
    };
    list_changed == Some(true)
}

/// Whether `capabilities` announce `resources.subscribe`.
pub(in crate::server) fn subscribes(capabilities: &latest::ServerCapabilities) -> bool {
    capabilities.resources.as_ref().and_then(|r| r.subscribe) == Some(true)
}

/// A subscription over a transport that has no stream to carry its notifications (-32601).
fn no_stream(method: &str) -> RpcError {
    let message =
        format!("{method} needs a stream from server to client, which this transport lacks");
    RpcError::new(ErrorCode::MethodNotFound, message)
}

/// The notification of `change`, on the stream `stream` when it is sent on one.
fn notification(change: &Change, stream: Option<&RequestId>) -> latest::ServerNotify {
    let meta = stream.map(stream_meta);
    let params = meta.clone().map(|meta| latest::NotificationParams {
        meta: Some(meta),
        ..Default::default()
    });
    match change {
        Change::ResourceUpdated(uri) => {
            let mut updated = latest::ResourceUpdatedNotificationParams::new(uri.clone());
            updated.meta = meta;
            latest::ServerNotify::ResourceUpdated(updated)
        }
        Change::ResourceList => latest::ServerNotify::ResourceListChanged(params),
        Change::ToolList => latest::ServerNotify::ToolListChanged(params),
        Change::PromptList => latest::ServerNotify::PromptListChanged(params),
    }
}

/// The `_meta` of a notification on stream `id`.
fn stream_meta(id: &RequestId) -> latest::NotificationMetaObject {
    latest::NotificationMetaObject {
        io_modelcontextprotocol_subscription_id: Some(id.clone()),
        ..Default::default()
    }
}

impl<H: Handler + ?Sized> Server<H> {
    /// The lines that tell `session`'s client of `change`, each in its revision; none when
    /// the client did not ask to be told (no subscription to the resource, no open stream
    /// that opted in to the list), or when the server's capabilities do not announce the
    /// list's changes. Send them as any other line of the session.
    ///
    /// A session of a stateful revision is told of a list change whenever the capabilities
    /// announce `listChanged` for it, as those revisions have it; a stateless client is told
    /// on each `subscriptions/listen` stream that opted in, the stream's id in `_meta`.
    pub fn notify(&self, session: &Session, change: &Change) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(stateful) = &session.stateful {
            let wanted = match change {
                Change::ResourceUpdated(uri) => session.subscriptions.contains(uri),
                list => announced(&self.capabilities(), list),
            };
            if wanted {
                lines.extend(notification_line(
                    &stateful.version,
                    &notification(change, None),
                ));
            }
        }
        for listen in session.listens.iter().filter(|l| wants(l, change)) {
            let on_stream = notification(change, Some(&listen.id));
            lines.extend(notification_line(&listen.version, &on_stream));
        }
        lines
    }

    /// Opens a `subscriptions/listen` stream: every URI it subscribes to is put to the
    /// handler ([`Handler::subscribe`]), the stream is acknowledged with what the server will
    /// send on it (what it asked for, less what the capabilities do not announce), and stays
    /// open, its request unanswered, until the client cancels it.
    pub(in crate::server) fn listen(
        &self,
        session: &mut Session,
        id: RequestId,
        version: ProtocolVersion,
        params: &latest::SubscriptionsListenRequestParams,
    ) -> Incoming {
        if !session.streams {
            return Incoming::Answer(error_line(
                Some(id),
                no_stream(names::SUBSCRIPTIONS_LISTEN_REQUEST),
            ));
        }
        let capabilities = self.capabilities();
        let asked = &params.notifications;
        let wants = |flag: Option<bool>, list: Change| {
            (flag == Some(true) && announced(&capabilities, &list)).then_some(true)
        };
        let mut honoured = latest::SubscriptionFilter {
            resources_list_changed: wants(asked.resources_list_changed, Change::ResourceList),
            tools_list_changed: wants(asked.tools_list_changed, Change::ToolList),
            prompts_list_changed: wants(asked.prompts_list_changed, Change::PromptList),
            ..Default::default()
        };
        if let (true, Some(uris)) = (subscribes(&capabilities), &asked.resource_subscriptions) {
            let context = Context::new(version.clone());
            let checked = session.room_for(uris.len()).and_then(|()| {
                let mut refused = uris
                    .iter()
                    .map(|uri| self.handler().subscribe(uri, &context));
                refused.find_map(Result::err).map_or(Ok(()), Err)
            });
            if let Err(error) = checked {
                return Incoming::Answer(error_line(Some(id), for_peer(error, &version)));
            }
            honoured.resource_subscriptions = Some(uris.clone());
        }
        if let Err(error) = session.admit(&id) {
            return Incoming::Answer(error_line(Some(id), error));
        }
        let ack = latest::ServerNotify::SubscriptionsAcknowledged(
            latest::SubscriptionsAcknowledgedNotificationParams {
                meta: Some(stream_meta(&id)),
                notifications: honoured.clone(),
                extra: Default::default(),
            },
        );
        let line = notification_line(&version, &ack);
        session.listens.push(Listen {
            id,
            version,
            honoured,
        });
        line.map_or(Incoming::Nothing, Incoming::Answer)
    }

    /// `resources/subscribe` or `resources/unsubscribe` of a stateful session of revision
    /// `V`: the URI put to the handler, then kept (or dropped) for [`Server::notify`].
    pub(in crate::server) fn subscription<V: Revision>(
        &self,
        session: &mut Session,
        call: &V::ClientCall,
    ) -> Result<<V::ClientCall as CallSet>::Result, RpcError> {
        let method = call.method();
        if !subscribes(&self.capabilities()) {
            return Err(RpcError::method_not_found(method));
        }
        if !session.streams {
            return Err(no_stream(method));
        }
        let params = super::lifecycle::params(call);
        // The revision's reader required it: a string.
        let uri = params
            .get("uri")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let peer = V::version();
        if method == names::UNSUBSCRIBE_REQUEST {
            session.subscriptions.remove(uri);
        } else if !session.subscriptions.contains(uri) {
            session.room_for(1)?;
            let context = Context::new(peer.clone());
            self.handler()
                .subscribe(uri, &context)
                .map_err(|error| for_peer(error, &peer))?;
            session.subscriptions.insert(uri.to_owned());
        }
        super::lifecycle::empty_result::<V>(method)
    }
}
