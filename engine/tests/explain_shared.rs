//! Explanations in shared JVMs (`odrust.isolation=classloader`): explanation experiments may
//! share a JVM, and every claim reported was seen in a fresh one.

use odrust_engine::detect::{self, DetectConfig, Summary};
use odrust_engine::model::experiment::{Experiment, ExperimentKind, ExperimentRecord, Isolation};
use odrust_engine::model::kind::FlakyKind;
use odrust_engine::model::outcome::RunOutcome;
use odrust_engine::model::strategy::Strategy;
use odrust_engine::model::suite::Suite;

use crate::support::*;

/// Runs detection to the end as the plugin does once the module passed the isolation check:
/// explanation experiments and alone runs the planner marks shareable in a shared JVM
/// (`shared`), every other experiment in a fresh one (`fresh`).
fn run(
    config: &DetectConfig,
    suite: &Suite,
    fresh: &dyn Fn(&Experiment) -> Vec<(String, RunOutcome)>,
    shared: &dyn Fn(&Experiment) -> Vec<(String, RunOutcome)>,
) -> (Vec<ExperimentRecord>, Summary) {
    run_costing(config, suite, fresh, shared, &|_, _| 1)
}

/// [`run`], each run taking `millis(experiment, in a shared JVM)`.
fn run_costing(
    config: &DetectConfig,
    suite: &Suite,
    fresh: &dyn Fn(&Experiment) -> Vec<(String, RunOutcome)>,
    shared: &dyn Fn(&Experiment) -> Vec<(String, RunOutcome)>,
    millis: &dyn Fn(&Experiment, bool) -> u64,
) -> (Vec<ExperimentRecord>, Summary) {
    let mut history: Vec<ExperimentRecord> = Vec::new();
    while let Some(e) = detect::next(config, suite, &history).unwrap().experiment {
        assert!(
            !e.shareable
                || matches!(e.kind, ExperimentKind::Round | ExperimentKind::Alone)
                || e.kind.is_minimize(),
            "only rounds, alone runs and explanation experiments may share a JVM: {e:?}"
        );
        if e.kind == ExperimentKind::Round {
            assert!(e.shareable, "{e:?}");
        }
        let in_shared = e.shareable && e.kind != ExperimentKind::Round;
        let mut r = record(&e, if in_shared { shared(&e) } else { fresh(&e) });
        if in_shared {
            r.isolation = Isolation::Classloader;
        }
        r.millis = millis(&e, in_shared);
        history.push(r);
        assert!(history.len() < 5_000, "detection does not end");
    }
    let summary = detect::summary(config, suite, &history).unwrap();
    (history, summary)
}

/// The fresh-JVM run of `order` whose subject `test` showed `passed`, if one ran.
fn fresh_run<'h>(
    history: &'h [ExperimentRecord],
    order: &[String],
) -> Option<&'h ExperimentRecord> {
    history
        .iter()
        .find(|r| r.isolation == Isolation::Jvm && r.order == order)
}

/// Every polluter, cleaner and state-setter reported has a fresh-JVM run that shows it.
fn assert_every_claim_seen_fresh(history: &[ExperimentRecord], summary: &Summary) {
    for t in &summary.flaky {
        let passed = |order: &[String]| {
            fresh_run(history, order).map(|r| {
                r.results
                    .iter()
                    .find(|x| x.test == t.test)
                    .and_then(|x| x.outcome.passed())
            })
        };
        let then = |tests: &[String]| -> Vec<String> {
            let mut o = tests.to_vec();
            o.push(t.test.clone());
            o
        };
        for g in &t.polluters {
            assert_eq!(
                passed(&then(g)),
                Some(Some(false)),
                "polluter {g:?} of {}",
                t.test
            );
        }
        for g in &t.state_setters {
            assert_eq!(
                passed(&then(g)),
                Some(Some(true)),
                "state-setter {g:?} of {}",
                t.test
            );
        }
        for (p, cleaners) in &t.cleaners {
            for c in cleaners {
                assert_eq!(
                    passed(&then(&[p.clone(), c.clone()])),
                    Some(Some(true)),
                    "cleaner {c} of {p} for {}",
                    t.test
                );
            }
        }
    }
}

#[test]
fn explanations_in_shared_jvms_find_what_fresh_jvms_find_and_confirm_each_claim_once() {
    let suite = victim_suite();
    for seed in 0..4 {
        let config = minimizing(Strategy::ReversePassing, seed);
        let (_, fresh_only) = detect_all(&config, &suite, &victim_executor);
        let (history, summary) = run(&config, &suite, &victim_executor, &victim_executor);
        // The same findings; the fresh reruns of the two claims are explanation experiments too.
        let mut found = summary.flaky.clone();
        for (f, g) in found.iter_mut().zip(&fresh_only.flaky) {
            assert_eq!(
                f.minimize_experiments,
                g.minimize_experiments + 2,
                "seed {seed}"
            );
            f.minimize_experiments = g.minimize_experiments;
            // Alone runs after the first shared a JVM, and agreed with the fresh one.
            let shared_alone =
                " (the first in a fresh JVM, 9 in shared JVMs with fresh class loaders)";
            assert!(f.evidence.contains(shared_alone), "{}", f.evidence);
            f.evidence = f.evidence.replace(shared_alone, "");
        }
        assert_eq!(found, fresh_only.flaky, "seed {seed}");
        let v = &summary.flaky[0];
        assert_eq!(v.polluters, [vec!["p.P#polluter".to_string()]]);
        assert_eq!(v.cleaners["p.P#polluter"], ["p.C#cleaner"]);
        assert!(v.minimize_complete);
        assert_every_claim_seen_fresh(&history, &summary);
        let explaining: Vec<&ExperimentRecord> =
            history.iter().filter(|r| r.kind.is_minimize()).collect();
        let shared = explaining
            .iter()
            .filter(|r| r.isolation == Isolation::Classloader)
            .count();
        let fresh: Vec<&&ExperimentRecord> = explaining
            .iter()
            .filter(|r| r.isolation == Isolation::Jvm)
            .collect();
        // One fresh run per claim (a polluter and a cleaner), each the rerun of a shared one.
        assert_eq!(fresh.len(), 2, "seed {seed}: {fresh:?}");
        assert!(shared > 2 * fresh.len(), "seed {seed}: {shared} shared");
        for f in &fresh {
            assert!(explaining
                .iter()
                .any(|r| r.isolation == Isolation::Classloader && r.order == f.order));
        }
        let note = summary
            .notes
            .iter()
            .find(|n| n.contains("explanation experiments ran in shared JVMs"))
            .unwrap_or_else(|| panic!("{:?}", summary.notes));
        assert!(
            note.contains(&format!("{shared} explanation experiments")),
            "{note}"
        );
        assert!(note.contains("(2 runs)"), "{note}");
        assert!(!note.contains("did not repeat"), "{note}");
    }
}

/// A shared JVM that keeps state a fresh one does not: `p.X#x1` pollutes the victim there.
fn x1_pollutes_when_shared(e: &Experiment) -> Vec<(String, RunOutcome)> {
    victim_executor_with(e, &["p.P#polluter", "p.X#x1"])
}

#[test]
fn a_claim_a_fresh_jvm_does_not_repeat_is_never_reported_and_the_test_is_explained_again_fresh() {
    let suite = victim_suite();
    for seed in 0..4 {
        let config = minimizing(Strategy::ReversePassing, seed);
        let (history, summary) = run(&config, &suite, &victim_executor, &x1_pollutes_when_shared);
        let v = &summary.flaky[0];
        assert_eq!(v.kind, FlakyKind::VICTIM);
        assert_eq!(
            v.polluters,
            [vec!["p.P#polluter".to_string()]],
            "seed {seed}: only what a fresh JVM showed"
        );
        assert_eq!(v.cleaners["p.P#polluter"], ["p.C#cleaner"]);
        assert!(v.minimize_complete, "seed {seed}");
        assert_every_claim_seen_fresh(&history, &summary);
        // Once refuted, every later explanation experiment of the victim ran fresh.
        let refuted = history
            .iter()
            .position(|r| {
                r.isolation == Isolation::Jvm
                    && r.kind.is_minimize()
                    && r.order == ["p.X#x1", "p.V#v"]
            })
            .expect("the shared claim was run again in a fresh JVM");
        assert!(history[refuted..]
            .iter()
            .all(|r| r.isolation == Isolation::Jvm));
        assert!(
            summary.notes.iter().any(|n| n.contains(
                "a fresh JVM did not repeat what a shared JVM showed for `p.V#v`: explained again from fresh JVMs alone"
            )),
            "{:?}",
            summary.notes
        );
    }
}

#[test]
fn a_search_that_finds_nothing_in_shared_jvms_is_made_again_in_fresh_ones() {
    let suite = victim_suite();
    // The shared JVM hides the dependency: the victim passes after its polluter there.
    let hides = |e: &Experiment| -> Vec<(String, RunOutcome)> {
        e.order
            .iter()
            .map(|t| (t.clone(), RunOutcome::Pass))
            .collect()
    };
    let config = minimizing(Strategy::ReversePassing, 3);
    let (history, summary) = run(&config, &suite, &victim_executor, &hides);
    let v = &summary.flaky[0];
    assert_eq!(v.polluters, [vec!["p.P#polluter".to_string()]]);
    assert_eq!(v.cleaners["p.P#polluter"], ["p.C#cleaner"]);
    assert_every_claim_seen_fresh(&history, &summary);
    assert!(history
        .iter()
        .any(|r| r.kind.is_minimize() && r.isolation == Isolation::Classloader));
    assert!(
        !summary.notes.iter().any(|n| n.contains("no polluter of")),
        "{:?}",
        summary.notes
    );
}

#[test]
fn a_claim_found_when_the_budget_ends_is_still_confirmed_or_withdrawn() {
    let suite = victim_suite();
    for budget in 1..8 {
        let config = DetectConfig {
            minimize_budget: Some(budget),
            ..minimizing(Strategy::ReversePassing, 1)
        };
        let (history, summary) = run(&config, &suite, &victim_executor, &x1_pollutes_when_shared);
        assert_every_claim_seen_fresh(&history, &summary);
        let spent = history.iter().filter(|r| r.kind.is_minimize()).count() as u32;
        let checks = history
            .iter()
            .filter(|r| r.kind.is_minimize() && r.isolation == Isolation::Jvm)
            .count() as u32;
        assert!(spent <= budget + checks, "budget {budget}: {spent} spent");
    }
}

/// `p.V#v` fails after `p.P#polluter` unless one of six cleaners `p.C#c1..c6` ran between.
fn six_cleaners() -> Suite {
    named(&[
        ("p.X", &["x1", "x2", "x3"]),
        ("p.V", &["v", "v2"]),
        ("p.P", &["polluter", "p2"]),
        ("p.C", &["c1", "c2", "c3", "c4", "c5", "c6"]),
        ("p.Y", &["y1", "y2"]),
    ])
}

/// Claim runs (`[p, t]`, `[p, c, t]`) in shared JVMs cost `shared_claim` ms, in fresh ones 1000.
fn claims_costing(shared_claim: u64) -> impl Fn(&Experiment, bool) -> u64 {
    move |e: &Experiment, in_shared: bool| {
        if !in_shared {
            1000
        } else if e.order.len() <= 3 {
            shared_claim
        } else {
            200
        }
    }
}

#[test]
fn claim_runs_go_to_fresh_jvms_at_once_where_shared_ones_save_nothing() {
    let (suite, execute) = (six_cleaners(), victim_executor);
    for seed in 0..3 {
        let config = minimizing(Strategy::ReversePassing, seed);
        let (_, fresh_only) = detect_all(&config, &suite, &execute);
        let v = &fresh_only.flaky[0];
        assert_eq!(
            v.polluters,
            [vec!["p.P#polluter".to_string()]],
            "seed {seed}"
        );
        assert_eq!(v.cleaners["p.P#polluter"].len(), 6, "seed {seed}");
        // Shared claim runs save nothing here (as on a module whose threads retire a shared JVM
        // after each order), or save most of a fresh JVM.
        let (even, even_summary) =
            run_costing(&config, &suite, &execute, &execute, &claims_costing(1000));
        let (cheap, cheap_summary) =
            run_costing(&config, &suite, &execute, &execute, &claims_costing(100));
        for (history, summary) in [(&even, &even_summary), (&cheap, &cheap_summary)] {
            let (got, want) = (&summary.flaky[0], &fresh_only.flaky[0]);
            assert_eq!(
                (&got.kind, &got.polluters, &got.cleaners),
                (&want.kind, &want.polluters, &want.cleaners),
                "seed {seed}"
            );
            assert!(got.minimize_complete, "seed {seed}");
            assert_every_claim_seen_fresh(history, summary);
        }
        // Fresh claim runs that are not reruns of a shared one.
        let at_once = |history: &[ExperimentRecord]| {
            history
                .iter()
                .enumerate()
                .filter(|(i, r)| {
                    r.kind.is_minimize()
                        && r.isolation == Isolation::Jvm
                        && !history[..*i]
                            .iter()
                            .any(|s| s.isolation == Isolation::Classloader && s.order == r.order)
                })
                .count()
        };
        assert_eq!(at_once(&cheap), 0, "seed {seed}");
        assert!(at_once(&even) >= 3, "seed {seed}: {}", at_once(&even));
        let (again, _) = run_costing(&config, &suite, &execute, &execute, &claims_costing(1000));
        assert_eq!(again, even, "seed {seed}: the same history again");
        // Each claim run at once is one run where shared-then-fresh would be two.
        let explaining =
            |history: &[ExperimentRecord]| history.iter().filter(|r| r.kind.is_minimize()).count();
        assert!(
            explaining(&even) < explaining(&cheap),
            "seed {seed}: {} against {}",
            explaining(&even),
            explaining(&cheap)
        );
        let note = |s: &Summary| {
            s.notes
                .iter()
                .find(|n| n.contains("ran in shared JVMs"))
                .cloned()
                .unwrap_or_default()
        };
        assert!(
            note(&even_summary).contains("so later ones went to a fresh JVM at once: since then"),
            "{}",
            note(&even_summary)
        );
        assert!(
            note(&even_summary)
                .contains("took 1000 ms in a shared JVM and 1000 ms in a fresh one here (medians)"),
            "{}",
            note(&even_summary)
        );
        assert!(
            !note(&cheap_summary).contains("at once"),
            "{}",
            note(&cheap_summary)
        );
    }
}
