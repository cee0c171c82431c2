//! Multi round-trip requests (2026-07-28 on): a server that needs more from the client before
//! it can answer `tools/call`, `prompts/get` or `resources/read` answers with an
//! `InputRequiredResult` instead; the client fulfils its `inputRequests` and sends the same
//! request again, with the answers in `inputResponses` and the server's `requestState` echoed
//! unchanged.
//!
//! The helpers that read and write the protocol's types live in each revision that has them,
//! on that revision's types: [`v2026_07_28::input_required`](crate::v2026_07_28::input_required)
//! (and `latest::input_required`, `draft::input_required`). Each such module also re-exports
//! everything below, so one path serves both halves.
//!
//! The server side:
//!
//! * `InputRequired` builds the result: elicitation, sampling and `roots/list` requests under
//!   the keys the server picks, and the request state. `InputRequired::build` refuses a request
//!   the client did not declare the capability for (capabilities travel with every request in
//!   these revisions) and a result with neither requests nor state, with an
//!   [`InputRequiredError`].
//! * `RoundTrip` reads what a retried request brought back: each input response typed by its
//!   key, with a missing or wrong-kind response an [`InputResponseError`] naming the key.
//! * [`StateCodec`] is the hook through which the server seals the state it hands out (signs or
//!   encrypts it) and opens it when it comes back: the client is not trusted with it, and state
//!   that fails the check is a [`StateError::Tampered`]. The crate has no cryptography of its
//!   own; [`seal_state`] and [`open_state`] carry any serializable state through a codec.
//!
//! The client side: `Answers` collects the client's responses to one `InputRequiredResult`,
//! checking each against the kind of request under its key, and turns them into the
//! `RoundTrip` that `RoundTrip::apply` writes onto the retried request's params.
//!
//! What is here depends on no revision: the errors and kinds are one type for every revision,
//! and the member names and [`result_type`] read plain JSON.
//!
//! ```
//! # #[cfg(feature = "v2026_07_28")] {
//! use mcp_spec_types::v2026_07_28::input_required::{Answers, InputRequired, RoundTrip};
//! use mcp_spec_types::v2026_07_28::{
//!     CallToolRequestParams, ClientCapabilities, ElicitResult, ElicitResultAction,
//!     ListRootsResult, Root,
//! };
//!
//! // Server, first round: ask for the client's roots.
//! let client: ClientCapabilities = serde_json::from_str(r#"{"roots":{}}"#).unwrap();
//! let asked = InputRequired::new()
//!     .list_roots("client_roots")
//!     .with_state("opaque")
//!     .build(&client)
//!     .unwrap();
//! assert_eq!(serde_json::to_value(&asked).unwrap()["inputRequests"]["client_roots"]["method"], "roots/list");
//! // Elicitation was not declared: asking for it is refused, naming the key.
//! let schema = serde_json::from_str(r#"{"type":"object","properties":{"name":{"type":"string"}}}"#).unwrap();
//! let refused = InputRequired::new().elicit_form("name", "Your name?", schema).build(&client);
//! assert!(refused.unwrap_err().to_string().contains("\"name\""));
//!
//! // Client: answer every request, then retry with the answers and the echoed state.
//! let mut answers = Answers::new(&asked);
//! let roots = ListRootsResult { roots: vec![Root::new("file:///work")], extra: Default::default() };
//! answers.answer("client_roots", roots).unwrap();
//! // An elicitation result is not an answer to `roots/list`.
//! let wrong = ElicitResult { action: ElicitResultAction::Decline, content: None, extra: Default::default() };
//! assert!(answers.answer("client_roots", wrong).is_err());
//! let mut params: CallToolRequestParams = serde_json::from_value(serde_json::json!({
//!     "name": "scan", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
//!     "io.modelcontextprotocol/clientCapabilities": {"roots": {}}}})).unwrap();
//! answers.finish().unwrap().apply(&mut params);
//! assert_eq!(params.request_state.as_deref(), Some("opaque"));
//!
//! // Server, second round: read the roots under their key.
//! let retry = RoundTrip::of(&params);
//! assert_eq!(retry.roots("client_roots").unwrap().roots[0].uri, "file:///work");
//! assert!(retry.elicitation("client_roots").is_err());
//! # }
//! ```

use crate::prelude::*;
mod answers;
mod builder;
mod capabilities;
mod key_ring;
mod kinds;
mod round_trip;
mod state;

pub use builder::InputRequiredError;
pub use key_ring::KeyRing;
pub use kinds::InputKind;
pub use round_trip::InputResponseError;
pub use state::{open_state, seal_state, StateCodec, StateError};

#[allow(unused_imports)] // Used by the revisions that have input requests.
pub(crate) use {
    answers::client_answers, builder::result_builder, capabilities::capability_rules,
    kinds::input_methods, round_trip::round_trip_api, round_trip::round_trip_params,
};

use serde_json::{Map, Value};

/// `resultType` of a result that answers its request (also what an absent `resultType` means:
/// results of earlier revisions carry none).
pub use crate::cache::{RESULT_TYPE_COMPLETE, RESULT_TYPE_INPUT_REQUIRED};

/// The `params` member that carries the input responses of a retried request.
pub const INPUT_RESPONSES: &str = "inputResponses";
/// The `params` member (and `InputRequiredResult` member) that carries the request state.
pub const REQUEST_STATE: &str = "requestState";

/// The `resultType` of a result object, [`RESULT_TYPE_COMPLETE`] when it has none (the
/// schema's rule for results of servers on earlier revisions), `None` when it is not a string.
pub fn result_type(result: &Map<String, Value>) -> Option<&str> {
    match result.get(crate::cache::RESULT_TYPE) {
        None => Some(RESULT_TYPE_COMPLETE),
        Some(Value::String(kind)) => Some(kind),
        Some(_) => None,
    }
}

/// Whether a result object is an `InputRequiredResult` (its `resultType` says so).
pub fn is_input_required(result: &Map<String, Value>) -> bool {
    result_type(result) == Some(RESULT_TYPE_INPUT_REQUIRED)
}

/// A revision's `input_required` module: the helpers above on that revision's types, written
/// once in this module's files and expanded in every revision module whose schema has
/// `InputRequiredResult`, so that a new revision copied from the one before it has them too.
///
/// Each part is a macro of its own file (`input_methods!` in `kinds.rs`, …), expanded inside
/// the module declared here: the revision's types are in scope by the `use super::…` below,
/// and the crate's std names are never shadowed (a revision defines `Result`).
#[allow(unused_macros)] // Used by the revisions that have input requests.
macro_rules! input_required_api {
    () => {
        // The revision module allows both for its generated code; this code is written by hand.
        #[warn(missing_docs, clippy::all)]
        pub mod input_required {
            //! Multi round-trip requests on this revision's types: building an
            //! [`InputRequiredResult`] ([`InputRequired`]), reading a retry ([`RoundTrip`]) and
            //! answering on the client side ([`Answers`]). The parts that depend on no revision
            //! are re-exported from [`crate::input_required`], whose documentation has an
            //! example.

            pub use $crate::input_required::{
                is_input_required, open_state, result_type, seal_state, InputKind,
                InputRequiredError, InputResponseError, KeyRing, StateCodec, StateError,
                INPUT_RESPONSES, REQUEST_STATE, RESULT_TYPE_COMPLETE, RESULT_TYPE_INPUT_REQUIRED,
            };
            #[allow(unused_imports)]
            use $crate::prelude::*;

            use super::{
                CallToolRequestParams, CallToolResultOrInputRequired, ClientCallResult,
                ClientCapabilities, ClientCapabilitiesElicitation, ClientCapabilitiesSampling,
                CreateMessageRequest, CreateMessageRequestParams,
                CreateMessageRequestParamsIncludeContext, CreateMessageResult, ElicitRequest,
                ElicitRequestFormParams, ElicitRequestFormParamsRequestedSchema,
                ElicitRequestParams, ElicitResult, GetPromptRequestParams,
                GetPromptResultOrInputRequired, InputRequest, InputRequests, InputRequiredResult,
                InputResponse, InputResponseRequestParams, InputResponses, ListRootsRequest,
                ListRootsRequestParams, ListRootsResult, ReadResourceRequestParams,
                ReadResourceResultOrInputRequired, ResultMetaObject, ServerCall, ServerCallResult,
            };

            $crate::input_required::input_methods!();
            $crate::input_required::capability_rules!();
            $crate::input_required::result_builder!();
            $crate::input_required::round_trip_api!();
            $crate::input_required::client_answers!();
        }
    };
}
#[allow(unused_imports)] // Used by the revisions that have input requests.
pub(crate) use input_required_api;
