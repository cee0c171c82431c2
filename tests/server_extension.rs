//! Requests the handlers' revision does not define, served by a handler: an extension's
//! method (the tasks extension's `tasks/get`, which 2025-11-25 defined and 2026-07-28 does
//! not) and one no revision defines, both reaching it as `ClientCall::Unknown`; and a defined
//! request answered with the extension's own result (`ClientCallResult::Unknown`, written as
//! it is). A handler that serves none of them answers -32601.
#![cfg(all(feature = "server", feature = "v2026_07_28"))]

use mcp_spec_types::http_headers;
use mcp_spec_types::server::{Context, Handler, Router, Server, Session, Sessions};
use mcp_spec_types::v2026_07_28::*;
use mcp_spec_types::RpcError;
use serde_json::{json, Value};

/// A server with the tasks extension's `tasks/get` and a tool (`slow`) that answers with a
/// task handle, around a router for the rest.
struct WithTasks {
    router: Router,
}

impl Handler for WithTasks {
    fn capabilities(&self) -> ServerCapabilities {
        self.router.capabilities()
    }

    fn call(&self, call: ClientCall, context: &mut Context) -> Result<ClientCallResult, RpcError> {
        match &call {
            ClientCall::Unknown { method, params } if method == "tasks/get" => {
                let task = params.as_ref().and_then(|p| p.get("taskId")).cloned();
                let status = json!({"resultType": "complete", "taskId": task, "status": "working"});
                Ok(ClientCallResult::Unknown(status))
            }
            ClientCall::CallTool(params) if params.name == "odd" => {
                let odd = json!({"resultType": "complete", "_meta": null});
                Ok(ClientCallResult::Unknown(odd))
            }
            ClientCall::CallTool(params) if params.name == "slow" => {
                let handle = json!({"resultType": "task",
                    "task": {"taskId": "t-1", "status": "working"}});
                Ok(ClientCallResult::Unknown(handle))
            }
            _ => self.router.call(call, context),
        }
    }
}

fn router() -> Router {
    let slow = Tool::new("slow", ToolInputSchema::new());
    Router::new().tool(slow, |_| Ok(CallToolResult::text("at once")))
}

fn request(method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities":
            {"extensions": {"io.modelcontextprotocol/tasks": {}}}});
    json!({"jsonrpc": "2.0", "id": 9, "method": method, "params": params})
}

fn answer<H: Handler>(server: &Server<H>, line: &Value) -> Value {
    let lines = server.handle(&mut Session::new(), &line.to_string());
    let [answer] = lines.as_slice() else {
        panic!("{lines:?}")
    };
    serde_json::from_str(answer).expect("JSON")
}

#[test]
fn an_extensions_methods_and_results_reach_the_handler_and_go_out_as_written() {
    let server = Server::new(
        Implementation::new("tasks", "1"),
        WithTasks { router: router() },
    );
    let get = request("tasks/get", json!({"taskId": "t-1"}));
    // Written as the handler gave it, with who answered in `_meta`, as every result.
    let info = json!({"io.modelcontextprotocol/serverInfo": {"name": "tasks", "version": "1"}});
    assert_eq!(
        answer(&server, &get),
        json!({"jsonrpc": "2.0", "id": 9, "result": {"_meta": info,
            "resultType": "complete", "taskId": "t-1", "status": "working"}})
    );
    // A defined request, answered with the extension's result: nothing added, nothing read.
    let call = request("tools/call", json!({"name": "slow"}));
    assert_eq!(
        answer(&server, &call)["result"],
        json!({"_meta": info, "resultType": "task", "task": {"taskId": "t-1", "status": "working"}})
    );
    // A result whose `_meta` is not an object keeps it as it is, once.
    let odd = request("tools/call", json!({"name": "odd"}));
    let line = server.handle(&mut Session::new(), &odd.to_string()).pop();
    let line = line.expect("an answer");
    assert_eq!(line.matches("\"_meta\"").count(), 1, "{line}");
    assert_eq!(
        serde_json::from_str::<Value>(&line).expect("JSON")["result"]["_meta"],
        Value::Null
    );
    // What the handler does not serve is -32601, whichever revision defined the method.
    for method in ["tasks/cancel", "x/nothing"] {
        let error = answer(&server, &request(method, json!({"taskId": "t-1"})));
        assert_eq!(error["error"]["code"], -32601, "{method}: {error}");
        assert_eq!(error["error"]["data"]["method"], method, "{error}");
    }
    // A notification of such a method asks for nothing.
    let notification = json!({"jsonrpc": "2.0", "method": "notifications/tasks/status",
        "params": {"taskId": "t-1"}});
    let lines = server.handle(&mut Session::new(), &notification.to_string());
    assert_eq!(lines, Vec::<String>::new());
}

#[test]
fn a_router_alone_refuses_an_extensions_method_as_unknown_with_404_over_http() {
    let server = Server::new(Implementation::new("plain", "1"), router());
    let get = request("tasks/get", json!({"taskId": "t-1"}));
    assert_eq!(answer(&server, &get)["error"]["code"], -32601);

    let headers = http_headers::request_headers("2026-07-28", "tasks/get", get.get("params"));
    let mut sessions = Sessions::new(|| "unused".to_owned());
    let lookup = http_headers::lookup(&headers);
    let response = server.http(&mut sessions, "POST", lookup, &get.to_string(), 0);
    assert_eq!(response.status, 404, "{response:?}");
}
