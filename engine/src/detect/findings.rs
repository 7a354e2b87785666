//! What detection answers: the next step and its progress, the flaky tests found, and the
//! summary of a run (`docs/detect.md`, "report.json").

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use super::phases::Phase;
use crate::explain::flakerate::FlakeRate;
use crate::model::experiment::Experiment;
use crate::model::kind::FlakyKind;
use crate::model::order::{resolve, segment, Segment};
use crate::model::strategy::Strategy;
use crate::model::suite::SuiteIndex;
use crate::schedule::dependence::PlanInfo;

/// How far detection is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// The phase of the next experiment (`done` when there is none).
    pub phase: Phase,
    /// Rounds run so far.
    pub rounds_done: u32,
    /// Rounds configured.
    pub rounds_total: u32,
    /// Tests confirmed order-dependent so far.
    pub od_found: usize,
    /// Tests found NOD so far.
    pub nod_found: usize,
    /// Candidates waiting for their confirmation runs.
    pub candidates: usize,
    /// Alone runs still to run for the OD tests found so far (at most: runs that disagree end
    /// a test's alone runs early).
    pub alone_left: u32,
    /// Explanation experiments run so far for the OD tests to explain.
    pub explain_spent: u32,
    /// The run's budget of explanation experiments (`minimize_budget`, or its default for the OD
    /// tests found so far); 0 with minimization off. The fresh-JVM runs of claims shared JVMs
    /// showed count in `explain_spent` and may go beyond it.
    pub explain_budget: u32,
}

/// Response of `detect_next`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextStep {
    /// The next experiment, or `None` when detection is complete.
    pub experiment: Option<Experiment>,
    /// The experiments that can run now, at the same time, first `experiment`: none of them
    /// depends on another's outcome. Their records must be appended in this order (the history
    /// is a prefix of the plan), so the plan does not depend on how many run at once. Each comes
    /// with its order cut into segments: running it takes no second engine call.
    pub batch: Vec<PlannedExperiment>,
    /// How far detection is.
    pub progress: Progress,
    /// Once the baseline is done: what is left, phase by phase, and its predicted time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimate: Option<super::phases::Estimate>,
    /// Systematic strategies, when the next experiment is the first round: what the schedule
    /// will run and its predicted cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<PlanInfo>,
    /// `targeted`, when the next experiment is the first round: what its targeted rounds cover.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub targeted: Option<crate::schedule::targeted::TargetedInfo>,
}

/// An experiment of a batch as it crosses to the plugin: its order already resolved and cut into
/// segments (one JUnit request each, as `plan_order` would cut it), so that running it takes no
/// second engine call. Reads as the [`Experiment`] it carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlannedExperiment {
    /// The experiment.
    #[serde(flatten)]
    pub experiment: Experiment,
    /// Its order in segments; absent only if the order did not resolve against the suite (the
    /// plugin then asks `plan_order`, which says why).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segments: Option<Vec<Segment>>,
}

impl PlannedExperiment {
    /// `experiment` with its order resolved against `index` and segmented.
    pub fn new(experiment: Experiment, index: &SuiteIndex<'_>) -> Self {
        let segments = resolve(&experiment.order, index, "a planned experiment")
            .ok()
            .map(|r| segment(&r.tests, index));
        PlannedExperiment {
            experiment,
            segments,
        }
    }
}

impl std::ops::Deref for PlannedExperiment {
    type Target = Experiment;

    fn deref(&self) -> &Experiment {
        &self.experiment
    }
}

/// A test that failed in every baseline run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailingTest {
    /// Its id.
    pub test: String,
    /// The message of its last baseline failure.
    pub message: Option<String>,
}

/// Results of the alone runs of an OD test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AloneRuns {
    /// Alone runs that reported the test (pass or not).
    pub runs: u32,
    /// Of those, the ones it passed.
    pub passed: u32,
}

/// One flaky test found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlakyTest {
    /// Its id (a result id: an invocation id for a dynamic invocation).
    pub test: String,
    /// What kind of flaky test it is.
    pub kind: FlakyKind,
    /// OD: the confirm-fail experiment; NOD: an experiment where it failed.
    #[serde(default)]
    pub failing_experiment: usize,
    /// OD: the confirm-pass experiment; NOD: an experiment where it passed.
    #[serde(default)]
    pub passing_experiment: usize,
    /// The failure message seen when it was detected.
    #[serde(default)]
    pub message: Option<String>,
    /// Alone runs, for a confirmed OD test whose alone runs are complete.
    #[serde(default)]
    pub alone: Option<AloneRuns>,
    /// One plain sentence saying what was observed.
    #[serde(default)]
    pub evidence: String,
    /// Victim: its polluters, each a group of tests that fail it together (a single polluter is
    /// a group of one). Empty when not explained.
    #[serde(default)]
    pub polluters: Vec<Vec<String>>,
    /// Victim: the cleaners found for each single polluter.
    #[serde(default)]
    pub cleaners: BTreeMap<String, Vec<String>>,
    /// Brittle: its state-setters, grouped like `polluters`.
    #[serde(default)]
    pub state_setters: Vec<Vec<String>>,
    /// The probability that it fails in a random order; null when not computable.
    #[serde(default)]
    pub flake_rate: Option<FlakeRate>,
    /// Minimization experiments run for it.
    #[serde(default)]
    pub minimize_experiments: u32,
    /// True when its explanation is complete: every search it needs ran to the end. False when
    /// it was not explained or the budget cut the search short (then an empty `cleaners` list
    /// means "none found so far", not "none").
    #[serde(default = "complete_when_absent")]
    pub minimize_complete: bool,
    /// Victim: the single polluters whose search for cleaners did not finish (cut short, or
    /// not started); their `cleaners` (if any) are those found so far.
    #[serde(default)]
    pub cleaners_unfinished: Vec<String>,
    /// A merged report (`odrust:merge`): the shard whose experiments these are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<u32>,
}

/// Reports written before `minimize_complete` existed were complete.
fn complete_when_absent() -> bool {
    true
}

/// Response of `detect_summary`. `F` is what a flaky test is: the finding itself here, and in
/// report.json the finding with its order files and command (`report::ReportEntry`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary<F = FlakyTest> {
    /// The configured seed.
    pub seed: u64,
    /// The configured strategy.
    pub strategy: Strategy,
    /// Tests listed in the suite (a dynamic container counts once).
    pub tests_total: usize,
    /// Test results of one run of the whole suite (the first baseline run): every invocation of a
    /// dynamic container counts, as `mvn test` counts them. Absent before the baseline ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results_per_run: Option<usize>,
    /// Experiments in the history.
    pub experiments: usize,
    /// Rounds run.
    pub rounds_run: u32,
    /// Rounds configured.
    pub rounds_planned: u32,
    /// Tests that failed in every baseline run and were not found flaky in a round, by id.
    pub failing: Vec<FailingTest>,
    /// Flaky tests, by id.
    pub flaky: Vec<F>,
    /// Things the user should know about the run.
    pub notes: Vec<String>,
    /// Systematic strategies: the consecutive ordered pairs the rounds that ran covered, of those
    /// the schedule claims. Absent for other strategies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<PairsCovered>,
    /// Systematic strategies: what the whole schedule runs, and its predicted cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<PlanInfo>,
    /// The shard this run was (`-Dodrust.shard=K/N`): its rounds are the plan's rounds `K`,
    /// `K + N`, ...; absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::detect::config::Shard>,
    /// Where the experiments' time went (absent when none reported it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<crate::model::experiment::TimeSpent>,
    /// What the baseline and the rounds covered, and the chance that a victim escaped them
    /// (absent before the baseline ran).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    /// `targeted`: what its targeted rounds were planned to cover.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub targeted: Option<crate::schedule::targeted::TargetedInfo>,
    /// Each phase that ran: its experiments and their time, and what it was predicted to cost
    /// when it started (`docs/detect.md`, "Estimates").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<super::phases::PhaseTime>,
}

/// Consecutive ordered pairs covered by the rounds of a systematic strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairsCovered {
    /// Distinct claimed pairs consecutive in some round that ran.
    pub covered: u64,
    /// Pairs the schedule claims to cover when all its rounds run.
    pub total: u64,
}

/// What the baseline and the rounds that ran covered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    /// Distinct ordered pairs of tests that ran consecutively in the baseline or a round.
    pub pairs_run: u64,
    /// Ordered pairs the framework can run consecutively (classes stay whole; a fixed-order
    /// class only in its order).
    pub pairs_possible: u64,
    /// `targeted`: writer→reader pairs of recorded static fields that ran consecutively, of all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_pairs: Option<StatePairs>,
    /// Rounds whose orders were drawn at random, targeted orders included (what no pair
    /// constrains in them is random); reverses of passing random rounds count too.
    pub random_rounds: u32,
    /// For a victim that fails in a share `rate` of random orders, the chance that it passed
    /// every random round: `(1 - rate)^random_rounds`. Empty without random rounds.
    pub escape: Vec<Escape>,
    /// One plain paragraph of the above.
    pub text: String,
}

/// Writer→reader pairs of static fields covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatePairs {
    /// Ran consecutively in the baseline or a round.
    pub covered: u64,
    /// All of them.
    pub total: u64,
}

/// The chance that a victim failing in `rate` of random orders escaped the random rounds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Escape {
    /// Share of random orders it fails in.
    pub rate: f64,
    /// Chance it passed every random round.
    pub chance: f64,
}
