//! What the results of one audit run say: each test's outcome on its first and second run,
//! the candidates of non-idempotence, the capture points around a copy's first test, and which
//! outcomes differ between two runs of the same order.

use std::collections::BTreeMap;

use crate::model::outcome::RunOutcome;
use crate::model::testid::{class_of, container_of};

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

pub fn failed(o: RunOutcome) -> bool {
    matches!(
        o,
        RunOutcome::Fail | RunOutcome::Error | RunOutcome::Crash | RunOutcome::Timeout
    )
}

/// Each test's outcomes by run: the first and second time each id (or its invocations) ran.
pub fn outcomes_by_copy(
    record: &AuditRecord,
) -> BTreeMap<String, Vec<(RunOutcome, Option<String>)>> {
    // id that ran -> how many times so far
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    // container -> per copy: the worst outcome and its message
    let mut out: BTreeMap<String, Vec<(RunOutcome, Option<String>)>> = BTreeMap::new();
    for r in &record.results {
        let n = seen.entry(r.test.as_str()).or_default();
        *n += 1;
        let copies = out.entry(container_of(&r.test).to_string()).or_default();
        while copies.len() < *n {
            copies.push((RunOutcome::Pass, None));
        }
        let slot = &mut copies[*n - 1];
        if failed(r.outcome) && !failed(slot.0) || slot.0 == RunOutcome::Pass {
            *slot = (r.outcome, r.message.clone());
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
/// its test points; when a start is missing (its class failed before it, in `@BeforeClass`), the
/// point before that copy's segment, and for the second, else the end of the run.
pub fn brackets<'r>(record: &'r AuditRecord, first: &str) -> Option<(&'r Point, &'r Point)> {
    let at = |kind: &str, occurrence: u32| {
        record.points.iter().find(|p| {
            p.at == kind
                && p.test.as_deref().map(container_of) == Some(first)
                && p.occurrence == Some(occurrence)
        })
    };
    let before = at("test", 1).or_else(|| at("class", 1))?;
    let after = at("test", 2)
        .or_else(|| at("class", 2))
        .or_else(|| record.points.iter().find(|p| p.at == "end"))?;
    Some((before, after))
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
