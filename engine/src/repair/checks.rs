//! The repair planner's checks (step 5 of [`super::plan`]): which orders a minimal candidate must
//! pass before it is offered, and whether a record passes one, with what went wrong.

use std::collections::{BTreeSet, HashMap};

use super::candidates::Candidate;
use super::shapes::{Check, Placement, RepairRecord, RepairTarget};
use crate::model::experiment::{test_passed, TestResult};
use crate::model::kind::OdRole;
use crate::model::outcome::RunOutcome;
use crate::model::testid::{class_of, is_invocation_of};

/// The checks of a minimal candidate, in order, each order once.
pub(super) fn checks(
    t: &RepairTarget,
    c: &Candidate<'_>,
    placement: Placement,
) -> Vec<(Check, Vec<String>)> {
    let mut checks = vec![(Check::FailingOrder, c.oracle.clone())];
    if t.kind == OdRole::Victim {
        checks.push((Check::Alone, vec![t.test.clone()]));
    }
    let mut recorded = Vec::new();
    if !t.failing_order.is_empty() {
        recorded.push(t.failing_order.clone());
    }
    if t.kind == OdRole::Victim {
        for group in &t.polluters {
            let mut order = group.clone();
            order.push(t.test.clone());
            recorded.push(order);
        }
    }
    checks.extend(
        recorded
            .into_iter()
            .map(|o| (Check::RecordedFailingOrder, o)),
    );
    // The classes the patch edits: the flaky test's, or the polluter's for a teardown.
    let mut classes = vec![class_of(&t.test)];
    if let (Placement::PolluterTeardown, Some(p)) = (placement, &c.polluter) {
        classes.push(class_of(p));
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

/// Whether a record passes `check` for `test`, with what went wrong.
pub(super) fn passes_record(
    test: &str,
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
    // The polluter's class (checked for a teardown patch) does not hold the flaky test.
    let holds_test = r
        .experiment
        .order
        .iter()
        .any(|t| t == test || is_invocation_of(t, test));
    match test_passed(test, &r.results) {
        Some(true) => {}
        _ if !holds_test => {}
        Some(false) => {
            return (
                false,
                Some(format!("{test} failed: {}", message(test, &r.results))),
            )
        }
        None => return (false, Some(format!("{test} did not run"))),
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
        if x.test == test || is_invocation_of(&x.test, test) {
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
            if b.test != test
                && !is_invocation_of(&b.test, test)
                && !now.contains_key(b.test.as_str())
            {
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

/// The first failure of `test` (or of its invocations): "failed expected 1".
pub(super) fn message(test: &str, results: &[TestResult]) -> String {
    results
        .iter()
        .find(|r| {
            (r.test == test || is_invocation_of(&r.test, test)) && r.outcome.passed() == Some(false)
        })
        .map(|r| {
            let m = r
                .message
                .as_deref()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or("");
            format!("{} {m}", outcome_word(r.outcome))
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
