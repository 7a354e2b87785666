//! Implementation-dependent tests (`odrust:detect-id`, issue 17; NonDex and DexFix, ICSE 2021):
//! the plan of clean runs and shuffle seeds, the bisection that pins the shuffled call site, the
//! classification, and the choice of a DexFix repair strategy.
//!
//! The test JVM's agent makes JDK APIs whose result the specification leaves open (`HashMap` and
//! `HashSet` iteration, `Class.getDeclaredFields`, `File.list`, ...) return a seeded random
//! permutation of what they may legally return, and counts every such call the module's code makes
//! (invocation 1, 2, 3, ...); with `only` ranges it shuffles only the invocations in them. The
//! engine decides every run, replayed from the history of records like `diagnose_next`, so a
//! killed run resumes from disk (`docs/protocol.md`, "ID tests").
//!
//! May use [`crate::model`] and [`crate::explain::ddmin`] (the bisection needs only halves, so it
//! does not).
//!
//! - [`plan`]: the planner (`id_next`): phase 1 (clean runs, one shuffled run per seed), the
//!   candidates (passed in every clean run, failed under a seed), then per candidate: alone
//!   without shuffling, alone under its failing seeds, bisection of the invocation range down to
//!   one call (or a range that needs shuffled invocations in both halves), confirmation in the
//!   full order; the verdicts ([`IdOutcome`]).
//! - [`shapes`]: the request, experiments, records, verdicts and outcome of `id_next`.
//! - [`call`]: one counted call of a shuffled API, as the agent reports it ([`IdCall`]).
//! - [`dexfix`]: the DexFix repair strategies that apply to a pinned call ([`RepairChoice`]).

pub mod call;
pub mod dexfix;
pub mod plan;
pub mod shapes;

pub use call::{Alloc, Frame, IdCall};
pub use dexfix::{choices, RepairChoice, RepairStrategy};
pub use plan::{
    next, verification_seeds, IdExperiment, IdKind, IdNeeds, IdOutcome, IdRecord, IdRequest,
    IdStatus, IdStep, IdVerdict, Pin, Range, Reproduce, DEFAULT_CLEAN_RUNS, DEFAULT_ID_BUDGET,
    DEFAULT_VERIFY_SEEDS,
};
