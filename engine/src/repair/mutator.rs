//! Which calls count as changing the value they are called on: mutator names, `java.util`
//! collections, and the call right after a field read (a straight-line heuristic, see
//! [`super::reset`]).

use crate::jvm::classfile::{Instruction, InvokeKind, MemberRef, Op};
use crate::jvm::hierarchy::Hierarchy;

/// How many interesting instructions after a field read the mutator call may be.
pub const MUTATOR_WINDOW: usize = 16;

/// The mutator called on the value that `ins[i]` reads, as `owner.name` (see the module doc).
pub(super) fn mutator_after(
    ins: &[Instruction],
    i: usize,
    field: &MemberRef,
    value_type: Option<&str>,
    module: &Hierarchy<'_>,
) -> Option<String> {
    let value_type = value_type?;
    for insn in ins.iter().skip(i + 1).take(MUTATOR_WINDOW) {
        match &insn.op {
            Op::Field { field: other, .. }
                if other.name == field.name && other.owner == field.owner =>
            {
                return None
            }
            Op::Invoke {
                kind: InvokeKind::Virtual | InvokeKind::Interface,
                method,
                ..
            } if receiver_fits(&method.owner, value_type, module) => {
                return is_mutator(&method.owner, &method.name)
                    .then(|| format!("{}.{}", method.owner, method.name));
            }
            _ => {}
        }
    }
    None
}

/// Whether a call owned by `owner` may be a call on a value of type `value`.
fn receiver_fits(owner: &str, value: &str, module: &Hierarchy<'_>) -> bool {
    owner == value
        || module.is_assignable(value, owner)
        || module.is_assignable(owner, value)
        || (is_collection_type(owner) && is_collection_type(value))
}

/// Whether calling `owner.name` is taken to change the receiver's state.
pub fn is_mutator(owner: &str, name: &str) -> bool {
    const ALWAYS: [&str; 9] = [
        "clear", "remove", "reset", "set", "put", "add", "init", "restore", "clean",
    ];
    const COLLECTIONS: [&str; 8] = [
        "retain", "replace", "merge", "compute", "poll", "offer", "push", "pop",
    ];
    let word = |prefix: &&str| {
        name.strip_prefix(*prefix).is_some_and(|rest| {
            rest.chars()
                .next()
                .is_none_or(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        })
    };
    ALWAYS.iter().any(word)
        || matches!(name, "initialize" | "cleanup")
        || (is_collection_type(owner) && COLLECTIONS.iter().any(word))
}

/// Whether a class is a `java.util` (or `java.util.concurrent`) collection or map.
pub fn is_collection_type(class: &str) -> bool {
    let simple = match class
        .strip_prefix("java.util.concurrent.")
        .or_else(|| class.strip_prefix("java.util."))
    {
        Some(s) if !s.contains('.') && !s.contains('$') => s,
        _ => return false,
    };
    ["Map", "List", "Set", "Queue", "Deque", "Collection"]
        .iter()
        .any(|end| simple.ends_with(end))
        || matches!(simple, "Vector" | "Stack" | "Hashtable" | "Properties")
}
