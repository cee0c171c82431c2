//! The resource surface: base64, content and resource-contents constructors, resource messages
//! and annotations, for every revision that defines each item. Expected JSON is written from the
//! specification's resources pages (`server/resources`) and schema examples of each revision.

use mcp_spec_types::blob::{self, Base64Error};
use mcp_spec_types::dispatch::{ErrorResponse, RequestEnvelope};
use mcp_spec_types::{AnnotationError, Cursor, ErrorCode, ProtocolVersion};
use serde::Serialize;
use serde_json::{json, Value};

fn to_json<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("the crate's types always serialize")
}

/// Deterministic pseudo-random bytes (xorshift64*), so failures reproduce.
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

/// An independent base64 encoder (RFC 4648 section 4, padded), to check the crate's output.
fn reference_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// base64

#[test]
fn base64_round_trips_every_length_below_300() {
    for seed in 1..=4 {
        for len in 0..300 {
            let bytes = noise(seed * 1000 + len as u64, len);
            let encoded = blob::encode(&bytes);
            assert_eq!(encoded, reference_encode(&bytes), "length {len}");
            assert_eq!(encoded.len(), len.div_ceil(3) * 4);
            assert_eq!(blob::check(&encoded), Ok(()), "length {len}");
            assert_eq!(blob::decode(&encoded), Ok(bytes), "length {len}");
        }
    }
}

#[test]
fn base64_known_vectors_of_rfc_4648() {
    let vectors = [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ];
    for (plain, encoded) in vectors {
        assert_eq!(blob::encode(plain.as_bytes()), encoded);
        assert_eq!(blob::decode(encoded).as_deref(), Ok(plain.as_bytes()));
    }
    assert_eq!(blob::encode(&[0xfb, 0xff]), "+/8=");
}

#[test]
fn base64_rejects_what_is_not_strict_padded_standard_base64() {
    use Base64Error::*;
    let cases: &[(&str, Base64Error)] = &[
        // Missing padding.
        ("Zg", InvalidLength { length: 2 }),
        ("Zm8", InvalidLength { length: 3 }),
        ("Zm9vYg", InvalidLength { length: 6 }),
        ("Z", InvalidLength { length: 1 }),
        // Truncated or too long.
        ("Zm9vY", InvalidLength { length: 5 }),
        ("Zg===", MisplacedPadding { offset: 2 }),
        ("Zg==Zg==", MisplacedPadding { offset: 2 }),
        ("=", InvalidLength { length: 1 }),
        ("====", MisplacedPadding { offset: 0 }),
        ("Z===", MisplacedPadding { offset: 1 }),
        ("Zm=v", MisplacedPadding { offset: 2 }),
        // Whitespace, anywhere.
        (
            " Zm9v",
            InvalidCharacter {
                offset: 0,
                character: ' ',
            },
        ),
        (
            "Zm9v ",
            InvalidCharacter {
                offset: 4,
                character: ' ',
            },
        ),
        (
            "Zm9v\nYmFy",
            InvalidCharacter {
                offset: 4,
                character: '\n',
            },
        ),
        (
            "Zm9v\r\n",
            InvalidCharacter {
                offset: 4,
                character: '\r',
            },
        ),
        (
            "Zg==\n",
            InvalidCharacter {
                offset: 4,
                character: '\n',
            },
        ),
        (
            "Zg= =",
            InvalidCharacter {
                offset: 3,
                character: ' ',
            },
        ),
        (
            "Zm\t9v",
            InvalidCharacter {
                offset: 2,
                character: '\t',
            },
        ),
        // Not the standard alphabet.
        (
            "-_8=",
            InvalidCharacter {
                offset: 0,
                character: '-',
            },
        ),
        (
            "+_8=",
            InvalidCharacter {
                offset: 1,
                character: '_',
            },
        ),
        (
            "Zm9v!",
            InvalidCharacter {
                offset: 4,
                character: '!',
            },
        ),
        (
            "Zm9é",
            InvalidCharacter {
                offset: 3,
                character: 'é',
            },
        ),
        (
            "Zm\u{0}v",
            InvalidCharacter {
                offset: 2,
                character: '\u{0}',
            },
        ),
        // The specification's placeholder.
        (
            "base64-encoded-data",
            InvalidCharacter {
                offset: 6,
                character: '-',
            },
        ),
        // Not canonical: bits after the data that decoding would drop.
        (
            "Zh==",
            NonZeroTrailingBits {
                offset: 1,
                character: 'h',
            },
        ),
        (
            "Zm9=",
            NonZeroTrailingBits {
                offset: 2,
                character: '9',
            },
        ),
        (
            "QR==",
            NonZeroTrailingBits {
                offset: 1,
                character: 'R',
            },
        ),
    ];
    for (text, error) in cases {
        assert_eq!(blob::check(text), Err(*error), "check({text:?})");
        assert_eq!(blob::decode(text), Err(*error), "decode({text:?})");
        assert!(!error.to_string().is_empty());
        assert!(error.offset() <= text.len());
    }
    assert!(Base64Error::InvalidCharacter {
        offset: 0,
        character: ' '
    }
    .to_string()
    .contains("whitespace"));
    assert!(Base64Error::InvalidCharacter {
        offset: 0,
        character: '-'
    }
    .to_string()
    .contains("URL-safe"));
}

#[test]
fn base64_every_corruption_of_a_valid_text_is_rejected_or_decodes_exactly() {
    for len in 0..64 {
        let bytes = noise(77 + len as u64, len);
        let encoded = blob::encode(&bytes);
        for offset in 0..=encoded.len() {
            for inserted in [' ', '\n', '-', '_', '=', '.', 'é'] {
                let mut text = encoded.clone();
                text.insert(offset, inserted);
                let decoded = blob::decode(&text);
                // Never silently wrong: whatever decodes must encode back to the same text.
                if let Ok(decoded) = &decoded {
                    assert_eq!(blob::encode(decoded), text);
                }
                if inserted != '=' {
                    assert!(decoded.is_err(), "{text:?} should be rejected");
                }
            }
        }
        // Padding removed.
        let trimmed = encoded.trim_end_matches('=');
        if trimmed.len() != encoded.len() {
            assert_eq!(
                blob::decode(trimmed),
                Err(Base64Error::InvalidLength {
                    length: trimmed.len()
                })
            );
        }
    }
}

#[test]
fn base64_decoding_is_exact_on_every_short_text() {
    // Every text of up to 5 characters over an alphabet mixing data, padding and junk: decoding
    // succeeds exactly when the text is the encoding of the bytes it decodes to.
    let symbols = ['A', 'Q', 'g', 'w', '/', '+', '=', ' ', '-'];
    let mut texts = vec![String::new()];
    let mut accepted = 0;
    for _ in 0..5 {
        let mut next = Vec::new();
        for text in &texts {
            for symbol in symbols {
                let mut longer = text.clone();
                longer.push(symbol);
                next.push(longer);
            }
        }
        for text in &next {
            match blob::decode(text) {
                Ok(bytes) => {
                    accepted += 1;
                    assert_eq!(&blob::encode(&bytes), text);
                    assert_eq!(blob::check(text), Ok(()));
                }
                Err(error) => {
                    assert_eq!(blob::check(text), Err(error));
                    assert!(error.offset() <= text.len());
                }
            }
        }
        texts = next;
    }
    assert!(accepted > 0);
}

#[test]
fn base64_never_panics_on_arbitrary_text() {
    for seed in 0..20_000u64 {
        let raw = noise(seed, (seed % 40) as usize);
        let text = String::from_utf8_lossy(&raw);
        match blob::decode(&text) {
            Ok(bytes) => assert_eq!(blob::encode(&bytes), text),
            Err(error) => assert!(error.offset() <= text.len()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Annotations, revision-independent parts

#[test]
fn last_modified_accepts_iso_8601_date_times() {
    use mcp_spec_types::annotations::check_last_modified;
    for ok in [
        "2025-01-12T15:00:58Z",
        "2025-01-12T15:00:58.123Z",
        "2025-01-12T15:00:58,5Z",
        "2025-01-12T15:00Z",
        "2025-01-12T15:00:58+01:00",
        "2025-01-12T15:00:58-0530",
        "2025-01-12T15:00:58+01",
        "2025-01-12T15:00:58",
        "2025-01-12t15:00:58z",
        "2024-02-29T00:00:00Z",
        "2000-02-29T00:00:00Z",
        "2016-12-31T23:59:60Z",
        "2025-01-12T24:00:00Z",
        "2025-01-12T24:00Z",
    ] {
        assert_eq!(check_last_modified(ok), Ok(()), "{ok:?}");
    }
    for (bad, offset) in [
        ("", 0),
        ("yesterday", 0),
        ("2025-01-12", 10),
        ("2025-01-12 15:00:58Z", 10),
        ("20250112T150058Z", 4),
        ("2025-13-12T15:00:58Z", 5),
        ("2025-00-12T15:00:58Z", 5),
        ("2025-02-29T15:00:58Z", 8),
        ("1900-02-29T15:00:58Z", 8),
        ("2025-04-31T15:00:58Z", 8),
        ("2025-01-12T25:00:58Z", 11),
        ("2025-01-12T15:60:58Z", 14),
        ("2025-01-12T15:00:61Z", 17),
        ("2025-01-12T24:00:01Z", 11),
        ("2025-01-12T15:00:58.Z", 20),
        ("2025-01-12T15:00:58+24:00", 20),
        ("2025-01-12T15:00:58+01:60", 23),
        ("2025-01-12T15:00:58Z ", 20),
        ("2025-01-12T15:00:58ZZ", 20),
        ("2025-01-12T15", 13),
        ("2025-1-12T15:00:58Z", 6),
        ("2025-01-12T15:00:58 +01:00", 19),
    ] {
        match check_last_modified(bad) {
            Err(AnnotationError::InvalidLastModified {
                value,
                offset: at,
                expected,
            }) => {
                assert_eq!(value, bad);
                assert_eq!(at, offset, "{bad:?}: expected {expected}");
                assert!(!expected.is_empty());
            }
            other => panic!("{bad:?} should be rejected, got {other:?}"),
        }
    }
}

#[test]
fn priority_is_checked_from_zero_to_one() {
    use mcp_spec_types::annotations::{check_priority, check_priority_number};
    for ok in [0.0, 0.25, 0.8, 1.0, -0.0] {
        assert!(check_priority(ok).is_ok(), "{ok}");
    }
    for bad in [
        -0.01,
        1.000_001,
        2.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        assert!(
            matches!(
                check_priority(bad),
                Err(AnnotationError::PriorityOutOfRange { .. })
            ),
            "{bad}"
        );
    }
    assert_eq!(check_priority(0.8).map(|n| n.to_string()), Ok("0.8".into()));
    assert_eq!(check_priority_number(&1.into()), Ok(()));
    assert_eq!(
        check_priority_number(&(-1).into()),
        Err(AnnotationError::PriorityOutOfRange { priority: -1.0 })
    );
    let message = AnnotationError::PriorityOutOfRange { priority: 2.0 }.to_string();
    assert!(
        message.contains("priority") && message.contains('2'),
        "{message}"
    );
}

// ---------------------------------------------------------------------------------------------
// Errors

#[test]
fn resource_not_found_is_exactly_the_specification_error() {
    let error = ErrorResponse::resource_not_found(5, "file:///nonexistent.txt");
    assert_eq!(
        serde_json::to_string(&error).unwrap(),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"file:///nonexistent.txt"}}}"#
    );
    assert_eq!(error.code(), ErrorCode::ResourceNotFound);
    // The resources page of 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25.
    assert_eq!(
        to_json(&error),
        json!({
          "jsonrpc": "2.0",
          "id": 5,
          "error": {
            "code": -32002,
            "message": "Resource not found",
            "data": {
              "uri": "file:///nonexistent.txt"
            }
          }
        })
    );
}

/// Each revision's resources page shows "resource not found" as an example (vendored in
/// `tests/fixtures/spec/<revision>/docs/`, found here by its message): the error built for that
/// revision is exactly the page's, -32002 through 2025-11-25 and -32602 from 2026-07-28.
#[test]
fn resource_not_found_is_exactly_each_revision_page_example() {
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spec");
    let mut revisions = 0;
    for version in ProtocolVersion::KNOWN {
        let docs = spec.join(version.as_str()).join("docs");
        let examples: Vec<Value> = std::fs::read_dir(&docs)
            .unwrap_or_else(|e| panic!("{}: {e}", docs.display()))
            .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
            .filter_map(|text| serde_json::from_str::<Value>(&text).ok())
            .filter(|example| example["error"]["message"] == "Resource not found")
            .collect();
        let [page] = examples.as_slice() else {
            panic!(
                "{version}: {} examples of resource not found",
                examples.len()
            );
        };
        let id: mcp_spec_types::RequestId = serde_json::from_value(page["id"].clone()).unwrap();
        let uri = page["error"]["data"]["uri"].as_str().unwrap();
        let built = ErrorResponse::resource_not_found_for(version, id, uri);
        assert_eq!(to_json(&built), *page, "{version}");
        revisions += 1;
    }
    assert_eq!(revisions, ProtocolVersion::KNOWN.len());
}

// ---------------------------------------------------------------------------------------------
// Per revision: written once, instantiated in each revision module below.

/// Resource contents, binary content, templates and read results' contents (every revision).
#[allow(unused_macros)] // Which revisions use which macro depends on the enabled features.
macro_rules! contents_tests {
    () => {
        mod contents {
            use super::*;

            #[test]
            fn blob_contents_round_trip_bytes() {
                for len in 0..300 {
                    let bytes = noise(len as u64, len);
                    let contents =
                        BlobResourceContents::from_bytes("file:///x.bin", &bytes, "application/octet-stream");
                    assert_eq!(contents.bytes(), Ok(bytes.clone()));
                    let expected = json!({
                        "uri": "file:///x.bin",
                        "mimeType": "application/octet-stream",
                        "blob": reference_encode(&bytes),
                    });
                    assert_eq!(to_json(&contents), expected);
                    let back: BlobResourceContents = serde_json::from_value(expected).unwrap();
                    assert_eq!(back, contents);
                    let checked = BlobResourceContents::from_base64("file:///x.bin", &contents.blob)
                        .map(|c| c.with_mime_type("application/octet-stream"));
                    assert_eq!(checked, Ok(contents));
                }
            }

            #[test]
            fn text_contents_as_the_page_shows_them() {
                let contents =
                    TextResourceContents::new("file:///example.txt", "Resource content").with_mime_type("text/plain");
                assert_eq!(
                    to_json(&contents),
                    json!({
                      "uri": "file:///example.txt",
                      "mimeType": "text/plain",
                      "text": "Resource content"
                    })
                );
            }

            #[test]
            fn the_pages_blob_placeholder_is_kept_but_is_not_base64() {
                let page = json!({
                  "uri": "file:///example.png",
                  "mimeType": "image/png",
                  "blob": "base64-encoded-data"
                });
                let contents: BlobResourceContents = serde_json::from_value(page.clone()).unwrap();
                assert_eq!(to_json(&contents), page);
                let placeholder = Err(Base64Error::InvalidCharacter { offset: 6, character: '-' });
                assert_eq!(contents.bytes(), placeholder);
                assert_eq!(
                    BlobResourceContents::from_base64("file:///example.png", "base64-encoded-data"),
                    Err(Base64Error::InvalidCharacter { offset: 6, character: '-' })
                );
                // Built unchecked, through the generated constructor, it is the page's JSON.
                let built = BlobResourceContents::new("file:///example.png", "base64-encoded-data")
                    .with_mime_type("image/png");
                assert_eq!(to_json(&built), page);
            }

            #[test]
            fn blob_from_base64_is_checked() {
                assert_eq!(
                    BlobResourceContents::from_base64("file:///a", "iVBORw0KGgo=").map(|c| c.blob),
                    Ok("iVBORw0KGgo=".to_owned())
                );
                for bad in ["iVBORw0KGgo", "iVBORw0K Ggo=", "iVBORw0KGgo=\n", "iVB-Rw0KGgo="] {
                    assert!(BlobResourceContents::from_base64("file:///a", bad).is_err(), "{bad:?}");
                }
            }

            #[test]
            fn image_content_from_bytes() {
                let png = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
                let image = ImageContent::from_bytes(png, "image/png");
                assert_eq!(
                    to_json(&image),
                    json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"})
                );
                assert_eq!(image.bytes(), Ok(png.to_vec()));
                assert_eq!(ImageContent::from_base64("iVBORw0KGgo=", "image/png"), Ok(image));
                assert_eq!(
                    ImageContent::from_base64("iVBORw0KGgo", "image/png"),
                    Err(Base64Error::InvalidLength { length: 11 })
                );
                // A peer's placeholder parses; reading it as bytes is the error.
                let sent: ImageContent = serde_json::from_value(
                    json!({"type": "image", "data": "base64-encoded-image-data", "mimeType": "image/png"}),
                )
                .unwrap();
                assert!(sent.bytes().is_err());
            }

            #[test]
            fn contents_unions_tell_text_from_blob() {
                let text = ReadResourceResultContentsItem::from(
                    TextResourceContents::new("file:///a.txt", "héllo").with_mime_type("text/plain"),
                );
                let blob = ReadResourceResultContentsItem::from(BlobResourceContents::from_bytes(
                    "file:///a.bin",
                    [0u8, 1, 2, 255],
                    "application/octet-stream",
                ));
                assert_eq!(text.uri(), "file:///a.txt");
                assert_eq!(text.mime_type(), Some("text/plain"));
                assert_eq!(text.as_text(), Some("héllo"));
                assert_eq!(text.to_bytes(), Ok("héllo".as_bytes().to_vec()));
                assert_eq!(blob.uri(), "file:///a.bin");
                assert_eq!(blob.mime_type(), Some("application/octet-stream"));
                assert_eq!(blob.as_text(), None);
                assert_eq!(blob.to_bytes(), Ok(vec![0, 1, 2, 255]));
                let bad = ReadResourceResultContentsItem::from(BlobResourceContents::new("file:///b", "%%%%"));
                assert!(bad.to_bytes().is_err());

                let embedded = EmbeddedResourceContents::from(TextResourceContents::new("file:///e", "e"));
                assert_eq!((embedded.uri(), embedded.mime_type(), embedded.as_text()), ("file:///e", None, Some("e")));
                let embedded = EmbeddedResourceContents::from(BlobResourceContents::from_bytes("file:///f", b"f", "x/y"));
                assert_eq!(embedded.to_bytes(), Ok(b"f".to_vec()));
            }

            #[test]
            fn read_result_shortcuts_carry_their_contents() {
                let text = ReadResourceResult::text("file:///a.txt", "hi");
                assert_eq!(to_json(&text)["contents"], json!([{"uri": "file:///a.txt", "text": "hi"}]));
                let blob = ReadResourceResult::blob("file:///a.bin", b"hi", "application/octet-stream");
                assert_eq!(
                    to_json(&blob)["contents"],
                    json!([{"uri": "file:///a.bin", "mimeType": "application/octet-stream", "blob": "aGk="}])
                );
                let both = ReadResourceResult::from_contents([
                    ReadResourceResultContentsItem::from(TextResourceContents::new("file:///a.txt", "hi")),
                    BlobResourceContents::from_bytes("file:///a.bin", b"hi", "application/octet-stream").into(),
                ]);
                assert_eq!(both.contents.len(), 2);
                assert_eq!(both.contents[0].as_text(), Some("hi"));
                assert_eq!(both.contents[1].to_bytes(), Ok(b"hi".to_vec()));
                let empty = ReadResourceResult::from_contents(Vec::<TextResourceContents>::new());
                assert_eq!(to_json(&empty)["contents"], json!([]));
            }

            #[test]
            fn resource_templates_expand_and_match() {
                use mcp_spec_types::uri_template::Variables;
                let files = ResourceTemplate::new("file:///{+path}", "Project Files");
                let vars = Variables::new().with("path", "src/main.rs");
                assert_eq!(files.expand(&vars).as_deref(), Ok("file:///src/main.rs"));
                let matched = files.match_uri("file:///src/main.rs").unwrap().expect("matches");
                assert_eq!(matched.get_str("path"), Some("src/main.rs"));
                assert_eq!(files.match_uri("http://example.com/").unwrap(), None);

                // The page's template: a simple expression encodes `/` and never matches it.
                let page = ResourceTemplate::new("file:///{path}", "Project Files");
                assert_eq!(page.expand(&vars).as_deref(), Ok("file:///src%2Fmain.rs"));
                assert_eq!(page.match_uri("file:///src/main.rs").unwrap(), None);
                let readme = page.match_uri("file:///README.md").unwrap().expect("matches");
                assert_eq!(readme.get_str("path"), Some("README.md"));

                let broken = ResourceTemplate::new("file:///{path", "Broken");
                assert!(broken.parse_uri_template().is_err());
                assert!(broken.expand(&vars).is_err());
                assert!(broken.match_uri("file:///x").is_err());
            }
        }
    };
}

#[allow(unused_macros)] // Which revisions use which macro depends on the enabled features.
macro_rules! audio_tests {
    () => {
        mod audio {
            use super::*;

            #[test]
            fn audio_content_from_bytes() {
                let wav = b"RIFF\x24\x00\x00\x00WAVE";
                let audio = AudioContent::from_bytes(wav, "audio/wav");
                assert_eq!(
                    to_json(&audio),
                    json!({"type": "audio", "data": reference_encode(wav), "mimeType": "audio/wav"})
                );
                assert_eq!(audio.bytes(), Ok(wav.to_vec()));
                assert_eq!(AudioContent::from_base64(audio.data.clone(), "audio/wav"), Ok(audio));
                assert!(AudioContent::from_base64("UklGRg", "audio/wav").is_err());
            }
        }
    };
}

/// Content-union constructors, one test per kind of content the union has.
#[allow(unused_macros)] // Which revisions use which macro depends on the enabled features.
macro_rules! union_tests {
    ($module:ident, $ty:ident: $($kind:ident),+) => {
        mod $module {
            use super::*;
            $( union_tests!(@$kind $ty); )+
        }
    };
    (@text $ty:ident) => {
        #[test]
        fn text() {
            let block = $ty::text("hi");
            assert_eq!(to_json(&block), json!({"type": "text", "text": "hi"}));
            assert_eq!(block.as_text(), Some("hi"));
            assert_eq!(block, $ty::from(TextContent::new("hi")));
            assert_eq!(serde_json::from_value::<$ty>(to_json(&block)).unwrap(), block);
        }
    };
    (@image $ty:ident) => {
        #[test]
        fn image() {
            let block = $ty::image([1u8, 2, 3], "image/png");
            assert_eq!(to_json(&block), json!({"type": "image", "data": "AQID", "mimeType": "image/png"}));
            assert_eq!(block.as_text(), None);
            assert_eq!(serde_json::from_value::<$ty>(to_json(&block)).unwrap(), block);
        }
    };
    (@audio $ty:ident) => {
        #[test]
        fn audio() {
            let block = $ty::audio([1u8, 2, 3, 4], "audio/wav");
            assert_eq!(to_json(&block), json!({"type": "audio", "data": "AQIDBA==", "mimeType": "audio/wav"}));
            assert_eq!(serde_json::from_value::<$ty>(to_json(&block)).unwrap(), block);
        }
    };
    (@link $ty:ident) => {
        #[test]
        fn resource_link() {
            let block = $ty::resource_link("file:///project/src/main.rs", "main.rs");
            assert_eq!(
                to_json(&block),
                json!({"type": "resource_link", "uri": "file:///project/src/main.rs", "name": "main.rs"})
            );
            assert_eq!(serde_json::from_value::<$ty>(to_json(&block)).unwrap(), block);
        }
    };
    (@embedded $ty:ident) => {
        #[test]
        fn resource_text_and_blob() {
            let text = $ty::resource_text("file:///a.txt", "hello", "text/plain");
            assert_eq!(
                to_json(&text),
                json!({"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "hello"}})
            );
            assert_eq!(serde_json::from_value::<$ty>(to_json(&text)).unwrap(), text);
            let blob = $ty::resource_blob("file:///a.bin", b"hello", "application/octet-stream");
            assert_eq!(
                to_json(&blob),
                json!({"type": "resource", "resource": {"uri": "file:///a.bin", "mimeType": "application/octet-stream", "blob": "aGVsbG8="}})
            );
            assert_eq!(serde_json::from_value::<$ty>(to_json(&blob)).unwrap(), blob);
        }
    };
}

/// Checks that `message` serializes to `expected` and parses back to itself.
#[allow(unused_macros)] // Which revisions use which macro depends on the enabled features.
macro_rules! assert_message {
    ($alias:ident, $message:expr, $expected:expr) => {{
        let message = $message;
        let expected: Value = $expected;
        assert_eq!(to_json(&message), expected);
        let parsed = $alias::parse(&expected.to_string()).expect("the expected JSON parses");
        assert_eq!(to_json(&parsed), expected);
    }};
}

/// Resource messages of the revisions before 2026-07-28 (from the pages of 2024-11-05 to
/// 2025-11-25, which agree).
#[allow(unused_macros)] // Which revisions use which macro depends on the enabled features.
macro_rules! legacy_message_tests {
    () => {
        mod messages {
            use super::*;
            use mcp_spec_types::dispatch::{Message, NotificationEnvelope, ResultResponse};

            fn request(id: i64, call: ClientCall) -> ClientMessage {
                Message::Request(RequestEnvelope::new(id, call))
            }

            fn notification(notification: ServerNotify) -> ServerMessage {
                Message::Notification(NotificationEnvelope::new(notification))
            }

            #[test]
            fn list_resources() {
                assert_message!(
                    ClientMessage,
                    request(1, ClientCall::list_resources(Some(Cursor::from("optional-cursor-value")))),
                    json!({
                      "jsonrpc": "2.0",
                      "id": 1,
                      "method": "resources/list",
                      "params": {
                        "cursor": "optional-cursor-value"
                      }
                    })
                );
                assert_message!(
                    ClientMessage,
                    request(1, ClientCall::list_resources(None)),
                    json!({"jsonrpc": "2.0", "id": 1, "method": "resources/list"})
                );
            }

            #[test]
            fn list_resource_templates() {
                assert_message!(
                    ClientMessage,
                    request(3, ClientCall::list_resource_templates(Some("optional-cursor-value".into()))),
                    json!({
                      "jsonrpc": "2.0",
                      "id": 3,
                      "method": "resources/templates/list",
                      "params": {
                        "cursor": "optional-cursor-value"
                      }
                    })
                );
                // 2025-11-25's page sends it without params.
                assert_message!(
                    ClientMessage,
                    request(3, ClientCall::list_resource_templates(None)),
                    json!({
                      "jsonrpc": "2.0",
                      "id": 3,
                      "method": "resources/templates/list"
                    })
                );
            }

            #[test]
            fn read_resource() {
                assert_message!(
                    ClientMessage,
                    request(2, ClientCall::read_resource("file:///project/src/main.rs")),
                    json!({
                      "jsonrpc": "2.0",
                      "id": 2,
                      "method": "resources/read",
                      "params": {
                        "uri": "file:///project/src/main.rs"
                      }
                    })
                );
            }

            #[test]
            fn read_resource_result() {
                let result = ReadResourceResult::from_contents([TextResourceContents::new(
                    "file:///project/src/main.rs",
                    "fn main() {\n    println!(\"Hello world!\");\n}",
                )
                .with_mime_type("text/x-rust")]);
                assert_message!(
                    ServerMessage,
                    Message::<ServerCall, ServerNotify>::Response(ResultResponse::new(2, &result).unwrap()),
                    json!({
                      "jsonrpc": "2.0",
                      "id": 2,
                      "result": {
                        "contents": [
                          {
                            "uri": "file:///project/src/main.rs",
                            "mimeType": "text/x-rust",
                            "text": "fn main() {\n    println!(\"Hello world!\");\n}"
                          }
                        ]
                      }
                    })
                );
                let response = ResultResponse::new(2, &result).unwrap();
                assert_eq!(response.result_for::<ReadResourceRequest>().unwrap(), result);
                assert_eq!(
                    to_json(&ReadResourceResult::blob("file:///a.png", [0xffu8], "image/png")),
                    json!({"contents": [{"uri": "file:///a.png", "mimeType": "image/png", "blob": "/w=="}]})
                );
                assert_eq!(
                    to_json(&ReadResourceResult::text("file:///a.txt", "a")),
                    json!({"contents": [{"uri": "file:///a.txt", "text": "a"}]})
                );
            }

            #[test]
            fn subscribe_and_unsubscribe() {
                assert_message!(
                    ClientMessage,
                    request(4, ClientCall::subscribe("file:///project/src/main.rs")),
                    json!({
                      "jsonrpc": "2.0",
                      "id": 4,
                      "method": "resources/subscribe",
                      "params": {
                        "uri": "file:///project/src/main.rs"
                      }
                    })
                );
                assert_message!(
                    ClientMessage,
                    request(6, ClientCall::unsubscribe("file:///project/src/main.rs")),
                    json!({
                      "jsonrpc": "2.0",
                      "id": 6,
                      "method": "resources/unsubscribe",
                      "params": {
                        "uri": "file:///project/src/main.rs"
                      }
                    })
                );
            }

            #[test]
            fn notifications() {
                assert_message!(
                    ServerMessage,
                    notification(ServerNotify::resource_list_changed()),
                    json!({
                      "jsonrpc": "2.0",
                      "method": "notifications/resources/list_changed"
                    })
                );
                assert_message!(
                    ServerMessage,
                    notification(ServerNotify::resource_updated("file:///project/src/main.rs")),
                    json!({
                      "jsonrpc": "2.0",
                      "method": "notifications/resources/updated",
                      "params": {
                        "uri": "file:///project/src/main.rs"
                      }
                    })
                );
            }
        }
    };
}

/// Resource messages of 2026-07-28 and the draft: `_meta` on every request, caching members on
/// every result, `subscriptions/listen` instead of `resources/subscribe`.
#[allow(unused_macros)] // Which revisions use which macro depends on the enabled features.
macro_rules! stateless_message_tests {
    ($revision:literal) => {
        mod messages {
            use super::*;
            use mcp_spec_types::dispatch::{Message, NotificationEnvelope, ResultResponse};
            use mcp_spec_types::MessageErrorKind;

            /// The request `_meta` of the schema's examples.
            fn meta() -> RequestMetaObject {
                RequestMetaObject {
                    io_modelcontextprotocol_protocol_version: "2026-07-28".into(),
                    io_modelcontextprotocol_client_info: Some(Implementation::new("ExampleClient", "1.0.0")),
                    io_modelcontextprotocol_client_capabilities: ClientCapabilities::default(),
                    io_modelcontextprotocol_log_level: None,
                    progress_token: None,
                    extra: Default::default(),
                }
            }

            fn meta_json() -> Value {
                json!({
                  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientInfo": {
                    "name": "ExampleClient",
                    "version": "1.0.0"
                  },
                  "io.modelcontextprotocol/clientCapabilities": {}
                })
            }

            fn request(id: impl Into<mcp_spec_types::RequestId>, call: ClientCall) -> ClientMessage {
                Message::Request(RequestEnvelope::new(id, call))
            }

            fn notification(notification: ServerNotify) -> ServerMessage {
                Message::Notification(NotificationEnvelope::new(notification))
            }

            fn response(id: i64, result: &impl Serialize) -> ServerMessage {
                Message::Response(ResultResponse::new(id, result).unwrap())
            }

            #[test]
            fn list_resources() {
                // The schema's example (ListResourcesRequest/list-resources-request.json).
                assert_message!(
                    ClientMessage,
                    request("list-resources-example", ClientCall::list_resources(None, meta())),
                    json!({
                      "jsonrpc": "2.0",
                      "id": "list-resources-example",
                      "method": "resources/list",
                      "params": {
                        "_meta": {
                          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                          "io.modelcontextprotocol/clientInfo": {
                            "name": "ExampleClient",
                            "version": "1.0.0"
                          },
                          "io.modelcontextprotocol/clientCapabilities": {}
                        }
                      }
                    })
                );
                // The page's example leaves out the `_meta` the schema requires.
                let page = json!({
                  "jsonrpc": "2.0",
                  "id": 1,
                  "method": "resources/list",
                  "params": {
                    "cursor": "optional-cursor-value"
                  }
                });
                let error = ClientMessage::parse(&page.to_string()).unwrap_err();
                assert_eq!(error.kind(), MessageErrorKind::Params);
                let mut with_meta = page;
                with_meta["params"]["_meta"] = meta_json();
                assert_message!(
                    ClientMessage,
                    request(1, ClientCall::list_resources(Some("optional-cursor-value".into()), meta())),
                    with_meta
                );
            }

            #[test]
            fn list_resources_result() {
                let main_rs = Resource::new("file:///project/src/main.rs", "main.rs")
                    .with_title("Rust Software Application Main File")
                    .with_description("Primary application entry point")
                    .with_mime_type("text/x-rust")
                    .with_icons(vec![Icon {
                        src: "https://example.com/rust-file-icon.png".into(),
                        mime_type: Some("image/png".into()),
                        sizes: Some(vec!["48x48".into()]),
                        theme: None,
                        extra: Default::default(),
                    }]);
                let result = ListResourcesResult::complete([main_rs], 300000, CacheScope::Public)
                    .with_next_cursor(Cursor::from("next-page-cursor"));
                assert_message!(
                    ServerMessage,
                    response(1, &result),
                    json!({
                      "jsonrpc": "2.0",
                      "id": 1,
                      "result": {
                        "resultType": "complete",
                        "resources": [
                          {
                            "uri": "file:///project/src/main.rs",
                            "name": "main.rs",
                            "title": "Rust Software Application Main File",
                            "description": "Primary application entry point",
                            "mimeType": "text/x-rust",
                            "icons": [
                              {
                                "src": "https://example.com/rust-file-icon.png",
                                "mimeType": "image/png",
                                "sizes": ["48x48"]
                              }
                            ]
                          }
                        ],
                        "nextCursor": "next-page-cursor",
                        "ttlMs": 300000,
                        "cacheScope": "public"
                      }
                    })
                );
                let changed = result
                    .with_ttl_ms(5)
                    .with_cache_scope(CacheScope::Private);
                assert_eq!((changed.ttl_ms, changed.cache_scope), (5, CacheScope::Private));
            }

            #[test]
            fn list_resource_templates() {
                let mut page = json!({
                  "jsonrpc": "2.0",
                  "id": 3,
                  "method": "resources/templates/list",
                  "params": {
                    "cursor": "optional-cursor-value"
                  }
                });
                page["params"]["_meta"] = meta_json();
                assert_message!(
                    ClientMessage,
                    request(3, ClientCall::list_resource_templates(Some("optional-cursor-value".into()), meta())),
                    page
                );
                let template = ResourceTemplate::new("file:///{path}", "Project Files")
                    .with_title("📁 Project Files")
                    .with_description("Access files in the project directory")
                    .with_mime_type("application/octet-stream")
                    .with_icons(vec![Icon {
                        src: "https://example.com/folder-icon.png".into(),
                        mime_type: Some("image/png".into()),
                        sizes: Some(vec!["48x48".into()]),
                        theme: None,
                        extra: Default::default(),
                    }]);
                let result = ListResourceTemplatesResult::complete(
                    [template],
                    300000,
                    CacheScope::Public,
                )
                .with_next_cursor("next-page-cursor");
                assert_message!(
                    ServerMessage,
                    response(3, &result),
                    json!({
                      "jsonrpc": "2.0",
                      "id": 3,
                      "result": {
                        "resultType": "complete",
                        "resourceTemplates": [
                          {
                            "uriTemplate": "file:///{path}",
                            "name": "Project Files",
                            "title": "📁 Project Files",
                            "description": "Access files in the project directory",
                            "mimeType": "application/octet-stream",
                            "icons": [
                              {
                                "src": "https://example.com/folder-icon.png",
                                "mimeType": "image/png",
                                "sizes": ["48x48"]
                              }
                            ]
                          }
                        ],
                        "nextCursor": "next-page-cursor",
                        "ttlMs": 300000,
                        "cacheScope": "public"
                      }
                    })
                );
            }

            #[test]
            fn read_resource() {
                // The schema's example (ReadResourceRequest/read-resource-request.json).
                assert_message!(
                    ClientMessage,
                    request("read-resource-example", ClientCall::read_resource("file:///project/src/main.rs", meta())),
                    json!({
                      "jsonrpc": "2.0",
                      "id": "read-resource-example",
                      "method": "resources/read",
                      "params": {
                        "_meta": {
                          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                          "io.modelcontextprotocol/clientInfo": {
                            "name": "ExampleClient",
                            "version": "1.0.0"
                          },
                          "io.modelcontextprotocol/clientCapabilities": {}
                        },
                        "uri": "file:///project/src/main.rs"
                      }
                    })
                );
            }

            #[test]
            fn read_resource_result() {
                let result = ReadResourceResult::complete(
                    [TextResourceContents::new(
                        "file:///project/src/main.rs",
                        "fn main() {\n    println!(\"Hello world!\");\n}",
                    )
                    .with_mime_type("text/x-rust")],
                    60000,
                    CacheScope::Private,
                );
                assert_message!(
                    ServerMessage,
                    response(2, &result),
                    json!({
                      "jsonrpc": "2.0",
                      "id": 2,
                      "result": {
                        "resultType": "complete",
                        "contents": [
                          {
                            "uri": "file:///project/src/main.rs",
                            "mimeType": "text/x-rust",
                            "text": "fn main() {\n    println!(\"Hello world!\");\n}"
                          }
                        ],
                        "ttlMs": 60000,
                        "cacheScope": "private"
                      }
                    })
                );
                // The shortcuts fill the most conservative caching members.
                assert_eq!(
                    to_json(&ReadResourceResult::text("file:///a.txt", "a")),
                    json!({"resultType": "complete", "contents": [{"uri": "file:///a.txt", "text": "a"}], "ttlMs": 0, "cacheScope": "private"})
                );
                let blob = ReadResourceResult::blob("file:///a.png", [0xffu8], "image/png")
                    .with_ttl_ms(1000)
                    .with_cache_scope(CacheScope::Public);
                assert_eq!(
                    to_json(&blob),
                    json!({"resultType": "complete", "contents": [{"uri": "file:///a.png", "mimeType": "image/png", "blob": "/w=="}], "ttlMs": 1000, "cacheScope": "public"})
                );
            }

            #[test]
            fn listen_replaces_subscribe() {
                // The subscriptions page's example.
                let filter = SubscriptionFilter {
                    tools_list_changed: Some(true),
                    resource_subscriptions: Some(vec!["file:///project/config.json".into()]),
                    ..Default::default()
                };
                let page = json!({
                  "jsonrpc": "2.0",
                  "id": 1,
                  "method": "subscriptions/listen",
                  "params": {
                    "_meta": {
                      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientInfo": {
                        "name": "ExampleClient",
                        "version": "1.0.0"
                      },
                      "io.modelcontextprotocol/clientCapabilities": {}
                    },
                    "notifications": {
                      "toolsListChanged": true,
                      "resourceSubscriptions": ["file:///project/config.json"]
                    }
                  }
                });
                assert_message!(ClientMessage, request(1, ClientCall::subscriptions_listen(filter, meta())), page.clone());
                let mut resources_only = page;
                resources_only["params"]["notifications"]
                    .as_object_mut()
                    .unwrap()
                    .remove("toolsListChanged");
                assert_message!(
                    ClientMessage,
                    request(1, ClientCall::listen_resources(["file:///project/config.json"], meta())),
                    resources_only
                );

                // `resources/subscribe` is not part of this revision.
                let subscribe = json!({
                  "jsonrpc": "2.0",
                  "id": 4,
                  "method": "resources/subscribe",
                  "params": {"uri": "file:///project/src/main.rs"}
                });
                let error = ClientMessage::parse(&subscribe.to_string()).unwrap_err();
                assert_eq!(error.kind(), MessageErrorKind::WrongRevision, "{error}");
            }

            #[test]
            fn notifications() {
                assert_message!(
                    ServerMessage,
                    notification(ServerNotify::resource_list_changed()),
                    json!({
                      "jsonrpc": "2.0",
                      "method": "notifications/resources/list_changed"
                    })
                );
                assert_message!(
                    ServerMessage,
                    notification(ServerNotify::resource_updated_for_subscription(4, "file:///project/src/main.rs")),
                    json!({
                      "jsonrpc": "2.0",
                      "method": "notifications/resources/updated",
                      "params": {
                        "_meta": { "io.modelcontextprotocol/subscriptionId": 4 },
                        "uri": "file:///project/src/main.rs"
                      }
                    })
                );
                // The schema's example names the stream by a string id.
                assert_message!(
                    ServerMessage,
                    notification(ServerNotify::resource_updated_for_subscription("listen-1", "file:///project/src/main.rs")),
                    json!({
                      "jsonrpc": "2.0",
                      "method": "notifications/resources/updated",
                      "params": {
                        "_meta": {
                          "io.modelcontextprotocol/subscriptionId": "listen-1"
                        },
                        "uri": "file:///project/src/main.rs"
                      }
                    })
                );
                assert_message!(
                    ServerMessage,
                    notification(ServerNotify::resource_updated("file:///project/src/main.rs")),
                    json!({
                      "jsonrpc": "2.0",
                      "method": "notifications/resources/updated",
                      "params": {"uri": "file:///project/src/main.rs"}
                    })
                );
            }

            #[test]
            fn revision_constant() {
                assert_eq!(<ClientCall as mcp_spec_types::dispatch::MethodSet>::REVISION, $revision);
            }
        }
    };
}

/// The checked annotation API on one annotations type.
#[allow(unused_macros)] // Which revisions use which macro depends on the enabled features.
macro_rules! annotations_tests {
    ($module:ident, $ty:ident $(, $last_modified:ident)?) => {
        mod $module {
            use super::*;

            #[test]
            fn priority_is_checked_when_built() {
                for (priority, text) in [(0.0, "0.0"), (0.8, "0.8"), (1.0, "1.0")] {
                    let annotations = $ty::new().try_with_priority(priority).unwrap();
                    assert_eq!(serde_json::to_string(&annotations).unwrap(), format!(r#"{{"priority":{text}}}"#));
                    assert_eq!(annotations.priority_f64(), Some(priority));
                    assert_eq!(annotations.validate(), Ok(()));
                }
                for priority in [-0.5, 1.5, f64::NAN, f64::INFINITY] {
                    assert!(matches!(
                        $ty::new().try_with_priority(priority),
                        Err(AnnotationError::PriorityOutOfRange { .. })
                    ));
                }
                let with_audience = $ty::new().with_audience(vec![Role::User, Role::Assistant]);
                assert_eq!(to_json(&with_audience), json!({"audience": ["user", "assistant"]}));
            }

            #[test]
            fn what_a_peer_sent_is_checked_against_the_schema_bounds() {
                // `priority` is `minimum: 0, maximum: 1` in the schema: reading enforces it.
                for (priority, says) in [
                    (json!(7), "7 is greater than the maximum 1"),
                    (json!(1.5), "1.5 is greater than the maximum 1"),
                    (json!(-0.25), "-0.25 is less than the minimum 0"),
                ] {
                    let error = serde_json::from_value::<$ty>(json!({"audience": ["user"], "priority": priority}))
                        .unwrap_err()
                        .to_string();
                    assert!(error.contains(says), "{error}");
                }
                for priority in [json!(0), json!(1), json!(0.5), json!(1.0)] {
                    let sent: $ty = serde_json::from_value(json!({"priority": priority})).unwrap();
                    assert_eq!(to_json(&sent), json!({"priority": priority}));
                    assert_eq!(sent.validate(), Ok(()));
                }
                // The unchecked generated setter keeps any number; `validate` reports it.
                assert!($ty::new().with_priority(3).validate().is_err());
                assert_eq!($ty::new().validate(), Ok(()));
            }

            $( annotations_tests!(@$last_modified $ty); )?
        }
    };
    (@last_modified $ty:ident) => {
        #[test]
        fn last_modified_is_checked() {
            let annotations = $ty::new()
                .with_audience(vec![Role::User])
                .try_with_priority(0.8)
                .and_then(|a| a.try_with_last_modified("2025-01-12T15:00:58Z"))
                .unwrap();
            assert_eq!(
                to_json(&annotations),
                json!({"audience": ["user"], "priority": 0.8, "lastModified": "2025-01-12T15:00:58Z"})
            );
            assert!(matches!(
                $ty::new().try_with_last_modified("last tuesday"),
                Err(AnnotationError::InvalidLastModified { offset: 0, .. })
            ));
            let sent: $ty = serde_json::from_value(json!({"lastModified": "2025-01-12"})).unwrap();
            assert_eq!(sent.last_modified.as_deref(), Some("2025-01-12"));
            assert!(matches!(sent.validate(), Err(AnnotationError::InvalidLastModified { offset: 10, .. })));
        }
    };
}

/// The resource with annotations of the pages of 2025-06-18 and later.
#[allow(unused_macros)] // Which revisions use which macro depends on the enabled features.
macro_rules! annotated_resource_test {
    () => {
        #[test]
        fn annotated_resource_as_the_page_shows_it() {
            let annotations = Annotations::new()
                .with_audience(vec![Role::User])
                .try_with_priority(0.8)
                .and_then(|a| a.try_with_last_modified("2025-01-12T15:00:58Z"))
                .unwrap();
            let resource = Resource::new("file:///project/README.md", "README.md")
                .with_title("Project Documentation")
                .with_mime_type("text/markdown")
                .with_annotations(annotations);
            assert_eq!(
                to_json(&resource),
                json!({
                  "uri": "file:///project/README.md",
                  "name": "README.md",
                  "title": "Project Documentation",
                  "mimeType": "text/markdown",
                  "annotations": {
                    "audience": ["user"],
                    "priority": 0.8,
                    "lastModified": "2025-01-12T15:00:58Z"
                  }
                })
            );
            let back: Resource = serde_json::from_value(to_json(&resource)).unwrap();
            assert_eq!(back.annotations.as_ref().map(Annotations::validate), Some(Ok(())));
        }
    };
}

/// `resources/list` and `resources/templates/list` results of the pages before 2026-07-28:
/// `$title` when the revision has `title` (2025-06-18+), `$icons` when it has icons (2025-11-25).
#[allow(unused_macros)] // Which revisions use which macro depends on the enabled features.
macro_rules! legacy_list_results_test {
    ($($extras:ident),*) => {
        #[test]
        fn list_results_as_the_page_shows_them() {
            use mcp_spec_types::dispatch::ResultResponse;
            #[allow(unused_mut)]
            let mut resource = Resource::new("file:///project/src/main.rs", "main.rs")
                .with_description("Primary application entry point")
                .with_mime_type("text/x-rust");
            #[allow(unused_mut)]
            let mut expected_resource = json!({
              "uri": "file:///project/src/main.rs",
              "name": "main.rs",
              "description": "Primary application entry point",
              "mimeType": "text/x-rust"
            });
            #[allow(unused_mut)]
            let mut template = ResourceTemplate::new("file:///{path}", "Project Files")
                .with_description("Access files in the project directory")
                .with_mime_type("application/octet-stream");
            #[allow(unused_mut)]
            let mut expected_template = json!({
              "uriTemplate": "file:///{path}",
              "name": "Project Files",
              "description": "Access files in the project directory",
              "mimeType": "application/octet-stream"
            });
            $( legacy_list_results_test!(@$extras resource, expected_resource, template, expected_template); )*
            let list = ListResourcesResult::new(vec![resource]).with_next_cursor(Cursor::from("next-page-cursor"));
            let response = ResultResponse::new(1, &list).unwrap();
            assert_eq!(
                to_json(&response),
                json!({"jsonrpc": "2.0", "id": 1, "result": {"resources": [expected_resource], "nextCursor": "next-page-cursor"}})
            );
            assert_eq!(response.result_for::<ListResourcesRequest>().unwrap(), list);
            let templates = ListResourceTemplatesResult::new(vec![template]).with_next_cursor("next-page-cursor");
            assert_eq!(
                to_json(&ResultResponse::new(3, &templates).unwrap()),
                json!({"jsonrpc": "2.0", "id": 3, "result": {"resourceTemplates": [expected_template], "nextCursor": "next-page-cursor"}})
            );
        }
    };
    (@title $resource:ident, $expected_resource:ident, $template:ident, $expected_template:ident) => {
        $resource = $resource.with_title("Rust Software Application Main File");
        $expected_resource["title"] = json!("Rust Software Application Main File");
        $template = $template.with_title("📁 Project Files");
        $expected_template["title"] = json!("📁 Project Files");
    };
    (@icons $resource:ident, $expected_resource:ident, $template:ident, $expected_template:ident) => {
        let icon = |src: &str| Icon {
            src: src.into(),
            mime_type: Some("image/png".into()),
            sizes: Some(vec!["48x48".into()]),
            theme: None,
            extra: Default::default(),
        };
        $resource = $resource.with_icons(vec![icon("https://example.com/rust-file-icon.png")]);
        $expected_resource["icons"] =
            json!([{"src": "https://example.com/rust-file-icon.png", "mimeType": "image/png", "sizes": ["48x48"]}]);
        $template = $template.with_icons(vec![icon("https://example.com/folder-icon.png")]);
        $expected_template["icons"] =
            json!([{"src": "https://example.com/folder-icon.png", "mimeType": "image/png", "sizes": ["48x48"]}]);
    };
}

#[cfg(feature = "v2024_11_05")]
mod v2024_11_05 {
    use super::*;
    use mcp_spec_types::v2024_11_05::*;

    contents_tests!();
    union_tests!(call_tool_result_content, CallToolResultContentItem: text, image, embedded);
    union_tests!(prompt_message_content, PromptMessageContent: text, image, embedded);
    legacy_message_tests!();
    legacy_list_results_test!();
    annotations_tests!(annotations, Annotations);

    #[test]
    fn annotations_are_one_type_for_every_owner() {
        let resource = Resource::new("file:///project/README.md", "README.md").with_annotations(
            Annotations::new()
                .with_audience(vec![Role::User])
                .try_with_priority(0.8)
                .unwrap(),
        );
        assert_eq!(
            to_json(&resource),
            json!({"uri": "file:///project/README.md", "name": "README.md", "annotations": {"audience": ["user"], "priority": 0.8}})
        );
        // `lastModified` is not a member in 2024-11-05: kept as an unknown member.
        let sent: Annotations = serde_json::from_value(json!({"lastModified": "x"})).unwrap();
        assert_eq!(sent.extra.get("lastModified"), Some(&json!("x")));
        assert_eq!(sent.validate(), Ok(()));
    }
}

#[cfg(feature = "v2025_03_26")]
mod v2025_03_26 {
    use super::*;
    use mcp_spec_types::v2025_03_26::*;

    contents_tests!();
    audio_tests!();
    union_tests!(call_tool_result_content, CallToolResultContentItem: text, image, audio, embedded);
    union_tests!(prompt_message_content, PromptMessageContent: text, image, audio, embedded);
    legacy_message_tests!();
    legacy_list_results_test!();
    annotations_tests!(annotations, Annotations);
}

#[cfg(feature = "v2025_06_18")]
mod v2025_06_18 {
    use super::*;
    use mcp_spec_types::v2025_06_18::*;

    contents_tests!();
    audio_tests!();
    union_tests!(content_block, ContentBlock: text, image, audio, link, embedded);
    legacy_message_tests!();
    legacy_list_results_test!(title);
    annotations_tests!(annotations, Annotations, last_modified);
    annotated_resource_test!();
}

#[cfg(feature = "v2025_11_25")]
mod v2025_11_25 {
    use super::*;
    use mcp_spec_types::v2025_11_25::*;

    contents_tests!();
    audio_tests!();
    union_tests!(content_block, ContentBlock: text, image, audio, link, embedded);
    legacy_message_tests!();
    legacy_list_results_test!(title, icons);
    annotations_tests!(annotations, Annotations, last_modified);
    annotated_resource_test!();
}

#[cfg(feature = "v2026_07_28")]
mod v2026_07_28 {
    use super::*;
    use mcp_spec_types::v2026_07_28::*;

    contents_tests!();
    audio_tests!();
    union_tests!(content_block, ContentBlock: text, image, audio, link, embedded);
    stateless_message_tests!("2026-07-28");
    annotations_tests!(annotations, Annotations, last_modified);
    annotated_resource_test!();
}

#[cfg(feature = "unstable-draft")]
mod draft {
    use super::*;
    use mcp_spec_types::draft::*;

    contents_tests!();
    audio_tests!();
    union_tests!(content_block, ContentBlock: text, image, audio, link, embedded);
    stateless_message_tests!("draft");
    annotations_tests!(annotations, Annotations, last_modified);
    annotated_resource_test!();
}
