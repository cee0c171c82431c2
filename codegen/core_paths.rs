//! Generated code names `core` and `alloc`, never `std`, so that it compiles in the crate's
//! `no_std` build as it does in the `std` one.
//!
//! typify and the emitters write `::std::option::Option`, `::std::string::String`, ...; each
//! such path is rewritten to the crate that defines the item (`std` only re-exports `core` and
//! `alloc`), so the two builds compile the same items. [`check`] then fails the build on any
//! `std` path left, for instance one inside a macro's tokens, which the syntax tree does not
//! look into.

use syn::visit_mut::VisitMut;

/// The modules of `std` that are `alloc`'s; every other module a generated path names is
/// `core`'s.
const ALLOC_MODULES: &[&str] = &["string", "vec", "boxed", "borrow", "collections", "format"];

/// Rewrites every `::std::<module>::...` path in `file` to `::core::` or `::alloc::`.
/// typify also names the prelude's items bare (`String`, `.to_string()`), so every module of
/// the file glob-imports the crate's own prelude (`runtime/src/prelude.rs`: the same names, from
/// `alloc`); a generated item of the same name shadows a glob import.
pub fn rewrite(file: &mut syn::File) {
    ToCoreAndAlloc.visit_file_mut(file);
    with_prelude(&mut file.items);
}

fn with_prelude(items: &mut Vec<syn::Item>) {
    for item in items.iter_mut() {
        if let syn::Item::Mod(syn::ItemMod {
            content: Some((_, inner)),
            ..
        }) = item
        {
            with_prelude(inner);
        }
    }
    items.insert(
        0,
        syn::parse_quote!(
            #[allow(unused_imports)]
            use crate::prelude::*;
        ),
    );
}

struct ToCoreAndAlloc;

impl VisitMut for ToCoreAndAlloc {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if path.leading_colon.is_some()
            && path.segments.len() >= 2
            && path.segments[0].ident == "std"
        {
            let module = path.segments[1].ident.to_string();
            let home = if ALLOC_MODULES.contains(&module.as_str()) {
                "alloc"
            } else {
                "core"
            };
            path.segments[0].ident = syn::Ident::new(home, path.segments[0].ident.span());
        }
        syn::visit_mut::visit_path_mut(self, path);
    }
}

/// Fails when `code` (formatted, or a token stream's text) still names `std` in a path.
pub fn check(code: &str) -> Result<(), String> {
    let mut rest = code;
    let mut offset = 0;
    while let Some(at) = rest.find("std") {
        let before = code[..offset + at].trim_end();
        let after = rest[at + 3..].trim_start();
        let whole_word = !before.ends_with(|c: char| c.is_alphanumeric() || c == '_');
        if whole_word && before.ends_with("::") && after.starts_with("::") {
            let line = code[..offset + at].matches('\n').count() + 1;
            return Err(format!(
                "generated code names std at line {line} (`{}`): the no_std build cannot \
                 compile it; codegen/core_paths.rs rewrites only paths outside macro tokens",
                code[offset + at..].lines().next().unwrap_or_default()
            ));
        }
        offset += at + 3;
        rest = &rest[at + 3..];
    }
    Ok(())
}
