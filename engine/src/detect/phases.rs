//! The shapes of estimates: detection's phases, what is left of each, and each phase's
//! prediction against its cost ([`super::estimate`] computes them; `docs/detect.md`, "Estimates").

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::experiment::{ExperimentKind, ExperimentRecord};

/// The phase of detection an experiment belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Baseline runs.
    Baseline,
    /// Rounds.
    Rounds,
    /// Confirmation runs.
    Confirm,
    /// Alone runs.
    Alone,
    /// Explaining OD tests: polluters, cleaners, state-setters.
    Minimize,
    /// Nothing left to run.
    Done,
}

/// Where the cost per experiment of a phase comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// The mean of the phase's own experiments so far.
    Measured,
    /// A cost model: what a fresh JVM costs beyond its tests, plus the baseline's times of the
    /// tests an experiment runs.
    Model,
    /// Nothing measured yet (no baseline): no time is predicted.
    Unknown,
}

/// One phase: what ran and what is left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseEstimate {
    /// The phase.
    pub phase: Phase,
    /// Experiments of the phase run so far.
    pub done: u32,
    /// Experiments still to run: counted when `counted`, else predicted.
    pub left: u32,
    /// Whether `left` is a count (rounds, alone runs of the OD tests found) rather than a
    /// prediction.
    pub counted: bool,
    /// The time of its experiments so far (ms).
    pub spent_ms: u64,
    /// The predicted time of the `left` experiments (ms).
    pub left_ms: u64,
    /// Where the cost per experiment comes from.
    pub basis: Basis,
    /// Of `left`, the rounds predicted to run in shared JVMs (`odrust.isolation=classloader`,
    /// after the isolation check; docs/detect.md "Estimates"); 0 for the other phases.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shared: u32,
    /// Their part of `left_ms`.
    #[serde(default, skip_serializing_if = "is_zero_ms")]
    pub shared_ms: u64,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_ms(n: &u64) -> bool {
    *n == 0
}

/// What each OD test found from now on adds: its alone runs and its explanation, and their time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerOdTest {
    /// Alone runs.
    pub alone: u32,
    /// Their predicted time (ms).
    pub alone_ms: u64,
    /// Explanation experiments predicted (0 with minimization off).
    pub explain: u32,
    /// Their predicted time (ms).
    pub explain_ms: u64,
}

/// What is left of the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Estimate {
    /// The phases after the baseline that this run has, in the order they run.
    pub phases: Vec<PhaseEstimate>,
    /// The predicted time of everything left (ms): the phases' `left_ms` together.
    pub left_ms: u64,
    /// While rounds may still find OD tests: what each adds beyond `left_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_od_test: Option<PerOdTest>,
}

/// A phase's prediction when its first experiment was planned, and what it cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseTime {
    /// The phase.
    pub phase: Phase,
    /// Its experiments.
    pub experiments: u32,
    /// Their time (ms).
    pub actual_ms: u64,
    /// The experiments it was predicted to run when it started (absent for the baseline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_experiments: Option<u32>,
    /// Their predicted time (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_ms: Option<u64>,
    /// How the cost per experiment was predicted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
    /// "explanations: 199 experiments in 9.5 min (predicted 150 in 7 min at the start)".
    #[serde(default)]
    pub text: String,
}

/// A duration read at a glance: 10.9 s, 4.5 min, 12 min, 3.4 h.
pub fn duration(ms: u64) -> String {
    if ms < 60_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else if ms < 600_000 {
        format!("{:.1} min", ms as f64 / 60_000.0)
    } else if ms < 3_600_000 {
        format!("{} min", (ms + 30_000) / 60_000)
    } else {
        format!("{:.1} h", ms as f64 / 3_600_000.0)
    }
}

fn phase_text(
    phase: Phase,
    experiments: u32,
    actual: u64,
    predicted: Option<&(u32, u64, Basis)>,
) -> String {
    let runs = |n: u32| format!("{n} {}", if n == 1 { "experiment" } else { "experiments" });
    let mut text = format!(
        "{}: {} in {}",
        phase.name(),
        runs(experiments),
        duration(actual)
    );
    match predicted {
        Some((n, ms, basis)) if *basis != Basis::Unknown => text.push_str(&format!(
            " (predicted at its start: {n} in {}{})",
            duration(*ms),
            if *basis == Basis::Model {
                ", from the cost model"
            } else {
                ""
            }
        )),
        Some((n, _, _)) => text.push_str(&format!(" (predicted at its start: {n}, no time known)")),
        None => {}
    }
    text
}

/// The costs of each phase's experiments, and each phase's prediction at its start.
#[derive(Debug, Clone, Default)]
pub struct PhaseLog {
    pub(super) costs: BTreeMap<Phase, Vec<u64>>,
    pub(super) predicted: BTreeMap<Phase, (u32, u64, Basis)>,
    /// What each experiment in a fresh JVM cost beyond its tests' own times, with how many
    /// tests it ran.
    pub(super) overheads: Vec<(u64, u64)>,
    /// Each phase's costs of the experiments that ran in shared JVMs (also in `costs`).
    pub(super) shared: BTreeMap<Phase, Vec<u64>>,
    /// What each experiment in a shared JVM cost beyond its tests' own times, with how many
    /// tests it ran.
    pub(super) shared_overheads: Vec<(u64, u64)>,
    /// The first test's time of each experiment in a shared JVM (it loads the module's classes
    /// anew, in a JVM whose JDK and test framework are warm).
    pub(super) shared_first: Vec<u64>,
}

impl PhaseLog {
    /// Whether `phase` has a record yet.
    pub fn started(&self, phase: Phase) -> bool {
        self.costs.contains_key(&phase)
    }

    /// What each phase that ran cost, and what it was predicted to.
    pub fn times(&self) -> Vec<PhaseTime> {
        self.costs
            .iter()
            .map(|(phase, costs)| {
                let predicted = self.predicted.get(phase);
                PhaseTime {
                    phase: *phase,
                    experiments: costs.len() as u32,
                    actual_ms: costs.iter().sum(),
                    predicted_experiments: predicted.map(|p| p.0),
                    predicted_ms: predicted.map(|p| p.1),
                    basis: predicted.map(|p| p.2),
                    text: phase_text(*phase, costs.len() as u32, costs.iter().sum(), predicted),
                }
            })
            .collect()
    }
}

impl Phase {
    /// What a person calls the phase.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Baseline => "baseline",
            Phase::Rounds => "rounds",
            Phase::Confirm => "confirmations",
            Phase::Alone => "alone runs",
            Phase::Minimize => "explanations",
            Phase::Done => "done",
        }
    }
    /// The phase an experiment of `kind` belongs to.
    pub fn of(kind: ExperimentKind) -> Phase {
        match kind {
            ExperimentKind::Baseline => Phase::Baseline,
            ExperimentKind::Round => Phase::Rounds,
            ExperimentKind::ConfirmFail | ExperimentKind::ConfirmPass => Phase::Confirm,
            ExperimentKind::Alone => Phase::Alone,
            ExperimentKind::PolluterSearch
            | ExperimentKind::PolluterPair
            | ExperimentKind::Cleaner
            | ExperimentKind::SetterSearch
            | ExperimentKind::SetterPair => Phase::Minimize,
        }
    }
}

/// An experiment's time: its JVMs' and odrust's own, else its wall time.
pub fn cost_of(record: &ExperimentRecord) -> u64 {
    record
        .time
        .as_ref()
        .map_or(record.millis, |t| t.jvm_ms + t.odrust_ms)
}
