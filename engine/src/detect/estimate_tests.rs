//! Estimates on a simulated module whose JVMs cost exactly `COST0` plus `TEST_MS` per test, and
//! `INIT_MS` more for the first test of each JVM (it initializes what the tests share).

use super::estimate::{explain_tests, prior_explain, CLAIMS_PRIOR};
use super::phases::{Basis, Estimate, PhaseEstimate};
use super::tests::suite_of;
use super::*;
use crate::model::experiment::{ExperimentRecord, ExperimentTime, Isolation, TestResult};
use crate::model::outcome::RunOutcome;
use crate::model::strategy::Strategy;
use crate::model::suite::Suite;

const COST0: u64 = 900;
const TEST_MS: u64 = 100;
const INIT_MS: u64 = 400;
/// What an order costs a shared JVM beyond its tests (`odrust.isolation=classloader`), per test
/// it runs: a shared JVM does not start for an order.
const SHARED_PER_TEST: u64 = 20;
/// The first test of an order in a shared JVM: it initializes the module's classes anew, in a
/// warm JVM.
const SHARED_INIT_MS: u64 = 100;

thread_local! {
    /// The tests that fail after `p.A#pollute`: `p.B#victim`, unless a test says otherwise.
    static VICTIMS: std::cell::RefCell<Vec<&'static str>> =
        std::cell::RefCell::new(vec!["p.B#victim"]);
}

fn suite() -> Suite {
    suite_of(&[
        ("p.B", &["victim", "b2"]),
        ("p.A", &["pollute", "a2", "a3"]),
        ("p.C", &["c1", "c2", "c3"]),
    ])
}

/// The victim fails when `p.A#pollute` ran before it; every test takes `TEST_MS`, every JVM
/// `COST0` more, 10 ms of it odrust's own.
fn run(e: &crate::model::experiment::Experiment) -> ExperimentRecord {
    run_in(e, false)
}

/// [`run`], in a shared JVM when `shared`: `SHARED_PER_TEST` for each test instead of `COST0`.
fn run_in(e: &crate::model::experiment::Experiment, shared: bool) -> ExperimentRecord {
    run_costing(e, shared, 0)
}

/// [`run_in`], each JVM costing `per_test` ms more for each test it runs (beyond the tests' own
/// times: JUnit and odrust around each test).
fn run_costing(
    e: &crate::model::experiment::Experiment,
    shared: bool,
    per_test: u64,
) -> ExperimentRecord {
    let init = if shared { SHARED_INIT_MS } else { INIT_MS };
    let mut polluted = false;
    let results = e
        .order
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let pass = !(VICTIMS.with(|v| v.borrow().contains(&t.as_str())) && polluted);
            polluted |= t == "p.A#pollute";
            let outcome = if pass {
                RunOutcome::Pass
            } else {
                RunOutcome::Fail
            };
            TestResult {
                time_ms: Some(TEST_MS + if i == 0 { init } else { 0 }),
                ..TestResult::new(t.clone(), outcome)
            }
        })
        .collect();
    let tests = e.order.len() as u64;
    let base = if shared {
        SHARED_PER_TEST * tests
    } else {
        COST0
    };
    let wall = base + init + (TEST_MS + per_test) * tests;
    ExperimentRecord {
        millis: wall - 10,
        time: Some(ExperimentTime {
            jvm_ms: wall - 10,
            odrust_ms: 10,
            ..ExperimentTime::default()
        }),
        isolation: if shared {
            Isolation::Classloader
        } else {
            Isolation::Jvm
        },
        ..ExperimentRecord::of(e, results)
    }
}

fn config() -> DetectConfig {
    DetectConfig {
        alone_runs: 2,
        minimize: true,
        ..DetectConfig::new(Strategy::RandomClassMethod, 8, 3)
    }
}

/// Runs the module to its end: every step's estimate, then the summary.
fn drive(config: &DetectConfig) -> (Vec<(NextStep, usize)>, Summary) {
    drive_with(config, &run)
}

/// [`drive`], running each experiment with `execute`.
fn drive_with(
    config: &DetectConfig,
    execute: &dyn Fn(&crate::model::experiment::Experiment) -> ExperimentRecord,
) -> (Vec<(NextStep, usize)>, Summary) {
    let suite = suite();
    let mut history = Vec::new();
    let mut steps = Vec::new();
    loop {
        let step = next(config, &suite, &history).unwrap();
        let Some(e) = step.experiment.clone() else {
            steps.push((step, history.len()));
            break;
        };
        steps.push((step, history.len()));
        history.push(execute(&e));
    }
    (steps, summary(config, &suite, &history).unwrap())
}

fn phase(e: &Estimate, p: Phase) -> &PhaseEstimate {
    e.phases.iter().find(|x| x.phase == p).unwrap()
}

#[test]
fn rounds_are_predicted_from_the_baseline_and_match_what_they_cost() {
    let (steps, summary) = drive(&config());
    assert!(
        steps[0].0.estimate.is_none(),
        "nothing to go on before the baseline"
    );
    let after_baseline = steps[1].0.estimate.as_ref().unwrap();
    let rounds = phase(after_baseline, Phase::Rounds);
    assert_eq!((rounds.done, rounds.left, rounds.counted), (0, 8, true));
    assert_eq!(rounds.basis, Basis::Model);
    // A round runs all 8 tests: COST0 + INIT_MS + 8 x TEST_MS, odrust's 10 ms included.
    assert_eq!(rounds.left_ms, 8 * (COST0 + INIT_MS + 8 * TEST_MS));
    let per = after_baseline
        .per_od_test
        .as_ref()
        .expect("rounds may find more");
    // An alone run pays for the first test's initialization too, not a test's share of a round.
    assert_eq!(
        (per.alone, per.alone_ms),
        (2, 2 * (COST0 + INIT_MS + TEST_MS))
    );
    assert_eq!(per.explain, prior_explain(8, true));
    let times: Vec<Phase> = summary.phases.iter().map(|p| p.phase).collect();
    assert_eq!(
        times,
        [
            Phase::Baseline,
            Phase::Rounds,
            Phase::Confirm,
            Phase::Alone,
            Phase::Minimize
        ]
    );
    let rounds = &summary.phases[1];
    assert_eq!(rounds.predicted_experiments, Some(8));
    assert_eq!(rounds.predicted_ms, Some(rounds.actual_ms));
    assert!(
        rounds.text.starts_with("rounds: 8 experiments in "),
        "{}",
        rounds.text
    );
    assert!(
        rounds.text.contains("predicted at its start: 8 in"),
        "{}",
        rounds.text
    );
    assert_eq!(
        summary.phases[0].predicted_ms, None,
        "the baseline is not predicted"
    );
}

#[test]
fn alone_runs_are_counted_and_priced_at_one_test() {
    let (_, summary) = drive(&config());
    let victim = summary
        .flaky
        .iter()
        .find(|f| f.test == "p.B#victim")
        .unwrap();
    assert_eq!(victim.kind, crate::model::kind::FlakyKind::VICTIM);
    let alone = summary
        .phases
        .iter()
        .find(|p| p.phase == Phase::Alone)
        .unwrap();
    assert_eq!(alone.predicted_experiments, Some(alone.experiments));
    assert_eq!(alone.predicted_ms, Some(alone.actual_ms));
    assert_eq!(alone.basis, Some(Basis::Model));
}

#[test]
fn alone_runs_in_shared_jvms_are_priced_as_shared_after_the_first_fresh_one() {
    // As the plugin runs a module that passed the isolation check: every shareable experiment
    // (rounds, alone runs after a test's first, explanation experiments) in a shared JVM.
    let config = DetectConfig {
        alone_runs: 3,
        ..config()
    };
    let (steps, summary) = drive_with(&config, &|e| run_in(e, e.shareable));
    let alone = summary
        .phases
        .iter()
        .find(|p| p.phase == Phase::Alone)
        .unwrap();
    let one_fresh = COST0 + INIT_MS + TEST_MS;
    let one_shared = SHARED_PER_TEST + SHARED_INIT_MS + TEST_MS;
    assert_eq!(alone.experiments, 3);
    assert_eq!(alone.actual_ms, one_fresh + 2 * one_shared);
    assert_eq!(alone.predicted_ms, Some(alone.actual_ms), "{alone:?}");
    // After the first (fresh) alone run: the two left priced as shared ones, from what rounds
    // in shared JVMs cost beyond their tests.
    let after_first = steps
        .iter()
        .filter_map(|(s, _)| s.estimate.as_ref())
        .map(|e| phase(e, Phase::Alone))
        .find(|a| a.done == 1)
        .unwrap();
    assert_eq!((after_first.left, after_first.left_ms), (2, 2 * one_shared));
    // What one more OD test would add once rounds shared JVMs.
    let per = steps
        .iter()
        .filter_map(|(s, _)| s.estimate.as_ref())
        .filter(|e| {
            e.phases
                .iter()
                .any(|p| p.phase == Phase::Rounds && p.done > 2)
        })
        .find_map(|e| e.per_od_test.clone())
        .unwrap();
    assert_eq!(per.alone_ms, one_fresh + 2 * one_shared);
}

#[test]
fn what_is_left_goes_down_to_nothing_and_explanations_stay_within_the_budget() {
    let config = DetectConfig {
        minimize_budget: Some(3),
        ..config()
    };
    let (steps, summary) = drive(&config);
    let last = steps.last().unwrap().0.estimate.as_ref().unwrap();
    assert_eq!(last.left_ms, 0, "{last:?}");
    assert!(last.per_od_test.is_none(), "no round is left to find more");
    for (step, _) in &steps {
        if let Some(e) = &step.estimate {
            if let Some(m) = e.phases.iter().find(|p| p.phase == Phase::Minimize) {
                assert!(m.done + m.left <= 3, "{m:?}");
            }
            assert_eq!(e.left_ms, e.phases.iter().map(|p| p.left_ms).sum::<u64>());
        }
    }
    let explained = summary
        .phases
        .iter()
        .find(|p| p.phase == Phase::Minimize)
        .unwrap();
    assert_eq!(explained.experiments, 3);
    assert_eq!(
        explained.predicted_experiments,
        Some(3),
        "the budget bounds it"
    );
    // While explaining, the cost per experiment is what explanation experiments cost so far.
    let during = steps
        .iter()
        .filter_map(|(s, _)| s.estimate.as_ref())
        .map(|e| phase(e, Phase::Minimize))
        .find(|m| m.done == 1 && m.left > 0)
        .expect("an estimate after the first explanation experiment");
    assert_eq!(during.basis, Basis::Measured);
}

#[test]
fn without_minimization_there_is_no_explanation_phase() {
    let config = DetectConfig {
        minimize: false,
        ..config()
    };
    let (steps, summary) = drive(&config);
    let e = steps[1].0.estimate.as_ref().unwrap();
    assert!(e.phases.iter().all(|p| p.phase != Phase::Minimize));
    assert_eq!(e.per_od_test.as_ref().unwrap().explain, 0);
    assert!(summary.phases.iter().all(|p| p.phase != Phase::Minimize));
}

#[test]
fn the_prior_grows_with_the_logarithm_of_the_suite() {
    // The first of related OD tests searches the suite; the others mostly verify its culprits
    // and cleaners by their own runs.
    assert_eq!(prior_explain(1, true), 4);
    assert_eq!(prior_explain(100, true), 34);
    assert_eq!(prior_explain(1000, true), 49);
    assert_eq!(prior_explain(8, false), 6);
    assert_eq!(prior_explain(900, false), 12);
}

#[test]
fn confirmations_a_batch_of_rounds_needs_are_left_before_the_batch_ends() {
    let (steps, _) = drive(&config());
    let mid_batch = steps
        .iter()
        .filter(|(s, _)| s.progress.candidates > 0)
        .filter(|(s, _)| {
            s.experiment
                .as_ref()
                .is_some_and(|e| e.round.is_some() && Phase::of(e.kind) == Phase::Rounds)
        })
        .map(|(s, _)| phase(s.estimate.as_ref().unwrap(), Phase::Confirm).left)
        .collect::<Vec<u32>>();
    assert!(
        !mid_batch.is_empty(),
        "no round ran after a candidate in its batch"
    );
    assert!(mid_batch.iter().all(|&left| left >= 2), "{mid_batch:?}");
}

#[test]
fn what_a_jvm_costs_per_test_is_fitted_and_an_explanation_experiment_runs_a_part_of_the_suite() {
    // Each JVM costs PER_TEST beyond each test's own time: a whole round's JVM costs more beyond
    // its tests than one of a single test (on an 821-test module 2.1 s against 0.4 s). The
    // baseline and rounds run 8 tests, the confirmation fewer: the line through them prices an
    // alone run of one test exactly.
    const PER_TEST: u64 = 30;
    let (_, summary) = drive_with(&config(), &|e| run_costing(e, false, PER_TEST));
    let of = |p: Phase| summary.phases.iter().find(|x| x.phase == p).unwrap();
    let alone = of(Phase::Alone);
    assert_eq!(alone.actual_ms, 2 * (COST0 + INIT_MS + TEST_MS + PER_TEST));
    assert_eq!(alone.predicted_ms, Some(alone.actual_ms), "{alone:?}");
    // Explanation experiments before any ran: each at explain_tests(8) tests, not half the
    // suite.
    let tests = explain_tests(8);
    assert_eq!(tests, 3);
    let explained = of(Phase::Minimize);
    let each = COST0 + INIT_MS + tests * (TEST_MS + PER_TEST);
    assert_eq!(
        explained.predicted_ms,
        Some(u64::from(explained.predicted_experiments.unwrap()) * each),
        "{explained:?}"
    );
}

#[test]
fn an_explanation_experiment_runs_about_a_ninth_of_a_large_suite() {
    // 3.5 n tests in 3 log2 n experiments.
    assert_eq!(explain_tests(821), 96);
    assert_eq!(explain_tests(47), 10);
    assert_eq!(explain_tests(1), 1);
    assert_eq!(explain_tests(0), 1);
    assert!(explain_tests(10_000) < 10_000 / 10);
}

#[test]
fn related_od_tests_are_predicted_to_cost_less_than_the_first_of_them() {
    // Two victims of one class: the first searches the suite, the other reuses what it found.
    VICTIMS.with(|v| *v.borrow_mut() = vec!["p.B#victim", "p.B#b2"]);
    let (_, summary) = drive(&config());
    VICTIMS.with(|v| *v.borrow_mut() = vec!["p.B#victim"]);
    let victims = summary
        .flaky
        .iter()
        .filter(|f| f.kind == crate::model::kind::FlakyKind::VICTIM)
        .count();
    assert_eq!(victims, 2, "{:?}", summary.flaky);
    let explained = summary
        .phases
        .iter()
        .find(|p| p.phase == Phase::Minimize)
        .unwrap();
    assert_eq!(
        explained.predicted_experiments,
        Some(prior_explain(8, true) + prior_explain(8, false))
    );
}

#[test]
fn claims_fresh_runs_are_predicted_beside_shared_searches() {
    // In shared JVMs each claim an explanation reports runs once more fresh (docs/isolation.md):
    // before any explanation ended, the prior's searches at a shared order's price and
    // `CLAIMS_PRIOR` claims at a fresh one's (the fixture's 8 fresh claim runs were 1.4 s of its
    // 1.9 s of explanations, predicted 0.5 s without them).
    let minimize = |shared: bool| {
        let (_, summary) = drive_with(&config(), &|e| run_in(e, shared && e.shareable));
        summary
            .phases
            .iter()
            .find(|p| p.phase == Phase::Minimize)
            .unwrap()
            .clone()
    };
    let fresh = minimize(false);
    let shared = minimize(true);
    let searches = fresh.predicted_experiments.unwrap();
    assert_eq!(searches, prior_explain(8, true));
    assert_eq!(shared.predicted_experiments, Some(searches + CLAIMS_PRIOR));
    // the one claim (the polluter) ran once more, fresh
    assert_eq!(shared.experiments, fresh.experiments + 1);
    let tests = explain_tests(8);
    let one_search = SHARED_PER_TEST * tests + SHARED_INIT_MS + TEST_MS * tests;
    let one_claim = COST0 + INIT_MS + 3 * TEST_MS;
    assert_eq!(
        shared.predicted_ms,
        Some(u64::from(searches) * one_search + u64::from(CLAIMS_PRIOR) * one_claim),
        "{shared:?}"
    );
}

/// Runs experiments as the plugin does with `odrust.isolation=classloader`: the first `fresh`
/// rounds in fresh JVMs, then every shareable experiment in a shared one when `check_passes`.
fn drive_isolated(
    config: &DetectConfig,
    fresh: u32,
    check_passes: bool,
) -> (Vec<(NextStep, usize)>, Summary) {
    let rounds = std::cell::Cell::new(0u32);
    drive_with(config, &|e| {
        let shared = check_passes && e.shareable && rounds.get() >= fresh;
        if e.kind == crate::model::experiment::ExperimentKind::Round {
            rounds.set(rounds.get() + 1);
        }
        run_in(e, shared)
    })
}

/// The rounds' estimate of the first step after `done` rounds ran.
fn rounds_after(steps: &[(NextStep, usize)], done: u32) -> PhaseEstimate {
    steps
        .iter()
        .filter_map(|(s, _)| s.estimate.as_ref())
        .map(|e| phase(e, Phase::Rounds).clone())
        .find(|r| r.done == done)
        .unwrap()
}

/// What one more OD test adds, as the first step after `done` rounds ran says.
fn per_od_test_after(steps: &[(NextStep, usize)], done: u32) -> phases::PerOdTest {
    steps
        .iter()
        .filter_map(|(s, _)| s.estimate.as_ref())
        .filter(|e| phase(e, Phase::Rounds).done == done)
        .find_map(|e| e.per_od_test.clone())
        .unwrap()
}

#[test]
fn rounds_after_the_isolation_check_are_predicted_in_shared_jvms_before_any_ran() {
    let isolated = DetectConfig {
        shared_after_rounds: Some(2),
        ..config()
    };
    let fresh_round = COST0 + INIT_MS + 8 * TEST_MS;
    // Before any shared JVM: the baseline's times less a JVM's start, a prior per test, and a
    // third of the first test's initialization.
    let prior = estimate::SHARED_PER_TEST_PRIOR_US * 8 / 1000
        + TEST_MS
        + INIT_MS / estimate::SHARED_INIT_DIVISOR
        + 7 * TEST_MS;
    let shared_round = SHARED_PER_TEST * 8 + SHARED_INIT_MS + 8 * TEST_MS;
    let (steps, summary) = drive_isolated(&isolated, 2, true);
    let start = rounds_after(&steps, 0);
    assert_eq!((start.left, start.shared), (8, 6));
    // What an OD test found adds: its first alone run fresh, the other shared at the prior.
    let per = per_od_test_after(&steps, 0);
    let shared_alone = estimate::SHARED_PER_TEST_PRIOR_US / 1000
        + TEST_MS
        + INIT_MS / estimate::SHARED_INIT_DIVISOR;
    assert_eq!(per.alone_ms, COST0 + INIT_MS + TEST_MS + shared_alone);
    assert_eq!(per.explain, prior_explain(8, true) + CLAIMS_PRIOR);
    assert_eq!(start.shared_ms, 6 * prior);
    assert_eq!(start.left_ms, 2 * fresh_round + 6 * prior);
    // After the fresh rounds, before the first shared one: the prior for all that are left.
    let checked = rounds_after(&steps, 2);
    assert_eq!((checked.left, checked.shared), (6, 6));
    assert_eq!(checked.left_ms, 6 * prior);
    assert_eq!(checked.basis, Basis::Model);
    // Once one ran shared: what it cost.
    let measured = rounds_after(&steps, 3);
    assert_eq!(measured.left_ms, 5 * shared_round);
    assert_eq!(measured.basis, Basis::Measured);
    let rounds = summary
        .phases
        .iter()
        .find(|p| p.phase == Phase::Rounds)
        .unwrap();
    assert_eq!(rounds.actual_ms, 2 * fresh_round + 6 * shared_round);
    assert_eq!(rounds.predicted_ms, Some(start.left_ms));
    let ratio = rounds.actual_ms as f64 / start.left_ms as f64;
    assert!((0.9..1.1).contains(&ratio), "{ratio}");

    // Without the setting, the same rounds are all priced fresh: 3 times too high here.
    let (steps, _) = drive_isolated(&config(), 2, true);
    let fresh = steps
        .iter()
        .filter_map(|(s, _)| s.estimate.as_ref())
        .map(|e| phase(e, Phase::Rounds).clone())
        .find(|r| r.done == 0)
        .unwrap();
    assert_eq!((fresh.left_ms, fresh.shared), (8 * fresh_round, 0));
    let per = per_od_test_after(&steps, 0);
    assert_eq!(per.alone_ms, 2 * (COST0 + INIT_MS + TEST_MS));
    assert_eq!(per.explain, prior_explain(8, true), "no claims' fresh runs");
}

#[test]
fn rounds_are_priced_fresh_again_once_the_isolation_check_refused_shared_jvms() {
    let config = DetectConfig {
        shared_after_rounds: Some(2),
        ..config()
    };
    let fresh_round = COST0 + INIT_MS + 8 * TEST_MS;
    let (steps, _) = drive_isolated(&config, 2, false);
    // Round 3 ran fresh: the check said no, and the 5 left run fresh too, as do an OD test's
    // alone runs.
    let refused = rounds_after(&steps, 3);
    assert_eq!((refused.left, refused.shared), (5, 0));
    assert_eq!(refused.left_ms, 5 * fresh_round);
    let per = per_od_test_after(&steps, 3);
    assert_eq!(per.alone_ms, 2 * (COST0 + INIT_MS + TEST_MS));
}
