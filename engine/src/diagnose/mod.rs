//! Polluted-state diagnosis (`odrust:diagnose`, issue 12; Li et al., ICSE 2022, section 3.1, ODRepair's
//! debugger): the diff of two heap-state XML captures taken before a victim (quick-xml), and the
//! restore experiments that confirm which static field the polluter changed.
//!
//! May use [`crate::model`] and [`crate::explain`].
//!
//! - [`capture`]: reading a capture (the agent's XML, format version 1) into [`Capture`], a tree
//!   of [`Node`]s per static field and piece of JDK pseudo state, and the short rendering of a
//!   node ([`render`]); under it [`node`] (the shapes), `xml` (the XML reader) and [`short`]
//!   (the renderings).
//! - [`diff`](mod@diff): the fields whose values differ between a capture in a failing order and
//!   one in a passing order ([`FieldDiff`]), the smallest differing paths, and whether each field
//!   can be set back to its passing value.
//! - [`plan`]: the planner (`diagnose_next`): the two captures, then the restore experiments
//!   (ddmin over the restorable differing fields), and the verdict ([`DiagnoseOutcome`]); its
//!   request, records and verdict are in [`shapes`].

pub mod capture;
pub mod diff;
pub mod node;
pub mod plan;
pub mod shapes;
pub mod short;
mod xml;

pub use capture::{parse, read, render, Capture, ClassState, Node, ObjField, StaticField};
pub use diff::{diff, DiffKind, FieldDiff, PathDiff};
pub use plan::next;
pub use shapes::{
    ActPoint, DiagnoseExperiment, DiagnoseKind, DiagnoseOutcome, DiagnoseRecord, DiagnoseRequest,
    DiagnoseStatus, DiagnoseStep, DiagnoseTarget, PollutedField, SharedDiagnosis,
    DEFAULT_DIAGNOSE_BUDGET,
};
