//! Expansion of one expression.

use super::encoding::{encode_into, prefix};
use super::syntax_tree::{Expression, Modifier};
use super::values::{VarLookup, VarValue};
use crate::prelude::*;

pub(super) fn expand_expression<V: VarLookup + ?Sized>(
    expr: &Expression,
    vars: &V,
    out: &mut String,
) {
    let op = expr.op;
    let allow = op.allows_reserved();
    let mut first = true;
    for spec in &expr.vars {
        let Some(value) = vars.lookup(&spec.name).filter(|v| v.is_defined()) else {
            continue;
        };
        out.push_str(if first { op.first() } else { op.sep() });
        first = false;
        let explode = spec.modifier == Modifier::Explode;
        match value {
            VarValue::String(s) => {
                if op.named() {
                    out.push_str(&spec.name);
                    if s.is_empty() {
                        out.push_str(op.ifemp());
                        continue;
                    }
                    out.push('=');
                }
                let s = match spec.modifier {
                    Modifier::Prefix(n) => prefix(s, n, allow),
                    _ => s,
                };
                encode_into(out, s, allow);
            }
            VarValue::List(items) if explode => {
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        out.push_str(op.sep());
                    }
                    if op.named() {
                        out.push_str(&spec.name);
                        if item.is_empty() {
                            out.push_str(op.ifemp());
                            continue;
                        }
                        out.push('=');
                    }
                    encode_into(out, item, allow);
                }
            }
            VarValue::List(items) => {
                if op.named() {
                    out.push_str(&spec.name);
                    out.push('=');
                }
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    encode_into(out, item, allow);
                }
            }
            VarValue::Map(pairs) if explode => {
                for (k, (key, val)) in pairs.iter().enumerate() {
                    if k > 0 {
                        out.push_str(op.sep());
                    }
                    encode_into(out, key, allow);
                    if op.named() && val.is_empty() {
                        out.push_str(op.ifemp());
                        continue;
                    }
                    out.push('=');
                    encode_into(out, val, allow);
                }
            }
            VarValue::Map(pairs) => {
                if op.named() {
                    out.push_str(&spec.name);
                    out.push('=');
                }
                for (k, (key, val)) in pairs.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    encode_into(out, key, allow);
                    out.push(',');
                    encode_into(out, val, allow);
                }
            }
        }
    }
}
