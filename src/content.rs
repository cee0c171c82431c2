//! Hand-written conveniences for resources and content, written once and added to each
//! revision's generated types by the macros below, invoked at the end of every revision module
//! with the type names that revision has.
//!
//! | macro | adds | revisions |
//! |---|---|---|
//! | `resource_contents!` | `BlobResourceContents::{from_bytes, from_base64, bytes}` | all |
//! | `binary_content!` | `ImageContent`/`AudioContent` `::{from_bytes, from_base64, bytes}` | image: all; audio: 2025-03-26+ |
//! | `content_union!` | `text`, `image`, `audio`, `resource_link`, `resource_text`, `resource_blob`, `as_text` on a content union | `ContentBlock` 2025-06-18+; `CallToolResultContentItem` and `PromptMessageContent` before |
//! | `contents_union!` | `uri`, `mime_type`, `as_text`, `to_bytes` on a resource-contents union | all |
//! | `read_result!` | `ReadResourceResult::{from_contents, text, blob}`  | all |
//! | `resource_template!` | `ResourceTemplate::{parse_uri_template, expand, match_uri}` | all |
//! | `tool_result!` | `CallToolResult::{text, error}` | all |
//! | `resource_messages!` | `ClientCall::{read_resource, list_resources, list_resource_templates, subscribe, unsubscribe}`, `ServerNotify::{resource_updated, resource_list_changed}` | before 2026-07-28 |
//! | `resource_messages!(stateless ...)` | `ClientCall::{read_resource, list_resources, list_resource_templates, listen_resources, subscriptions_listen}` (each with the request `_meta`), `ServerNotify::{resource_updated, resource_updated_for_subscription, resource_list_changed}` | 2026-07-28, draft |

/// `BlobResourceContents` from bytes, from checked base64, and back to bytes.
#[allow(unused_macros)] // Which macros are used depends on the enabled revisions.
macro_rules! resource_contents {
    () => {
        impl BlobResourceContents {
            /// The contents of `uri`: `bytes`, base64-encoded into `blob`, with `mimeType`.
            pub fn from_bytes(
                uri: impl ::core::convert::Into<::alloc::string::String>,
                bytes: impl ::core::convert::AsRef<[u8]>,
                mime_type: impl ::core::convert::Into<::alloc::string::String>,
            ) -> Self {
                Self::new(uri, $crate::blob::encode(bytes.as_ref())).with_mime_type(mime_type)
            }

            /// The contents of `uri` from text that is already base64, checked to be strict
            /// base64 (see [`blob`](crate::blob)) before it is accepted.
            pub fn from_base64(
                uri: impl ::core::convert::Into<::alloc::string::String>,
                encoded: impl ::core::convert::Into<::alloc::string::String>,
            ) -> ::core::result::Result<Self, $crate::blob::Base64Error> {
                let encoded = encoded.into();
                $crate::blob::check(&encoded)?;
                ::core::result::Result::Ok(Self::new(uri, encoded))
            }

            /// Decodes `blob`: the bytes, or why the text is not strict base64.
            pub fn bytes(
                &self,
            ) -> ::core::result::Result<::alloc::vec::Vec<u8>, $crate::blob::Base64Error> {
                $crate::blob::decode(&self.blob)
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use resource_contents;

/// `ImageContent`/`AudioContent` from bytes, from checked base64, and back to bytes.
#[allow(unused_macros)] // Which macros are used depends on the enabled revisions.
macro_rules! binary_content {
    ($ty:ident, $what:literal) => {
        impl $ty {
            #[doc = concat!("An ", $what, ": `bytes`, base64-encoded into `data`, with its MIME type.")]
            pub fn from_bytes(
                bytes: impl ::core::convert::AsRef<[u8]>,
                mime_type: impl ::core::convert::Into<::alloc::string::String>,
            ) -> Self {
                Self::new($crate::blob::encode(bytes.as_ref()), mime_type)
            }

            #[doc = concat!("An ", $what, " from text that is already base64, checked to be strict")]
            /// base64 (see [`blob`](crate::blob)) before it is accepted.
            pub fn from_base64(
                encoded: impl ::core::convert::Into<::alloc::string::String>,
                mime_type: impl ::core::convert::Into<::alloc::string::String>,
            ) -> ::core::result::Result<Self, $crate::blob::Base64Error> {
                let encoded = encoded.into();
                $crate::blob::check(&encoded)?;
                ::core::result::Result::Ok(Self::new(encoded, mime_type))
            }

            /// Decodes `data`: the bytes, or why the text is not strict base64.
            pub fn bytes(&self) -> ::core::result::Result<::alloc::vec::Vec<u8>, $crate::blob::Base64Error> {
                $crate::blob::decode(&self.data)
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use binary_content;

/// Constructors on a content union (`ContentBlock`, or the inline unions before 2025-06-18),
/// one rule per kind of content the union has.
#[allow(unused_macros)] // Which macros are used depends on the enabled revisions.
macro_rules! content_union {
    ($ty:ident: $($kind:ident),+ $(,)?) => {
        $( $crate::content::content_union!(@$kind $ty); )+
    };
    (@text $ty:ident) => {
        impl $ty {
            /// A text block (`{"type": "text", "text": ...}`).
            pub fn text(text: impl ::core::convert::Into<::alloc::string::String>) -> Self {
                Self::from(TextContent::new(text))
            }

            /// The text, when this is a text block.
            pub fn as_text(&self) -> ::core::option::Option<&str> {
                match self {
                    Self::TextContent(content) => ::core::option::Option::Some(&content.text),
                    _ => ::core::option::Option::None,
                }
            }
        }
    };
    (@image $ty:ident) => {
        impl $ty {
            /// An image block: `bytes`, base64-encoded into `data`, with its MIME type.
            pub fn image(
                bytes: impl ::core::convert::AsRef<[u8]>,
                mime_type: impl ::core::convert::Into<::alloc::string::String>,
            ) -> Self {
                Self::from(ImageContent::from_bytes(bytes, mime_type))
            }
        }
    };
    (@audio $ty:ident) => {
        impl $ty {
            /// An audio block: `bytes`, base64-encoded into `data`, with its MIME type.
            pub fn audio(
                bytes: impl ::core::convert::AsRef<[u8]>,
                mime_type: impl ::core::convert::Into<::alloc::string::String>,
            ) -> Self {
                Self::from(AudioContent::from_bytes(bytes, mime_type))
            }
        }
    };
    (@link $ty:ident) => {
        impl $ty {
            /// A link to a resource the server can read (`{"type": "resource_link", ...}`).
            pub fn resource_link(
                uri: impl ::core::convert::Into<::alloc::string::String>,
                name: impl ::core::convert::Into<::alloc::string::String>,
            ) -> Self {
                Self::from(ResourceLink::new(uri, name))
            }
        }
    };
    (@embedded $ty:ident) => {
        impl $ty {
            /// An embedded text resource (`{"type": "resource", "resource": {"uri", "mimeType",
            /// "text"}}`).
            pub fn resource_text(
                uri: impl ::core::convert::Into<::alloc::string::String>,
                text: impl ::core::convert::Into<::alloc::string::String>,
                mime_type: impl ::core::convert::Into<::alloc::string::String>,
            ) -> Self {
                let contents = TextResourceContents::new(uri, text).with_mime_type(mime_type);
                Self::from(EmbeddedResource::new(contents))
            }

            /// An embedded binary resource: `bytes`, base64-encoded into `blob`
            /// (`{"type": "resource", "resource": {"uri", "mimeType", "blob"}}`).
            pub fn resource_blob(
                uri: impl ::core::convert::Into<::alloc::string::String>,
                bytes: impl ::core::convert::AsRef<[u8]>,
                mime_type: impl ::core::convert::Into<::alloc::string::String>,
            ) -> Self {
                let contents = BlobResourceContents::from_bytes(uri, bytes, mime_type);
                Self::from(EmbeddedResource::new(contents))
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use content_union;

/// Accessors on a union of text and blob resource contents (`ReadResourceResultContentsItem`,
/// `EmbeddedResourceContents`).
#[allow(unused_macros)] // Which macros are used depends on the enabled revisions.
macro_rules! contents_union {
    ($ty:ident) => {
        impl $ty {
            /// The URI of the resource.
            pub fn uri(&self) -> &str {
                match self {
                    Self::TextResourceContents(contents) => &contents.uri,
                    Self::BlobResourceContents(contents) => &contents.uri,
                }
            }

            /// The MIME type, if given.
            pub fn mime_type(&self) -> ::core::option::Option<&str> {
                match self {
                    Self::TextResourceContents(contents) => contents.mime_type.as_deref(),
                    Self::BlobResourceContents(contents) => contents.mime_type.as_deref(),
                }
            }

            /// The text, for text contents.
            pub fn as_text(&self) -> ::core::option::Option<&str> {
                match self {
                    Self::TextResourceContents(contents) => {
                        ::core::option::Option::Some(&contents.text)
                    }
                    Self::BlobResourceContents(_) => ::core::option::Option::None,
                }
            }

            /// The bytes: the UTF-8 of text contents, or the decoded `blob` (an error when it
            /// is not strict base64).
            pub fn to_bytes(
                &self,
            ) -> ::core::result::Result<::alloc::vec::Vec<u8>, $crate::blob::Base64Error> {
                match self {
                    Self::TextResourceContents(contents) => {
                        ::core::result::Result::Ok(contents.text.as_bytes().to_vec())
                    }
                    Self::BlobResourceContents(contents) => contents.bytes(),
                }
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use contents_union;

/// `ReadResourceResult` from one or many contents. With `cached: Scope` (2026-07-28), the
/// result also needs `resultType`, `ttlMs` and `cacheScope`: the shortcuts fill the most
/// conservative values (`"complete"`, 0 and `"private"`), changed with `with_ttl_ms` and
/// `with_cache_scope`, or given up front with `complete`.
#[allow(unused_macros)] // Which macros are used depends on the enabled revisions.
macro_rules! read_result {
    ($ty:ident, $item:ident) => {
        impl $ty {
            /// A result carrying `contents` (text or blob resource contents).
            pub fn from_contents<I>(contents: I) -> Self
            where
                I: ::core::iter::IntoIterator,
                I::Item: ::core::convert::Into<$item>,
            {
                Self::new(
                    contents
                        .into_iter()
                        .map(::core::convert::Into::into)
                        .collect::<::alloc::vec::Vec<$item>>(),
                )
            }
            $crate::content::read_result!(@shortcuts $item);
        }
    };
    ($ty:ident, $item:ident, cached: $scope:ident) => {
        impl $ty {
            /// A complete result carrying `contents`, with `resultType: "complete"`,
            /// `ttlMs: 0` (immediately stale) and `cacheScope: "private"`: the values that never
            /// let a cache serve it too long or to someone else. Change them with
            /// `with_ttl_ms` and `with_cache_scope`.
            pub fn from_contents<I>(contents: I) -> Self
            where
                I: ::core::iter::IntoIterator,
                I::Item: ::core::convert::Into<$item>,
            {
                Self::complete(
                    contents
                        .into_iter()
                        .map(::core::convert::Into::into)
                        .collect::<::alloc::vec::Vec<$item>>(),
                    ::core::default::Default::default(),
                    $scope::Private,
                )
            }
            $crate::content::read_result!(@shortcuts $item);
        }
    };
    (@shortcuts $item:ident) => {
        /// A result with one text resource: `uri` and its `text` (set the MIME type through
        /// `from_contents([TextResourceContents::new(uri, text).with_mime_type(...)])`).
        pub fn text(
            uri: impl ::core::convert::Into<::alloc::string::String>,
            text: impl ::core::convert::Into<::alloc::string::String>,
        ) -> Self {
            Self::from_contents([TextResourceContents::new(uri, text)])
        }

        /// A result with one binary resource: `uri`, its `bytes` (base64-encoded into `blob`)
        /// and MIME type.
        pub fn blob(
            uri: impl ::core::convert::Into<::alloc::string::String>,
            bytes: impl ::core::convert::AsRef<[u8]>,
            mime_type: impl ::core::convert::Into<::alloc::string::String>,
        ) -> Self {
            Self::from_contents([BlobResourceContents::from_bytes(uri, bytes, mime_type)])
        }
    };
}
#[allow(unused_imports)]
pub(crate) use read_result;

/// `CallToolResult::{text, error}`: the tool results the spec's pages show most, one text
/// content block, as a success or as a tool error (`isError: true`, which the model sees, unlike
/// a JSON-RPC error). `stateless` (2026-07-28 on): complete results (`resultType: "complete"`).
#[allow(unused_macros)] // Which macros are used depends on the enabled revisions.
macro_rules! tool_result {
    ($($stateless:ident)?) => {
        impl CallToolResult {
            /// A successful result with one text content block.
            pub fn text(text: impl ::core::convert::Into<::alloc::string::String>) -> Self {
                $crate::content::tool_result!(@make $($stateless)? [TextContent::new(text)])
            }

            /// A tool error (`isError: true`) with one text content block saying what went
            /// wrong: the model sees it and can correct itself, as it cannot with a JSON-RPC
            /// error.
            pub fn error(text: impl ::core::convert::Into<::alloc::string::String>) -> Self {
                Self::text(text).with_is_error(true)
            }
        }
    };
    (@make stateless $content:expr) => { Self::complete($content) };
    (@make $content:expr) => { Self::new($content) };
}
#[allow(unused_imports)]
pub(crate) use tool_result;

/// RFC 6570 expansion and matching on `ResourceTemplate`, through
/// [`UriTemplate`](crate::uri_template::UriTemplate).
#[allow(unused_macros)] // Which macros are used depends on the enabled revisions.
macro_rules! resource_template {
    () => {
        impl ResourceTemplate {
            /// Parses `uriTemplate` as an RFC 6570 template.
            pub fn parse_uri_template(
                &self,
            ) -> ::core::result::Result<
                $crate::uri_template::UriTemplate,
                $crate::uri_template::UriTemplateError,
            > {
                $crate::uri_template::UriTemplate::parse(&self.uri_template)
            }

            /// Expands `uriTemplate` with `vars` into a resource URI.
            pub fn expand<V: $crate::uri_template::VarLookup + ?::core::marker::Sized>(
                &self,
                vars: &V,
            ) -> ::core::result::Result<
                ::alloc::string::String,
                $crate::uri_template::UriTemplateError,
            > {
                ::core::result::Result::Ok(self.parse_uri_template()?.expand(vars))
            }

            /// Matches `uri` against `uriTemplate`: the variables when it is one of the
            /// template's URIs, `None` when not (see
            /// [`UriTemplate::match_uri`](crate::uri_template::UriTemplate::match_uri)).
            pub fn match_uri(
                &self,
                uri: &str,
            ) -> ::core::result::Result<
                ::core::option::Option<$crate::uri_template::Variables>,
                $crate::uri_template::UriTemplateError,
            > {
                ::core::result::Result::Ok(self.parse_uri_template()?.match_uri(uri))
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use resource_template;

/// Ready-to-send resource requests (`ClientCall`) and notifications (`ServerNotify`).
///
/// Before 2026-07-28: `resource_messages!(ListParams, TemplatesParams)` with the params types of
/// `resources/list` and `resources/templates/list`. From 2026-07-28 (`stateless`), every request
/// carries `params._meta` (protocol version and client capabilities), so the request
/// constructors take it, and `resources/subscribe`/`unsubscribe` are replaced by
/// `subscriptions/listen`.
#[allow(unused_macros)] // Which macros are used depends on the enabled revisions.
macro_rules! resource_messages {
    ($list:ident, $templates:ident) => {
        impl ClientCall {
            /// `resources/read` for `uri`.
            pub fn read_resource(uri: impl ::core::convert::Into<::alloc::string::String>) -> Self {
                Self::ReadResource(ReadResourceRequestParams::new(uri))
            }

            /// `resources/list`, from the start (`None`: no params) or from `cursor`.
            pub fn list_resources(cursor: ::core::option::Option<$crate::Cursor>) -> Self {
                Self::ListResources(cursor.map(|cursor| $list {
                    cursor: ::core::option::Option::Some(cursor.into()),
                    ..::core::default::Default::default()
                }))
            }

            /// `resources/templates/list`, from the start (`None`: no params) or from `cursor`.
            pub fn list_resource_templates(cursor: ::core::option::Option<$crate::Cursor>) -> Self {
                Self::ListResourceTemplates(cursor.map(|cursor| $templates {
                    cursor: ::core::option::Option::Some(cursor.into()),
                    ..::core::default::Default::default()
                }))
            }

            /// `resources/subscribe` to updates of `uri`.
            pub fn subscribe(uri: impl ::core::convert::Into<::alloc::string::String>) -> Self {
                Self::Subscribe(SubscribeRequestParams::new(uri))
            }

            /// `resources/unsubscribe` from updates of `uri`.
            pub fn unsubscribe(uri: impl ::core::convert::Into<::alloc::string::String>) -> Self {
                Self::Unsubscribe(UnsubscribeRequestParams::new(uri))
            }
        }
        $crate::content::resource_messages!(@notify);
    };
    (stateless) => {
        impl ClientCall {
            /// `resources/read` for `uri`, with the request's `_meta` (protocol version and
            /// client capabilities are required in this revision).
            pub fn read_resource(
                uri: impl ::core::convert::Into<::alloc::string::String>,
                meta: impl ::core::convert::Into<RequestMetaObject>,
            ) -> Self {
                Self::ReadResource(ReadResourceRequestParams::new(uri, meta))
            }

            /// `resources/list`, from the start (`None`) or from `cursor`, with the request's
            /// `_meta`.
            pub fn list_resources(
                cursor: ::core::option::Option<$crate::Cursor>,
                meta: impl ::core::convert::Into<RequestMetaObject>,
            ) -> Self {
                Self::ListResources(PaginatedRequestParams {
                    cursor: cursor.map(::core::convert::Into::into),
                    meta: meta.into(),
                    extra: ::serde_json::Map::new(),
                })
            }

            /// `resources/templates/list`, from the start (`None`) or from `cursor`, with the
            /// request's `_meta`.
            pub fn list_resource_templates(
                cursor: ::core::option::Option<$crate::Cursor>,
                meta: impl ::core::convert::Into<RequestMetaObject>,
            ) -> Self {
                Self::ListResourceTemplates(PaginatedRequestParams {
                    cursor: cursor.map(::core::convert::Into::into),
                    meta: meta.into(),
                    extra: ::serde_json::Map::new(),
                })
            }

            /// `subscriptions/listen` for updates of the resources `uris` (the replacement of
            /// `resources/subscribe`), with the request's `_meta`.
            pub fn listen_resources<I>(
                uris: I,
                meta: impl ::core::convert::Into<RequestMetaObject>,
            ) -> Self
            where
                I: ::core::iter::IntoIterator,
                I::Item: ::core::convert::Into<::alloc::string::String>,
            {
                let notifications = SubscriptionFilter {
                    resource_subscriptions: ::core::option::Option::Some(
                        uris.into_iter().map(::core::convert::Into::into).collect(),
                    ),
                    ..::core::default::Default::default()
                };
                Self::subscriptions_listen(notifications, meta)
            }

            /// `subscriptions/listen` for the notifications `notifications` asks for, with the
            /// request's `_meta`.
            pub fn subscriptions_listen(
                notifications: impl ::core::convert::Into<SubscriptionFilter>,
                meta: impl ::core::convert::Into<RequestMetaObject>,
            ) -> Self {
                Self::SubscriptionsListen(SubscriptionsListenRequestParams {
                    meta: meta.into(),
                    notifications: notifications.into(),
                    extra: ::serde_json::Map::new(),
                })
            }
        }
        $crate::content::resource_messages!(@notify);
        impl ServerNotify {
            /// `notifications/resources/updated` for `uri`, delivered on the
            /// `subscriptions/listen` stream opened by request `subscription_id` (the server
            /// must name it in `_meta`).
            pub fn resource_updated_for_subscription(
                subscription_id: impl ::core::convert::Into<$crate::RequestId>,
                uri: impl ::core::convert::Into<::alloc::string::String>,
            ) -> Self {
                let meta = NotificationMetaObject {
                    io_modelcontextprotocol_subscription_id: ::core::option::Option::Some(
                        subscription_id.into(),
                    ),
                    ..::core::default::Default::default()
                };
                Self::ResourceUpdated(ResourceUpdatedNotificationParams::new(uri).with_meta(meta))
            }
        }
    };
    (@notify) => {
        impl ServerNotify {
            /// `notifications/resources/updated` for `uri`.
            pub fn resource_updated(uri: impl ::core::convert::Into<::alloc::string::String>) -> Self {
                Self::ResourceUpdated(ResourceUpdatedNotificationParams::new(uri))
            }

            /// `notifications/resources/list_changed` (no params).
            pub fn resource_list_changed() -> Self {
                Self::ResourceListChanged(::core::option::Option::None)
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use resource_messages;
