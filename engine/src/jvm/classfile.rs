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
//!
//! The entry ([`ClassFile::read`], [`ClassFile::parse`], [`class_files_under`]) and every type of
//! the reader, re-exported from the files that hold them: `class` (the class and its members),
//! `pool` (the constant pool), `bytecode` (decoded code), `signature` (names in descriptors and
//! signatures), and under them the parser: `parse`, `annotations`, `reader`.

use std::path::{Path, PathBuf};

use crate::error::EngineError;

pub use super::bytecode::{
    operand_length, BootstrapMethod, Code, FieldOp, Handle, Instruction, InvokeKind, Op,
};
pub use super::class::{AccessFlags, ClassFile, Field, InnerClass, Method};
use super::parse::parse_class;
pub use super::parse::{MAX_MAJOR_VERSION, MIN_MAJOR_VERSION};
pub use super::pool::{Constant, MemberRef, PoolEntry};
use super::reader::Reader;
pub use super::signature::signature_types;

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
