//! The configuration of a detection run: what the plugin sends ([`RawConfig`], defaults filled
//! in) and its validated form ([`DetectConfig`]).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::EngineError;
use crate::model::strategy::Strategy;
use crate::schedule::CostModel;

/// Default number of baseline runs of the original order.
pub const DEFAULT_BASELINE_TRIES: u32 = 3;

/// Default number of alone runs per OD test (fewer when they disagree: then it is NOD).
pub const DEFAULT_ALONE_RUNS: u32 = 3;

/// Default minimization experiments per OD test to explain, pooled over the run.
pub const DEFAULT_MINIMIZE_BUDGET: u32 = 60;

/// Rounds of a whole-suite strategy when the user gives none.
pub const DEFAULT_ROUNDS: u32 = 20;

/// The rounds `strategy` runs when the user gives none: [`DEFAULT_ROUNDS`], or for a systematic
/// strategy its whole schedule (`i32::MAX`, the most the plugin's `int` holds: the schedule ends
/// first).
pub fn default_rounds(strategy: Strategy) -> u32 {
    if strategy.is_systematic() {
        i32::MAX as u32
    } else {
        DEFAULT_ROUNDS
    }
}

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
    /// At most this many minimization experiments in the whole run (at least 1); when `None`,
    /// [`DEFAULT_MINIMIZE_BUDGET`] per OD test to explain.
    pub minimize_budget: Option<u32>,
    /// When set, only these OD tests are explained.
    pub minimize_only: Option<Vec<String>>,
    /// `k` of the `k-bounded` strategy (1 to 3).
    pub k: u32,
    /// Cost of orders and tests, given by the caller: systematic strategies run the orders
    /// that cover the most pairs per millisecond first.
    pub cost: Option<CostModel>,
    /// Without `cost`: order systematic schedules by the cost model the baseline measured
    /// ([`crate::schedule::dependence::cost_from_baseline`]). The plan's predicted cost is reported either way.
    /// With or without `cost`: explanations plan from that model (where group testing cuts a
    /// set, which of its tests are asked alone, how many culprits the recording names are tried).
    pub cost_aware: bool,
    /// `dependence-aware`: field patterns (`pkg.C#F`, `*` wildcards) that never make tests dependent.
    pub dependence_free: Vec<String>,
    /// This run is one shard of the plan: it runs only its share of the rounds.
    pub shard: Option<Shard>,
    /// `targeted`: test classes new or changed since the last `odrust:incremental` run; their
    /// tests are run right after and right before every test they share a static field with,
    /// before any other pair ([`crate::schedule::targeted::plan_new_first`]).
    pub new_classes: Vec<String>,
    /// `odrust.isolation=classloader`: the rounds of this run that the plugin runs in fresh JVMs
    /// before its isolation check (docs/isolation.md); once the check passed, the later rounds,
    /// explanation searches and alone runs after each OD test's first share JVMs. Only the
    /// estimates read it (what runs shared is the plugin's choice, and each record says how it
    /// ran). `None`: every experiment in fresh JVMs.
    pub shared_after_rounds: Option<u32>,
}

/// Shard `index` of `count` (`-Dodrust.shard=K/N`): the rounds of the whole plan are dealt out
/// like cards, round `r` to shard `(r - 1) mod N + 1`; every shard runs its own baseline,
/// confirmations, alone runs and explanations, so its report stands alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// From 1.
    pub index: u32,
    /// At least 1.
    pub count: u32,
}

impl Shard {
    /// Parses `K/N`. Errors: [`EngineError::BadConfig`] naming what is wrong.
    pub fn parse(text: &str) -> Result<Shard, EngineError> {
        let bad = |reason: &str| EngineError::BadConfig {
            setting: "shard".into(),
            value: text.into(),
            reason: reason.into(),
        };
        let (k, n) = text
            .trim()
            .split_once('/')
            .ok_or_else(|| bad("a shard is K/N, e.g. 2/3 for the second of three shards"))?;
        let number = |s: &str| s.trim().parse::<u32>().ok();
        let (Some(index), Some(count)) = (number(k), number(n)) else {
            return Err(bad("K and N of K/N must be whole numbers, e.g. 2/3"));
        };
        if count == 0 || index == 0 || index > count {
            return Err(bad("K/N needs 1 <= K <= N, e.g. 1/3, 2/3 and 3/3"));
        }
        Ok(Shard { index, count })
    }

    /// How many of the plan's first `total` rounds are this shard's.
    pub fn share(&self, total: u32) -> u32 {
        if total < self.index {
            0
        } else {
            (total - self.index) / self.count + 1
        }
    }

    /// The plan's number of this shard's `i`-th round (from 0).
    pub fn round(&self, i: u32) -> u32 {
        self.index + i * self.count
    }
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
            minimize_budget: None,
            minimize_only: None,
            k: DEFAULT_K,
            cost: None,
            cost_aware: false,
            dependence_free: Vec::new(),
            shard: None,
            new_classes: Vec::new(),
            shared_after_rounds: None,
        }
    }
}

/// Default `k` of the `k-bounded` strategy.
pub const DEFAULT_K: u32 = 2;

/// The cost model as the plugin sends it: milliseconds as JSON numbers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCost {
    /// Fixed cost of one order (JVM start), in milliseconds.
    pub cost0_ms: f64,
    /// Time of one run of each test, in milliseconds, by test id.
    #[serde(default)]
    pub test_ms: BTreeMap<String, f64>,
}

/// The configuration as the plugin sends it (`config` of `detect_next` and `detect_summary`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// Alone runs per OD test at most; 3 when absent.
    #[serde(default = "default_alone_runs")]
    pub alone_runs: u32,
    /// Whether rounds must stop (the time budget is spent); false when absent.
    #[serde(default)]
    pub stop_rounds: bool,
    /// Whether to explain OD tests; true when absent.
    #[serde(default = "yes")]
    pub minimize: bool,
    /// Minimization experiments for the whole run; 60 per OD test to explain when absent.
    #[serde(default)]
    pub minimize_budget: Option<u32>,
    /// Only these OD tests are explained; all when absent or null.
    #[serde(default)]
    pub minimize_only: Option<Vec<String>>,
    /// `k` of `k-bounded`; 2 when absent.
    #[serde(default = "default_k")]
    pub k: u32,
    /// The cost model; none when absent or null.
    #[serde(default)]
    pub cost: Option<RawCost>,
    /// Order systematic schedules, and plan explanations, by the baseline's measured cost; false
    /// when absent.
    #[serde(default)]
    pub cost_aware: bool,
    /// `dependence-aware`: dependence-free field patterns; none when absent.
    #[serde(default)]
    pub dependence_free: Vec<String>,
    /// `K/N`: run shard K of N of the plan; the whole plan when absent or null.
    #[serde(default)]
    pub shard: Option<String>,
    /// `targeted`: test classes new or changed (odrust:incremental); none when absent.
    #[serde(default)]
    pub new_classes: Vec<String>,
    /// `odrust.isolation=classloader`: the rounds run in fresh JVMs before the isolation check;
    /// no shared JVMs when absent or null.
    #[serde(default)]
    pub shared_after_rounds: Option<u32>,
}

fn default_k() -> u32 {
    DEFAULT_K
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
        if raw.minimize_budget == Some(0) {
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
        let shard = raw.shard.as_deref().map(Shard::parse).transpose()?;
        if let Some(text) = raw.shard.as_deref().filter(|_| shard.is_some()) {
            // Shards deal out the orders of one plan: it must not depend on what a shard measured.
            if strategy == Strategy::DependenceAware {
                return Err(bad(
                    "shard",
                    text.into(),
                    "dependence-aware plans from each run's own baseline recording, so shards would not share one plan; shard tuscan instead",
                ));
            }
            if raw.cost_aware && cost.is_none() {
                return Err(bad(
                    "shard",
                    text.into(),
                    "cost-aware ranking uses each run's own baseline times, so shards would not share one plan; use -Dodrust.costAware=false with shards",
                ));
            }
        }
        Ok(DetectConfig {
            shard,
            k: raw.k,
            cost,
            cost_aware: raw.cost_aware,
            dependence_free: raw.dependence_free,
            new_classes: raw.new_classes,
            shared_after_rounds: raw.shared_after_rounds,
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

fn yes() -> bool {
    true
}
