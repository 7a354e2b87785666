//! A reader of JVM class files (JVMS chapter 4), versions 45 (Java 1.1) to 69 (Java 25): the
//! constant pool (every tag), the class's access flags, names, fields, methods and the
//! attributes odrust uses, and each method's bytecode decoded into the instructions that matter
//! for finding who reads, writes and calls what.
//!
//! One parser for the whole engine: the reset-method finder (`repair::reset`) reads what a method
//! writes and calls, incremental selection reads [`ClassFile::referenced_types`].
//!
//! **Names.** Class names in this API are binary names with dots, as `Class.getName()` gives them
//! (`com.acme.Outer$Inner`, `[Ljava.lang.String;` for an array class); descriptors and signatures
//! are kept as the class file writes them (`(Ljava/lang/String;)V`).
//!
//! **Errors.** Malformed input (truncated, a bad magic number, an index out of the constant pool,
//! an entry of the wrong kind, an unknown opcode, a switch running past the code, ...) is an
//! [`EngineError::BadClassFile`] naming the file, the byte offset and what was being read; the
//! reader never panics and never allocates more than the input's size suggests.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::error::EngineError;

/// The newest class-file major version this reader knows: 69, Java 25.
pub const MAX_MAJOR_VERSION: u16 = 69;

/// The oldest class-file major version: 45, Java 1.0/1.1.
pub const MIN_MAJOR_VERSION: u16 = 45;

/// How deep annotations may nest inside each other before the file is called malformed.
const MAX_ANNOTATION_DEPTH: u32 = 32;

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

/// Which field instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldOp {
    /// `getstatic`.
    GetStatic,
    /// `putstatic`.
    PutStatic,
    /// `getfield`.
    GetField,
    /// `putfield`.
    PutField,
}

/// Which invocation instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InvokeKind {
    /// `invokestatic`.
    Static,
    /// `invokevirtual`.
    Virtual,
    /// `invokespecial`.
    Special,
    /// `invokeinterface`.
    Interface,
    /// `invokedynamic`.
    Dynamic,
}

/// What an interesting instruction does.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// A field access.
    Field {
        /// Which instruction.
        op: FieldOp,
        /// The field.
        field: MemberRef,
    },
    /// An invocation. For `invokedynamic`, `method.owner` is the class of the bootstrap method
    /// (`java.lang.invoke.LambdaMetafactory`), empty when the file has no usable
    /// `BootstrapMethods` entry, and `name`/`descriptor` are the call site's.
    Invoke {
        /// Which instruction.
        kind: InvokeKind,
        /// The method.
        method: MemberRef,
        /// Whether the reference is an `InterfaceMethodref` (always false for `invokedynamic`).
        interface: bool,
    },
    /// `new`: the class instantiated.
    New {
        /// Dotted binary name.
        class: String,
    },
    /// A constant load.
    Const(Constant),
}

/// One interesting instruction of a method's code.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// Its bytecode offset.
    pub offset: u32,
    /// Its position among *all* the method's instructions (0-based): two interesting
    /// instructions are adjacent in the code when their indices differ by one.
    pub index: u32,
    /// What it does.
    pub op: Op,
}

/// A method's `Code` attribute, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Code {
    /// `max_stack`.
    pub max_stack: u16,
    /// `max_locals`.
    pub max_locals: u16,
    /// The length of the bytecode in bytes.
    pub code_length: u32,
    /// How many instructions the bytecode has (interesting or not).
    pub instruction_count: u32,
    /// The interesting instructions, in code order: field accesses, invocations, `new`, and
    /// constant loads.
    pub instructions: Vec<Instruction>,
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

/// A bootstrap method of the `BootstrapMethods` attribute.
#[derive(Debug, Clone, PartialEq)]
pub struct BootstrapMethod {
    /// The method handle's reference kind.
    pub kind: u8,
    /// The bootstrap method.
    pub method: MemberRef,
    /// Its static arguments: constant-pool indices.
    pub arguments: Vec<u16>,
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
    /// Reads and parses the class file at `path`.
    pub fn read(path: &Path) -> Result<ClassFile, EngineError> {
        let bytes = std::fs::read(path).map_err(|source| EngineError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        ClassFile::parse(&bytes, path)
    }

    /// Parses the bytes of a class file; `file` names it in errors.
    pub fn parse(bytes: &[u8], file: &Path) -> Result<ClassFile, EngineError> {
        let mut reader = Reader { bytes, pos: 0 };
        parse_class(&mut reader).map_err(|e| EngineError::BadClassFile {
            file: file.to_path_buf(),
            reason: format!("{} (at byte {})", e.0, e.1),
        })
    }

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

/// `com/acme/Outer$Inner` → `com.acme.Outer$Inner`.
fn dotted(internal: &str) -> String {
    internal.replace('/', ".")
}

/// Adds the object types of a field or method descriptor (dotted) to `out`.
fn descriptor_types(descriptor: &str, out: &mut BTreeSet<String>) {
    let mut rest = descriptor;
    while let Some(start) = rest.find('L') {
        // Only an `L` in type position starts a class name: descriptors hold no other letters
        // between class names than the primitive codes, which are never `L`.
        let after = &rest[start + 1..];
        match after.find(';') {
            Some(end) => {
                let name = &after[..end];
                if !name.is_empty() {
                    out.insert(dotted(name));
                }
                rest = &after[end + 1..];
            }
            None => break,
        }
    }
}

/// Adds the classes named in a generic signature (JVMS 4.7.9.1: a class, method or field
/// signature) to `out`: `Ljava/util/Map<Ljava/lang/String;Lcom/acme/Foo;>;` names `java.util.Map`,
/// `java.lang.String` and `com.acme.Foo`; `Lcom/acme/Outer<TT;>.Inner;` names
/// `com.acme.Outer` and `com.acme.Outer$Inner`. Type variables are not classes. A malformed
/// signature adds what was read before the error.
pub fn signature_types(signature: &str, out: &mut BTreeSet<String>) {
    let mut p = SignatureParser {
        bytes: signature.as_bytes(),
        pos: 0,
        out,
    };
    let _ = p.signature();
}

/// A recursive-descent reader of generic signatures; `None` means malformed.
struct SignatureParser<'a, 'o> {
    bytes: &'a [u8],
    pos: usize,
    out: &'o mut BTreeSet<String>,
}

impl SignatureParser<'_, '_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn signature(&mut self) -> Option<()> {
        if self.peek() == Some(b'<') {
            self.type_parameters()?;
        }
        while let Some(c) = self.peek() {
            if matches!(c, b'(' | b')' | b'^') {
                self.pos += 1;
            } else {
                self.java_type(0)?;
            }
        }
        Some(())
    }

    fn type_parameters(&mut self) -> Option<()> {
        self.pos += 1; // '<'
        while self.peek()? != b'>' {
            // Identifier ':' [ClassBound] {':' InterfaceBound}
            while self.peek()? != b':' {
                self.pos += 1;
            }
            while self.peek() == Some(b':') {
                self.pos += 1;
                if matches!(self.peek()?, b'L' | b'T' | b'[') {
                    self.java_type(0)?;
                }
            }
        }
        self.pos += 1; // '>'
        Some(())
    }

    fn java_type(&mut self, depth: u32) -> Option<()> {
        if depth > 64 {
            return None;
        }
        match self.peek()? {
            b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' | b'V' => self.pos += 1,
            b'[' => {
                self.pos += 1;
                self.java_type(depth + 1)?;
            }
            b'T' => {
                while self.peek()? != b';' {
                    self.pos += 1;
                }
                self.pos += 1;
            }
            b'L' => {
                self.pos += 1;
                let mut name = self.identifier();
                loop {
                    if !name.is_empty() {
                        self.out.insert(dotted(&name));
                    }
                    if self.peek()? == b'<' {
                        self.pos += 1;
                        while self.peek()? != b'>' {
                            match self.peek()? {
                                b'*' => self.pos += 1,
                                b'+' | b'-' => {
                                    self.pos += 1;
                                    self.java_type(depth + 1)?;
                                }
                                _ => self.java_type(depth + 1)?,
                            }
                        }
                        self.pos += 1;
                    }
                    match self.peek()? {
                        b'.' => {
                            self.pos += 1;
                            name = format!("{name}${}", self.identifier());
                        }
                        b';' => {
                            self.pos += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
            }
            _ => return None,
        }
        Some(())
    }

    /// The text up to the next `<`, `.` or `;`.
    fn identifier(&mut self) -> String {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| !matches!(c, b'<' | b'.' | b';'))
        {
            self.pos += 1;
        }
        String::from_utf8_lossy(&self.bytes[start..self.pos]).into_owned()
    }
}

/// Why a file is malformed, and where.
struct Malformed(String, usize);

type Parse<T> = Result<T, Malformed>;

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn fail<T>(&self, what: impl Into<String>) -> Parse<T> {
        Err(Malformed(what.into(), self.pos))
    }

    fn take(&mut self, n: usize, what: &str) -> Parse<&'a [u8]> {
        match self.pos.checked_add(n) {
            Some(end) if end <= self.bytes.len() => {
                let slice = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(slice)
            }
            _ => self.fail(format!(
                "truncated: {what} needs {n} bytes, {} left",
                self.bytes.len().saturating_sub(self.pos)
            )),
        }
    }

    fn u1(&mut self, what: &str) -> Parse<u8> {
        Ok(self.take(1, what)?[0])
    }

    fn u2(&mut self, what: &str) -> Parse<u16> {
        let b = self.take(2, what)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    fn u4(&mut self, what: &str) -> Parse<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The pool with typed lookups that fail as [`Malformed`].
struct Pool<'p> {
    entries: &'p [PoolEntry],
}

impl Pool<'_> {
    fn get(&self, index: u16, at: usize) -> Parse<&PoolEntry> {
        match self.entries.get(index as usize) {
            Some(PoolEntry::Unusable) | None => Err(Malformed(
                format!("constant-pool index {index} is not a usable entry"),
                at,
            )),
            Some(e) => Ok(e),
        }
    }

    fn utf8(&self, index: u16, at: usize) -> Parse<&str> {
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

    fn class(&self, index: u16, at: usize) -> Parse<String> {
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

    fn optional_class(&self, index: u16, at: usize) -> Parse<Option<String>> {
        if index == 0 {
            Ok(None)
        } else {
            self.class(index, at).map(Some)
        }
    }

    fn name_and_type(&self, index: u16, at: usize) -> Parse<(String, String)> {
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
    fn member(&self, index: u16, at: usize, want: &[u8]) -> Parse<(MemberRef, bool)> {
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
    fn constant(&self, index: u16, at: usize) -> Parse<Constant> {
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

fn tag_name(entry: &PoolEntry) -> &'static str {
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

fn parse_class(r: &mut Reader<'_>) -> Parse<ClassFile> {
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
                    for _ in 0..n {
                        let at = a.pos;
                        let arg = a.u2("a bootstrap argument")?;
                        pool.get(arg, at)?;
                        arguments.push(arg);
                    }
                    class.bootstrap_methods.push(BootstrapMethod {
                        kind,
                        method,
                        arguments,
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

fn parse_pool(r: &mut Reader<'_>) -> Parse<Vec<PoolEntry>> {
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

/// The annotation types of a `RuntimeVisibleAnnotations` attribute; adds every type named
/// inside them to `refs`.
fn annotations(
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
fn type_annotations(r: &mut Reader<'_>, pool: &Pool<'_>, refs: &mut BTreeSet<String>) -> Parse<()> {
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

fn element_value(
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

fn parse_code(r: &mut Reader<'_>, pool: &Pool<'_>, bootstraps: &[BootstrapMethod]) -> Parse<Code> {
    let max_stack = r.u2("max_stack")?;
    let max_locals = r.u2("max_locals")?;
    let code_length = r.u4("the code length")?;
    if code_length == 0 || code_length >= 65536 {
        return r.fail(format!("code length {code_length} (must be 1 to 65535)"));
    }
    let start = r.pos;
    let bytes = r.take(code_length as usize, "the bytecode")?;
    let (instruction_count, instructions) = decode(bytes, start, pool, bootstraps)?;
    let handlers = r.u2("the exception table length")?;
    r.take(handlers as usize * 8, "the exception table")?;
    let attributes = r.u2("the code's attribute count")?;
    for _ in 0..attributes {
        r.u2("an attribute name")?;
        let length = r.u4("an attribute length")? as usize;
        r.take(length, "a code attribute")?;
    }
    Ok(Code {
        max_stack,
        max_locals,
        code_length,
        instruction_count,
        instructions,
    })
}

/// The number of operand bytes after an opcode with a fixed length; `None` for the switches and
/// `wide` (variable), and for opcodes that do not exist.
pub fn operand_length(opcode: u8) -> Option<usize> {
    Some(match opcode {
        0x00..=0x0f => 0, // nop, aconst_null, iconst_*, lconst_*, fconst_*, dconst_*
        0x10 => 1,        // bipush
        0x11 => 2,        // sipush
        0x12 => 1,        // ldc
        0x13 | 0x14 => 2, // ldc_w, ldc2_w
        0x15..=0x19 => 1, // iload .. aload
        0x1a..=0x35 => 0, // iload_0 .. saload
        0x36..=0x3a => 1, // istore .. astore
        0x3b..=0x83 => 0, // istore_0 .. lxor
        0x84 => 2,        // iinc
        0x85..=0x98 => 0, // conversions, comparisons
        0x99..=0xa8 => 2, // if*, goto, jsr
        0xa9 => 1,        // ret
        0xac..=0xb1 => 0, // returns
        0xb2..=0xb8 => 2, // field access, invokevirtual/special/static
        0xb9 | 0xba => 4, // invokeinterface, invokedynamic
        0xbb => 2,        // new
        0xbc => 1,        // newarray
        0xbd => 2,        // anewarray
        0xbe | 0xbf => 0, // arraylength, athrow
        0xc0 | 0xc1 => 2, // checkcast, instanceof
        0xc2 | 0xc3 => 0, // monitorenter, monitorexit
        0xc5 => 3,        // multianewarray
        0xc6 | 0xc7 => 2, // ifnull, ifnonnull
        0xc8 | 0xc9 => 4, // goto_w, jsr_w
        _ => return None,
    })
}

/// Decodes every instruction of `code` (`start` is its offset in the file, for messages);
/// returns how many there are and the interesting ones.
fn decode(
    code: &[u8],
    start: usize,
    pool: &Pool<'_>,
    bootstraps: &[BootstrapMethod],
) -> Parse<(u32, Vec<Instruction>)> {
    let mut out = Vec::new();
    let mut pc = 0usize;
    let mut index = 0u32;
    let operand = |pc: usize, from: usize, n: usize| -> Parse<&[u8]> {
        code.get(pc + from..pc + from + n).ok_or_else(|| {
            Malformed(
                format!("the instruction at offset {pc} runs past the end of the code"),
                start + pc,
            )
        })
    };
    let u2_at = |pc: usize, from: usize| -> Parse<u16> {
        let b = operand(pc, from, 2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    };
    let i4_at = |pc: usize, from: usize| -> Parse<i32> {
        let b = operand(pc, from, 4)?;
        Ok(i32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    while pc < code.len() {
        let opcode = code[pc];
        let at = start + pc;
        let length = match opcode {
            0xaa | 0xab => {
                // Operands start at the next multiple of 4 from the start of the code.
                let pad = (4 - (pc + 1) % 4) % 4;
                let base = 1 + pad;
                let fixed = if opcode == 0xaa {
                    let low = i64::from(i4_at(pc, base + 4)?);
                    let high = i64::from(i4_at(pc, base + 8)?);
                    if low > high {
                        return Err(Malformed(
                            format!("tableswitch at offset {pc} has low {low} > high {high}"),
                            at,
                        ));
                    }
                    12 + (high - low + 1) as usize * 4
                } else {
                    let pairs = i4_at(pc, base + 4)?;
                    if pairs < 0 {
                        return Err(Malformed(
                            format!("lookupswitch at offset {pc} has {pairs} pairs"),
                            at,
                        ));
                    }
                    8 + pairs as usize * 8
                };
                operand(pc, base, fixed)?;
                base + fixed
            }
            0xc4 => {
                let modified = *operand(pc, 1, 1)?.first().unwrap_or(&0);
                match modified {
                    0x84 => 6,                             // wide iinc: index u2, const s2
                    0x15..=0x19 | 0x36..=0x3a | 0xa9 => 4, // wide load/store/ret: index u2
                    _ => {
                        return Err(Malformed(
                            format!("wide at offset {pc} modifies opcode {modified:#04x}"),
                            at,
                        ))
                    }
                }
            }
            _ => match operand_length(opcode) {
                Some(n) => 1 + n,
                None => {
                    return Err(Malformed(
                        format!("unknown opcode {opcode:#04x} at offset {pc}"),
                        at,
                    ))
                }
            },
        };
        operand(pc, 0, length)?;
        let op = match opcode {
            0x01 => Some(Op::Const(Constant::Null)),
            0x02..=0x08 => Some(Op::Const(Constant::Int(i32::from(opcode) - 3))),
            0x09 | 0x0a => Some(Op::Const(Constant::Long(i64::from(opcode - 0x09)))),
            0x0b..=0x0d => Some(Op::Const(Constant::Float(f32::from(opcode - 0x0b)))),
            0x0e | 0x0f => Some(Op::Const(Constant::Double(f64::from(opcode - 0x0e)))),
            0x10 => Some(Op::Const(Constant::Int(i32::from(code[pc + 1] as i8)))),
            0x11 => Some(Op::Const(Constant::Int(i32::from(u2_at(pc, 1)? as i16)))),
            0x12..=0x14 => {
                let index = if opcode == 0x12 {
                    u16::from(code[pc + 1])
                } else {
                    u2_at(pc, 1)?
                };
                let constant = pool.constant(index, at)?;
                let wide = matches!(constant, Constant::Long(_) | Constant::Double(_))
                    || matches!(&constant, Constant::Dynamic { descriptor, .. } if descriptor == "J" || descriptor == "D");
                if wide != (opcode == 0x14) {
                    return Err(Malformed(
                        format!(
                            "{} at offset {pc} loads constant {index} of the wrong size",
                            if opcode == 0x14 { "ldc2_w" } else { "ldc" }
                        ),
                        at,
                    ));
                }
                Some(Op::Const(constant))
            }
            0xb2..=0xb5 => {
                let field = pool.member(u2_at(pc, 1)?, at, &[9])?.0;
                let op = match opcode {
                    0xb2 => FieldOp::GetStatic,
                    0xb3 => FieldOp::PutStatic,
                    0xb4 => FieldOp::GetField,
                    _ => FieldOp::PutField,
                };
                Some(Op::Field { op, field })
            }
            0xb6..=0xb9 => {
                let (kind, allowed): (InvokeKind, &[u8]) = match opcode {
                    0xb6 => (InvokeKind::Virtual, &[10]),
                    0xb7 => (InvokeKind::Special, &[10, 11]),
                    0xb8 => (InvokeKind::Static, &[10, 11]),
                    _ => (InvokeKind::Interface, &[11]),
                };
                let (method, interface) = pool.member(u2_at(pc, 1)?, at, allowed)?;
                Some(Op::Invoke {
                    kind,
                    method,
                    interface,
                })
            }
            0xba => {
                let index = u2_at(pc, 1)?;
                let (bootstrap, name_and_type) = match pool.get(index, at)? {
                    PoolEntry::InvokeDynamic {
                        bootstrap,
                        name_and_type,
                    } => (*bootstrap, *name_and_type),
                    other => {
                        return Err(Malformed(
                            format!(
                                "invokedynamic at offset {pc} refers to a {}",
                                tag_name(other)
                            ),
                            at,
                        ))
                    }
                };
                let (name, descriptor) = pool.name_and_type(name_and_type, at)?;
                let owner = bootstraps
                    .get(bootstrap as usize)
                    .map(|b| b.method.owner.clone())
                    .unwrap_or_default();
                Some(Op::Invoke {
                    kind: InvokeKind::Dynamic,
                    method: MemberRef {
                        owner,
                        name,
                        descriptor,
                    },
                    interface: false,
                })
            }
            0xbb => Some(Op::New {
                class: pool.class(u2_at(pc, 1)?, at)?,
            }),
            0xbd | 0xc0 | 0xc1 | 0xc5 => {
                // anewarray, checkcast, instanceof, multianewarray: a class, checked only.
                pool.class(u2_at(pc, 1)?, at)?;
                None
            }
            _ => None,
        };
        if let Some(op) = op {
            out.push(Instruction {
                offset: pc as u32,
                index,
                op,
            });
        }
        pc += length;
        index += 1;
    }
    Ok((index, out))
}

/// Every `.class` file under `dir`, sorted by path (directories walked in name order); `dir`
/// must be a directory.
pub fn class_files_under(dir: &Path) -> Result<Vec<PathBuf>, EngineError> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        let io = |source| EngineError::Io {
            path: current.clone(),
            source,
        };
        let mut children: Vec<PathBuf> = std::fs::read_dir(&current)
            .map_err(io)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(io)?;
        children.sort();
        for child in children.into_iter().rev() {
            if child.is_dir() {
                stack.push(child);
            } else if child.extension().is_some_and(|e| e == "class") {
                out.push(child);
            }
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
#[path = "classfile_tests.rs"]
mod tests;
