//! The baseline: the original order, run until every test passes; its tests sorted into
//! passing (the reference), failing and NOD.

use std::collections::{BTreeMap, HashSet};

use super::findings::{FailingTest, FlakyTest};
use super::replay::Replay;
use crate::model::experiment::ExperimentRecord;
use crate::model::kind::FlakyKind;
use crate::schedule::dependence::cost_from_baseline;

impl Replay {
    /// Sorts the baseline's tests into reference (passing), failing and NOD.
    pub(super) fn finish_baseline(&mut self, last: &ExperimentRecord) {
        self.baseline_done = true;
        // The cost model of the plan, unless configured: the baseline's times (systematic
        // schedules are priced by it; with `odrust.costAware` they rank their orders by it and
        // explanations plan from it, `Replay::times`).
        if self.cost.is_none() {
            let records: Vec<&ExperimentRecord> = self.baseline_records.iter().collect();
            self.cost = cost_from_baseline(&records);
        }
        // Result ids in order of first appearance across the baseline runs.
        let mut ids: Vec<&str> = Vec::new();
        let mut seen = HashSet::new();
        for id in last.results.iter().map(|r| r.test.as_str()) {
            if seen.insert(id) {
                ids.push(id);
            }
        }
        let mut all: Vec<String> = self
            .baseline
            .iter()
            .flat_map(|(_, r)| r.0.keys().cloned())
            .collect();
        all.sort();
        for id in &all {
            if seen.insert(id) {
                ids.push(id);
            }
        }
        let mut failing = Vec::new();
        let mut nod = Vec::new();
        let mut reference = HashSet::new();
        for id in ids {
            let first_fail = self
                .baseline
                .iter()
                .find(|(_, r)| r.passed(id) == Some(false));
            let first_pass = self
                .baseline
                .iter()
                .find(|(_, r)| r.passed(id) == Some(true));
            match (first_fail, first_pass) {
                (None, Some(_)) => {
                    reference.insert(id.to_string());
                }
                (Some(_), None) => {
                    let message = self
                        .baseline
                        .iter()
                        .rev()
                        .find(|(_, r)| r.passed(id) == Some(false))
                        .and_then(|(_, r)| r.message(id));
                    failing.push(FailingTest {
                        test: id.to_string(),
                        message,
                    });
                }
                (Some((fail_id, fail)), Some((pass_id, _))) => {
                    let run_no = |exp: usize| {
                        self.baseline
                            .iter()
                            .position(|(e, _)| *e == exp)
                            .unwrap_or(0)
                            + 1
                    };
                    nod.push(FlakyTest {
                        test: id.to_string(),
                        kind: FlakyKind::Nod,
                        failing_experiment: *fail_id,
                        passing_experiment: *pass_id,
                        message: fail.message(id),
                        alone: None,
                        polluters: Vec::new(),
                        cleaners: BTreeMap::new(),
                        state_setters: Vec::new(),
                        flake_rate: None,
                        minimize_experiments: 0,
                    minimize_complete: false,
                    cleaners_unfinished: Vec::new(),
                    shard: None,
                        evidence: format!(
                            "failed in baseline run {} (experiment {fail_id}) and passed in baseline run {} (experiment {pass_id}) of the same original order",
                            run_no(*fail_id),
                            run_no(*pass_id)
                        ),
                    });
                }
                (None, None) => {}
            }
        }
        failing.sort_by(|a, b| a.test.cmp(&b.test));
        for n in &nod {
            self.classified.insert(n.test.clone());
        }
        self.failing = failing;
        self.nod.extend(nod);
        self.reference = reference;
    }

    /// "experiments 1, 2, 3" (or "experiment 1"): the baseline runs.
    pub(super) fn baseline_text(&self) -> String {
        let ids: Vec<String> = self.baseline.iter().map(|(e, _)| e.to_string()).collect();
        match ids.len() {
            1 => format!("experiment {}", ids[0]),
            _ => format!("experiments {}", ids.join(", ")),
        }
    }
}
