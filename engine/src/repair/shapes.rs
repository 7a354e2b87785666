//! What the repair planner reads and answers (`repair_next`, `docs/protocol.md`): the request
//! and its target with the sources Java parsed, the experiments, their records, the next step
//! and the verdict.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::experiment::{Isolation, TestResult};
use crate::model::kind::OdRole;

/// Request of `repair_next`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepairRequest {
    /// What to repair.
    pub target: RepairTarget,
    /// The repair experiments recorded for this module: all of them, or only this target's with
    /// `next_id` (records of other tests are ignored either way).
    #[serde(default)]
    pub history: Vec<RepairRecord>,
    /// The id of the next experiment (the module's history length + 1); when absent, the
    /// history is taken to be the module's whole history.
    #[serde(default)]
    pub next_id: Option<usize>,
    /// Experiments this target may spend;
    /// [`DEFAULT_REPAIR_BUDGET`](super::plan::DEFAULT_REPAIR_BUDGET) when absent.
    #[serde(default)]
    pub budget: Option<u32>,
}

/// One flaky test to repair, as detect explained it, with what Java could parse.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepairTarget {
    /// The test id.
    pub test: String,
    /// Victim or brittle.
    pub kind: OdRole,
    /// Its polluters (groups), from report.json.
    #[serde(default)]
    pub polluters: Vec<Vec<String>>,
    /// Cleaners per single polluter, from report.json.
    #[serde(default)]
    pub cleaners: BTreeMap<String, Vec<String>>,
    /// Its state-setters (groups), from report.json.
    #[serde(default)]
    pub state_setters: Vec<Vec<String>>,
    /// Whether detect finished explaining it (else "no cleaner" may only mean "none found yet").
    #[serde(default = "yes")]
    pub explanation_complete: bool,
    /// The failing order detect recorded for it (report.json's `failing_order`).
    #[serde(default)]
    pub failing_order: Vec<String>,
    /// The module's original order.
    pub original_order: Vec<String>,
    /// Each result of detect's baseline run of the original order.
    #[serde(default)]
    pub baseline: Vec<TestResult>,
    /// The cleaners and state-setters Java parsed, in any order.
    #[serde(default)]
    pub sources: Vec<FixSource>,
    /// A digest of the source files involved; records of another digest are ignored.
    pub fingerprint: String,
    /// The other tests of its root cause (report.json's `causes`), repaired with it by one
    /// patch: every check runs for all of them. Empty: the test alone.
    #[serde(default)]
    pub also: Vec<CauseMember>,
    /// For a part of a split cause: candidates the larger part before it ran with their whole
    /// body at a placement, in an order where every test of this part still failed. They are
    /// not run again (Java keeps only those whose code is the same here).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ruled_out: Vec<RuledOut>,
}

impl RepairTarget {
    /// The tests one patch must fix: the target and the rest of its cause.
    pub fn members(&self) -> Vec<String> {
        let mut all = vec![self.test.clone()];
        all.extend(self.also.iter().map(|m| m.test.clone()));
        all
    }
}

/// Another test of a target's root cause.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CauseMember {
    /// Its id.
    pub test: String,
    /// The failing order detect recorded for it.
    #[serde(default)]
    pub failing_order: Vec<String>,
}

/// A candidate at one placement that a split cause's larger part already ran with its whole body,
/// in an order where none of this part's tests passed ([`RepairTarget::ruled_out`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuledOut {
    /// The source's name ([`FixSource::test`]).
    pub source: String,
    /// Where its code went.
    pub placement: Placement,
    /// The polluter it cleaned after (victims).
    #[serde(default)]
    pub polluter: Option<String>,
    /// The larger part's experiment.
    pub experiment: usize,
    /// That experiment's order.
    pub order: Vec<String>,
}

fn yes() -> bool {
    true
}

/// A cleaner or state-setter test as Java parsed it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixSource {
    /// Its test id.
    pub test: String,
    /// How many statements a patch from it can keep (its setup's and its body's).
    pub statements: usize,
    /// Where Java can put its code, in the order to try.
    #[serde(default)]
    pub placements: Vec<Placement>,
    /// Why Java cannot use it (no source file, a parse error, parameters), if so.
    #[serde(default)]
    pub unusable: Option<String>,
    /// What it is: a cleaner or state-setter test (default), or statements that call the
    /// module's own reset methods for a victim's polluted state (then `test` names them).
    #[serde(default)]
    pub origin: SourceOrigin,
}

/// Where a [`FixSource`]'s statements come from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceOrigin {
    /// A cleaner (victims) or state-setter (brittles) of report.json.
    #[default]
    Test,
    /// Calls of the module's reset methods for the polluted state `odrust:diagnose` confirmed
    /// (victims; tried after every cleaner).
    ResetMethod,
}

/// Where a patch's code goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// The flaky test's class setup (`@Before` / `@BeforeEach`): runs before each of its tests.
    Setup,
    /// The start of the flaky test method itself.
    Test,
    /// The polluter's class teardown (`@After` / `@AfterEach`): undoes what it leaves behind
    /// right where it leaves it (victims only; the patch edits the polluter's class).
    PolluterTeardown,
}

/// What one repair experiment checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// The oracle order without any patch: does the test still fail there?
    Unpatched,
    /// The oracle order (`[p, v]`, `[b]`) with a candidate: minimization and the first check.
    FailingOrder,
    /// The test by itself.
    Alone,
    /// Another failing order known for the test.
    RecordedFailingOrder,
    /// The test's class, its tests in the original order.
    Class,
    /// The module's original order.
    OriginalOrder,
}

/// One experiment the planner asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairExperiment {
    /// 1-based position in the module's repair history.
    pub id: usize,
    /// The flaky test being repaired.
    pub test: String,
    /// The cleaner or state-setter whose statements are used (none for `unpatched`).
    #[serde(default)]
    pub source: Option<String>,
    /// The polluter the cleaner undoes (victims).
    #[serde(default)]
    pub polluter: Option<String>,
    /// Where the statements go (none for `unpatched`).
    #[serde(default)]
    pub placement: Option<Placement>,
    /// Indices of the source's statements kept, ascending.
    #[serde(default)]
    pub statements: Vec<usize>,
    /// What it checks.
    pub check: Check,
    /// The order to run, with the candidate's class first on the classpath.
    pub order: Vec<String>,
    /// Whether it may run in a shared JVM with fresh class loaders (`odrust.isolation=classloader`
    /// and a module that passed detect's isolation check, `docs/isolation.md`): delta debugging
    /// over a candidate's statements, which only proposes; never the unpatched run, a candidate's
    /// whole body or a check of the minimal patch, which run in fresh JVMs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shareable: bool,
}

/// A repair experiment that ran (or whose candidate did not compile).
// Not deny_unknown_fields: serde cannot combine it with flatten (nor on the flattened type).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RepairRecord {
    /// What was asked.
    #[serde(flatten)]
    pub experiment: RepairExperiment,
    /// The target's fingerprint when it ran.
    pub fingerprint: String,
    /// The compiler's first error, when the candidate did not compile (nothing ran then).
    #[serde(default)]
    pub compile_error: Option<String>,
    /// Each test's result, in the order they ran.
    #[serde(default)]
    pub results: Vec<TestResult>,
    /// Whether the order ran exactly as asked (the plugin's run check); a run that did not is no
    /// evidence for or against a candidate.
    #[serde(default = "yes")]
    pub honoured: bool,
    /// When another experiment had already run the very same code (another source or placement
    /// that gave the same patched file) in the same order: its id, whose results these are
    /// (no JVM ran for this one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reused_from: Option<usize>,
    /// How it ran: `classloader` in a shared JVM (`jvm`, a fresh one, when absent).
    #[serde(default, skip_serializing_if = "Isolation::is_jvm")]
    pub isolation: Isolation,
}

/// The next step for one target.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum RepairStep {
    /// Run this experiment, record it, ask again.
    Run {
        /// The experiment.
        experiment: RepairExperiment,
        /// When it is a check of a minimal patch: the checks still to run, this one included
        /// (the repair ends after them when they pass); absent otherwise.
        #[serde(skip_serializing_if = "Option::is_none")]
        checks_left: Option<usize>,
    },
    /// Nothing more to run for this target.
    Done {
        /// The verdict.
        outcome: RepairOutcome,
    },
}

/// How a repair ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepairStatus {
    /// A verified patch.
    Patched,
    /// Candidates existed; none passed every check.
    Rejected,
    /// No cleaner / state-setter is known to make one from.
    NoFixSource,
    /// The failing order does not fail any more without a patch.
    NotReproduced,
    /// The budget ran out before a verdict.
    Unfinished,
}

/// Which test a patch's statements come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceRef {
    /// `cleaner` or `state-setter`.
    pub kind: String,
    /// The cleaner or state-setter.
    pub test: String,
    /// The polluter it undoes (victims).
    pub polluter: Option<String>,
}

/// One check of a verified (or rejected) candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The check.
    pub check: Check,
    /// The order it ran.
    pub order: Vec<String>,
    /// Whether it passed.
    pub passed: bool,
    /// What went wrong, when it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The experiment that ran it.
    pub experiment: usize,
}

/// A candidate tried and not offered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tried {
    /// Where its statements came from.
    pub source: SourceRef,
    /// Where they went (none when the source could not be used at all).
    pub placement: Option<Placement>,
    /// The statements it had when it was rejected.
    pub statements: Vec<usize>,
    /// Why it was not offered.
    pub why: String,
}

/// The verdict for one target.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RepairOutcome {
    /// The flaky test.
    pub test: String,
    /// Victim or brittle.
    pub kind: OdRole,
    /// How it ended.
    pub status: RepairStatus,
    /// Why there is no patch (every status but `patched`).
    pub reason: Option<String>,
    /// The patch's source.
    pub source: Option<SourceRef>,
    /// The patch's placement.
    pub placement: Option<Placement>,
    /// The statements kept (indices into the source's statements).
    pub statements: Vec<usize>,
    /// How many statements the source offered.
    pub statements_total: usize,
    /// The checks the patch passed (or, rejected, those of the last candidate).
    pub verification: Vec<CheckResult>,
    /// Tests runs spent on this target (JVMs).
    pub experiments: usize,
    /// Candidates that did not compile (no JVM).
    pub compile_errors: usize,
    /// Candidates tried and not offered, with why.
    pub tried: Vec<Tried>,
}
