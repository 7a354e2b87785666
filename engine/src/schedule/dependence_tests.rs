//! Tests of the dependence map: which pairs may interact, clean runs, and the candidates it names.

use super::*;
use crate::model::experiment::{ClassState, ExperimentKind, TestResult};
use crate::model::outcome::RunOutcome;
use crate::model::suite::{ClassRecord, Framework};

fn suite() -> Suite {
    Suite {
        schema_version: 1,
        module: "m".into(),
        classes: vec![
            ClassRecord {
                class: "p.A".into(),
                framework: Framework::Junit4,
                reorderable: true,
                tests: vec!["p.A#a1".into(), "p.A#a2".into()],
                dynamic: Vec::new(),
            },
            ClassRecord {
                class: "p.B".into(),
                framework: Framework::Junit5,
                reorderable: true,
                tests: vec!["p.B#b1".into(), "p.B#dyn".into()],
                dynamic: vec!["p.B#dyn".into()],
            },
        ],
    }
}

fn result(test: &str, reads: Option<&[&str]>, writes: Option<&[&str]>) -> TestResult {
    let strings = |l: &[&str]| l.iter().map(|s| s.to_string()).collect();
    TestResult {
        time_ms: Some(10),
        reads: reads.map(strings),
        writes: writes.map(strings),
        ..TestResult::new(test, RunOutcome::Pass)
    }
}

fn record(results: Vec<TestResult>, class_state: Vec<ClassState>) -> ExperimentRecord {
    ExperimentRecord {
        id: 1,
        kind: ExperimentKind::Baseline,
        round: None,
        strategy: None,
        order: Vec::new(),
        targets: Vec::new(),
        results,
        honoured: true,
        millis: 1000,
        class_state,
        time: None,
        isolation: Default::default(),
        shareable: false,
    }
}

fn units() -> Vec<String> {
    ["p.A#a1", "p.A#a2", "p.B#b1", "p.B#dyn"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn a_reader_depends_on_a_writer_of_the_same_field_only() {
    let rec = record(
        vec![
            result("p.A#a1", Some(&[]), Some(&["p.S#X"])),
            result("p.A#a2", Some(&["p.S#X"]), Some(&[])),
            result("p.B#b1", Some(&["p.S#Y"]), Some(&[])),
            result("p.B#dyn[1]", Some(&[]), Some(&["p.S#Y"])),
            result("p.B#dyn[2]", Some(&["p.S#X"]), Some(&[])),
        ],
        vec![],
    );
    let map = DependenceMap::from_records(&suite(), &units(), &[&rec], &[]);
    assert!(map.depends(0, 1), "a2 reads X, which a1 wrote");
    assert!(!map.depends(1, 0), "a1 reads nothing");
    assert!(
        map.depends(3, 2),
        "b1 reads Y, written by an invocation of dyn"
    );
    assert!(map.depends(0, 3), "an invocation of dyn reads X");
    assert!(!map.depends(2, 1) && !map.depends(1, 2) && !map.depends(0, 0));
    assert_eq!(map.shared(0, 1), vec!["p.S#X"]);
    assert_eq!((map.unrecorded(), map.field_count()), (0, 2));
}

#[test]
fn dependence_free_fields_are_ignored_and_unrecorded_units_touch_everything() {
    let rec = record(
        vec![
            result("p.A#a1", Some(&[]), Some(&["p.Log#LOGGER", "p.S#X"])),
            result("p.A#a2", Some(&["p.Log#LOGGER"]), Some(&[])),
            result("p.B#b1", None, None),
        ],
        vec![],
    );
    let map = DependenceMap::from_records(&suite(), &units(), &[&rec], &["p.Log#*".into()]);
    assert!(!map.depends(0, 1), "the logger is dependence-free");
    assert!(
        map.depends(0, 2) && map.depends(2, 1),
        "b1 was not recorded"
    );
    assert!(map.depends(3, 0), "dyn never ran");
    assert_eq!(map.unrecorded(), 2);
}

#[test]
fn culprit_and_cleaner_candidates_come_rarest_field_first() {
    // a2 reads X (written by b1 and dyn) and Y (written by dyn only); a1 writes Z only.
    let rec = record(
        vec![
            result("p.A#a1", Some(&[]), Some(&["p.S#Z"])),
            result("p.A#a2", Some(&["p.S#X", "p.S#Y"]), Some(&[])),
            result("p.B#b1", Some(&[]), Some(&["p.S#X"])),
            result("p.B#dyn[1]", Some(&[]), Some(&["p.S#X", "p.S#Y"])),
        ],
        vec![],
    );
    let map = DependenceMap::from_records(&suite(), &units(), &[&rec], &[]);
    assert_eq!(map.writers_read_by(1), vec![3, 2], "dyn alone writes Y");
    assert!(map.writers_read_by(0).is_empty(), "a1 reads nothing");
    // Cleaners of dyn for a2: what else writes X or Y.
    assert_eq!(map.rewriters(3, 1), vec![2]);
    // b1 as the polluter: only X is both its write and a2's read.
    assert_eq!(map.rewriters(2, 1), vec![3]);
    // A polluter that shares nothing recorded with the victim: anything writing what it reads.
    assert_eq!(map.rewriters(0, 1), vec![3, 2]);
}

#[test]
fn a_field_most_of_the_module_writes_names_no_candidate() {
    // 40 units: every one writes p.S#ALL; u0 and u1 also write p.S#X. u39 reads both.
    let names: Vec<String> = (0..40).map(|i| format!("p.A#t{i}")).collect();
    let suite = one_class(&names);
    let results: Vec<TestResult> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let reads: &[&str] = if i == 39 { &["p.S#ALL", "p.S#X"] } else { &[] };
            let writes: &[&str] = if i < 2 {
                &["p.S#ALL", "p.S#X"]
            } else {
                &["p.S#ALL"]
            };
            result(n, Some(reads), Some(writes))
        })
        .collect();
    let rec = record(results, vec![]);
    let map = DependenceMap::from_records(&suite, &names, &[&rec], &[]);
    assert_eq!(map.writers_read_by(39), vec![0, 1], "only X's writers");
    assert_eq!(map.rewriters(0, 39), vec![1]);
}

/// A suite of one class `p.A` holding `names`.
fn one_class(names: &[String]) -> Suite {
    Suite {
        schema_version: 1,
        module: "m".into(),
        classes: vec![ClassRecord {
            class: "p.A".into(),
            framework: Framework::Junit4,
            reorderable: true,
            tests: names.to_vec(),
            dynamic: Vec::new(),
        }],
    }
}

/// `n` tests of one class: the first `writers` write `p.S#X`, the last reads it.
fn one_field_module(n: usize, writers: usize) -> (Vec<String>, DependenceMap) {
    let names: Vec<String> = (0..n).map(|i| format!("p.A#t{i}")).collect();
    let suite = one_class(&names);
    let results: Vec<TestResult> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let reads: &[&str] = if i == n - 1 { &["p.S#X"] } else { &[] };
            let writes: &[&str] = if i < writers { &["p.S#X"] } else { &[] };
            result(name, Some(reads), Some(writes))
        })
        .collect();
    let map = DependenceMap::from_records(&suite, &names, &[&record(results, vec![])], &[]);
    (names, map)
}

#[test]
fn culprit_candidates_are_the_prefix_writers_up_to_a_binary_search_depth() {
    // 200 tests, 8 write X (specific: at most a tenth), t199 reads it.
    let (_, map) = one_field_module(200, 8);
    let set = |r: std::ops::Range<u32>| r.collect::<HashSet<u32>>();
    assert_eq!(
        map.culprit_candidates(199, &set(0..8)),
        vec![0, 1, 2],
        "8 tests: depth 3"
    );
    assert_eq!(
        map.culprit_candidates(199, &set(5..6)),
        vec![5],
        "one test: 1"
    );
    assert_eq!(
        map.culprit_candidates(199, &set(6..8)),
        vec![6],
        "two tests: 1"
    );
    assert_eq!(
        map.culprit_candidates(199, &set(0..150)),
        vec![0, 1, 2, 3],
        "never more than {MAX_RECORDED_CULPRITS}"
    );
    assert!(
        map.culprit_candidates(199, &set(10..150)).is_empty(),
        "no writer in the prefix"
    );
}

#[test]
fn cleaner_candidates_stop_at_their_cap() {
    // 1000 tests, 80 write X (specific: at most 100), t999 reads it.
    let (_, map) = one_field_module(1000, 80);
    let cleaners = map.cleaner_candidates(0, 999);
    assert_eq!(cleaners.len(), MAX_RECORDED_CLEANERS);
    assert_eq!(cleaners[0], 1, "the polluter itself is not its cleaner");
    assert_eq!(map.rewriters(0, 999).len(), 79);
}

#[test]
fn an_unrecorded_subject_has_no_candidates() {
    let rec = record(
        vec![
            result("p.A#a1", Some(&[]), Some(&["p.S#X"])),
            result("p.A#a2", None, None),
        ],
        vec![],
    );
    let map = DependenceMap::from_records(&suite(), &units(), &[&rec], &[]);
    assert!(map.writers_read_by(1).is_empty());
    assert!(map.rewriters(0, 1).is_empty());
}

#[test]
fn class_state_counts_for_every_test_of_the_class() {
    let rec = record(
        vec![
            result("p.A#a1", Some(&[]), Some(&[])),
            result("p.A#a2", Some(&[]), Some(&[])),
            result("p.B#b1", Some(&["p.S#Z"]), Some(&[])),
            result("p.B#dyn[1]", Some(&[]), Some(&[])),
        ],
        vec![ClassState {
            class: "p.A".into(),
            reads: vec![],
            writes: vec!["p.S#Z".into()],
        }],
    );
    let map = DependenceMap::from_records(&suite(), &units(), &[&rec], &[]);
    assert!(map.depends(0, 2) && map.depends(1, 2));
    assert!(!map.depends(3, 2) && !map.depends(0, 1));
}

#[test]
fn readers_never_run_clean_get_packed_clean_runs() {
    let rec = record(
        vec![
            result("p.A#a1", Some(&[]), Some(&["p.S#X"])),
            result("p.A#a2", Some(&["p.S#X"]), Some(&[])),
            result("p.B#b1", Some(&["p.S#Y"]), Some(&["p.S#X"])),
            result("p.B#dyn[1]", Some(&["p.S#X"]), Some(&[])),
        ],
        vec![],
    );
    let map = DependenceMap::from_records(&suite(), &units(), &[&rec], &[]);
    // a2 and dyn only ever run after a writer of X; b1 runs first once.
    let runs = map.clean_runs(vec![vec![0, 1], vec![2, 3], vec![0, 3]]);
    // a2 alone first; b1 would write X before dyn reads it, but b1 needs no run: dyn joins a2.
    assert_eq!(runs, vec![vec![1, 3]]);
    // Nothing needed when every reader already ran first somewhere.
    assert!(map
        .clean_runs(vec![vec![1, 0], vec![3, 2], vec![2]])
        .is_empty());
    // A writer of what a later reader reads starts a new run.
    let runs = map.clean_runs(Vec::<Vec<u32>>::new());
    assert_eq!(runs, vec![vec![1, 2], vec![3]]);
}

#[test]
fn the_cheaper_of_covering_and_tuscan_runs() {
    use crate::model::strategy::Strategy;
    let classes = (0..3)
        .map(|c| ClassRecord {
            class: format!("p.C{c}"),
            framework: Framework::Junit4,
            reorderable: true,
            tests: (0..4).map(|t| format!("p.C{c}#t{t}")).collect(),
            dynamic: Vec::new(),
        })
        .collect();
    let suite = Suite {
        schema_version: 1,
        module: "m".into(),
        classes,
    };
    let everyone = |field: &str| {
        let ids: Vec<String> = suite.ids().map(String::from).collect();
        let results = ids
            .iter()
            .map(|t| result(t, Some(&[field]), Some(&[field])))
            .collect();
        record(results, vec![])
    };
    let weight = |i: &PlanInfo| i.orders * DEFAULT_COST0_IN_TESTS + i.executions;
    // Everything shares one mutable static: tuscan's orders cover it as cheaply as anything.
    let dense = everyone("p.S#X");
    let p = plan(&suite, &[&dense], &[], 3, None, None);
    let tuscan = p.info.tuscan.as_deref().unwrap();
    assert!(weight(&p.info) <= weight(tuscan));
    assert_eq!(p.info.pairs, tuscan.pairs);
    assert_eq!(p.info.strategy, Strategy::DependenceAware);
    // Nothing shared: no order at all beats tuscan.
    let p = plan(&suite, &[&dense], &["p.S#*".into()], 3, None, None);
    assert!(!p.info.uses_tuscan);
    assert_eq!((p.info.orders, p.info.pairs), (0, 0));
    assert!(p.extra.is_empty(), "nobody reads anything that counts");
    // When every JVM start is expensive, tuscan's fewer, longer orders win over many short ones.
    let mut rec = everyone("p.S#NONE");
    for (i, r) in rec.results.iter_mut().enumerate() {
        // A chain of pairs t_i -> t_{i+1} across the suite, nothing else.
        r.writes = Some(vec![format!("p.S#F{i}")]);
        r.reads = Some(vec![format!("p.S#F{}", i.wrapping_sub(1))]);
    }
    let cheap = plan(&suite, &[&rec], &[], 3, None, None);
    assert!(!cheap.info.uses_tuscan, "11 pairs need a few short orders");
    let expensive = CostModel {
        cost0_ms: 1_000_000,
        test_ms: BTreeMap::new(),
    };
    let p = plan(&suite, &[&rec], &[], 3, None, Some(&expensive));
    let tuscan = p.info.tuscan.as_deref().unwrap();
    assert_eq!(
        p.info.uses_tuscan,
        tuscan.orders < cheap.info.orders,
        "{} vs {}",
        tuscan.orders,
        cheap.info.orders
    );
    assert!(p.info.predicted_ms.unwrap() <= tuscan.predicted_ms.unwrap());
}

#[test]
fn globs_match_like_a_shell() {
    assert!(glob("p.C#*", "p.C#LOG"));
    assert!(glob("*#LOGGER", "a.b.C#LOGGER"));
    assert!(glob("*", ""));
    assert!(glob("a*b*c", "axxbyyc"));
    assert!(!glob("a*b*c", "axxcyyb"));
    assert!(!glob("p.C#X", "p.C#XY"));
    assert!(!glob("ab*ba", "aba"));
}

#[test]
fn the_baseline_gives_cost0_and_test_times() {
    let rec = record(
        vec![result("p.A#a1", None, None), result("p.A#a2", None, None)],
        vec![],
    );
    let cost = cost_from_baseline(&[&rec]).unwrap();
    assert_eq!(cost.cost0_ms, 980);
    assert_eq!(cost.ms("p.A#a1"), 10);
    assert!(cost_from_baseline(&[]).is_none());
}
