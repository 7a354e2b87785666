//! Estimates: what is left of a detection run, phase by phase, at the cost its own experiments
//! showed; and what each phase was predicted to cost when it started, against what it cost
//! (`docs/detect.md`, "Estimates").
//!
//! The phases run one after the other but for confirmations, which follow the rounds that need
//! them: rounds (with their confirmations), then one alone run of each OD test at a time, then the
//! explanations. A phase's cost per experiment is the mean of its own experiments so far
//! (`measured`; the last [`RECENT`] rounds, so that rounds in shared JVMs are priced as such once
//! they start), else a cost model (`model`): what a JVM costs beyond its tests' own times, as a
//! line over the number of tests it runs (JUnit and odrust spend a little per test and class:
//! on an 821-test module a whole run's JVM cost 2.1 s beyond its tests, one of a single test
//! 0.4 s), fitted to the fresh JVMs so far (and to the shared ones for shared JVMs), plus the
//! tests an experiment of that phase runs at the baseline's times: the baseline's first test for
//! the first (it pays for initializing what the tests share: an alone run of one test costs far
//! more than a test's share of a round), the mean of the others for each after it (a
//! confirmation runs about half the suite, an alone run one test, an explanation experiment
//! [`explain_tests`]). How many are left is counted (rounds, the confirmations planned, alone
//! runs of the OD tests found) or predicted: explanation experiments per OD test at the median of
//! the OD tests of its kind already explained (the first of related ones, or another; before any,
//! [`prior_explain`]), within what is left of the budget.
//!
//! Every number is of experiment time (a JVM's wall time plus odrust's own around it), one
//! experiment after the other: with `odrust.forks` above 1 the plugin divides what runs in
//! batches (rounds, confirmations, alone runs) by the forks, and explanations by as many as run
//! side by side.

use std::collections::BTreeMap;

use super::config::DEFAULT_MINIMIZE_BUDGET;
use super::phases::{cost_of, Basis, Estimate, PerOdTest, Phase, PhaseEstimate};
use super::replay::Replay;
use super::shared::median;
use crate::explain::minimize::Stage;
use crate::model::experiment::{ExperimentRecord, Isolation};
use crate::model::kind::OdRole;
use crate::schedule::dependence::cost_from_baseline;

/// Rounds priced at the mean of at most this many of the last ones.
pub const RECENT: usize = 5;

/// What an order is expected to cost a shared JVM beyond its tests, per test, before any order
/// ran in one (µs): it starts no JVM, and loads the order's classes in fresh class loaders.
/// Measured: 2.8 ms on an 821-test module (2.3 s for an order of all its tests), 1.9 ms on the
/// 13-test fixture of `detect-forks-shards` (25 ms an order), 1.2 ms on light-4j's 47 tests
/// (whose tests also ran in about half their fresh times there, which this leaves out).
pub const SHARED_PER_TEST_PRIOR_US: u64 = 2_000;

/// The first test of an order in a shared JVM, before any ran there: its initialization beyond
/// the other tests' mean time, as the fresh baseline measured it, divided by this (the JDK and
/// the test framework are warm; the module's classes load anew). Measured on light-4j: 120 ms
/// against 380 ms (and again: a median of 125 ms against 400 ms).
pub const SHARED_INIT_DIVISOR: u64 = 3;

/// Explanation experiments expected for an OD test of a suite of `n` tests before any OD test
/// like it was explained: for the first of OD tests related to each other (the same role, and
/// the same class or failing order: they share polluters and cleaners), a search of the suite
/// for one culprit and one cleaner, `5 ⌈log2(n + 1)⌉ - 1` (docs/minimize-algorithm.md, the cost
/// table measured 34 for 100 tests, 51 for 1,000; this gives 34 and 49); for each other one, its own pair and triple and its
/// share of the runs its cause's victims share, `⌈log2(n + 1)⌉ + 2` (5 to 14 on the benchmark
/// modules). Victims of one polluter that are not related (other classes and failing orders) are
/// each predicted as a first, though they share runs once their polluter is known.
pub fn prior_explain(n: usize, first: bool) -> u32 {
    let bits = bits(n);
    if first {
        5 * bits - 1
    } else {
        bits + 2
    }
}

/// Claims an explanation reports per OD test before any OD test's explanation ended in shared
/// JVMs (`odrust.isolation=classloader`): each polluter, cleaner and state-setter reported runs
/// once more in a fresh JVM (docs/isolation.md), beyond the searches. Measured per OD test: 4 on
/// the detect-forks-shards fixture, 2 on aismessages (before its check refused shared JVMs), 3.2
/// and 5.4 in two runs of light-4j `config`.
pub const CLAIMS_PRIOR: u32 = 3;

/// Tests a claim's fresh run runs: a pair `[p, v]` or `[s, b]`, or a triple `[p, c, v]`.
const CLAIM_TESTS: u64 = 3;

/// `⌈log2(n + 1)⌉`, at least 1: the halvings of a search among `n` tests.
fn bits(n: usize) -> u32 {
    (usize::BITS - n.leading_zeros()).max(1)
}

/// Tests an explanation experiment runs on average, for `n` tests, before any ran: a search
/// for one culprit among the `n` runs about `3.5 n` tests (halves of the prefix, each half that
/// clears once more reversed; the rest forward and reversed; the cleaners' run) in about
/// `3 ⌈log2(n + 1)⌉` experiments, pairs and triples among them. Not half the suite: on a
/// 821-test module that priced explanations 3.7 times too high.
pub fn explain_tests(n: usize) -> u64 {
    let bits = u64::from(bits(n));
    let n = n as u64;
    (7 * n).div_ceil(6 * bits).clamp(1, n.max(1))
}

/// What a JVM costs beyond its tests' own times: `fixed` plus `per_test` (µs) for each test.
#[derive(Debug, Clone, Copy)]
struct Line {
    fixed: u64,
    per_test_us: u64,
}

impl Line {
    fn at(&self, tests: u64) -> u64 {
        self.fixed + self.per_test_us * tests / 1000
    }

    /// The line through `(tests, overhead)` points: the median overhead of each number of
    /// tests, then least squares over those (a slope below 0 taken as 0, one that would start
    /// the line below 0 as the slope through 0). With one number of
    /// tests: its median all `fixed` for fresh JVMs; for shared ones (`per_test`) all per test,
    /// as a shared JVM does not start for an order: on a 821-test module an order of all its
    /// tests cost a shared JVM 2.3 s beyond them, one of a single test 0.06 s, and a constant
    /// priced aismessages' shared alone runs 2 to 3 times too high.
    fn fit(points: &[(u64, u64)], per_test: bool) -> Option<Line> {
        let mut by_size: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
        for &(tests, overhead) in points {
            by_size.entry(tests).or_default().push(overhead);
        }
        let medians: Vec<(f64, f64)> = by_size
            .into_iter()
            .filter_map(|(t, o)| Some((t as f64, median(o)? as f64)))
            .collect();
        let k = medians.len() as f64;
        let (mt, mo) = medians
            .iter()
            .fold((0.0, 0.0), |(a, b), (t, o)| (a + t / k, b + o / k));
        let var: f64 = medians.iter().map(|(t, _)| (t - mt) * (t - mt)).sum();
        let per_test = if medians.len() >= 2 && var > 0.0 {
            let cov: f64 = medians.iter().map(|(t, o)| (t - mt) * (o - mo)).sum();
            // A slope so steep that the line would start below 0 (one slow JVM beside faster
            // smaller ones): the line through 0 and the mean point instead.
            (cov / var)
                .max(0.0)
                .min(if mt > 0.0 { mo / mt } else { 0.0 })
        } else if per_test && mt > 0.0 {
            mo / mt
        } else {
            0.0
        };
        (!medians.is_empty()).then(|| Line {
            fixed: (mo - per_test * mt).max(0.0).round() as u64,
            per_test_us: (per_test * 1000.0).round() as u64,
        })
    }
}

/// The baseline's model: cost per JVM (wall time less tests) and the mean test time.
struct Model {
    jvm: Line,
    /// What an order costs a shared JVM beyond its tests (`odrust.isolation=classloader`), once
    /// one ran there.
    shared: Option<Line>,
    /// The first test of an order in a shared JVM (cheaper than in a fresh one: on light-4j
    /// 120 ms against 380 ms).
    first_shared: Option<u64>,
    /// The first test of a JVM: it pays for initializing what the module's tests share.
    first_ms: u64,
    /// Each test after it.
    rest_ms: u64,
    tests: u64,
}

impl Model {
    fn order(&self, tests: u64) -> u64 {
        match tests {
            0 => self.jvm.at(0),
            n => self.jvm.at(n) + self.first_ms + (n - 1) * self.rest_ms,
        }
    }

    /// An order of `tests` tests in a shared JVM, once an order ran in one.
    fn shared_order(&self, tests: u64) -> Option<u64> {
        let tests = tests.max(1);
        Some(self.shared?.at(tests) + self.first_shared? + (tests - 1) * self.rest_ms)
    }

    /// [`Model::shared_order`], else before any order ran in a shared JVM a prior: what the
    /// fresh JVMs measured less their start, [`SHARED_PER_TEST_PRIOR_US`] per test, and the first
    /// test's initialization beyond the others' mean divided by [`SHARED_INIT_DIVISOR`].
    fn shared_or_prior(&self, tests: u64) -> u64 {
        self.shared_order(tests).unwrap_or_else(|| {
            let tests = tests.max(1);
            let first =
                self.rest_ms + self.first_ms.saturating_sub(self.rest_ms) / SHARED_INIT_DIVISOR;
            SHARED_PER_TEST_PRIOR_US * tests / 1000 + first + (tests - 1) * self.rest_ms
        })
    }
}

fn mean(costs: &[u64]) -> Option<u64> {
    (!costs.is_empty()).then(|| costs.iter().sum::<u64>() / costs.len() as u64)
}

impl Replay {
    /// Takes in a record's time; the first record of a phase first stores what the phase was
    /// predicted to cost from the state before it.
    pub(super) fn log_phase(&mut self, record: &ExperimentRecord) {
        let phase = Phase::of(record.kind);
        if !self.phases.started(phase) && phase != Phase::Baseline {
            // Explanation records are there when minimization ran, whatever the settings of the
            // replay now (a run resumed with minimization off reports the same).
            let estimate = self.estimate_with(false, true);
            if let Some(p) = estimate.phases.iter().find(|p| p.phase == phase) {
                self.phases
                    .predicted
                    .insert(phase, (p.left, p.left_ms, p.basis));
            }
        }
        let cost = cost_of(record);
        self.phases.costs.entry(phase).or_default().push(cost);
        let tests: u64 = record.results.iter().filter_map(|r| r.time_ms).sum();
        // Tests that ran (the line is evaluated at the baseline's count of them).
        let ran = record
            .results
            .iter()
            .filter(|r| r.time_ms.is_some())
            .count();
        let point = (ran as u64, cost.saturating_sub(tests));
        if record.isolation == Isolation::Jvm {
            self.phases.overheads.push(point);
        } else {
            self.phases.shared.entry(phase).or_default().push(cost);
            self.phases.shared_overheads.push(point);
            if let Some(first) = record.results.first().and_then(|r| r.time_ms) {
                self.phases.shared_first.push(first);
            }
        }
    }

    fn model(&self) -> Option<Model> {
        let records: Vec<&ExperimentRecord> = self.baseline_records.iter().collect();
        let cost = cost_from_baseline(&records)?;
        let times: Vec<u64> = records
            .last()?
            .results
            .iter()
            .filter_map(|r| r.time_ms)
            .collect();
        let first_ms = times.first().copied().unwrap_or(0);
        let rest_ms = match times.len() {
            0 | 1 => cost.default_ms(),
            n => (times.iter().sum::<u64>() - first_ms) / (n as u64 - 1),
        };
        // Everything but the tests' own times is what any experiment costs: the JVM's start and
        // exit, and odrust's time around it, and a little per test; the medians over the fresh
        // JVMs so far (the baseline's first JVM alone is often slower than the ones after it).
        Some(Model {
            jvm: Line::fit(&self.phases.overheads, false)?,
            shared: Line::fit(&self.phases.shared_overheads, true),
            first_shared: median(self.phases.shared_first.clone()),
            first_ms,
            rest_ms,
            tests: (cost.test_ms.len() as u64).max(1),
        })
    }

    /// What is left of the run, from the state the history so far led to; with `stop` (the time
    /// budget is spent) only the confirmations under way.
    pub(super) fn estimate(&self, stop: bool) -> Estimate {
        self.estimate_with(stop, self.config.minimize)
    }

    /// [`Replay::estimate`], with an explanation phase when `explaining`.
    fn estimate_with(&self, stop: bool, explaining: bool) -> Estimate {
        let model = self.model();
        let costs = |phase| self.phases.costs.get(&phase).map_or(&[][..], Vec::as_slice);
        let price = |phase, recent: Option<usize>, modelled: Option<u64>| -> (u64, Basis) {
            let own = costs(phase);
            let own = recent.map_or(own, |r| &own[own.len().saturating_sub(r)..]);
            match (mean(own), modelled) {
                (Some(m), _) => (m, Basis::Measured),
                (None, Some(m)) => (m, Basis::Model),
                (None, None) => (0, Basis::Unknown),
            }
        };
        let half = model.as_ref().map(|m| m.order(m.tests.div_ceil(2)));
        let n = self.original.len();
        let mut phases = Vec::new();
        let rounds_done = self.rounds.len() as u32;
        // Rounds stopped by an earlier run's time budget start again when this one has none.
        let rounds_left = if stop {
            0
        } else {
            self.rounds_total().saturating_sub(rounds_done)
        };
        // The plan's prediction only before the first round (describing a systematic schedule
        // walks all of it).
        let round_model = if costs(Phase::Rounds).is_empty() {
            self.plan_info()
                .and_then(|p| Some(p.predicted_ms? / p.orders.max(1)))
                .or_else(|| model.as_ref().map(|m| m.order(m.tests)))
        } else {
            None
        };
        let (round_ms, basis) = price(Phase::Rounds, Some(RECENT), round_model);
        // With `odrust.isolation=classloader` the rounds after the check run in shared JVMs:
        // priced at the last ones that did, else at the model's shared order of a round's tests.
        let (fresh_rounds, shared_rounds) = self.rounds_split(rounds_left);
        let shared_costs = self
            .phases
            .shared
            .get(&Phase::Rounds)
            .map_or(&[][..], Vec::as_slice);
        let round_tests = self
            .plan_info()
            .map(|p| p.executions / p.orders.max(1))
            .or_else(|| model.as_ref().map(|m| m.tests));
        let (shared_round_ms, shared_basis) = match (
            mean(&shared_costs[shared_costs.len().saturating_sub(RECENT)..]),
            &model,
        ) {
            (Some(m), _) => (m, Basis::Measured),
            (None, Some(m)) => (
                m.shared_or_prior(round_tests.unwrap_or(m.tests)),
                Basis::Model,
            ),
            (None, None) => (round_ms, basis),
        };
        let shared_ms = shared_round_ms * u64::from(shared_rounds);
        phases.push(PhaseEstimate {
            phase: Phase::Rounds,
            done: rounds_done,
            left: rounds_left,
            counted: true,
            spent_ms: costs(Phase::Rounds).iter().sum(),
            left_ms: round_ms * u64::from(fresh_rounds) + shared_ms,
            basis: if fresh_rounds == 0 && shared_rounds > 0 {
                shared_basis
            } else {
                basis
            },
            shared: shared_rounds,
            shared_ms,
        });
        // Confirmations: the ones planned now. Later rounds need more only when they find new
        // candidates, fewer and fewer as the rounds go: extrapolating the first rounds' rate
        // predicted 4 to 6 times too many on aismessages.
        let confirm_done = costs(Phase::Confirm).len() as u32;
        let planned = if self.pending.is_empty() {
            0
        } else {
            // What is left of the confirmations the candidates so far need (in the middle of a
            // batch of rounds, too: they come after it).
            self.detection_batch(false)
                .iter()
                .filter(|e| Phase::of(e.kind) == Phase::Confirm)
                .count() as u32
        };
        let (confirm_ms, basis) = price(Phase::Confirm, None, half);
        phases.push(PhaseEstimate {
            phase: Phase::Confirm,
            done: confirm_done,
            left: planned,
            counted: true,
            spent_ms: costs(Phase::Confirm).iter().sum(),
            left_ms: confirm_ms * u64::from(planned),
            basis,
            shared: 0,
            shared_ms: 0,
        });
        // Alone runs: the first of each OD test in a fresh JVM, the later ones in shared JVMs
        // when this run shares them; each kind priced at its own mean, else the model's.
        let (fresh_left, shared_left) = if stop {
            (0, 0)
        } else {
            self.alone_left_split()
        };
        let all = costs(Phase::Alone);
        let shared = self
            .phases
            .shared
            .get(&Phase::Alone)
            .map_or(&[][..], Vec::as_slice);
        let fresh_mean = (all.len() > shared.len()).then(|| {
            (all.iter().sum::<u64>() - shared.iter().sum::<u64>())
                / (all.len() - shared.len()) as u64
        });
        let (alone_ms, alone_basis) = match (fresh_mean, model.as_ref()) {
            (Some(m), _) => (m, Basis::Measured),
            (None, Some(m)) => (m.order(1), Basis::Model),
            (None, None) => (0, Basis::Unknown),
        };
        let (shared_alone_ms, shared_basis) = match (mean(shared), model.as_ref()) {
            (Some(m), _) => (m, Basis::Measured),
            (None, Some(m)) => (m.shared_or_prior(1), Basis::Model),
            (None, None) => (alone_ms, alone_basis),
        };
        phases.push(PhaseEstimate {
            phase: Phase::Alone,
            done: all.len() as u32,
            left: fresh_left + shared_left,
            counted: true,
            spent_ms: all.iter().sum(),
            left_ms: alone_ms * u64::from(fresh_left) + shared_alone_ms * u64::from(shared_left),
            basis: if fresh_left == 0 && shared_left > 0 {
                shared_basis
            } else {
                alone_basis
            },
            shared: 0,
            shared_ms: 0,
        });
        let sharing = self.alone_sharing();
        let per_test_alone_ms = alone_ms
            + u64::from(self.config.alone_runs.saturating_sub(1))
                * if sharing { shared_alone_ms } else { alone_ms };
        // Explanation experiments share JVMs when the rounds did, or are expected to.
        let explain_model = model.as_ref().map(|m| {
            let tests = explain_tests(n);
            if sharing {
                m.shared_or_prior(tests)
            } else {
                m.order(tests)
            }
        });
        let (explain_ms, explain_basis) = price(Phase::Minimize, None, explain_model);
        // Claims' fresh runs, counted where the searches share JVMs and no OD test's explanation
        // has ended yet (after one, an OD test's experiments are measured with its claims, and
        // their mean prices both), each at a fresh order's price.
        let claim_ms = model.as_ref().map_or(explain_ms, |m| m.order(CLAIM_TESTS));
        let left = if explaining {
            self.explain_left(n, sharing)
        } else {
            ExplainLeft::default()
        };
        if explaining {
            let (searches, claims) = if stop {
                (0, 0)
            } else {
                (left.searches, left.claims)
            };
            phases.push(PhaseEstimate {
                phase: Phase::Minimize,
                done: costs(Phase::Minimize).len() as u32,
                left: searches + claims,
                counted: false,
                spent_ms: costs(Phase::Minimize).iter().sum(),
                left_ms: explain_ms * u64::from(searches) + claim_ms * u64::from(claims),
                basis: explain_basis,
                shared: 0,
                shared_ms: 0,
            });
        }
        Estimate {
            left_ms: phases.iter().map(|p| p.left_ms).sum(),
            per_od_test: (rounds_left > 0).then(|| PerOdTest {
                alone: self.config.alone_runs,
                alone_ms: per_test_alone_ms,
                explain: left.per_test + left.per_test_claims,
                explain_ms: explain_ms * u64::from(left.per_test)
                    + claim_ms * u64::from(left.per_test_claims),
            }),
            phases,
        }
    }

    /// Of `left` rounds, those to run in fresh JVMs and those in shared ones. With
    /// `odrust.isolation=classloader` (`shared_after_rounds`) the plugin runs that many rounds
    /// fresh, then its check, then the rest shared when the check passed: once a round ran
    /// shared, all that are left; once more rounds than that ran fresh and none shared, the check
    /// refused the mode and none are.
    fn rounds_split(&self, left: u32) -> (u32, u32) {
        if self.config.shared_after_rounds.is_none() {
            (left, 0)
        } else if self.rounds.iter().any(|r| r.in_jvm) {
            (0, left)
        } else {
            let fresh = self
                .fresh_rounds_before_check()
                .map_or(left, |due| due.min(left));
            (fresh, left - fresh)
        }
    }

    /// Per OD test to explain (NOD tests are not): the experiments spent on it, whether its
    /// explanation has a next experiment, whether it is the first of the OD tests related to
    /// it (`Replay::related`) in the order they are explained, and its polluters: for one
    /// explained, the single polluters it found; for one under way, the polluter whose cleaners
    /// it searches. [`Replay::explain`] is asked only once the explanations began (before,
    /// nothing ran for any OD test and each one is to come), once per OD test.
    fn explanations(&self) -> Vec<Explained> {
        let begun = self.phases.started(Phase::Minimize);
        let explained: Vec<_> = self
            .to_explain()
            .into_iter()
            .filter(|od| self.kind_of(od).role().is_some() || !self.alone_runs_done(od))
            .collect();
        explained
            .iter()
            .enumerate()
            .map(|(i, od)| {
                let spent = self.spent_on(od);
                let first = !explained[..i].iter().any(|o| self.related(o, od));
                let singles = |culprits: Vec<Vec<String>>| -> Vec<String> {
                    let mut singles: Vec<String> = culprits
                        .into_iter()
                        .filter(|g| g.len() == 1)
                        .flatten()
                        .collect();
                    singles.sort();
                    singles
                };
                let (more, polluters, searching) = match begun.then(|| self.explain(od)).flatten() {
                    None => (!begun, Vec::new(), None),
                    Some((e, Some(_))) => match e.stage {
                        Stage::Cleaners { polluter, .. } => {
                            (true, singles(e.culprits), Some(polluter))
                        }
                        _ => (true, Vec::new(), None),
                    },
                    Some((e, None)) => (false, singles(e.culprits), None),
                };
                Explained {
                    spent,
                    more,
                    first,
                    polluters,
                    searching,
                    role: self.kind_of(od).role(),
                }
            })
            .collect()
    }

    /// Explanation experiments expected for an OD test not explained yet, the first of related
    /// ones or not (the median of those of its kind explained, else [`prior_explain`]), and
    /// those left: that many for each OD test to explain (at least one more for one under way),
    /// within what is left of the budget. One under way that searches cleaners of a polluter is
    /// predicted instead at the median of the OD tests of its kind explained with the same
    /// polluters, else with that polluter among theirs: victims of the same polluters cost
    /// alike, and others need not (on light-4j `config` the victims of a polluter with 18
    /// cleaners took 42 to 51 experiments, those of one with none 8 to 11, a victim of both 51; a
    /// median of all made the time left jump up to 25x, and the polluter rule alone 29x when a
    /// victim of both ended first).
    /// With `sharing`, an OD test predicted by the prior also has [`CLAIMS_PRIOR`] claims' fresh
    /// runs, which the budget does not bound (a measured one's are among its experiments).
    fn explain_left(&self, n: usize, sharing: bool) -> ExplainLeft {
        let all = self.explanations();
        let prior = |first: bool| {
            (
                prior_explain(n, first),
                if sharing { CLAIMS_PRIOR } else { 0 },
            )
        };
        let (per_test, searches, claims) = searches_left(&all, prior);
        let budget = self
            .config
            .minimize_budget
            .unwrap_or_else(|| DEFAULT_MINIMIZE_BUDGET.saturating_mul((all.len() as u32).max(1)))
            .saturating_sub(self.budget_used());
        ExplainLeft {
            per_test: per_test.0,
            per_test_claims: per_test.1,
            searches: searches.min(budget),
            claims,
        }
    }
}

/// [`Replay::explain_left`] before the budget: what one more OD test costs (the first of related
/// ones: experiments and claims' fresh runs), and the experiments and claims' fresh runs left
/// for those of `all` under way or to come. `prior(first)` is what an OD test costs before any
/// of its kind was explained. An OD test whose role is known is predicted from those of its role
/// only (a brittle's explanation has no cleaner search, a victim's has: on the fixture of
/// `detect-forks-shards` a victim under way was predicted from the brittle, whose explanation took
/// 14 experiments; its own took 26); one more to come, whose role is not known, from any.
fn searches_left(all: &[Explained], prior: impl Fn(bool) -> (u32, u32)) -> ((u32, u32), u32, u32) {
    let finished = |first: bool, like: &dyn Fn(&Explained) -> bool| -> Vec<u32> {
        all.iter()
            .filter(|e| e.spent > 0 && !e.more && e.first == first && like(e))
            .map(|e| e.spent)
            .collect()
    };
    let measured = |first: bool, role: Option<OdRole>| {
        median(finished(first, &|f| role.is_none() || f.role == role)).map(|m| (m, 0))
    };
    let per_test =
        |first: bool, role: Option<OdRole>| measured(first, role).unwrap_or_else(|| prior(first));
    let (mut searches, mut claims) = (0u32, 0u32);
    for e in all.iter().filter(|e| e.more) {
        let kind = match measured(e.first, e.role) {
            Some(m) => m,
            // One that outran the prior of those that mostly verify what a first found searches
            // as a first does: the firsts' median, else their prior (docs/benchmarks.md, "The
            // time left when victims and brittles are explained together").
            None if !e.first && e.spent >= prior(false).0 => {
                measured(true, e.role).unwrap_or_else(|| prior(true))
            }
            None => prior(e.first),
        };
        // Victims with the same polluters first (a victim of two also claims the other's
        // cleaners), then those with the one whose cleaners it searches (a brittle's culprits
        // are its state-setters, which may be the same tests).
        let (experiments, its_claims) = e
            .searching
            .as_ref()
            .and_then(|p| {
                let same = |f: &Explained| f.role == e.role;
                median(finished(e.first, &|f| {
                    same(f) && f.polluters == e.polluters
                }))
                .or_else(|| median(finished(e.first, &|f| same(f) && f.polluters.contains(p))))
            })
            .map_or(kind, |m| (m, 0));
        searches += experiments.saturating_sub(e.spent).max(1);
        claims += its_claims;
    }
    (per_test(true, None), searches, claims)
}

/// One OD test to explain, as [`Replay::explain_left`] sees it.
#[derive(Debug)]
pub(super) struct Explained {
    /// Explanation experiments spent on it.
    spent: u32,
    /// Whether its explanation has a next experiment (every one's, before explanations began).
    more: bool,
    /// Whether it is the first of the OD tests related to it.
    first: bool,
    /// The single polluters found (sorted): all of them for one explained, those found so far
    /// for one under way that searches cleaners; else none.
    polluters: Vec<String>,
    /// Under way: the polluter whose cleaners it searches, if it does.
    searching: Option<String>,
    /// Victim or brittle, once its alone runs said which.
    role: Option<OdRole>,
}

/// What [`Replay::explain_left`] predicts.
#[derive(Debug, Default)]
struct ExplainLeft {
    /// Explanation experiments of one more OD test (the first of related ones).
    per_test: u32,
    /// Its claims' fresh runs beyond them.
    per_test_claims: u32,
    /// Experiments left, within the budget.
    searches: u32,
    /// Claims' fresh runs left beyond them (outside the budget, as they run: docs/isolation.md).
    claims: u32,
}

#[cfg(test)]
mod tests {
    use super::{searches_left, Explained};
    use crate::model::kind::OdRole;

    /// One explained (`more` false) with these polluters, or one under way that searches the
    /// cleaners of the first of them, having found them all.
    fn od(spent: u32, more: bool, first: bool, polluters: &[&str]) -> Explained {
        let mut sorted: Vec<String> = polluters.iter().map(|p| p.to_string()).collect();
        sorted.sort();
        Explained {
            spent,
            more,
            first,
            polluters: sorted,
            searching: more
                .then(|| polluters.first().map(|p| p.to_string()))
                .flatten(),
            role: Some(OdRole::Victim),
        }
    }

    /// A brittle explained (`more` false) with these state-setters, or one under way.
    fn brittle(spent: u32, more: bool, first: bool, setters: &[&str]) -> Explained {
        Explained {
            role: Some(OdRole::Brittle),
            searching: None,
            ..od(spent, more, first, if more { &[] } else { setters })
        }
    }

    const PRIOR: (u32, u32) = (30, 3);

    #[test]
    fn one_under_way_is_predicted_from_the_explained_ones_of_its_polluter() {
        // light-4j `config` at experiment 522: the victims of polluter `a` (18 cleaners to
        // claim) took 44 and 51; the one of `b` (no cleaner) 11; 17 victims of `b` are under
        // way, 5 spent each, searching `b`'s cleaners. Each ended at 8.
        let mut all = vec![
            od(94, false, true, &["a"]),
            od(44, false, false, &["a"]),
            od(11, false, false, &["b"]),
            od(51, false, false, &["a"]),
        ];
        all.extend((0..17).map(|_| od(5, true, false, &["b"])));
        let (per_test, searches, claims) = searches_left(&all, |_| PRIOR);
        assert_eq!(per_test, (94, 0));
        assert_eq!(searches, 17 * (11 - 5));
        assert_eq!(claims, 0);

        // Before any victim of `b` was explained, the median of every other one (44).
        all[2] = od(11, true, false, &[]);
        let (_, searches, _) = searches_left(&all, |_| PRIOR);
        assert_eq!(searches, 17 * (44 - 5) + (44 - 11));
    }

    #[test]
    fn one_under_way_is_predicted_from_those_with_the_same_polluters_first() {
        // light-4j `config`, the same module at experiment 586 of another run: two victims of
        // both `a` and `b` ended at 51 (they claimed `a`'s 18 cleaners) before the 17 of `b`
        // alone, which the one victim of `b` alone (11) predicts.
        let mut all = vec![
            od(101, false, true, &["a", "b"]),
            od(11, false, false, &["b"]),
            od(51, false, false, &["a", "b"]),
            od(51, false, false, &["a", "b"]),
        ];
        all.extend((0..17).map(|_| od(5, true, false, &["b"])));
        let (_, searches, _) = searches_left(&all, |_| PRIOR);
        assert_eq!(searches, 17 * (11 - 5));

        // None with the same polluters: those with `b` among theirs (51, 51).
        all[1] = od(11, false, false, &["c"]);
        let (_, searches, _) = searches_left(&all, |_| PRIOR);
        assert_eq!(searches, 17 * (51 - 5));
    }

    #[test]
    fn one_whose_polluter_is_unknown_or_new_is_predicted_from_its_kind_or_the_prior() {
        let all = vec![
            od(40, false, true, &["a"]),
            od(9, false, false, &["a"]),
            od(12, false, false, &["a"]),
            // a first under way with a polluter no explained test had: the firsts' median
            od(10, true, true, &["c"]),
            // another still searching culprits: the others' lower median
            od(2, true, false, &[]),
            // one past its kind's median: at least one more
            od(15, true, false, &["c"]),
        ];
        let (_, searches, claims) = searches_left(&all, |_| PRIOR);
        assert_eq!(searches, (40 - 10) + (9 - 2) + 1);
        assert_eq!(claims, 0);

        // No other explained yet: the prior, with its claims.
        let all = vec![od(40, false, true, &["a"]), od(2, true, false, &["a"])];
        let (_, searches, claims) = searches_left(&all, |_| PRIOR);
        assert_eq!((searches, claims), (30 - 2, 3));
    }

    #[test]
    fn one_under_way_is_predicted_from_those_of_its_role() {
        // As on the fixture of `detect-forks-shards`: a brittle ended while its victim searched
        // on. A brittle's explanation has no cleaners.
        let mut all = vec![brittle(15, false, true, &["s"]), od(16, true, true, &[])];
        let (per_test, searches, claims) = searches_left(&all, |_| PRIOR);
        assert_eq!(
            (searches, claims),
            (30 - 16, 3),
            "the prior, not the brittle's 15"
        );
        assert_eq!(
            per_test,
            (15, 0),
            "one to come, of a role not known: any that ended"
        );

        // Searching the cleaners of `s`, which set the brittle's state: not matched to it.
        all[1] = od(16, true, true, &["s"]);
        let (_, searches, _) = searches_left(&all, |_| PRIOR);
        assert_eq!(searches, 30 - 16);

        // Once a victim ended, victims are predicted from it, and a brittle from the brittle.
        all.push(od(28, false, true, &["p"]));
        all.push(brittle(3, true, true, &[]));
        let (per_test, searches, claims) = searches_left(&all, |_| PRIOR);
        assert_eq!((searches, claims), ((28 - 16) + (15 - 3), 0));
        assert_eq!(per_test, (15, 0), "the lower median of 15 and 28");
    }

    #[test]
    fn one_that_outran_the_prior_of_the_others_is_predicted_as_a_first() {
        let prior = |first: bool| if first { (20, 3) } else { (6, 0) };
        // Not a first, 8 spent, none of its kind ended: past the others' prior (6), so the
        // first's prior (20, with its claims), not "one more".
        let all = vec![od(8, true, false, &[])];
        assert_eq!(searches_left(&all, prior).1, 20 - 8);
        assert_eq!(searches_left(&all, prior).2, 3);
        // Within the others' prior: that prior.
        let all = vec![od(4, true, false, &[])];
        assert_eq!(searches_left(&all, prior).1, 6 - 4);
        // A first of its role ended at 12: the firsts' median.
        let all = vec![od(12, false, true, &["a"]), od(8, true, false, &[])];
        assert_eq!(searches_left(&all, prior).1, 12 - 8);
        // One of the others ended: their median, and at least one more past it.
        let all = vec![od(5, false, false, &["a"]), od(8, true, false, &[])];
        assert_eq!(searches_left(&all, prior).1, 1);
    }
}
