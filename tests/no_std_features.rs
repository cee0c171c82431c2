//! Without its `std` feature the crate is `#![no_std]`, and so is every runtime dependency it
//! builds: `cargo tree` says which features each package of the build has, and none may have
//! `std` (a dependency's `std` feature would link the standard library into a `no_std`
//! program). The compiler holds the crate itself to `core` and `alloc` (src/lib.rs), and
//! examples/no-std proves the whole build links without `std`.

use std::collections::BTreeMap;
use std::process::Command;

/// Each package of the build with its features, as `cargo tree` resolves them for the crate's
/// library with `features` (proc-macro and build dependencies run on the host, with `std`,
/// and are not part of what a program links).
fn package_features(default_features: bool, features: &str) -> BTreeMap<String, Vec<String>> {
    let mut command = Command::new(env!("CARGO"));
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "tree",
            "--locked",
            "--quiet",
            "--edges",
            "normal,no-proc-macro",
        ])
        .args([
            "--prefix",
            "none",
            "--format",
            "{p}|{f}",
            "--features",
            features,
        ]);
    if !default_features {
        command.arg("--no-default-features");
    }
    let output = command.output().expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let mut packages = BTreeMap::new();
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let (package, features) = line.split_once('|').expect("`{p}|{f}` lines");
        let name = package.split_whitespace().next().expect("a package name");
        let features = features.trim_end_matches(" (*)");
        packages.insert(
            name.to_owned(),
            features
                .split(',')
                .filter(|f| !f.is_empty())
                .map(str::to_owned)
                .collect(),
        );
    }
    packages
}

fn with_std(packages: &BTreeMap<String, Vec<String>>) -> Vec<&str> {
    packages
        .iter()
        .filter(|(_, features)| features.iter().any(|f| f == "std"))
        .map(|(name, _)| name.as_str())
        .collect()
}

#[test]
fn no_runtime_dependency_turns_on_std_without_the_std_feature() {
    for features in [
        "v2024_11_05",
        "v2025_03_26",
        "v2025_06_18 convert validate",
        "v2025_11_25 auth",
        "v2026_07_28 convert auth",
        "unstable-draft",
        "all-revisions unstable-draft convert auth",
    ] {
        let packages = package_features(false, features);
        for runtime in ["mcp-spec-types", "serde", "serde_json", "base64"] {
            assert!(
                packages.contains_key(runtime),
                "{features}: {runtime} is not in the build: {packages:?}"
            );
        }
        assert_eq!(
            with_std(&packages),
            Vec::<&str>::new(),
            "{features}: these packages build with `std`"
        );
    }
}

/// The check above sees `std` where it is on: with the default features, the crate and its
/// dependencies have it.
#[test]
fn the_default_features_build_with_std() {
    let packages = package_features(true, "auth");
    for package in ["mcp-spec-types", "serde", "serde_json", "base64", "sha2"] {
        assert!(
            with_std(&packages).contains(&package),
            "{package} lacks `std`: {packages:?}"
        );
    }
}

/// What needs `std` says so: `cli` (a program that reads files), `pattern` (regex-lite does
/// not build without it) and `schemars` turn it on.
#[test]
fn the_features_that_need_std_turn_it_on() {
    for features in [
        "v2026_07_28 cli",
        "v2026_07_28 pattern",
        "v2026_07_28 schemars",
    ] {
        let packages = package_features(false, features);
        assert!(
            with_std(&packages).contains(&"mcp-spec-types"),
            "{features}: {packages:?}"
        );
    }
}
