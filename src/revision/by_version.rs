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

#[cfg(test)]
mod tests {
    // With the trait's module, whose facts they check through `visit`; here because they name
    // revision modules, which the trait's module does not.
    use super::super::*;

    struct Facts;

    impl Visit for Facts {
        type Output = (&'static str, bool, bool, usize);
        fn visit<R: Revision>(self) -> Self::Output {
            (
                R::VERSION,
                R::is_stateless(),
                R::has_batches(),
                R::methods().len(),
            )
        }
    }

    #[test]
    fn every_enabled_revision_is_reached_by_its_own_version() {
        for version in ProtocolVersion::SUPPORTED {
            let (name, ..) = visit(version, Facts).expect("an enabled revision is visited");
            assert_eq!(name, version.as_str());
        }
        assert_eq!(visit(&ProtocolVersion::from("1999-01-01"), Facts), None);
    }

    #[cfg(feature = "v2025_03_26")]
    #[test]
    fn facts_of_2025_03_26_come_from_its_tables() {
        let (_, stateless, batches, methods) = visit(&ProtocolVersion::V2025_03_26, Facts).unwrap();
        assert!(!stateless);
        assert!(batches);
        assert_eq!(methods, crate::v2025_03_26::Method::ALL.len());
    }

    #[cfg(feature = "v2026_07_28")]
    #[test]
    fn the_default_revision_is_stateless_and_defines_discover() {
        use crate::v2026_07_28::Revision as R;
        assert!(R::is_stateless());
        assert!(!R::has_batches());
        assert!(!R::is_draft());
        assert_eq!(
            R::method("server/discover"),
            Some((Some(Direction::ClientToServer), Some(MethodKind::Request)))
        );
        assert_eq!(R::method("initialize"), None);
        assert!(R::methods().contains(&"subscriptions/listen"));
    }

    #[cfg(feature = "v2025_06_18")]
    #[test]
    fn a_result_is_checked_against_its_requests_result_type() {
        use crate::v2025_06_18::Revision as R;
        let request = PendingRequest::without_task("resources/read");
        let good = RawValue::from_string(r#"{"contents":[]}"#.to_owned()).unwrap();
        let bad = RawValue::from_string(r#"{"contents":7}"#.to_owned()).unwrap();
        assert!(R::check_result(Direction::ClientToServer, &request, &good).is_ok());
        let error = R::check_result(Direction::ClientToServer, &request, &bad).unwrap_err();
        assert_eq!(error.path(), "result.contents");
    }
}
