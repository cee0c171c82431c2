//! Writing with the crate: the shared cache and result-kind types, the call sets' accessors, and
//! `reply_to`. One test binary for the three, so that each build links it once.

mod cache_types;
mod call_accessors;
mod reply_to;
