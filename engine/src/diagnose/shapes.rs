//! The diagnose planner's shapes (`diagnose_next`): its request and target, the experiments it
//! asks for and their records, where in a test's run they act ([`ActPoint`]), and the verdict.

use serde::{Deserialize, Serialize};

use crate::model::experiment::TestResult;
use crate::model::kind::OdRole;

use super::diff::FieldDiff;

/// Test JVMs one diagnosis may spend by default (two captures, then restores).
pub const DEFAULT_DIAGNOSE_BUDGET: u32 = 40;

/// Request of `diagnose_next`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiagnoseRequest {
    /// The test to diagnose.
    pub target: DiagnoseTarget,
    /// This target's diagnose records (others are ignored).
    #[serde(default)]
    pub history: Vec<DiagnoseRecord>,
    /// The id of the next experiment (the module's diagnose history length + 1).
    pub next_id: usize,
    /// Test JVMs this target may spend; [`DEFAULT_DIAGNOSE_BUDGET`] when absent.
    #[serde(default)]
    pub budget: Option<u32>,
}

/// A victim or brittle, as detect explained it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiagnoseTarget {
    /// The test id.
    pub test: String,
    /// Victim or brittle.
    pub kind: OdRole,
    /// Its polluters (groups), from report.json (victims).
    #[serde(default)]
    pub polluters: Vec<Vec<String>>,
    /// Its state-setters (groups), from report.json (brittles).
    #[serde(default)]
    pub state_setters: Vec<Vec<String>>,
    /// A digest of the module's classes; records of another digest are ignored.
    pub fingerprint: String,
    /// The confirmed diagnosis of another test of the same root cause: tried first, with one
    /// restore of its polluted state (from its passing capture) before this test in this test's
    /// failing order. When that makes the test pass, the cause's diagnosis is confirmed for it
    /// too; when not, this test is diagnosed on its own.
    #[serde(default)]
    pub shared: Option<SharedDiagnosis>,
    /// Classes of the module the test's class cannot reach in the class-dependency graph
    /// (`reachable_classes`): their fields are listed after the others.
    #[serde(default)]
    pub unreachable: Vec<String>,
}

/// A confirmed diagnosis of one test of a root cause, offered to the others.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharedDiagnosis {
    /// The test it was made for.
    pub test: String,
    /// Its passing capture (what is restored from).
    pub passing_capture: String,
    /// Its confirmed polluted state (display names).
    pub polluted_state: Vec<String>,
    /// Its fields, as its verdict lists them.
    #[serde(default)]
    pub fields: Vec<PollutedField>,
    /// Where its captures acted (the restore for this test acts there too).
    #[serde(default)]
    pub point: Option<ActPoint>,
}

/// Where in a test's run a diagnose experiment acts (restores, then captures): the earliest of
/// these where the test is the next to run, no earlier than the experiment asks. Ordered.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum ActPoint {
    /// Before the test's class is prepared (loaded, its static initializer, `@BeforeClass` /
    /// `@BeforeAll`, class rules): the test is the first of its class's block in the order.
    #[default]
    Class,
    /// Before the test's instance is built (its constructor, field initializers, rules).
    Instance,
    /// At the test's start event, before `@Before` / `@BeforeEach`.
    Test,
}

impl ActPoint {
    /// The point in words, for a verdict: "before its class is prepared".
    pub fn words(self) -> &'static str {
        match self {
            ActPoint::Class => {
                "before its class is prepared (static initializer, @BeforeClass/@BeforeAll)"
            }
            ActPoint::Instance => {
                "before its instance is built (constructor, field initializers, rules)"
            }
            ActPoint::Test => "at its start (before @Before/@BeforeEach)",
        }
    }
}

/// What one diagnose experiment does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiagnoseKind {
    /// Capture before the test in its failing order.
    CaptureFailing,
    /// Capture before the test in its passing order.
    CapturePassing,
    /// Capture before the test in its passing order again, in another JVM: what differs between
    /// the two passing captures is noise (ports, hash codes, times), never restored.
    CapturePassingAgain,
    /// Run the failing order with some fields restored to their passing values.
    Restore,
}

/// One experiment the planner asks for: run `order`; right before the `occurrence`-th start of
/// `test`, initialize `initialize`, restore `fields` from `restore_from`, and capture (captures).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnoseExperiment {
    /// 1-based position in the module's diagnose history.
    pub id: usize,
    /// The test diagnosed.
    pub test: String,
    /// What it does.
    pub kind: DiagnoseKind,
    /// The order to run.
    pub order: Vec<String>,
    /// Which start of the test to act before (1 = the first).
    pub occurrence: usize,
    /// Classes to initialize right before the capture.
    #[serde(default)]
    pub initialize: Vec<String>,
    /// The capture to restore from (restores): the passing capture's path.
    #[serde(default)]
    pub restore_from: Option<String>,
    /// Fields (display names) to restore.
    #[serde(default)]
    pub fields: Vec<String>,
    /// The earliest point to act at.
    #[serde(default)]
    pub point: ActPoint,
}

/// A diagnose experiment that ran.
// Not deny_unknown_fields: serde cannot combine it with flatten (nor on the flattened type).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DiagnoseRecord {
    /// What was asked.
    #[serde(flatten)]
    pub experiment: DiagnoseExperiment,
    /// The target's fingerprint when it ran.
    pub fingerprint: String,
    /// The capture file written (captures), absolute.
    #[serde(default)]
    pub capture: Option<String>,
    /// Per restored field: `restored`, or `not restored: why`.
    #[serde(default)]
    pub restored: std::collections::BTreeMap<String, String>,
    /// The agent's error, when the capture or restore failed.
    #[serde(default)]
    pub error: Option<String>,
    /// Each test's result, in the order they ran.
    #[serde(default)]
    pub results: Vec<TestResult>,
    /// Whether the order ran exactly as asked.
    #[serde(default = "yes")]
    pub honoured: bool,
    /// Where the agent acted; absent when it did not act (or in a record of an agent that acted
    /// only at the test's start).
    #[serde(default)]
    pub acted_at: Option<ActPoint>,
}

impl DiagnoseRecord {
    /// Where the agent acted ([`ActPoint::Test`] for records without the point).
    pub fn point(&self) -> ActPoint {
        self.acted_at.unwrap_or(ActPoint::Test)
    }
}

fn yes() -> bool {
    true
}

/// The next step for one target.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum DiagnoseStep {
    /// Run this experiment, record it, ask again.
    Run {
        /// The experiment.
        experiment: DiagnoseExperiment,
    },
    /// Nothing more to run.
    Done {
        /// The verdict.
        outcome: DiagnoseOutcome,
    },
}

/// How a diagnosis ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiagnoseStatus {
    /// A minimal set of fields whose restore makes the test pass.
    Confirmed,
    /// Fields differ, but restoring all that can be restored does not make the test pass.
    Unconfirmed,
    /// Fields differ, and none of them can be restored: named, not confirmed.
    NotRestorable,
    /// A brittle passes once the classes its state-setter initialized are initialized before
    /// it: what the state-setter provides is their static initialization.
    Initialization,
    /// The captured static state is the same in both orders: the cause is elsewhere.
    NoDifference,
    /// The failing order passed (or the passing order failed) now.
    NotReproduced,
    /// A capture could not be taken or read.
    Error,
    /// The budget ran out first.
    Unfinished,
    /// report.json names no polluter (victim) or state-setter (brittle) to diagnose with.
    Unexplained,
}

/// One differing field in the verdict.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PollutedField {
    /// The diff of the field.
    #[serde(flatten)]
    pub diff: FieldDiff,
    /// In the minimal set whose restore makes the test pass.
    pub confirmed: bool,
    /// It differs between two passing runs too (noise): shown, never restored.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub noise: bool,
    /// The paths where it differs between two passing runs too (noise inside it), when any:
    /// a field is `noise` only when every path where it differs is one of these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub noise_paths: Vec<String>,
    /// What the last restore of it said, if it was restored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restore: Option<String>,
}

/// The verdict for one target: report.json's `polluted_state`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DiagnoseOutcome {
    /// The test.
    pub test: String,
    /// Victim or brittle.
    pub kind: OdRole,
    /// How it ended.
    pub status: DiagnoseStatus,
    /// What the status means for this test, in a sentence.
    pub reason: String,
    /// The order where it fails.
    pub failing_order: Vec<String>,
    /// The order where it passes.
    pub passing_order: Vec<String>,
    /// Every field whose state differs before the test, the confirmed ones first.
    pub fields: Vec<PollutedField>,
    /// The display names of the confirmed minimal set (empty unless confirmed).
    pub polluted_state: Vec<String>,
    /// Test JVMs spent.
    pub experiments: usize,
    /// The two captures (paths).
    pub failing_capture: Option<String>,
    /// The passing capture.
    pub passing_capture: Option<String>,
    /// Where the captures and restores acted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<ActPoint>,
}
