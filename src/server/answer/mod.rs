//! What answers: the [`Router`] of tools, resources, templates and prompts, and the typed
//! handlers it is given (arguments read into a struct, results written from one).

mod keywords;
mod paging;
mod router;
mod typed;

pub use paging::page;
pub use router::Router;
pub use typed::{
    arguments, elicited, form_schema, input_schema, object_schema, output_schema, prompt_arguments,
    IntoPrompt, IntoTool, InvalidArguments, SchemaError, Structured, ToolOutput,
};
