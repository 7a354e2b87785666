//! The repair planner driven to its verdict against simulated modules: each module says, for a
//! candidate (source, placement, statements) and an order, how every test ends.

use std::collections::BTreeMap;

use super::plan::*;
use crate::model::experiment::{Isolation, TestResult};
use crate::model::kind::OdRole;
use crate::model::outcome::RunOutcome;

mod setup_breaks;
mod shared;
mod split;
mod uncleaned;

const V: &str = "p.VictimTest#v";
const V2: &str = "p.VictimTest#other";
const P: &str = "p.PolluterTest#p";
const P2: &str = "p.OtherPolluterTest#q";
const C: &str = "p.CleanerTest#c";
const C_SAME: &str = "p.VictimTest#cleans";
const B: &str = "p.BrittleTest#b";
const S: &str = "p.SetterTest#s";

fn result(test: &str, outcome: RunOutcome) -> TestResult {
    TestResult {
        test: test.to_string(),
        outcome,
        message: (outcome != RunOutcome::Pass).then(|| "expected <0> but was <1>".to_string()),
        time_ms: None,
        reads: None,
        writes: None,
        calls: None,
    }
}

/// A simulated module: whether a candidate compiles, and each test's outcome in an order.
trait World {
    fn compiles(&self, _e: &RepairExperiment) -> Result<(), String> {
        Ok(())
    }
    fn outcomes(&self, e: &RepairExperiment) -> Vec<TestResult>;
}

/// Runs the planner to its verdict; returns it and the history.
fn drive(request: &mut RepairRequest, world: &dyn World) -> (RepairOutcome, Vec<RepairRecord>) {
    let (outcome, history, _) = drive_counting(request, world);
    (outcome, history)
}

/// As [`drive`], with the `checks_left` each run step said, one per record.
fn drive_counting(
    request: &mut RepairRequest,
    world: &dyn World,
) -> (RepairOutcome, Vec<RepairRecord>, Vec<Option<usize>>) {
    let mut said = Vec::new();
    for _ in 0..1000 {
        match next(request).unwrap() {
            RepairStep::Done { outcome } => return (outcome, request.history.clone(), said),
            RepairStep::Run {
                experiment,
                checks_left,
            } => {
                said.push(checks_left);
                assert_eq!(experiment.id, request.history.len() + 1);
                let (compile_error, results) = match world.compiles(&experiment) {
                    Err(e) => (Some(e), Vec::new()),
                    Ok(()) => (None, world.outcomes(&experiment)),
                };
                request.history.push(RepairRecord {
                    experiment,
                    fingerprint: request.target.fingerprint.clone(),
                    compile_error,
                    results,
                    reused_from: None,
                    honoured: true,
                    isolation: Isolation::Jvm,
                });
            }
        }
    }
    panic!("the planner did not finish in 1000 experiments");
}

fn victim_target(sources: Vec<FixSource>) -> RepairTarget {
    let mut cleaners = BTreeMap::new();
    cleaners.insert(P.to_string(), vec![C.to_string(), C_SAME.to_string()]);
    RepairTarget {
        test: V.to_string(),
        kind: OdRole::Victim,
        polluters: vec![vec![P.to_string()]],
        cleaners,
        state_setters: vec![],
        explanation_complete: true,
        failing_order: vec![P.to_string(), C.to_string(), P.to_string(), V.to_string()],
        original_order: vec![C.to_string(), P.to_string(), V2.to_string(), V.to_string()],
        baseline: vec![
            result(C, RunOutcome::Pass),
            result(P, RunOutcome::Pass),
            result(V2, RunOutcome::Pass),
            result(V, RunOutcome::Pass),
        ],
        sources,
        fingerprint: "f1".to_string(),
        also: vec![],
        ruled_out: vec![],
    }
}

fn source(test: &str, statements: usize, placements: &[Placement]) -> FixSource {
    FixSource {
        test: test.to_string(),
        statements,
        placements: placements.to_vec(),
        unusable: None,
        origin: SourceOrigin::Test,
    }
}

fn request(target: RepairTarget) -> RepairRequest {
    RepairRequest {
        target,
        history: Vec::new(),
        budget: None,
        next_id: None,
    }
}

/// The victim fails when the polluter ran before it with no cleaning since, where "cleaning" is
/// the cleaner test itself or a patch of the cleaner's statements holding all of `needed`.
struct Shared {
    needed: Vec<usize>,
    /// Statement indices that only compile together with another (`(uses, declares)`).
    declares: Vec<(usize, usize)>,
    /// A patch in the setup breaks this other test of the victim's class.
    setup_breaks: Option<&'static str>,
}

impl World for Shared {
    fn compiles(&self, e: &RepairExperiment) -> Result<(), String> {
        for &(uses, declares) in &self.declares {
            if e.statements.contains(&uses) && !e.statements.contains(&declares) {
                return Err(format!("cannot find symbol (statement {uses})"));
            }
        }
        Ok(())
    }

    fn outcomes(&self, e: &RepairExperiment) -> Vec<TestResult> {
        let patched = e.source.is_some() && self.needed.iter().all(|n| e.statements.contains(n));
        let mut dirty = false;
        e.order
            .iter()
            .map(|t| {
                let setup_patch = patched && e.placement == Some(Placement::Setup);
                let outcome = if t == V {
                    if dirty && !patched {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    }
                } else if Some(t.as_str()) == self.setup_breaks && setup_patch {
                    RunOutcome::Error
                } else {
                    RunOutcome::Pass
                };
                if t == P || t == P2 {
                    dirty = true;
                }
                if t == C || t == C_SAME || (t == V && patched) {
                    dirty = false;
                }
                result(t, outcome)
            })
            .collect()
    }
}

#[test]
fn keeps_only_the_needed_statement_and_verifies_every_check() {
    let world = Shared {
        needed: vec![3],
        declares: vec![],
        setup_breaks: None,
    };
    let mut r = request(victim_target(vec![source(
        C,
        6,
        &[Placement::Setup, Placement::Test],
    )]));
    let (outcome, history) = drive(&mut r, &world);
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.statements, vec![3]);
    assert_eq!(outcome.statements_total, 6);
    assert_eq!(outcome.placement, Some(Placement::Setup));
    let source = outcome.source.as_ref().unwrap();
    assert_eq!((source.kind.as_str(), source.test.as_str()), ("cleaner", C));
    assert_eq!(source.polluter.as_deref(), Some(P));
    let checks: Vec<Check> = outcome.verification.iter().map(|c| c.check).collect();
    assert_eq!(
        checks,
        [
            Check::FailingOrder,
            Check::Alone,
            Check::RecordedFailingOrder,
            Check::Class,
            Check::OriginalOrder
        ]
    );
    assert!(outcome.verification.iter().all(|c| c.passed));
    // The first experiment is the unpatched failing order, and it failed.
    assert_eq!(history[0].experiment.check, Check::Unpatched);
    assert_eq!(history[0].experiment.order, [P, V]);
    assert_eq!(outcome.experiments, history.len());
    // ddmin with one culprit among 6: at most 2 * ceil(log2 6) queries, plus all 6 once.
    let minimizing = history
        .iter()
        .filter(|h| h.experiment.check == Check::FailingOrder)
        .count();
    assert!(minimizing <= 1 + 6, "{minimizing} failing-order runs");
    // No experiment is asked twice.
    let mut keys: Vec<_> = history
        .iter()
        .map(|h| {
            (
                h.experiment.statements.clone(),
                h.experiment.order.clone(),
                h.experiment.placement,
            )
        })
        .collect();
    let n = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), n);
}

#[test]
fn statements_that_do_not_compile_alone_are_kept_together() {
    // statement 4 is needed and uses a local that statement 1 declares
    let world = Shared {
        needed: vec![4],
        declares: vec![(4, 1)],
        setup_breaks: None,
    };
    let mut r = request(victim_target(vec![source(C, 6, &[Placement::Setup])]));
    let (outcome, _) = drive(&mut r, &world);
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.statements, vec![1, 4]);
    assert!(outcome.compile_errors > 0);
}

#[test]
fn without_a_usable_candidate_every_candidate_is_rejected_with_why() {
    let world = Shared {
        needed: vec![0],
        declares: vec![],
        setup_breaks: Some(V2),
    };
    let mut r = request(victim_target(vec![source(C, 1, &[Placement::Setup])]));
    let (outcome, _) = drive(&mut r, &world);
    assert_eq!(outcome.status, RepairStatus::Rejected);
    assert!(outcome.reason.unwrap().contains("no candidate passed"));
    assert!(outcome.verification.iter().any(|c| !c.passed));
}

#[test]
fn cleaners_in_the_victims_class_come_first_and_unusable_ones_say_why() {
    let world = Shared {
        needed: vec![0],
        declares: vec![],
        setup_breaks: None,
    };
    let mut broken = source(C, 3, &[Placement::Setup]);
    broken.unusable = Some("CleanerTest.java: parse error".to_string());
    let mut r = request(victim_target(vec![
        broken,
        source(C_SAME, 2, &[Placement::Setup]),
    ]));
    let (outcome, history) = drive(&mut r, &world);
    assert_eq!(outcome.source.unwrap().test, C_SAME);
    assert!(history
        .iter()
        .all(|h| h.experiment.source.as_deref() != Some(C)));
    assert_eq!(outcome.tried.len(), 1);
    assert!(outcome.tried[0].why.contains("parse error"));
}

#[test]
fn a_victim_without_cleaners_gets_a_reason_and_no_experiment() {
    let mut target = victim_target(vec![]);
    target.cleaners.clear();
    target.explanation_complete = false;
    let outcome = match next(&request(target)).unwrap() {
        RepairStep::Done { outcome } => outcome,
        other => panic!("{other:?}"),
    };
    assert_eq!(outcome.status, RepairStatus::NoFixSource);
    let reason = outcome.reason.unwrap();
    assert!(reason.starts_with("no cleaner known"), "{reason}");
    assert!(reason.contains("odrust:minimize"), "{reason}");
    assert_eq!(outcome.experiments, 0);
}

#[test]
fn a_failing_order_that_passes_unpatched_is_not_repaired() {
    struct Healed;
    impl World for Healed {
        fn outcomes(&self, e: &RepairExperiment) -> Vec<TestResult> {
            e.order
                .iter()
                .map(|t| result(t, RunOutcome::Pass))
                .collect()
        }
    }
    let mut r = request(victim_target(vec![source(C, 2, &[Placement::Setup])]));
    let (outcome, history) = drive(&mut r, &Healed);
    assert_eq!(outcome.status, RepairStatus::NotReproduced);
    assert_eq!(history.len(), 1);
    assert!(outcome.reason.unwrap().contains("run detect again"));
}

#[test]
fn a_brittle_is_patched_from_its_state_setter() {
    struct Setter;
    impl World for Setter {
        fn outcomes(&self, e: &RepairExperiment) -> Vec<TestResult> {
            let patched = e.statements.contains(&1);
            let mut set = false;
            e.order
                .iter()
                .map(|t| {
                    let o = if t == B && !set && !patched {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    };
                    set |= t == S;
                    result(t, o)
                })
                .collect()
        }
    }
    let target = RepairTarget {
        test: B.to_string(),
        kind: OdRole::Brittle,
        polluters: vec![],
        cleaners: BTreeMap::new(),
        state_setters: vec![vec![S.to_string()]],
        explanation_complete: true,
        failing_order: vec![B.to_string()],
        original_order: vec![B.to_string(), S.to_string()],
        baseline: vec![result(B, RunOutcome::Fail), result(S, RunOutcome::Pass)],
        sources: vec![source(S, 3, &[Placement::Setup])],
        fingerprint: "f".to_string(),
        also: vec![],
        ruled_out: vec![],
    };
    let mut r = request(target);
    let (outcome, _) = drive(&mut r, &Setter);
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.statements, vec![1]);
    assert_eq!(outcome.source.unwrap().kind, "state-setter");
    // A brittle's failing order is itself alone: no separate alone check; the original order,
    // where it failed before, now passes it.
    let checks: Vec<Check> = outcome.verification.iter().map(|c| c.check).collect();
    assert_eq!(checks, [Check::FailingOrder, Check::OriginalOrder]);
}

#[test]
fn replay_is_deterministic_resumable_and_ignores_other_fingerprints() {
    let world = Shared {
        needed: vec![2, 5],
        declares: vec![],
        setup_breaks: None,
    };
    let mut first = request(victim_target(vec![source(C, 8, &[Placement::Setup])]));
    let (a, history_a) = drive(&mut first, &world);
    let mut second = request(victim_target(vec![source(C, 8, &[Placement::Setup])]));
    let (b, history_b) = drive(&mut second, &world);
    assert_eq!(a.statements, vec![2, 5]);
    assert_eq!(a.statements, b.statements);
    let orders = |h: &[RepairRecord]| h.iter().map(|r| r.experiment.clone()).collect::<Vec<_>>();
    assert_eq!(orders(&history_a), orders(&history_b));
    // Resumed from the full history: nothing more to run, same verdict.
    match next(&first).unwrap() {
        RepairStep::Done { outcome } => assert_eq!(outcome.statements, a.statements),
        other => panic!("{other:?}"),
    }
    // The sources changed: the old records do not count, the planner starts over.
    first.target.fingerprint = "f2".to_string();
    match next(&first).unwrap() {
        RepairStep::Run { experiment, .. } => {
            assert_eq!(experiment.check, Check::Unpatched);
            assert_eq!(experiment.id, history_a.len() + 1);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_budget_stops_the_search_and_says_how_to_go_on() {
    let world = Shared {
        needed: vec![7],
        declares: vec![],
        setup_breaks: None,
    };
    let mut r = request(victim_target(vec![source(C, 16, &[Placement::Setup])]));
    r.budget = Some(3);
    let (outcome, history) = drive(&mut r, &world);
    assert_eq!(outcome.status, RepairStatus::Unfinished);
    assert_eq!(history.len(), 3);
    assert!(outcome.reason.unwrap().contains("-Dodrust.repair.budget"));
    assert!(next(&RepairRequest {
        budget: Some(0),
        ..r
    })
    .is_err());
}

#[test]
fn a_cleaner_of_every_polluter_is_tried_before_one_of_a_single_polluter() {
    let world = Shared {
        needed: vec![0],
        declares: vec![],
        setup_breaks: None,
    };
    let mut target = victim_target(vec![
        source(C_SAME, 1, &[Placement::Setup]),
        source(C, 1, &[Placement::Setup]),
    ]);
    target.polluters.push(vec![P2.to_string()]);
    target.cleaners.insert(P2.to_string(), vec![C.to_string()]);
    let (outcome, _) = drive(&mut request(target), &world);
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.source.unwrap().test, C);
    // The other polluter's failing order was among the checks.
    assert!(outcome
        .verification
        .iter()
        .any(|c| c.check == Check::RecordedFailingOrder && c.order == [P2, V]));
}

#[test]
fn a_polluter_teardown_patch_is_checked_in_the_polluters_class_too_and_skipped_for_brittles() {
    struct Teardown;
    impl World for Teardown {
        fn outcomes(&self, e: &RepairExperiment) -> Vec<TestResult> {
            let patched =
                e.placement == Some(Placement::PolluterTeardown) && e.statements.contains(&0);
            let mut dirty = false;
            e.order
                .iter()
                .map(|t| {
                    let o = if t == V && dirty {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    };
                    if t == P && !patched {
                        dirty = true;
                    }
                    if t == C {
                        dirty = false;
                    }
                    result(t, o)
                })
                .collect()
        }
    }
    let mut target = victim_target(vec![source(
        C,
        2,
        &[Placement::PolluterTeardown, Placement::Setup],
    )]);
    target
        .original_order
        .push("p.PolluterTest#other".to_string());
    let (outcome, _) = drive(&mut request(target), &Teardown);
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.placement, Some(Placement::PolluterTeardown));
    let classes: Vec<&Vec<String>> = outcome
        .verification
        .iter()
        .filter(|c| c.check == Check::Class)
        .map(|c| &c.order)
        .collect();
    assert!(
        classes
            .iter()
            .any(|o| o.iter().all(|t| t.starts_with("p.PolluterTest#"))),
        "the polluter's class was checked: {classes:?}"
    );
    assert_eq!(
        serde_json::to_string(&Placement::PolluterTeardown).unwrap(),
        "\"polluter-teardown\""
    );
}

#[test]
fn reused_runs_and_compile_errors_cost_no_budget() {
    let world = Shared {
        needed: vec![3],
        declares: vec![(3, 2)],
        setup_breaks: None,
    };
    let mut r = request(victim_target(vec![source(C, 6, &[Placement::Setup])]));
    let (outcome, history) = drive(&mut r, &world);
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    let jvms = history.iter().filter(|h| h.compile_error.is_none()).count();
    assert!(outcome.compile_errors > 0);
    assert_eq!(
        outcome.experiments, jvms,
        "compile errors are not experiments"
    );
    // A budget of exactly the JVM runs suffices: compile errors do not count against it.
    let mut again = request(victim_target(vec![source(C, 6, &[Placement::Setup])]));
    again.budget = Some(jvms as u32);
    assert_eq!(drive(&mut again, &world).0.status, RepairStatus::Patched);
    // A record marked as reused (no JVM ran) is not counted either.
    let mut reused = history.clone();
    for h in reused.iter_mut().skip(1) {
        h.reused_from = Some(1);
    }
    let done = next(&RepairRequest {
        target: victim_target(vec![source(C, 6, &[Placement::Setup])]),
        history: reused,
        budget: Some(1),
        next_id: None,
    })
    .unwrap();
    match done {
        RepairStep::Done { outcome } => {
            assert_eq!(outcome.status, RepairStatus::Patched);
            assert_eq!(outcome.experiments, 1);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn with_next_id_the_history_may_hold_only_this_targets_records() {
    let world = Shared {
        needed: vec![1],
        declares: vec![],
        setup_breaks: None,
    };
    let mut r = request(victim_target(vec![source(C, 4, &[Placement::Setup])]));
    let (_, history) = drive(&mut r, &world);
    // 40 records of another test came first in the module's file: ids continue after them.
    let partial = RepairRequest {
        history: history[..2].to_vec(),
        next_id: Some(43),
        ..r.clone()
    };
    match next(&partial).unwrap() {
        RepairStep::Run { experiment, .. } => assert_eq!(experiment.id, 43),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_run_that_did_not_honour_its_order_is_no_evidence() {
    let world = Shared {
        needed: vec![0],
        declares: vec![],
        setup_breaks: None,
    };
    let mut r = request(victim_target(vec![source(C, 2, &[Placement::Setup])]));
    let (patched, mut history) = drive(&mut r, &world);
    assert_eq!(patched.status, RepairStatus::Patched);
    // The same history, but the original-order check ran some other order: not verified.
    let last = history.len() - 1;
    assert_eq!(history[last].experiment.check, Check::OriginalOrder);
    history[last].honoured = false;
    let outcome = match next(&RepairRequest {
        history,
        ..r.clone()
    })
    .unwrap()
    {
        RepairStep::Done { outcome } => outcome,
        other => panic!("{other:?}"),
    };
    assert_ne!(outcome.status, RepairStatus::Patched);
    assert!(
        outcome
            .tried
            .iter()
            .any(|t| t.why.contains("did not run exactly as asked")),
        "{outcome:?}"
    );
    // And an unpatched run that was not honoured reproduces nothing.
    let mut first = request(victim_target(vec![source(C, 2, &[Placement::Setup])]));
    first.history = vec![RepairRecord {
        honoured: false,
        ..r.history[0].clone()
    }];
    match next(&first).unwrap() {
        RepairStep::Done { outcome } => {
            assert_eq!(outcome.status, RepairStatus::NotReproduced);
            assert!(outcome.reason.unwrap().contains("could not be run"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_victim_without_cleaners_is_patched_from_reset_method_calls_after_every_cleaner() {
    const R: &str = "reset-method:all";
    let world = Shared {
        needed: vec![1],
        declares: vec![],
        setup_breaks: None,
    };
    let mut reset = source(R, 3, &[Placement::Setup, Placement::Test]);
    reset.origin = SourceOrigin::ResetMethod;
    // no cleaner known: only the reset-method source
    let mut t = victim_target(vec![reset.clone()]);
    t.cleaners.clear();
    let (outcome, history) = drive(&mut request(t), &world);
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    assert_eq!(outcome.statements, vec![1]);
    let used = outcome.source.as_ref().unwrap();
    assert_eq!(
        (used.kind.as_str(), used.test.as_str()),
        ("reset-method", R)
    );
    assert_eq!(used.polluter.as_deref(), Some(P));
    assert_eq!(history[0].experiment.order, [P, V]);
    // with a cleaner too, the cleaner is tried first
    let world = Shared {
        needed: vec![0],
        declares: vec![],
        setup_breaks: None,
    };
    let t = victim_target(vec![reset, source(C, 1, &[Placement::Setup])]);
    let (outcome, _) = drive(&mut request(t), &world);
    assert_eq!(outcome.source.as_ref().unwrap().test, C, "{outcome:?}");
    // a brittle never uses reset-method calls
    let mut b = victim_target(vec![]);
    b.kind = OdRole::Brittle;
    b.test = B.to_string();
    b.state_setters = vec![];
    let mut s = source(R, 1, &[Placement::Setup]);
    s.origin = SourceOrigin::ResetMethod;
    b.sources = vec![s];
    assert_eq!(
        drive(&mut request(b), &world).0.status,
        RepairStatus::NoFixSource
    );
}

/// Victims of one polluter in two classes: `V` (p.VictimTest) and `W` (p.OtherVictimTest), and
/// `V2` in V's class when `v2_victim`. Statement 0 resets the state; a setup patch resets it
/// only before the tests of the class it is in (p.VictimTest), a polluter-teardown patch right
/// after the polluter; statement 1 is needed too for `V2`.
struct Cause {
    v2_victim: bool,
}

const W: &str = "p.OtherVictimTest#w";

impl World for Cause {
    fn outcomes(&self, e: &RepairExperiment) -> Vec<TestResult> {
        let resets = e.source.is_some() && e.statements.contains(&0);
        let resets_all = resets && e.statements.contains(&1);
        let mut dirty = false;
        e.order
            .iter()
            .map(|t| {
                if t == P {
                    dirty = !(resets && e.placement == Some(Placement::PolluterTeardown));
                    return result(t, RunOutcome::Pass);
                }
                let victim = t == V || t == W || (self.v2_victim && t == V2);
                let cleaned_here = e.placement == Some(Placement::Setup)
                    && t.starts_with("p.VictimTest#")
                    && if t == V2 { resets_all } else { resets };
                let fails = victim && dirty && !cleaned_here;
                result(
                    t,
                    if fails {
                        RunOutcome::Fail
                    } else {
                        RunOutcome::Pass
                    },
                )
            })
            .collect()
    }
}

fn cause_target(also: &[&str], placements: &[Placement]) -> RepairTarget {
    let mut t = victim_target(vec![source(C, 3, placements)]);
    t.cleaners.insert(P.to_string(), vec![C.to_string()]);
    t.original_order = vec![
        C.to_string(),
        W.to_string(),
        V2.to_string(),
        V.to_string(),
        P.to_string(),
    ];
    t.baseline = t
        .original_order
        .iter()
        .map(|x| result(x, RunOutcome::Pass))
        .collect();
    t.also = also
        .iter()
        .map(|m| CauseMember {
            test: m.to_string(),
            failing_order: vec![P.to_string(), m.to_string()],
        })
        .collect();
    t
}

#[test]
fn victims_of_one_cause_in_two_classes_get_one_teardown_patch_checked_for_all() {
    let placements = [
        Placement::Setup,
        Placement::PolluterTeardown,
        Placement::Test,
    ];
    let mut r = request(cause_target(&[W], &placements));
    let (outcome, history) = drive(&mut r, &Cause { v2_victim: false });
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    // A setup or a test method fixes one class or one test: only the teardown was tried.
    assert_eq!(outcome.placement, Some(Placement::PolluterTeardown));
    assert!(history
        .iter()
        .all(|r| r.experiment.placement != Some(Placement::Setup)));
    assert_eq!(outcome.statements, vec![0]);
    let checks: Vec<(Check, Vec<String>)> = outcome
        .verification
        .iter()
        .map(|c| (c.check, c.order.clone()))
        .collect();
    let ids = |ids: &[&str]| ids.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(checks[0], (Check::FailingOrder, ids(&[P, V, W])));
    assert!(checks.contains(&(Check::Alone, ids(&[V]))), "{checks:?}");
    assert!(checks.contains(&(Check::Alone, ids(&[W]))), "{checks:?}");
    assert!(
        checks.contains(&(Check::RecordedFailingOrder, ids(&[P, W]))),
        "{checks:?}"
    );
    // W's class is W alone: its alone check is its class check (each order runs once).
    assert!(
        checks.contains(&(Check::Class, ids(&[V2, V]))),
        "{checks:?}"
    );
    assert!(checks.contains(&(Check::Class, ids(&[P]))), "{checks:?}");
    assert_eq!(checks.last().unwrap().0, Check::OriginalOrder, "{checks:?}");
    // One repair for both: as many JVMs as one victim's repair and a few more checks.
    let mut single = request(cause_target(&[], &placements));
    let (alone, _) = drive(&mut single, &Cause { v2_victim: false });
    assert_eq!(alone.status, RepairStatus::Patched);
    assert!(
        outcome.experiments <= 2 * alone.experiments,
        "{} vs {}",
        outcome.experiments,
        alone.experiments
    );
}

#[test]
fn a_patch_that_fixes_only_some_tests_of_the_cause_is_rejected_naming_the_one_it_does_not() {
    let mut r = request(cause_target(&[V2], &[Placement::Setup]));
    let (outcome, _) = drive(&mut r, &Cause { v2_victim: true });
    assert_eq!(outcome.status, RepairStatus::Patched, "{outcome:?}");
    // Statement 1 is needed for V2 only: ddmin keeps it because the cause holds V2.
    assert_eq!(outcome.statements, vec![0, 1]);
    // With a source whose whole body fixes V but not V2, the cause is rejected and says why.
    let mut r = request(cause_target(&[V2], &[Placement::Setup]));
    r.target.sources = vec![source(C, 1, &[Placement::Setup])];
    let (outcome, _) = drive(&mut r, &Cause { v2_victim: true });
    assert_eq!(outcome.status, RepairStatus::Rejected, "{outcome:?}");
    assert!(
        outcome.tried[0].why.contains("p.VictimTest#other: failed"),
        "{:?}",
        outcome.tried
    );
}

#[test]
fn a_cause_in_two_classes_with_no_teardown_to_extend_has_no_single_place_and_says_so() {
    let mut r = request(cause_target(&[W], &[Placement::Setup, Placement::Test]));
    let (outcome, history) = drive(&mut r, &Cause { v2_victim: false });
    assert_eq!(outcome.status, RepairStatus::Rejected, "{outcome:?}");
    assert_eq!(
        history.len(),
        1,
        "only the unpatched check ran: {history:?}"
    );
    assert!(
        outcome.reason.as_deref().unwrap().contains("in 2 classes"),
        "{outcome:?}"
    );
}
