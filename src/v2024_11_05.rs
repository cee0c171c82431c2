//! Types of the MCP schema revision v2024_11_05.
#![allow(missing_docs, clippy::all)]
include!(concat!(env!("OUT_DIR"), "/v2024_11_05.rs"));
crate::revision::revision_face!();

// Resources, content and annotations, hand-written once (src/content.rs, src/annotations.rs).
// 2024-11-05 has no audio, no resource links, no `title`, no `lastModified`, and annotations
// are one inline type per owner.
crate::content::resource_contents!();
crate::content::binary_content!(ImageContent, "image");
crate::content::content_union!(CallToolResultContentItem: text, image, embedded);
crate::content::content_union!(PromptMessageContent: text, image, embedded);
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
