//! Which types' instances cannot change, decided by reading the module's class files (issue 29,
//! item 2): for [`super::statics`], a static field of an immutable type that is `final` is not
//! state two tests can share.

use std::collections::{BTreeMap, BTreeSet};

use crate::jvm::classfile::{ClassFile, Constant, Field, FieldOp, InvokeKind, Op};

/// Guard against cycles in crafted class hierarchies.
pub(super) const MAX_DEPTH: usize = 64;

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
    /// final; a plain `new Object()`, a lock or sentinel, has no state), or an empty array; and
    /// the `putstatic` is no jump's target (else the value may come from another branch).
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
            if code.jump_targets.binary_search(&instruction.offset).is_ok() {
                // `c ? LIST : new Object()`: the value may come from another branch.
                return false;
            }
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
                // The instruction between is not kept; its length tells it: `newarray` takes 2
                // bytes, `anewarray` 3 (`aaload`, 1, is `GRID[0]`: an array anyone can change).
                // No branch may join at it (`new int[c ? n : 0]`).
                _ => {
                    i > 0 && {
                        let zero = &ins[i - 1];
                        let between = zero.offset + 1;
                        zero.index + 2 == instruction.index
                            && zero.op == Op::Const(Constant::Int(0))
                            && matches!(instruction.offset - between, 2 | 3)
                            && code.jump_targets.binary_search(&between).is_err()
                            && field.descriptor.starts_with('[')
                    }
                }
            };
            if !immutable {
                return false;
            }
        }
        writes > 0
    }
}

/// `name` and its superclasses among `classes`, nearest first (bounded: a crafted cycle ends).
pub(super) fn superclass_chain<'a>(
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
