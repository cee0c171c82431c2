//! What each check compares: figures read from an implementation's typed fields must equal
//! the same figures read from the input parsed as `serde_json::Value`.

use serde_json::Value;

/// FNV-1a, to compare long strings without keeping copies around in reports.
pub fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn chars(s: Option<&str>) -> usize {
    s.map_or(0, |s| s.chars().count())
}

#[derive(Debug, Default, PartialEq, Eq, Clone)]
pub struct W1Stats {
    pub resources: usize,
    pub sum_size: u64,
    pub with_title: usize,
    /// Characters of uri + name + title + description + mimeType over all resources.
    pub text_chars: usize,
    pub audience_entries: usize,
    pub with_priority: usize,
    pub with_last_modified: usize,
    pub meta_keys: usize,
    pub next_cursor: Option<String>,
}

#[allow(clippy::too_many_arguments)]
impl W1Stats {
    /// Adds one resource's figures.
    pub fn add(
        &mut self,
        uri: &str,
        name: &str,
        title: Option<&str>,
        description: Option<&str>,
        mime: Option<&str>,
        size: Option<u64>,
        audience: usize,
        priority: bool,
        last_modified: bool,
        meta_keys: usize,
    ) {
        self.resources += 1;
        self.sum_size += size.unwrap_or(0);
        self.with_title += usize::from(title.is_some());
        self.text_chars +=
            chars(Some(uri)) + chars(Some(name)) + chars(title) + chars(description) + chars(mime);
        self.audience_entries += audience;
        self.with_priority += usize::from(priority);
        self.with_last_modified += usize::from(last_modified);
        self.meta_keys += meta_keys;
    }

    pub fn from_value(v: &Value) -> Self {
        let mut s = Self::default();
        let result = &v["result"];
        for r in result["resources"].as_array().into_iter().flatten() {
            let a = &r["annotations"];
            s.add(
                r["uri"].as_str().unwrap_or_default(),
                r["name"].as_str().unwrap_or_default(),
                r["title"].as_str(),
                r["description"].as_str(),
                r["mimeType"].as_str(),
                r["size"].as_u64(),
                a["audience"].as_array().map_or(0, Vec::len),
                !a["priority"].is_null(),
                !a["lastModified"].is_null(),
                r["_meta"].as_object().map_or(0, |m| m.len()),
            );
        }
        s.next_cursor = result["nextCursor"].as_str().map(str::to_owned);
        s
    }
}

/// W2/W3: the single content of a `resources/read` result.
#[derive(Debug, Default, PartialEq, Eq, Clone)]
pub struct ReadStats {
    pub contents: usize,
    pub uri: String,
    pub mime: Option<String>,
    /// Text contents: length in chars and bytes, and a hash of the bytes.
    pub text_chars: usize,
    pub text_bytes: usize,
    pub text_hash: u64,
    /// Blob contents: length and hash of the base64 string.
    pub blob_len: usize,
    pub blob_hash: u64,
}

impl ReadStats {
    pub fn add_text(&mut self, uri: &str, mime: Option<&str>, text: &str) {
        self.contents += 1;
        self.uri = uri.to_owned();
        self.mime = mime.map(str::to_owned);
        self.text_chars += text.chars().count();
        self.text_bytes += text.len();
        self.text_hash ^= fnv(text.as_bytes());
    }

    pub fn add_blob(&mut self, uri: &str, mime: Option<&str>, blob: &str) {
        self.contents += 1;
        self.uri = uri.to_owned();
        self.mime = mime.map(str::to_owned);
        self.blob_len += blob.len();
        self.blob_hash ^= fnv(blob.as_bytes());
    }

    pub fn from_value(v: &Value) -> Self {
        let mut s = Self::default();
        for c in v["result"]["contents"].as_array().into_iter().flatten() {
            let uri = c["uri"].as_str().unwrap_or_default();
            let mime = c["mimeType"].as_str();
            if let Some(t) = c["text"].as_str() {
                s.add_text(uri, mime, t);
            } else if let Some(b) = c["blob"].as_str() {
                s.add_blob(uri, mime, b);
            }
        }
        s
    }
}

#[derive(Debug, Default, PartialEq, Eq, Clone)]
pub struct W4Stats {
    pub tools: usize,
    /// Members of `inputSchema.properties`, summed over tools.
    pub properties: usize,
    /// A hash over the property names (in sorted order per tool) and their schemas'
    /// `type` members, so the nested schemas are known to be there.
    pub property_hash: u64,
    pub required: usize,
    pub description_chars: usize,
    pub with_annotations: usize,
    pub read_only_true: usize,
    pub open_world_true: usize,
}

impl W4Stats {
    #[allow(clippy::too_many_arguments)]
    pub fn add<'a>(
        &mut self,
        description: Option<&str>,
        properties: impl Iterator<Item = (&'a str, &'a serde_json::Map<String, Value>)>,
        required: usize,
        annotations: bool,
        read_only: Option<bool>,
        open_world: Option<bool>,
    ) {
        self.tools += 1;
        self.description_chars += chars(description);
        let mut props: Vec<(&str, &serde_json::Map<String, Value>)> = properties.collect();
        props.sort_by(|a, b| a.0.cmp(b.0));
        self.properties += props.len();
        for (name, schema) in props {
            let mut h = fnv(name.as_bytes());
            h ^= fnv(serde_json::to_string(&schema.get("type"))
                .unwrap()
                .as_bytes())
            .rotate_left(7);
            self.property_hash = self.property_hash.rotate_left(5) ^ h;
        }
        self.required += required;
        self.with_annotations += usize::from(annotations);
        self.read_only_true += usize::from(read_only == Some(true));
        self.open_world_true += usize::from(open_world == Some(true));
    }

    pub fn from_value(v: &Value) -> Self {
        let mut s = Self::default();
        for t in v["result"]["tools"].as_array().into_iter().flatten() {
            let schema = &t["inputSchema"];
            let a = &t["annotations"];
            s.add(
                t["description"].as_str(),
                schema["properties"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, v)| {
                        (
                            k.as_str(),
                            v.as_object().expect("property schemas are objects"),
                        )
                    }),
                schema["required"].as_array().map_or(0, Vec::len),
                a.is_object(),
                a["readOnlyHint"].as_bool(),
                a["openWorldHint"].as_bool(),
            );
        }
        s
    }
}

/// A one-line account of the figures a check compared, for the report.
pub trait Summary {
    fn summary(&self) -> String;
}

impl Summary for W1Stats {
    fn summary(&self) -> String {
        format!(
            "{} resources, sizes summing to {}, {} chars of uri/name/title/description/mimeType, \
             {} audience entries, {} priorities, {} lastModified, {} _meta members, nextCursor {:?}",
            self.resources,
            self.sum_size,
            self.text_chars,
            self.audience_entries,
            self.with_priority,
            self.with_last_modified,
            self.meta_keys,
            self.next_cursor.as_deref().unwrap_or("-")
        )
    }
}

impl Summary for ReadStats {
    fn summary(&self) -> String {
        if self.blob_len > 0 {
            format!(
                "{} content(s), blob of {} base64 chars (hash {:016x})",
                self.contents, self.blob_len, self.blob_hash
            )
        } else {
            format!(
                "{} content(s), text of {} chars / {} bytes (hash {:016x})",
                self.contents, self.text_chars, self.text_bytes, self.text_hash
            )
        }
    }
}

impl Summary for W4Stats {
    fn summary(&self) -> String {
        format!(
            "{} tools, {} inputSchema properties (names+types hash {:016x}), {} required, {} description chars, \
             {} annotations ({} readOnlyHint=true, {} openWorldHint=true)",
            self.tools,
            self.properties,
            self.property_hash,
            self.required,
            self.description_chars,
            self.with_annotations,
            self.read_only_true,
            self.open_world_true
        )
    }
}
