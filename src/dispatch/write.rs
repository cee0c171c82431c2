//! Messages written back out: `jsonrpc` first, then the members in the order JSON-RPC shows
//! them, then the envelope members the crate does not name, as they came.

use super::{
    ErrorResponse, Message, MethodSet, NotificationEnvelope, RequestEnvelope, ResultResponse,
};
use crate::prelude::*;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

impl<R: MethodSet, N: MethodSet> Serialize for Message<R, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Message::Request(r) => r.serialize(serializer),
            Message::Notification(n) => n.serialize(serializer),
            Message::Response(r) => r.serialize(serializer),
            Message::Error(e) => e.serialize(serializer),
            Message::Batch(items) => serializer.collect_seq(items),
        }
    }
}

fn write_extra<M: SerializeMap>(map: &mut M, extra: &Map<String, Value>) -> Result<(), M::Error> {
    for (k, v) in extra {
        map.serialize_entry(k, v)?;
    }
    Ok(())
}

impl<R: MethodSet> Serialize for RequestEnvelope<R> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("method", self.call.method())?;
        self.call.serialize_params(&mut map)?;
        write_extra(&mut map, &self.extra)?;
        map.end()
    }
}

impl<N: MethodSet> Serialize for NotificationEnvelope<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("method", self.notification.method())?;
        self.notification.serialize_params(&mut map)?;
        write_extra(&mut map, &self.extra)?;
        map.end()
    }
}

impl Serialize for ResultResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("result", &self.result)?;
        write_extra(&mut map, &self.extra)?;
        map.end()
    }
}

impl Serialize for ErrorResponse {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("error", &self.error)?;
        write_extra(&mut map, &self.extra)?;
        map.end()
    }
}
