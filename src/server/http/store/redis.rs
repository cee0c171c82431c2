//! The store in Redis (feature `redis`): see [`RedisStore`].

use super::memory::BUS_ROOM;
use super::{Logged, Published, Store, StoreError, StoreFuture};
use super::{BROADCASTS_KEPT, BROADCAST_BYTES_KEPT};
use crate::prelude::*;
use crate::server::{Broadcast, SessionRecord, Sessions, StreamEvent};
use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::time::Duration;
use tokio::sync::mpsc;

/// A [`Store`] in Redis (feature `redis`, on the `redis` crate with tokio), for replicas that
/// are processes of their own, on one machine or several.
///
/// What it keeps, under keys that start with its prefix (`mcp:` by default):
/// - `mcp:session:<id>`: a session's record, as JSON ([`SessionRecord::to_json`]), which
///   expires `idle_ms` after the session's last use (each request reads it with `GETEX`,
///   pushing the expiry back);
/// - `mcp:events:<id>`: a list of the session's latest events on its request streams
///   ([`Sessions::EVENTS_KEPT`], and no more than [`Sessions::EVENT_BYTES_KEPT`] bytes of
///   JSON), with the same expiry;
/// - `mcp:seq`, the number of the latest broadcast, `mcp:log`, the latest
///   [`BROADCASTS_KEPT`] broadcasts within [`BROADCAST_BYTES_KEPT`] (a sorted set by number,
///   each a [`Logged::to_line`]), and `mcp:log-bytes`, their bytes;
/// - `mcp:client:<key>`: the sessions each client opened (a sorted set by the time each was
///   opened), for the client's share over all replicas ([`Store::claim`]);
/// - the channel `mcp:bus`, on which each replica publishes its [`Broadcast`]s, each as the
///   line it is kept as: numbering, keeping and publishing are one script, so the replicas
///   hear them in the order of their numbers.
///
/// One session holds its record (a few hundred bytes: mostly the client's capabilities and
/// `clientInfo`) and its events (each the message it carried and some 100 bytes more).
///
/// When Redis is down, each operation fails once its connection attempt (1 s) or its answer
/// (1 s) times out, and the service answers 503; the connection is made again by the next
/// operation after Redis is back, and the bus joined again within a second of it. The bus's
/// own connection is pinged when it has carried nothing for [`BUS_QUIET`], and given up and
/// joined again when the answer does not come within [`BUS_QUIET`] more: a connection that
/// broke without a word (a half-open TCP connection, a Redis that stopped answering) is
/// noticed within twice that. What a replica missed meanwhile it reads from `mcp:log`.
///
/// Redis and its bus must be private to the replicas: whoever can write them can end any
/// session, change what it subscribed to, and tell its client anything.
pub struct RedisStore {
    client: redis::Client,
    connection: ConnectionManager,
    prefix: String,
}

impl core::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// How long a connection attempt, and then an answer, may take.
const REDIS_TIMEOUT: Duration = Duration::from_secs(1);

/// How long the bus may carry nothing before its connection is pinged, and then how long
/// the answer may take before the connection is given up and the bus joined again.
pub const BUS_QUIET: Duration = Duration::from_secs(5);

/// Counts a session as one of a client's, forgets those of its sessions that ended or expired,
/// and gives (and forgets) those past its share, oldest first.
/// KEYS: the client's set; ARGV: the session, now in ms, the share, idle ms, the sessions' key
/// prefix.
const CLAIM: &str = r"
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if id ~= ARGV[1] and redis.call('EXISTS', ARGV[5] .. id) == 0 then
    redis.call('ZREM', KEYS[1], id)
  end
end
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
local past = {}
if over > 0 then
  past = redis.call('ZRANGE', KEYS[1], 0, over - 1)
  redis.call('ZREM', KEYS[1], unpack(past))
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return past
";

/// Appends a session's events, keeping the latest within a count and a bound in bytes, and
/// pushes back their expiry. KEYS: the list; ARGV: how many to keep, how many bytes, idle ms,
/// `1` to forget those kept first, then the events.
const APPEND: &str = r"
if ARGV[4] == '1' then redis.call('DEL', KEYS[1]) end
if #ARGV >= 5 then redis.call('RPUSH', KEYS[1], unpack(ARGV, 5)) end
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[1]), -1)
local kept = redis.call('LRANGE', KEYS[1], 0, -1)
local total = 0
for _, line in ipairs(kept) do total = total + #line end
local at = 1
while total > tonumber(ARGV[2]) and at <= #kept do
  total = total - #kept[at]
  redis.call('LPOP', KEYS[1])
  at = at + 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 0
";

/// Numbers a broadcast, keeps it among the latest and publishes it, in one step.
/// KEYS: the number, the log, the log's bytes; ARGV: the broadcast's JSON, the channel, how
/// many to keep, how many bytes.
const PUBLISH: &str = r"
local seq = redis.call('INCR', KEYS[1])
local line = seq .. ' ' .. ARGV[1]
redis.call('ZADD', KEYS[2], seq, line)
local bytes = redis.call('INCRBY', KEYS[3], #line)
while redis.call('ZCARD', KEYS[2]) > tonumber(ARGV[3]) or bytes > tonumber(ARGV[4]) do
  local oldest = redis.call('ZPOPMIN', KEYS[2])
  if #oldest == 0 then break end
  bytes = redis.call('DECRBY', KEYS[3], #oldest[1])
end
redis.call('PUBLISH', ARGV[2], line)
return seq
";

impl RedisStore {
    /// The store at `url` (`redis://host:port/db`), with keys under `mcp:`. It connects on
    /// first use, so a replica starts even while Redis is down. Call it within a tokio
    /// runtime.
    ///
    /// # Errors
    ///
    /// `url` is not a Redis URL, or there is no tokio runtime.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let client = redis::Client::open(url).map_err(failed)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(200));
        let connection =
            ConnectionManager::new_lazy_with_config(client.clone(), config).map_err(failed)?;
        Ok(RedisStore {
            client,
            connection,
            prefix: "mcp:".to_owned(),
        })
    }

    /// Keys under `prefix` rather than `mcp:`: for several servers sharing one Redis.
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    fn key(&self, kind: &str, session: &str) -> String {
        format!("{}{kind}:{session}", self.prefix)
    }

    fn channel(&self) -> String {
        format!("{}bus", self.prefix)
    }
}

fn failed(error: redis::RedisError) -> StoreError {
    StoreError::new(error.to_string())
}

fn unreadable(what: &str, error: &serde_json::Error) -> StoreError {
    StoreError::new(format!(
        "{what} in the store is not one this crate wrote: {error}"
    ))
}

impl Store for RedisStore {
    fn load<'a>(
        &'a self,
        session: &'a str,
        idle_ms: u64,
    ) -> StoreFuture<'a, Option<SessionRecord>> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let text: Option<String> = redis::cmd("GETEX")
                .arg(self.key("session", session))
                .arg("PX")
                .arg(idle_ms.max(1))
                .query_async(&mut connection)
                .await
                .map_err(failed)?;
            let record = text.map(|text| SessionRecord::from_json(&text));
            record
                .transpose()
                .map_err(|e| unreadable("a session's record", &e))
        })
    }

    fn save<'a>(
        &'a self,
        session: &'a str,
        record: &'a SessionRecord,
        idle_ms: u64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            redis::cmd("SET")
                .arg(self.key("session", session))
                .arg(record.to_json())
                .arg("PX")
                .arg(idle_ms.max(1))
                .query_async::<()>(&mut connection)
                .await
                .map_err(failed)
        })
    }

    fn remove<'a>(&'a self, session: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            redis::cmd("DEL")
                .arg(self.key("session", session))
                .arg(self.key("events", session))
                .query_async::<()>(&mut connection)
                .await
                .map_err(failed)
        })
    }

    fn append<'a>(
        &'a self,
        session: &'a str,
        events: &'a [StreamEvent],
        idle_ms: u64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if events.is_empty() {
                return Ok(());
            }
            let key = self.key("events", session);
            let lines = events
                .iter()
                .map(|event| serde_json::to_string(event).unwrap_or_default());
            let mut lines: Vec<String> = lines.collect();
            // An event larger than the bound alone is not kept, nor those before it (as
            // `Sessions` keeps them): a resume from one of them opens its stream afresh.
            let bound = Sessions::EVENT_BYTES_KEPT;
            let too_large = lines.iter().rposition(|line| line.len() > bound);
            if let Some(at) = too_large {
                lines.drain(..=at);
            }
            let mut connection = self.connection.clone();
            redis::cmd("EVAL")
                .arg(APPEND)
                .arg(1)
                .arg(&key)
                .arg(Sessions::EVENTS_KEPT)
                .arg(bound)
                .arg(idle_ms.max(1))
                .arg(if too_large.is_some() { "1" } else { "0" })
                .arg(lines)
                .query_async::<()>(&mut connection)
                .await
                .map_err(failed)
        })
    }

    fn events<'a>(&'a self, session: &'a str) -> StoreFuture<'a, Vec<StreamEvent>> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let lines: Vec<String> = redis::cmd("LRANGE")
                .arg(self.key("events", session))
                .arg(0)
                .arg(-1)
                .query_async(&mut connection)
                .await
                .map_err(failed)?;
            let events = lines.iter().map(|line| crate::json::from_str(line));
            let events: Result<Vec<StreamEvent>, _> = events.collect();
            events.map_err(|e| unreadable("a session's event", &e))
        })
    }

    fn touch<'a>(&'a self, sessions: &'a [String], idle_ms: u64) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if sessions.is_empty() {
                return Ok(());
            }
            let mut pipe = redis::pipe();
            for session in sessions {
                for kind in ["session", "events"] {
                    let key = self.key(kind, session);
                    pipe.cmd("PEXPIRE").arg(key).arg(idle_ms.max(1)).ignore();
                }
            }
            let mut connection = self.connection.clone();
            pipe.query_async::<()>(&mut connection)
                .await
                .map_err(failed)
        })
    }

    fn publish<'a>(&'a self, broadcast: &'a Broadcast) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            redis::cmd("EVAL")
                .arg(PUBLISH)
                .arg(3)
                .arg(format!("{}seq", self.prefix))
                .arg(format!("{}log", self.prefix))
                .arg(format!("{}log-bytes", self.prefix))
                .arg(broadcast.to_json())
                .arg(self.channel())
                .arg(BROADCASTS_KEPT)
                .arg(BROADCAST_BYTES_KEPT)
                .query_async::<u64>(&mut connection)
                .await
                .map_err(failed)
        })
    }

    fn published_after<'a>(&'a self, after: u64) -> StoreFuture<'a, Published> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let (lines, latest): (Vec<String>, Option<u64>) = redis::pipe()
                .cmd("ZRANGEBYSCORE")
                .arg(format!("{}log", self.prefix))
                .arg(format!("({after}"))
                .arg("+inf")
                .cmd("GET")
                .arg(format!("{}seq", self.prefix))
                .query_async(&mut connection)
                .await
                .map_err(failed)?;
            // A line this crate did not write is not this log's: skipped.
            let broadcasts = lines.iter().filter_map(|line| Logged::from_line(line));
            Ok(Published {
                broadcasts: broadcasts.collect(),
                latest: latest.unwrap_or_default(),
            })
        })
    }

    fn claim<'a>(
        &'a self,
        client: &'a str,
        session: &'a str,
        share: usize,
        idle_ms: u64,
    ) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            let now_ms = now.map_or(0, |now| now.as_millis());
            let mut connection = self.connection.clone();
            redis::cmd("EVAL")
                .arg(CLAIM)
                .arg(1)
                .arg(self.key("client", client))
                .arg(session)
                .arg(now_ms.to_string())
                .arg(share.max(1))
                .arg(idle_ms.max(1))
                .arg(format!("{}session:", self.prefix))
                .query_async::<Vec<String>>(&mut connection)
                .await
                .map_err(failed)
        })
    }

    fn subscribe(&self) -> mpsc::Receiver<Logged> {
        let (bus, receiver) = mpsc::channel(BUS_ROOM);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            // No runtime to listen in: the receiver ends at once.
            return receiver;
        };
        let (client, channel) = (self.client.clone(), self.channel());
        runtime.spawn(listen(client, channel, bus));
        receiver
    }
}

/// Forwards what `channel` carries to `bus` until the receiver is dropped, joining the channel
/// again (every 200 ms) when the connection breaks, goes silent (see [`BUS_QUIET`]) or Redis is
/// down.
async fn listen(client: redis::Client, channel: String, bus: mpsc::Sender<Logged>) {
    while !bus.is_closed() {
        if let Ok(Ok(pubsub)) = tokio::time::timeout(REDIS_TIMEOUT, client.get_async_pubsub()).await
        {
            let (mut sink, mut messages) = pubsub.split();
            let joined = tokio::time::timeout(REDIS_TIMEOUT, sink.subscribe(&channel)).await;
            if matches!(joined, Ok(Ok(()))) && !hear(&mut sink, &mut messages, &bus).await {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Forwards what the subscription carries to `bus` until the connection breaks or goes
/// silent: `true`, to join again; `false` once the receiver is dropped.
async fn hear(
    sink: &mut redis::aio::PubSubSink,
    messages: &mut redis::aio::PubSubStream,
    bus: &mpsc::Sender<Logged>,
) -> bool {
    loop {
        let message = match tokio::time::timeout(BUS_QUIET, messages.next()).await {
            Ok(Some(message)) => message,
            Ok(None) => return true,
            Err(_quiet) => {
                // Quiet for a while: a connection still there answers a ping.
                let pinged = tokio::time::timeout(BUS_QUIET, sink.ping::<redis::Value>()).await;
                if !matches!(pinged, Ok(Ok(_))) {
                    return true;
                }
                if bus.is_closed() {
                    return false;
                }
                continue;
            }
        };
        let Ok(text) = message.get_payload::<String>() else {
            continue;
        };
        // A line this crate did not write is not this bus's: skipped.
        let Some(logged) = Logged::from_line(&text) else {
            continue;
        };
        if let Err(mpsc::error::TrySendError::Closed(_)) = bus.try_send(logged) {
            return false;
        }
    }
}
