//! The minimization phase of `odrust:detect`: explaining each OD test by the tests it depends on
//! (`docs/minimize-algorithm.md`).
//!
//! For a **victim**: *every* single polluter among the suite's tests, by adaptive group testing
//! ([`crate::explain::group`]): first over the tests that ran before it in its failing order
//! (known to fail it), then over all the others; each polluter is verified by its own pair run
//! `[p, v]`. When no single test fails it, delta debugging ([`crate::explain::ddmin`]) finds a
//! 1-minimal polluter group. Then every cleaner of each single polluter, by group testing over
//! `[p, C..., v]`. For a **brittle**: its state-setters the same way, with "the brittle passes" as
//! the oracle.
//!
//! Like the rest of the planner, [`explain`] is a pure function: it gets the outcomes observed so
//! far (any experiment of the history with exactly the order it needs) and returns what they
//! show plus the next experiment it needs, if any. Nothing is asked whose order was already run,
//! so runs made for one OD test serve every other. The caller ([`crate::detect`]) decides which
//! OD test goes next and bounds the experiments with the budget.

use std::collections::{BTreeMap, HashSet};

use crate::explain::ddmin::{ddmin_step, DdminStep};
use crate::explain::group::{find_all_step, GroupStep, Groups, Search};
use crate::model::experiment::ExperimentKind;
use crate::model::kind::OdRole;

/// The OD test to explain.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    /// Its id (a result id).
    pub test: &'a str,
    /// The unit of an order that runs it (the test, or its dynamic container).
    pub unit: &'a str,
    /// Victim or brittle.
    pub role: OdRole,
    /// The units that ran before it in its failing order (victim) or passing order (brittle).
    pub prefix: &'a [String],
}

/// What other OD tests' explanations verified, tried first for this one (shared work): each hint
/// still has to show the dependency in this test's own run (`[t, v]`, `[p, c, v]`) to count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    /// Culprits (single polluters or state-setters) of related OD tests.
    pub culprits: Vec<String>,
    /// Cleaners of a polluter for related victims, by polluter.
    pub cleaners: BTreeMap<String, Vec<String>>,
    /// Cleaners of other polluters (the victim's own, then related victims'), tried after
    /// `cleaners` for the polluter that is the key, until [`POOLED_MISSES`] in a row miss.
    pub pooled_cleaners: BTreeMap<String, Vec<String>>,
    /// The same for a polluter with no entry in `pooled_cleaners`.
    pub pooled_cleaners_default: Vec<String>,
}

/// Pooled cleaner hints stop after this many in a row do not clean: a cleaner of another
/// polluter is likely, not certain, to clean this one (a miss costs one run).
pub const POOLED_MISSES: usize = 3;

/// An experiment the explanation needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// `polluter-search` (a set of tests, then the victim), `polluter-pair` (one test),
    /// `cleaner` (a polluter, a set of tests, the victim), `setter-search` or `setter-pair`.
    pub kind: ExperimentKind,
    /// The order to run; the subject's unit is last.
    pub order: Vec<String>,
    /// The subject first, then the tests under examination.
    pub targets: Vec<String>,
}

/// How far an explanation got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// Group testing for single polluters (state-setters): `found` so far.
    Culprits {
        /// Found so far.
        found: usize,
    },
    /// Delta debugging for a group, no single culprit existing.
    Group,
    /// Group testing for cleaners of `polluter`; `left` candidates not cleared yet.
    Cleaners {
        /// The polluter.
        polluter: String,
        /// Candidates neither found nor cleared.
        left: usize,
    },
    /// Detection's: the search is complete, and a claim it found in a shared JVM runs again in a
    /// fresh JVM before it is reported (`detect::shared`). [`explain`] never returns it.
    Confirming,
    /// Complete.
    Done,
}

/// What the observed outcomes show about one OD test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// Polluters (victim) or state-setters (brittle): single tests as one-element groups, or,
    /// when no single test suffices, the 1-minimal group delta debugging found.
    pub culprits: Vec<Vec<String>>,
    /// Victim only: the cleaners found for each single polluter (an empty list when none).
    pub cleaners: BTreeMap<String, Vec<String>>,
    /// Where it stopped (the next query belongs to this stage).
    pub stage: Stage,
    /// Whether the search for single culprits ran to the end over every test of the suite.
    pub culprits_complete: bool,
    /// While the search for single culprits runs: the tests that may still be culprits (neither
    /// found nor cleared).
    pub culprits_open: Vec<String>,
}

/// The explanation of `subject` from the outcomes `observed` gives, and the next experiment it
/// needs (`None` when complete).
///
/// `observed(order)` is `None` when no experiment ran exactly `order`, otherwise the subject's
/// verdict in the first one that did (`Some(true)` passed, `Some(false)` did not pass, `None`
/// not reported). `units` is the suite's original order (the candidates). `hints` are tried
/// first by their own runs; a hint that shows the dependency is left out of the group tests,
/// which then only have to show that nothing else does.
/// `same_class(a, b)` tells whether two units belong to one class record: when a polluter and
/// its victim share a class, only tests of that class can run between them (JUnit runs a class
/// as one block, so `[p, c, v]` with `c` elsewhere would rerun the class's setup before `v` and
/// show cleaners that no real run can have).
pub fn explain(
    subject: Subject<'_>,
    units: &[String],
    hints: &Hints,
    observed: &dyn Fn(&[String]) -> Option<Option<bool>>,
    same_class: &dyn Fn(&str, &str) -> bool,
) -> (Explanation, Option<Query>) {
    let Subject {
        test,
        unit,
        role,
        prefix,
    } = subject;
    // The verdict that shows a dependency: the victim fails, the brittle passes.
    let shows = match role {
        OdRole::Victim => Some(false),
        OdRole::Brittle => Some(true),
    };
    let (search_kind, pair_kind) = match role {
        OdRole::Victim => (ExperimentKind::PolluterSearch, ExperimentKind::PolluterPair),
        OdRole::Brittle => (ExperimentKind::SetterSearch, ExperimentKind::SetterPair),
    };
    let then_unit = |before: &[String], tests: &[String]| -> Vec<String> {
        let mut order: Vec<String> = before.to_vec();
        order.extend(tests.iter().cloned());
        order.push(unit.to_string());
        order
    };
    let query = |kind, order, examined: &[String]| {
        let mut targets = vec![test.to_string()];
        targets.extend(examined.iter().cloned());
        Some(Query {
            kind,
            order,
            targets,
        })
    };
    let culprit_kind = |set: &[String]| {
        if set.len() == 1 {
            pair_kind
        } else {
            search_kind
        }
    };
    let mut explanation = Explanation {
        culprits: Vec::new(),
        cleaners: BTreeMap::new(),
        stage: Stage::Culprits { found: 0 },
        culprits_complete: false,
        culprits_open: Vec::new(),
    };
    let shown =
        |before: &[String], set: &[String]| observed(&then_unit(before, set)).map(|v| v == shows);

    // Culprits in a canonical order, however they were found: the prefix's order, then the
    // suite's; cleaners in the suite's order.
    let rank = |t: &String| match subject.prefix.iter().position(|p| p == t) {
        Some(i) => (0, i),
        None => (1, units.iter().position(|u| u == t).unwrap_or(usize::MAX)),
    };
    let as_groups = |singles: &[String]| -> Vec<Vec<String>> {
        let mut sorted: Vec<&String> = singles.iter().collect();
        sorted.sort_by_key(|t| rank(t));
        sorted.into_iter().map(|t| vec![t.clone()]).collect()
    };
    let in_suite_order = |mut tests: Vec<String>| -> Vec<String> {
        tests.sort_by_key(|t| units.iter().position(|u| u == t).unwrap_or(usize::MAX));
        tests
    };

    // Single culprits: first among the tests that ran before it (known to show the dependency),
    // then among every other test of the suite.
    let in_prefix: HashSet<&String> = prefix.iter().collect();
    let rest: Vec<String> = units
        .iter()
        .filter(|u| u.as_str() != unit && !in_prefix.contains(u))
        .cloned()
        .collect();
    let mut singles: Vec<String> = Vec::new();
    // Shared work: what related OD tests showed, by this test's own pair runs first.
    for hint in hints
        .culprits
        .iter()
        .filter(|h| h.as_str() != unit && units.contains(h))
    {
        match shown(&[], std::slice::from_ref(hint)) {
            Some(true) => singles.push(hint.clone()),
            Some(false) => {}
            None => {
                explanation.culprits = as_groups(&singles);
                explanation.culprits_open = prefix
                    .iter()
                    .chain(&rest)
                    .filter(|t| !singles.contains(t))
                    .cloned()
                    .collect();
                explanation.stage = Stage::Culprits {
                    found: singles.len(),
                };
                let pair = std::slice::from_ref(hint);
                return (explanation, query(pair_kind, then_unit(&[], pair), pair));
            }
        }
    }
    let hinted = singles.clone();
    let prefix: Vec<String> = prefix
        .iter()
        .filter(|t| !hinted.contains(t))
        .cloned()
        .collect();
    let rest: Vec<String> = rest.into_iter().filter(|t| !hinted.contains(t)).collect();
    let mut joint: Vec<Vec<String>> = Vec::new();
    for (round, (set, known_positive)) in [
        (prefix.as_slice(), hinted.is_empty()),
        (rest.as_slice(), false),
    ]
    .into_iter()
    .enumerate()
    {
        let search = Search {
            known_positive,
            both_ways: true,
        };
        let found: Groups<String> = match find_all_step(set, search, |s| shown(&[], s)) {
            GroupStep::Query(q, partial) => {
                let ruled: HashSet<&String> =
                    partial.cleared.iter().chain(&partial.singles).collect();
                explanation.culprits_open =
                    set.iter().filter(|t| !ruled.contains(t)).cloned().collect();
                if round == 0 {
                    explanation.culprits_open.extend(rest.iter().cloned());
                }
                singles.extend(partial.singles);
                explanation.culprits = as_groups(&singles);
                explanation.stage = Stage::Culprits {
                    found: singles.len(),
                };
                return (explanation, query(culprit_kind(&q), then_unit(&[], &q), &q));
            }
            GroupStep::Done(found) => found,
        };
        singles.extend(found.singles);
        joint.extend(found.joint);
    }
    explanation.culprits_complete = true;
    explanation.culprits = as_groups(&singles);
    let singles: Vec<String> = explanation.culprits.iter().map(|g| g[0].clone()).collect();

    // No single culprit: the smallest group that shows it, by delta debugging.
    if singles.is_empty() {
        if let Some(set) = joint.first() {
            match ddmin_step(set, |subset| shown(&[], subset)) {
                DdminStep::Query(subset) => {
                    explanation.stage = Stage::Group;
                    return (
                        explanation,
                        query(search_kind, then_unit(&[], &subset), &subset),
                    );
                }
                DdminStep::Done(minimal) if minimal.len() >= 2 => {
                    explanation.culprits = vec![minimal];
                }
                DdminStep::Done(_) => {}
            }
        }
    }

    if role == OdRole::Victim {
        let mut singles = singles;
        // Cleaners can hide polluters from both sides in every set: once the cleaners of the
        // polluters found are known, the rest of the suite without them is searched again
        // (forward and reversed), until a sweep finds no new polluter.
        explanation.culprits_complete = false;
        loop {
            // Cleaners found in this pass, in the order found (hints for the next polluters).
            let mut pass_cleaners: Vec<String> = Vec::new();
            for polluter in &singles {
                let shared = same_class(polluter, unit);
                // Other single polluters would fail the victim on their own: never candidates.
                let candidates: Vec<String> = units
                    .iter()
                    .filter(|c| c.as_str() != unit && !singles.contains(c))
                    .filter(|c| !shared || same_class(c, unit))
                    .cloned()
                    .collect();
                let before = std::slice::from_ref(polluter);
                let search = Search {
                    known_positive: false,
                    both_ways: false,
                };
                let cleans =
                    |set: &[String]| observed(&then_unit(before, set)).map(|v| v == Some(true));
                // Shared work: cleaners of this polluter for related victims, by their own triples.
                let mut hinted: Vec<String> = Vec::new();
                let mut tried: Vec<(&String, bool)> = hints
                    .cleaners
                    .get(polluter)
                    .into_iter()
                    .flatten()
                    .map(|h| (h, false))
                    .collect();
                // Then the cleaners of this victim's polluters searched before in this pass, then
                // the pool.
                let pool = hints
                    .pooled_cleaners
                    .get(polluter)
                    .unwrap_or(&hints.pooled_cleaners_default);
                for h in pass_cleaners.iter().chain(pool) {
                    if !tried.iter().any(|(t, _)| *t == h) {
                        tried.push((h, true));
                    }
                }
                let mut misses = 0;
                for (hint, pooled) in tried.into_iter().filter(|(h, _)| candidates.contains(h)) {
                    if pooled && misses >= POOLED_MISSES {
                        break;
                    }
                    match cleans(std::slice::from_ref(hint)) {
                        Some(true) => {
                            hinted.push(hint.clone());
                            misses = 0;
                        }
                        Some(false) => misses += usize::from(pooled),
                        None => {
                            explanation.stage = Stage::Cleaners {
                                polluter: polluter.clone(),
                                left: candidates.len() - hinted.len(),
                            };
                            explanation
                                .cleaners
                                .insert(polluter.clone(), in_suite_order(hinted));
                            let examined = vec![polluter.clone(), hint.clone()];
                            return (
                                explanation,
                                query(
                                    ExperimentKind::Cleaner,
                                    then_unit(before, std::slice::from_ref(hint)),
                                    &examined,
                                ),
                            );
                        }
                    }
                }
                let candidates: Vec<String> = candidates
                    .into_iter()
                    .filter(|c| !hinted.contains(c))
                    .collect();
                match find_all_step(&candidates, search, cleans) {
                    GroupStep::Query(q, partial) => {
                        let ruled: HashSet<&String> =
                            partial.cleared.iter().chain(&partial.singles).collect();
                        let open: Vec<String> = candidates
                            .iter()
                            .filter(|c| !ruled.contains(c))
                            .cloned()
                            .collect();
                        explanation.stage = Stage::Cleaners {
                            polluter: polluter.clone(),
                            left: open.len(),
                        };
                        let mut found = hinted;
                        found.extend(partial.singles);
                        explanation
                            .cleaners
                            .insert(polluter.clone(), in_suite_order(found));
                        let mut examined = vec![polluter.clone()];
                        examined.extend(q.iter().cloned());
                        return (
                            explanation,
                            query(ExperimentKind::Cleaner, then_unit(before, &q), &examined),
                        );
                    }
                    GroupStep::Done(found) => {
                        let mut all = hinted;
                        all.extend(found.singles);
                        for c in &all {
                            if !pass_cleaners.contains(c) {
                                pass_cleaners.push(c.clone());
                            }
                        }
                        explanation
                            .cleaners
                            .insert(polluter.clone(), in_suite_order(all));
                    }
                }
            }
            let cleaners_all: HashSet<String> =
                explanation.cleaners.values().flatten().cloned().collect();
            if cleaners_all.is_empty() {
                break;
            }
            let sweep: Vec<String> = units
                .iter()
                .filter(|u| {
                    u.as_str() != unit && !singles.contains(u) && !cleaners_all.contains(*u)
                })
                .cloned()
                .collect();
            let search = Search {
                known_positive: false,
                both_ways: true,
            };
            match find_all_step(&sweep, search, |s| shown(&[], s)) {
                GroupStep::Query(q, partial) => {
                    let ruled: HashSet<&String> =
                        partial.cleared.iter().chain(&partial.singles).collect();
                    explanation.culprits_open = sweep
                        .iter()
                        .filter(|t| !ruled.contains(t))
                        .cloned()
                        .collect();
                    let mut found = singles.clone();
                    found.extend(partial.singles);
                    explanation.culprits = as_groups(&found);
                    explanation.stage = Stage::Culprits { found: found.len() };
                    return (explanation, query(culprit_kind(&q), then_unit(&[], &q), &q));
                }
                GroupStep::Done(found) if found.singles.is_empty() => break,
                GroupStep::Done(found) => {
                    singles.extend(found.singles);
                    explanation.culprits = as_groups(&singles);
                    singles = explanation.culprits.iter().map(|g| g[0].clone()).collect();
                }
            }
        }
        explanation.culprits_complete = true;
    }
    explanation.stage = Stage::Done;
    (explanation, None)
}

#[cfg(test)]
mod tests {
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
        let ran: RefCell<HashMap<Vec<String>, Option<bool>>> = RefCell::new(HashMap::new());
        let mut queries = Vec::new();
        loop {
            let (explanation, next) = explain(
                subject,
                units,
                &Hints::default(),
                &|order| ran.borrow().get(order).copied(),
                same_class,
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
        );
        assert!(next.is_none());
        assert_eq!(explanation.culprits, [ids(&["p"])]);
        assert_eq!(explanation.cleaners["p"], Vec::<String>::new());
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
}
