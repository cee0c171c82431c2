//! What the standard library's prelude gives every module, taken from `alloc`: the crate is
//! `#![no_std]` in both builds, and its modules import these with `use crate::prelude::*;`.

pub use alloc::borrow::ToOwned;
pub use alloc::boxed::Box;
pub use alloc::string::{String, ToString};
pub use alloc::vec::Vec;
pub use alloc::{format, vec};
