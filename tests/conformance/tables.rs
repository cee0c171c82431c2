//! The hand-written knowledge about the docs blocks, per revision: which blocks are skipped and
//! why, which responses answer which request where the page does not say it by position, what
//! type each bare object is, which spec examples break their own schema, and the crate defects
//! that need another way of checking an example.
//!
//! Every entry is used: the driver fails on an entry whose file is not in the index, or whose
//! case no longer arises (a defect fixed, an example that became valid).

#![allow(dead_code)]

use mcp_spec_types::MessageErrorKind;
use serde_json::Value;

/// A block that is not checked, with the reason.
pub struct Skip {
    pub file: &'static str,
    pub reason: &'static str,
}

/// A block that needs more than comment stripping to become JSON.
pub struct Normalize {
    pub file: &'static str,
    pub how: fn(&str) -> String,
    pub reason: &'static str,
}

/// A response or error whose request is not the nearest preceding request with the same id on
/// the same page.
pub struct Pair {
    pub file: &'static str,
    pub method: &'static str,
    pub reason: &'static str,
}

/// An error response (`at` = "") or its error object (`at` = "/error") that is also an instance
/// of a specific error definition (`HeaderMismatchError`, `InvalidParamsError`, …).
pub struct ErrorDefinition {
    pub file: &'static str,
    pub at: &'static str,
    pub definition: &'static str,
}

/// What a bare object (or a member of it, at `at`, a JSON pointer) is an instance of.
pub enum Target {
    /// A schema definition: its Rust type comes from the definition table
    /// (`tests/common/definitions.rs`).
    Def(&'static str),
    /// An inline subschema (no definition of its own), with the Rust type generated for it.
    Inline {
        /// A JSON pointer into schema.json.
        schema: &'static str,
        /// The Rust type, for messages.
        rust_name: &'static str,
        rust: fn(Value) -> Result<Value, String>,
    },
}

pub struct Bare {
    pub file: &'static str,
    pub at: &'static str,
    pub target: Target,
}

/// A spec example that its own schema rejects ("spec examples invalid per the schema"): the
/// validator must report `validator` (a substring of its message), and the crate, which follows
/// the schema, must refuse the message with an error of `kind` at `path`.
pub struct Invalid {
    pub file: &'static str,
    pub kind: MessageErrorKind,
    pub path: &'static str,
    pub validator: &'static str,
    pub reason: &'static str,
}

/// A crate defect that rejects a valid example through the dispatch API, where the check can be
/// expressed another way: the example's result is checked as `definition` instead. The dispatch
/// must still fail (when the defect is fixed, the entry must go).
pub struct ResultOverride {
    pub file: &'static str,
    pub definition: &'static str,
    pub defect: &'static str,
}

/// A known crate defect: a check of `file` (a docs block, or `Folder/file.json` for a schema
/// example) fails with a message containing `symptom`, for the reason `defect`, and no other way
/// of expressing the check exists. The failure must still reproduce (an entry whose symptom no
/// longer shows fails the suite), and no other failure of the file is excused.
pub struct Defect {
    pub file: &'static str,
    pub symptom: &'static str,
    pub defect: &'static str,
}

#[derive(Default)]
pub struct Tables {
    pub skips: Vec<Skip>,
    /// Skipped blocks that are strict JSON: payloads of other protocols (OAuth metadata), which no
    /// MCP type describes. Listed apart so that the suite can assert that no other strict JSON
    /// block is skipped.
    pub not_mcp: Vec<&'static str>,
    pub normalize: Vec<Normalize>,
    pub pairs: Vec<Pair>,
    pub error_definitions: Vec<ErrorDefinition>,
    pub bare: Vec<Bare>,
    pub invalid: Vec<Invalid>,
    pub result_overrides: Vec<ResultOverride>,
    pub defects: Vec<Defect>,
    /// Known defects met by schema examples (`Folder/file.json`).
    pub example_defects: Vec<Defect>,
}

macro_rules! inline {
    ($schema:literal, $ty:ident) => {
        Target::Inline {
            schema: $schema,
            rust_name: stringify!($ty),
            rust: |v| crate::revision::roundtrip_as::<$ty>(v),
        }
    };
}

fn bare(file: &'static str, at: &'static str, target: Target) -> Bare {
    Bare { file, at, target }
}

fn def(file: &'static str, at: &'static str, definition: &'static str) -> Bare {
    bare(file, at, Target::Def(definition))
}

fn skip(file: &'static str, reason: &'static str) -> Skip {
    Skip { file, reason }
}

fn pair(file: &'static str, method: &'static str, reason: &'static str) -> Pair {
    Pair {
        file,
        method,
        reason,
    }
}

const PAGINATION_PLACEHOLDER: &str =
    "`\"resources\": [...]` is a placeholder, not JSON; a complete \
     resources/list response stands on the resources page and is checked there";
const RESOURCE_NOT_FOUND: &str =
    "the Error Handling section shows -32002 (resource not found) without its request: it answers resources/read";
const UNKNOWN_TOOL: &str =
    "the Error Handling section shows the unknown-tool error without its request: it answers tools/call";
const TOOL_ERROR_RESULT: &str =
    "a tool result with isError, shown without its request: it answers tools/call";
const STRUCTURED_RESULT: &str =
    "the Output Schema section shows a tool result without its request: it answers tools/call";
const PAGINATION_NOTIFICATION: &str = "the page shows the paginated resources/list request \
     without an `id` (fixed upstream in 2025-06-18): a request method sent as a notification, \
     which the schema's ClientNotification union does not admit";

fn pagination_notification() -> Invalid {
    Invalid {
        file: "server__utilities__pagination__02.json",
        kind: MessageErrorKind::WrongKind,
        path: "",
        validator: "is not valid under any of the schemas listed in the 'anyOf' keyword",
        reason: PAGINATION_NOTIFICATION,
    }
}

/// An entry of `Tables::defects` or `Tables::example_defects`. None is listed today: the defects
/// these tables once excused (ElicitResult's scalar answers, boolean schemas and titled
/// multi-selects read as another arm of PrimitiveSchemaDefinition / EnumSchema) are fixed, and
/// their blocks and examples are checked like any other.
fn defect(file: &'static str, symptom: &'static str, defect: &'static str) -> Defect {
    Defect {
        file,
        symptom,
        defect,
    }
}

const META_REQUIRED: &str = "2026-07-28 requires `params._meta` on every client request \
     (RequestMetaObject, with `io.modelcontextprotocol/clientCapabilities` and \
     `io.modelcontextprotocol/protocolVersion` required); the page's example has no `_meta`";

fn meta_missing(file: &'static str) -> Invalid {
    Invalid {
        file,
        kind: MessageErrorKind::Params,
        path: "params",
        validator: "\"_meta\" is a required property",
        reason: META_REQUIRED,
    }
}

/// Capabilities fragments: `{"capabilities": {...}}` as the side's capabilities.
fn client_caps(file: &'static str) -> Bare {
    def(file, "/capabilities", "ClientCapabilities")
}
fn server_caps(file: &'static str) -> Bare {
    def(file, "/capabilities", "ServerCapabilities")
}

#[cfg(feature = "v2024_11_05")]
pub mod v2024_11_05 {
    use super::*;
    use mcp_spec_types::v2024_11_05::*;

    pub fn tables() -> Tables {
        let sampling = || {
            inline!(
                "/definitions/SamplingMessage/properties/content",
                SamplingMessageContent
            )
        };
        let prompt = || {
            inline!(
                "/definitions/PromptMessage/properties/content",
                PromptMessageContent
            )
        };
        let tool = || {
            inline!(
                "/definitions/CallToolResult/properties/content/items",
                CallToolResultContentItem
            )
        };
        let contents = || {
            inline!(
                "/definitions/ReadResourceResult/properties/contents/items",
                ReadResourceResultContentsItem
            )
        };
        Tables {
            skips: vec![skip(
                "server__utilities__pagination__01.json",
                PAGINATION_PLACEHOLDER,
            )],
            pairs: vec![
                pair(
                    "server__resources__16.json",
                    "resources/read",
                    RESOURCE_NOT_FOUND,
                ),
                pair("server__tools__10.json", "tools/call", UNKNOWN_TOOL),
                pair("server__tools__11.json", "tools/call", TOOL_ERROR_RESULT),
            ],
            bare: vec![
                client_caps("client__roots__01.json"),
                def("client__roots__05.json", "", "Root"),
                def("client__roots__06.json", "/0", "Root"),
                def("client__roots__06.json", "/1", "Root"),
                client_caps("client__sampling__01.json"),
                bare("client__sampling__04.json", "", sampling()),
                bare("client__sampling__05.json", "", sampling()),
                def("client__sampling__06.json", "", "ModelPreferences"),
                server_caps("server__prompts__01.json"),
                bare("server__prompts__07.json", "", prompt()),
                bare("server__prompts__08.json", "", prompt()),
                bare("server__prompts__09.json", "", prompt()),
                def("server__prompts__09.json", "", "EmbeddedResource"),
                server_caps("server__resources__01.json"),
                server_caps("server__resources__02.json"),
                server_caps("server__resources__03.json"),
                server_caps("server__resources__04.json"),
                bare("server__resources__14.json", "", contents()),
                def("server__resources__14.json", "", "TextResourceContents"),
                bare("server__resources__15.json", "", contents()),
                def("server__resources__15.json", "", "BlobResourceContents"),
                server_caps("server__tools__01.json"),
                bare("server__tools__07.json", "", tool()),
                def("server__tools__07.json", "", "TextContent"),
                bare("server__tools__08.json", "", tool()),
                def("server__tools__08.json", "", "ImageContent"),
                bare("server__tools__09.json", "", tool()),
                server_caps("server__utilities__logging__01.json"),
            ],
            invalid: vec![pagination_notification()],
            ..Tables::default()
        }
    }
}

#[cfg(feature = "v2025_03_26")]
pub mod v2025_03_26 {
    use super::*;
    use mcp_spec_types::v2025_03_26::*;

    pub fn tables() -> Tables {
        let sampling = || {
            inline!(
                "/definitions/SamplingMessage/properties/content",
                SamplingMessageContent
            )
        };
        let prompt = || {
            inline!(
                "/definitions/PromptMessage/properties/content",
                PromptMessageContent
            )
        };
        let tool = || {
            inline!(
                "/definitions/CallToolResult/properties/content/items",
                CallToolResultContentItem
            )
        };
        let contents = || {
            inline!(
                "/definitions/ReadResourceResult/properties/contents/items",
                ReadResourceResultContentsItem
            )
        };
        Tables {
            skips: vec![skip(
                "server__utilities__pagination__01.json",
                PAGINATION_PLACEHOLDER,
            )],
            pairs: vec![
                pair(
                    "server__resources__16.json",
                    "resources/read",
                    RESOURCE_NOT_FOUND,
                ),
                pair("server__tools__11.json", "tools/call", UNKNOWN_TOOL),
                pair("server__tools__12.json", "tools/call", TOOL_ERROR_RESULT),
            ],
            bare: vec![
                client_caps("client__roots__01.json"),
                def("client__roots__05.json", "", "Root"),
                def("client__roots__06.json", "/0", "Root"),
                def("client__roots__06.json", "/1", "Root"),
                client_caps("client__sampling__01.json"),
                bare("client__sampling__04.json", "", sampling()),
                bare("client__sampling__05.json", "", sampling()),
                bare("client__sampling__06.json", "", sampling()),
                def("client__sampling__06.json", "", "AudioContent"),
                def("client__sampling__07.json", "", "ModelPreferences"),
                server_caps("server__prompts__01.json"),
                bare("server__prompts__07.json", "", prompt()),
                bare("server__prompts__08.json", "", prompt()),
                bare("server__prompts__09.json", "", prompt()),
                bare("server__prompts__10.json", "", prompt()),
                server_caps("server__resources__01.json"),
                server_caps("server__resources__02.json"),
                server_caps("server__resources__03.json"),
                server_caps("server__resources__04.json"),
                bare("server__resources__14.json", "", contents()),
                def("server__resources__14.json", "", "TextResourceContents"),
                bare("server__resources__15.json", "", contents()),
                def("server__resources__15.json", "", "BlobResourceContents"),
                server_caps("server__tools__01.json"),
                bare("server__tools__07.json", "", tool()),
                bare("server__tools__08.json", "", tool()),
                bare("server__tools__09.json", "", tool()),
                bare("server__tools__10.json", "", tool()),
                def("server__tools__10.json", "", "EmbeddedResource"),
                server_caps("server__utilities__completion__01.json"),
                server_caps("server__utilities__logging__01.json"),
            ],
            invalid: vec![pagination_notification()],
            ..Tables::default()
        }
    }
}

/// `"requestedSchema": {...}`: a member, not a value; wrapped in braces it is an object whose
/// one member is checked.
fn wrap_member(text: &str) -> String {
    format!("{{{text}}}")
}

#[cfg(feature = "v2025_06_18")]
pub mod v2025_06_18 {
    use super::*;
    use mcp_spec_types::v2025_06_18::*;

    pub fn tables() -> Tables {
        let sampling = || {
            inline!(
                "/definitions/SamplingMessage/properties/content",
                SamplingMessageContent
            )
        };
        let contents = || {
            inline!(
                "/definitions/ReadResourceResult/properties/contents/items",
                ReadResourceResultContentsItem
            )
        };
        let block = |file| def(file, "", "ContentBlock");
        Tables {
            skips: vec![
                skip(
                    "server__utilities__pagination__01.json",
                    PAGINATION_PLACEHOLDER,
                ),
                skip(
                    "server__tools__08.json",
                    "upstream typo: no comma after `\"mimeType\": \"image/png\"`, so the block is \
                     not JSON; the same image content, without the typo, is server__tools__08 of \
                     2025-11-25",
                ),
            ],
            normalize: vec![Normalize {
                file: "client__elicitation__08.json",
                how: wrap_member,
                reason: "the block is the member `\"requestedSchema\": {...}`, not a value: \
                         wrapped in braces, the member's value is checked",
            }],
            pairs: vec![
                pair(
                    "server__resources__17.json",
                    "resources/read",
                    RESOURCE_NOT_FOUND,
                ),
                pair("server__tools__13.json", "tools/call", STRUCTURED_RESULT),
                pair("server__tools__14.json", "tools/call", UNKNOWN_TOOL),
                pair("server__tools__15.json", "tools/call", TOOL_ERROR_RESULT),
            ],
            bare: vec![
                client_caps("client__elicitation__01.json"),
                bare(
                    "client__elicitation__08.json",
                    "/requestedSchema",
                    inline!(
                        "/definitions/ElicitRequest/properties/params/properties/requestedSchema",
                        ElicitRequestParamsRequestedSchema
                    ),
                ),
                def("client__elicitation__09.json", "", "StringSchema"),
                def(
                    "client__elicitation__09.json",
                    "",
                    "PrimitiveSchemaDefinition",
                ),
                def("client__elicitation__10.json", "", "NumberSchema"),
                def(
                    "client__elicitation__10.json",
                    "",
                    "PrimitiveSchemaDefinition",
                ),
                def("client__elicitation__11.json", "", "BooleanSchema"),
                def(
                    "client__elicitation__11.json",
                    "",
                    "PrimitiveSchemaDefinition",
                ),
                def("client__elicitation__12.json", "", "EnumSchema"),
                def(
                    "client__elicitation__12.json",
                    "",
                    "PrimitiveSchemaDefinition",
                ),
                client_caps("client__roots__01.json"),
                def("client__roots__05.json", "", "Root"),
                def("client__roots__06.json", "/0", "Root"),
                def("client__roots__06.json", "/1", "Root"),
                client_caps("client__sampling__01.json"),
                bare("client__sampling__04.json", "", sampling()),
                bare("client__sampling__05.json", "", sampling()),
                bare("client__sampling__06.json", "", sampling()),
                def("client__sampling__07.json", "", "ModelPreferences"),
                server_caps("server__prompts__01.json"),
                block("server__prompts__07.json"),
                block("server__prompts__08.json"),
                block("server__prompts__09.json"),
                block("server__prompts__10.json"),
                server_caps("server__resources__01.json"),
                server_caps("server__resources__02.json"),
                server_caps("server__resources__03.json"),
                server_caps("server__resources__04.json"),
                bare("server__resources__14.json", "", contents()),
                def("server__resources__14.json", "", "TextResourceContents"),
                bare("server__resources__15.json", "", contents()),
                def("server__resources__15.json", "", "BlobResourceContents"),
                def("server__resources__16.json", "", "Resource"),
                server_caps("server__tools__01.json"),
                block("server__tools__07.json"),
                block("server__tools__09.json"),
                block("server__tools__10.json"),
                def("server__tools__10.json", "", "ResourceLink"),
                block("server__tools__11.json"),
                def("server__tools__12.json", "", "Tool"),
                server_caps("server__utilities__completion__01.json"),
                server_caps("server__utilities__logging__01.json"),
            ],
            ..Tables::default()
        }
    }
}

const OAUTH_CLIENT_METADATA: &str = "an OAuth client metadata document (RFC 7591 fields, served \
     at the client_id URL): not an MCP message, and no MCP schema definition describes it";
const OAUTH_SERVER_METADATA: &str = "a member of OAuth authorization-server metadata (RFC 8414): \
     not an MCP message, and no MCP schema definition describes it";

#[cfg(feature = "v2025_11_25")]
pub mod v2025_11_25 {
    use super::*;
    use mcp_spec_types::v2025_11_25::*;

    pub fn tables() -> Tables {
        let contents = || {
            inline!(
                "/$defs/ReadResourceResult/properties/contents/items",
                ReadResourceResultContentsItem
            )
        };
        let input_schema = || inline!("/$defs/Tool/properties/inputSchema", ToolInputSchema);
        let block = |file| def(file, "", "ContentBlock");
        let primitive = |file, definition| {
            vec![
                def(file, "", definition),
                def(file, "", "PrimitiveSchemaDefinition"),
            ]
        };
        let mut bare_entries = vec![
            // The JSON Schema usage section: the schemas a tool's inputSchema holds.
            bare("basic__index__01.json", "", input_schema()),
            bare("basic__index__02.json", "", input_schema()),
            server_caps("basic__utilities__tasks__01.json"),
            client_caps("basic__utilities__tasks__02.json"),
            def(
                "basic__utilities__tasks__14.json",
                "",
                "TaskAugmentedRequestParams",
            ),
            def("basic__utilities__tasks__14.json", "/task", "TaskMetadata"),
            def(
                "basic__utilities__tasks__15.json",
                "/io.modelcontextprotocol~1related-task",
                "RelatedTaskMetadata",
            ),
            client_caps("client__elicitation__01.json"),
            client_caps("client__elicitation__02.json"),
            client_caps("client__roots__01.json"),
            def("client__roots__05.json", "", "Root"),
            def("client__roots__06.json", "/0", "Root"),
            def("client__roots__06.json", "/1", "Root"),
            client_caps("client__sampling__01.json"),
            client_caps("client__sampling__02.json"),
            client_caps("client__sampling__03.json"),
            def("client__sampling__10.json", "", "SamplingMessage"),
            def("client__sampling__11.json", "", "SamplingMessage"),
            // The page calls this one invalid (mixed tool results and text), a rule the schema
            // does not encode: schema and crate both accept it.
            def("client__sampling__12.json", "", "SamplingMessage"),
            def(
                "client__sampling__13.json",
                "",
                "SamplingMessageContentBlock",
            ),
            def(
                "client__sampling__14.json",
                "",
                "SamplingMessageContentBlock",
            ),
            def(
                "client__sampling__15.json",
                "",
                "SamplingMessageContentBlock",
            ),
            def("client__sampling__16.json", "", "ModelPreferences"),
            server_caps("server__prompts__01.json"),
            block("server__prompts__07.json"),
            block("server__prompts__08.json"),
            block("server__prompts__09.json"),
            block("server__prompts__10.json"),
            server_caps("server__resources__01.json"),
            server_caps("server__resources__02.json"),
            server_caps("server__resources__03.json"),
            server_caps("server__resources__04.json"),
            bare("server__resources__14.json", "", contents()),
            def("server__resources__14.json", "", "TextResourceContents"),
            bare("server__resources__15.json", "", contents()),
            def("server__resources__15.json", "", "BlobResourceContents"),
            def("server__resources__16.json", "", "Resource"),
            server_caps("server__tools__01.json"),
            block("server__tools__07.json"),
            block("server__tools__08.json"),
            block("server__tools__09.json"),
            block("server__tools__10.json"),
            block("server__tools__11.json"),
            def("server__tools__12.json", "", "Tool"),
            def("server__tools__14.json", "", "Tool"),
            def("server__tools__15.json", "", "Tool"),
            def("server__tools__16.json", "", "Tool"),
            server_caps("server__utilities__completion__01.json"),
            server_caps("server__utilities__logging__01.json"),
        ];
        bare_entries.extend(primitive("client__elicitation__03.json", "StringSchema"));
        bare_entries.extend(primitive("client__elicitation__04.json", "NumberSchema"));
        bare_entries.extend(primitive("client__elicitation__05.json", "BooleanSchema"));
        bare_entries.extend(primitive(
            "client__elicitation__06.json",
            "UntitledSingleSelectEnumSchema",
        ));
        bare_entries.extend(primitive(
            "client__elicitation__07.json",
            "TitledSingleSelectEnumSchema",
        ));
        bare_entries.extend(primitive(
            "client__elicitation__08.json",
            "UntitledMultiSelectEnumSchema",
        ));
        bare_entries.extend(primitive(
            "client__elicitation__09.json",
            "TitledMultiSelectEnumSchema",
        ));
        Tables {
            skips: vec![
                skip("basic__authorization__01.json", OAUTH_CLIENT_METADATA),
                skip("basic__authorization__02.json", OAUTH_SERVER_METADATA),
                skip(
                    "server__utilities__pagination__01.json",
                    PAGINATION_PLACEHOLDER,
                ),
            ],
            not_mcp: vec![
                "basic__authorization__01.json",
                "basic__authorization__02.json",
            ],
            pairs: vec![
                pair(
                    "basic__utilities__tasks__17.json",
                    "tasks/get",
                    "Protocol Errors example (\"Failed to retrieve task: Task not found\") shown \
                     without its request: it answers tasks/get",
                ),
                pair(
                    "basic__utilities__tasks__18.json",
                    "tasks/get",
                    "Protocol Errors example (\"Failed to retrieve task: Task has expired\") shown \
                     without its request: it answers tasks/get",
                ),
                pair(
                    "basic__utilities__tasks__19.json",
                    "tasks/cancel",
                    "Protocol Errors example (\"Cannot cancel task\") shown without its request: \
                     it answers tasks/cancel",
                ),
                pair(
                    "basic__utilities__tasks__20.json",
                    "tasks/get",
                    "Task Execution Errors: the result is a Task (taskId, status \"failed\", \
                     statusMessage), what tasks/get returns; its id 4 only coincides with the \
                     tasks/result request of an earlier section",
                ),
                pair(
                    "client__sampling__17.json",
                    "sampling/createMessage",
                    "the Error Handling section shows the user-rejection error without its \
                     request: it answers sampling/createMessage",
                ),
                pair(
                    "client__sampling__18.json",
                    "sampling/createMessage",
                    "the Error Handling section shows the missing-tool-result error without its \
                     request: it answers sampling/createMessage",
                ),
                pair("server__resources__17.json", "resources/read", RESOURCE_NOT_FOUND),
                pair("server__tools__13.json", "tools/call", STRUCTURED_RESULT),
                pair("server__tools__17.json", "tools/call", UNKNOWN_TOOL),
                pair("server__tools__18.json", "tools/call", TOOL_ERROR_RESULT),
            ],
            error_definitions: vec![ErrorDefinition {
                file: "client__elicitation__17.json",
                at: "",
                definition: "URLElicitationRequiredError",
            }],
            bare: bare_entries,
            result_overrides: vec![ResultOverride {
                file: "basic__utilities__tasks__04.json",
                definition: "CreateTaskResult",
                defect:
                    "ClientCallResult::parse(\"tools/call\", ..) reads every tools/call result \
                         as CallToolResult, but a task-augmented tools/call (params.task set, \
                         basic__utilities__tasks__03) is answered with CreateTaskResult \
                         ({\"task\": {...}}), which the schema's ServerResult admits: the dispatch \
                         rejects the valid response (CallToolResult's `content` is missing)",
            }],
            ..Tables::default()
        }
    }
}

macro_rules! tables_2026 {
    ($feature:literal, $module:ident) => {
        #[cfg(feature = $feature)]
        pub mod $module {
            use super::*;
            use mcp_spec_types::$module::*;

            pub fn tables() -> Tables {
                let contents = || inline!("/$defs/ReadResourceResult/properties/contents/items", ReadResourceResultContentsItem);
                let input_schema = || inline!("/$defs/Tool/properties/inputSchema", ToolInputSchema);
                let block = |file| def(file, "", "ContentBlock");
                let both = |file, definition, union| vec![def(file, "", definition), def(file, "", union)];
                // `{"_meta": {"io.modelcontextprotocol/clientCapabilities": {...}}}`: the fragment
                // shows the one `_meta` member under discussion (a whole RequestMetaObject also
                // requires `io.modelcontextprotocol/protocolVersion`), so the member is checked.
                let meta = |file| {
                    vec![def(file, "/_meta/io.modelcontextprotocol~1clientCapabilities", "ClientCapabilities")]
                };
                let mut b = vec![
                    bare("basic__index__01.json", "", input_schema()),
                    bare("basic__index__02.json", "", input_schema()),
                    def("basic__patterns__mrtr__01.json", "", "InputRequests"),
                    def("basic__patterns__mrtr__02.json", "", "InputResponses"),
                    def("basic__transports__streamable-http__01.json", "", "Tool"),
                    client_caps("basic__versioning__02.json"),
                    server_caps("basic__versioning__03.json"),
                    def("client__roots__04.json", "", "Root"),
                    def("client__roots__05.json", "/0", "Root"),
                    def("client__roots__05.json", "/1", "Root"),
                    def("client__sampling__10.json", "", "SamplingMessage"),
                    def("client__sampling__11.json", "", "SamplingMessage"),
                    // Called invalid by the page (mixed tool results and text), a rule the schema
                    // does not encode: schema and crate both accept it.
                    def("client__sampling__12.json", "", "SamplingMessage"),
                    def("client__sampling__13.json", "", "SamplingMessageContentBlock"),
                    def("client__sampling__14.json", "", "SamplingMessageContentBlock"),
                    def("client__sampling__15.json", "", "SamplingMessageContentBlock"),
                    def("client__sampling__16.json", "", "ModelPreferences"),
                    server_caps("server__prompts__01.json"),
                    block("server__prompts__07.json"),
                    block("server__prompts__08.json"),
                    block("server__prompts__09.json"),
                    block("server__prompts__10.json"),
                    block("server__prompts__11.json"),
                    server_caps("server__resources__01.json"),
                    server_caps("server__resources__02.json"),
                    bare("server__resources__11.json", "", contents()),
                    def("server__resources__11.json", "", "TextResourceContents"),
                    bare("server__resources__12.json", "", contents()),
                    def("server__resources__12.json", "", "BlobResourceContents"),
                    def("server__resources__13.json", "", "Resource"),
                    server_caps("server__tools__01.json"),
                    def("server__tools__09.json", "", "Tool"),
                    block("server__tools__10.json"),
                    block("server__tools__11.json"),
                    block("server__tools__12.json"),
                    block("server__tools__13.json"),
                    block("server__tools__14.json"),
                    def("server__tools__15.json", "", "Tool"),
                    def("server__tools__17.json", "", "Tool"),
                    def("server__tools__19.json", "", "Tool"),
                    def("server__tools__20.json", "", "Tool"),
                    def("server__tools__21.json", "", "Tool"),
                    server_caps("server__utilities__completion__01.json"),
                    server_caps("server__utilities__logging__01.json"),
                ];
                for file in [
                    "client__elicitation__01.json",
                    "client__elicitation__02.json",
                    "client__roots__01.json",
                    "client__sampling__01.json",
                    "client__sampling__02.json",
                    "client__sampling__03.json",
                ] {
                    b.extend(meta(file));
                }
                for (file, definition) in [
                    ("client__elicitation__03.json", "StringSchema"),
                    ("client__elicitation__04.json", "NumberSchema"),
                    ("client__elicitation__05.json", "BooleanSchema"),
                    ("client__elicitation__06.json", "UntitledSingleSelectEnumSchema"),
                    ("client__elicitation__07.json", "TitledSingleSelectEnumSchema"),
                    ("client__elicitation__08.json", "UntitledMultiSelectEnumSchema"),
                    ("client__elicitation__09.json", "TitledMultiSelectEnumSchema"),
                ] {
                    b.extend(both(file, definition, "PrimitiveSchemaDefinition"));
                }
                // Requests delivered inside InputRequiredResult.inputRequests, and the client's
                // results returned inside inputResponses.
                for (file, definition) in [
                    ("client__elicitation__10.json", "ElicitRequest"),
                    ("client__elicitation__12.json", "ElicitRequest"),
                    ("client__elicitation__14.json", "ElicitRequest"),
                    ("client__roots__02.json", "ListRootsRequest"),
                    ("client__sampling__04.json", "CreateMessageRequest"),
                    ("client__sampling__06.json", "CreateMessageRequest"),
                    ("client__sampling__08.json", "CreateMessageRequest"),
                ] {
                    b.extend(both(file, definition, "InputRequest"));
                }
                for (file, definition) in [
                    ("client__elicitation__11.json", "ElicitResult"),
                    ("client__elicitation__13.json", "ElicitResult"),
                    ("client__elicitation__15.json", "ElicitResult"),
                    ("client__elicitation__16.json", "ElicitResult"),
                    ("client__roots__03.json", "ListRootsResult"),
                    ("client__sampling__05.json", "CreateMessageResult"),
                    ("client__sampling__07.json", "CreateMessageResult"),
                    ("client__sampling__09.json", "CreateMessageResult"),
                ] {
                    b.extend(both(file, definition, "InputResponse"));
                }
                Tables {
                    skips: vec![
                        skip("basic__authorization__client-registration__01.json", OAUTH_CLIENT_METADATA),
                        skip("basic__authorization__client-registration__02.json", OAUTH_SERVER_METADATA),
                        skip(
                            "server__tools__22.json",
                            "several values in one block (two tools/call params and a result, \
                             labelled by `// →` comments) with a `\"sku\": \"...\"` placeholder: \
                             not one JSON value",
                        ),
                        skip("server__utilities__pagination__01.json", PAGINATION_PLACEHOLDER),
                    ],
                    not_mcp: vec![
                        "basic__authorization__client-registration__01.json",
                        "basic__authorization__client-registration__02.json",
                    ],
                    pairs: vec![
                        pair(
                            "basic__patterns__mrtr__03.json",
                            "tools/call",
                            "the InputRequiredResult section shows the response without a \
                             request; tools/call is one of the requests whose response admits \
                             InputRequiredResult (CallToolResultResponse) and the page's example",
                        ),
                        pair(
                            "basic__transports__streamable-http__02.json",
                            "tools/call",
                            "the header-mismatch example is about the Mcp-Name header of a \
                             tools/call request; the request is not shown",
                        ),
                        pair(
                            "basic__versioning__01.json",
                            "server/discover",
                            "an unsupported-protocol-version error answers whatever request \
                             carried the version; none is shown, server/discover stands for it \
                             (the error object does not depend on the method)",
                        ),
                        pair("server__resources__14.json", "resources/read", RESOURCE_NOT_FOUND),
                        pair("server__tools__16.json", "tools/call", STRUCTURED_RESULT),
                        pair("server__tools__18.json", "tools/call", STRUCTURED_RESULT),
                        pair("server__tools__24.json", "tools/call", TOOL_ERROR_RESULT),
                    ],
                    error_definitions: vec![
                        ErrorDefinition {
                            file: "basic__transports__streamable-http__02.json",
                            at: "",
                            definition: "HeaderMismatchError",
                        },
                        ErrorDefinition {
                            file: "basic__versioning__01.json",
                            at: "",
                            definition: "UnsupportedProtocolVersionError",
                        },
                        ErrorDefinition {
                            file: "server__tools__23.json",
                            at: "/error",
                            definition: "InvalidParamsError",
                        },
                    ],
                    bare: b,
                    invalid: vec![
                        Invalid {
                            file: "basic__index__03.json",
                            kind: MessageErrorKind::Params,
                            path: "params._meta",
                            validator: "\"io.modelcontextprotocol/clientCapabilities\" is a required property",
                            reason: "the `_meta` example carries only `traceparent`; 2026-07-28's \
                                     RequestMetaObject requires `io.modelcontextprotocol/clientCapabilities` \
                                     and `io.modelcontextprotocol/protocolVersion` in every request's `_meta`",
                        },
                        meta_missing("server__prompts__02.json"),
                        meta_missing("server__prompts__04.json"),
                        meta_missing("server__resources__03.json"),
                        meta_missing("server__resources__05.json"),
                        meta_missing("server__resources__07.json"),
                        meta_missing("server__tools__02.json"),
                        meta_missing("server__tools__04.json"),
                        meta_missing("server__tools__07.json"),
                        meta_missing("server__utilities__completion__02.json"),
                        meta_missing("server__utilities__completion__04.json"),
                        meta_missing("server__utilities__pagination__02.json"),
                    ],
                    ..Tables::default()
                }
            }
        }
    };
}

tables_2026!("v2026_07_28", v2026_07_28);
tables_2026!("unstable-draft", draft);
