//! Typed tools, prompts and templates (`Router::typed_tool`, `typed_prompt`, `typed_template`):
//! the schemas derived from Rust types are valid where each revision's official schema puts
//! them, arguments that do not read get the answer the pages give, and a structured result
//! reaches each revision as that revision defines it.
#![cfg(all(feature = "server", feature = "all-revisions"))]

use crate::common::{definition_pointer, load_schema, validator, violations};
use mcp_spec_types::server::{elicited, form_schema, Router, Server, Session, Structured};
use mcp_spec_types::v2026_07_28::input_required::{InputRequired, RoundTrip};
use mcp_spec_types::v2026_07_28::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The released revisions, with whether each is stateless.
const REVISIONS: [(&str, bool); 5] = [
    ("2024-11-05", false),
    ("2025-03-26", false),
    ("2025-06-18", false),
    ("2025-11-25", false),
    ("2026-07-28", true),
];

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    C,
    F,
}

/// A weather request.
#[derive(Deserialize, JsonSchema)]
struct Weather {
    /// The city to look up.
    city: String,
    unit: Option<Unit>,
    days: Option<Vec<u8>>,
}

#[derive(Serialize, JsonSchema)]
struct Forecast {
    city: String,
    celsius: f64,
}

#[derive(Deserialize, JsonSchema)]
struct Review {
    /// The code to review.
    code: String,
    /// What to look for.
    focus: Option<String>,
}

#[derive(Deserialize)]
struct Note {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Plan {
    Free,
    Team,
}

/// Who signs in.
#[derive(Deserialize, JsonSchema)]
struct Login {
    /// Your GitHub login.
    login: String,
    remember: Option<bool>,
    seats: Option<u8>,
    plan: Plan,
}

/// A week's trip: each member bounded by its schema, beyond what its Rust type reads.
#[derive(Deserialize, JsonSchema)]
struct Trip {
    #[schemars(range(min = 1, max = 7))]
    days: u8,
    #[schemars(length(min = 2, max = 10))]
    city: String,
    /// An IATA airport code.
    #[schemars(regex(pattern = r"^[A-Z]{3}$"))]
    airport: Option<String>,
    #[schemars(length(max = 3))]
    stops: Vec<Stop>,
    /// A set: serde reads `["a", "a"]` as one tag, the schema says `uniqueItems`.
    tags: Option<std::collections::BTreeSet<String>>,
    #[schemars(extend("multipleOf" = 15))]
    minutes: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
struct Stop {
    #[schemars(range(min = 0.5))]
    hours: f64,
}

fn router() -> Router {
    Router::new()
        .typed_tool(
            Tool::new("weather", ToolInputSchema::new()).with_title("Weather"),
            |Weather { city, unit, days }| {
                let unit = match unit {
                    Some(Unit::F) => "f",
                    _ => "c",
                };
                let days = days.map_or(1, |d| d.len());
                Ok(CallToolResult::text(format!("{city} {unit} {days}")))
            },
        )
        .typed_tool("forecast", |Weather { city, .. }| {
            Ok(Structured(Forecast {
                city,
                celsius: 21.5,
            }))
        })
        .typed_tool("trip", |trip: Trip| {
            let hours: f64 = trip.stops.iter().map(|stop| stop.hours).sum();
            let airport = trip.airport.unwrap_or_default();
            let tags = trip.tags.unwrap_or_default().len();
            let minutes = trip.minutes.unwrap_or_default();
            let text = format!(
                "{} {}{airport} {hours} {tags} {minutes}",
                trip.days, trip.city
            );
            Ok(CallToolResult::text(text))
        })
        .typed_prompt("review", |Review { code, focus }| {
            let text = format!("{}: {code}", focus.unwrap_or_else(|| "all".into()));
            Ok(GetPromptResult::complete(vec![PromptMessage::new(
                ContentBlock::text(text),
                Role::User,
            )]))
        })
        .tool(
            Tool::new("login", ToolInputSchema::new()),
            |call| -> Result<CallToolResultOrInputRequired, mcp_spec_types::RpcError> {
                let round = RoundTrip::of(&call);
                let Ok(answer) = round.elicitation("login") else {
                    let form = form_schema::<Login>().expect("Login is a form");
                    return Ok(InputRequired::new()
                        .elicit_form("login", "Sign in", form)
                        .build_ignoring_capabilities()?
                        .into());
                };
                let text = match elicited::<Login>(answer) {
                    Ok(Some(Login {
                        login,
                        remember,
                        seats,
                        plan,
                    })) => format!(
                        "{login} {} {} {}",
                        remember.unwrap_or(false),
                        seats.unwrap_or(1),
                        matches!(plan, Plan::Team)
                    ),
                    Ok(None) => "declined".into(),
                    Err(problem) => return Ok(CallToolResult::error(problem).into()),
                };
                Ok(CallToolResult::text(text).into())
            },
        )
        .typed_template(
            ResourceTemplate::new("note:///{name}", "note"),
            |read, Note { name }| Ok(ReadResourceResult::text(read.uri, name)),
        )
}

/// One client of `version`: a session initialized for a stateful revision; each request
/// carries `_meta` for the stateless one.
struct Client {
    server: Server<Router>,
    session: Session,
    version: &'static str,
    stateless: bool,
    next: u64,
}

impl Client {
    fn new(version: &'static str, stateless: bool) -> Client {
        let server = Server::new(Implementation::new("typed", "1"), router());
        let mut client = Client {
            server,
            session: Session::new(),
            version,
            stateless,
            next: 0,
        };
        if !stateless {
            let answer = client.send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {"protocolVersion": version, "capabilities": {"elicitation": {}},
                    "clientInfo": {"name": "test", "version": "1"}}}));
            assert_eq!(answer["result"]["protocolVersion"], version, "{answer}");
            client.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        }
        client
    }

    fn send(&mut self, message: Value) -> Value {
        match self
            .server
            .handle(&mut self.session, &message.to_string())
            .pop()
        {
            Some(answer) => serde_json::from_str(&answer).expect("the answer is JSON"),
            None => Value::Null,
        }
    }

    /// A request of `method` with `params`, and its answer (`result` or `error`).
    fn request(&mut self, method: &str, mut params: Value) -> Value {
        self.next += 1;
        if self.stateless {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": self.version,
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
            });
        }
        let answer = self.send(json!({"jsonrpc": "2.0", "id": self.next, "method": method,
            "params": params}));
        assert_eq!(answer["id"], self.next, "{answer}");
        answer
    }
}

/// What `tools/list`, `prompts/list` and a structured call give each revision validates
/// against that revision's official schema.
#[test]
fn derived_schemas_are_valid_in_every_revision() {
    for (version, stateless) in REVISIONS {
        let root = load_schema(version);
        let mut client = Client::new(version, stateless);
        for (method, params, definition) in [
            ("tools/list", json!({}), "ListToolsResult"),
            ("prompts/list", json!({}), "ListPromptsResult"),
            (
                "tools/call",
                json!({"name": "forecast", "arguments": {"city": "Oslo"}}),
                "CallToolResult",
            ),
        ] {
            let answer = client.request(method, params);
            let result = &answer["result"];
            assert!(result.is_object(), "{version} {method}: {answer}");
            let check = validator(&root, &definition_pointer(&root, definition));
            assert_eq!(
                violations(&check, result),
                Vec::<String>::new(),
                "{version} {method}: {result}"
            );
        }
    }
}

/// The weather tool's `inputSchema` in every revision is the schema schemars derives from
/// its type, whole: without `$schema`, and with the optional enum's `$ref` inlined, as one
/// schema that a client need not resolve.
#[test]
fn a_tools_input_schema_is_the_schema_of_its_type_in_every_revision() {
    let mut derived = serde_json::to_value(schemars::schema_for!(Weather)).expect("JSON");
    let members = derived.as_object_mut().expect("an object");
    assert!(members.remove("$schema").is_some());
    let defs = members.remove("$defs").expect("Unit is a $def");
    assert_eq!(defs["Unit"], json!({"type": "string", "enum": ["c", "f"]}));
    assert_eq!(
        derived["properties"]["unit"],
        json!({"anyOf": [{"$ref": "#/$defs/Unit"}, {"type": "null"}]})
    );
    derived["properties"]["unit"] = json!({"type": ["string", "null"], "enum": ["c", "f", null]});
    for (version, stateless) in REVISIONS {
        let mut client = Client::new(version, stateless);
        let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
        assert_eq!(tools[0]["name"], "weather", "{version}");
        assert_eq!(tools[0]["inputSchema"], derived, "{version}");
    }
}

/// The weather tool's `inputSchema`: the struct's members, its doc comments, the enum's
/// values, only `city` required, and no `$schema`.
#[test]
fn a_tools_input_schema_is_its_arguments_type() {
    let mut client = Client::new("2026-07-28", true);
    let tools = client.request("tools/list", json!({}))["result"]["tools"].clone();
    let weather = &tools[0];
    assert_eq!(weather["name"], "weather");
    assert_eq!(weather["title"], "Weather");
    let schema = &weather["inputSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema.get("$schema"), None, "{schema}");
    assert_eq!(schema["required"], json!(["city"]));
    assert_eq!(schema["description"], "A weather request.");
    assert_eq!(
        schema["properties"]["city"],
        json!({"type": "string", "description": "The city to look up."})
    );
    // The enum is inlined, not a `$ref` a client would have to resolve.
    let unit = schema["properties"]["unit"].to_string();
    assert!(unit.contains(r#""c""#) && unit.contains(r#""f""#), "{unit}");
    assert!(!unit.contains("$ref"), "{unit}");
    assert_eq!(weather.get("outputSchema"), None, "{weather}");
    // The structured tool lists its result's schema.
    let forecast = &tools[1];
    assert_eq!(forecast["outputSchema"]["type"], "object", "{forecast}");
    assert_eq!(
        forecast["outputSchema"]["required"],
        json!(["city", "celsius"])
    );
}

/// Arguments that do not read never reach the function: each revision's client gets a tool
/// error naming the argument's path and what was expected; an unknown tool stays -32602.
#[test]
fn bad_arguments_are_a_tool_error_in_every_revision() {
    for (version, stateless) in REVISIONS {
        let mut client = Client::new(version, stateless);
        let good = client.request(
            "tools/call",
            json!({"name": "weather", "arguments": {"city": "Oslo", "unit": "f", "days": [1, 2]}}),
        );
        assert_eq!(
            good["result"]["content"],
            json!([{"type": "text", "text": "Oslo f 2"}]),
            "{version}"
        );
        for (arguments, says) in [
            (
                json!({"city": "Oslo", "unit": "k"}),
                "invalid arguments for tool `weather`: unit: unknown variant `k`, expected `c` or `f`",
            ),
            (
                json!({"unit": "c"}),
                "invalid arguments for tool `weather`: missing field `city`",
            ),
            (
                json!({"city": "Oslo", "days": [1, 300]}),
                "invalid arguments for tool `weather`: days[1]: invalid value: integer `300`, expected u8",
            ),
            (
                json!({"city": 7}),
                "invalid arguments for tool `weather`: city: invalid type: integer `7`, expected a string",
            ),
        ] {
            let answer = client.request(
                "tools/call",
                json!({"name": "weather", "arguments": arguments}),
            );
            let mut expected = json!({"content": [{"type": "text", "text": says}], "isError": true});
            if stateless {
                expected["resultType"] = "complete".into();
                expected["_meta"] = json!({
                    "io.modelcontextprotocol/serverInfo": {"name": "typed", "version": "1"}
                });
            }
            assert_eq!(answer["result"], expected, "{version}: {answer}");
        }
        // No arguments at all read as an empty object: `city` is missing.
        let none = client.request("tools/call", json!({"name": "weather"}));
        assert_eq!(none["result"]["isError"], true, "{version}: {none}");
        let unknown = client.request("tools/call", json!({"name": "nothing"}));
        assert_eq!(unknown["error"]["code"], -32602, "{version}: {unknown}");
    }
}

/// What a typed tool's schema says beyond its Rust type (bounds, lengths, a pattern, an
/// array's count, a nested struct's bounds) is checked before its function runs: a call out
/// of range is a tool error naming the argument and the bound, in every revision.
#[test]
fn arguments_out_of_their_schemas_bounds_are_a_tool_error() {
    for (version, stateless) in REVISIONS {
        let mut client = Client::new(version, stateless);
        let good = json!({"days": 7, "city": "Oslo", "airport": "OSL",
            "stops": [{"hours": 0.5}, {"hours": 2}], "tags": ["sea", "sun"], "minutes": 45});
        let answer = client.request("tools/call", json!({"name": "trip", "arguments": good}));
        assert_eq!(
            answer["result"]["content"],
            json!([{"type": "text", "text": "7 OsloOSL 2.5 2 45"}]),
            "{version}: {answer}"
        );
        assert_eq!(answer["result"].get("isError"), None, "{version}: {answer}");
        let refused = |member: &str, value: Value| {
            let mut arguments = good.clone();
            arguments[member] = value;
            arguments
        };
        for (arguments, says) in [
            (
                refused("days", json!(9)),
                "days: 9 is greater than the maximum 7",
            ),
            (
                refused("days", json!(0)),
                "days: 0 is less than the minimum 1",
            ),
            (
                refused("city", json!("X")),
                "city: has 1 characters, fewer than the minimum 2",
            ),
            (
                refused("airport", json!("Oslo")),
                r#"airport: "Oslo" does not match the pattern "^[A-Z]{3}$""#,
            ),
            (
                refused("stops", json!([{"hours": 1}, {"hours": 0.25}])),
                "stops[1].hours: 0.25 is less than the minimum 0.5",
            ),
            (
                refused(
                    "stops",
                    json!([{"hours": 1}, {"hours": 1}, {"hours": 1}, {"hours": 1}]),
                ),
                "stops: has 4 items, more than the maximum 3",
            ),
            (
                refused("tags", json!(["sea", "sea"])),
                "tags: has an item twice (uniqueItems)",
            ),
            (
                refused("minutes", json!(20)),
                "minutes: 20 is not a multiple of 15",
            ),
        ] {
            let answer = client.request(
                "tools/call",
                json!({"name": "trip", "arguments": arguments}),
            );
            let result = &answer["result"];
            assert_eq!(result["isError"], true, "{version}: {answer}");
            assert_eq!(
                result["content"],
                json!([{"type": "text", "text": format!("invalid arguments for tool `trip`: {says}")}]),
                "{version}: {answer}"
            );
        }
        // A member the schema leaves out (`null` for the optional airport) is not checked.
        let answer = client.request(
            "tools/call",
            json!({"name": "trip", "arguments": refused("airport", Value::Null)}),
        );
        assert_eq!(answer["result"].get("isError"), None, "{version}: {answer}");
    }
}

/// A structured result: `structuredContent` and the same JSON as text from 2025-06-18, which
/// defined it; the text alone before.
#[test]
fn a_structured_result_reaches_each_revision_as_it_defines_it() {
    for (version, stateless) in REVISIONS {
        let mut client = Client::new(version, stateless);
        let answer = client.request(
            "tools/call",
            json!({"name": "forecast", "arguments": {"city": "Oslo"}}),
        );
        let result = &answer["result"];
        assert_eq!(
            result["content"],
            json!([{"type": "text", "text": r#"{"city":"Oslo","celsius":21.5}"#}]),
            "{version}: {answer}"
        );
        let defines_structure = version >= "2025-06-18";
        assert_eq!(
            result.get("structuredContent"),
            defines_structure
                .then(|| json!({"city": "Oslo", "celsius": 21.5}))
                .as_ref(),
            "{version}: {answer}"
        );
        let tools = client.request("tools/list", json!({}));
        assert_eq!(
            tools["result"]["tools"][1].get("outputSchema").is_some(),
            defines_structure,
            "{version}: {tools}"
        );
    }
}

/// A typed prompt lists its arguments from the struct and gets them read; a missing
/// required one is -32602 in every revision.
#[test]
fn a_typed_prompt_lists_and_reads_its_arguments() {
    for (version, stateless) in REVISIONS {
        let mut client = Client::new(version, stateless);
        let prompts = client.request("prompts/list", json!({}));
        assert_eq!(
            prompts["result"]["prompts"][0]["arguments"],
            json!([
                {"name": "code", "description": "The code to review.", "required": true},
                {"name": "focus", "description": "What to look for.", "required": false}
            ]),
            "{version}: {prompts}"
        );
        let got = client.request(
            "prompts/get",
            json!({"name": "review", "arguments": {"code": "x = 1"}}),
        );
        assert_eq!(
            got["result"]["messages"][0]["content"],
            json!({"type": "text", "text": "all: x = 1"}),
            "{version}: {got}"
        );
        let missing = client.request(
            "prompts/get",
            json!({"name": "review", "arguments": {"focus": "style"}}),
        );
        assert_eq!(missing["error"]["code"], -32602, "{version}: {missing}");
        assert_eq!(
            missing["error"]["message"],
            "invalid arguments for prompt `review`: missing field `code`"
        );
    }
}

/// A template's variables read into a struct; a URI no template matches is "resource not
/// found" in the client's revision.
#[test]
fn a_typed_template_reads_its_variables() {
    for (version, stateless) in REVISIONS {
        let mut client = Client::new(version, stateless);
        let read = client.request("resources/read", json!({"uri": "note:///groceries"}));
        assert_eq!(
            read["result"]["contents"],
            json!([{"uri": "note:///groceries", "text": "groceries"}]),
            "{version}: {read}"
        );
        let missing = client.request("resources/read", json!({"uri": "memo:///groceries"}));
        let code = if stateless { -32602 } else { -32002 };
        assert_eq!(missing["error"]["code"], code, "{version}: {missing}");
        assert_eq!(missing["error"]["data"]["uri"], "memo:///groceries");
    }
}

/// A type whose schema is not an object's is refused at registration, saying which.
#[test]
fn a_type_that_is_no_object_is_refused_with_its_name() {
    let error = mcp_spec_types::server::input_schema::<String>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "alloc::string::String as a tool's arguments: its schema's root is not \
         `\"type\": \"object\"` (use a struct)"
    );
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Numbers {
        n: u32,
    }
    let error = mcp_spec_types::server::prompt_arguments::<Numbers>().unwrap_err();
    assert!(
        error
            .to_string()
            .ends_with("`n` is not a string (prompt arguments are strings)"),
        "{error}"
    );
}

/// Where each revision's official schema keeps a form's `requestedSchema`.
fn requested_schema_pointer(version: &str) -> &'static str {
    match version {
        "2025-06-18" => "/definitions/ElicitRequest/properties/params/properties/requestedSchema",
        _ => "/$defs/ElicitRequestFormParams/properties/requestedSchema",
    }
}

/// A typed form: the struct's members as the form's primitives (the doc comment as the
/// description, the enum's values, the optional members not required), valid where each
/// revision that has elicitation puts it; the answer read back into the struct, through the
/// engine, for a session's client (asked in its revision) and a stateless one (retrying).
#[test]
fn a_typed_elicitation_form_asks_and_reads_back_its_struct() {
    let form = serde_json::to_value(form_schema::<Login>().expect("a form")).expect("JSON");
    assert_eq!(form["type"], "object");
    assert_eq!(form["required"], json!(["login", "plan"]));
    assert_eq!(
        form["properties"]["login"],
        json!({"type": "string", "description": "Your GitHub login."})
    );
    assert_eq!(form["properties"]["remember"], json!({"type": "boolean"}));
    assert_eq!(
        form["properties"]["seats"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        form["properties"]["plan"],
        json!({"type": "string", "enum": ["free", "team"]})
    );
    for (version, stateless) in &REVISIONS[2..] {
        let root = load_schema(version);
        let check = validator(&root, requested_schema_pointer(version));
        let mut client = Client::new(version, *stateless);
        let first = client.request("tools/call", json!({"name": "login"}));
        let accepted = json!({"action": "accept",
            "content": {"login": "octocat", "remember": true, "plan": "team"}});
        let answer = if *stateless {
            let asked = &first["result"]["inputRequests"]["login"];
            assert_eq!(asked["method"], "elicitation/create", "{first}");
            assert_eq!(
                violations(&check, &asked["params"]["requestedSchema"]),
                Vec::<String>::new()
            );
            client.request(
                "tools/call",
                json!({"name": "login", "inputResponses": {"login": accepted}}),
            )
        } else {
            assert_eq!(first["method"], "elicitation/create", "{version}: {first}");
            let requested = &first["params"]["requestedSchema"];
            assert_eq!(
                violations(&check, requested),
                Vec::<String>::new(),
                "{version}"
            );
            client.send(json!({"jsonrpc": "2.0", "id": first["id"], "result": accepted}))
        };
        assert_eq!(
            answer["result"]["content"],
            json!([{"type": "text", "text": "octocat true 1 true"}]),
            "{version}: {answer}"
        );
    }
}

/// What a form cannot hold is refused when the form is made, naming the member; what a client
/// answers that does not read is said with the member.
#[test]
fn a_form_refuses_what_it_cannot_express() {
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Nested {
        login: String,
        address: Address,
    }
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Address {
        city: String,
    }
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Numbers {
        scores: Vec<u32>,
    }
    let nested = form_schema::<Nested>().unwrap_err().to_string();
    assert!(
        nested.ends_with("`address` is not a string, number, boolean or enum"),
        "{nested}"
    );
    let numbers = form_schema::<Numbers>().unwrap_err().to_string();
    assert!(
        numbers.ends_with("`scores` is not a string, number, boolean or enum"),
        "{numbers}"
    );

    let answer =
        |value: Value| -> ElicitResult { serde_json::from_value(value).expect("a result") };
    let declined = answer(json!({"action": "decline"}));
    assert!(matches!(elicited::<Login>(&declined), Ok(None)));
    let wrong = answer(json!({"action": "accept", "content": {"login": "a", "plan": "gold"}}));
    let problem = elicited::<Login>(&wrong).err().expect("gold is no plan");
    assert_eq!(
        problem,
        "plan: unknown variant `gold`, expected `free` or `team`"
    );
}

/// What a typed tool answers reads back into the type on the client's side; a type that does
/// not match says where, and a tool error or a result without structure says which.
#[cfg(feature = "client")]
#[test]
fn a_structured_result_reads_back_into_its_type() {
    use mcp_spec_types::client::{structured, StructuredError};
    #[derive(Deserialize, Debug, PartialEq)]
    struct ForecastRead {
        city: String,
        celsius: f64,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Whole {
        celsius: u32,
    }
    let mut client = Client::new("2026-07-28", true);
    let mut call = |name: &str, arguments: Value| -> CallToolResult {
        let answer = client.request("tools/call", json!({"name": name, "arguments": arguments}));
        serde_json::from_value(answer["result"].clone()).expect("a CallToolResult")
    };
    let forecast = call("forecast", json!({"city": "Oslo"}));
    assert_eq!(
        structured::<ForecastRead>(&forecast),
        Ok(ForecastRead {
            city: "Oslo".into(),
            celsius: 21.5
        })
    );
    let mismatch = structured::<Whole>(&forecast).unwrap_err();
    assert_eq!(
        mismatch,
        StructuredError::Mismatch {
            path: "celsius".into(),
            problem: "invalid type: floating point `21.5`, expected u32".into()
        }
    );
    let plain = call("weather", json!({"city": "Oslo"}));
    assert_eq!(
        structured::<ForecastRead>(&plain),
        Err(StructuredError::Missing)
    );
    let failed = call("forecast", json!({}));
    assert_eq!(
        structured::<ForecastRead>(&failed),
        Err(StructuredError::ToolError(
            "invalid arguments for tool `forecast`: missing field `city`".into()
        ))
    );
}

/// A template that is not one is the program's own mistake: registration panics with the
/// template and what is wrong, and the builder stays one chain.
#[test]
#[should_panic(expected = "Router::template: note:///{name: ")]
fn a_template_that_does_not_parse_panics_at_registration() {
    let _ = Router::new().typed_template(
        ResourceTemplate::new("note:///{name", "note"),
        |read, Note { name }| Ok(ReadResourceResult::text(read.uri, name)),
    );
}
