//! Types of the MCP schema revision v2025_06_18.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/v2025_06_18.rs"));
crate::revision::revision_face!();

// Resources, content and annotations, hand-written once (src/content.rs, src/annotations.rs).
crate::content::resource_contents!();
crate::content::binary_content!(ImageContent, "image");
crate::content::binary_content!(AudioContent, "audio");
crate::content::content_union!(ContentBlock: text, image, audio, link, embedded);
crate::content::contents_union!(ReadResourceResultContentsItem);
crate::content::contents_union!(EmbeddedResourceContents);
crate::content::read_result!(ReadResourceResult, ReadResourceResultContentsItem);
crate::content::resource_template!();
crate::content::tool_result!();
crate::content::resource_messages!(
    ListResourcesRequestParams,
    ListResourceTemplatesRequestParams
);
crate::annotations::annotations_api!(Annotations, last_modified);
