//! The runtime's entry points (runtime/src/runtime/) that generated code calls: one table,
//! each name written once, here.
//!
//! The emitters never write a runtime name themselves. They interpolate an [`Entry`] of this
//! table (`quote!(#READ_MEMBER(&mut slot, &mut map, "uri")?)` emits
//! `crate::__private::read_member(...)`), and a member's reader is looked up by what the member
//! holds and what is checked on it ([`member_reader`]), not made by editing another name.
//!
//! The table is checked at build time, both ways:
//! - the build writes it as the body of `crate::__private` (`OUT_DIR/runtime_entry_points.rs`,
//!   included by src/__private.rs): one `pub use mcp_spec_types_runtime::runtime::name;`
//!   per entry, under the entry's feature. An entry the runtime lacks is an unresolved import
//!   naming it, in the crate's own build, whichever revisions are enabled and before any
//!   generated type is compiled. A test would only check the feature set it runs with, and only when run;
//! - [`check_generated`] fails the build when generated code names a `crate::__private` item
//!   the table does not list (a path written by hand into an emitter).

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, ToTokens};

/// One entry point: its name in the runtime and the crate feature it exists under, if any.
#[derive(Clone, Copy)]
pub struct Entry {
    name: &'static str,
    feature: Option<&'static str>,
}

/// An entry interpolates as its path: `crate::__private::name`.
impl ToTokens for Entry {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let name = Ident::new(self.name, Span::call_site());
        tokens.extend(quote!(crate::__private::#name));
    }
}

/// Declares each entry as a constant (its name taken from the runtime's identifier as it is)
/// and lists every one in [`ALL`], so that no entry can be left out of the check.
macro_rules! entries {
    ($($(#[doc = $doc:literal])* $constant:ident = $name:ident $(if $feature:literal)?;)*) => {
        $(
            $(#[doc = $doc])*
            pub const $constant: Entry = Entry {
                name: stringify!($name),
                feature: entries!(@feature $($feature)?),
            };
        )*
        /// Every entry point, in the order `crate::__private` lists them.
        pub const ALL: &[Entry] = &[$($constant),*];
    };
    (@feature) => { None };
    (@feature $feature:literal) => { Some($feature) };
}

entries! {
    // Member lookup and member reads (runtime/src/runtime/members.rs).
    /// A member name read from the input: declared (by index) or unknown.
    MEMBER = Member;
    /// Reads a member name, looked up by the type's own function.
    MEMBER_SEED = MemberSeed;
    /// Reads a declared member into its slot.
    READ_MEMBER = read_member;
    /// Reads an array member, recording a failing element's index.
    READ_ARRAY_MEMBER = read_array_member;
    /// Reads an array of generated objects, each built where the array stores it.
    READ_OBJECT_ARRAY_MEMBER = read_object_array_member;
    /// Reads a map member, recording a failing value's key.
    READ_MAP_MEMBER = read_map_member;
    /// Reads an undeclared member into `extra`.
    READ_EXTRA = read_extra;
    /// Puts a JSON value into `extra` (tests and fuzz targets).
    PUT_EXTRA = put_extra;
    /// The error of writing a declared member found in `extra`.
    DECLARED_IN_EXTRA = declared_in_extra;
    /// Takes a required member out of its slot.
    REQUIRED = required;
    // Constants (runtime/src/runtime/consts.rs).
    /// A value fixed by `const`.
    CONST_VALUE = ConstValue;
    /// Writes a constant member.
    SERIALIZE_CONST = serialize_const;
    /// Reads and checks a required constant member.
    READ_CONST = read_const;
    /// Reads and checks an optional constant member.
    READ_OPTIONAL_CONST = read_optional_const;
    /// Fails when a required constant was absent.
    REQUIRE_CONST = require_const;
    // Visitors (runtime/src/runtime/visitors.rs).
    /// What every generated object type implements.
    OBJECT = Object;
    /// The JSON names `new` takes, for the constructor tests (runtime/src/runtime/constructors.rs).
    CONSTRUCTED = Constructed;
    /// The visitor of every generated object type.
    OBJECT_VISITOR = ObjectVisitor;
    /// What every generated enum of string values implements.
    STRING_ENUM = StringEnum;
    /// The visitor of every generated enum of string values.
    STRING_ENUM_VISITOR = StringEnumVisitor;
    /// What every union with a string discriminator implements.
    TAGGED = Tagged;
    /// The visitor of unions with a string discriminator.
    TAGGED_VISITOR = TaggedVisitor;
    /// What every union whose arms own a member implements.
    KEYED = Keyed;
    /// The visitor of unions whose arms own a member.
    KEYED_VISITOR = KeyedVisitor;
    // Arm selection (runtime/src/runtime/arms.rs).
    /// What an arm requires of a value.
    ARM_SHAPE = ArmShape;
    /// The JSON kind an arm accepts.
    KIND = Kind;
    /// Picks a union's arm for a value read in full.
    SELECT_ARM = select_arm;
    /// Reads the picked arm from the value.
    FROM_BUFFERED = from_buffered;
    /// The message for an arm index out of range.
    UNREACHABLE_ARM = unreachable_arm;
    // Bounds (runtime/src/runtime/bounds.rs).
    /// The numeric and count bounds of a member.
    BOUNDS = Bounds;
    /// [`READ_MEMBER`] checking bounds.
    READ_BOUNDED_MEMBER = read_bounded_member;
    /// [`READ_ARRAY_MEMBER`] checking bounds.
    READ_BOUNDED_ARRAY_MEMBER = read_bounded_array_member;
    // Other validation keywords (runtime/src/runtime/keywords.rs).
    /// A member's keywords beyond the bounds.
    KEYWORDS = Keywords;
    /// An object's own keywords.
    OBJECT_KEYWORDS = ObjectKeywords;
    /// A compiled `pattern`.
    PATTERN = Pattern if "pattern";
    /// A JSON literal (a non-string `enum`).
    LITERAL = Literal;
    /// [`READ_MEMBER`] checking keywords.
    READ_CHECKED_MEMBER = read_checked_member;
    /// [`READ_ARRAY_MEMBER`] checking keywords.
    READ_CHECKED_ARRAY_MEMBER = read_checked_array_member;
    /// [`READ_MAP_MEMBER`] checking keywords.
    READ_CHECKED_MAP_MEMBER = read_checked_map_member;
    /// Checks an object's own keywords.
    CHECK_OBJECT = check_object;
    // The official schema (runtime/src/runtime/schema.rs).
    /// A type's official schema, for `schemars`.
    OFFICIAL_SCHEMA = official_schema if "schemars";
    // Tasks (runtime/src/runtime/tasks.rs).
    /// Whether a request asks to run as a task.
    ASKS_FOR_TASK = AsksForTask;
}

/// What a member holds, as far as choosing its reader goes.
#[derive(Clone, Copy, Debug)]
pub enum Holds {
    /// One value.
    Value,
    /// An array (`Vec<T>`): a failure names the element.
    Array,
    /// An array of a generated object type: each element is also built where the array
    /// stores it.
    ObjectArray,
    /// A map (`BTreeMap<String, V>`): a failure names the key.
    Map,
}

/// What is checked on a member once read.
#[derive(Clone, Copy, Debug)]
pub enum Checked {
    /// Nothing beyond its type.
    Nothing,
    /// Numeric and count bounds, on the Rust value.
    Bounds,
    /// Other keywords too, on the JSON value.
    Keywords,
}

/// The reader of a member that holds `holds` and has `checked` checked.
pub fn member_reader(holds: Holds, checked: Checked) -> Result<Entry, String> {
    Ok(match (holds, checked) {
        (Holds::Value, Checked::Nothing) => READ_MEMBER,
        (Holds::Array, Checked::Nothing) => READ_ARRAY_MEMBER,
        (Holds::ObjectArray, Checked::Nothing) => READ_OBJECT_ARRAY_MEMBER,
        (Holds::Map, Checked::Nothing) => READ_MAP_MEMBER,
        (Holds::Value, Checked::Bounds) => READ_BOUNDED_MEMBER,
        (Holds::Array | Holds::ObjectArray, Checked::Bounds) => READ_BOUNDED_ARRAY_MEMBER,
        (Holds::Map, Checked::Bounds) => {
            return Err(
                "a map member with numeric or count bounds: no bound applies to an \
                        object, and the runtime has no reader for one"
                    .into(),
            )
        }
        (Holds::Value, Checked::Keywords) => READ_CHECKED_MEMBER,
        (Holds::Array | Holds::ObjectArray, Checked::Keywords) => READ_CHECKED_ARRAY_MEMBER,
        (Holds::Map, Checked::Keywords) => READ_CHECKED_MAP_MEMBER,
    })
}

/// The body of `crate::__private`: the table as re-exports of the runtime.
pub fn entry_points() -> String {
    let mut out = String::from(
        "// Generated by mcp-spec-types' build script from codegen/runtime_api.rs: the runtime's\n\
         // entry points the generated code calls. An unresolved import here is an entry the\n\
         // runtime (runtime/src/runtime/) lacks.\n",
    );
    for entry in ALL {
        if let Some(feature) = entry.feature {
            out.push_str(&format!("#[cfg(feature = \"{feature}\")]\n"));
        }
        out.push_str(&format!(
            "pub use mcp_spec_types_runtime::runtime::{};\n",
            entry.name
        ));
    }
    out
}

/// Fails when `code` (generated Rust, as written to a file) names a `crate::__private` item the
/// table does not list. Tokens may stand apart (`crate :: __private :: name`): the text is
/// written as tokens print, not formatted.
pub fn check_generated(code: &str) -> Result<(), String> {
    const MODULE: &str = "__private";
    let mut offset = 0;
    while let Some(at) = code[offset..].find(MODULE) {
        let start = offset + at;
        offset = start + MODULE.len();
        let before = code[..start].trim_end();
        let in_crate = before
            .strip_suffix("::")
            .is_some_and(|b| b.trim_end().ends_with("crate"));
        let after = code[offset..].trim_start();
        let Some(after) = after.strip_prefix("::").filter(|_| in_crate) else {
            continue;
        };
        let after = after.trim_start();
        let end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..end];
        if !ALL.iter().any(|entry| entry.name == name) {
            return Err(format!(
                "generated code calls crate::__private::{name}, which codegen/runtime_api.rs \
                 does not list"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_generated;

    #[test]
    fn an_unlisted_private_item_is_refused_however_the_tokens_are_spaced() {
        for code in [
            "crate::__private::no_such_entry(x)",
            "crate :: __private :: no_such_entry (x)",
        ] {
            let error = check_generated(code).expect_err(code);
            assert!(error.contains("no_such_entry"), "{error}");
        }
        for code in ["crate::__private::Object", "crate :: __private :: Object"] {
            assert_eq!(check_generated(code), Ok(()), "{code}");
        }
    }
}
