//! Parsing a class file (JVMS 4.1): the header and its version, the class's names and
//! attributes, its fields and methods; the constant pool, bytecode and annotations are read by
//! their own files.

use std::collections::BTreeSet;

use super::annotations::{annotations, element_value, type_annotations};
use super::bytecode::{parse_code, BootstrapMethod, Handle};
use super::class::{AccessFlags, ClassFile, Field, InnerClass, Method};
use super::pool::{parse_pool, tag_name, Pool, PoolEntry};
use super::reader::{Malformed, Parse, Reader};

/// The newest class-file major version this reader knows: 69, Java 25.
pub const MAX_MAJOR_VERSION: u16 = 69;

/// The oldest class-file major version: 45, Java 1.0/1.1.
pub const MIN_MAJOR_VERSION: u16 = 45;

/// Parses a whole class file: header, pool, class attributes, then fields and methods.
pub(super) fn parse_class(r: &mut Reader<'_>) -> Parse<ClassFile> {
    let magic = r.u4("the magic number")?;
    if magic != 0xCAFE_BABE {
        r.pos = 0;
        return r.fail(format!(
            "not a class file: magic number {magic:#010X}, expected 0xCAFEBABE"
        ));
    }
    let minor_version = r.u2("the minor version")?;
    let major_version = r.u2("the major version")?;
    if !(MIN_MAJOR_VERSION..=MAX_MAJOR_VERSION).contains(&major_version) {
        r.pos -= 2;
        return r.fail(format!(
            "class-file version {major_version}.{minor_version} is not one this reader knows \
             ({MIN_MAJOR_VERSION} to {MAX_MAJOR_VERSION}, Java 1.1 to Java 25)"
        ));
    }
    let entries = parse_pool(r)?;
    let pool = Pool { entries: &entries };
    let at = r.pos;
    let access = AccessFlags(r.u2("the access flags")?);
    let this = r.u2("this_class")?;
    let name = pool.class(this, at)?;
    let super_index = r.u2("super_class")?;
    let super_class = pool.optional_class(super_index, at)?;
    let count = r.u2("the interface count")?;
    let mut interfaces = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let at = r.pos;
        interfaces.push(pool.class(r.u2("an interface")?, at)?);
    }
    // Bootstrap methods are a class attribute, read after the methods; a method's
    // `invokedynamic` names its bootstrap method's class, so the class attributes are located
    // first and the members read after them.
    let members_start = r.pos;
    skip_members(r)?; // fields
    skip_members(r)?; // methods
    let class_attributes = read_attributes(r, &pool)?;
    if r.pos != r.bytes.len() {
        return r.fail(format!(
            "{} bytes after the end of the class file",
            r.bytes.len() - r.pos
        ));
    }
    let mut class = ClassFile {
        minor_version,
        major_version,
        access,
        name,
        super_class,
        interfaces,
        fields: Vec::new(),
        methods: Vec::new(),
        signature: None,
        annotations: Vec::new(),
        inner_classes: Vec::new(),
        enclosing_method: None,
        source_file: None,
        bootstrap_methods: Vec::new(),
        pool: Vec::new(),
        annotation_references: BTreeSet::new(),
    };
    for attribute in &class_attributes {
        let mut a = Reader {
            bytes: r.bytes,
            pos: attribute.start,
        };
        let at = a.pos;
        match attribute.name.as_str() {
            "BootstrapMethods" => {
                let count = a.u2("the bootstrap method count")?;
                for _ in 0..count {
                    let at = a.pos;
                    let handle = a.u2("a bootstrap method")?;
                    let (kind, method) = match pool.get(handle, at)? {
                        PoolEntry::MethodHandle { kind, reference } => {
                            (*kind, pool.member(*reference, at, &[9, 10, 11])?.0)
                        }
                        other => {
                            return Err(Malformed(
                                format!(
                                    "bootstrap method {handle} should be a MethodHandle, is {}",
                                    tag_name(other)
                                ),
                                at,
                            ))
                        }
                    };
                    let n = a.u2("the bootstrap argument count")?;
                    let mut arguments = Vec::with_capacity(n as usize);
                    let mut handles = Vec::new();
                    for _ in 0..n {
                        let at = a.pos;
                        let arg = a.u2("a bootstrap argument")?;
                        if let PoolEntry::MethodHandle { kind, reference } = pool.get(arg, at)? {
                            handles.push(Handle {
                                kind: *kind,
                                member: pool.member(*reference, at, &[9, 10, 11])?.0,
                            });
                        }
                        arguments.push(arg);
                    }
                    class.bootstrap_methods.push(BootstrapMethod {
                        kind,
                        method,
                        arguments,
                        handles,
                    });
                }
            }
            "InnerClasses" => {
                let count = a.u2("the inner class count")?;
                for _ in 0..count {
                    let at = a.pos;
                    let inner = pool.class(a.u2("an inner class")?, at)?;
                    let outer = pool.optional_class(a.u2("an outer class")?, at)?;
                    let name = a.u2("an inner class's name")?;
                    let simple_name = if name == 0 {
                        None
                    } else {
                        Some(pool.utf8(name, at)?.to_string())
                    };
                    let access = AccessFlags(a.u2("an inner class's flags")?);
                    class.inner_classes.push(InnerClass {
                        inner,
                        outer,
                        simple_name,
                        access,
                    });
                }
            }
            "EnclosingMethod" => {
                let owner = pool.class(a.u2("the enclosing class")?, at)?;
                let method = a.u2("the enclosing method")?;
                let method = if method == 0 {
                    None
                } else {
                    Some(pool.name_and_type(method, at)?)
                };
                class.enclosing_method = Some((owner, method));
            }
            "Signature" => class.signature = Some(pool.utf8(a.u2("a signature")?, at)?.into()),
            "SourceFile" => class.source_file = Some(pool.utf8(a.u2("a source file")?, at)?.into()),
            "RuntimeVisibleAnnotations" => {
                class.annotations = annotations(&mut a, &pool, &mut class.annotation_references)?
            }
            "RuntimeVisibleTypeAnnotations" => {
                type_annotations(&mut a, &pool, &mut class.annotation_references)?
            }
            _ => continue,
        }
        attribute.check_consumed(&a)?;
    }
    r.pos = members_start;
    let count = r.u2("the field count")?;
    for _ in 0..count {
        class
            .fields
            .push(parse_field(r, &pool, &mut class.annotation_references)?);
    }
    let count = r.u2("the method count")?;
    for _ in 0..count {
        class.methods.push(parse_method(
            r,
            &pool,
            &class.bootstrap_methods,
            &mut class.annotation_references,
        )?);
    }
    class.pool = entries;
    Ok(class)
}

/// An attribute located in the file: its name and where its body is.
struct Attribute {
    name: String,
    start: usize,
    end: usize,
}

impl Attribute {
    fn check_consumed(&self, r: &Reader<'_>) -> Parse<()> {
        if r.pos != self.end {
            return Err(Malformed(
                format!(
                    "attribute {} is {} bytes long but its content is {}",
                    self.name,
                    self.end - self.start,
                    r.pos - self.start
                ),
                self.start,
            ));
        }
        Ok(())
    }
}

/// Locates the attributes that follow.
fn read_attributes(r: &mut Reader<'_>, pool: &Pool<'_>) -> Parse<Vec<Attribute>> {
    let count = r.u2("the attribute count")?;
    let mut attributes = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let at = r.pos;
        let name = pool.utf8(r.u2("an attribute name")?, at)?.to_string();
        let length = r.u4("an attribute length")? as usize;
        let start = r.pos;
        r.take(length, &format!("attribute {name}"))?;
        attributes.push(Attribute {
            name,
            start,
            end: r.pos,
        });
    }
    Ok(attributes)
}

fn skip_members(r: &mut Reader<'_>) -> Parse<()> {
    let count = r.u2("a member count")?;
    for _ in 0..count {
        r.take(6, "a field or method")?;
        let attributes = r.u2("the attribute count")?;
        for _ in 0..attributes {
            r.u2("an attribute name")?;
            let length = r.u4("an attribute length")? as usize;
            r.take(length, "an attribute")?;
        }
    }
    Ok(())
}

/// The head of a field or method: flags, name, descriptor, attributes.
fn member_head(r: &mut Reader<'_>, pool: &Pool<'_>) -> Parse<(AccessFlags, String, String)> {
    let at = r.pos;
    let access = AccessFlags(r.u2("member flags")?);
    let name = pool.utf8(r.u2("a member name")?, at)?.to_string();
    let descriptor = pool.utf8(r.u2("a member descriptor")?, at)?.to_string();
    Ok((access, name, descriptor))
}

fn parse_field(r: &mut Reader<'_>, pool: &Pool<'_>, refs: &mut BTreeSet<String>) -> Parse<Field> {
    let (access, name, descriptor) = member_head(r, pool)?;
    let mut field = Field {
        access,
        name,
        descriptor,
        constant_value: None,
        signature: None,
        annotations: Vec::new(),
    };
    for attribute in read_attributes(r, pool)? {
        let mut a = Reader {
            bytes: r.bytes,
            pos: attribute.start,
        };
        let at = a.pos;
        match attribute.name.as_str() {
            "ConstantValue" => {
                let index = a.u2("a constant value")?;
                field.constant_value = Some(pool.constant(index, at)?);
            }
            "Signature" => field.signature = Some(pool.utf8(a.u2("a signature")?, at)?.into()),
            "RuntimeVisibleAnnotations" => field.annotations = annotations(&mut a, pool, refs)?,
            "RuntimeVisibleTypeAnnotations" => type_annotations(&mut a, pool, refs)?,
            _ => continue,
        }
        attribute.check_consumed(&a)?;
    }
    Ok(field)
}

fn parse_method(
    r: &mut Reader<'_>,
    pool: &Pool<'_>,
    bootstraps: &[BootstrapMethod],
    refs: &mut BTreeSet<String>,
) -> Parse<Method> {
    let (access, name, descriptor) = member_head(r, pool)?;
    let mut method = Method {
        access,
        name,
        descriptor,
        signature: None,
        annotations: Vec::new(),
        code: None,
    };
    for attribute in read_attributes(r, pool)? {
        let mut a = Reader {
            bytes: r.bytes,
            pos: attribute.start,
        };
        let at = a.pos;
        match attribute.name.as_str() {
            "Code" => {
                if method.code.is_some() {
                    return a.fail(format!("method {} has two Code attributes", method.name));
                }
                method.code = Some(parse_code(&mut a, pool, bootstraps).map_err(
                    |Malformed(reason, at)| {
                        Malformed(
                            format!(
                                "in the code of {}{}: {reason}",
                                method.name, method.descriptor
                            ),
                            at,
                        )
                    },
                )?);
            }
            "Signature" => method.signature = Some(pool.utf8(a.u2("a signature")?, at)?.into()),
            "RuntimeVisibleAnnotations" => method.annotations = annotations(&mut a, pool, refs)?,
            "RuntimeVisibleParameterAnnotations" => {
                let parameters = a.u1("the annotated parameter count")?;
                for _ in 0..parameters {
                    annotations(&mut a, pool, refs)?;
                }
            }
            "AnnotationDefault" => element_value(&mut a, pool, 0, refs)?,
            "RuntimeVisibleTypeAnnotations" => type_annotations(&mut a, pool, refs)?,
            _ => continue,
        }
        attribute.check_consumed(&a)?;
    }
    Ok(method)
}
