//! The repair planner's checks (step 5 of [`super::plan`]): which orders a minimal candidate must
//! pass before it is offered, and whether a record passes one, with what went wrong.

use std::collections::{BTreeSet, HashMap};

use super::candidates::Candidate;
use super::shapes::{Check, Placement, RepairRecord, RepairTarget};
use crate::model::experiment::{test_passed, TestResult};
use crate::model::kind::OdRole;
use crate::model::outcome::RunOutcome;
use crate::model::testid::{class_of, is_invocation_of};

/// The checks of a minimal candidate, in order, each order once. For a cause of several tests
/// (`also`), each check covers all of them: the oracle runs them all, `alone` runs the first test
/// of each of their classes, every test's recorded failing order runs, each other polluter runs
/// before all of them, and every class they (or the polluter's teardown) are in runs.
pub(super) fn checks(
    t: &RepairTarget,
    c: &Candidate<'_>,
    placement: Placement,
) -> Vec<(Check, Vec<String>)> {
    let members = t.members();
    let mut checks = vec![(Check::FailingOrder, c.oracle.clone())];
    if t.kind == OdRole::Victim {
        let mut classes = BTreeSet::new();
        for m in &members {
            if classes.insert(class_of(m)) {
                checks.push((Check::Alone, vec![m.clone()]));
            }
        }
    }
    let mut recorded = Vec::new();
    if !t.failing_order.is_empty() {
        recorded.push(t.failing_order.clone());
    }
    for m in &t.also {
        if !m.failing_order.is_empty() {
            recorded.push(m.failing_order.clone());
        }
    }
    if t.kind == OdRole::Victim {
        for group in &t.polluters {
            let mut order = group.clone();
            order.extend(members.iter().cloned());
            recorded.push(order);
        }
    }
    checks.extend(
        recorded
            .into_iter()
            .map(|o| (Check::RecordedFailingOrder, o)),
    );
    // The classes the patch edits or its tests are in: theirs, and the polluter's for a teardown.
    let mut classes: Vec<&str> = Vec::new();
    for m in &members {
        if !classes.contains(&class_of(m)) {
            classes.push(class_of(m));
        }
    }
    if let (Placement::PolluterTeardown, Some(p)) = (placement, &c.polluter) {
        if !classes.contains(&class_of(p)) {
            classes.push(class_of(p));
        }
    }
    for class in classes {
        let class_order: Vec<String> = t
            .original_order
            .iter()
            .filter(|id| class_of(id) == class)
            .cloned()
            .collect();
        if !class_order.is_empty() {
            checks.push((Check::Class, class_order));
        }
    }
    if !t.original_order.is_empty() {
        checks.push((Check::OriginalOrder, t.original_order.clone()));
    }
    let mut seen = BTreeSet::new();
    checks.retain(|(_, order)| seen.insert(order.clone()));
    checks
}

/// Why a record whose order did not run as asked passes no check.
pub(super) const NOT_HONOURED: &str =
    "the order did not run exactly as asked (see the experiment's result.json)";

/// The name of a check, as in `docs/repair.md`.
pub(super) fn check_name(check: Check) -> &'static str {
    match check {
        Check::Unpatched => "unpatched",
        Check::FailingOrder => "failing-order",
        Check::Alone => "alone",
        Check::RecordedFailingOrder => "recorded-failing-order",
        Check::Class => "class",
        Check::OriginalOrder => "original-order",
    }
}

/// Whether a record passes `check` for the tests one patch must fix (`members`), with what went
/// wrong: each of them that ran passes (at least one must be in the order, unless it is the
/// polluter's class), and for `class` and `original-order` every other test ends as in the
/// baseline.
pub(super) fn passes_record(
    members: &[String],
    r: &RepairRecord,
    check: Check,
    baseline: &[TestResult],
) -> (bool, Option<String>) {
    if let Some(e) = &r.compile_error {
        return (false, Some(format!("it does not compile: {e}")));
    }
    if !r.honoured {
        return (false, Some(NOT_HONOURED.to_string()));
    }
    let is_member = |id: &str| members.iter().any(|m| id == m || is_invocation_of(id, m));
    // The polluter's class (checked for a teardown patch) holds none of them.
    let in_order: Vec<&String> = members
        .iter()
        .filter(|m| {
            r.experiment
                .order
                .iter()
                .any(|t| t == *m || is_invocation_of(t, m))
        })
        .collect();
    for m in &in_order {
        match test_passed(m, &r.results) {
            Some(true) => {}
            Some(false) => {
                return (
                    false,
                    Some(format!(
                        "{m} failed: {}",
                        message(std::slice::from_ref(m), &r.results)
                    )),
                )
            }
            None => return (false, Some(format!("{m} did not run"))),
        }
    }
    if !matches!(check, Check::Class | Check::OriginalOrder) {
        return (true, None);
    }
    let before: HashMap<&str, RunOutcome> = baseline
        .iter()
        .map(|b| (b.test.as_str(), b.outcome))
        .collect();
    let mut differences = Vec::new();
    let now: HashMap<&str, RunOutcome> = r
        .results
        .iter()
        .map(|x| (x.test.as_str(), x.outcome))
        .collect();
    for x in &r.results {
        if is_member(&x.test) {
            continue;
        }
        let ok = match before.get(x.test.as_str()) {
            Some(&b) => x.outcome == b || x.outcome == RunOutcome::Pass,
            None => x.outcome.passed() != Some(false),
        };
        if !ok {
            differences.push(format!("{} {}", x.test, outcome_word(x.outcome)));
        }
    }
    if check == Check::OriginalOrder {
        for b in baseline {
            if !is_member(&b.test) && !now.contains_key(b.test.as_str()) {
                differences.push(format!("{} did not run", b.test));
            }
        }
    }
    if differences.is_empty() {
        (true, None)
    } else {
        let more = if differences.len() > 3 {
            format!(" and {} more", differences.len() - 3)
        } else {
            String::new()
        };
        differences.truncate(3);
        (
            false,
            Some(format!(
                "other tests changed outcome: {}{more}",
                differences.join(", ")
            )),
        )
    }
}

/// The first failure of one of `tests` (or of their invocations): "failed expected 1", with
/// the test's id in front when there are several.
pub(super) fn message(tests: &[String], results: &[TestResult]) -> String {
    let failed = results.iter().find(|r| {
        tests
            .iter()
            .any(|t| r.test == *t || is_invocation_of(&r.test, t))
            && r.outcome.passed() == Some(false)
    });
    let who = match failed {
        Some(r) if tests.len() > 1 => format!("{}: ", r.test),
        _ => String::new(),
    };
    failed
        .map(|r| {
            let m = r
                .message
                .as_deref()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or("");
            format!("{who}{} {m}", outcome_word(r.outcome))
                .trim()
                .to_string()
        })
        .unwrap_or_default()
}

fn outcome_word(o: RunOutcome) -> &'static str {
    match o {
        RunOutcome::Pass => "passed",
        RunOutcome::Skipped => "was skipped",
        RunOutcome::Fail => "failed",
        RunOutcome::Error => "errored",
        RunOutcome::Crash => "crashed",
        RunOutcome::Timeout => "timed out",
        RunOutcome::Exit => "exited",
        RunOutcome::NotRun => "did not run",
    }
}
