//! Which static fields a test reads and writes (issue 29, item 2), for `odrust:incremental`'s
//! field-level "selectmore": two tests are linked only when they use the *same* static field and
//! at least one of them writes it.
//!
//! **Call graph.** A node per method of the module's classes (`C.m(desc)`), read from the class
//! files; an edge from a method to:
//! - what it invokes: `invokestatic`/`invokespecial` to the method the reference resolves to
//!   (superclasses, then interfaces: a default method), `invokevirtual`/`invokeinterface` to that
//!   method and to every override in a subtype the module declares (class hierarchy analysis);
//! - the method handles of its `invokedynamic` call sites (a lambda's `lambda$..`, a method
//!   reference's target, taken as the call its handle kind makes: a virtual or interface method
//!   with its overrides, a constructor as `new`): they run when the function is called, which
//!   code the engine cannot follow;
//! - the static initializers of every class whose static member it uses or that it instantiates,
//!   and of its superclasses;
//! - for `new C`: the methods of `C` (and its superclasses in the module) that code outside the
//!   module may call back: `equals`, `hashCode`, `toString`, `compareTo`, and when `C` has a
//!   supertype outside the module other than `Object` (a `Runnable`, a library listener) its
//!   other non-private instance methods.
//!
//! A test class's code is every method of it, of its superclasses and their interfaces in the
//! module (default methods), and of the module classes their annotations name (JUnit calls test
//! methods, fixtures, rules and extensions by reflection).
//!
//! **Uses.** A field access is resolved to the class that declares the field. A field is *tracked*
//! when it is a static field of a module class that can change: not synthetic, and not final of
//! an immutable type ([`Immutability`]; so an enum constant is tracked only when its enum has a
//! field that can change). For a tracked field,
//! `putstatic` writes it; `getstatic` reads it, and of a field whose type is not immutable it also *uses* the
//! object, which may change it (`MAP.put`): a use counts as a write.
//!
//! **Initialization.** What a class's static initializer does to its own fields is neither: it
//! runs once per JVM, before any use, whichever test comes first. So is what the methods it calls
//! do to them (`LoggerFactory.<clinit>` calling `setLoggerAdapter`, which writes
//! `LoggerFactory.LOGGER_ADAPTER`), for a test that reaches those methods only through that initializer:
//! decided per test, a touch of a field of `Y` in method `m` is left out when every call chain
//! from the test's code to `m` passes through `Y.<clinit>` (the initializers of the test class,
//! of its superclasses and of the classes its annotations name are the test's code: what they
//! call counts). Computed as: `m` is not reached from
//! the test's code without entering a static initializer, and among the static initializers the
//! test reaches, `Y.<clinit>` is the only one that reaches `m` without entering another one. Code
//! that may run later than the initializer that made it — a lambda's body, a method reference's
//! target, the callbacks of a created object — counts as the test's own code: a `Timer` task
//! an initializer schedules writes whenever it runs.
//!
//! What cannot be seen: reflection, `MethodHandle`s made at run time, code of the JDK and of
//! libraries (a library that keeps a reference and calls it later), and fields of classes
//! outside the module.

use std::collections::{BTreeMap, BTreeSet};

use super::graph::ClassGraph;
use super::immutable::{superclass_chain, Immutability, MAX_DEPTH};
use crate::jvm::classfile::{ClassFile, Field, FieldOp, InvokeKind, Op};

/// How a test's code touches a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum How {
    /// `getstatic` of a field of an immutable type: the field's value is read.
    Reads,
    /// `getstatic` of a field holding an object that can change: the object may be changed.
    Uses,
    /// `putstatic`.
    Writes,
}

impl How {
    /// Whether this may change what another test sees.
    pub fn changes(self) -> bool {
        matches!(self, How::Uses | How::Writes)
    }

    /// `reads`, `uses`, `writes`.
    pub fn verb(self) -> &'static str {
        match self {
            How::Reads => "reads",
            How::Uses => "uses",
            How::Writes => "writes",
        }
    }
}

/// The tracked fields some code touches: `C.f` → the strongest way it does, and a shortest call
/// path from the code to a method that does (`Test.m -> Reg.put`, simple class names).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Uses {
    /// By field (`com.acme.Reg.MAP`).
    pub fields: BTreeMap<String, (How, String)>,
}

/// The module's methods as a call graph, with the tracked static fields each method touches.
#[derive(Debug)]
pub struct Statics<'a> {
    classes: &'a BTreeMap<String, &'a ClassFile>,
    graph: ClassGraph,
    /// Per method node, the tracked fields it touches directly.
    touches: BTreeMap<String, Vec<(String, How)>>,
    /// Methods that may run later than the code that leads to them: lambda bodies, method
    /// references' targets, callbacks of created objects.
    deferred: BTreeSet<String>,
    /// Per static initializer, the methods with touches it reaches without entering another
    /// initializer or a deferred method (remembered: they do not depend on the test).
    regions: std::cell::RefCell<BTreeMap<String, std::rc::Rc<BTreeSet<String>>>>,
}

/// Whether a node is a static initializer.
fn is_initializer(node: &str) -> bool {
    node.ends_with(".<clinit>()V")
}

/// `com.acme.Reg` + `put` + `(Ljava/lang/Object;)V` → the node `com.acme.Reg.put(Ljava/lang/Object;)V`.
fn node(class: &str, name: &str, descriptor: &str) -> String {
    format!("{class}.{name}{descriptor}")
}

/// A node as a person reads it: `Reg.put` (the class's simple binary name and the method).
fn shown(node: &str) -> String {
    let name = node.split('(').next().unwrap_or(node);
    let mut parts = name.rsplitn(3, '.');
    let method = parts.next().unwrap_or_default();
    let class = parts.next().unwrap_or_default();
    format!("{class}.{method}")
}

impl<'a> Statics<'a> {
    /// Reads `classes` (dotted binary names; the module's class directories and own jars).
    pub fn new(classes: &'a BTreeMap<String, &'a ClassFile>) -> Self {
        let immutable = Immutability::new(classes);
        let mut subtypes: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (name, class) in classes {
            for sup in class.super_class.iter().chain(&class.interfaces) {
                subtypes
                    .entry(sup.as_str())
                    .or_default()
                    .push(name.as_str());
            }
        }
        let builder = Builder {
            classes,
            subtypes,
            immutable,
            external: Default::default(),
            overrides: Default::default(),
            deferred: Default::default(),
        };
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut touches: BTreeMap<String, Vec<(String, How)>> = BTreeMap::new();
        for (name, class) in classes {
            for method in &class.methods {
                let from = node(name, &method.name, &method.descriptor);
                let (targets, fields) = builder.method(class, method);
                if !fields.is_empty() {
                    touches.insert(from.clone(), fields);
                }
                edges.insert(from, targets);
            }
        }
        Statics {
            classes,
            graph: ClassGraph::new(&edges),
            touches,
            deferred: builder.deferred.into_inner(),
            regions: Default::default(),
        }
    }

    /// What the code of a test class touches: every method of it, of its superclasses and of
    /// the interfaces they implement (default methods), and of the module's classes their
    /// annotations name (`@ExtendWith(Ext.class)`, `@RunWith`, rules' types: JUnit calls them).
    pub fn of_class(&self, test: &str) -> Uses {
        let entries: Vec<String> = self
            .test_code(test)
            .into_iter()
            .flat_map(|(c, _)| {
                c.methods
                    .iter()
                    .map(move |m| node(&c.name, &m.name, &m.descriptor))
            })
            .collect();
        self.uses(&entries)
    }

    /// The classes whose code runs as part of test class `test`, each with whether it is the
    /// test class or one of its superclasses (whose annotations count): those, their module
    /// interfaces, and the module classes their annotations name with their superclasses.
    fn test_code(&self, test: &str) -> Vec<(&'a ClassFile, bool)> {
        let mut out: Vec<(&'a ClassFile, bool)> =
            self.superclasses(test).map(|c| (c, true)).collect();
        let mut seen: BTreeSet<&str> = out.iter().map(|(c, _)| c.name.as_str()).collect();
        let mut i = 0;
        while i < out.len() && out.len() < 16 * MAX_DEPTH {
            let c = out[i].0;
            let own = out[i].1;
            let mut more: Vec<&str> = c.interfaces.iter().map(String::as_str).collect();
            if own {
                more.extend(c.annotations.iter().map(String::as_str));
                more.extend(c.annotation_references.iter().map(String::as_str));
            }
            for name in more {
                if seen.contains(name) {
                    continue;
                }
                for found in self.superclasses(name) {
                    if seen.insert(found.name.as_str()) {
                        out.push((found, false));
                    }
                }
            }
            i += 1;
        }
        out
    }

    /// The class and its superclasses in the module.
    fn superclasses(&self, name: &str) -> impl Iterator<Item = &'a ClassFile> {
        superclass_chain(self.classes, name).into_iter()
    }

    fn uses(&self, entries: &[String]) -> Uses {
        let starts: Vec<&str> = entries.iter().map(String::as_str).collect();
        let reach = self.graph.reach_from(&starts);
        let reached = reach.classes();
        // What runs outside any static initializer: the test's code, and deferred code
        // whatever made it.
        let mut own: Vec<&str> = starts.clone();
        own.extend(
            reached
                .iter()
                .copied()
                .filter(|n| self.deferred.contains(*n)),
        );
        let outside = self.graph.reach_avoiding(&own, is_initializer);
        let initializers: Vec<&str> = reached
            .iter()
            .copied()
            .filter(|n| is_initializer(n))
            .collect();
        let mut fields: BTreeMap<String, (How, String)> = BTreeMap::new();
        for method in reached {
            for (field, how) in self.touches.get(method).into_iter().flatten() {
                if !outside.contains(method)
                    && self.initialization_only(method, field, &initializers)
                {
                    continue;
                }
                let stronger = fields.get(field).is_none_or(|(known, _)| how > known);
                if stronger {
                    let path = reach
                        .path(method)
                        .unwrap_or_default()
                        .iter()
                        .map(|n| shown(n))
                        .collect::<Vec<_>>()
                        .join(" -> ");
                    fields.insert(field.clone(), (*how, path));
                }
            }
        }
        Uses { fields }
    }
}

impl Statics<'_> {
    /// Whether `method`, which the test reaches only through the static `initializers` it
    /// reaches, touches `field` only as part of its own class's initialization: of those
    /// initializers, only the field's class's own leads to `method` without entering another.
    fn initialization_only(&self, method: &str, field: &str, initializers: &[&str]) -> bool {
        let Some((owner, _)) = field.rsplit_once('.') else {
            return false;
        };
        let own = node(owner, "<clinit>", "()V");
        let mut through_own = false;
        for &initializer in initializers {
            if self.region(initializer).contains(method) {
                if initializer != own {
                    return false;
                }
                through_own = true;
            }
        }
        through_own
    }

    /// The methods with touches `initializer` reaches without entering another static
    /// initializer or a deferred method.
    fn region(&self, initializer: &str) -> std::rc::Rc<BTreeSet<String>> {
        if let Some(known) = self.regions.borrow().get(initializer) {
            return known.clone();
        }
        let reach = self.graph.reach_avoiding(&[initializer], |n| {
            is_initializer(n) || self.deferred.contains(n)
        });
        let found: BTreeSet<String> = reach
            .classes()
            .into_iter()
            .filter(|n| self.touches.contains_key(*n))
            .map(str::to_string)
            .collect();
        let found = std::rc::Rc::new(found);
        self.regions
            .borrow_mut()
            .insert(initializer.to_string(), found.clone());
        found
    }
}

/// What [`Statics::new`] needs while reading methods.
struct Builder<'a> {
    classes: &'a BTreeMap<String, &'a ClassFile>,
    /// Direct subtypes by supertype (supertypes outside the module included).
    subtypes: BTreeMap<&'a str, Vec<&'a str>>,
    immutable: Immutability<'a>,
    /// [`Builder::interface_external`]'s answers.
    external: std::cell::RefCell<BTreeMap<String, bool>>,
    /// The overrides of a virtual call's method in module subtypes, by (owner, name, descriptor).
    overrides: std::cell::RefCell<BTreeMap<(String, String, String), Vec<String>>>,
    /// Methods found to run later than the code that leads to them ([`Statics::deferred`]).
    deferred: std::cell::RefCell<BTreeSet<String>>,
}

impl<'a> Builder<'a> {
    /// The methods `method` of `class` leads to, and the tracked fields it touches.
    fn method(
        &self,
        class: &ClassFile,
        method: &crate::jvm::classfile::Method,
    ) -> (BTreeSet<String>, Vec<(String, How)>) {
        let mut targets = BTreeSet::new();
        let mut fields = Vec::new();
        if method.name == "<clinit>" {
            if let Some(sup) = &class.super_class {
                self.initializer(sup, &mut targets);
            }
        }
        let Some(code) = &method.code else {
            return (targets, fields);
        };
        // Run when the function the call site makes is called: maybe long after this code.
        let mut later = BTreeSet::new();
        for handle in &code.dynamic_targets {
            let m = &handle.member;
            match handle.kind {
                5 => self.invoke(
                    InvokeKind::Virtual,
                    &m.owner,
                    &m.name,
                    &m.descriptor,
                    &mut later,
                ),
                6 => self.invoke(
                    InvokeKind::Static,
                    &m.owner,
                    &m.name,
                    &m.descriptor,
                    &mut later,
                ),
                7 => self.invoke(
                    InvokeKind::Special,
                    &m.owner,
                    &m.name,
                    &m.descriptor,
                    &mut later,
                ),
                8 => {
                    self.initializer(&m.owner, &mut later);
                    self.callbacks(&m.owner, &mut later);
                    self.invoke(
                        InvokeKind::Special,
                        &m.owner,
                        &m.name,
                        &m.descriptor,
                        &mut later,
                    );
                }
                9 => self.invoke(
                    InvokeKind::Interface,
                    &m.owner,
                    &m.name,
                    &m.descriptor,
                    &mut later,
                ),
                // A field handle: getstatic/putstatic when called; rare, its class initialized.
                _ => self.initializer(&m.owner, &mut later),
            }
        }
        self.deferred
            .borrow_mut()
            .extend(later.iter().filter(|n| !is_initializer(n)).cloned());
        targets.extend(later);
        for instruction in &code.instructions {
            match &instruction.op {
                Op::Field { op, field } => {
                    let (declaring, f) = match self.declaring_field(&field.owner, &field.name) {
                        Some(found) => found,
                        None => continue,
                    };
                    self.initializer(&declaring.name, &mut targets);
                    if !matches!(op, FieldOp::GetStatic | FieldOp::PutStatic)
                        || !self.immutable.tracked(declaring, f)
                    {
                        continue;
                    }
                    if method.name == "<clinit>" && declaring.name == class.name {
                        // Its own initialization: once per JVM, whichever test comes first.
                        continue;
                    }
                    let how = match op {
                        FieldOp::PutStatic => How::Writes,
                        _ if self.immutable.descriptor(&f.descriptor) => How::Reads,
                        _ => How::Uses,
                    };
                    fields.push((format!("{}.{}", declaring.name, f.name), how));
                }
                Op::Invoke { kind, method, .. } => {
                    if *kind != InvokeKind::Dynamic {
                        self.invoke(
                            *kind,
                            &method.owner,
                            &method.name,
                            &method.descriptor,
                            &mut targets,
                        );
                    }
                }
                Op::New { class: created } => {
                    self.initializer(created, &mut targets);
                    self.callbacks(created, &mut targets);
                }
                Op::Const(_) => {}
            }
        }
        (targets, fields)
    }

    /// Where a call to `owner.name descriptor` leads: the method it resolves to (and the static
    /// initializer of its class, for `invokestatic`); for a virtual or interface call also every
    /// override in a module subtype of `owner`.
    fn invoke(
        &self,
        kind: InvokeKind,
        owner: &str,
        name: &str,
        descriptor: &str,
        targets: &mut BTreeSet<String>,
    ) {
        if kind == InvokeKind::Static {
            self.initializer(owner, targets);
        }
        if let Some(declaring) = self.declaring_method(owner, name, descriptor) {
            targets.insert(node(declaring, name, descriptor));
        }
        if matches!(kind, InvokeKind::Virtual | InvokeKind::Interface) {
            // Remembered per method: `toString()` on Object is called all over a module.
            let key = (owner.to_string(), name.to_string(), descriptor.to_string());
            if let Some(known) = self.overrides.borrow().get(&key) {
                targets.extend(known.iter().cloned());
                return;
            }
            let found: Vec<String> = self
                .all_subtypes(owner)
                .into_iter()
                .filter(|sub| self.classes[*sub].method(name, descriptor).is_some())
                .map(|sub| node(sub, name, descriptor))
                .collect();
            targets.extend(found.iter().cloned());
            self.overrides.borrow_mut().insert(key, found);
        }
    }

    /// The static initializers that using `class` runs: its own and its superclasses' (when the
    /// module has them).
    fn initializer(&self, class: &str, targets: &mut BTreeSet<String>) {
        for c in superclass_chain(self.classes, class) {
            if c.method("<clinit>", "()V").is_some() {
                targets.insert(node(&c.name, "<clinit>", "()V"));
            }
        }
    }

    /// The methods of an instantiated class that code outside the module may call (see the
    /// module's documentation).
    fn callbacks(&self, created: &str, targets: &mut BTreeSet<String>) {
        let chain = superclass_chain(self.classes, created);
        let external = chain.iter().any(|c| {
            c.super_class
                .iter()
                .chain(&c.interfaces)
                .any(|s| s != "java.lang.Object" && !self.classes.contains_key(s))
                || c.interfaces.iter().any(|i| self.interface_external(i, 0))
        });
        for c in &chain {
            for m in &c.methods {
                let object_method = matches!(
                    m.name.as_str(),
                    "equals" | "hashCode" | "toString" | "compareTo"
                );
                let callable =
                    !m.access.is_static() && !m.access.is_private() && !m.name.starts_with('<');
                if callable && (object_method || external) {
                    let callback = node(&c.name, &m.name, &m.descriptor);
                    self.deferred.borrow_mut().insert(callback.clone());
                    targets.insert(callback);
                }
            }
        }
    }

    /// Whether a module interface extends an interface outside the module (remembered: interface
    /// hierarchies can be diamonds).
    fn interface_external(&self, name: &str, depth: usize) -> bool {
        if let Some(&known) = self.external.borrow().get(name) {
            return known;
        }
        let answer = match self.classes.get(name) {
            None => true,
            Some(_) if depth > MAX_DEPTH => false,
            Some(c) => c
                .interfaces
                .iter()
                .any(|i| self.interface_external(i, depth + 1)),
        };
        self.external.borrow_mut().insert(name.to_string(), answer);
        answer
    }

    /// The class that declares field `name` seen from `owner`: superclasses, then interfaces.
    fn declaring_field(&self, owner: &str, name: &str) -> Option<(&'a ClassFile, &'a Field)> {
        self.supertypes(owner)
            .into_iter()
            .find_map(|c| c.field(name).map(|f| (c, f)))
    }

    /// The class that declares the method seen from `owner`: superclasses, then interfaces (a
    /// default method).
    fn declaring_method(&self, owner: &str, name: &str, descriptor: &str) -> Option<&'a str> {
        self.supertypes(owner)
            .into_iter()
            .find(|c| c.method(name, descriptor).is_some())
            .map(|c| c.name.as_str())
    }

    /// `owner` and its supertypes in the module: the superclass chain first, then interfaces
    /// breadth-first.
    fn supertypes(&self, owner: &str) -> Vec<&'a ClassFile> {
        let mut out = superclass_chain(self.classes, owner);
        let mut i = 0;
        while i < out.len() && out.len() < 4 * MAX_DEPTH {
            for interface in &out[i].interfaces {
                if let Some(c) = self.classes.get(interface.as_str()) {
                    if !out.iter().any(|o| o.name == c.name) {
                        out.push(c);
                    }
                }
            }
            i += 1;
        }
        out
    }

    /// Every module class below `owner` (which may be outside the module).
    fn all_subtypes(&self, owner: &str) -> BTreeSet<&'a str> {
        let mut out = BTreeSet::new();
        let mut todo = vec![owner];
        while let Some(current) = todo.pop() {
            for &sub in self.subtypes.get(current).into_iter().flatten() {
                if out.insert(sub) {
                    todo.push(sub);
                }
            }
        }
        out
    }
}

#[cfg(test)]
#[path = "statics_tests.rs"]
mod tests;
