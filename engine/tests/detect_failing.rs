//! Tests that fail in every baseline run: when another order makes them pass.

use std::collections::HashSet;

use odrust_engine::detect;
use odrust_engine::model::experiment::{Experiment, ExperimentKind, ExperimentRecord};
use odrust_engine::model::kind::FlakyKind;
use odrust_engine::model::outcome::RunOutcome;
use odrust_engine::model::strategy::Strategy;
use odrust_engine::model::suite::Suite;

use crate::support::*;

// ---- tests that fail in every baseline run: their original order is the failing one ----

/// `p.V#v` and `p.V#w` fail iff `p.P#polluter` ran before them; the original order runs it
/// first, so both fail in every baseline run. `p.Y#broken` fails in every order.
fn polluted_in_original_suite() -> Suite {
    named(&[
        ("p.P", &["polluter", "p2"]),
        ("p.X", &["x1", "x2"]),
        ("p.V", &["v", "w"]),
        ("p.Y", &["y", "broken"]),
    ])
}

fn polluted_in_original_executor(e: &Experiment) -> Vec<(String, RunOutcome)> {
    let mut polluted = false;
    e.order
        .iter()
        .map(|t| {
            polluted |= t == "p.P#polluter";
            let outcome = match t.as_str() {
                "p.V#v" | "p.V#w" if polluted => RunOutcome::Fail,
                "p.Y#broken" => RunOutcome::Error,
                _ => RunOutcome::Pass,
            };
            (t.clone(), outcome)
        })
        .collect()
}

#[test]
fn baseline_failing_victim_whose_polluter_runs_first_is_a_victim_with_that_polluter() {
    let suite = polluted_in_original_suite();
    let original = suite.original_order();
    for strategy in [
        Strategy::ReversePassing,
        Strategy::RandomClassMethod,
        Strategy::RandomClass,
        Strategy::ReverseClass,
    ] {
        for seed in 0..6 {
            let (history, summary) = detect_all(
                &minimizing(strategy, seed),
                &suite,
                &polluted_in_original_executor,
            );
            let what = format!("{strategy} seed {seed}: {summary:?}");
            let failing: Vec<&str> = summary.failing.iter().map(|f| f.test.as_str()).collect();
            assert_eq!(failing, ["p.Y#broken"], "{what}");
            let flaky: Vec<&str> = summary.flaky.iter().map(|f| f.test.as_str()).collect();
            assert_eq!(flaky, ["p.V#v", "p.V#w"], "{what}");
            for v in &summary.flaky {
                assert_eq!(v.kind, FlakyKind::VICTIM, "{what}");
                assert_eq!(v.alone.unwrap().passed, 10);
                assert_eq!(v.polluters, [vec!["p.P#polluter".to_string()]], "{what}");
                assert_eq!(v.message, Some(format!("{} failed", v.test)));
                // The order where it fails is the original one, cut after the last candidate.
                let fail = by_id(&history, v.failing_experiment);
                assert_eq!(fail.kind, ExperimentKind::ConfirmFail);
                assert_eq!(fail.strategy, Some(Strategy::Original));
                assert_eq!(fail.order, original[..6], "cut after p.V#w");
                // The order where it passes is the round's, rerun first.
                let pass = by_id(&history, v.passing_experiment);
                assert_eq!(pass.kind, ExperimentKind::ConfirmPass);
                assert_eq!(v.failing_experiment, v.passing_experiment + 1);
                let round = round_of(&history, pass);
                assert_eq!(round.kind, ExperimentKind::Round);
                assert_eq!(pass.round, round.round);
                assert!(round.order.starts_with(&pass.order));
                assert!(
                    pass.order.ends_with(&["p.V#v".into()])
                        || pass.order.ends_with(&["p.V#w".into()])
                );
                let evidence = format!(
                    "failed in every baseline run (experiments 1, 2, 3) but passed in round {} ",
                    round.round.unwrap()
                );
                assert!(v.evidence.starts_with(&evidence), "{}", v.evidence);
                assert!(v.evidence.contains("passed alone 10/10"), "{}", v.evidence);
            }
            // Both passed in the same round and were confirmed together.
            assert_eq!(
                summary.flaky[0].failing_experiment,
                summary.flaky[1].failing_experiment
            );
            let mut targets = by_id(&history, summary.flaky[0].failing_experiment)
                .targets
                .clone();
            targets.sort();
            assert_eq!(targets, ["p.V#v", "p.V#w"]);
            // The broken test was never a candidate.
            assert!(history
                .iter()
                .filter(|r| !r.kind.is_minimize())
                .all(|r| !r.targets.contains(&"p.Y#broken".to_string())));
            assert!(
                summary.notes[0].contains("1 test failed in every baseline run"),
                "{:?}",
                summary.notes
            );
            assert_no_order_run_twice(&history);
        }
    }
}

#[test]
fn baseline_failing_brittle_whose_setter_runs_after_it_is_a_brittle_with_that_setter() {
    // The original order runs the brittle before its state-setter.
    let suite = named(&[
        ("p.T", &["brittle", "t2"]),
        ("p.Z", &["z"]),
        ("p.S", &["setter", "s2"]),
    ]);
    let execute = brittle_executor;
    for strategy in [Strategy::ReversePassing, Strategy::RandomClassMethod] {
        for seed in 0..6 {
            let (history, summary) = detect_all(&minimizing(strategy, seed), &suite, &execute);
            let what = format!("{strategy} seed {seed}: {summary:?}");
            assert!(summary.failing.is_empty(), "{what}");
            assert_eq!(summary.flaky.len(), 1, "{what}");
            let b = &summary.flaky[0];
            assert_eq!(b.test, "p.T#brittle");
            assert_eq!(b.kind, FlakyKind::BRITTLE, "{what}");
            assert_eq!(b.alone.unwrap().passed, 0);
            assert_eq!(b.state_setters, [vec!["p.S#setter".to_string()]], "{what}");
            assert!(b.polluters.is_empty());
            let fail = by_id(&history, b.failing_experiment);
            assert_eq!(fail.kind, ExperimentKind::ConfirmFail);
            assert_eq!(fail.order, ["p.T#brittle"]);
            let pass = by_id(&history, b.passing_experiment);
            assert_eq!(pass.kind, ExperimentKind::ConfirmPass);
            assert_eq!(pass.order.last().unwrap(), "p.T#brittle");
            assert!(pass.order.contains(&"p.S#setter".to_string()));
            assert!(
                b.evidence.contains("failed in every baseline run"),
                "{}",
                b.evidence
            );
            assert!(b.evidence.contains("failed alone 10/10"), "{}", b.evidence);
            let spent = minimize_records(&history, "p.T#brittle");
            assert!(spent.iter().all(|r| matches!(
                r.kind,
                ExperimentKind::SetterSearch | ExperimentKind::SetterPair
            )));
            assert_eq!(
                b.flake_rate.as_ref().unwrap().case.as_deref(),
                Some("state-setters")
            );
            assert!(summary.notes.is_empty(), "{:?}", summary.notes);
            assert_no_order_run_twice(&history);
        }
    }
}

#[test]
fn test_failing_in_every_order_stays_failing_and_is_never_confirmed() {
    let suite = victim_suite();
    let execute = |e: &Experiment| {
        e.order
            .iter()
            .map(|t| {
                let outcome = if t == "p.X#x2" {
                    RunOutcome::Fail
                } else {
                    RunOutcome::Pass
                };
                (t.clone(), outcome)
            })
            .collect()
    };
    for strategy in [
        Strategy::ReversePassing,
        Strategy::Reverse,
        Strategy::RandomClass,
    ] {
        for seed in 0..4 {
            let (history, summary) = detect_all(&minimizing(strategy, seed), &suite, &execute);
            let failing: Vec<&str> = summary.failing.iter().map(|f| f.test.as_str()).collect();
            assert_eq!(failing, ["p.X#x2"]);
            assert!(summary.flaky.is_empty(), "{summary:?}");
            assert!(history
                .iter()
                .all(|r| matches!(r.kind, ExperimentKind::Baseline | ExperimentKind::Round)));
            assert_eq!(history.len(), 3 + 20);
        }
    }
}

#[test]
fn baseline_failing_test_that_passes_once_by_chance_is_nod() {
    let suite = victim_suite();
    // p.Y#y1 fails in every experiment but the first round (experiment 4); the confirmations of
    // the first batch of rounds (10 rounds, experiments 4 to 13) follow it.
    let execute = |e: &Experiment| {
        e.order
            .iter()
            .map(|t| {
                let outcome = if t == "p.Y#y1" && e.id != 4 {
                    RunOutcome::Fail
                } else {
                    RunOutcome::Pass
                };
                (t.clone(), outcome)
            })
            .collect()
    };
    let (history, summary) = detect_all(&config(Strategy::ReversePassing, 3), &suite, &execute);
    assert!(summary.failing.is_empty(), "{summary:?}");
    assert_eq!(summary.flaky.len(), 1);
    let f = &summary.flaky[0];
    assert_eq!((f.test.as_str(), f.kind), ("p.Y#y1", FlakyKind::Nod));
    assert_eq!((f.failing_experiment, f.passing_experiment), (14, 4));
    assert_eq!(by_id(&history, 14).kind, ExperimentKind::ConfirmPass);
    assert_eq!(by_id(&history, 15).kind, ExperimentKind::ConfirmFail);
    assert!(
        f.evidence
            .contains("but failed when that order was rerun up to it (experiment 14)"),
        "{}",
        f.evidence
    );
    // Found NOD: never a candidate again.
    assert_eq!(history.len(), 3 + 20 + 2);
}

#[test]
fn a_round_with_both_kinds_of_candidates_confirms_both() {
    // p.B#b fails after p.A#a (which runs first in the original order); p.C#c fails after
    // p.D#d (which runs last).
    let suite = named(&[
        ("p.A", &["a"]),
        ("p.B", &["b"]),
        ("p.C", &["c"]),
        ("p.D", &["d"]),
    ]);
    let execute = |e: &Experiment| {
        let mut ran = HashSet::new();
        e.order
            .iter()
            .map(|t| {
                ran.insert(t.as_str());
                let outcome = match t.as_str() {
                    "p.B#b" if ran.contains("p.A#a") => RunOutcome::Fail,
                    "p.C#c" if ran.contains("p.D#d") => RunOutcome::Fail,
                    _ => RunOutcome::Pass,
                };
                (t.clone(), outcome)
            })
            .collect()
    };
    let mut both = 0;
    // Reversing the classes reveals both in round 1; random orders sometimes.
    let runs = (0..30).map(|seed| (Strategy::RandomClass, seed));
    for (strategy, seed) in runs.chain([(Strategy::ReverseClass, 0)]) {
        let (history, summary) = detect_all(&config(strategy, seed), &suite, &execute);
        let found: Vec<(&str, FlakyKind)> = summary
            .flaky
            .iter()
            .map(|f| (f.test.as_str(), f.kind))
            .collect();
        assert_eq!(
            found,
            [("p.B#b", FlakyKind::VICTIM), ("p.C#c", FlakyKind::VICTIM)],
            "seed {seed}: {summary:?}"
        );
        assert!(summary.failing.is_empty());
        let (b, c) = (&summary.flaky[0], &summary.flaky[1]);
        if by_id(&history, b.passing_experiment).round
            == by_id(&history, c.failing_experiment).round
        {
            // The round's order rerun for the failed test, then for the passed failing test;
            // then the original order once for each kind (the failed test's first).
            assert_eq!(c.failing_experiment + 1, b.passing_experiment);
            assert_eq!(b.passing_experiment + 1, c.passing_experiment);
            assert_eq!(c.passing_experiment + 1, b.failing_experiment);
            let progress = detect::next(
                &config(strategy, seed),
                &suite,
                &history[..c.failing_experiment - 1],
            )
            .unwrap()
            .progress;
            assert_eq!(progress.candidates, 2);
            both += 1;
        }
    }
    assert!(both >= 4, "{both}");
}

#[test]
fn baseline_failing_victims_are_deterministic_and_resume() {
    let suite = polluted_in_original_suite();
    let mut config = minimizing(Strategy::ReversePassing, 9);
    let (full, summary) = detect_all(&config, &suite, &polluted_in_original_executor);
    let (again, summary_again) = detect_all(&config, &suite, &polluted_in_original_executor);
    assert_eq!(
        serde_json::to_string(&full).unwrap(),
        serde_json::to_string(&again).unwrap()
    );
    assert_eq!(
        serde_json::to_string(&summary).unwrap(),
        serde_json::to_string(&summary_again).unwrap()
    );
    assert_eq!(summary.flaky.len(), 2);
    for k in 0..full.len() {
        let lines: Vec<String> = full[..k]
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .collect();
        let partial: Vec<ExperimentRecord> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        // A partial history is summarized without error.
        detect::summary(&config, &suite, &partial).unwrap();
        let resumed = detect_with(
            &mut config,
            &suite,
            partial,
            10_000,
            &polluted_in_original_executor,
            &|_, _| {},
        );
        assert_eq!(resumed, full, "resumed after {k} experiments");
    }
    // Between the two confirmations the candidates are pending, and still failing.
    let pass = summary.flaky[0].passing_experiment;
    let partial = detect::summary(&config, &suite, &full[..pass]).unwrap();
    assert!(partial.flaky.is_empty());
    assert_eq!(partial.failing.len(), 3);
    assert!(
        partial
            .notes
            .iter()
            .any(|n| n.contains("2 candidate(s) of round")),
        "{:?}",
        partial.notes
    );
    // A confirm-fail recorded where the confirm-pass of the round's order was planned is refused.
    let mut bad = full.clone();
    bad[pass - 1].kind = ExperimentKind::ConfirmFail;
    let e = detect::summary(&config, &suite, &bad).unwrap_err();
    assert_eq!(e.code(), "bad-history");
}
