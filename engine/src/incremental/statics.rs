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
//! object, which may change it (`MAP.put`): a use counts as a write. What a class's static
//! initializer does to its own fields is neither: it runs once per JVM, before any use, whichever
//! test comes first.
//!
//! What cannot be seen: reflection, `MethodHandle`s made at run time, code of the JDK and of
//! libraries (a library that keeps a reference and calls it later), and fields of classes
//! outside the module.

use std::collections::{BTreeMap, BTreeSet};

use super::graph::ClassGraph;
use crate::jvm::classfile::{ClassFile, Constant, Field, FieldOp, InvokeKind, Op};

/// Guard against cycles in crafted class hierarchies.
const MAX_DEPTH: usize = 64;

/// The JDK types whose instances cannot change. The engine does not read the JDK's class files,
/// so these are the JDK's documented immutable value classes; types of the module (and of the
/// project's own jars) are decided by reading them ([`Immutability`]).
const JDK_IMMUTABLE: [&str; 33] = [
    "java.lang.String",
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Short",
    "java.lang.Byte",
    "java.lang.Character",
    "java.lang.Boolean",
    "java.lang.Float",
    "java.lang.Double",
    "java.lang.Class",
    "java.lang.Void",
    "java.math.BigInteger",
    "java.math.BigDecimal",
    "java.util.regex.Pattern",
    "java.util.UUID",
    "java.util.Locale",
    "java.util.OptionalInt",
    "java.util.OptionalLong",
    "java.util.OptionalDouble",
    "java.nio.charset.Charset",
    "java.net.URI",
    "java.time.Duration",
    "java.time.Instant",
    "java.time.LocalDate",
    "java.time.LocalDateTime",
    "java.time.LocalTime",
    "java.time.MonthDay",
    "java.time.OffsetDateTime",
    "java.time.OffsetTime",
    "java.time.Period",
    "java.time.Year",
    "java.time.YearMonth",
    "java.time.ZonedDateTime",
];

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

/// Whether a type's instances can change, decided from the module's class files.
///
/// Immutable: the primitive types, [`JDK_IMMUTABLE`], and a module class that is final (or an
/// enum, or a record) whose instance fields — its own and its superclasses' — are all final and
/// of immutable types (decided the same way; a type met again while deciding counts as immutable,
/// so `record Node(int v, Node next)` is). Arrays, interfaces, abstract and non-final classes,
/// and any other type outside the module are not.
#[derive(Debug)]
pub struct Immutability<'a> {
    classes: &'a BTreeMap<String, &'a ClassFile>,
    decided: std::cell::RefCell<BTreeMap<String, bool>>,
    /// The types being decided, outermost first (each assumed immutable meanwhile).
    deciding: std::cell::RefCell<Vec<String>>,
    /// The types that were assumed immutable while being decided.
    assumed: std::cell::RefCell<BTreeSet<String>>,
}

impl<'a> Immutability<'a> {
    /// Over `classes` (dotted binary names).
    pub fn new(classes: &'a BTreeMap<String, &'a ClassFile>) -> Self {
        Immutability {
            classes,
            decided: Default::default(),
            deciding: Default::default(),
            assumed: Default::default(),
        }
    }

    /// Whether values of the field descriptor's type cannot change.
    pub fn descriptor(&self, descriptor: &str) -> bool {
        match descriptor.as_bytes().first() {
            Some(b'L') => self.class(&descriptor[1..].trim_end_matches(';').replace('/', ".")),
            Some(b'[') | None => false,
            Some(_) => true,
        }
    }

    /// Whether instances of the class (dotted) cannot change.
    pub fn class(&self, name: &str) -> bool {
        if JDK_IMMUTABLE.contains(&name) {
            return true;
        }
        if let Some(&known) = self.decided.borrow().get(name) {
            return known;
        }
        if self.deciding.borrow().iter().any(|d| d == name) {
            // Assumed while deciding, so a type that holds itself is decided by its other fields.
            self.assumed.borrow_mut().insert(name.to_string());
            return true;
        }
        let Some(class) = self.classes.get(name) else {
            return false;
        };
        self.deciding.borrow_mut().push(name.to_string());
        // An anonymous class cannot be extended, whether or not javac marks it final.
        let anonymous = class
            .own_inner_entry()
            .is_some_and(|i| i.simple_name.is_none());
        let answer = !class.access.is_interface()
            && !class.access.is_abstract()
            && (class.access.is_final() || class.access.is_enum() || anonymous)
            && self.fields_immutable(class, 0);
        self.deciding.borrow_mut().pop();
        // An answer that assumed a type still being decided further out holds only if that
        // assumption does: kept only once no such type is left (`Tree { final Node root; int
        // size }` with `Node { final Tree owner }`: Node is not kept as immutable).
        let outer_assumed = {
            let deciding = self.deciding.borrow();
            self.assumed.borrow().iter().any(|a| deciding.contains(a))
        };
        if !outer_assumed {
            self.decided.borrow_mut().insert(name.to_string(), answer);
        }
        self.assumed.borrow_mut().remove(name);
        answer
    }

    /// Whether the instance fields of `class` and its superclasses are final and immutable.
    fn fields_immutable(&self, class: &ClassFile, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let own = class
            .fields
            .iter()
            .filter(|f| !f.access.is_static())
            .all(|f| f.access.is_final() && self.descriptor(&f.descriptor));
        own && match class.super_class.as_deref() {
            None | Some("java.lang.Object" | "java.lang.Enum" | "java.lang.Record") => true,
            Some(other) => match self.classes.get(other) {
                Some(parent) => self.fields_immutable(parent, depth + 1),
                None => JDK_IMMUTABLE.contains(&other),
            },
        }
    }

    /// Whether `field` (of `owner`) is a static field whose value can change: not synthetic, not
    /// an enum constant, not final with an immutable value (a constant, an immutable type, or
    /// what the static initializer stores in it: a function made by a lambda or method reference
    /// that captures nothing, an object of an immutable class, anonymous ones included).
    pub fn tracked(&self, owner: &ClassFile, field: &Field) -> bool {
        // An enum constant is a static final field of its enum's type: tracked when the enum can
        // change (a non-final field), like any other.
        if !field.access.is_static() || field.access.is_synthetic() {
            return false;
        }
        if !field.access.is_final() {
            return true;
        }
        if field.constant_value.is_some() || self.descriptor(&field.descriptor) {
            return false;
        }
        !self.immutable_value(owner, field)
    }

    /// Whether every write of the static final `field` in its class's static initializer stores
    /// what the instruction right before makes, and that cannot change: a lambda or method
    /// reference capturing nothing (`invokedynamic` of `LambdaMetafactory` with no arguments), or
    /// a new object of an immutable class (`invokespecial C.<init>`; anonymous classes count as
    /// final; a plain `new Object()`, a lock or sentinel, has no state), or an empty array.
    fn immutable_value(&self, owner: &ClassFile, field: &Field) -> bool {
        let Some(code) = owner
            .method("<clinit>", "()V")
            .and_then(|m| m.code.as_ref())
        else {
            return false;
        };
        let ins = &code.instructions;
        let mut writes = 0;
        for (i, instruction) in ins.iter().enumerate() {
            let Op::Field {
                op: FieldOp::PutStatic,
                field: target,
            } = &instruction.op
            else {
                continue;
            };
            if target.owner != owner.name || target.name != field.name {
                continue;
            }
            writes += 1;
            let before =
                (i > 0 && ins[i - 1].index + 1 == instruction.index).then(|| &ins[i - 1].op);
            let immutable = match before {
                Some(Op::Invoke {
                    kind: InvokeKind::Dynamic,
                    method,
                    ..
                }) => {
                    method.owner == "java.lang.invoke.LambdaMetafactory"
                        && method.descriptor.starts_with("()")
                }
                Some(Op::Invoke {
                    kind: InvokeKind::Special,
                    method,
                    ..
                }) => {
                    // the class constructed, exactly: a plain `new Object()` (a lock, a
                    // sentinel) has no state
                    method.name == "<init>"
                        && (method.owner == "java.lang.Object" || self.class(&method.owner))
                }
                // `iconst_0; newarray|anewarray; putstatic`: an empty array has nothing to change.
                _ => {
                    i > 0
                        && ins[i - 1].index + 2 == instruction.index
                        && ins[i - 1].op == Op::Const(Constant::Int(0))
                        && field.descriptor.starts_with('[')
                }
            };
            if !immutable {
                return false;
            }
        }
        writes > 0
    }
}

/// The module's methods as a call graph, with the tracked static fields each method touches.
#[derive(Debug)]
pub struct Statics<'a> {
    classes: &'a BTreeMap<String, &'a ClassFile>,
    graph: ClassGraph,
    /// Per method node, the tracked fields it touches directly.
    touches: BTreeMap<String, Vec<(String, How)>>,
}

/// `name` and its superclasses among `classes`, nearest first (bounded: a crafted cycle ends).
fn superclass_chain<'a>(
    classes: &BTreeMap<String, &'a ClassFile>,
    name: &str,
) -> Vec<&'a ClassFile> {
    let mut out: Vec<&'a ClassFile> = Vec::new();
    let mut next = classes.get(name).copied();
    while let Some(c) = next.filter(|_| out.len() < MAX_DEPTH) {
        out.push(c);
        next = c
            .super_class
            .as_deref()
            .and_then(|s| classes.get(s).copied());
    }
    out
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
        let mut fields: BTreeMap<String, (How, String)> = BTreeMap::new();
        for method in reach.classes() {
            for (field, how) in self.touches.get(method).into_iter().flatten() {
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
        for handle in &code.dynamic_targets {
            let m = &handle.member;
            match handle.kind {
                5 => self.invoke(
                    InvokeKind::Virtual,
                    &m.owner,
                    &m.name,
                    &m.descriptor,
                    &mut targets,
                ),
                6 => self.invoke(
                    InvokeKind::Static,
                    &m.owner,
                    &m.name,
                    &m.descriptor,
                    &mut targets,
                ),
                7 => self.invoke(
                    InvokeKind::Special,
                    &m.owner,
                    &m.name,
                    &m.descriptor,
                    &mut targets,
                ),
                8 => {
                    self.initializer(&m.owner, &mut targets);
                    self.callbacks(&m.owner, &mut targets);
                    self.invoke(
                        InvokeKind::Special,
                        &m.owner,
                        &m.name,
                        &m.descriptor,
                        &mut targets,
                    );
                }
                9 => self.invoke(
                    InvokeKind::Interface,
                    &m.owner,
                    &m.name,
                    &m.descriptor,
                    &mut targets,
                ),
                // A field handle: getstatic/putstatic when called; rare, its class initialized.
                _ => self.initializer(&m.owner, &mut targets),
            }
        }
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
                    targets.insert(node(&c.name, &m.name, &m.descriptor));
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
