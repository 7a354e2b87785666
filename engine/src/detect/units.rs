//! Orders and what ran in them: the unit of an order that runs a test, an order cut after some
//! tests, one run's results by test.

use std::collections::{HashMap, HashSet};

use crate::model::experiment::ExperimentRecord;
use crate::model::testid::container_of;

/// Pass/not-pass (or unknown) and message per result id of one experiment.
#[derive(Debug, Clone, Default)]
pub(super) struct Results(pub(super) HashMap<String, (Option<bool>, Option<String>)>);

impl Results {
    pub(super) fn of(record: &ExperimentRecord) -> Self {
        let mut map: HashMap<String, (Option<bool>, Option<String>)> = HashMap::new();
        for r in &record.results {
            let verdict = r.outcome.passed();
            let entry = map.entry(r.test.clone()).or_insert((None, None));
            // A test reported twice keeps its worst verdict: not-pass over pass over unknown.
            if verdict == Some(false) && entry.0 != Some(false) {
                *entry = (verdict, r.message.clone());
            } else if verdict == Some(true) && entry.0.is_none() {
                entry.0 = verdict;
            }
        }
        Results(map)
    }

    pub(super) fn passed(&self, test: &str) -> Option<bool> {
        self.0.get(test).and_then(|(v, _)| *v)
    }

    pub(super) fn message(&self, test: &str) -> Option<String> {
        self.0.get(test).and_then(|(_, m)| m.clone())
    }

    /// The results of the tests `order` runs (a part of the run's order): a test's outcome
    /// depends only on the tests before it.
    pub(super) fn within(&self, order: &[String]) -> Self {
        let units: HashSet<&str> = order.iter().map(String::as_str).collect();
        Results(
            self.0
                .iter()
                .filter(|(t, _)| units.contains(t.as_str()) || units.contains(container_of(t)))
                .map(|(t, v)| (t.clone(), v.clone()))
                .collect(),
        )
    }
}

/// The unit of `order` that ran `test`: the test itself, or its dynamic container.
pub(super) fn unit_in(order: &[String], test: &str) -> String {
    let container = container_of(test);
    if order.iter().any(|u| u == test) || !order.iter().any(|u| u == container) {
        test.to_string()
    } else {
        container.to_string()
    }
}

/// `order` cut right after the last unit that runs one of `tests` (all of it if none does).
pub(super) fn cut_after_last(order: &[String], tests: &[String]) -> Vec<String> {
    let last = order
        .iter()
        .rposition(|u| tests.iter().any(|t| t == u || container_of(t) == u));
    match last {
        Some(i) => order[..=i].to_vec(),
        None => order.to_vec(),
    }
}

/// The units a minimization experiment runs after the last test it examines (victims of one
/// cause, `explain::minimize::Hints::victims`): its subjects, when there are several.
pub(super) fn subjects(record: &ExperimentRecord) -> &[String] {
    if !record.kind.is_minimize() || record.targets.len() < 2 {
        return &[];
    }
    let examined: HashSet<&String> = record.targets[1..].iter().collect();
    match record.order.iter().rposition(|u| examined.contains(u)) {
        Some(last) if last + 2 < record.order.len() => &record.order[last + 1..],
        _ => &[],
    }
}

/// The orders whose outcomes `record` shows: its order, and when a minimization experiment runs
/// several subjects after the tests it examines (`subjects`, from [`subjects`]), the part of it
/// up to each of them. A test's outcome depends only on the tests before it.
pub(super) fn observed_orders(record: &ExperimentRecord, subjects: &[String]) -> Vec<Vec<String>> {
    let subjects = subjects.len();
    if subjects == 0 {
        return vec![record.order.clone()];
    }
    let first = record.order.len() - subjects;
    // Not a part as short as a pair or triple run: those stay the runs of their own that verify
    // a polluter or cleaner (the subject's verdict is also that of the whole order).
    (first..record.order.len())
        .filter(|&end| end >= 3 || end + 1 == record.order.len())
        .map(|end| record.order[..=end].to_vec())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::experiment::{ExperimentKind, Isolation, TestResult};
    use crate::model::outcome::RunOutcome;

    fn record(kind: ExperimentKind, order: &[&str], targets: &[&str]) -> ExperimentRecord {
        let ids = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        ExperimentRecord {
            id: 1,
            kind,
            round: None,
            strategy: None,
            targets: ids(targets),
            results: order
                .iter()
                .map(|t| TestResult::new(t.to_string(), RunOutcome::Pass))
                .collect(),
            order: ids(order),
            honoured: true,
            millis: 0,
            class_state: Vec::new(),
            time: None,
            isolation: Isolation::Jvm,
            shareable: false,
        }
    }

    fn lengths(orders: Vec<Vec<String>>) -> Vec<usize> {
        orders.iter().map(Vec::len).collect()
    }

    #[test]
    fn a_run_of_several_subjects_is_also_the_run_of_each_part_up_to_one_of_them() {
        use ExperimentKind::*;
        let cause = record(
            PolluterSearch,
            &["a", "b", "c", "v1", "v2", "v3"],
            &["v2", "a", "b", "c"],
        );
        assert_eq!(subjects(&cause), ["v1", "v2", "v3"]);
        assert_eq!(
            lengths(observed_orders(&cause, subjects(&cause))),
            [4, 5, 6]
        );
        // One subject last, as every search, pair and triple: the order only.
        let search = record(PolluterSearch, &["a", "b", "v"], &["v", "a", "b"]);
        assert!(subjects(&search).is_empty());
        assert_eq!(lengths(observed_orders(&search, subjects(&search))), [3]);
        let triple = record(Cleaner, &["p", "c", "v"], &["v", "p", "c"]);
        assert_eq!(lengths(observed_orders(&triple, subjects(&triple))), [3]);
        // Not a part as short as a pair or triple: the whole order only, its subjects all
        // the same.
        let small = record(Cleaner, &["p", "o", "v1", "v2"], &["v1", "p", "o"]);
        assert_eq!(subjects(&small), ["v1", "v2"]);
        assert_eq!(lengths(observed_orders(&small, subjects(&small))), [4]);
        // Not minimization: the order only.
        let round = record(Round, &["a", "b", "c", "d"], &[]);
        assert_eq!(lengths(observed_orders(&round, subjects(&round))), [4]);
    }
}
