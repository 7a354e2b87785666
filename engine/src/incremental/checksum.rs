//! Checksums of class files and jars (SHA-256, lower-case hex).
//!
//! A class file's checksum ignores what cannot change behaviour, so that a recompile after an
//! edit of comments, blank lines or local variable names does not count as a change:
//!
//! - the debug attributes `SourceFile`, `SourceDebugExtension`, `LineNumberTable`,
//!   `LocalVariableTable` and `LocalVariableTypeTable`;
//! - `StackMapTable`, which the compiler derives from the code and which only the verifier reads
//!   (its entries name constant-pool indices that move when the pool does);
//! - the constant pool's order and indices: every index (in instructions, attributes, the pool
//!   itself) is hashed as the entry it resolves to (`Methodref com/acme/Foo.bar:(I)V`), and the
//!   pool itself is not hashed, so an entry that only debug attributes used disappears with them.
//!
//! Everything else is hashed in file order: versions, flags, names, members and their order,
//! bytecode (with branch offsets as written), exception tables, annotations, bootstrap methods,
//! inner classes, nest and record attributes. Attributes this module does not know are hashed as
//! their raw bytes (a pool reorder may then change the checksum: a spurious change, never a missed
//! one). So is the `Module` attribute of `module-info`.
//!
//! A jar's checksum ([`jar_checksum`]) is that of its entries as its central directory lists
//! them — each file's name, CRC-32 and size, sorted by name — leaving out directories and what
//! packaging writes about the build (`META-INF/MANIFEST.MF`, `META-INF/maven/`, where build tools
//! write dates, tool versions and the pom; `META-INF/INDEX.LIST`; the legal files
//! `META-INF/LICENSE*`, `NOTICE*`, `DEPENDENCIES*`): a jar rebuilt from the same classes and
//! resources has the same checksum however its entries are ordered, compressed or time-stamped. A file that is not a readable zip (or a
//! ZIP64 one) falls back to the SHA-256 of its bytes.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::error::EngineError;
use crate::jvm::classfile::{operand_length, ClassFile, PoolEntry};

/// The SHA-256 of `bytes`, as 64 lower-case hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The checksum of a jar: of its entries (name, CRC-32, size), not of its bytes (see the
/// module's documentation); the SHA-256 of its bytes when it is not a zip this can read.
pub fn jar_checksum(path: &Path) -> Result<String, EngineError> {
    entries_checksum(path, false)
}

/// [`jar_checksum`] of what a jar holds besides the class files [`jar_classes`] reads: its
/// resources, service files, other Java versions' classes (an own jar's classes are checksummed
/// one by one; this keeps a change of the rest a change).
pub fn jar_rest_checksum(path: &Path) -> Result<String, EngineError> {
    entries_checksum(path, true)
}

fn entries_checksum(path: &Path, without_classes: bool) -> Result<String, EngineError> {
    let bytes = read(path)?;
    Ok(match zip_entries(&bytes) {
        Some(mut entries) => {
            entries.retain(|e| {
                !e.name.ends_with('/')
                    && !build_metadata(&e.name)
                    && (!without_classes || !is_read_class(&e.name))
            });
            entries.sort_by(|a, b| (&a.name, a.crc, a.size).cmp(&(&b.name, b.crc, b.size)));
            let mut h = Sha256::new();
            h.update(b"jar-entries-2\n");
            for e in entries {
                h.update(e.name.as_bytes());
                h.update(format!("\0{:08x}\0{}\n", e.crc, e.size).as_bytes());
            }
            hex(&h.finalize())
        }
        None => sha256_hex(&bytes),
    })
}

/// Whether a jar entry is what packaging writes about the build rather than what the code reads:
/// `META-INF/MANIFEST.MF`, `META-INF/maven/` (dates, tool versions, the pom),
/// `META-INF/INDEX.LIST` (a listing of the jar's own packages), and the legal files the packaging
/// copies in (`META-INF/LICENSE*`, `NOTICE*`, `DEPENDENCIES*`: Apache builds put the project's
/// root `LICENSE` in every module's jar, so a change there would otherwise select every test).
fn build_metadata(name: &str) -> bool {
    let Some(file) = name.strip_prefix("META-INF/") else {
        return false;
    };
    if file == "MANIFEST.MF" || file == "INDEX.LIST" || file.starts_with("maven/") {
        return true;
    }
    let upper = file.to_ascii_uppercase();
    !file.contains('/')
        && ["LICENSE", "NOTICE", "DEPENDENCIES"]
            .iter()
            .any(|legal| upper.starts_with(legal))
}

/// A jar's class files: (entry name, bytes), in the jar's order.
pub type JarClasses = Vec<(String, Vec<u8>)>;

/// The class files of a jar, by entry name (`com/acme/Foo.class`), each's bytes: every `.class`
/// entry but `module-info.class` and those under `META-INF/` (a multi-release jar's other
/// versions). `None` when the jar is no zip this reads (ZIP64, an unknown compression, a
/// truncated entry): its classes are then unknown.
pub fn jar_classes(path: &Path) -> Result<Option<JarClasses>, EngineError> {
    let bytes = read(path)?;
    let Some(entries) = zip_entries(&bytes) else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for e in entries {
        if !is_read_class(&e.name) {
            continue;
        }
        match entry_bytes(&bytes, &e) {
            Some(b) => out.push((e.name, b)),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// Whether [`jar_classes`] reads entry `name`: a class file of the jar's base version.
fn is_read_class(name: &str) -> bool {
    name.ends_with(".class")
        && !name.starts_with("META-INF/")
        && !name.ends_with("module-info.class")
}

fn read(path: &Path) -> Result<Vec<u8>, EngineError> {
    std::fs::read(path).map_err(|source| EngineError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// One entry of a zip's central directory.
#[derive(Debug)]
struct ZipEntry {
    name: String,
    crc: u32,
    /// Uncompressed size.
    size: u32,
    /// 0: stored, 8: deflated.
    method: u16,
    compressed: u32,
    /// Where its local header starts.
    offset: u32,
}

/// The uncompressed bytes of `e` (stored or deflated, checked against its size), or `None`.
fn entry_bytes(zip: &[u8], e: &ZipEntry) -> Option<Vec<u8>> {
    let at = e.offset as usize;
    let u16_at = |at: usize| -> Option<u16> {
        Some(u16::from_le_bytes(zip.get(at..at + 2)?.try_into().ok()?))
    };
    if zip.get(at..at + 4)? != [0x50, 0x4b, 0x03, 0x04] {
        return None;
    }
    let start = at + 30 + u16_at(at + 26)? as usize + u16_at(at + 28)? as usize;
    let data = zip.get(start..start + e.compressed as usize)?;
    let out = match e.method {
        0 => data.to_vec(),
        8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, e.size as usize).ok()?,
        _ => return None,
    };
    (out.len() == e.size as usize).then_some(out)
}

/// The entries of a zip's central directory; `None` when `bytes` is no zip this reads (no
/// end-of-central-directory record, ZIP64, truncated).
fn zip_entries(bytes: &[u8]) -> Option<Vec<ZipEntry>> {
    let u16_at = |at: usize| -> Option<u16> {
        Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?))
    };
    let u32_at = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    // The end-of-central-directory record: 22 bytes and a comment of up to 65,535.
    let lowest = bytes.len().saturating_sub(22 + 65_535);
    let eocd = (lowest..=bytes.len().checked_sub(22)?)
        .rev()
        .find(|&i| u32_at(i) == Some(0x0605_4b50))?;
    let count = u16_at(eocd + 10)? as usize;
    let offset = u32_at(eocd + 16)?;
    if count == 0xFFFF || offset == 0xFFFF_FFFF {
        return None; // ZIP64
    }
    let mut at = offset as usize;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        if u32_at(at)? != 0x0201_4b50 {
            return None;
        }
        let name_len = u16_at(at + 28)? as usize;
        let extra_len = u16_at(at + 30)? as usize;
        let comment_len = u16_at(at + 32)? as usize;
        let name = bytes.get(at + 46..at + 46 + name_len)?;
        out.push(ZipEntry {
            name: String::from_utf8_lossy(name).into_owned(),
            crc: u32_at(at + 16)?,
            size: u32_at(at + 24)?,
            method: u16_at(at + 10)?,
            compressed: u32_at(at + 20)?,
            offset: u32_at(at + 42)?,
        });
        at += 46 + name_len + extra_len + comment_len;
    }
    Some(out)
}

/// The checksum of a class file's bytes that ignores debug information and the constant pool's
/// layout (see the module's documentation); `file` names it in errors.
pub fn class_checksum(bytes: &[u8], file: &Path) -> Result<String, EngineError> {
    let class = ClassFile::parse(bytes, file)?;
    class_checksum_parsed(bytes, &class, file)
}

/// [`class_checksum`] of a file already parsed as `class`.
pub fn class_checksum_parsed(
    bytes: &[u8],
    class: &ClassFile,
    file: &Path,
) -> Result<String, EngineError> {
    let mut canon = Canon {
        class,
        bytes,
        pos: 0,
        hasher: Sha256::new(),
    };
    canon
        .class_file()
        .map_err(|reason| EngineError::BadClassFile {
            file: file.to_path_buf(),
            reason,
        })?;
    Ok(hex(&canon.hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Attributes left out of the checksum.
const IGNORED: [&str; 6] = [
    "SourceFile",
    "SourceDebugExtension",
    "LineNumberTable",
    "LocalVariableTable",
    "LocalVariableTypeTable",
    "StackMapTable",
];

/// How deep constant-pool entries may refer to each other (through bootstrap arguments).
const MAX_DEPTH: u32 = 16;

/// A walk over the class file's bytes that feeds a canonical form to the hasher. The file was
/// parsed first, so the walk meets only checked input; it still fails instead of panicking.
struct Canon<'a> {
    class: &'a ClassFile,
    bytes: &'a [u8],
    pos: usize,
    hasher: Sha256,
}

type Walk<T> = Result<T, String>;

impl Canon<'_> {
    fn take(&mut self, n: usize) -> Walk<&[u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|end| *end <= self.bytes.len())
            .ok_or_else(|| format!("truncated at byte {}", self.pos))?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }
    fn u1(&mut self) -> Walk<u8> {
        Ok(self.take(1)?[0])
    }
    fn u2(&mut self) -> Walk<u16> {
        let b = self.take(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    fn u4(&mut self) -> Walk<u32> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Hashes a token, length-prefixed so that two sequences of tokens never hash alike.
    fn token(&mut self, bytes: &[u8]) {
        self.hasher.update((bytes.len() as u32).to_be_bytes());
        self.hasher.update(bytes);
    }
    fn text(&mut self, s: &str) {
        self.token(s.as_bytes());
    }
    fn number(&mut self, n: u32) {
        self.token(&n.to_be_bytes());
    }

    /// Reads an index and hashes the entry it resolves to (`0` as "none").
    fn entry(&mut self) -> Walk<()> {
        let index = self.u2()?;
        let text = self.resolve(index, 0)?;
        self.text(&text);
        Ok(())
    }

    /// The canonical text of pool entry `index`.
    fn resolve(&self, index: u16, depth: u32) -> Walk<String> {
        if index == 0 {
            return Ok("none".into());
        }
        if depth > MAX_DEPTH {
            return Err(format!("constant-pool entry {index} nests too deep"));
        }
        let pool = &self.class.pool;
        let utf8 = |i: u16| -> Walk<&str> {
            match pool.get(i as usize) {
                Some(PoolEntry::Utf8(s)) => Ok(s),
                _ => Err(format!("constant-pool entry {i} is not Utf8")),
            }
        };
        let next = |i: u16| self.resolve(i, depth + 1);
        Ok(match pool.get(index as usize) {
            None | Some(PoolEntry::Unusable) => {
                return Err(format!("constant-pool index {index} is not usable"))
            }
            Some(PoolEntry::Utf8(s)) => format!("utf8 {s}"),
            Some(PoolEntry::Integer(v)) => format!("int {v}"),
            Some(PoolEntry::Float(v)) => format!("float {:#x}", v.to_bits()),
            Some(PoolEntry::Long(v)) => format!("long {v}"),
            Some(PoolEntry::Double(v)) => format!("double {:#x}", v.to_bits()),
            Some(PoolEntry::Class(i)) => format!("class {}", utf8(*i)?),
            Some(PoolEntry::String(i)) => format!("string {}", utf8(*i)?),
            Some(PoolEntry::Fieldref {
                class,
                name_and_type,
            }) => format!("field {} {}", next(*class)?, next(*name_and_type)?),
            Some(PoolEntry::Methodref {
                class,
                name_and_type,
            }) => format!("method {} {}", next(*class)?, next(*name_and_type)?),
            Some(PoolEntry::InterfaceMethodref {
                class,
                name_and_type,
            }) => format!("imethod {} {}", next(*class)?, next(*name_and_type)?),
            Some(PoolEntry::NameAndType { name, descriptor }) => {
                format!("nat {}:{}", utf8(*name)?, utf8(*descriptor)?)
            }
            Some(PoolEntry::MethodHandle { kind, reference }) => {
                format!("handle {kind} {}", next(*reference)?)
            }
            Some(PoolEntry::MethodType(i)) => format!("methodtype {}", utf8(*i)?),
            Some(PoolEntry::Dynamic {
                bootstrap,
                name_and_type,
            }) => format!(
                "dynamic [{}] {}",
                self.bootstrap(*bootstrap, depth + 1)?,
                next(*name_and_type)?
            ),
            Some(PoolEntry::InvokeDynamic {
                bootstrap,
                name_and_type,
            }) => format!(
                "indy [{}] {}",
                self.bootstrap(*bootstrap, depth + 1)?,
                next(*name_and_type)?
            ),
            Some(PoolEntry::Module(i)) => format!("module {}", utf8(*i)?),
            Some(PoolEntry::Package(i)) => format!("package {}", utf8(*i)?),
        })
    }

    /// The canonical text of bootstrap method `index`: its handle and arguments.
    fn bootstrap(&self, index: u16, depth: u32) -> Walk<String> {
        let Some(b) = self.class.bootstrap_methods.get(index as usize) else {
            return Ok(format!("missing bootstrap {index}"));
        };
        let mut text = format!("{} {}", b.kind, b.method);
        for arg in &b.arguments {
            text.push_str(" | ");
            text.push_str(&self.resolve(*arg, depth + 1)?);
        }
        Ok(text)
    }

    fn class_file(&mut self) -> Walk<()> {
        let head = self.take(8)?.to_vec(); // magic, minor, major
        self.token(&head);
        self.skip_pool()?;
        let access = self.u2()?;
        self.number(u32::from(access));
        self.entry()?; // this_class
        self.entry()?; // super_class
        let interfaces = self.u2()?;
        self.number(u32::from(interfaces));
        for _ in 0..interfaces {
            self.entry()?;
        }
        for _ in 0..2 {
            // fields, then methods
            let count = self.u2()?;
            self.number(u32::from(count));
            for _ in 0..count {
                let access = self.u2()?;
                self.number(u32::from(access));
                self.entry()?; // name
                self.entry()?; // descriptor
                self.attributes()?;
            }
        }
        self.attributes()
    }

    fn skip_pool(&mut self) -> Walk<()> {
        let count = self.u2()?;
        let mut index = 1;
        while index < count {
            let tag = self.u1()?;
            let size = match tag {
                1 => self.u2()? as usize,
                3 | 4 => 4,
                5 | 6 => {
                    index += 1;
                    8
                }
                7 | 8 | 16 | 19 | 20 => 2,
                9..=12 | 17 | 18 => 4,
                15 => 3,
                _ => return Err(format!("unknown constant-pool tag {tag}")),
            };
            self.take(size)?;
            index += 1;
        }
        Ok(())
    }

    fn attributes(&mut self) -> Walk<()> {
        let count = self.u2()?;
        for _ in 0..count {
            let name_index = self.u2()?;
            let name = match self.class.pool.get(name_index as usize) {
                Some(PoolEntry::Utf8(s)) => s.clone(),
                _ => return Err(format!("attribute name {name_index} is not Utf8")),
            };
            let length = self.u4()? as usize;
            let end = self.pos.saturating_add(length);
            if end > self.bytes.len() {
                return Err(format!("attribute {name} runs past the end of the file"));
            }
            if IGNORED.contains(&name.as_str()) {
                self.pos = end;
                continue;
            }
            self.text(&name);
            self.attribute(&name, end)?;
            if self.pos != end {
                return Err(format!("attribute {name} has an unexpected length"));
            }
        }
        Ok(())
    }

    fn attribute(&mut self, name: &str, end: usize) -> Walk<()> {
        match name {
            "Code" => self.code()?,
            "ConstantValue" | "Signature" | "NestHost" | "ModuleMainClass" => self.entry()?,
            "Exceptions" | "NestMembers" | "PermittedSubclasses" | "ModulePackages" => {
                let n = self.u2()?;
                self.number(u32::from(n));
                for _ in 0..n {
                    self.entry()?;
                }
            }
            "InnerClasses" => {
                let n = self.u2()?;
                self.number(u32::from(n));
                for _ in 0..n {
                    self.entry()?;
                    self.entry()?;
                    self.entry()?;
                    let flags = self.u2()?;
                    self.number(u32::from(flags));
                }
            }
            "EnclosingMethod" => {
                self.entry()?;
                self.entry()?;
            }
            "BootstrapMethods" => {
                let n = self.u2()?;
                self.number(u32::from(n));
                for _ in 0..n {
                    self.entry()?;
                    let args = self.u2()?;
                    self.number(u32::from(args));
                    for _ in 0..args {
                        self.entry()?;
                    }
                }
            }
            "MethodParameters" => {
                let n = self.u1()?;
                self.number(u32::from(n));
                for _ in 0..n {
                    self.entry()?;
                    let flags = self.u2()?;
                    self.number(u32::from(flags));
                }
            }
            "RuntimeVisibleAnnotations" | "RuntimeInvisibleAnnotations" => self.annotations()?,
            "RuntimeVisibleParameterAnnotations" | "RuntimeInvisibleParameterAnnotations" => {
                let n = self.u1()?;
                self.number(u32::from(n));
                for _ in 0..n {
                    self.annotations()?;
                }
            }
            "RuntimeVisibleTypeAnnotations" | "RuntimeInvisibleTypeAnnotations" => {
                self.type_annotations()?
            }
            "AnnotationDefault" => self.element_value(0)?,
            "Record" => {
                let n = self.u2()?;
                self.number(u32::from(n));
                for _ in 0..n {
                    self.entry()?;
                    self.entry()?;
                    self.attributes()?;
                }
            }
            _ => {
                let raw = self.take(end - self.pos)?.to_vec();
                self.token(&raw);
            }
        }
        Ok(())
    }

    fn annotations(&mut self) -> Walk<()> {
        let n = self.u2()?;
        self.number(u32::from(n));
        for _ in 0..n {
            self.annotation(0)?;
        }
        Ok(())
    }

    fn annotation(&mut self, depth: u32) -> Walk<()> {
        if depth > MAX_DEPTH {
            return Err("annotations nest too deep".into());
        }
        self.entry()?; // type
        let pairs = self.u2()?;
        self.number(u32::from(pairs));
        for _ in 0..pairs {
            self.entry()?; // element name
            self.element_value(depth)?;
        }
        Ok(())
    }

    fn element_value(&mut self, depth: u32) -> Walk<()> {
        if depth > MAX_DEPTH {
            return Err("annotation values nest too deep".into());
        }
        let tag = self.u1()?;
        self.token(&[tag]);
        match tag {
            b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' | b's' | b'c' => self.entry()?,
            b'e' => {
                self.entry()?;
                self.entry()?;
            }
            b'@' => self.annotation(depth + 1)?,
            b'[' => {
                let n = self.u2()?;
                self.number(u32::from(n));
                for _ in 0..n {
                    self.element_value(depth + 1)?;
                }
            }
            _ => return Err(format!("unknown annotation element tag {tag:#04x}")),
        }
        Ok(())
    }

    fn type_annotations(&mut self) -> Walk<()> {
        let n = self.u2()?;
        self.number(u32::from(n));
        for _ in 0..n {
            let start = self.pos;
            let target = self.u1()?;
            let size = match target {
                0x00 | 0x01 | 0x16 => 1,
                0x10 | 0x11 | 0x12 | 0x17 | 0x42..=0x46 => 2,
                0x13..=0x15 => 0,
                0x40 | 0x41 => {
                    let n = self.u2()? as usize;
                    n * 6
                }
                0x47..=0x4b => 3,
                _ => return Err(format!("unknown type annotation target {target:#04x}")),
            };
            self.take(size)?;
            let path = self.u1()? as usize;
            self.take(path * 2)?;
            let raw = self.bytes[start..self.pos].to_vec();
            self.token(&raw);
            self.annotation(0)?;
        }
        Ok(())
    }

    fn code(&mut self) -> Walk<()> {
        let limits = self.take(4)?.to_vec(); // max_stack, max_locals
        self.token(&limits);
        let length = self.u4()? as usize;
        self.number(length as u32);
        let start = self.pos;
        self.take(length)?;
        self.pos = start;
        let mut pc = 0;
        while pc < length {
            let opcode = self.bytes[start + pc];
            let size = instruction_length(&self.bytes[start..start + length], pc)
                .ok_or_else(|| format!("bad instruction at offset {pc}"))?;
            self.pos = start + pc + 1;
            self.token(&[opcode]);
            match opcode {
                0x12 => {
                    let index = u16::from(self.u1()?);
                    let text = self.resolve(index, 0)?;
                    self.text(&text);
                }
                0x13 | 0x14 | 0xb2..=0xb8 | 0xbb | 0xbd | 0xc0 | 0xc1 => self.entry()?,
                0xb9 | 0xba | 0xc5 => {
                    self.entry()?;
                    let rest = self.take(size - 3)?.to_vec();
                    self.token(&rest);
                }
                _ => {
                    let rest = self.take(size - 1)?.to_vec();
                    self.token(&rest);
                }
            }
            pc += size;
        }
        self.pos = start + length;
        let handlers = self.u2()?;
        self.number(u32::from(handlers));
        for _ in 0..handlers {
            let pcs = self.take(6)?.to_vec(); // start, end, handler
            self.token(&pcs);
            self.entry()?; // catch type
        }
        self.attributes()
    }
}

/// The length in bytes of the instruction at `pc` of `code`; `None` when it is not one.
fn instruction_length(code: &[u8], pc: usize) -> Option<usize> {
    let opcode = *code.get(pc)?;
    let i4 = |at: usize| -> Option<i64> {
        let b = code.get(at..at + 4)?;
        Some(i64::from(i32::from_be_bytes([b[0], b[1], b[2], b[3]])))
    };
    let length = match opcode {
        0xaa | 0xab => {
            let base = 1 + (4 - (pc + 1) % 4) % 4;
            if opcode == 0xaa {
                let low = i4(pc + base + 4)?;
                let high = i4(pc + base + 8)?;
                if low > high {
                    return None;
                }
                base + 12 + usize::try_from(high - low + 1).ok()? * 4
            } else {
                let pairs = usize::try_from(i4(pc + base + 4)?).ok()?;
                base + 8 + pairs * 8
            }
        }
        0xc4 => match *code.get(pc + 1)? {
            0x84 => 6,
            _ => 4,
        },
        _ => 1 + operand_length(opcode)?,
    };
    (pc + length <= code.len()).then_some(length)
}

#[cfg(test)]
#[path = "checksum_tests.rs"]
pub(crate) mod tests;
