//! A notification of the handlers' revision (2026-07-28) as a line of a client's revision: what
//! the server tells a client, whether of a change or of a request being answered.

use crate::dispatch::NotificationEnvelope;
use crate::prelude::*;
use crate::revision::{self, Revision, ServerMessage, Visit};
use crate::v2026_07_28 as latest;
use crate::ProtocolVersion;

/// `notification` as a line of revision `version`, without what that revision does not
/// define; `None` when the revision has no such notification.
pub(in crate::server) fn notification_line(
    version: &ProtocolVersion,
    notification: &latest::ServerNotify,
) -> Option<String> {
    struct Line<'a>(&'a latest::ServerNotify);
    impl Visit for Line<'_> {
        type Output = Option<String>;
        fn visit<V: Revision>(self) -> Option<String> {
            let converted =
                crate::convert::convert_call_for_peer::<_, V::ServerNotify>(self.0).ok()?;
            let envelope = NotificationEnvelope::new(converted.value);
            Some(ServerMessage::<V>::Notification(envelope).to_json())
        }
    }
    revision::visit(version, Line(notification)).flatten()
}
