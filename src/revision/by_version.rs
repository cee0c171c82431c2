//! From a version to its revision: the one place that names every revision module, apart from
//! the trait they implement (each revision module implements [`Revision`](super::Revision), so
//! the trait's module cannot name them without the two depending on each other).

use super::Visit;
use crate::version::ProtocolVersion;

/// Runs `work` in the revision `version` names; `None` when this build does not have that
/// revision (its feature is off, or the version is unknown).
pub fn visit<V: Visit>(version: &ProtocolVersion, work: V) -> Option<V::Output> {
    match version {
        #[cfg(feature = "v2024_11_05")]
        ProtocolVersion::V2024_11_05 => Some(work.visit::<crate::v2024_11_05::Revision>()),
        #[cfg(feature = "v2025_03_26")]
        ProtocolVersion::V2025_03_26 => Some(work.visit::<crate::v2025_03_26::Revision>()),
        #[cfg(feature = "v2025_06_18")]
        ProtocolVersion::V2025_06_18 => Some(work.visit::<crate::v2025_06_18::Revision>()),
        #[cfg(feature = "v2025_11_25")]
        ProtocolVersion::V2025_11_25 => Some(work.visit::<crate::v2025_11_25::Revision>()),
        #[cfg(feature = "v2026_07_28")]
        ProtocolVersion::V2026_07_28 => Some(work.visit::<crate::v2026_07_28::Revision>()),
        #[cfg(feature = "unstable-draft")]
        ProtocolVersion::Draft => Some(work.visit::<crate::draft::Revision>()),
        _ => {
            drop(work);
            None
        }
    }
}
