//! What is malformed in a template that does not parse.

use core::error::Error;
use core::fmt;

/// What is malformed in a template rejected by [`UriTemplate::parse`](super::UriTemplate::parse).
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
    pub(super) offset: usize,
    pub(super) kind: UriTemplateErrorKind,
}

impl UriTemplateError {
    pub(super) fn new(offset: usize, kind: UriTemplateErrorKind) -> Self {
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
