//! What the standard library's prelude gives every module, taken from `alloc`: the crate is
//! `#![no_std]` in both builds, and its modules import these with `use crate::prelude::*;`.

pub(crate) use alloc::borrow::ToOwned;
pub(crate) use alloc::boxed::Box;
pub(crate) use alloc::string::{String, ToString};
pub(crate) use alloc::vec::Vec;
pub(crate) use alloc::{format, vec};
