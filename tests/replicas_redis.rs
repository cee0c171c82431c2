//! Three replicas of the replica example (`examples/replica.rs`: the HTTP example with its
//! state in Redis) behind nginx, round robin with no stickiness, a real `redis-server`, and the
//! official clients, all started here (`redis-server` and `nginx` from the system's packages:
//! `.ci/run` installs them):
//! - on 2026-07-28, the Python and TypeScript v2 clients call tools that land on different
//!   replicas, hear on a `subscriptions/listen` stream held by one replica of changes made on
//!   the others, and finish two `input_required` rounds across two key rotations (rolling
//!   restarts): the first round's state, sealed with the old key, is opened after the new key
//!   came first; the second's, opened once the old key is gone, so the new key sealed it;
//! - on 2025-11-25, the Python client's session goes on over the replicas; the replica holding
//!   its stream is stopped (SIGSTOP), changes are made on the others meanwhile, then it is
//!   killed (SIGKILL): the client resumes through nginx with `Last-Event-ID` (nginx's log
//!   shows it) and hears every change once, in the order made;
//! - a session a replica forgets (idle there) and adopts again gets no event id twice, and a
//!   resumption replays no stale event;
//! - with Redis stopped, a session's request gets 503 and a JSON-RPC error within the bound,
//!   then succeeds once Redis is back, the session and its subscription kept; with Redis
//!   unresponsive (SIGSTOP), the same, and a subscription acknowledged before is kept;
//! - the bus's connections killed from Redis (`CLIENT KILL TYPE pubsub`): a change made at
//!   once still reaches the session's stream, and the bus is joined again;
//! - one client opening sessions through all three replicas holds its share over them, and
//!   another client's session answers;
//! - Redis keeps a session's events, and the broadcasts, within their bounds in bytes.
//!
//! No verdict rests on a clock but the bounds the code documents (the store's 2 s, Redis's
//! 1 s); the waits for what must come are generous (10 s and more).
#![cfg(all(
    feature = "redis",
    feature = "all-revisions",
    feature = "server",
    feature = "client"
))]

use crate::http_safety::connect_from;
use crate::http_service::{header, request, request_on, stateless, whole_body};
use crate::replicas::store_unavailable;
use crate::sdk_python::{python, SCRIPT_DIR};
use crate::support::{self, run_limited};
use mcp_spec_types::http_headers::MCP_SESSION_ID;
use mcp_spec_types::server::store::RedisStore;
use mcp_spec_types::server::{Router, StreamableHttp};
use serde_json::{json, Value};
use std::io::BufRead;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The replicas' keys: first the one each seals with, then the older ones that still open.
const KEYS_AT_FIRST: &str = "k1=first-secret";
const KEYS_ROTATED: &str = "k2=second-secret,k1=first-secret";
const KEYS_RETIRED: &str = "k2=second-secret";

/// A port free on the loopback interface when asked, below the range the system gives
/// connections for their own end (`ip_local_port_range`). A replica is stopped and started
/// again on its port; a port of that range, freed meanwhile, is soon taken by one of the
/// many connections the tests and nginx open (the replica then cannot listen), which one
/// below it never is.
fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU32, Ordering};
    // Each call tries the next port, so that two clusters made at once never get the same
    // one; the process id spreads two runs of the tests apart.
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let below = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse::<u32>().ok())
        .unwrap_or(32768);
    let first = 10_000;
    let span = below.saturating_sub(first).max(1);
    let start = std::process::id() * 97 % span;
    for _ in 0..span {
        let port = first + (start + NEXT.fetch_add(1, Ordering::SeqCst)) % span;
        let Ok(port) = u16::try_from(port) else {
            continue;
        };
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port between {first} and {below}");
}

/// Waits until something listens on `port` (at most 10 s).
fn wait_for(port: u16, what: &str) {
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{what} never listened"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A program from the system's packages, or a failure that says how to get it.
fn system(program: &str) -> Command {
    let found = ["/usr/sbin", "/usr/bin", "/usr/local/bin", "/usr/local/sbin"]
        .iter()
        .map(|dir| Path::new(dir).join(program))
        .find(|path| path.is_file());
    let path = found.unwrap_or_else(|| {
        panic!("{program} is missing: install the packages redis-server and nginx (.ci/run does)")
    });
    Command::new(path)
}

/// Redis, three replicas and nginx in front of them; all stopped when dropped.
struct Cluster {
    dir: PathBuf,
    /// Where the client and the test tell each other the steps they reached.
    steps: PathBuf,
    redis_port: u16,
    redis: Option<Child>,
    replica_ports: Vec<u16>,
    replicas: Vec<Option<Child>>,
    nginx: Child,
    nginx_port: u16,
    binary: PathBuf,
    /// More arguments for each replica.
    options: Vec<String>,
}

impl Cluster {
    fn start(name: &str) -> Cluster {
        Cluster::start_with(name, &[])
    }

    /// [`Cluster::start`], each replica given `options` too.
    fn start_with(name: &str, options: &[&str]) -> Cluster {
        let dir = support::scratch_dir(name);
        let steps = dir.join("steps");
        std::fs::create_dir_all(&steps).expect("the steps' folder");
        let binary = support::example_binary("replica");
        let redis_port = free_port();
        let replica_ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
        let nginx_port = free_port();
        let upstreams: String = replica_ports
            .iter()
            .map(|port| format!("server 127.0.0.1:{port} max_fails=0; "))
            .collect();
        let d = dir.display();
        // Round robin, no stickiness; a replica that is down is passed over for the next. One
        // process (no master): killing it stops nginx whole. The replicas see the `Host` the
        // client sent (a loopback name, which they serve by default), not the upstream's name.
        let conf = format!(
            "daemon off; master_process off; pid {d}/nginx.pid; error_log {d}/nginx-error.log;\n\
             events {{ worker_connections 1024; }}\n\
             http {{ log_format resumes '$request_method $status last-event-id=$http_last_event_id';\n\
               access_log {d}/nginx-access.log resumes; client_body_temp_path {d}/body;\n\
               proxy_temp_path {d}/proxy; fastcgi_temp_path {d}/fastcgi;\n\
               uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi;\n\
               upstream replicas {{ {upstreams}}}\n\
               server {{ listen 127.0.0.1:{nginx_port};\n\
                 location / {{ proxy_pass http://replicas; proxy_http_version 1.1;\n\
                   proxy_set_header Connection \"\"; proxy_set_header Host $host;\n\
                   proxy_set_header X-Forwarded-For $remote_addr;\n\
                   proxy_buffering off;\n\
                   proxy_read_timeout 1h; proxy_next_upstream error timeout; }} }} }}\n"
        );
        std::fs::write(dir.join("nginx.conf"), conf).expect("nginx's configuration");
        let nginx = system("nginx")
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nginx starts");
        let mut cluster = Cluster {
            dir,
            steps,
            redis_port,
            redis: None,
            replicas: vec![None, None, None],
            replica_ports,
            nginx,
            nginx_port,
            binary,
            options: options.iter().map(|o| (*o).to_owned()).collect(),
        };
        cluster.start_redis();
        for at in 0..3 {
            cluster.start_replica(at, KEYS_AT_FIRST);
        }
        wait_for(nginx_port, "nginx");
        cluster
    }

    /// Redis, appending every write to its file (fsync each): what it said it kept survives
    /// its restart.
    fn start_redis(&mut self) {
        let redis = system("redis-server")
            .args([
                "--bind",
                "127.0.0.1",
                "--port",
                &self.redis_port.to_string(),
            ])
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
            .arg("--dir")
            .arg(&self.dir)
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.redis = Some(redis);
        wait_for(self.redis_port, "redis-server");
    }

    fn stop_redis(&mut self) {
        if let Some(mut redis) = self.redis.take() {
            let _ = redis.kill();
            let _ = redis.wait();
        }
    }

    /// Replica `at` (named `r<at>`), sealing with the first of `keys`. Its port was free when
    /// the cluster was made, and lies below the range connections take for their own end
    /// ([`free_port`]); should something else on the machine take it all the same, a replica
    /// that could not listen (it exits at once, having said nothing) is started again, at most
    /// five times, 200 ms apart, as a deployment's supervisor would. What the tests check
    /// starts once it listens.
    fn start_replica(&mut self, at: usize, keys: &str) {
        let mut said = Vec::new();
        for _ in 0..5 {
            let mut child = Command::new(&self.binary)
                .args(["--port", &self.replica_ports[at].to_string()])
                .args(["--name", &format!("r{at}")])
                .args([
                    "--redis",
                    &format!("redis://127.0.0.1:{}/", self.redis_port),
                ])
                .args(["--keys", keys])
                .args(&self.options)
                .stdout(Stdio::piped())
                .spawn()
                .expect("a replica starts");
            let stdout = child.stdout.take().expect("its stdout");
            let mut line = String::new();
            let _ = std::io::BufReader::new(stdout).read_line(&mut line);
            if line.starts_with("listening on ") {
                self.replicas[at] = Some(child);
                return;
            }
            // Why it did not listen is on its standard error, which the test's own shows.
            said.push(format!("{line:?}, {:?}", child.wait()));
            std::thread::sleep(Duration::from_millis(200));
        }
        panic!("replica r{at} did not listen: {said:?}");
    }

    /// Sends `signal` (`STOP`, `CONT`) to replica `at`.
    fn signal(&self, at: usize, signal: &str) {
        let child = self.replicas[at].as_ref().expect("a running replica");
        signal_process(child, signal);
    }

    /// `tools/call bump` of `n` (2026-07-28, stateless) straight to replica `at`: the change
    /// is made there.
    fn bump_on(&self, at: usize, n: u64) {
        let (headers, body) = stateless(
            n,
            "tools/call",
            json!({"name": "bump", "arguments": {"n": n}}),
        );
        let pairs: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let address = SocketAddr::from(([127, 0, 0, 1], self.replica_ports[at]));
        let (status, headers, mut reader) = request(address, "POST", "/mcp", &pairs, &body);
        let answer = whole_body(&headers, &mut reader);
        assert_eq!(status, 200, "bump {n} on r{at}: {answer}");
    }

    /// The lines nginx logged (`<method> <status> last-event-id=<header>`).
    fn access_log(&self) -> String {
        std::fs::read_to_string(self.dir.join("nginx-access.log")).unwrap_or_default()
    }

    /// Kills replica `at` with SIGKILL.
    fn kill(&mut self, at: usize) {
        if let Some(mut child) = self.replicas[at].take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Restarts every replica in turn with `keys`, as a rolling deployment does.
    fn rotate(&mut self, keys: &str) {
        for at in 0..3 {
            self.kill(at);
            self.start_replica(at, keys);
        }
    }

    fn address(&self) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], self.nginx_port))
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.address())
    }

    /// How many event streams replica `at` holds (`None` once it is gone).
    fn streams(&self, at: usize) -> Option<u64> {
        self.replicas[at].as_ref()?;
        let address = SocketAddr::from(([127, 0, 0, 1], self.replica_ports[at]));
        let (status, headers, mut reader) = request(address, "GET", "/streams", &[], "");
        (status == 200).then(|| whole_body(&headers, &mut reader).parse().ok())?
    }

    /// The replica that holds an event stream, once one does (at most 10 s).
    fn holder(&self) -> usize {
        let started = Instant::now();
        loop {
            if let Some(at) = (0..3).find(|&at| self.streams(at) == Some(1)) {
                return at;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no replica holds a stream"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for at in 0..3 {
            self.kill(at);
        }
        let _ = self.nginx.kill();
        let _ = self.nginx.wait();
        self.stop_redis();
    }
}

/// Sends `signal` to `child` (with the system's `kill`).
fn signal_process(child: &Child, signal: &str) {
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .expect("kill runs");
    assert!(sent.success(), "SIG{signal} to {}", child.id());
}

/// Waits until the client writes `<dir>/<step>` (at most 60 s).
fn until(dir: &Path, step: &str) {
    let started = Instant::now();
    while !dir.join(step).exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the client never said {step}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn say(dir: &Path, step: &str) {
    std::fs::write(dir.join(step), "").expect("a step's file");
}

/// Runs `client` (which speaks to the cluster and waits on the steps in `steps`) while `drive`
/// acts on the cluster: what the client printed, as JSON.
fn run_client(client: Command, what: &str, drive: impl FnOnce()) -> Value {
    let what = what.to_owned();
    let running = std::thread::spawn(move || run_limited(client, &what, Duration::from_secs(120)));
    drive();
    let output = running.join().expect("the client's thread");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("the client printed no JSON ({e}): {stdout}"))
}

/// The two key rotations the 2026-07-28 clients' `confirm` rounds wait on: the first round's
/// state was sealed with k1; after the first rotation k2 seals and k1 still opens it; after
/// the second only k2 opens, so the second round's state must have been sealed with it.
fn rotate_keys_between_rounds(cluster: &mut Cluster, steps: &Path) {
    until(steps, "asked-1");
    cluster.rotate(KEYS_ROTATED);
    say(steps, "go-1");
    until(steps, "asked-2");
    cluster.rotate(KEYS_RETIRED);
    say(steps, "go-2");
}

/// The URIs a client was told of, in the order told. Each change is answered once the store
/// kept it, and the store numbers the changes in the order kept: a client's calls made one
/// after the other are told in that order, each once.
fn told_in_order(told: &Value) -> Vec<String> {
    let told = told.as_array().expect("the URIs told").iter();
    told.filter_map(Value::as_str).map(str::to_owned).collect()
}

/// The Python client of `tests/sdk_python/replicas.py` in `mode`, for `cluster`.
fn python_client(cluster: &Cluster, mode: &str) -> Command {
    let mut client = Command::new(python());
    client
        .arg(Path::new(SCRIPT_DIR).join("replicas.py"))
        .args([&cluster.url(), mode])
        .arg(&cluster.steps);
    client
}

fn assert_served_on_2026_07_28(seen: &Value) {
    assert_eq!(seen["version"], "2026-07-28", "{seen}");
    let names: Vec<&str> = seen["names"]
        .as_array()
        .expect("names")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let mut distinct = names.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(
        distinct.len() >= 2,
        "the calls landed on one replica: {names:?}"
    );
    let every: Vec<String> = (1..=3).map(|n| format!("memo://n/{n}")).collect();
    assert_eq!(
        told_in_order(&seen["told"]),
        every,
        "every change once, in order: {seen}"
    );
    assert_eq!(seen["rounds"], 2, "{seen}");
    // "asked on <first> <second>, answered on <third>": at least two replicas took part.
    let confirmed = seen["confirmed"].as_str().unwrap_or_default();
    let on = confirmed
        .strip_prefix("asked on ")
        .map(|rest| rest.replace(", answered on ", " "))
        .unwrap_or_else(|| panic!("{confirmed}"));
    let mut replicas: Vec<&str> = on.split(' ').collect();
    assert_eq!(replicas.len(), 3, "{confirmed}");
    replicas.sort_unstable();
    replicas.dedup();
    assert!(
        replicas.len() >= 2,
        "one replica answered every round: {confirmed}"
    );
}

#[test]
fn the_python_client_on_2026_07_28_is_served_by_every_replica_across_key_rotations() {
    let mut cluster = Cluster::start("replicas-python-modern");
    let steps = cluster.steps.clone();
    let client = python_client(&cluster, "auto");
    let seen = run_client(client, "the Python client (2026-07-28)", || {
        rotate_keys_between_rounds(&mut cluster, &steps)
    });
    assert_served_on_2026_07_28(&seen);
}

#[test]
fn the_typescript_v2_client_is_served_by_every_replica_across_key_rotations() {
    let mut cluster = Cluster::start("replicas-typescript");
    let steps = cluster.steps.clone();
    let sdk = support::sdk_v2();
    let mut client = Command::new(sdk.join("node_modules/.bin/node"));
    client
        .current_dir(&sdk)
        .arg("replicas.mjs")
        .arg(cluster.url())
        .arg(&steps);
    let seen = run_client(client, "the TypeScript v2 client", || {
        rotate_keys_between_rounds(&mut cluster, &steps)
    });
    assert_served_on_2026_07_28(&seen);
}

#[test]
fn a_2025_11_25_session_hears_every_change_made_while_its_replica_was_stopped_then_killed() {
    let mut cluster = Cluster::start("replicas-python-session");
    let steps = cluster.steps.clone();
    let client = python_client(&cluster, "legacy");
    let seen = run_client(client, "the Python client (2025-11-25)", || {
        until(&steps, "subscribed");
        let held = cluster.holder();
        say(&steps, "listening");
        until(&steps, "ready");
        // The replica holding the session's stream stops answering; the changes are made on
        // the others meanwhile, one after the other, then it dies.
        cluster.signal(held, "STOP");
        let others: Vec<usize> = (0..3).filter(|&at| at != held).collect();
        for n in 6..=10 {
            cluster.bump_on(others[n as usize % 2], n);
        }
        cluster.kill(held);
        // The client's stream, resumed with `Last-Event-ID` on another replica.
        let resumed = cluster.holder();
        assert_ne!(resumed, held);
        say(&steps, "killed");
    });
    assert_eq!(seen["version"], "2025-11-25", "{seen}");
    let names = seen["names"].as_array().expect("names");
    assert!(
        names.iter().any(|name| *name != names[0]),
        "one replica served it: {seen}"
    );
    // Every change once, in the order made: 1..5 by the client, each answered once the store
    // kept it, then 6..10 on the other replicas while no stream was open anywhere, which the
    // client was replayed from the store.
    let every: Vec<Value> = (1..=10).map(|n| json!(format!("memo://n/{n}"))).collect();
    assert_eq!(seen["told"], Value::Array(every), "{seen}");
    // nginx logs a stream once it ends: the client's, when the client went.
    let started = Instant::now();
    loop {
        let log = cluster.access_log();
        let resumed = log
            .lines()
            .filter(|line| line.starts_with("GET 200 last-event-id=c"));
        if resumed.count() >= 1 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no GET resumed with Last-Event-ID:\n{log}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A 2025-11-25 session's request through the load balancer: status and body.
fn session_call(
    cluster: &Cluster,
    session: Option<&str>,
    body: &Value,
) -> (u16, Option<String>, Value) {
    let mut headers = vec![("MCP-Protocol-Version", "2025-11-25")];
    if let Some(session) = session {
        headers.push((MCP_SESSION_ID, session));
    }
    let (status, headers, mut reader) = request(
        cluster.address(),
        "POST",
        "/mcp",
        &headers,
        &body.to_string(),
    );
    let opened = header(&headers, "mcp-session-id").map(str::to_owned);
    let text = if status == 202 {
        String::new()
    } else {
        whole_body(&headers, &mut reader)
    };
    (
        status,
        opened,
        serde_json::from_str(&text).unwrap_or(Value::Null),
    )
}

#[test]
fn with_redis_stopped_a_request_gets_503_within_the_bound_and_is_served_once_it_is_back() {
    let mut cluster = Cluster::start("replicas-redis-down");
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    let (status, session, _) = session_call(&cluster, None, &initialize);
    let session = session.unwrap_or_else(|| panic!("no session ({status})"));
    let session = Some(session.as_str());
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(session_call(&cluster, session, &initialized).0, 202);
    let list = |id: u64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"});
    assert_eq!(session_call(&cluster, session, &list(1)).0, 200);

    cluster.stop_redis();
    // What only reads a session's record is served from a replica's copy for at most this
    // long after the replica read it (`StreamableHttp::with_records_held_for`).
    std::thread::sleep(StreamableHttp::<Router>::DEFAULT_RECORDS_HELD_FOR);
    for id in 2..5 {
        let asked = Instant::now();
        let (status, _, refused) = session_call(&cluster, session, &list(id));
        let waited = asked.elapsed();
        assert_eq!(status, 503, "{refused}");
        store_unavailable(&refused, id);
        // The bound the store documents: a connection attempt (1 s), within the service's
        // 2 s for each operation.
        assert!(waited < Duration::from_secs(3), "waited {waited:?}");
    }

    cluster.start_redis();
    let started = Instant::now();
    let served = loop {
        let (status, _, answer) = session_call(&cluster, session, &list(9));
        if status == 200 {
            break answer;
        }
        assert_eq!(status, 503, "{answer}");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "never served again"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let tools = served["result"]["tools"].as_array().expect("the tools");
    assert_eq!(tools.len(), 3, "the session, kept: {served}");
}

/// A 2025-11-25 session opened and initialized through the load balancer, subscribed to
/// memo://n/1..3: its id.
fn subscribed_session(cluster: &Cluster) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    let (status, session, _) = session_call(cluster, None, &initialize);
    let session = session.unwrap_or_else(|| panic!("no session ({status})"));
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(session_call(cluster, Some(&session), &initialized).0, 202);
    for n in 1..=3 {
        let subscribe = json!({"jsonrpc": "2.0", "id": n, "method": "resources/subscribe",
            "params": {"uri": format!("memo://n/{n}")}});
        let (status, _, answer) = session_call(cluster, Some(&session), &subscribe);
        assert_eq!(status, 200, "{answer}");
    }
    session
}

/// The session's own stream (`GET`), opened straight on replica `at`.
fn own_stream(cluster: &Cluster, at: usize, session: &str) -> std::io::BufReader<TcpStream> {
    resumed_stream(cluster, at, session, None)
}

/// The session's own stream, opened straight on replica `at`, after event `last` if given.
fn resumed_stream(
    cluster: &Cluster,
    at: usize,
    session: &str,
    last: Option<&str>,
) -> std::io::BufReader<TcpStream> {
    let address = SocketAddr::from(([127, 0, 0, 1], cluster.replica_ports[at]));
    let mut headers = vec![
        ("MCP-Protocol-Version", "2025-11-25"),
        (MCP_SESSION_ID, session),
    ];
    if let Some(last) = last {
        headers.push(("Last-Event-ID", last));
    }
    let (status, headers, reader) = request(address, "GET", "/mcp", &headers, "");
    assert_eq!(status, 200, "{headers:?}");
    reader
}

/// The URI of the next `notifications/resources/updated` on `stream` (at most 10 s).
fn next_updated(stream: &mut std::io::BufReader<TcpStream>) -> String {
    next_numbered(stream).1
}

/// The id and URI of the next `notifications/resources/updated` on `stream` (at most 10 s).
fn next_numbered(stream: &mut std::io::BufReader<TcpStream>) -> (String, String) {
    let mut id = String::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(!left.is_zero(), "no change told within 10 s");
        stream
            .get_ref()
            .set_read_timeout(Some(left))
            .expect("a timeout");
        let mut line = String::new();
        let read = stream.read_line(&mut line).expect("a change within 10 s");
        assert!(read > 0, "the stream ended");
        if let Some(given) = line.trim_end().strip_prefix("id: ") {
            given.clone_into(&mut id);
        }
        let Some(data) = line.trim_end().strip_prefix("data: ") else {
            continue;
        };
        let told: Value = serde_json::from_str(data).unwrap_or(Value::Null);
        if told["method"] == "notifications/resources/updated" {
            let uri = told["params"]["uri"].as_str().unwrap_or_default();
            return (core::mem::take(&mut id), uri.to_owned());
        }
    }
}

#[test]
fn with_redis_unresponsive_every_request_gets_503_within_the_bound_and_nothing_acknowledged_is_lost(
) {
    let cluster = Cluster::start("replicas-redis-stopped");
    let session = subscribed_session(&cluster);
    let redis = cluster.redis.as_ref().expect("redis runs");
    // Redis stops answering, its connections open: each operation waits for its answer.
    signal_process(redis, "STOP");
    // As when Redis is stopped: past the time a replica's copy of the record serves.
    std::thread::sleep(StreamableHttp::<Router>::DEFAULT_RECORDS_HELD_FOR);
    let list = |id: u64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"});
    for id in 2..5 {
        let asked = Instant::now();
        let (status, _, refused) = session_call(&cluster, Some(&session), &list(id));
        let waited = asked.elapsed();
        assert_eq!(status, 503, "{refused}");
        store_unavailable(&refused, id);
        // The bound the store documents: an answer (1 s), within the service's 2 s for each
        // operation.
        assert!(waited < Duration::from_secs(3), "waited {waited:?}");
    }
    signal_process(redis, "CONT");
    let started = Instant::now();
    while session_call(&cluster, Some(&session), &list(9)).0 != 200 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "never served again"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The subscription acknowledged before Redis stopped is kept: a change is told.
    let mut stream = own_stream(&cluster, 0, &session);
    cluster.bump_on(1, 1);
    assert_eq!(next_updated(&mut stream), "memo://n/1");
}

#[test]
fn a_replica_whose_bus_connection_is_killed_joins_again_and_misses_no_change() {
    let cluster = Cluster::start("replicas-bus-killed");
    let session = subscribed_session(&cluster);
    let mut stream = own_stream(&cluster, 0, &session);
    cluster.bump_on(1, 1);
    assert_eq!(next_updated(&mut stream), "memo://n/1");
    // Every replica's subscription is cut; the change is made at once, before they join
    // again (they wait 200 ms first).
    let killed = system("redis-cli")
        .args(["-p", &cluster.redis_port.to_string()])
        .args(["CLIENT", "KILL", "TYPE", "pubsub"])
        .output()
        .expect("redis-cli runs");
    let said = String::from_utf8_lossy(&killed.stdout);
    assert!(said.trim().parse::<u32>().is_ok_and(|n| n >= 3), "{said}");
    cluster.bump_on(2, 2);
    assert_eq!(next_updated(&mut stream), "memo://n/2");
    // Joined again: the next change comes on the bus.
    std::thread::sleep(Duration::from_millis(500));
    cluster.bump_on(1, 3);
    assert_eq!(next_updated(&mut stream), "memo://n/3");
}

#[test]
fn a_session_adopted_again_after_an_idle_expiry_gets_no_event_twice_and_no_stale_one() {
    // Each replica forgets a session idle for a second; Redis keeps it as long as any
    // replica uses it.
    let cluster = Cluster::start_with("replicas-adopted-again", &["--idle-ms", "1000"]);
    let session = subscribed_session(&cluster);
    let list = |id: u64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"});
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "other", "version": "1"}}});
    let r0 = SocketAddr::from(([127, 0, 0, 1], cluster.replica_ports[0]));
    let mut seen = Vec::new();
    for round in 0..2u64 {
        // r0 adopts the session (again, in the second round) and hears two changes.
        let mut stream = own_stream(&cluster, 0, &session);
        cluster.bump_on(1, 1 + round);
        cluster.bump_on(2, 2 + round);
        seen.push(next_numbered(&mut stream));
        seen.push(next_numbered(&mut stream));
        drop(stream);
        // Idle on r0 past its limit, kept alive in Redis through the others.
        for id in 0..5 {
            std::thread::sleep(Duration::from_millis(300));
            let at = SocketAddr::from(([127, 0, 0, 1], cluster.replica_ports[1 + id as usize % 2]));
            let headers = [
                ("MCP-Protocol-Version", "2025-11-25"),
                (MCP_SESSION_ID, session.as_str()),
            ];
            let (status, ..) = request(at, "POST", "/mcp", &headers, &list(10 + id).to_string());
            assert_eq!(status, 200);
        }
        // Another session's request on r0 makes it forget the idle ones: this one with them.
        let headers = [("MCP-Protocol-Version", "2025-11-25")];
        let (status, ..) = request(r0, "POST", "/mcp", &headers, &initialize.to_string());
        assert_eq!(status, 200);
    }
    let uris: Vec<&str> = seen.iter().map(|(_, uri)| uri.as_str()).collect();
    assert_eq!(
        uris,
        ["memo://n/1", "memo://n/2", "memo://n/2", "memo://n/3"]
    );
    let ids: Vec<String> = seen.iter().map(|(id, _)| id.clone()).collect();
    let mut distinct = ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "an id given twice: {ids:?}");
    // Resumed on another replica after the first: the three after it, once each, in order.
    let mut resumed = resumed_stream(&cluster, 1, &session, Some(&ids[0]));
    let replayed: Vec<(String, String)> = (0..3).map(|_| next_numbered(&mut resumed)).collect();
    assert_eq!(
        replayed,
        seen[1..],
        "every change after the one named, once, in order"
    );
}

#[test]
fn a_client_opening_sessions_through_every_replica_stops_at_its_share_and_another_is_served() {
    let options = ["--per-client", "2", "--client-header", "x-forwarded-for"];
    let cluster = Cluster::start_with("replicas-quota", &options);
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    // Six sessions of one client (127.0.0.1), two a replica: no replica's own table holds
    // more than the share, so only the store's count stops the client.
    let mut opened = Vec::new();
    for _ in 0..6 {
        let (status, session, _) = session_call(&cluster, None, &initialize);
        opened.push(session.unwrap_or_else(|| panic!("no session ({status})")));
    }
    // Another client (127.0.0.2) opens one too.
    let to = cluster.address();
    let stream = connect_from("127.0.0.2", to);
    let headers = [("MCP-Protocol-Version", "2025-11-25")];
    let body = initialize.to_string();
    let (status, headers, _) = request_on(stream, to, "POST", "/mcp", &headers, &body);
    assert_eq!(status, 200);
    let theirs = header(&headers, "mcp-session-id").expect("the other client's session");
    let theirs = theirs.to_owned();
    let list = |id: u64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"});
    let answering: Vec<bool> = opened
        .iter()
        .map(|session| session_call(&cluster, Some(session), &list(1)).0 == 200)
        .collect();
    let latest = [false, false, false, false, true, true];
    assert_eq!(answering, latest, "the client's two latest sessions alone");
    for _ in 0..3 {
        let (status, _, answer) = session_call(&cluster, Some(&theirs), &list(2));
        assert_eq!(status, 200, "the other client's session: {answer}");
    }
}

#[test]
fn redis_keeps_a_session_events_and_its_broadcasts_within_their_byte_bounds() {
    let cluster = Cluster::start("replicas-event-bytes");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let url = format!("redis://127.0.0.1:{}/", cluster.redis_port);
    runtime.block_on(async {
        let store = RedisStore::open(&url).expect("the store");
        crate::replicas::events_are_bounded_in_bytes(&store).await;
        crate::replicas::broadcasts_are_bounded_in_bytes(&store).await;
    });
}
