//! The build's checks of the text it generates (`codegen/runtime_api.rs`), which pass silently
//! on every module if they stop matching what they look for: their own tests run here, as
//! build scripts have none.

#[allow(dead_code)]
#[path = "../codegen/runtime_api.rs"]
mod runtime_api;
