//! What a run step says of the repair's progress: a check of a minimal patch says how many checks
//! are left, so that the plugin's time left knows the repair ends after them.

use super::*;

#[test]
fn a_check_of_a_minimal_patch_says_the_checks_left_and_nothing_else_does() {
    // The setup patch fails its class check (the fourth of five), and the test method's passes all.
    let world = Shared {
        needed: vec![0],
        declares: vec![],
        setup_breaks: Some(V2),
    };
    let mut r = request(victim_target(vec![source(
        C,
        2,
        &[Placement::Setup, Placement::Test],
    )]));
    let mut said = Vec::new();
    let outcome = loop {
        match next(&r).unwrap() {
            RepairStep::Done { outcome } => break outcome,
            RepairStep::Run {
                experiment,
                checks_left,
            } => {
                said.push((experiment.placement, experiment.check, checks_left));
                let results = world.outcomes(&experiment);
                r.history.push(RepairRecord {
                    experiment,
                    fingerprint: r.target.fingerprint.clone(),
                    compile_error: None,
                    results,
                    reused_from: None,
                    honoured: true,
                    isolation: Isolation::Jvm,
                });
            }
        }
    };
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
