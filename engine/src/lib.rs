//! odrust engine: the decisions behind odrust, a Maven plugin that finds order-dependent flaky
//! tests in Java projects.
//!
//! The Java side (the `odrust-maven-plugin` and the agent in each forked test JVM) runs tests; this
//! crate decides *what* to run and reads *what happened*. It is loaded by the plugin over JNI and
//! spoken to only through JSON strings (`docs/protocol.md`, "Engine calls"): one op name and one
//! request in, one response or one error out. The same ops are reachable from the command line
//! through the `odrust-engine` binary, for debugging.
//!
//! # Map
//!
//! One folder per capability; a folder's `mod.rs` says what it is, which paper it implements and
//! what it may use. Floors, from the bottom; a module uses only its own floor's [`error`] and
//! [`model`] and the floors below it, never one above (`docs/architecture.md`, "Where to put new
//! code"):
//!
//! | floor | module | job |
//! |---|---|---|
//! | 0 | [`error`] | [`EngineError`], the one error type, its stable codes, and whether the user can fix it |
//! | 0 | [`model`] | the shared vocabulary: test ids, suite, orders, outcomes, experiments, seeds |
//! | 1 | [`jvm`] | the JVM class-file layer: class files, descriptors, the class hierarchy, Java literals |
//! | 1 | [`run`] | running an exact order: the order that ran against the order asked for |
//! | 1 | [`surefire`] | Surefire's reports, and the fidelity comparison with them |
//! | 1 | [`schedule`] | strategies, random orders, Tuscan squares, pair covers, cost, dependence-aware plans |
//! | 1 | [`explain`] | ddmin, polluters / cleaners / state-setters, flake rates |
//! | 1 | [`diagnose`] | heap-state captures, their diff, and the restore experiments that confirm a polluted field (`diagnose_next`) |
//! | 1 | [`incremental`] | class checksums, the class graph, the tests a change can affect (`incremental_select`) |
//! | 1 | [`idtests`] | the ID-test planner (`id_next`): clean and shuffled runs, call-site bisection, DexFix choices |
//! | 2 | [`detect`] | the detection planner: baseline, rounds, confirmation, classification |
//! | 2 | [`repair`] | the repair planner: statement subsets of cleaners to try, checks, verdicts; reset methods |
//! | 3 | [`report`] | HTML and Surefire-style XML of the findings |
//! | 4 | [`protocol`], [`jni_api`] | the only doors: named JSON ops, and JNI over them |
//!
//! Floor-1 modules do not use each other, except where a `mod.rs` says so (`diagnose` may use
//! `explain`, `incremental` may use `jvm`, `idtests` may use `explain::ddmin`).

pub mod audit;
pub mod detect;
pub mod diagnose;
pub mod error;
pub mod explain;
pub mod history;
pub mod idtests;
pub mod incremental;
pub mod jni_api;
pub mod jvm;
pub mod model;
pub mod protocol;
pub mod repair;
pub mod report;
pub mod run;
pub mod schedule;
pub mod surefire;

pub use error::EngineError;

/// The engine's crate version; the plugin's version must equal it (ignoring `-SNAPSHOT`).
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
