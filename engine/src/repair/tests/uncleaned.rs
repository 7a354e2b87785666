//! A victim of several polluters: a cleaner that detect's complete cleaner search after another
//! polluter did not find would fail the check with that polluter first, and is not run.

use super::*;

/// A polluter in the victim's own class.
const P2_SAME: &str = "p.VictimTest#pollutes";

/// A world where `C` (its statement 0) cleans after every polluter: what runs is the planner's
/// choice alone.
fn world() -> Shared {
    Shared {
        needed: vec![0],
        declares: vec![],
        setup_breaks: None,
    }
}

fn two_polluters(other: &str, cleaners_of_other: &[&str], sources: Vec<FixSource>) -> RepairTarget {
    let mut t = victim_target(sources);
    t.polluters.push(vec![other.to_string()]);
    t.cleaners.insert(
        other.to_string(),
        cleaners_of_other.iter().map(|c| c.to_string()).collect(),
    );
    t
}

#[test]
fn a_cleaner_of_one_polluter_that_detect_found_not_to_clean_after_another_is_not_run() {
    let t = two_polluters(P2, &[], vec![source(C, 2, &[Placement::Setup])]);
    let (outcome, history) = drive(&mut request(t.clone()), &world());
    assert!(history.is_empty(), "{history:?}");
    assert_eq!(outcome.status, RepairStatus::Rejected, "{outcome:?}");
    let reason = outcome.reason.unwrap();
    assert!(
        reason.contains("no candidate can pass every check: 1 cleaner"),
        "{reason}"
    );
    assert_eq!(outcome.tried.len(), 1);
    let why = &outcome.tried[0].why;
    assert!(
        why.starts_with(
            "not run: it cleans after p.PolluterTest#p but not after p.OtherPolluterTest#q"
        ),
        "{why}"
    );
    assert!(
        why.contains("[p.OtherPolluterTest#q, p.VictimTest#v]"),
        "{why}"
    );

    // An explanation cut short says nothing about the cleaners not found yet: the cleaner runs.
    let mut unfinished = t.clone();
    unfinished.explanation_complete = false;
    let (outcome, history) = drive(&mut request(unfinished), &world());
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert!(!history.is_empty());

    // A polluter group could have hidden it from that search: the cleaner runs.
    let mut grouped = t.clone();
    grouped
        .polluters
        .push(vec![V2.to_string(), "p.ThirdTest#t".to_string()]);
    let (outcome, history) = drive(&mut request(grouped), &world());
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert!(!history.is_empty());

    // Found by the other polluter's search too: a cleaner of both, patched.
    let both = two_polluters(P2, &[C], vec![source(C, 2, &[Placement::Setup])]);
    let (outcome, _) = drive(&mut request(both), &world());
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert!(outcome.tried.is_empty(), "{:?}", outcome.tried);
}

#[test]
fn a_polluter_in_the_victims_class_rules_out_only_cleaners_its_search_could_ask() {
    // That search asked only tests of the victim's class: C (another class) was never asked
    // and runs; C_SAME was asked, not found, and is not run.
    let t = two_polluters(
        P2_SAME,
        &[],
        vec![
            source(C, 2, &[Placement::Setup]),
            source(C_SAME, 2, &[Placement::Setup]),
        ],
    );
    let (outcome, history) = drive(&mut request(t), &world());
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.source.unwrap().test, C);
    assert!(history
        .iter()
        .all(|r| r.experiment.source.as_deref() != Some(C_SAME)));
    assert!(outcome
        .tried
        .iter()
        .any(|t| t.source.test == C_SAME && t.why.contains("not after p.VictimTest#pollutes")));
}

#[test]
fn reset_method_calls_still_run_when_every_cleaner_is_ruled_out() {
    const R: &str = "reset-method:all";
    let t = two_polluters(
        P2,
        &[],
        vec![source(C, 2, &[Placement::Setup]), reset_source(R)],
    );
    let (outcome, history) = drive(&mut request(t), &world());
    assert!(!history.is_empty());
    assert!(history
        .iter()
        .all(|r| r.experiment.source.as_deref() != Some(C)));
    assert!(history
        .iter()
        .any(|r| r.experiment.source.as_deref() == Some(R)));
    assert!(outcome
        .tried
        .iter()
        .any(|t| t.source.test == C && t.why.starts_with("not run")));
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.source.unwrap().test, R);

    // Where the reset calls clean nothing, the reason counts the cleaner that did not run.
    let cleans_nothing = Shared {
        needed: vec![9],
        declares: vec![],
        setup_breaks: None,
    };
    let t = two_polluters(
        P2,
        &[],
        vec![source(C, 2, &[Placement::Setup]), reset_source(R)],
    );
    let (outcome, _) = drive(&mut request(t), &cleans_nothing);
    assert_eq!(outcome.status, RepairStatus::Rejected, "{outcome:?}");
    let reason = outcome.reason.unwrap();
    assert!(
        reason.contains(
            "(2 tried, 1 of them not run: detect showed they do not clean after every polluter)"
        ),
        "{reason}"
    );
}

fn reset_source(test: &str) -> FixSource {
    let mut reset = source(test, 1, &[Placement::Setup]);
    reset.origin = SourceOrigin::ResetMethod;
    reset
}
