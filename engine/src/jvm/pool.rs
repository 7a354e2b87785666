//! The constant pool (JVMS 4.4): its entries ([`PoolEntry`]), the constants and member
//! references they resolve to ([`Constant`], [`MemberRef`]), reading it with every reference
//! checked, and typed lookups that fail as `Malformed` (modified UTF-8 decoded).

use super::descriptor::dotted;
use super::reader::{Malformed, Parse, Reader};

/// A reference to a field or method: its owner (dotted), name and descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemberRef {
    /// The class named in the reference (dotted binary name; the declaring class or a subclass).
    pub owner: String,
    /// The member's name.
    pub name: String,
    /// The member's descriptor.
    pub descriptor: String,
}

impl std::fmt::Display for MemberRef {
    /// `owner.name` for a field descriptor, `owner.name(args)ret` for a method.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.descriptor.starts_with('(') {
            write!(f, "{}.{}{}", self.owner, self.name, self.descriptor)
        } else {
            write!(f, "{}.{}", self.owner, self.name)
        }
    }
}

/// One constant-pool entry (JVMS 4.4). References are indices into the pool, checked when the
/// file is read: each points at an entry of the kind its tag requires.
#[derive(Debug, Clone, PartialEq)]
pub enum PoolEntry {
    /// Index 0, and the slot after a `Long` or `Double`.
    Unusable,
    /// `CONSTANT_Utf8`, decoded from modified UTF-8 (unpaired surrogates become U+FFFD).
    Utf8(String),
    /// `CONSTANT_Integer`.
    Integer(i32),
    /// `CONSTANT_Float`.
    Float(f32),
    /// `CONSTANT_Long`.
    Long(i64),
    /// `CONSTANT_Double`.
    Double(f64),
    /// `CONSTANT_Class`: the index of its name.
    Class(u16),
    /// `CONSTANT_String`: the index of its text.
    String(u16),
    /// `CONSTANT_Fieldref`.
    Fieldref {
        /// A `Class` entry.
        class: u16,
        /// A `NameAndType` entry.
        name_and_type: u16,
    },
    /// `CONSTANT_Methodref`.
    Methodref {
        /// A `Class` entry.
        class: u16,
        /// A `NameAndType` entry.
        name_and_type: u16,
    },
    /// `CONSTANT_InterfaceMethodref`.
    InterfaceMethodref {
        /// A `Class` entry.
        class: u16,
        /// A `NameAndType` entry.
        name_and_type: u16,
    },
    /// `CONSTANT_NameAndType`.
    NameAndType {
        /// A `Utf8` name.
        name: u16,
        /// A `Utf8` descriptor.
        descriptor: u16,
    },
    /// `CONSTANT_MethodHandle`.
    MethodHandle {
        /// The reference kind, 1 (`getField`) to 9 (`invokeInterface`).
        kind: u8,
        /// A field or method reference.
        reference: u16,
    },
    /// `CONSTANT_MethodType`: the index of a `Utf8` method descriptor.
    MethodType(u16),
    /// `CONSTANT_Dynamic` (a dynamically computed constant).
    Dynamic {
        /// The index into the `BootstrapMethods` attribute.
        bootstrap: u16,
        /// A `NameAndType` entry.
        name_and_type: u16,
    },
    /// `CONSTANT_InvokeDynamic`.
    InvokeDynamic {
        /// The index into the `BootstrapMethods` attribute.
        bootstrap: u16,
        /// A `NameAndType` entry.
        name_and_type: u16,
    },
    /// `CONSTANT_Module`: the index of a `Utf8` module name.
    Module(u16),
    /// `CONSTANT_Package`: the index of a `Utf8` package name (internal form).
    Package(u16),
}

/// A constant a method loads (`ldc`, `iconst_*`, `bipush`, ...) or a field's `ConstantValue`.
#[derive(Debug, Clone, PartialEq)]
pub enum Constant {
    /// `aconst_null`.
    Null,
    /// An `int` (also what `boolean`, `byte`, `char` and `short` constants are loaded as).
    Int(i32),
    /// A `long`.
    Long(i64),
    /// A `float`.
    Float(f32),
    /// A `double`.
    Double(f64),
    /// A `String`.
    String(String),
    /// A class literal (dotted binary name, or `[L...;` for an array class).
    Class(String),
    /// A `MethodType` (its descriptor).
    MethodType(String),
    /// A `MethodHandle`: its reference kind and member.
    MethodHandle {
        /// The reference kind (1-9).
        kind: u8,
        /// The member it refers to.
        member: MemberRef,
    },
    /// A dynamically computed constant (`CONSTANT_Dynamic`): its name and field descriptor.
    Dynamic {
        /// Its name.
        name: String,
        /// Its field descriptor.
        descriptor: String,
    },
}

/// The pool with typed lookups that fail as [`Malformed`].
pub(super) struct Pool<'p> {
    pub(super) entries: &'p [PoolEntry],
}

impl Pool<'_> {
    pub(super) fn get(&self, index: u16, at: usize) -> Parse<&PoolEntry> {
        match self.entries.get(index as usize) {
            Some(PoolEntry::Unusable) | None => Err(Malformed(
                format!("constant-pool index {index} is not a usable entry"),
                at,
            )),
            Some(e) => Ok(e),
        }
    }

    pub(super) fn utf8(&self, index: u16, at: usize) -> Parse<&str> {
        match self.get(index, at)? {
            PoolEntry::Utf8(s) => Ok(s),
            other => Err(Malformed(
                format!(
                    "constant-pool entry {index} should be Utf8, is {}",
                    tag_name(other)
                ),
                at,
            )),
        }
    }

    pub(super) fn class(&self, index: u16, at: usize) -> Parse<String> {
        match self.get(index, at)? {
            PoolEntry::Class(name) => Ok(dotted(self.utf8(*name, at)?)),
            other => Err(Malformed(
                format!(
                    "constant-pool entry {index} should be Class, is {}",
                    tag_name(other)
                ),
                at,
            )),
        }
    }

    pub(super) fn optional_class(&self, index: u16, at: usize) -> Parse<Option<String>> {
        if index == 0 {
            Ok(None)
        } else {
            self.class(index, at).map(Some)
        }
    }

    pub(super) fn name_and_type(&self, index: u16, at: usize) -> Parse<(String, String)> {
        match self.get(index, at)? {
            PoolEntry::NameAndType { name, descriptor } => Ok((
                self.utf8(*name, at)?.to_string(),
                self.utf8(*descriptor, at)?.to_string(),
            )),
            other => Err(Malformed(
                format!(
                    "constant-pool entry {index} should be NameAndType, is {}",
                    tag_name(other)
                ),
                at,
            )),
        }
    }

    /// A field or method reference: the member and whether it is an `InterfaceMethodref`.
    pub(super) fn member(&self, index: u16, at: usize, want: &[u8]) -> Parse<(MemberRef, bool)> {
        let entry = self.get(index, at)?;
        let (class, nat, tag, interface) = match entry {
            PoolEntry::Fieldref {
                class,
                name_and_type,
            } => (*class, *name_and_type, 9, false),
            PoolEntry::Methodref {
                class,
                name_and_type,
            } => (*class, *name_and_type, 10, false),
            PoolEntry::InterfaceMethodref {
                class,
                name_and_type,
            } => (*class, *name_and_type, 11, true),
            other => {
                return Err(Malformed(
                    format!(
                        "constant-pool entry {index} should be a member reference, is {}",
                        tag_name(other)
                    ),
                    at,
                ))
            }
        };
        if !want.contains(&tag) {
            return Err(Malformed(
                format!(
                    "constant-pool entry {index} is a {} where another kind of reference is needed",
                    tag_name(entry)
                ),
                at,
            ));
        }
        let (name, descriptor) = self.name_and_type(nat, at)?;
        Ok((
            MemberRef {
                owner: self.class(class, at)?,
                name,
                descriptor,
            },
            interface,
        ))
    }

    /// A loadable constant (`ldc`, `ConstantValue`, bootstrap arguments).
    pub(super) fn constant(&self, index: u16, at: usize) -> Parse<Constant> {
        Ok(match self.get(index, at)? {
            PoolEntry::Integer(v) => Constant::Int(*v),
            PoolEntry::Float(v) => Constant::Float(*v),
            PoolEntry::Long(v) => Constant::Long(*v),
            PoolEntry::Double(v) => Constant::Double(*v),
            PoolEntry::String(s) => Constant::String(self.utf8(*s, at)?.to_string()),
            PoolEntry::Class(_) => Constant::Class(self.class(index, at)?),
            PoolEntry::MethodType(d) => Constant::MethodType(self.utf8(*d, at)?.to_string()),
            PoolEntry::MethodHandle { kind, reference } => Constant::MethodHandle {
                kind: *kind,
                member: self.member(*reference, at, &[9, 10, 11])?.0,
            },
            PoolEntry::Dynamic { name_and_type, .. } => {
                let (name, descriptor) = self.name_and_type(*name_and_type, at)?;
                Constant::Dynamic { name, descriptor }
            }
            other => {
                return Err(Malformed(
                    format!(
                        "constant-pool entry {index} is a {}, not a loadable constant",
                        tag_name(other)
                    ),
                    at,
                ))
            }
        })
    }
}

/// The name of an entry's tag, for messages.
pub(super) fn tag_name(entry: &PoolEntry) -> &'static str {
    match entry {
        PoolEntry::Unusable => "unusable slot",
        PoolEntry::Utf8(_) => "Utf8",
        PoolEntry::Integer(_) => "Integer",
        PoolEntry::Float(_) => "Float",
        PoolEntry::Long(_) => "Long",
        PoolEntry::Double(_) => "Double",
        PoolEntry::Class(_) => "Class",
        PoolEntry::String(_) => "String",
        PoolEntry::Fieldref { .. } => "Fieldref",
        PoolEntry::Methodref { .. } => "Methodref",
        PoolEntry::InterfaceMethodref { .. } => "InterfaceMethodref",
        PoolEntry::NameAndType { .. } => "NameAndType",
        PoolEntry::MethodHandle { .. } => "MethodHandle",
        PoolEntry::MethodType(_) => "MethodType",
        PoolEntry::Dynamic { .. } => "Dynamic",
        PoolEntry::InvokeDynamic { .. } => "InvokeDynamic",
        PoolEntry::Module(_) => "Module",
        PoolEntry::Package(_) => "Package",
    }
}

/// Decodes modified UTF-8 (JVMS 4.4.7): no zero bytes, no 4-byte forms; surrogate pairs come as
/// two 3-byte sequences. `None` when the bytes are not modified UTF-8.
fn modified_utf8(bytes: &[u8]) -> Option<String> {
    if bytes.iter().all(|&b| b != 0 && b < 0x80) {
        return std::str::from_utf8(bytes).ok().map(str::to_string);
    }
    let mut units: Vec<u16> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let cont = |b: Option<&u8>| b.filter(|b| *b & 0xC0 == 0x80).map(|b| u16::from(b & 0x3F));
    while i < bytes.len() {
        let b = bytes[i];
        if b != 0 && b < 0x80 {
            units.push(u16::from(b));
            i += 1;
        } else if b & 0xE0 == 0xC0 {
            let c1 = cont(bytes.get(i + 1))?;
            units.push((u16::from(b & 0x1F) << 6) | c1);
            i += 2;
        } else if b & 0xF0 == 0xE0 {
            let c1 = cont(bytes.get(i + 1))?;
            let c2 = cont(bytes.get(i + 2))?;
            units.push((u16::from(b & 0x0F) << 12) | (c1 << 6) | c2);
            i += 3;
        } else {
            return None;
        }
    }
    Some(String::from_utf16_lossy(&units))
}

/// Reads the constant pool and checks its references.
pub(super) fn parse_pool(r: &mut Reader<'_>) -> Parse<Vec<PoolEntry>> {
    let count = r.u2("the constant-pool count")?;
    if count == 0 {
        return r.fail("constant-pool count is 0 (it is the number of entries plus one)");
    }
    let mut entries = Vec::with_capacity(count as usize);
    entries.push(PoolEntry::Unusable);
    while entries.len() < count as usize {
        let index = entries.len();
        let at = r.pos;
        let tag = r.u1("a constant-pool tag")?;
        let entry = match tag {
            1 => {
                let len = r.u2("a Utf8 length")?;
                let bytes = r.take(len as usize, "a Utf8 entry")?;
                match modified_utf8(bytes) {
                    Some(s) => PoolEntry::Utf8(s),
                    None => {
                        return Err(Malformed(
                            format!("constant-pool entry {index} is not modified UTF-8"),
                            at,
                        ))
                    }
                }
            }
            3 => PoolEntry::Integer(r.u4("an Integer")? as i32),
            4 => PoolEntry::Float(f32::from_bits(r.u4("a Float")?)),
            5 | 6 => {
                let hi = u64::from(r.u4("a Long or Double")?);
                let lo = u64::from(r.u4("a Long or Double")?);
                let bits = (hi << 32) | lo;
                if entries.len() + 1 >= count as usize {
                    return Err(Malformed(
                        format!("constant-pool entry {index} is a Long or Double in the last slot"),
                        at,
                    ));
                }
                entries.push(if tag == 5 {
                    PoolEntry::Long(bits as i64)
                } else {
                    PoolEntry::Double(f64::from_bits(bits))
                });
                PoolEntry::Unusable
            }
            7 => PoolEntry::Class(r.u2("a Class")?),
            8 => PoolEntry::String(r.u2("a String")?),
            9..=11 => {
                let class = r.u2("a member reference")?;
                let name_and_type = r.u2("a member reference")?;
                match tag {
                    9 => PoolEntry::Fieldref {
                        class,
                        name_and_type,
                    },
                    10 => PoolEntry::Methodref {
                        class,
                        name_and_type,
                    },
                    _ => PoolEntry::InterfaceMethodref {
                        class,
                        name_and_type,
                    },
                }
            }
            12 => PoolEntry::NameAndType {
                name: r.u2("a NameAndType")?,
                descriptor: r.u2("a NameAndType")?,
            },
            15 => {
                let kind = r.u1("a MethodHandle kind")?;
                if !(1..=9).contains(&kind) {
                    return Err(Malformed(
                        format!("constant-pool entry {index}: method-handle kind {kind} (1-9)"),
                        at,
                    ));
                }
                PoolEntry::MethodHandle {
                    kind,
                    reference: r.u2("a MethodHandle")?,
                }
            }
            16 => PoolEntry::MethodType(r.u2("a MethodType")?),
            17 | 18 => {
                let bootstrap = r.u2("a dynamic entry")?;
                let name_and_type = r.u2("a dynamic entry")?;
                if tag == 17 {
                    PoolEntry::Dynamic {
                        bootstrap,
                        name_and_type,
                    }
                } else {
                    PoolEntry::InvokeDynamic {
                        bootstrap,
                        name_and_type,
                    }
                }
            }
            19 => PoolEntry::Module(r.u2("a Module")?),
            20 => PoolEntry::Package(r.u2("a Package")?),
            _ => {
                return Err(Malformed(
                    format!("constant-pool entry {index} has unknown tag {tag}"),
                    at,
                ))
            }
        };
        entries.push(entry);
    }
    check_pool(&entries, r.pos)?;
    Ok(entries)
}

/// Checks that every reference inside the pool points at an entry of the right kind, so that
/// later lookups through a checked entry cannot fail.
fn check_pool(entries: &[PoolEntry], at: usize) -> Parse<()> {
    let pool = Pool { entries };
    for (index, entry) in entries.iter().enumerate() {
        let check = |r: Parse<()>| {
            r.map_err(|Malformed(reason, at)| {
                Malformed(format!("constant-pool entry {index}: {reason}"), at)
            })
        };
        match entry {
            PoolEntry::Class(i)
            | PoolEntry::String(i)
            | PoolEntry::MethodType(i)
            | PoolEntry::Module(i)
            | PoolEntry::Package(i) => check(pool.utf8(*i, at).map(drop))?,
            PoolEntry::Fieldref {
                class,
                name_and_type,
            }
            | PoolEntry::Methodref {
                class,
                name_and_type,
            }
            | PoolEntry::InterfaceMethodref {
                class,
                name_and_type,
            } => {
                check(pool.class(*class, at).map(drop))?;
                check(pool.name_and_type(*name_and_type, at).map(drop))?;
            }
            PoolEntry::NameAndType { name, descriptor } => {
                check(pool.utf8(*name, at).map(drop))?;
                check(pool.utf8(*descriptor, at).map(drop))?;
            }
            PoolEntry::MethodHandle { reference, .. } => {
                check(pool.member(*reference, at, &[9, 10, 11]).map(drop))?
            }
            PoolEntry::Dynamic { name_and_type, .. }
            | PoolEntry::InvokeDynamic { name_and_type, .. } => {
                check(pool.name_and_type(*name_and_type, at).map(drop))?
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modified_utf8_decoding() {
        assert_eq!(modified_utf8(b"abc").as_deref(), Some("abc"));
        assert_eq!(modified_utf8(&[0xC0, 0x80]).as_deref(), Some("\0"));
        // U+1F600 as a surrogate pair of two 3-byte sequences.
        assert_eq!(
            modified_utf8(&[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]).as_deref(),
            Some("\u{1F600}")
        );
        assert_eq!(modified_utf8(&[0]), None);
        assert_eq!(modified_utf8(&[0xF0, 0x9F, 0x98, 0x80]), None);
        assert_eq!(modified_utf8(&[0xC3]), None);
    }
}
