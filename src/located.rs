//! Reading a caller's own type from JSON with the JSON path of what failed, for the engines'
//! typed handlers and results: a client's or a server's mistakes are told where they are.

use crate::prelude::*;
use serde::de::DeserializeOwned;

/// serde_json's message without its position: the path says where instead.
fn message(error: &serde_json::Error) -> String {
    crate::error::strip_position(&error.to_string())
}

/// Reads `text` as an `A`; what fails says where (`unit: unknown variant ...`).
#[cfg(feature = "server")]
pub(crate) fn read<A: DeserializeOwned>(text: &str) -> Result<A, String> {
    read_at(text).map_err(|(path, problem)| match path.as_str() {
        "" => problem,
        _ => format!("{path}: {problem}"),
    })
}

/// Reads `text` as an `A`; what fails as its JSON path (empty at the top) and the problem.
pub(crate) fn read_at<A: DeserializeOwned>(text: &str) -> Result<A, (String, String)> {
    // The crate's reader reads what is valid; only a failure is read again, by serde_json
    // with the path tracked, to say where.
    let error = match crate::json::from_str::<A>(text) {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    let mut reader = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, A>(&mut reader) {
        Err(located) => {
            let path = located.path().to_string();
            let path = if path == "." { String::new() } else { path };
            Err((path, message(located.inner())))
        }
        // Read again, the text was read: what failed is after the value (trailing text).
        Ok(_) => Err((String::new(), message(&error))),
    }
}
