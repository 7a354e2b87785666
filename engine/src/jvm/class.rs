//! What a parsed class file holds: the class ([`ClassFile`]), its fields and methods, its
//! `InnerClasses` entries, access flags, and the queries over them (a member by name, nesting,
//! every class it refers to).

use std::collections::BTreeSet;

use super::bytecode::{BootstrapMethod, Code};
use super::descriptor::dotted;
use super::pool::{Constant, PoolEntry};
use super::signature::{descriptor_types, signature_types};

/// Access and property flags of a class, field, method or inner class (JVMS 4.1, 4.5, 4.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct AccessFlags(pub u16);

impl AccessFlags {
    /// `ACC_PUBLIC`.
    pub const PUBLIC: u16 = 0x0001;
    /// `ACC_PRIVATE`.
    pub const PRIVATE: u16 = 0x0002;
    /// `ACC_PROTECTED`.
    pub const PROTECTED: u16 = 0x0004;
    /// `ACC_STATIC`.
    pub const STATIC: u16 = 0x0008;
    /// `ACC_FINAL`.
    pub const FINAL: u16 = 0x0010;
    /// `ACC_BRIDGE` (methods; `ACC_VOLATILE` on fields).
    pub const BRIDGE: u16 = 0x0040;
    /// `ACC_INTERFACE` (classes).
    pub const INTERFACE: u16 = 0x0200;
    /// `ACC_ABSTRACT`.
    pub const ABSTRACT: u16 = 0x0400;
    /// `ACC_SYNTHETIC`.
    pub const SYNTHETIC: u16 = 0x1000;
    /// `ACC_ANNOTATION` (classes).
    pub const ANNOTATION: u16 = 0x2000;
    /// `ACC_ENUM` (classes and fields).
    pub const ENUM: u16 = 0x4000;

    /// Whether every bit of `flag` is set.
    pub fn has(self, flag: u16) -> bool {
        self.0 & flag == flag
    }
    /// `public`.
    pub fn is_public(self) -> bool {
        self.has(Self::PUBLIC)
    }
    /// `private`.
    pub fn is_private(self) -> bool {
        self.has(Self::PRIVATE)
    }
    /// `protected`.
    pub fn is_protected(self) -> bool {
        self.has(Self::PROTECTED)
    }
    /// `static`.
    pub fn is_static(self) -> bool {
        self.has(Self::STATIC)
    }
    /// `final`.
    pub fn is_final(self) -> bool {
        self.has(Self::FINAL)
    }
    /// Compiler-generated.
    pub fn is_synthetic(self) -> bool {
        self.has(Self::SYNTHETIC)
    }
    /// A bridge method (only meaningful on methods).
    pub fn is_bridge(self) -> bool {
        self.has(Self::BRIDGE)
    }
    /// An interface (classes).
    pub fn is_interface(self) -> bool {
        self.has(Self::INTERFACE)
    }
    /// `abstract`.
    pub fn is_abstract(self) -> bool {
        self.has(Self::ABSTRACT)
    }
    /// An enum class, or an enum constant's field.
    pub fn is_enum(self) -> bool {
        self.has(Self::ENUM)
    }
}

/// A field (JVMS 4.5).
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Access flags.
    pub access: AccessFlags,
    /// Name.
    pub name: String,
    /// Descriptor (`Ljava/util/Map;`).
    pub descriptor: String,
    /// Its `ConstantValue` attribute, if any.
    pub constant_value: Option<Constant>,
    /// Its generic `Signature`, if any.
    pub signature: Option<String>,
    /// The types (dotted) of its runtime-visible annotations.
    pub annotations: Vec<String>,
}

/// A method (JVMS 4.6).
#[derive(Debug, Clone, PartialEq)]
pub struct Method {
    /// Access flags.
    pub access: AccessFlags,
    /// Name (`<init>`, `<clinit>` included).
    pub name: String,
    /// Descriptor (`(Ljava/lang/String;)V`).
    pub descriptor: String,
    /// Its generic `Signature`, if any.
    pub signature: Option<String>,
    /// The types (dotted) of its runtime-visible annotations (`org.junit.Test`).
    pub annotations: Vec<String>,
    /// Its code; none for abstract and native methods.
    pub code: Option<Code>,
}

/// An entry of the `InnerClasses` attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InnerClass {
    /// The nested class (dotted binary name).
    pub inner: String,
    /// Its enclosing class, for a member class; none for local and anonymous classes.
    pub outer: Option<String>,
    /// Its simple name; none for an anonymous class.
    pub simple_name: Option<String>,
    /// Its access flags as written in source (`private`, `protected`, `static`).
    pub access: AccessFlags,
}

/// A parsed class file.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassFile {
    /// `minor_version`.
    pub minor_version: u16,
    /// `major_version` (61 for Java 17).
    pub major_version: u16,
    /// The class's access flags.
    pub access: AccessFlags,
    /// Its name (dotted binary name).
    pub name: String,
    /// Its superclass; none for `java.lang.Object` and `module-info`.
    pub super_class: Option<String>,
    /// Its direct superinterfaces.
    pub interfaces: Vec<String>,
    /// Its fields.
    pub fields: Vec<Field>,
    /// Its methods.
    pub methods: Vec<Method>,
    /// Its generic `Signature`, if any.
    pub signature: Option<String>,
    /// The types of its runtime-visible annotations.
    pub annotations: Vec<String>,
    /// Its `InnerClasses` attribute: its own entry when it is nested, and its members'.
    pub inner_classes: Vec<InnerClass>,
    /// For a local or anonymous class, the class (and method, as `name` + descriptor) that
    /// encloses it (`EnclosingMethod`).
    pub enclosing_method: Option<(String, Option<(String, String)>)>,
    /// Its `SourceFile`, if any.
    pub source_file: Option<String>,
    /// Its `BootstrapMethods`.
    pub bootstrap_methods: Vec<BootstrapMethod>,
    /// The constant pool (index 0 and the slot after each long and double are
    /// [`PoolEntry::Unusable`]).
    pub pool: Vec<PoolEntry>,
    /// Every type (dotted) named inside the runtime-visible annotations of the class, its fields
    /// and its methods, beyond the annotation types of [`ClassFile::annotations`] and the
    /// members' `annotations`: nested annotations, enum-valued and class-valued elements
    /// (`@RunWith(Foo.class)`), parameter annotations, annotation defaults and type annotations.
    /// These names appear only as `Utf8` text, never as `Class` entries of the pool.
    pub annotation_references: BTreeSet<String>,
}

impl ClassFile {
    /// The method named `name` with `descriptor`, if the class declares it.
    pub fn method(&self, name: &str, descriptor: &str) -> Option<&Method> {
        self.methods
            .iter()
            .find(|m| m.name == name && m.descriptor == descriptor)
    }

    /// The field named `name`, if the class declares it.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// This class's own `InnerClasses` entry, when it is a nested class.
    pub fn own_inner_entry(&self) -> Option<&InnerClass> {
        self.inner_classes.iter().find(|i| i.inner == self.name)
    }

    /// Whether it is a local or anonymous class (declared inside a method or initializer).
    pub fn is_local_or_anonymous(&self) -> bool {
        self.enclosing_method.is_some()
            || self
                .own_inner_entry()
                .is_some_and(|i| i.outer.is_none() || i.simple_name.is_none())
    }

    /// Every class this class refers to, other than itself: the constant pool's `Class`
    /// entries (the element type of array classes; this covers superclasses, interfaces,
    /// instructions, `throws`, catch types, inner classes, nest members, permitted subclasses and
    /// the owners of bootstrap methods and method handles), the object types of every descriptor
    /// (its fields' and methods', the pool's `NameAndType` and `MethodType` entries, so
    /// `invokedynamic` bootstrap arguments too), the generic `Signature`s of the class, its fields
    /// and methods (`List<Foo>` names `Foo` nowhere else), and every type named in its
    /// runtime-visible annotations ([`ClassFile::annotation_references`]). Dotted binary names;
    /// primitive types are left out.
    pub fn referenced_types(&self) -> BTreeSet<String> {
        let mut types = BTreeSet::new();
        for entry in &self.pool {
            match entry {
                PoolEntry::Class(i) => {
                    let name = self.utf8(*i);
                    if name.starts_with('[') {
                        descriptor_types(name, &mut types);
                    } else if !name.is_empty() {
                        types.insert(dotted(name));
                    }
                }
                PoolEntry::NameAndType { descriptor, .. } => {
                    descriptor_types(self.utf8(*descriptor), &mut types)
                }
                PoolEntry::MethodType(i) => descriptor_types(self.utf8(*i), &mut types),
                _ => {}
            }
        }
        for f in &self.fields {
            descriptor_types(&f.descriptor, &mut types);
            types.extend(f.annotations.iter().cloned());
            if let Some(s) = &f.signature {
                signature_types(s, &mut types);
            }
        }
        for m in &self.methods {
            descriptor_types(&m.descriptor, &mut types);
            types.extend(m.annotations.iter().cloned());
            if let Some(s) = &m.signature {
                signature_types(s, &mut types);
            }
        }
        if let Some(s) = &self.signature {
            signature_types(s, &mut types);
        }
        types.extend(self.annotations.iter().cloned());
        types.extend(self.annotation_references.iter().cloned());
        types.remove(&self.name);
        types
    }

    /// The text of a `Utf8` entry; empty when `index` is not one (indices are checked when the
    /// file is read, so this does not happen for the indices a parsed file holds).
    fn utf8(&self, index: u16) -> &str {
        match self.pool.get(index as usize) {
            Some(PoolEntry::Utf8(s)) => s,
            _ => "",
        }
    }
}
