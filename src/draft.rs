//! Types of the MCP schema revision draft.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/draft.rs"));
crate::revision::revision_face!();
// The cache hints and result kind are one type in every revision that has them.
pub use crate::cache::{CacheScope, ResultType};

// Resources, content and annotations, hand-written once (src/content.rs, src/annotations.rs).
// Results carry `resultType`, `ttlMs` and `cacheScope`; requests carry `params._meta`;
// `resources/subscribe` and `resources/unsubscribe` are gone (`subscriptions/listen`).
crate::content::resource_contents!();
crate::content::binary_content!(ImageContent, "image");
crate::content::binary_content!(AudioContent, "audio");
crate::content::content_union!(ContentBlock: text, image, audio, link, embedded);
crate::content::contents_union!(ReadResourceResultContentsItem);
crate::content::contents_union!(EmbeddedResourceContents);
crate::content::read_result!(ReadResourceResult, ReadResourceResultContentsItem, cached: CacheScope);
crate::content::resource_template!();
crate::content::tool_result!(stateless);
crate::content::resource_messages!(stateless);
crate::annotations::annotations_api!(Annotations, last_modified);

// Multi round-trip requests and version discovery, hand-written once (src/input_required/,
// src/negotiation.rs) on this revision's `InputRequiredResult`, `DiscoverResult`, ….
crate::input_required::input_required_api!();
crate::negotiation::discovery_api!();
