//! The ID-test planner (`id_next`): which run comes next, replayed from the history of ID
//! records like `diagnose_next`, and the verdicts (seed `003`, NonDex's debug mode).
//!
//! 1. Phase 1: `clean_runs` clean runs of the module's tests (nothing shuffled), then one run
//!    per seed with every counted call shuffled.
//! 2. Candidates: the tests that passed in every clean run and failed under at least one seed,
//!    in the original order. A test that failed in a clean run is not ID (a note counts them).
//! 3. Per candidate, one after another: alone without shuffling (a failure there means the test
//!    needs the tests before it: a confirmation in the full order decides); alone under each
//!    failing seed until one fails (with no call counted, the shuffle is not what fails it), then
//!    under the request's other seeds and [`ALONE_EXTRA_SEEDS`] derived ones (alone, a seed
//!    shuffles other calls than in the full order, whose call numbers differ); then
//!    bisection of the counted invocations `[1, N]` under that seed, halving a failing range
//!    until one invocation is left, or until neither half fails alone (the test needs shuffled
//!    invocations in both), or the budget runs out. No seed failing alone: a confirmation in the
//!    full order decides between `id` (it fails there again) and `unconfirmed`.
//! 4. For a test pinned to one call in the module's code, the DexFix choices ([`super::dexfix`]).
//!
//! A record is matched to the experiment it ran by kind, test, order, seed and ranges, never by
//! position; records of another fingerprint are ignored. Nothing random: the same request gives
//! the same step.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::error::EngineError;
use crate::model::experiment::{test_passed, TestResult};
use crate::model::seed::mix;

use super::dexfix::{self, RepairChoice};

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
}

impl IdExperiment {
    /// Whether `other` asks for the same run (ids aside).
    fn same_run(&self, other: &IdExperiment) -> bool {
        self.kind == other.kind
            && self.test == other.test
            && self.seed == other.seed
            && self.only == other.only
            && self.order == other.order
    }

    /// "experiment 12 (bisect of p.T#t under seed 5, invocations 3-7)".
    fn describe(&self) -> String {
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
        s.push(')');
        s
    }
}

/// A frame of the module's own code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    /// The class (binary name).
    pub class: String,
    /// The method.
    pub method: String,
    /// The source file, when the class file names it.
    #[serde(default)]
    pub file: Option<String>,
    /// The line, when known.
    #[serde(default)]
    pub line: Option<u32>,
}

impl Frame {
    /// `com.a.Foo.names(Foo.java:12)`, as a stack trace shows it.
    pub fn text(&self) -> String {
        let place = match (&self.file, self.line) {
            (Some(f), Some(l)) => format!("{f}:{l}"),
            (Some(f), None) => f.clone(),
            (None, Some(l)) => format!("line {l}"),
            (None, None) => "unknown source".to_string(),
        };
        format!("{}.{}({place})", self.class, self.method)
    }
}

/// Where the iterated collection was allocated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Alloc {
    /// The allocated type (`HashSet`).
    #[serde(rename = "type")]
    pub kind: String,
    /// The allocating frame.
    pub at: Frame,
}

/// One counted call of a shuffled API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdCall {
    /// Its invocation index in the JVM (1-based).
    pub index: u64,
    /// The API (`HashMap$KeySet.iterator`).
    pub api: String,
    /// The first frame of the module's own code at the call.
    #[serde(default)]
    pub at: Option<Frame>,
    /// The library frame that made the call, when `-Dodrust.id.filter=any` counted a call made
    /// outside the module's code (`at` is then the module's frame below it, if any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<Frame>,
    /// Where the iterated `HashMap` / `HashSet` was allocated, when the agent saw it.
    #[serde(default)]
    pub alloc: Option<Alloc>,
}

impl IdCall {
    /// `HashMap$KeySet.iterator at com.a.Foo.names(Foo.java:12) (a HashSet allocated at
    /// com.a.Foo.<init>(Foo.java:4))`.
    pub fn site(&self) -> String {
        let mut s = self.api.clone();
        if let Some(via) = &self.via {
            s.push_str(&format!(" in {}", via.text()));
        }
        if let Some(at) = &self.at {
            s.push_str(&format!(
                " {} {}",
                if self.via.is_some() {
                    "called from"
                } else {
                    "at"
                },
                at.text()
            ));
        }
        if let Some(a) = &self.alloc {
            s.push_str(&format!(" (a {} allocated at {})", a.kind, a.at.text()));
        }
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
    },
    /// Nothing more to run.
    Done {
        /// The verdicts.
        outcome: IdOutcome,
    },
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

/// Seeds beyond the request's a candidate is run alone under before odrust gives up pinning it.
pub const ALONE_EXTRA_SEEDS: usize = 4;

/// The seeds a repair is verified under beyond a test's failing seeds: `count` seeds derived from
/// `seeds` with [`mix`], none of them one of `seeds`, each below 2^63 (a Java `long` holds it).
pub fn verification_seeds(seeds: &[u64], count: u32) -> Vec<u64> {
    let base = seeds
        .iter()
        .fold(mix(0x6f64_7275_7374_6964, seeds.len() as u64), |h, &s| {
            mix(h, s)
        });
    let mut out: Vec<u64> = Vec::new();
    let mut round = 0u64;
    while out.len() < count as usize {
        let s = mix(base, round) >> 1;
        round += 1;
        if !seeds.contains(&s) && !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

fn check(request: &IdRequest) -> Result<(), EngineError> {
    let bad = |setting: &str, value: String, reason: String| EngineError::BadConfig {
        setting: setting.into(),
        value,
        reason,
    };
    if request.tests.is_empty() {
        return Err(bad(
            "tests",
            "[]".into(),
            "there is no test to run for ID detection: the module has no test, or none was selected".into(),
        ));
    }
    let list = request
        .seeds
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    if request.seeds.is_empty() {
        return Err(bad(
            "odrust.id.seeds",
            list,
            "at least one shuffle seed is needed: give them comma-separated, e.g. -Dodrust.id.seeds=1,2,3".into(),
        ));
    }
    let mut seen = BTreeSet::new();
    for s in &request.seeds {
        if !seen.insert(s) {
            return Err(bad(
                "odrust.id.seeds",
                list,
                format!("seed {s} is listed twice; each seed of -Dodrust.id.seeds must differ, a repeated one would only run the same shuffle again"),
            ));
        }
    }
    if request.clean_runs == 0 {
        return Err(bad(
            "odrust.id.cleanRuns",
            "0".into(),
            "at least 1 clean run is needed to tell a test that fails anyway from one the shuffle fails".into(),
        ));
    }
    Ok(())
}

/// The next experiment, or the verdicts.
///
/// Errors: [`EngineError::BadConfig`] (the user's to fix) for no test, no seed, a seed listed
/// twice, or `clean_runs` 0.
pub fn next(request: &IdRequest) -> Result<IdStep, EngineError> {
    check(request)?;
    let planner = Planner {
        request,
        records: request
            .history
            .iter()
            .filter(|r| r.fingerprint == request.fingerprint)
            .collect(),
        used: BTreeSet::new(),
        notes: Vec::new(),
        budget: request.budget.unwrap_or(DEFAULT_ID_BUDGET).max(1) as usize,
        extra_seeds: verification_seeds(
            &request.seeds,
            request.verify_seeds.unwrap_or(DEFAULT_VERIFY_SEEDS),
        ),
    };
    Ok(planner.plan())
}

struct Planner<'a> {
    request: &'a IdRequest,
    /// The records of this fingerprint, in history order.
    records: Vec<&'a IdRecord>,
    /// Positions in `records` the plan has matched.
    used: BTreeSet<usize>,
    notes: Vec<String>,
    budget: usize,
    extra_seeds: Vec<u64>,
}

/// One candidate being planned.
struct Candidate {
    test: String,
    failing_seeds: Vec<u64>,
    ids: Vec<usize>,
}

/// What a candidate's plan stops at: the experiment to run next.
type Stop = IdExperiment;

impl<'a> Planner<'a> {
    fn experiment(
        &self,
        kind: IdKind,
        test: Option<&str>,
        order: Vec<String>,
        seed: Option<u64>,
        only: Vec<Range>,
    ) -> IdExperiment {
        IdExperiment {
            id: self.request.next_id,
            kind,
            test: test.map(str::to_string),
            order,
            seed,
            only,
        }
    }

    /// The first record not used yet that ran `want`; marks it used.
    fn take(&mut self, want: &IdExperiment) -> Option<&'a IdRecord> {
        let i = (0..self.records.len())
            .find(|i| !self.used.contains(i) && self.records[*i].experiment.same_run(want))?;
        self.used.insert(i);
        Some(self.records[i])
    }

    fn note(&mut self, note: String) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// Why a record's outcome cannot be trusted, if so.
    fn unusable(r: &IdRecord) -> Option<String> {
        if !r.honoured {
            return Some("did not run as asked".into());
        }
        r.error.as_ref().map(|e| format!("failed: {e}"))
    }

    /// Whether `test` failed in a per-candidate run; an unusable run, or one without a result for
    /// the test, counts as not failing, with a note.
    fn failed(&mut self, r: &IdRecord, test: &str) -> bool {
        if let Some(why) = Self::unusable(r) {
            self.note(format!(
                "{} {why}; counted as not failing",
                r.experiment.describe()
            ));
            return false;
        }
        match test_passed(test, &r.results) {
            Some(passed) => !passed,
            None => {
                self.note(format!(
                    "{} has no result for {test}; counted as not failing",
                    r.experiment.describe()
                ));
                false
            }
        }
    }

    fn plan(mut self) -> IdStep {
        let tests = self.request.tests.clone();
        // 1. Phase 1.
        let mut clean = Vec::new();
        for _ in 0..self.request.clean_runs {
            let e = self.experiment(IdKind::Clean, None, tests.clone(), None, Vec::new());
            match self.take(&e) {
                Some(r) => clean.push(r),
                None => return IdStep::Run { experiment: e },
            }
        }
        let mut shuffled = Vec::new();
        for &seed in &self.request.seeds {
            let e = self.experiment(
                IdKind::Shuffled,
                None,
                tests.clone(),
                Some(seed),
                Vec::new(),
            );
            match self.take(&e) {
                Some(r) => shuffled.push((seed, r)),
                None => return IdStep::Run { experiment: e },
            }
        }
        for r in clean.iter().chain(shuffled.iter().map(|(_, r)| r)) {
            if let Some(why) = Self::unusable(r) {
                let note = match r.experiment.kind {
                    IdKind::Clean => format!(
                        "{} {why}; its results were used as they are",
                        r.experiment.describe()
                    ),
                    _ => format!(
                        "{} {why}; no test counts as failing under its seed",
                        r.experiment.describe()
                    ),
                };
                self.note(note);
            }
        }
        // 2. Candidates.
        let mut seen = BTreeSet::new();
        let mut failing_clean = 0usize;
        let mut candidates = Vec::new();
        for test in &tests {
            if !seen.insert(test.as_str()) {
                continue;
            }
            let clean_outcomes: Vec<Option<bool>> = clean
                .iter()
                .map(|r| test_passed(test, &r.results))
                .collect();
            if clean_outcomes.contains(&Some(false)) {
                failing_clean += 1;
                continue;
            }
            if !clean_outcomes.contains(&Some(true)) {
                continue;
            }
            let failing_seeds: Vec<u64> = shuffled
                .iter()
                .filter(|(_, r)| {
                    Self::unusable(r).is_none() && test_passed(test, &r.results) == Some(false)
                })
                .map(|(s, _)| *s)
                .collect();
            if !failing_seeds.is_empty() {
                candidates.push(Candidate {
                    test: test.clone(),
                    failing_seeds,
                    ids: Vec::new(),
                });
            }
        }
        if failing_clean > 0 {
            self.note(if failing_clean == 1 {
                "1 test fails without shuffling; not ID".to_string()
            } else {
                format!("{failing_clean} tests fail without shuffling; not ID")
            });
        }
        // 3. One candidate after another.
        let mut verdicts = Vec::new();
        for mut c in candidates {
            match self.candidate(&mut c) {
                Ok(v) => verdicts.push(v),
                Err(e) => return IdStep::Run { experiment: e },
            }
        }
        IdStep::Done {
            outcome: IdOutcome {
                seeds: self.request.seeds.clone(),
                clean_runs: self.request.clean_runs,
                experiments: self.used.len(),
                tests: verdicts,
                notes: self.notes,
            },
        }
    }

    /// The record of a candidate's experiment: `Ok(Some)` when it ran, `Err` when it runs next,
    /// `Ok(None)` when the candidate's budget is spent.
    fn ask(
        &mut self,
        c: &mut Candidate,
        kind: IdKind,
        seed: Option<u64>,
        only: Vec<Range>,
    ) -> Result<Option<&'a IdRecord>, Stop> {
        if c.ids.len() >= self.budget {
            return Ok(None);
        }
        let order = if kind == IdKind::Confirm {
            self.request.tests.clone()
        } else {
            vec![c.test.clone()]
        };
        let e = self.experiment(kind, Some(&c.test), order, seed, only);
        match self.take(&e) {
            Some(r) => {
                c.ids.push(r.experiment.id);
                Ok(Some(r))
            }
            None => Err(e),
        }
    }

    fn verdict(&self, c: &Candidate, status: IdStatus, reason: String) -> IdVerdict {
        let n = self.request.seeds.len();
        let mut verify_seeds = c.failing_seeds.clone();
        verify_seeds.extend(self.extra_seeds.iter().copied());
        IdVerdict {
            test: c.test.clone(),
            status,
            failing_seeds: c.failing_seeds.clone(),
            seeds_tried: n,
            rate: format!(
                "failed under {} of {n} {}",
                c.failing_seeds.len(),
                if n == 1 { "seed" } else { "seeds" }
            ),
            pin: None,
            reason,
            reproduce: None,
            repairs: Vec::new(),
            no_repair: Some(match status {
                IdStatus::Id => {
                    "not pinned to one call: odrust did not bisect the shuffled calls".into()
                }
                IdStatus::Unconfirmed => "not confirmed as implementation-dependent".into(),
            }),
            verify_seeds,
            experiments: c.ids.clone(),
        }
    }

    fn out_of_budget(&self, c: &Candidate, before: &str) -> IdVerdict {
        self.verdict(
            c,
            IdStatus::Unconfirmed,
            format!(
                "the budget of {} experiments for this test ran out before {before} (raise -Dodrust.id.budget)",
                self.budget
            ),
        )
    }

    fn candidate(&mut self, c: &mut Candidate) -> Result<IdVerdict, Stop> {
        let test = c.test.clone();
        let first = c.failing_seeds[0];
        // (a) Alone, nothing shuffled.
        let Some(r) = self.ask(c, IdKind::AloneClean, None, Vec::new())? else {
            return Ok(self.out_of_budget(c, "it ran alone"));
        };
        if self.failed(r, &test) {
            let Some(r) = self.ask(c, IdKind::Confirm, Some(first), Vec::new())? else {
                return Ok(
                    self.out_of_budget(c, &format!("the full order ran again under seed {first}"))
                );
            };
            return Ok(if self.failed(r, &test) {
                self.verdict(
                    c,
                    IdStatus::Id,
                    format!("fails under seed {first} in the full order again, but it also fails alone even without shuffling (it needs the tests before it), so the shuffled call was not bisected"),
                )
            } else {
                self.verdict(
                    c,
                    IdStatus::Unconfirmed,
                    format!("failed once under seed {first}, not again in the full order; alone it fails even without shuffling (it needs the tests before it)"),
                )
            });
        }
        // (b) Alone under each failing seed until one fails with something shuffled; then, since
        // alone the same seed shuffles other calls than in the full order (call numbers differ),
        // under the other seeds and a few more derived ones.
        let mut zero: Option<u64> = None;
        let mut chosen = None;
        let mut alone_seeds = c.failing_seeds.clone();
        for s in self
            .request
            .seeds
            .iter()
            .chain(self.extra_seeds.iter().take(ALONE_EXTRA_SEEDS))
        {
            if !alone_seeds.contains(s) {
                alone_seeds.push(*s);
            }
        }
        let mut tried = 0;
        for seed in alone_seeds {
            if zero.is_some() && !c.failing_seeds.contains(&seed) {
                break; // it failed alone with nothing shuffled: more seeds would not tell more
            }
            tried += 1;
            let Some(r) = self.ask(c, IdKind::Alone, Some(seed), Vec::new())? else {
                return Ok(self.out_of_budget(c, "it failed alone under a seed"));
            };
            if self.failed(r, &test) {
                if r.count == 0 {
                    zero.get_or_insert(seed);
                    continue;
                }
                chosen = Some((seed, r));
                break;
            }
        }
        let Some((seed, alone)) = chosen else {
            if let Some(s) = zero {
                return Ok(self.verdict(
                    c,
                    IdStatus::Unconfirmed,
                    format!("failed alone under seed {s} with no shuffled call counted, so that failure is not the shuffle's doing (it may be flaky for another reason)"),
                ));
            }
            let Some(r) = self.ask(c, IdKind::Confirm, Some(first), Vec::new())? else {
                return Ok(
                    self.out_of_budget(c, &format!("the full order ran again under seed {first}"))
                );
            };
            return Ok(if self.failed(r, &test) {
                let mut v = self.verdict(
                    c,
                    IdStatus::Id,
                    format!("fails under seed {first} only after the tests before it (alone it passed under {tried} seeds), so the shuffled call was not bisected"),
                );
                v.no_repair = Some("not pinned to one call: it fails only in the full order, where odrust does not bisect".into());
                v
            } else {
                self.verdict(
                    c,
                    IdStatus::Unconfirmed,
                    format!("failed once under seed {first}, not again (neither alone under {tried} seeds nor in the full order)"),
                )
            });
        };
        // (c) Bisection of [1, N] under that seed.
        let n = alone.count;
        let (mut lo, mut hi) = (1u64, n);
        let mut last = alone;
        loop {
            if lo == hi {
                return Ok(self.pinned(c, seed, lo, hi, n, last, None));
            }
            let mid = lo + (hi - lo) / 2;
            let Some(left) = self.ask(c, IdKind::Bisect, Some(seed), vec![[lo, mid]])? else {
                return Ok(self.pinned(c, seed, lo, hi, n, last, Some(Why::Budget)));
            };
            if self.failed(left, &test) {
                hi = mid;
                last = left;
                continue;
            }
            let Some(right) = self.ask(c, IdKind::Bisect, Some(seed), vec![[mid + 1, hi]])? else {
                return Ok(self.pinned(c, seed, lo, hi, n, last, Some(Why::Budget)));
            };
            if self.failed(right, &test) {
                lo = mid + 1;
                last = right;
                continue;
            }
            return Ok(self.pinned(c, seed, lo, hi, n, last, Some(Why::BothHalves)));
        }
    }

    /// The verdict of a candidate bisected to `[lo, hi]` under `seed` (`last`: the last run that
    /// failed, which shuffled exactly that range); `why` is set when the range is not one
    /// invocation.
    #[allow(clippy::too_many_arguments)]
    fn pinned(
        &self,
        c: &Candidate,
        seed: u64,
        lo: u64,
        hi: u64,
        n: u64,
        last: &IdRecord,
        why: Option<Why>,
    ) -> IdVerdict {
        let test = &c.test;
        let calls: Vec<IdCall> = last
            .calls
            .iter()
            .filter(|k| (lo..=hi).contains(&k.index))
            .cloned()
            .collect();
        // One invocation: exactly it; the whole range: what the alone run shuffled.
        let only = if lo != hi && lo == 1 && hi == n {
            Vec::new()
        } else {
            vec![[lo, hi]]
        };
        let shuffled = if lo == hi {
            format!("only invocation {lo} is shuffled")
        } else if only.is_empty() {
            format!("all {n} counted invocations are shuffled")
        } else {
            format!("only invocations {lo}-{hi} (of {n}) are shuffled")
        };
        let mut v = self.verdict(c, IdStatus::Id, String::new());
        v.reproduce = Some(Reproduce {
            test: test.clone(),
            seed,
            only,
        });
        match why {
            None => {
                let call = calls.iter().find(|k| k.index == lo).cloned();
                let what = match &call {
                    Some(k) => format!(
                        ": {}{}",
                        k.api,
                        k.at.as_ref()
                            .map(|f| format!(" at {}", f.text()))
                            .unwrap_or_default()
                    ),
                    None => String::new(),
                };
                v.reason = format!("fails alone under seed {seed} when {shuffled}{what}");
                match &call {
                    None => v.no_repair = Some(format!("the failing run did not report invocation {lo}, so odrust does not know the call to repair")),
                    Some(k) if k.at.is_none() => v.no_repair = Some(format!("invocation {lo} ({}) has no frame in the module's own code to repair", k.api)),
                    Some(k) => {
                        let (repairs, why_not) = dexfix::choices(k, &v.test);
                        if let Some(w) = why_not {
                            v.reason.push_str(&format!("; {w}"));
                        }
                        v.repairs = repairs;
                        v.no_repair = None;
                    }
                }
                v.pin = Some(Pin {
                    seed,
                    invocation: Some(lo),
                    range: None,
                    call,
                    calls,
                });
            }
            Some(w) => {
                v.reason = match w {
                    Why::BothHalves => format!("fails alone under seed {seed} when {shuffled}, but not when only either half is: it needs shuffled invocations in both halves"),
                    Why::Budget => format!("fails alone under seed {seed} when {shuffled}; the budget of {} experiments for this test ran out before one invocation was found (raise -Dodrust.id.budget)", self.budget),
                };
                v.no_repair = Some(format!(
                    "not pinned to one call: invocations {lo}-{hi} together fail it"
                ));
                v.pin = Some(Pin {
                    seed,
                    invocation: None,
                    range: Some([lo, hi]),
                    call: None,
                    calls,
                });
            }
        }
        v
    }
}

/// Why a bisection stopped at a range.
#[derive(Debug, Clone, Copy)]
enum Why {
    BothHalves,
    Budget,
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
