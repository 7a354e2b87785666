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
    /// Whether it may run in a shared JVM with fresh class loaders (`odrust.isolation=classloader`,
    /// once the module passed the isolation check, `docs/isolation.md`): rounds, explanation
    /// experiments and an OD test's alone runs after its first, which only propose or look for a
    /// changing outcome; never the baseline, confirmations, an OD test's first alone run, the
    /// fresh-JVM run of a claim a shared JVM showed, or a claim's own run where shared ones cost
    /// about what fresh ones do (`detect::shared::ClaimCosts`). Not part of the record (which
    /// says how it ran).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shareable: bool,
}

/// The result of one test in one experiment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// Runs with the shuffle agent (`detect-id`): the counted calls made while it ran (its set-up
    /// and tear-down included, its class's one-time set-up not); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<u64>,
}

/// Static fields a class's fixtures read and wrote outside any test (recorded runs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
    /// Where its time went, as the plugin measured it (absent in older histories).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<ExperimentTime>,
    /// How it was isolated from the experiments before it (`jvm` when absent).
    #[serde(default, skip_serializing_if = "Isolation::is_jvm")]
    pub isolation: Isolation,
    /// As planned: whether it could have run in a shared JVM (`isolation` says where it ran).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shareable: bool,
}

/// How an experiment was isolated from the ones before it (`-Dodrust.isolation`, docs/isolation.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    /// In fresh test JVMs of its own.
    #[default]
    Jvm,
    /// In a test JVM that ran other orders before, with fresh class loaders over the test
    /// classpath and the JDK state tests commonly touch restored.
    Classloader,
}

impl Isolation {
    /// Whether it is [`Isolation::Jvm`].
    pub fn is_jvm(&self) -> bool {
        *self == Isolation::Jvm
    }
}

/// Where one experiment's time went (`docs/protocol.md`, "Detection"): its test JVMs, split by
/// the runner's clock (`RuntimeMXBean` uptime) where it reported it, and odrust's own time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentTime {
    /// Wall time of its test JVMs, from the fork to the exit.
    pub jvm_ms: u64,
    /// From the JVM's start to odrust's runner starting (JVM boot, class-data loading, agents).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boot_ms: Option<u64>,
    /// From the runner's start to the first test's start: JUnit's start and discovery, loading
    /// and initializing the first test class, its class-level setup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup_ms: Option<u64>,
    /// From the first test's start to the runner's end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests_ms: Option<u64>,
    /// The rest of the JVMs' wall time: the launcher before the JVM's clock starts, and the exit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_ms: Option<u64>,
    /// odrust's own time for it outside the JVMs: planning and checking its order, writing its
    /// results, and the engine calls and reports since the experiment before.
    #[serde(default)]
    pub odrust_ms: u64,
}

/// Where the time of a run's experiments went (the summary's `time`): totals, and the median
/// start-up cost of one experiment in fresh JVMs (`cost0_ms`: its JVMs' time outside the tests)
/// and in shared JVMs (`cost0_shared_ms`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSpent {
    /// Experiments that reported their time.
    pub experiments: usize,
    /// Their test JVMs' wall time.
    pub jvm_ms: u64,
    /// Of which in tests (from the first test's start to the runner's end).
    pub tests_ms: u64,
    /// Of which JVM boot, runner start-up (JUnit, first class) and launch/exit.
    pub boot_ms: u64,
    /// See [`ExperimentTime::setup_ms`].
    pub setup_ms: u64,
    /// See [`ExperimentTime::exit_ms`].
    pub exit_ms: u64,
    /// odrust's own time outside the JVMs.
    pub odrust_ms: u64,
    /// The median over experiments of `boot + setup + exit` (what one more experiment costs before
    /// and after its tests); absent when no experiment reported its parts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost0_ms: Option<u64>,
    /// The medians of the parts, in the same experiments: `[boot, setup, exit]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost0_parts_ms: Option<[u64; 3]>,
    /// The same median over the experiments that ran in shared JVMs (`isolation: classloader`),
    /// which `cost0_ms` leaves out: what an order costs there before and after its tests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost0_shared_ms: Option<u64>,
    /// The same in words, for the console and the HTML report.
    #[serde(default)]
    pub text: String,
}

/// Adds up [`ExperimentTime`]s into a [`TimeSpent`].
#[derive(Debug, Clone, Default)]
pub struct TimeTally {
    spent: TimeSpent,
    /// `[boot, setup, exit]` of each experiment in fresh JVMs that reported all three.
    parts: Vec<[u64; 3]>,
    /// `boot + setup + exit` of each experiment in shared JVMs that reported them.
    shared: Vec<u64>,
}

impl TimeTally {
    /// Takes in one experiment's time; `isolation` says how it ran.
    pub fn add(&mut self, t: &ExperimentTime, isolation: Isolation) {
        let s = &mut self.spent;
        s.experiments += 1;
        s.jvm_ms += t.jvm_ms;
        s.tests_ms += t.tests_ms.unwrap_or(0);
        s.boot_ms += t.boot_ms.unwrap_or(0);
        s.setup_ms += t.setup_ms.unwrap_or(0);
        s.exit_ms += t.exit_ms.unwrap_or(0);
        s.odrust_ms += t.odrust_ms;
        if let (Some(b), Some(u), Some(e)) = (t.boot_ms, t.setup_ms, t.exit_ms) {
            match isolation {
                Isolation::Jvm => self.parts.push([b, u, e]),
                Isolation::Classloader => self.shared.push(b + u + e),
            }
        }
    }

    /// The totals and medians so far; `None` when no experiment reported its time.
    pub fn spent(&self) -> Option<TimeSpent> {
        if self.spent.experiments == 0 {
            return None;
        }
        let median = |f: &dyn Fn(&[u64; 3]) -> u64| -> Option<u64> {
            let mut v: Vec<u64> = self.parts.iter().map(f).collect();
            v.sort_unstable();
            // The lower median: a value one experiment really had.
            v.get(v.len().saturating_sub(1) / 2).copied()
        };
        let mut shared = self.shared.clone();
        shared.sort_unstable();
        let mut spent = TimeSpent {
            cost0_shared_ms: shared.get(shared.len().saturating_sub(1) / 2).copied(),
            cost0_ms: median(&|p| p[0] + p[1] + p[2]),
            cost0_parts_ms: median(&|p| p[0])
                .zip(median(&|p| p[1]))
                .zip(median(&|p| p[2]))
                .map(|((b, u), e)| [b, u, e]),
            ..self.spent.clone()
        };
        spent.text = spent.describe();
        Some(spent)
    }
}

impl TimeSpent {
    /// "12 experiments: 34.5 s in test JVMs (tests 10.2 s, ...), odrust 0.8 s outside them; ...".
    fn describe(&self) -> String {
        let s = |ms: u64| format!("{:.1} s", ms as f64 / 1000.0);
        let mut text = format!(
            "{} {}: {} in test JVMs",
            self.experiments,
            if self.experiments == 1 {
                "experiment"
            } else {
                "experiments"
            },
            s(self.jvm_ms)
        );
        if self.cost0_ms.is_some() {
            text.push_str(&format!(
                " (tests {}, JVM boot {}, JUnit start and first class {}, launch and exit {})",
                s(self.tests_ms),
                s(self.boot_ms),
                s(self.setup_ms),
                s(self.exit_ms)
            ));
        }
        text.push_str(&format!(", odrust {} outside them", s(self.odrust_ms)));
        if let (Some(c), Some([b, u, e])) = (self.cost0_ms, self.cost0_parts_ms) {
            text.push_str(&format!(
                "; start-up cost (Cost0) {} per experiment in a fresh JVM, median (boot {}, JUnit start and first class {}, launch and exit {})",
                s(c),
                s(b),
                s(u),
                s(e)
            ));
        }
        if let Some(c) = self.cost0_shared_ms {
            text.push_str(&format!("; {} per order in a shared JVM, median", s(c)));
        }
        text
    }
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
            shareable: record.shareable,
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
            calls: None,
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
            time: None,
            isolation: Isolation::Jvm,
            shareable: experiment.shareable,
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

#[cfg(test)]
mod time_tests {
    use super::*;

    #[test]
    fn a_tally_adds_up_totals_and_takes_medians_of_the_parts() {
        let mut tally = TimeTally::default();
        assert_eq!(tally.spent(), None);
        let t = |jvm, boot, setup, tests, exit, odrust| ExperimentTime {
            jvm_ms: jvm,
            boot_ms: boot,
            setup_ms: setup,
            tests_ms: tests,
            exit_ms: exit,
            odrust_ms: odrust,
        };
        tally.add(
            &t(1000, Some(100), Some(500), Some(300), Some(100), 20),
            Isolation::Jvm,
        );
        tally.add(
            &t(2000, Some(200), Some(600), Some(1000), Some(200), 30),
            Isolation::Jvm,
        );
        tally.add(
            &t(900, Some(90), Some(400), Some(310), Some(100), 10),
            Isolation::Jvm,
        );
        // An older runner that did not report its clock: counted in the totals only.
        tally.add(&t(5000, None, None, None, None, 40), Isolation::Jvm);
        let spent = tally.spent().unwrap();
        assert_eq!(spent.experiments, 4);
        assert_eq!(spent.jvm_ms, 8900);
        assert_eq!(spent.tests_ms, 1610);
        assert_eq!(spent.setup_ms, 1500);
        assert_eq!(spent.odrust_ms, 100);
        // cost0 of each: 700, 1000, 590; the median is 700, and its parts' medians 100/500/100.
        assert_eq!(spent.cost0_ms, Some(700));
        assert_eq!(spent.cost0_parts_ms, Some([100, 500, 100]));
        assert!(
            spent
                .text
                .starts_with("4 experiments: 8.9 s in test JVMs (tests 1.6 s"),
            "{}",
            spent.text
        );
        assert!(
            spent
                .text
                .contains("Cost0) 0.7 s per experiment in a fresh JVM"),
            "{}",
            spent.text
        );
        assert_eq!(spent.cost0_shared_ms, None);
        // Orders in shared JVMs have their own median, and leave the fresh one as it was.
        tally.add(
            &t(90, Some(0), Some(30), Some(50), Some(10), 5),
            Isolation::Classloader,
        );
        tally.add(
            &t(80, Some(0), Some(20), Some(50), Some(10), 5),
            Isolation::Classloader,
        );
        let spent = tally.spent().unwrap();
        assert_eq!(spent.cost0_ms, Some(700));
        assert_eq!(spent.cost0_shared_ms, Some(30));
        assert!(
            spent
                .text
                .ends_with("; 0.0 s per order in a shared JVM, median"),
            "{}",
            spent.text
        );
    }

    #[test]
    fn records_without_a_time_read_as_before() {
        let json = r#"{"id":1,"kind":"baseline","order":[],"results":[]}"#;
        let record: ExperimentRecord = serde_json::from_str(json).unwrap();
        assert_eq!(record.time, None);
        let back = serde_json::to_string(&record).unwrap();
        assert!(!back.contains("time"), "{back}");
    }
}
