//! Writing with the crate: the shared cache and result-kind types, the call sets' accessors,
//! `reply_to` and the error responses it sends (`answer`), and the elicitation form schemas.
//! One test binary for them all, so that each build links it once.

mod answer;
mod cache_types;
mod call_accessors;
mod elicitation;
mod reply_to;
