//! The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on the stateless path:
//! a `tools/call` of a task-supporting tool may be answered with a task handle
//! (`resultType: "task"`) instead of its result, and the client follows the task with
//! `tasks/get`, answers its questions with `tasks/update` and stops it with `tasks/cancel`.
//!
//! The extension is not part of the 2026-07-28 schema, so its wire shapes are written here,
//! once, after SEP-2663; what the schema does have (the tool result, the input requests, the
//! JSON-RPC error, the `MissingRequiredClientCapability` data) is the crate's.
//!
//! Everything is gated on the request declaring the extension in its own capabilities
//! (`_meta`): without it the `tasks/*` methods and the tools that only run as tasks are refused
//! with `-32021`, and the tools that can also run at once do so.
//!
//! The fixtures are those the suite's `tasks-*` scenarios name: `greet` (never a task),
//! `slow_compute`, `failing_job`, `protocol_error_job`, `confirm_delete`, `multi_input` and
//! `test_tool_with_task` (input through SEP-2322 first, then a task).
//!
//! The store is bounded: at most [`MAX_TASKS`] tasks at once, each kept [`TTL_MS`] after its
//! creation and then forgotten (and stopped, if it still runs).

use crate::input_required::{boolean, field, schema, string, to_object};
use mcp_spec_types::v2026_07_28::input_required::{
    InputRequired, InputResponseError, RoundTrip, RESULT_TYPE_COMPLETE,
};
use mcp_spec_types::v2026_07_28::{
    CallToolResult, ClientCapabilities, ContentBlock, ElicitResult, ElicitResultAction,
    ElicitResultContentValue, ElicitResultContentValueVariant1, InputRequest,
    MissingRequiredClientCapabilityErrorObjectData, ServerCapabilities, TextContent, Tool,
};
use mcp_spec_types::{ErrorCode, JsonObject, RpcError};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::sync::oneshot;
use tokio::task::AbortHandle;

/// The extension's identifier, the key under `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// How long a task is kept after its creation (`ttlMs`), whatever became of it.
pub const TTL_MS: u64 = 5 * 60 * 1000;

/// How many tasks are kept at once; a call that would make one more is refused.
pub const MAX_TASKS: usize = 256;

/// How often a client is asked to poll (`pollIntervalMs`).
const POLL_INTERVAL_MS: u64 = 200;

/// The longest `slow_compute` sleeps, so that a call cannot hold a task (or, without the
/// extension, a connection) longer than the task would be kept.
const MAX_SECONDS: u64 = TTL_MS / 1000;

/// The `resultType` of a task handle (SEP-2663).
const RESULT_TYPE_TASK: &str = "task";

const GREET: &str = "greet";
const SLOW_COMPUTE: &str = "slow_compute";
const FAILING_JOB: &str = "failing_job";
const PROTOCOL_ERROR_JOB: &str = "protocol_error_job";
const CONFIRM_DELETE: &str = "confirm_delete";
const MULTI_INPUT: &str = "multi_input";
const WITH_TASK: &str = "test_tool_with_task";

/// Whether a tool never runs as a task, may also run at once for a client without the
/// extension (`optional`), or runs only as a task (`required`: refused with `-32021` then).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Support {
    Never,
    Optional,
    Required,
}

/// The tools, with their task support, description and input schema.
fn fixtures() -> [(&'static str, Support, &'static str, Value); 7] {
    let none = json!({ "type": "object", "properties": {} });
    [
        (
            GREET,
            Support::Never,
            "Returns a greeting at once (never a task)",
            json!({ "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] }),
        ),
        (
            SLOW_COMPUTE,
            Support::Optional,
            "Sleeps `seconds` seconds, then returns; a task when the client supports tasks",
            json!({
                "type": "object",
                "properties": { "seconds": { "type": "number" }, "label": { "type": "string" } }
            }),
        ),
        (
            FAILING_JOB,
            Support::Required,
            "A task whose tool reports an error after about a second",
            none.clone(),
        ),
        (
            PROTOCOL_ERROR_JOB,
            Support::Required,
            "A task that fails with a protocol error",
            none.clone(),
        ),
        (
            CONFIRM_DELETE,
            Support::Required,
            "A task that asks the user to confirm before it completes",
            json!({ "type": "object", "properties": { "filename": { "type": "string" } } }),
        ),
        (
            MULTI_INPUT,
            Support::Required,
            "A task that asks two questions at once",
            none.clone(),
        ),
        (
            WITH_TASK,
            Support::Required,
            "Asks for a name through input_required, then completes as a task",
            none,
        ),
    ]
}

/// The `tools/list` entries of the tools answered here.
pub fn tools() -> Vec<Tool> {
    fixtures()
        .into_iter()
        .map(|(name, _, description, schema)| Tool {
            annotations: None,
            description: Some(description.to_owned()),
            icons: None,
            input_schema: crate::fixtures::input_schema(schema),
            meta: None,
            name: name.to_owned(),
            output_schema: None,
            title: None,
            extra: Map::new(),
        })
        .collect()
}

/// The extension's methods. `tasks/result` and `tasks/list` of the 2025-11-25 tasks are
/// not among them (SEP-2663 removed them), so they stay unknown methods.
const METHODS: [&str; 3] = ["tasks/get", "tasks/update", "tasks/cancel"];

/// Whether `method` is one of the extension's.
pub fn handles(method: &str) -> bool {
    METHODS.contains(&method)
}

/// Adds the extension (no settings) to the capabilities `server/discover` reports.
pub fn advertise(capabilities: &mut ServerCapabilities) {
    capabilities
        .extensions
        .get_or_insert_with(BTreeMap::new)
        .insert(EXTENSION.to_owned(), JsonObject::new());
}

/// Whether the request declared the extension in its capabilities.
pub fn declared(client: &ClientCapabilities) -> bool {
    client
        .extensions
        .as_ref()
        .is_some_and(|extensions| extensions.contains_key(EXTENSION))
}

/// `-32021` naming the extension in `data.requiredCapabilities`, as the schema's
/// `MissingRequiredClientCapabilityError` carries it.
fn missing_extension(what: &str) -> RpcError {
    let data = MissingRequiredClientCapabilityErrorObjectData {
        required_capabilities: ClientCapabilities {
            extensions: Some(BTreeMap::from([(EXTENSION.to_owned(), JsonObject::new())])),
            ..ClientCapabilities::default()
        },
        extra: Map::new(),
    };
    let error = RpcError::new(
        ErrorCode::MissingRequiredClientCapability,
        format!("{what} needs the client capability extensions[{EXTENSION:?}]"),
    );
    match serde_json::to_value(&data) {
        Ok(data) => error.with_data(data),
        Err(_) => error,
    }
}

/// Answers the extension's methods and the calls of the tools above, with the complete result
/// object; `None` for any other request.
pub fn answer(
    method: &str,
    params: &Map<String, Value>,
    client: &ClientCapabilities,
) -> Option<Result<Map<String, Value>, RpcError>> {
    match method {
        _ if handles(method) => {
            if !declared(client) {
                return Some(Err(missing_extension(method)));
            }
            Some(method_answer(method, params))
        }
        "tools/call" => {
            let name = params.get("name").and_then(Value::as_str)?;
            let (_, support, _, _) = fixtures().into_iter().find(|(tool, ..)| *tool == name)?;
            let as_task = declared(client);
            if support == Support::Required && !as_task {
                return Some(Err(missing_extension(&format!("tool {name:?}"))));
            }
            let arguments = params
                .get("arguments")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            Some(call(name, &arguments, params, client, as_task))
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// The extension's wire shapes (SEP-2663; not in the 2026-07-28 schema).

/// Where a task stands (SEP-2663 `TaskStatus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }
}

/// What every task handle carries (SEP-2663 `Task`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TaskInfo {
    task_id: String,
    status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    status_message: Option<String>,
    /// ISO 8601.
    created_at: String,
    /// ISO 8601.
    last_updated_at: String,
    /// How long after its creation the task is kept.
    ttl_ms: u64,
    poll_interval_ms: u64,
}

/// The answer to a call that became a task (SEP-2663 `CreateTaskResult`: `Result & Task`, flat).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CreateTaskResult {
    result_type: &'static str,
    #[serde(flatten)]
    task: TaskInfo,
}

/// The answer to `tasks/get` (SEP-2663 `DetailedTask`): the task, with the questions it waits
/// on, or its result, or its error, by status.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DetailedTask {
    result_type: &'static str,
    #[serde(flatten)]
    task: TaskInfo,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_requests: Option<BTreeMap<String, InputRequest>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<CallToolResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<RpcError>,
}

/// `tasks/get` and `tasks/cancel` params.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TaskParams {
    task_id: String,
}

/// `tasks/update` params: answers keyed as the task's `inputRequests` were.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct UpdateParams {
    task_id: String,
    input_responses: Map<String, Value>,
}

// ---------------------------------------------------------------------------------------------
// The store.

/// One task.
struct Entry {
    status: Status,
    status_message: Option<String>,
    created: SystemTime,
    updated: SystemTime,
    /// When it is forgotten.
    expires: Instant,
    /// The questions it waits on, each with where its answer goes.
    pending: BTreeMap<String, (InputRequest, oneshot::Sender<Value>)>,
    result: Option<CallToolResult>,
    error: Option<RpcError>,
    /// The work, to stop on cancellation or expiry.
    work: Option<AbortHandle>,
}

impl Entry {
    fn info(&self, task_id: &str) -> TaskInfo {
        TaskInfo {
            task_id: task_id.to_owned(),
            status: self.status,
            status_message: self.status_message.clone(),
            created_at: iso8601(self.created),
            last_updated_at: iso8601(self.updated),
            ttl_ms: TTL_MS,
            poll_interval_ms: POLL_INTERVAL_MS,
        }
    }

    fn set(&mut self, status: Status) {
        self.status = status;
        self.updated = SystemTime::now();
    }

    /// Ends the task as `status` unless it already ended (a cancelled task stays cancelled).
    fn finish(&mut self, outcome: Result<CallToolResult, RpcError>) {
        if self.status.is_terminal() {
            return;
        }
        self.pending.clear();
        match outcome {
            Ok(result) => {
                self.result = Some(result);
                self.set(Status::Completed);
            }
            Err(error) => {
                self.error = Some(error);
                self.set(Status::Failed);
            }
        }
    }
}

#[derive(Default)]
struct Store {
    tasks: HashMap<String, Entry>,
}

impl Store {
    /// Forgets the tasks whose time is up, stopping those still at work.
    fn expire(&mut self, now: Instant) {
        self.tasks.retain(|_, entry| {
            let keep = entry.expires > now;
            if !keep {
                if let Some(work) = &entry.work {
                    work.abort();
                }
            }
            keep
        });
    }

    /// A new working task, or `None` when the store is full.
    fn create(&mut self, task_id: String) -> Option<TaskInfo> {
        let now = Instant::now();
        self.expire(now);
        if self.tasks.len() >= MAX_TASKS {
            return None;
        }
        let created = SystemTime::now();
        let entry = Entry {
            status: Status::Working,
            status_message: None,
            created,
            updated: created,
            expires: now + Duration::from_millis(TTL_MS),
            pending: BTreeMap::new(),
            result: None,
            error: None,
            work: None,
        };
        let info = entry.info(&task_id);
        self.tasks.insert(task_id, entry);
        Some(info)
    }

    fn get(&mut self, task_id: &str) -> Result<&mut Entry, RpcError> {
        self.expire(Instant::now());
        self.tasks
            .get_mut(task_id)
            .ok_or_else(|| RpcError::invalid_params(format!("unknown task {task_id:?}")))
    }
}

fn with_store<T>(f: impl FnOnce(&mut Store) -> T) -> T {
    static STORE: OnceLock<Mutex<Store>> = OnceLock::new();
    let store = STORE.get_or_init(Mutex::default);
    // A handler that panicked while holding the lock leaves a store that is still whole:
    // every change to it is one assignment.
    let mut store = store
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    f(&mut store)
}

/// A task id no client can guess: the ids are all a stateless server has to tell one
/// client's tasks from another's.
fn new_task_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    // std's hasher keys are drawn from the operating system's random source.
    let random = || {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(n);
        hasher.finish()
    };
    format!("task-{:016x}{:016x}-{n}", random(), random())
}

/// The handle a task's work uses to ask the client for input.
struct Job {
    task_id: String,
}

impl Job {
    /// Asks the question `ask` holds, under its key: the task is `input_required` until
    /// every question is answered. The answer is `Err` when the task ended (cancelled,
    /// expired) first.
    fn ask(&self, ask: &InputRequired) -> oneshot::Receiver<Value> {
        let (sender, receiver) = oneshot::channel();
        let Some((key, request)) = ask.requests().iter().next() else {
            // Nothing to ask: the dropped sender answers `Err` at once.
            return receiver;
        };
        with_store(|store| {
            if let Ok(entry) = store.get(&self.task_id) {
                if !entry.status.is_terminal() {
                    entry.pending.insert(key.clone(), (request.clone(), sender));
                    entry.set(Status::InputRequired);
                }
            }
        });
        receiver
    }
}

/// Creates a task running `work`, and answers with its handle once `tasks/get` finds it.
fn spawn<W, F>(work: W) -> Result<Map<String, Value>, RpcError>
where
    W: FnOnce(Job) -> F,
    F: Future<Output = Result<CallToolResult, RpcError>> + Send + 'static,
{
    let task_id = new_task_id();
    let info = with_store(|store| store.create(task_id.clone())).ok_or_else(|| {
        RpcError::new(
            ErrorCode::InternalError,
            format!("too many tasks (at most {MAX_TASKS} are kept)"),
        )
    })?;
    let future = work(Job {
        task_id: task_id.clone(),
    });
    let id = task_id.clone();
    let handle = tokio::spawn(async move {
        let outcome = future.await;
        with_store(|store| {
            if let Ok(entry) = store.get(&id) {
                entry.finish(outcome);
            }
        });
    });
    with_store(|store| {
        if let Ok(entry) = store.get(&task_id) {
            entry.work = Some(handle.abort_handle());
        }
    });
    to_object(&CreateTaskResult {
        result_type: RESULT_TYPE_TASK,
        task: info,
    })
}

// ---------------------------------------------------------------------------------------------
// The methods.

fn method_answer(
    method: &str,
    params: &Map<String, Value>,
) -> Result<Map<String, Value>, RpcError> {
    let params = Value::Object(params.clone());
    let read = |e: serde_json::Error| RpcError::invalid_params(format!("{method}: {e}"));
    match method {
        "tasks/get" => {
            let TaskParams { task_id } = serde_json::from_value(params).map_err(read)?;
            let detailed = with_store(|store| {
                let entry = store.get(&task_id)?;
                Ok::<_, RpcError>(DetailedTask {
                    result_type: RESULT_TYPE_COMPLETE,
                    task: entry.info(&task_id),
                    input_requests: (entry.status == Status::InputRequired).then(|| {
                        entry
                            .pending
                            .iter()
                            .map(|(key, (request, _))| (key.clone(), request.clone()))
                            .collect()
                    }),
                    result: entry.result.clone(),
                    error: entry.error.clone(),
                })
            })?;
            to_object(&detailed)
        }
        "tasks/update" => {
            let UpdateParams {
                task_id,
                input_responses,
            } = serde_json::from_value(params).map_err(read)?;
            with_store(|store| {
                let entry = store.get(&task_id)?;
                // Answers to questions not (or no longer) asked are ignored.
                for (key, response) in input_responses {
                    if let Some((_, sender)) = entry.pending.remove(&key) {
                        let _ = sender.send(response);
                    }
                }
                if entry.status == Status::InputRequired && entry.pending.is_empty() {
                    entry.set(Status::Working);
                }
                Ok::<_, RpcError>(())
            })?;
            Ok(ack())
        }
        _ => {
            let TaskParams { task_id } = serde_json::from_value(params).map_err(read)?;
            with_store(|store| {
                let entry = store.get(&task_id)?;
                // Cancelling an ended task changes nothing, and is not an error.
                if !entry.status.is_terminal() {
                    if let Some(work) = entry.work.take() {
                        work.abort();
                    }
                    entry.pending.clear();
                    entry.status_message = Some("cancelled by the client".to_owned());
                    entry.set(Status::Cancelled);
                }
                Ok::<_, RpcError>(())
            })?;
            Ok(ack())
        }
    }
}

/// The empty answer of `tasks/update` and `tasks/cancel`.
fn ack() -> Map<String, Value> {
    Map::from_iter([(
        "resultType".to_owned(),
        Value::from(mcp_spec_types::cache::RESULT_TYPE_COMPLETE),
    )])
}

// ---------------------------------------------------------------------------------------------
// The tools.

fn call(
    name: &str,
    arguments: &Map<String, Value>,
    params: &Map<String, Value>,
    client: &ClientCapabilities,
    as_task: bool,
) -> Result<Map<String, Value>, RpcError> {
    let text = |key: &str| {
        arguments
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    match name {
        GREET => to_object(&tool_result(
            format!("Hello, {}!", text("name").unwrap_or_default()),
            false,
        )),
        SLOW_COMPUTE => {
            let seconds = arguments
                .get("seconds")
                .and_then(Value::as_f64)
                .unwrap_or(0.0)
                .clamp(0.0, MAX_SECONDS as f64);
            let label = text("label").unwrap_or_else(|| "compute".to_owned());
            let done = tool_result(format!("{label}: done after {seconds}s"), false);
            let pause = Duration::from_secs_f64(seconds);
            if as_task {
                spawn(move |_| async move {
                    tokio::time::sleep(pause).await;
                    Ok(done)
                })
            } else {
                // The handler runs on a thread of its own (`http.rs`): it may block.
                std::thread::sleep(pause);
                to_object(&done)
            }
        }
        FAILING_JOB => spawn(|_| async {
            tokio::time::sleep(Duration::from_secs(1)).await;
            Ok(tool_result("the job failed".to_owned(), true))
        }),
        PROTOCOL_ERROR_JOB => spawn(|_| async {
            Err(RpcError::new(
                ErrorCode::InternalError,
                "the job broke before it could produce a result",
            ))
        }),
        CONFIRM_DELETE => {
            let filename = text("filename").unwrap_or_else(|| "the file".to_owned());
            spawn(|job| async move {
                let answer = job
                    .ask(&confirm("confirm", &format!("Delete {filename}?")))
                    .await;
                Ok(tool_result(
                    if accepted(answer, "confirm") {
                        format!("Deleted {filename}")
                    } else {
                        format!("Kept {filename}")
                    },
                    false,
                ))
            })
        }
        MULTI_INPUT => spawn(|job| async move {
            // Both questions are pending before either is awaited: asking registers them.
            let first = job.ask(&confirm("first", "First confirmation?"));
            let second = job.ask(&confirm("second", "Second confirmation?"));
            // Asked already, so the order they are awaited in does not matter.
            let (first, second) = (first.await, second.await);
            Ok(tool_result(
                format!(
                    "first: {}, second: {}",
                    accepted(first, "confirm"),
                    accepted(second, "confirm")
                ),
                false,
            ))
        }),
        _ => with_task(params, client),
    }
}

/// `test_tool_with_task`: asks for a name through SEP-2322 `input_required`, then answers
/// the round that brings it with a task whose result greets that name.
fn with_task(
    params: &Map<String, Value>,
    client: &ClientCapabilities,
) -> Result<Map<String, Value>, RpcError> {
    let retry = RoundTrip::from_params(params).map_err(RpcError::from)?;
    let name = match retry.elicitation("user_name") {
        Ok(answer) => field(answer, "name").to_owned(),
        // Only a missing answer is asked for (again); one that does not fit is the client's
        // error.
        Err(InputResponseError::Missing { .. }) => {
            let ask = InputRequired::new().elicit_form(
                "user_name",
                "What is your name?",
                schema("name", string()),
            );
            return to_object(&ask.build(client).map_err(RpcError::from)?);
        }
        Err(error) => return Err(error.into()),
    };
    spawn(|_| async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        Ok(tool_result(format!("Hello, {name}!"), false))
    })
}

/// An elicitation under `key` asking for one boolean, `confirm`.
fn confirm(key: &str, message: &str) -> InputRequired {
    InputRequired::new().elicit_form(key, message, schema("confirm", boolean()))
}

/// Whether an answer accepted the form with `key` true.
fn accepted(answer: Result<Value, oneshot::error::RecvError>, key: &str) -> bool {
    let Some(answer) = answer
        .ok()
        .and_then(|answer| serde_json::from_value::<ElicitResult>(answer).ok())
    else {
        return false;
    };
    answer.action == ElicitResultAction::Accept
        && matches!(
            answer.content.as_ref().and_then(|content| content.get(key)),
            Some(ElicitResultContentValue::Variant1(
                ElicitResultContentValueVariant1::Boolean(true)
            ))
        )
}

fn tool_result(text: String, is_error: bool) -> CallToolResult {
    CallToolResult {
        content: vec![ContentBlock::TextContent(TextContent::new(text))],
        is_error: is_error.then_some(true),
        meta: None,
        result_type: mcp_spec_types::cache::ResultType::COMPLETE,
        structured_content: None,
        extra: Map::new(),
    }
}

/// `time` as ISO 8601 in UTC, to the millisecond (`2026-07-28T09:30:00.000Z`).
fn iso8601(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = since.as_secs();
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    // Days since 1970-01-01 to a civil date (H. Hinnant's algorithm, in 400-year eras).
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    //! The task lifecycle the `tasks-*` scenarios drive, and what they cannot reach: the
    //! store's bound, and a task forgotten once its time is up.

    use super::*;

    fn with_extension() -> ClientCapabilities {
        ClientCapabilities {
            extensions: Some(BTreeMap::from([(EXTENSION.to_owned(), JsonObject::new())])),
            ..ClientCapabilities::default()
        }
    }

    fn object(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    /// The answer to `method` with `params`, from a client with `client`'s capabilities.
    fn ask(method: &str, params: Value, client: &ClientCapabilities) -> Result<Value, RpcError> {
        // One runtime for every call: a task's work runs on it between the calls.
        static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
        let runtime = RUNTIME.get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .expect("a runtime")
        });
        // A task's work is spawned on the runtime the handler runs in.
        let _entered = runtime.enter();
        answer(method, &object(params), client)
            .expect("an answer")
            .map(Value::Object)
    }

    /// `tasks/get` of `task`, once its status is no longer `from`.
    fn get_after(task: &str, from: &str, client: &ClientCapabilities) -> Value {
        get_until(task, client, |got| got["status"] != from)
            .unwrap_or_else(|| panic!("task {task} stayed {from}"))
    }

    /// `tasks/get` until `done` holds of the task, or `None` once `GIVE_UP_AFTER` has passed
    /// without it.
    fn get_until(
        task: &str,
        client: &ClientCapabilities,
        done: impl Fn(&Value) -> bool,
    ) -> Option<Value> {
        // A task's work runs on the runtime's one worker thread, when the system schedules
        // it: the limit only ends a test whose task never gets there, and a passing test
        // waits no longer than its task takes.
        const GIVE_UP_AFTER: Duration = Duration::from_secs(30);
        let deadline = Instant::now() + GIVE_UP_AFTER;
        loop {
            let got = ask("tasks/get", json!({ "taskId": task }), client).expect("the task");
            if done(&got) {
                return Some(got);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn without_the_extension_tasks_are_refused_and_optional_tools_run_at_once() {
        let client = ClientCapabilities::default();
        let error = ask("tasks/get", json!({ "taskId": "t" }), &client).unwrap_err();
        assert_eq!(error.code, ErrorCode::MissingRequiredClientCapability);
        let data = error.data.expect("data");
        assert!(data["requiredCapabilities"]["extensions"][EXTENSION].is_object());
        let error = ask("tools/call", json!({ "name": FAILING_JOB }), &client).unwrap_err();
        assert_eq!(error.code, ErrorCode::MissingRequiredClientCapability);
        let result = ask(
            "tools/call",
            json!({ "name": SLOW_COMPUTE, "arguments": { "seconds": 0 } }),
            &client,
        )
        .expect("a result");
        assert_eq!(result["resultType"], "complete");
        assert!(result.get("taskId").is_none());
    }

    #[test]
    fn a_task_waits_for_every_answer_then_completes() {
        let client = with_extension();
        let created = ask("tools/call", json!({ "name": MULTI_INPUT }), &client).expect("a task");
        assert_eq!(created["resultType"], "task");
        let task = created["taskId"].as_str().expect("a task id").to_owned();
        // The job asks its two questions one after the other, and a `tasks/get` may come
        // between them: wait for both.
        let got = get_until(&task, &client, |got| {
            got["inputRequests"].as_object().map(Map::len) == Some(2)
        })
        .unwrap_or_else(|| panic!("task {task} never asked both questions"));
        assert_eq!(got["status"], "input_required");
        let keys: Vec<_> = got["inputRequests"]
            .as_object()
            .expect("questions")
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys, ["first", "second"]);

        let yes = json!({ "action": "accept", "content": { "confirm": true } });
        let update = json!({ "taskId": task, "inputResponses": { "first": yes, "other": {} } });
        assert_eq!(
            ask("tasks/update", update, &client).expect("an ack"),
            json!({ "resultType": "complete" })
        );
        let got = ask("tasks/get", json!({ "taskId": task }), &client).expect("the task");
        assert_eq!(got["status"], "input_required");
        assert_eq!(got["inputRequests"].as_object().map(Map::len), Some(1));
        assert!(got["inputRequests"].get("second").is_some());

        let update = json!({ "taskId": task, "inputResponses": { "second": yes } });
        ask("tasks/update", update, &client).expect("an ack");
        // The last answer sets the task back to work at once.
        let done = get_after(&task, "working", &client);
        assert_eq!(done["status"], "completed");
        assert_eq!(
            done["result"]["content"][0]["text"],
            "first: true, second: true"
        );
        assert!(done.get("inputRequests").is_none());
    }

    #[test]
    fn cancelling_stops_a_task_once_and_acks_always() {
        let client = with_extension();
        let call = json!({ "name": SLOW_COMPUTE, "arguments": { "seconds": 60 } });
        let created = ask("tools/call", call, &client).expect("a task");
        let task = created["taskId"].as_str().expect("a task id").to_owned();
        for _ in 0..2 {
            let ack = ask("tasks/cancel", json!({ "taskId": task }), &client).expect("an ack");
            assert_eq!(ack, json!({ "resultType": "complete" }));
        }
        let got = ask("tasks/get", json!({ "taskId": task }), &client).expect("the task");
        assert_eq!(got["status"], "cancelled");
        assert!(got.get("result").is_none() && got.get("error").is_none());
        let error = ask("tasks/cancel", json!({ "taskId": "no-such-task" }), &client).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidParams);
    }

    #[test]
    fn the_store_is_bounded_and_forgets_expired_tasks() {
        let mut store = Store::default();
        for n in 0..MAX_TASKS {
            assert!(store.create(format!("t{n}")).is_some());
        }
        assert!(store.create("one-too-many".to_owned()).is_none());
        assert!(store.get("t0").is_ok());
        store.expire(Instant::now() + Duration::from_millis(TTL_MS + 1));
        assert!(store.tasks.is_empty());
        assert_eq!(
            store.get("t0").err().map(|e| e.code),
            Some(ErrorCode::InvalidParams)
        );
        assert!(store.create("again".to_owned()).is_some());
    }

    #[test]
    fn timestamps_are_iso_8601() {
        assert_eq!(iso8601(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        // 2026-07-28T09:30:00.250Z
        let time = UNIX_EPOCH + Duration::from_millis(1_785_231_000_250);
        assert_eq!(iso8601(time), "2026-07-28T09:30:00.250Z");
        // A leap day.
        let time = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(iso8601(time), "2000-02-29T00:00:00.000Z");
    }
}
