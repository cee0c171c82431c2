//! Types of the MCP schema revision v2025_03_26.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/v2025_03_26.rs"));
crate::revision::revision_face!();

// Resources, content and annotations, hand-written once (src/content.rs, src/annotations.rs).
// 2025-03-26 has no resource links, no `title` and no `lastModified`.
crate::content::resource_contents!();
crate::content::binary_content!(ImageContent, "image");
crate::content::binary_content!(AudioContent, "audio");
crate::content::content_union!(CallToolResultContentItem: text, image, audio, embedded);
crate::content::content_union!(PromptMessageContent: text, image, audio, embedded);
crate::content::contents_union!(ReadResourceResultContentsItem);
crate::content::contents_union!(EmbeddedResourceContents);
crate::content::read_result!(ReadResourceResult, ReadResourceResultContentsItem);
crate::content::resource_template!();
crate::content::tool_result!();
crate::content::resource_messages!(
    ListResourcesRequestParams,
    ListResourceTemplatesRequestParams
);
crate::annotations::annotations_api!(Annotations);
