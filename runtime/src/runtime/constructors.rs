//! What the generated constructors take, stated where a test can read it.

/// Implemented by every generated struct: the JSON names of the members its `new` takes, in
/// the order it takes them. The constructor tests hold it, for every definition of every
/// bundled schema, to the members the schema requires and to the documented order.
pub trait Constructed {
    /// The members `new` takes, by JSON name, in order.
    const NEW_ARGUMENTS: &'static [&'static str];
}
