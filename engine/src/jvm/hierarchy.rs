//! The class hierarchy of a module as its class files show it: supertypes and subtypes, the
//! class that declares a field or method seen from another, canonical (source) names of nested
//! classes, and whether a class or member can be named from another class (JVMS 5.4.4, JLS 6.6).
//!
//! Classes outside the module (the JDK, libraries) are unknown: they have no supertypes here and
//! are taken to be visible unless their name looks anonymous.

use std::collections::{BTreeMap, BTreeSet};

use super::classfile::{AccessFlags, ClassFile, InnerClass};
use super::descriptor::{is_anonymous_name, package_of, primitive_name};

/// Guard against cycles in crafted class hierarchies and nesting.
const MAX_DEPTH: usize = 64;

/// The module's classes, indexed by binary name, and their nesting.
#[derive(Debug)]
pub struct Hierarchy<'a> {
    /// The classes by binary name (a name seen twice keeps its first class file).
    pub classes: BTreeMap<&'a str, &'a ClassFile>,
    /// Nested classes' `InnerClasses` entries, by the nested class's name (its own file's entry
    /// when there is one).
    nested: BTreeMap<&'a str, &'a InnerClass>,
}

impl<'a> Hierarchy<'a> {
    /// Indexes `list`; a class name seen twice keeps its first class file.
    pub fn new(list: &'a [ClassFile]) -> Self {
        let mut classes = BTreeMap::new();
        for class in list {
            classes.entry(class.name.as_str()).or_insert(class);
        }
        let mut nested = BTreeMap::new();
        for class in classes.values() {
            if let Some(own) = class.own_inner_entry() {
                nested.insert(own.inner.as_str(), own);
            }
        }
        for class in classes.values() {
            for entry in &class.inner_classes {
                nested.entry(entry.inner.as_str()).or_insert(entry);
            }
        }
        Hierarchy { classes, nested }
    }

    /// The module's class of that binary name.
    pub fn get(&self, name: &str) -> Option<&'a ClassFile> {
        self.classes.get(name).copied()
    }

    /// The direct supertypes of a module class.
    pub fn supers(&self, name: &str) -> Vec<&'a str> {
        self.get(name)
            .map(|c| {
                c.super_class
                    .iter()
                    .chain(&c.interfaces)
                    .map(String::as_str)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether `from` is `to` or (as far as the module shows) a subtype of it.
    pub fn is_assignable(&self, from: &str, to: &str) -> bool {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(current) = todo.pop() {
            if current == to {
                return true;
            }
            if seen.len() > 4 * MAX_DEPTH || !seen.insert(current.clone()) {
                continue;
            }
            todo.extend(self.supers(&current).into_iter().map(str::to_string));
        }
        false
    }

    /// `T`, its supertypes and its subtypes among the module's classes.
    pub fn related(&self, t: &str) -> BTreeSet<String> {
        let mut out: BTreeSet<String> = self
            .classes
            .keys()
            .filter(|c| self.is_assignable(c, t) || self.is_assignable(t, c))
            .map(|c| c.to_string())
            .collect();
        out.insert(t.to_string());
        out
    }

    /// The class that declares field `name` as seen from `owner` (walking superclasses).
    pub fn resolve_field(&self, owner: &str, name: &str) -> String {
        let mut current = owner.to_string();
        for _ in 0..MAX_DEPTH {
            let Some(class) = self.get(&current) else {
                break;
            };
            if class.field(name).is_some() {
                return current;
            }
            match &class.super_class {
                Some(s) => current = s.clone(),
                None => break,
            }
        }
        owner.to_string()
    }

    /// The class that declares method `name``descriptor` as seen from `owner`.
    pub fn resolve_method(&self, owner: &str, name: &str, descriptor: &str) -> String {
        let mut current = owner.to_string();
        for _ in 0..MAX_DEPTH {
            let Some(class) = self.get(&current) else {
                break;
            };
            if class.method(name, descriptor).is_some() {
                return current;
            }
            match &class.super_class {
                Some(s) => current = s.clone(),
                None => break,
            }
        }
        owner.to_string()
    }

    /// `com.acme.Outer$Inner` → `com.acme.Outer.Inner`: nesting as the module's `InnerClasses`
    /// say, `$` → `.` for classes outside the module.
    pub fn canonical(&self, name: &str) -> String {
        if let Some(element) = name.strip_prefix('[') {
            return format!("{}[]", self.canonical_descriptor(element));
        }
        let mut parts = Vec::new();
        let mut current = name;
        for _ in 0..MAX_DEPTH {
            match self.nested.get(current) {
                Some(InnerClass {
                    outer: Some(outer),
                    simple_name: Some(simple),
                    ..
                }) => {
                    parts.push(simple.as_str());
                    current = outer;
                }
                _ => break,
            }
        }
        let mut out = if self.classes.contains_key(current) {
            current.to_string()
        } else {
            current.replace('$', ".")
        };
        for part in parts.iter().rev() {
            out.push('.');
            out.push_str(part);
        }
        out
    }

    /// The Java type of a (dotted or slashed) field descriptor.
    pub fn canonical_descriptor(&self, descriptor: &str) -> String {
        match descriptor.as_bytes().first() {
            Some(b'[') => format!("{}[]", self.canonical_descriptor(&descriptor[1..])),
            Some(b'L') => self.canonical(&descriptor[1..].trim_end_matches(';').replace('/', ".")),
            Some(&c) => primitive_name(c).unwrap_or("?").to_string(),
            None => "?".to_string(),
        }
    }

    /// The class that directly encloses the member class `name` (none for a top-level, local or
    /// anonymous class).
    pub fn enclosing(&self, name: &str) -> Option<&'a str> {
        self.nested.get(name).and_then(|e| e.outer.as_deref())
    }

    /// The top-level class that encloses `name` (itself when it is top-level).
    pub fn outermost<'n>(&'n self, name: &'n str) -> &'n str {
        let mut current = name;
        for _ in 0..MAX_DEPTH {
            match self.nested.get(current).and_then(|e| e.outer.as_deref()) {
                Some(outer) => current = outer,
                None => break,
            }
        }
        current
    }

    /// Whether the class `name` can be named from `from`.
    pub fn class_visible(&self, name: &str, from: &Viewpoint) -> bool {
        self.class_visible_at(name, from, 0)
    }

    fn class_visible_at(&self, name: &str, from: &Viewpoint, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        if self.outermost(name) == from.outermost {
            return true;
        }
        if let Some(class) = self.get(name) {
            if class.is_local_or_anonymous() || class.access.is_synthetic() {
                return false;
            }
        }
        match self.nested.get(name) {
            Some(entry) => match &entry.outer {
                None => false,
                Some(outer) => {
                    let own = entry.access.is_public()
                        || (!entry.access.is_private() && package_of(name) == from.package);
                    own && self.class_visible_at(outer, from, depth + 1)
                }
            },
            None => match self.get(name) {
                Some(class) => class.access.is_public() || package_of(name) == from.package,
                // Outside the module (the JDK, a library): assumed visible unless anonymous.
                None => !is_anonymous_name(name),
            },
        }
    }

    /// Whether a member of `owner` with `access` can be named from `from`.
    pub fn member_visible(&self, owner: &str, access: AccessFlags, from: &Viewpoint) -> bool {
        self.class_visible(owner, from)
            && (access.is_public()
                || self.outermost(owner) == from.outermost
                || (!access.is_private() && package_of(owner) == from.package))
    }
}

/// Where code is compiled: a class's package and top-level class.
#[derive(Debug, Clone)]
pub struct Viewpoint {
    /// The package (`com.acme`; empty for the default package).
    pub package: String,
    /// The top-level class enclosing it.
    pub outermost: String,
}

impl Viewpoint {
    /// The viewpoint of code compiled into `class` (a binary name).
    pub fn of(hierarchy: &Hierarchy<'_>, class: &str) -> Self {
        Viewpoint {
            package: package_of(class).to_string(),
            outermost: hierarchy.outermost(class).to_string(),
        }
    }
}
