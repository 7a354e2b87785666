//! Direct restores (issue 27): the statements that set a polluted static field back to the value
//! it had when the test passed, written from the diagnosis's passing capture, when that value is
//! simple enough to write as Java source (see [`super::reset`] for where they rank and go).
//!
//! **Simple values.** `null`; a primitive or boxed value; a `String` (not one holding `\uXXXX`,
//! which the capture writes both for a control character and for that literal text); an enum
//! constant; a `BigDecimal` or `BigInteger`; an `AtomicInteger`, `AtomicLong` or
//! `AtomicBoolean` (set in place, or made anew); a JDK list, set or map of at most
//! [`MAX_LITERAL_ELEMENTS`] elements or entries that are themselves scalar (any of the above but
//! the atomics); an array of at most that many scalar elements. Anything else (an object walked
//! field by field, a lambda or other opaque object, a reference to another captured object, a
//! truncated value, a bigger collection) is refused, and the refusal says why.
//!
//! **How the field is set.** A scalar is assigned (`F = "default";`), which a `final` field
//! refuses. A collection is refilled in place (`F.clear();` then `F.add(..)` / `F.put(..)` per
//! element, as the agent restores it) when the field is `final` or already holds an object of the
//! same class, unless that class is known to be immutable (`Collections.empty*`, `singleton*`,
//! `unmodifiable*`, `List.of`, `Arrays.asList`, Guava's `Immutable*`); otherwise it is assigned a
//! new collection: `new C<>()` for a public JDK collection with a no-argument constructor (a
//! sorted one is refused: its comparator is not captured), or the JDK factory that made it
//! (`Collections.emptyList()`, `List.of(..)`, `Arrays.asList(..)`, ...), then filled. An array
//! is assigned `new T[] {..}`; a final one is refused. Every class the statements name must be
//! visible where they are compiled.

use super::candidate::{FieldId, ResetCandidate, ResetKind};
use crate::diagnose::capture::{render, Node, StaticField};
use crate::jvm::classfile::Field;
use crate::jvm::descriptor::primitive_name;
use crate::jvm::hierarchy::{Hierarchy, Viewpoint};
use crate::jvm::literal::{java_char, java_double, java_float, java_string};

/// The most elements (or map entries) a literal collection or array may have.
pub const MAX_LITERAL_ELEMENTS: usize = 16;

/// The field a direct restore sets.
pub(super) struct RestoreTarget<'a> {
    /// The field as Java source (`com.acme.Outer.Inner.MODE`).
    pub(super) expr: &'a str,
    /// Its declared type as the capture names it (`int`, `java.util.Map`, `java.lang.String[]`).
    pub(super) declared: &'a str,
    /// Whether it is `final`.
    pub(super) is_final: bool,
}

/// Where the statements are compiled, and the classes the module knows.
pub(super) struct Scope<'m, 'a> {
    pub(super) module: &'m Hierarchy<'a>,
    pub(super) from: &'m Viewpoint,
}

/// Where statements are compiled: the module, and the class's viewpoint and name.
pub(super) struct Place<'m, 'a> {
    pub(super) module: &'m Hierarchy<'a>,
    pub(super) from: &'m Viewpoint,
    pub(super) from_class: &'m str,
}

/// The [`ResetKind::PassingValue`] candidate of `target` (declared as `field`, when the module
/// has it) from its `passing` and `failing` captured values, or why there is none.
pub(super) fn restore_candidate(
    place: &Place<'_, '_>,
    target: &FieldId,
    field: Option<&Field>,
    passing: &StaticField,
    failing: Option<&StaticField>,
) -> Result<ResetCandidate, String> {
    let name = format!("{}.{}", target.class, target.name);
    let Some(field) = field else {
        return Err(format!(
            "{name} is not declared in the module's classes (its access is unknown)"
        ));
    };
    if !place
        .module
        .member_visible(&target.class, field.access, place.from)
    {
        return Err(format!("{name} cannot be named from {}", place.from_class));
    }
    let expr = format!("{}.{}", place.module.canonical(&target.class), target.name);
    let restore = RestoreTarget {
        expr: &expr,
        declared: &passing.type_name,
        is_final: field.access.is_final(),
    };
    let scope = Scope {
        module: place.module,
        from: place.from,
    };
    let statements =
        restore_statements(&restore, &passing.value, failing.map(|f| &f.value), &scope)
            .map_err(|why| format!("{name} is not set back directly: {why}"))?;
    Ok(ResetCandidate {
        statement: statements.join(" "),
        statements,
        method: None,
        kind: ResetKind::PassingValue,
        why: format!(
            "sets {name} back to {}, its value when the test passed (the diagnosis's \
             passing capture)",
            render(&passing.value)
        ),
        placements: Vec::new(),
    })
}

/// The statements that set `target` to `passing` (the field's value in the passing capture),
/// given `failing` (its value in the failing capture, when known), or why there are none.
pub(super) fn restore_statements(
    target: &RestoreTarget<'_>,
    passing: &Node,
    failing: Option<&Node>,
    scope: &Scope<'_, '_>,
) -> Result<Vec<String>, String> {
    let expr = target.expr;
    let same_class = |class: &str| failing.and_then(Node::class) == Some(class);
    match passing {
        Node::Text { class, text } if atomic_value(class, text).is_some() => {
            let value = atomic_value(class, text).unwrap_or_default();
            if target.is_final || same_class(class) {
                Ok(vec![format!("{expr}.set({value});")])
            } else {
                Ok(vec![format!("{expr} = new {class}({value});")])
            }
        }
        Node::List { class, items } | Node::Set { class, items } => {
            let elements = items
                .iter()
                .map(|n| element(n, scope))
                .collect::<Result<Vec<_>, _>>()?;
            refill(target, class, &elements, &[], same_class(class), passing)
        }
        Node::Map { class, entries } => {
            let mut pairs = Vec::with_capacity(entries.len());
            for (k, v) in entries {
                pairs.push((element(k, scope)?, element(v, scope)?));
            }
            refill(target, class, &[], &pairs, same_class(class), passing)
        }
        Node::Array { class, items } => {
            if target.is_final {
                return Err("the field is a final array (odrust does not refill arrays)".into());
            }
            let elem_type = class
                .strip_suffix("[]")
                .ok_or_else(|| format!("{class} is no array type"))?;
            if elem_type.ends_with("[]") {
                return Err(format!("a {class} holds arrays, not scalar values"));
            }
            too_many(items.len())?;
            let elements = items
                .iter()
                .map(|n| scalar(n, Some(elem_type), scope))
                .collect::<Result<Vec<_>, _>>()?;
            let type_text = java_type(elem_type, scope)?;
            Ok(vec![format!(
                "{expr} = new {type_text}[] {{{}}};",
                elements.join(", ")
            )])
        }
        _ => {
            let value = scalar(passing, Some(target.declared), scope)?;
            if target.is_final {
                return Err("the field is final: it cannot be assigned".into());
            }
            Ok(vec![format!("{expr} = {value};")])
        }
    }
}

/// `F.clear(); F.add(..)` in place, or `F = <new collection>;` and its filling.
fn refill(
    target: &RestoreTarget<'_>,
    class: &str,
    elements: &[String],
    pairs: &[(String, String)],
    same_class: bool,
    passing: &Node,
) -> Result<Vec<String>, String> {
    let expr = target.expr;
    too_many(elements.len().max(pairs.len()))?;
    let fill = |out: &mut Vec<String>| {
        out.extend(elements.iter().map(|e| format!("{expr}.add({e});")));
        out.extend(pairs.iter().map(|(k, v)| format!("{expr}.put({k}, {v});")));
    };
    let mut out = Vec::new();
    if (target.is_final || same_class) && !is_immutable(class) {
        out.push(format!("{expr}.clear();"));
        fill(&mut out);
        return Ok(out);
    }
    if target.is_final {
        return Err(format!(
            "the field is final and holds a {class}, which cannot be refilled"
        ));
    }
    if let Some(diamond) = constructible(class) {
        if is_sorted(class) {
            return Err(format!(
                "a {class} is sorted by a comparator the capture does not hold"
            ));
        }
        out.push(format!(
            "{expr} = new {class}{}();",
            if diamond { "<>" } else { "" }
        ));
        fill(&mut out);
        return Ok(out);
    }
    let args = if pairs.is_empty() {
        elements.join(", ")
    } else {
        pairs
            .iter()
            .map(|(k, v)| format!("{k}, {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let has_null = elements
        .iter()
        .chain(pairs.iter().flat_map(|(k, v)| [k, v]))
        .any(|e| e == "null");
    let n = elements.len().max(pairs.len());
    let factory = match (class, n) {
        ("java.util.Collections$EmptyList", 0) => "java.util.Collections.emptyList()".to_string(),
        ("java.util.Collections$EmptySet", 0) => "java.util.Collections.emptySet()".to_string(),
        ("java.util.Collections$EmptyMap", 0) => "java.util.Collections.emptyMap()".to_string(),
        ("java.util.Collections$SingletonList", 1) => {
            format!("java.util.Collections.singletonList({args})")
        }
        ("java.util.Collections$SingletonSet", 1) => {
            format!("java.util.Collections.singleton({args})")
        }
        ("java.util.Collections$SingletonMap", 1) => {
            format!("java.util.Collections.singletonMap({args})")
        }
        ("java.util.Arrays$ArrayList", _) => format!("java.util.Arrays.asList({args})"),
        (c, _) if c.starts_with("java.util.ImmutableCollections$List") && !has_null => {
            format!("java.util.List.of({args})")
        }
        (c, _) if c.starts_with("java.util.ImmutableCollections$Set") && !has_null => {
            format!("java.util.Set.of({args})")
        }
        (c, n) if c.starts_with("java.util.ImmutableCollections$Map") && !has_null && n <= 10 => {
            format!("java.util.Map.of({args})")
        }
        _ => {
            return Err(format!(
                "a {} is made by no constructor or factory odrust knows",
                passing.class().unwrap_or(class)
            ))
        }
    };
    Ok(vec![format!("{expr} = {factory};")])
}

fn too_many(n: usize) -> Result<(), String> {
    if n > MAX_LITERAL_ELEMENTS {
        Err(format!(
            "it holds {n} elements, more than the {MAX_LITERAL_ELEMENTS} odrust writes out"
        ))
    } else {
        Ok(())
    }
}

/// A collection element or map key or value: a scalar of any (boxed) type.
fn element(node: &Node, scope: &Scope<'_, '_>) -> Result<String, String> {
    match node {
        Node::Text { class, .. } if atomic_value(class, "0").is_some() => {
            Err(format!("it holds a {class}, which is no literal"))
        }
        _ => scalar(node, None, scope),
    }
}

/// Java source of a scalar value for a place of type `declared` (`None`: any reference type,
/// a collection's element).
fn scalar(node: &Node, declared: Option<&str>, scope: &Scope<'_, '_>) -> Result<String, String> {
    let fits = |class: &str| match declared {
        None => true,
        Some(d) => reference_fits(class, d, scope.module),
    };
    let refuse_type = |class: &str| {
        Err(format!(
            "a {class} value does not fit the declared type {}",
            declared.unwrap_or("?")
        ))
    };
    match node {
        Node::Null => match declared {
            Some(d) if is_primitive(d) => Err(format!("null does not fit a {d}")),
            _ => Ok("null".to_string()),
        },
        Node::Prim { class, text } => {
            let primitive = primitive_of(class)
                .ok_or_else(|| format!("{class} is no primitive or boxed type"))?;
            let ok = match declared {
                None => true,
                Some(d) if is_primitive(d) => d == class,
                Some(d) => class != primitive && reference_fits(class, d, scope.module),
            };
            if !ok {
                return refuse_type(class);
            }
            prim_literal(primitive, text)
                .ok_or_else(|| format!("the {class} value `{text}` cannot be read"))
        }
        Node::Str(text) => {
            if !fits("java.lang.String") {
                return refuse_type("java.lang.String");
            }
            if has_unicode_escape(text) {
                return Err(
                    "the string holds `\\uXXXX`, which the capture writes both for a control \
                     character and for that text: the value is not known exactly"
                        .into(),
                );
            }
            Ok(java_string(text))
        }
        Node::Enum { class, name } => {
            if !fits(class) {
                return refuse_type(class);
            }
            if !scope.module.class_visible(class, scope.from) {
                return Err(format!("the enum {class} cannot be named from the test"));
            }
            Ok(format!("{}.{name}", scope.module.canonical(class)))
        }
        Node::Text { class, text }
            if class == "java.math.BigDecimal" || class == "java.math.BigInteger" =>
        {
            if !fits(class) {
                return refuse_type(class);
            }
            Ok(format!("new {class}({})", java_string(text)))
        }
        Node::Text { class, .. } => Err(format!(
            "a {class} value is not one odrust writes as a literal"
        )),
        Node::Object { class, .. } => Err(format!(
            "it is an object of {class}, walked field by field: no literal"
        )),
        Node::Opaque { class, .. } => Err(format!(
            "it is a {class} the capture does not walk (a lambda, a thread, a stream, ...)"
        )),
        Node::Ref { to } => Err(format!(
            "it is the same object as {to}: a literal would be another object"
        )),
        Node::Unreadable { class, .. } => Err(format!("its {class} value could not be read")),
        Node::Truncated => Err("the capture was truncated there".into()),
        Node::Array { class, .. }
        | Node::List { class, .. }
        | Node::Set { class, .. }
        | Node::Map { class, .. } => Err(format!("it holds a {class}, not a scalar value")),
    }
}

/// Whether a value of class `value` may be assigned to a place declared `declared`.
fn reference_fits(value: &str, declared: &str, module: &Hierarchy<'_>) -> bool {
    let numeric = matches!(
        value,
        "java.lang.Byte"
            | "java.lang.Short"
            | "java.lang.Integer"
            | "java.lang.Long"
            | "java.lang.Float"
            | "java.lang.Double"
            | "java.math.BigDecimal"
            | "java.math.BigInteger"
    );
    value == declared
        || matches!(declared, "java.lang.Object" | "java.io.Serializable")
        || (declared == "java.lang.Number" && numeric)
        || (declared == "java.lang.Comparable" && value.starts_with("java."))
        || (declared == "java.lang.CharSequence" && value == "java.lang.String")
        || module.is_assignable(value, declared)
}

/// The primitive type of a primitive or boxed class name.
fn primitive_of(class: &str) -> Option<&'static str> {
    Some(match class {
        "boolean" | "java.lang.Boolean" => "boolean",
        "byte" | "java.lang.Byte" => "byte",
        "short" | "java.lang.Short" => "short",
        "char" | "java.lang.Character" => "char",
        "int" | "java.lang.Integer" => "int",
        "long" | "java.lang.Long" => "long",
        "float" | "java.lang.Float" => "float",
        "double" | "java.lang.Double" => "double",
        _ => return None,
    })
}

fn is_primitive(name: &str) -> bool {
    b"ZBSCIJFD".iter().any(|&c| primitive_name(c) == Some(name))
}

/// Java source of a primitive value written as Java's `String.valueOf` writes it.
fn prim_literal(primitive: &str, text: &str) -> Option<String> {
    Some(match primitive {
        "boolean" => match text {
            "true" | "false" => text.to_string(),
            _ => return None,
        },
        "byte" => format!("(byte) {}", text.parse::<i8>().ok()?),
        "short" => format!("(short) {}", text.parse::<i16>().ok()?),
        "int" => text.parse::<i32>().ok()?.to_string(),
        "long" => format!("{}L", text.parse::<i64>().ok()?),
        "char" => {
            let units: Vec<u16> = text.encode_utf16().collect();
            match units[..] {
                [unit] => java_char(unit),
                // A char XML cannot hold, written `\uXXXX` (six characters: only this escape).
                _ if text.len() == 6 && text.starts_with("\\u") => {
                    java_char(u16::from_str_radix(&text[2..], 16).ok()?)
                }
                _ => return None,
            }
        }
        // Parsed as f32 directly: through f64 it would round twice.
        "float" => java_float(match text {
            "NaN" => f32::NAN,
            "Infinity" => f32::INFINITY,
            "-Infinity" => f32::NEG_INFINITY,
            _ => text.parse().ok()?,
        }),
        "double" => java_double(java_number(text)?),
        _ => return None,
    })
}

/// A double as Java's `Double.toString` writes it (`NaN`, `Infinity`, `1.0E10`).
fn java_number(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => text.parse().ok(),
    }
}

/// The value an atomic's `set` takes, for the JDK atomics a capture writes as text.
fn atomic_value(class: &str, text: &str) -> Option<String> {
    match class {
        "java.util.concurrent.atomic.AtomicInteger" => {
            text.parse::<i32>().ok().map(|v| v.to_string())
        }
        "java.util.concurrent.atomic.AtomicLong" => {
            text.parse::<i64>().ok().map(|v| format!("{v}L"))
        }
        "java.util.concurrent.atomic.AtomicBoolean" => {
            matches!(text, "true" | "false").then(|| text.to_string())
        }
        _ => None,
    }
}

/// Whether `text` holds `\u` and four hex digits.
fn has_unicode_escape(text: &str) -> bool {
    text.match_indices("\\u").any(|(i, _)| {
        text[i + 2..]
            .chars()
            .take(4)
            .filter(char::is_ascii_hexdigit)
            .count()
            == 4
    })
}

/// The Java name of an array's element type, when the test can name it.
fn java_type(name: &str, scope: &Scope<'_, '_>) -> Result<String, String> {
    if is_primitive(name) {
        return Ok(name.to_string());
    }
    if !scope.module.class_visible(name, scope.from) {
        return Err(format!("the class {name} cannot be named from the test"));
    }
    Ok(scope.module.canonical(name))
}

/// JDK collections whose `clear`/`add`/`put` throw.
fn is_immutable(class: &str) -> bool {
    class.contains("Immutable")
        || class.contains("Unmodifiable")
        || class.starts_with("java.util.Collections$Empty")
        || class.starts_with("java.util.Collections$Singleton")
        || class == "java.util.Arrays$ArrayList"
}

/// Public JDK collections with a public no-argument constructor, and whether they are generic.
fn constructible(class: &str) -> Option<bool> {
    const GENERIC: [&str; 22] = [
        "java.util.ArrayList",
        "java.util.LinkedList",
        "java.util.Vector",
        "java.util.Stack",
        "java.util.ArrayDeque",
        "java.util.HashMap",
        "java.util.LinkedHashMap",
        "java.util.TreeMap",
        "java.util.IdentityHashMap",
        "java.util.Hashtable",
        "java.util.HashSet",
        "java.util.LinkedHashSet",
        "java.util.TreeSet",
        "java.util.PriorityQueue",
        "java.util.concurrent.ConcurrentHashMap",
        "java.util.concurrent.ConcurrentSkipListMap",
        "java.util.concurrent.ConcurrentSkipListSet",
        "java.util.concurrent.CopyOnWriteArrayList",
        "java.util.concurrent.CopyOnWriteArraySet",
        "java.util.concurrent.ConcurrentLinkedQueue",
        "java.util.concurrent.ConcurrentLinkedDeque",
        "java.util.concurrent.LinkedBlockingQueue",
    ];
    if GENERIC.contains(&class) {
        Some(true)
    } else if class == "java.util.Properties" {
        Some(false)
    } else {
        None
    }
}

fn is_sorted(class: &str) -> bool {
    matches!(
        class,
        "java.util.TreeMap"
            | "java.util.TreeSet"
            | "java.util.PriorityQueue"
            | "java.util.concurrent.ConcurrentSkipListMap"
            | "java.util.concurrent.ConcurrentSkipListSet"
    )
}

#[cfg(test)]
#[path = "restore_tests.rs"]
mod tests;
