//! Minimization through the detection planner: polluters, cleaners, state-setters, budget.

use odrust_engine::detect::{self, DetectConfig};
use odrust_engine::model::experiment::{Experiment, ExperimentKind, ExperimentRecord};
use odrust_engine::model::kind::FlakyKind;
use odrust_engine::model::outcome::RunOutcome;
use odrust_engine::model::strategy::Strategy;

use crate::support::*;

// ---- minimization: polluters, cleaners, state-setters ----

#[test]
fn victim_with_one_polluter_and_one_cleaner_finds_exactly_those() {
    let suite = victim_suite();
    for seed in 0..6 {
        let (history, summary) = detect_all(
            &minimizing(Strategy::ReversePassing, seed),
            &suite,
            &victim_executor,
        );
        assert_eq!(summary.flaky.len(), 1, "seed {seed}: {summary:?}");
        let v = &summary.flaky[0];
        assert_eq!(v.kind, FlakyKind::VICTIM);
        assert_eq!(v.polluters, [vec!["p.P#polluter".to_string()]]);
        assert_eq!(v.cleaners.len(), 1);
        assert_eq!(v.cleaners["p.P#polluter"], ["p.C#cleaner"]);
        assert!(v.state_setters.is_empty());
        assert!(
            v.minimize_complete,
            "seed {seed}: the search ran to the end"
        );
        let spent = minimize_records(&history, "p.V#v");
        assert_eq!(v.minimize_experiments as usize, spent.len());
        assert!(!spent.is_empty() && spent.len() <= 60);
        // Minimization comes last, after every alone run.
        let first = history.iter().position(|r| r.kind.is_minimize()).unwrap();
        assert!(history[first..].iter().all(|r| r.kind.is_minimize()));
        assert!(history[..first]
            .iter()
            .any(|r| r.kind == ExperimentKind::Alone));
        assert_no_order_run_twice(&history);
        // Cleaner runs are [p, C..., v] over the 8 other units, by group testing: one cleaner
        // among 8 costs at most 2·⌈log2 8⌉ + 1 = 7 runs (linear search: 8), and the cleaner
        // is verified by its own triple.
        let cleaner_runs: Vec<_> = spent
            .iter()
            .filter(|r| r.kind == ExperimentKind::Cleaner)
            .collect();
        assert!(
            !cleaner_runs.is_empty() && cleaner_runs.len() <= 7,
            "{cleaner_runs:?}"
        );
        for r in &cleaner_runs {
            assert_eq!(r.order.first().unwrap(), "p.P#polluter");
            assert_eq!(r.order.last().unwrap(), "p.V#v");
            assert_eq!(r.targets[..2], ["p.V#v", "p.P#polluter"]);
            assert_eq!(r.targets[2..], r.order[1..r.order.len() - 1]);
        }
        assert!(history
            .iter()
            .any(|r| r.order == ["p.P#polluter", "p.C#cleaner", "p.V#v"]));
        // The polluter is verified by its pair.
        assert!(history.iter().any(|r| r.order == ["p.P#polluter", "p.V#v"]));
        // Victim, polluter and cleaner each in their own class: special case 2 gives 1/3.
        let rate = v.flake_rate.as_ref().unwrap();
        assert_eq!(
            rate.method,
            odrust_engine::explain::flakerate::Method::Formula
        );
        assert_eq!(rate.case.as_deref(), Some("special-case-2"));
        assert!((rate.all_orders - 1.0 / 3.0).abs() < 1e-12);
        assert!((rate.class_compatible - 1.0 / 3.0).abs() < 1e-12);
        assert!((rate.reverse_of_passing.unwrap() - 0.5).abs() < 1e-12);
        assert!(summary.notes.is_empty(), "{:?}", summary.notes);
        let next = detect::next(
            &minimizing(Strategy::ReversePassing, seed),
            &suite,
            &history,
        );
        assert_eq!(next.unwrap().progress.phase, detect::Phase::Done);
    }
}

#[test]
fn minimize_phase_is_reported_in_progress() {
    let suite = victim_suite();
    let config = minimizing(Strategy::ReversePassing, 3);
    let (full, _) = detect_all(&config, &suite, &victim_executor);
    let first = full.iter().position(|r| r.kind.is_minimize()).unwrap();
    let step = detect::next(&config, &suite, &full[..first]).unwrap();
    assert_eq!(step.progress.phase, detect::Phase::Minimize);
    let json = serde_json::to_value(&step).unwrap();
    assert_eq!(json["progress"]["phase"], "minimize");
    assert!(matches!(
        json["experiment"]["kind"].as_str(),
        Some("polluter-search" | "polluter-pair")
    ));
    assert_eq!(json["experiment"]["targets"][0], "p.V#v");
    assert_eq!(json["experiment"]["strategy"], serde_json::Value::Null);
    // the explanation's share of the budget: none spent yet, of the default for one OD test
    assert_eq!(step.progress.explain_spent, 0);
    assert_eq!(
        step.progress.explain_budget,
        detect::DEFAULT_MINIMIZE_BUDGET
    );
    assert_eq!(step.progress.alone_left, 0);
    let later = detect::next(&config, &suite, &full[..first + 3]).unwrap();
    assert_eq!(later.progress.explain_spent, 3);
    // during the alone runs: what is left of them (10 configured, one OD test)
    let alone = full
        .iter()
        .position(|r| r.kind == ExperimentKind::Alone)
        .unwrap();
    let step = detect::next(&config, &suite, &full[..alone + 1]).unwrap();
    assert_eq!(step.progress.alone_left, config.alone_runs - 1);
}

#[test]
fn victim_needing_two_polluters_together_gets_a_group() {
    let suite = named(&[
        ("p.X", &["x1", "x2"]),
        ("p.V", &["v"]),
        ("p.P", &["p"]),
        ("p.Q", &["q"]),
        ("p.Y", &["y1", "y2"]),
    ]);
    let execute = |e: &Experiment| {
        let (mut p, mut q) = (false, false);
        e.order
            .iter()
            .map(|t| {
                p |= t == "p.P#p";
                q |= t == "p.Q#q";
                let outcome = if t == "p.V#v" && p && q {
                    RunOutcome::Fail
                } else {
                    RunOutcome::Pass
                };
                (t.clone(), outcome)
            })
            .collect()
    };
    let mut found = 0;
    for seed in 0..8 {
        let (history, summary) = detect_all(
            &minimizing(Strategy::ReversePassing, seed),
            &suite,
            &execute,
        );
        let Some(v) = summary.flaky.first() else {
            continue;
        };
        found += 1;
        assert_eq!(v.kind, FlakyKind::VICTIM);
        assert_eq!(v.polluters.len(), 1, "{v:?}");
        let mut group = v.polluters[0].clone();
        group.sort();
        assert_eq!(group, ["p.P#p", "p.Q#q"]);
        assert!(
            v.cleaners.is_empty(),
            "cleaners are searched for single polluters only"
        );
        assert!(history.iter().all(|r| r.kind != ExperimentKind::Cleaner));
        let rate = v.flake_rate.as_ref().unwrap();
        assert_eq!(
            rate.method,
            odrust_engine::explain::flakerate::Method::Exact
        );
        // v after both p and q: 1/3 of the orders of three tests in three classes.
        assert!((rate.all_orders - 1.0 / 3.0).abs() < 1e-12);
        assert_no_order_run_twice(&history);
    }
    assert!(found >= 3, "{found}");
}

#[test]
fn brittle_with_a_state_setter_finds_it() {
    let suite = named(&[
        ("p.S", &["setter", "s2"]),
        ("p.T", &["brittle"]),
        ("p.Z", &["z"]),
    ]);
    let execute = brittle_executor;
    for seed in 0..4 {
        let (history, summary) = detect_all(
            &minimizing(Strategy::ReversePassing, seed),
            &suite,
            &execute,
        );
        let b = &summary.flaky[0];
        assert_eq!(b.kind, FlakyKind::BRITTLE);
        assert_eq!(b.state_setters, [vec!["p.S#setter".to_string()]]);
        assert!(b.polluters.is_empty() && b.cleaners.is_empty());
        let spent = minimize_records(&history, "p.T#brittle");
        assert_eq!(b.minimize_experiments as usize, spent.len());
        assert!(spent.iter().all(|r| matches!(
            r.kind,
            ExperimentKind::SetterSearch | ExperimentKind::SetterPair
        )));
        let rate = b.flake_rate.as_ref().unwrap();
        assert_eq!(rate.case.as_deref(), Some("state-setters"));
        assert!((rate.all_orders - 0.5).abs() < 1e-12);
        assert_no_order_run_twice(&history);
    }
}

#[test]
fn minimization_respects_its_budget_and_says_so() {
    let suite = victim_suite();
    let config = DetectConfig {
        minimize_budget: Some(3),
        ..minimizing(Strategy::ReversePassing, 2)
    };
    let (history, summary) = detect_all(&config, &suite, &victim_executor);
    let v = &summary.flaky[0];
    assert_eq!(minimize_records(&history, "p.V#v").len(), 3);
    assert_eq!(v.minimize_experiments, 3);
    assert!(!v.minimize_complete, "cut short by the budget");
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.contains("the run's budget of 3 explanation experiments is spent")),
        "{:?}",
        summary.notes
    );
}

#[test]
fn minimize_only_and_stop_rounds_limit_minimization() {
    let suite = victim_suite();
    let only = DetectConfig {
        minimize_only: Some(vec!["p.X#x1".into()]),
        ..minimizing(Strategy::ReversePassing, 2)
    };
    let (history, summary) = detect_all(&only, &suite, &victim_executor);
    assert!(history.iter().all(|r| !r.kind.is_minimize()));
    assert!(summary.flaky[0].polluters.is_empty());
    assert!(summary.flaky[0].flake_rate.is_none());
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.contains("minimize_only names `p.X#x1`")),
        "{:?}",
        summary.notes
    );
    let stopped = DetectConfig {
        stop_rounds: true,
        ..minimizing(Strategy::ReversePassing, 2)
    };
    let (full, _) = detect_all(
        &minimizing(Strategy::ReversePassing, 2),
        &suite,
        &victim_executor,
    );
    let first = full.iter().position(|r| r.kind.is_minimize()).unwrap();
    let step = detect::next(&stopped, &suite, &full[..first + 2]).unwrap();
    assert!(
        step.experiment.is_none(),
        "stop_rounds starts no minimization experiment"
    );
    // The history with minimization experiments is still accepted.
    let summary = detect::summary(&stopped, &suite, &full[..first + 2]).unwrap();
    assert_eq!(summary.flaky[0].minimize_experiments, 2);
}

#[test]
fn minimization_is_deterministic_and_resumes() {
    let suite = victim_suite();
    let mut config = minimizing(Strategy::ReversePassing, 9);
    let (full, summary) = detect_all(&config, &suite, &victim_executor);
    let (again, summary_again) = detect_all(&config, &suite, &victim_executor);
    assert_eq!(
        serde_json::to_string(&full).unwrap(),
        serde_json::to_string(&again).unwrap()
    );
    assert_eq!(
        serde_json::to_string(&summary).unwrap(),
        serde_json::to_string(&summary_again).unwrap()
    );
    let first = full.iter().position(|r| r.kind.is_minimize()).unwrap();
    for k in first - 1..full.len() {
        let lines: Vec<String> = full[..k]
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .collect();
        let partial: Vec<ExperimentRecord> = lines
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
    // Explanation experiments are observations: one another plan asked for is taken in, so a
    // run resumes with other explanation settings (a new budget, minimization off).
    let mut other = full.clone();
    other[first].order.reverse();
    assert!(detect::summary(&config, &suite, &other).is_ok());
    let off = DetectConfig {
        minimize: false,
        ..config.clone()
    };
    let summary_off = detect::summary(&off, &suite, &full).unwrap();
    assert_eq!(
        serde_json::to_string(&summary_off).unwrap(),
        serde_json::to_string(&summary).unwrap(),
        "what was explained is still reported with minimization off"
    );
    assert!(detect::next(&off, &suite, &full)
        .unwrap()
        .experiment
        .is_none());
    // A detection record that is not the plan's is refused.
    let mut bad = full.clone();
    let round = full
        .iter()
        .rposition(|r| r.kind == ExperimentKind::Round)
        .unwrap();
    bad[round].order.reverse();
    let e = detect::summary(&config, &suite, &bad).unwrap_err();
    assert_eq!(e.code(), "bad-history");
}

#[test]
fn a_flake_rate_from_an_unfinished_explanation_is_marked_and_any_bound_it_gives_holds() {
    // The truth for this suite: 1/3 of all orders and of class-compatible orders.
    let truth = 1.0 / 3.0;
    let suite = victim_suite();
    let mut incomplete_seen = 0;
    let mut unfinished_seen = 0;
    for budget in 1..=40 {
        let config = DetectConfig {
            minimize_budget: Some(budget),
            ..minimizing(Strategy::ReversePassing, 5)
        };
        let (_, summary) = detect_all(&config, &suite, &victim_executor);
        let v = &summary.flaky[0];
        // A polluter whose cleaner search did not finish is listed as unfinished; once it
        // finished (the whole explanation complete), none is.
        if v.minimize_complete {
            assert!(v.cleaners_unfinished.is_empty(), "budget {budget}: {v:?}");
        } else if let Some(p) = v.polluters.first() {
            if v.cleaners.get(&p[0]).is_none_or(|c| c.is_empty()) {
                assert_eq!(
                    v.cleaners_unfinished,
                    [p[0].clone()],
                    "budget {budget}: {v:?}"
                );
                unfinished_seen += 1;
            }
        }
        let Some(rate) = &v.flake_rate else {
            assert!(v.polluters.is_empty(), "budget {budget}: {v:?}");
            continue;
        };
        match &rate.incomplete {
            None => {
                assert!(
                    v.minimize_complete,
                    "budget {budget}: complete without the mark"
                );
                assert!((rate.all_orders - truth).abs() < 1e-9);
            }
            Some(incomplete) => {
                incomplete_seen += 1;
                assert!(!v.minimize_complete, "budget {budget}");
                if incomplete.upper_bound {
                    assert!(rate.all_orders >= truth - 1e-9, "budget {budget}: {rate:?}");
                    assert!(
                        rate.class_compatible >= truth - 1e-9,
                        "budget {budget}: {rate:?}"
                    );
                }
                if let Some(low) = &incomplete.lower_bound {
                    assert!(low.all_orders <= truth + 1e-9, "budget {budget}: {rate:?}");
                    assert!(
                        low.class_compatible <= truth + 1e-9,
                        "budget {budget}: {rate:?}"
                    );
                }
                assert!(
                    summary
                        .notes
                        .iter()
                        .any(|n| n.contains("marked incomplete")),
                    "{:?}",
                    summary.notes
                );
            }
        }
    }
    assert!(
        incomplete_seen > 0 && unfinished_seen > 0,
        "some budget cuts the cleaner search short"
    );
}

/// `⌈log2 m⌉`.
fn log2_ceil(m: usize) -> u32 {
    usize::BITS - (m.max(1) - 1).leading_zeros()
}

/// `p.C<k>#t<i>`.
fn t(k: usize, i: usize) -> String {
    format!("p.C{k}#t{i}")
}

/// 120 classes of 10 tests (`p.C<k>#t<i>`): two victims and a brittle.
fn module_of_1200() -> (odrust_engine::model::suite::Suite, Wiring) {
    let suite = suite_of(
        (0..120)
            .map(|k| class(&format!("p.C{k}"), 10, 0, true))
            .collect(),
    );
    let wiring = Wiring {
        victims: vec![
            // Two single polluters, one with a cleaner in a third class (it can hide the
            // polluter when it runs after it), one without any.
            (
                t(10, 3),
                vec![(t(40, 1), vec![t(77, 2)]), (t(90, 9), vec![])],
            ),
            // One polluter with two cleaners, one of them in the polluter's own class.
            (t(55, 5), vec![(t(20, 0), vec![t(20, 7), t(101, 4)])]),
        ],
        brittles: vec![(t(3, 3), vec![t(66, 6), t(111, 1)], vec![])],
    };
    (suite, wiring)
}

#[test]
fn a_module_of_1200_tests_gets_every_polluter_cleaner_and_state_setter_within_the_bound() {
    let (suite, wiring) = module_of_1200();
    let m = suite.ids().count();
    let config = DetectConfig {
        minimize_budget: Some(2_000),
        ..minimizing(Strategy::ReversePassing, 11)
    };
    let (history, summary) = detect_all(&config, &suite, &|e| wiring.run(e));
    let find = |test: &str| {
        summary
            .flaky
            .iter()
            .find(|f| f.test == test)
            .unwrap_or_else(|| panic!("{test} not found: {:?}", summary.flaky))
    };
    let v1 = find(&t(10, 3));
    assert_eq!(v1.kind, FlakyKind::VICTIM);
    assert_eq!(v1.polluters, [vec![t(40, 1)], vec![t(90, 9)]]);
    assert_eq!(v1.cleaners[&t(40, 1)], [t(77, 2)]);
    assert!(v1.cleaners[&t(90, 9)].is_empty());
    let v2 = find(&t(55, 5));
    assert_eq!(v2.polluters, [vec![t(20, 0)]]);
    assert_eq!(v2.cleaners[&t(20, 0)], [t(20, 7), t(101, 4)]);
    let b = find(&t(3, 3));
    assert_eq!(b.kind, FlakyKind::BRITTLE);
    let mut setters = b.state_setters.clone();
    setters.sort();
    assert_eq!(setters, [vec![t(111, 1)], vec![t(66, 6)]]);
    for f in [v1, v2, b] {
        assert!(f.minimize_complete, "{}", f.test);
        assert!(f.flake_rate.as_ref().unwrap().incomplete.is_none());
    }
    // Within the documented bound: culprits 3·p·⌈log2 m⌉ + 2, cleaners 2·c·⌈log2 m⌉ + 1 per
    // polluter (c ≥ 1 counted as at least one search).
    let log = log2_ceil(m);
    let bound = |culprits: u32, cleaners: &[u32]| {
        3 * culprits * log
            + 2
            + cleaners
                .iter()
                .map(|c| 2 * c.max(&1) * log + 1)
                .sum::<u32>()
    };
    assert!(
        v1.minimize_experiments <= bound(2, &[1, 0]),
        "{}",
        v1.minimize_experiments
    );
    assert!(
        v2.minimize_experiments <= bound(1, &[2]),
        "{}",
        v2.minimize_experiments
    );
    assert!(
        b.minimize_experiments <= bound(2, &[]),
        "{}",
        b.minimize_experiments
    );
    // Linear search would have run a pair per test and a triple per test and polluter.
    let total: u32 = [v1, v2, b].iter().map(|f| f.minimize_experiments).sum();
    assert!(
        total < (m as u32) / 4,
        "{total} explanation experiments for {m} tests"
    );
    assert_no_order_run_twice(&history);

    // The default pooled budget (60 per OD test) reaches every OD test's first culprit.
    let pooled = minimizing(Strategy::ReversePassing, 11);
    let (_, summary) = detect_all(&pooled, &suite, &|e| wiring.run(e));
    for f in &summary.flaky {
        assert!(
            !f.polluters.is_empty() || !f.state_setters.is_empty(),
            "{} got nothing: {:?}",
            f.test,
            summary.notes
        );
    }
}

/// What a summary explains, per OD test, sorted (every explanation complete): culprits are
/// listed in the failing order's order, and runs that found other failing orders list them
/// otherwise.
fn explained(s: &detect::Summary) -> Vec<String> {
    let mut found: Vec<String> = s
        .flaky
        .iter()
        .map(|f| {
            assert!(f.minimize_complete, "{}", f.test);
            let mut polluters = f.polluters.clone();
            polluters.sort();
            let mut setters = f.state_setters.clone();
            setters.sort();
            format!(
                "{} {:?} {:?} {:?} {:?}",
                f.test, f.kind, polluters, f.cleaners, setters
            )
        })
        .collect();
    found.sort();
    found
}

#[test]
fn tests_the_recording_names_are_tried_first_and_explain_the_same_for_fewer_runs() {
    // The module above, with the baseline recorded (`targeted`): each victim reads a field its
    // polluters and cleaners write, the brittle one its state-setters write, and two tests
    // write each field without polluting, cleaning or setting anything.
    let (suite, wiring) = module_of_1200();
    let noise = [
        ("p.C5#t5", "p.S#V0"),
        ("p.C60#t0", "p.S#V0"),
        ("p.C8#t8", "p.S#V1"),
        ("p.C30#t3", "p.S#V1"),
        ("p.C1#t1", "p.S#B0"),
        ("p.C2#t2", "p.S#B0"),
    ];
    let run = |config: &DetectConfig| {
        let mut history: Vec<ExperimentRecord> = Vec::new();
        loop {
            let step = detect::next(config, &suite, &history).unwrap();
            let Some(e) = step.experiment else {
                break;
            };
            let mut r = record(&e, wiring.run(&e));
            if r.kind == ExperimentKind::Baseline {
                r = wiring.recorded(r, &noise);
            }
            history.push(r);
            assert!(history.len() < 5_000, "runaway");
        }
        let summary = detect::summary(config, &suite, &history).unwrap();
        (history, summary)
    };
    let recorded = DetectConfig {
        minimize_budget: Some(2_000),
        ..minimizing(Strategy::Targeted, 11)
    };
    // The same, with every recorded field declared dependence-free: no hints.
    let unhinted = DetectConfig {
        dependence_free: vec!["p.S#*".into()],
        ..recorded.clone()
    };
    let (history, summary) = run(&recorded);
    let (_, plain) = run(&unhinted);
    assert_eq!(explained(&summary), explained(&plain));
    assert_eq!(summary.flaky.len(), 3, "{:?}", summary.flaky);
    let spent =
        |s: &detect::Summary| -> u32 { s.flaky.iter().map(|f| f.minimize_experiments).sum() };
    // (The rounds differ too: without the fields the targeted orders are others.)
    assert!(
        spent(&summary) < spent(&plain),
        "{} explanation runs with the recording's hints, {} without",
        spent(&summary),
        spent(&plain)
    );
    // The second victim's polluter is verified by its pair before any set is searched, and its
    // cleaners by their triples before any set.
    let v2 = minimize_records(&history, &t(55, 5));
    let first_set = v2.iter().position(|r| r.order.len() > 3).unwrap();
    assert!(v2[..first_set]
        .iter()
        .any(|r| r.order == [t(20, 0), t(55, 5)]));
    let cleaner_runs: Vec<&Vec<String>> = v2
        .iter()
        .filter(|r| r.kind == ExperimentKind::Cleaner)
        .map(|r| &r.order)
        .collect();
    // Both cleaners by their own triples before any set of candidates is run.
    let first_set = cleaner_runs.iter().position(|o| o.len() > 3).unwrap();
    for c in [t(20, 7), t(101, 4)] {
        assert!(cleaner_runs[..first_set].contains(&&vec![t(20, 0), c, t(55, 5)]));
    }
    assert_no_order_run_twice(&history);
}

#[test]
fn with_the_tests_times_explanations_report_the_same_for_less_time_and_try_more_recorded_writers() {
    // The module above with times (and, with `targeted`, recorded): a test takes 40 ms, but
    // those of six classes beside the polluters take 2 s each, and a run costs 500 ms beyond its
    // tests. The second victim's field is also written by 16 tests that neither pollute nor
    // clean it, all before its polluter in the suite: those of them in its failing prefix come
    // first among the writers the recording names, and its polluter after the four the depth
    // of a search over the prefix allows.
    let (suite, wiring) = module_of_1200();
    const RUN_MS: u64 = 500;
    let slow = [19, 21, 39, 41, 89, 91];
    let ms = |test: &str| -> u64 {
        let class: usize = test
            .trim_start_matches("p.C")
            .split('#')
            .next()
            .and_then(|k| k.parse().ok())
            .unwrap_or(0);
        if slow.contains(&class) {
            2_000
        } else {
            40
        }
    };
    let writers: Vec<String> = (1..=16).map(|k| format!("p.C{k}#t5")).collect();
    let noise: Vec<(&str, &str)> = writers.iter().map(|w| (w.as_str(), "p.S#V1")).collect();
    let run = |strategy: Strategy, cost_aware: bool| {
        let config = DetectConfig {
            minimize_budget: Some(2_000),
            cost_aware,
            ..minimizing(strategy, 11)
        };
        let mut history: Vec<ExperimentRecord> = Vec::new();
        loop {
            let step = detect::next(&config, &suite, &history).unwrap();
            let Some(e) = step.experiment else {
                break;
            };
            let mut r = record(&e, wiring.run(&e));
            if r.kind == ExperimentKind::Baseline {
                r = wiring.recorded(r, &noise);
                for x in &mut r.results {
                    x.time_ms = Some(ms(&x.test));
                }
                r.millis = RUN_MS + r.results.iter().map(|x| ms(&x.test)).sum::<u64>();
            }
            history.push(r);
            assert!(history.len() < 5_000, "runaway");
        }
        let summary = detect::summary(&config, &suite, &history).unwrap();
        (history, summary)
    };
    // What the explanation experiments take: their tests' times and the cost of each run.
    let time = |h: &[ExperimentRecord]| -> u64 {
        h.iter()
            .filter(|r| r.kind.is_minimize())
            .map(|r| RUN_MS + r.order.iter().map(|u| ms(u)).sum::<u64>())
            .sum()
    };
    // Without a recording (`reverse-passing`) only the cuts differ; with one (`targeted`) the
    // recorded writers tried differ too. The last pair is kept for the checks below.
    let mut kept = None;
    for strategy in [Strategy::ReversePassing, Strategy::Targeted] {
        let (history, summary) = run(strategy, true);
        let (plain_history, plain) = run(strategy, false);
        assert_eq!(summary.flaky.len(), 3, "{strategy:?}: {:?}", summary.flaky);
        assert_eq!(explained(&summary), explained(&plain), "{strategy:?}");
        assert!(
            time(&history) < time(&plain_history),
            "{strategy:?}: {} ms with the times, {} ms cut in halves",
            time(&history),
            time(&plain_history)
        );
        kept = Some((history, plain_history));
    }
    let (history, plain_history) = kept.unwrap();
    // The second victim's polluter: by its pair before any set is searched, with the times;
    // after a search of its prefix started, without.
    let pair_first = |h: &[ExperimentRecord]| {
        let runs = minimize_records(h, &t(55, 5));
        let pair = runs
            .iter()
            .position(|r| r.order == [t(20, 0), t(55, 5)])
            .unwrap();
        let set = runs.iter().position(|r| r.order.len() > 3).unwrap();
        pair < set
    };
    assert!(pair_first(&history));
    assert!(!pair_first(&plain_history));
    assert_no_order_run_twice(&history);
}

#[test]
fn twelve_victims_of_one_polluter_share_the_work() {
    // 90 classes of 10 tests; the 12 victims are one class, all polluted by p.C40#t1, which
    // p.C70#t5 cleans.
    let suite = with_victim_class(89, 12);
    let m = suite.ids().count();
    let polluter = "p.C40#t1".to_string();
    let cleaner = "p.C70#t5".to_string();
    let victims: Vec<String> = (0..12).map(|i| format!("p.Victims#t{i}")).collect();
    let wiring = Wiring {
        victims: victims
            .iter()
            .map(|v| (v.clone(), vec![(polluter.clone(), vec![cleaner.clone()])]))
            .collect(),
        brittles: vec![],
    };
    let config = DetectConfig {
        minimize_budget: Some(5_000),
        ..minimizing(Strategy::ReversePassing, 4)
    };
    let (history, summary) = detect_all(&config, &suite, &|e| wiring.run(e));
    assert_eq!(summary.flaky.len(), 12, "{:?}", summary.flaky);
    for f in &summary.flaky {
        assert_eq!(f.polluters, [vec![polluter.clone()]], "{}", f.test);
        assert_eq!(f.cleaners[&polluter], std::slice::from_ref(&cleaner));
        assert!(f.minimize_complete);
    }
    // The first victims search the module (at most 3·⌈log2 m⌉ + 2 group tests for the polluter,
    // 2·⌈log2 m⌉ + 1 for the cleaner); a later one verifies the shared polluter by its own pair,
    // shows that nothing else of the prefix and the rest pollutes it (forward and reverse: 4
    // runs), verifies the shared cleaner by its own triple and shows that nothing else cleans
    // (1 run), and sweeps the suite without the cleaner for polluters it hid (forward and
    // reverse: 2): 9. Without sharing: every victim costs as much as the first. Victims of
    // one cause (docs/minimize-algorithm.md) share the last two questions' runs (the first
    // victim to ask them runs them, with up to 2 short runs of the other victims the other way
    // round): most victims then cost their pair, triple and short runs. The first one also runs
    // its class (the other victims, none a polluter) once before its prefix: 1 more.
    let log = log2_ceil(m);
    let alone = 3 * log + 2 + 2 * log + 1 + 2 + 1;
    let mut costs: Vec<u32> = summary
        .flaky
        .iter()
        .map(|f| f.minimize_experiments)
        .collect();
    costs.sort();
    // docs/minimize-algorithm.md quotes these (`-- --nocapture`).
    println!(
        "twelve victims: {} explanation experiments, per victim {costs:?}",
        costs.iter().sum::<u32>()
    );
    assert!(costs[..10].iter().all(|&c| c <= 9), "{costs:?}");
    assert!(costs.iter().all(|&c| c <= alone + 2), "{costs:?}");
    let total: u32 = costs.iter().sum();
    assert!(total < 12 * alone / 3, "{total} for 12 victims: {costs:?}");
    for v in &victims {
        assert!(history
            .iter()
            .any(|r| r.order == [polluter.clone(), v.clone()]));
        assert!(history
            .iter()
            .any(|r| r.order == [polluter.clone(), cleaner.clone(), v.clone()]));
    }
}

#[test]
fn victims_of_one_polluter_all_over_a_module_are_explained_together() {
    // 90 classes of 10 tests; 12 victims in 12 classes (exposed by different orders: not
    // related), all polluted by p.C40#t1, none cleaned: like one serialization filter that one
    // test sets and nothing resets.
    let suite = suite_of(
        (0..90)
            .map(|k| class(&format!("p.C{k}"), 10, 0, true))
            .collect(),
    );
    let m = suite.ids().count();
    let polluter = "p.C40#t1".to_string();
    let victims: Vec<String> = (0..12)
        .map(|i| format!("p.C{}#t{}", 3 + 7 * i, i % 10))
        .collect();
    let wiring = Wiring {
        victims: victims
            .iter()
            .map(|v| (v.clone(), vec![(polluter.clone(), vec![])]))
            .collect(),
        brittles: vec![],
    };
    for seed in [4, 9] {
        let config = DetectConfig {
            minimize_budget: Some(5_000),
            ..minimizing(Strategy::ReversePassing, seed)
        };
        let (history, summary) = detect_all(&config, &suite, &|e| wiring.run(e));
        assert_eq!(summary.flaky.len(), 12, "seed {seed}: {:?}", summary.flaky);
        for f in &summary.flaky {
            assert_eq!(f.polluters, [vec![polluter.clone()]], "{}", f.test);
            assert!(f.cleaners[&polluter].is_empty(), "{}", f.test);
            assert!(f.minimize_complete, "{}", f.test);
        }
        // The first victim searches the module (at most 3·⌈log2 m⌉ + 2 group tests for the
        // polluter, 2 runs to show nothing cleans); every other one verifies that polluter by its
        // own pair; four runs of the whole module with every victim last (without and with the
        // polluter first, forward and reversed) show for all of them that nothing else pollutes
        // them and nothing cleans; each also runs the other victims it saw one way only the
        // other way (at most 2 short runs). Each alone: a pair, 4 runs for the rest, 2 for
        // cleaners.
        let log = log2_ceil(m);
        let first = 3 * log + 2 + 2;
        let total: u32 = summary.flaky.iter().map(|f| f.minimize_experiments).sum();
        let runs: usize = history
            .iter()
            .filter(|r| r.kind.is_minimize())
            .map(|r| r.order.len())
            .sum();
        eprintln!("seed {seed}: {total} explanation experiments, {runs} test runs");
        assert!(
            total <= first + 11 + 4 + 2 * 11,
            "seed {seed}: {total} for 12 victims (the first alone {first})"
        );
        let long: Vec<&ExperimentRecord> = history
            .iter()
            .filter(|r| r.kind.is_minimize() && r.order.len() >= m - 1)
            .collect();
        assert!(long.len() <= 4 + 2, "seed {seed}: {long:?}");
        for v in &victims {
            assert!(history
                .iter()
                .any(|r| r.order == [polluter.clone(), v.clone()]));
        }
        assert_no_order_run_twice(&history);
    }
}

#[test]
fn victims_sharing_six_polluters_verify_them_by_pairs_instead_of_searching() {
    // Like a global filter several tests configure: 6 polluters shared by 8 victims of one class.
    let suite = with_victim_class(59, 8);
    let m = suite.ids().count();
    let polluters: Vec<String> = (0..6).map(|i| format!("p.C{}#t{}", 5 + 9 * i, i)).collect();
    let victims: Vec<String> = (0..8).map(|i| format!("p.Victims#t{i}")).collect();
    let wiring = Wiring::shared(&victims, &polluters, &[]);
    let config = DetectConfig {
        minimize_budget: Some(5_000),
        ..minimizing(Strategy::ReversePassing, 2)
    };
    let (_, summary) = detect_all(&config, &suite, &|e| wiring.run(e));
    assert_eq!(summary.flaky.len(), 8);
    let mut want: Vec<Vec<String>> = polluters.iter().map(|p| vec![p.clone()]).collect();
    want.sort();
    for f in &summary.flaky {
        let mut got = f.polluters.clone();
        got.sort();
        assert_eq!(got, want, "{}", f.test);
        assert!(f.minimize_complete);
    }
    // After the first victim: 6 pairs, the prefix and the rest without them (forward and
    // reverse: 4), one cleaner search per polluter (6): 16, against 3·6·⌈log2 m⌉ + 2 searching.
    let mut costs: Vec<u32> = summary
        .flaky
        .iter()
        .map(|f| f.minimize_experiments)
        .collect();
    costs.sort();
    // docs/minimize-algorithm.md quotes these (`-- --nocapture`).
    println!("six polluters: explanation experiments per victim {costs:?}");
    assert!(costs[..7].iter().all(|&c| c <= 16), "{costs:?}");
    assert!(
        costs[7] <= 3 * 6 * log2_ceil(m) + 2 + 6 * (2 * log2_ceil(m) + 1),
        "{costs:?}"
    );
}

/// `classes` classes `p.C<k>` of 10 tests, then the class `p.Victims` of `victims` tests.
fn with_victim_class(classes: usize, victims: usize) -> odrust_engine::model::suite::Suite {
    let mut all: Vec<_> = (0..classes)
        .map(|k| class(&format!("p.C{k}"), 10, 0, true))
        .collect();
    all.push(class("p.Victims", victims, 0, true));
    suite_of(all)
}

#[test]
fn victims_whose_polluters_share_many_cleaners_verify_them_by_triples_instead_of_searching() {
    // Like a global filter that four tests set and ten reset: 5 victims of one class, each
    // polluted by the 4, each pollution cleaned by the same 10 tests.
    let suite = with_victim_class(29, 5);
    let m = suite.ids().count();
    let polluters: Vec<String> = (0..4).map(|i| format!("p.C{}#t{}", 5 + 6 * i, i)).collect();
    let cleaners: Vec<String> = (0..10).map(|i| format!("p.C{}#t9", 1 + 3 * i)).collect();
    let victims: Vec<String> = (0..5).map(|i| format!("p.Victims#t{i}")).collect();
    let wiring = Wiring::shared(&victims, &polluters, &cleaners);
    let config = DetectConfig {
        minimize_budget: Some(20_000),
        ..minimizing(Strategy::ReversePassing, 2)
    };
    let (history, summary) = detect_all(&config, &suite, &|e| wiring.run(e));
    assert_eq!(summary.flaky.len(), 5);
    let mut want_p: Vec<Vec<String>> = polluters.iter().map(|p| vec![p.clone()]).collect();
    want_p.sort();
    let mut want_c = cleaners.clone();
    want_c.sort();
    for f in &summary.flaky {
        let mut got = f.polluters.clone();
        got.sort();
        assert_eq!(got, want_p, "{}", f.test);
        for p in &polluters {
            let mut got = f.cleaners[p].clone();
            got.sort();
            assert_eq!(got, want_c, "{} {p}", f.test);
        }
        assert!(f.minimize_complete);
    }
    // Each (victim, polluter) pair needs one triple per cleaner to verify it (10 · 4 = 40 per
    // victim). The first victim finds its first polluter's cleaners by group testing (at most
    // 2·c·⌈log2 m⌉ + 1); its other polluters try those first by their triples and show by a
    // group run (or its reverse, or a split) that nothing else cleans: at most c + 3 each. The
    // other victims try the cleaners the first verified: c + 3 per polluter. Before pooling
    // (hints only from the same polluter), the first victim ran 492 cleaner experiments here
    // (577 in all; after: 162 and 247).
    let log = log2_ceil(m);
    let mut cleaner_runs: Vec<u32> = victims
        .iter()
        .map(|v| {
            history
                .iter()
                .filter(|r| r.kind == ExperimentKind::Cleaner && r.targets.first() == Some(v))
                .count() as u32
        })
        .collect();
    cleaner_runs.sort();
    // docs/minimize-algorithm.md quotes these (`-- --nocapture`).
    let all = history
        .iter()
        .filter(|r| victims.iter().any(|v| r.targets.first() == Some(v)))
        .filter(|r| r.kind.is_minimize())
        .count();
    println!(
        "many cleaners: {all} explanation experiments, cleaner runs per victim {cleaner_runs:?}"
    );
    assert!(
        cleaner_runs[..4].iter().all(|&c| c <= 4 * (10 + 3)),
        "{cleaner_runs:?}"
    );
    assert!(
        cleaner_runs[4] <= 2 * 10 * log + 1 + 3 * (10 + 3),
        "{cleaner_runs:?}"
    );
    assert_no_order_run_twice(&history);
}

#[test]
fn minimize_only_explains_the_named_test_alone_and_still_reports_the_others() {
    // Two victims of one class with different polluters; a first run's budget cuts both short.
    let suite = with_victim_class(19, 2);
    let (v1, v2) = ("p.Victims#t0".to_string(), "p.Victims#t1".to_string());
    let wiring = Wiring {
        victims: vec![
            (
                v1.clone(),
                vec![("p.C3#t3".to_string(), vec!["p.C8#t8".to_string()])],
            ),
            (v2.clone(), vec![("p.C12#t2".to_string(), vec![])]),
        ],
        brittles: vec![],
    };
    let cut = DetectConfig {
        minimize_budget: Some(6),
        ..minimizing(Strategy::ReversePassing, 3)
    };
    let (first, summary) = detect_all(&cut, &suite, &|e| wiring.run(e));
    assert_eq!(summary.flaky.len(), 2, "{:?}", summary.flaky);
    assert!(summary.flaky.iter().all(|f| !f.minimize_complete));
    let spent_v1 = summary
        .flaky
        .iter()
        .find(|f| f.test == v1)
        .unwrap()
        .minimize_experiments;
    // Resumed for v2 only (as odrust:minimize -Dodrust.test=v2 does), with the default budget:
    // 60 for the one test named, counted over its own experiments.
    let only = DetectConfig {
        minimize_only: Some(vec![v2.clone()]),
        ..minimizing(Strategy::ReversePassing, 3)
    };
    let mut config = only.clone();
    let history = detect_with(
        &mut config,
        &suite,
        first.clone(),
        10_000,
        &|e| wiring.run(e),
        &|_, _| {},
    );
    assert!(history.len() > first.len(), "v2's explanation went on");
    assert!(history[first.len()..]
        .iter()
        .all(|r| r.targets.first() == Some(&v2)));
    let summary = detect::summary(&only, &suite, &history).unwrap();
    let f2 = summary.flaky.iter().find(|f| f.test == v2).unwrap();
    assert!(f2.minimize_complete, "{f2:?}");
    assert_eq!(f2.polluters, [vec!["p.C12#t2".to_string()]]);
    // v1: what the first run explained is still reported, unfinished, not advanced.
    let f1 = summary.flaky.iter().find(|f| f.test == v1).unwrap();
    assert!(
        summary.notes.iter().any(
            |n| n.contains(&format!("explaining `{v1}` is not finished"))
                && n.contains("odrust:minimize -Dodrust.test=p.Victims#t0")
        ),
        "{:?}",
        summary.notes
    );
    assert!(spent_v1 > 0);
    assert_eq!(f1.minimize_experiments, spent_v1);
    assert!(!f1.minimize_complete);
    let before = detect::summary(&cut, &suite, &first).unwrap();
    let f1_before = before.flaky.iter().find(|f| f.test == v1).unwrap();
    assert_eq!(f1.polluters, f1_before.polluters);
}
