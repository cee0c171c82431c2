//! Variable values: what expansion takes and what matching gives back.

use crate::prelude::*;
use alloc::collections::BTreeMap;
use core::fmt;
#[cfg(feature = "std")]
use core::hash::BuildHasher;
#[cfg(feature = "std")]
use std::collections::HashMap;

/// The value of a template variable: RFC 6570 section 2.3 allows strings,
/// lists and associative arrays.
///
/// An empty list or map counts as undefined, like an absent variable.
///
/// ```
/// use mcp_spec_types::uri_template::VarValue;
///
/// assert_eq!(VarValue::from("x"), VarValue::String("x".to_owned()));
/// assert_eq!(VarValue::from(vec!["a", "b"]).as_list().map(<[String]>::len), Some(2));
/// assert!(!VarValue::from(Vec::<String>::new()).is_defined());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum VarValue {
    /// A single string value.
    String(String),
    /// An ordered list of strings.
    List(Vec<String>),
    /// An associative array, as ordered `(key, value)` pairs; expansion keeps
    /// this order.
    Map(Vec<(String, String)>),
}

impl VarValue {
    /// The string, if this is a [`VarValue::String`].
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::VarValue;
    /// assert_eq!(VarValue::from("a").as_str(), Some("a"));
    /// assert_eq!(VarValue::from(vec!["a"]).as_str(), None);
    /// ```
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(s) => Some(s),
            _ => None,
        }
    }

    /// The items, if this is a [`VarValue::List`].
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::VarValue;
    /// let v = VarValue::from(vec!["a", "b"]);
    /// assert_eq!(v.as_list(), Some(&["a".to_owned(), "b".to_owned()][..]));
    /// ```
    #[must_use]
    pub fn as_list(&self) -> Option<&[String]> {
        match self {
            Self::List(items) => Some(items),
            _ => None,
        }
    }

    /// The pairs, if this is a [`VarValue::Map`].
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::VarValue;
    /// let v = VarValue::from(vec![("k", "v")]);
    /// assert_eq!(v.as_map(), Some(&[("k".to_owned(), "v".to_owned())][..]));
    /// ```
    #[must_use]
    pub fn as_map(&self) -> Option<&[(String, String)]> {
        match self {
            Self::Map(pairs) => Some(pairs),
            _ => None,
        }
    }

    /// Whether RFC 6570 considers the value defined: every string (even the
    /// empty one), every non-empty list and every non-empty map.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::VarValue;
    /// assert!(VarValue::from("").is_defined());
    /// assert!(!VarValue::Map(Vec::new()).is_defined());
    /// ```
    #[must_use]
    pub fn is_defined(&self) -> bool {
        match self {
            Self::String(_) => true,
            Self::List(items) => !items.is_empty(),
            Self::Map(pairs) => !pairs.is_empty(),
        }
    }
}

impl From<&str> for VarValue {
    fn from(value: &str) -> Self {
        Self::String(value.to_owned())
    }
}

impl From<String> for VarValue {
    fn from(value: String) -> Self {
        Self::String(value)
    }
}

impl From<&String> for VarValue {
    fn from(value: &String) -> Self {
        Self::String(value.clone())
    }
}

impl From<Vec<String>> for VarValue {
    fn from(value: Vec<String>) -> Self {
        Self::List(value)
    }
}

impl From<Vec<&str>> for VarValue {
    fn from(value: Vec<&str>) -> Self {
        Self::List(value.into_iter().map(str::to_owned).collect())
    }
}

impl<const N: usize> From<[&str; N]> for VarValue {
    fn from(value: [&str; N]) -> Self {
        Self::List(value.into_iter().map(str::to_owned).collect())
    }
}

impl From<Vec<(String, String)>> for VarValue {
    fn from(value: Vec<(String, String)>) -> Self {
        Self::Map(value)
    }
}

impl From<Vec<(&str, &str)>> for VarValue {
    fn from(value: Vec<(&str, &str)>) -> Self {
        Self::Map(
            value
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        )
    }
}

impl<const N: usize> From<[(&str, &str); N]> for VarValue {
    fn from(value: [(&str, &str); N]) -> Self {
        Self::Map(
            value
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        )
    }
}

/// Source of variable values for [`UriTemplate::expand`](super::UriTemplate::expand).
///
/// Implemented for [`Variables`], `HashMap<String, VarValue>` (with the `std` feature),
/// `BTreeMap<String, VarValue>` and slices, arrays and vectors of
/// `(name, VarValue)` pairs (the first pair with a given name wins).
///
/// ```
/// # #[cfg(feature = "std")] {
/// use std::collections::HashMap;
/// use mcp_spec_types::uri_template::{UriTemplate, VarValue};
///
/// let t = UriTemplate::parse("db://{table}/{id}")?;
/// let mut map = HashMap::new();
/// map.insert("table".to_owned(), VarValue::from("users"));
/// map.insert("id".to_owned(), VarValue::from("42"));
/// assert_eq!(t.expand(&map), "db://users/42");
/// assert_eq!(
///     t.expand(&[("table", VarValue::from("t")), ("id", VarValue::from("1"))]),
///     "db://t/1"
/// );
/// # }
/// # Ok::<(), mcp_spec_types::uri_template::UriTemplateError>(())
/// ```
pub trait VarLookup {
    /// The value of the variable `name`, or `None` if it is not set.
    fn lookup(&self, name: &str) -> Option<&VarValue>;
}

impl<T: VarLookup + ?Sized> VarLookup for &T {
    fn lookup(&self, name: &str) -> Option<&VarValue> {
        (**self).lookup(name)
    }
}

#[cfg(feature = "std")]
impl<S: BuildHasher> VarLookup for HashMap<String, VarValue, S> {
    fn lookup(&self, name: &str) -> Option<&VarValue> {
        self.get(name)
    }
}

impl VarLookup for BTreeMap<String, VarValue> {
    fn lookup(&self, name: &str) -> Option<&VarValue> {
        self.get(name)
    }
}

impl<K: AsRef<str>> VarLookup for [(K, VarValue)] {
    fn lookup(&self, name: &str) -> Option<&VarValue> {
        self.iter()
            .find(|(k, _)| k.as_ref() == name)
            .map(|(_, v)| v)
    }
}

impl<K: AsRef<str>, const N: usize> VarLookup for [(K, VarValue); N] {
    fn lookup(&self, name: &str) -> Option<&VarValue> {
        self.as_slice().lookup(name)
    }
}

impl<K: AsRef<str>> VarLookup for Vec<(K, VarValue)> {
    fn lookup(&self, name: &str) -> Option<&VarValue> {
        self.as_slice().lookup(name)
    }
}

/// An ordered set of named variable values: the input of
/// [`UriTemplate::expand`](super::UriTemplate::expand) and the output of
/// [`UriTemplate::match_uri`](super::UriTemplate::match_uri).
///
/// Names are unique; setting a name again replaces its value in place.
/// Iteration follows insertion order, and equality ignores order.
///
/// ```
/// use mcp_spec_types::uri_template::{Variables, VarValue};
///
/// let mut vars = Variables::new();
/// vars.set("path", "src/main.rs").set("tags", vec!["a", "b"]);
/// assert_eq!(vars.get_str("path"), Some("src/main.rs"));
/// assert_eq!(vars, Variables::from([
///     ("tags", VarValue::from(vec!["a", "b"])),
///     ("path", VarValue::from("src/main.rs")),
/// ]));
/// ```
#[derive(Clone, Default)]
pub struct Variables {
    pub(super) entries: Vec<(String, VarValue)>,
}

pub(super) fn entry_ref((name, value): &(String, VarValue)) -> (&str, &VarValue) {
    (name, value)
}

impl Variables {
    /// An empty set of variables.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::Variables;
    /// assert!(Variables::new().is_empty());
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets `name` to `value`, replacing any previous value, and returns
    /// `self` for chaining.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::Variables;
    /// let mut vars = Variables::new();
    /// vars.set("a", "1").set("a", "2");
    /// assert_eq!(vars.get_str("a"), Some("2"));
    /// assert_eq!(vars.len(), 1);
    /// ```
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<VarValue>) -> &mut Self {
        let name = name.into();
        let value = value.into();
        match self.entries.iter_mut().find(|(n, _)| *n == name) {
            Some(entry) => entry.1 = value,
            None => self.entries.push((name, value)),
        }
        self
    }

    /// Builder form of [`Variables::set`].
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::Variables;
    /// let vars = Variables::new().with("city", "london").with("date", "2024-01-01");
    /// assert_eq!(vars.len(), 2);
    /// ```
    #[must_use]
    pub fn with(mut self, name: impl Into<String>, value: impl Into<VarValue>) -> Self {
        self.set(name, value);
        self
    }

    /// The value of `name`, if set.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::{Variables, VarValue};
    /// let vars = Variables::new().with("a", vec!["x"]);
    /// assert_eq!(vars.get("a"), Some(&VarValue::List(vec!["x".to_owned()])));
    /// assert_eq!(vars.get("b"), None);
    /// ```
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&VarValue> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The value of `name` if it is set to a string.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::Variables;
    /// let vars = Variables::new().with("a", "x").with("l", vec!["y"]);
    /// assert_eq!(vars.get_str("a"), Some("x"));
    /// assert_eq!(vars.get_str("l"), None);
    /// ```
    pub fn get_str(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(VarValue::as_str)
    }

    /// Whether `name` is set.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::Variables;
    /// assert!(Variables::new().with("a", "").contains("a"));
    /// ```
    #[must_use]
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Removes `name` and returns its value.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::{Variables, VarValue};
    /// let mut vars = Variables::new().with("a", "x");
    /// assert_eq!(vars.remove("a"), Some(VarValue::from("x")));
    /// assert!(vars.is_empty());
    /// ```
    pub fn remove(&mut self, name: &str) -> Option<VarValue> {
        let index = self.entries.iter().position(|(n, _)| n == name)?;
        Some(self.entries.remove(index).1)
    }

    /// Number of variables set.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::Variables;
    /// assert_eq!(Variables::new().with("a", "x").len(), 1);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no variable is set.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::Variables;
    /// assert!(Variables::new().is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The variables in insertion order.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::Variables;
    /// let vars = Variables::new().with("b", "1").with("a", "2");
    /// let names: Vec<&str> = vars.iter().map(|(name, _)| name).collect();
    /// assert_eq!(names, ["b", "a"]);
    /// ```
    pub fn iter(&self) -> VariablesIter<'_> {
        self.entries
            .iter()
            .map(entry_ref as fn(&(String, VarValue)) -> (&str, &VarValue))
    }
}

/// Iterator over `(name, value)` pairs of [`Variables`].
pub type VariablesIter<'a> = core::iter::Map<
    core::slice::Iter<'a, (String, VarValue)>,
    fn(&'a (String, VarValue)) -> (&'a str, &'a VarValue),
>;

impl fmt::Debug for Variables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl PartialEq for Variables {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(name, value)| other.get(name) == Some(value))
    }
}

impl Eq for Variables {}

impl VarLookup for Variables {
    fn lookup(&self, name: &str) -> Option<&VarValue> {
        self.get(name)
    }
}

impl<K: Into<String>, V: Into<VarValue>> FromIterator<(K, V)> for Variables {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut vars = Self::new();
        vars.extend(iter);
        vars
    }
}

impl<K: Into<String>, V: Into<VarValue>> Extend<(K, V)> for Variables {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (name, value) in iter {
            self.set(name, value);
        }
    }
}

impl<K: Into<String>, V: Into<VarValue>, const N: usize> From<[(K, V); N]> for Variables {
    fn from(value: [(K, V); N]) -> Self {
        value.into_iter().collect()
    }
}

#[cfg(feature = "std")]
impl<S: BuildHasher> From<HashMap<String, VarValue, S>> for Variables {
    fn from(value: HashMap<String, VarValue, S>) -> Self {
        value.into_iter().collect()
    }
}

impl IntoIterator for Variables {
    type Item = (String, VarValue);
    type IntoIter = alloc::vec::IntoIter<(String, VarValue)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a> IntoIterator for &'a Variables {
    type Item = (&'a str, &'a VarValue);
    type IntoIter = VariablesIter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
