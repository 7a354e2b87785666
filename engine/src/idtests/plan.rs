//! The ID-test planner (`id_next`): which run comes next, replayed from the history of ID
//! records like `diagnose_next`, and the verdicts (DexFix, ICSE 2021: NonDex's debug mode).
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
//!    invocations in both), or the budget runs out; a right half whose left half passed is taken
//!    to fail without a run, the one invocation found last is run, and when it passes the halving
//!    goes back to the last range that failed and runs both halves from there ([`bisect`]). No seed failing alone: a confirmation in the
//!    full order decides between `id` (it fails there again) and `unconfirmed`. Before the
//!    bisection, the calls of that run at a site earlier candidates were pinned to are shuffled
//!    alone ([`Planner::site_first`]): tests of one module share a few sites.
//! 4. For a test pinned to one call in the module's code, the DexFix choices ([`super::dexfix`]).
//!
//! A record is matched to the experiment it ran by kind, test, order, seed and ranges, never by
//! position; records of another fingerprint are ignored. Nothing random: the same request gives
//! the same step.

use std::collections::BTreeSet;

use crate::error::EngineError;
use crate::model::experiment::test_passed;
use crate::model::seed::mix;

use super::call::IdCall;
use super::dexfix;
pub use super::shapes::{
    ranges_text, IdExperiment, IdKind, IdNeeds, IdOutcome, IdProgress, IdRecord, IdRequest,
    IdStatus, IdStep, IdVerdict, OnlyCall, Pin, Range, Reproduce, DEFAULT_CLEAN_RUNS,
    DEFAULT_ID_BUDGET, DEFAULT_VERIFY_SEEDS,
};

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
        sites: Vec::new(),
        progress: IdProgress::default(),
        shared_searches: 0,
        shared_refuted: 0,
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
    /// Where the verdicts before this candidate were pinned ([`site_key`]) and how many were:
    /// a later candidate's calls at the [`SITES_TRIED`] most shared are tried first.
    sites: Vec<(String, usize)>,
    /// Candidates searched in shared JVMs so far, and how many of those searches fresh JVMs did
    /// not bear out ([`SHARED_GIVE_UP`]).
    shared_searches: usize,
    shared_refuted: usize,
    /// Where the run stands, sent with each experiment.
    progress: IdProgress,
}

/// After this many searches in shared JVMs that fresh JVMs did not bear out (and at least half of
/// those tried), the other candidates are searched in fresh JVMs only: the module keeps state a
/// shared JVM cannot reset (a JDBC driver registered JVM-wide, say) or numbers calls otherwise there.
pub const SHARED_GIVE_UP: usize = 2;

/// How many other seeds a shared pin's call is tried under in a fresh JVM when the fresh JVM
/// numbers it otherwise and the pin's seed does not fail it there (its permutation depends on the
/// number), before the test is searched again in fresh JVMs.
pub const SITE_SEEDS: usize = 3;

/// How many known sites [`Planner::site_first`] tries for one candidate (each costs a run when
/// it does not fail the test).
pub const SITES_TRIED: usize = 2;

/// A call's site for [`Planner::site_first`]: its API and the module's frame (where a repair goes).
fn site_key(k: &IdCall) -> Option<String> {
    k.at.as_ref()
        .map(|at| format!("{} at {}", k.api, at.text()))
}

/// The message `test` failed with in `r` (its first result that did not pass), if it has one.
fn failure_message<'r>(r: &'r IdRecord, test: &str) -> Option<&'r str> {
    r.results
        .iter()
        .filter(|t| t.test == test || crate::model::testid::is_invocation_of(&t.test, test))
        .find(|t| t.outcome != crate::model::outcome::RunOutcome::Pass)
        .and_then(|t| t.message.as_deref())
}

/// `ks` (ascending) as ranges, consecutive invocations joined.
fn as_ranges(ks: &[u64]) -> Vec<Range> {
    let mut out: Vec<Range> = Vec::new();
    for &k in ks {
        match out.last_mut() {
            Some(r) if r[1] + 1 == k => r[1] = k,
            _ => out.push([k, k]),
        }
    }
    out
}

/// One candidate being planned.
struct Candidate {
    test: String,
    failing_seeds: Vec<u64>,
    ids: Vec<usize>,
    /// Experiments of the current search (the budget's count).
    spent: usize,
    /// Every run of this search in a fresh JVM (a pin found in shared JVMs did not repeat).
    fresh: bool,
    /// Why the search in shared JVMs is not reported (a pin a fresh JVM did not repeat, or no pin
    /// from runs in shared JVMs), when it is not: the search runs again in fresh JVMs.
    refuted: Option<String>,
    /// The counted calls it made in its first failing run of phase 1, when the agent said.
    calls: Option<u64>,
}

/// What a candidate's plan stops at: the experiment to run next.
type Stop = Box<IdExperiment>;

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
            consistent_call: None,
            only_call: None,
            shared: false,
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

    /// Asks for `experiment`, saying where the run stands.
    fn run(&self, experiment: IdExperiment) -> IdStep {
        IdStep::Run {
            experiment,
            progress: self.progress,
        }
    }

    fn plan(mut self) -> IdStep {
        let tests = self.request.tests.clone();
        self.progress.phase1_total = self.request.clean_runs as usize + self.request.seeds.len();
        self.progress.budget = self.budget;
        // 1. Phase 1.
        let mut clean = Vec::new();
        for _ in 0..self.request.clean_runs {
            let e = self.experiment(IdKind::Clean, None, tests.clone(), None, Vec::new());
            match self.take(&e) {
                Some(r) => clean.push(r),
                None => return self.run(e),
            }
            self.progress.phase1_done += 1;
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
                None => return self.run(e),
            }
            self.progress.phase1_done += 1;
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
                let calls = shuffled
                    .iter()
                    .find(|(s, _)| *s == failing_seeds[0])
                    .and_then(|(_, r)| Self::test_calls(test, &r.results));
                candidates.push(Candidate {
                    calls,
                    test: test.clone(),
                    failing_seeds,
                    ids: Vec::new(),
                    spent: 0,
                    fresh: !self.request.shared,
                    refuted: None,
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
        self.progress.candidates = Some(candidates.len());
        let (models, fresh): (Vec<usize>, Vec<usize>) = candidates
            .iter()
            .map(|c| self.search_model(c.calls))
            .unzip();
        let (mut took, mut predicted) = (0, 0);
        for (k, mut c) in candidates.into_iter().enumerate() {
            self.progress.candidate = k + 1;
            let search = self.searched(&mut c);
            let left = Self::experiments_left(took, predicted, &models[k..], c.ids.len());
            self.progress.experiments_left = Some(left);
            self.progress.fresh_left = Some(Self::fresh_left(left, &models[k..], &fresh[k..]));
            match search {
                Ok(v) => {
                    took += v.experiments.len();
                    predicted += models[k];
                    if let Some(site) = v
                        .pin
                        .as_ref()
                        .and_then(|p| p.call.as_ref())
                        .and_then(site_key)
                    {
                        match self.sites.iter_mut().find(|(s, _)| *s == site) {
                            Some((_, count)) => *count += 1,
                            None => self.sites.push((site, 1)),
                        }
                        // most shared first; among equals, the first found (the sort is stable)
                        self.sites.sort_by_key(|s| std::cmp::Reverse(s.1));
                    }
                    verdicts.push(v)
                }
                Err(e) => return self.run(*e),
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

    /// A verdict pinned to invocation k under its seed: the test alone once more with every call
    /// permuted as k is (the order that fails it, applied alike to all its calls, as an
    /// implementation keeping one order would): failing, another order fails it; passing, it
    /// fails only when two of its calls disagree (`needs`, and said in its reason).
    ///
    /// `last` is the run that failed with k shuffled (found in a shared JVM: the fresh run that
    /// confirmed it): when it ran in a fresh JVM under the same seed and counted one call only, it
    /// was that run already (its one call permuted as k, no other call to permute), so it
    /// classifies the test without another run.
    fn classify(
        &mut self,
        c: &mut Candidate,
        v: IdVerdict,
        last: &'a IdRecord,
    ) -> Result<IdVerdict, Stop> {
        let mut v = self.confirm_fresh(c, v)?;
        if c.refuted.is_some() {
            return Ok(v);
        }
        let last = if last.experiment.shared {
            let confirmed = c.ids.last().copied();
            match self.records.iter().find(|r| {
                Some(r.experiment.id) == confirmed && r.experiment.kind == IdKind::ConfirmPin
            }) {
                Some(r) => *r,
                None => last,
            }
        } else {
            last
        };
        let Some((seed, k)) = v
            .pin
            .as_ref()
            .and_then(|p| p.invocation.map(|k| (p.seed, k)))
        else {
            return Ok(v);
        };
        let e = &last.experiment;
        if last.count == 1
            && k == 1
            && !e.shared
            && e.seed == Some(seed)
            && e.consistent_call.is_none()
            && e.only.iter().all(|[a, b]| (*a..=*b).contains(&1))
            && self.failed(last, &c.test)
        {
            v.needs = Some(IdNeeds::AnotherOrder);
            v.reason.push_str(&format!(
                "; that run (experiment {}) counted no other call, so it already had every call permuted as invocation 1",
                e.id
            ));
            return Ok(v);
        }
        if c.spent >= self.budget {
            return Ok(v);
        }
        let mut e = self.experiment(
            IdKind::Consistent,
            Some(&c.test),
            vec![c.test.clone()],
            Some(seed),
            Vec::new(),
        );
        e.consistent_call = Some(k);
        let Some(r) = self.take(&e) else {
            return Err(Box::new(e));
        };
        c.ids.push(r.experiment.id);
        c.spent += 1;
        v.experiments = c.ids.clone();
        if let Some(why) = Self::unusable(r) {
            self.note(format!(
                "{} {why}; whether {} needs two calls to disagree is not known",
                r.experiment.describe(),
                c.test
            ));
            return Ok(v);
        }
        match test_passed(&c.test, &r.results) {
            Some(true) => {
                v.needs = Some(IdNeeds::CallsToDisagree);
                v.reason.push_str(&format!(
                    "; with every call permuted as invocation {k} it passes (experiment {}): it fails only when two of its calls return different orders, which a JVM does not do for collections of the same contents and history",
                    r.experiment.id
                ));
            }
            Some(false) => v.needs = Some(IdNeeds::AnotherOrder),
            None => {}
        }
        Ok(v)
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
        if c.spent >= self.budget {
            return Ok(None);
        }
        let order = if kind == IdKind::Confirm {
            self.request.tests.clone()
        } else {
            vec![c.test.clone()]
        };
        let mut e = self.experiment(kind, Some(&c.test), order, seed, only);
        // a run alone only proposes (its pin is confirmed fresh); the full order confirms
        e.shared = !c.fresh && kind != IdKind::Confirm;
        match self.take(&e) {
            Some(r) => {
                c.ids.push(r.experiment.id);
                c.spent += 1;
                Ok(Some(r))
            }
            None => Err(Box::new(e)),
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
            needs: None,
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
            if !c.fresh {
                return Ok(self.no_pin_in_shared(c, r.experiment.id));
            }
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
        let alone_seeds = self.alone_seeds(c);
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
            if !c.fresh {
                let last = *c.ids.last().expect("an alone run was recorded");
                return Ok(self.no_pin_in_shared(c, last));
            }
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
        // (c) The sites earlier candidates were pinned to, when this run shuffled calls there.
        if let Some(v) = self.site_first(c, seed, alone)? {
            return Ok(v);
        }
        // (d) Bisection of [1, N] under that seed.
        self.bisect_all(c, seed, alone)
    }
}

/// Why a bisection stopped at a range.
#[derive(Debug, Clone, Copy)]
enum Why {
    BothHalves,
    Budget,
}

mod bisect;
mod estimate;
mod shared;
mod verdicts;

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
