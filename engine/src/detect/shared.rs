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
//! A run that would itself be a claim (`[p, t]`, `[p, c, t]`) costs a shared run and, when it
//! shows, a fresh one. Where shared JVMs save little on such short orders (a module whose tests
//! leave threads that retire a shared JVM after each order, or whose first test in a class loader
//! costs what a fresh JVM does), the fresh run alone is cheaper: [`ClaimCosts`] measures both
//! costs and how often a shared claim run was run again fresh, and such runs go to a fresh JVM at
//! once when that is cheaper on this run's own measurements.
//!
//! This file keeps what that needs from the history: which orders first ran in a shared JVM,
//! their fresh reruns, the OD tests whose claims a fresh JVM refuted, and what claim runs cost.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::units::Results;
use crate::explain::minimize::Query;
use crate::model::experiment::{ExperimentKind, ExperimentRecord, Isolation};

/// Claim runs measured in shared JVMs before their cost decides where the next ones run.
const CLAIM_RUNS_SHARED: usize = 4;
/// Fresh claim runs measured before their cost decides.
const CLAIM_RUNS_FRESH: usize = 2;

/// Whether an explanation run is itself a claim's run should it show: one test (a pair) or one
/// candidate cleaner of one polluter, then the subject's unit and nothing else.
pub(super) fn claim_shaped(kind: ExperimentKind, order: &[String], targets: &[String]) -> bool {
    let examined = match kind {
        ExperimentKind::PolluterPair | ExperimentKind::SetterPair => 1,
        ExperimentKind::Cleaner => 2,
        _ => return false,
    };
    targets.len() == examined + 1
        && order.len() == targets.len()
        && order[..examined] == targets[1..]
}

/// What claim runs ([`claim_shaped`]) cost in this run, shared and fresh, and how often a shared
/// one was run again in a fresh JVM (it showed its claim, or its test was explained again fresh).
#[derive(Debug, Default)]
pub(super) struct ClaimCosts {
    /// Milliseconds of the first shared run of each claim order.
    shared_ms: Vec<u64>,
    /// The orders of those runs.
    shared_orders: HashSet<Vec<String>>,
    /// Milliseconds of each claim run in a fresh JVM.
    fresh_ms: Vec<u64>,
    /// Shared claim orders a fresh run of the same order followed.
    again: usize,
    /// Whether [`ClaimCosts::fresh_at_once`] held when a claim run came in: from then on the
    /// planner sent claim runs to fresh JVMs at once.
    switched: bool,
    /// Fresh claim runs, since `switched`, whose order had not run in a shared JVM before (at
    /// once, or in a test explained again from fresh JVMs alone).
    unshared: usize,
    /// [`ClaimCosts::decide`] on the figures above, kept up to date by [`ClaimCosts::measured`].
    at_once: bool,
}

impl ClaimCosts {
    /// Whether the next claim run is cheaper in a fresh JVM at once than shared first. Shared
    /// first costs a shared run `s` and, with the share `q` of shared runs run again fresh, `q f`
    /// more; fresh at once costs `f`. So fresh when `s > (1 - q) f`, with `q` taken as
    /// `(again + 1) / (n + 2)` (a few early runs that all showed, cleaner hints, do not make it 1),
    /// and only where a shared run costs at least half a fresh one: then fresh at once is no
    /// dearer for any `q` of one half or more, and a module where shared runs are cheap is not
    /// switched by a streak of claims that hold (after the switch no shared claim run is
    /// measured again). Shared, as before, until [`CLAIM_RUNS_SHARED`] shared and
    /// [`CLAIM_RUNS_FRESH`] fresh claim runs were measured.
    pub(super) fn fresh_at_once(&self) -> bool {
        self.at_once
    }

    /// Decides [`ClaimCosts::fresh_at_once`] again after a figure changed.
    fn measured(&mut self) {
        self.at_once = self.decide();
    }

    fn decide(&self) -> bool {
        if self.shared_ms.len() < CLAIM_RUNS_SHARED || self.fresh_ms.len() < CLAIM_RUNS_FRESH {
            return false;
        }
        let (Some(s), Some(f)) = (
            median(self.shared_ms.clone()),
            median(self.fresh_ms.clone()),
        ) else {
            return false;
        };
        let (s, f) = (u128::from(s), u128::from(f));
        let n = self.shared_ms.len() as u128 + 2;
        let again = (self.again as u128 + 1).min(n);
        // s > (1 - again / n) f, in integers
        2 * s >= f && s * n > (n - again) * f
    }

    /// When claim runs went to fresh JVMs at once, what the note says: why, and how many ran
    /// fresh without a shared run first.
    pub(super) fn note(&self) -> Option<String> {
        if self.unshared == 0 {
            return None;
        }
        let (s, f) = (
            median(self.shared_ms.clone())?,
            median(self.fresh_ms.clone())?,
        );
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        Some(format!(
            "a claim's own run (a polluter or state-setter then the test, or a polluter, one cleaner and the test) took {s} ms in a shared JVM and {f} ms in a fresh one here (medians), and {} of {} had to run again fresh, so later ones went to a fresh JVM at once: since then {} without a shared run first",
            self.again,
            plural(self.shared_ms.len(), "shared one", "shared ones"),
            plural(self.unshared, "claim run ran fresh", "claim runs ran fresh")
        ))
    }
}

/// The lower median of `values`; `None` when there is none (here, below `estimate`, which uses it
/// too: `estimate` imports `replay`, which imports this file).
pub(super) fn median<T: Ord + Copy>(mut values: Vec<T>) -> Option<T> {
    values.sort_unstable();
    values.get(values.len().saturating_sub(1) / 2).copied()
}

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
    /// What claim runs cost, shared and fresh.
    pub(super) claims: ClaimCosts,
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
        let claim = whole && claim_shaped(record.kind, &record.order, &record.targets);
        if claim {
            let switched = self.claims.switched;
            self.claims.switched |= self.claims.fresh_at_once();
            if switched
                && record.isolation != Isolation::Classloader
                && !self.first_shared.contains(order)
            {
                self.claims.unshared += 1;
            }
        }
        if record.isolation == Isolation::Classloader {
            if earlier.is_none() {
                self.first_shared.insert(order.to_vec());
            }
            if claim && self.claims.shared_orders.insert(order.to_vec()) {
                self.claims.shared_ms.push(record.millis);
                self.claims.measured();
            }
            if explaining {
                self.experiments += u32::from(whole);
                if let Some(unit) = order.last() {
                    self.units.insert(unit.clone());
                }
            }
            return;
        }
        if claim {
            self.claims.fresh_ms.push(record.millis);
            self.claims.measured();
        }
        if !self.first_shared.contains(order) {
            return;
        }
        if claim
            && self.claims.shared_orders.contains(order)
            && !self.fresh_again.contains_key(order)
        {
            self.claims.again += 1;
            self.claims.measured();
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

    /// Whether `query`, an explanation's next run, may run in a shared JVM: not when it is a
    /// claim run and those are cheaper in a fresh JVM at once ([`ClaimCosts::fresh_at_once`]).
    pub(super) fn shareable(&self, query: &Query) -> bool {
        !(claim_shaped(query.kind, &query.order, &query.targets) && self.claims.fresh_at_once())
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

    fn costs(shared_ms: &[u64], fresh_ms: &[u64], again: usize) -> ClaimCosts {
        let mut costs = ClaimCosts {
            shared_ms: shared_ms.to_vec(),
            fresh_ms: fresh_ms.to_vec(),
            again,
            ..ClaimCosts::default()
        };
        costs.measured();
        costs
    }

    #[test]
    fn claim_runs_go_fresh_at_once_only_when_that_is_cheaper_on_the_runs_measured() {
        // dubbo-common: a 3-test order cost what a fresh JVM costs; 4 of 5 ran again fresh
        assert!(costs(&[1400, 1300, 1370, 1500, 1350], &[1360, 1400], 4).fresh_at_once());
        // as cheap shared as fresh: fresh at once even when few ran again (it needs no check)
        assert!(costs(&[1000; 5], &[1000, 1000], 0).fresh_at_once());
        // shared saves 40% and claims seldom show: shared (1 of 7 expected again: 600 < 857)
        assert!(!costs(&[600; 5], &[1000, 1000], 0).fresh_at_once());
        // ... and with most showing, fresh (6 of 7: 600 > 143)
        assert!(costs(&[600; 5], &[1000, 1000], 5).fresh_at_once());
        // light-4j: 0.5 s shared against 2.7 s fresh: shared, even when every claim showed
        assert!(!costs(&[500; 5], &[2700, 2700], 4).fresh_at_once());
        assert!(!costs(&[500; 20], &[2700, 2700], 20).fresh_at_once());
        // too few runs measured: shared, as before
        assert!(!costs(&[1400; 3], &[1360, 1400], 3).fresh_at_once());
        assert!(!costs(&[1400; 5], &[1360], 5).fresh_at_once());
        // runs that cost nothing measured (a simulation) decide nothing
        assert!(!costs(&[0; 5], &[0, 0], 5).fresh_at_once());
    }

    #[test]
    fn claim_runs_are_a_pair_or_one_cleaner_then_the_unit_alone() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(claim_shaped(
            ExperimentKind::PolluterPair,
            &v(&["p", "t"]),
            &v(&["t", "p"])
        ));
        assert!(claim_shaped(
            ExperimentKind::SetterPair,
            &v(&["s", "b"]),
            &v(&["b", "s"])
        ));
        assert!(claim_shaped(
            ExperimentKind::Cleaner,
            &v(&["p", "c", "t"]),
            &v(&["t", "p", "c"])
        ));
        // a group of candidate cleaners, a search, or other victims after the unit: not a claim
        assert!(!claim_shaped(
            ExperimentKind::Cleaner,
            &v(&["p", "c", "d", "t"]),
            &v(&["t", "p", "c", "d"])
        ));
        assert!(!claim_shaped(
            ExperimentKind::PolluterSearch,
            &v(&["p", "t"]),
            &v(&["t", "p"])
        ));
        assert!(!claim_shaped(
            ExperimentKind::PolluterPair,
            &v(&["p", "t", "u"]),
            &v(&["t", "p"])
        ));
    }

    #[test]
    fn claim_costs_are_taken_from_the_history_and_a_shared_run_counts_as_run_again_once() {
        let mut shared = SharedRuns::default();
        let mut observed: HashMap<Vec<String>, Results> = HashMap::new();
        fn feed(
            shared: &mut SharedRuns,
            observed: &mut HashMap<Vec<String>, Results>,
            r: ExperimentRecord,
        ) {
            let results = Results::of(&r);
            shared.absorb(&r, &r.order, &results, observed.get(&r.order));
            observed.entry(r.order.clone()).or_insert(results);
        }
        for (i, shown) in [true, true, false, true].into_iter().enumerate() {
            let culprit = format!("x{i}");
            let mut r = record(&[&culprit, "v"], !shown, true);
            r.millis = 1300;
            feed(&mut shared, &mut observed, r.clone());
            if shown {
                r.isolation = Isolation::Jvm;
                r.millis = 1400;
                feed(&mut shared, &mut observed, r.clone());
                feed(&mut shared, &mut observed, r); // a second fresh run of the same order is no second one again
            }
        }
        assert_eq!(shared.claims.again, 3);
        assert_eq!(shared.claims.fresh_ms.len(), 6);
        assert!(shared.claims.note().is_none());
        // 2 * 1300 >= 1400, and 1300 * 6 > (6 - 4) * 1400
        assert!(shared.claims.fresh_at_once());
        // the next claim run, planned fresh at once
        let mut r = record(&["x9", "v"], false, false);
        r.shareable = false;
        feed(&mut shared, &mut observed, r);
        assert_eq!(shared.claims.unshared, 1);
        assert_eq!(
            shared.claims.note().unwrap(),
            "a claim's own run (a polluter or state-setter then the test, or a polluter, one cleaner and the test) took 1300 ms in a shared JVM and 1400 ms in a fresh one here (medians), and 3 of 4 shared ones had to run again fresh, so later ones went to a fresh JVM at once: since then 1 claim run ran fresh without a shared run first"
        );
        let pair = Query {
            kind: ExperimentKind::PolluterPair,
            order: vec!["y".into(), "v".into()],
            targets: vec!["v".into(), "y".into()],
        };
        assert!(!shared.shareable(&pair));
        let search = Query {
            kind: ExperimentKind::PolluterSearch,
            order: vec!["y".into(), "z".into(), "v".into()],
            targets: vec!["v".into(), "y".into(), "z".into()],
        };
        assert!(shared.shareable(&search));
    }
}
