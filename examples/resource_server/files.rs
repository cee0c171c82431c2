//! The served folder: which files it offers, their URIs, and the validation every requested URI
//! goes through before anything is read ("servers MUST validate all resource URIs").
//!
//! Independent of any protocol revision, so `tests/resource_server.rs` includes it directly.
//! Unix paths: a URI `file:///<absolute path>` names the file at that path.

use mcp_spec_types::uri_template::{UriTemplate, Variables};
use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};

/// The resource template the server advertises; every file URI it lists matches it.
pub const TEMPLATE: &str = "file:///{+path}";

/// Why a URI is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UriError {
    /// Not a `file:` URI.
    NotFileScheme,
    /// Not a well-formed `file:///` URI for this server (a host, a query or fragment, a
    /// backslash, a NUL, bad percent-encoding, an empty segment ...).
    Malformed(&'static str),
    /// A `.` or `..` segment, written as such or percent-encoded.
    Traversal,
    /// A percent-encoded `/` or `\`, which would hide a segment boundary.
    EncodedSeparator,
    /// The path (as written, or once symlinks are resolved) is outside the served folder.
    OutsideRoot,
    /// Inside the served folder, but no such file.
    NotFound,
}

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UriError::NotFileScheme => f.write_str("only file: URIs are served"),
            UriError::Malformed(why) => write!(f, "malformed file URI: {why}"),
            UriError::Traversal => f.write_str("`.` and `..` segments are not allowed"),
            UriError::EncodedSeparator => f.write_str("encoded separators are not allowed"),
            UriError::OutsideRoot => f.write_str("the URI is outside the served folder"),
            UriError::NotFound => f.write_str("no such resource"),
        }
    }
}

/// One file the server offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Where it is (inside the root; a symlink keeps its own path).
    pub path: PathBuf,
    /// Its path relative to the root, `/`-separated.
    pub relative: String,
    /// Its `file:///` URI.
    pub uri: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its MIME type, when the extension says.
    pub mime: Option<&'static str>,
}

/// The served folder.
#[derive(Debug, Clone)]
pub struct Root {
    canonical: PathBuf,
    template: UriTemplate,
}

impl Root {
    /// Serves `dir`, which must exist; symlinks in its own path are resolved once here.
    pub fn new(dir: &Path) -> io::Result<Root> {
        let canonical = dir.canonicalize()?;
        if !canonical.is_dir() {
            return Err(io::Error::other(format!("{} is not a dir", dir.display())));
        }
        let template = UriTemplate::parse(TEMPLATE).map_err(io::Error::other)?;
        Ok(Root {
            canonical,
            template,
        })
    }

    /// The folder, canonical.
    pub fn path(&self) -> &Path {
        &self.canonical
    }

    /// The `file:///` URI of an absolute path, by expanding the template (so reserved
    /// characters other than `/` and anything outside ASCII are percent-encoded).
    pub fn uri_for(&self, path: &Path) -> Option<String> {
        let text = path.to_str()?;
        let relative = text.strip_prefix('/')?;
        let variables = Variables::new().with("path", relative.to_owned());
        Some(self.template.expand(&variables))
    }

    /// Validates `uri` and returns the canonical path of the file it names.
    ///
    /// Refused: other schemes, hosts, queries and fragments, backslashes, NULs,
    /// percent-encoded separators, `.`/`..` segments (also percent-encoded), empty segments,
    /// paths outside the folder, and paths whose symlinks resolve outside it. A URI that
    /// passes but names no regular file is [`UriError::NotFound`].
    pub fn resolve(&self, uri: &str) -> Result<PathBuf, UriError> {
        let scheme_end = uri.find(':').ok_or(UriError::NotFileScheme)?;
        if !uri[..scheme_end].eq_ignore_ascii_case("file") {
            return Err(UriError::NotFileScheme);
        }
        let lower = uri.to_ascii_lowercase();
        if lower.contains("%2f") || lower.contains("%5c") {
            return Err(UriError::EncodedSeparator);
        }
        if uri.contains('\\') {
            return Err(UriError::Malformed("backslash"));
        }
        if uri.contains('?') || uri.contains('#') {
            return Err(UriError::Malformed("query or fragment"));
        }
        // The scheme is case-insensitive; the host must be empty or `localhost`.
        let rest = if lower.starts_with("file:///") {
            &uri["file:///".len()..]
        } else if lower.starts_with("file://localhost/") {
            &uri["file://localhost/".len()..]
        } else {
            return Err(UriError::Malformed("expected file:///<absolute path>"));
        };
        let uri = format!("file:///{rest}");
        let captured = self
            .template
            .match_uri(&uri)
            .ok_or(UriError::Malformed("not a file:/// URI with a valid path"))?;
        let decoded = captured
            .get_str("path")
            .ok_or(UriError::Malformed("no path"))?;
        if decoded.contains('\0') {
            return Err(UriError::Malformed("NUL in path"));
        }
        for segment in decoded.split('/') {
            match segment {
                "." | ".." => return Err(UriError::Traversal),
                "" => return Err(UriError::Malformed("empty path segment")),
                _ => {}
            }
        }
        let absolute = Path::new("/").join(decoded);
        // Lexically inside the folder: `Path::starts_with` compares whole components.
        if !absolute.starts_with(&self.canonical)
            || absolute
                .components()
                .any(|c| matches!(c, Component::ParentDir | Component::CurDir))
        {
            return Err(UriError::OutsideRoot);
        }
        // Then really inside, once symlinks are resolved.
        let canonical = absolute.canonicalize().map_err(|_| UriError::NotFound)?;
        if !canonical.starts_with(&self.canonical) {
            return Err(UriError::OutsideRoot);
        }
        if !canonical.is_file() {
            return Err(UriError::NotFound);
        }
        Ok(canonical)
    }

    /// Every file offered, sorted by relative path: regular files in the folder and its
    /// subfolders, and symlinks to regular files inside the folder. Symlinks pointing outside,
    /// symlinked folders and names that are not UTF-8 are left out.
    pub fn entries(&self) -> Vec<Entry> {
        let mut out = Vec::new();
        self.walk(&self.canonical, &mut out, 0);
        out.sort_by(|a, b| a.relative.cmp(&b.relative));
        out
    }

    fn walk(&self, dir: &Path, out: &mut Vec<Entry>, depth: usize) {
        let Ok(read) = std::fs::read_dir(dir) else {
            return;
        };
        for path in read.flatten().map(|item| item.path()) {
            let Ok(own) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if own.is_dir() && depth < 32 {
                self.walk(&path, out, depth + 1);
            }
            // A regular file, or a symlink to one inside the folder.
            let inside = path
                .canonicalize()
                .is_ok_and(|to| to.starts_with(&self.canonical));
            let file = std::fs::metadata(&path)
                .ok()
                .filter(|m| m.is_file() && !own.is_dir());
            let relative = path
                .strip_prefix(&self.canonical)
                .ok()
                .and_then(Path::to_str);
            if let (true, Some(file), Some(uri), Some(relative)) =
                (inside, file, self.uri_for(&path), relative)
            {
                let (mime, relative) = (mime_for(&path), relative.replace('\\', "/"));
                out.push(Entry {
                    path,
                    relative,
                    uri,
                    size: file.len(),
                    mime,
                });
            }
        }
    }
}

/// The MIME type the extension stands for, when it is a common one.
pub fn mime_for(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "txt" | "text" | "log" => "text/plain",
        "md" | "markdown" => "text/markdown",
        "html" | "htm" => "text/html",
        "css" => "text/css",
        "csv" => "text/csv",
        "json" => "application/json",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "pdf" => "application/pdf",
        _ => return None,
    })
}

/// Whether a MIME type is text, to be sent as `text` (when the bytes are UTF-8).
fn is_textual(mime: &str) -> bool {
    mime.starts_with("text/")
        || ["application/json", "application/xml", "image/svg+xml"].contains(&mime)
}

/// Reads a file as MCP sends it, with its MIME type: the text when the type is textual (or
/// unknown) and the bytes are UTF-8, the bytes otherwise.
pub fn read_contents(path: &Path) -> io::Result<(Result<String, Vec<u8>>, &'static str)> {
    let bytes = std::fs::read(path)?;
    let mime = mime_for(path);
    let contents = match mime.is_none_or(is_textual) {
        true => String::from_utf8(bytes).map_err(|e| e.into_bytes()),
        false => Err(bytes),
    };
    let mime = match (&contents, mime) {
        (Ok(_), None) => "text/plain",
        // Bytes that are not the text their type says.
        (Err(_), Some(text)) if text.starts_with("text/") => "application/octet-stream",
        (_, Some(mime)) => mime,
        (Err(_), None) => "application/octet-stream",
    };
    Ok((contents, mime))
}
