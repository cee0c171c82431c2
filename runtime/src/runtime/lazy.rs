//! A value the generated statics compute on first use (a compiled `pattern`, a parsed `enum`
//! list): kept for the life of the program with `std`, computed again at each use without it.
//!
//! Without `std` there is no `OnceLock`, and a cell shared between threads would need `unsafe`
//! or a spin lock; the values are small and only schemas that use these keywords pay.

/// A value computed on first use; see the module's documentation.
pub struct Lazy<T> {
    #[cfg(feature = "std")]
    cell: std::sync::OnceLock<T>,
    #[cfg(not(feature = "std"))]
    cell: core::marker::PhantomData<fn() -> T>,
}

impl<T> Lazy<T> {
    /// A value not computed yet.
    pub const fn new() -> Self {
        Lazy {
            #[cfg(feature = "std")]
            cell: std::sync::OnceLock::new(),
            #[cfg(not(feature = "std"))]
            cell: core::marker::PhantomData,
        }
    }

    /// Runs `use_it` on the value, computing it with `init` the first time (every time
    /// without `std`).
    pub fn with<R>(&self, init: impl FnOnce() -> T, use_it: impl FnOnce(&T) -> R) -> R {
        #[cfg(feature = "std")]
        return use_it(self.cell.get_or_init(init));
        #[cfg(not(feature = "std"))]
        return use_it(&init());
    }
}

impl<T> core::fmt::Debug for Lazy<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Lazy")
    }
}
