//! Task augmentation (revision 2025-11-25): a request whose params carry `task` asks to run as
//! a task and is answered with `CreateTaskResult` instead of its own result. Which requests can
//! ask is read from the schema: their params definition has a `task` member referencing
//! `TaskMetadata`, or is a union every arm of which has one.

use crate::normalize::{ref_name, Facts};
use crate::rewrite::Rewritten;
use crate::runtime_api::ASKS_FOR_TASK;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;
use std::collections::BTreeSet;

/// What the schema says about tasks, when the revision has them.
pub struct Tasks {
    /// The Rust type of `CreateTaskResult`.
    pub create_result: syn::Ident,
    /// The request definitions that can ask to run as a task (`CallToolRequest`, ...).
    pub requests: BTreeSet<String>,
    /// `impl AsksForTask` for every params type involved.
    pub impls: TokenStream,
}

/// Reads the revision's task facts; `None` for a revision without `CreateTaskResult`.
pub fn tasks(
    facts: &Facts,
    rewritten: &Rewritten,
    rust_name: &dyn Fn(&str) -> Result<String, String>,
) -> Result<Option<Tasks>, String> {
    if !facts.definitions.contains_key("CreateTaskResult") {
        return Ok(None);
    }
    let mut requests = BTreeSet::new();
    let mut params_types = BTreeSet::new();
    for (definition, schema) in &facts.definitions {
        let Some(params) = schema.pointer("/properties/params") else {
            continue;
        };
        let Some(params_definition) = ref_name(params) else {
            continue;
        };
        if asks_for_task(facts, &params_definition) {
            requests.insert(definition.clone());
            params_types.insert(params_definition);
        }
    }
    if requests.is_empty() {
        return Err("the schema defines CreateTaskResult but no request can ask for a task".into());
    }
    let mut impls = TokenStream::new();
    let mut done = BTreeSet::new();
    for definition in &params_types {
        emit_impl(
            facts, rewritten, rust_name, definition, &mut done, &mut impls,
        )?;
    }
    Ok(Some(Tasks {
        create_result: format_ident!("{}", rust_name("CreateTaskResult")?),
        requests,
        impls,
    }))
}

/// Whether `definition` has a `task` member referencing `TaskMetadata`, or is a union all of
/// whose arms do.
fn asks_for_task(facts: &Facts, definition: &str) -> bool {
    let Some(schema) = facts.definitions.get(definition) else {
        return false;
    };
    if let Some(task) = schema.pointer("/properties/task") {
        return ref_name(task).as_deref() == Some("TaskMetadata");
    }
    match schema.get("oneOf").and_then(Value::as_array) {
        Some(arms) if !arms.is_empty() => arms
            .iter()
            .all(|arm| ref_name(arm).is_some_and(|name| asks_for_task(facts, &name))),
        _ => false,
    }
}

fn emit_impl(
    facts: &Facts,
    rewritten: &Rewritten,
    rust_name: &dyn Fn(&str) -> Result<String, String>,
    definition: &str,
    done: &mut BTreeSet<String>,
    out: &mut TokenStream,
) -> Result<(), String> {
    if !done.insert(definition.to_owned()) {
        return Ok(());
    }
    let rust = rust_name(definition)?;
    let ty = format_ident!("{rust}");
    if let Some(info) = rewritten.structs.get(&rust) {
        let (field, _, _) = info
            .fields
            .iter()
            .find(|(_, json, _)| json == "task")
            .ok_or(format!("{rust} has no `task` field"))?;
        let field = format_ident!("{field}");
        out.extend(quote! {
            impl #ASKS_FOR_TASK for #ty {
                fn asks_for_task(&self) -> bool {
                    self.#field.is_some()
                }
            }
        });
        return Ok(());
    }
    // A union: each arm answers for itself.
    let arms = facts
        .definitions
        .get(definition)
        .and_then(|d| d.get("oneOf"))
        .and_then(Value::as_array)
        .ok_or(format!("{definition} is neither a struct nor a union"))?;
    for arm in arms.iter().filter_map(ref_name) {
        emit_impl(facts, rewritten, rust_name, &arm, done, out)?;
    }
    let item = rewritten
        .file
        .items
        .iter()
        .find_map(|item| match item {
            syn::Item::Enum(e) if e.ident == rust => Some(e),
            _ => None,
        })
        .ok_or(format!("no Rust enum {rust} for union {definition}"))?;
    let variants = item.variants.iter().map(|v| {
        let v = &v.ident;
        quote!(Self::#v(arm) => #ASKS_FOR_TASK::asks_for_task(arm),)
    });
    out.extend(quote! {
        impl #ASKS_FOR_TASK for #ty {
            fn asks_for_task(&self) -> bool {
                match self {
                    #(#variants)*
                }
            }
        }
    });
    Ok(())
}
