//! The load generator of the HTTP serving comparison (see bench/README.md, "HTTP serving").
//!
//! ```text
//! http-bench-load --ours <server> --rmcp <server> [--rounds 3] [--seconds 5] [--warmup 1]
//!                 [--connections 32] [--sessions 1000] [--server-cpu 0] [--no-nodelay]
//!                 [--revision 2026-07-28|2025-11-25] [--names <first>,<second>]
//! ```
//!
//! Starts each server as a process of its own (`taskset -c <server-cpu> <server> --port 0`),
//! then measures `tools/call` of the `add` tool ({"a":1,"b":2}, answered "3") on both:
//! - **2026-07-28**, stateless: every request carries the revision in `_meta` and the headers
//!   (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`);
//! - **2025-11-25**, one session: `initialize` and `notifications/initialized` once per server,
//!   then every request of every connection names that session.
//!
//! Each measurement keeps `--connections` HTTP/1.1 keep-alive connections busy for `--seconds`,
//! each sending its next request as soon as the previous answer is read whole (a closed loop),
//! and records every request's latency. Every answer is checked (status 200, the request's id,
//! the text "3"; a JSON body or an event stream alike); one that fails is an error, not counted.
//! After a warm-up of `--warmup` seconds for each server and revision, the rounds interleave
//! the servers, the first server alternating from round to round (ours, rmcp; rmcp, ours; ...),
//! so that both see the same state of the machine.
//!
//! `--revision` measures one revision alone; `--no-nodelay` is passed to both servers;
//! `--names` names the two servers in the table (`this crate,rmcp` by default: the store
//! comparison, bench/store.sh, puts this crate in both slots).
//!
//! Then memory per open session (`--sessions 0`: not measured): a fresh process of each
//! server, warmed up with 100 stateless calls and 10 sessions, its `VmRSS` read, `--sessions`
//! more sessions opened (`initialize`, then `notifications/initialized`, each answer checked),
//! and `VmRSS` read again.
//!
//! Prints the table (Markdown) on stdout, each measurement on stderr. Run it on a core of its
//! own (`taskset -c 1`): the servers get `--server-cpu`.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::Value;
use std::net::SocketAddr;
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

type Error = Box<dyn std::error::Error + Send + Sync>;

const TASKSET: &str = "/usr/bin/taskset";
const ACCEPT: &str = "application/json, text/event-stream";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Revision {
    /// 2026-07-28, stateless.
    Stateless,
    /// 2025-11-25, in one session.
    Session,
}

impl Revision {
    fn label(self) -> &'static str {
        match self {
            Revision::Stateless => "2026-07-28 stateless",
            Revision::Session => "2025-11-25 one session",
        }
    }
}

struct Options {
    servers: [(String, String); 2],
    rounds: usize,
    seconds: f64,
    warmup: f64,
    connections: usize,
    sessions: usize,
    server_cpu: String,
    /// The revisions measured (both by default; `--revision 2026-07-28` or `2025-11-25`).
    revisions: Vec<Revision>,
    /// Passed to both servers: `--no-nodelay`, or nothing.
    server_flags: Vec<String>,
}

fn options() -> Result<Options, Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| -> Option<String> {
        let at = args.iter().position(|a| a == name)?;
        args.get(at + 1).cloned()
    };
    let number = |name: &str, default: f64| -> Result<f64, Error> {
        match value(name) {
            Some(text) => Ok(text.parse().map_err(|_| format!("{name}: not a number"))?),
            None => Ok(default),
        }
    };
    let ours = value("--ours").ok_or("--ours <server binary> is needed")?;
    let rmcp = value("--rmcp").ok_or("--rmcp <server binary> is needed")?;
    let names = value("--names").unwrap_or_else(|| "this crate,rmcp".into());
    let (first, second) = names.split_once(',').ok_or("--names <first>,<second>")?;
    Ok(Options {
        servers: [(first.into(), ours), (second.into(), rmcp)],
        rounds: number("--rounds", 3.0)? as usize,
        seconds: number("--seconds", 5.0)?,
        warmup: number("--warmup", 1.0)?,
        connections: number("--connections", 32.0)? as usize,
        sessions: number("--sessions", 1000.0)? as usize,
        server_cpu: value("--server-cpu").unwrap_or_else(|| "0".into()),
        server_flags: args
            .iter()
            .filter(|a| *a == "--no-nodelay")
            .cloned()
            .collect(),
        revisions: match value("--revision").as_deref() {
            None => vec![Revision::Stateless, Revision::Session],
            Some("2026-07-28") => vec![Revision::Stateless],
            Some("2025-11-25") => vec![Revision::Session],
            Some(other) => {
                return Err(format!("--revision 2026-07-28 or 2025-11-25, not {other}").into())
            }
        },
    })
}

/// A server process, pinned, and where it listens.
struct Serving {
    child: Child,
    pid: u32,
    address: SocketAddr,
}

async fn start(binary: &str, options: &Options) -> Result<Serving, Error> {
    let mut child = Command::new(TASKSET)
        .args(["-c", &options.server_cpu, binary, "--port", "0"])
        .args(&options.server_flags)
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let pid = child.id().ok_or("the server exited at once")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut lines = BufReader::new(stdout).lines();
    let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
        .await
        .map_err(|_| format!("{binary} did not say where it listens within 10 s"))??
        .ok_or("the server exited before listening")?;
    let address = line
        .strip_prefix("listening on http://")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .ok_or_else(|| format!("unexpected first line from {binary}: {line}"))?
        .parse()?;
    // The rest of its output, if any, is read and dropped.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Ok(Serving {
        child,
        pid,
        address,
    })
}

impl Serving {
    async fn stop(mut self) {
        let _ = self.child.kill().await;
    }

    /// The process's resident memory, in KiB.
    fn rss_kib(&self) -> Result<u64, Error> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid))?;
        let line = status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .ok_or("no VmRSS")?;
        Ok(line.split_whitespace().nth(1).ok_or("VmRSS")?.parse()?)
    }

    /// The process's CPU time so far (user + system), in seconds.
    fn cpu_seconds(&self) -> Result<f64, Error> {
        cpu_seconds(&self.pid.to_string())
    }
}

/// The CPU time (user + system) of process `pid` (or `self`) so far, in seconds.
fn cpu_seconds(pid: &str) -> Result<f64, Error> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // The fields after the command (in parentheses): utime and stime are the 12th and 13th.
    let after = &stat[stat.rfind(')').ok_or("stat")? + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>()? + fields[12].parse::<u64>()?;
    Ok(ticks as f64 / clock_ticks())
}

fn clock_ticks() -> f64 {
    extern "C" {
        fn sysconf(name: i32) -> i64;
    }
    const SC_CLK_TCK: i32 = 2; // Linux
                               // SAFETY: sysconf takes any name and has no other precondition.
    let ticks = unsafe { sysconf(SC_CLK_TCK) };
    if ticks > 0 {
        ticks as f64
    } else {
        100.0
    }
}

/// One keep-alive connection.
struct Connection {
    sender: SendRequest<Full<Bytes>>,
    host: String,
}

async fn connect(address: SocketAddr) -> Result<Connection, Error> {
    let stream = tokio::net::TcpStream::connect(address).await?;
    stream.set_nodelay(true)?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(Connection {
        sender,
        host: address.to_string(),
    })
}

/// An answer: its status, the session id it gave, its body and whether it is an event stream.
struct Answer {
    status: u16,
    session: Option<String>,
    body: Bytes,
    stream: bool,
}

impl Connection {
    async fn post(&mut self, headers: &[(&str, &str)], body: String) -> Result<Answer, Error> {
        let mut request = hyper::Request::post("/mcp")
            .header("Host", &self.host)
            .header("Content-Type", "application/json")
            .header("Accept", ACCEPT);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request.body(Full::new(Bytes::from(body)))?;
        self.sender.ready().await?;
        let response = self.sender.send_request(request).await?;
        let status = response.status().as_u16();
        let header = |name: &str| {
            let value = response.headers().get(name)?;
            value.to_str().ok().map(str::to_owned)
        };
        let session = header("mcp-session-id");
        let stream = header("content-type").is_some_and(|t| t.starts_with("text/event-stream"));
        let body = response.into_body().collect().await?.to_bytes();
        Ok(Answer {
            status,
            session,
            body,
            stream,
        })
    }
}

/// The JSON-RPC message of `answer` with id `id`: the body, or the event stream's message.
fn message(answer: &Answer, id: u64) -> Option<Value> {
    if !answer.stream {
        let message: Value = serde_json::from_slice(&answer.body).ok()?;
        return (message["id"] == id).then_some(message);
    }
    let text = std::str::from_utf8(&answer.body).ok()?;
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|message| message["id"] == id)
}

fn call_body(revision: Revision, id: u64) -> String {
    match revision {
        Revision::Stateless => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":1,"b":2}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        ),
        Revision::Session => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":1,"b":2}}}}}}"#
        ),
    }
}

/// One `tools/call`, its answer checked.
async fn call(
    connection: &mut Connection,
    revision: Revision,
    session: Option<&str>,
    id: u64,
) -> Result<(), Error> {
    let answer = match (revision, session) {
        (Revision::Stateless, _) => {
            let headers = [
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "add"),
            ];
            connection.post(&headers, call_body(revision, id)).await?
        }
        (Revision::Session, Some(session)) => {
            let headers = [
                ("MCP-Protocol-Version", "2025-11-25"),
                ("Mcp-Session-Id", session),
            ];
            connection.post(&headers, call_body(revision, id)).await?
        }
        (Revision::Session, None) => return Err("a session is needed".into()),
    };
    let message = message(&answer, id);
    let text = message.as_ref().map(|m| &m["result"]["content"][0]["text"]);
    if answer.status != 200 || text != Some(&Value::from("3")) {
        return Err(format!(
            "unexpected answer ({}): {}",
            answer.status,
            String::from_utf8_lossy(&answer.body)
        )
        .into());
    }
    Ok(())
}

/// A 2025-11-25 session: `initialize`, then `notifications/initialized`; its id.
async fn open_session(connection: &mut Connection) -> Result<String, Error> {
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"http-bench-load","version":"0.0.0"}}}"#;
    let answer = connection.post(&[], initialize.to_owned()).await?;
    let version = message(&answer, 1).map(|m| m["result"]["protocolVersion"].clone());
    let session = match (answer.status, version, answer.session) {
        (200, Some(version), Some(session)) if version == "2025-11-25" => session,
        (status, ..) => {
            let body = String::from_utf8_lossy(&answer.body);
            return Err(format!("initialize answered {status}: {body}").into());
        }
    };
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let headers = [
        ("MCP-Protocol-Version", "2025-11-25"),
        ("Mcp-Session-Id", session.as_str()),
    ];
    let answer = connection.post(&headers, initialized.to_owned()).await?;
    if answer.status != 202 {
        return Err(format!("notifications/initialized answered {}", answer.status).into());
    }
    Ok(session)
}

/// What one measurement saw.
#[derive(Default)]
struct Sample {
    calls: u64,
    errors: u64,
    seconds: f64,
    server_cpu: f64,
    /// The load generator's own CPU time, in seconds.
    load_cpu: f64,
    /// Every counted call's latency, in nanoseconds.
    latencies: Vec<u64>,
}

/// `connections` closed loops of `tools/call` for `seconds`.
async fn measure(
    serving: &Serving,
    revision: Revision,
    session: Option<&str>,
    connections: usize,
    seconds: f64,
) -> Result<Sample, Error> {
    let mut opened = Vec::with_capacity(connections);
    for _ in 0..connections {
        opened.push(connect(serving.address).await?);
    }
    let cpu_before = serving.cpu_seconds()?;
    let load_before = cpu_seconds("self")?;
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(seconds);
    let tasks: Vec<_> = opened
        .into_iter()
        .enumerate()
        .map(|(index, mut connection)| {
            let session = session.map(str::to_owned);
            let address = serving.address;
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(1 << 16);
                let mut errors = 0u64;
                let mut first_error = None;
                let mut n = 0u64;
                while Instant::now() < deadline {
                    n += 1;
                    let id = ((index as u64 + 1) << 32) | n;
                    let sent = Instant::now();
                    match call(&mut connection, revision, session.as_deref(), id).await {
                        Ok(()) => latencies.push(sent.elapsed().as_nanos() as u64),
                        Err(error) => {
                            errors += 1;
                            first_error.get_or_insert(error.to_string());
                            // A broken connection is opened anew.
                            if connection.sender.is_closed() {
                                match connect(address).await {
                                    Ok(fresh) => connection = fresh,
                                    Err(_) => break,
                                }
                            }
                        }
                    }
                }
                (latencies, errors, first_error)
            })
        })
        .collect();
    let mut sample = Sample::default();
    let mut first_error = None;
    for task in tasks {
        let (latencies, errors, error) = task.await?;
        sample.latencies.extend(latencies);
        sample.errors += errors;
        first_error = first_error.or(error);
    }
    sample.seconds = start.elapsed().as_secs_f64();
    sample.server_cpu = serving.cpu_seconds()? - cpu_before;
    sample.load_cpu = cpu_seconds("self")? - load_before;
    sample.calls = sample.latencies.len() as u64;
    if let Some(error) = first_error {
        eprintln!("  {} errors; the first: {error}", sample.errors);
    }
    Ok(sample)
}

/// The measurements of one server on one revision, pooled.
#[derive(Default)]
struct Pooled {
    calls: u64,
    errors: u64,
    seconds: f64,
    server_cpu: f64,
    latencies: Vec<u64>,
    /// Each round's requests per second.
    rounds: Vec<f64>,
}

impl Pooled {
    fn add(&mut self, sample: Sample) {
        self.calls += sample.calls;
        self.errors += sample.errors;
        self.seconds += sample.seconds;
        self.server_cpu += sample.server_cpu;
        self.rounds.push(sample.calls as f64 / sample.seconds);
        self.latencies.extend(sample.latencies);
    }

    fn rps(&self) -> f64 {
        self.calls as f64 / self.seconds
    }

    /// The `q` quantile of the latencies, in microseconds.
    fn quantile_us(&mut self, q: f64) -> f64 {
        if self.latencies.is_empty() {
            return f64::NAN;
        }
        self.latencies.sort_unstable();
        let at = ((self.latencies.len() as f64 * q).ceil() as usize).clamp(1, self.latencies.len());
        self.latencies[at - 1] as f64 / 1e3
    }

    /// The server's CPU time per call, in microseconds.
    fn cpu_per_call_us(&self) -> f64 {
        self.server_cpu / self.calls as f64 * 1e6
    }
}

fn describe(sample: &Sample) -> String {
    let mut sorted = sample.latencies.clone();
    sorted.sort_unstable();
    let at = |q: f64| {
        let i = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len().max(1));
        sorted.get(i - 1).map_or(f64::NAN, |&ns| ns as f64 / 1e3)
    };
    format!(
        "{:.0} calls/s, p50 {:.0} us, p99 {:.0} us, CPU per call: server {:.1} us, load generator {:.1} us; server busy {:.0}%; {} errors",
        sample.calls as f64 / sample.seconds,
        at(0.5),
        at(0.99),
        sample.server_cpu / sample.calls.max(1) as f64 * 1e6,
        sample.load_cpu / sample.calls.max(1) as f64 * 1e6,
        sample.server_cpu / sample.seconds * 100.0,
        sample.errors
    )
}

async fn throughput(options: &Options) -> Result<[[Pooled; 2]; 2], Error> {
    let revisions = &options.revisions;
    let mut servers = Vec::new();
    for (name, binary) in &options.servers {
        let serving = start(binary, options).await?;
        let mut connection = connect(serving.address).await?;
        let session = open_session(&mut connection).await?;
        eprintln!(
            "{name}: pid {}, at {}, session {session}",
            serving.pid, serving.address
        );
        servers.push((name.as_str(), serving, session));
    }
    if options.warmup > 0.0 {
        for (name, serving, session) in &servers {
            for &revision in revisions {
                let session = Some(session.as_str());
                let sample = measure(
                    serving,
                    revision,
                    session,
                    options.connections,
                    options.warmup,
                )
                .await?;
                eprintln!("warm-up {name} {}: {}", revision.label(), describe(&sample));
            }
        }
    }
    let mut pooled: [[Pooled; 2]; 2] = Default::default();
    for round in 0..options.rounds {
        eprintln!(
            "round {} (load average {})",
            round + 1,
            std::fs::read_to_string("/proc/loadavg")?.trim()
        );
        for &revision in revisions {
            let r = usize::from(revision == Revision::Session);
            let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
            for s in order {
                let (name, serving, session) = &servers[s];
                let sample = measure(
                    serving,
                    revision,
                    Some(session.as_str()),
                    options.connections,
                    options.seconds,
                )
                .await?;
                eprintln!("  {name} {}: {}", revision.label(), describe(&sample));
                pooled[r][s].add(sample);
            }
        }
    }
    for (_, serving, _) in servers {
        serving.stop().await;
    }
    Ok(pooled)
}

/// Memory per open session: KiB before, KiB after, bytes per session.
async fn memory(binary: &str, options: &Options) -> Result<(u64, u64, f64), Error> {
    let serving = start(binary, options).await?;
    let mut connection = connect(serving.address).await?;
    for id in 1..=100 {
        call(&mut connection, Revision::Stateless, None, id).await?;
    }
    for _ in 0..10 {
        open_session(&mut connection).await?;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = serving.rss_kib()?;
    let mut ids = std::collections::HashSet::new();
    for _ in 0..options.sessions {
        ids.insert(open_session(&mut connection).await?);
    }
    if ids.len() != options.sessions {
        return Err("a session id was given twice".into());
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = serving.rss_kib()?;
    // The sessions are still open: one of them answers a call.
    if let Some(session) = ids.iter().next() {
        call(&mut connection, Revision::Session, Some(session), 9).await?;
    }
    serving.stop().await;
    let per_session = (after as f64 - before as f64) * 1024.0 / options.sessions as f64;
    Ok((before, after, per_session))
}

fn ratio(ours: f64, theirs: f64) -> String {
    format!("{:.2}x", ours / theirs)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let options = options()?;
    eprintln!(
        "{} rounds of {} s per server and revision, {} connections, {} s warm-up; servers on CPU {}; load average {}",
        options.rounds,
        options.seconds,
        options.connections,
        options.warmup,
        options.server_cpu,
        std::fs::read_to_string("/proc/loadavg")?.trim()
    );
    let mut pooled = throughput(&options).await?;
    let mut memories = Vec::new();
    for (name, binary) in options.servers.iter().filter(|_| options.sessions > 0) {
        let (before, after, per_session) = memory(binary, &options).await?;
        eprintln!(
            "{name}: VmRSS {before} KiB, then {after} KiB with {} more sessions: {per_session:.0} bytes each",
            options.sessions
        );
        memories.push(per_session);
    }

    let (first, second) = (&options.servers[0].0, &options.servers[1].0);
    println!("| measure | {first} | {second} | {first} / {second} |");
    println!("|---|---|---|---|");
    for &revision in &options.revisions {
        let r = usize::from(revision == Revision::Session);
        let [ours, theirs] = &mut pooled[r];
        let label = revision.label();
        let per_round: Vec<String> = (ours.rounds.iter().zip(&theirs.rounds))
            .map(|(a, b)| format!("{:.2}", a / b))
            .collect();
        println!(
            "| {label}: calls/s | {:.0} | {:.0} | {} (rounds: {}) |",
            ours.rps(),
            theirs.rps(),
            ratio(ours.rps(), theirs.rps()),
            per_round.join(", ")
        );
        let (a, b) = (ours.quantile_us(0.5), theirs.quantile_us(0.5));
        println!(
            "| {label}: p50 latency | {a:.0} µs | {b:.0} µs | {} |",
            ratio(a, b)
        );
        let (a, b) = (ours.quantile_us(0.99), theirs.quantile_us(0.99));
        println!(
            "| {label}: p99 latency | {a:.0} µs | {b:.0} µs | {} |",
            ratio(a, b)
        );
        let (a, b) = (ours.cpu_per_call_us(), theirs.cpu_per_call_us());
        println!(
            "| {label}: server CPU per call | {a:.1} µs | {b:.1} µs | {} |",
            ratio(a, b)
        );
        if ours.errors + theirs.errors > 0 {
            println!(
                "| {label}: failed calls | {} | {} | |",
                ours.errors, theirs.errors
            );
        }
    }
    let [a, b] = memories[..] else {
        return Ok(());
    };
    println!(
        "| memory per open session (2025-11-25, {} sessions) | {:.0} bytes | {:.0} bytes | {} |",
        options.sessions,
        a,
        b,
        ratio(a, b)
    );
    Ok(())
}
