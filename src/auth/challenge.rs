//! `WWW-Authenticate` challenges (RFC 9110 §11.6.1, RFC 7235 §2.1): parsed into schemes and
//! parameters, and formatted back.

use super::AuthError;
use crate::prelude::*;
use core::fmt;

/// One `auth-param` of a challenge: `name=value` (RFC 9110 §11.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthParam {
    /// The name as written; names compare case-insensitively (RFC 9110 §11.2).
    pub name: String,
    /// The value, unescaped when it was a quoted-string.
    pub value: String,
    /// Whether the value was (or is to be) written as a quoted-string. A value that is not a
    /// `token` is quoted whatever this says.
    pub quoted: bool,
}

/// One challenge: an auth-scheme with either a `token68` or a list of parameters
/// (RFC 9110 §11.3).
///
/// ```
/// use mcp_spec_types::auth::WwwAuthenticate;
/// let text = r#"Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource""#;
/// let header: WwwAuthenticate = text.parse().unwrap();
/// let bearer = header.bearer().unwrap();
/// assert_eq!(bearer.error(), Some("insufficient_scope"));
/// assert_eq!(bearer.scope(), Some("files:read files:write"));
/// assert_eq!(header.to_string(), text);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// The auth-scheme as written (`Bearer`); schemes compare case-insensitively.
    pub scheme: String,
    /// The `token68` form of the credentials, when the challenge has one instead of
    /// parameters.
    pub token68: Option<String>,
    /// The parameters, in order.
    pub params: Vec<AuthParam>,
}

/// A `WWW-Authenticate` field value: one or more challenges (RFC 9110 §11.6.1).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WwwAuthenticate {
    /// The challenges, in order.
    pub challenges: Vec<Challenge>,
}

impl Challenge {
    /// A challenge of `scheme` with no parameter.
    pub fn new(scheme: impl Into<String>) -> Self {
        Challenge {
            scheme: scheme.into(),
            token68: None,
            params: Vec::new(),
        }
    }

    /// A `Bearer` challenge with no parameter (RFC 6750 §3).
    pub fn bearer() -> Self {
        Challenge::new("Bearer")
    }

    /// Adds a parameter, written as a quoted-string.
    pub fn with_param(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.params.push(AuthParam {
            name: name.into(),
            value: value.into(),
            quoted: true,
        });
        self
    }

    /// Whether the scheme is `scheme` (case-insensitively, RFC 9110 §11.1).
    pub fn is_scheme(&self, scheme: &str) -> bool {
        self.scheme.eq_ignore_ascii_case(scheme)
    }

    /// The value of the parameter `name` (case-insensitively).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .map(|p| p.value.as_str())
    }

    /// `realm` (RFC 9110 §11.5, RFC 6750 §3).
    pub fn realm(&self) -> Option<&str> {
        self.param("realm")
    }

    /// `scope`: space-delimited scope values the resource needs (RFC 6750 §3).
    pub fn scope(&self) -> Option<&str> {
        self.param("scope")
    }

    /// `error`: `invalid_request`, `invalid_token`, `insufficient_scope`... (RFC 6750 §3.1).
    pub fn error(&self) -> Option<&str> {
        self.param("error")
    }

    /// `error_description` (RFC 6750 §3).
    pub fn error_description(&self) -> Option<&str> {
        self.param("error_description")
    }

    /// `error_uri` (RFC 6750 §3).
    pub fn error_uri(&self) -> Option<&str> {
        self.param("error_uri")
    }

    /// `resource_metadata`: the URL of the resource's protected resource metadata
    /// (RFC 9728 §5.1).
    pub fn resource_metadata(&self) -> Option<&str> {
        self.param("resource_metadata")
    }

    /// Parses a field value holding exactly one challenge.
    pub fn parse(text: &str) -> Result<Self, AuthError> {
        let mut header = WwwAuthenticate::parse(text)?;
        match header.challenges.len() {
            1 => Ok(header.challenges.remove(0)),
            0 => Err(challenge_error(0, None, "no challenge")),
            _ => Err(challenge_error(
                text.len(),
                None,
                "more than one challenge where one was expected",
            )),
        }
    }
}

impl WwwAuthenticate {
    /// Parses a `WWW-Authenticate` field value (RFC 9110 §11.6.1): challenges separated by
    /// commas, each an auth-scheme followed by a `token68` or by `name=value` parameters whose
    /// values are tokens or quoted-strings (with `\` escapes). Errors give the byte offset and,
    /// inside a parameter, its name.
    pub fn parse(text: &str) -> Result<Self, AuthError> {
        Parser {
            text: text.as_bytes(),
            pos: 0,
        }
        .header()
    }

    /// Parses several `WWW-Authenticate` fields of one response as the one list they make
    /// (RFC 9110 §5.3); an error's offset is within the field at fault.
    pub fn parse_fields<'a>(fields: impl IntoIterator<Item = &'a str>) -> Result<Self, AuthError> {
        let mut header = WwwAuthenticate::default();
        for field in fields {
            header
                .challenges
                .extend(WwwAuthenticate::parse(field)?.challenges);
        }
        if header.challenges.is_empty() {
            return Err(challenge_error(0, None, "no challenge"));
        }
        Ok(header)
    }

    /// The first `Bearer` challenge (RFC 6750 §3).
    pub fn bearer(&self) -> Option<&Challenge> {
        self.challenge("Bearer")
    }

    /// The first challenge of `scheme` (case-insensitively).
    pub fn challenge(&self, scheme: &str) -> Option<&Challenge> {
        self.challenges.iter().find(|c| c.is_scheme(scheme))
    }
}

impl core::str::FromStr for WwwAuthenticate {
    type Err = AuthError;
    fn from_str(text: &str) -> Result<Self, AuthError> {
        WwwAuthenticate::parse(text)
    }
}

impl core::str::FromStr for Challenge {
    type Err = AuthError;
    fn from_str(text: &str) -> Result<Self, AuthError> {
        Challenge::parse(text)
    }
}

impl From<Challenge> for WwwAuthenticate {
    fn from(challenge: Challenge) -> Self {
        WwwAuthenticate {
            challenges: vec![challenge],
        }
    }
}

/// The canonical form: `scheme`, one space, then the token68 or the parameters joined by
/// `", "`, each `name=value` with the value quoted when it was quoted or is not a token.
impl fmt::Display for Challenge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.scheme)?;
        if let Some(token68) = &self.token68 {
            write!(f, " {token68}")?;
        }
        for (i, param) in self.params.iter().enumerate() {
            f.write_str(if i == 0 && self.token68.is_none() {
                " "
            } else {
                ", "
            })?;
            f.write_str(&param.name)?;
            f.write_str("=")?;
            if param.quoted || !is_token(&param.value) {
                f.write_str("\"")?;
                for c in param.value.chars() {
                    if c == '"' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")?;
            } else {
                f.write_str(&param.value)?;
            }
        }
        Ok(())
    }
}

/// The challenges joined by `", "`.
impl fmt::Display for WwwAuthenticate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, challenge) in self.challenges.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{challenge}")?;
        }
        Ok(())
    }
}

fn challenge_error(offset: usize, parameter: Option<&str>, reason: &'static str) -> AuthError {
    AuthError::InvalidChallenge {
        offset,
        parameter: parameter.map(str::to_owned),
        reason,
    }
}

/// `tchar` (RFC 9110 §5.6.2).
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn is_token(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(is_tchar)
}

/// The characters of a `token68` before its trailing `=`s (RFC 9110 §11.2).
fn is_token68_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~+/".contains(&b)
}

struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    /// OWS / BWS: spaces and tabs, and a line break followed by one (the obsolete line
    /// folding a recipient replaces with a space, RFC 9112 §5.2; the specification's own
    /// examples fold long challenges that way).
    fn skip_whitespace(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t') => self.pos += 1,
                Some(b'\r' | b'\n') if self.folds() => {}
                _ => return,
            }
        }
    }

    /// Steps over `CRLF` or `LF` when a space or tab follows it.
    fn folds(&mut self) -> bool {
        let rest = &self.text[self.pos..];
        let newline = match rest {
            [b'\r', b'\n', ..] => 2,
            [b'\n', ..] => 1,
            _ => return false,
        };
        if matches!(rest.get(newline), Some(b' ' | b'\t')) {
            self.pos += newline;
            true
        } else {
            false
        }
    }

    /// Empty list elements are allowed (RFC 9110 §5.6.1): `, ,` between challenges.
    fn skip_separators(&mut self) {
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b',') {
                return;
            }
            self.pos += 1;
        }
    }

    fn token(&mut self) -> &str {
        let start = self.pos;
        while self.peek().is_some_and(is_tchar) {
            self.pos += 1;
        }
        // tchar is ASCII, so the slice is UTF-8.
        core::str::from_utf8(&self.text[start..self.pos]).unwrap_or_default()
    }

    fn header(&mut self) -> Result<WwwAuthenticate, AuthError> {
        let mut challenges = Vec::new();
        self.skip_separators();
        while self.pos < self.text.len() {
            challenges.push(self.challenge()?);
            self.skip_separators();
        }
        if challenges.is_empty() {
            return Err(challenge_error(self.pos, None, "no challenge"));
        }
        Ok(WwwAuthenticate { challenges })
    }

    fn challenge(&mut self) -> Result<Challenge, AuthError> {
        let scheme_start = self.pos;
        let scheme = self.token().to_owned();
        if scheme.is_empty() {
            return Err(challenge_error(
                scheme_start,
                None,
                "expected an auth-scheme (a token)",
            ));
        }
        let mut challenge = Challenge::new(scheme);
        let before_space = self.pos;
        self.skip_whitespace();
        if self.pos == before_space {
            return match self.peek() {
                None | Some(b',') => Ok(challenge),
                Some(_) => Err(challenge_error(
                    self.pos,
                    None,
                    "expected a space or `,` after the auth-scheme",
                )),
            };
        }
        if matches!(self.peek(), None | Some(b',')) {
            return Ok(challenge);
        }
        if let Some(token68) = self.token68() {
            challenge.token68 = Some(token68);
            return Ok(challenge);
        }
        loop {
            let param = self.param(&challenge)?;
            challenge.params.push(param);
            self.skip_whitespace();
            match self.peek() {
                None => return Ok(challenge),
                Some(b',') => {}
                Some(_) => {
                    let name = challenge.params.last().map(|p| p.name.as_str());
                    return Err(challenge_error(
                        self.pos,
                        name,
                        "expected `,` after the parameter",
                    ));
                }
            }
            // After a comma: another parameter of this challenge (`name =`), or the next
            // challenge (`scheme` then a space, a comma or the end), or nothing more.
            let comma = self.pos;
            self.skip_separators();
            if self.pos == self.text.len() {
                return Ok(challenge);
            }
            let item = self.pos;
            let is_param = !self.token().is_empty() && {
                self.skip_whitespace();
                self.peek() == Some(b'=')
            };
            self.pos = if is_param { item } else { comma };
            if !is_param {
                return Ok(challenge);
            }
        }
    }

    /// A token68 that makes up the rest of the challenge (followed by the end or a comma);
    /// otherwise `None` with the position unchanged, for parameters.
    fn token68(&mut self) -> Option<String> {
        let start = self.pos;
        while self.peek().is_some_and(is_token68_char) {
            self.pos += 1;
        }
        let chars_end = self.pos;
        while self.peek() == Some(b'=') {
            self.pos += 1;
        }
        let end = self.pos;
        self.skip_whitespace();
        if chars_end > start && matches!(self.peek(), None | Some(b',')) {
            // token68 characters are ASCII.
            return core::str::from_utf8(&self.text[start..end])
                .ok()
                .map(str::to_owned);
        }
        self.pos = start;
        None
    }

    fn param(&mut self, challenge: &Challenge) -> Result<AuthParam, AuthError> {
        let name_start = self.pos;
        let name = self.token().to_owned();
        if name.is_empty() {
            return Err(challenge_error(
                name_start,
                None,
                "expected a parameter name (a token)",
            ));
        }
        if challenge.param(&name).is_some() {
            return Err(challenge_error(
                name_start,
                Some(&name),
                "the parameter occurs twice in one challenge",
            ));
        }
        self.skip_whitespace();
        if self.peek() != Some(b'=') {
            return Err(challenge_error(
                self.pos,
                Some(&name),
                "expected `=` after the parameter name",
            ));
        }
        self.pos += 1;
        self.skip_whitespace();
        if self.peek() == Some(b'"') {
            let value = self.quoted_string(&name)?;
            return Ok(AuthParam {
                name,
                value,
                quoted: true,
            });
        }
        let value_start = self.pos;
        let value = self.token().to_owned();
        if value.is_empty() {
            return Err(challenge_error(
                value_start,
                Some(&name),
                "expected a token or a quoted-string as the value",
            ));
        }
        Ok(AuthParam {
            name,
            value,
            quoted: false,
        })
    }

    /// A quoted-string (RFC 9110 §5.6.4), unescaped; the position is on the opening quote.
    fn quoted_string(&mut self, name: &str) -> Result<String, AuthError> {
        let open = self.pos;
        self.pos += 1;
        let mut value = Vec::new();
        loop {
            match self.peek() {
                None => {
                    return Err(challenge_error(
                        open,
                        Some(name),
                        "unterminated quoted-string",
                    ))
                }
                Some(b'"') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    let escaped = self.text.get(self.pos + 1).copied();
                    match escaped {
                        Some(b) if b == b'\t' || b >= b' ' && b != 0x7f => {
                            value.push(b);
                            self.pos += 2;
                        }
                        _ => {
                            return Err(challenge_error(
                                self.pos,
                                Some(name),
                                "`\\` must be followed by a visible character, space or tab",
                            ))
                        }
                    }
                }
                Some(b) if b == b'\t' || b >= b' ' && b != 0x7f => {
                    value.push(b);
                    self.pos += 1;
                }
                Some(_) => {
                    return Err(challenge_error(
                        self.pos,
                        Some(name),
                        "control character in a quoted-string",
                    ))
                }
            }
        }
        // The input is a &str and only whole ASCII bytes were dropped, so this is UTF-8.
        String::from_utf8(value)
            .map_err(|_| challenge_error(open, Some(name), "the quoted-string is not UTF-8"))
    }
}
