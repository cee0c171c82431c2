//! The walk of a value against the member tables of every revision (generated from the
//! schemas by `codegen/members.rs`): what a place holds in each revision, and which members
//! the target revision does not define and another does (see the [module](super)).

use crate::prelude::*;
use serde_json::{Map, Value};

/// What a schema holds, as far as members go (see `codegen/members.rs`).
#[derive(Debug, Clone, Copy)]
pub(super) enum Shape {
    Leaf,
    Free,
    /// An index into the revision's objects.
    Object(usize),
    Array(&'static Shape),
    Map(&'static Shape),
    AnyOf(&'static [Shape]),
}

#[derive(Debug)]
pub(super) struct Object {
    members: &'static [(&'static str, Shape)],
    /// Members with a `const` value, as JSON text.
    consts: &'static [(&'static str, &'static str)],
    required: &'static [&'static str],
}

#[derive(Debug)]
pub(super) struct Revision {
    name: &'static str,
    objects: &'static [Object],
    /// By definition name, sorted.
    pub(super) definitions: &'static [(&'static str, Shape)],
    /// By method (requests and notifications), sorted.
    pub(super) calls: &'static [(&'static str, Shape)],
    /// Each request's result, by method, sorted.
    pub(super) results: &'static [(&'static str, Shape)],
}

include!(concat!(env!("OUT_DIR"), "/member_tables.rs"));

pub(super) fn lookup(list: &'static [(&'static str, Shape)], name: &str) -> Option<Shape> {
    // A short list (the methods, their results) is scanned, lengths compared first: most
    // names differ in length, and a method's result is looked up in every revision each call.
    if list.len() <= 64 {
        let found = list
            .iter()
            .find(|(key, _)| key.len() == name.len() && *key == name);
        return found.map(|(_, shape)| *shape);
    }
    list.binary_search_by(|(key, _)| (*key).cmp(name))
        .ok()
        .map(|index| list[index].1)
}

/// Calls `each` with every arm of `shape` (unions flattened), allocating nothing.
pub(super) fn arms(shape: Shape, each: &mut dyn FnMut(Shape)) {
    match shape {
        Shape::AnyOf(inner) => inner.iter().for_each(|arm| arms(*arm, each)),
        shape => each(shape),
    }
}

pub(super) fn object_of(revision: &'static Revision, shape: Shape) -> Option<&'static Object> {
    match shape {
        Shape::Object(index) => revision.objects.get(index),
        _ => None,
    }
}

pub(super) fn member(object: &Object, name: &str) -> Option<Shape> {
    object
        .members
        .iter()
        .find(|(member, _)| *member == name)
        .map(|(_, shape)| *shape)
}

/// Whether `map` can be an instance of `object` as far as its `const` members go (and, when
/// `strict`, its required members).
fn fits(object: &Object, map: &Map<String, Value>, strict: bool) -> bool {
    let consts = object
        .consts
        .iter()
        .all(|(name, text)| match map.get(*name) {
            Some(value) => is_const(text, value),
            None => !object.required.contains(name),
        });
    consts && (!strict || object.required.iter().all(|name| map.contains_key(*name)))
}

/// Whether `value` is the JSON `text` of a `const`. A string without escapes (`"text"`,
/// `"complete"`: the consts that tell union arms apart in results and calls) is compared as it
/// is, with no JSON read; any other (the error codes of the error definitions) is read first.
fn is_const(text: &str, value: &Value) -> bool {
    let plain = text
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .filter(|inner| !inner.contains(['\\', '"']));
    match plain {
        Some(inner) => value.as_str() == Some(inner),
        None => crate::json::from_str::<Value>(text).is_ok_and(|c| c == *value),
    }
}

/// The walk of one value against the member tables. Each place's shapes, and the objects that
/// fit at it, live in two buffers used as stacks: a place is a range of the first, pushed on
/// the way down and cut on the way up, so a walk allocates only as the buffers grow.
struct Walk {
    shapes: Vec<(&'static Revision, Shape)>,
    objects: Vec<(&'static Revision, &'static Object)>,
    /// The JSON path of the value being walked, when the dropped members' paths are wanted.
    path: Option<String>,
    dropped: Vec<String>,
}

type Span = core::ops::Range<usize>;

/// The shapes every revision has at the place being walked: pushed, or left to push from the
/// place around it when first needed (an array's items, whose objects the target's shapes
/// often settle alone: a list of text content).
#[derive(Clone)]
enum All {
    Here(Span),
    Inner(Span, fn(Shape) -> Option<Shape>),
}

fn array_items(shape: Shape) -> Option<Shape> {
    match shape {
        Shape::Array(inner) => Some(*inner),
        _ => None,
    }
}

fn map_values(shape: Shape) -> Option<Shape> {
    match shape {
        Shape::Map(inner) => Some(*inner),
        _ => None,
    }
}

impl Walk {
    fn new(record: bool) -> Self {
        // Room for a result's place in every revision and a few levels below it: most walks
        // allocate once for each buffer.
        Walk {
            shapes: Vec::with_capacity(64),
            objects: Vec::with_capacity(16),
            path: record.then(String::new),
            dropped: Vec::new(),
        }
    }

    /// Pushes every arm of the shapes `select` gives for the shapes in `from`; their range.
    fn push_inner(&mut self, from: &Span, select: &fn(Shape) -> Option<Shape>) -> Span {
        let start = self.shapes.len();
        for at in from.clone() {
            let (revision, shape) = self.shapes[at];
            if let Some(inner) = select(shape) {
                self.push_arms(revision, inner);
            }
        }
        start..self.shapes.len()
    }

    fn push_arms(&mut self, revision: &'static Revision, shape: Shape) {
        match shape {
            Shape::AnyOf(arms) => {
                for arm in arms {
                    self.push_arms(revision, *arm);
                }
            }
            shape => self.shapes.push((revision, shape)),
        }
    }

    /// Pushes the objects of `place` that `map` fits (see [`fits`]); their range.
    fn push_fitting(&mut self, place: &Span, map: &Map<String, Value>, strict: bool) -> Span {
        let start = self.objects.len();
        for at in place.clone() {
            let (revision, shape) = self.shapes[at];
            if let Some(object) = object_of(revision, shape) {
                if fits(object, map, strict) {
                    self.objects.push((revision, object));
                }
            }
        }
        start..self.objects.len()
    }

    /// Pushes what the objects in `objects` declare member `key` to hold; their range.
    fn push_declared(&mut self, objects: &Span, key: &str) -> Span {
        let start = self.shapes.len();
        for at in objects.clone() {
            let (revision, object) = self.objects[at];
            if let Some(shape) = member(object, key) {
                self.push_arms(revision, shape);
            }
        }
        start..self.shapes.len()
    }

    /// Whether the objects in `mine` declare `key` as a leaf or as free JSON alone: a member
    /// kept as it is, with nothing to walk into.
    fn settled(&self, mine: &Span, key: &str) -> bool {
        let (mut any, mut leaves, mut free) = (false, true, false);
        for (_, object) in &self.objects[mine.clone()] {
            if let Some(shape) = member(object, key) {
                arms(shape, &mut |arm| {
                    any = true;
                    leaves &= matches!(arm, Shape::Leaf);
                    free |= matches!(arm, Shape::Free);
                });
            }
        }
        any && (leaves || free)
    }

    /// Runs `walk` with `key` (a member) appended to the path.
    fn member<T>(&mut self, key: &str, walk: impl FnOnce(&mut Self) -> T) -> T {
        let at = self.path.as_mut().map(|path| {
            let at = path.len();
            if at > 0 {
                path.push('.');
            }
            path.push_str(key);
            at
        });
        let walked = walk(self);
        if let (Some(path), Some(at)) = (self.path.as_mut(), at) {
            path.truncate(at);
        }
        walked
    }

    /// Runs `walk` with `[index]` appended to the path.
    fn item<T>(&mut self, index: usize, walk: impl FnOnce(&mut Self) -> T) -> T {
        use core::fmt::Write;
        let at = self.path.as_mut().map(|path| {
            let at = path.len();
            let _ = write!(path, "[{index}]");
            at
        });
        let walked = walk(self);
        if let (Some(path), Some(at)) = (self.path.as_mut(), at) {
            path.truncate(at);
        }
        walked
    }

    /// Records member `key` of the value being walked as dropped.
    fn drop_member(&mut self, key: &str) {
        if self.path.is_some() {
            let path = self.member(key, |walk| walk.path.clone());
            self.dropped.extend(path);
        }
    }

    /// The shapes `all` stands for, pushed now if they were left for later.
    fn resolve(&mut self, all: &All) -> Span {
        match all {
            All::Here(span) => span.clone(),
            All::Inner(outer, select) => self.push_inner(outer, select),
        }
    }

    /// Drops from `value` what the shapes in `all` declare and those in `target` do not.
    fn strip(&mut self, value: &mut Value, target: Span, all: All) {
        let (shapes, objects) = (self.shapes.len(), self.objects.len());
        match value {
            Value::Array(items) => {
                let target = self.push_inner(&target, &(array_items as fn(_) -> _));
                if !target.is_empty() {
                    let all = All::Inner(self.resolve(&all), array_items);
                    for (index, item) in items.iter_mut().enumerate() {
                        let (target, all) = (target.clone(), all.clone());
                        self.item(index, |walk| walk.strip(item, target, all));
                    }
                }
            }
            Value::Object(map) => self.strip_object(map, target, all),
            _ => {}
        }
        self.shapes.truncate(shapes);
        self.objects.truncate(objects);
    }

    fn strip_object(&mut self, map: &mut Map<String, Value>, target: Span, all: All) {
        let mut mine = self.push_fitting(&target, map, true);
        if mine.is_empty() {
            // A value the target cannot read: its reader will say why; drop what the
            // closest arms tell apart meanwhile.
            mine = self.push_fitting(&target, map, false);
        }
        if mine.is_empty() {
            // An object whose values all have one shape (`additionalProperties`).
            let target = self.push_inner(&target, &(map_values as fn(_) -> _));
            if !target.is_empty() {
                let all = All::Inner(self.resolve(&all), map_values);
                for (key, value) in map.iter_mut() {
                    let (target, all) = (target.clone(), all.clone());
                    self.member(key, |walk| walk.strip(value, target, all));
                }
            }
            return;
        }
        if map.keys().all(|key| self.settled(&mine, key)) {
            return;
        }
        let all = self.resolve(&all);
        let theirs = self.push_fitting(&all, map, false);
        map.retain(|key, inner| {
            if self.settled(&mine, key) {
                return true;
            }
            let shapes = self.shapes.len();
            let declared = self.push_declared(&mine, key);
            let keep = if !declared.is_empty() {
                let others = self.push_declared(&theirs, key);
                self.member(key, |walk| walk.strip(inner, declared, All::Here(others)));
                true
            } else if self.objects[theirs.clone()]
                .iter()
                .any(|(_, object)| member(object, key).is_some())
            {
                self.drop_member(key);
                false
            } else {
                true
            };
            self.shapes.truncate(shapes);
            keep
        });
    }
}

pub(super) fn revision(name: &str) -> Option<&'static Revision> {
    REVISIONS.iter().copied().find(|r| r.name == name)
}

/// Drops from `value` (at the place `select` names in each revision) what revision `target`
/// does not define and another does; returns the dropped paths when `record` (none
/// otherwise). Nothing is dropped when the target does not have the place.
pub(super) fn strip_for(
    target: &str,
    select: &dyn Fn(&'static Revision) -> Option<Shape>,
    value: &mut Value,
    record: bool,
) -> Vec<String> {
    let mut walk = Walk::new(record);
    if let Some(target) = revision(target) {
        if let Some(shape) = select(target) {
            walk.push_arms(target, shape);
        }
    }
    let mine = 0..walk.shapes.len();
    for revision in REVISIONS {
        if let Some(shape) = select(revision) {
            walk.push_arms(revision, shape);
        }
    }
    let all = mine.end..walk.shapes.len();
    if !mine.is_empty() {
        walk.strip(value, mine, All::Here(all));
    }
    walk.dropped
}

/// Drops what the target revision's `definition` does not define from `value` (already that
/// definition's JSON in some revision), returning the dropped paths.
pub(super) fn strip_definition(definition: &str, target: &str, value: &mut Value) -> Vec<String> {
    strip_for(target, &|r| lookup(r.definitions, definition), value, true)
}
