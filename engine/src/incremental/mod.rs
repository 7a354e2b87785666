//! Incremental selection (`odrust:incremental`, issue 13; IncIDFlakies, ISSTA 2022): the
//! class-file reader (one parser, shared with [`crate::repair`]'s reset-method finder), class
//! checksums, the class-dependency graph (petgraph), and the tests a change can make
//! order-dependent, with the reason for each.
//!
//! May use [`crate::model`] only; [`crate::detect`] then runs over the selection.
//!
//! - [`classfile`]: the class-file reader (constant pool, members, decoded bytecode).
//! - [`checksum`]: class-file checksums that ignore debug attributes and the constant pool's
//!   layout; jar checksums.
//! - [`graph`]: the class-level dependency graph, its closure and shortest paths.
//! - [`state`]: the versioned state kept between runs.
//! - [`select`]: the selection (`incremental_select`): changed classes, affected tests, tests
//!   sharing mutable static state with them.

pub mod checksum;
pub mod classfile;
pub mod graph;
pub mod select;
pub mod state;
