//! The server's one [`Handler`]: the engine hands it every request it does not answer itself,
//! in 2026-07-28's types whatever revision the client speaks, and it sends each to the part of
//! the server that answers it: the SEP-2322 tools and prompt (`input_required.rs`), the tasks
//! extension (`tasks.rs`), both for stateless requests only, and the reference server's tools,
//! prompts and resources (`fixtures.rs`).

use crate::{fixtures, input_required, tasks};
use mcp_spec_types::convert::meta_keys;
use mcp_spec_types::dispatch::MethodSet;
use mcp_spec_types::http_headers::ToolHeaders;
use mcp_spec_types::server::{Context, Handler, Server};
use mcp_spec_types::v2026_07_28::{ClientCall, ClientCallResult, ServerCapabilities};
use mcp_spec_types::RpcError;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The conformance server's handler.
pub struct Conformance {
    /// The `x-mcp-header` annotations of the tools that have them, by tool name.
    tool_headers: BTreeMap<String, ToolHeaders>,
}

/// The tool whose call closes its stream before the answer, so that the client resumes it
/// (SEP-1699).
const RECONNECTION: &str = "test_reconnection";

/// The engine with the conformance server's handler, identity and cache hints.
pub fn server() -> Result<Server<Conformance>, String> {
    let server = Server::new(fixtures::server_info(), Conformance::new()?);
    Ok(server.with_discover_cache(fixtures::hint("server/discover")))
}

impl Conformance {
    pub fn new() -> Result<Self, String> {
        let mut tool_headers = BTreeMap::new();
        for (name, schema) in fixtures::input_schemas() {
            let headers =
                ToolHeaders::from_input_schema(&schema).map_err(|e| format!("tool {name}: {e}"))?;
            if !headers.is_empty() {
                tool_headers.insert(name, headers);
            }
        }
        Ok(Conformance { tool_headers })
    }

    /// Whether `call`'s stream is closed before its answer.
    pub fn closes_stream(call: &ClientCall) -> bool {
        matches!(call, ClientCall::CallTool(params) if params.name == RECONNECTION)
    }
}

impl Handler for Conformance {
    fn capabilities(&self) -> ServerCapabilities {
        let mut capabilities = fixtures::capabilities();
        tasks::advertise(&mut capabilities);
        capabilities
    }

    fn call(&self, call: ClientCall, context: &mut Context) -> Result<ClientCallResult, RpcError> {
        if Self::closes_stream(&call) {
            // The answer waits for the client to resume the stream.
            context.close_stream();
        }
        if fixtures::stateless(context) {
            if let Some(answer) = stateless_only(&call) {
                return answer.map(|result| ClientCallResult::Unknown(Value::Object(result)));
            }
        }
        match call {
            ClientCall::Unknown { method, .. } => Err(RpcError::method_not_found(&method)),
            call => fixtures::answer(call, context),
        }
    }

    fn tool_headers(&self, name: &str) -> Option<&ToolHeaders> {
        self.tool_headers.get(name)
    }
}

/// The answer of the parts only stateless requests reach, which read the request as it came
/// (their results are the SEP's, beyond the schema's); `None` for a request neither answers.
fn stateless_only(call: &ClientCall) -> Option<Result<Map<String, Value>, RpcError>> {
    let method = call.method();
    let params = match call {
        ClientCall::Unknown { params, .. } => params.clone().unwrap_or_default(),
        ClientCall::CallTool(params) => to_map(params),
        ClientCall::GetPrompt(params) => to_map(params),
        _ => return None,
    };
    let params = match params {
        Value::Object(params) => params,
        _ => Map::new(),
    };
    let client = params
        .get("_meta")
        .and_then(|meta| meta.get(meta_keys::CLIENT_CAPABILITIES))
        .and_then(|declared| serde_json::from_value(declared.clone()).ok())
        .unwrap_or_default();
    input_required::answer(method, &params, &client)
        .or_else(|| tasks::answer(method, &params, &client))
}

/// Typed params as JSON (writing the crate's own types as JSON does not fail).
fn to_map(params: &impl serde::Serialize) -> Value {
    serde_json::to_value(params).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    //! What the suite's scenarios leave unexercised: which tools each lifecycle sees, and the
    //! log messages and input requests of the reference tools as the engine sends them.

    use super::*;
    use mcp_spec_types::server::Session;
    use serde_json::json;

    /// The lines the server sends for a stateless `tools/call` with `params` (and `_meta`
    /// naming 2026-07-28, `capabilities`, and log level `level`).
    fn call(params: Value, capabilities: Value, level: Option<&str>) -> Vec<Value> {
        let mut params = params;
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        });
        if let Some(level) = level {
            params["_meta"]["io.modelcontextprotocol/logLevel"] = json!(level);
        }
        let line = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params});
        lines(&mut Session::new(), &line)
    }

    fn lines(session: &mut Session, line: &Value) -> Vec<Value> {
        let server = server().expect("the server");
        let sent = server.handle(session, &line.to_string());
        sent.iter()
            .map(|line| serde_json::from_str(line).expect("JSON"))
            .collect()
    }

    fn tool_names(answer: &Value) -> Vec<String> {
        let tools = answer["result"]["tools"].as_array().expect("a tool list");
        let names = tools.iter().filter_map(|tool| tool["name"].as_str());
        names.map(str::to_owned).collect()
    }

    #[test]
    fn logs_only_when_the_request_asks_for_a_level() {
        let logging = json!({"name": "test_tool_with_logging"});
        let sent = call(logging.clone(), json!({}), None);
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert_eq!(sent[0]["result"]["resultType"], "complete");

        let sent = call(logging.clone(), json!({}), Some("info"));
        assert_eq!(sent.len(), 4, "{sent:?}");
        for log in &sent[..3] {
            assert_eq!(log["method"], "notifications/message");
        }
        assert_eq!(sent[0]["params"]["data"], "Tool execution started");
        assert_eq!(sent[3]["id"], 7, "the answer comes last");

        assert_eq!(call(logging, json!({}), Some("warning")).len(), 1);
    }

    #[test]
    fn sampling_is_asked_with_input_required_and_its_answer_comes_back() {
        let first = json!({"name": "test_sampling", "arguments": {"prompt": "hi"}});
        let sampling = json!({"sampling": {}});
        let asked = call(first.clone(), sampling.clone(), None);
        let result = &asked[0]["result"];
        assert_eq!(result["resultType"], "input_required", "{asked:?}");
        let request = &result["inputRequests"]["input"];
        assert_eq!(request["method"], "sampling/createMessage");
        assert_eq!(request["params"]["messages"][0]["content"]["text"], "hi");

        let mut retry = first.clone();
        retry["inputResponses"] = json!({"input": {
            "role": "assistant",
            "content": {"type": "text", "text": "hello back"},
            "model": "m"
        }});
        let answered = call(retry, sampling, None);
        let text = &answered[0]["result"]["content"][0]["text"];
        assert_eq!(text, "LLM response: hello back", "{answered:?}");

        // A client that cannot sample is told so in the tool's text.
        let refused = call(first, json!({}), None);
        let text = refused[0]["result"]["content"][0]["text"].as_str();
        assert!(
            text.is_some_and(|t| t.starts_with("Sampling not supported")),
            "{refused:?}"
        );
    }

    #[test]
    fn a_session_lists_only_the_reference_tools_and_a_stateless_request_the_rest_too() {
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}}}});
        let stateless = tool_names(&lines(&mut Session::new(), &list)[0]);

        let mut session = Session::new();
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}});
        let initialized = lines(&mut session, &initialize);
        assert_eq!(initialized[0]["result"]["protocolVersion"], "2025-11-25");
        let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
        let stateful = tool_names(&lines(&mut session, &list)[0]);

        for only_stateless in ["test_custom_header", "slow_compute", RECONNECTION] {
            let in_session = stateful.iter().any(|name| name == only_stateless);
            let alone = stateless.iter().any(|name| name == only_stateless);
            match only_stateless {
                RECONNECTION => assert!(in_session && alone, "{stateful:?} {stateless:?}"),
                _ => assert!(!in_session && alone, "{stateful:?} {stateless:?}"),
            }
        }
        assert!(stateful.len() < stateless.len());
        // A session cannot call what it was not offered.
        let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "test_custom_header", "arguments": {"region": "x"}}});
        let refused = lines(&mut session, &call);
        assert_eq!(refused[0]["error"]["code"], -32602, "{refused:?}");
    }

    #[test]
    fn only_the_reconnection_tool_closes_its_stream() {
        let call = |name: &str| {
            let line = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": name, "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": {}}}});
            match mcp_spec_types::v2026_07_28::ClientMessage::parse(&line.to_string()) {
                Ok(mcp_spec_types::dispatch::Message::Request(request)) => request.call,
                other => panic!("not a request: {other:?}"),
            }
        };
        assert!(Conformance::closes_stream(&call(RECONNECTION)));
        assert!(!Conformance::closes_stream(&call("test_simple_text")));
    }
}
