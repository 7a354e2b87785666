//! Tests of explaining one OD test: polluters, cleaners, state-setters, victims of one cause.

use super::*;
use std::cell::RefCell;
use std::collections::HashMap;

fn ids(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

/// Drives `explain` to completion against `oracle` (the subject's verdict per order),
/// returning the explanation and the orders run.
fn drive(
    subject: Subject<'_>,
    units: &[String],
    oracle: &dyn Fn(&[String]) -> Option<bool>,
) -> (Explanation, Vec<Query>) {
    drive_classes(subject, units, oracle, &|_, _| false)
}

/// Like [`drive`], with `same_class` telling which units share a class.
fn drive_classes(
    subject: Subject<'_>,
    units: &[String],
    oracle: &dyn Fn(&[String]) -> Option<bool>,
    same_class: &dyn Fn(&str, &str) -> bool,
) -> (Explanation, Vec<Query>) {
    drive_hinted(subject, units, oracle, same_class, &Hints::default())
}

/// Like [`drive_classes`], with `hints`.
fn drive_hinted(
    subject: Subject<'_>,
    units: &[String],
    oracle: &dyn Fn(&[String]) -> Option<bool>,
    same_class: &dyn Fn(&str, &str) -> bool,
    hints: &Hints,
) -> (Explanation, Vec<Query>) {
    let ran: RefCell<HashMap<Vec<String>, Option<bool>>> = RefCell::new(HashMap::new());
    let mut queries = Vec::new();
    loop {
        let (explanation, next) = explain(
            subject,
            units,
            hints,
            &|order| ran.borrow().get(order).copied(),
            same_class,
            Cut::Halves,
        );
        let Some(q) = next else {
            return (explanation, queries);
        };
        assert!(!ran.borrow().contains_key(&q.order), "ran twice: {q:?}");
        assert_eq!(q.order.last().map(String::as_str), Some(subject.unit));
        assert_eq!(q.targets[0], subject.test);
        ran.borrow_mut().insert(q.order.clone(), oracle(&q.order));
        queries.push(q);
    }
}

/// The victim `v` with the failing `prefix`.
fn victim(prefix: &[String]) -> Subject<'_> {
    Subject {
        test: "v",
        unit: "v",
        role: OdRole::Victim,
        prefix,
    }
}

/// One shared state: the victim `v` fails iff the last test before it that is a polluter or
/// a cleaner (`is_cleaner`) is a polluter.
fn state<'a>(
    polluters: &'a [&'a str],
    is_cleaner: &'a dyn Fn(&str) -> bool,
) -> impl Fn(&[String]) -> Option<bool> + 'a {
    move |order: &[String]| {
        let mut dirty = false;
        for t in order {
            if t == "v" {
                return Some(!dirty);
            }
            if polluters.contains(&t.as_str()) {
                dirty = true;
            } else if is_cleaner(t) {
                dirty = false;
            }
        }
        None
    }
}

/// `p` and `q` pollute, `c` cleans.
fn polluted(order: &[String]) -> Option<bool> {
    state(&["p", "q"], &|t| t == "c")(order)
}

#[test]
fn a_second_polluter_tries_the_first_ones_cleaners_by_their_triples_first() {
    // p and q pollute; c0..c5 clean both; 40 other tests.
    let mut names: Vec<String> = (0..40).map(|i| format!("t{i}")).collect();
    for (i, n) in ["p", "c0", "c1", "q", "c2", "c3", "c4", "c5"]
        .iter()
        .enumerate()
    {
        names.insert(5 * i + 2, n.to_string());
    }
    names.push("v".into());
    let prefix = ids(&["p"]);
    let subject = victim(&prefix);
    let oracle = state(&["p", "q"], &|t| t.starts_with('c'));
    let (explanation, queries) = drive(subject, &names, &oracle);
    assert_eq!(explanation.stage, Stage::Done);
    let cleaners = ids(&["c0", "c1", "c2", "c3", "c4", "c5"]);
    assert_eq!(explanation.cleaners["p"], cleaners);
    assert_eq!(explanation.cleaners["q"], cleaners);
    // q's search: one triple per cleaner p's search found, then the other 40 tests in one
    // group run that fails the victim.
    let of_q: Vec<&Query> = queries
        .iter()
        .filter(|q| q.kind == ExperimentKind::Cleaner && q.order[0] == "q")
        .collect();
    assert_eq!(of_q.len(), 6 + 1, "{of_q:?}");
    assert!(of_q[..6].iter().all(|q| q.order.len() == 3), "{of_q:?}");
}

#[test]
fn victim_with_two_polluters_and_a_cleaner() {
    let units = ids(&["a", "p", "b", "c", "q", "d", "v"]);
    let prefix = ids(&["d", "q", "b", "a", "p"]);
    let subject = victim(&prefix);
    let (explanation, queries) = drive(subject, &units, &polluted);
    assert_eq!(explanation.stage, Stage::Done);
    assert_eq!(explanation.culprits, [ids(&["q"]), ids(&["p"])]);
    assert_eq!(explanation.cleaners["p"], ids(&["c"]));
    assert_eq!(explanation.cleaners["q"], ids(&["c"]));
    let kinds = |k| queries.iter().filter(|q| q.kind == k).count();
    // Cleaner candidates: every unit but v and the two polluters (4); one cleaner among 4
    // costs at most 2·⌈log2 4⌉ + 1 group tests per polluter.
    assert!(kinds(ExperimentKind::Cleaner) <= 2 * 5, "{queries:?}");
    // Every cleaner query runs the polluter first and excludes the other polluter.
    for q in queries.iter().filter(|q| q.kind == ExperimentKind::Cleaner) {
        let examined = &q.order[1..q.order.len() - 1];
        assert!(!examined.iter().any(|t| t == "p" || t == "q"), "{q:?}");
    }
    // Each polluter verified by its own pair run.
    for p in ["p", "q"] {
        assert!(queries
            .iter()
            .any(|q| q.kind == ExperimentKind::PolluterPair && q.order == ids(&[p, "v"])));
    }
}

#[test]
fn a_polluter_its_cleaners_hide_from_both_sides_is_found_by_the_sweep() {
    // p and q pollute; c and d reset the state (cleaners of both). In the failing prefix the
    // half holding p is [c, p, d, x]: negative forward (d cleans) and reversed (c cleans).
    let units = ids(&["c", "p", "d", "x", "y", "q", "z", "w", "v"]);
    let prefix = ids(&["c", "p", "d", "x", "y", "q", "z", "w"]);
    let oracle = state(&["p", "q"], &|t| t == "c" || t == "d");
    let subject = victim(&prefix);
    let (explanation, queries) = drive(subject, &units, &oracle);
    assert_eq!(explanation.culprits, [ids(&["p"]), ids(&["q"])]);
    assert_eq!(explanation.cleaners["p"], ids(&["c", "d"]));
    assert_eq!(explanation.cleaners["q"], ids(&["c", "d"]));
    assert!(explanation.culprits_complete);
    // Without the sweep p is missed: the group tests over the prefix and the rest find q only.
    let first_pair_of_p = queries
        .iter()
        .position(|q| q.order == ids(&["p", "v"]))
        .expect("p verified by its pair");
    assert!(queries[..first_pair_of_p]
        .iter()
        .any(|q| q.kind == ExperimentKind::Cleaner));
}

#[test]
fn victim_needing_two_tests_together_gets_a_group() {
    let prefix = ids(&["a", "x", "b", "y", "c"]);
    let units = ids(&["a", "x", "b", "y", "c", "v"]);
    let oracle = |order: &[String]| {
        let has = |t: &str| order.iter().any(|o| o == t);
        Some(!(has("x") && has("y")))
    };
    let subject = victim(&prefix);
    let (explanation, queries) = drive(subject, &units, &oracle);
    assert_eq!(explanation.culprits, [ids(&["x", "y"])]);
    assert!(explanation.cleaners.is_empty());
    assert!(queries.iter().all(|q| q.kind != ExperimentKind::Cleaner));
}

#[test]
fn brittle_with_a_state_setter() {
    let prefix = ids(&["a", "s", "b"]);
    let units = ids(&["a", "s", "b", "t"]);
    let oracle = |order: &[String]| Some(order.iter().any(|o| o == "s"));
    let subject = Subject {
        test: "t",
        unit: "t",
        role: OdRole::Brittle,
        prefix: &prefix,
    };
    let (explanation, queries) = drive(subject, &units, &oracle);
    assert_eq!(explanation.culprits, [ids(&["s"])]);
    assert!(explanation.cleaners.is_empty());
    assert!(queries.iter().all(|q| matches!(
        q.kind,
        ExperimentKind::SetterSearch | ExperimentKind::SetterPair
    )));
}

#[test]
fn outcomes_already_observed_are_not_asked_again() {
    let prefix = ids(&["a", "p"]);
    let units = ids(&["a", "p", "v"]);
    // Every order the explanation needs was already run.
    let all = |order: &[String]| Some(polluted(order));
    let (explanation, next) = explain(
        Subject {
            test: "v",
            unit: "v",
            role: OdRole::Victim,
            prefix: &prefix,
        },
        &units,
        &Hints::default(),
        &all,
        &|_, _| false,
        Cut::Halves,
    );
    assert!(next.is_none());
    assert_eq!(explanation.culprits, [ids(&["p"])]);
    assert_eq!(explanation.cleaners["p"], Vec::<String>::new());
}

/// One victim's wiring: its polluters, and the cleaners of any of them.
type Wired<'a> = (&'a str, &'a [&'a str], &'a [&'a str]);

/// Drives the explanations of several victims, one after the other, through one cache of
/// runs that, like detection's, keeps every subject's verdict in an order at the part of it
/// up to that subject; each victim's hints are `culprits` and `victims`. Returns the
/// explanations and every order run.
fn drive_victims(
    units: &[String],
    victims: &[Wired<'_>],
    hints: &Hints,
) -> (Vec<Explanation>, Vec<Query>) {
    let ran: RefCell<HashMap<Vec<String>, Option<bool>>> = RefCell::new(HashMap::new());
    let verdict = |order: &[String], v: &str| -> bool {
        let (_, polluters, cleaners) = victims.iter().find(|w| w.0 == v).unwrap();
        let mut dirty = false;
        for t in order.iter().take_while(|t| t.as_str() != v) {
            if polluters.contains(&t.as_str()) {
                dirty = true;
            } else if cleaners.contains(&t.as_str()) {
                dirty = false;
            }
        }
        !dirty
    };
    let mut queries: Vec<Query> = Vec::new();
    let mut explanations = Vec::new();
    for (v, _, _) in victims {
        let prefix: Vec<String> = units
            .iter()
            .take_while(|u| u.as_str() != *v)
            .cloned()
            .collect();
        loop {
            let (explanation, next) = explain(
                victim_named(v, &prefix),
                units,
                hints,
                &|order| ran.borrow().get(order).copied(),
                &|_, _| false,
                Cut::Halves,
            );
            let Some(q) = next else {
                explanations.push(explanation);
                break;
            };
            assert!(!ran.borrow().contains_key(&q.order), "ran twice: {q:?}");
            assert_eq!(q.targets[0], *v);
            // Every subject after the last examined test (as `detect::replay` keeps them).
            let last = q
                .order
                .iter()
                .rposition(|u| q.targets[1..].contains(u))
                .unwrap_or(0);
            for end in last + 1..q.order.len() {
                let part = q.order[..=end].to_vec();
                let subject = part.last().unwrap().clone();
                if victims.iter().any(|w| w.0 == subject) {
                    let passed = verdict(&part, &subject);
                    ran.borrow_mut().entry(part).or_insert(Some(passed));
                }
            }
            assert!(ran.borrow().contains_key(&q.order), "{q:?}");
            queries.push(q);
        }
    }
    (explanations, queries)
}

/// The victim `name` with the failing `prefix`.
fn victim_named<'a>(name: &'a str, prefix: &'a [String]) -> Subject<'a> {
    Subject {
        test: name,
        unit: name,
        role: OdRole::Victim,
        prefix,
    }
}

/// 40 tests, with the polluter `p` and the victims `v1`..`v4` among them.
fn cause_suite() -> Vec<String> {
    let mut units: Vec<String> = (0..40).map(|i| format!("t{i}")).collect();
    for (i, n) in ["v1", "p", "v2", "v3", "v4"].iter().enumerate() {
        units.insert(7 * i + 3, n.to_string());
    }
    units
}

fn cause_hints(victims: &[&str]) -> Hints {
    Hints {
        culprits: ids(&["p"]),
        victims: ids(victims),
        ..Hints::default()
    }
}

#[test]
fn victims_of_one_polluter_are_cleared_together_by_four_runs() {
    let units = cause_suite();
    let victims: Vec<Wired> = ["v1", "v2", "v3", "v4"]
        .iter()
        .map(|v| (*v, &["p"][..], &[][..]))
        .collect();
    let (explanations, queries) =
        drive_victims(&units, &victims, &cause_hints(&["v1", "v2", "v3", "v4"]));
    for e in &explanations {
        assert_eq!(e.stage, Stage::Done);
        assert!(e.culprits_complete);
        assert_eq!(e.culprits, [ids(&["p"])]);
        assert_eq!(e.cleaners["p"], Vec::<String>::new());
    }
    // One pair per victim, then the others and the victims, forward and reversed, without
    // and with the polluter first: 4 runs for the 4 victims (each alone: at least 5).
    let long: Vec<&Query> = queries.iter().filter(|q| q.order.len() > 10).collect();
    assert_eq!(long.len(), 4, "{long:?}");
    // And each runs the victims it saw one way only the other way: v1 [v2, v3, v4, v1], v2
    // [v3, v4, v2], v3 [v2, v1, v3], v4 [v3, v2, v1, v4].
    let crosswise: Vec<Vec<String>> = queries
        .iter()
        .filter(|q| (3..=4).contains(&q.order.len()))
        .map(|q| q.order.clone())
        .collect();
    assert_eq!(
        crosswise,
        [
            ids(&["v2", "v3", "v4", "v1"]),
            ids(&["v3", "v4", "v2"]),
            ids(&["v2", "v1", "v3"]),
            ids(&["v3", "v2", "v1", "v4"]),
        ]
    );
    assert_eq!(queries.len(), 4 + 4 + 4, "{queries:?}");
    let tail = |q: &Query| q.order[q.order.len() - 4..].to_vec();
    assert_eq!(tail(long[0]), ids(&["v1", "v2", "v3", "v4"]));
    assert_eq!(tail(long[1]), ids(&["v4", "v3", "v2", "v1"]));
    assert_eq!(long[2].order[0], "p");
    assert_eq!(long[2].kind, ExperimentKind::Cleaner);
    assert_eq!(long[2].targets[..2], ids(&["v1", "p"]));
    // Every other test of the suite is examined in each.
    for q in &long {
        assert_eq!(q.order.len(), units.len() - usize::from(q.order[0] != "p"));
    }
}

#[test]
fn a_victim_the_cause_runs_do_not_conclude_is_searched_on_its_own() {
    // v2 has a second polluter q (one of the others); v3's pollution is cleaned by c.
    let mut units = cause_suite();
    units[12] = "q".into();
    units[22] = "c".into();
    let victims: Vec<Wired> = vec![
        ("v1", &["p"], &[]),
        ("v2", &["p", "q"], &[]),
        ("v3", &["p"], &["c"]),
        ("v4", &["p"], &[]),
    ];
    let (explanations, queries) =
        drive_victims(&units, &victims, &cause_hints(&["v1", "v2", "v3", "v4"]));
    let mut v2 = explanations[1].culprits.clone();
    v2.sort();
    assert_eq!(v2, [ids(&["p"]), ids(&["q"])]);
    assert_eq!(explanations[2].cleaners["p"], ids(&["c"]));
    for (i, e) in explanations.iter().enumerate() {
        assert_eq!(e.stage, Stage::Done, "{i}");
        assert!(e.culprits_complete, "{i}");
        if i != 1 {
            assert_eq!(e.culprits, [ids(&["p"])], "{i}");
        }
        if i != 2 {
            assert_eq!(e.cleaners["p"], Vec::<String>::new(), "{i}");
        }
    }
    // v1 ran its pair and the cause's 4 runs, v4 nothing but its pair: those runs
    // concluded them.
    let own = |v: &str| -> Vec<usize> {
        queries
            .iter()
            .filter(|q| q.targets[0] == v)
            .map(|q| q.order.len())
            .collect()
    };
    assert_eq!(own("v1"), [2, 44, 44, 4, 45, 45]);
    assert_eq!(own("v4"), [2, 4]);
}

#[test]
fn polluters_of_unrelated_victims_are_tried_only_when_no_related_one_pollutes() {
    let units = cause_suite();
    let victims: Vec<Wired> = vec![("v1", &["p"], &[]), ("v2", &["p"], &[])];
    let pairs = |hints: &Hints| -> Vec<Vec<String>> {
        let (explanations, queries) = drive_victims(&units, &victims, hints);
        for e in &explanations {
            assert_eq!(e.culprits, [ids(&["p"])]);
            assert!(e.culprits_complete);
        }
        queries
            .into_iter()
            .filter(|q| q.order.len() == 2)
            .map(|q| q.order)
            .collect()
    };
    // A related victim's polluter p pollutes it: t9 (another victim's) is not tried.
    let hints = Hints {
        other_culprits: ids(&["t9"]),
        ..cause_hints(&["v1", "v2"])
    };
    assert_eq!(pairs(&hints), [ids(&["p", "v1"]), ids(&["p", "v2"])]);
    // No related polluter pollutes it (t4): then t9 and p are, in that order.
    let hints = Hints {
        culprits: ids(&["t4"]),
        other_culprits: ids(&["t9", "p"]),
        ..cause_hints(&["v1", "v2"])
    };
    let tried = pairs(&hints);
    assert_eq!(
        tried[..3],
        [ids(&["t4", "v1"]), ids(&["t9", "v1"]), ids(&["p", "v1"])]
    );
}

#[test]
fn a_victim_alone_searches_as_before() {
    let units = cause_suite();
    let victims: Vec<Wired> = vec![("v1", &["p"], &[])];
    // The only victim: no cause runs.
    let (_, queries) = drive_victims(&units, &victims, &cause_hints(&["v1"]));
    assert!(queries
        .iter()
        .all(|q| q.order.last().map(String::as_str) == Some("v1")));
}

#[test]
fn victims_that_verified_the_same_cleaners_share_the_runs_without_them() {
    // t5 cleans p's pollution for both victims; a related victim showed it (the hint).
    let units = cause_suite();
    let victims: Vec<Wired> = vec![("v1", &["p"], &["t5"]), ("v2", &["p"], &["t5"])];
    let mut hints = cause_hints(&["v1", "v2"]);
    hints.cleaners.insert("p".into(), ids(&["t5"]));
    let (explanations, queries) = drive_victims(&units, &victims, &hints);
    for e in &explanations {
        assert_eq!(e.stage, Stage::Done);
        assert!(e.culprits_complete);
        assert_eq!(e.culprits, [ids(&["p"])]);
        assert_eq!(e.cleaners["p"], ids(&["t5"]));
    }
    let long = |kind: ExperimentKind, with_p: bool, with_c: bool| -> usize {
        queries
            .iter()
            .filter(|q| q.kind == kind && q.order.len() > 10)
            .filter(|q| q.order.contains(&"p".to_string()) == with_p)
            .filter(|q| q.order.contains(&"t5".to_string()) == with_c)
            .count()
    };
    // Forward and reversed, for both: no other polluter (t5 among the others), no other
    // cleaner (p first, without t5), no polluter t5 hid (without p and t5).
    assert_eq!(long(ExperimentKind::PolluterSearch, false, true), 2);
    assert_eq!(long(ExperimentKind::Cleaner, true, false), 2);
    assert_eq!(long(ExperimentKind::PolluterSearch, false, false), 2);
    // Besides: each victim's pair and triple.
    assert_eq!(queries.len(), 6 + 2 + 2, "{queries:?}");
}

#[test]
fn regression_cleaners_of_a_same_class_polluter_come_from_that_class_only() {
    // p and v share class K (with k2); c, in another class, resets the state. Running
    // [p, c, v] would split K and rerun its setup: no real run can put c between p and v.
    let prefix = ids(&["p", "k2"]);
    let units = ids(&["c", "p", "k2", "v"]);
    let in_k = |t: &str| matches!(t, "p" | "k2" | "v");
    let same_class = |a: &str, b: &str| in_k(a) == in_k(b);
    let subject = victim(&prefix);
    let (explanation, queries) = drive_classes(subject, &units, &polluted, &same_class);
    assert_eq!(explanation.culprits, [ids(&["p"])]);
    assert_eq!(explanation.cleaners["p"], Vec::<String>::new());
    assert!(
        queries
            .iter()
            .filter(|q| q.kind == ExperimentKind::Cleaner)
            .all(|q| !q.order.contains(&"c".to_string())),
        "{queries:?}"
    );
}

/// `t0` .. `t<n-1>`, then the victim `v`.
fn numbered(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("t{i}"))
        .chain(["v".into()])
        .collect()
}

/// Drives the victim `v` of 32 numbered tests, failed after `t0..t9`, polluted by `t5` and
/// cleaned by `t20` alone, with `hints`: every cleaner run's order (after checking the cleaner).
fn t5_cleaner_runs(hints: &Hints) -> Vec<Vec<String>> {
    let units = numbered(32);
    let prefix: Vec<String> = units[..10].to_vec();
    let is_cleaner = |t: &str| t == "t20";
    let oracle = state(&["t5"], &is_cleaner);
    let never = |_: &str, _: &str| false;
    let (explanation, queries) = drive_hinted(victim(&prefix), &units, &oracle, &never, hints);
    assert_eq!(explanation.cleaners["t5"], ids(&["t20"]));
    queries
        .into_iter()
        .filter(|q| q.kind == ExperimentKind::Cleaner)
        .map(|q| q.order)
        .collect()
}

#[test]
fn tests_the_recording_names_are_tried_first_and_the_explanation_is_the_same() {
    // 64 tests; the victim failed after t0..t39. Polluters t17 (in the prefix) and t50; t3,
    // t30, t45 and t60 clean both.
    let units = numbered(64);
    let prefix: Vec<String> = units[..40].to_vec();
    let is_cleaner = |t: &str| matches!(t, "t3" | "t30" | "t45" | "t60");
    let oracle = state(&["t17", "t50"], &is_cleaner);
    let never = |_: &str, _: &str| false;
    let (plain, plain_queries) =
        drive_hinted(victim(&prefix), &units, &oracle, &never, &Hints::default());
    let mut hints = Hints {
        // t8 writes what v reads but does not pollute it.
        recorded_culprits: ids(&["t8", "t17"]),
        ..Hints::default()
    };
    hints
        .recorded_cleaners
        .insert("t17".into(), ids(&["t30", "t9", "t45", "t3", "t60"]));
    let (hinted, queries) = drive_hinted(victim(&prefix), &units, &oracle, &never, &hints);
    assert_eq!(hinted, plain);
    assert_eq!(hinted.culprits, [ids(&["t17"]), ids(&["t50"])]);
    assert_eq!(hinted.cleaners["t17"], ids(&["t3", "t30", "t45", "t60"]));
    assert!(hinted.culprits_complete);
    // Its own pairs first: the miss, then the polluter.
    assert_eq!(queries[0].order, ids(&["t8", "v"]));
    assert_eq!(queries[1].order, ids(&["t17", "v"]));
    // t17's cleaners by their own triples, in the recording's order (t9 a miss).
    let triples: Vec<Vec<String>> = queries
        .iter()
        .filter(|q| q.kind == ExperimentKind::Cleaner && q.order.first() == Some(&units[17]))
        .take(5)
        .map(|q| q.order.clone())
        .collect();
    let triple = |c: &str| ids(&["t17", c, "v"]);
    assert_eq!(
        triples,
        [
            triple("t30"),
            triple("t9"),
            triple("t45"),
            triple("t3"),
            triple("t60")
        ]
    );
    assert!(
        queries.len() < plain_queries.len(),
        "{} runs with the recording's hints, {} without",
        queries.len(),
        plain_queries.len()
    );
}

#[test]
fn recorded_cleaner_hints_stop_after_misses_in_a_row() {
    let mut hints = Hints::default();
    hints
        .recorded_cleaners
        .insert("t5".into(), ids(&["t1", "t2", "t3", "t20"]));
    let runs = t5_cleaner_runs(&hints);
    let triple = |c: &str| ids(&["t5", c, "v"]);
    assert_eq!(runs[..3], [triple("t1"), triple("t2"), triple("t3")]);
    // Three misses in a row: t20 is left to group testing (a set of more than one first).
    assert!(runs[3].len() > 3, "{:?}", runs[3]);
}

#[test]
fn recorded_cleaner_hints_are_tried_after_the_pool_stopped() {
    // The pool misses three times in a row and stops (t4 is not tried by its own triple); the
    // recording's hints have their own count: t20 cleans.
    let mut hints = Hints {
        pooled_cleaners_default: ids(&["t1", "t2", "t3", "t4"]),
        ..Hints::default()
    };
    hints.recorded_cleaners.insert("t5".into(), ids(&["t20"]));
    let runs = t5_cleaner_runs(&hints);
    let triple = |c: &str| ids(&["t5", c, "v"]);
    assert_eq!(
        runs[..4],
        [triple("t1"), triple("t2"), triple("t3"), triple("t20")]
    );
}

#[test]
fn a_polluter_only_the_recording_named_does_not_start_the_runs_of_its_cause() {
    // p pollutes v1 and v2; only the recording names p (no other victim verified it).
    let units = cause_suite();
    let victims: Vec<Wired> = vec![("v1", &["p"], &[]), ("v2", &["p"], &[])];
    let long = |hints: &Hints| -> usize {
        let (explanations, queries) = drive_victims(&units, &victims, hints);
        for e in &explanations {
            assert_eq!(e.culprits, [ids(&["p"])]);
        }
        // The culprit runs of a cause: every victim after the others (one not last).
        queries
            .iter()
            .filter(|q| q.kind == ExperimentKind::PolluterSearch)
            .filter(|q| q.order.last() != Some(&q.targets[0]))
            .count()
    };
    let recorded = Hints {
        recorded_culprits: ids(&["p"]),
        victims: ids(&["v1", "v2"]),
        ..Hints::default()
    };
    assert_eq!(long(&recorded), 0);
    // Verified for a related victim, p does start them.
    assert!(long(&cause_hints(&["v1", "v2"])) > 0);
}

/// 40 classes `k0` .. `k39` of 10 tests each (`k7#3` is test 3 of class 7), the subject `k7#9`
/// (named `v`) last of its class; its failing (passing) order ran classes 0-29, the 299 tests
/// before it. `shows(order)` is its verdict; `by_class`: whether the planner knows the classes.
fn classes_of_ten_with(
    role: OdRole,
    verdict: &dyn Fn(&[String]) -> Option<bool>,
    hints: &Hints,
    by_class: bool,
) -> (Explanation, Vec<Query>) {
    let units: Vec<String> = (0..40)
        .flat_map(|k| (0..10).map(move |i| format!("k{k}#{i}")))
        .map(|t| if t == "k7#9" { "v".to_string() } else { t })
        .collect();
    let prefix: Vec<String> = units[..units.iter().position(|u| u == "v").unwrap()]
        .iter()
        .chain(&units[80..300])
        .cloned()
        .collect();
    let class_of = |t: &str| -> String {
        if t == "v" {
            "k7".into()
        } else {
            t.split('#').next().unwrap_or(t).to_string()
        }
    };
    let same_class = |a: &str, b: &str| by_class && class_of(a) == class_of(b);
    let subject = Subject {
        test: "v",
        unit: "v",
        role,
        prefix: &prefix,
    };
    drive_hinted(subject, &units, verdict, &same_class, hints)
}

/// [`classes_of_ten_with`] for a victim whose state `polluters` pollute and nothing cleans, the
/// classes known.
fn classes_of_ten(polluters: &[&str], hints: &Hints) -> (Explanation, Vec<Query>) {
    let oracle = state(polluters, &|_| false);
    classes_of_ten_with(OdRole::Victim, &oracle, hints, true)
}

/// Tests run by `queries`, all together.
fn tests_run(queries: &[Query]) -> usize {
    queries.iter().map(|q| q.order.len()).sum()
}

/// The other 9 tests of the subject's class, then it.
fn class_run() -> Vec<String> {
    (0..9)
        .map(|i| format!("k7#{i}"))
        .chain(["v".into()])
        .collect()
}

#[test]
fn polluters_in_the_victims_own_class_are_found_by_one_short_run_of_its_class() {
    let (explanation, queries) = classes_of_ten(&["k7#2", "k7#5"], &Hints::default());
    assert_eq!(explanation.stage, Stage::Done);
    assert_eq!(explanation.culprits, [ids(&["k7#2"]), ids(&["k7#5"])]);
    assert_eq!(queries[0].order, class_run());
    // Then group testing inside the class, and the rest of the module without the two
    // polluters, forward and reversed (2 x 397 tests): no run of hundreds of tests finds them.
    let long: Vec<usize> = queries
        .iter()
        .map(|q| q.order.len())
        .filter(|&n| n > 10)
        .collect();
    assert_eq!(long.len(), 4, "{long:?}");
    assert!(
        tests_run(&queries) < 2 * 400 + 100,
        "{}",
        tests_run(&queries)
    );
}

#[test]
fn a_class_that_does_not_pollute_its_victim_costs_one_short_run_and_nothing_else_changes() {
    // The polluter is in another class: the class run passes, and then every question is the
    // one asked when the classes are not known.
    let oracle = state(&["k12#4"], &|_| false);
    let hints = Hints::default();
    let (plain, plain_queries) = classes_of_ten_with(OdRole::Victim, &oracle, &hints, false);
    let (explanation, queries) = classes_of_ten_with(OdRole::Victim, &oracle, &hints, true);
    assert_eq!(explanation.culprits, [ids(&["k12#4"])]);
    assert_eq!(explanation, plain);
    assert_eq!(queries[0].order, class_run());
    assert_eq!(queries[1..], plain_queries[..]);
}

#[test]
fn a_polluter_a_related_victim_verified_skips_the_class_run() {
    // A related OD test's polluter shows: it is likely the cause of both; the class is not run.
    let hints = Hints {
        culprits: ids(&["k12#4"]),
        ..Hints::default()
    };
    let (explanation, queries) = classes_of_ten(&["k12#4"], &hints);
    assert_eq!(explanation.culprits, [ids(&["k12#4"])]);
    assert_eq!(queries[0].order, ids(&["k12#4", "v"]));
    assert!(!queries.iter().any(|q| q.order == class_run()));
}

#[test]
fn a_polluter_only_its_class_showed_does_not_start_the_runs_of_its_cause() {
    // Another victim (k20#3) is in the suite: a polluter a related victim verified would start
    // the runs of the whole module shared by the victims of one cause. One found in its own
    // class was verified for this victim alone: its explanation asks exactly what it asks
    // with no other victim.
    let alone = classes_of_ten(&["k7#2"], &Hints::default());
    let hints = Hints {
        victims: ids(&["v", "k20#3"]),
        ..Hints::default()
    };
    let with_victims = classes_of_ten(&["k7#2"], &hints);
    assert_eq!(with_victims.0.culprits, [ids(&["k7#2"])]);
    assert_eq!(with_victims, alone);
}

#[test]
fn a_brittles_state_setter_in_its_class_is_found_by_the_class_run() {
    // The brittle passes only after k7#4.
    let passes = |order: &[String]| {
        let at = order.iter().position(|t| t == "v")?;
        Some(order[..at].iter().any(|t| t == "k7#4"))
    };
    let (explanation, queries) =
        classes_of_ten_with(OdRole::Brittle, &passes, &Hints::default(), true);
    assert_eq!(explanation.stage, Stage::Done);
    assert_eq!(explanation.culprits, [ids(&["k7#4"])]);
    assert_eq!(queries[0].order, class_run());
    assert_eq!(queries[0].kind, ExperimentKind::SetterSearch);
    assert!(queries.iter().all(|q| matches!(
        q.kind,
        ExperimentKind::SetterSearch | ExperimentKind::SetterPair
    )));
    let long = queries.iter().filter(|q| q.order.len() > 10).count();
    assert_eq!(long, 4);
}
