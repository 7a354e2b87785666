//! Repair with `odrust.isolation=classloader`: minimization in shared JVMs, every check of the
//! patch in fresh ones.

use super::*;

/// As [`drive`], the plugin running every experiment the planner marks shareable in a shared JVM
/// (`shared` says how tests end there) and the others in fresh ones (`fresh`).
fn drive_shared(
    request: &mut RepairRequest,
    fresh: &dyn World,
    shared: &dyn World,
) -> (RepairOutcome, Vec<RepairRecord>) {
    for _ in 0..1000 {
        match next(request).unwrap() {
            RepairStep::Done { outcome } => return (outcome, request.history.clone()),
            RepairStep::Run { experiment, .. } => {
                let world = if experiment.shareable { shared } else { fresh };
                let isolation = if experiment.shareable {
                    Isolation::Classloader
                } else {
                    Isolation::Jvm
                };
                let results = world.outcomes(&experiment);
                request.history.push(RepairRecord {
                    experiment,
                    fingerprint: request.target.fingerprint.clone(),
                    compile_error: None,
                    results,
                    reused_from: None,
                    honoured: true,
                    isolation,
                });
            }
        }
    }
    panic!("the planner did not finish in 1000 experiments");
}

#[test]
fn minimization_may_share_jvms_and_every_check_of_the_patch_runs_in_a_fresh_one() {
    let world = Shared {
        needed: vec![3],
        declares: vec![],
        setup_breaks: None,
    };
    let mut r = request(victim_target(vec![source(C, 6, &[Placement::Setup])]));
    let (outcome, history) = drive_shared(&mut r, &world, &world);
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.statements, vec![3]);
    let by_id = |id: usize| &history[id - 1];
    for check in &outcome.verification {
        assert_eq!(
            by_id(check.experiment).isolation,
            Isolation::Jvm,
            "{check:?}"
        );
    }
    // the unpatched run and the whole body ran fresh; only minimization shared
    assert!(history[0].experiment.check == Check::Unpatched && !history[0].experiment.shareable);
    let whole = history
        .iter()
        .find(|h| h.experiment.statements.len() == 6)
        .unwrap();
    assert_eq!(whole.isolation, Isolation::Jvm);
    let shared: Vec<&RepairRecord> = history
        .iter()
        .filter(|h| h.isolation == Isolation::Classloader)
        .collect();
    assert!(!shared.is_empty());
    assert!(shared
        .iter()
        .all(|h| h.experiment.check == Check::FailingOrder && h.experiment.statements.len() < 6));
}

#[test]
fn a_minimal_patch_a_fresh_jvm_contradicts_is_minimized_again_in_fresh_jvms() {
    // In the shared JVM statement 5 alone seems to fix the victim; in a fresh one only 3 does.
    let fresh = Shared {
        needed: vec![3],
        declares: vec![],
        setup_breaks: None,
    };
    let shared = Shared {
        needed: vec![5],
        declares: vec![],
        setup_breaks: None,
    };
    let mut r = request(victim_target(vec![source(C, 6, &[Placement::Setup])]));
    let (outcome, history) = drive_shared(&mut r, &fresh, &shared);
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.statements, vec![3], "only what fresh JVMs showed");
    // the fresh check of the shared minimum [5] failed; after it, everything ran fresh
    let contradicted = history
        .iter()
        .position(|h| h.isolation == Isolation::Jvm && h.experiment.statements == [5])
        .expect("the shared minimum was checked in a fresh JVM");
    assert!(history[contradicted..]
        .iter()
        .all(|h| h.isolation == Isolation::Jvm));
    for check in &outcome.verification {
        assert_eq!(history[check.experiment - 1].isolation, Isolation::Jvm);
    }
}
