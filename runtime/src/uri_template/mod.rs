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

use crate::prelude::*;
mod encoding;
mod error;
mod expand;
mod matcher;
mod parse;
mod syntax_tree;
mod values;

pub use error::{UriTemplateError, UriTemplateErrorKind};
pub use values::{VarLookup, VarValue, Variables, VariablesIter};

use core::fmt;
use core::hash::{Hash, Hasher};
use core::str::FromStr;
use expand::*;
use matcher::*;
use parse::*;
use syntax_tree::*;

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
