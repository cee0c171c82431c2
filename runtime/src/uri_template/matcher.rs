//! Matching a URI against a template: a backtracking matcher that memoizes every
//! (program position, URI position) state it visits.

use super::encoding::{hex_value, is_pct_triplet, is_reserved, is_unreserved, percent_decode};
use super::syntax_tree::{Expression, Literal, Modifier, Operator, Part};
use super::values::{VarValue, Variables};
use crate::prelude::*;

//
// The template is compiled to a small backtracking program in the style of a
// regex VM. Every value is a lazy loop over "units" (one allowed byte, one
// percent-encoded triplet or one non-ASCII character), and every choice is a
// `Split` whose first branch has priority. Marks logged along the successful
// path delimit the captured values. Memoizing visited (pc, position) pairs is
// sound because the outcome from a state never depends on how it was reached,
// and it bounds the work by the number of such pairs.

/// Bound on program length × (URI length + 1), i.e. bits of memo table.
pub(super) const MAX_STATES: usize = 1 << 28;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    Unreserved,
    UnreservedReserved,
}

// Here rather than with `Operator`: the characters an operator lets through are a matching
// concern, and the syntax tree does not depend on the matcher.
impl Operator {
    fn class(self) -> Class {
        if self.allows_reserved() {
            Class::UnreservedReserved
        } else {
            Class::Unreserved
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Mark {
    /// The variable occurrence with this index is present (defined).
    Present(usize),
    SpanStart,
    SpanEnd,
    ItemEnd,
}

#[derive(Debug)]
pub(super) enum Inst<'t> {
    Lit(&'t str),
    Unit(Class),
    Split(usize, usize),
    Jmp(usize),
    Mark(Mark),
    Match,
}

/// Byte ranges of the values captured for one item of a variable: one for a
/// plain value, two for a `key=value` pair.
pub(super) type Item = Vec<(usize, usize)>;

pub(super) struct Occurrence<'t> {
    pub(super) name: &'t str,
    pub(super) op: Operator,
    pub(super) explode: bool,
}

pub(super) struct Program<'t> {
    pub(super) insts: Vec<Inst<'t>>,
    pub(super) occurrences: Vec<Occurrence<'t>>,
    /// Class and exit pc of every value loop, for the ambiguity check.
    pub(super) loops: Vec<(Class, usize)>,
    /// Where `{;var}` continues without `=`: '=' must not start what follows.
    pub(super) eq_optional: Vec<usize>,
}

/// Length of the value unit starting at `pos`, if there is one. Units are
/// whole characters, so a value can never end inside one: an allowed ASCII
/// byte, a raw non-ASCII character, or the percent-encoded triplets of one
/// complete UTF-8 character (`%C3%A9`). Percent-encoded bytes that are not
/// UTF-8 (`%FF`) are not units, so such URIs do not match.
pub(super) fn unit_len(uri: &str, pos: usize, class: Class) -> Option<usize> {
    let bytes = uri.as_bytes();
    let b = *bytes.get(pos)?;
    if b == b'%' {
        pct_char_len(bytes, pos)
    } else if b.is_ascii() {
        (is_unreserved(b) || (class == Class::UnreservedReserved && is_reserved(b))).then_some(1)
    } else {
        uri.get(pos..)?.chars().next().map(char::len_utf8)
    }
}

/// Length of the triplets at `pos` that encode one UTF-8 character.
pub(super) fn pct_char_len(bytes: &[u8], pos: usize) -> Option<usize> {
    let mut buf = [0u8; 4];
    for len in 1..=buf.len() {
        let at = pos + 3 * (len - 1);
        if !is_pct_triplet(bytes, at) {
            return None;
        }
        let hi = bytes.get(at + 1).copied().map_or(0, hex_value);
        let lo = bytes.get(at + 2).copied().map_or(0, hex_value);
        *buf.get_mut(len - 1)? = hi << 4 | lo;
        // `error_len() == None` means "valid so far, needs more bytes".
        match core::str::from_utf8(buf.get(..len)?) {
            Ok(_) => return Some(3 * len),
            Err(e) if e.error_len().is_some() => return None,
            Err(_) => {}
        }
    }
    None
}

/// Bytes that can start a unit in an *expanded* value, which is pure ASCII.
pub(super) fn expanded_unit_start(b: u8, class: Class) -> bool {
    b == b'%' || is_unreserved(b) || (class == Class::UnreservedReserved && is_reserved(b))
}

impl<'t> Program<'t> {
    /// `None` when the template uses a prefix modifier.
    pub(super) fn compile(parts: &'t [Part]) -> Option<Self> {
        let mut program = Program {
            insts: Vec::new(),
            occurrences: Vec::new(),
            loops: Vec::new(),
            eq_optional: Vec::new(),
        };
        for part in parts {
            match part {
                Part::Literal(lit) => program.literal(lit),
                Part::Expression(expr) => program.expression(expr)?,
            }
        }
        program.emit(Inst::Match);
        Some(program)
    }

    pub(super) fn emit(&mut self, inst: Inst<'t>) -> usize {
        self.insts.push(inst);
        self.insts.len() - 1
    }

    pub(super) fn here(&self) -> usize {
        self.insts.len()
    }

    pub(super) fn patch(&mut self, at: usize, inst: Inst<'t>) {
        if let Some(slot) = self.insts.get_mut(at) {
            *slot = inst;
        }
    }

    pub(super) fn lit(&mut self, s: &'t str) {
        if !s.is_empty() {
            self.emit(Inst::Lit(s));
        }
    }

    pub(super) fn literal(&mut self, lit: &'t Literal) {
        if lit.expanded == lit.raw {
            self.lit(&lit.expanded);
            return;
        }
        let split = self.emit(Inst::Split(0, 0));
        let expanded = self.here();
        self.lit(&lit.expanded);
        let jump = self.emit(Inst::Jmp(0));
        let raw = self.here();
        self.lit(&lit.raw);
        let end = self.here();
        self.patch(split, Inst::Split(expanded, raw));
        self.patch(jump, Inst::Jmp(end));
    }

    /// A value: the shortest run of units that lets the rest match.
    pub(super) fn capture(&mut self, class: Class) {
        self.emit(Inst::Mark(Mark::SpanStart));
        let head = self.emit(Inst::Split(0, 0));
        let body = self.emit(Inst::Unit(class));
        self.emit(Inst::Jmp(head));
        let exit = self.here();
        self.patch(head, Inst::Split(exit, body));
        self.loops.push((class, exit));
        self.emit(Inst::Mark(Mark::SpanEnd));
    }

    /// Like [`Program::capture`], but at least one unit long.
    pub(super) fn capture_nonempty(&mut self, class: Class) {
        self.emit(Inst::Mark(Mark::SpanStart));
        let body = self.emit(Inst::Unit(class));
        let tail = self.emit(Inst::Split(0, 0));
        let exit = self.here();
        self.patch(tail, Inst::Split(exit, body));
        self.loops.push((class, exit));
        self.emit(Inst::Mark(Mark::SpanEnd));
    }

    /// `=value` as the `;` operator writes it: present for non-empty values,
    /// left out for empty ones (`;x`, never `;x=`). The form with `=` has
    /// priority.
    pub(super) fn optional_eq_value(&mut self) {
        let split = self.emit(Inst::Split(0, 0));
        let with_eq = self.here();
        self.lit("=");
        self.capture_nonempty(Class::Unreserved);
        let join = self.here();
        self.patch(split, Inst::Split(with_eq, join));
        self.eq_optional.push(join);
    }

    pub(super) fn expression(&mut self, expr: &'t Expression) -> Option<()> {
        let op = expr.op;
        let count = expr.vars.len();
        // Each variable gets two entry points, depending on whether an earlier
        // variable of the expression was present: the first present one is
        // preceded by `first`, the others by `sep`.
        for (index, spec) in expr.vars.iter().enumerate() {
            let explode = match spec.modifier {
                Modifier::Prefix(_) => return None,
                Modifier::Explode => true,
                Modifier::None => false,
            };
            let occurrence = self.occurrences.len();
            self.occurrences.push(Occurrence {
                name: &spec.name,
                op,
                explode,
            });
            let entry_first = self.emit(Inst::Split(0, 0));
            let entry_sep = self.emit(Inst::Split(0, 0));
            let present_first = self.here();
            self.lit(op.first());
            let to_item = self.emit(Inst::Jmp(0));
            let present_sep = self.here();
            self.lit(op.sep());
            let item = self.here();
            self.patch(to_item, Inst::Jmp(item));
            self.emit(Inst::Mark(Mark::Present(occurrence)));
            if explode {
                self.exploded_items(op);
            } else {
                self.single_item(&spec.name, op);
            }
            let done = self.emit(Inst::Jmp(0));
            let next_first = self.here();
            let next_sep = if index + 1 < count {
                next_first + 1
            } else {
                next_first
            };
            self.patch(entry_first, Inst::Split(present_first, next_first));
            self.patch(entry_sep, Inst::Split(present_sep, next_sep));
            self.patch(done, Inst::Jmp(next_sep));
        }
        Some(())
    }

    pub(super) fn single_item(&mut self, name: &'t str, op: Operator) {
        match op {
            Operator::PathParam => {
                self.lit(name);
                self.optional_eq_value();
            }
            Operator::Query | Operator::QueryCont => {
                self.lit(name);
                self.lit("=");
                self.capture(Class::Unreserved);
            }
            _ => self.capture(op.class()),
        }
        self.emit(Inst::Mark(Mark::ItemEnd));
    }

    pub(super) fn exploded_items(&mut self, op: Operator) {
        match op {
            Operator::Reserved | Operator::Fragment => {
                self.item_loop(op, |p| p.capture(Class::UnreservedReserved));
            }
            Operator::Simple | Operator::Label | Operator::Path => {
                // `=` is encoded in these values, so a raw one marks a map
                // pair. Lists and maps get separate loops so that items are
                // never a mix of both.
                let split = self.emit(Inst::Split(0, 0));
                let list = self.here();
                self.item_loop(op, |p| p.capture(Class::Unreserved));
                let jump = self.emit(Inst::Jmp(0));
                let map = self.here();
                self.item_loop(op, |p| {
                    p.capture(Class::Unreserved);
                    p.lit("=");
                    p.capture(Class::Unreserved);
                });
                let end = self.here();
                self.patch(split, Inst::Split(list, map));
                self.patch(jump, Inst::Jmp(end));
            }
            Operator::PathParam => self.item_loop(op, |p| {
                p.capture(Class::Unreserved);
                p.optional_eq_value();
            }),
            Operator::Query | Operator::QueryCont => self.item_loop(op, |p| {
                p.capture(Class::Unreserved);
                p.lit("=");
                p.capture(Class::Unreserved);
            }),
        }
    }

    /// One or more items separated by the operator's separator, as few as
    /// possible.
    pub(super) fn item_loop(&mut self, op: Operator, item: impl Fn(&mut Self)) {
        let start = self.here();
        item(self);
        self.emit(Inst::Mark(Mark::ItemEnd));
        let split = self.emit(Inst::Split(0, 0));
        let more = self.here();
        self.lit(op.sep());
        self.emit(Inst::Jmp(start));
        let done = self.here();
        self.patch(split, Inst::Split(done, more));
    }

    /// Runs the program on `uri`; returns the marks of the highest-priority
    /// successful path.
    pub(super) fn run(&self, uri: &str) -> Option<Vec<(Mark, usize)>> {
        let bytes = uri.as_bytes();
        let positions = bytes.len().checked_add(1)?;
        let states = self.insts.len().checked_mul(positions)?;
        if states > MAX_STATES {
            return None;
        }
        let mut visited = vec![0u64; states.div_ceil(64)];
        let mut log: Vec<(Mark, usize)> = Vec::new();
        // Alternatives still to try: (pc, position, log length to restore).
        let mut stack: Vec<(usize, usize, usize)> = vec![(0, 0, 0)];
        while let Some((mut pc, mut pos, log_len)) = stack.pop() {
            log.truncate(log_len);
            loop {
                let state = pc * positions + pos;
                let word = visited.get_mut(state / 64)?;
                let bit = 1u64 << (state % 64);
                if *word & bit != 0 {
                    break;
                }
                *word |= bit;
                match self.insts.get(pc)? {
                    Inst::Match if pos == bytes.len() => return Some(log),
                    Inst::Match => break,
                    Inst::Lit(s) => {
                        if !bytes
                            .get(pos..)
                            .is_some_and(|rest| rest.starts_with(s.as_bytes()))
                        {
                            break;
                        }
                        pos += s.len();
                        pc += 1;
                    }
                    Inst::Unit(class) => match unit_len(uri, pos, *class) {
                        Some(len) => {
                            pos += len;
                            pc += 1;
                        }
                        None => break,
                    },
                    Inst::Split(first, second) => {
                        stack.push((*second, pos, log.len()));
                        pc = *first;
                    }
                    Inst::Jmp(target) => pc = *target,
                    Inst::Mark(mark) => {
                        log.push((*mark, pos));
                        pc += 1;
                    }
                }
            }
        }
        None
    }

    /// Turns the marks of a successful run into variables.
    pub(super) fn collect(&self, uri: &str, log: &[(Mark, usize)]) -> Option<Variables> {
        // Per occurrence: None if absent, else its items, each a list of spans.
        let mut found: Vec<Option<Vec<Item>>> = (0..self.occurrences.len()).map(|_| None).collect();
        let mut current: Option<usize> = None;
        let mut spans: Item = Vec::new();
        let mut span_start = 0;
        for &(mark, pos) in log {
            match mark {
                Mark::Present(occurrence) => {
                    current = Some(occurrence);
                    spans.clear();
                    *found.get_mut(occurrence)? = Some(Vec::new());
                }
                Mark::SpanStart => span_start = pos,
                Mark::SpanEnd => spans.push((span_start, pos)),
                Mark::ItemEnd => {
                    let items = found.get_mut(current?)?.as_mut()?;
                    items.push(core::mem::take(&mut spans));
                }
            }
        }

        let mut vars = Variables::new();
        for (occurrence, items) in self.occurrences.iter().zip(&found) {
            let Some(items) = items else { continue };
            let value = occurrence.value(uri, items)?;
            match vars.get(occurrence.name) {
                Some(previous) if *previous != value => return None,
                Some(_) => {}
                None => {
                    vars.set(occurrence.name, value);
                }
            }
        }
        Some(vars)
    }

    /// See [`UriTemplate::is_unambiguous`]. Matching prefers shorter values,
    /// so the expansion's own decomposition is found first unless cutting a
    /// value short could also let the rest match. That is ruled out when the
    /// rest is a fixed literal up to the end (its position is forced) or when
    /// the rest cannot start with any byte of an expanded value. For `{;var}`
    /// the `=value` branch is tried before the bare name, so `=` must not be
    /// able to start what follows the bare name.
    pub(super) fn is_unambiguous(&self) -> bool {
        if self.occurrences.iter().any(|o| o.explode) {
            return false;
        }
        let loops_ok = self.loops.iter().all(|&(class, exit)| {
            if self.literal_tail(exit) {
                return true;
            }
            let first = self.first_bytes(exit);
            !(0..=u8::MAX).any(|b| first[usize::from(b)] && expanded_unit_start(b, class))
        });
        loops_ok
            && self
                .eq_optional
                .iter()
                .all(|&join| !self.first_bytes(join)[usize::from(b'=')])
    }

    /// Whether only fixed literal text can follow `pc` up to the end.
    pub(super) fn literal_tail(&self, mut pc: usize) -> bool {
        for _ in 0..=self.insts.len() {
            match self.insts.get(pc) {
                Some(Inst::Lit(_) | Inst::Mark(_)) => pc += 1,
                Some(Inst::Jmp(target)) => pc = *target,
                Some(Inst::Match) => return true,
                _ => return false,
            }
        }
        false
    }

    /// Bytes that can be the first one consumed from `pc` on.
    pub(super) fn first_bytes(&self, start: usize) -> [bool; 256] {
        let mut set = [false; 256];
        let mut seen = vec![false; self.insts.len()];
        let mut todo = vec![start];
        while let Some(pc) = todo.pop() {
            match seen.get_mut(pc) {
                Some(seen) if !*seen => *seen = true,
                _ => continue,
            }
            match self.insts.get(pc) {
                Some(Inst::Lit(s)) => {
                    if let Some(&b) = s.as_bytes().first() {
                        set[usize::from(b)] = true;
                    }
                }
                Some(Inst::Unit(class)) => {
                    for b in 0..=u8::MAX {
                        // Non-ASCII bytes matter too: a raw literal may start
                        // with one, and so may a URI that was not expanded.
                        if !b.is_ascii() || expanded_unit_start(b, *class) {
                            set[usize::from(b)] = true;
                        }
                    }
                }
                Some(Inst::Split(a, b)) => {
                    todo.push(*a);
                    todo.push(*b);
                }
                Some(Inst::Jmp(target)) => todo.push(*target),
                Some(Inst::Mark(_)) => todo.push(pc + 1),
                Some(Inst::Match) | None => {}
            }
        }
        set
    }
}

impl Occurrence<'_> {
    pub(super) fn value(&self, uri: &str, items: &[Item]) -> Option<VarValue> {
        let text = |&(start, end): &(usize, usize)| uri.get(start..end);
        let decoded = |span: Option<&(usize, usize)>| match span {
            Some(span) => percent_decode(text(span)?),
            None => Some(String::new()),
        };
        if !self.explode {
            let spans = items.first()?;
            return decoded(spans.first()).map(VarValue::String);
        }
        if self.op.named() {
            let is_list = items
                .iter()
                .all(|spans| spans.first().and_then(text) == Some(self.name));
            return if is_list {
                items
                    .iter()
                    .map(|spans| decoded(spans.get(1)))
                    .collect::<Option<Vec<_>>>()
                    .map(VarValue::List)
            } else {
                items
                    .iter()
                    .map(|spans| Some((decoded(spans.first())?, decoded(spans.get(1))?)))
                    .collect::<Option<Vec<_>>>()
                    .map(VarValue::Map)
            };
        }
        if items.iter().all(|spans| spans.len() == 1) {
            items
                .iter()
                .map(|spans| decoded(spans.first()))
                .collect::<Option<Vec<_>>>()
                .map(VarValue::List)
        } else if items.iter().all(|spans| spans.len() == 2) {
            items
                .iter()
                .map(|spans| Some((decoded(spans.first())?, decoded(spans.get(1))?)))
                .collect::<Option<Vec<_>>>()
                .map(VarValue::Map)
        } else {
            None
        }
    }
}
