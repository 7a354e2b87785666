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
            // The round it confirms ran the same order, uncut.
            let round = round_of(&history, fail);
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
    // then the alone runs, with the same findings as a run that was never stopped.
    config.stop_rounds = false;
    let resumed = detect_with(
        &mut config,
        &suite,
        history.clone(),
        10_000,
        &victim_executor,
        &|_, _| {},
    );
    assert_eq!(resumed[..history.len()], history[..]);
    let (_, uninterrupted) = detect_all(&config, &suite, &victim_executor);
    let summary = detect::summary(&config, &suite, &resumed).unwrap();
    assert_eq!(summary.flaky[0].kind, FlakyKind::VICTIM);
    assert_eq!(summary.rounds_run, 20);
    assert!(summary.notes.is_empty(), "{:?}", summary.notes);
    let found = |s: &detect::Summary| -> Vec<(String, FlakyKind)> {
        s.flaky.iter().map(|f| (f.test.clone(), f.kind)).collect()
    };
    assert_eq!(found(&summary), found(&uninterrupted));
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
        // Four rounds: two random ones, then the reverses of those that passed (a random round
        // reveals the victim half of the time; its reverse whenever it passed).
        let config = DetectConfig {
            rounds: 4,
            ..config(Strategy::ReversePassing, seed)
        };
        let (history, summary) = detect_all(&config, &suite, &victim_executor);
        let rounds: Vec<&ExperimentRecord> = history
            .iter()
            .filter(|r| r.kind == ExperimentKind::Round)
            .collect();
        // Each reverse is the reverse of an earlier random round that passed, reversed once.
        let mut reversed = Vec::new();
        for (at, r) in rounds.iter().enumerate() {
            if r.strategy != Some(Strategy::ReversePassing) {
                assert_eq!(r.strategy, Some(Strategy::RandomClassMethod));
                continue;
            }
            let of = rounds[..at]
                .iter()
                .position(|x| {
                    x.strategy == Some(Strategy::RandomClassMethod)
                        && x.results.iter().all(|t| t.outcome == RunOutcome::Pass)
                        && !reversed.contains(&x.round)
                        && r.order
                            == odrust_engine::schedule::random::reverse_order(&x.order, &index)
                })
                .unwrap_or_else(|| panic!("seed {seed}: round {:?} reverses nothing", r.round));
            reversed.push(rounds[of].round);
        }
        // Every round of the first batch (rounds 1 and 2, random) that passed is reversed.
        let passing = rounds[..2]
            .iter()
            .filter(|x| x.results.iter().all(|t| t.outcome == RunOutcome::Pass))
            .count();
        assert_eq!(
            reversed.iter().filter(|r| **r <= Some(2)).count(),
            passing,
            "seed {seed}"
        );
        assert_eq!(summary.flaky.len(), 1, "seed {seed}");
        let v = &summary.flaky[0];
        assert_eq!(v.kind, FlakyKind::VICTIM);
        let round = round_of(&history, by_id(&history, v.failing_experiment));
        if round.strategy == Some(Strategy::ReversePassing) {
            revealed_by_reverse += 1;
            assert!(
                v.evidence.contains("(the reverse of round "),
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

/// Runs detection a batch at a time, as `odrust.forks` does: every experiment of a batch is run
/// (last first, as if the forks finished in any order), and the records are appended in plan
/// order. Checks along the way that what is left of a batch depends on no outcome of it.
fn detect_in_batches(
    config: &DetectConfig,
    suite: &odrust_engine::model::suite::Suite,
    execute: &dyn Fn(&Experiment) -> Vec<(String, RunOutcome)>,
) -> (Vec<ExperimentRecord>, usize) {
    let flipped = |e: &Experiment| -> Vec<(String, RunOutcome)> {
        execute(e)
            .into_iter()
            .map(|(t, o)| {
                let o = if o == RunOutcome::Pass {
                    RunOutcome::Fail
                } else {
                    RunOutcome::Pass
                };
                (t, o)
            })
            .collect()
    };
    let mut history: Vec<ExperimentRecord> = Vec::new();
    let mut widest = 0;
    loop {
        let step = detect::next(config, suite, &history).unwrap();
        let Some(first) = step.experiment else {
            assert!(step.batch.is_empty());
            break;
        };
        let batch = step.batch;
        assert_eq!(batch[0].experiment, first);
        widest = widest.max(batch.len());
        let mut outcomes: Vec<Option<Vec<(String, RunOutcome)>>> = vec![None; batch.len()];
        for (i, e) in batch.iter().enumerate().rev() {
            outcomes[i] = Some(execute(e));
        }
        for (i, e) in batch.iter().enumerate() {
            let rest = detect::next(config, suite, &history).unwrap().batch;
            assert_eq!(rest, batch[i..], "the rest of a batch changed");
            if i + 1 < batch.len() && e.kind == ExperimentKind::Round {
                // Whatever a round showed, the rest of its batch stays as planned.
                let mut other = history.clone();
                other.push(record(e, flipped(e)));
                let rest = detect::next(config, suite, &other).unwrap().batch;
                assert_eq!(rest, batch[i + 1..], "a batch depends on an outcome in it");
            }
            history.push(record(e, outcomes[i].take().unwrap()));
        }
    }
    (history, widest)
}

#[test]
fn batches_do_not_depend_on_their_own_outcomes_so_any_number_of_forks_runs_the_same_plan() {
    let suite = victim_suite();
    let mut explained = 0;
    for strategy in [
        Strategy::ReversePassing,
        Strategy::RandomClassMethod,
        Strategy::RandomClass,
        Strategy::Tuscan,
        Strategy::PairsAll,
    ] {
        for seed in 0..4 {
            let config = DetectConfig {
                alone_runs: 3,
                ..minimizing(strategy, seed)
            };
            let (one_at_a_time, summary) = detect_all(&config, &suite, &victim_executor);
            let (batched, widest) = detect_in_batches(&config, &suite, &victim_executor);
            assert_eq!(batched, one_at_a_time, "{strategy} seed {seed}");
            assert!(
                widest > 1,
                "{strategy} seed {seed}: no batch of more than one"
            );
            let again = detect::summary(&config, &suite, &batched).unwrap();
            assert_eq!(
                serde_json::to_value(&again).unwrap(),
                serde_json::to_value(&summary).unwrap()
            );
            if summary
                .flaky
                .iter()
                .any(|f| f.test == "p.V#v" && !f.polluters.is_empty())
            {
                explained += 1;
            }
        }
    }
    // Most runs found the victim and explained it: confirmations, alone runs and explanations
    // were checked too, not only rounds.
    assert!(explained >= 15, "{explained} of 20");
}

#[test]
fn rounds_confirmations_and_alone_runs_come_in_batches() {
    let suite = victim_suite();
    let config = DetectConfig {
        alone_runs: 3,
        ..config(Strategy::RandomClassMethod, 2)
    };
    let mut history = Vec::new();
    let mut shapes: Vec<(ExperimentKind, usize)> = Vec::new();
    while let Some(first) = detect::next(&config, &suite, &history).unwrap().experiment {
        let batch = detect::next(&config, &suite, &history).unwrap().batch;
        assert_eq!(batch[0].experiment, first);
        shapes.push((first.kind, batch.len()));
        for e in &batch {
            history.push(record(e, victim_executor(e)));
        }
    }
    // One baseline run (every test passed), 16 then 4 rounds, then the confirmations of every
    // round with a candidate of its batch, then one alone run per OD test at a time.
    assert_eq!(shapes[0], (ExperimentKind::Baseline, 1));
    assert_eq!(shapes[1], (ExperimentKind::Round, 16));
    let rounds: usize = shapes
        .iter()
        .filter(|(k, _)| *k == ExperimentKind::Round)
        .map(|(_, n)| n)
        .sum();
    assert_eq!(rounds, 20);
    let confirm = shapes
        .iter()
        .find(|(k, _)| *k == ExperimentKind::ConfirmFail)
        .unwrap();
    assert_eq!(confirm.1, 2, "one candidate, confirmed once: {shapes:?}");
    let alone: Vec<usize> = shapes
        .iter()
        .filter(|(k, _)| *k == ExperimentKind::Alone)
        .map(|(_, n)| *n)
        .collect();
    assert_eq!(alone, [1, 1, 1]);
}

#[test]
fn a_stop_in_the_middle_of_a_batch_of_alone_runs_starts_no_more_of_them() {
    let suite = named(&[("p.V", &["v", "w"]), ("p.P", &["polluter"])]);
    let execute = |e: &Experiment| -> Vec<(String, RunOutcome)> {
        let mut polluted = false;
        e.order
            .iter()
            .map(|t| {
                polluted |= t == "p.P#polluter";
                let fails = polluted && t.starts_with("p.V#");
                let outcome = if fails {
                    RunOutcome::Fail
                } else {
                    RunOutcome::Pass
                };
                (t.clone(), outcome)
            })
            .collect()
    };
    let mut config = DetectConfig {
        alone_runs: 3,
        ..config(Strategy::RandomClassMethod, 4)
    };
    let mut history = Vec::new();
    loop {
        let step = detect::next(&config, &suite, &history).unwrap();
        let e = step.experiment.expect("alone runs are planned");
        if e.kind == ExperimentKind::Alone {
            // A batch of alone runs, one per OD test; the first one runs, then the budget ends.
            assert_eq!(step.batch.len(), 2, "{:?}", step.batch);
            history.push(record(&e, execute(&e)));
            break;
        }
        history.push(record(&e, execute(&e)));
    }
    config.stop_rounds = true;
    let step = detect::next(&config, &suite, &history).unwrap();
    assert!(
        step.experiment.is_none() && step.batch.is_empty(),
        "{step:?}"
    );
    // Resumed without the budget: the rest of the batch, as planned.
    config.stop_rounds = false;
    let step = detect::next(&config, &suite, &history).unwrap();
    assert_eq!(step.batch.len(), 1);
    assert_eq!(step.batch[0].kind, ExperimentKind::Alone);
    assert_ne!(step.batch[0].targets, history.last().unwrap().targets);
}

#[test]
fn shards_deal_out_the_rounds_of_the_plan_and_together_run_each_once() {
    let suite = victim_suite();
    for strategy in [
        Strategy::RandomClassMethod,
        Strategy::RandomClass,
        Strategy::Tuscan,
        Strategy::PairsAll,
        Strategy::ReversePassing,
    ] {
        for seed in [1, 7] {
            let whole = config(strategy, seed);
            let (history, summary) = detect_all(&whole, &suite, &victim_executor);
            let rounds = |h: &[ExperimentRecord]| -> Vec<(u32, Vec<String>)> {
                h.iter()
                    .filter(|r| r.kind == ExperimentKind::Round)
                    .map(|r| (r.round.unwrap(), r.order.clone()))
                    .collect()
            };
            let mut union: Vec<(u32, Vec<String>)> = Vec::new();
            for index in 1..=3 {
                let shard = DetectConfig {
                    shard: Some(detect::config::Shard { index, count: 3 }),
                    ..whole.clone()
                };
                let (h, s) = detect_all(&shard, &suite, &victim_executor);
                let mine = rounds(&h);
                assert!(
                    mine.iter().all(|(r, _)| (r - 1) % 3 == index - 1),
                    "{strategy} seed {seed} shard {index}: {:?}",
                    mine.iter().map(|(r, _)| r).collect::<Vec<_>>()
                );
                assert_eq!(s.rounds_run as usize, mine.len());
                assert_eq!(s.shard.map(|s| s.index), Some(index));
                union.extend(mine);
            }
            union.sort();
            let mut numbers: Vec<u32> = union.iter().map(|(r, _)| *r).collect();
            numbers.dedup();
            assert_eq!(numbers.len(), union.len(), "a round ran in two shards");
            assert_eq!(
                numbers.len() as u32,
                summary.rounds_run,
                "{strategy} seed {seed}"
            );
            if strategy != Strategy::ReversePassing {
                // Outcomes decide nothing about rounds here: the shards ran the plan's rounds.
                let mut plan = rounds(&history);
                plan.sort();
                assert_eq!(union, plan, "{strategy} seed {seed}");
            }
        }
    }
}

#[test]
fn a_shard_is_k_of_n() {
    use detect::config::Shard;
    assert_eq!(Shard::parse(" 2/3 ").unwrap(), Shard { index: 2, count: 3 });
    for bad in ["3", "0/3", "4/3", "a/b", "1/0", "-1/2"] {
        let e = Shard::parse(bad).unwrap_err();
        assert_eq!(e.code(), "bad-config", "{bad}");
        assert!(e.to_string().contains("shard"), "{e}");
    }
    let s = Shard { index: 2, count: 3 };
    assert_eq!((s.share(20), s.share(2), s.share(1)), (7, 1, 0));
    assert_eq!((s.round(0), s.round(1), s.round(6)), (2, 5, 20));
}

fn shard_run(
    config: &DetectConfig,
    suite: &odrust_engine::model::suite::Suite,
    source: &str,
    version: &str,
) -> serde_json::Value {
    let (history, _) = detect_all(config, suite, &victim_executor);
    let shard = config.shard.map(|s| format!("{}/{}", s.index, s.count));
    serde_json::json!({
        "source": source,
        "odrust_version": version,
        "config": {
            "strategy": config.strategy.name(),
            "rounds": config.rounds,
            "seed": config.seed,
            "alone_runs": config.alone_runs,
            "minimize": config.minimize,
            "shard": shard,
        },
        "suite": suite,
        "history": history,
    })
}

fn merged(
    shards: Vec<serde_json::Value>,
) -> Result<detect::merge::Merged, odrust_engine::error::EngineError> {
    let request: detect::merge::MergeRequest =
        serde_json::from_value(serde_json::json!({ "shards": shards })).unwrap();
    detect::merge::merge(request)
}

#[test]
fn merged_shards_find_what_one_run_finds_and_cover_the_same_pairs() {
    let suite = victim_suite();
    for (strategy, seed) in [(Strategy::Tuscan, 3), (Strategy::RandomClassMethod, 5)] {
        let whole = DetectConfig {
            alone_runs: 3,
            ..minimizing(strategy, seed)
        };
        let (_, one) = detect_all(&whole, &suite, &victim_executor);
        let shards: Vec<serde_json::Value> = [3, 1, 2]
            .iter()
            .map(|&index| {
                let c = DetectConfig {
                    shard: Some(detect::config::Shard { index, count: 3 }),
                    ..whole.clone()
                };
                shard_run(&c, &suite, &format!("shard-{index}"), "0.1.0")
            })
            .collect();
        let m = merged(shards).unwrap();
        assert!(m.complete);
        assert_eq!(
            m.shards.iter().map(|s| s.index).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        let found = |s: &detect::Summary| -> Vec<(String, FlakyKind)> {
            let mut v: Vec<_> = s.flaky.iter().map(|f| (f.test.clone(), f.kind)).collect();
            v.sort_by(|a, b| a.0.cmp(&b.0));
            v
        };
        assert_eq!(found(&m.summary), found(&one), "{strategy}");
        assert_eq!(m.summary.rounds_run, one.rounds_run, "{strategy}");
        assert_eq!(m.summary.pairs, one.pairs, "{strategy}");
        for f in &m.summary.flaky {
            let shard = f.shard.expect("a merged flaky test names its shard");
            assert!(
                f.evidence.starts_with(&format!("shard {shard}: ")),
                "{}",
                f.evidence
            );
        }
        assert!(
            m.summary.notes[0].starts_with("merged from 3 shards"),
            "{:?}",
            m.summary.notes
        );
    }
}

#[test]
fn shards_of_different_plans_missing_or_twice_are_refused_with_what_differs() {
    let suite = victim_suite();
    let shard = |index: u32, seed: u64| DetectConfig {
        shard: Some(detect::config::Shard { index, count: 2 }),
        ..config(Strategy::RandomClassMethod, seed)
    };
    let refused = |shards: Vec<serde_json::Value>| -> String {
        let e = merged(shards).unwrap_err();
        assert_eq!(e.code(), "bad-config");
        assert!(e.is_user_error());
        e.to_string()
    };
    let other_seed = refused(vec![
        shard_run(&shard(1, 4), &suite, "a", "0.1.0"),
        shard_run(&shard(2, 5), &suite, "b", "0.1.0"),
    ]);
    assert!(other_seed.contains("seed: 4 in a, 5 in b"), "{other_seed}");
    let other_version = refused(vec![
        shard_run(&shard(1, 4), &suite, "a", "0.1.0"),
        shard_run(&shard(2, 4), &suite, "b", "0.2.0"),
    ]);
    assert!(
        other_version.contains("odrust version: 0.1.0 in a, 0.2.0 in b"),
        "{other_version}"
    );
    let missing = refused(vec![shard_run(&shard(2, 4), &suite, "b", "0.1.0")]);
    assert!(missing.contains("shard(s) 1 of 2 missing"), "{missing}");
    let twice = refused(vec![
        shard_run(&shard(1, 4), &suite, "a", "0.1.0"),
        shard_run(&shard(1, 4), &suite, "a2", "0.1.0"),
    ]);
    assert!(twice.contains("shard 1 of 2 is given twice"), "{twice}");
    let whole = refused(vec![shard_run(
        &config(Strategy::RandomClassMethod, 4),
        &suite,
        "w",
        "0.1.0",
    )]);
    assert!(whole.contains("w is not a shard"), "{whole}");
    let mut other_suite = suite.clone();
    other_suite.classes.pop();
    let suites = refused(vec![
        shard_run(&shard(1, 4), &suite, "a", "0.1.0"),
        shard_run(&shard(2, 4), &other_suite, "b", "0.1.0"),
    ]);
    assert!(suites.contains("discovered different tests"), "{suites}");
}

// ---- sessions: the replay state kept between calls ----

/// Runs detection to the end asking a session and a full replay at every step, the session fed
/// `chunk(step)` records at a time (at least one); with `stop_after`, the rounds are stopped
/// (time budget) after that many experiments. Returns how many answers were compared.
fn session_against_full_replay(
    config: &DetectConfig,
    suite: &odrust_engine::model::suite::Suite,
    execute: &dyn Fn(&Experiment) -> Vec<(String, RunOutcome)>,
    session: &str,
    chunk: &dyn Fn(usize) -> usize,
    stop_after: Option<usize>,
) -> usize {
    use detect::session::{self, SessionCall};
    let mut config = config.clone();
    let mut history: Vec<ExperimentRecord> = Vec::new();
    let mut sent = 0;
    let mut compared = 0;
    let mut steps = 0;
    loop {
        config.stop_rounds = stop_after.is_some_and(|n| history.len() >= n);
        let full = detect::next(&config, suite, &history).unwrap();
        // The session hears of the records in chunks; in between it is not asked.
        if history.len() - sent >= chunk(steps).max(1) || full.experiment.is_none() {
            let call = |from| SessionCall {
                id: session,
                from,
                suite: (from == 0).then(|| suite.clone()),
                records: &history[from..],
            };
            let kept = session::next(&config, call(sent)).unwrap();
            assert_eq!(
                serde_json::to_value(&kept).unwrap(),
                serde_json::to_value(&full).unwrap(),
                "{session}: next after {} experiments",
                history.len()
            );
            let summary = session::summary(&config, call(history.len())).unwrap();
            assert_eq!(
                serde_json::to_value(&summary).unwrap(),
                serde_json::to_value(detect::summary(&config, suite, &history).unwrap()).unwrap(),
                "{session}: summary after {} experiments",
                history.len()
            );
            sent = history.len();
            compared += 1;
        }
        steps += 1;
        let Some(experiment) = full.experiment else {
            break;
        };
        history.push(record(&experiment, execute(&experiment)));
    }
    assert!(session::end(session), "{session} was kept to the end");
    compared
}

#[test]
fn a_session_answers_what_a_full_replay_of_the_same_history_answers() {
    let victims = victim_suite();
    let brittle = named(&[
        ("p.A", &["a1", "a2"]),
        ("p.S", &["setter", "s2"]),
        ("p.T", &["brittle", "t2"]),
    ]);
    let mut compared = 0;
    for strategy in [
        Strategy::ReversePassing,
        Strategy::RandomClassMethod,
        Strategy::Tuscan,
        Strategy::PairsAll,
    ] {
        for seed in 0..3 {
            let config = DetectConfig {
                alone_runs: 3,
                ..minimizing(strategy, seed)
            };
            let name = format!("session-test-{strategy}-{seed}");
            // One record at a time, then in uneven chunks (a batch of forks appended at once).
            compared += session_against_full_replay(
                &config,
                &victims,
                &victim_executor,
                &name,
                &|_| 1,
                None,
            );
            compared += session_against_full_replay(
                &config,
                &victims,
                &victim_executor,
                &name,
                &|step| 1 + (step * 7 + seed as usize) % 4,
                None,
            );
            compared += session_against_full_replay(
                &config,
                &brittle,
                &brittle_executor,
                &name,
                &|step| 1 + step % 3,
                None,
            );
            // The budget runs out after a few rounds: only stop_rounds changes in the session.
            compared += session_against_full_replay(
                &config,
                &victims,
                &victim_executor,
                &name,
                &|_| 1,
                Some(4 + seed as usize),
            );
        }
    }
    assert!(compared > 500, "{compared} answers compared");
}

#[test]
fn a_session_continued_from_elsewhere_or_with_another_plan_is_refused() {
    let suite = suite();
    let config = serde_json::json!({"strategy": "random-class-method", "rounds": 3, "seed": 5});
    let session = "session-refusals";
    // Without the suite, a session cannot start.
    let (code, message) = err(
        "detect_next",
        serde_json::json!({"config": config, "history": [], "session": session}),
    );
    assert_eq!(code, "bad-request", "{message}");
    assert!(message.contains("suite"), "{message}");
    let step = ok(
        "detect_next",
        serde_json::json!({"config": config, "suite": suite, "history": [], "session": session}),
    );
    let mut baseline = step["experiment"].clone();
    baseline["results"] = serde_json::json!([{"test": "com.acme.CartTest#a", "outcome": "pass"}]);
    // Continued without the suite: the session has it.
    let step = ok(
        "detect_next",
        serde_json::json!({"config": config, "history": [baseline], "session": session,
                           "history_from": 0, "suite": suite}),
    );
    assert_eq!(step["experiment"]["kind"], "round");
    let next = ok(
        "detect_summary",
        serde_json::json!({"config": config, "history": [], "session": session, "history_from": 1}),
    );
    assert_eq!(next["experiments"], 1);
    // The session is at 1 experiment, not 2.
    let (code, message) = err(
        "detect_next",
        serde_json::json!({"config": config, "history": [], "session": session, "history_from": 2}),
    );
    assert_eq!(code, "session-lost", "{message}");
    assert!(message.contains("history_from 0"), "{message}");
    // A mismatch forgets the session: it must start again.
    let (code, _) = err(
        "detect_next",
        serde_json::json!({"config": config, "history": [], "session": session, "history_from": 1}),
    );
    assert_eq!(code, "session-lost");
    ok(
        "detect_next",
        serde_json::json!({"config": config, "suite": suite, "history": [baseline], "session": session}),
    );
    // Another plan in the same session is refused; stop_rounds alone may change.
    let other = serde_json::json!({"strategy": "random-class-method", "rounds": 3, "seed": 6});
    let (code, message) = err(
        "detect_next",
        serde_json::json!({"config": other, "history": [], "session": session, "history_from": 1}),
    );
    assert_eq!(code, "bad-request");
    assert!(message.contains("changed"), "{message}");
    ok(
        "detect_next",
        serde_json::json!({"config": config, "suite": suite, "history": [baseline], "session": session}),
    );
    let stopped = serde_json::json!({"strategy": "random-class-method", "rounds": 3, "seed": 5,
                                     "stop_rounds": true});
    let step = ok(
        "detect_next",
        serde_json::json!({"config": stopped, "history": [], "session": session, "history_from": 1}),
    );
    assert!(step["experiment"].is_null(), "{step}");
    assert_eq!(
        ok("detect_end", serde_json::json!({"session": session}))["ended"],
        true
    );
    assert_eq!(
        ok("detect_end", serde_json::json!({"session": session}))["ended"],
        false
    );
}

// ---- rounds in a shared JVM (odrust.isolation=classloader) ----

#[test]
fn a_round_in_a_shared_jvm_that_a_fresh_jvm_does_not_repeat_is_never_reported() {
    use odrust_engine::model::experiment::Isolation;
    let suite = victim_suite();
    let config = DetectConfig {
        alone_runs: 3,
        ..config(Strategy::RandomClassMethod, 7)
    };
    // Rounds run "in a shared JVM" where p.Y#y1 always fails (state the isolation left behind)
    // and the real victim fails after its polluter; fresh runs show only the victim.
    let mut history: Vec<ExperimentRecord> = Vec::new();
    loop {
        let step = detect::next(&config, &suite, &history).unwrap();
        let Some(e) = step.experiment else { break };
        let mut results = victim_executor(&e);
        let shared = e.kind == ExperimentKind::Round;
        if shared {
            for (test, outcome) in &mut results {
                if test == "p.Y#y1" {
                    *outcome = RunOutcome::Fail;
                }
            }
        }
        let mut r = record(&e, results);
        if shared {
            r.isolation = Isolation::Classloader;
        }
        history.push(r);
    }
    let summary = detect::summary(&config, &suite, &history).unwrap();
    let reported: Vec<&str> = summary.flaky.iter().map(|f| f.test.as_str()).collect();
    assert!(!reported.contains(&"p.Y#y1"), "{reported:?}");
    assert!(
        summary
            .flaky
            .iter()
            .any(|f| f.test == "p.V#v" && f.kind == FlakyKind::VICTIM),
        "{reported:?}"
    );
    let victim = summary.flaky.iter().find(|f| f.test == "p.V#v").unwrap();
    assert!(
        victim
            .evidence
            .contains("in a shared JVM with fresh class loaders"),
        "{}",
        victim.evidence
    );
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.contains("`p.Y#y1` failed in round") && n.contains("fresh JVM")),
        "{:?}",
        summary.notes
    );
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.starts_with("20 of 20 rounds ran in shared JVMs")),
        "{:?}",
        summary.notes
    );
    // The same history read back from JSON: the isolation is part of the record.
    let json = serde_json::to_string(&history).unwrap();
    assert!(json.contains(r#""isolation":"classloader""#));
    let back: Vec<ExperimentRecord> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, history);
}

type Outcomes = Vec<(String, RunOutcome)>;

/// Detection of the victim suite to its end, as the plugin runs a module that passed the
/// isolation check: every shareable experiment "in a shared JVM", where `shared` may change what
/// its tests did.
fn detect_sharing(
    config: &DetectConfig,
    shared: &mut dyn FnMut(&Experiment, &mut Outcomes),
) -> Vec<ExperimentRecord> {
    use odrust_engine::model::experiment::Isolation;
    let suite = victim_suite();
    let mut history: Vec<ExperimentRecord> = Vec::new();
    while let Some(e) = detect::next(config, &suite, &history).unwrap().experiment {
        let mut results = victim_executor(&e);
        if e.shareable {
            shared(&e, &mut results);
        }
        let mut r = record(&e, results);
        if e.shareable {
            r.isolation = Isolation::Classloader;
        }
        history.push(r);
    }
    history
}

#[test]
fn alone_runs_after_the_first_share_a_jvm_and_count_only_when_they_agree_with_the_fresh_one() {
    use odrust_engine::model::experiment::Isolation;
    let suite = victim_suite();
    let config = DetectConfig {
        alone_runs: 3,
        ..config(Strategy::RandomClassMethod, 7)
    };
    let is_alone = |e: &Experiment| e.kind == ExperimentKind::Alone && e.targets == ["p.V#v"];
    let alone_isolation = |history: &[ExperimentRecord]| -> Vec<bool> {
        history
            .iter()
            .filter(|r| r.kind == ExperimentKind::Alone)
            .map(|r| r.isolation == Isolation::Classloader)
            .collect()
    };
    let victim = |history: &[ExperimentRecord]| {
        let summary = detect::summary(&config, &suite, history).unwrap();
        let v = summary
            .flaky
            .iter()
            .find(|f| f.test == "p.V#v")
            .unwrap()
            .clone();
        (v, summary.notes)
    };

    // The victim's first alone run in a shared JVM fails there (state the isolation left
    // behind): it is set aside and the rest run fresh until three counted.
    let mut failed_once = false;
    let history = detect_sharing(&config, &mut |e, results| {
        if is_alone(e) && !failed_once {
            failed_once = true;
            *results = vec![("p.V#v".to_string(), RunOutcome::Fail)];
        }
    });
    assert_eq!(alone_isolation(&history), [false, true, false, false]);
    let (v, notes) = victim(&history);
    assert_eq!(v.kind, FlakyKind::VICTIM, "{}", v.evidence);
    assert_eq!(v.alone.map(|a| (a.runs, a.passed)), Some((3, 3)));
    assert!(
        v.evidence.contains(
            "1 alone run in a shared JVM gave another outcome than the fresh one and was set aside (not counted"
        ),
        "{}",
        v.evidence
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("20 of 20 rounds and 1 alone run ran in shared JVMs")),
        "{notes:?}"
    );

    // Where shared alone runs agree, they count: one fresh run and two shared ones.
    let history = detect_sharing(&config, &mut |_, _| {});
    assert_eq!(alone_isolation(&history), [false, true, true]);
    let (v, notes) = victim(&history);
    assert_eq!(v.kind, FlakyKind::VICTIM);
    assert!(
        v.evidence.contains(
            "passed alone 3/3 (the first in a fresh JVM, 2 in shared JVMs with fresh class loaders)"
        ),
        "{}",
        v.evidence
    );
    assert!(
        notes.iter().any(|n| n.contains(
            "each OD test's first alone run ran in fresh JVMs (a later alone run in a shared JVM counts only when it agrees with the fresh one)"
        )),
        "{notes:?}"
    );

    // A shared alone run that fails where the fresh ones pass never makes the victim NOD.
    let history = detect_sharing(&config, &mut |e, results| {
        if is_alone(e) {
            *results = vec![("p.V#v".to_string(), RunOutcome::Fail)];
        }
    });
    assert_eq!(victim(&history).0.kind, FlakyKind::VICTIM);
}

#[test]
fn one_run_of_the_original_order_confirms_the_candidates_of_every_round_of_a_batch() {
    // Four victims, each failing after its own polluter (any test of class p.Pk before p.Vk#v).
    let suite = named(&[
        ("p.V1", &["v", "x"]),
        ("p.V2", &["v", "x"]),
        ("p.V3", &["v", "x"]),
        ("p.V4", &["v", "x"]),
        ("p.P1", &["p"]),
        ("p.P2", &["p"]),
        ("p.P3", &["p"]),
        ("p.P4", &["p"]),
    ]);
    let execute = |e: &Experiment| {
        let mut ran: HashSet<String> = HashSet::new();
        e.order
            .iter()
            .map(|t| {
                let class = t.split('#').next().unwrap();
                let outcome = match class.strip_prefix("p.V") {
                    Some(k) if t.ends_with("#v") && ran.contains(&format!("p.P{k}")) => {
                        RunOutcome::Fail
                    }
                    _ => RunOutcome::Pass,
                };
                ran.insert(class.to_string());
                (t.clone(), outcome)
            })
            .collect()
    };
    let mut shared = 0;
    for seed in 0..10 {
        let (history, summary) =
            detect_all(&config(Strategy::RandomClassMethod, seed), &suite, &execute);
        assert_eq!(summary.flaky.len(), 4, "seed {seed}: {:?}", summary.flaky);
        // Each block of confirmations: the reruns of the rounds' orders, then one run of the
        // original order for all their candidates.
        let mut at = 0;
        while at < history.len() {
            if !matches!(
                history[at].kind,
                ExperimentKind::ConfirmFail | ExperimentKind::ConfirmPass
            ) {
                at += 1;
                continue;
            }
            let end = (at..history.len())
                .find(|&i| {
                    !matches!(
                        history[i].kind,
                        ExperimentKind::ConfirmFail | ExperimentKind::ConfirmPass
                    )
                })
                .unwrap_or(history.len());
            let block = &history[at..end];
            let (original, reruns): (Vec<_>, Vec<_>) = block
                .iter()
                .partition(|r| r.strategy == Some(Strategy::Original));
            assert_eq!(original.len(), 1, "seed {seed}: {block:?}");
            let original = original[0];
            assert_eq!(original.kind, ExperimentKind::ConfirmPass);
            let mut targets: Vec<&String> = reruns.iter().flat_map(|r| &r.targets).collect();
            targets.sort();
            let mut confirmed: Vec<&String> = original.targets.iter().collect();
            confirmed.sort();
            assert_eq!(confirmed, targets, "seed {seed}");
            let rounds: HashSet<Option<u32>> = reruns.iter().map(|r| r.round).collect();
            assert_eq!(rounds.len(), reruns.len(), "one rerun per round");
            if reruns.len() > 1 {
                // It names no round when it confirms several.
                assert_eq!(original.round, None);
                shared += 1;
            } else {
                assert_eq!(original.round, reruns[0].round);
            }
            at = end;
        }
    }
    assert!(shared > 0, "no batch had candidates in two rounds");
}
