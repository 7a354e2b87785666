//! The scheduler tester: every systematic strategy over many suite shapes and seeds, checking
//! that each order is a permutation of a subset of the suite, class-compatible where promised,
//! reproducible, and that the claimed pairs are all covered.

use std::collections::{HashMap, HashSet};

use odrust_engine::detect::{self, DetectConfig};
use odrust_engine::model::experiment::{ExperimentKind, ExperimentRecord};
use odrust_engine::model::kind::FlakyKind;
use odrust_engine::model::outcome::RunOutcome;
use odrust_engine::model::seed::Xorshift;
use odrust_engine::model::strategy::Strategy;
use odrust_engine::model::suite::{ClassRecord, Framework, Suite};
use odrust_engine::schedule::{lower_bound, CostModel, Schedule};

use crate::support::{record, suite_of};

fn class(name: &str, tests: usize, reorderable: bool) -> ClassRecord {
    ClassRecord {
        class: name.to_string(),
        framework: Framework::Junit4,
        reorderable,
        tests: (0..tests).map(|i| format!("{name}#t{i}")).collect(),
        dynamic: vec![],
    }
}

/// Seeded uneven sizes, `1..=max`.
fn sizes(seed: u64, classes: usize, max: usize) -> Vec<usize> {
    Xorshift::sizes(seed, classes, max)
}

fn shapes() -> Vec<(String, Suite)> {
    let mut shapes = Vec::new();
    for n in 1..=60 {
        shapes.push((
            format!("one class of {n}"),
            suite_of(vec![class("p.One", n, true)]),
        ));
    }
    for n in 1..=25 {
        shapes.push((
            format!("{n} classes of one test"),
            suite_of((0..n).map(|i| class(&format!("p.S{i}"), 1, true)).collect()),
        ));
    }
    for seed in 0..12 {
        let s = sizes(seed, 2 + seed as usize % 9, 12);
        shapes.push((
            format!("uneven classes {s:?}"),
            suite_of(
                s.iter()
                    .enumerate()
                    .map(|(i, &n)| class(&format!("p.U{i}"), n, true))
                    .collect(),
            ),
        ));
    }
    shapes.push((
        "one dominant class".into(),
        suite_of(vec![
            class("p.Big", 30, true),
            class("p.A", 2, true),
            class("p.B", 1, true),
        ]),
    ));
    shapes.push((
        "equal classes".into(),
        suite_of((0..6).map(|i| class(&format!("p.E{i}"), 5, true)).collect()),
    ));
    shapes.push((
        "a fixed-order class".into(),
        suite_of(vec![
            class("p.A", 4, true),
            class("p.Fixed", 5, false),
            class("p.B", 3, true),
        ]),
    ));
    shapes.push(("empty".into(), suite_of(vec![])));
    shapes
}

/// Checks every invariant of one schedule; returns the number of orders checked.
fn check(schedule: &Schedule, suite: &Suite, what: &str) -> u64 {
    let class_of: HashMap<&str, usize> = suite
        .classes
        .iter()
        .enumerate()
        .flat_map(|(c, r)| r.tests.iter().map(move |t| (t.as_str(), c)))
        .collect();
    let position: HashMap<&str, usize> = suite
        .classes
        .iter()
        .flat_map(|r| r.tests.iter().enumerate().map(|(i, t)| (t.as_str(), i)))
        .collect();
    let mut coverage = schedule.coverage();
    let mut all_pairs: HashSet<(String, String)> = HashSet::new();
    let mut executions = 0;
    for r in 0..schedule.len() {
        let order = schedule.order(r);
        executions += order.len() as u64;
        assert!(!order.is_empty(), "{what}: order {r} is empty");
        let distinct: HashSet<&String> = order.iter().collect();
        assert_eq!(
            distinct.len(),
            order.len(),
            "{what}: order {r} repeats a test: {order:?}"
        );
        for t in &order {
            assert!(class_of.contains_key(t.as_str()), "{what}: unknown {t}");
        }
        if schedule.class_compatible() {
            let mut done = HashSet::new();
            let mut current = None;
            for t in &order {
                let c = class_of[t.as_str()];
                if current != Some(c) {
                    assert!(
                        done.insert(c),
                        "{what}: order {r} splits class {c}: {order:?}"
                    );
                    current = Some(c);
                }
            }
            for w in order.windows(2) {
                let (a, b) = (w[0].as_str(), w[1].as_str());
                let c = class_of[a];
                // pairs-all and k-bounded run every pair, also against a fixed order.
                if c == class_of[b]
                    && !suite.classes[c].reorderable
                    && schedule.strategy() == Strategy::Tuscan
                {
                    assert!(
                        position[a] < position[b],
                        "{what}: fixed class reordered: {order:?}"
                    );
                }
            }
        }
        for w in order.windows(2) {
            all_pairs.insert((w[0].clone(), w[1].clone()));
        }
        coverage.add(&order);
    }
    assert_eq!(executions, schedule.executions(), "{what}: executions");
    assert_eq!(
        coverage.covered(),
        schedule.pairs_total(),
        "{what}: claimed pairs not all covered"
    );
    // Independently of `claims`: every ordered pair the framework can run consecutively.
    if schedule.strategy() != Strategy::KBounded
        || !schedule.is_empty() && schedule.order(0).len() > 1
    {
        for a in class_of.keys() {
            for b in class_of.keys() {
                let same = class_of[a] == class_of[b];
                let runnable = !same
                    || suite.classes[class_of[a]].reorderable
                    || position[b] == position[a] + 1
                    || schedule.strategy() != Strategy::Tuscan;
                if a != b && runnable {
                    assert!(
                        all_pairs.contains(&(a.to_string(), b.to_string())),
                        "{what}: ({a}, {b}) never consecutive"
                    );
                }
            }
        }
    }
    schedule.len()
}

#[test]
fn every_systematic_schedule_covers_what_it_claims_over_many_seeds_and_shapes() {
    let mut checked = 0;
    for (shape, suite) in shapes() {
        let n = suite.ids().count();
        for seed in [0u64, 1, 7, 42, 1234] {
            let tuscan = Schedule::new(Strategy::Tuscan, &suite, seed, 2, None).unwrap();
            checked += check(&tuscan, &suite, &format!("{shape}, tuscan, seed {seed}"));
            let again = Schedule::new(Strategy::Tuscan, &suite, seed, 2, None).unwrap();
            assert!(
                (0..tuscan.len()).all(|r| tuscan.order_indices(r) == again.order_indices(r)),
                "{shape}, seed {seed}: tuscan not reproducible"
            );
            // Never fewer orders than the bound.
            let sizes: Vec<usize> = suite.classes.iter().map(|c| c.tests.len()).collect();
            if suite.classes.iter().all(|c| c.reorderable) {
                assert!(tuscan.len() >= lower_bound(&sizes).orders, "{shape}");
            }
        }
        if n <= 30 {
            let pairs = Schedule::new(Strategy::PairsAll, &suite, 0, 2, None).unwrap();
            assert_eq!(pairs.len(), (n * n.saturating_sub(1)) as u64);
            checked += check(&pairs, &suite, &format!("{shape}, pairs-all"));
        }
        if n <= 12 {
            for k in 1..=3u32 {
                let tuples = Schedule::new(Strategy::KBounded, &suite, 0, k, None).unwrap();
                let expected: u64 = (0..k as u64)
                    .map(|i| (n as u64).saturating_sub(i))
                    .product();
                assert_eq!(tuples.len(), expected, "{shape}, k = {k}");
                checked += check(&tuples, &suite, &format!("{shape}, k-bounded {k}"));
                let all: HashSet<Vec<String>> =
                    (0..tuples.len()).map(|r| tuples.order(r)).collect();
                assert_eq!(
                    all.len() as u64,
                    tuples.len(),
                    "{shape}, k = {k}: a tuple twice"
                );
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn tuscan_needs_n_orders_for_one_class_and_one_test_per_class_except_where_documented() {
    for n in [2usize, 3, 4, 5, 6, 7, 9, 11, 12, 13, 17, 33, 35, 60] {
        // A Tuscan square (n orders, the bound) except for 3 and 5, which have none: one
        // order more (see tuscan.rs).
        let odd_gap = n == 3 || n == 5;
        let orders = if odd_gap { n + 1 } else { n } as u64;
        let one = suite_of(vec![class("p.One", n, true)]);
        assert_eq!(
            Schedule::new(Strategy::Tuscan, &one, 3, 2, None)
                .unwrap()
                .len(),
            orders
        );
        let many = suite_of((0..n).map(|i| class(&format!("p.S{i}"), 1, true)).collect());
        let s = Schedule::new(Strategy::Tuscan, &many, 3, 2, None).unwrap();
        assert_eq!((s.len(), s.executions()), (orders, orders * n as u64));
    }
}

#[test]
fn cost_puts_cheap_covering_orders_first_and_changes_nothing_else() {
    let suite = suite_of(vec![
        class("p.A", 6, true),
        class("p.B", 3, true),
        class("p.C", 2, true),
    ]);
    let mut cost = CostModel {
        cost0_ms: 1000,
        ..CostModel::default()
    };
    for id in suite.ids() {
        cost.test_ms.insert(id.to_string(), 1);
    }
    cost.test_ms.insert("p.A#t0".into(), 5000);
    let plain = Schedule::new(Strategy::Tuscan, &suite, 9, 2, None).unwrap();
    let priced = Schedule::new(Strategy::Tuscan, &suite, 9, 2, Some(&cost)).unwrap();
    let set = |s: &Schedule| {
        let mut all: Vec<Vec<u32>> = (0..s.len()).map(|r| s.order_indices(r)).collect();
        all.sort();
        all
    };
    assert_eq!(set(&plain), set(&priced), "same orders, another sequence");
    let value = |order: &[String]| {
        let ms: u64 = order.iter().map(|t| cost.ms(t)).sum();
        (order.len() - 1) as f64 / (cost.cost0_ms + ms) as f64
    };
    let values: Vec<f64> = (0..priced.len()).map(|r| value(&priced.order(r))).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    // pairs-all pairs the cheapest tests first: the slow test comes last.
    let pairs = Schedule::new(Strategy::PairsAll, &suite, 0, 2, Some(&cost)).unwrap();
    let slow_first = (0..pairs.len())
        .position(|r| pairs.order(r).contains(&"p.A#t0".to_string()))
        .unwrap() as u64;
    assert_eq!(slow_first, 10 * 9);
}

#[test]
fn cost_aware_ranks_the_schedule_by_the_baselines_timings_and_prints_its_prediction() {
    let suite = suite_of(vec![
        class("p.A", 6, true),
        class("p.B", 3, true),
        class("p.C", 2, true),
    ]);
    // Every test takes 1 ms except p.A#t0, 5 s; the baseline took 6.5 s of wall time.
    let ms = |t: &str| if t == "p.A#t0" { 5000 } else { 1 };
    let run = |config: &DetectConfig| {
        let mut history: Vec<ExperimentRecord> = Vec::new();
        let mut plans = Vec::new();
        while let Some(e) = {
            let step = detect::next(config, &suite, &history).unwrap();
            plans.extend(step.plan);
            step.experiment
        } {
            let mut rec = record(
                &e,
                e.order
                    .iter()
                    .map(|t| (t.clone(), RunOutcome::Pass))
                    .collect(),
            );
            for r in &mut rec.results {
                r.time_ms = Some(ms(&r.test));
            }
            rec.millis = 6500;
            history.push(rec);
        }
        (history, plans)
    };
    let mut config = DetectConfig::new(Strategy::Tuscan, u32::MAX, 9);
    config.minimize = false;
    let (plain, plans) = run(&config);
    // The plan is printed once, before round 1, priced from the baseline either way.
    assert_eq!(plans.len(), 1);
    let expected_cost = CostModel {
        cost0_ms: 6500 - 5000 - 10,
        test_ms: suite.ids().map(|t| (t.to_string(), ms(t))).collect(),
    };
    let rounds = |h: &[ExperimentRecord]| -> Vec<Vec<String>> {
        h.iter()
            .filter(|r| r.kind == ExperimentKind::Round)
            .map(|r| r.order.clone())
            .collect()
    };
    let unpriced = Schedule::new(Strategy::Tuscan, &suite, 9, 2, None).unwrap();
    let all = |s: &Schedule| (0..s.len()).map(|r| s.order(r)).collect::<Vec<_>>();
    assert_eq!(
        rounds(&plain),
        all(&unpriced),
        "without costAware: construction order"
    );
    assert_eq!(plans[0].cost0_ms, Some(expected_cost.cost0_ms));
    let predicted: u64 = all(&unpriced)
        .iter()
        .map(|o| expected_cost.cost0_ms + o.iter().map(|t| ms(t)).sum::<u64>())
        .sum();
    assert_eq!(plans[0].predicted_ms, Some(predicted));
    config.cost_aware = true;
    let (aware, _) = run(&config);
    let priced = Schedule::new(Strategy::Tuscan, &suite, 9, 2, Some(&expected_cost)).unwrap();
    assert_eq!(
        rounds(&aware),
        all(&priced),
        "costAware: the baseline's cost model"
    );
    assert_ne!(rounds(&aware), rounds(&plain));
}

/// Runs detection to the end with an executor where each victim fails iff its polluter ran
/// anywhere before it in the same JVM.
fn run(
    config: &DetectConfig,
    suite: &Suite,
    polluters: &[(&str, &str)],
) -> (Vec<ExperimentRecord>, detect::Summary) {
    run_recorded(config, suite, polluters, &[], &|_| (Vec::new(), Vec::new()))
}

#[test]
fn tuscan_finds_every_single_polluter_victim_in_one_pass() {
    let suite = suite_of(vec![
        class("p.A", 5, true),
        class("p.B", 3, true),
        class("p.C", 4, true),
        class("p.D", 1, true),
    ]);
    // Victims whose polluter runs after them in the original order (and intra-class ones).
    let polluters = [
        ("p.A#t4", "p.A#t1"),
        ("p.C#t3", "p.B#t0"),
        ("p.D#t0", "p.A#t0"),
        ("p.C#t2", "p.C#t1"),
    ];
    for strategy in [Strategy::Tuscan, Strategy::PairsAll] {
        for seed in 0..6 {
            let mut config = DetectConfig::new(strategy, u32::MAX, seed);
            config.minimize = false;
            config.alone_runs = 2;
            let (history, summary) = run(&config, &suite, &polluters);
            let victims: Vec<&str> = summary
                .flaky
                .iter()
                .filter(|f| f.kind == FlakyKind::VICTIM)
                .map(|f| f.test.as_str())
                .collect();
            assert_eq!(
                victims,
                ["p.A#t0", "p.A#t1", "p.B#t0", "p.C#t1"],
                "{strategy} seed {seed}"
            );
            let schedule = Schedule::new(strategy, &suite, seed, 2, None).unwrap();
            assert_eq!(u64::from(summary.rounds_run), schedule.len());
            let pairs = summary.pairs.unwrap();
            assert_eq!(pairs.covered, pairs.total);
            assert!(
                !summary.notes.iter().any(|n| n.contains("not yet covered")),
                "{:?}",
                summary.notes
            );
            // Deterministic: the same seed gives the same history.
            assert_eq!(history, run(&config, &suite, &polluters).0);
        }
    }
}

/// The static fields a test reads and writes.
type Accesses = dyn Fn(&str) -> (Vec<String>, Vec<String>);

/// Runs detection to the end with an executor where each victim fails iff its polluter ran
/// before it, each brittle passes iff its setter ran before it, and every result carries the
/// static fields its test reads and writes (as the jvm-agent records them).
fn run_recorded(
    config: &DetectConfig,
    suite: &Suite,
    polluters: &[(&str, &str)],
    setters: &[(&str, &str)],
    access: &Accesses,
) -> (Vec<ExperimentRecord>, detect::Summary) {
    let mut history = Vec::new();
    while let Some(e) = detect::next(config, suite, &history).unwrap().experiment {
        let mut ran = HashSet::new();
        let results: Vec<(String, RunOutcome)> = e
            .order
            .iter()
            .map(|t| {
                let fails = polluters.iter().any(|(p, v)| v == t && ran.contains(p))
                    || setters.iter().any(|(s, b)| b == t && !ran.contains(s));
                ran.insert(t.as_str());
                let outcome = if fails {
                    RunOutcome::Fail
                } else {
                    RunOutcome::Pass
                };
                (t.clone(), outcome)
            })
            .collect();
        let mut rec = record(&e, results);
        for r in &mut rec.results {
            let (reads, writes) = access(&r.test);
            r.reads = Some(reads);
            r.writes = Some(writes);
            r.time_ms = Some(5);
        }
        rec.millis = 500;
        history.push(rec);
        assert!(history.len() < 20_000, "runaway");
    }
    let summary = detect::summary(config, suite, &history).unwrap();
    (history, summary)
}

#[test]
fn dependence_aware_finds_what_tuscan_finds_with_fewer_executions() {
    use odrust_engine::model::experiment::ExperimentKind;
    let suite = suite_of(vec![
        class("p.A", 5, true),
        class("p.B", 3, true),
        class("p.C", 4, true),
        class("p.D", 1, true),
    ]);
    let polluters = [
        ("p.A#t4", "p.A#t1"),
        ("p.C#t3", "p.B#t0"),
        ("p.D#t0", "p.A#t0"),
        ("p.C#t2", "p.C#t1"),
    ];
    // p.B#t2 fails unless p.A#t3 ran before it (it does in the original order).
    let setters = [("p.A#t3", "p.B#t2")];
    let access = |t: &str| -> (Vec<String>, Vec<String>) {
        let field = |f: &str| vec![f.to_string()];
        let (mut reads, mut writes) = match t {
            "p.A#t4" => (vec![], field("p.S#X")),
            "p.A#t1" => (field("p.S#X"), vec![]),
            "p.C#t3" => (vec![], field("p.S#Y")),
            "p.B#t0" => (field("p.S#Y"), vec![]),
            "p.D#t0" => (vec![], field("p.S#Z")),
            "p.A#t0" => (field("p.S#Z"), vec![]),
            "p.C#t2" => (vec![], field("p.S#W")),
            "p.C#t1" => (field("p.S#W"), vec![]),
            "p.A#t3" => (vec![], field("p.S#SET")),
            "p.B#t2" => (field("p.S#SET"), vec![]),
            _ => (vec![], vec![]),
        };
        // Every test bumps a counter, declared dependence-free.
        reads.push("p.Metrics#count".into());
        writes.push("p.Metrics#count".into());
        (reads, writes)
    };
    let found = |summary: &detect::Summary| -> Vec<(String, FlakyKind)> {
        summary
            .flaky
            .iter()
            .map(|f| (f.test.clone(), f.kind))
            .collect()
    };
    let executions = |history: &[ExperimentRecord]| -> usize {
        history
            .iter()
            .filter(|r| r.kind == ExperimentKind::Round)
            .map(|r| r.order.len())
            .sum()
    };
    for seed in 0..4 {
        let mut tuscan = DetectConfig::new(Strategy::Tuscan, u32::MAX, seed);
        tuscan.minimize = false;
        tuscan.alone_runs = 1;
        let mut aware = DetectConfig {
            strategy: Strategy::DependenceAware,
            dependence_free: vec!["p.Metrics#*".into()],
            ..tuscan.clone()
        };
        let (t_history, t_summary) = run_recorded(&tuscan, &suite, &polluters, &setters, &access);
        let (a_history, a_summary) = run_recorded(&aware, &suite, &polluters, &setters, &access);
        let expected = vec![
            ("p.A#t0".to_string(), FlakyKind::VICTIM),
            ("p.A#t1".to_string(), FlakyKind::VICTIM),
            ("p.B#t0".to_string(), FlakyKind::VICTIM),
            ("p.B#t2".to_string(), FlakyKind::BRITTLE),
            ("p.C#t1".to_string(), FlakyKind::VICTIM),
        ];
        assert_eq!(found(&t_summary), expected, "tuscan seed {seed}");
        assert_eq!(found(&a_summary), expected, "dependence-aware seed {seed}");
        let pairs = a_summary.pairs.unwrap();
        assert_eq!((pairs.covered, pairs.total), (5, 5), "seed {seed}");
        let plan = a_summary.plan.clone().unwrap();
        let tuscan_plan = plan.tuscan.clone().unwrap();
        assert_eq!(plan.executions as usize, executions(&a_history));
        assert_eq!(tuscan_plan.executions as usize, executions(&t_history));
        assert!(
            executions(&a_history) * 5 < executions(&t_history),
            "seed {seed}: {} vs {}",
            executions(&a_history),
            executions(&t_history)
        );
        // Predicted from the baseline: 500 ms, 13 tests of 5 ms.
        assert_eq!(plan.cost0_ms, Some(500 - 13 * 5));
        assert!(a_summary
            .notes
            .iter()
            .any(|n| n.starts_with("dependence-aware: ")));
        // Without the dependence-free counter every pair can interact: tuscan's pairs.
        aware.dependence_free.clear();
        let (_, all) = run_recorded(&aware, &suite, &polluters, &setters, &access);
        assert_eq!(
            all.pairs.unwrap().total,
            t_summary.pairs.unwrap().total,
            "seed {seed}"
        );
    }
}

#[test]
fn a_run_cut_short_says_how_many_pairs_are_left_and_resumes_from_there() {
    let suite = suite_of(vec![class("p.A", 4, true), class("p.B", 3, true)]);
    let mut config = DetectConfig::new(Strategy::Tuscan, 3, 5);
    config.minimize = false;
    let (history, summary) = run(&config, &suite, &[]);
    let pairs = summary.pairs.unwrap();
    assert_eq!(summary.rounds_run, 3);
    assert!(pairs.covered < pairs.total);
    let note = format!("{} pairs not yet covered", pairs.total - pairs.covered);
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.contains(&note) && n.contains("-Dodrust.resume=true")),
        "{:?}",
        summary.notes
    );
    // Resuming with more rounds continues with round 4 of the same schedule.
    config.rounds = u32::MAX;
    let step = detect::next(&config, &suite, &history).unwrap();
    let e = step.experiment.unwrap();
    assert_eq!(e.round, Some(4));
    let schedule = Schedule::new(Strategy::Tuscan, &suite, 5, 2, None).unwrap();
    assert_eq!(e.order, schedule.order(3));
    assert_eq!(u64::from(step.progress.rounds_total), schedule.len());
    // Stopped by the time budget: the same note.
    let mut stopped = config.clone();
    stopped.stop_rounds = true;
    let summary = detect::summary(&stopped, &suite, &history).unwrap();
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.contains("pairs not yet covered")),
        "{:?}",
        summary.notes
    );
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.contains("stopped after 3 of")),
        "{:?}",
        summary.notes
    );
}

#[test]
fn config_reads_k_and_cost() {
    let raw: detect::RawConfig = serde_json::from_value(serde_json::json!({
        "strategy": "k-bounded", "rounds": 10, "seed": 1, "k": 3,
        "cost": {"cost0_ms": 1500.4, "test_ms": {"p.A#t0": 12.6}}
    }))
    .unwrap();
    let config = DetectConfig::try_from(raw).unwrap();
    assert_eq!(config.k, 3);
    let cost = config.cost.unwrap();
    assert_eq!((cost.cost0_ms, cost.test_ms["p.A#t0"]), (1500, 13));
    let raw: detect::RawConfig =
        serde_json::from_value(serde_json::json!({"rounds": 1, "seed": 1, "k": 4})).unwrap();
    assert_eq!(
        DetectConfig::try_from(raw).unwrap_err().code(),
        "bad-config"
    );
    let raw: detect::RawConfig =
        serde_json::from_value(serde_json::json!({"rounds": 1, "seed": 1})).unwrap();
    let config = DetectConfig::try_from(raw).unwrap();
    assert_eq!((config.k, config.cost), (2, None));
}
