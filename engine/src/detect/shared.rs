//! Explanations in shared JVMs (`odrust.isolation=classloader`, `docs/isolation.md`).
//!
//! Explanation experiments are planned *shareable*: once the module passed the isolation check,
//! the plugin runs them in shared JVMs with fresh class loaders, as it runs rounds. They only
//! propose. Each claim an explanation reports (a polluter or state-setter: `[p, t]`, or a group
//! then `t`; a cleaner: `[p, c, t]`) whose run was in a shared JVM is run once more in a fresh JVM
//! before it is reported (`detect::minimize`). An OD test a claim of which a fresh JVM does not
//! repeat, or whose search in shared JVMs found no single culprit, is explained again from
//! fresh-JVM runs alone.
//!
//! This file keeps what that needs from the history: which orders first ran in a shared JVM,
//! their fresh reruns, and the OD tests whose claims a fresh JVM refuted.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::units::Results;
use crate::model::experiment::{ExperimentRecord, Isolation};

/// What explanation experiments in shared JVMs left, replayed from the history.
#[derive(Debug, Default)]
pub(super) struct SharedRuns {
    /// Orders whose first run (the one the planner's `observed` keeps) was in a shared JVM.
    first_shared: HashSet<Vec<String>>,
    /// The first fresh-JVM run of each of those orders.
    fresh_again: HashMap<Vec<String>, Results>,
    /// The units (the last of each order) whose explanation ran experiments in shared JVMs.
    units: HashSet<String>,
    /// OD tests a claim of which a fresh JVM did not repeat: explained from fresh JVMs alone.
    refuted: BTreeSet<String>,
    /// Explanation experiments that ran in shared JVMs.
    pub(super) experiments: u32,
    /// Explanation experiments that reran, in a fresh JVM, an order first run in a shared one.
    pub(super) checks: u32,
}

impl SharedRuns {
    /// Takes in one finished experiment, before the planner keeps its results, as the run of
    /// `order` (its order, or the part of it up to one of several subjects,
    /// `replay::observed_orders`); `earlier` is the first run of `order`, if one ran before.
    pub(super) fn absorb(
        &mut self,
        record: &ExperimentRecord,
        order: &[String],
        results: &Results,
        earlier: Option<&Results>,
    ) {
        let explaining = record.kind.is_minimize();
        let whole = order == record.order.as_slice();
        if record.isolation == Isolation::Classloader {
            if earlier.is_none() {
                self.first_shared.insert(order.to_vec());
            }
            if explaining {
                self.experiments += u32::from(whole);
                if let Some(unit) = order.last() {
                    self.units.insert(unit.clone());
                }
            }
            return;
        }
        if !self.first_shared.contains(order) {
            return;
        }
        if explaining && whole {
            self.checks += 1;
            if let (Some(target), Some(before)) = (record.targets.first(), earlier) {
                if before.passed(target) != results.passed(target) {
                    self.refuted.insert(target.clone());
                }
            }
        }
        self.fresh_again
            .entry(order.to_vec())
            .or_insert_with(|| results.clone());
    }

    /// The first fresh-JVM run of `order`: `observed`'s (every run's first) unless that one ran
    /// in a shared JVM.
    pub(super) fn fresh<'a>(
        &'a self,
        observed: &'a HashMap<Vec<String>, Results>,
        order: &[String],
    ) -> Option<&'a Results> {
        if self.first_shared.contains(order) {
            self.fresh_again.get(order)
        } else {
            observed.get(order)
        }
    }

    /// Whether the first run of `order` was in a shared JVM.
    pub(super) fn first_shared(&self, order: &[String]) -> bool {
        self.first_shared.contains(order)
    }

    /// Whether an explanation experiment ending with `unit` ran in a shared JVM.
    pub(super) fn explained_shared(&self, unit: &str) -> bool {
        self.units.contains(unit)
    }

    /// Whether a fresh JVM refuted a claim about `test` that a shared JVM showed.
    pub(super) fn refuted(&self, test: &str) -> bool {
        self.refuted.contains(test)
    }

    /// The OD tests a fresh JVM refuted a claim of, in order.
    pub(super) fn refuted_tests(&self) -> impl Iterator<Item = &String> {
        self.refuted.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::experiment::{ExperimentKind, TestResult};
    use crate::model::outcome::RunOutcome;

    fn record(order: &[&str], victim_passed: bool, shared: bool) -> ExperimentRecord {
        let outcome = |p: bool| {
            if p {
                RunOutcome::Pass
            } else {
                RunOutcome::Fail
            }
        };
        let order: Vec<String> = order.iter().map(|s| s.to_string()).collect();
        let mut results: Vec<TestResult> = order[..order.len() - 1]
            .iter()
            .map(|t| TestResult::new(t.clone(), RunOutcome::Pass))
            .collect();
        results.push(TestResult::new(
            order.last().unwrap().clone(),
            outcome(victim_passed),
        ));
        ExperimentRecord {
            id: 1,
            kind: ExperimentKind::PolluterPair,
            round: None,
            strategy: None,
            targets: vec![order.last().unwrap().clone(), order[0].clone()],
            order,
            results,
            honoured: true,
            millis: 0,
            class_state: Vec::new(),
            time: None,
            isolation: if shared {
                Isolation::Classloader
            } else {
                Isolation::Jvm
            },
            shareable: true,
        }
    }

    /// Feeds `records` as the planner does, keeping the first run of each order.
    fn replay(records: &[ExperimentRecord]) -> (SharedRuns, HashMap<Vec<String>, Results>) {
        let mut shared = SharedRuns::default();
        let mut observed: HashMap<Vec<String>, Results> = HashMap::new();
        for r in records {
            let results = Results::of(r);
            shared.absorb(r, &r.order, &results, observed.get(&r.order));
            observed.entry(r.order.clone()).or_insert(results);
        }
        (shared, observed)
    }

    #[test]
    fn a_fresh_rerun_that_agrees_is_the_fresh_view_and_refutes_nothing() {
        let (shared, observed) = replay(&[
            record(&["p", "v"], false, true),
            record(&["p", "v"], false, false),
        ]);
        let order = vec!["p".to_string(), "v".to_string()];
        assert_eq!(
            shared.fresh(&observed, &order).and_then(|r| r.passed("v")),
            Some(false)
        );
        assert!(!shared.refuted("v"));
        assert!(shared.explained_shared("v"));
        assert_eq!((shared.experiments, shared.checks), (1, 1));
    }

    #[test]
    fn a_fresh_rerun_that_disagrees_refutes_the_test() {
        let (shared, observed) = replay(&[
            record(&["p", "v"], false, true),
            record(&["p", "v"], true, false),
        ]);
        assert!(shared.refuted("v"));
        let order = vec!["p".to_string(), "v".to_string()];
        // The planner's first run is the shared one; the fresh view is the rerun's.
        assert_eq!(observed[&order].passed("v"), Some(false));
        assert_eq!(
            shared.fresh(&observed, &order).and_then(|r| r.passed("v")),
            Some(true)
        );
        assert_eq!(shared.refuted_tests().collect::<Vec<_>>(), ["v"]);
    }

    #[test]
    fn an_order_run_only_in_a_shared_jvm_has_no_fresh_view() {
        let (shared, observed) = replay(&[
            record(&["p", "v"], false, true),
            record(&["q", "v"], true, false),
        ]);
        let pv = vec!["p".to_string(), "v".to_string()];
        let qv = vec!["q".to_string(), "v".to_string()];
        assert!(shared.fresh(&observed, &pv).is_none());
        assert_eq!(
            shared.fresh(&observed, &qv).and_then(|r| r.passed("v")),
            Some(true)
        );
        assert_eq!(shared.checks, 0);
        assert!(!shared.explained_shared("p"));
    }
}
