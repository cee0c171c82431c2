//! Template text to its parts.

use super::encoding::{is_pct_triplet, is_reserved, is_unreserved, push_pct};
use super::error::{UriTemplateError, UriTemplateErrorKind};
use super::syntax_tree::{Expression, Literal, Modifier, Operator, Part, VarSpec};
use crate::prelude::*;

pub(super) fn char_at(src: &str, offset: usize) -> char {
    src.get(offset..)
        .and_then(|rest| rest.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

pub(super) fn literal(raw: &str) -> Literal {
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

pub(super) fn parse_parts(src: &str) -> Result<Vec<Part>, UriTemplateError> {
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
pub(super) fn find_close(bytes: &[u8], open: usize) -> Result<usize, UriTemplateError> {
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

pub(super) fn parse_expression(
    src: &str,
    open: usize,
    close: usize,
) -> Result<Expression, UriTemplateError> {
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
