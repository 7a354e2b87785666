//! The JVM class-file layer (JVMS chapter 4): reading class files, descriptors and names, the
//! class hierarchy a module's class files show, and Java source for their constants. Shared by
//! [`crate::incremental`] (checksums, the class graph) and [`crate::repair`]'s reset-method
//! finder.
//!
//! May use [`crate::error`] and [`crate::model`] only.
//!
//! - [`classfile`]: the class-file reader (error `bad-class-file`), its entry and every type;
//!   the files under it, from the top: [`class`] (the class, its members, the queries over
//!   them), `parse` (header, attributes, members), `annotations`, [`bytecode`] (the `Code`
//!   attribute, decoded), [`pool`] (the constant pool), [`signature`] (the classes descriptors
//!   and generic signatures name), `reader` (bytes).
//! - [`descriptor`]: field and method descriptors, packages and anonymous names.
//! - [`hierarchy`]: supertypes and subtypes, where a field or method is declared, canonical names
//!   of nested classes, what can be named from a class ([`hierarchy::Viewpoint`]).
//! - [`literal`]: Java source for a class-file constant of a given type, default values, escapes.

mod annotations;
pub mod bytecode;
pub mod class;
pub mod classfile;
pub mod descriptor;
pub mod hierarchy;
pub mod literal;
mod parse;
pub mod pool;
mod reader;
pub mod signature;
