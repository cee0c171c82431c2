//! The HTTP headers of the Streamable HTTP transport (`http_headers`): the value encoding, a
//! tool's `x-mcp-header` annotations, and the checks a server makes of received headers
//! against the body.
//!
//! Input: NUL-separated parts: a tool's `inputSchema` (JSON), the call's `arguments` (JSON), a
//! method name, the request's `params` (JSON), then received headers, one a part, as
//! `name:value` (a part without `:` is a name with an empty value). Parts that are not JSON
//! where JSON is expected are left out of what needs them. Every part is also a header value
//! to encode and decode (lossily decoded from UTF-8).
//!
//! Properties:
//! - `decode_value(encode_value(s)) == s` for any text; what `encode_value` gives is a valid
//!   header value (visible ASCII and inner spaces) that is left as it is when it is plain;
//! - a value `decode_value` accepts re-encodes to text that decodes to the same; a plain value
//!   decodes to itself; a refusal is a typed `ValueError`;
//! - `ToolHeaders::from_input_schema` never panics on any JSON; what it accepts has token
//!   names, distinct case-insensitively, and non-empty property paths;
//! - the headers `ToolHeaders::headers` makes for `arguments` pass `ToolHeaders::check` for
//!   the same arguments, also with received values of the same names after them (`lookup`:
//!   the first wins), with the names in another case, and with spaces and tabs around the
//!   values;
//! - `request_headers` pass `check` for the same body (when its method and protocol version
//!   have no surrounding whitespace, which the check trims from received values);
//! - `check` and `ToolHeaders::check` on arbitrary headers never panic, and a mismatch names
//!   one of the headers checked and is the `-32020` JSON-RPC error;
//! - `mcp_name` is the body member `NameSource::for_method` names.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::http_headers::{
    check, decode_value, encode_value, lookup, mcp_name, request_headers, HeaderMismatch,
    NameSource, ToolHeaders, ValueError, MCP_METHOD, MCP_NAME, MCP_PARAM_PREFIX,
    MCP_PROTOCOL_VERSION,
};
use mcp_spec_types::ErrorCode;
use serde_json::Value;
use std::borrow::Cow;

const PROTOCOL_VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

fn has_ows(text: &str) -> bool {
    text.starts_with([' ', '\t']) || text.ends_with([' ', '\t'])
}

fn check_value_error(error: &ValueError, value: &str) {
    if let ValueError::InvalidCharacter { offset, character } = error {
        assert_eq!(
            value[*offset..].chars().next(),
            Some(*character),
            "offset {offset} of {value:?}"
        );
    }
    let _ = error.to_string();
}

fn encoding(text: &str) {
    let encoded = encode_value(text);
    assert!(
        encoded.bytes().all(|b| (0x20..=0x7e).contains(&b))
            && !encoded.starts_with(' ')
            && !encoded.ends_with(' '),
        "encode_value({text:?}) is not a plain header value: {encoded:?}"
    );
    if let Cow::Borrowed(plain) = &encoded {
        assert_eq!(*plain, text);
    }
    match decode_value(&encoded) {
        Ok(decoded) => assert_eq!(decoded, text, "decode(encode(s)) != s"),
        Err(error) => panic!("decode_value refuses encode_value({text:?}) = {encoded:?}: {error}"),
    }
    match decode_value(text) {
        Ok(decoded) => {
            if let Cow::Borrowed(same) = &decoded {
                assert_eq!(*same, text);
            }
            let again = encode_value(&decoded);
            assert_eq!(
                decode_value(&again).as_deref(),
                Ok(&*decoded),
                "a decoded value does not survive encoding: {text:?}"
            );
            if !text.starts_with("=?base64?") {
                assert_eq!(decoded, text, "a plain value decodes to another text");
            }
        }
        Err(error) => check_value_error(&error, text),
    }
}

fn check_mismatch(error: &HeaderMismatch, headers: &[String]) {
    assert!(
        headers.iter().any(|h| h == error.header()),
        "the mismatch names {:?}, not one of {headers:?}",
        error.header()
    );
    let _ = error.mismatch();
    let rpc = error.to_rpc_error();
    assert_eq!(rpc.code, ErrorCode::HeaderMismatch);
    assert_eq!(rpc.message, error.to_string());
}

/// `sent`, then the received headers of the names `sent` has: `lookup` must find the first.
/// (A received header whose name `sent` lacks would be one the body has no value for.)
fn followed_by(sent: &[(String, String)], received: &[(String, String)]) -> Vec<(String, String)> {
    let mut followed = sent.to_vec();
    followed.extend(
        received
            .iter()
            .filter(|(name, _)| sent.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)))
            .cloned(),
    );
    followed
}

fn json(part: Option<&&[u8]>) -> Option<Value> {
    serde_json::from_slice(part?).ok()
}

fn tool_headers(schema: &Value, arguments: Option<&Value>, received: &[(String, String)]) {
    let tool = match ToolHeaders::from_input_schema(schema) {
        Ok(tool) => tool,
        Err(error) => {
            assert!(
                error.pointer.is_empty() || error.pointer.starts_with('/'),
                "pointer {:?}",
                error.pointer
            );
            let _ = error.to_string();
            return;
        }
    };
    assert_eq!(tool.is_empty(), tool.params().is_empty());
    let names: Vec<String> = tool.params().iter().map(|p| p.header_name()).collect();
    for (i, param) in tool.params().iter().enumerate() {
        assert!(
            !param.name.is_empty() && param.name.chars().all(is_tchar),
            "annotation {:?} is not a token",
            param.name
        );
        assert!(!param.path.is_empty());
        assert_eq!(
            param.header_name(),
            format!("{MCP_PARAM_PREFIX}{}", param.name)
        );
        assert!(
            !tool.params()[..i]
                .iter()
                .any(|p| p.name.eq_ignore_ascii_case(&param.name)),
            "annotation {:?} twice",
            param.name
        );
        if let Some(value) = param.value(arguments) {
            assert!(!value.is_null());
        }
    }
    // Arbitrary received headers.
    if let Err(error) = tool.check(arguments, lookup(received)) {
        check_mismatch(&error, &names);
    }
    match tool.headers(arguments) {
        Ok(sent) => {
            assert!(sent.len() <= tool.params().len());
            for (name, value) in &sent {
                assert!(names.contains(name), "{name} is not an annotated header");
                assert!(
                    decode_value(value).is_ok(),
                    "{name}: {value:?} does not decode"
                );
            }
            assert_eq!(
                tool.check(arguments, lookup(&sent)),
                Ok(()),
                "the headers made for the arguments fail their check: {sent:?}"
            );
            let followed = followed_by(&sent, received);
            assert_eq!(tool.check(arguments, lookup(&followed)), Ok(()));
            let recased: Vec<(String, String)> = sent
                .iter()
                .map(|(n, v)| (n.to_ascii_uppercase(), format!(" \t{v} ")))
                .collect();
            assert_eq!(tool.check(arguments, lookup(&recased)), Ok(()));
        }
        Err(error) => {
            assert!(names.contains(&error.header));
            let _ = error.to_string();
        }
    }
}

fn standard_headers(
    method: &str,
    params: Option<&Value>,
    version: &str,
    received: &[(String, String)],
) {
    let name = mcp_name(method, params);
    match NameSource::for_method(method) {
        Some(source) => assert_eq!(
            name,
            params
                .and_then(|p| p.get(source.member()))
                .and_then(Value::as_str)
        ),
        None => assert_eq!(name, None),
    }
    let checked = [MCP_PROTOCOL_VERSION, MCP_METHOD, MCP_NAME].map(String::from);
    if let Err(error) = check(method, params, lookup(received)) {
        check_mismatch(&error, &checked);
    }
    let body_version = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(PROTOCOL_VERSION_META_KEY))
        .and_then(Value::as_str);
    let sent = request_headers(body_version.unwrap_or(version), method, params);
    let sent_name = lookup(&sent)(MCP_NAME);
    assert_eq!(sent_name.is_some(), name.is_some());
    if let (Some(sent_name), Some(name)) = (sent_name, name) {
        assert_eq!(decode_value(sent_name).as_deref(), Ok(name));
    }
    let result = check(method, params, lookup(&sent));
    if !has_ows(method) && !body_version.is_some_and(has_ows) {
        assert_eq!(
            result,
            Ok(()),
            "request_headers fail check for the same body: {sent:?}"
        );
        let followed = followed_by(&sent, received);
        assert_eq!(check(method, params, lookup(&followed)), Ok(()));
    } else if let Err(error) = result {
        check_mismatch(&error, &checked);
    }
}

fuzz_target!(|data: &[u8]| {
    let parts: Vec<&[u8]> = data.split(|&b| b == 0).collect();
    for part in &parts {
        encoding(&String::from_utf8_lossy(part));
    }
    let received: Vec<(String, String)> = parts
        .iter()
        .skip(4)
        .map(|part| {
            let text = String::from_utf8_lossy(part);
            match text.split_once(':') {
                Some((name, value)) => (name.to_string(), value.to_string()),
                None => (text.into_owned(), String::new()),
            }
        })
        .collect();
    let arguments = json(parts.get(1));
    if let Some(schema) = json(parts.first()) {
        tool_headers(&schema, arguments.as_ref(), &received);
    }
    let method = parts
        .get(2)
        .map(|m| String::from_utf8_lossy(m))
        .unwrap_or_default();
    let params = json(parts.get(3));
    standard_headers(&method, params.as_ref(), "2026-07-28", &received);
    standard_headers(&method, None, &method, &received);
});
