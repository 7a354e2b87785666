//! The classes a field or method descriptor or a generic signature (JVMS 4.7.9.1) names, for
//! [`super::classfile::ClassFile::referenced_types`].

use std::collections::BTreeSet;

use super::descriptor::dotted;

/// Adds the object types of a field or method descriptor (dotted) to `out`.
pub(super) fn descriptor_types(descriptor: &str, out: &mut BTreeSet<String>) {
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
