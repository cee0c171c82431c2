//! The example resource server (`examples/resource-server.rs`): its URI validation, included
//! directly from `examples/resource_server/files.rs`, and the server itself, spawned and
//! spoken to over stdio.
//!
//! The process tests open a session at the newest revision with `initialize` this build
//! supports, or, when there is none (the default features), at the stateless revision with the
//! version in every request's `_meta`.

use crate::support;

#[allow(dead_code)]
#[path = "../examples/resource_server/files.rs"]
mod files;

use files::{Root, UriError};
use std::path::{Path, PathBuf};

/// A served folder with a sibling folder the server must never reveal:
///
/// ```text
/// <scratch>/root/hello.txt, root/notes/inner.md, root/pixel.png
/// <scratch>/root-evil/secret.txt        (shares the root's name as a prefix)
/// <scratch>/outside/secret.txt
/// root/link-out -> ../outside/secret.txt, root/dir-out -> ../outside, root/link-in -> hello.txt
/// ```
fn fixture(name: &str) -> (PathBuf, PathBuf) {
    let scratch = support::scratch_dir(name);
    let root = scratch.join("root");
    std::fs::create_dir_all(root.join("notes")).unwrap();
    std::fs::write(root.join("hello.txt"), "hello\n").unwrap();
    std::fs::write(root.join("notes").join("inner.md"), "# inner\n").unwrap();
    std::fs::write(
        root.join("pixel.png"),
        [0x89, b'P', b'N', b'G', 0, 1, 2, 255],
    )
    .unwrap();
    for sibling in ["outside", "root-evil"] {
        std::fs::create_dir_all(scratch.join(sibling)).unwrap();
        std::fs::write(scratch.join(sibling).join("secret.txt"), "SECRET\n").unwrap();
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink("../outside/secret.txt", root.join("link-out")).unwrap();
        symlink("../outside", root.join("dir-out")).unwrap();
        symlink("hello.txt", root.join("link-in")).unwrap();
    }
    let root = root.canonicalize().unwrap();
    let scratch = scratch.canonicalize().unwrap();
    (scratch, root)
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Every URI the server must refuse, with the reason the validation gives.
fn refused_uris(scratch: &Path, root: &Path) -> Vec<(String, UriError)> {
    let root_uri = uri(root);
    let mut cases = vec![
        // `..` segments.
        (
            format!("{root_uri}/../outside/secret.txt"),
            UriError::Traversal,
        ),
        (
            format!("{root_uri}/notes/../../outside/secret.txt"),
            UriError::Traversal,
        ),
        (
            format!("{root_uri}/notes/../hello.txt"),
            UriError::Traversal,
        ),
        (format!("{root_uri}/./hello.txt"), UriError::Traversal),
        // Percent-encoded traversal.
        (
            format!("{root_uri}/%2e%2e/outside/secret.txt"),
            UriError::Traversal,
        ),
        (
            format!("{root_uri}/%2E%2E/outside/secret.txt"),
            UriError::Traversal,
        ),
        (
            format!("{root_uri}/.%2e/outside/secret.txt"),
            UriError::Traversal,
        ),
        (
            format!("{root_uri}/..%2foutside%2fsecret.txt"),
            UriError::EncodedSeparator,
        ),
        (
            format!("{root_uri}/%2e%2e%2Foutside/secret.txt"),
            UriError::EncodedSeparator,
        ),
        (
            format!("{root_uri}/..%5coutside"),
            UriError::EncodedSeparator,
        ),
        // Absolute paths elsewhere.
        ("file:///etc/passwd".to_owned(), UriError::OutsideRoot),
        (
            uri(&scratch.join("outside").join("secret.txt")),
            UriError::OutsideRoot,
        ),
        (
            uri(&scratch.join("root-evil").join("secret.txt")),
            UriError::OutsideRoot,
        ),
        (uri(scratch), UriError::OutsideRoot),
        // Other schemes, and no scheme.
        (
            "https://example.com/hello.txt".to_owned(),
            UriError::NotFileScheme,
        ),
        (
            "http://localhost/etc/passwd".to_owned(),
            UriError::NotFileScheme,
        ),
        ("data:text/plain,hello".to_owned(), UriError::NotFileScheme),
        (
            format!("ftp://{}", &root_uri["file://".len()..]),
            UriError::NotFileScheme,
        ),
        ("hello.txt".to_owned(), UriError::NotFileScheme),
        // Not a plain file:/// URI.
        (
            format!("file://evil.example{}/hello.txt", root.display()),
            UriError::Malformed("expected file:///<absolute path>"),
        ),
        (
            format!("{root_uri}/hello.txt?x=1"),
            UriError::Malformed("query or fragment"),
        ),
        (
            format!("{root_uri}/hello.txt#top"),
            UriError::Malformed("query or fragment"),
        ),
        (
            format!("{root_uri}\\..\\outside"),
            UriError::Malformed("backslash"),
        ),
        (
            format!("{root_uri}/hello.txt%00.png"),
            UriError::Malformed("NUL in path"),
        ),
        (
            format!("{root_uri}//hello.txt"),
            UriError::Malformed("empty path segment"),
        ),
    ];
    if cfg!(unix) {
        // Symlinks resolving outside the folder.
        cases.push((format!("{root_uri}/link-out"), UriError::OutsideRoot));
        cases.push((
            format!("{root_uri}/dir-out/secret.txt"),
            UriError::OutsideRoot,
        ));
    }
    cases
}

#[test]
fn uris_inside_the_folder_resolve() {
    let (_, root_path) = fixture("uri-accept");
    let root = Root::new(&root_path).unwrap();
    let hello = root_path.join("hello.txt");
    assert_eq!(root.resolve(&uri(&hello)), Ok(hello.clone()));
    // The template's own expansion, `localhost`, and the scheme in capitals.
    assert_eq!(
        root.resolve(&root.uri_for(&hello).unwrap()),
        Ok(hello.clone())
    );
    let local = format!("file://localhost{}", hello.display());
    assert_eq!(root.resolve(&local), Ok(hello.clone()));
    assert_eq!(
        root.resolve(&format!("FILE://{}", hello.display())),
        Ok(hello.clone())
    );
    // Percent-encoded letters are fine.
    let encoded = format!("{}/hell%6F.txt", uri(&root_path));
    assert_eq!(root.resolve(&encoded), Ok(hello.clone()));
    #[cfg(unix)]
    assert_eq!(
        root.resolve(&format!("{}/link-in", uri(&root_path))),
        Ok(hello.clone())
    );
    assert_eq!(
        root.resolve(&format!("{}/missing.txt", uri(&root_path))),
        Err(UriError::NotFound)
    );
    assert_eq!(
        root.resolve(&format!("{}/notes", uri(&root_path))),
        Err(UriError::NotFound),
        "a folder is not a resource"
    );
}

#[test]
fn uris_outside_the_folder_are_refused() {
    let (scratch, root_path) = fixture("uri-refuse");
    let root = Root::new(&root_path).unwrap();
    for (uri, expected) in refused_uris(&scratch, &root_path) {
        assert_eq!(root.resolve(&uri), Err(expected), "{uri}");
    }
}

#[test]
fn the_listing_leaves_out_what_points_outside() {
    let (_, root_path) = fixture("listing");
    let root = Root::new(&root_path).unwrap();
    let listed: Vec<String> = root.entries().into_iter().map(|e| e.relative).collect();
    let mut expected = vec!["hello.txt", "notes/inner.md", "pixel.png"];
    if cfg!(unix) {
        expected.insert(1, "link-in");
    }
    assert_eq!(listed, expected);
    for entry in root.entries() {
        assert!(root.resolve(&entry.uri).is_ok(), "{}", entry.uri);
    }
}

#[test]
fn mime_types_come_from_the_extension() {
    assert_eq!(files::mime_for(Path::new("a.PNG")), Some("image/png"));
    assert_eq!(files::mime_for(Path::new("a.md")), Some("text/markdown"));
    assert_eq!(files::mime_for(Path::new("Makefile")), None);
}

// ---- the server process ------------------------------------------------------------------
// The example serves every revision on the server engine.
#[cfg(all(feature = "all-revisions", feature = "server"))]
mod process {
    use super::*;
    use mcp_spec_types::ProtocolVersion;
    use serde_json::{json, Value};
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Child, ChildStdin, Command, Stdio};
    use std::sync::mpsc::{Receiver, RecvTimeoutError};
    use std::time::{Duration, Instant};

    const STATEFUL: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

    fn newest_stateful() -> Option<&'static ProtocolVersion> {
        ProtocolVersion::SUPPORTED
            .iter()
            .find(|v| STATEFUL.contains(&v.as_str()))
    }

    struct Server {
        child: Child,
        stdin: ChildStdin,
        incoming: Receiver<Value>,
        /// Notifications received while waiting for responses.
        notifications: Vec<Value>,
        /// The version to put in `_meta` (stateless sessions).
        stateless: Option<String>,
        next_id: i64,
    }

    impl Server {
        fn start(dir: &Path, page_size: usize) -> Server {
            let binary = support::example_binary("resource-server");
            let mut child = Command::new(binary)
                .args(["--page-size", &page_size.to_string()])
                .arg(dir)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("starting the resource server");
            let stdin = child.stdin.take().unwrap();
            let stdout = child.stdout.take().unwrap();
            let (tx, incoming) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    let value = serde_json::from_str(&line).unwrap_or_else(|e| {
                        panic!("the server wrote a line that is not JSON ({e}): {line}")
                    });
                    if tx.send(value).is_err() {
                        break;
                    }
                }
            });
            Server {
                child,
                stdin,
                incoming,
                notifications: Vec::new(),
                stateless: None,
                next_id: 1,
            }
        }

        /// Starts the server and opens a session (see the module docs).
        fn open(dir: &Path, page_size: usize) -> Server {
            let mut server = Server::start(dir, page_size);
            match newest_stateful() {
                Some(version) => {
                    let reply = server.request(
                        "initialize",
                        json!({
                            "protocolVersion": version.as_str(),
                            "capabilities": {},
                            "clientInfo": { "name": "test", "version": "1" }
                        }),
                    );
                    assert_eq!(
                        reply["result"]["protocolVersion"],
                        version.as_str(),
                        "{reply}"
                    );
                    server.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
                }
                None => {
                    server.stateless = Some(
                        ProtocolVersion::SUPPORTED
                            .first()
                            .expect("some revision")
                            .as_str()
                            .to_owned(),
                    );
                }
            }
            server
        }

        fn send(&mut self, message: Value) {
            self.send_raw(&message.to_string());
        }

        fn send_raw(&mut self, line: &str) {
            writeln!(self.stdin, "{line}").expect("writing to the server");
            self.stdin.flush().unwrap();
        }

        /// The next message, or `None` after `timeout`.
        fn next(&mut self, timeout: Duration) -> Option<Value> {
            match self.incoming.recv_timeout(timeout) {
                Ok(value) => Some(value),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
            }
        }

        /// Sends a request (with `_meta` in stateless sessions) and returns its response.
        fn request(&mut self, method: &str, mut params: Value) -> Value {
            if let (Some(version), Some(object)) = (&self.stateless, params.as_object_mut()) {
                object.insert(
                    "_meta".into(),
                    json!({
                        "io.modelcontextprotocol/protocolVersion": version,
                        "io.modelcontextprotocol/clientCapabilities": {}
                    }),
                );
            }
            let id = self.next_id;
            self.next_id += 1;
            self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
            self.response_to(&json!(id))
        }

        fn response_to(&mut self, id: &Value) -> Value {
            let deadline = Instant::now() + Duration::from_secs(10);
            while let Some(message) = self.next(deadline.saturating_duration_since(Instant::now()))
            {
                if message.get("id") == Some(id) && message.get("method").is_none() {
                    return message;
                }
                self.notifications.push(message);
            }
            panic!("no response to request {id}");
        }

        /// Waits for `notifications/resources/updated` of `uri`, keeping the messages before
        /// it in `notifications`.
        fn update_of(&mut self, uri: &str) -> Value {
            let deadline = Instant::now() + Duration::from_secs(10);
            while let Some(message) = self.next(deadline.saturating_duration_since(Instant::now()))
            {
                if message["method"] == "notifications/resources/updated"
                    && message["params"]["uri"] == uri
                {
                    return message;
                }
                self.notifications.push(message);
            }
            panic!("no update of {uri} within 10 s");
        }

        /// Waits for a notification `method` (already received ones included).
        fn notification(&mut self, method: &str) -> Value {
            if let Some(i) = self
                .notifications
                .iter()
                .position(|n| n["method"] == method)
            {
                return self.notifications.remove(i);
            }
            let deadline = Instant::now() + Duration::from_secs(5);
            while let Some(message) = self.next(deadline.saturating_duration_since(Instant::now()))
            {
                if message["method"] == method {
                    return message;
                }
                self.notifications.push(message);
            }
            panic!("no {method} notification within 5 s");
        }
    }

    impl Drop for Server {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    fn error_code(reply: &Value) -> i64 {
        reply["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error response: {reply}"))
    }

    #[test]
    fn the_server_refuses_every_uri_outside_its_folder() {
        let (scratch, root) = fixture("server-refuse");
        let mut server = Server::open(&root, 10);
        for (uri, _) in refused_uris(&scratch, &root) {
            let reply = server.request("resources/read", json!({ "uri": uri }));
            assert!(
                !reply.to_string().contains("SECRET"),
                "{uri} leaked the secret: {reply}"
            );
            assert_eq!(error_code(&reply), -32602, "{uri}: {reply}");
            assert_eq!(reply["error"]["data"]["uri"], uri.as_str(), "{reply}");
        }
        if newest_stateful().is_some() {
            let (uri, _) = &refused_uris(&scratch, &root)[0];
            let reply = server.request("resources/subscribe", json!({ "uri": uri }));
            assert_eq!(error_code(&reply), -32602, "{reply}");
        }
    }

    #[test]
    fn the_server_lists_pages_and_refuses_forged_cursors() {
        let (_, root) = fixture("server-pages");
        let mut server = Server::open(&root, 2);
        let mut names = Vec::new();
        let mut cursor: Option<String> = None;
        let mut pages = 0;
        loop {
            let params = match &cursor {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let reply = server.request("resources/list", params);
            let result = &reply["result"];
            let resources = result["resources"].as_array().expect("resources");
            assert!(resources.len() <= 2);
            names.extend(
                resources
                    .iter()
                    .map(|r| r["name"].as_str().unwrap().to_owned()),
            );
            pages += 1;
            match result["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        let expected = if cfg!(unix) { 4 } else { 3 };
        assert_eq!(names.len(), expected, "{names:?}");
        assert_eq!(pages, 2);
        assert!(!names.iter().any(|n| n.contains("out")), "{names:?}");
        for forged in ["forged", "2.0000000000000000", ""] {
            let reply = server.request("resources/list", json!({ "cursor": forged }));
            assert_eq!(error_code(&reply), -32602, "{forged:?}: {reply}");
        }
    }

    #[test]
    fn the_server_reads_text_and_blobs_and_answers_errors() {
        let (_, root) = fixture("server-read");
        let mut server = Server::open(&root, 10);

        let hello = uri(&root.join("hello.txt"));
        let reply = server.request("resources/read", json!({ "uri": hello }));
        let contents = &reply["result"]["contents"][0];
        assert_eq!(contents["text"], "hello\n", "{reply}");
        assert_eq!(contents["mimeType"], "text/plain");
        assert_eq!(contents["uri"], hello.as_str());

        let reply = server.request(
            "resources/read",
            json!({ "uri": uri(&root.join("pixel.png")) }),
        );
        let contents = &reply["result"]["contents"][0];
        assert_eq!(contents["blob"], "iVBORwABAv8=", "{reply}");
        assert_eq!(contents["mimeType"], "image/png");

        // Through the advertised template.
        let reply = server.request("resources/templates/list", json!({}));
        let template = reply["result"]["resourceTemplates"][0]["uriTemplate"]
            .as_str()
            .expect("a template")
            .to_owned();
        assert_eq!(template, "file:///{+path}");
        let expanded = mcp_spec_types::uri_template::UriTemplate::parse(&template)
            .unwrap()
            .expand(&mcp_spec_types::uri_template::Variables::new().with(
                "path",
                root.join("notes").join("inner.md").to_str().unwrap()[1..].to_owned(),
            ));
        let reply = server.request("resources/read", json!({ "uri": expanded }));
        assert_eq!(
            reply["result"]["contents"][0]["text"], "# inner\n",
            "{reply}"
        );

        // -32002 with data.uri for a resource that does not exist.
        let missing = uri(&root.join("missing.txt"));
        let reply = server.request("resources/read", json!({ "uri": missing }));
        assert_eq!(error_code(&reply), -32002, "{reply}");
        assert_eq!(reply["error"]["data"]["uri"], missing.as_str());

        // -32602 with the parse error's path for bad params.
        let reply = server.request("resources/read", json!({ "uri": 7 }));
        assert_eq!(error_code(&reply), -32602, "{reply}");
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .contains("params.uri"),
            "{reply}"
        );

        // -32601 for methods the server does not implement, and for a server's method.
        let reply = server.request("tools/list", json!({}));
        assert_eq!(error_code(&reply), -32601, "{reply}");
        let reply = server.request("roots/list", json!({}));
        assert_eq!(error_code(&reply), -32601, "{reply}");
        let reply = server.request("vendor/unknown", json!({}));
        assert_eq!(error_code(&reply), -32601, "{reply}");

        // -32700 for a line that is not JSON.
        server.send_raw("{not json");
        let reply = server.next(Duration::from_secs(5)).expect("a reply");
        assert_eq!(error_code(&reply), -32700, "{reply}");
        assert_eq!(reply["id"], Value::Null);
    }

    #[test]
    fn the_server_notifies_subscribers_of_changes() {
        let (scratch, root) = fixture("server-subscribe");
        let mut server = Server::open(&root, 10);
        let hello = uri(&root.join("hello.txt"));
        if server.stateless.is_some() {
            let version = server.stateless.clone().unwrap();
            server.send(json!({
            "jsonrpc": "2.0", "id": "listen", "method": "subscriptions/listen",
            "params": {
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": version,
                    "io.modelcontextprotocol/clientCapabilities": {}
                },
                "notifications": { "resourceSubscriptions": [hello], "resourcesListChanged": true }
            }
        }));
            let ack = server.notification("notifications/subscriptions/acknowledged");
            assert_eq!(
                ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
                "listen"
            );
        } else {
            let reply = server.request("resources/subscribe", json!({ "uri": hello }));
            assert_eq!(reply["result"], json!({}), "{reply}");
        }
        std::fs::write(root.join("hello.txt"), "changed, and longer\n").unwrap();
        let updated = server.notification("notifications/resources/updated");
        assert_eq!(updated["params"]["uri"], hello.as_str(), "{updated}");

        std::fs::write(root.join("new.txt"), "new\n").unwrap();
        server.notification("notifications/resources/list_changed");

        if newest_stateful().is_some() {
            // The folder is polled, and each poll's changes are told after the last poll's. A
            // change of `inner.md` (subscribed to) made once the previous one's update came is
            // seen by a later poll than anything done before it: once its update comes, all
            // those earlier polls saw has been told. (`inner.md` is replaced whole, one change;
            // a plain write may be seen as two, truncated then written.)
            let inner_path = root.join("notes").join("inner.md");
            let inner = uri(&inner_path);
            let mut changes = 0;
            let mut later_poll = |server: &mut Server| {
                changes += 1;
                // A new size each time: a change within the clock's granularity is still seen.
                let text = format!("# inner, version {}\n", "+".repeat(changes));
                let staged = scratch.join("inner.md.staged");
                std::fs::write(&staged, text).unwrap();
                std::fs::rename(&staged, &inner_path).unwrap();
                server.update_of(&inner);
            };
            let reply = server.request("resources/subscribe", json!({ "uri": inner }));
            assert_eq!(reply["result"], json!({}), "{reply}");
            // The poll that saw `new.txt` saw the writes to `hello.txt` before it: past it,
            // `hello.txt` told all it will of them.
            later_poll(&mut server);
            server.notifications.clear();

            let reply = server.request("resources/unsubscribe", json!({ "uri": hello }));
            assert_eq!(reply["result"], json!({}), "{reply}");
            std::fs::write(root.join("hello.txt"), "changed again, unsubscribed\n").unwrap();
            // The first poll past the write may be the one that sees it: the second is after.
            later_poll(&mut server);
            later_poll(&mut server);
            assert!(
                !server
                    .notifications
                    .iter()
                    .any(|n| n["params"]["uri"] == hello.as_str()),
                "an update after unsubscribing: {:?}",
                server.notifications
            );
        }
    }

    #[test]
    fn the_server_negotiates_every_revision_with_initialize() {
        let (_, root) = fixture("server-negotiate");
        for version in ProtocolVersion::SUPPORTED
            .iter()
            .filter(|v| STATEFUL.contains(&v.as_str()))
        {
            let mut server = Server::start(&root, 10);
            let reply = server.request(
                "initialize",
                json!({
                    "protocolVersion": version.as_str(),
                    "capabilities": {},
                    "clientInfo": { "name": "test", "version": "1" }
                }),
            );
            let result = &reply["result"];
            assert_eq!(result["protocolVersion"], version.as_str(), "{reply}");
            assert_eq!(
                result["capabilities"]["resources"],
                json!({ "subscribe": true, "listChanged": true })
            );
            // Later messages are read in the negotiated revision.
            let reply = server.request("ping", json!({}));
            assert_eq!(reply["result"], json!({}), "{reply}");
            let reply = server.request("initialize", json!({}));
            assert!(reply.get("error").is_some(), "{reply}");
        }
        if let Some(newest) = newest_stateful() {
            // An unknown version: the newest revision that has `initialize`.
            let mut server = Server::start(&root, 10);
            let reply = server.request(
                "initialize",
                json!({
                    "protocolVersion": "1999-01-01",
                    "capabilities": {},
                    "clientInfo": { "name": "test", "version": "1" }
                }),
            );
            assert_eq!(
                reply["result"]["protocolVersion"],
                newest.as_str(),
                "{reply}"
            );
        }
    }

    #[cfg(feature = "v2026_07_28")]
    #[test]
    fn the_server_speaks_the_stateless_revision() {
        let (_, root) = fixture("server-stateless");
        let mut server = Server::start(&root, 10);
        server.stateless = Some("2026-07-28".to_owned());
        let reply = server.request("server/discover", json!({}));
        let result = &reply["result"];
        assert!(
            result["supportedVersions"]
                .as_array()
                .unwrap()
                .contains(&json!("2026-07-28")),
            "{reply}"
        );
        assert_eq!(result["resultType"], "complete");
        let reply = server.request(
            "resources/read",
            json!({ "uri": uri(&root.join("hello.txt")) }),
        );
        assert_eq!(reply["result"]["contents"][0]["text"], "hello\n", "{reply}");

        server.stateless = Some("2099-01-01".to_owned());
        let reply = server.request("resources/list", json!({}));
        assert_eq!(error_code(&reply), -32022, "{reply}");
        assert_eq!(reply["error"]["data"]["requested"], "2099-01-01");

        // Neither a session nor the version a stateless request names: the stateless
        // revision's reader says what is missing, and where.
        server.stateless = None;
        let reply = server.request("resources/list", json!({}));
        assert_eq!(error_code(&reply), -32602, "{reply}");
        assert_eq!(reply["error"]["data"]["path"], "params", "{reply}");
    }
}
