//! Experiments: what a planner asks the Java side to run, and the record of one that ran.
//!
//! A planner's history is a list of [`ExperimentRecord`]s (`target/odrust/detect/experiments.jsonl`,
//! `docs/protocol.md`, "Detection"); every planner replays it from the start.

use serde::{Deserialize, Serialize};

use crate::model::outcome::RunOutcome;
use crate::model::strategy::Strategy;

/// What an experiment is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExperimentKind {
    /// A run of the original order before the rounds.
    Baseline,
    /// One round of the strategy.
    Round,
    /// The order where the candidates failed, cut after the last one: the round's order for
    /// tests that failed in the round, the original order for failing tests that passed in it.
    ConfirmFail,
    /// The order where the candidates passed, cut after the last one: the original order for
    /// tests that failed in the round, the round's order for failing tests that passed in it.
    ConfirmPass,
    /// One OD test by itself.
    Alone,
    /// Delta debugging for a victim's polluters: a subset of its failing prefix, then the victim.
    PolluterSearch,
    /// `[t, v]`: is `t` a polluter of victim `v`?
    PolluterPair,
    /// `[p, c, v]`: is `c` a cleaner of polluter `p` for victim `v`?
    Cleaner,
    /// Delta debugging for a brittle's state-setters: a subset of its passing prefix, then it.
    SetterSearch,
    /// `[s, b]`: is `s` a state-setter of brittle `b`?
    SetterPair,
}

impl ExperimentKind {
    /// Every kind, in the order of the phases.
    pub const ALL: [ExperimentKind; 10] = [
        ExperimentKind::Baseline,
        ExperimentKind::Round,
        ExperimentKind::ConfirmFail,
        ExperimentKind::ConfirmPass,
        ExperimentKind::Alone,
        ExperimentKind::PolluterSearch,
        ExperimentKind::PolluterPair,
        ExperimentKind::Cleaner,
        ExperimentKind::SetterSearch,
        ExperimentKind::SetterPair,
    ];

    /// Whether it belongs to the minimization phase.
    pub fn is_minimize(self) -> bool {
        matches!(
            self,
            ExperimentKind::PolluterSearch
                | ExperimentKind::PolluterPair
                | ExperimentKind::Cleaner
                | ExperimentKind::SetterSearch
                | ExperimentKind::SetterPair
        )
    }
}

/// One experiment the planner asks for: an order to run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Experiment {
    /// 1-based position in the history.
    pub id: usize,
    /// What it is for.
    pub kind: ExperimentKind,
    /// The round (from 1) for `round`, and the round being confirmed for `confirm-*`.
    pub round: Option<u32>,
    /// How the order was made: `original` for baseline and for the confirmation that reruns the
    /// original order, the round's for round and for the confirmation that reruns the round's
    /// order, null for alone runs and minimization.
    pub strategy: Option<Strategy>,
    /// The test ids to run, in order.
    pub order: Vec<String>,
    /// The tests the experiment is about (confirmations and alone runs; for minimization the
    /// OD test first, then the tests under examination).
    pub targets: Vec<String>,
}

/// The result of one test in one experiment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestResult {
    /// The id that ran (an invocation id `C#m[2]` when the order named the container `C#m`).
    pub test: String,
    /// How it ended.
    pub outcome: RunOutcome,
    /// The failure message, if any.
    #[serde(default)]
    pub message: Option<String>,
    /// How long it ran, in milliseconds, as the agent measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// Recorded runs: the static fields it read (`docs/dependence.md`); absent when not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads: Option<Vec<String>>,
    /// Recorded runs: the static fields it wrote, reads of possibly mutable objects included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writes: Option<Vec<String>>,
}

/// Static fields a class's fixtures read and wrote outside any test (recorded runs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassState {
    /// The class, as in the suite.
    pub class: String,
    /// Fields read.
    #[serde(default)]
    pub reads: Vec<String>,
    /// Fields written.
    #[serde(default)]
    pub writes: Vec<String>,
}

/// One finished experiment, as the plugin records it in `experiments.jsonl`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExperimentRecord {
    /// As planned.
    pub id: usize,
    /// As planned.
    pub kind: ExperimentKind,
    /// As planned.
    #[serde(default)]
    pub round: Option<u32>,
    /// As planned.
    #[serde(default)]
    pub strategy: Option<Strategy>,
    /// As planned.
    pub order: Vec<String>,
    /// As planned.
    #[serde(default)]
    pub targets: Vec<String>,
    /// Every result, in the order the tests really ran.
    pub results: Vec<TestResult>,
    /// Whether the tests ran in exactly the requested order.
    #[serde(default = "yes")]
    pub honoured: bool,
    /// Wall time of the experiment.
    #[serde(default)]
    pub millis: u64,
    /// Recorded runs: class-level static field accesses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub class_state: Vec<ClassState>,
}

impl Experiment {
    /// The experiment a record ran.
    pub fn of(record: &ExperimentRecord) -> Self {
        Experiment {
            id: record.id,
            kind: record.kind,
            round: record.round,
            strategy: record.strategy,
            order: record.order.clone(),
            targets: record.targets.clone(),
        }
    }
}

impl TestResult {
    /// A result with no message, time or recording.
    pub fn new(test: impl Into<String>, outcome: RunOutcome) -> Self {
        TestResult {
            test: test.into(),
            outcome,
            message: None,
            time_ms: None,
            reads: None,
            writes: None,
        }
    }
}

impl ExperimentRecord {
    /// The record of `experiment` having run, honoured, with `results` (in the order they ran).
    /// `millis` is 0 and nothing was recorded; set the fields for more.
    pub fn of(experiment: &Experiment, results: Vec<TestResult>) -> Self {
        ExperimentRecord {
            id: experiment.id,
            kind: experiment.kind,
            round: experiment.round,
            strategy: experiment.strategy,
            order: experiment.order.clone(),
            targets: experiment.targets.clone(),
            results,
            honoured: true,
            millis: 0,
            class_state: Vec::new(),
        }
    }
}

fn yes() -> bool {
    true
}

/// Whether `test` (or every invocation of it, for a parameterized container id) passed in
/// `results`: `Some(false)` as soon as one failed, `Some(true)` when one passed and none failed,
/// `None` when it did not run (or was only skipped).
pub fn test_passed(test: &str, results: &[TestResult]) -> Option<bool> {
    let mut verdict = None;
    for r in results
        .iter()
        .filter(|r| r.test == test || crate::model::testid::is_invocation_of(&r.test, test))
    {
        match r.outcome.passed() {
            Some(false) => return Some(false),
            Some(true) => verdict = Some(true),
            None => {}
        }
    }
    verdict
}
