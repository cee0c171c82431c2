//! Request state sealed under rotating keys: the newest key seals, any key still in the ring
//! opens, so a state handed out before a rotation (or by a replica that has not rotated yet)
//! is still read after it.

use super::{StateCodec, StateError};
use crate::prelude::*;

/// A [`StateCodec`] made of several: the first (the newest key's) seals every state, and a
/// state opens when any of them opens it. Rotating a key is putting the new codec first and
/// keeping the old one until the states it sealed have expired; replicas of one server share
/// the same ring.
///
/// A codec that recognizes a state as its own but cannot read it
/// ([`StateError::Unreadable`]) ends the search with that error; a state no codec opens is
/// [`StateError::Tampered`].
///
/// ```
/// use mcp_spec_types::input_required::{KeyRing, StateCodec, StateError};
///
/// /// A toy codec: the key's name in front of the state. (A server uses an HMAC or an AEAD
/// /// cipher keyed with each key.)
/// struct Named(&'static str);
/// impl StateCodec for Named {
///     fn seal(&self, state: &[u8]) -> Result<String, StateError> {
///         let text = core::str::from_utf8(state).map_err(|e| StateError::Unsealable(e.to_string()))?;
///         Ok(format!("{}:{text}", self.0))
///     }
///     fn open(&self, sealed: &str) -> Result<Vec<u8>, StateError> {
///         let text = sealed.strip_prefix(self.0).and_then(|rest| rest.strip_prefix(':'));
///         text.map(|text| text.as_bytes().to_vec()).ok_or(StateError::Tampered)
///     }
/// }
///
/// let before = Named("k1").seal(b"step-1").unwrap();
/// let ring = KeyRing::new(Named("k2")).with_older(Named("k1"));
/// assert_eq!(ring.seal(b"step-2").unwrap(), "k2:step-2");
/// assert_eq!(ring.open(&before).unwrap(), b"step-1");
/// assert_eq!(ring.open("k0:step-0"), Err(StateError::Tampered));
/// ```
#[derive(Debug, Clone)]
pub struct KeyRing<C> {
    /// The newest first.
    codecs: Vec<C>,
}

impl<C: StateCodec> KeyRing<C> {
    /// A ring of one codec: it seals and opens.
    pub fn new(newest: C) -> Self {
        KeyRing {
            codecs: vec![newest],
        }
    }

    /// The ring with `older` added after the codecs it has: it opens, it never seals.
    #[must_use]
    pub fn with_older(mut self, older: C) -> Self {
        self.codecs.push(older);
        self
    }

    /// The codecs, the one that seals first.
    pub fn codecs(&self) -> &[C] {
        &self.codecs
    }
}

impl<C: StateCodec> StateCodec for KeyRing<C> {
    fn seal(&self, state: &[u8]) -> Result<String, StateError> {
        match self.codecs.first() {
            Some(newest) => newest.seal(state),
            None => Err(StateError::Unsealable("the key ring is empty".into())),
        }
    }

    fn open(&self, sealed: &str) -> Result<Vec<u8>, StateError> {
        for codec in &self.codecs {
            match codec.open(sealed) {
                Err(StateError::Tampered) => continue,
                opened => return opened,
            }
        }
        Err(StateError::Tampered)
    }
}
