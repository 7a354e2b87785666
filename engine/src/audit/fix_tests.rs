//! Teardown patches for latent polluters against the simulated JVM of [`super::tests`]: a
//! candidate is run in its class (the field the same after the test as before) and in the
//! original order, and only one that passes both is a patch.

use super::shapes::*;
use super::tests::{Effect, Sim};
use super::*;

/// Runs the planner to the end with `repair`, answering its `Fixes` step with `make`.
fn audit_fixing(
    sim: &Sim,
    original: Vec<String>,
    max_repair: Option<usize>,
    make: impl Fn(&FixWanted) -> FixCandidates,
) -> (AuditOutcome, Vec<AuditRecord>, Vec<FixWanted>) {
    let mut request = AuditRequest {
        original,
        history: Vec::new(),
        next_id: 1,
        fingerprint: "f".to_string(),
        class_dirs: Vec::new(),
        test_classes: Vec::new(),
        max_confirm: None,
        repair: true,
        max_repair,
        fixes: None,
    };
    let mut asked = Vec::new();
    for _ in 0..50 {
        match next(&request).unwrap() {
            AuditStep::Run { experiment, .. } => {
                let record = sim.run(&experiment, "f");
                request.history.push(record);
                request.next_id += 1;
            }
            AuditStep::Fixes { wanted } => {
                assert!(request.fixes.is_none(), "asked for candidates twice");
                request.fixes = Some(wanted.iter().map(&make).collect());
                asked = wanted;
            }
            AuditStep::Done { outcome } => return (outcome, request.history, asked),
        }
    }
    panic!("the audit did not end in 50 experiments");
}

fn candidate(id: &str, statement: &str) -> FixCandidate {
    FixCandidate {
        id: id.to_string(),
        statements: vec![statement.to_string()],
        compile_error: None,
    }
}

#[test]
fn the_first_candidate_that_restores_the_field_and_changes_no_outcome_is_the_patch() {
    let mut sim = Sim::module();
    // "wrong" sets the field to yet another value, "ok" sets it back
    sim.fixes.insert("wrong", Effect::Set(8));
    sim.fixes.insert("ok", Effect::SetAndRestore(7));
    let (outcome, history, asked) = audit_fixing(&sim, Sim::original(), None, |w| FixCandidates {
        test: w.test.clone(),
        field: w.field.clone(),
        candidates: vec![
            candidate("wrong", "p.Config.mode = 8;"),
            FixCandidate {
                compile_error: Some("line 3: cannot find symbol".to_string()),
                ..candidate("broken", "p.Config.nope();")
            },
            candidate("ok", "p.Config.mode = 0;"),
        ],
        note: None,
    });
    // the planner asked for the polluter with the captures right before and after it
    let wanted = asked
        .iter()
        .find(|w| w.test == "p.BTest#sets")
        .expect("BTest#sets asked for");
    assert_eq!(wanted.field, "p.Config.mode");
    assert_eq!(wanted.class, "p.BTest");
    assert!(wanted.before_capture.is_file() && wanted.after_capture.is_file());
    assert_ne!(wanted.before_capture, wanted.after_capture);
    // each candidate that compiles ran once: the original order, BTest captured test by test
    let fix_runs: Vec<&AuditRecord> = history
        .iter()
        .filter(|r| {
            r.experiment.kind == AuditKind::Fix
                && r.experiment.fix.as_ref().unwrap().test == "p.BTest#sets"
        })
        .collect();
    let candidates: Vec<&str> = fix_runs
        .iter()
        .map(|r| r.experiment.fix.as_ref().unwrap().candidate.as_str())
        .collect();
    assert_eq!(candidates, vec!["wrong", "ok"]);
    let run = fix_runs[1];
    assert_eq!(run.experiment.order, Sim::original());
    assert_eq!(run.experiment.capture_tests, vec!["p.BTest"]);
    assert!(run.experiment.uses_agent());
    let p = outcome
        .latent_polluters
        .iter()
        .find(|p| p.test == "p.BTest#sets")
        .unwrap();
    let fix = p.fix.as_ref().expect("a fix verdict");
    assert_eq!(fix.status, "patched", "{fix:?}");
    assert_eq!(fix.candidate.as_deref(), Some("ok"));
    assert_eq!(fix.statements, vec!["p.Config.mode = 0;"]);
    assert_eq!(fix.tried.len(), 2, "{:?}", fix.tried);
    assert!(
        fix.tried[0].contains("still differs after the test (0 before, 8 after)"),
        "{:?}",
        fix.tried
    );
    assert!(fix.tried[1].contains("does not compile"), "{:?}", fix.tried);
    assert_eq!(fix.experiments, vec![run.experiment.id]);
    // ATest's counter: its class initialized by its block, before the test: compared right
    // before and after the test in the run itself, no class initialized early, no control run
    let counts = outcome
        .latent_polluters
        .iter()
        .find(|p| p.test == "p.ATest#counts")
        .unwrap();
    assert!(counts.field.since_initialized && !counts.initialized_by_test);
    let counts_runs: Vec<&AuditRecord> = history
        .iter()
        .filter(|r| {
            r.experiment
                .fix
                .as_ref()
                .is_some_and(|f| f.test == "p.ATest#counts")
        })
        .collect();
    assert_eq!(counts_runs.len(), 2, "{counts_runs:?}");
    assert!(counts_runs
        .iter()
        .all(|r| r.experiment.kind == AuditKind::Fix && r.experiment.initialize_at.is_empty()));
    let fix = counts.fix.as_ref().unwrap();
    assert_eq!(fix.status, "patched", "{fix:?}");
    assert!(fix.tried[0].contains("still differs after the test (0 before, 8 after)"));
}

#[test]
fn a_candidate_that_changes_an_outcome_is_rejected_and_no_candidate_means_no_patch_with_why() {
    let mut sim = Sim::module();
    // leaves the field as it was, but the test now fails
    sim.fixes.insert("fails", Effect::Fails);
    let (outcome, history, _) = audit_fixing(&sim, Sim::original(), None, |w| FixCandidates {
        test: w.test.clone(),
        field: w.field.clone(),
        candidates: if w.test == "p.BTest#sets" {
            vec![candidate("fails", "p.Config.mode = 0;")]
        } else {
            Vec::new()
        },
        note: Some("no method of the module resets it".to_string()),
    });
    let p = outcome
        .latent_polluters
        .iter()
        .find(|p| p.test == "p.BTest#sets")
        .unwrap();
    let fix = p.fix.as_ref().unwrap();
    assert_eq!(fix.status, "no-patch");
    assert_eq!(fix.tried.len(), 1, "{fix:?}");
    assert!(
        fix.tried[0].contains("tests that passed without it fail with it: p.BTest#sets"),
        "{:?}",
        fix.tried
    );
    assert_eq!(
        history
            .iter()
            .filter(|r| r.experiment.kind == AuditKind::Fix)
            .count(),
        1
    );
}

#[test]
fn over_the_limit_no_candidate_is_asked_for_and_a_note_says_so() {
    let sim = Sim::module();
    let (outcome, history, asked) =
        audit_fixing(&sim, Sim::original(), Some(0), |_| unreachable!());
    assert!(asked.is_empty());
    assert!(history.iter().all(|r| r.experiment.fix.is_none()));
    assert!(
        outcome
            .notes
            .iter()
            .any(|n| n.contains("over -Dodrust.audit.repair.limit=0")),
        "{:?}",
        outcome.notes
    );
}

/// The order with BTest first: its test initializes Config, then sets `mode`.
fn b_first() -> Vec<String> {
    ["p.BTest#sets", "p.DTest#reads", "p.CTest#restores"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn a_polluter_that_initializes_its_fields_class_gets_a_control_run_with_the_class_initialized_first(
) {
    let mut sim = Sim::module();
    sim.fixes.insert("ok", Effect::SetAndRestore(7));
    let (outcome, history, asked) = audit_fixing(&sim, b_first(), None, |w| FixCandidates {
        test: w.test.clone(),
        field: w.field.clone(),
        candidates: vec![candidate("ok", "p.Config.mode = 0;")],
        note: None,
    });
    let p = outcome
        .latent_polluters
        .iter()
        .find(|p| p.test == "p.BTest#sets")
        .unwrap();
    assert!(p.initialized_by_test, "{p:?}");
    // the value to set back: Config's state right after initialization, from the initial-states run
    let wanted = asked.iter().find(|w| w.test == "p.BTest#sets").unwrap();
    let initial_states = history
        .iter()
        .find(|r| r.experiment.kind == AuditKind::InitialStates)
        .unwrap();
    assert!(wanted
        .before_capture
        .starts_with(initial_states.captures_dir.as_ref().unwrap()));
    let runs: Vec<&AuditRecord> = history
        .iter()
        .filter(|r| r.experiment.fix.is_some())
        .collect();
    let kinds: Vec<AuditKind> = runs.iter().map(|r| r.experiment.kind).collect();
    assert_eq!(kinds, vec![AuditKind::FixControl, AuditKind::Fix]);
    for r in &runs {
        assert_eq!(
            r.experiment.initialize_at,
            vec![InitializeAt {
                segment: 0,
                class: "p.Config".to_string()
            }]
        );
    }
    assert_eq!(runs[0].experiment.fix.as_ref().unwrap().candidate, "");
    let fix = p.fix.as_ref().unwrap();
    assert_eq!(fix.status, "patched", "{fix:?}");
    assert_eq!(fix.experiments, vec![runs[1].experiment.id]);
    // DTest reads mode right after BTest: it fails without the patch and passes with it
    assert_eq!(fix.makes_pass, vec!["p.DTest#reads"]);
}

#[test]
fn when_the_control_run_shows_no_change_across_the_test_no_candidate_runs() {
    let mut sim = Sim::module();
    // with Config initialized first, the test leaves mode as it finds it (what differed came
    // from initializing the class during the test): any candidate would pass vacuously
    sim.fixes.insert("", Effect::Nothing);
    sim.fixes.insert("ok", Effect::SetAndRestore(7));
    let (outcome, history, _) = audit_fixing(&sim, b_first(), None, |w| FixCandidates {
        test: w.test.clone(),
        field: w.field.clone(),
        candidates: vec![candidate("ok", "p.Config.mode = 0;")],
        note: None,
    });
    let p = outcome
        .latent_polluters
        .iter()
        .find(|p| p.test == "p.BTest#sets")
        .unwrap();
    let fix = p.fix.as_ref().unwrap();
    assert_eq!(fix.status, "no-patch");
    assert!(
        fix.reason
            .as_deref()
            .unwrap()
            .contains("the test leaves p.Config.mode as it finds it"),
        "{fix:?}"
    );
    assert!(!history.iter().any(|r| r.experiment.kind == AuditKind::Fix));
}
