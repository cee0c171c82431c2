//! Strict base64: `decode(encode(bytes)) == bytes`; `decode` of any text never panics and,
//! when it succeeds, re-encodes to exactly that text (only the canonical encoding is
//! accepted); `check` agrees with `decode`; the resource-contents helpers agree with both.
//!
//! Input: the first byte selects what the rest is: even, raw bytes to encode; odd, text to
//! decode (lossily decoded from UTF-8, so every input is tried as text).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_spec_types::blob::{check, decode, encode};
use mcp_spec_types::v2025_06_18::BlobResourceContents;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    if selector & 1 == 0 {
        let text = encode(rest);
        assert_eq!(text.len(), rest.len().div_ceil(3) * 4);
        assert_eq!(
            check(&text),
            Ok(()),
            "encode produced text check rejects: {text:?}"
        );
        assert_eq!(decode(&text).as_deref(), Ok(rest), "decode(encode(x)) != x");
        let contents =
            BlobResourceContents::from_bytes("file:///x", rest, "application/octet-stream");
        assert_eq!(contents.blob, text);
        assert_eq!(contents.bytes().as_deref(), Ok(rest));
    }
    let text = String::from_utf8_lossy(rest);
    let decoded = decode(&text);
    assert_eq!(
        check(&text),
        decoded.as_ref().map(drop).map_err(|e| *e),
        "check and decode disagree on {text:?}"
    );
    match &decoded {
        Ok(bytes) => assert_eq!(encode(bytes), *text, "decode accepted a non-canonical text"),
        Err(error) => {
            assert!(error.offset() <= text.len());
            let _ = error.to_string();
        }
    }
    let from_base64 = BlobResourceContents::from_base64("file:///x", text.to_string());
    assert_eq!(from_base64.is_ok(), decoded.is_ok());
    if let Ok(contents) = from_base64 {
        assert_eq!(contents.bytes(), decoded);
    }
});
