//! For every revision, the Rust type that holds each schema definition, and the arms of every
//! union with the enum variant that holds each.
//!
//! Written once by a script from the schema files and the generated code, then committed as
//! ordinary source: the tests never read a list the generator wrote, so a generator change that
//! renames, drops or reorders a type breaks a test instead of silently moving the table.
//! Naming rules: typify's PascalCase of the definition, `Jsonrpc` spelled `JsonRpc`,
//! `Result` → `BaseResult`, `Error` → `ErrorObject`; `RequestId`, `ProgressToken`, `Cursor` and
//! the JSON definitions are the crate's and serde_json's own types.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::fmt::Debug;

/// One arm of a union: its position in the schema's `anyOf`, the definition it references
/// (`None` for an inline arm), the enum variant that holds it, and that variant's type (`None`
/// for an inline arm, whose type has no name worth checking).
#[derive(Debug, Clone, Copy)]
pub struct Arm {
    pub index: usize,
    pub definition: Option<&'static str>,
    pub variant: &'static str,
    pub rust: Option<&'static str>,
}

/// A union of the schema: a definition, or an inline `anyOf` inside one, at `pointer`.
#[derive(Debug, Clone, Copy)]
pub struct Union {
    pub pointer: &'static str,
    pub rust: &'static str,
    pub arms: &'static [Arm],
}

/// Deserializes `value` as `T` and serializes it back. The error names the JSON path of the
/// failure; the `Debug` rendering is returned for checks on which variant was chosen.
pub fn roundtrip_as<T: DeserializeOwned + Serialize + Debug>(
    value: Value,
) -> Result<(Value, String), String> {
    let parsed: T = serde_path_to_error::deserialize(value)
        .map_err(|e| format!("at {}: {}", e.path(), e.inner()))?;
    let back = serde_json::to_value(&parsed).map_err(|e| format!("serializing: {e}"))?;
    Ok((back, format!("{parsed:?}")))
}

/// Reads `text` as `T` with the crate's JSON reader alone and with serde_json: both must accept
/// it and read equal values (same `Debug`, same JSON written back), or both refuse it.
pub fn reads_alike<T: DeserializeOwned + Serialize + Debug>(text: &str) -> Result<(), String> {
    let theirs = serde_json::from_str::<T>(text);
    let ours = mcp_spec_types::json::from_str_strict::<T>(text).ok();
    match (theirs, ours) {
        (Ok(theirs), Some(ours)) => {
            let (theirs_debug, ours_debug) = (format!("{theirs:?}"), format!("{ours:?}"));
            if theirs_debug != ours_debug {
                return Err(format!(
                    "read differently:\n  serde_json: {theirs_debug}\n  crate: {ours_debug}"
                ));
            }
            let written = |value: &T| serde_json::to_string(value).map_err(|e| e.to_string());
            if written(&theirs)? != written(&ours)? {
                return Err("written back differently".to_owned());
            }
            Ok(())
        }
        (Ok(_), None) => Err("the crate's reader stopped on text serde_json reads".to_owned()),
        (Err(e), Some(ours)) => Err(format!(
            "the crate's reader read text serde_json refuses ({e}): {ours:?}"
        )),
        (Err(_), None) => explained_alike::<T>(text),
    }
}

/// A text `T` refuses: the crate's explained read (what a message's error shows: the words
/// and the JSON path, from a second read by the crate's reader) says what serde_json's read of
/// `T` says, at the path its failing read leaves (`from_str_at`, which has serde_json read
/// the text again).
pub fn explained_alike<T: DeserializeOwned>(text: &str) -> Result<(), String> {
    use mcp_spec_types::__private::{from_str_at, from_str_explained, strip_position};
    let Err(explained) = from_str_explained::<T>(text) else {
        return Err("the explained read read text serde_json refuses".to_owned());
    };
    let Err((error, path)) = from_str_at::<T>(text) else {
        return Err("from_str_at read text serde_json refuses".to_owned());
    };
    let theirs = (strip_position(&error.to_string()), path);
    let ours = (explained.message, explained.path);
    if ours != theirs {
        return Err(format!(
            "explained differently:\n  serde_json: {theirs:?}\n  crate: {ours:?}"
        ));
    }
    Ok(())
}

/// Picks, for a concrete type, the check of a generated object type (`Probe<T>`, when `T`
/// implements the runtime's `Object`) or none (`&Probe<T>`, for unions, enums and shared
/// types): called on `&Probe<T>`, method lookup takes the impl whose receiver matches as it
/// is before the one that needs another reference.
pub struct Probe<T>(pub std::marker::PhantomData<T>);

/// The check of a generated object type: see [`ObjectProbe::declared_in_extra`].
pub trait ObjectProbe {
    /// Reads `value`, then puts each of `names` into the value's `extra`: writing it must fail,
    /// naming the member, rather than write the member twice. Returns how many names were put
    /// (a name whose value `extra`'s type cannot hold is not), or the first failure.
    fn declared_in_extra(&self, value: Value, names: &[String]) -> Option<Result<usize, String>>;
}

impl<T: mcp_spec_types::__private::Object + DeserializeOwned + Serialize> ObjectProbe for Probe<T> {
    fn declared_in_extra(&self, value: Value, names: &[String]) -> Option<Result<usize, String>> {
        let check = || -> Result<usize, String> {
            let read: T = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
            let written = serde_json::to_string(&read).map_err(|e| e.to_string())?;
            let mut put = 0;
            for name in names {
                let mut copy: T = serde_json::from_str(&written).map_err(|e| e.to_string())?;
                let candidates = [Value::Null, Value::from("x"), serde_json::json!({})];
                if !candidates
                    .into_iter()
                    .any(|v| copy.put_extra(name.clone(), v).is_ok())
                {
                    continue;
                }
                put += 1;
                match serde_json::to_string(&copy) {
                    Ok(text) => return Err(format!("`{name}` in extra was written: {text}")),
                    Err(e) if !e.to_string().contains(&format!("`{name}`")) => {
                        return Err(format!(
                            "`{name}` in extra: the error does not name it: {e}"
                        ))
                    }
                    Err(_) => {}
                }
            }
            Ok(put)
        };
        Some(check())
    }
}

/// Whether a type is a generated object type (`Probe<T>` with `T: Object`).
pub trait IsObject {
    /// `true`: a generated object type.
    fn is_object(&self) -> bool {
        true
    }
}

impl<T: mcp_spec_types::__private::Object> IsObject for Probe<T> {}

/// The fallback of [`IsObject`]: not a generated object type.
pub trait IsNotObject {
    /// `false`: not a generated object type.
    fn is_object(&self) -> bool {
        false
    }
}

impl<T> IsNotObject for &Probe<T> {}

/// Picks `T::NEW_ARGUMENTS` when `T` has constructors, `None` otherwise.
pub struct ArgumentsProbe<T>(pub std::marker::PhantomData<T>);

/// `T::NEW_ARGUMENTS`, when `T` has constructors.
pub trait Arguments {
    /// The members `T::new` takes.
    fn arguments(&self) -> Option<&'static [&'static str]>;
}

impl<T: mcp_spec_types::__private::Constructed> Arguments for ArgumentsProbe<T> {
    fn arguments(&self) -> Option<&'static [&'static str]> {
        Some(T::NEW_ARGUMENTS)
    }
}

/// The fallback of [`Arguments`]: no constructor.
pub trait NoArguments {
    /// No constructor.
    fn arguments(&self) -> Option<&'static [&'static str]> {
        None
    }
}

impl<T> NoArguments for &ArgumentsProbe<T> {}

/// The fallback of [`ObjectProbe`]: not a generated object type.
pub trait OtherProbe {
    /// Nothing to check.
    fn declared_in_extra(&self, _value: Value, _names: &[String]) -> Option<Result<usize, String>> {
        None
    }
}

impl<T> OtherProbe for &Probe<T> {}

// Unused in a build with no revision enabled.
#[allow(unused_macros)]
macro_rules! table {
    (
        $module:ident;
        definitions { $($name:literal => $ty:ty,)* }
        unions { $($pointer:literal => $union:ident [
            $(($index:literal, $arm:expr, $variant:literal, $rust:expr),)*
        ],)* }
    ) => {
        pub mod $module {
            use super::{roundtrip_as, Arm, Union};
            #[allow(unused_imports)]
            use mcp_spec_types::$module::*;

            /// Every definition of the revision's schema, in the table.
            pub const NAMES: &[&str] = &[$($name),*];

            /// Every union of the revision's schema, by JSON pointer.
            pub const UNIONS: &[Union] = &[$(Union {
                pointer: $pointer,
                rust: stringify!($union),
                arms: &[$(Arm { index: $index, definition: $arm, variant: $variant, rust: $rust }),*],
            }),*];

            /// `None` when the table has no such definition; otherwise the deserialize error
            /// (with its JSON path) or the value serialized back.
            pub fn roundtrip(
                definition: &str,
                value: ::serde_json::Value,
            ) -> ::std::option::Option<::std::result::Result<::serde_json::Value, ::std::string::String>> {
                parse(definition, value).map(|r| r.map(|(value, _)| value))
            }

            /// As [`roundtrip`], with the `Debug` rendering of the parsed value.
            pub fn parse(
                definition: &str,
                value: ::serde_json::Value,
            ) -> ::std::option::Option<::std::result::Result<(::serde_json::Value, ::std::string::String), ::std::string::String>> {
                ::std::option::Option::Some(match definition {
                    $($name => roundtrip_as::<$ty>(value),)*
                    _ => return ::std::option::Option::None,
                })
            }

            /// `None` when the table has no such definition; otherwise whether the crate's JSON
            /// reader and serde_json read `text` alike as the definition's type.
            pub fn reads_alike(
                definition: &str,
                text: &str,
            ) -> ::std::option::Option<::std::result::Result<(), ::std::string::String>> {
                ::std::option::Option::Some(match definition {
                    $($name => super::reads_alike::<$ty>(text),)*
                    _ => return ::std::option::Option::None,
                })
            }

            /// `None` when the table has no such definition or its type is not a generated
            /// object type; otherwise [`super::ObjectProbe::declared_in_extra`] on it.
            pub fn declared_in_extra(
                definition: &str,
                value: ::serde_json::Value,
                names: &[::std::string::String],
            ) -> ::std::option::Option<::std::result::Result<usize, ::std::string::String>> {
                #[allow(unused_imports)]
                use super::{ObjectProbe, OtherProbe, Probe};
                match definition {
                    $($name => (&Probe::<$ty>(::std::marker::PhantomData)).declared_in_extra(value, names),)*
                    _ => ::std::option::Option::None,
                }
            }

            /// `None` when the table has no such definition or its type is not a generated
            /// object type; otherwise the members its `new` takes (`None` inside: no `new`).
            pub fn new_arguments(
                definition: &str,
            ) -> ::std::option::Option<::std::option::Option<&'static [&'static str]>> {
                #[allow(unused_imports)]
                use super::{Arguments, ArgumentsProbe, IsNotObject, IsObject, NoArguments, Probe};
                match definition {
                    $($name => (&Probe::<$ty>(::std::marker::PhantomData)).is_object().then(|| {
                        (&ArgumentsProbe::<$ty>(::std::marker::PhantomData)).arguments()
                    }),)*
                    _ => ::std::option::Option::None,
                }
            }

            /// As [`parse`], for the union at `pointer` (one of [`UNIONS`]).
            pub fn parse_union(
                pointer: &str,
                value: ::serde_json::Value,
            ) -> ::std::option::Option<::std::result::Result<(::serde_json::Value, ::std::string::String), ::std::string::String>> {
                ::std::option::Option::Some(match pointer {
                    $($pointer => roundtrip_as::<$union>(value),)*
                    _ => return ::std::option::Option::None,
                })
            }
        }
    };
}

#[cfg(feature = "v2024_11_05")]
table! {
    v2024_11_05;
    definitions {
        "Annotated" => Annotated,
        "BlobResourceContents" => BlobResourceContents,
        "CallToolRequest" => CallToolRequest,
        "CallToolResult" => CallToolResult,
        "CancelledNotification" => CancelledNotification,
        "ClientCapabilities" => ClientCapabilities,
        "ClientNotification" => ClientNotification,
        "ClientRequest" => ClientRequest,
        "ClientResult" => ClientResult,
        "CompleteRequest" => CompleteRequest,
        "CompleteResult" => CompleteResult,
        "CreateMessageRequest" => CreateMessageRequest,
        "CreateMessageResult" => CreateMessageResult,
        "Cursor" => ::mcp_spec_types::Cursor,
        "EmbeddedResource" => EmbeddedResource,
        "EmptyResult" => EmptyResult,
        "GetPromptRequest" => GetPromptRequest,
        "GetPromptResult" => GetPromptResult,
        "ImageContent" => ImageContent,
        "Implementation" => Implementation,
        "InitializeRequest" => InitializeRequest,
        "InitializeResult" => InitializeResult,
        "InitializedNotification" => InitializedNotification,
        "JSONRPCError" => JsonRpcError,
        "JSONRPCMessage" => JsonRpcMessage,
        "JSONRPCNotification" => JsonRpcNotification,
        "JSONRPCRequest" => JsonRpcRequest,
        "JSONRPCResponse" => JsonRpcResponse,
        "ListPromptsRequest" => ListPromptsRequest,
        "ListPromptsResult" => ListPromptsResult,
        "ListResourceTemplatesRequest" => ListResourceTemplatesRequest,
        "ListResourceTemplatesResult" => ListResourceTemplatesResult,
        "ListResourcesRequest" => ListResourcesRequest,
        "ListResourcesResult" => ListResourcesResult,
        "ListRootsRequest" => ListRootsRequest,
        "ListRootsResult" => ListRootsResult,
        "ListToolsRequest" => ListToolsRequest,
        "ListToolsResult" => ListToolsResult,
        "LoggingLevel" => LoggingLevel,
        "LoggingMessageNotification" => LoggingMessageNotification,
        "ModelHint" => ModelHint,
        "ModelPreferences" => ModelPreferences,
        "Notification" => Notification,
        "PaginatedRequest" => PaginatedRequest,
        "PaginatedResult" => PaginatedResult,
        "PingRequest" => PingRequest,
        "ProgressNotification" => ProgressNotification,
        "ProgressToken" => ::mcp_spec_types::ProgressToken,
        "Prompt" => Prompt,
        "PromptArgument" => PromptArgument,
        "PromptListChangedNotification" => PromptListChangedNotification,
        "PromptMessage" => PromptMessage,
        "PromptReference" => PromptReference,
        "ReadResourceRequest" => ReadResourceRequest,
        "ReadResourceResult" => ReadResourceResult,
        "Request" => Request,
        "RequestId" => ::mcp_spec_types::RequestId,
        "Resource" => Resource,
        "ResourceContents" => ResourceContents,
        "ResourceListChangedNotification" => ResourceListChangedNotification,
        "ResourceReference" => ResourceReference,
        "ResourceTemplate" => ResourceTemplate,
        "ResourceUpdatedNotification" => ResourceUpdatedNotification,
        "Result" => BaseResult,
        "Role" => Role,
        "Root" => Root,
        "RootsListChangedNotification" => RootsListChangedNotification,
        "SamplingMessage" => SamplingMessage,
        "ServerCapabilities" => ServerCapabilities,
        "ServerNotification" => ServerNotification,
        "ServerRequest" => ServerRequest,
        "ServerResult" => ServerResult,
        "SetLevelRequest" => SetLevelRequest,
        "SubscribeRequest" => SubscribeRequest,
        "TextContent" => TextContent,
        "TextResourceContents" => TextResourceContents,
        "Tool" => Tool,
        "ToolListChangedNotification" => ToolListChangedNotification,
        "UnsubscribeRequest" => UnsubscribeRequest,
    }
    unions {
        "/definitions/ClientNotification" => ClientNotification [
            (0, Some("CancelledNotification"), "CancelledNotification", Some("CancelledNotification")),
            (1, Some("InitializedNotification"), "InitializedNotification", Some("InitializedNotification")),
            (2, Some("ProgressNotification"), "ProgressNotification", Some("ProgressNotification")),
            (3, Some("RootsListChangedNotification"), "RootsListChangedNotification", Some("RootsListChangedNotification")),
        ],
        "/definitions/ClientRequest" => ClientRequest [
            (0, Some("InitializeRequest"), "InitializeRequest", Some("InitializeRequest")),
            (1, Some("PingRequest"), "PingRequest", Some("PingRequest")),
            (2, Some("ListResourcesRequest"), "ListResourcesRequest", Some("ListResourcesRequest")),
            (3, Some("ListResourceTemplatesRequest"), "ListResourceTemplatesRequest", Some("ListResourceTemplatesRequest")),
            (4, Some("ReadResourceRequest"), "ReadResourceRequest", Some("ReadResourceRequest")),
            (5, Some("SubscribeRequest"), "SubscribeRequest", Some("SubscribeRequest")),
            (6, Some("UnsubscribeRequest"), "UnsubscribeRequest", Some("UnsubscribeRequest")),
            (7, Some("ListPromptsRequest"), "ListPromptsRequest", Some("ListPromptsRequest")),
            (8, Some("GetPromptRequest"), "GetPromptRequest", Some("GetPromptRequest")),
            (9, Some("ListToolsRequest"), "ListToolsRequest", Some("ListToolsRequest")),
            (10, Some("CallToolRequest"), "CallToolRequest", Some("CallToolRequest")),
            (11, Some("SetLevelRequest"), "SetLevelRequest", Some("SetLevelRequest")),
            (12, Some("CompleteRequest"), "CompleteRequest", Some("CompleteRequest")),
        ],
        "/definitions/ClientResult" => ClientResult [
            (0, Some("Result"), "Result", Some("BaseResult")),
            (1, Some("CreateMessageResult"), "CreateMessageResult", Some("CreateMessageResult")),
            (2, Some("ListRootsResult"), "ListRootsResult", Some("ListRootsResult")),
        ],
        "/definitions/JSONRPCMessage" => JsonRpcMessage [
            (0, Some("JSONRPCRequest"), "Request", Some("JsonRpcRequest")),
            (1, Some("JSONRPCNotification"), "Notification", Some("JsonRpcNotification")),
            (2, Some("JSONRPCResponse"), "Response", Some("JsonRpcResponse")),
            (3, Some("JSONRPCError"), "Error", Some("JsonRpcError")),
        ],
        "/definitions/ServerNotification" => ServerNotification [
            (0, Some("CancelledNotification"), "CancelledNotification", Some("CancelledNotification")),
            (1, Some("ProgressNotification"), "ProgressNotification", Some("ProgressNotification")),
            (2, Some("ResourceListChangedNotification"), "ResourceListChangedNotification", Some("ResourceListChangedNotification")),
            (3, Some("ResourceUpdatedNotification"), "ResourceUpdatedNotification", Some("ResourceUpdatedNotification")),
            (4, Some("PromptListChangedNotification"), "PromptListChangedNotification", Some("PromptListChangedNotification")),
            (5, Some("ToolListChangedNotification"), "ToolListChangedNotification", Some("ToolListChangedNotification")),
            (6, Some("LoggingMessageNotification"), "LoggingMessageNotification", Some("LoggingMessageNotification")),
        ],
        "/definitions/ServerRequest" => ServerRequest [
            (0, Some("PingRequest"), "PingRequest", Some("PingRequest")),
            (1, Some("CreateMessageRequest"), "CreateMessageRequest", Some("CreateMessageRequest")),
            (2, Some("ListRootsRequest"), "ListRootsRequest", Some("ListRootsRequest")),
        ],
        "/definitions/ServerResult" => ServerResult [
            (0, Some("Result"), "Result", Some("BaseResult")),
            (1, Some("InitializeResult"), "InitializeResult", Some("InitializeResult")),
            (2, Some("ListResourcesResult"), "ListResourcesResult", Some("ListResourcesResult")),
            (3, Some("ListResourceTemplatesResult"), "ListResourceTemplatesResult", Some("ListResourceTemplatesResult")),
            (4, Some("ReadResourceResult"), "ReadResourceResult", Some("ReadResourceResult")),
            (5, Some("ListPromptsResult"), "ListPromptsResult", Some("ListPromptsResult")),
            (6, Some("GetPromptResult"), "GetPromptResult", Some("GetPromptResult")),
            (7, Some("ListToolsResult"), "ListToolsResult", Some("ListToolsResult")),
            (8, Some("CallToolResult"), "CallToolResult", Some("CallToolResult")),
            (9, Some("CompleteResult"), "CompleteResult", Some("CompleteResult")),
        ],
        "/definitions/CallToolResult/properties/content/items" => CallToolResultContentItem [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("EmbeddedResource"), "EmbeddedResource", Some("EmbeddedResource")),
        ],
        "/definitions/CompleteRequest/properties/params/properties/ref" => CompleteRequestParamsRef [
            (0, Some("PromptReference"), "PromptReference", Some("PromptReference")),
            (1, Some("ResourceReference"), "ResourceReference", Some("ResourceReference")),
        ],
        "/definitions/CreateMessageResult/properties/content" => CreateMessageResultContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
        ],
        "/definitions/EmbeddedResource/properties/resource" => EmbeddedResourceContents [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/definitions/PromptMessage/properties/content" => PromptMessageContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("EmbeddedResource"), "EmbeddedResource", Some("EmbeddedResource")),
        ],
        "/definitions/ReadResourceResult/properties/contents/items" => ReadResourceResultContentsItem [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/definitions/SamplingMessage/properties/content" => SamplingMessageContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
        ],
    }
}

#[cfg(feature = "v2025_03_26")]
table! {
    v2025_03_26;
    definitions {
        "Annotations" => Annotations,
        "AudioContent" => AudioContent,
        "BlobResourceContents" => BlobResourceContents,
        "CallToolRequest" => CallToolRequest,
        "CallToolResult" => CallToolResult,
        "CancelledNotification" => CancelledNotification,
        "ClientCapabilities" => ClientCapabilities,
        "ClientNotification" => ClientNotification,
        "ClientRequest" => ClientRequest,
        "ClientResult" => ClientResult,
        "CompleteRequest" => CompleteRequest,
        "CompleteResult" => CompleteResult,
        "CreateMessageRequest" => CreateMessageRequest,
        "CreateMessageResult" => CreateMessageResult,
        "Cursor" => ::mcp_spec_types::Cursor,
        "EmbeddedResource" => EmbeddedResource,
        "EmptyResult" => EmptyResult,
        "GetPromptRequest" => GetPromptRequest,
        "GetPromptResult" => GetPromptResult,
        "ImageContent" => ImageContent,
        "Implementation" => Implementation,
        "InitializeRequest" => InitializeRequest,
        "InitializeResult" => InitializeResult,
        "InitializedNotification" => InitializedNotification,
        "JSONRPCBatchRequest" => JsonRpcBatchRequest,
        "JSONRPCBatchResponse" => JsonRpcBatchResponse,
        "JSONRPCError" => JsonRpcError,
        "JSONRPCMessage" => JsonRpcMessage,
        "JSONRPCNotification" => JsonRpcNotification,
        "JSONRPCRequest" => JsonRpcRequest,
        "JSONRPCResponse" => JsonRpcResponse,
        "ListPromptsRequest" => ListPromptsRequest,
        "ListPromptsResult" => ListPromptsResult,
        "ListResourceTemplatesRequest" => ListResourceTemplatesRequest,
        "ListResourceTemplatesResult" => ListResourceTemplatesResult,
        "ListResourcesRequest" => ListResourcesRequest,
        "ListResourcesResult" => ListResourcesResult,
        "ListRootsRequest" => ListRootsRequest,
        "ListRootsResult" => ListRootsResult,
        "ListToolsRequest" => ListToolsRequest,
        "ListToolsResult" => ListToolsResult,
        "LoggingLevel" => LoggingLevel,
        "LoggingMessageNotification" => LoggingMessageNotification,
        "ModelHint" => ModelHint,
        "ModelPreferences" => ModelPreferences,
        "Notification" => Notification,
        "PaginatedRequest" => PaginatedRequest,
        "PaginatedResult" => PaginatedResult,
        "PingRequest" => PingRequest,
        "ProgressNotification" => ProgressNotification,
        "ProgressToken" => ::mcp_spec_types::ProgressToken,
        "Prompt" => Prompt,
        "PromptArgument" => PromptArgument,
        "PromptListChangedNotification" => PromptListChangedNotification,
        "PromptMessage" => PromptMessage,
        "PromptReference" => PromptReference,
        "ReadResourceRequest" => ReadResourceRequest,
        "ReadResourceResult" => ReadResourceResult,
        "Request" => Request,
        "RequestId" => ::mcp_spec_types::RequestId,
        "Resource" => Resource,
        "ResourceContents" => ResourceContents,
        "ResourceListChangedNotification" => ResourceListChangedNotification,
        "ResourceReference" => ResourceReference,
        "ResourceTemplate" => ResourceTemplate,
        "ResourceUpdatedNotification" => ResourceUpdatedNotification,
        "Result" => BaseResult,
        "Role" => Role,
        "Root" => Root,
        "RootsListChangedNotification" => RootsListChangedNotification,
        "SamplingMessage" => SamplingMessage,
        "ServerCapabilities" => ServerCapabilities,
        "ServerNotification" => ServerNotification,
        "ServerRequest" => ServerRequest,
        "ServerResult" => ServerResult,
        "SetLevelRequest" => SetLevelRequest,
        "SubscribeRequest" => SubscribeRequest,
        "TextContent" => TextContent,
        "TextResourceContents" => TextResourceContents,
        "Tool" => Tool,
        "ToolAnnotations" => ToolAnnotations,
        "ToolListChangedNotification" => ToolListChangedNotification,
        "UnsubscribeRequest" => UnsubscribeRequest,
    }
    unions {
        "/definitions/ClientNotification" => ClientNotification [
            (0, Some("CancelledNotification"), "CancelledNotification", Some("CancelledNotification")),
            (1, Some("InitializedNotification"), "InitializedNotification", Some("InitializedNotification")),
            (2, Some("ProgressNotification"), "ProgressNotification", Some("ProgressNotification")),
            (3, Some("RootsListChangedNotification"), "RootsListChangedNotification", Some("RootsListChangedNotification")),
        ],
        "/definitions/ClientRequest" => ClientRequest [
            (0, Some("InitializeRequest"), "InitializeRequest", Some("InitializeRequest")),
            (1, Some("PingRequest"), "PingRequest", Some("PingRequest")),
            (2, Some("ListResourcesRequest"), "ListResourcesRequest", Some("ListResourcesRequest")),
            (3, Some("ListResourceTemplatesRequest"), "ListResourceTemplatesRequest", Some("ListResourceTemplatesRequest")),
            (4, Some("ReadResourceRequest"), "ReadResourceRequest", Some("ReadResourceRequest")),
            (5, Some("SubscribeRequest"), "SubscribeRequest", Some("SubscribeRequest")),
            (6, Some("UnsubscribeRequest"), "UnsubscribeRequest", Some("UnsubscribeRequest")),
            (7, Some("ListPromptsRequest"), "ListPromptsRequest", Some("ListPromptsRequest")),
            (8, Some("GetPromptRequest"), "GetPromptRequest", Some("GetPromptRequest")),
            (9, Some("ListToolsRequest"), "ListToolsRequest", Some("ListToolsRequest")),
            (10, Some("CallToolRequest"), "CallToolRequest", Some("CallToolRequest")),
            (11, Some("SetLevelRequest"), "SetLevelRequest", Some("SetLevelRequest")),
            (12, Some("CompleteRequest"), "CompleteRequest", Some("CompleteRequest")),
        ],
        "/definitions/ClientResult" => ClientResult [
            (0, Some("Result"), "Result", Some("BaseResult")),
            (1, Some("CreateMessageResult"), "CreateMessageResult", Some("CreateMessageResult")),
            (2, Some("ListRootsResult"), "ListRootsResult", Some("ListRootsResult")),
        ],
        "/definitions/JSONRPCMessage" => JsonRpcMessage [
            (0, Some("JSONRPCRequest"), "Variant0", Some("JsonRpcRequest")),
            (1, Some("JSONRPCNotification"), "Variant1", Some("JsonRpcNotification")),
            (2, None, "Variant2", None),
            (3, Some("JSONRPCResponse"), "Variant3", Some("JsonRpcResponse")),
            (4, Some("JSONRPCError"), "Variant4", Some("JsonRpcError")),
            (5, None, "Variant5", None),
        ],
        "/definitions/ServerNotification" => ServerNotification [
            (0, Some("CancelledNotification"), "CancelledNotification", Some("CancelledNotification")),
            (1, Some("ProgressNotification"), "ProgressNotification", Some("ProgressNotification")),
            (2, Some("ResourceListChangedNotification"), "ResourceListChangedNotification", Some("ResourceListChangedNotification")),
            (3, Some("ResourceUpdatedNotification"), "ResourceUpdatedNotification", Some("ResourceUpdatedNotification")),
            (4, Some("PromptListChangedNotification"), "PromptListChangedNotification", Some("PromptListChangedNotification")),
            (5, Some("ToolListChangedNotification"), "ToolListChangedNotification", Some("ToolListChangedNotification")),
            (6, Some("LoggingMessageNotification"), "LoggingMessageNotification", Some("LoggingMessageNotification")),
        ],
        "/definitions/ServerRequest" => ServerRequest [
            (0, Some("PingRequest"), "PingRequest", Some("PingRequest")),
            (1, Some("CreateMessageRequest"), "CreateMessageRequest", Some("CreateMessageRequest")),
            (2, Some("ListRootsRequest"), "ListRootsRequest", Some("ListRootsRequest")),
        ],
        "/definitions/ServerResult" => ServerResult [
            (0, Some("Result"), "Result", Some("BaseResult")),
            (1, Some("InitializeResult"), "InitializeResult", Some("InitializeResult")),
            (2, Some("ListResourcesResult"), "ListResourcesResult", Some("ListResourcesResult")),
            (3, Some("ListResourceTemplatesResult"), "ListResourceTemplatesResult", Some("ListResourceTemplatesResult")),
            (4, Some("ReadResourceResult"), "ReadResourceResult", Some("ReadResourceResult")),
            (5, Some("ListPromptsResult"), "ListPromptsResult", Some("ListPromptsResult")),
            (6, Some("GetPromptResult"), "GetPromptResult", Some("GetPromptResult")),
            (7, Some("ListToolsResult"), "ListToolsResult", Some("ListToolsResult")),
            (8, Some("CallToolResult"), "CallToolResult", Some("CallToolResult")),
            (9, Some("CompleteResult"), "CompleteResult", Some("CompleteResult")),
        ],
        "/definitions/CallToolResult/properties/content/items" => CallToolResultContentItem [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("EmbeddedResource"), "EmbeddedResource", Some("EmbeddedResource")),
        ],
        "/definitions/CompleteRequest/properties/params/properties/ref" => CompleteRequestParamsRef [
            (0, Some("PromptReference"), "PromptReference", Some("PromptReference")),
            (1, Some("ResourceReference"), "ResourceReference", Some("ResourceReference")),
        ],
        "/definitions/CreateMessageResult/properties/content" => CreateMessageResultContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
        ],
        "/definitions/EmbeddedResource/properties/resource" => EmbeddedResourceContents [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/definitions/JSONRPCBatchRequest/items" => JsonRpcBatchRequestItem [
            (0, Some("JSONRPCRequest"), "Request", Some("JsonRpcRequest")),
            (1, Some("JSONRPCNotification"), "Notification", Some("JsonRpcNotification")),
        ],
        "/definitions/JSONRPCBatchResponse/items" => JsonRpcBatchResponseItem [
            (0, Some("JSONRPCResponse"), "Response", Some("JsonRpcResponse")),
            (1, Some("JSONRPCError"), "Error", Some("JsonRpcError")),
        ],
        "/definitions/JSONRPCMessage/anyOf/2/items" => JsonRpcMessageVariant2Item [
            (0, Some("JSONRPCRequest"), "Request", Some("JsonRpcRequest")),
            (1, Some("JSONRPCNotification"), "Notification", Some("JsonRpcNotification")),
        ],
        "/definitions/JSONRPCMessage/anyOf/5/items" => JsonRpcMessageVariant5Item [
            (0, Some("JSONRPCResponse"), "Response", Some("JsonRpcResponse")),
            (1, Some("JSONRPCError"), "Error", Some("JsonRpcError")),
        ],
        "/definitions/PromptMessage/properties/content" => PromptMessageContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("EmbeddedResource"), "EmbeddedResource", Some("EmbeddedResource")),
        ],
        "/definitions/ReadResourceResult/properties/contents/items" => ReadResourceResultContentsItem [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/definitions/SamplingMessage/properties/content" => SamplingMessageContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
        ],
    }
}

#[cfg(feature = "v2025_06_18")]
table! {
    v2025_06_18;
    definitions {
        "Annotations" => Annotations,
        "AudioContent" => AudioContent,
        "BaseMetadata" => BaseMetadata,
        "BlobResourceContents" => BlobResourceContents,
        "BooleanSchema" => BooleanSchema,
        "CallToolRequest" => CallToolRequest,
        "CallToolResult" => CallToolResult,
        "CancelledNotification" => CancelledNotification,
        "ClientCapabilities" => ClientCapabilities,
        "ClientNotification" => ClientNotification,
        "ClientRequest" => ClientRequest,
        "ClientResult" => ClientResult,
        "CompleteRequest" => CompleteRequest,
        "CompleteResult" => CompleteResult,
        "ContentBlock" => ContentBlock,
        "CreateMessageRequest" => CreateMessageRequest,
        "CreateMessageResult" => CreateMessageResult,
        "Cursor" => ::mcp_spec_types::Cursor,
        "ElicitRequest" => ElicitRequest,
        "ElicitResult" => ElicitResult,
        "EmbeddedResource" => EmbeddedResource,
        "EmptyResult" => EmptyResult,
        "EnumSchema" => EnumSchema,
        "GetPromptRequest" => GetPromptRequest,
        "GetPromptResult" => GetPromptResult,
        "ImageContent" => ImageContent,
        "Implementation" => Implementation,
        "InitializeRequest" => InitializeRequest,
        "InitializeResult" => InitializeResult,
        "InitializedNotification" => InitializedNotification,
        "JSONRPCError" => JsonRpcError,
        "JSONRPCMessage" => JsonRpcMessage,
        "JSONRPCNotification" => JsonRpcNotification,
        "JSONRPCRequest" => JsonRpcRequest,
        "JSONRPCResponse" => JsonRpcResponse,
        "ListPromptsRequest" => ListPromptsRequest,
        "ListPromptsResult" => ListPromptsResult,
        "ListResourceTemplatesRequest" => ListResourceTemplatesRequest,
        "ListResourceTemplatesResult" => ListResourceTemplatesResult,
        "ListResourcesRequest" => ListResourcesRequest,
        "ListResourcesResult" => ListResourcesResult,
        "ListRootsRequest" => ListRootsRequest,
        "ListRootsResult" => ListRootsResult,
        "ListToolsRequest" => ListToolsRequest,
        "ListToolsResult" => ListToolsResult,
        "LoggingLevel" => LoggingLevel,
        "LoggingMessageNotification" => LoggingMessageNotification,
        "ModelHint" => ModelHint,
        "ModelPreferences" => ModelPreferences,
        "Notification" => Notification,
        "NumberSchema" => NumberSchema,
        "PaginatedRequest" => PaginatedRequest,
        "PaginatedResult" => PaginatedResult,
        "PingRequest" => PingRequest,
        "PrimitiveSchemaDefinition" => PrimitiveSchemaDefinition,
        "ProgressNotification" => ProgressNotification,
        "ProgressToken" => ::mcp_spec_types::ProgressToken,
        "Prompt" => Prompt,
        "PromptArgument" => PromptArgument,
        "PromptListChangedNotification" => PromptListChangedNotification,
        "PromptMessage" => PromptMessage,
        "PromptReference" => PromptReference,
        "ReadResourceRequest" => ReadResourceRequest,
        "ReadResourceResult" => ReadResourceResult,
        "Request" => Request,
        "RequestId" => ::mcp_spec_types::RequestId,
        "Resource" => Resource,
        "ResourceContents" => ResourceContents,
        "ResourceLink" => ResourceLink,
        "ResourceListChangedNotification" => ResourceListChangedNotification,
        "ResourceTemplate" => ResourceTemplate,
        "ResourceTemplateReference" => ResourceTemplateReference,
        "ResourceUpdatedNotification" => ResourceUpdatedNotification,
        "Result" => BaseResult,
        "Role" => Role,
        "Root" => Root,
        "RootsListChangedNotification" => RootsListChangedNotification,
        "SamplingMessage" => SamplingMessage,
        "ServerCapabilities" => ServerCapabilities,
        "ServerNotification" => ServerNotification,
        "ServerRequest" => ServerRequest,
        "ServerResult" => ServerResult,
        "SetLevelRequest" => SetLevelRequest,
        "StringSchema" => StringSchema,
        "SubscribeRequest" => SubscribeRequest,
        "TextContent" => TextContent,
        "TextResourceContents" => TextResourceContents,
        "Tool" => Tool,
        "ToolAnnotations" => ToolAnnotations,
        "ToolListChangedNotification" => ToolListChangedNotification,
        "UnsubscribeRequest" => UnsubscribeRequest,
    }
    unions {
        "/definitions/ClientNotification" => ClientNotification [
            (0, Some("CancelledNotification"), "CancelledNotification", Some("CancelledNotification")),
            (1, Some("InitializedNotification"), "InitializedNotification", Some("InitializedNotification")),
            (2, Some("ProgressNotification"), "ProgressNotification", Some("ProgressNotification")),
            (3, Some("RootsListChangedNotification"), "RootsListChangedNotification", Some("RootsListChangedNotification")),
        ],
        "/definitions/ClientRequest" => ClientRequest [
            (0, Some("InitializeRequest"), "InitializeRequest", Some("InitializeRequest")),
            (1, Some("PingRequest"), "PingRequest", Some("PingRequest")),
            (2, Some("ListResourcesRequest"), "ListResourcesRequest", Some("ListResourcesRequest")),
            (3, Some("ListResourceTemplatesRequest"), "ListResourceTemplatesRequest", Some("ListResourceTemplatesRequest")),
            (4, Some("ReadResourceRequest"), "ReadResourceRequest", Some("ReadResourceRequest")),
            (5, Some("SubscribeRequest"), "SubscribeRequest", Some("SubscribeRequest")),
            (6, Some("UnsubscribeRequest"), "UnsubscribeRequest", Some("UnsubscribeRequest")),
            (7, Some("ListPromptsRequest"), "ListPromptsRequest", Some("ListPromptsRequest")),
            (8, Some("GetPromptRequest"), "GetPromptRequest", Some("GetPromptRequest")),
            (9, Some("ListToolsRequest"), "ListToolsRequest", Some("ListToolsRequest")),
            (10, Some("CallToolRequest"), "CallToolRequest", Some("CallToolRequest")),
            (11, Some("SetLevelRequest"), "SetLevelRequest", Some("SetLevelRequest")),
            (12, Some("CompleteRequest"), "CompleteRequest", Some("CompleteRequest")),
        ],
        "/definitions/ClientResult" => ClientResult [
            (0, Some("Result"), "Result", Some("BaseResult")),
            (1, Some("CreateMessageResult"), "CreateMessageResult", Some("CreateMessageResult")),
            (2, Some("ListRootsResult"), "ListRootsResult", Some("ListRootsResult")),
            (3, Some("ElicitResult"), "ElicitResult", Some("ElicitResult")),
        ],
        "/definitions/ContentBlock" => ContentBlock [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ResourceLink"), "ResourceLink", Some("ResourceLink")),
            (4, Some("EmbeddedResource"), "EmbeddedResource", Some("EmbeddedResource")),
        ],
        "/definitions/JSONRPCMessage" => JsonRpcMessage [
            (0, Some("JSONRPCRequest"), "Request", Some("JsonRpcRequest")),
            (1, Some("JSONRPCNotification"), "Notification", Some("JsonRpcNotification")),
            (2, Some("JSONRPCResponse"), "Response", Some("JsonRpcResponse")),
            (3, Some("JSONRPCError"), "Error", Some("JsonRpcError")),
        ],
        "/definitions/PrimitiveSchemaDefinition" => PrimitiveSchemaDefinition [
            (0, Some("StringSchema"), "StringSchema", Some("StringSchema")),
            (1, Some("NumberSchema"), "NumberSchema", Some("NumberSchema")),
            (2, Some("BooleanSchema"), "BooleanSchema", Some("BooleanSchema")),
            (3, Some("EnumSchema"), "EnumSchema", Some("EnumSchema")),
        ],
        "/definitions/ServerNotification" => ServerNotification [
            (0, Some("CancelledNotification"), "CancelledNotification", Some("CancelledNotification")),
            (1, Some("ProgressNotification"), "ProgressNotification", Some("ProgressNotification")),
            (2, Some("ResourceListChangedNotification"), "ResourceListChangedNotification", Some("ResourceListChangedNotification")),
            (3, Some("ResourceUpdatedNotification"), "ResourceUpdatedNotification", Some("ResourceUpdatedNotification")),
            (4, Some("PromptListChangedNotification"), "PromptListChangedNotification", Some("PromptListChangedNotification")),
            (5, Some("ToolListChangedNotification"), "ToolListChangedNotification", Some("ToolListChangedNotification")),
            (6, Some("LoggingMessageNotification"), "LoggingMessageNotification", Some("LoggingMessageNotification")),
        ],
        "/definitions/ServerRequest" => ServerRequest [
            (0, Some("PingRequest"), "PingRequest", Some("PingRequest")),
            (1, Some("CreateMessageRequest"), "CreateMessageRequest", Some("CreateMessageRequest")),
            (2, Some("ListRootsRequest"), "ListRootsRequest", Some("ListRootsRequest")),
            (3, Some("ElicitRequest"), "ElicitRequest", Some("ElicitRequest")),
        ],
        "/definitions/ServerResult" => ServerResult [
            (0, Some("Result"), "Result", Some("BaseResult")),
            (1, Some("InitializeResult"), "InitializeResult", Some("InitializeResult")),
            (2, Some("ListResourcesResult"), "ListResourcesResult", Some("ListResourcesResult")),
            (3, Some("ListResourceTemplatesResult"), "ListResourceTemplatesResult", Some("ListResourceTemplatesResult")),
            (4, Some("ReadResourceResult"), "ReadResourceResult", Some("ReadResourceResult")),
            (5, Some("ListPromptsResult"), "ListPromptsResult", Some("ListPromptsResult")),
            (6, Some("GetPromptResult"), "GetPromptResult", Some("GetPromptResult")),
            (7, Some("ListToolsResult"), "ListToolsResult", Some("ListToolsResult")),
            (8, Some("CallToolResult"), "CallToolResult", Some("CallToolResult")),
            (9, Some("CompleteResult"), "CompleteResult", Some("CompleteResult")),
        ],
        "/definitions/CompleteRequest/properties/params/properties/ref" => CompleteRequestParamsRef [
            (0, Some("PromptReference"), "PromptReference", Some("PromptReference")),
            (1, Some("ResourceTemplateReference"), "ResourceTemplateReference", Some("ResourceTemplateReference")),
        ],
        "/definitions/CreateMessageResult/properties/content" => CreateMessageResultContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
        ],
        "/definitions/EmbeddedResource/properties/resource" => EmbeddedResourceContents [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/definitions/ReadResourceResult/properties/contents/items" => ReadResourceResultContentsItem [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/definitions/SamplingMessage/properties/content" => SamplingMessageContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
        ],
    }
}

#[cfg(feature = "v2025_11_25")]
table! {
    v2025_11_25;
    definitions {
        "Annotations" => Annotations,
        "AudioContent" => AudioContent,
        "BaseMetadata" => BaseMetadata,
        "BlobResourceContents" => BlobResourceContents,
        "BooleanSchema" => BooleanSchema,
        "CallToolRequest" => CallToolRequest,
        "CallToolRequestParams" => CallToolRequestParams,
        "CallToolResult" => CallToolResult,
        "CancelTaskRequest" => CancelTaskRequest,
        "CancelTaskResult" => CancelTaskResult,
        "CancelledNotification" => CancelledNotification,
        "CancelledNotificationParams" => CancelledNotificationParams,
        "ClientCapabilities" => ClientCapabilities,
        "ClientNotification" => ClientNotification,
        "ClientRequest" => ClientRequest,
        "ClientResult" => ClientResult,
        "CompleteRequest" => CompleteRequest,
        "CompleteRequestParams" => CompleteRequestParams,
        "CompleteResult" => CompleteResult,
        "ContentBlock" => ContentBlock,
        "CreateMessageRequest" => CreateMessageRequest,
        "CreateMessageRequestParams" => CreateMessageRequestParams,
        "CreateMessageResult" => CreateMessageResult,
        "CreateTaskResult" => CreateTaskResult,
        "Cursor" => ::mcp_spec_types::Cursor,
        "ElicitRequest" => ElicitRequest,
        "ElicitRequestFormParams" => ElicitRequestFormParams,
        "ElicitRequestParams" => ElicitRequestParams,
        "ElicitRequestURLParams" => ElicitRequestUrlParams,
        "ElicitResult" => ElicitResult,
        "ElicitationCompleteNotification" => ElicitationCompleteNotification,
        "EmbeddedResource" => EmbeddedResource,
        "EmptyResult" => EmptyResult,
        "EnumSchema" => EnumSchema,
        "Error" => ErrorObject,
        "GetPromptRequest" => GetPromptRequest,
        "GetPromptRequestParams" => GetPromptRequestParams,
        "GetPromptResult" => GetPromptResult,
        "GetTaskPayloadRequest" => GetTaskPayloadRequest,
        "GetTaskPayloadResult" => GetTaskPayloadResult,
        "GetTaskRequest" => GetTaskRequest,
        "GetTaskResult" => GetTaskResult,
        "Icon" => Icon,
        "Icons" => Icons,
        "ImageContent" => ImageContent,
        "Implementation" => Implementation,
        "InitializeRequest" => InitializeRequest,
        "InitializeRequestParams" => InitializeRequestParams,
        "InitializeResult" => InitializeResult,
        "InitializedNotification" => InitializedNotification,
        "JSONRPCErrorResponse" => JsonRpcErrorResponse,
        "JSONRPCMessage" => JsonRpcMessage,
        "JSONRPCNotification" => JsonRpcNotification,
        "JSONRPCRequest" => JsonRpcRequest,
        "JSONRPCResponse" => JsonRpcResponse,
        "JSONRPCResultResponse" => JsonRpcResultResponse,
        "LegacyTitledEnumSchema" => LegacyTitledEnumSchema,
        "ListPromptsRequest" => ListPromptsRequest,
        "ListPromptsResult" => ListPromptsResult,
        "ListResourceTemplatesRequest" => ListResourceTemplatesRequest,
        "ListResourceTemplatesResult" => ListResourceTemplatesResult,
        "ListResourcesRequest" => ListResourcesRequest,
        "ListResourcesResult" => ListResourcesResult,
        "ListRootsRequest" => ListRootsRequest,
        "ListRootsResult" => ListRootsResult,
        "ListTasksRequest" => ListTasksRequest,
        "ListTasksResult" => ListTasksResult,
        "ListToolsRequest" => ListToolsRequest,
        "ListToolsResult" => ListToolsResult,
        "LoggingLevel" => LoggingLevel,
        "LoggingMessageNotification" => LoggingMessageNotification,
        "LoggingMessageNotificationParams" => LoggingMessageNotificationParams,
        "ModelHint" => ModelHint,
        "ModelPreferences" => ModelPreferences,
        "MultiSelectEnumSchema" => MultiSelectEnumSchema,
        "Notification" => Notification,
        "NotificationParams" => NotificationParams,
        "NumberSchema" => NumberSchema,
        "PaginatedRequest" => PaginatedRequest,
        "PaginatedRequestParams" => PaginatedRequestParams,
        "PaginatedResult" => PaginatedResult,
        "PingRequest" => PingRequest,
        "PrimitiveSchemaDefinition" => PrimitiveSchemaDefinition,
        "ProgressNotification" => ProgressNotification,
        "ProgressNotificationParams" => ProgressNotificationParams,
        "ProgressToken" => ::mcp_spec_types::ProgressToken,
        "Prompt" => Prompt,
        "PromptArgument" => PromptArgument,
        "PromptListChangedNotification" => PromptListChangedNotification,
        "PromptMessage" => PromptMessage,
        "PromptReference" => PromptReference,
        "ReadResourceRequest" => ReadResourceRequest,
        "ReadResourceRequestParams" => ReadResourceRequestParams,
        "ReadResourceResult" => ReadResourceResult,
        "RelatedTaskMetadata" => RelatedTaskMetadata,
        "Request" => Request,
        "RequestId" => ::mcp_spec_types::RequestId,
        "RequestParams" => RequestParams,
        "Resource" => Resource,
        "ResourceContents" => ResourceContents,
        "ResourceLink" => ResourceLink,
        "ResourceListChangedNotification" => ResourceListChangedNotification,
        "ResourceRequestParams" => ResourceRequestParams,
        "ResourceTemplate" => ResourceTemplate,
        "ResourceTemplateReference" => ResourceTemplateReference,
        "ResourceUpdatedNotification" => ResourceUpdatedNotification,
        "ResourceUpdatedNotificationParams" => ResourceUpdatedNotificationParams,
        "Result" => BaseResult,
        "Role" => Role,
        "Root" => Root,
        "RootsListChangedNotification" => RootsListChangedNotification,
        "SamplingMessage" => SamplingMessage,
        "SamplingMessageContentBlock" => SamplingMessageContentBlock,
        "ServerCapabilities" => ServerCapabilities,
        "ServerNotification" => ServerNotification,
        "ServerRequest" => ServerRequest,
        "ServerResult" => ServerResult,
        "SetLevelRequest" => SetLevelRequest,
        "SetLevelRequestParams" => SetLevelRequestParams,
        "SingleSelectEnumSchema" => SingleSelectEnumSchema,
        "StringSchema" => StringSchema,
        "SubscribeRequest" => SubscribeRequest,
        "SubscribeRequestParams" => SubscribeRequestParams,
        "Task" => Task,
        "TaskAugmentedRequestParams" => TaskAugmentedRequestParams,
        "TaskMetadata" => TaskMetadata,
        "TaskStatus" => TaskStatus,
        "TaskStatusNotification" => TaskStatusNotification,
        "TaskStatusNotificationParams" => TaskStatusNotificationParams,
        "TextContent" => TextContent,
        "TextResourceContents" => TextResourceContents,
        "TitledMultiSelectEnumSchema" => TitledMultiSelectEnumSchema,
        "TitledSingleSelectEnumSchema" => TitledSingleSelectEnumSchema,
        "Tool" => Tool,
        "ToolAnnotations" => ToolAnnotations,
        "ToolChoice" => ToolChoice,
        "ToolExecution" => ToolExecution,
        "ToolListChangedNotification" => ToolListChangedNotification,
        "ToolResultContent" => ToolResultContent,
        "ToolUseContent" => ToolUseContent,
        "URLElicitationRequiredError" => UrlElicitationRequiredError,
        "UnsubscribeRequest" => UnsubscribeRequest,
        "UnsubscribeRequestParams" => UnsubscribeRequestParams,
        "UntitledMultiSelectEnumSchema" => UntitledMultiSelectEnumSchema,
        "UntitledSingleSelectEnumSchema" => UntitledSingleSelectEnumSchema,
    }
    unions {
        "/$defs/ClientNotification" => ClientNotification [
            (0, Some("CancelledNotification"), "CancelledNotification", Some("CancelledNotification")),
            (1, Some("InitializedNotification"), "InitializedNotification", Some("InitializedNotification")),
            (2, Some("ProgressNotification"), "ProgressNotification", Some("ProgressNotification")),
            (3, Some("TaskStatusNotification"), "TaskStatusNotification", Some("TaskStatusNotification")),
            (4, Some("RootsListChangedNotification"), "RootsListChangedNotification", Some("RootsListChangedNotification")),
        ],
        "/$defs/ClientRequest" => ClientRequest [
            (0, Some("InitializeRequest"), "InitializeRequest", Some("InitializeRequest")),
            (1, Some("PingRequest"), "PingRequest", Some("PingRequest")),
            (2, Some("ListResourcesRequest"), "ListResourcesRequest", Some("ListResourcesRequest")),
            (3, Some("ListResourceTemplatesRequest"), "ListResourceTemplatesRequest", Some("ListResourceTemplatesRequest")),
            (4, Some("ReadResourceRequest"), "ReadResourceRequest", Some("ReadResourceRequest")),
            (5, Some("SubscribeRequest"), "SubscribeRequest", Some("SubscribeRequest")),
            (6, Some("UnsubscribeRequest"), "UnsubscribeRequest", Some("UnsubscribeRequest")),
            (7, Some("ListPromptsRequest"), "ListPromptsRequest", Some("ListPromptsRequest")),
            (8, Some("GetPromptRequest"), "GetPromptRequest", Some("GetPromptRequest")),
            (9, Some("ListToolsRequest"), "ListToolsRequest", Some("ListToolsRequest")),
            (10, Some("CallToolRequest"), "CallToolRequest", Some("CallToolRequest")),
            (11, Some("GetTaskRequest"), "GetTaskRequest", Some("GetTaskRequest")),
            (12, Some("GetTaskPayloadRequest"), "GetTaskPayloadRequest", Some("GetTaskPayloadRequest")),
            (13, Some("CancelTaskRequest"), "CancelTaskRequest", Some("CancelTaskRequest")),
            (14, Some("ListTasksRequest"), "ListTasksRequest", Some("ListTasksRequest")),
            (15, Some("SetLevelRequest"), "SetLevelRequest", Some("SetLevelRequest")),
            (16, Some("CompleteRequest"), "CompleteRequest", Some("CompleteRequest")),
        ],
        "/$defs/ClientResult" => ClientResult [
            (0, Some("Result"), "Result", Some("BaseResult")),
            (1, Some("GetTaskResult"), "GetTaskResult", Some("GetTaskResult")),
            (2, Some("GetTaskPayloadResult"), "GetTaskPayloadResult", Some("GetTaskPayloadResult")),
            (3, Some("CancelTaskResult"), "CancelTaskResult", Some("CancelTaskResult")),
            (4, Some("ListTasksResult"), "ListTasksResult", Some("ListTasksResult")),
            (5, Some("CreateMessageResult"), "CreateMessageResult", Some("CreateMessageResult")),
            (6, Some("ListRootsResult"), "ListRootsResult", Some("ListRootsResult")),
            (7, Some("ElicitResult"), "ElicitResult", Some("ElicitResult")),
        ],
        "/$defs/ContentBlock" => ContentBlock [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ResourceLink"), "ResourceLink", Some("ResourceLink")),
            (4, Some("EmbeddedResource"), "EmbeddedResource", Some("EmbeddedResource")),
        ],
        "/$defs/ElicitRequestParams" => ElicitRequestParams [
            (0, Some("ElicitRequestURLParams"), "UrlParams", Some("ElicitRequestUrlParams")),
            (1, Some("ElicitRequestFormParams"), "FormParams", Some("ElicitRequestFormParams")),
        ],
        "/$defs/EnumSchema" => EnumSchema [
            (0, Some("UntitledSingleSelectEnumSchema"), "UntitledSingleSelectEnumSchema", Some("UntitledSingleSelectEnumSchema")),
            (1, Some("TitledSingleSelectEnumSchema"), "TitledSingleSelectEnumSchema", Some("TitledSingleSelectEnumSchema")),
            (2, Some("UntitledMultiSelectEnumSchema"), "UntitledMultiSelectEnumSchema", Some("UntitledMultiSelectEnumSchema")),
            (3, Some("TitledMultiSelectEnumSchema"), "TitledMultiSelectEnumSchema", Some("TitledMultiSelectEnumSchema")),
            (4, Some("LegacyTitledEnumSchema"), "LegacyTitledEnumSchema", Some("LegacyTitledEnumSchema")),
        ],
        "/$defs/JSONRPCMessage" => JsonRpcMessage [
            (0, Some("JSONRPCRequest"), "Request", Some("JsonRpcRequest")),
            (1, Some("JSONRPCNotification"), "Notification", Some("JsonRpcNotification")),
            (2, Some("JSONRPCResultResponse"), "ResultResponse", Some("JsonRpcResultResponse")),
            (3, Some("JSONRPCErrorResponse"), "ErrorResponse", Some("JsonRpcErrorResponse")),
        ],
        "/$defs/JSONRPCResponse" => JsonRpcResponse [
            (0, Some("JSONRPCResultResponse"), "ResultResponse", Some("JsonRpcResultResponse")),
            (1, Some("JSONRPCErrorResponse"), "ErrorResponse", Some("JsonRpcErrorResponse")),
        ],
        "/$defs/MultiSelectEnumSchema" => MultiSelectEnumSchema [
            (0, Some("UntitledMultiSelectEnumSchema"), "UntitledMultiSelectEnumSchema", Some("UntitledMultiSelectEnumSchema")),
            (1, Some("TitledMultiSelectEnumSchema"), "TitledMultiSelectEnumSchema", Some("TitledMultiSelectEnumSchema")),
        ],
        "/$defs/PrimitiveSchemaDefinition" => PrimitiveSchemaDefinition [
            (0, Some("StringSchema"), "StringSchema", Some("StringSchema")),
            (1, Some("NumberSchema"), "NumberSchema", Some("NumberSchema")),
            (2, Some("BooleanSchema"), "BooleanSchema", Some("BooleanSchema")),
            (3, Some("UntitledSingleSelectEnumSchema"), "UntitledSingleSelectEnumSchema", Some("UntitledSingleSelectEnumSchema")),
            (4, Some("TitledSingleSelectEnumSchema"), "TitledSingleSelectEnumSchema", Some("TitledSingleSelectEnumSchema")),
            (5, Some("UntitledMultiSelectEnumSchema"), "UntitledMultiSelectEnumSchema", Some("UntitledMultiSelectEnumSchema")),
            (6, Some("TitledMultiSelectEnumSchema"), "TitledMultiSelectEnumSchema", Some("TitledMultiSelectEnumSchema")),
            (7, Some("LegacyTitledEnumSchema"), "LegacyTitledEnumSchema", Some("LegacyTitledEnumSchema")),
        ],
        "/$defs/SamplingMessageContentBlock" => SamplingMessageContentBlock [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ToolUseContent"), "ToolUseContent", Some("ToolUseContent")),
            (4, Some("ToolResultContent"), "ToolResultContent", Some("ToolResultContent")),
        ],
        "/$defs/ServerNotification" => ServerNotification [
            (0, Some("CancelledNotification"), "CancelledNotification", Some("CancelledNotification")),
            (1, Some("ProgressNotification"), "ProgressNotification", Some("ProgressNotification")),
            (2, Some("ResourceListChangedNotification"), "ResourceListChangedNotification", Some("ResourceListChangedNotification")),
            (3, Some("ResourceUpdatedNotification"), "ResourceUpdatedNotification", Some("ResourceUpdatedNotification")),
            (4, Some("PromptListChangedNotification"), "PromptListChangedNotification", Some("PromptListChangedNotification")),
            (5, Some("ToolListChangedNotification"), "ToolListChangedNotification", Some("ToolListChangedNotification")),
            (6, Some("TaskStatusNotification"), "TaskStatusNotification", Some("TaskStatusNotification")),
            (7, Some("LoggingMessageNotification"), "LoggingMessageNotification", Some("LoggingMessageNotification")),
            (8, Some("ElicitationCompleteNotification"), "ElicitationCompleteNotification", Some("ElicitationCompleteNotification")),
        ],
        "/$defs/ServerRequest" => ServerRequest [
            (0, Some("PingRequest"), "PingRequest", Some("PingRequest")),
            (1, Some("GetTaskRequest"), "GetTaskRequest", Some("GetTaskRequest")),
            (2, Some("GetTaskPayloadRequest"), "GetTaskPayloadRequest", Some("GetTaskPayloadRequest")),
            (3, Some("CancelTaskRequest"), "CancelTaskRequest", Some("CancelTaskRequest")),
            (4, Some("ListTasksRequest"), "ListTasksRequest", Some("ListTasksRequest")),
            (5, Some("CreateMessageRequest"), "CreateMessageRequest", Some("CreateMessageRequest")),
            (6, Some("ListRootsRequest"), "ListRootsRequest", Some("ListRootsRequest")),
            (7, Some("ElicitRequest"), "ElicitRequest", Some("ElicitRequest")),
        ],
        "/$defs/ServerResult" => ServerResult [
            (0, Some("Result"), "Result", Some("BaseResult")),
            (1, Some("InitializeResult"), "InitializeResult", Some("InitializeResult")),
            (2, Some("ListResourcesResult"), "ListResourcesResult", Some("ListResourcesResult")),
            (3, Some("ListResourceTemplatesResult"), "ListResourceTemplatesResult", Some("ListResourceTemplatesResult")),
            (4, Some("ReadResourceResult"), "ReadResourceResult", Some("ReadResourceResult")),
            (5, Some("ListPromptsResult"), "ListPromptsResult", Some("ListPromptsResult")),
            (6, Some("GetPromptResult"), "GetPromptResult", Some("GetPromptResult")),
            (7, Some("ListToolsResult"), "ListToolsResult", Some("ListToolsResult")),
            (8, Some("CallToolResult"), "CallToolResult", Some("CallToolResult")),
            (9, Some("GetTaskResult"), "GetTaskResult", Some("GetTaskResult")),
            (10, Some("GetTaskPayloadResult"), "GetTaskPayloadResult", Some("GetTaskPayloadResult")),
            (11, Some("CancelTaskResult"), "CancelTaskResult", Some("CancelTaskResult")),
            (12, Some("ListTasksResult"), "ListTasksResult", Some("ListTasksResult")),
            (13, Some("CompleteResult"), "CompleteResult", Some("CompleteResult")),
        ],
        "/$defs/SingleSelectEnumSchema" => SingleSelectEnumSchema [
            (0, Some("UntitledSingleSelectEnumSchema"), "UntitledSingleSelectEnumSchema", Some("UntitledSingleSelectEnumSchema")),
            (1, Some("TitledSingleSelectEnumSchema"), "TitledSingleSelectEnumSchema", Some("TitledSingleSelectEnumSchema")),
        ],
        "/$defs/CompleteRequestParams/properties/ref" => CompleteRequestParamsRef [
            (0, Some("PromptReference"), "PromptReference", Some("PromptReference")),
            (1, Some("ResourceTemplateReference"), "ResourceTemplateReference", Some("ResourceTemplateReference")),
        ],
        "/$defs/CreateMessageResult/properties/content" => CreateMessageResultContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ToolUseContent"), "ToolUseContent", Some("ToolUseContent")),
            (4, Some("ToolResultContent"), "ToolResultContent", Some("ToolResultContent")),
            (5, None, "Array", None),
        ],
        "/$defs/ElicitResult/properties/content/additionalProperties" => ElicitResultContentValue [
            (0, None, "Variant0", None),
            (1, None, "Variant1", None),
        ],
        "/$defs/EmbeddedResource/properties/resource" => EmbeddedResourceContents [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/$defs/ReadResourceResult/properties/contents/items" => ReadResourceResultContentsItem [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/$defs/SamplingMessage/properties/content" => SamplingMessageContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ToolUseContent"), "ToolUseContent", Some("ToolUseContent")),
            (4, Some("ToolResultContent"), "ToolResultContent", Some("ToolResultContent")),
            (5, None, "Array", None),
        ],
    }
}

#[cfg(feature = "v2026_07_28")]
table! {
    v2026_07_28;
    definitions {
        "Annotations" => Annotations,
        "AudioContent" => AudioContent,
        "BaseMetadata" => BaseMetadata,
        "BlobResourceContents" => BlobResourceContents,
        "BooleanSchema" => BooleanSchema,
        "CacheableResult" => CacheableResult,
        "CallToolRequest" => CallToolRequest,
        "CallToolRequestParams" => CallToolRequestParams,
        "CallToolResult" => CallToolResult,
        "CallToolResultResponse" => CallToolResultResponse,
        "CancelledNotification" => CancelledNotification,
        "CancelledNotificationParams" => CancelledNotificationParams,
        "ClientCapabilities" => ClientCapabilities,
        "ClientNotification" => ClientNotification,
        "ClientRequest" => ClientRequest,
        "ClientResult" => ClientResult,
        "CompleteRequest" => CompleteRequest,
        "CompleteRequestParams" => CompleteRequestParams,
        "CompleteResult" => CompleteResult,
        "CompleteResultResponse" => CompleteResultResponse,
        "ContentBlock" => ContentBlock,
        "CreateMessageRequest" => CreateMessageRequest,
        "CreateMessageRequestParams" => CreateMessageRequestParams,
        "CreateMessageResult" => CreateMessageResult,
        "Cursor" => ::mcp_spec_types::Cursor,
        "DiscoverRequest" => DiscoverRequest,
        "DiscoverResult" => DiscoverResult,
        "DiscoverResultResponse" => DiscoverResultResponse,
        "ElicitRequest" => ElicitRequest,
        "ElicitRequestFormParams" => ElicitRequestFormParams,
        "ElicitRequestParams" => ElicitRequestParams,
        "ElicitRequestURLParams" => ElicitRequestUrlParams,
        "ElicitResult" => ElicitResult,
        "EmbeddedResource" => EmbeddedResource,
        "EmptyResult" => EmptyResult,
        "EnumSchema" => EnumSchema,
        "Error" => ErrorObject,
        "GetPromptRequest" => GetPromptRequest,
        "GetPromptRequestParams" => GetPromptRequestParams,
        "GetPromptResult" => GetPromptResult,
        "GetPromptResultResponse" => GetPromptResultResponse,
        "HeaderMismatchError" => HeaderMismatchError,
        "Icon" => Icon,
        "Icons" => Icons,
        "ImageContent" => ImageContent,
        "Implementation" => Implementation,
        "InputRequest" => InputRequest,
        "InputRequests" => InputRequests,
        "InputRequiredResult" => InputRequiredResult,
        "InputResponse" => InputResponse,
        "InputResponseRequestParams" => InputResponseRequestParams,
        "InputResponses" => InputResponses,
        "InternalError" => InternalError,
        "InvalidParamsError" => InvalidParamsError,
        "InvalidRequestError" => InvalidRequestError,
        "JSONArray" => ::std::vec::Vec<::serde_json::Value>,
        "JSONObject" => ::serde_json::Map<::std::string::String, ::serde_json::Value>,
        "JSONRPCErrorResponse" => JsonRpcErrorResponse,
        "JSONRPCMessage" => JsonRpcMessage,
        "JSONRPCNotification" => JsonRpcNotification,
        "JSONRPCRequest" => JsonRpcRequest,
        "JSONRPCResponse" => JsonRpcResponse,
        "JSONRPCResultResponse" => JsonRpcResultResponse,
        "JSONValue" => ::serde_json::Value,
        "LegacyTitledEnumSchema" => LegacyTitledEnumSchema,
        "ListPromptsRequest" => ListPromptsRequest,
        "ListPromptsResult" => ListPromptsResult,
        "ListPromptsResultResponse" => ListPromptsResultResponse,
        "ListResourceTemplatesRequest" => ListResourceTemplatesRequest,
        "ListResourceTemplatesResult" => ListResourceTemplatesResult,
        "ListResourceTemplatesResultResponse" => ListResourceTemplatesResultResponse,
        "ListResourcesRequest" => ListResourcesRequest,
        "ListResourcesResult" => ListResourcesResult,
        "ListResourcesResultResponse" => ListResourcesResultResponse,
        "ListRootsRequest" => ListRootsRequest,
        "ListRootsResult" => ListRootsResult,
        "ListToolsRequest" => ListToolsRequest,
        "ListToolsResult" => ListToolsResult,
        "ListToolsResultResponse" => ListToolsResultResponse,
        "LoggingLevel" => LoggingLevel,
        "LoggingMessageNotification" => LoggingMessageNotification,
        "LoggingMessageNotificationParams" => LoggingMessageNotificationParams,
        "MetaObject" => MetaObject,
        "MethodNotFoundError" => MethodNotFoundError,
        "MissingRequiredClientCapabilityError" => MissingRequiredClientCapabilityError,
        "ModelHint" => ModelHint,
        "ModelPreferences" => ModelPreferences,
        "MultiSelectEnumSchema" => MultiSelectEnumSchema,
        "Notification" => Notification,
        "NotificationMetaObject" => NotificationMetaObject,
        "NotificationParams" => NotificationParams,
        "NumberSchema" => NumberSchema,
        "PaginatedRequest" => PaginatedRequest,
        "PaginatedRequestParams" => PaginatedRequestParams,
        "PaginatedResult" => PaginatedResult,
        "ParseError" => ParseError,
        "PrimitiveSchemaDefinition" => PrimitiveSchemaDefinition,
        "ProgressNotification" => ProgressNotification,
        "ProgressNotificationParams" => ProgressNotificationParams,
        "ProgressToken" => ::mcp_spec_types::ProgressToken,
        "Prompt" => Prompt,
        "PromptArgument" => PromptArgument,
        "PromptListChangedNotification" => PromptListChangedNotification,
        "PromptMessage" => PromptMessage,
        "PromptReference" => PromptReference,
        "ReadResourceRequest" => ReadResourceRequest,
        "ReadResourceRequestParams" => ReadResourceRequestParams,
        "ReadResourceResult" => ReadResourceResult,
        "ReadResourceResultResponse" => ReadResourceResultResponse,
        "Request" => Request,
        "RequestId" => ::mcp_spec_types::RequestId,
        "RequestMetaObject" => RequestMetaObject,
        "RequestParams" => RequestParams,
        "Resource" => Resource,
        "ResourceContents" => ResourceContents,
        "ResourceLink" => ResourceLink,
        "ResourceListChangedNotification" => ResourceListChangedNotification,
        "ResourceRequestParams" => ResourceRequestParams,
        "ResourceTemplate" => ResourceTemplate,
        "ResourceTemplateReference" => ResourceTemplateReference,
        "ResourceUpdatedNotification" => ResourceUpdatedNotification,
        "ResourceUpdatedNotificationParams" => ResourceUpdatedNotificationParams,
        "Result" => BaseResult,
        "ResultMetaObject" => ResultMetaObject,
        "ResultType" => ResultType,
        "Role" => Role,
        "Root" => Root,
        "SamplingMessage" => SamplingMessage,
        "SamplingMessageContentBlock" => SamplingMessageContentBlock,
        "ServerCapabilities" => ServerCapabilities,
        "ServerNotification" => ServerNotification,
        "ServerResult" => ServerResult,
        "SingleSelectEnumSchema" => SingleSelectEnumSchema,
        "StringSchema" => StringSchema,
        "SubscriptionFilter" => SubscriptionFilter,
        "SubscriptionsAcknowledgedNotification" => SubscriptionsAcknowledgedNotification,
        "SubscriptionsAcknowledgedNotificationParams" => SubscriptionsAcknowledgedNotificationParams,
        "SubscriptionsListenRequest" => SubscriptionsListenRequest,
        "SubscriptionsListenRequestParams" => SubscriptionsListenRequestParams,
        "SubscriptionsListenResult" => SubscriptionsListenResult,
        "SubscriptionsListenResultMetaObject" => SubscriptionsListenResultMetaObject,
        "SubscriptionsListenResultResponse" => SubscriptionsListenResultResponse,
        "TextContent" => TextContent,
        "TextResourceContents" => TextResourceContents,
        "TitledMultiSelectEnumSchema" => TitledMultiSelectEnumSchema,
        "TitledSingleSelectEnumSchema" => TitledSingleSelectEnumSchema,
        "Tool" => Tool,
        "ToolAnnotations" => ToolAnnotations,
        "ToolChoice" => ToolChoice,
        "ToolListChangedNotification" => ToolListChangedNotification,
        "ToolResultContent" => ToolResultContent,
        "ToolUseContent" => ToolUseContent,
        "UnsupportedProtocolVersionError" => UnsupportedProtocolVersionError,
        "UntitledMultiSelectEnumSchema" => UntitledMultiSelectEnumSchema,
        "UntitledSingleSelectEnumSchema" => UntitledSingleSelectEnumSchema,
    }
    unions {
        "/$defs/ClientRequest" => ClientRequest [
            (0, Some("DiscoverRequest"), "DiscoverRequest", Some("DiscoverRequest")),
            (1, Some("ListResourcesRequest"), "ListResourcesRequest", Some("ListResourcesRequest")),
            (2, Some("ListResourceTemplatesRequest"), "ListResourceTemplatesRequest", Some("ListResourceTemplatesRequest")),
            (3, Some("ReadResourceRequest"), "ReadResourceRequest", Some("ReadResourceRequest")),
            (4, Some("SubscriptionsListenRequest"), "SubscriptionsListenRequest", Some("SubscriptionsListenRequest")),
            (5, Some("ListPromptsRequest"), "ListPromptsRequest", Some("ListPromptsRequest")),
            (6, Some("GetPromptRequest"), "GetPromptRequest", Some("GetPromptRequest")),
            (7, Some("ListToolsRequest"), "ListToolsRequest", Some("ListToolsRequest")),
            (8, Some("CallToolRequest"), "CallToolRequest", Some("CallToolRequest")),
            (9, Some("CompleteRequest"), "CompleteRequest", Some("CompleteRequest")),
        ],
        "/$defs/ContentBlock" => ContentBlock [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ResourceLink"), "ResourceLink", Some("ResourceLink")),
            (4, Some("EmbeddedResource"), "EmbeddedResource", Some("EmbeddedResource")),
        ],
        "/$defs/ElicitRequestParams" => ElicitRequestParams [
            (0, Some("ElicitRequestFormParams"), "FormParams", Some("ElicitRequestFormParams")),
            (1, Some("ElicitRequestURLParams"), "UrlParams", Some("ElicitRequestUrlParams")),
        ],
        "/$defs/EnumSchema" => EnumSchema [
            (0, Some("UntitledSingleSelectEnumSchema"), "UntitledSingleSelectEnumSchema", Some("UntitledSingleSelectEnumSchema")),
            (1, Some("TitledSingleSelectEnumSchema"), "TitledSingleSelectEnumSchema", Some("TitledSingleSelectEnumSchema")),
            (2, Some("UntitledMultiSelectEnumSchema"), "UntitledMultiSelectEnumSchema", Some("UntitledMultiSelectEnumSchema")),
            (3, Some("TitledMultiSelectEnumSchema"), "TitledMultiSelectEnumSchema", Some("TitledMultiSelectEnumSchema")),
            (4, Some("LegacyTitledEnumSchema"), "LegacyTitledEnumSchema", Some("LegacyTitledEnumSchema")),
        ],
        "/$defs/InputRequest" => InputRequest [
            (0, Some("CreateMessageRequest"), "CreateMessageRequest", Some("CreateMessageRequest")),
            (1, Some("ListRootsRequest"), "ListRootsRequest", Some("ListRootsRequest")),
            (2, Some("ElicitRequest"), "ElicitRequest", Some("ElicitRequest")),
        ],
        "/$defs/InputResponse" => InputResponse [
            (0, Some("CreateMessageResult"), "CreateMessageResult", Some("CreateMessageResult")),
            (1, Some("ListRootsResult"), "ListRootsResult", Some("ListRootsResult")),
            (2, Some("ElicitResult"), "ElicitResult", Some("ElicitResult")),
        ],
        "/$defs/JSONRPCMessage" => JsonRpcMessage [
            (0, Some("JSONRPCRequest"), "Request", Some("JsonRpcRequest")),
            (1, Some("JSONRPCNotification"), "Notification", Some("JsonRpcNotification")),
            (2, Some("JSONRPCResultResponse"), "ResultResponse", Some("JsonRpcResultResponse")),
            (3, Some("JSONRPCErrorResponse"), "ErrorResponse", Some("JsonRpcErrorResponse")),
        ],
        "/$defs/JSONRPCResponse" => JsonRpcResponse [
            (0, Some("JSONRPCResultResponse"), "ResultResponse", Some("JsonRpcResultResponse")),
            (1, Some("JSONRPCErrorResponse"), "ErrorResponse", Some("JsonRpcErrorResponse")),
        ],
        "/$defs/MultiSelectEnumSchema" => MultiSelectEnumSchema [
            (0, Some("UntitledMultiSelectEnumSchema"), "UntitledMultiSelectEnumSchema", Some("UntitledMultiSelectEnumSchema")),
            (1, Some("TitledMultiSelectEnumSchema"), "TitledMultiSelectEnumSchema", Some("TitledMultiSelectEnumSchema")),
        ],
        "/$defs/PrimitiveSchemaDefinition" => PrimitiveSchemaDefinition [
            (0, Some("StringSchema"), "StringSchema", Some("StringSchema")),
            (1, Some("NumberSchema"), "NumberSchema", Some("NumberSchema")),
            (2, Some("BooleanSchema"), "BooleanSchema", Some("BooleanSchema")),
            (3, Some("UntitledSingleSelectEnumSchema"), "UntitledSingleSelectEnumSchema", Some("UntitledSingleSelectEnumSchema")),
            (4, Some("TitledSingleSelectEnumSchema"), "TitledSingleSelectEnumSchema", Some("TitledSingleSelectEnumSchema")),
            (5, Some("UntitledMultiSelectEnumSchema"), "UntitledMultiSelectEnumSchema", Some("UntitledMultiSelectEnumSchema")),
            (6, Some("TitledMultiSelectEnumSchema"), "TitledMultiSelectEnumSchema", Some("TitledMultiSelectEnumSchema")),
            (7, Some("LegacyTitledEnumSchema"), "LegacyTitledEnumSchema", Some("LegacyTitledEnumSchema")),
        ],
        "/$defs/SamplingMessageContentBlock" => SamplingMessageContentBlock [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ToolUseContent"), "ToolUseContent", Some("ToolUseContent")),
            (4, Some("ToolResultContent"), "ToolResultContent", Some("ToolResultContent")),
        ],
        "/$defs/ServerNotification" => ServerNotification [
            (0, Some("CancelledNotification"), "CancelledNotification", Some("CancelledNotification")),
            (1, Some("ProgressNotification"), "ProgressNotification", Some("ProgressNotification")),
            (2, Some("ResourceListChangedNotification"), "ResourceListChangedNotification", Some("ResourceListChangedNotification")),
            (3, Some("SubscriptionsAcknowledgedNotification"), "SubscriptionsAcknowledgedNotification", Some("SubscriptionsAcknowledgedNotification")),
            (4, Some("ResourceUpdatedNotification"), "ResourceUpdatedNotification", Some("ResourceUpdatedNotification")),
            (5, Some("PromptListChangedNotification"), "PromptListChangedNotification", Some("PromptListChangedNotification")),
            (6, Some("ToolListChangedNotification"), "ToolListChangedNotification", Some("ToolListChangedNotification")),
            (7, Some("LoggingMessageNotification"), "LoggingMessageNotification", Some("LoggingMessageNotification")),
        ],
        "/$defs/ServerResult" => ServerResult [
            (0, Some("Result"), "Result", Some("BaseResult")),
            (1, Some("InputRequiredResult"), "InputRequiredResult", Some("InputRequiredResult")),
            (2, Some("DiscoverResult"), "DiscoverResult", Some("DiscoverResult")),
            (3, Some("ListResourcesResult"), "ListResourcesResult", Some("ListResourcesResult")),
            (4, Some("ListResourceTemplatesResult"), "ListResourceTemplatesResult", Some("ListResourceTemplatesResult")),
            (5, Some("ReadResourceResult"), "ReadResourceResult", Some("ReadResourceResult")),
            (6, Some("SubscriptionsListenResult"), "SubscriptionsListenResult", Some("SubscriptionsListenResult")),
            (7, Some("ListPromptsResult"), "ListPromptsResult", Some("ListPromptsResult")),
            (8, Some("GetPromptResult"), "GetPromptResult", Some("GetPromptResult")),
            (9, Some("ListToolsResult"), "ListToolsResult", Some("ListToolsResult")),
            (10, Some("CallToolResult"), "CallToolResult", Some("CallToolResult")),
            (11, Some("CompleteResult"), "CompleteResult", Some("CompleteResult")),
        ],
        "/$defs/SingleSelectEnumSchema" => SingleSelectEnumSchema [
            (0, Some("UntitledSingleSelectEnumSchema"), "UntitledSingleSelectEnumSchema", Some("UntitledSingleSelectEnumSchema")),
            (1, Some("TitledSingleSelectEnumSchema"), "TitledSingleSelectEnumSchema", Some("TitledSingleSelectEnumSchema")),
        ],
        "/$defs/CallToolResultResponse/properties/result" => CallToolResultOrInputRequired [
            (0, Some("InputRequiredResult"), "InputRequiredResult", Some("InputRequiredResult")),
            (1, Some("CallToolResult"), "CallToolResult", Some("CallToolResult")),
        ],
        "/$defs/CompleteRequestParams/properties/ref" => CompleteRequestParamsRef [
            (0, Some("PromptReference"), "PromptReference", Some("PromptReference")),
            (1, Some("ResourceTemplateReference"), "ResourceTemplateReference", Some("ResourceTemplateReference")),
        ],
        "/$defs/CreateMessageResult/properties/content" => CreateMessageResultContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ToolUseContent"), "ToolUseContent", Some("ToolUseContent")),
            (4, Some("ToolResultContent"), "ToolResultContent", Some("ToolResultContent")),
            (5, None, "Array", None),
        ],
        "/$defs/ElicitResult/properties/content/additionalProperties" => ElicitResultContentValue [
            (0, None, "Variant0", None),
            (1, None, "Variant1", None),
        ],
        "/$defs/EmbeddedResource/properties/resource" => EmbeddedResourceContents [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/$defs/GetPromptResultResponse/properties/result" => GetPromptResultOrInputRequired [
            (0, Some("InputRequiredResult"), "InputRequiredResult", Some("InputRequiredResult")),
            (1, Some("GetPromptResult"), "GetPromptResult", Some("GetPromptResult")),
        ],
        "/$defs/ReadResourceResult/properties/contents/items" => ReadResourceResultContentsItem [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/$defs/ReadResourceResultResponse/properties/result" => ReadResourceResultOrInputRequired [
            (0, Some("InputRequiredResult"), "InputRequiredResult", Some("InputRequiredResult")),
            (1, Some("ReadResourceResult"), "ReadResourceResult", Some("ReadResourceResult")),
        ],
        "/$defs/SamplingMessage/properties/content" => SamplingMessageContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ToolUseContent"), "ToolUseContent", Some("ToolUseContent")),
            (4, Some("ToolResultContent"), "ToolResultContent", Some("ToolResultContent")),
            (5, None, "Array", None),
        ],
    }
}

#[cfg(feature = "unstable-draft")]
table! {
    draft;
    definitions {
        "Annotations" => Annotations,
        "AudioContent" => AudioContent,
        "BaseMetadata" => BaseMetadata,
        "BlobResourceContents" => BlobResourceContents,
        "BooleanSchema" => BooleanSchema,
        "CacheableResult" => CacheableResult,
        "CallToolRequest" => CallToolRequest,
        "CallToolRequestParams" => CallToolRequestParams,
        "CallToolResult" => CallToolResult,
        "CallToolResultResponse" => CallToolResultResponse,
        "CancelledNotification" => CancelledNotification,
        "CancelledNotificationParams" => CancelledNotificationParams,
        "ClientCapabilities" => ClientCapabilities,
        "ClientNotification" => ClientNotification,
        "ClientRequest" => ClientRequest,
        "ClientResult" => ClientResult,
        "CompleteRequest" => CompleteRequest,
        "CompleteRequestParams" => CompleteRequestParams,
        "CompleteResult" => CompleteResult,
        "CompleteResultResponse" => CompleteResultResponse,
        "ContentBlock" => ContentBlock,
        "CreateMessageRequest" => CreateMessageRequest,
        "CreateMessageRequestParams" => CreateMessageRequestParams,
        "CreateMessageResult" => CreateMessageResult,
        "Cursor" => ::mcp_spec_types::Cursor,
        "DiscoverRequest" => DiscoverRequest,
        "DiscoverResult" => DiscoverResult,
        "DiscoverResultResponse" => DiscoverResultResponse,
        "ElicitRequest" => ElicitRequest,
        "ElicitRequestFormParams" => ElicitRequestFormParams,
        "ElicitRequestParams" => ElicitRequestParams,
        "ElicitRequestURLParams" => ElicitRequestUrlParams,
        "ElicitResult" => ElicitResult,
        "EmbeddedResource" => EmbeddedResource,
        "EmptyResult" => EmptyResult,
        "EnumSchema" => EnumSchema,
        "Error" => ErrorObject,
        "GetPromptRequest" => GetPromptRequest,
        "GetPromptRequestParams" => GetPromptRequestParams,
        "GetPromptResult" => GetPromptResult,
        "GetPromptResultResponse" => GetPromptResultResponse,
        "HeaderMismatchError" => HeaderMismatchError,
        "Icon" => Icon,
        "Icons" => Icons,
        "ImageContent" => ImageContent,
        "Implementation" => Implementation,
        "InputRequest" => InputRequest,
        "InputRequests" => InputRequests,
        "InputRequiredResult" => InputRequiredResult,
        "InputResponse" => InputResponse,
        "InputResponseRequestParams" => InputResponseRequestParams,
        "InputResponses" => InputResponses,
        "InternalError" => InternalError,
        "InvalidParamsError" => InvalidParamsError,
        "InvalidRequestError" => InvalidRequestError,
        "JSONArray" => ::std::vec::Vec<::serde_json::Value>,
        "JSONObject" => ::serde_json::Map<::std::string::String, ::serde_json::Value>,
        "JSONRPCErrorResponse" => JsonRpcErrorResponse,
        "JSONRPCMessage" => JsonRpcMessage,
        "JSONRPCNotification" => JsonRpcNotification,
        "JSONRPCRequest" => JsonRpcRequest,
        "JSONRPCResponse" => JsonRpcResponse,
        "JSONRPCResultResponse" => JsonRpcResultResponse,
        "JSONValue" => ::serde_json::Value,
        "LegacyTitledEnumSchema" => LegacyTitledEnumSchema,
        "ListPromptsRequest" => ListPromptsRequest,
        "ListPromptsResult" => ListPromptsResult,
        "ListPromptsResultResponse" => ListPromptsResultResponse,
        "ListResourceTemplatesRequest" => ListResourceTemplatesRequest,
        "ListResourceTemplatesResult" => ListResourceTemplatesResult,
        "ListResourceTemplatesResultResponse" => ListResourceTemplatesResultResponse,
        "ListResourcesRequest" => ListResourcesRequest,
        "ListResourcesResult" => ListResourcesResult,
        "ListResourcesResultResponse" => ListResourcesResultResponse,
        "ListRootsRequest" => ListRootsRequest,
        "ListRootsResult" => ListRootsResult,
        "ListToolsRequest" => ListToolsRequest,
        "ListToolsResult" => ListToolsResult,
        "ListToolsResultResponse" => ListToolsResultResponse,
        "LoggingLevel" => LoggingLevel,
        "LoggingMessageNotification" => LoggingMessageNotification,
        "LoggingMessageNotificationParams" => LoggingMessageNotificationParams,
        "MetaObject" => MetaObject,
        "MethodNotFoundError" => MethodNotFoundError,
        "MissingRequiredClientCapabilityError" => MissingRequiredClientCapabilityError,
        "ModelHint" => ModelHint,
        "ModelPreferences" => ModelPreferences,
        "MultiSelectEnumSchema" => MultiSelectEnumSchema,
        "Notification" => Notification,
        "NotificationMetaObject" => NotificationMetaObject,
        "NotificationParams" => NotificationParams,
        "NumberSchema" => NumberSchema,
        "PaginatedRequest" => PaginatedRequest,
        "PaginatedRequestParams" => PaginatedRequestParams,
        "PaginatedResult" => PaginatedResult,
        "ParseError" => ParseError,
        "PrimitiveSchemaDefinition" => PrimitiveSchemaDefinition,
        "ProgressNotification" => ProgressNotification,
        "ProgressNotificationParams" => ProgressNotificationParams,
        "ProgressToken" => ::mcp_spec_types::ProgressToken,
        "Prompt" => Prompt,
        "PromptArgument" => PromptArgument,
        "PromptListChangedNotification" => PromptListChangedNotification,
        "PromptMessage" => PromptMessage,
        "PromptReference" => PromptReference,
        "ReadResourceRequest" => ReadResourceRequest,
        "ReadResourceRequestParams" => ReadResourceRequestParams,
        "ReadResourceResult" => ReadResourceResult,
        "ReadResourceResultResponse" => ReadResourceResultResponse,
        "Request" => Request,
        "RequestId" => ::mcp_spec_types::RequestId,
        "RequestMetaObject" => RequestMetaObject,
        "RequestParams" => RequestParams,
        "Resource" => Resource,
        "ResourceContents" => ResourceContents,
        "ResourceLink" => ResourceLink,
        "ResourceListChangedNotification" => ResourceListChangedNotification,
        "ResourceRequestParams" => ResourceRequestParams,
        "ResourceTemplate" => ResourceTemplate,
        "ResourceTemplateReference" => ResourceTemplateReference,
        "ResourceUpdatedNotification" => ResourceUpdatedNotification,
        "ResourceUpdatedNotificationParams" => ResourceUpdatedNotificationParams,
        "Result" => BaseResult,
        "ResultMetaObject" => ResultMetaObject,
        "ResultType" => ResultType,
        "Role" => Role,
        "Root" => Root,
        "SamplingMessage" => SamplingMessage,
        "SamplingMessageContentBlock" => SamplingMessageContentBlock,
        "ServerCapabilities" => ServerCapabilities,
        "ServerNotification" => ServerNotification,
        "ServerResult" => ServerResult,
        "SingleSelectEnumSchema" => SingleSelectEnumSchema,
        "StringSchema" => StringSchema,
        "SubscriptionFilter" => SubscriptionFilter,
        "SubscriptionsAcknowledgedNotification" => SubscriptionsAcknowledgedNotification,
        "SubscriptionsAcknowledgedNotificationParams" => SubscriptionsAcknowledgedNotificationParams,
        "SubscriptionsListenRequest" => SubscriptionsListenRequest,
        "SubscriptionsListenRequestParams" => SubscriptionsListenRequestParams,
        "SubscriptionsListenResult" => SubscriptionsListenResult,
        "SubscriptionsListenResultMetaObject" => SubscriptionsListenResultMetaObject,
        "SubscriptionsListenResultResponse" => SubscriptionsListenResultResponse,
        "TextContent" => TextContent,
        "TextResourceContents" => TextResourceContents,
        "TitledMultiSelectEnumSchema" => TitledMultiSelectEnumSchema,
        "TitledSingleSelectEnumSchema" => TitledSingleSelectEnumSchema,
        "Tool" => Tool,
        "ToolAnnotations" => ToolAnnotations,
        "ToolChoice" => ToolChoice,
        "ToolListChangedNotification" => ToolListChangedNotification,
        "ToolResultContent" => ToolResultContent,
        "ToolUseContent" => ToolUseContent,
        "UnsupportedProtocolVersionError" => UnsupportedProtocolVersionError,
        "UntitledMultiSelectEnumSchema" => UntitledMultiSelectEnumSchema,
        "UntitledSingleSelectEnumSchema" => UntitledSingleSelectEnumSchema,
    }
    unions {
        "/$defs/ClientRequest" => ClientRequest [
            (0, Some("DiscoverRequest"), "DiscoverRequest", Some("DiscoverRequest")),
            (1, Some("ListResourcesRequest"), "ListResourcesRequest", Some("ListResourcesRequest")),
            (2, Some("ListResourceTemplatesRequest"), "ListResourceTemplatesRequest", Some("ListResourceTemplatesRequest")),
            (3, Some("ReadResourceRequest"), "ReadResourceRequest", Some("ReadResourceRequest")),
            (4, Some("SubscriptionsListenRequest"), "SubscriptionsListenRequest", Some("SubscriptionsListenRequest")),
            (5, Some("ListPromptsRequest"), "ListPromptsRequest", Some("ListPromptsRequest")),
            (6, Some("GetPromptRequest"), "GetPromptRequest", Some("GetPromptRequest")),
            (7, Some("ListToolsRequest"), "ListToolsRequest", Some("ListToolsRequest")),
            (8, Some("CallToolRequest"), "CallToolRequest", Some("CallToolRequest")),
            (9, Some("CompleteRequest"), "CompleteRequest", Some("CompleteRequest")),
        ],
        "/$defs/ContentBlock" => ContentBlock [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ResourceLink"), "ResourceLink", Some("ResourceLink")),
            (4, Some("EmbeddedResource"), "EmbeddedResource", Some("EmbeddedResource")),
        ],
        "/$defs/ElicitRequestParams" => ElicitRequestParams [
            (0, Some("ElicitRequestFormParams"), "FormParams", Some("ElicitRequestFormParams")),
            (1, Some("ElicitRequestURLParams"), "UrlParams", Some("ElicitRequestUrlParams")),
        ],
        "/$defs/EnumSchema" => EnumSchema [
            (0, Some("UntitledSingleSelectEnumSchema"), "UntitledSingleSelectEnumSchema", Some("UntitledSingleSelectEnumSchema")),
            (1, Some("TitledSingleSelectEnumSchema"), "TitledSingleSelectEnumSchema", Some("TitledSingleSelectEnumSchema")),
            (2, Some("UntitledMultiSelectEnumSchema"), "UntitledMultiSelectEnumSchema", Some("UntitledMultiSelectEnumSchema")),
            (3, Some("TitledMultiSelectEnumSchema"), "TitledMultiSelectEnumSchema", Some("TitledMultiSelectEnumSchema")),
            (4, Some("LegacyTitledEnumSchema"), "LegacyTitledEnumSchema", Some("LegacyTitledEnumSchema")),
        ],
        "/$defs/InputRequest" => InputRequest [
            (0, Some("CreateMessageRequest"), "CreateMessageRequest", Some("CreateMessageRequest")),
            (1, Some("ListRootsRequest"), "ListRootsRequest", Some("ListRootsRequest")),
            (2, Some("ElicitRequest"), "ElicitRequest", Some("ElicitRequest")),
        ],
        "/$defs/InputResponse" => InputResponse [
            (0, Some("CreateMessageResult"), "CreateMessageResult", Some("CreateMessageResult")),
            (1, Some("ListRootsResult"), "ListRootsResult", Some("ListRootsResult")),
            (2, Some("ElicitResult"), "ElicitResult", Some("ElicitResult")),
        ],
        "/$defs/JSONRPCMessage" => JsonRpcMessage [
            (0, Some("JSONRPCRequest"), "Request", Some("JsonRpcRequest")),
            (1, Some("JSONRPCNotification"), "Notification", Some("JsonRpcNotification")),
            (2, Some("JSONRPCResultResponse"), "ResultResponse", Some("JsonRpcResultResponse")),
            (3, Some("JSONRPCErrorResponse"), "ErrorResponse", Some("JsonRpcErrorResponse")),
        ],
        "/$defs/JSONRPCResponse" => JsonRpcResponse [
            (0, Some("JSONRPCResultResponse"), "ResultResponse", Some("JsonRpcResultResponse")),
            (1, Some("JSONRPCErrorResponse"), "ErrorResponse", Some("JsonRpcErrorResponse")),
        ],
        "/$defs/MultiSelectEnumSchema" => MultiSelectEnumSchema [
            (0, Some("UntitledMultiSelectEnumSchema"), "UntitledMultiSelectEnumSchema", Some("UntitledMultiSelectEnumSchema")),
            (1, Some("TitledMultiSelectEnumSchema"), "TitledMultiSelectEnumSchema", Some("TitledMultiSelectEnumSchema")),
        ],
        "/$defs/PrimitiveSchemaDefinition" => PrimitiveSchemaDefinition [
            (0, Some("StringSchema"), "StringSchema", Some("StringSchema")),
            (1, Some("NumberSchema"), "NumberSchema", Some("NumberSchema")),
            (2, Some("BooleanSchema"), "BooleanSchema", Some("BooleanSchema")),
            (3, Some("UntitledSingleSelectEnumSchema"), "UntitledSingleSelectEnumSchema", Some("UntitledSingleSelectEnumSchema")),
            (4, Some("TitledSingleSelectEnumSchema"), "TitledSingleSelectEnumSchema", Some("TitledSingleSelectEnumSchema")),
            (5, Some("UntitledMultiSelectEnumSchema"), "UntitledMultiSelectEnumSchema", Some("UntitledMultiSelectEnumSchema")),
            (6, Some("TitledMultiSelectEnumSchema"), "TitledMultiSelectEnumSchema", Some("TitledMultiSelectEnumSchema")),
            (7, Some("LegacyTitledEnumSchema"), "LegacyTitledEnumSchema", Some("LegacyTitledEnumSchema")),
        ],
        "/$defs/SamplingMessageContentBlock" => SamplingMessageContentBlock [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ToolUseContent"), "ToolUseContent", Some("ToolUseContent")),
            (4, Some("ToolResultContent"), "ToolResultContent", Some("ToolResultContent")),
        ],
        "/$defs/ServerNotification" => ServerNotification [
            (0, Some("CancelledNotification"), "CancelledNotification", Some("CancelledNotification")),
            (1, Some("ProgressNotification"), "ProgressNotification", Some("ProgressNotification")),
            (2, Some("ResourceListChangedNotification"), "ResourceListChangedNotification", Some("ResourceListChangedNotification")),
            (3, Some("SubscriptionsAcknowledgedNotification"), "SubscriptionsAcknowledgedNotification", Some("SubscriptionsAcknowledgedNotification")),
            (4, Some("ResourceUpdatedNotification"), "ResourceUpdatedNotification", Some("ResourceUpdatedNotification")),
            (5, Some("PromptListChangedNotification"), "PromptListChangedNotification", Some("PromptListChangedNotification")),
            (6, Some("ToolListChangedNotification"), "ToolListChangedNotification", Some("ToolListChangedNotification")),
            (7, Some("LoggingMessageNotification"), "LoggingMessageNotification", Some("LoggingMessageNotification")),
        ],
        "/$defs/ServerResult" => ServerResult [
            (0, Some("Result"), "Result", Some("BaseResult")),
            (1, Some("InputRequiredResult"), "InputRequiredResult", Some("InputRequiredResult")),
            (2, Some("DiscoverResult"), "DiscoverResult", Some("DiscoverResult")),
            (3, Some("ListResourcesResult"), "ListResourcesResult", Some("ListResourcesResult")),
            (4, Some("ListResourceTemplatesResult"), "ListResourceTemplatesResult", Some("ListResourceTemplatesResult")),
            (5, Some("ReadResourceResult"), "ReadResourceResult", Some("ReadResourceResult")),
            (6, Some("SubscriptionsListenResult"), "SubscriptionsListenResult", Some("SubscriptionsListenResult")),
            (7, Some("ListPromptsResult"), "ListPromptsResult", Some("ListPromptsResult")),
            (8, Some("GetPromptResult"), "GetPromptResult", Some("GetPromptResult")),
            (9, Some("ListToolsResult"), "ListToolsResult", Some("ListToolsResult")),
            (10, Some("CallToolResult"), "CallToolResult", Some("CallToolResult")),
            (11, Some("CompleteResult"), "CompleteResult", Some("CompleteResult")),
        ],
        "/$defs/SingleSelectEnumSchema" => SingleSelectEnumSchema [
            (0, Some("UntitledSingleSelectEnumSchema"), "UntitledSingleSelectEnumSchema", Some("UntitledSingleSelectEnumSchema")),
            (1, Some("TitledSingleSelectEnumSchema"), "TitledSingleSelectEnumSchema", Some("TitledSingleSelectEnumSchema")),
        ],
        "/$defs/CallToolResultResponse/properties/result" => CallToolResultOrInputRequired [
            (0, Some("InputRequiredResult"), "InputRequiredResult", Some("InputRequiredResult")),
            (1, Some("CallToolResult"), "CallToolResult", Some("CallToolResult")),
        ],
        "/$defs/CompleteRequestParams/properties/ref" => CompleteRequestParamsRef [
            (0, Some("PromptReference"), "PromptReference", Some("PromptReference")),
            (1, Some("ResourceTemplateReference"), "ResourceTemplateReference", Some("ResourceTemplateReference")),
        ],
        "/$defs/CreateMessageResult/properties/content" => CreateMessageResultContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ToolUseContent"), "ToolUseContent", Some("ToolUseContent")),
            (4, Some("ToolResultContent"), "ToolResultContent", Some("ToolResultContent")),
            (5, None, "Array", None),
        ],
        "/$defs/ElicitResult/properties/content/additionalProperties" => ElicitResultContentValue [
            (0, None, "Variant0", None),
            (1, None, "Variant1", None),
        ],
        "/$defs/EmbeddedResource/properties/resource" => EmbeddedResourceContents [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/$defs/GetPromptResultResponse/properties/result" => GetPromptResultOrInputRequired [
            (0, Some("InputRequiredResult"), "InputRequiredResult", Some("InputRequiredResult")),
            (1, Some("GetPromptResult"), "GetPromptResult", Some("GetPromptResult")),
        ],
        "/$defs/ReadResourceResult/properties/contents/items" => ReadResourceResultContentsItem [
            (0, Some("TextResourceContents"), "TextResourceContents", Some("TextResourceContents")),
            (1, Some("BlobResourceContents"), "BlobResourceContents", Some("BlobResourceContents")),
        ],
        "/$defs/ReadResourceResultResponse/properties/result" => ReadResourceResultOrInputRequired [
            (0, Some("InputRequiredResult"), "InputRequiredResult", Some("InputRequiredResult")),
            (1, Some("ReadResourceResult"), "ReadResourceResult", Some("ReadResourceResult")),
        ],
        "/$defs/SamplingMessage/properties/content" => SamplingMessageContent [
            (0, Some("TextContent"), "TextContent", Some("TextContent")),
            (1, Some("ImageContent"), "ImageContent", Some("ImageContent")),
            (2, Some("AudioContent"), "AudioContent", Some("AudioContent")),
            (3, Some("ToolUseContent"), "ToolUseContent", Some("ToolUseContent")),
            (4, Some("ToolResultContent"), "ToolResultContent", Some("ToolResultContent")),
            (5, None, "Array", None),
        ],
    }
}
