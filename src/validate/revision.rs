//! The revision face ([`crate::revision::Revision`]) of a version chosen at run time, held as
//! plain functions so that the validator is one type whatever its revision.

use super::Side;
use crate::dispatch::PendingRequest;
use crate::error::MessageError;
use crate::method::{Direction, MethodKind};
use crate::revision::{self, Revision, Summary, Visit};
use crate::version::ProtocolVersion;
use serde_json::value::RawValue;

/// Who sends a method and what kind it is ([`Revision::method`]'s answer).
type MethodFacts = Option<(Option<Direction>, Option<MethodKind>)>;

/// One revision's [`Revision`] functions.
#[derive(Clone, Copy)]
pub(super) struct Face {
    /// [`Revision::method`].
    pub method: fn(&str) -> MethodFacts,
    /// [`Revision::summarize`].
    pub summarize: fn(Direction, &str) -> Result<Summary, MessageError>,
    /// [`Revision::check_result`].
    pub check_result: fn(Direction, &PendingRequest, &RawValue) -> Result<(), MessageError>,
}

impl Face {
    /// The one side that sends `method` in this revision, if only one does.
    pub fn sender_of(&self, method: &str) -> Option<Side> {
        match (self.method)(method) {
            Some((Some(Direction::ClientToServer), _)) => Some(Side::Client),
            Some((Some(Direction::ServerToClient), _)) => Some(Side::Server),
            _ => None,
        }
    }
}

/// The face of `version`, when this build has its revision.
pub(super) fn face(version: &ProtocolVersion) -> Option<Face> {
    struct Functions;
    impl Visit for Functions {
        type Output = Face;
        fn visit<R: Revision>(self) -> Face {
            Face {
                method: R::method,
                summarize: R::summarize,
                check_result: R::check_result,
            }
        }
    }
    revision::visit(version, Functions)
}
