use mcp_spec_types::{dispatch::MethodSet, v2026_07_28::*, RpcError};

fn answer(call: ClientCall) -> Result<ClientCallResult, RpcError> {
    let (minute, public) = (60_000, CacheScope::Public);
    Ok(match call {
        ClientCall::Discover(_) => {
            let capabilities = ServerCapabilities::new()
                .with_tools(ServerCapabilitiesTools::new())
                .with_resources(ServerCapabilitiesResources::new());
            DiscoverResult::complete(capabilities, [REVISION], minute, public).into()
        }
        ClientCall::ListTools(_) => {
            let numbers = serde_json::json!({"a": {"type": "number"}, "b": {"type": "number"}});
            let schema = ToolInputSchema::new().with_extra("properties", numbers);
            ListToolsResult::complete([Tool::new("add", schema)], minute, public).into()
        }
        ClientCall::CallTool(call) if call.name == "add" => {
            let arguments = call.arguments.unwrap_or_default();
            let number = |n| arguments.get::<f64>(n).and_then(Result::ok).unwrap_or(0.0);
            CallToolResult::text((number("a") + number("b")).to_string()).into()
        }
        ClientCall::ListResources(_) => {
            ListResourcesResult::complete([Resource::new("memo://hi", "hi")], minute, public).into()
        }
        ClientCall::ReadResource(read) => match read.uri.as_str() {
            "memo://hi" => ReadResourceResult::text(read.uri, "Hi!").into(),
            _ => return Err(RpcError::resource_not_found_for(&REVISION.into(), read.uri)),
        },
        other => return Err(RpcError::method_not_found(other.method())),
    })
}

fn main() {
    for line in std::io::stdin().lines().map_while(Result::ok) {
        if let Some(reply) = reply_to(&line, answer) {
            println!("{reply}");
        }
    }
}
