//! The JVM class-file layer (JVMS chapter 4): reading class files, descriptors and names, the
//! class hierarchy a module's class files show, and Java source for their constants. Shared by
//! [`crate::incremental`] (checksums, the class graph) and [`crate::repair`]'s reset-method
//! finder.
//!
//! May use [`crate::error`] and [`crate::model`] only.
//!
//! - [`classfile`]: the class-file reader (constant pool, members, decoded bytecode; error
//!   `bad-class-file`).
//! - [`descriptor`]: field and method descriptors, packages and anonymous names.
//! - [`hierarchy`]: supertypes and subtypes, where a field or method is declared, canonical names
//!   of nested classes, what can be named from a class ([`hierarchy::Viewpoint`]).
//! - [`literal`]: Java source for a class-file constant of a given type, default values, escapes.

pub mod classfile;
pub mod descriptor;
pub mod hierarchy;
pub mod literal;
