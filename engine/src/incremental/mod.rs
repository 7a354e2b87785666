//! Incremental selection (`odrust:incremental`, issue 13; seed `004`, IncIDFlakies): the
//! class-file reader (one parser, shared with [`crate::repair`]'s reset-method finder), class
//! checksums, the class-dependency graph (petgraph), and the tests a change can make
//! order-dependent, with the reason for each.
//!
//! May use [`crate::model`] only; [`crate::detect`] then runs over the selection.
//!
//! - [`classfile`]: the class-file reader (constant pool, members, decoded bytecode).

pub mod classfile;
