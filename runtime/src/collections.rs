//! The map the crate keys by hash: `std`'s `HashMap` with the `std` feature, `alloc`'s
//! `BTreeMap` without it (`alloc` has no hashed map, and the keys, ids and names, all have
//! an order). The `std` build keeps the hashed map it always had.

#[cfg(feature = "std")]
pub type HashMap<K, V> = std::collections::HashMap<K, V>;
#[cfg(not(feature = "std"))]
pub type HashMap<K, V> = alloc::collections::BTreeMap<K, V>;

/// An empty map with room for `capacity` entries, where the map has a notion of room.
#[cfg(feature = "std")]
pub fn with_capacity<K, V>(capacity: usize) -> HashMap<K, V> {
    HashMap::with_capacity(capacity)
}

/// An empty map (an ordered map has no notion of room).
#[cfg(not(feature = "std"))]
pub fn with_capacity<K, V>(_capacity: usize) -> HashMap<K, V> {
    HashMap::new()
}
