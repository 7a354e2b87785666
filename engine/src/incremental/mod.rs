//! Incremental selection (`odrust:incremental`, issue 13; IncIDFlakies, ISSTA 2022): class
//! checksums, the class-dependency graph (petgraph), and the tests a change can make
//! order-dependent, with the reason for each. Class files are read by [`crate::jvm::classfile`].
//!
//! May use [`crate::model`] and [`crate::jvm`]; [`crate::detect`] then runs over the selection.
//!
//! - [`checksum`]: class-file checksums that ignore debug attributes and the constant pool's
//!   layout; jar checksums.
//! - [`graph`]: the class-level dependency graph, its closure and shortest paths.
//! - [`state`]: the versioned state kept between runs.
//! - [`reach`]: the classes a test class reaches (`reachable_classes`), for odrust:diagnose.
//! - [`statics`]: which static fields a test reads and writes (a method-level call graph).
//! - [`immutable`]: which types cannot change, for [`statics`].
//! - [`select`]: the selection (`incremental_select`): changed classes, affected tests, tests
//!   sharing mutable static state with them.

pub mod checksum;
pub mod graph;
pub mod immutable;
pub mod reach;
pub mod select;
pub mod state;
pub mod statics;
