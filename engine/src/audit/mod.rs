//! Flakiness before it happens (`odrust:audit`, issue 34; PolDet's idea, Gyori et al., ISSTA 2015:
//! compare the shared state before and after each test): tests that fail when run twice in one JVM
//! (non-idempotent outcome, they pollute themselves), and latent polluters, tests after which a
//! static field differs and stays different, whether or not a victim exists yet.
//!
//! May use [`crate::model`], [`crate::jvm`], [`crate::diagnose`] (captures and their diff) and
//! [`crate::incremental::graph`] (which test classes reach a field's readers).
//!
//! - [`shapes`]: the request of `audit_next`, its experiments and records (with the agent's capture
//!   points), the step and the outcome.
//! - [`plan`]: the planner: the suite with every class run twice in one JVM, each candidate
//!   confirmed in a fresh JVM (`[t, t]`, else its class twice) with captures before each run; then
//!   the original order captured at every class, the classes each class initializes captured
//!   right after initialization, and the order captured at every test of the classes that
//!   changed state.
//! - [`fixes`]: with `repair`, a teardown patch for each latent polluter that can have one,
//!   verified in its class (the field the same after the test as before) and in the original
//!   order (every test ends as without it).
//! - [`changes`]: the fields that differ between two capture points of a record, and which test of
//!   a class left each.
//! - [`runs`]: what one run's results say (outcomes by copy, candidates, capture brackets).
//! - [`segments`]: what each class's block of a captured run left behind, and which test left it.
//! - [`readers`]: which test classes read a static field (class files: `getstatic` in any class
//!   the test class reaches), for ranking.

pub mod changes;
pub mod fixes;
pub mod plan;
pub mod readers;
pub mod runs;
pub mod segments;
pub mod shapes;

pub use plan::next;
pub use shapes::{AuditOutcome, AuditRecord, AuditRequest, AuditStep};

#[cfg(test)]
mod fix_tests;
#[cfg(test)]
mod tests;
