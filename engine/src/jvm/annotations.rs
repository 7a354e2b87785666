//! Runtime-visible annotations (JVMS 4.7.16 to 4.7.20): their types, and every type named inside
//! them (nested annotations, enum and class values, parameter annotations, defaults, type
//! annotations), which appear only as `Utf8` text, never as `Class` entries of the pool.

use std::collections::BTreeSet;

use super::descriptor::dotted;
use super::pool::Pool;
use super::reader::{Parse, Reader};
use super::signature::descriptor_types;

/// How deep annotations may nest inside each other before the file is called malformed.
const MAX_ANNOTATION_DEPTH: u32 = 32;

/// The annotation types of a `RuntimeVisibleAnnotations` attribute; adds every type named
/// inside them to `refs`.
pub(super) fn annotations(
    r: &mut Reader<'_>,
    pool: &Pool<'_>,
    refs: &mut BTreeSet<String>,
) -> Parse<Vec<String>> {
    let count = r.u2("the annotation count")?;
    let mut types = Vec::with_capacity(count as usize);
    for _ in 0..count {
        types.push(annotation(r, pool, 0, refs)?);
    }
    Ok(types)
}

/// A `RuntimeVisibleTypeAnnotations` attribute (JVMS 4.7.20): adds the types named in its
/// annotations to `refs`.
pub(super) fn type_annotations(
    r: &mut Reader<'_>,
    pool: &Pool<'_>,
    refs: &mut BTreeSet<String>,
) -> Parse<()> {
    let count = r.u2("the type annotation count")?;
    for _ in 0..count {
        let target = r.u1("a type annotation's target type")?;
        match target {
            0x00 | 0x01 | 0x16 => {
                r.u1("a type annotation's target")?;
            }
            0x10 | 0x17 | 0x42..=0x46 => {
                r.u2("a type annotation's target")?;
            }
            0x11 | 0x12 => {
                r.u2("a type annotation's target")?;
            }
            0x13..=0x15 => {}
            0x40 | 0x41 => {
                let n = r.u2("a local variable target's length")?;
                r.take(n as usize * 6, "a local variable target")?;
            }
            0x47..=0x4b => {
                r.take(3, "a type argument target")?;
            }
            _ => {
                r.pos -= 1;
                return r.fail(format!("unknown type annotation target {target:#04x}"));
            }
        }
        let path = r.u1("a type path's length")?;
        r.take(path as usize * 2, "a type path")?;
        annotation(r, pool, 0, refs)?;
    }
    Ok(())
}

/// One annotation; returns its type (dotted) and adds it, and every type named inside it, to
/// `refs`.
fn annotation(
    r: &mut Reader<'_>,
    pool: &Pool<'_>,
    depth: u32,
    refs: &mut BTreeSet<String>,
) -> Parse<String> {
    if depth > MAX_ANNOTATION_DEPTH {
        return r.fail(format!(
            "annotations nested more than {MAX_ANNOTATION_DEPTH} deep"
        ));
    }
    let at = r.pos;
    let descriptor = pool.utf8(r.u2("an annotation type")?, at)?;
    let name = descriptor
        .strip_prefix('L')
        .and_then(|d| d.strip_suffix(';'))
        .map(dotted)
        .unwrap_or_else(|| dotted(descriptor));
    refs.insert(name.clone());
    let pairs = r.u2("an annotation's element count")?;
    for _ in 0..pairs {
        r.u2("an element name")?;
        element_value(r, pool, depth, refs)?;
    }
    Ok(name)
}

/// One element value (JVMS 4.7.16.1); adds the types named in it to `refs`.
pub(super) fn element_value(
    r: &mut Reader<'_>,
    pool: &Pool<'_>,
    depth: u32,
    refs: &mut BTreeSet<String>,
) -> Parse<()> {
    if depth > MAX_ANNOTATION_DEPTH {
        return r.fail(format!(
            "annotation values nested more than {MAX_ANNOTATION_DEPTH} deep"
        ));
    }
    let tag = r.u1("an element value tag")?;
    match tag {
        b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' | b's' => {
            r.u2("an element value")?;
        }
        b'e' => {
            let at = r.pos;
            descriptor_types(pool.utf8(r.u2("an enum element's type")?, at)?, refs);
            r.u2("an enum element's name")?;
        }
        b'c' => {
            let at = r.pos;
            descriptor_types(pool.utf8(r.u2("a class element")?, at)?, refs);
        }
        b'@' => {
            annotation(r, pool, depth + 1, refs)?;
        }
        b'[' => {
            let n = r.u2("an array element's length")?;
            for _ in 0..n {
                element_value(r, pool, depth + 1, refs)?;
            }
        }
        _ => {
            r.pos -= 1;
            return r.fail(format!("unknown annotation element tag {tag:#04x}"));
        }
    }
    Ok(())
}
