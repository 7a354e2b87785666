//! odrust engine: the decisions behind odrust, a Maven plugin that finds order-dependent flaky
//! tests in Java projects.
//!
//! The Java side (the `odrust-maven-plugin` and the agent in each forked test JVM) runs tests; this
//! crate decides *what* to run and reads *what happened*. It is loaded by the plugin over JNI and
//! spoken to only through JSON strings (`docs/protocol.md`, "Engine calls"): one op name and one
//! request in, one response or one error out. The same ops are reachable from the command line
//! through the `odrust-engine` binary, for debugging.
//!
//! # Module map
//!
//! - [`protocol`]: the entry point [`protocol::call`], dispatching named ops; request and response
//!   types; the ABI and engine versions.
//! - [`jni_api`]: the native methods of `io.github.odrust.engine.NativeEngine`; the only module
//!   that touches JNI. Catches panics and turns errors into Java exceptions.
//! - [`error`]: [`EngineError`], the one error type, and its stable error codes.
//! - [`testid`]: parsing and validating test ids (`Class#method`, invocations `m[2]`, the dotted
//!   IDoFT form).
//! - [`suite`]: the suite of a module (discovered class records) and an index over it.
//! - [`order`]: reading an order, resolving it against a suite, cutting it into segments.
//! - [`runcheck`]: checking that the order that ran is the order requested.
//! - [`surefire`]: reading Surefire's `TEST-*.xml` reports.
//! - [`outcome`]: test outcomes, their severity order, and the outcomes of detection experiments.
//! - [`compare`]: comparing two sets of outcomes.
//! - [`strategy`]: detection strategies and the order generators behind them.
//! - [`tuscan`]: Tuscan squares (orders of `0..n` covering every consecutive ordered pair).
//! - [`schedule`]: systematic schedules (`tuscan`, `pairs-all`, `k-bounded`), pair coverage,
//!   predicted cost and lower bounds.
//! - [`detect`]: the planner of `odrust:detect`: the next experiment, and what the experiments
//!   found.
//! - [`minimize`]: the minimization phase of the planner: polluters, cleaners, state-setters.
//! - [`ddmin`]: delta debugging (Zeller's ddmin), direct and resumable from known answers.
//! - [`flakerate`]: flake rates of OD tests (closed forms, exact counting, seeded sampling).
//! - [`report`]: rendering a detection report as HTML and Surefire-style XML.

pub mod compare;
pub mod ddmin;
pub mod dependence;
pub mod detect;
pub mod error;
pub mod flakerate;
pub mod jni_api;
pub mod minimize;
pub mod order;
pub mod outcome;
pub mod protocol;
pub mod report;
pub mod runcheck;
pub mod schedule;
pub mod strategy;
pub mod suite;
pub mod surefire;
pub mod testid;
pub mod tuscan;

pub use error::EngineError;
