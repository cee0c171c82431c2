//! Emits `ProtocolVersion` from the revision table, so a new row there is a new variant.

use crate::manifest::Revision;
use quote::{format_ident, quote};

pub fn generate(revisions: &[Revision]) -> Result<String, String> {
    let variant = |r: &Revision| {
        if r.revision == "draft" {
            format_ident!("Draft")
        } else {
            format_ident!("V{}", r.revision.replace('-', "_"))
        }
    };
    let latest = revisions
        .iter()
        .find(|r| r.status == "latest")
        .ok_or("revisions.json marks no revision as latest")?;
    let latest = variant(latest);
    let variants = revisions.iter().map(|r| {
        let v = variant(r);
        let doc = format!(" Revision {}.", r.revision);
        quote!(#[doc = #doc] #v,)
    });
    let as_str = revisions.iter().map(|r| {
        let v = variant(r);
        let s = &r.revision;
        quote!(ProtocolVersion::#v => #s,)
    });
    let from_str = revisions.iter().map(|r| {
        let v = variant(r);
        let s = &r.revision;
        quote!(#s => ProtocolVersion::#v,)
    });
    let all = revisions.iter().map(|r| {
        let v = variant(r);
        quote!(ProtocolVersion::#v,)
    });
    // Newest first, so negotiation's fallback is the first entry.
    let supported = revisions.iter().rev().map(|r| {
        let v = variant(r);
        let feature = &r.feature;
        quote!(#[cfg(feature = #feature)] ProtocolVersion::#v,)
    });
    let released_newest_first = revisions
        .iter()
        .rev()
        .filter(|r| r.status != "draft")
        .map(|r| {
            let v = variant(r);
            let feature = &r.feature;
            quote!(#[cfg(feature = #feature)] ProtocolVersion::#v,)
        });
    let tokens = quote! {
        /// A protocol version string, as exchanged in `initialize` or carried in `_meta`.
        ///
        /// Every revision the crate knows is a variant, whether or not its feature is enabled;
        /// any other string is [`ProtocolVersion::Unknown`].
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ProtocolVersion {
            #(#variants)*
            /// A version string this crate does not know, kept as sent.
            Unknown(::alloc::string::String),
        }

        impl ProtocolVersion {
            /// The latest released revision.
            pub const LATEST: ProtocolVersion = ProtocolVersion::#latest;

            /// Every revision the crate knows, oldest first.
            pub const KNOWN: &'static [ProtocolVersion] = &[#(#all)*];

            /// The revisions this build supports (their features are enabled), newest first;
            /// the draft, when enabled, comes before the released ones.
            pub const SUPPORTED: &'static [ProtocolVersion] = &[#(#supported)*];

            /// The released revisions this build supports, newest first.
            pub const SUPPORTED_RELEASED: &'static [ProtocolVersion] = &[#(#released_newest_first)*];

            /// The version string.
            pub fn as_str(&self) -> &str {
                match self {
                    #(#as_str)*
                    ProtocolVersion::Unknown(s) => s,
                }
            }

            /// Looks a known version up without allocating.
            pub fn known(version: &str) -> ::core::option::Option<ProtocolVersion> {
                ::core::option::Option::Some(match version {
                    #(#from_str)*
                    _ => return ::core::option::Option::None,
                })
            }
        }
    };
    Ok(tokens.to_string())
}

/// `pub use crate::<module> as latest;` for the newest released revision whose feature is
/// enabled, one `cfg` per revision so exactly one applies (none when no released revision is).
pub fn latest_alias(revisions: &[Revision]) -> String {
    let released: Vec<&Revision> = revisions
        .iter()
        .rev()
        .filter(|r| r.status != "draft")
        .collect();
    let aliases = released.iter().enumerate().map(|(index, r)| {
        let module = format_ident!("{}", r.module);
        let feature = &r.feature;
        let newer = released[..index].iter().map(|n| &n.feature);
        let doc = format!(
            " The newest released revision this build includes: here [`{}`] (revision {}).\n\n \
             This alias moves to each new revision as it is released and enabled: code that \
             must stay on one revision names its module instead.",
            r.module, r.revision
        );
        quote! {
            #[doc = #doc]
            #[cfg(all(feature = #feature, not(any(#(feature = #newer),*))))]
            pub use crate::#module as latest;
        }
    });
    quote!(#(#aliases)*).to_string()
}
