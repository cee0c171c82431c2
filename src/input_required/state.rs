//! The request state a server hands out and reads back: sealed by the server's own codec, read
//! with the crate's JSON reader.

use crate::prelude::*;
use crate::{ErrorCode, RpcError};
use core::fmt;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// How a server protects the request state it hands the client, which comes back as input
/// from a party it does not trust: [`StateCodec::seal`] signs or encrypts the state's bytes
/// into the opaque string, [`StateCodec::open`] checks and recovers them.
///
/// The crate ships no implementation (it has no cryptography): an HMAC over the bytes, or an
/// AEAD cipher, from the server's own dependencies.
pub trait StateCodec {
    /// The opaque `requestState` string for `state`.
    fn seal(&self, state: &[u8]) -> Result<String, StateError>;
    /// The bytes sealed into `sealed`; [`StateError::Tampered`] when the check fails.
    fn open(&self, sealed: &str) -> Result<Vec<u8>, StateError>;
}

/// `state` serialized to JSON and sealed by `codec`.
pub fn seal_state<C, T>(codec: &C, state: &T) -> Result<String, StateError>
where
    C: StateCodec + ?Sized,
    T: Serialize + ?Sized,
{
    let bytes = serde_json::to_vec(state).map_err(|e| StateError::Unsealable(e.to_string()))?;
    codec.seal(&bytes)
}

/// The state [`seal_state`] sealed into `sealed`, opened by `codec` and read from JSON.
pub fn open_state<C, T>(codec: &C, sealed: &str) -> Result<T, StateError>
where
    C: StateCodec + ?Sized,
    T: DeserializeOwned,
{
    let bytes = codec.open(sealed)?;
    crate::json::from_slice(&bytes).map_err(|e| StateError::Unreadable(e.to_string()))
}

/// Why request state could not be sealed or opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateError {
    /// The state failed the codec's integrity check: it is not what the server handed out.
    Tampered,
    /// The state passed the check (or has none) but could not be read.
    Unreadable(String),
    /// The state could not be sealed.
    Unsealable(String),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Tampered => f.write_str("requestState failed its integrity check"),
            StateError::Unreadable(why) => write!(f, "requestState could not be read: {why}"),
            StateError::Unsealable(why) => write!(f, "requestState could not be sealed: {why}"),
        }
    }
}

impl core::error::Error for StateError {}

impl From<StateError> for RpcError {
    /// State from the client that fails to open is invalid params (-32602); state the server
    /// could not seal is its own fault (-32603).
    fn from(error: StateError) -> Self {
        match error {
            StateError::Unsealable(_) => RpcError::new(ErrorCode::InternalError, error.to_string()),
            _ => RpcError::invalid_params(error.to_string()),
        }
    }
}
