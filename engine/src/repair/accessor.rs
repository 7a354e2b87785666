//! Following calls to the polluted field's value (issue 27): the static accessors through which
//! code outside the field's class reaches it, so that a reset can be called on what they return
//! (`Outer.registry().clear();` for a private `Outer.Inner.REGISTRY`). The rules are
//! [`super::reset`]'s ("Receivers of instance methods"). Also where a method of a class the
//! code cannot name is called from ([`dispatch`]: through the supertype that declares it).

use std::collections::BTreeSet;

use crate::jvm::classfile::{ClassFile, FieldOp, MemberRef, Method, Op};
use crate::jvm::hierarchy::{Hierarchy, Viewpoint};

/// The classes whose static no-arg methods may hand out the object under a static field of
/// `class`: its enclosing classes (outwards), and the superclasses of `class` and of each of
/// them, as far as the module has them. `class` itself is not included.
pub(super) fn accessor_owners(module: &Hierarchy<'_>, class: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut chain = vec![class.to_string()];
    let mut current = class.to_string();
    while let Some(outer) = module.enclosing(&current) {
        if chain.iter().any(|c| c == outer) {
            break;
        }
        chain.push(outer.to_string());
        current = outer.to_string();
    }
    for start in chain {
        let mut c = start.clone();
        out.insert(start);
        while let Some(s) = module.get(&c).and_then(|k| k.super_class.clone()) {
            if module.get(&s).is_none() || !out.insert(s.clone()) {
                break;
            }
            c = s;
        }
    }
    out.remove(class);
    out
}

/// The module's static no-arg methods whose whole body returns the field `is_target` names:
/// `GETSTATIC F; ARETURN`, with at most a `CHECKCAST` between (what `return F;` compiles to).
pub(super) fn field_accessors<'a>(
    module: &Hierarchy<'a>,
    is_target: impl Fn(&MemberRef) -> bool,
) -> Vec<(&'a ClassFile, &'a Method)> {
    let mut out = Vec::new();
    for class in module.classes.values() {
        for method in &class.methods {
            if returns_field(method, &is_target) {
                out.push((*class, method));
            }
        }
    }
    out
}

fn returns_field(method: &Method, is_target: impl Fn(&MemberRef) -> bool) -> bool {
    if !method.access.is_static()
        || !method.descriptor.starts_with("()")
        || !(method.descriptor.ends_with(';') || method.descriptor.contains(")["))
    {
        return false;
    }
    let Some(code) = &method.code else {
        return false;
    };
    matches!(
        &code.instructions[..],
        [insn] if insn.index == 0
            && code.instruction_count <= 3
            && matches!(&insn.op, Op::Field { op: FieldOp::GetStatic, field } if is_target(field))
    )
}

/// Whether a class's methods may be candidates: not local, anonymous or synthetic, nor
/// `module-info` or `package-info`.
pub(super) fn usable_class(class: &ClassFile) -> bool {
    !class.is_local_or_anonymous()
        && !class.access.is_synthetic()
        && !class.name.ends_with("module-info")
        && !class.name.ends_with("package-info")
}

/// Whether a method may be a candidate (see [`super::reset`], "Visibility").
pub(super) fn usable_method(method: &Method) -> bool {
    !method.name.starts_with('<')
        && !method.name.contains('$')
        && !method.access.is_synthetic()
        && !method.access.is_bridge()
        && !method.access.is_abstract()
        && method.code.is_some()
        && !method
            .annotations
            .iter()
            .any(|a| a.starts_with("org.junit."))
}

/// Where `method` of `class` is called from `from`: `class` itself when it is visible there, else
/// (an instance method) the nearest supertype that declares it (abstract or not) visibly, as
/// virtual dispatch reaches the override (a private implementation's `clear()` through its
/// public abstract type).
pub(super) fn dispatch<'c>(
    module: &Hierarchy<'c>,
    from: &Viewpoint,
    class: &'c ClassFile,
    method: &'c Method,
) -> Option<(&'c ClassFile, &'c Method)> {
    if module.member_visible(&class.name, method.access, from) {
        return Some((class, method));
    }
    if method.access.is_static() {
        return None;
    }
    // the supertypes, nearest first
    let mut queue: std::collections::VecDeque<&str> =
        module.supers(&class.name).into_iter().collect();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    while let Some(s) = queue.pop_front() {
        if !seen.insert(s) {
            continue;
        }
        let Some(sup) = module.get(s) else {
            continue;
        };
        queue.extend(module.supers(s));
        let declared = sup
            .methods
            .iter()
            .find(|m| m.name == method.name && m.descriptor == method.descriptor);
        if let Some(declared) = declared {
            // a method the implementation overrides: not private, and package-private only in
            // the implementation's own package
            let overridden = !declared.access.is_private()
                && (declared.access.is_public()
                    || declared.access.is_protected()
                    || package(s) == package(&class.name));
            if usable_class(sup)
                && overridden
                && !declared.access.is_static()
                && module.member_visible(s, declared.access, from)
            {
                return Some((sup, declared));
            }
        }
    }
    None
}

/// The package of a binary class name (`com.acme` of `com.acme.Outer$Inner`).
fn package(class: &str) -> &str {
    class.rsplit_once('.').map_or("", |(p, _)| p)
}
