//! Validating a whole session, its revision detected from its content when none is given.
//!
//! Detection ([`detect_revision`](super::detect_revision)) reads lines before the revision is
//! known, so it cannot read them in the revision's types; validation then reads them again.
//! To read most lines once, detection reads ahead only until the session shows its revision:
//! the negotiated version (an `initialize` result, which nothing later can change), or a
//! request's `_meta` protocol version with no `initialize` before it. The latter holds unless a
//! later line names `initialize`, which validation itself sees: the rest of the session is
//! validated once, watched for such a line, and only when one comes is the rest read by
//! detection and the session validated again against what it then says.

use super::detect::{names_initialize, Detection, DetectionSource, Detector};
use super::report::{Invalid, LineStatus, Report, Summary, Warning};
use super::{SessionValidator, ValidateError};
use crate::prelude::*;
use crate::revision::Summary as Parsed;
use crate::version::ProtocolVersion;

/// Validates a whole session: detects the revision when `revision` is `None`
/// ([`detect_revision`](super::detect_revision)), checks every line, then reports requests
/// never answered.
///
/// Fails only when the revision (given or detected) is not supported by this build.
pub fn validate_session(
    input: impl AsRef<[u8]>,
    revision: Option<ProtocolVersion>,
) -> Result<Report, ValidateError> {
    let input = input.as_ref();
    // A final newline ends the last line rather than starting an empty one.
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    let (revision, detection) = match revision {
        Some(revision) => (revision, None),
        None => {
            let mut detector = Detector::default();
            let mut read_ahead = 0;
            for line in lines(body) {
                if detector.is_settled() || detector.unless_initialize().is_some() {
                    break;
                }
                detector.read_line(line);
                read_ahead += 1;
            }
            if let Some(version) = detector.unless_initialize().cloned() {
                if let Ok(validator) = SessionValidator::new(version.clone()) {
                    let lines = validate_lines(validator, body, Some(read_ahead));
                    if !lines.gave_up {
                        let detection = Detection {
                            version: version.clone(),
                            source: DetectionSource::RequestMeta,
                        };
                        return Ok(lines.report(version, Some(detection)));
                    }
                }
            }
            // The rest of the session decides: read on as `detect_revision` does.
            if !detector.is_settled() {
                for line in input.split(|b| *b == b'\n').skip(read_ahead) {
                    detector.read_line(line);
                    if detector.is_settled() {
                        break;
                    }
                }
            }
            let detection = detector.detection();
            (detection.version.clone(), Some(detection))
        }
    };
    let validator = SessionValidator::new(revision.clone())?;
    Ok(validate_lines(validator, body, None).report(revision, detection))
}

/// The lines of a session without its final newline (none for an empty session).
fn lines(body: &[u8]) -> impl Iterator<Item = &[u8]> {
    body.split(|b| *b == b'\n')
        .filter(move |_| !body.is_empty())
}

/// What the lines of a session gave.
struct Lines {
    invalid: Vec<Invalid>,
    warnings: Vec<Warning>,
    summary: Summary,
    /// Whether a watched line named `initialize`, which ended the run.
    gave_up: bool,
}

impl Lines {
    fn report(self, revision: ProtocolVersion, detection: Option<Detection>) -> Report {
        Report {
            revision,
            detection,
            invalid: self.invalid,
            warnings: self.warnings,
            summary: self.summary,
        }
    }
}

/// Checks every line, then reports requests never answered. With `watch_from`, gives up at the
/// first line from that index on that names `initialize`.
fn validate_lines(
    mut validator: SessionValidator,
    body: &[u8],
    watch_from: Option<usize>,
) -> Lines {
    let mut invalid = Vec::new();
    let mut warnings = Vec::new();
    let mut gave_up = false;
    for (index, line) in lines(body).enumerate() {
        let watched = watch_from.is_some_and(|from| index >= from);
        let mut initialize = false;
        let report = validator.check_bytes_seeing(line, &mut |parsed| {
            initialize = watched && parsed_names_initialize(parsed);
        });
        // A valid message names its methods in what it amounts to; an invalid one is read
        // again, as detection reads it (the message's reader gave no facts).
        if initialize || (watched && report.is_invalid() && names_initialize(line)) {
            gave_up = true;
            break;
        }
        warnings.extend(report.warnings);
        if let LineStatus::Invalid(bad) = report.status {
            invalid.push(bad);
        }
    }
    let (summary, unanswered) = validator.finish();
    warnings.extend(unanswered);
    warnings.sort_by_key(|w| w.line);
    Lines {
        invalid,
        warnings,
        summary,
        gave_up,
    }
}

/// Whether a message (or an item of a batch) is an `initialize`.
fn parsed_names_initialize(parsed: &Parsed) -> bool {
    match parsed {
        Parsed::Request { request, .. } => request.method() == "initialize",
        Parsed::Notification { method, .. } => method == "initialize",
        Parsed::Batch(items) => items.iter().any(parsed_names_initialize),
        _ => false,
    }
}
