//! What the results of one audit run say: each test's outcome on its first and second run,
//! the candidates of non-idempotence, the capture points around a copy's first test, and which
//! outcomes differ between two runs of the same order.

use std::collections::BTreeMap;

use crate::model::outcome::RunOutcome;
use crate::model::testid::{class_of, container_of};

use super::changes::first_jvm;
use super::shapes::{AuditRecord, Point};

/// Consecutive tests of one class, in the original order.
pub fn blocks(original: &[String]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for t in original {
        match out.last_mut() {
            Some(b) if class_of(&b[0]) == class_of(t) && !b.contains(t) => b.push(t.clone()),
            _ => out.push(vec![t.clone()]),
        }
    }
    out
}

/// Whether the outcome is a failure (`exit` included).
pub fn failed(o: RunOutcome) -> bool {
    o.passed() == Some(false)
}

/// How much an outcome says, for merging the invocations of one run: a failure over a pass,
/// a pass over a skip, anything over not run.
fn weight(o: RunOutcome) -> u8 {
    match o.passed() {
        Some(false) => 3,
        Some(true) => 2,
        None if o == RunOutcome::Skipped => 1,
        None => 0,
    }
}

/// Each test's outcomes by run: the first and second time each id ran, under the id itself and
/// under its container (`C#m` for `C#m[2]`), whose runs merge its invocations'.
pub fn outcomes_by_copy(
    record: &AuditRecord,
) -> BTreeMap<String, Vec<(RunOutcome, Option<String>)>> {
    // id that ran -> how many times so far
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    // id or container -> per copy: the outcome that says most, and its message
    let mut out: BTreeMap<String, Vec<(RunOutcome, Option<String>)>> = BTreeMap::new();
    for r in &record.results {
        let n = seen.entry(r.test.as_str()).or_default();
        *n += 1;
        let n = *n;
        let mut keys = vec![r.test.as_str()];
        if container_of(&r.test) != r.test {
            keys.push(container_of(&r.test));
        }
        for key in keys {
            let copies = out.entry(key.to_string()).or_default();
            while copies.len() < n {
                copies.push((RunOutcome::NotRun, None));
            }
            let slot = &mut copies[n - 1];
            if weight(r.outcome) > weight(slot.0) {
                *slot = (r.outcome, r.message.clone());
            }
        }
    }
    out
}

/// Tests that failed on their first run, and candidates (passed first, failed second) in the
/// original order with the second run's message.
pub fn twice_outcomes(
    record: &AuditRecord,
    original: &[String],
) -> (Vec<String>, Vec<(String, Option<String>)>) {
    let by = outcomes_by_copy(record);
    let mut failing = Vec::new();
    let mut candidates = Vec::new();
    for t in original {
        let Some(copies) = by.get(t.as_str()) else {
            continue;
        };
        match copies.as_slice() {
            [(first, _), ..] if failed(*first) => failing.push(t.clone()),
            [(RunOutcome::Pass, _), (second, message), ..] if failed(*second) => {
                candidates.push((t.clone(), message.clone()))
            }
            _ => {}
        }
    }
    (failing, candidates)
}

/// `(first, second, message)` when `test` passed its first run and failed its second in `record`.
pub fn repeats(
    record: &AuditRecord,
    test: &str,
) -> Option<(RunOutcome, RunOutcome, Option<String>)> {
    let by = outcomes_by_copy(record);
    match by.get(test)?.as_slice() {
        [(RunOutcome::Pass, _), (second, message), ..] if failed(*second) => {
            Some((RunOutcome::Pass, *second, message.clone()))
        }
        _ => None,
    }
}

/// The capture points before the first and the second start of `first` (a copy's first test):
/// its test points (by the agent's start count); when a start is missing (its class failed in
/// `@BeforeClass`, or the test is ignored), the first and second points before a segment that
/// begins with it, and for the second, else the end of the run. Only the first JVM's points.
pub fn brackets<'r>(record: &'r AuditRecord, first: &str) -> Option<(&'r Point, &'r Point)> {
    let points = first_jvm(record);
    let names = |p: &&Point| {
        p.test
            .as_deref()
            .is_some_and(|t| t == first || container_of(t) == first)
    };
    let test_at = |occurrence: u32| {
        points
            .iter()
            .copied()
            .filter(|p| p.at == "test")
            .filter(names)
            .find(|p| p.occurrence == Some(occurrence))
    };
    let mut class_points = points
        .iter()
        .copied()
        .filter(|p| p.at == "class")
        .filter(names);
    let (class_first, class_second) = (class_points.next(), class_points.next());
    let before = test_at(1).or(class_first)?;
    let after = test_at(2)
        .or(class_second)
        .or_else(|| points.iter().copied().find(|p| p.at == "end"))?;
    Some((before, after))
}

/// What the planner should say about a run: the agent wrote no point or no end, or the run went
/// on in another JVM.
pub fn run_problems(record: &AuditRecord) -> Option<String> {
    let id = record.experiment.id;
    if record.experiment.uses_agent() {
        let points = first_jvm(record);
        if points.is_empty() {
            return Some(format!("experiment {id}: the agent wrote no capture point (see audit/exp-{id}/jvm-1.log): its captures are missing"));
        }
        if points.len() < record.points.len() {
            return Some(format!("experiment {id} ran in more than one JVM (a test ended the first: System.exit, a crash or the timeout): only the first JVM's captures are used"));
        }
        if !points.iter().any(|p| p.at == "end") {
            return Some(format!("experiment {id}: the test JVM ended before the run's last capture point (see audit/exp-{id}/jvm-1.log)"));
        }
    } else if record.jvms > 1 {
        return Some(format!("experiment {id} ran in {} JVMs (a test ended one: System.exit, a crash or the timeout): a class whose second block ran in another JVM was not run twice in one", record.jvms));
    }
    None
}

/// Tests whose outcome (failed or not) differs between two runs of the same order.
pub fn outcome_changes(a: &AuditRecord, b: &AuditRecord) -> Vec<String> {
    let first = |r: &AuditRecord| -> BTreeMap<String, bool> {
        let mut m = BTreeMap::new();
        for t in &r.results {
            m.entry(t.test.clone()).or_insert(failed(t.outcome));
        }
        m
    };
    let (x, y) = (first(a), first(b));
    x.iter()
        .filter(|(t, f)| y.get(*t).is_some_and(|g| g != *f))
        .map(|(t, _)| t.clone())
        .collect()
}
