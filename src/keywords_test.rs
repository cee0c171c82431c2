//! The test-only revision: the latest schema with every validation keyword laid over it (`codegen/keywords-test.json`). Not part of the API.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/keywords_test.rs"));
pub use crate::cache::{CacheScope, ResultType};

// The hand-written parts of its base revision, as src/v2026_07_28.rs places them.
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
