//! Repair planning (`odrust:repair`, issue 11; Li et al., ICSE 2022, section 2, iFixFlakies' patches, and
//! section 3.2, ODRepair's generator): which subset of a cleaner's or state-setter's statements
//! to try next (reusing [`crate::explain::ddmin`]), which placement, which checks a minimal patch
//! must pass before it is offered, and which verified candidate becomes the patch. Java parses,
//! edits, compiles and runs; this folder decides (`docs/repair.md`).
//!
//! May use [`crate::model`], [`crate::explain`], [`crate::diagnose`] and [`crate::jvm`] (class
//! files, the class hierarchy, Java literals).
//!
//! - [`plan`]: the planner, replayed from the history of repair experiments like detect's; its
//!   request, records and verdicts are [`shapes`], its candidates `candidates`, the checks of a
//!   minimal candidate `checks`.
//! - [`reset`]: the reset-method finder (ODRepair's generator): statements from the module's own
//!   code that may reset a polluted static field, when no test cleans it; its search is
//!   `finder`, which calls count as mutators `mutator`, the static accessors it follows to the
//!   field's value `accessor`, and the direct restore of the field's passing value `restore`.

mod accessor;
mod candidate;
mod candidates;
mod checks;
mod finder;
mod mutator;
pub mod plan;
pub mod reset;
mod restore;
pub mod shapes;

#[cfg(test)]
mod tests;

pub use plan::{
    next, Check, CheckResult, FixSource, Placement, RepairExperiment, RepairOutcome, RepairRecord,
    RepairRequest, RepairStatus, RepairStep, RepairTarget, RuledOut, SourceOrigin,
    DEFAULT_REPAIR_BUDGET,
};
pub use reset::{
    reset_methods, FieldId, ResetCandidate, ResetKind, ResetRequest, ResetResponse,
    DEFAULT_RESET_LIMIT,
};
