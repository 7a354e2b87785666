//! The audit planner against a simulated JVM: static state as integers per field, tests that
//! change it, the agent's capture points written as real capture files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::changes;
use super::runs::blocks;
use super::shapes::*;
use super::*;
use crate::model::experiment::TestResult;
use crate::model::outcome::RunOutcome;
use crate::model::testid::class_of;

/// What a simulated test does to the state: `(class.field, how)`.
#[derive(Clone, Copy)]
pub(super) enum Effect {
    /// `field += 1`, then asserts it is 1 (non-idempotent).
    Count,
    /// `field = v`, left so.
    Set(i64),
    /// `field = v`, then set back.
    SetAndRestore(i64),
    /// Asserts the field is 0.
    Expect0,
    /// Nothing.
    Nothing,
    /// Starts a thread of this name and leaves it running.
    StartsThread(&'static str),
    /// Passes once: sets the field to 1, fails when it was 1 already.
    Once,
    /// Changes nothing and fails.
    Fails,
}

pub(super) struct Sim {
    pub(super) tests: BTreeMap<&'static str, (&'static str, Effect)>,
    /// Each class's fields and their values right after initialization.
    initial: BTreeMap<&'static str, Vec<(&'static str, i64)>>,
    dir: PathBuf,
    /// What a fixed test does with a candidate patch, by candidate id.
    pub(super) fixes: BTreeMap<&'static str, Effect>,
}

static DIRS: AtomicUsize = AtomicUsize::new(0);

fn temp_dir() -> PathBuf {
    let n = DIRS.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("odrust-audit-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The experiments' directories are under `dir`, which goes with the simulation.
impl Drop for Sim {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Sim {
    pub(super) fn module() -> Sim {
        let mut tests = BTreeMap::new();
        tests.insert("p.ATest#counts", ("p.ATest.count", Effect::Count));
        tests.insert("p.ATest#idle", ("p.ATest.count", Effect::Nothing));
        tests.insert("p.BTest#sets", ("p.Config.mode", Effect::Set(7)));
        tests.insert(
            "p.CTest#restores",
            ("p.Config.other", Effect::SetAndRestore(5)),
        );
        tests.insert("p.DTest#reads", ("p.Config.mode", Effect::Expect0));
        let mut initial = BTreeMap::new();
        initial.insert("p.ATest", vec![("count", 0)]);
        initial.insert("p.Config", vec![("mode", 0), ("other", 0)]);
        initial.insert("p.BTest", vec![]);
        initial.insert("p.CTest", vec![]);
        initial.insert("p.DTest", vec![]);
        initial.insert("p.ETest", vec![("a", 0), ("b", 0)]);
        Sim {
            tests,
            initial,
            dir: temp_dir(),
            fixes: BTreeMap::new(),
        }
    }

    pub(super) fn original() -> Vec<String> {
        [
            "p.ATest#counts",
            "p.ATest#idle",
            "p.DTest#reads",
            "p.BTest#sets",
            "p.CTest#restores",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }

    fn capture(&self, state: &BTreeMap<String, i64>, inited: &BTreeSet<String>) -> String {
        let mut body = String::new();
        for class in inited {
            body.push_str(&format!("<class name=\"{class}\" initialized=\"true\">"));
            for (field, _) in &self.initial[class.as_str()] {
                let v = state[&format!("{class}.{field}")];
                body.push_str(&format!(
                    "<static field=\"{field}\" type=\"int\" final=\"false\"><prim class=\"java.lang.Integer\">{v}</prim></static>"
                ));
            }
            body.push_str("</class>\n");
        }
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<capture version=\"1\" test=\"t\" occurrence=\"1\" java=\"17\" nodes=\"1\" limit=\"200000\" truncated=\"false\">\n{body}</capture>\n"
        )
    }

    /// Runs `e` in a fresh simulated JVM.
    pub(super) fn run(&self, e: &AuditExperiment, fingerprint: &str) -> AuditRecord {
        let dir = self.dir.join(format!("exp-{}", e.id));
        std::fs::create_dir_all(&dir).unwrap();
        let mut state: BTreeMap<String, i64> = BTreeMap::new();
        let mut inited: BTreeSet<String> = BTreeSet::new();
        let mut reported: BTreeSet<String> = BTreeSet::new();
        let mut threads: Vec<String> = Vec::new();
        let mut threads_seen = 0usize;
        let mut points = Vec::new();
        let mut results = Vec::new();
        let mut starts: BTreeMap<String, u32> = BTreeMap::new();
        let init =
            |class: &str, state: &mut BTreeMap<String, i64>, inited: &mut BTreeSet<String>| {
                if inited.insert(class.to_string()) {
                    for (f, v) in &self.initial[class] {
                        state.insert(format!("{class}.{f}"), *v);
                    }
                }
            };
        let point = |at: &str,
                     segment: usize,
                     test: Option<&str>,
                     occurrence: u32,
                     state: &BTreeMap<String, i64>,
                     inited: &BTreeSet<String>,
                     reported: &mut BTreeSet<String>,
                     threads: &[String],
                     threads_seen: &mut usize,
                     points: &mut Vec<Point>| {
            let started: Vec<StartedThread> = threads[*threads_seen..]
                .iter()
                .map(|name| StartedThread {
                    name: name.clone(),
                    daemon: false,
                })
                .collect();
            *threads_seen = threads.len();
            let n = points.len() as u32 + 1;
            let new: Vec<String> = inited.difference(reported).cloned().collect();
            reported.extend(new.iter().cloned());
            let name = format!("point-{n}.xml");
            std::fs::write(dir.join(&name), self.capture(state, inited)).unwrap();
            let capture = Some(name);
            points.push(Point {
                point: n,
                at: at.to_string(),
                segment: segment as i64,
                test: test.map(str::to_string),
                occurrence: test.map(|_| occurrence),
                new,
                capture,
                threads_started: started,
                ..Point::default()
            });
        };
        // segments: consecutive tests of a class, cut at a repeat
        let mut segments: Vec<Vec<&String>> = Vec::new();
        for t in &e.order {
            match segments.last_mut() {
                Some(s) if class_of(s[0]) == class_of(t) && !s.contains(&t) => s.push(t),
                _ => segments.push(vec![t]),
            }
        }
        for (i, seg) in segments.iter().enumerate() {
            if e.uses_agent() {
                for hint in e.initialize_at.iter().filter(|h| h.segment == i) {
                    init(&hint.class, &mut state, &mut inited);
                }
                let first = seg[0].as_str();
                let occurrence = starts.get(first).copied().unwrap_or(0) + 1;
                point(
                    "class",
                    i,
                    Some(first),
                    occurrence,
                    &state,
                    &inited,
                    &mut reported,
                    &threads,
                    &mut threads_seen,
                    &mut points,
                );
            }
            for t in seg {
                let class = class_of(t);
                init(class, &mut state, &mut inited);
                let n = {
                    let c = starts.entry(t.to_string()).or_default();
                    *c += 1;
                    *c
                };
                if e.uses_agent() && e.capture_tests.iter().any(|c| c == class) {
                    point(
                        "test",
                        i,
                        Some(t),
                        n,
                        &state,
                        &inited,
                        &mut reported,
                        &threads,
                        &mut threads_seen,
                        &mut points,
                    );
                }
                let (field, effect) = self.tests[t.as_str()];
                let effect = match &e.fix {
                    Some(f) if f.test == **t => self
                        .fixes
                        .get(f.candidate.as_str())
                        .copied()
                        .unwrap_or(effect),
                    _ => effect,
                };
                let owner = field.rsplit_once('.').unwrap().0;
                init(owner, &mut state, &mut inited);
                let slot = state.get_mut(field).unwrap();
                let pass = match effect {
                    Effect::Count => {
                        *slot += 1;
                        *slot == 1
                    }
                    Effect::Set(v) => {
                        *slot = v;
                        true
                    }
                    Effect::SetAndRestore(v) => {
                        let old = *slot;
                        *slot = v;
                        *slot = old;
                        true
                    }
                    Effect::Expect0 => *slot == 0,
                    Effect::Nothing => true,
                    Effect::Fails => false,
                    Effect::Once => {
                        let first = *slot == 0;
                        *slot = 1;
                        first
                    }
                    Effect::StartsThread(name) => {
                        threads.push(format!("{name}-{}", e.id));
                        true
                    }
                };
                results.push(TestResult {
                    test: t.to_string(),
                    outcome: if pass {
                        RunOutcome::Pass
                    } else {
                        RunOutcome::Fail
                    },
                    message: (!pass).then(|| format!("{field} is {}", state[field])),
                    time_ms: None,
                    reads: None,
                    writes: None,
                    calls: None,
                });
            }
        }
        if e.uses_agent() {
            point(
                "end",
                segments.len() - 1,
                None,
                0,
                &state,
                &inited,
                &mut reported,
                &threads,
                &mut threads_seen,
                &mut points,
            );
        }
        AuditRecord {
            experiment: e.clone(),
            fingerprint: fingerprint.to_string(),
            results,
            honoured: true,
            points,
            captures_dir: Some(dir),
            time_ms: None,
            jvms: 1,
        }
    }
}

/// Runs the planner to the end against `sim`; the outcome and the experiments' kinds.
fn audit(sim: &Sim, original: Vec<String>) -> (AuditOutcome, Vec<AuditRecord>) {
    audit_with(sim, original, |_| {})
}

/// As [`audit`], with `after` changing each record before the planner sees it.
fn audit_with(
    sim: &Sim,
    original: Vec<String>,
    after: impl Fn(&mut AuditRecord),
) -> (AuditOutcome, Vec<AuditRecord>) {
    let mut request = AuditRequest {
        original,
        history: Vec::new(),
        next_id: 1,
        fingerprint: "f".to_string(),
        class_dirs: Vec::new(),
        test_classes: Vec::new(),
        max_confirm: None,
        repair: false,
        max_repair: None,
        fixes: None,
    };
    for _ in 0..50 {
        match next(&request).unwrap() {
            AuditStep::Run {
                experiment,
                what,
                left,
            } => {
                assert!(!what.is_empty());
                assert!(!left.is_empty());
                assert_eq!(experiment.id, request.next_id);
                let mut record = sim.run(&experiment, "f");
                after(&mut record);
                request.history.push(record);
                request.next_id += 1;
            }
            AuditStep::Done { outcome } => return (outcome, request.history),
            AuditStep::Fixes { .. } => panic!("no repair was asked for"),
        }
    }
    panic!("the audit did not end in 50 experiments");
}

#[test]
fn blocks_are_consecutive_tests_of_one_class() {
    let b = blocks(&Sim::original());
    assert_eq!(b.len(), 4);
    assert_eq!(b[0], vec!["p.ATest#counts", "p.ATest#idle"]);
}

#[test]
fn finds_the_self_polluter_and_the_latent_polluter_and_not_the_test_that_restores() {
    let sim = Sim::module();
    let (outcome, history) = audit(&sim, Sim::original());
    let kinds: Vec<AuditKind> = history.iter().map(|r| r.experiment.kind).collect();
    assert_eq!(
        kinds,
        vec![
            AuditKind::Twice,
            AuditKind::Confirm,
            AuditKind::CaptureClasses,
            AuditKind::InitialStates,
            AuditKind::CaptureTests
        ]
    );
    assert_eq!(outcome.jvms, 5);
    // every class twice: ATest's counter fails on its second run
    assert_eq!(history[0].experiment.order.len(), 10);
    assert_eq!(outcome.non_idempotent.len(), 1, "{outcome:?}");
    let nio = &outcome.non_idempotent[0];
    assert_eq!(nio.test, "p.ATest#counts");
    assert_eq!(nio.level, "test");
    assert_eq!(nio.second, RunOutcome::Fail);
    assert_eq!(nio.order, vec!["p.ATest#counts", "p.ATest#counts"]);
    assert_eq!(nio.experiments, vec![1, 2]);
    assert_eq!(nio.fields.len(), 1, "{:?}", nio.fields);
    assert_eq!(nio.fields[0].field, "p.ATest.count");
    assert_eq!(
        (nio.fields[0].before.as_str(), nio.fields[0].after.as_str()),
        ("0", "1")
    );
    // the latent polluter, attributed to the test; the one that restores is not reported
    let fields: Vec<(&str, &str)> = outcome
        .latent_polluters
        .iter()
        .map(|p| (p.test.as_str(), p.field.field.as_str()))
        .collect();
    assert!(
        fields.contains(&("p.BTest#sets", "p.Config.mode")),
        "{fields:?}"
    );
    assert!(
        !fields.iter().any(|(_, f)| *f == "p.Config.other"),
        "{fields:?}"
    );
    let sets = outcome
        .latent_polluters
        .iter()
        .find(|p| p.test == "p.BTest#sets")
        .unwrap();
    assert_eq!(
        (sets.field.before.as_str(), sets.field.after.as_str()),
        ("0", "7")
    );
    assert_eq!(sets.experiments, vec![3, 5]);
    // Config is initialized by DTest's segment: its initial state is captured right before it
    let hints = &history[3].experiment.initialize_at;
    assert!(
        hints
            .iter()
            .any(|h| h.class == "p.Config" && h.segment == 1),
        "{hints:?}"
    );
    // only the classes that left something are captured test by test
    assert!(history[4]
        .experiment
        .capture_tests
        .contains(&"p.BTest".to_string()));
    assert!(!history[4]
        .experiment
        .capture_tests
        .contains(&"p.CTest".to_string()));
}

#[test]
fn a_candidate_a_fresh_jvm_does_not_repeat_is_not_reported() {
    // DTest reads Config.mode, which BTest (before it in the doubled order) sets: not its own doing
    let sim = Sim::module();
    let original: Vec<String> = ["p.BTest#sets", "p.DTest#reads"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (outcome, _) = audit(&sim, original);
    assert!(outcome.non_idempotent.is_empty(), "{outcome:?}");
    assert!(outcome.failing.contains(&"p.DTest#reads".to_string()));
}

#[test]
fn class_level_self_pollution_is_confirmed_with_the_class_twice() {
    // ATest#idle does nothing, ATest#counts... ordered so that only the class run twice fails:
    let mut sim = Sim::module();
    sim.tests
        .insert("p.ATest#zcheck", ("p.ATest.count", Effect::Expect0));
    sim.tests
        .insert("p.ATest#set", ("p.ATest.count", Effect::Set(3)));
    let original: Vec<String> = ["p.ATest#zcheck", "p.ATest#set"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (outcome, history) = audit(&sim, original);
    assert_eq!(outcome.non_idempotent.len(), 1, "{outcome:?}");
    let nio = &outcome.non_idempotent[0];
    assert_eq!(nio.test, "p.ATest#zcheck");
    assert_eq!(nio.level, "class");
    assert_eq!(nio.order.len(), 4);
    assert!(history
        .iter()
        .any(|r| r.experiment.kind == AuditKind::Confirm && !r.experiment.class_level));
}

#[test]
fn records_of_another_fingerprint_are_not_replayed() {
    let sim = Sim::module();
    let (_, history) = audit(&sim, Sim::original());
    let request = AuditRequest {
        original: Sim::original(),
        history,
        next_id: 6,
        fingerprint: "other".to_string(),
        class_dirs: Vec::new(),
        test_classes: Vec::new(),
        max_confirm: None,
        repair: false,
        max_repair: None,
        fixes: None,
    };
    match next(&request).unwrap() {
        AuditStep::Run {
            experiment, left, ..
        } => {
            assert_eq!(experiment.kind, AuditKind::Twice);
            assert!(left.starts_with("then a fresh JVM"), "{left}");
        }
        AuditStep::Done { .. } | AuditStep::Fixes { .. } => {
            panic!("replayed another fingerprint's records")
        }
    }
}

#[test]
fn a_field_of_a_class_the_polluter_initializes_is_compared_with_its_state_after_initialization() {
    // BTest is the first to touch Config: without the hint its class point has no Config at all
    let sim = Sim::module();
    let original: Vec<String> = ["p.BTest#sets", "p.CTest#restores"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (outcome, history) = audit(&sim, original);
    assert!(history[2].experiment.initialize_at.contains(&InitializeAt {
        segment: 0,
        class: "p.Config".to_string()
    }));
    let fields: Vec<(&str, &str)> = outcome
        .latent_polluters
        .iter()
        .map(|p| (p.test.as_str(), p.field.field.as_str()))
        .collect();
    assert_eq!(fields, vec![("p.BTest#sets", "p.Config.mode")]);
    assert_eq!(outcome.latent_polluters[0].rank, "unknown");
    assert!(outcome.latent_polluters[0].field.since_initialized);
    assert_eq!(outcome.latent_polluters[0].experiments, vec![2, 3, 4]);
    assert_eq!(
        (
            outcome.latent_polluters[0].field.before.as_str(),
            outcome.latent_polluters[0].field.after.as_str()
        ),
        ("0", "7")
    );
    // the captures per test ran without any class initialized early
    assert!(history[3].experiment.initialize_at.is_empty());
}

#[test]
fn a_thread_left_running_is_attributed_to_its_test_when_both_runs_show_it() {
    let mut sim = Sim::module();
    sim.tests.insert(
        "p.CTest#starts",
        ("p.Config.other", Effect::StartsThread("pool")),
    );
    let original: Vec<String> = ["p.BTest#sets", "p.CTest#restores", "p.CTest#starts"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (outcome, history) = audit(&sim, original);
    // the thread's name differs between the two runs (pool-4, pool-5): the same thread
    assert_eq!(outcome.left_behind.len(), 1, "{outcome:?}");
    let t = &outcome.left_behind[0];
    assert_eq!(
        (t.test.as_str(), t.kind.as_str(), t.detail.as_str()),
        ("p.CTest#starts", "thread", "non-daemon")
    );
    assert_eq!(t.experiments, vec![2, 4]);
    assert!(history[3]
        .experiment
        .capture_tests
        .contains(&"p.CTest".to_string()));
}

#[test]
fn the_initial_states_run_changes_no_finding_even_when_its_outcomes_differ() {
    // initializing Config early may change what later tests do: that run only gives states
    let sim = Sim::module();
    let original: Vec<String> = ["p.BTest#sets", "p.DTest#reads"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (outcome, history) = audit_with(&sim, original, |r| {
        if r.experiment.kind == AuditKind::InitialStates {
            for t in &mut r.results {
                t.outcome = RunOutcome::Pass;
            }
        }
    });
    let kinds: Vec<AuditKind> = history.iter().map(|r| r.experiment.kind).collect();
    assert_eq!(
        kinds,
        vec![
            AuditKind::Twice,
            AuditKind::CaptureClasses,
            AuditKind::InitialStates,
            AuditKind::CaptureTests
        ]
    );
    assert_eq!(
        outcome.notes,
        vec!["initializing classes early (experiment 3, used only for their initial states) changed the outcome of p.DTest#reads"]
    );
    let fields: Vec<(&str, &str)> = outcome
        .latent_polluters
        .iter()
        .map(|p| (p.test.as_str(), p.field.field.as_str()))
        .collect();
    assert_eq!(fields, vec![("p.BTest#sets", "p.Config.mode")]);
}

#[test]
fn a_parameterized_invocation_listed_in_the_order_is_audited_by_its_own_id() {
    let mut sim = Sim::module();
    sim.tests
        .insert("p.ATest#each[0]", ("p.ATest.count", Effect::Count));
    sim.tests
        .insert("p.ATest#each[1]", ("p.ATest.count", Effect::Nothing));
    let original: Vec<String> = ["p.ATest#each[0]", "p.ATest#each[1]"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (outcome, _) = audit(&sim, original);
    let nio: Vec<&str> = outcome
        .non_idempotent
        .iter()
        .map(|n| n.test.as_str())
        .collect();
    assert_eq!(nio, vec!["p.ATest#each[0]"], "{outcome:?}");
}

#[test]
fn a_candidate_alone_in_its_class_is_not_confirmed_twice_over() {
    // DTest fails after BTest's second block: alone in its class, [t, t] is its class twice
    let sim = Sim::module();
    let original: Vec<String> = ["p.BTest#sets", "p.DTest#reads"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (outcome, history) = audit(&sim, original);
    assert!(!history.iter().any(|r| r.experiment.class_level));
    assert!(outcome.not_confirmed.is_empty(), "{outcome:?}");
}

#[test]
fn only_the_first_jvm_of_a_captured_run_is_used_and_a_note_says_so() {
    let sim = Sim::module();
    let (_, history) = audit(&sim, Sim::original());
    let mut request = AuditRequest {
        original: Sim::original(),
        history,
        next_id: 6,
        fingerprint: "f".to_string(),
        class_dirs: Vec::new(),
        test_classes: Vec::new(),
        max_confirm: None,
        repair: false,
        max_repair: None,
        fixes: None,
    };
    // the capture per class went on in a second JVM after its third point: the points there
    // restart from 1 and from segment 0
    let by_class = request
        .history
        .iter_mut()
        .find(|r| r.experiment.kind == AuditKind::CaptureClasses)
        .unwrap();
    for p in by_class.points.iter_mut() {
        p.jvm = Some("100".to_string());
    }
    let mut more: Vec<Point> = by_class.points[..2].to_vec();
    for p in more.iter_mut() {
        p.jvm = Some("200".to_string());
    }
    by_class.points.extend(more);
    let AuditStep::Done { outcome } = next(&request).unwrap() else {
        panic!("not done");
    };
    assert!(
        outcome
            .notes
            .iter()
            .any(|n| n.contains("ran in more than one JVM")),
        "{:?}",
        outcome.notes
    );
    let fields: Vec<&str> = outcome
        .latent_polluters
        .iter()
        .map(|p| p.field.field.as_str())
        .collect();
    assert!(fields.contains(&"p.Config.mode"), "{fields:?}");
}

/// A capture of class `p.S` with the given static fields' XML.
fn capture_of(statics: &str) -> crate::diagnose::Capture {
    crate::diagnose::parse(&format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<capture version=\"1\" test=\"t\" occurrence=\"1\" java=\"17\" nodes=\"1\" limit=\"200000\" truncated=\"false\">\n<class name=\"p.S\" initialized=\"true\">{statics}</class>\n</capture>\n"
    ))
    .unwrap()
}

#[test]
fn a_final_field_reached_first_by_another_path_and_a_filled_cache_are_told_apart() {
    let mapper = |entries: &str, ref_to: &str| {
        format!(
            "<static field=\"TAG\" type=\"java.lang.Object\" final=\"true\"><ref to=\"{ref_to}\"/></static>\
             <static field=\"mapper\" type=\"java.lang.Object\" final=\"false\"><object class=\"p.Mapper\">\
             <field name=\"_typeCache\"><map class=\"java.util.HashMap\" size=\"1\">{entries}</map></field>\
             </object></static>\
             <static field=\"mode\" type=\"java.lang.String\" final=\"false\"><string>{}</string></static>",
            if entries.is_empty() { "a" } else { "b" }
        )
    };
    let before = capture_of(&mapper("", "p.S.x"));
    let after = capture_of(&mapper(
        "<entry><string>k</string><string>v</string></entry>",
        "p.S.y",
    ));
    let changed = changes::changed(&before, &after);
    let by: BTreeMap<&str, &ChangedField> = changed.iter().map(|c| (c.field.as_str(), c)).collect();
    assert!(!by.contains_key("p.S.TAG"), "{changed:?}");
    assert!(by["p.S.mapper"].cache_only, "{changed:?}");
    assert!(!by["p.S.mode"].cache_only);
}

#[test]
fn a_class_whose_every_test_fails_in_its_second_block_is_one_finding() {
    let mut sim = Sim::module();
    sim.tests.insert("p.ETest#a", ("p.ETest.a", Effect::Once));
    sim.tests.insert("p.ETest#b", ("p.ETest.b", Effect::Once));
    let original: Vec<String> = ["p.ETest#a", "p.ETest#b"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (outcome, history) = audit(&sim, original);
    assert_eq!(outcome.non_idempotent.len(), 1, "{outcome:?}");
    let n = &outcome.non_idempotent[0];
    assert_eq!((n.test.as_str(), n.level.as_str()), ("p.ETest#a", "class"));
    assert_eq!(n.others, vec!["p.ETest#b"]);
    assert_eq!(
        history
            .iter()
            .filter(|r| r.experiment.kind == AuditKind::Confirm)
            .count(),
        1
    );
}
