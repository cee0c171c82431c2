//! URI Templates as defined by [RFC 6570] (levels 1–4), plus matching of
//! concrete URIs against a template.
//!
//! MCP resource templates (`resources/templates/list`) are RFC 6570
//! templates. Servers expand them to advertise resources and match incoming
//! `resources/read` URIs against them to recover the variables.
//!
//! ```
//! use mcp_spec_types::uri_template::{UriTemplate, Variables};
//!
//! let template = UriTemplate::parse("file:///{+path}")?;
//! let mut vars = Variables::new();
//! vars.set("path", "src/main.rs");
//! assert_eq!(template.expand(&vars), "file:///src/main.rs");
//!
//! let captured = template.match_uri("file:///src/main.rs").expect("matches");
//! assert_eq!(captured.get_str("path"), Some("src/main.rs"));
//! # Ok::<(), mcp_spec_types::uri_template::UriTemplateError>(())
//! ```
//!
//! # Parsing
//!
//! [`UriTemplate::parse`] follows the grammar of RFC 6570 section 2 and rejects
//! malformed templates with a [`UriTemplateError`] carrying the byte offset of
//! the problem. Literal characters that are not allowed in a URI (space, `"`,
//! `<`, `>`, `\`, `^`, `` ` ``, `|`, controls, non-ASCII) are accepted and
//! percent-encoded on expansion, exactly as RFC 6570 section 3.1 prescribes;
//! a `%` in a literal must start a valid percent-encoded triplet.
//!
//! # Expansion
//!
//! [`UriTemplate::expand`] implements RFC 6570 section 3 (the algorithm of
//! appendix A). Variables are looked up through the [`VarLookup`] trait,
//! implemented for [`Variables`], `HashMap<String, VarValue>`,
//! `BTreeMap<String, VarValue>` and slices/arrays/vectors of
//! `(name, VarValue)` pairs. Absent variables, empty lists and empty maps are
//! undefined and skipped. Two points the RFC leaves open are settled as
//! follows:
//!
//! * A prefix modifier (`{var:3}`) on a list or map value is ignored (the RFC
//!   says it is "not applicable"); the value is expanded as if the modifier
//!   were absent.
//! * The prefix length counts Unicode scalar values. For `+` and `#`, whose
//!   values may carry percent-encoded triplets through unchanged, a triplet
//!   counts as one character so that it is never split.
//!
//! # Matching
//!
//! [`UriTemplate::match_uri`] is the inverse of expansion. It is defined for
//! every template without prefix modifiers (see [`UriTemplate::is_matchable`]),
//! and accepts exactly the URIs that some expansion could produce, read
//! leniently in two ways noted below:
//!
//! * Literal parts must match exactly, either in their expanded
//!   (percent-encoded) form or as written in the template (lenient).
//! * The variables of an expression appear in template order and each one may
//!   be absent (undefined); the operator's first/separator strings, `name=`
//!   for `;`, `?`, `&`, must be exactly where expansion puts them. So query
//!   parameters must come in template order, and no others are allowed.
//!   `{;x}` matches `;x` (empty value) or `;x=value`, but not `;x=`.
//! * A value of `{var}`, `{.var}`, `{/var}`, `{;var}`, `{?var}` and `{&var}`
//!   consists of unreserved characters and percent-encoded characters (so it
//!   never contains `/`, `,`, `?`, ...). A value of `{+var}` and `{#var}` may
//!   also contain reserved characters (`/`, `?`, `#`, `,`, ...). Raw non-ASCII
//!   characters are accepted in values too, so IRIs match (lenient).
//! * Percent-encoded bytes in a value must form whole UTF-8 characters
//!   (`%C3%A9`, never `%FF`) and are decoded in the result.
//! * A non-exploded variable yields a [`VarValue::String`], so the expansion of
//!   a list or map through a non-exploded variable only matches if it is also
//!   a valid string value (`{+list}` matches `a,b` as the string `"a,b"`;
//!   `{list}` does not match `a,b`). An exploded variable (`{/path*}`) yields a
//!   [`VarValue::List`] of its items, or for the simple, `.` and `/` operators
//!   a [`VarValue::Map`] when every item has the form `key=value`. For `;`, `?`
//!   and `&` it yields a list when every item is named after the variable and
//!   a map otherwise. For `+` and `#` it is always a list, split at every `,`.
//!
//! When several decompositions of the URI fit, the first one in this order
//! wins: earlier variables are present rather than absent, earlier values are
//! as short as possible (leftmost-shortest) and exploded variables take as few
//! items as possible, lists before maps. So `{+a}/{+b}` matches `x/y/z` with
//! `a = "x"` and `b = "y/z"`, and `{a}{b}` matches `xy` with `a = ""`.
//! A variable that occurs more than once must get the same value everywhere
//! it is present *in that first decomposition*; otherwise the result is
//! `None`, even if another decomposition would have been consistent.
//!
//! The search is a backtracking matcher that memoizes every
//! (program position, URI position) pair it has visited, so it runs in
//! `O(|template| × |uri|)` time and bits of memory, never exponentially. As a
//! safety valve, a match needing more than 2^28 such states returns `None`.
//!
//! [`UriTemplate::is_unambiguous`] tells whether matching is guaranteed to
//! give back the string values a URI was expanded from.
//!
//! [RFC 6570]: https://www.rfc-editor.org/rfc/rfc6570

use std::collections::{BTreeMap, HashMap};
use std::error::Error;
use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};
use std::str::FromStr;

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// What is malformed in a template rejected by [`UriTemplate::parse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UriTemplateErrorKind {
    /// A `{` with no matching `}` before the end of the template or the next
    /// `{`. The offset is that of the `{`.
    UnclosedExpression,
    /// A `}` outside of any expression.
    UnmatchedClosingBrace,
    /// An expression with nothing inside: `{}`. The offset is that of the `{`.
    EmptyExpression,
    /// A variable name was expected but is missing, as in `{+}`, `{a,}` or
    /// `{a,,b}`. The offset is where the name should start.
    EmptyVarName,
    /// A character that cannot appear in a variable name at this position,
    /// as in `{a-b}`, `{a b}`, `{a..b}` or `{a.}`.
    InvalidVarChar(char),
    /// A prefix length that is not a number in `1..=9999` written without
    /// leading zeros, as in `{a:}`, `{a:0}`, `{a:10000}` or `{a:2x}`. The offset
    /// is that of the first character after the `:`.
    InvalidPrefixLength,
    /// An operator RFC 6570 reserves for future extensions: `=`, `,`, `!`, `@`
    /// or `|`.
    ReservedOperator(char),
    /// A `%` not followed by two hexadecimal digits, in a literal or in a
    /// variable name.
    InvalidPercentEncoding,
    /// A variable with both a prefix and an explode modifier (`{a:3*}` or
    /// `{a*:3}`). The offset is that of the second modifier.
    ExplodeWithPrefix,
    /// A character other than `,` or `}` after an explode modifier, as in
    /// `{a**}` or `{a*b}`.
    UnexpectedChar(char),
}

impl fmt::Display for UriTemplateErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnclosedExpression => f.write_str("unclosed expression: '{' has no matching '}'"),
            Self::UnmatchedClosingBrace => f.write_str("'}' without a matching '{'"),
            Self::EmptyExpression => f.write_str("empty expression '{}'"),
            Self::EmptyVarName => f.write_str("missing variable name"),
            Self::InvalidVarChar(c) => write!(f, "invalid character {c:?} in variable name"),
            Self::InvalidPrefixLength => {
                f.write_str("invalid prefix length: expected an integer in 1..=9999")
            }
            Self::ReservedOperator(c) => write!(f, "reserved operator {c:?} is not supported"),
            Self::InvalidPercentEncoding => {
                f.write_str("'%' must be followed by two hexadecimal digits")
            }
            Self::ExplodeWithPrefix => {
                f.write_str("a variable cannot have both a prefix and an explode modifier")
            }
            Self::UnexpectedChar(c) => {
                write!(
                    f,
                    "unexpected character {c:?} after modifier, expected ',' or '}}'"
                )
            }
        }
    }
}

/// Error returned when a URI template is malformed.
///
/// ```
/// use mcp_spec_types::uri_template::{UriTemplate, UriTemplateErrorKind};
///
/// let err = UriTemplate::parse("users://{id").unwrap_err();
/// assert_eq!(err.offset(), 8);
/// assert_eq!(err.kind(), UriTemplateErrorKind::UnclosedExpression);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UriTemplateError {
    offset: usize,
    kind: UriTemplateErrorKind,
}

impl UriTemplateError {
    fn new(offset: usize, kind: UriTemplateErrorKind) -> Self {
        Self { offset, kind }
    }

    /// Byte offset in the template where the problem was detected.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::UriTemplate;
    /// assert_eq!(UriTemplate::parse("a}b").unwrap_err().offset(), 1);
    /// ```
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is malformed.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::{UriTemplate, UriTemplateErrorKind};
    /// let err = UriTemplate::parse("{!var}").unwrap_err();
    /// assert_eq!(err.kind(), UriTemplateErrorKind::ReservedOperator('!'));
    /// ```
    #[must_use]
    pub fn kind(&self) -> UriTemplateErrorKind {
        self.kind
    }
}

impl fmt::Display for UriTemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid URI template at byte {}: {}",
            self.offset, self.kind
        )
    }
}

impl Error for UriTemplateError {}

// ---------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------

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

/// Source of variable values for [`UriTemplate::expand`].
///
/// Implemented for [`Variables`], `HashMap<String, VarValue>`,
/// `BTreeMap<String, VarValue>` and slices, arrays and vectors of
/// `(name, VarValue)` pairs (the first pair with a given name wins).
///
/// ```
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
/// [`UriTemplate::expand`] and the output of [`UriTemplate::match_uri`].
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
    entries: Vec<(String, VarValue)>,
}

fn entry_ref((name, value): &(String, VarValue)) -> (&str, &VarValue) {
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
pub type VariablesIter<'a> = std::iter::Map<
    std::slice::Iter<'a, (String, VarValue)>,
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

impl<S: BuildHasher> From<HashMap<String, VarValue, S>> for Variables {
    fn from(value: HashMap<String, VarValue, S>) -> Self {
        value.into_iter().collect()
    }
}

impl IntoIterator for Variables {
    type Item = (String, VarValue);
    type IntoIter = std::vec::IntoIter<(String, VarValue)>;

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

// ---------------------------------------------------------------------------
// Template structure
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operator {
    Simple,
    Reserved,
    Fragment,
    Label,
    Path,
    PathParam,
    Query,
    QueryCont,
}

impl Operator {
    /// Table from RFC 6570 appendix A.
    fn first(self) -> &'static str {
        match self {
            Self::Simple | Self::Reserved => "",
            Self::Fragment => "#",
            Self::Label => ".",
            Self::Path => "/",
            Self::PathParam => ";",
            Self::Query => "?",
            Self::QueryCont => "&",
        }
    }

    fn sep(self) -> &'static str {
        match self {
            Self::Simple | Self::Reserved | Self::Fragment => ",",
            Self::Label => ".",
            Self::Path => "/",
            Self::PathParam => ";",
            Self::Query | Self::QueryCont => "&",
        }
    }

    fn named(self) -> bool {
        matches!(self, Self::PathParam | Self::Query | Self::QueryCont)
    }

    fn ifemp(self) -> &'static str {
        match self {
            Self::Query | Self::QueryCont => "=",
            _ => "",
        }
    }

    fn allows_reserved(self) -> bool {
        matches!(self, Self::Reserved | Self::Fragment)
    }

    fn class(self) -> Class {
        if self.allows_reserved() {
            Class::UnreservedReserved
        } else {
            Class::Unreserved
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Modifier {
    None,
    Prefix(usize),
    Explode,
}

#[derive(Debug, Clone)]
struct VarSpec {
    name: String,
    modifier: Modifier,
}

#[derive(Debug, Clone)]
struct Expression {
    op: Operator,
    vars: Vec<VarSpec>,
}

#[derive(Debug, Clone)]
struct Literal {
    /// The literal with characters not allowed in URIs percent-encoded.
    expanded: String,
    /// The literal as written in the template.
    raw: String,
}

#[derive(Debug, Clone)]
enum Part {
    Literal(Literal),
    Expression(Expression),
}

// ---------------------------------------------------------------------------
// Character classes and percent-encoding
// ---------------------------------------------------------------------------

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn is_reserved(b: u8) -> bool {
    matches!(
        b,
        b':' | b'/'
            | b'?'
            | b'#'
            | b'['
            | b']'
            | b'@'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
    )
}

fn is_pct_triplet(bytes: &[u8], i: usize) -> bool {
    bytes.get(i) == Some(&b'%')
        && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
        && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
}

fn push_pct(out: &mut String, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push('%');
    out.push(char::from(HEX[usize::from(byte >> 4)]));
    out.push(char::from(HEX[usize::from(byte & 0x0F)]));
}

/// Appends `s` percent-encoded: everything outside the unreserved set (plus
/// the reserved set and existing triplets when `allow_reserved`) is encoded
/// byte by byte as UTF-8.
fn encode_into(out: &mut String, s: &str, allow_reserved: bool) {
    let bytes = s.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if is_unreserved(b) || (allow_reserved && is_reserved(b)) {
            out.push(char::from(b));
            i += 1;
        } else if allow_reserved && is_pct_triplet(bytes, i) {
            out.push_str(s.get(i..i + 3).unwrap_or_default());
            i += 3;
        } else {
            push_pct(out, b);
            i += 1;
        }
    }
}

/// The first `max_chars` characters of `s`. With `allow_reserved` a valid
/// percent-encoded triplet counts as one character, so it is never cut.
fn prefix(s: &str, max_chars: usize, allow_reserved: bool) -> &str {
    let bytes = s.as_bytes();
    let mut end = 0;
    let mut count = 0;
    while count < max_chars && end < bytes.len() {
        end += if allow_reserved && is_pct_triplet(bytes, end) {
            3
        } else {
            s.get(end..)
                .and_then(|rest| rest.chars().next())
                .map_or(1, char::len_utf8)
        };
        count += 1;
    }
    s.get(..end).unwrap_or(s)
}

fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if is_pct_triplet(bytes, i) {
            let hi = bytes.get(i + 1).copied().map_or(0, hex_value);
            let lo = bytes.get(i + 2).copied().map_or(0, hex_value);
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

fn char_at(src: &str, offset: usize) -> char {
    src.get(offset..)
        .and_then(|rest| rest.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

fn literal(raw: &str) -> Literal {
    let mut expanded = String::with_capacity(raw.len());
    for c in raw.chars() {
        // '%' only reaches here as part of a triplet validated by the parser.
        if c.is_ascii() && (is_unreserved(c as u8) || is_reserved(c as u8) || c == '%') {
            expanded.push(c);
        } else {
            let mut buf = [0; 4];
            for &b in c.encode_utf8(&mut buf).as_bytes() {
                push_pct(&mut expanded, b);
            }
        }
    }
    Literal {
        expanded,
        raw: raw.to_owned(),
    }
}

fn parse_parts(src: &str) -> Result<Vec<Part>, UriTemplateError> {
    let bytes = src.as_bytes();
    let mut parts = Vec::new();
    let mut literal_start = 0;
    let mut i = 0;
    let flush = |parts: &mut Vec<Part>, start: usize, end: usize| {
        if let Some(raw) = src.get(start..end).filter(|raw| !raw.is_empty()) {
            parts.push(Part::Literal(literal(raw)));
        }
    };
    while let Some(&b) = bytes.get(i) {
        match b {
            b'{' => {
                flush(&mut parts, literal_start, i);
                let close = find_close(bytes, i)?;
                parts.push(Part::Expression(parse_expression(src, i, close)?));
                i = close + 1;
                literal_start = i;
            }
            b'}' => {
                return Err(UriTemplateError::new(
                    i,
                    UriTemplateErrorKind::UnmatchedClosingBrace,
                ))
            }
            b'%' if !is_pct_triplet(bytes, i) => {
                return Err(UriTemplateError::new(
                    i,
                    UriTemplateErrorKind::InvalidPercentEncoding,
                ))
            }
            _ => i += 1,
        }
    }
    flush(&mut parts, literal_start, bytes.len());
    Ok(parts)
}

/// Offset of the `}` closing the expression opened at `open`. A second `{`
/// before it means the first one was never closed: reporting the outer brace
/// points at the actual mistake in templates like `a{b{c}`.
fn find_close(bytes: &[u8], open: usize) -> Result<usize, UriTemplateError> {
    let mut i = open + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'}' => return Ok(i),
            b'{' => break,
            _ => i += 1,
        }
    }
    Err(UriTemplateError::new(
        open,
        UriTemplateErrorKind::UnclosedExpression,
    ))
}

fn parse_expression(src: &str, open: usize, close: usize) -> Result<Expression, UriTemplateError> {
    use UriTemplateErrorKind as K;
    let bytes = src.as_bytes();
    let err = |offset, kind| Err(UriTemplateError::new(offset, kind));
    // Bytes at `close` and beyond are treated as absent.
    let at = |i: usize| {
        if i < close {
            bytes.get(i).copied()
        } else {
            None
        }
    };

    let body = open + 1;
    let op = match at(body) {
        None => return err(open, K::EmptyExpression),
        Some(b'+') => Operator::Reserved,
        Some(b'#') => Operator::Fragment,
        Some(b'.') => Operator::Label,
        Some(b'/') => Operator::Path,
        Some(b';') => Operator::PathParam,
        Some(b'?') => Operator::Query,
        Some(b'&') => Operator::QueryCont,
        Some(c @ (b'=' | b',' | b'!' | b'@' | b'|')) => {
            return err(body, K::ReservedOperator(char::from(c)))
        }
        Some(_) => Operator::Simple,
    };
    let mut i = if op == Operator::Simple {
        body
    } else {
        body + 1
    };
    let mut vars = Vec::new();
    loop {
        let name_start = i;
        let mut after_dot = false;
        while let Some(c) = at(i) {
            if c.is_ascii_alphanumeric() || c == b'_' {
                i += 1;
            } else if c == b'%' {
                if !is_pct_triplet(bytes, i) {
                    return err(i, K::InvalidPercentEncoding);
                }
                i += 3;
            } else if c == b'.' {
                if i == name_start || after_dot {
                    return err(i, K::InvalidVarChar('.'));
                }
                after_dot = true;
                i += 1;
                continue;
            } else {
                break;
            }
            after_dot = false;
        }
        match at(i) {
            None | Some(b':' | b'*' | b',') => {}
            Some(_) => return err(i, K::InvalidVarChar(char_at(src, i))),
        }
        if i == name_start {
            return err(i, K::EmptyVarName);
        }
        if after_dot {
            return err(i - 1, K::InvalidVarChar('.'));
        }
        let name = src.get(name_start..i).unwrap_or_default().to_owned();

        let modifier = match at(i) {
            Some(b':') => {
                let digits_start = i + 1;
                let mut end = digits_start;
                while at(end).is_some_and(|c| c.is_ascii_digit()) {
                    end += 1;
                }
                let digits = src.get(digits_start..end).unwrap_or_default();
                if digits.is_empty() || digits.starts_with('0') || digits.len() > 4 {
                    return err(digits_start, K::InvalidPrefixLength);
                }
                match at(end) {
                    None | Some(b',') => {}
                    Some(b'*') => return err(end, K::ExplodeWithPrefix),
                    Some(_) => return err(digits_start, K::InvalidPrefixLength),
                }
                i = end;
                let length = digits
                    .bytes()
                    .fold(0, |acc, d| acc * 10 + usize::from(d - b'0'));
                Modifier::Prefix(length)
            }
            Some(b'*') => {
                i += 1;
                match at(i) {
                    None | Some(b',') => {}
                    Some(b':') => return err(i, K::ExplodeWithPrefix),
                    Some(_) => return err(i, K::UnexpectedChar(char_at(src, i))),
                }
                Modifier::Explode
            }
            _ => Modifier::None,
        };
        vars.push(VarSpec { name, modifier });
        if at(i).is_none() {
            break;
        }
        // The only byte left here is the ',' separating varspecs.
        i += 1;
    }
    Ok(Expression { op, vars })
}

// ---------------------------------------------------------------------------
// The template
// ---------------------------------------------------------------------------

/// A parsed RFC 6570 URI template.
///
/// Equality and hashing compare the template text.
///
/// ```
/// use mcp_spec_types::uri_template::{UriTemplate, Variables};
///
/// let t: UriTemplate = "weather://forecast/{city}/{date}".parse()?;
/// let vars = Variables::new().with("city", "london").with("date", "2024-01-01");
/// assert_eq!(t.expand(&vars), "weather://forecast/london/2024-01-01");
/// assert_eq!(t.match_uri("weather://forecast/london/2024-01-01"), Some(vars));
/// # Ok::<(), mcp_spec_types::uri_template::UriTemplateError>(())
/// ```
#[derive(Clone)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
    names: Vec<String>,
}

impl UriTemplate {
    /// Parses a template, rejecting anything that does not follow the
    /// RFC 6570 grammar.
    ///
    /// # Errors
    ///
    /// Returns a [`UriTemplateError`] with the byte offset and the kind of the
    /// first problem found (see [`UriTemplateErrorKind`]).
    ///
    /// ```
    /// use mcp_spec_types::uri_template::{UriTemplate, UriTemplateErrorKind};
    ///
    /// assert!(UriTemplate::parse("repo://{owner}/{repo}/issues{?state,page}").is_ok());
    /// let err = UriTemplate::parse("{var:0}").unwrap_err();
    /// assert_eq!(err.kind(), UriTemplateErrorKind::InvalidPrefixLength);
    /// assert_eq!(err.offset(), 5);
    /// ```
    pub fn parse(template: &str) -> Result<Self, UriTemplateError> {
        let parts = parse_parts(template)?;
        let mut names: Vec<String> = Vec::new();
        for part in &parts {
            if let Part::Expression(expr) = part {
                for spec in &expr.vars {
                    if !names.contains(&spec.name) {
                        names.push(spec.name.clone());
                    }
                }
            }
        }
        Ok(Self {
            source: template.to_owned(),
            parts,
            names,
        })
    }

    /// The template text, as given to [`UriTemplate::parse`].
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::UriTemplate;
    /// let t = UriTemplate::parse("users://{userId}/profile")?;
    /// assert_eq!(t.as_str(), "users://{userId}/profile");
    /// # Ok::<(), mcp_spec_types::uri_template::UriTemplateError>(())
    /// ```
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The variable names in order of first appearance, without duplicates.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::UriTemplate;
    /// let t = UriTemplate::parse("{a}/{b}{?a,c*}")?;
    /// assert_eq!(t.variables().collect::<Vec<_>>(), ["a", "b", "c"]);
    /// # Ok::<(), mcp_spec_types::uri_template::UriTemplateError>(())
    /// ```
    pub fn variables(&self) -> impl Iterator<Item = &str> + '_ {
        self.names.iter().map(String::as_str)
    }

    /// Expands the template with the given variables (RFC 6570 section 3).
    ///
    /// Variables that are not set, and empty lists and maps, are undefined
    /// and skipped together with their operator prefix. Expansion cannot
    /// fail.
    ///
    /// ```
    /// use mcp_spec_types::uri_template::{UriTemplate, Variables};
    ///
    /// let t = UriTemplate::parse("github://repos/{owner}/{repo}/contents{/path*}")?;
    /// let vars = Variables::new()
    ///     .with("owner", "rust-lang")
    ///     .with("repo", "rust")
    ///     .with("path", vec!["src", "main.rs"]);
    /// assert_eq!(t.expand(&vars), "github://repos/rust-lang/rust/contents/src/main.rs");
    /// # Ok::<(), mcp_spec_types::uri_template::UriTemplateError>(())
    /// ```
    #[must_use]
    pub fn expand<V: VarLookup + ?Sized>(&self, vars: &V) -> String {
        let mut out = String::with_capacity(self.source.len());
        for part in &self.parts {
            match part {
                Part::Literal(lit) => out.push_str(&lit.expanded),
                Part::Expression(expr) => expand_expression(expr, vars, &mut out),
            }
        }
        out
    }

    /// Whether [`UriTemplate::match_uri`] is defined for this template: true
    /// unless some variable has a prefix modifier (`{var:3}`), since a prefix
    /// cannot be told apart from a whole value.
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::UriTemplate;
    /// assert!(UriTemplate::parse("file:///{+path}")?.is_matchable());
    /// assert!(!UriTemplate::parse("{var:3}")?.is_matchable());
    /// # Ok::<(), mcp_spec_types::uri_template::UriTemplateError>(())
    /// ```
    #[must_use]
    pub fn is_matchable(&self) -> bool {
        Program::compile(&self.parts).is_some()
    }

    /// Whether matching is guaranteed to invert expansion for string values:
    /// when this returns true, for every assignment of [`VarValue::String`]
    /// values to *all* of [`UriTemplate::variables`] (for `+` and `#`
    /// variables: values that contain no `%XX` triplet, which those operators
    /// pass through unencoded), `match_uri(&expand(&vars)) == Some(vars)`.
    ///
    /// Requires a matchable template without explode modifiers where each
    /// value is delimited unambiguously: by the end of the URI after only
    /// literal text, or by a following character that cannot occur in the
    /// value. The check is conservative: it may return false for a template
    /// that does round-trip (such as `{+a}/{b}`).
    ///
    /// ```
    /// # use mcp_spec_types::uri_template::UriTemplate;
    /// assert!(UriTemplate::parse("file:///{+path}")?.is_unambiguous());
    /// assert!(UriTemplate::parse("weather://forecast/{city}/{date}")?.is_unambiguous());
    /// assert!(!UriTemplate::parse("{+dir}/{+file}")?.is_unambiguous());
    /// assert!(!UriTemplate::parse("{a}-{b}")?.is_unambiguous());
    /// # Ok::<(), mcp_spec_types::uri_template::UriTemplateError>(())
    /// ```
    #[must_use]
    pub fn is_unambiguous(&self) -> bool {
        Program::compile(&self.parts).is_some_and(|program| program.is_unambiguous())
    }

    /// Matches `uri` against the template and returns the values of the
    /// variables it contains, or `None` if it does not match or matching is
    /// not defined for this template. See the [module documentation](self)
    /// for the exact rules.
    ///
    /// The work is bounded: when the compiled template's length times the
    /// URI's length passes 2^28 (a template of hundreds of expressions against
    /// a URI of hundreds of kilobytes), matching is declined and the answer is
    /// `None`, so that no input costs more than that much time and memory.
    ///
    /// ```
    /// use mcp_spec_types::uri_template::{UriTemplate, Variables};
    ///
    /// let t = UriTemplate::parse("repo://{owner}/{repo}/issues{?state,page}")?;
    /// assert_eq!(
    ///     t.match_uri("repo://acme/widgets/issues?page=2"),
    ///     Some(Variables::new().with("owner", "acme").with("repo", "widgets").with("page", "2"))
    /// );
    /// assert_eq!(t.match_uri("repo://acme/widgets/pulls"), None);
    ///
    /// let file = UriTemplate::parse("file:///{path}")?;
    /// assert_eq!(file.match_uri("file:///src/main.rs"), None);
    /// # Ok::<(), mcp_spec_types::uri_template::UriTemplateError>(())
    /// ```
    #[must_use]
    pub fn match_uri(&self, uri: &str) -> Option<Variables> {
        let program = Program::compile(&self.parts)?;
        let log = program.run(uri)?;
        program.collect(uri, &log)
    }
}

impl fmt::Debug for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UriTemplate").field(&self.source).finish()
    }
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl PartialEq for UriTemplate {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for UriTemplate {}

impl Hash for UriTemplate {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.source.hash(state);
    }
}

impl FromStr for UriTemplate {
    type Err = UriTemplateError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl TryFrom<&str> for UriTemplate {
    type Error = UriTemplateError;

    fn try_from(value: &str) -> Result<Self, Self::Error> {
        Self::parse(value)
    }
}

// ---------------------------------------------------------------------------
// Expansion
// ---------------------------------------------------------------------------

fn expand_expression<V: VarLookup + ?Sized>(expr: &Expression, vars: &V, out: &mut String) {
    let op = expr.op;
    let allow = op.allows_reserved();
    let mut first = true;
    for spec in &expr.vars {
        let Some(value) = vars.lookup(&spec.name).filter(|v| v.is_defined()) else {
            continue;
        };
        out.push_str(if first { op.first() } else { op.sep() });
        first = false;
        let explode = spec.modifier == Modifier::Explode;
        match value {
            VarValue::String(s) => {
                if op.named() {
                    out.push_str(&spec.name);
                    if s.is_empty() {
                        out.push_str(op.ifemp());
                        continue;
                    }
                    out.push('=');
                }
                let s = match spec.modifier {
                    Modifier::Prefix(n) => prefix(s, n, allow),
                    _ => s,
                };
                encode_into(out, s, allow);
            }
            VarValue::List(items) if explode => {
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        out.push_str(op.sep());
                    }
                    if op.named() {
                        out.push_str(&spec.name);
                        if item.is_empty() {
                            out.push_str(op.ifemp());
                            continue;
                        }
                        out.push('=');
                    }
                    encode_into(out, item, allow);
                }
            }
            VarValue::List(items) => {
                if op.named() {
                    out.push_str(&spec.name);
                    out.push('=');
                }
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    encode_into(out, item, allow);
                }
            }
            VarValue::Map(pairs) if explode => {
                for (k, (key, val)) in pairs.iter().enumerate() {
                    if k > 0 {
                        out.push_str(op.sep());
                    }
                    encode_into(out, key, allow);
                    if op.named() && val.is_empty() {
                        out.push_str(op.ifemp());
                        continue;
                    }
                    out.push('=');
                    encode_into(out, val, allow);
                }
            }
            VarValue::Map(pairs) => {
                if op.named() {
                    out.push_str(&spec.name);
                    out.push('=');
                }
                for (k, (key, val)) in pairs.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    encode_into(out, key, allow);
                    out.push(',');
                    encode_into(out, val, allow);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------
//
// The template is compiled to a small backtracking program in the style of a
// regex VM. Every value is a lazy loop over "units" (one allowed byte, one
// percent-encoded triplet or one non-ASCII character), and every choice is a
// `Split` whose first branch has priority. Marks logged along the successful
// path delimit the captured values. Memoizing visited (pc, position) pairs is
// sound because the outcome from a state never depends on how it was reached,
// and it bounds the work by the number of such pairs.

/// Bound on program length × (URI length + 1), i.e. bits of memo table.
const MAX_STATES: usize = 1 << 28;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Unreserved,
    UnreservedReserved,
}

#[derive(Debug, Clone, Copy)]
enum Mark {
    /// The variable occurrence with this index is present (defined).
    Present(usize),
    SpanStart,
    SpanEnd,
    ItemEnd,
}

#[derive(Debug)]
enum Inst<'t> {
    Lit(&'t str),
    Unit(Class),
    Split(usize, usize),
    Jmp(usize),
    Mark(Mark),
    Match,
}

/// Byte ranges of the values captured for one item of a variable: one for a
/// plain value, two for a `key=value` pair.
type Item = Vec<(usize, usize)>;

struct Occurrence<'t> {
    name: &'t str,
    op: Operator,
    explode: bool,
}

struct Program<'t> {
    insts: Vec<Inst<'t>>,
    occurrences: Vec<Occurrence<'t>>,
    /// Class and exit pc of every value loop, for the ambiguity check.
    loops: Vec<(Class, usize)>,
    /// Where `{;var}` continues without `=`: '=' must not start what follows.
    eq_optional: Vec<usize>,
}

/// Length of the value unit starting at `pos`, if there is one. Units are
/// whole characters, so a value can never end inside one: an allowed ASCII
/// byte, a raw non-ASCII character, or the percent-encoded triplets of one
/// complete UTF-8 character (`%C3%A9`). Percent-encoded bytes that are not
/// UTF-8 (`%FF`) are not units, so such URIs do not match.
fn unit_len(uri: &str, pos: usize, class: Class) -> Option<usize> {
    let bytes = uri.as_bytes();
    let b = *bytes.get(pos)?;
    if b == b'%' {
        pct_char_len(bytes, pos)
    } else if b.is_ascii() {
        (is_unreserved(b) || (class == Class::UnreservedReserved && is_reserved(b))).then_some(1)
    } else {
        uri.get(pos..)?.chars().next().map(char::len_utf8)
    }
}

/// Length of the triplets at `pos` that encode one UTF-8 character.
fn pct_char_len(bytes: &[u8], pos: usize) -> Option<usize> {
    let mut buf = [0u8; 4];
    for len in 1..=buf.len() {
        let at = pos + 3 * (len - 1);
        if !is_pct_triplet(bytes, at) {
            return None;
        }
        let hi = bytes.get(at + 1).copied().map_or(0, hex_value);
        let lo = bytes.get(at + 2).copied().map_or(0, hex_value);
        *buf.get_mut(len - 1)? = hi << 4 | lo;
        // `error_len() == None` means "valid so far, needs more bytes".
        match std::str::from_utf8(buf.get(..len)?) {
            Ok(_) => return Some(3 * len),
            Err(e) if e.error_len().is_some() => return None,
            Err(_) => {}
        }
    }
    None
}

/// Bytes that can start a unit in an *expanded* value, which is pure ASCII.
fn expanded_unit_start(b: u8, class: Class) -> bool {
    b == b'%' || is_unreserved(b) || (class == Class::UnreservedReserved && is_reserved(b))
}

impl<'t> Program<'t> {
    /// `None` when the template uses a prefix modifier.
    fn compile(parts: &'t [Part]) -> Option<Self> {
        let mut program = Program {
            insts: Vec::new(),
            occurrences: Vec::new(),
            loops: Vec::new(),
            eq_optional: Vec::new(),
        };
        for part in parts {
            match part {
                Part::Literal(lit) => program.literal(lit),
                Part::Expression(expr) => program.expression(expr)?,
            }
        }
        program.emit(Inst::Match);
        Some(program)
    }

    fn emit(&mut self, inst: Inst<'t>) -> usize {
        self.insts.push(inst);
        self.insts.len() - 1
    }

    fn here(&self) -> usize {
        self.insts.len()
    }

    fn patch(&mut self, at: usize, inst: Inst<'t>) {
        if let Some(slot) = self.insts.get_mut(at) {
            *slot = inst;
        }
    }

    fn lit(&mut self, s: &'t str) {
        if !s.is_empty() {
            self.emit(Inst::Lit(s));
        }
    }

    fn literal(&mut self, lit: &'t Literal) {
        if lit.expanded == lit.raw {
            self.lit(&lit.expanded);
            return;
        }
        let split = self.emit(Inst::Split(0, 0));
        let expanded = self.here();
        self.lit(&lit.expanded);
        let jump = self.emit(Inst::Jmp(0));
        let raw = self.here();
        self.lit(&lit.raw);
        let end = self.here();
        self.patch(split, Inst::Split(expanded, raw));
        self.patch(jump, Inst::Jmp(end));
    }

    /// A value: the shortest run of units that lets the rest match.
    fn capture(&mut self, class: Class) {
        self.emit(Inst::Mark(Mark::SpanStart));
        let head = self.emit(Inst::Split(0, 0));
        let body = self.emit(Inst::Unit(class));
        self.emit(Inst::Jmp(head));
        let exit = self.here();
        self.patch(head, Inst::Split(exit, body));
        self.loops.push((class, exit));
        self.emit(Inst::Mark(Mark::SpanEnd));
    }

    /// Like [`Program::capture`], but at least one unit long.
    fn capture_nonempty(&mut self, class: Class) {
        self.emit(Inst::Mark(Mark::SpanStart));
        let body = self.emit(Inst::Unit(class));
        let tail = self.emit(Inst::Split(0, 0));
        let exit = self.here();
        self.patch(tail, Inst::Split(exit, body));
        self.loops.push((class, exit));
        self.emit(Inst::Mark(Mark::SpanEnd));
    }

    /// `=value` as the `;` operator writes it: present for non-empty values,
    /// left out for empty ones (`;x`, never `;x=`). The form with `=` has
    /// priority.
    fn optional_eq_value(&mut self) {
        let split = self.emit(Inst::Split(0, 0));
        let with_eq = self.here();
        self.lit("=");
        self.capture_nonempty(Class::Unreserved);
        let join = self.here();
        self.patch(split, Inst::Split(with_eq, join));
        self.eq_optional.push(join);
    }

    fn expression(&mut self, expr: &'t Expression) -> Option<()> {
        let op = expr.op;
        let count = expr.vars.len();
        // Each variable gets two entry points, depending on whether an earlier
        // variable of the expression was present: the first present one is
        // preceded by `first`, the others by `sep`.
        for (index, spec) in expr.vars.iter().enumerate() {
            let explode = match spec.modifier {
                Modifier::Prefix(_) => return None,
                Modifier::Explode => true,
                Modifier::None => false,
            };
            let occurrence = self.occurrences.len();
            self.occurrences.push(Occurrence {
                name: &spec.name,
                op,
                explode,
            });
            let entry_first = self.emit(Inst::Split(0, 0));
            let entry_sep = self.emit(Inst::Split(0, 0));
            let present_first = self.here();
            self.lit(op.first());
            let to_item = self.emit(Inst::Jmp(0));
            let present_sep = self.here();
            self.lit(op.sep());
            let item = self.here();
            self.patch(to_item, Inst::Jmp(item));
            self.emit(Inst::Mark(Mark::Present(occurrence)));
            if explode {
                self.exploded_items(op);
            } else {
                self.single_item(&spec.name, op);
            }
            let done = self.emit(Inst::Jmp(0));
            let next_first = self.here();
            let next_sep = if index + 1 < count {
                next_first + 1
            } else {
                next_first
            };
            self.patch(entry_first, Inst::Split(present_first, next_first));
            self.patch(entry_sep, Inst::Split(present_sep, next_sep));
            self.patch(done, Inst::Jmp(next_sep));
        }
        Some(())
    }

    fn single_item(&mut self, name: &'t str, op: Operator) {
        match op {
            Operator::PathParam => {
                self.lit(name);
                self.optional_eq_value();
            }
            Operator::Query | Operator::QueryCont => {
                self.lit(name);
                self.lit("=");
                self.capture(Class::Unreserved);
            }
            _ => self.capture(op.class()),
        }
        self.emit(Inst::Mark(Mark::ItemEnd));
    }

    fn exploded_items(&mut self, op: Operator) {
        match op {
            Operator::Reserved | Operator::Fragment => {
                self.item_loop(op, |p| p.capture(Class::UnreservedReserved));
            }
            Operator::Simple | Operator::Label | Operator::Path => {
                // `=` is encoded in these values, so a raw one marks a map
                // pair. Lists and maps get separate loops so that items are
                // never a mix of both.
                let split = self.emit(Inst::Split(0, 0));
                let list = self.here();
                self.item_loop(op, |p| p.capture(Class::Unreserved));
                let jump = self.emit(Inst::Jmp(0));
                let map = self.here();
                self.item_loop(op, |p| {
                    p.capture(Class::Unreserved);
                    p.lit("=");
                    p.capture(Class::Unreserved);
                });
                let end = self.here();
                self.patch(split, Inst::Split(list, map));
                self.patch(jump, Inst::Jmp(end));
            }
            Operator::PathParam => self.item_loop(op, |p| {
                p.capture(Class::Unreserved);
                p.optional_eq_value();
            }),
            Operator::Query | Operator::QueryCont => self.item_loop(op, |p| {
                p.capture(Class::Unreserved);
                p.lit("=");
                p.capture(Class::Unreserved);
            }),
        }
    }

    /// One or more items separated by the operator's separator, as few as
    /// possible.
    fn item_loop(&mut self, op: Operator, item: impl Fn(&mut Self)) {
        let start = self.here();
        item(self);
        self.emit(Inst::Mark(Mark::ItemEnd));
        let split = self.emit(Inst::Split(0, 0));
        let more = self.here();
        self.lit(op.sep());
        self.emit(Inst::Jmp(start));
        let done = self.here();
        self.patch(split, Inst::Split(done, more));
    }

    /// Runs the program on `uri`; returns the marks of the highest-priority
    /// successful path.
    fn run(&self, uri: &str) -> Option<Vec<(Mark, usize)>> {
        let bytes = uri.as_bytes();
        let positions = bytes.len().checked_add(1)?;
        let states = self.insts.len().checked_mul(positions)?;
        if states > MAX_STATES {
            return None;
        }
        let mut visited = vec![0u64; states.div_ceil(64)];
        let mut log: Vec<(Mark, usize)> = Vec::new();
        // Alternatives still to try: (pc, position, log length to restore).
        let mut stack: Vec<(usize, usize, usize)> = vec![(0, 0, 0)];
        while let Some((mut pc, mut pos, log_len)) = stack.pop() {
            log.truncate(log_len);
            loop {
                let state = pc * positions + pos;
                let word = visited.get_mut(state / 64)?;
                let bit = 1u64 << (state % 64);
                if *word & bit != 0 {
                    break;
                }
                *word |= bit;
                match self.insts.get(pc)? {
                    Inst::Match if pos == bytes.len() => return Some(log),
                    Inst::Match => break,
                    Inst::Lit(s) => {
                        if !bytes
                            .get(pos..)
                            .is_some_and(|rest| rest.starts_with(s.as_bytes()))
                        {
                            break;
                        }
                        pos += s.len();
                        pc += 1;
                    }
                    Inst::Unit(class) => match unit_len(uri, pos, *class) {
                        Some(len) => {
                            pos += len;
                            pc += 1;
                        }
                        None => break,
                    },
                    Inst::Split(first, second) => {
                        stack.push((*second, pos, log.len()));
                        pc = *first;
                    }
                    Inst::Jmp(target) => pc = *target,
                    Inst::Mark(mark) => {
                        log.push((*mark, pos));
                        pc += 1;
                    }
                }
            }
        }
        None
    }

    /// Turns the marks of a successful run into variables.
    fn collect(&self, uri: &str, log: &[(Mark, usize)]) -> Option<Variables> {
        // Per occurrence: None if absent, else its items, each a list of spans.
        let mut found: Vec<Option<Vec<Item>>> = (0..self.occurrences.len()).map(|_| None).collect();
        let mut current: Option<usize> = None;
        let mut spans: Item = Vec::new();
        let mut span_start = 0;
        for &(mark, pos) in log {
            match mark {
                Mark::Present(occurrence) => {
                    current = Some(occurrence);
                    spans.clear();
                    *found.get_mut(occurrence)? = Some(Vec::new());
                }
                Mark::SpanStart => span_start = pos,
                Mark::SpanEnd => spans.push((span_start, pos)),
                Mark::ItemEnd => {
                    let items = found.get_mut(current?)?.as_mut()?;
                    items.push(std::mem::take(&mut spans));
                }
            }
        }

        let mut vars = Variables::new();
        for (occurrence, items) in self.occurrences.iter().zip(&found) {
            let Some(items) = items else { continue };
            let value = occurrence.value(uri, items)?;
            match vars.get(occurrence.name) {
                Some(previous) if *previous != value => return None,
                Some(_) => {}
                None => {
                    vars.set(occurrence.name, value);
                }
            }
        }
        Some(vars)
    }

    /// See [`UriTemplate::is_unambiguous`]. Matching prefers shorter values,
    /// so the expansion's own decomposition is found first unless cutting a
    /// value short could also let the rest match. That is ruled out when the
    /// rest is a fixed literal up to the end (its position is forced) or when
    /// the rest cannot start with any byte of an expanded value. For `{;var}`
    /// the `=value` branch is tried before the bare name, so `=` must not be
    /// able to start what follows the bare name.
    fn is_unambiguous(&self) -> bool {
        if self.occurrences.iter().any(|o| o.explode) {
            return false;
        }
        let loops_ok = self.loops.iter().all(|&(class, exit)| {
            if self.literal_tail(exit) {
                return true;
            }
            let first = self.first_bytes(exit);
            !(0..=u8::MAX).any(|b| first[usize::from(b)] && expanded_unit_start(b, class))
        });
        loops_ok
            && self
                .eq_optional
                .iter()
                .all(|&join| !self.first_bytes(join)[usize::from(b'=')])
    }

    /// Whether only fixed literal text can follow `pc` up to the end.
    fn literal_tail(&self, mut pc: usize) -> bool {
        for _ in 0..=self.insts.len() {
            match self.insts.get(pc) {
                Some(Inst::Lit(_) | Inst::Mark(_)) => pc += 1,
                Some(Inst::Jmp(target)) => pc = *target,
                Some(Inst::Match) => return true,
                _ => return false,
            }
        }
        false
    }

    /// Bytes that can be the first one consumed from `pc` on.
    fn first_bytes(&self, start: usize) -> [bool; 256] {
        let mut set = [false; 256];
        let mut seen = vec![false; self.insts.len()];
        let mut todo = vec![start];
        while let Some(pc) = todo.pop() {
            match seen.get_mut(pc) {
                Some(seen) if !*seen => *seen = true,
                _ => continue,
            }
            match self.insts.get(pc) {
                Some(Inst::Lit(s)) => {
                    if let Some(&b) = s.as_bytes().first() {
                        set[usize::from(b)] = true;
                    }
                }
                Some(Inst::Unit(class)) => {
                    for b in 0..=u8::MAX {
                        // Non-ASCII bytes matter too: a raw literal may start
                        // with one, and so may a URI that was not expanded.
                        if !b.is_ascii() || expanded_unit_start(b, *class) {
                            set[usize::from(b)] = true;
                        }
                    }
                }
                Some(Inst::Split(a, b)) => {
                    todo.push(*a);
                    todo.push(*b);
                }
                Some(Inst::Jmp(target)) => todo.push(*target),
                Some(Inst::Mark(_)) => todo.push(pc + 1),
                Some(Inst::Match) | None => {}
            }
        }
        set
    }
}

impl Occurrence<'_> {
    fn value(&self, uri: &str, items: &[Item]) -> Option<VarValue> {
        let text = |&(start, end): &(usize, usize)| uri.get(start..end);
        let decoded = |span: Option<&(usize, usize)>| match span {
            Some(span) => percent_decode(text(span)?),
            None => Some(String::new()),
        };
        if !self.explode {
            let spans = items.first()?;
            return decoded(spans.first()).map(VarValue::String);
        }
        if self.op.named() {
            let is_list = items
                .iter()
                .all(|spans| spans.first().and_then(text) == Some(self.name));
            return if is_list {
                items
                    .iter()
                    .map(|spans| decoded(spans.get(1)))
                    .collect::<Option<Vec<_>>>()
                    .map(VarValue::List)
            } else {
                items
                    .iter()
                    .map(|spans| Some((decoded(spans.first())?, decoded(spans.get(1))?)))
                    .collect::<Option<Vec<_>>>()
                    .map(VarValue::Map)
            };
        }
        if items.iter().all(|spans| spans.len() == 1) {
            items
                .iter()
                .map(|spans| decoded(spans.first()))
                .collect::<Option<Vec<_>>>()
                .map(VarValue::List)
        } else if items.iter().all(|spans| spans.len() == 2) {
            items
                .iter()
                .map(|spans| Some((decoded(spans.first())?, decoded(spans.get(1))?)))
                .collect::<Option<Vec<_>>>()
                .map(VarValue::Map)
        } else {
            None
        }
    }
}
