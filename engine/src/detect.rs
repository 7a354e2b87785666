//! The planner of `odrust:detect`: which experiment to run next, and what the experiments found.
//!
//! The engine keeps no state between calls (`docs/protocol.md`, "Detection"). [`next`] and
//! [`summary`] are pure functions of the configuration, the suite and the history of finished
//! experiments: they replay the history from the start, checking that each record is what the
//! plan asked for ([`EngineError::BadHistory`] otherwise), and derive everything from it. The same
//! inputs always give the same answer, so a killed run resumes from its history file.
//!
//! The phases (`docs/detect-algorithm.md`):
//!
//! 1. **baseline**: the original order, until every test passes or `baseline_tries` runs were made.
//!    A test that failed in every baseline run is *failing*; one that failed in some and passed
//!    in others is NOD.
//! 2. **rounds**: one order per round from the [`Strategy`]. A test that passed in the baseline
//!    and does not pass in a round is a *candidate*; so is a failing test that passes in a round
//!    (a candidate the other way round: its original order is the failing one).
//! 3. **confirm**: right after a round with candidates, the round's order is rerun cut right
//!    after its last candidate, then the original order cut right after the last candidate. A
//!    candidate that failed in the round must fail again in the first (`confirm-fail`) and pass in
//!    the second (`confirm-pass`); a failing test that passed in the round must pass again in the
//!    first (`confirm-pass`) and fail again in the second (`confirm-fail`). Then it is
//!    order-dependent (OD); otherwise it is NOD. A round with candidates of both kinds gets both
//!    pairs of confirmations, the ones of the failed tests first.
//! 4. **alone**: `alone_runs` runs of each OD test by itself, in order of discovery: passing
//!    every time makes it a victim, failing every time a brittle, anything else NOD.
//! 5. **minimize** (when `minimize` is on): each victim's polluters and their cleaners, each
//!    brittle's state-setters ([`crate::minimize`]), at most `minimize_budget` experiments per OD
//!    test; the summary adds their flake rates ([`crate::flakerate`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::dependence::{cost_from_baseline, describe, PlanInfo};
use crate::error::EngineError;
use crate::flakerate::{flake_rate, FlakeRate, OdModel, OdRole};
use crate::minimize::{explain, Explanation, Stage, Subject};
use crate::outcome::RunOutcome;
use crate::schedule::{CostModel, Schedule};
use crate::strategy::{round_order, PreviousRound, Strategy};
use crate::suite::{Suite, SuiteIndex, SCHEMA_VERSION};
use crate::testid::container_of;

/// Default number of baseline runs of the original order.
pub const DEFAULT_BASELINE_TRIES: u32 = 3;

/// Default number of alone runs per OD test.
pub const DEFAULT_ALONE_RUNS: u32 = 10;

/// Default number of minimization experiments per OD test.
pub const DEFAULT_MINIMIZE_BUDGET: u32 = 60;

/// A validated detection configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetectConfig {
    /// How rounds choose their orders.
    pub strategy: Strategy,
    /// How many rounds to run.
    pub rounds: u32,
    /// The seed of every random choice.
    pub seed: u64,
    /// At most this many baseline runs (at least 1).
    pub baseline_tries: u32,
    /// Alone runs per OD test (at least 1).
    pub alone_runs: u32,
    /// When true no new round starts and no minimization experiment either; pending
    /// confirmations and alone runs still happen.
    pub stop_rounds: bool,
    /// Whether to explain OD tests (polluters, cleaners, state-setters) after the alone runs.
    pub minimize: bool,
    /// At most this many minimization experiments per OD test (at least 1).
    pub minimize_budget: u32,
    /// When set, only these OD tests are explained.
    pub minimize_only: Option<Vec<String>>,
    /// `k` of the `k-bounded` strategy (1 to 3).
    pub k: u32,
    /// Cost of orders and tests, given by the caller: systematic strategies run the orders
    /// that cover the most pairs per millisecond first.
    pub cost: Option<CostModel>,
    /// Without `cost`: order systematic schedules by the cost model the baseline measured
    /// ([`crate::dependence::cost_from_baseline`]). The plan's predicted cost is reported either way.
    pub cost_aware: bool,
    /// `dependence-aware`: field patterns (`pkg.C#F`, `*` wildcards) that never make tests dependent.
    pub dependence_free: Vec<String>,
}

impl DetectConfig {
    /// A configuration with every optional setting at its default.
    pub fn new(strategy: Strategy, rounds: u32, seed: u64) -> Self {
        DetectConfig {
            strategy,
            rounds,
            seed,
            baseline_tries: DEFAULT_BASELINE_TRIES,
            alone_runs: DEFAULT_ALONE_RUNS,
            stop_rounds: false,
            minimize: true,
            minimize_budget: DEFAULT_MINIMIZE_BUDGET,
            minimize_only: None,
            k: DEFAULT_K,
            cost: None,
            cost_aware: false,
            dependence_free: Vec::new(),
        }
    }
}

/// Default `k` of the `k-bounded` strategy.
pub const DEFAULT_K: u32 = 2;

/// The cost model as the plugin sends it: milliseconds as JSON numbers.
#[derive(Debug, Clone, Deserialize)]
pub struct RawCost {
    /// Fixed cost of one order (JVM start), in milliseconds.
    pub cost0_ms: f64,
    /// Time of one run of each test, in milliseconds, by test id.
    #[serde(default)]
    pub test_ms: BTreeMap<String, f64>,
}

/// The configuration as the plugin sends it (`config` of `detect_next` and `detect_summary`).
#[derive(Debug, Clone, Deserialize)]
pub struct RawConfig {
    /// A strategy name; `reverse-passing` when absent.
    #[serde(default = "default_strategy")]
    pub strategy: String,
    /// How many rounds to run.
    pub rounds: u32,
    /// The seed, a JSON integer from 0 to 2^64 - 1.
    pub seed: serde_json::Number,
    /// Baseline runs at most; 3 when absent.
    #[serde(default = "default_baseline_tries")]
    pub baseline_tries: u32,
    /// Alone runs per OD test; 10 when absent.
    #[serde(default = "default_alone_runs")]
    pub alone_runs: u32,
    /// Whether rounds must stop (the time budget is spent); false when absent.
    #[serde(default)]
    pub stop_rounds: bool,
    /// Whether to explain OD tests; true when absent.
    #[serde(default = "yes")]
    pub minimize: bool,
    /// Minimization experiments per OD test; 60 when absent.
    #[serde(default = "default_minimize_budget")]
    pub minimize_budget: u32,
    /// Only these OD tests are explained; all when absent or null.
    #[serde(default)]
    pub minimize_only: Option<Vec<String>>,
    /// `k` of `k-bounded`; 2 when absent.
    #[serde(default = "default_k")]
    pub k: u32,
    /// The cost model; none when absent or null.
    #[serde(default)]
    pub cost: Option<RawCost>,
    /// Order systematic schedules by the baseline's measured cost; false when absent.
    #[serde(default)]
    pub cost_aware: bool,
    /// `dependence-aware`: dependence-free field patterns; none when absent.
    #[serde(default)]
    pub dependence_free: Vec<String>,
}

fn default_k() -> u32 {
    DEFAULT_K
}

fn default_minimize_budget() -> u32 {
    DEFAULT_MINIMIZE_BUDGET
}

fn default_strategy() -> String {
    Strategy::DEFAULT.name().to_string()
}

fn default_baseline_tries() -> u32 {
    DEFAULT_BASELINE_TRIES
}

fn default_alone_runs() -> u32 {
    DEFAULT_ALONE_RUNS
}

impl TryFrom<RawConfig> for DetectConfig {
    type Error = EngineError;

    /// Errors: [`EngineError::BadConfig`] for an unknown strategy, a seed that is not an integer
    /// from 0 to 2^64 - 1, or `baseline_tries` / `alone_runs` / `minimize_budget` of 0.
    fn try_from(raw: RawConfig) -> Result<Self, EngineError> {
        let bad = |setting: &str, value: String, reason: &str| EngineError::BadConfig {
            setting: setting.into(),
            value,
            reason: reason.into(),
        };
        let strategy = Strategy::parse(&raw.strategy)?;
        let seed = raw.seed.as_u64().ok_or_else(|| {
            bad(
                "seed",
                raw.seed.to_string(),
                "the seed must be an integer from 0 to 18446744073709551615",
            )
        })?;
        if raw.baseline_tries == 0 {
            return Err(bad("baseline_tries", "0".into(), "at least 1 is needed"));
        }
        if raw.alone_runs == 0 {
            return Err(bad("alone_runs", "0".into(), "at least 1 is needed"));
        }
        if raw.minimize_budget == 0 {
            return Err(bad(
                "minimize_budget",
                "0".into(),
                "at least 1 is needed (turn minimization off with minimize: false)",
            ));
        }
        if !(1..=3).contains(&raw.k) {
            return Err(bad(
                "k",
                raw.k.to_string(),
                "k-bounded runs k = 1, 2 or 3 tests per order",
            ));
        }
        let ms = |setting: &str, v: f64| {
            if v.is_finite() && v >= 0.0 {
                Ok(v.round() as u64)
            } else {
                Err(bad(
                    setting,
                    v.to_string(),
                    "a time in milliseconds must be a number >= 0",
                ))
            }
        };
        let cost = match raw.cost {
            None => None,
            Some(c) => Some(CostModel {
                cost0_ms: ms("cost.cost0_ms", c.cost0_ms)?,
                test_ms: c
                    .test_ms
                    .into_iter()
                    .map(|(id, v)| ms("cost.test_ms", v).map(|v| (id, v)))
                    .collect::<Result<_, _>>()?,
            }),
        };
        Ok(DetectConfig {
            k: raw.k,
            cost,
            cost_aware: raw.cost_aware,
            dependence_free: raw.dependence_free,
            strategy,
            rounds: raw.rounds,
            seed,
            baseline_tries: raw.baseline_tries,
            alone_runs: raw.alone_runs,
            stop_rounds: raw.stop_rounds,
            minimize: raw.minimize,
            minimize_budget: raw.minimize_budget,
            minimize_only: raw.minimize_only,
        })
    }
}

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

fn yes() -> bool {
    true
}

/// The phase of detection an experiment belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
}

/// Response of `detect_next`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextStep {
    /// The next experiment, or `None` when detection is complete.
    pub experiment: Option<Experiment>,
    /// How far detection is.
    pub progress: Progress,
    /// Systematic strategies, when the next experiment is the first round: what the schedule
    /// will run and its predicted cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<PlanInfo>,
}

/// A test that failed in every baseline run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailingTest {
    /// Its id.
    pub test: String,
    /// The message of its last baseline failure.
    pub message: Option<String>,
}

/// What kind of flaky test a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FlakyKind {
    /// OD: passes alone, fails after some other test.
    Victim,
    /// OD: fails alone, passes after some other test.
    Brittle,
    /// Non-deterministic: fails and passes in the same order.
    Nod,
    /// Confirmed OD, but its alone runs have not finished.
    Unclassified,
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
    pub failing_experiment: usize,
    /// OD: the confirm-pass experiment; NOD: an experiment where it passed.
    pub passing_experiment: usize,
    /// The failure message seen when it was detected.
    pub message: Option<String>,
    /// Alone runs, for a confirmed OD test whose alone runs are complete.
    pub alone: Option<AloneRuns>,
    /// One plain sentence saying what was observed.
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
    #[serde(default)]
    pub minimize_complete: bool,
}

/// Response of `detect_summary`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The configured seed.
    pub seed: u64,
    /// The configured strategy.
    pub strategy: Strategy,
    /// Tests listed in the suite (a dynamic container counts once).
    pub tests_total: usize,
    /// Experiments in the history.
    pub experiments: usize,
    /// Rounds run.
    pub rounds_run: u32,
    /// Rounds configured.
    pub rounds_planned: u32,
    /// Tests that failed in every baseline run and were not found flaky in a round, by id.
    pub failing: Vec<FailingTest>,
    /// Flaky tests, by id.
    pub flaky: Vec<FlakyTest>,
    /// Things the user should know about the run.
    pub notes: Vec<String>,
    /// Systematic strategies: the consecutive ordered pairs the rounds that ran covered, of those
    /// the schedule claims. Absent for other strategies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<PairsCovered>,
    /// Systematic strategies: what the whole schedule runs, and its predicted cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<PlanInfo>,
}

/// A systematic strategy's orders, as built from (config, suite, baseline).
#[derive(Debug)]
struct Built {
    schedule: Option<Schedule>,
    /// `dependence-aware`: the clean runs after the schedule.
    extra: Vec<Vec<String>>,
    /// `dependence-aware`: what it runs, with tuscan's for comparison.
    info: Option<PlanInfo>,
}

/// Everything a [`Built`] depends on, hashed: the strategy, seed, `k`, dependence-free
/// patterns, the ranking cost model, the suite and the baseline's recording.
fn cache_key(
    config: &DetectConfig,
    suite: &Suite,
    baselines: &[&ExperimentRecord],
    ranking: Option<&CostModel>,
) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    config.strategy.hash(&mut h);
    (config.seed, config.k).hash(&mut h);
    serde_json::to_string(suite)
        .unwrap_or_default()
        .hash(&mut h);
    serde_json::to_string(&ranking)
        .unwrap_or_default()
        .hash(&mut h);
    if config.strategy == Strategy::DependenceAware {
        config.dependence_free.hash(&mut h);
        for record in baselines {
            for r in &record.results {
                (&r.test, &r.reads, &r.writes).hash(&mut h);
            }
            for c in &record.class_state {
                (&c.class, &c.reads, &c.writes).hash(&mut h);
            }
        }
    }
    h.finish()
}

/// The last schedule built, by [`cache_key`]: the plugin calls the engine once per experiment
/// with the same inputs, and a schedule of 5,000 tests takes a good part of a second to build.
/// The result is the same with or without the cache.
fn cached(key: u64, build: impl FnOnce() -> Built) -> Arc<Built> {
    static LAST: Mutex<Option<(u64, Arc<Built>)>> = Mutex::new(None);
    if let Ok(last) = LAST.lock() {
        if let Some((k, built)) = last.as_ref() {
            if *k == key {
                return Arc::clone(built);
            }
        }
    }
    let built = Arc::new(build());
    if let Ok(mut last) = LAST.lock() {
        *last = Some((key, Arc::clone(&built)));
    }
    built
}

/// Consecutive ordered pairs covered by the rounds of a systematic strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairsCovered {
    /// Distinct claimed pairs consecutive in some round that ran.
    pub covered: u64,
    /// Pairs the schedule claims to cover when all its rounds run.
    pub total: u64,
}

/// The next experiment to run after `history`, and the progress so far.
///
/// Errors: [`EngineError::BadRequest`] for a suite of another schema version,
/// [`EngineError::BadHistory`] when a record is not what the plan asked for.
pub fn next(
    config: &DetectConfig,
    suite: &Suite,
    history: &[ExperimentRecord],
) -> Result<NextStep, EngineError> {
    let state = Replay::run(config, suite, history, "detect_next")?;
    let experiment = state.plan(config.stop_rounds);
    let phase = experiment.as_ref().map_or(Phase::Done, |e| match e.kind {
        ExperimentKind::Baseline => Phase::Baseline,
        ExperimentKind::Round => Phase::Rounds,
        ExperimentKind::ConfirmFail | ExperimentKind::ConfirmPass => Phase::Confirm,
        ExperimentKind::Alone => Phase::Alone,
        ExperimentKind::PolluterSearch
        | ExperimentKind::PolluterPair
        | ExperimentKind::Cleaner
        | ExperimentKind::SetterSearch
        | ExperimentKind::SetterPair => Phase::Minimize,
    });
    let first_round = experiment
        .as_ref()
        .is_some_and(|e| e.kind == ExperimentKind::Round && e.round == Some(1));
    Ok(NextStep {
        plan: if first_round { state.plan_info() } else { None },
        experiment,
        progress: Progress {
            phase,
            rounds_done: state.rounds.len() as u32,
            rounds_total: state.rounds_total(),
            od_found: state.od.len(),
            nod_found: state.nod.len(),
            candidates: state.pending.iter().map(|p| p.candidates.len()).sum(),
        },
    })
}

/// What `history` found so far (complete or not).
///
/// Errors: as [`next`].
pub fn summary(
    config: &DetectConfig,
    suite: &Suite,
    history: &[ExperimentRecord],
) -> Result<Summary, EngineError> {
    let state = Replay::run(config, suite, history, "detect_summary")?;
    Ok(state.summarize(history.len()))
}

/// A candidate of a round, waiting for its confirmations.
#[derive(Debug, Clone)]
struct Candidate {
    /// The result id that did not pass.
    test: String,
    /// The failure message.
    message: Option<String>,
}

/// A round that ran.
#[derive(Debug, Clone)]
struct RoundRun {
    experiment: usize,
    number: u32,
    made_by: Strategy,
    order: Vec<String>,
    passed: bool,
}

/// Which way a candidate differs from the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// It passed in the baseline and did not pass in the round.
    FailedInRound,
    /// It failed in every baseline run and passed in the round.
    PassedInRound,
}

/// Candidates of a round being confirmed: first the round's order cut after the last one, then
/// the original order cut after the last one.
#[derive(Debug, Clone)]
struct Pending {
    /// Index into `Replay::rounds`.
    round: usize,
    turn: Turn,
    candidates: Vec<Candidate>,
    /// The rerun of the round's order (`confirm-fail` for [`Turn::FailedInRound`],
    /// `confirm-pass` for [`Turn::PassedInRound`]): its id, results and order, once it ran.
    round_rerun: Option<(usize, Results, Vec<String>)>,
}

impl Pending {
    /// The kinds of the rerun of the round's order and of the original order.
    fn kinds(&self) -> (ExperimentKind, ExperimentKind) {
        match self.turn {
            Turn::FailedInRound => (ExperimentKind::ConfirmFail, ExperimentKind::ConfirmPass),
            Turn::PassedInRound => (ExperimentKind::ConfirmPass, ExperimentKind::ConfirmFail),
        }
    }
}

/// What the confirmations showed about one candidate.
enum Found {
    Od(OdTest),
    Nod(FlakyTest),
    /// A confirmation did not report it: a note.
    Nothing(String),
}

/// A confirmed OD test.
#[derive(Debug, Clone)]
struct OdTest {
    test: String,
    /// What an alone run runs: the test, or its dynamic container.
    unit: String,
    /// Index into `Replay::rounds` of the round that revealed it.
    round: usize,
    /// Whether it failed in that round, or passed there after failing in every baseline run.
    turn: Turn,
    message: Option<String>,
    confirm_fail: usize,
    confirm_pass: usize,
    /// The orders of the confirm-fail and confirm-pass experiments.
    fail_order: Vec<String>,
    pass_order: Vec<String>,
    /// Pass/not-pass/unknown per alone run so far.
    alone: Vec<Option<bool>>,
}

/// Pass/not-pass (or unknown) and message per result id of one experiment.
#[derive(Debug, Clone, Default)]
struct Results(HashMap<String, (Option<bool>, Option<String>)>);

impl Results {
    fn of(record: &ExperimentRecord) -> Self {
        let mut map: HashMap<String, (Option<bool>, Option<String>)> = HashMap::new();
        for r in &record.results {
            let verdict = r.outcome.passed();
            let entry = map.entry(r.test.clone()).or_insert((None, None));
            // A test reported twice keeps its worst verdict: not-pass over pass over unknown.
            if verdict == Some(false) && entry.0 != Some(false) {
                *entry = (verdict, r.message.clone());
            } else if verdict == Some(true) && entry.0.is_none() {
                entry.0 = verdict;
            }
        }
        Results(map)
    }

    fn passed(&self, test: &str) -> Option<bool> {
        self.0.get(test).and_then(|(v, _)| *v)
    }

    fn message(&self, test: &str) -> Option<String> {
        self.0.get(test).and_then(|(_, m)| m.clone())
    }
}

/// The state derived from a history.
struct Replay<'a> {
    config: &'a DetectConfig,
    suite: &'a Suite,
    original: Vec<String>,
    /// Baseline runs: experiment id and results.
    baseline: Vec<(usize, Results)>,
    baseline_done: bool,
    /// Tests that passed in the baseline and never failed there.
    reference: HashSet<String>,
    failing: Vec<FailingTest>,
    rounds: Vec<RoundRun>,
    /// Candidates waiting for their confirmations, first first (at most two: a round's failed
    /// tests, then its passed failing tests).
    pending: Vec<Pending>,
    /// The history stopped the rounds early (alone runs followed fewer rounds than configured).
    stopped: bool,
    od: Vec<OdTest>,
    nod: Vec<FlakyTest>,
    /// Tests found OD or NOD: never candidates again.
    classified: HashSet<String>,
    inconclusive: Vec<String>,
    not_honoured: Vec<usize>,
    experiments: usize,
    /// The results of the first experiment that ran each order (minimization reuses them).
    observed: HashMap<Vec<String>, Results>,
    /// Minimization experiments run per OD test.
    spent: HashMap<String, u32>,
    /// The schedule of a systematic strategy (built once per call, when the baseline is done:
    /// `dependence-aware` and the cost-aware order need what the baseline recorded).
    schedule: Option<Arc<Built>>,
    /// The cost model of the plan: the configured one, else the baseline's measurement.
    cost: Option<CostModel>,
}

impl<'a> Replay<'a> {
    fn run(
        config: &'a DetectConfig,
        suite: &'a Suite,
        history: &[ExperimentRecord],
        op: &str,
    ) -> Result<Self, EngineError> {
        if suite.schema_version != SCHEMA_VERSION {
            return Err(EngineError::bad_request(
                op,
                format!(
                    "suite schema_version {} is not supported (this engine reads {SCHEMA_VERSION})",
                    suite.schema_version
                ),
            ));
        }
        let mut state = Replay {
            config,
            suite,
            original: suite.original_order(),
            baseline: Vec::new(),
            baseline_done: false,
            reference: HashSet::new(),
            failing: Vec::new(),
            rounds: Vec::new(),
            pending: Vec::new(),
            stopped: false,
            od: Vec::new(),
            nod: Vec::new(),
            classified: HashSet::new(),
            inconclusive: Vec::new(),
            not_honoured: Vec::new(),
            experiments: 0,
            observed: HashMap::new(),
            spent: HashMap::new(),
            schedule: None,
            cost: config.cost.clone(),
        };
        for (index, record) in history.iter().enumerate() {
            let planned = state.plan(false);
            let followed = match &planned {
                Some(p) if matches(record, p) => Some(p.clone()),
                // A round was due, but the rounds were stopped (time budget) when this was planned.
                Some(p) if p.kind == ExperimentKind::Round => {
                    let stopped = state.plan(true).filter(|s| matches(record, s));
                    state.stopped |= stopped.is_some();
                    stopped
                }
                _ => None,
            };
            let Some(followed) = followed else {
                return Err(EngineError::BadHistory {
                    id: index + 1,
                    reason: mismatch(record, planned.as_ref(), index + 1),
                });
            };
            state.absorb(record, &followed);
            if state.baseline_done && state.schedule.is_none() {
                state.build_schedule(&history[..=index]);
            }
        }
        Ok(state)
    }

    /// Builds the schedule of a systematic strategy once the baseline is done: `dependence-aware`
    /// covers only the pairs the baseline's recording makes possibly dependent, and with
    /// `cost_aware` (and no configured cost) the orders are ranked by the baseline's timings.
    fn build_schedule(&mut self, history: &[ExperimentRecord]) {
        let config = self.config;
        if !config.strategy.is_systematic() {
            return;
        }
        let baselines: Vec<&ExperimentRecord> = history
            .iter()
            .filter(|r| r.kind == ExperimentKind::Baseline)
            .collect();
        if self.cost.is_none() {
            self.cost = cost_from_baseline(&baselines);
        }
        let ranking = if config.cost.is_some() || config.cost_aware {
            self.cost.as_ref()
        } else {
            None
        };
        let key = cache_key(config, self.suite, &baselines, ranking);
        self.schedule = Some(cached(key, || {
            if config.strategy == Strategy::DependenceAware {
                let plan = crate::dependence::plan(
                    self.suite,
                    &baselines,
                    &config.dependence_free,
                    config.seed,
                    ranking,
                    self.cost.as_ref(),
                );
                Built {
                    schedule: Some(plan.schedule),
                    extra: plan.extra,
                    info: Some(plan.info),
                }
            } else {
                Built {
                    schedule: Schedule::new(
                        config.strategy,
                        self.suite,
                        config.seed,
                        config.k,
                        ranking,
                    ),
                    extra: Vec::new(),
                    info: None,
                }
            }
        }));
    }

    /// The schedule of a systematic strategy, once built.
    fn schedule(&self) -> Option<&Schedule> {
        self.schedule.as_ref().and_then(|b| b.schedule.as_ref())
    }

    /// `dependence-aware`: rounds after the schedule's ([`DependenceMap::clean_runs`]).
    fn extra(&self) -> &[Vec<String>] {
        self.schedule.as_ref().map_or(&[], |b| b.extra.as_slice())
    }

    /// What the schedule runs and its predicted cost (`dependence-aware`: with tuscan's for
    /// comparison).
    fn plan_info(&self) -> Option<PlanInfo> {
        let built = self.schedule.as_ref()?;
        if let Some(info) = &built.info {
            return Some(info.clone());
        }
        Some(describe(built.schedule.as_ref()?, &[], self.cost.as_ref()))
    }

    /// Rounds to run: `rounds`, or the schedule's size when that is smaller.
    fn rounds_total(&self) -> u32 {
        match self.schedule() {
            Some(schedule) => (schedule.len() + self.extra().len() as u64)
                .min(u64::from(self.config.rounds)) as u32,
            // A systematic schedule is built when the baseline is done.
            None if self.baseline_done && self.config.strategy.is_systematic() => 0,
            None => self.config.rounds,
        }
    }

    /// The next experiment; with `stop`, no new round starts.
    fn plan(&self, stop: bool) -> Option<Experiment> {
        let id = self.experiments + 1;
        let experiment = |kind, round, strategy, order, targets| Experiment {
            id,
            kind,
            round,
            strategy,
            order,
            targets,
        };
        if self.original.is_empty() {
            return None;
        }
        if !self.baseline_done {
            return Some(experiment(
                ExperimentKind::Baseline,
                None,
                Some(Strategy::Original),
                self.original.clone(),
                vec![],
            ));
        }
        if let Some(pending) = self.pending.first() {
            let round = &self.rounds[pending.round];
            let targets: Vec<String> = pending.candidates.iter().map(|c| c.test.clone()).collect();
            let (round_kind, original_kind) = pending.kinds();
            return Some(if pending.round_rerun.is_none() {
                experiment(
                    round_kind,
                    Some(round.number),
                    Some(round.made_by),
                    cut_after_last(&round.order, &targets),
                    targets,
                )
            } else {
                experiment(
                    original_kind,
                    Some(round.number),
                    Some(Strategy::Original),
                    cut_after_last(&self.original, &targets),
                    targets,
                )
            });
        }
        if !stop && !self.stopped && (self.rounds.len() as u32) < self.rounds_total() {
            let number = self.rounds.len() as u32 + 1;
            if let Some(schedule) = self.schedule() {
                return Some(experiment(
                    ExperimentKind::Round,
                    Some(number),
                    Some(self.config.strategy),
                    match (u64::from(number) - 1).checked_sub(schedule.len()) {
                        None => schedule.order(u64::from(number) - 1),
                        Some(extra) => self.extra()[extra as usize].clone(),
                    },
                    vec![],
                ));
            }
            let previous = self.rounds.last().map(|r| PreviousRound {
                order: &r.order,
                made_by: r.made_by,
                passed: r.passed,
            });
            let (made_by, order) = round_order(
                self.config.strategy,
                self.suite,
                self.config.seed,
                number,
                previous,
            );
            return Some(experiment(
                ExperimentKind::Round,
                Some(number),
                Some(made_by),
                order,
                vec![],
            ));
        }
        if let Some(od) = self
            .od
            .iter()
            .find(|od| (od.alone.len() as u32) < self.config.alone_runs)
        {
            return Some(experiment(
                ExperimentKind::Alone,
                None,
                None,
                vec![od.unit.clone()],
                vec![od.test.clone()],
            ));
        }
        if stop || !self.config.minimize {
            return None;
        }
        // With `minimize_only`, tests are explained in the order it lists them (the plugin puts
        // the tests a recorded run already explained first, so their experiments replay);
        // otherwise in the order they were found.
        let ordered: Vec<&OdTest> = match &self.config.minimize_only {
            Some(only) => only
                .iter()
                .filter_map(|t| self.od.iter().find(|od| od.test == *t || od.unit == *t))
                .collect(),
            None => self.od.iter().collect(),
        };
        ordered.into_iter().find_map(|od| {
            let (_, query) = self.explain(od)?;
            let query = query?;
            (self.spent_on(od) < self.config.minimize_budget)
                .then(|| experiment(query.kind, None, None, query.order, query.targets))
        })
    }

    /// Victim or brittle, from the alone runs (`Unclassified` until they are complete).
    fn kind_of(&self, od: &OdTest) -> FlakyKind {
        let runs = od.alone.iter().filter(|v| v.is_some()).count();
        let passed = od.alone.iter().filter(|v| **v == Some(true)).count();
        if (od.alone.len() as u32) < self.config.alone_runs || runs == 0 {
            FlakyKind::Unclassified
        } else if passed == runs {
            FlakyKind::Victim
        } else if passed == 0 {
            FlakyKind::Brittle
        } else {
            FlakyKind::Nod
        }
    }

    /// Minimization experiments run for `od` so far.
    fn spent_on(&self, od: &OdTest) -> u32 {
        self.spent.get(&od.test).copied().unwrap_or(0)
    }

    /// What the outcomes observed so far explain about `od`, and the experiment it needs next;
    /// `None` when `od` is not explained (minimization off, not selected, not a victim or
    /// brittle).
    fn explain(&self, od: &OdTest) -> Option<(Explanation, Option<crate::minimize::Query>)> {
        if !self.config.minimize {
            return None;
        }
        if let Some(only) = &self.config.minimize_only {
            if !only.iter().any(|t| *t == od.test || *t == od.unit) {
                return None;
            }
        }
        let (role, order) = match self.kind_of(od) {
            FlakyKind::Victim => (OdRole::Victim, &od.fail_order),
            FlakyKind::Brittle => (OdRole::Brittle, &od.pass_order),
            _ => return None,
        };
        let at = order
            .iter()
            .position(|u| *u == od.unit)
            .unwrap_or(order.len());
        let subject = Subject {
            test: &od.test,
            unit: &od.unit,
            role,
            prefix: &order[..at],
        };
        let observed = |order: &[String]| self.observed.get(order).map(|r| r.passed(&od.test));
        let index = SuiteIndex::new(self.suite);
        let same_class = |a: &str, b: &str| match (index.get(a), index.get(b)) {
            (Some(x), Some(y)) => x.record == y.record,
            _ => false,
        };
        Some(explain(subject, &self.original, &observed, &same_class))
    }

    /// Takes in one finished experiment, which is the `planned` one.
    fn absorb(&mut self, record: &ExperimentRecord, planned: &Experiment) {
        self.experiments += 1;
        if !record.honoured {
            self.not_honoured.push(record.id);
        }
        let results = Results::of(record);
        self.observed
            .entry(record.order.clone())
            .or_insert_with(|| results.clone());
        if record.kind.is_minimize() {
            if let Some(target) = record.targets.first() {
                *self.spent.entry(target.clone()).or_insert(0) += 1;
            }
        }
        match record.kind {
            ExperimentKind::Baseline => {
                let all_passed = !results.0.values().any(|(v, _)| *v == Some(false));
                self.baseline.push((record.id, results));
                if all_passed || self.baseline.len() as u32 >= self.config.baseline_tries {
                    self.finish_baseline(record);
                }
            }
            ExperimentKind::Round => self.absorb_round(record, planned, &results),
            ExperimentKind::ConfirmFail | ExperimentKind::ConfirmPass => {
                match self.pending.first_mut() {
                    Some(pending) if pending.round_rerun.is_none() => {
                        pending.round_rerun = Some((record.id, results, record.order.clone()));
                    }
                    Some(_) => {
                        let pending = self.pending.remove(0);
                        self.absorb_confirmations(pending, record.id, &results, &record.order);
                    }
                    None => {}
                }
            }
            ExperimentKind::Alone => {
                let target = record.targets.first().map(String::as_str);
                if let Some(od) = self
                    .od
                    .iter_mut()
                    .find(|od| Some(od.test.as_str()) == target)
                {
                    od.alone.push(results.passed(&od.test));
                }
            }
            // Minimization keeps no state: `plan` reads `observed` and `spent`.
            ExperimentKind::PolluterSearch
            | ExperimentKind::PolluterPair
            | ExperimentKind::Cleaner
            | ExperimentKind::SetterSearch
            | ExperimentKind::SetterPair => {}
        }
    }

    /// Sorts the baseline's tests into reference (passing), failing and NOD.
    fn finish_baseline(&mut self, last: &ExperimentRecord) {
        self.baseline_done = true;
        // Result ids in order of first appearance across the baseline runs.
        let mut ids: Vec<&str> = Vec::new();
        let mut seen = HashSet::new();
        for id in last.results.iter().map(|r| r.test.as_str()) {
            if seen.insert(id) {
                ids.push(id);
            }
        }
        let mut all: Vec<String> = self
            .baseline
            .iter()
            .flat_map(|(_, r)| r.0.keys().cloned())
            .collect();
        all.sort();
        for id in &all {
            if seen.insert(id) {
                ids.push(id);
            }
        }
        let mut failing = Vec::new();
        let mut nod = Vec::new();
        let mut reference = HashSet::new();
        for id in ids {
            let first_fail = self
                .baseline
                .iter()
                .find(|(_, r)| r.passed(id) == Some(false));
            let first_pass = self
                .baseline
                .iter()
                .find(|(_, r)| r.passed(id) == Some(true));
            match (first_fail, first_pass) {
                (None, Some(_)) => {
                    reference.insert(id.to_string());
                }
                (Some(_), None) => {
                    let message = self
                        .baseline
                        .iter()
                        .rev()
                        .find(|(_, r)| r.passed(id) == Some(false))
                        .and_then(|(_, r)| r.message(id));
                    failing.push(FailingTest {
                        test: id.to_string(),
                        message,
                    });
                }
                (Some((fail_id, fail)), Some((pass_id, _))) => {
                    let run_no = |exp: usize| {
                        self.baseline
                            .iter()
                            .position(|(e, _)| *e == exp)
                            .unwrap_or(0)
                            + 1
                    };
                    nod.push(FlakyTest {
                        test: id.to_string(),
                        kind: FlakyKind::Nod,
                        failing_experiment: *fail_id,
                        passing_experiment: *pass_id,
                        message: fail.message(id),
                        alone: None,
                        polluters: Vec::new(),
                        cleaners: BTreeMap::new(),
                        state_setters: Vec::new(),
                        flake_rate: None,
                        minimize_experiments: 0,
                    minimize_complete: false,
                        evidence: format!(
                            "failed in baseline run {} (experiment {fail_id}) and passed in baseline run {} (experiment {pass_id}) of the same original order",
                            run_no(*fail_id),
                            run_no(*pass_id)
                        ),
                    });
                }
                (None, None) => {}
            }
        }
        failing.sort_by(|a, b| a.test.cmp(&b.test));
        for n in &nod {
            self.classified.insert(n.test.clone());
        }
        self.failing = failing;
        self.nod.extend(nod);
        self.reference = reference;
    }

    fn absorb_round(&mut self, record: &ExperimentRecord, planned: &Experiment, results: &Results) {
        let mut candidates: Vec<Candidate> = Vec::new();
        // Failing tests (failed in every baseline run) that passed in this round.
        let mut turned: Vec<Candidate> = Vec::new();
        let failing: HashSet<&str> = self.failing.iter().map(|f| f.test.as_str()).collect();
        let mut passed = true;
        for r in &record.results {
            if failing.contains(r.test.as_str()) {
                // A test reported twice must have passed every time (`Results` keeps the worst).
                if results.passed(&r.test) == Some(true)
                    && !self.classified.contains(&r.test)
                    && !turned.iter().any(|c| c.test == r.test)
                {
                    turned.push(Candidate {
                        test: r.test.clone(),
                        message: None,
                    });
                }
                continue;
            }
            if r.outcome.passed() != Some(false) || !self.reference.contains(&r.test) {
                continue;
            }
            passed = false;
            if !self.classified.contains(&r.test) && !candidates.iter().any(|c| c.test == r.test) {
                candidates.push(Candidate {
                    test: r.test.clone(),
                    message: results.message(&r.test),
                });
            }
        }
        self.rounds.push(RoundRun {
            experiment: record.id,
            number: planned.round.unwrap_or(self.rounds.len() as u32 + 1),
            made_by: planned.strategy.unwrap_or(self.config.strategy),
            order: planned.order.clone(),
            passed,
        });
        for (turn, candidates) in [
            (Turn::FailedInRound, candidates),
            (Turn::PassedInRound, turned),
        ] {
            if !candidates.is_empty() {
                self.pending.push(Pending {
                    round: self.rounds.len() - 1,
                    turn,
                    candidates,
                    round_rerun: None,
                });
            }
        }
    }

    /// Takes in the second confirmation of `pending` (the original order cut after its last
    /// candidate) and decides each candidate.
    fn absorb_confirmations(
        &mut self,
        pending: Pending,
        original_id: usize,
        original_results: &Results,
        original_order: &[String],
    ) {
        let Some((rerun_id, rerun_results, rerun_order)) = pending.round_rerun else {
            return;
        };
        let round = &self.rounds[pending.round];
        let seen_in = round_text(round);
        for c in pending.candidates {
            let in_rerun = rerun_results.passed(&c.test);
            let in_original = original_results.passed(&c.test);
            let nod =
                |failing_experiment, passing_experiment, message, evidence: String| FlakyTest {
                    test: c.test.clone(),
                    kind: FlakyKind::Nod,
                    failing_experiment,
                    passing_experiment,
                    message,
                    alone: None,
                    evidence,
                    polluters: Vec::new(),
                    cleaners: BTreeMap::new(),
                    state_setters: Vec::new(),
                    flake_rate: None,
                    minimize_experiments: 0,
                    minimize_complete: false,
                };
            let od =
                |message, confirm_fail, confirm_pass, fail_order: &[String], pass_order| OdTest {
                    unit: unit_in(&round.order, &c.test),
                    test: c.test.clone(),
                    round: pending.round,
                    turn: pending.turn,
                    message,
                    confirm_fail,
                    confirm_pass,
                    fail_order: fail_order.to_vec(),
                    pass_order,
                    alone: Vec::new(),
                };
            // The verdict that repeats the round: fails (failed in round) or passes (passed in it).
            let repeats = pending.turn == Turn::PassedInRound;
            let found = match (pending.turn, in_rerun, in_original) {
                (_, Some(r), Some(o)) if r == repeats && o != repeats => {
                    Found::Od(match pending.turn {
                        Turn::FailedInRound => od(
                            c.message.clone().or_else(|| rerun_results.message(&c.test)),
                            rerun_id,
                            original_id,
                            &rerun_order,
                            original_order.to_vec(),
                        ),
                        Turn::PassedInRound => od(
                            original_results
                                .message(&c.test)
                                .or_else(|| self.failing_message(&c.test)),
                            original_id,
                            rerun_id,
                            original_order,
                            rerun_order.clone(),
                        ),
                    })
                }
                (Turn::FailedInRound, Some(true), _) => Found::Nod(nod(
                    round.experiment,
                    rerun_id,
                    c.message.clone(),
                    format!(
                        "failed in {seen_in} but passed when that order was rerun up to it (experiment {rerun_id})"
                    ),
                )),
                (Turn::FailedInRound, Some(false), Some(false)) => {
                    let passed_in = self
                        .baseline
                        .iter()
                        .find(|(_, r)| r.passed(&c.test) == Some(true))
                        .map_or(0, |(e, _)| *e);
                    Found::Nod(nod(
                        round.experiment,
                        passed_in,
                        c.message.clone(),
                        format!(
                            "failed in {seen_in} and when that order was rerun up to it (experiment {rerun_id}), but also in the original order up to it (experiment {original_id}), which it passed in the baseline (experiment {passed_in})"
                        ),
                    ))
                }
                (Turn::PassedInRound, Some(false), _) => Found::Nod(nod(
                    rerun_id,
                    round.experiment,
                    rerun_results.message(&c.test),
                    format!(
                        "failed in every baseline run ({}) and passed in {seen_in}, but failed when that order was rerun up to it (experiment {rerun_id})",
                        self.baseline_text()
                    ),
                )),
                (Turn::PassedInRound, Some(true), Some(true)) => {
                    let failed_in = self
                        .baseline
                        .iter()
                        .find(|(_, r)| r.passed(&c.test) == Some(false))
                        .map_or(0, |(e, _)| *e);
                    Found::Nod(nod(
                        failed_in,
                        original_id,
                        self.failing_message(&c.test),
                        format!(
                            "failed in every baseline run ({}) and passed in {seen_in} and when that order was rerun up to it (experiment {rerun_id}), but also in the original order up to it (experiment {original_id})",
                            self.baseline_text()
                        ),
                    ))
                }
                _ => Found::Nothing(match pending.turn {
                    Turn::FailedInRound => format!(
                        "`{}` failed in {seen_in}, but a confirmation run (experiment {rerun_id} or {original_id}) did not report it: it is not reported and may be found again",
                        c.test
                    ),
                    Turn::PassedInRound => format!(
                        "`{}` failed in every baseline run and passed in {seen_in}, but a confirmation run (experiment {rerun_id} or {original_id}) did not report it: it stays failing and may be found again",
                        c.test
                    ),
                }),
            };
            match found {
                Found::Od(od) => {
                    self.classified.insert(c.test.clone());
                    self.od.push(od);
                }
                Found::Nod(nod) => {
                    self.classified.insert(c.test.clone());
                    self.nod.push(nod);
                }
                Found::Nothing(note) => self.inconclusive.push(note),
            }
        }
    }

    /// The message of the last baseline failure of a failing test.
    fn failing_message(&self, test: &str) -> Option<String> {
        self.failing
            .iter()
            .find(|f| f.test == test)
            .and_then(|f| f.message.clone())
    }

    /// "experiments 1, 2, 3" (or "experiment 1"): the baseline runs.
    fn baseline_text(&self) -> String {
        let ids: Vec<String> = self.baseline.iter().map(|(e, _)| e.to_string()).collect();
        match ids.len() {
            1 => format!("experiment {}", ids[0]),
            _ => format!("experiments {}", ids.join(", ")),
        }
    }

    /// Notes about the explanation of `od`: cut short by the budget or the time budget, no
    /// polluter found, cleaners not all tried.
    fn describe(
        &self,
        od: &OdTest,
        explanation: &Explanation,
        pending: bool,
        notes: &mut Vec<String>,
    ) {
        let budget = self.config.minimize_budget;
        let (culprit, culprits) = if self.kind_of(od) == FlakyKind::Victim {
            ("polluter", "polluters")
        } else {
            ("state-setter", "state-setters")
        };
        if pending {
            let during = match &explanation.stage {
                Stage::Search => format!("during the delta-debugging search for {culprits}"),
                Stage::Singles { tried, of } => {
                    format!("after trying {tried} of {of} tests as single {culprits}")
                }
                Stage::Cleaners {
                    polluter,
                    tried,
                    of,
                } => format!(
                    "after trying {tried} of {of} cleaner candidates of polluter `{polluter}`"
                ),
                Stage::Done => String::new(),
            };
            let partial = if explanation.culprits.is_empty() {
                ""
            } else {
                "; what was found is reported, and its flake rates count only that"
            };
            if self.spent_on(od) >= budget {
                notes.push(format!(
                    "explaining `{}` stopped at its budget of {budget} experiments {during} (raise -Dodrust.minimize.budget to go further){partial}",
                    od.test
                ));
            } else {
                notes.push(format!(
                    "explaining `{}` is not finished ({during}){partial}",
                    od.test
                ));
            }
        } else if explanation.culprits.is_empty() {
            notes.push(format!(
                "no {culprit} of `{}` was found among the tests that ran before it: it may depend on something outside the suite's tests",
                od.test
            ));
        }
    }

    fn summarize(&self, experiments: usize) -> Summary {
        let config = self.config;
        let mut flaky: Vec<FlakyTest> = self.nod.clone();
        let mut unclassified = 0;
        let mut minimize_notes = Vec::new();
        let index = SuiteIndex::new(self.suite);
        for od in &self.od {
            let round = &self.rounds[od.round];
            let complete = od.alone.len() as u32 >= config.alone_runs;
            let runs = od.alone.iter().filter(|v| v.is_some()).count() as u32;
            let passed = od.alone.iter().filter(|v| **v == Some(true)).count() as u32;
            let kind = self.kind_of(od);
            let alone_text = match kind {
                FlakyKind::Unclassified if !complete => format!(
                    "alone runs not finished ({} of {})",
                    od.alone.len(),
                    config.alone_runs
                ),
                FlakyKind::Unclassified => "no alone run reported it".to_string(),
                FlakyKind::Victim => format!("passed alone {passed}/{runs}"),
                FlakyKind::Brittle => format!("failed alone {runs}/{runs}"),
                FlakyKind::Nod => format!(
                    "passed alone only {passed}/{runs}, so its outcome changes without the order changing"
                ),
            };
            if kind == FlakyKind::Unclassified {
                unclassified += 1;
            }
            let mut entry = FlakyTest {
                test: od.test.clone(),
                kind,
                failing_experiment: od.confirm_fail,
                passing_experiment: od.confirm_pass,
                message: od.message.clone(),
                alone: (complete && runs > 0).then_some(AloneRuns { runs, passed }),
                evidence: match od.turn {
                    Turn::FailedInRound => format!(
                        "failed in {} and again when that order was rerun up to it (experiment {}); passed in the original order up to it (experiment {}); {alone_text}",
                        round_text(round),
                        od.confirm_fail,
                        od.confirm_pass
                    ),
                    Turn::PassedInRound => format!(
                        "failed in every baseline run ({}) but passed in {} and again when that order was rerun up to it (experiment {}); failed again in the original order up to it (experiment {}); {alone_text}",
                        self.baseline_text(),
                        round_text(round),
                        od.confirm_pass,
                        od.confirm_fail
                    ),
                },
                polluters: Vec::new(),
                cleaners: BTreeMap::new(),
                state_setters: Vec::new(),
                flake_rate: None,
                minimize_experiments: self.spent_on(od),
                minimize_complete: false,
            };
            if let Some((explanation, next)) = self.explain(od) {
                self.describe(od, &explanation, next.is_some(), &mut minimize_notes);
                entry.minimize_complete = next.is_none();
                let role = if kind == FlakyKind::Victim {
                    OdRole::Victim
                } else {
                    OdRole::Brittle
                };
                let mut classes = HashMap::new();
                for id in explanation
                    .culprits
                    .iter()
                    .flatten()
                    .chain(explanation.cleaners.values().flatten())
                    .chain([&od.unit])
                {
                    if let Some(at) = index.get(id) {
                        classes.insert(id.clone(), index.record(at.record).class.clone());
                    }
                }
                // From what was found so far when the budget cut the search short (see the note).
                if !explanation.culprits.is_empty() {
                    entry.flake_rate = flake_rate(
                        &OdModel {
                            test: od.unit.clone(),
                            role,
                            culprits: explanation.culprits.clone(),
                            cleaners: explanation.cleaners.clone(),
                            classes,
                        },
                        config.seed,
                    );
                }
                match role {
                    OdRole::Victim => {
                        entry.polluters = explanation.culprits;
                        entry.cleaners = explanation.cleaners;
                    }
                    OdRole::Brittle => entry.state_setters = explanation.culprits,
                }
            }
            flaky.push(entry);
        }
        flaky.sort_by(|a, b| a.test.cmp(&b.test));

        let mut notes = Vec::new();
        if self.original.is_empty() {
            notes.push("the suite has no tests: nothing was run".to_string());
        }
        // A failing test found flaky in a round is reported in `flaky` only.
        let failing: Vec<FailingTest> = self
            .failing
            .iter()
            .filter(|f| !self.classified.contains(&f.test))
            .cloned()
            .collect();
        match failing.len() {
            0 => {}
            1 => notes.push(
                "1 test failed in every baseline run and was not found flaky in other orders: it is listed as failing"
                    .to_string(),
            ),
            n => notes.push(format!(
                "{n} tests failed in every baseline run and were not found flaky in other orders: they are listed as failing"
            )),
        }
        let rounds_run = self.rounds.len() as u32;
        let rounds_total = self.rounds_total();
        if self.baseline_done && rounds_run < rounds_total && (self.stopped || config.stop_rounds) {
            notes.push(format!(
                "stopped after {rounds_run} of {rounds_total} rounds (time budget)"
            ));
        }
        let pairs = self.schedule().map(|schedule| {
            let mut coverage = schedule.coverage();
            for round in &self.rounds {
                coverage.add(&round.order);
            }
            PairsCovered {
                covered: coverage.covered(),
                total: schedule.pairs_total(),
            }
        });
        if let Some(p) = pairs {
            if p.covered < p.total {
                let scheduled =
                    self.schedule().map_or(0, Schedule::len) + self.extra().len() as u64;
                let cut = if u64::from(rounds_run) < scheduled
                    && u64::from(config.rounds) <= u64::from(rounds_run)
                {
                    " (the `rounds` setting is smaller than the schedule)"
                } else {
                    ""
                };
                notes.push(format!(
                    "{} pairs not yet covered{cut}; -Dodrust.resume=true continues",
                    p.total - p.covered
                ));
            }
        }
        let plan = if self.baseline_done {
            self.plan_info()
        } else {
            None
        };
        if let Some(PlanInfo {
            tuscan: Some(tuscan),
            ..
        }) = &plan
        {
            let info = plan.as_ref().expect("matched");
            notes.push(match info.dependent_pairs {
                Some(dependent) if info.uses_tuscan => format!(
                    "dependence-aware: {dependent} of the {} ordered pairs may interact (a test may read a static field an earlier one wrote); covering only those was predicted to cost more than tuscan's orders, so tuscan's {} executions in {} orders ran",
                    info.pairs, info.executions, info.orders
                ),
                _ => format!(
                    "dependence-aware: {} test executions in {} orders cover the {} ordered pairs where a test may read a static field an earlier one wrote; tuscan would run {} executions in {} orders for all {} pairs",
                    info.executions, info.orders, info.pairs, tuscan.executions, tuscan.orders, tuscan.pairs
                ),
            });
            if let Some(n) = info.unrecorded.filter(|n| *n > 0) {
                notes.push(format!(
                    "dependence-aware: {n} test(s) have no recorded field accesses (they did not run in the baseline, or the recording did not reach them) and count as touching every field"
                ));
            }
        }
        for pending in &self.pending {
            notes.push(format!(
                "{} candidate(s) of round {} are not confirmed yet and are not reported",
                pending.candidates.len(),
                self.rounds[pending.round].number
            ));
        }
        if unclassified > 0 {
            notes.push(format!(
                "{unclassified} order-dependent test(s) are not classified (victim or brittle) yet: their alone runs did not finish"
            ));
        }
        notes.extend(self.inconclusive.iter().cloned());
        notes.extend(minimize_notes);
        if let Some(only) = &config.minimize_only {
            for id in only {
                if !self.od.iter().any(|od| od.test == *id || od.unit == *id) {
                    notes.push(format!(
                        "minimize_only names `{id}`, which was not found order-dependent: nothing to explain"
                    ));
                }
            }
        }
        if !self.not_honoured.is_empty() {
            let ids: Vec<String> = self.not_honoured.iter().map(usize::to_string).collect();
            notes.push(format!(
                "experiment(s) {} did not run exactly in the requested order; their results were used as they are",
                ids.join(", ")
            ));
        }
        if self.plan(config.stop_rounds).is_some() {
            notes.push(format!(
                "detection is not finished: this summary covers the {experiments} experiment(s) run so far"
            ));
        }

        Summary {
            seed: config.seed,
            strategy: config.strategy,
            tests_total: self.suite.ids().count(),
            experiments,
            rounds_run,
            rounds_planned: rounds_total,
            failing,
            flaky,
            notes,
            pairs,
            plan,
        }
    }
}

/// "round 4 (random-class-method, experiment 9)", or for the reverse of a passing round
/// "round 4 (the reverse of round 3, which passed; experiment 9)".
fn round_text(round: &RoundRun) -> String {
    match round.made_by {
        Strategy::ReversePassing => format!(
            "round {} (the reverse of round {}, which passed; experiment {})",
            round.number,
            round.number.saturating_sub(1),
            round.experiment
        ),
        made_by => format!(
            "round {} ({made_by}, experiment {})",
            round.number, round.experiment
        ),
    }
}

/// The unit of `order` that ran `test`: the test itself, or its dynamic container.
fn unit_in(order: &[String], test: &str) -> String {
    let container = container_of(test);
    if order.iter().any(|u| u == test) || !order.iter().any(|u| u == container) {
        test.to_string()
    } else {
        container.to_string()
    }
}

/// `order` cut right after the last unit that runs one of `tests` (all of it if none does).
fn cut_after_last(order: &[String], tests: &[String]) -> Vec<String> {
    let last = order
        .iter()
        .rposition(|u| tests.iter().any(|t| t == u || container_of(t) == u));
    match last {
        Some(i) => order[..=i].to_vec(),
        None => order.to_vec(),
    }
}

/// Whether `record` is the experiment `planned`.
fn matches(record: &ExperimentRecord, planned: &Experiment) -> bool {
    record.id == planned.id
        && record.kind == planned.kind
        && record.round == planned.round
        && record.order == planned.order
        && record.targets == planned.targets
}

/// Why `record` is not `planned`, for [`EngineError::BadHistory`].
fn mismatch(record: &ExperimentRecord, planned: Option<&Experiment>, position: usize) -> String {
    let Some(planned) = planned else {
        return "detection was already complete before it".to_string();
    };
    let kind = |k: ExperimentKind| {
        serde_json::to_value(k)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    };
    if record.id != position {
        format!("its id is {}, expected {position}", record.id)
    } else if record.kind != planned.kind {
        format!(
            "it is a `{}` experiment where a `{}` experiment was planned",
            kind(record.kind),
            kind(planned.kind)
        )
    } else if record.round != planned.round {
        format!(
            "its round is {:?}, expected {:?}",
            record.round, planned.round
        )
    } else if record.order != planned.order {
        let at = record
            .order
            .iter()
            .zip(&planned.order)
            .position(|(a, b)| a != b)
            .unwrap_or(record.order.len().min(planned.order.len()));
        format!(
            "its order differs from the planned order at position {}",
            at + 1
        )
    } else {
        "its targets differ from the planned targets".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::{ClassRecord, Framework};

    fn suite() -> Suite {
        let record = |class: &str, tests: &[&str]| ClassRecord {
            class: class.into(),
            framework: Framework::Junit5,
            reorderable: true,
            tests: tests.iter().map(|t| format!("{class}#{t}")).collect(),
            dynamic: vec![],
        };
        Suite {
            schema_version: 1,
            module: "g:a".into(),
            classes: vec![record("p.A", &["a1", "a2"]), record("p.B", &["b1"])],
        }
    }

    fn config() -> DetectConfig {
        DetectConfig {
            strategy: Strategy::ReversePassing,
            rounds: 2,
            seed: 1,
            baseline_tries: 3,
            alone_runs: 2,
            stop_rounds: false,
            minimize: false,
            minimize_budget: 60,
            minimize_only: None,
            k: 2,
            cost: None,
            cost_aware: false,
            dependence_free: Vec::new(),
        }
    }

    fn record(e: &Experiment, results: &[(&str, RunOutcome)]) -> ExperimentRecord {
        ExperimentRecord {
            id: e.id,
            kind: e.kind,
            round: e.round,
            strategy: e.strategy,
            order: e.order.clone(),
            targets: e.targets.clone(),
            results: results
                .iter()
                .map(|(t, o)| TestResult {
                    test: t.to_string(),
                    outcome: *o,
                    message: (o.passed() == Some(false)).then(|| format!("{t} broke")),
                    time_ms: None,
                    reads: None,
                    writes: None,
                })
                .collect(),
            honoured: true,
            millis: 1,
            class_state: Vec::new(),
        }
    }

    #[test]
    fn raw_config_defaults_and_validation() {
        let raw: RawConfig = serde_json::from_str(r#"{"rounds":5,"seed":9}"#).unwrap();
        let config = DetectConfig::try_from(raw).unwrap();
        assert_eq!(config.strategy, Strategy::ReversePassing);
        assert_eq!((config.baseline_tries, config.alone_runs), (3, 10));
        assert!(!config.stop_rounds);
        let bad = |json: &str| {
            let raw: RawConfig = serde_json::from_str(json).unwrap();
            DetectConfig::try_from(raw).unwrap_err()
        };
        let e = bad(r#"{"rounds":5,"seed":-1}"#);
        assert_eq!(e.code(), "bad-config");
        assert!(e.to_string().contains("`seed` = `-1`"), "{e}");
        assert_eq!(bad(r#"{"rounds":5,"seed":1.5}"#).code(), "bad-config");
        assert_eq!(
            bad(r#"{"rounds":5,"seed":1,"alone_runs":0}"#).code(),
            "bad-config"
        );
        let e = bad(r#"{"rounds":5,"seed":1,"strategy":"shuffle"}"#);
        assert!(e.to_string().contains("reverse-passing"), "{e}");
    }

    #[test]
    fn first_experiment_is_the_baseline_with_id_1() {
        let step = next(&config(), &suite(), &[]).unwrap();
        let e = step.experiment.unwrap();
        assert_eq!(e.id, 1);
        assert_eq!(e.kind, ExperimentKind::Baseline);
        assert_eq!(e.order, ["p.A#a1", "p.A#a2", "p.B#b1"]);
        assert_eq!(step.progress.phase, Phase::Baseline);
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["kind"], "baseline");
        assert_eq!(json["strategy"], "original");
        assert_eq!(json["round"], serde_json::Value::Null);
    }

    #[test]
    fn a_passing_baseline_is_run_once_then_rounds_follow() {
        use RunOutcome::Pass;
        let first = next(&config(), &suite(), &[]).unwrap().experiment.unwrap();
        let history = vec![record(
            &first,
            &[("p.A#a1", Pass), ("p.A#a2", Pass), ("p.B#b1", Pass)],
        )];
        let step = next(&config(), &suite(), &history).unwrap();
        let e = step.experiment.unwrap();
        assert_eq!((e.id, e.kind, e.round), (2, ExperimentKind::Round, Some(1)));
        assert_eq!(e.strategy, Some(Strategy::RandomClassMethod));
    }

    #[test]
    fn baseline_sorts_tests_into_failing_nod_and_reference() {
        use RunOutcome::{Error, Fail, NotRun, Pass, Skipped};
        let config = config();
        let suite = suite();
        let mut history = Vec::new();
        let runs: [&[(&str, RunOutcome)]; 3] = [
            &[("p.A#a1", Fail), ("p.A#a2", Pass), ("p.B#b1", Skipped)],
            &[("p.A#a1", Error), ("p.A#a2", Fail), ("p.B#b1", NotRun)],
            &[("p.A#a1", Fail), ("p.A#a2", Pass), ("p.B#b1", Skipped)],
        ];
        for results in runs {
            let e = next(&config, &suite, &history).unwrap().experiment.unwrap();
            assert_eq!(e.kind, ExperimentKind::Baseline);
            history.push(record(&e, results));
        }
        let s = summary(&config, &suite, &history).unwrap();
        assert_eq!(s.failing.len(), 1);
        assert_eq!(s.failing[0].test, "p.A#a1");
        assert_eq!(s.failing[0].message.as_deref(), Some("p.A#a1 broke"));
        assert_eq!(s.flaky.len(), 1);
        assert_eq!(s.flaky[0].test, "p.A#a2");
        assert_eq!(s.flaky[0].kind, FlakyKind::Nod);
        assert_eq!(
            (s.flaky[0].failing_experiment, s.flaky[0].passing_experiment),
            (2, 1)
        );
        assert!(
            s.notes[0].contains("1 test failed in every baseline run"),
            "{:?}",
            s.notes
        );
    }

    #[test]
    fn a_record_that_is_not_the_plan_is_a_bad_history() {
        let first = next(&config(), &suite(), &[]).unwrap().experiment.unwrap();
        let mut bad = record(&first, &[]);
        bad.order.reverse();
        let e = next(&config(), &suite(), &[bad]).unwrap_err();
        assert_eq!(e.code(), "bad-history");
        assert!(e.to_string().contains("position 1"), "{e}");
        let mut bad = record(&first, &[]);
        bad.id = 5;
        let e = summary(&config(), &suite(), &[bad]).unwrap_err();
        assert!(e.to_string().contains("its id is 5"), "{e}");
    }

    #[test]
    fn cut_after_last_understands_invocations() {
        let order: Vec<String> = ["a.A#x", "a.A#m", "a.B#y"].map(String::from).to_vec();
        assert_eq!(
            cut_after_last(&order, &["a.A#m[2]".into()]),
            ["a.A#x", "a.A#m"]
        );
        assert_eq!(cut_after_last(&order, &["a.A#x".into()]), ["a.A#x"]);
        assert_eq!(unit_in(&order, "a.A#m[2]"), "a.A#m");
        assert_eq!(unit_in(&order, "a.B#y"), "a.B#y");
    }

    #[test]
    fn empty_suite_is_done_at_once() {
        let empty = Suite {
            schema_version: 1,
            module: "g:a".into(),
            classes: vec![],
        };
        let step = next(&config(), &empty, &[]).unwrap();
        assert!(step.experiment.is_none());
        assert_eq!(step.progress.phase, Phase::Done);
        let s = summary(&config(), &empty, &[]).unwrap();
        assert!(s.notes[0].contains("no tests"), "{:?}", s.notes);
    }
}
