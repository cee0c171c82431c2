//! `PendingRequests`: looking a request up leaves it pending; `without_task` by any string.

use mcp_spec_types::dispatch::{PendingRequest, PendingRequests};
use mcp_spec_types::{Direction, RequestId};

#[test]
fn look_up_leaves_the_request_pending() {
    let mut pending = PendingRequests::new();
    let id = RequestId::from("abc");
    let owned_method = String::from("sampling/createMessage");
    pending.insert(
        Direction::ServerToClient,
        id.clone(),
        PendingRequest::without_task(&owned_method),
    );
    pending.insert(
        Direction::ClientToServer,
        id.clone(),
        PendingRequest::without_task("x/custom"),
    );
    assert_eq!(pending.len(), 2);
    assert!(pending.contains(Direction::ServerToClient, &id));
    let looked = pending.get(Direction::ServerToClient, &id).unwrap();
    assert_eq!(looked.method(), "sampling/createMessage");
    assert!(!looked.is_task_augmented());
    assert_eq!(pending.len(), 2, "get removes nothing");

    let resolved = pending.resolve(Direction::ClientToServer, &id).unwrap();
    assert_eq!(resolved.method(), "x/custom");
    assert!(pending.get(Direction::ClientToServer, &id).is_none());
    assert!(!pending.contains(Direction::Both, &id));
    assert_eq!(pending.len(), 1);
    let left: Vec<_> = pending.unanswered().collect();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].0, Direction::ServerToClient);
    pending.resolve(Direction::ServerToClient, &id);
    assert!(pending.is_empty());
}

#[test]
fn without_task_takes_any_string() {
    let a = PendingRequest::without_task("tools/list");
    let b = PendingRequest::without_task(String::from("tools/list"));
    let name = String::from("tools/list");
    let c = PendingRequest::without_task(&name);
    assert_eq!(a, b);
    assert_eq!(b, c);
    assert_eq!(name, c.method());
}
