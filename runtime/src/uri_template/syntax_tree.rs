//! The parsed template: operators, variable specifications, expressions and literals.

use crate::prelude::*;
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Operator {
    Simple,
    Reserved,
    Fragment,
    Label,
    Path,
    PathParam,
    Query,
    QueryCont,
}

impl Operator {
    /// Table from RFC 6570 appendix A.
    pub(super) fn first(self) -> &'static str {
        match self {
            Self::Simple | Self::Reserved => "",
            Self::Fragment => "#",
            Self::Label => ".",
            Self::Path => "/",
            Self::PathParam => ";",
            Self::Query => "?",
            Self::QueryCont => "&",
        }
    }

    pub(super) fn sep(self) -> &'static str {
        match self {
            Self::Simple | Self::Reserved | Self::Fragment => ",",
            Self::Label => ".",
            Self::Path => "/",
            Self::PathParam => ";",
            Self::Query | Self::QueryCont => "&",
        }
    }

    pub(super) fn named(self) -> bool {
        matches!(self, Self::PathParam | Self::Query | Self::QueryCont)
    }

    pub(super) fn ifemp(self) -> &'static str {
        match self {
            Self::Query | Self::QueryCont => "=",
            _ => "",
        }
    }

    pub(super) fn allows_reserved(self) -> bool {
        matches!(self, Self::Reserved | Self::Fragment)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Modifier {
    None,
    Prefix(usize),
    Explode,
}

#[derive(Debug, Clone)]
pub(super) struct VarSpec {
    pub(super) name: String,
    pub(super) modifier: Modifier,
}

#[derive(Debug, Clone)]
pub(super) struct Expression {
    pub(super) op: Operator,
    pub(super) vars: Vec<VarSpec>,
}

#[derive(Debug, Clone)]
pub(super) struct Literal {
    /// The literal with characters not allowed in URIs percent-encoded.
    pub(super) expanded: String,
    /// The literal as written in the template.
    pub(super) raw: String,
}

#[derive(Debug, Clone)]
pub(super) enum Part {
    Literal(Literal),
    Expression(Expression),
}
