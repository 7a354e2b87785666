//! A setup patch that breaks another test of its class: the test method's patch instead; and
//! what each run step says of the repair's progress (a check of a minimal patch says how many
//! checks are left, so that the plugin's time left knows the repair ends after them).

use super::*;

/// A victim whose cleaner's setup patch breaks another test of its class, and whose test-method
/// patch verifies.
fn setup_breaks_the_class() -> (Shared, RepairRequest) {
    let world = Shared {
        needed: vec![0],
        declares: vec![],
        setup_breaks: Some(V2),
    };
    let r = request(victim_target(vec![source(
        C,
        2,
        &[Placement::Setup, Placement::Test],
    )]));
    (world, r)
}

#[test]
fn a_setup_patch_that_breaks_the_class_falls_back_to_the_test_method() {
    let (world, mut r) = setup_breaks_the_class();
    let (outcome, _) = drive(&mut r, &world);
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.placement, Some(Placement::Test));
    assert_eq!(outcome.tried.len(), 1);
    let why = &outcome.tried[0].why;
    assert!(why.contains("class check") && why.contains(V2), "{why}");
}

#[test]
fn a_check_of_a_minimal_patch_says_the_checks_left_and_nothing_else_does() {
    // The setup patch fails its class check (the fourth of five), and the test method's passes all.
    let (world, mut r) = setup_breaks_the_class();
    let (outcome, history, left) = drive_counting(&mut r, &world);
    let said: Vec<_> = history
        .iter()
        .zip(left)
        .map(|(h, left)| (h.experiment.placement, h.experiment.check, left))
        .collect();
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.placement, Some(Placement::Test));
    // The unpatched run, a whole body and delta debugging say nothing.
    assert_eq!(said[0], (None, Check::Unpatched, None));
    let counted: Vec<_> = said.iter().filter(|s| s.2.is_some()).collect();
    assert!(!counted.is_empty(), "{said:?}");
    for (placement, check, left) in &said {
        if left.is_none() {
            assert!(
                matches!(check, Check::Unpatched | Check::FailingOrder),
                "{said:?}"
            );
        } else {
            assert_ne!(*check, Check::Unpatched, "{said:?}");
            assert!(placement.is_some());
        }
    }
    // The setup's checks count down until its class check fails; the test method's count down
    // to the last experiment, which says it is the last.
    let setup: Vec<usize> = said
        .iter()
        .filter(|s| s.0 == Some(Placement::Setup))
        .filter_map(|s| s.2)
        .collect();
    // (The first check, the minimal patch in its failing order, ran fresh during delta debugging.)
    assert_eq!(
        setup,
        [4, 3, 2],
        "the class check is the fourth of five: {said:?}"
    );
    let test: Vec<usize> = said
        .iter()
        .filter(|s| s.0 == Some(Placement::Test))
        .filter_map(|s| s.2)
        .collect();
    assert_eq!(test, [4, 3, 2, 1], "{said:?}");
    assert_eq!(said.last().unwrap().2, Some(1));
    assert_eq!(outcome.verification.len(), 5);
}
