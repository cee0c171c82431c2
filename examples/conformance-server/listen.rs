//! `subscriptions/listen` (2026-07-28): a request whose response is a stream of the
//! notifications the client asked for, each tagged with the subscription's id (the listen
//! request's id) in `_meta`. The stream opens with `notifications/subscriptions/acknowledged`,
//! naming what the server will honour, and lasts until the client goes away.

use crate::http::sse_event;
use crate::session::Events;
use hyper::body::Bytes;
use mcp_spec_types::dispatch::NotificationEnvelope;
use mcp_spec_types::v2026_07_28::{
    NotificationMetaObject, NotificationParams, ServerMessage, ServerNotify, SubscriptionFilter,
    SubscriptionsAcknowledgedNotificationParams,
};
use mcp_spec_types::RequestId;
use std::sync::{Mutex, MutexGuard};
use tokio::sync::mpsc;

/// One open stream.
struct Listener {
    id: RequestId,
    honoured: SubscriptionFilter,
    sink: mpsc::UnboundedSender<Bytes>,
}

/// Every open stream of the server. The streams belong to no session, so the changes any
/// request makes reach them all.
static LISTENERS: Mutex<Vec<Listener>> = Mutex::new(Vec::new());

fn listeners() -> MutexGuard<'static, Vec<Listener>> {
    LISTENERS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn tagged(id: &RequestId) -> NotificationMetaObject {
    NotificationMetaObject {
        io_modelcontextprotocol_subscription_id: Some(id.clone()),
        ..Default::default()
    }
}

fn line(notification: ServerNotify) -> Bytes {
    sse_event(&ServerMessage::Notification(NotificationEnvelope::new(notification)).to_json())
}

/// What the server honours of `requested`: every list it declares `listChanged` for, and
/// updates of the resources named (none of this server's resources ever changes, so that
/// promise is kept by sending nothing).
fn honour(requested: &SubscriptionFilter) -> SubscriptionFilter {
    let asked = |flag: Option<bool>| flag.filter(|on| *on);
    SubscriptionFilter {
        prompts_list_changed: asked(requested.prompts_list_changed),
        resources_list_changed: asked(requested.resources_list_changed),
        tools_list_changed: asked(requested.tools_list_changed),
        resource_subscriptions: requested.resource_subscriptions.clone(),
        ..Default::default()
    }
}

/// Opens the stream of listen request `id`: the acknowledgement is its first message, sent
/// under the same lock that registers it, so no change can overtake it.
pub fn open(id: RequestId, requested: &SubscriptionFilter) -> Events {
    let (sink, lines) = mpsc::unbounded_channel();
    let honoured = honour(requested);
    let ack =
        ServerNotify::SubscriptionsAcknowledged(SubscriptionsAcknowledgedNotificationParams {
            meta: Some(tagged(&id)),
            notifications: honoured.clone(),
            extra: Default::default(),
        });
    let mut all = listeners();
    let _ = sink.send(line(ack));
    all.retain(|l| !l.sink.is_closed());
    all.push(Listener { id, honoured, sink });
    lines
}

/// Sends a list change (a 2025-11-25 notification, as the handlers write them) to every
/// stream that asked for its kind; other notifications are not listen-stream business.
pub fn broadcast(notification: &ServerNotify) {
    let params = |id: &RequestId| {
        Some(NotificationParams {
            meta: Some(tagged(id)),
            ..Default::default()
        })
    };
    let mut all = listeners();
    all.retain(|l| !l.sink.is_closed());
    for listener in all.iter() {
        let f = &listener.honoured;
        let id = &listener.id;
        let out = match notification {
            ServerNotify::ToolListChanged(_) if f.tools_list_changed == Some(true) => {
                ServerNotify::ToolListChanged(params(id))
            }
            ServerNotify::PromptListChanged(_) if f.prompts_list_changed == Some(true) => {
                ServerNotify::PromptListChanged(params(id))
            }
            ServerNotify::ResourceListChanged(_) if f.resources_list_changed == Some(true) => {
                ServerNotify::ResourceListChanged(params(id))
            }
            _ => continue,
        };
        let _ = listener.sink.send(line(out));
    }
}
