//! The detection planner against simulated executors: classification, determinism, resume.

use std::collections::HashSet;

use odrust_engine::detect::{self, DetectConfig};
use odrust_engine::model::experiment::{Experiment, ExperimentKind, ExperimentRecord};
use odrust_engine::model::kind::FlakyKind;
use odrust_engine::model::outcome::RunOutcome;
use odrust_engine::model::seed::mix;
use odrust_engine::model::strategy::Strategy;
use odrust_engine::model::suite::SuiteIndex;

use crate::support::*;

#[test]
fn victim_with_polluter_and_cleaner_is_classified_victim() {
    let suite = victim_suite();
    for strategy in [
        Strategy::ReversePassing,
        Strategy::RandomClassMethod,
        Strategy::RandomClass,
    ] {
        for seed in 0..8 {
            let (history, summary) = detect_all(&config(strategy, seed), &suite, &victim_executor);
            assert!(summary.failing.is_empty());
            assert_eq!(
                summary.flaky.len(),
                1,
                "{strategy} seed {seed}: {summary:?}"
            );
            let v = &summary.flaky[0];
            assert_eq!(v.test, "p.V#v");
            assert_eq!(v.kind, FlakyKind::VICTIM);
            assert_eq!(v.alone.unwrap().runs, 10);
            assert_eq!(v.alone.unwrap().passed, 10);
            assert_eq!(v.message.as_deref(), Some("p.V#v failed"));
            let fail = by_id(&history, v.failing_experiment);
            assert_eq!(fail.kind, ExperimentKind::ConfirmFail);
            assert_eq!(
                fail.order.last().unwrap(),
                "p.V#v",
                "cut right after the victim"
            );
            let pass = by_id(&history, v.passing_experiment);
            assert_eq!(pass.kind, ExperimentKind::ConfirmPass);
            assert_eq!(pass.order, ["p.X#x1", "p.X#x2", "p.X#x3", "p.V#v"]);
            // The round before the confirmation ran the same order, uncut.
            let round = by_id(&history, v.failing_experiment - 1);
            assert_eq!(round.kind, ExperimentKind::Round);
            assert!(round.order.starts_with(&fail.order));
            let alone: Vec<_> = history
                .iter()
                .filter(|r| r.kind == ExperimentKind::Alone)
                .collect();
            assert_eq!(alone.len(), 10);
            assert!(alone
                .iter()
                .all(|r| r.order == ["p.V#v"] && r.targets == ["p.V#v"]));
            assert_eq!(summary.rounds_run, 20);
            assert!(summary.notes.is_empty(), "{:?}", summary.notes);
            assert!(v.evidence.contains("passed alone 10/10"), "{}", v.evidence);
        }
    }
}

#[test]
fn brittle_without_its_state_setter_is_classified_brittle() {
    let suite = named(&[
        ("p.S", &["setter", "s2"]),
        ("p.T", &["brittle"]),
        ("p.Z", &["z"]),
    ]);
    let execute = brittle_executor;
    for seed in 0..6 {
        let (_, summary) = detect_all(&config(Strategy::ReversePassing, seed), &suite, &execute);
        assert_eq!(summary.flaky.len(), 1, "seed {seed}: {summary:?}");
        assert_eq!(summary.flaky[0].test, "p.T#brittle");
        assert_eq!(summary.flaky[0].kind, FlakyKind::BRITTLE);
        assert_eq!(summary.flaky[0].alone.unwrap().passed, 0);
    }
}

#[test]
fn coin_flip_test_is_nod_and_never_victim_or_brittle() {
    let suite = victim_suite();
    let mut nod_seeds = 0;
    for seed in 0..12u64 {
        let execute = move |e: &Experiment| {
            e.order
                .iter()
                .map(|t| {
                    let coin = mix(seed ^ 0xC01, e.id as u64) & 1 == 0;
                    let outcome = if t == "p.Y#y1" && coin {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    };
                    (t.clone(), outcome)
                })
                .collect()
        };
        let (history, summary) =
            detect_all(&config(Strategy::ReversePassing, seed), &suite, &execute);
        for f in &summary.flaky {
            assert_eq!(f.test, "p.Y#y1");
            assert!(
                !matches!(f.kind, FlakyKind::VICTIM | FlakyKind::BRITTLE),
                "seed {seed}: {f:?}"
            );
            assert_eq!(f.kind, FlakyKind::Nod);
            let failed = by_id(&history, f.failing_experiment);
            let passed = by_id(&history, f.passing_experiment);
            let outcome = |r: &ExperimentRecord| {
                r.results
                    .iter()
                    .find(|x| x.test == "p.Y#y1")
                    .unwrap()
                    .outcome
            };
            if f.alone.is_none() {
                assert_eq!(outcome(failed), RunOutcome::Fail, "seed {seed}: {f:?}");
                assert_eq!(outcome(passed), RunOutcome::Pass, "seed {seed}: {f:?}");
            }
            nod_seeds += 1;
        }
        if summary.flaky.is_empty() {
            // Failed in all three baseline runs.
            assert_eq!(summary.failing.len(), 1, "seed {seed}: {summary:?}");
        }
    }
    assert!(nod_seeds >= 9, "{nod_seeds}");
}

#[test]
fn non_idempotent_test_without_polluter_is_not_flaky() {
    let suite = victim_suite();
    // p.X#x2 fails when it already ran in the same JVM: an order never runs a test twice.
    let execute = |e: &Experiment| {
        let mut ran = HashSet::new();
        e.order
            .iter()
            .map(|t| {
                let again = !ran.insert(t.clone());
                let outcome = if t == "p.X#x2" && again {
                    RunOutcome::Fail
                } else {
                    RunOutcome::Pass
                };
                (t.clone(), outcome)
            })
            .collect()
    };
    let (history, summary) = detect_all(&config(Strategy::ReversePassing, 3), &suite, &execute);
    assert!(
        summary.flaky.is_empty() && summary.failing.is_empty(),
        "{summary:?}"
    );
    assert_eq!(history.len(), 21, "one baseline run and 20 rounds");
}

#[test]
fn always_failing_test_is_failing_and_excluded() {
    let suite = victim_suite();
    let execute = |e: &Experiment| {
        e.order
            .iter()
            .map(|t| {
                let outcome = if t == "p.Y#y2" {
                    RunOutcome::Crash
                } else {
                    RunOutcome::Pass
                };
                (t.clone(), outcome)
            })
            .collect()
    };
    let (history, summary) = detect_all(&config(Strategy::ReversePassing, 5), &suite, &execute);
    assert_eq!(summary.failing.len(), 1);
    assert_eq!(summary.failing[0].test, "p.Y#y2");
    assert_eq!(summary.failing[0].message.as_deref(), Some("p.Y#y2 failed"));
    assert!(summary.flaky.is_empty());
    assert_eq!(
        history.len(),
        3 + 20,
        "three baseline runs, 20 rounds, no confirmation"
    );
    assert!(
        history
            .iter()
            .all(|r| r.order.contains(&"p.Y#y2".to_string())),
        "it stays in orders"
    );
    assert!(
        summary.notes[0].contains("1 test failed in every baseline run"),
        "{:?}",
        summary.notes
    );
}

#[test]
fn same_seed_gives_the_same_experiments_byte_for_byte() {
    let suite = victim_suite();
    let run = |seed| {
        let (history, summary) = detect_all(
            &config(Strategy::ReversePassing, seed),
            &suite,
            &victim_executor,
        );
        (
            serde_json::to_string(&history).unwrap(),
            serde_json::to_string(&summary).unwrap(),
        )
    };
    assert_eq!(run(42), run(42));
    assert_ne!(run(42).0, run(43).0);
}

#[test]
fn resuming_from_a_history_gives_the_uninterrupted_run() {
    let suite = victim_suite();
    let mut config = config(Strategy::ReversePassing, 9);
    let (full, _) = detect_all(&config, &suite, &victim_executor);
    for k in (0..full.len()).step_by(3) {
        let mut partial = detect_with(
            &mut config,
            &suite,
            Vec::new(),
            k,
            &victim_executor,
            &|_, _| {},
        );
        // Reload the history the way the plugin does: from JSON lines.
        let lines: Vec<String> = partial
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .collect();
        partial = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let resumed = detect_with(
            &mut config,
            &suite,
            partial,
            10_000,
            &victim_executor,
            &|_, _| {},
        );
        assert_eq!(resumed, full, "resumed after {k} experiments");
    }
}

#[test]
fn stop_rounds_finishes_confirmations_but_starts_no_alone_run() {
    let suite = victim_suite();
    let mut config = config(Strategy::ReversePassing, 1);
    // Stop the rounds as soon as a round produced candidates.
    let stop = |config: &mut DetectConfig, history: &[ExperimentRecord]| {
        let last = history.last().unwrap();
        if last.kind == ExperimentKind::Round
            && detect::next(config, &suite, history)
                .unwrap()
                .progress
                .candidates
                > 0
        {
            config.stop_rounds = true;
        }
    };
    let history = detect_with(
        &mut config,
        &suite,
        Vec::new(),
        10_000,
        &victim_executor,
        &stop,
    );
    assert!(config.stop_rounds);
    let last_round = history
        .iter()
        .rposition(|r| r.kind == ExperimentKind::Round)
        .unwrap();
    let kinds: Vec<ExperimentKind> = history[last_round + 1..].iter().map(|r| r.kind).collect();
    // The time budget stops every phase but the confirmation of what a round showed: an
    // unconfirmed candidate is never reported.
    assert_eq!(
        kinds,
        [ExperimentKind::ConfirmFail, ExperimentKind::ConfirmPass]
    );
    let summary = detect::summary(&config, &suite, &history).unwrap();
    let rounds = summary.rounds_run;
    assert!(rounds < 20);
    assert_eq!(summary.flaky[0].kind, FlakyKind::Unclassified);
    assert!(
        summary.notes.contains(&format!(
            "stopped after {rounds} of 20 rounds (time budget)"
        )),
        "{:?}",
        summary.notes
    );
    // A later call without the time budget resumes where it stopped: the rest of the rounds,
    // then the alone runs, exactly as a run that was never stopped.
    config.stop_rounds = false;
    let resumed = detect_with(
        &mut config,
        &suite,
        history.clone(),
        10_000,
        &victim_executor,
        &|_, _| {},
    );
    let (uninterrupted, _) = detect_all(&config, &suite, &victim_executor);
    assert_eq!(resumed, uninterrupted);
    let summary = detect::summary(&config, &suite, &resumed).unwrap();
    assert_eq!(summary.flaky[0].kind, FlakyKind::VICTIM);
    assert_eq!(summary.rounds_run, 20);
    // Stopping while a confirmation is pending still runs it.
    let mut config2 = self::config(Strategy::ReversePassing, 1);
    let upto_round = detect_with(
        &mut config2,
        &suite,
        Vec::new(),
        last_round + 1,
        &victim_executor,
        &|_, _| {},
    );
    config2.stop_rounds = true;
    let step = detect::next(&config2, &suite, &upto_round).unwrap();
    assert_eq!(step.experiment.unwrap().kind, ExperimentKind::ConfirmFail);
    assert_eq!(step.progress.phase, detect::Phase::Confirm);
}

#[test]
fn reverse_passing_reverses_passing_orders_and_confirms_the_victim_it_reveals() {
    // Two classes: the victim passes whenever it runs before the polluter.
    let suite = named(&[("p.V", &["v", "w"]), ("p.P", &["polluter"])]);
    let index = SuiteIndex::new(&suite);
    let mut revealed_by_reverse = 0;
    for seed in 0..16 {
        let (history, summary) = detect_all(
            &config(Strategy::ReversePassing, seed),
            &suite,
            &victim_executor,
        );
        let rounds: Vec<&ExperimentRecord> = history
            .iter()
            .filter(|r| r.kind == ExperimentKind::Round)
            .collect();
        for pair in rounds.windows(2) {
            let passed = pair[0]
                .results
                .iter()
                .all(|r| r.outcome == RunOutcome::Pass);
            if passed && pair[0].strategy == Some(Strategy::RandomClassMethod) {
                assert_eq!(pair[1].strategy, Some(Strategy::ReversePassing));
                assert_eq!(
                    pair[1].order,
                    odrust_engine::schedule::random::reverse_order(&pair[0].order, &index)
                );
            } else {
                assert_eq!(pair[1].strategy, Some(Strategy::RandomClassMethod));
            }
        }
        assert_eq!(summary.flaky.len(), 1, "seed {seed}");
        let v = &summary.flaky[0];
        assert_eq!(v.kind, FlakyKind::VICTIM);
        let round = by_id(&history, v.failing_experiment - 1);
        if round.strategy == Some(Strategy::ReversePassing) {
            revealed_by_reverse += 1;
            assert_eq!(
                round.round,
                Some(2),
                "seed {seed}: the first passing round is round 1"
            );
            assert!(
                v.evidence.contains("the reverse of round 1"),
                "{}",
                v.evidence
            );
            let confirm = &by_id(&history, v.failing_experiment).order;
            assert_eq!(confirm.first().unwrap(), "p.P#polluter");
            assert_eq!(
                confirm.last().unwrap(),
                "p.V#v",
                "cut right after the victim"
            );
        }
    }
    assert!(revealed_by_reverse >= 3, "{revealed_by_reverse}");
}

#[test]
fn dynamic_invocation_victim_runs_alone_through_its_container() {
    let mut suite = named(&[("p.D", &["param", "plain"]), ("p.P", &["polluter"])]);
    suite.classes[0].dynamic = vec!["p.D#param".into()];
    let execute = |e: &Experiment| {
        let mut polluted = false;
        let mut results = Vec::new();
        for t in &e.order {
            if t == "p.D#param" {
                for k in 1..=3 {
                    let bad = k == 2 && polluted;
                    let outcome = if bad {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    };
                    results.push((format!("p.D#param[{k}]"), outcome));
                }
            } else {
                polluted |= t == "p.P#polluter";
                results.push((t.clone(), RunOutcome::Pass));
            }
        }
        results
    };
    let (history, summary) = detect_all(&config(Strategy::ReversePassing, 2), &suite, &execute);
    assert_eq!(summary.flaky.len(), 1, "{summary:?}");
    assert_eq!(summary.flaky[0].test, "p.D#param[2]");
    assert_eq!(summary.flaky[0].kind, FlakyKind::VICTIM);
    let fail = by_id(&history, summary.flaky[0].failing_experiment);
    assert_eq!(fail.targets, ["p.D#param[2]"]);
    assert_eq!(fail.order.last().unwrap(), "p.D#param");
    let alone: Vec<_> = history
        .iter()
        .filter(|r| r.kind == ExperimentKind::Alone)
        .collect();
    assert_eq!(alone.len(), 10);
    assert!(alone
        .iter()
        .all(|r| r.order == ["p.D#param"] && r.targets == ["p.D#param[2]"]));
}

#[test]
fn partial_history_reports_unclassified_od_tests() {
    let suite = victim_suite();
    let mut config = config(Strategy::ReversePassing, 4);
    let (full, _) = detect_all(&config, &suite, &victim_executor);
    let first_alone = full
        .iter()
        .position(|r| r.kind == ExperimentKind::Alone)
        .unwrap();
    let partial = detect_with(
        &mut config,
        &suite,
        Vec::new(),
        first_alone + 3,
        &victim_executor,
        &|_, _| {},
    );
    let summary = detect::summary(&config, &suite, &partial).unwrap();
    assert_eq!(summary.flaky[0].kind, FlakyKind::Unclassified);
    assert!(summary.flaky[0].alone.is_none());
    assert!(
        summary.flaky[0]
            .evidence
            .contains("alone runs not finished (3 of 10)"),
        "{}",
        summary.flaky[0].evidence
    );
    assert!(
        summary.notes.iter().any(|n| n.contains("not classified")),
        "{:?}",
        summary.notes
    );
    assert!(
        summary.notes.iter().any(|n| n.contains("not finished")),
        "{:?}",
        summary.notes
    );
    let progress = detect::next(&config, &suite, &partial).unwrap().progress;
    assert_eq!(progress.phase, detect::Phase::Alone);
    assert_eq!((progress.od_found, progress.rounds_done), (1, 20));
}
