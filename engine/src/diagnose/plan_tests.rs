//! The diagnose planner against simulated modules: captures written as files, a victim that passes
//! exactly when a chosen set of fields is restored.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;
use crate::model::experiment::TestResult;
use crate::model::kind::OdRole;
use crate::model::outcome::RunOutcome;

const V: &str = "com.acme.VTest#v";
const P: &str = "com.acme.PTest#p";

static DIRS: AtomicUsize = AtomicUsize::new(0);

fn temp_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "odrust-diagnose-plan-{}-{}",
        std::process::id(),
        DIRS.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A capture with int fields `com.acme.S.<name>` = value.
fn capture_xml(fields: &[(&str, i32)]) -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<capture version=\"1\" test=\"com.acme.VTest#v\" occurrence=\"1\" java=\"17\" nodes=\"3\" limit=\"100\" truncated=\"false\">\n<class name=\"com.acme.Lazy\" initialized=\"false\"/>\n<class name=\"com.acme.PTest\" initialized=\"true\"/>\n<class name=\"com.acme.PTest$Helper\" initialized=\"true\"/>\n<class name=\"com.acme.PTestX\" initialized=\"true\"/>\n<class name=\"com.acme.S\" initialized=\"true\">",
    );
    for (n, v) in fields {
        s.push_str(&format!(
            "<static field=\"{n}\" type=\"int\" final=\"false\"><prim class=\"int\">{v}</prim></static>"
        ));
    }
    s.push_str("</class>\n</capture>\n");
    s
}

/// A simulated module: the captures each order gives, and which restored sets make the victim pass.
struct Module {
    dir: PathBuf,
    failing: String,
    passing: String,
    /// The victim passes in the failing order when the restored set contains all of these.
    needed: BTreeSet<String>,
    /// Whether the failing order fails at all.
    reproduces: bool,
    /// Fields the agent cannot restore.
    unrestorable: BTreeSet<String>,
    /// The second passing capture, when it differs from the first (noise).
    passing_again: Option<String>,
    /// Restoring any of these fields breaks the test (a noisy port restored from another JVM).
    breaks: BTreeSet<String>,
    /// The earliest point the agent can act at in the failing order and in the passing order.
    earliest: (ActPoint, ActPoint),
    /// The failing capture when the experiment initializes classes first (a brittle's).
    failing_initialized: Option<String>,
    /// Classes a restore must initialize first, or its fields are not restored (a brittle's state).
    init_needed: Vec<String>,
    /// The test passes in the failing order once classes are initialized (a brittle whose
    /// state-setter's effect is a static initializer).
    passes_when_initialized: bool,
}

/// The captures are written under `dir`, which goes with the module.
impl Drop for Module {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Module {
    fn new(failing: &[(&str, i32)], passing: &[(&str, i32)], needed: &[&str]) -> Self {
        Module {
            dir: temp_dir(),
            failing: capture_xml(failing),
            passing: capture_xml(passing),
            needed: needed.iter().map(|s| format!("com.acme.S.{s}")).collect(),
            reproduces: true,
            unrestorable: BTreeSet::new(),
            passing_again: None,
            breaks: BTreeSet::new(),
            earliest: (ActPoint::Class, ActPoint::Class),
            failing_initialized: None,
            init_needed: Vec::new(),
            passes_when_initialized: false,
        }
    }

    fn result(passed: bool) -> Vec<TestResult> {
        vec![TestResult {
            test: V.into(),
            outcome: if passed {
                RunOutcome::Pass
            } else {
                RunOutcome::Fail
            },
            message: None,
            time_ms: None,
            reads: None,
            writes: None,
            calls: None,
        }]
    }

    fn execute(&self, e: &DiagnoseExperiment, fingerprint: &str) -> DiagnoseRecord {
        let mut rec = DiagnoseRecord {
            experiment: e.clone(),
            fingerprint: fingerprint.into(),
            capture: None,
            restored: BTreeMap::new(),
            error: None,
            results: Vec::new(),
            honoured: true,
            acted_at: None,
        };
        // The agent acts at the earliest point the order allows, no earlier than asked.
        let earliest = if matches!(
            e.kind,
            DiagnoseKind::CapturePassing | DiagnoseKind::CapturePassingAgain
        ) {
            self.earliest.1
        } else {
            self.earliest.0
        };
        rec.acted_at = Some(e.point.max(earliest));
        match e.kind {
            DiagnoseKind::CaptureFailing
            | DiagnoseKind::CapturePassing
            | DiagnoseKind::CapturePassingAgain => {
                let failing = e.kind == DiagnoseKind::CaptureFailing;
                let path = self.dir.join(format!("exp-{}.xml", e.id));
                let text = match e.kind {
                    DiagnoseKind::CaptureFailing if !e.initialize.is_empty() => {
                        self.failing_initialized.as_ref().unwrap_or(&self.failing)
                    }
                    DiagnoseKind::CaptureFailing => &self.failing,
                    DiagnoseKind::CapturePassingAgain => {
                        self.passing_again.as_ref().unwrap_or(&self.passing)
                    }
                    _ => &self.passing,
                };
                std::fs::write(&path, text).unwrap();
                rec.capture = Some(path.to_string_lossy().into_owned());
                let initialized_away =
                    failing && self.passes_when_initialized && !e.initialize.is_empty();
                rec.results = Self::result(!(failing && self.reproduces) || initialized_away);
            }
            DiagnoseKind::Restore => {
                let mut done = BTreeSet::new();
                let uninitialized = self.init_needed.iter().any(|c| !e.initialize.contains(c));
                for f in &e.fields {
                    if uninitialized {
                        rec.restored
                            .insert(f.clone(), "not restored: class not initialized".into());
                    } else if self.unrestorable.contains(f) {
                        rec.restored.insert(f.clone(), "not restored: final".into());
                    } else {
                        rec.restored.insert(f.clone(), "restored".into());
                        done.insert(f.clone());
                    }
                }
                rec.results =
                    Self::result(self.needed.is_subset(&done) && self.breaks.is_disjoint(&done));
            }
        }
        rec
    }

    /// Runs the planner to its verdict; returns it and the experiments asked for.
    fn diagnose(
        &self,
        target: &DiagnoseTarget,
        budget: Option<u32>,
    ) -> (DiagnoseOutcome, Vec<DiagnoseExperiment>) {
        let mut history: Vec<DiagnoseRecord> = Vec::new();
        let mut asked = Vec::new();
        for _ in 0..200 {
            let request = DiagnoseRequest {
                target: target.clone(),
                history: history.clone(),
                next_id: history.len() + 1,
                budget,
            };
            match next(&request).unwrap() {
                DiagnoseStep::Run { experiment } => {
                    asked.push(experiment.clone());
                    history.push(self.execute(&experiment, &target.fingerprint));
                }
                DiagnoseStep::Done { outcome } => return (outcome, asked),
            }
        }
        panic!("the planner did not finish");
    }
}

fn victim() -> DiagnoseTarget {
    DiagnoseTarget {
        test: V.into(),
        kind: OdRole::Victim,
        polluters: vec![vec![P.into()]],
        state_setters: Vec::new(),
        fingerprint: "f1".into(),
        shared: None,
        unreachable: Vec::new(),
    }
}

#[test]
fn finds_the_two_fields_that_matter_among_four() {
    let m = Module::new(
        &[("a", 1), ("b", 2), ("c", 3), ("d", 4), ("same", 9)],
        &[("a", 0), ("b", 0), ("c", 0), ("d", 0), ("same", 9)],
        &["b", "d"],
    );
    let (o, asked) = m.diagnose(&victim(), None);
    assert_eq!(o.status, DiagnoseStatus::Confirmed, "{}", o.reason);
    assert_eq!(o.polluted_state, vec!["com.acme.S.b", "com.acme.S.d"]);
    assert_eq!(o.failing_order, vec![P, V]);
    assert_eq!(o.passing_order, vec![V]);
    // the confirmed fields first, every differing field listed, the unchanged one not
    let names: Vec<&str> = o.fields.iter().map(|f| f.diff.field.as_str()).collect();
    assert_eq!(names[..2], ["com.acme.S.b", "com.acme.S.d"]);
    assert_eq!(names.len(), 4);
    assert!(o.fields.iter().filter(|f| f.confirmed).count() == 2);
    // captures first; the passing capture initializes what the failing capture had initialized
    assert_eq!(asked[0].kind, DiagnoseKind::CaptureFailing);
    assert_eq!(asked[0].order, vec![P, V]);
    assert_eq!(asked[1].kind, DiagnoseKind::CapturePassing);
    // not the polluter's class (nor its nested classes): their initializers may pollute
    assert_eq!(asked[1].initialize, vec!["com.acme.PTestX", "com.acme.S"]);
    // the passing capture again (noise), in another JVM with the same classes initialized
    assert_eq!(asked[2].kind, DiagnoseKind::CapturePassingAgain);
    assert_eq!(asked[2].order, vec![V]);
    assert_eq!(asked[2].initialize, asked[1].initialize);
    // then all four restored at once, then ddmin
    assert_eq!(asked[3].fields.len(), 4);
    assert!(asked[3..]
        .iter()
        .all(|e| e.kind == DiagnoseKind::Restore && e.order == vec![P, V]));
    assert_eq!(o.experiments, asked.len());
    assert!(o.failing_capture.is_some() && o.passing_capture.is_some());
}

#[test]
fn the_same_history_gives_the_same_experiments() {
    let m = Module::new(
        &[("a", 1), ("b", 2), ("c", 3)],
        &[("a", 0), ("b", 0), ("c", 0)],
        &["c"],
    );
    let (o1, a1) = m.diagnose(&victim(), None);
    let (o2, a2) = m.diagnose(&victim(), None);
    assert_eq!(a1, a2);
    assert_eq!(o1.polluted_state, o2.polluted_state);
    assert_eq!(o1.polluted_state, vec!["com.acme.S.c"]);
}

#[test]
fn unconfirmed_when_restoring_everything_does_not_help() {
    let m = Module::new(&[("a", 1)], &[("a", 0)], &["elsewhere"]);
    let (o, asked) = m.diagnose(&victim(), None);
    assert_eq!(o.status, DiagnoseStatus::Unconfirmed, "{}", o.reason);
    assert_eq!(asked.len(), 4);
    assert!(o.polluted_state.is_empty());
    assert_eq!(o.fields.len(), 1);
    assert!(!o.fields[0].confirmed);
}

#[test]
fn a_field_the_agent_could_not_restore_does_not_count_as_restored() {
    let mut m = Module::new(&[("a", 1), ("b", 2)], &[("a", 0), ("b", 0)], &["a"]);
    m.unrestorable.insert("com.acme.S.a".into());
    let (o, asked) = m.diagnose(&victim(), None);
    // restore-all (a refused), then the others without it: b alone does not make it pass
    assert_eq!(asked[4].fields, vec!["com.acme.S.b"]);
    assert_eq!(o.status, DiagnoseStatus::Unconfirmed, "{}", o.reason);
    assert!(
        o.reason
            .contains("odrust could not restore com.acme.S.a (not restored: final)"),
        "{}",
        o.reason
    );
    let a = o
        .fields
        .iter()
        .find(|f| f.diff.field == "com.acme.S.a")
        .unwrap();
    assert_eq!(a.restore.as_deref(), Some("not restored: final"));
    // when the refused field was not needed, the others are confirmed without it
    let mut m = Module::new(&[("a", 1), ("b", 2)], &[("a", 0), ("b", 0)], &["b"]);
    m.unrestorable.insert("com.acme.S.a".into());
    let (o, _) = m.diagnose(&victim(), None);
    assert_eq!(o.status, DiagnoseStatus::Confirmed, "{}", o.reason);
    assert_eq!(o.polluted_state, vec!["com.acme.S.b"]);
}

#[test]
fn no_difference_and_not_reproduced_are_said() {
    let m = Module::new(&[("a", 1)], &[("a", 1)], &["a"]);
    let (o, asked) = m.diagnose(&victim(), None);
    assert_eq!(o.status, DiagnoseStatus::NoDifference);
    assert_eq!(asked.len(), 2);
    assert!(o.reason.contains("elsewhere"), "{}", o.reason);

    let mut m = Module::new(&[("a", 1)], &[("a", 0)], &["a"]);
    m.reproduces = false;
    let (o, asked) = m.diagnose(&victim(), None);
    assert_eq!(o.status, DiagnoseStatus::NotReproduced);
    assert_eq!(asked.len(), 1);
}

#[test]
fn the_budget_stops_the_search() {
    let m = Module::new(
        &[("a", 1), ("b", 2), ("c", 3), ("d", 4)],
        &[("a", 0), ("b", 0), ("c", 0), ("d", 0)],
        &["a", "d"],
    );
    let (o, asked) = m.diagnose(&victim(), Some(3));
    assert_eq!(o.status, DiagnoseStatus::Unfinished);
    assert_eq!(asked.len(), 3);
    assert!(o.reason.contains("odrust.diagnose.budget"));
}

#[test]
fn a_brittle_fails_alone_and_passes_after_its_state_setter() {
    let m = Module::new(&[("a", 0)], &[("a", 1)], &["a"]);
    let (o, asked) = m.diagnose(&brittle(), None);
    assert_eq!(asked[0].order, vec![V]);
    assert_eq!(asked[1].order, vec!["com.acme.STest#s", V]);
    assert_eq!(o.status, DiagnoseStatus::Confirmed, "{}", o.reason);
}

#[test]
fn a_self_polluting_victim_is_captured_before_its_second_run() {
    let m = Module::new(&[("a", 1)], &[("a", 0)], &["a"]);
    let mut t = victim();
    t.polluters = vec![vec![V.into()]];
    let (_, asked) = m.diagnose(&t, None);
    assert_eq!(asked[0].order, vec![V, V]);
    assert_eq!(asked[0].occurrence, 2);
    assert_eq!(asked[1].order, vec![V]);
    assert_eq!(asked[1].occurrence, 1);
}

#[test]
fn records_of_other_code_are_ignored_and_a_victim_needs_a_polluter() {
    let m = Module::new(&[("a", 1)], &[("a", 0)], &["a"]);
    let (_, asked) = m.diagnose(&victim(), None);
    let old: Vec<DiagnoseRecord> = asked.iter().map(|e| m.execute(e, "old-code")).collect();
    let request = DiagnoseRequest {
        target: victim(),
        history: old,
        next_id: 10,
        budget: None,
    };
    match next(&request).unwrap() {
        DiagnoseStep::Run { experiment } => {
            assert_eq!(experiment.kind, DiagnoseKind::CaptureFailing);
            assert_eq!(experiment.id, 10);
        }
        DiagnoseStep::Done { .. } => panic!("records of other code were used"),
    }
    // a victim without a polluter is a verdict, not an error: the other tests go on
    let mut t = victim();
    t.polluters.clear();
    match next(&DiagnoseRequest {
        target: t,
        history: Vec::new(),
        next_id: 1,
        budget: None,
    })
    .unwrap()
    {
        DiagnoseStep::Done { outcome } => {
            assert_eq!(outcome.status, DiagnoseStatus::Unexplained);
            assert!(
                outcome.reason.contains("no known polluter"),
                "{}",
                outcome.reason
            );
            assert_eq!(outcome.experiments, 0);
        }
        DiagnoseStep::Run { .. } => panic!("ran an experiment without a polluter"),
    }
}

#[test]
fn a_cause_s_diagnosis_is_confirmed_for_another_test_with_one_restore_or_made_anew() {
    let m = Module::new(&[("a", 1), ("b", 2)], &[("a", 0), ("b", 0)], &["a"]);
    let shared = |fields: &[&str]| SharedDiagnosis {
        test: "com.acme.VTest#first".into(),
        passing_capture: "/captures/first-passing.xml".into(),
        polluted_state: fields.iter().map(|f| format!("com.acme.S.{f}")).collect(),
        fields: Vec::new(),
        point: Some(ActPoint::Instance),
    };
    let mut t = victim();
    t.shared = Some(shared(&["a"]));
    let (outcome, asked) = m.diagnose(&t, None);
    assert_eq!(outcome.status, DiagnoseStatus::Confirmed, "{outcome:?}");
    assert_eq!(outcome.polluted_state, ["com.acme.S.a"]);
    assert_eq!(asked.len(), 1, "one restore, no capture: {asked:?}");
    assert_eq!(asked[0].kind, DiagnoseKind::Restore);
    assert_eq!(
        asked[0].point,
        ActPoint::Instance,
        "where the shared diagnosis acted"
    );
    assert_eq!(
        asked[0].restore_from.as_deref(),
        Some("/captures/first-passing.xml")
    );
    assert_eq!(asked[0].order, [P, V]);
    assert!(
        outcome.reason.contains("com.acme.VTest#first"),
        "{}",
        outcome.reason
    );

    // Another cause's field does not make it pass: it is diagnosed on its own, and the shared
    // restore (from another capture) is no evidence for its own ddmin.
    t.shared = Some(shared(&["b"]));
    let (outcome, asked) = m.diagnose(&t, None);
    assert_eq!(outcome.status, DiagnoseStatus::Confirmed, "{outcome:?}");
    assert_eq!(outcome.polluted_state, ["com.acme.S.a"]);
    assert_eq!(asked[1].kind, DiagnoseKind::CaptureFailing, "{asked:?}");
    let own: Vec<&DiagnoseExperiment> = asked
        .iter()
        .filter(|e| {
            e.kind == DiagnoseKind::Restore
                && e.restore_from.as_deref() != Some("/captures/first-passing.xml")
        })
        .collect();
    assert!(!own.is_empty(), "{asked:?}");
}

#[test]
fn noise_is_never_restored_and_a_subset_is_tried_when_restoring_all_fails() {
    // `port` differs between the two passing runs too: noise. Restoring it breaks the test.
    let mut m = Module::new(
        &[("a", 1), ("port", 40001), ("b", 2)],
        &[("a", 0), ("port", 40002), ("b", 0)],
        &["a"],
    );
    m.passing_again = Some(capture_xml(&[("a", 0), ("port", 40003), ("b", 0)]));
    m.breaks.insert("com.acme.S.port".into());
    let (o, asked) = m.diagnose(&victim(), None);
    assert_eq!(o.status, DiagnoseStatus::Confirmed, "{}", o.reason);
    assert_eq!(o.polluted_state, ["com.acme.S.a"]);
    assert!(
        asked
            .iter()
            .all(|e| !e.fields.contains(&"com.acme.S.port".to_string())),
        "{asked:?}"
    );
    let port = o
        .fields
        .iter()
        .find(|f| f.diff.field == "com.acme.S.port")
        .unwrap();
    assert!(port.noise && !port.confirmed);
    assert_eq!(
        o.fields.last().unwrap().diff.field,
        "com.acme.S.port",
        "noise last"
    );
    assert!(
        o.reason
            .contains("1 field also differs between two passing runs (noise"),
        "{}",
        o.reason
    );

    // Without the second capture's help (the same noise in both passing runs), restoring all
    // breaks the test; delta debugging still finds the field that matters.
    let mut m = Module::new(
        &[("a", 1), ("port", 40001), ("b", 2)],
        &[("a", 0), ("port", 40002), ("b", 0)],
        &["a"],
    );
    m.breaks.insert("com.acme.S.port".into());
    let (o, _) = m.diagnose(&victim(), None);
    assert_eq!(o.status, DiagnoseStatus::Confirmed, "{}", o.reason);
    assert_eq!(o.polluted_state, ["com.acme.S.a"]);
    assert!(
        o.reason
            .contains("restoring every restorable field together did not"),
        "{}",
        o.reason
    );
}

#[test]
fn fields_of_classes_initialized_on_one_side_only_come_after_the_values_that_differ() {
    // `com.acme.Lazy` is not initialized in either capture; add a class initialized only in the
    // failing one by giving the passing capture one class less.
    let failing = capture_xml(&[("a", 1), ("b", 2)]);
    let passing = capture_xml(&[("a", 0), ("b", 0)]).replace(
        "<class name=\"com.acme.PTestX\" initialized=\"true\"/>",
        "<class name=\"com.acme.PTestX\" initialized=\"false\"/>",
    );
    let mut m = Module::new(&[], &[], &["b"]);
    m.failing = failing.replace(
        "<class name=\"com.acme.PTestX\" initialized=\"true\"/>",
        "<class name=\"com.acme.PTestX\" initialized=\"true\"><static field=\"x\" type=\"int\" final=\"false\"><prim class=\"int\">5</prim></static></class>",
    );
    m.passing = passing;
    let (o, _) = m.diagnose(&victim(), None);
    let names: Vec<&str> = o.fields.iter().map(|f| f.diff.field.as_str()).collect();
    assert_eq!(o.polluted_state, ["com.acme.S.b"], "{}", o.reason);
    assert_eq!(names.first(), Some(&"com.acme.S.b"), "{names:?}");
    let a = names.iter().position(|n| *n == "com.acme.S.a").unwrap();
    let x = names
        .iter()
        .position(|n| *n == "com.acme.PTestX.x")
        .expect("the field of the class initialized on one side only");
    assert!(a < x, "{names:?}");
}

#[test]
fn captures_and_restores_act_at_one_point_the_earliest_both_orders_allow() {
    // Both orders allow the class point: everything acts there, and the verdict says so.
    let m = Module::new(&[("a", 1), ("b", 2)], &[("a", 0), ("b", 0)], &["a"]);
    let (outcome, asked) = m.diagnose(&victim(), None);
    assert_eq!(outcome.status, DiagnoseStatus::Confirmed, "{outcome:?}");
    assert!(
        asked.iter().all(|e| e.point == ActPoint::Class),
        "{asked:?}"
    );
    assert_eq!(outcome.point, Some(ActPoint::Class));
    assert!(
        outcome.reason.contains("before its class is prepared"),
        "{}",
        outcome.reason
    );

    // The passing order can act only before the instance (its test is not the first of its
    // class's block there): the failing order is captured again at that point, and the restores
    // act there too.
    let mut later = Module::new(&[("a", 1), ("b", 2)], &[("a", 0), ("b", 0)], &["a"]);
    later.earliest = (ActPoint::Class, ActPoint::Instance);
    let (outcome, asked) = later.diagnose(&victim(), None);
    assert_eq!(outcome.status, DiagnoseStatus::Confirmed, "{outcome:?}");
    let kinds: Vec<(DiagnoseKind, ActPoint)> = asked.iter().map(|e| (e.kind, e.point)).collect();
    assert_eq!(
        kinds[..3],
        [
            (DiagnoseKind::CaptureFailing, ActPoint::Class),
            (DiagnoseKind::CapturePassing, ActPoint::Class),
            (DiagnoseKind::CaptureFailing, ActPoint::Instance),
        ]
    );
    assert!(
        asked[3..].iter().all(|e| e.point == ActPoint::Instance),
        "{asked:?}"
    );
    assert_eq!(outcome.point, Some(ActPoint::Instance));
    assert_eq!(
        outcome
            .failing_capture
            .as_deref()
            .map(|p| p.ends_with("exp-3.xml")),
        Some(true),
        "the later failing capture is the one compared: {outcome:?}"
    );
    assert!(
        outcome.reason.contains("before its instance is built"),
        "{}",
        outcome.reason
    );

    // The failing order acts later than the passing capture did: the passing order is captured
    // again at the failing order's point.
    let mut late_failing = Module::new(&[("a", 1)], &[("a", 0)], &["a"]);
    late_failing.earliest = (ActPoint::Test, ActPoint::Class);
    let (outcome, asked) = late_failing.diagnose(&victim(), None);
    assert_eq!(outcome.status, DiagnoseStatus::Confirmed, "{outcome:?}");
    assert_eq!(
        asked[1].point,
        ActPoint::Test,
        "the passing capture asks for the failing one's point"
    );
    assert_eq!(outcome.point, Some(ActPoint::Test));
}

/// A capture where `com.acme.Config` holds `mode` = `value`, or is loaded but not initialized.
fn config_xml(mode: Option<i32>) -> String {
    let config = match mode {
        None => "<class name=\"com.acme.Config\" initialized=\"false\"/>".to_string(),
        Some(v) => format!(
            "<class name=\"com.acme.Config\" initialized=\"true\"><static field=\"mode\" type=\"int\" final=\"false\"><prim class=\"int\">{v}</prim></static></class>"
        ),
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<capture version=\"1\" test=\"com.acme.VTest#v\" occurrence=\"1\" java=\"17\" nodes=\"3\" limit=\"100\" truncated=\"false\">\n{config}\n<class name=\"com.acme.STest\" initialized=\"{}\"/>\n</capture>\n",
        mode.is_some()
    )
}

fn brittle() -> DiagnoseTarget {
    DiagnoseTarget {
        test: V.into(),
        kind: OdRole::Brittle,
        polluters: Vec::new(),
        state_setters: vec![vec!["com.acme.STest#s".into()]],
        fingerprint: "f1".into(),
        shared: None,
        unreachable: Vec::new(),
    }
}

#[test]
fn a_brittle_s_state_is_found_with_the_state_setter_s_classes_initialized_in_the_failing_order() {
    // Alone, Config is not initialized before the brittle; after the state-setter it holds mode 1.
    let mut m = Module::new(&[], &[], &["mode"]);
    m.failing = config_xml(None);
    m.passing = config_xml(Some(1));
    m.failing_initialized = Some(config_xml(Some(0)));
    m.needed = ["com.acme.Config.mode".to_string()].into();
    m.init_needed = vec!["com.acme.Config".into()];
    let (o, asked) = m.diagnose(&brittle(), None);
    assert_eq!(o.status, DiagnoseStatus::Confirmed, "{}", o.reason);
    assert_eq!(o.polluted_state, ["com.acme.Config.mode"]);
    // the failing order again, with Config (not the state-setter's own class) initialized
    assert_eq!(asked[2].kind, DiagnoseKind::CaptureFailing);
    assert_eq!(asked[2].initialize, ["com.acme.Config"]);
    let restores: Vec<&DiagnoseExperiment> = asked
        .iter()
        .filter(|e| e.kind == DiagnoseKind::Restore)
        .collect();
    assert!(!restores.is_empty());
    assert!(
        restores.iter().all(|e| e.initialize == ["com.acme.Config"]),
        "restores initialize it too: {restores:?}"
    );
    let field = &o.fields[0];
    assert_eq!(
        (field.diff.failing.as_str(), field.diff.passing.as_str()),
        ("0", "1")
    );
}

#[test]
fn a_brittle_that_needs_only_a_class_initialized_says_so() {
    let mut m = Module::new(&[], &[], &[]);
    m.failing = config_xml(None);
    m.passing = config_xml(Some(1));
    m.failing_initialized = Some(config_xml(Some(1)));
    m.passes_when_initialized = true;
    let (o, asked) = m.diagnose(&brittle(), None);
    assert_eq!(o.status, DiagnoseStatus::Initialization, "{}", o.reason);
    assert_eq!(asked.len(), 3);
    assert!(
        o.reason.contains("initializing com.acme.Config"),
        "{}",
        o.reason
    );
    assert!(
        o.reason.contains("com.acme.STest#s provides"),
        "{}",
        o.reason
    );
}

#[test]
fn fields_of_classes_the_test_cannot_reach_come_after_the_others() {
    let xml = |far: i32, s: &[(&str, i32)]| {
        let mut x = capture_xml(s);
        x = x.replace(
            "<class name=\"com.acme.Lazy\" initialized=\"false\"/>",
            &format!("<class name=\"com.acme.Far\" initialized=\"true\"><static field=\"b\" type=\"int\" final=\"false\"><prim class=\"int\">{far}</prim></static></class>"),
        );
        x
    };
    let mut m = Module::new(&[], &[], &["x"]);
    m.failing = xml(1, &[("c", 1), ("x", 1)]);
    m.passing = xml(0, &[("c", 0), ("x", 0)]);
    let order = |t: &DiagnoseTarget| -> Vec<String> {
        let (o, _) = m.diagnose(t, None);
        assert_eq!(o.status, DiagnoseStatus::Confirmed, "{}", o.reason);
        o.fields.iter().map(|f| f.diff.field.clone()).collect()
    };
    assert_eq!(
        order(&victim()),
        ["com.acme.S.x", "com.acme.Far.b", "com.acme.S.c"],
        "by name when nothing is known"
    );
    let mut t = victim();
    t.unreachable = vec!["com.acme.Far".into(), "com.acme.Unused".into()];
    assert_eq!(
        order(&t),
        ["com.acme.S.x", "com.acme.S.c", "com.acme.Far.b"],
        "the unreachable class's field last"
    );
}

/// A capture where `com.acme.S.cfg` is an object with a `name` and a `size`.
fn cfg_xml(name: &str, size: i32) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<capture version=\"1\" test=\"com.acme.VTest#v\" occurrence=\"1\" java=\"17\" nodes=\"4\" limit=\"100\" truncated=\"false\">\n<class name=\"com.acme.S\" initialized=\"true\"><static field=\"cfg\" type=\"com.acme.Cfg\" final=\"true\"><object class=\"com.acme.Cfg\"><field name=\"name\"><string>{name}</string></field><field name=\"size\"><prim class=\"int\">{size}</prim></field></object></static></class>\n</capture>\n"
    )
}

#[test]
fn a_field_with_noise_inside_and_a_real_difference_is_restored_and_confirmed() {
    // cfg.name holds an identity hash (differs in every JVM); cfg.size is what the polluter set.
    let mut m = Module::new(&[], &[], &["cfg"]);
    m.failing = cfg_xml("Yaml:111", 5);
    m.passing = cfg_xml("Yaml:222", 0);
    m.passing_again = Some(cfg_xml("Yaml:333", 0));
    let (o, asked) = m.diagnose(&victim(), None);
    assert_eq!(o.status, DiagnoseStatus::Confirmed, "{}", o.reason);
    assert_eq!(o.polluted_state, ["com.acme.S.cfg"]);
    let cfg = &o.fields[0];
    assert!(!cfg.noise, "not noise: it differs in size too");
    assert_eq!(cfg.noise_paths, ["com.acme.S.cfg.name"]);
    assert!(asked
        .iter()
        .any(|e| e.kind == DiagnoseKind::Restore && e.fields == ["com.acme.S.cfg"]));

    // When the only difference is the noisy path, the field is noise, and the verdict says no
    // field is left to restore (not that odrust cannot set it back).
    let mut only = Module::new(&[], &[], &["cfg"]);
    only.failing = cfg_xml("Yaml:111", 0);
    only.passing = cfg_xml("Yaml:222", 0);
    only.passing_again = Some(cfg_xml("Yaml:333", 0));
    let (o, _) = only.diagnose(&victim(), None);
    assert_eq!(o.status, DiagnoseStatus::NotRestorable, "{}", o.reason);
    assert!(o.fields[0].noise);
    assert!(
        o.reason.contains("each also between two passing runs"),
        "{}",
        o.reason
    );
}
