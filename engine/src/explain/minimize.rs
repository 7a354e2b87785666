//! The minimization phase of `odrust:detect`: explaining each OD test by the tests it depends on
//! (`docs/minimize-algorithm.md`).
//!
//! For a **victim**: its polluters, found by delta debugging ([`crate::explain::ddmin`]) over the tests
//! that ran before it in its failing order, confirmed and completed by pair runs `[t, v]`; then
//! the cleaners of each single polluter, by triple runs `[p, c, v]`. For a **brittle**: its
//! state-setters, the same way over its passing order, with "the brittle passes" as the oracle.
//!
//! Like the rest of the planner, [`explain`] is a pure function: it gets the outcomes observed so
//! far (any experiment of the history with exactly the order it needs) and returns what they
//! show plus the next experiment it needs, if any. Nothing is asked whose order was already run,
//! so pair runs made for one OD test serve every other. The caller ([`crate::detect`]) bounds the
//! experiments per OD test with the budget.

use std::collections::BTreeMap;

use crate::explain::ddmin::{ddmin_step, DdminStep};
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

/// An experiment the explanation needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// `polluter-search`, `polluter-pair`, `cleaner`, `setter-search` or `setter-pair`.
    pub kind: ExperimentKind,
    /// The order to run; the subject's unit is last.
    pub order: Vec<String>,
    /// The subject first, then the tests under examination.
    pub targets: Vec<String>,
}

/// How far an explanation got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// Delta debugging over the prefix.
    Search,
    /// Trying the tests of the prefix one by one: `tried` of `of`.
    Singles { tried: usize, of: usize },
    /// Trying cleaner candidates of `polluter`: `tried` of `of`.
    Cleaners {
        polluter: String,
        tried: usize,
        of: usize,
    },
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
}

/// The explanation of `subject` from the outcomes `observed` gives, and the next experiment it
/// needs (`None` when complete).
///
/// `observed(order)` is `None` when no experiment ran exactly `order`, otherwise the subject's
/// verdict in the first one that did (`Some(true)` passed, `Some(false)` did not pass, `None`
/// not reported). `units` is the suite's original order (the cleaner candidates).
/// `same_class(a, b)` tells whether two units belong to one class record: when a polluter and
/// its victim share a class, only tests of that class can run between them (JUnit runs a class
/// as one block, so `[p, c, v]` with `c` elsewhere would rerun the class's setup before `v` and
/// show cleaners that no real run can have).
pub fn explain(
    subject: Subject<'_>,
    units: &[String],
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
    let then_unit = |tests: &[&String]| -> Vec<String> {
        let mut order: Vec<String> = tests.iter().map(|t| (*t).clone()).collect();
        order.push(unit.to_string());
        order
    };
    let query = |kind, order, examined: &[&String]| {
        let mut targets = vec![test.to_string()];
        targets.extend(examined.iter().map(|t| (*t).clone()));
        Some(Query {
            kind,
            order,
            targets,
        })
    };
    let mut explanation = Explanation {
        culprits: Vec::new(),
        cleaners: BTreeMap::new(),
        stage: Stage::Search,
    };

    let minimal = match ddmin_step(prefix, |subset| {
        let refs: Vec<&String> = subset.iter().collect();
        observed(&then_unit(&refs)).map(|v| v == shows)
    }) {
        DdminStep::Query(subset) => {
            let refs: Vec<&String> = subset.iter().collect();
            return (explanation, query(search_kind, then_unit(&refs), &[]));
        }
        DdminStep::Done(minimal) => minimal,
    };

    // A one-test search result is a single culprit as soon as its pair run shows it (the search
    // itself usually ran that pair), even before the singles stage reaches it.
    let minimal_single = match minimal.as_slice() {
        [m] if observed(&then_unit(&[m])) == Some(shows) => Some(m),
        _ => None,
    };
    let mut singles: Vec<String> = Vec::new();
    for (tried, t) in prefix.iter().enumerate() {
        let order = then_unit(&[t]);
        match observed(&order) {
            Some(verdict) => {
                if verdict == shows && !singles.contains(t) {
                    singles.push(t.clone());
                }
            }
            None => {
                let mut found = singles.clone();
                found.extend(minimal_single.filter(|m| !singles.contains(m)).cloned());
                explanation.culprits = culprits(&found, &minimal, prefix);
                explanation.stage = Stage::Singles {
                    tried,
                    of: prefix.len(),
                };
                return (explanation, query(pair_kind, order, &[t]));
            }
        }
    }
    explanation.culprits = culprits(&singles, &minimal, prefix);

    if role == OdRole::Victim {
        for polluter in &singles {
            let shared = same_class(polluter, unit);
            let candidates: Vec<&String> = units
                .iter()
                .filter(|c| c.as_str() != unit && *c != polluter && !singles.contains(c))
                .filter(|c| !shared || same_class(c, unit))
                .collect();
            let mut cleaners = Vec::new();
            for (tried, c) in candidates.iter().enumerate() {
                let order = then_unit(&[polluter, c]);
                match observed(&order) {
                    Some(verdict) => {
                        if verdict == Some(true) {
                            cleaners.push((*c).clone());
                        }
                    }
                    None => {
                        explanation.cleaners.insert(polluter.clone(), cleaners);
                        explanation.stage = Stage::Cleaners {
                            polluter: polluter.clone(),
                            tried,
                            of: candidates.len(),
                        };
                        return (
                            explanation,
                            query(ExperimentKind::Cleaner, order, &[polluter, c]),
                        );
                    }
                }
            }
            explanation.cleaners.insert(polluter.clone(), cleaners);
        }
    }
    explanation.stage = Stage::Done;
    (explanation, None)
}

/// The single culprits found, in prefix order; when there is none, the ddmin result as one
/// group if it has two or more tests (a one-test result is a single, found by its pair run).
fn culprits(singles: &[String], minimal: &[String], prefix: &[String]) -> Vec<Vec<String>> {
    if singles.is_empty() {
        return if minimal.len() >= 2 {
            vec![minimal.to_vec()]
        } else {
            Vec::new()
        };
    }
    let mut found: Vec<&String> = singles.iter().collect();
    found.sort_by_key(|t| prefix.iter().position(|p| p == *t));
    found.into_iter().map(|t| vec![t.clone()]).collect()
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

    /// The victim `v` fails iff the last of `polluters` / `cleaners` before it is a polluter.
    fn polluted(order: &[String]) -> Option<bool> {
        let mut dirty = false;
        for t in order {
            match t.as_str() {
                "p" | "q" => dirty = true,
                "c" => dirty = false,
                "v" => return Some(!dirty),
                _ => {}
            }
        }
        None
    }

    #[test]
    fn victim_with_two_polluters_and_a_cleaner() {
        let units = ids(&["a", "p", "b", "c", "q", "d", "v"]);
        let prefix = ids(&["d", "q", "b", "a", "p"]);
        let subject = Subject {
            test: "v",
            unit: "v",
            role: OdRole::Victim,
            prefix: &prefix,
        };
        let (explanation, queries) = drive(subject, &units, &polluted);
        assert_eq!(explanation.stage, Stage::Done);
        assert_eq!(explanation.culprits, [ids(&["q"]), ids(&["p"])]);
        assert_eq!(explanation.cleaners["p"], ids(&["c"]));
        assert_eq!(explanation.cleaners["q"], ids(&["c"]));
        let kinds = |k| queries.iter().filter(|q| q.kind == k).count();
        // Cleaner candidates: every unit but v, the polluter and the other polluter.
        assert_eq!(kinds(ExperimentKind::Cleaner), 2 * 4);
        assert!(kinds(ExperimentKind::PolluterSearch) >= 1);
        // Pairs of the prefix not already asked by ddmin.
        assert!(kinds(ExperimentKind::PolluterPair) <= prefix.len());
    }

    #[test]
    fn victim_needing_two_tests_together_gets_a_group() {
        let prefix = ids(&["a", "x", "b", "y", "c"]);
        let units = ids(&["a", "x", "b", "y", "c", "v"]);
        let oracle = |order: &[String]| {
            let has = |t: &str| order.iter().any(|o| o == t);
            Some(!(has("x") && has("y")))
        };
        let subject = Subject {
            test: "v",
            unit: "v",
            role: OdRole::Victim,
            prefix: &prefix,
        };
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
        let subject = Subject {
            test: "v",
            unit: "v",
            role: OdRole::Victim,
            prefix: &prefix,
        };
        let (explanation, queries) = drive_classes(subject, &units, &polluted, &same_class);
        assert_eq!(explanation.culprits, [ids(&["p"])]);
        assert_eq!(explanation.cleaners["p"], Vec::<String>::new());
        assert!(
            queries.iter().all(|q| !q.order.contains(&"c".to_string())),
            "{queries:?}"
        );
    }
}
