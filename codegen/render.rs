//! The text of generated code: each item on its own line, as its tokens print.
//!
//! No formatter runs at build time: nobody reads `OUT_DIR`, and every build paid for one
//! (prettyplease compiled, then run over some 35k lines a revision). `cargo xtask expand` lays
//! a revision out for a reader; a compiler error in generated code still names its item's line.

use quote::ToTokens;

/// The items of `file`, one a line.
pub fn items(file: &syn::File) -> String {
    let mut text = String::new();
    for attr in &file.attrs {
        text.push_str(&attr.to_token_stream().to_string());
        text.push('\n');
    }
    for item in &file.items {
        text.push_str(&item.to_token_stream().to_string());
        text.push('\n');
    }
    text
}
