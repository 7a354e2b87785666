//! What the ID-test planner reads and answers (`id_next`, `docs/protocol.md`, "ID tests"): the
//! request, the experiments and their records, the next step, the verdicts and the outcome.

use serde::{Deserialize, Serialize};

use super::call::IdCall;
use super::dexfix::RepairChoice;
use crate::model::experiment::TestResult;

/// Full clean runs when the request gives none.
pub const DEFAULT_CLEAN_RUNS: u32 = 1;
/// Seeds a repair is verified under on top of the test's failing seeds, by default.
pub const DEFAULT_VERIFY_SEEDS: u32 = 8;
/// Experiments one candidate's isolation and bisection may use, by default.
pub const DEFAULT_ID_BUDGET: u32 = 30;

/// An inclusive, 1-based range of invocations: `[3, 7]`.
pub type Range = [u64; 2];

/// Request of `id_next`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdRequest {
    /// The module's tests in their original order (the order phase 1 runs).
    pub tests: Vec<String>,
    /// The shuffle seeds (`-Dodrust.id.seeds`, or chosen by the plugin).
    pub seeds: Vec<u64>,
    /// Full clean runs; at least 1.
    #[serde(default = "default_clean_runs")]
    pub clean_runs: u32,
    /// Seeds a repair is verified under beyond the failing ones; [`DEFAULT_VERIFY_SEEDS`] when
    /// absent.
    #[serde(default)]
    pub verify_seeds: Option<u32>,
    /// Experiments per candidate; [`DEFAULT_ID_BUDGET`] when absent (0 counts as 1).
    #[serde(default)]
    pub budget: Option<u32>,
    /// A digest of the module's classes; records of another one are ignored.
    pub fingerprint: String,
    /// The records so far.
    #[serde(default)]
    pub history: Vec<IdRecord>,
    /// The id of the next experiment.
    pub next_id: usize,
    /// Whether a candidate's runs alone may run in shared JVMs (`odrust.id.isolation=classloader`,
    /// docs/id-tests.md): its pin is then confirmed in a fresh JVM before it is reported.
    #[serde(default)]
    pub shared: bool,
}

fn default_clean_runs() -> u32 {
    DEFAULT_CLEAN_RUNS
}

/// What one ID experiment is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdKind {
    /// Phase 1: every test, nothing shuffled.
    Clean,
    /// Phase 1: every test, every counted call shuffled under one seed.
    Shuffled,
    /// A candidate alone, nothing shuffled.
    AloneClean,
    /// A candidate alone under one of its failing seeds, every counted call shuffled.
    Alone,
    /// A candidate alone under its seed, only one range of invocations shuffled.
    Bisect,
    /// Every test again under a candidate's first failing seed.
    Confirm,
    /// A candidate pinned to one invocation, alone under the pin's seed with every counted call
    /// permuted as that invocation is (the agent's `consistent-call`): does it fail when all its
    /// calls agree?
    Consistent,
    /// A pin found in shared JVMs, run as its reproduction says in a fresh JVM: does it fail there
    /// too?
    ConfirmPin,
}

impl IdKind {
    /// The name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            IdKind::Clean => "clean",
            IdKind::Shuffled => "shuffled",
            IdKind::AloneClean => "alone-clean",
            IdKind::Alone => "alone",
            IdKind::Bisect => "bisect",
            IdKind::Confirm => "confirm",
            IdKind::Consistent => "consistent",
            IdKind::ConfirmPin => "confirm-pin",
        }
    }
}

/// One test JVM the planner asks for: run `order`, shuffling under `seed` the counted invocations
/// in `only` (all when empty; none when `seed` is null).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdExperiment {
    /// Its id (the request's `next_id`).
    pub id: usize,
    /// What it is for.
    pub kind: IdKind,
    /// The candidate, for the per-test kinds.
    #[serde(default)]
    pub test: Option<String>,
    /// The tests to run, in one JVM.
    pub order: Vec<String>,
    /// The shuffle seed; null runs clean.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The invocations to shuffle; empty means all.
    #[serde(default)]
    pub only: Vec<Range>,
    /// `consistent`: every counted call gets the permutation of this invocation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consistent_call: Option<u64>,
    /// Instead of `only`: shuffle the `nth` counted call of one site, whatever its number in the
    /// JVM (`confirm-pin` of a pin found in a shared JVM, which may number calls otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_call: Option<OnlyCall>,
    /// It may run in a shared JVM (fresh class loaders); otherwise in a fresh JVM.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shared: bool,
}

/// One call named by its site and its number among that site's counted calls (the agent's
/// `only-call`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnlyCall {
    /// From 1.
    pub nth: u64,
    /// [`IdCall::only_call_site`].
    pub site: String,
}

impl IdExperiment {
    /// Whether `other` asks for the same run (ids aside).
    pub(super) fn same_run(&self, other: &IdExperiment) -> bool {
        self.kind == other.kind
            && self.test == other.test
            && self.seed == other.seed
            && self.only == other.only
            && self.order == other.order
            && self.consistent_call == other.consistent_call
            && self.only_call == other.only_call
            && self.shared == other.shared
    }

    /// "experiment 12 (bisect of p.T#t under seed 5, invocations 3-7)".
    pub(super) fn describe(&self) -> String {
        let mut s = format!("experiment {} ({}", self.id, self.kind.name());
        if let Some(t) = &self.test {
            s.push_str(&format!(" of {t}"));
        }
        if let Some(seed) = self.seed {
            s.push_str(&format!(" under seed {seed}"));
        }
        if !self.only.is_empty() {
            s.push_str(&format!(", invocations {}", ranges_text(&self.only)));
        }
        if let Some(k) = self.consistent_call {
            s.push_str(&format!(", every call as invocation {k}"));
        }
        if let Some(o) = &self.only_call {
            s.push_str(&format!(", only call {} of {}", o.nth, o.site));
        }
        if self.shared {
            s.push_str(", in a shared JVM");
        }
        s.push(')');
        s
    }
}

/// An ID experiment that ran.
// Not deny_unknown_fields: serde cannot combine it with flatten (nor on the flattened type).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct IdRecord {
    /// What was asked.
    #[serde(flatten)]
    pub experiment: IdExperiment,
    /// The request's fingerprint when it ran.
    pub fingerprint: String,
    /// Each test's result, in the order they ran.
    #[serde(default)]
    pub results: Vec<TestResult>,
    /// Invocations counted in the run.
    #[serde(default)]
    pub count: u64,
    /// The counted calls whose index is in `only` (at most a few dozen; maybe none for `only: []`).
    #[serde(default)]
    pub calls: Vec<IdCall>,
    /// Whether the order ran exactly as asked.
    #[serde(default = "yes")]
    pub honoured: bool,
    /// The agent's or the run's error, if any.
    #[serde(default)]
    pub error: Option<String>,
}

fn yes() -> bool {
    true
}

/// The next step.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum IdStep {
    /// Run this experiment, record it, ask again.
    Run {
        /// The experiment.
        experiment: IdExperiment,
        /// Where the run stands (for the goal's estimate of the time left).
        progress: IdProgress,
    },
    /// Nothing more to run.
    Done {
        /// The verdicts.
        outcome: IdOutcome,
    },
}

/// Where a detect-id run stands: phase 1's runs, then the candidates searched one after the other.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct IdProgress {
    /// Phase 1's runs (clean and shuffled) done.
    pub phase1_done: usize,
    /// Phase 1's runs in all.
    pub phase1_total: usize,
    /// Candidates to search, once phase 1 is done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<usize>,
    /// The candidate being searched (from 1), once phase 1 is done.
    pub candidate: usize,
    /// The experiments a candidate's search may take (the budget; a search again in fresh JVMs
    /// and the confirmation of a pin come on top).
    pub budget: usize,
    /// Once phase 1 is done: the experiments predicted for the searches from this one on (this
    /// one included), from the calls each candidate made in its failing run, scaled by what the
    /// searches that ended took against their prediction (docs/id-tests.md, "Estimates").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experiments_left: Option<usize>,
    /// Of `experiments_left`, those predicted in fresh JVMs (all of them unless runs alone go to
    /// shared JVMs), for their price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fresh_left: Option<usize>,
}

/// How a candidate ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdStatus {
    /// Implementation-dependent: it failed again under a seed (alone, or in the full order).
    Id,
    /// It failed under a seed once, and no later run showed the shuffle is what fails it.
    Unconfirmed,
}

/// What an ID test needs to fail, from the run with every call permuted as the pinned one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdNeeds {
    /// It failed then too: another implementation's order fails it.
    AnotherOrder,
    /// It passed then: it fails only when two calls in one JVM return different orders, which a
    /// real JVM (one order for the same contents and history) does not do.
    CallsToDisagree,
}

/// The shuffled invocation (or range) a candidate was pinned to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pin {
    /// The seed it fails under.
    pub seed: u64,
    /// The one invocation whose shuffling fails it.
    pub invocation: Option<u64>,
    /// Otherwise, the range whose shuffling fails it.
    pub range: Option<Range>,
    /// The call of `invocation`, as the failing run reported it.
    pub call: Option<IdCall>,
    /// The calls the last failing run reported in the pinned invocation or range.
    #[serde(default)]
    pub calls: Vec<IdCall>,
}

/// What reproduces a verdict: `test` alone under `seed`, shuffling `only`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reproduce {
    /// The test.
    pub test: String,
    /// The seed.
    pub seed: u64,
    /// The invocations to shuffle; empty means all.
    pub only: Vec<Range>,
}

/// The verdict for one candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdVerdict {
    /// The test.
    pub test: String,
    /// `id` or `unconfirmed`.
    pub status: IdStatus,
    /// The seeds it failed under in phase 1, in the request's order.
    pub failing_seeds: Vec<u64>,
    /// The seeds phase 1 ran.
    pub seeds_tried: usize,
    /// "failed under 2 of 4 seeds".
    pub rate: String,
    /// The shuffled invocation or range, when bisection ran.
    pub pin: Option<Pin>,
    /// The verdict in a sentence.
    pub reason: String,
    /// What reproduces it alone, when something does.
    pub reproduce: Option<Reproduce>,
    /// DexFix repairs to try, best first.
    pub repairs: Vec<RepairChoice>,
    /// Why no repair is offered (when `repairs` is empty).
    pub no_repair: Option<String>,
    /// The seeds a repair is verified under: the failing seeds, then more.
    pub verify_seeds: Vec<u64>,
    /// The ids of this candidate's experiments.
    pub experiments: Vec<usize>,
    /// For `id` pinned to one invocation: whether it also fails with every call permuted as that
    /// invocation; null when that run did not say (not pinned, budget, an unusable run).
    #[serde(default)]
    pub needs: Option<IdNeeds>,
}

/// The result of `id_next` once nothing more runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdOutcome {
    /// The seeds.
    pub seeds: Vec<u64>,
    /// Full clean runs.
    pub clean_runs: u32,
    /// Records the plan used.
    pub experiments: usize,
    /// A verdict per candidate, in the original order.
    pub tests: Vec<IdVerdict>,
    /// What the user should know about the run.
    pub notes: Vec<String>,
}

/// `[[3,7],[9,9]]` as `3-7,9`.
pub fn ranges_text(only: &[Range]) -> String {
    only.iter()
        .map(|[a, b]| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}
