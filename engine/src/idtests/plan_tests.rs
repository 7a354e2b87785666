//! The ID planner against a simulated module: each test makes a number of counted calls and
//! decides whether it fails from which of its own calls are shuffled, the seed, the kind of run
//! and the tests before it.

use std::collections::BTreeSet;

use super::*;
use crate::idtests::call::{Alloc, Frame};
use crate::idtests::dexfix::RepairStrategy;
use crate::model::experiment::TestResult;
use crate::model::outcome::RunOutcome;

const SETTER: &str = "com.a.ASetterTest#s";
const PIN: &str = "com.a.FooTest#pin";
const TWO: &str = "com.a.FooTest#two";
const FAIL: &str = "com.a.FailTest#f";
const BRITTLE: &str = "com.a.BrittleTest#b";
const FULL: &str = "com.a.FullTest#f";
const ONCE: &str = "com.a.OnceTest#o";
const ZERO: &str = "com.a.ZeroTest#z";
const PLAIN: &str = "com.a.PlainTest#p";
const ONE: &str = "com.a.OneTest#one";
const DISAGREE: &str = "com.a.SerializeTest#sameTwice";
const SHARE_A: &str = "com.a.BeanATest#a";
const SHARE_B: &str = "com.a.BeanBTest#b";
const SHARE_PAIR: &str = "com.a.BeanPairTest#pair";
const FAR: &str = "com.a.FarTest#far";
const SHIFT: &str = "com.a.ShiftTest#shift";
const SHIFT_SEED: &str = "com.a.ShiftTest#seed";
const SEEDS: [u64; 4] = [1, 2, 3, 4];

/// What a test sees of its run.
struct Ctx<'a> {
    kind: IdKind,
    seed: Option<u64>,
    before: &'a [String],
    /// Its own calls (1-based, local to the test) that were shuffled.
    shuffled: BTreeSet<u64>,
    /// The number its first own call had in the run.
    first: u64,
}

impl Ctx<'_> {
    fn odd(&self) -> bool {
        self.seed.is_some_and(|s| s % 2 == 1)
    }
    fn has(&self, local: u64) -> bool {
        self.shuffled.contains(&local)
    }
    /// Whether its call `local` was shuffled into an order that fails it: the permutation depends
    /// on the seed and the call's number, so only some (seed, number) pairs fail it.
    fn fails_at(&self, local: u64) -> bool {
        self.has(local) && (self.seed.unwrap() + self.first + local - 1).is_multiple_of(4)
    }
}

/// Calls it makes, and whether it fails.
fn behaviour(test: &str) -> (u64, fn(&Ctx) -> bool) {
    match test {
        SETTER => (2, |_| false),
        // Fails when its 5th call is shuffled under an odd seed.
        PIN => (9, |c| c.odd() && c.has(5)),
        // Needs its 6th and 8th calls shuffled.
        TWO => (10, |c| c.odd() && c.has(6) && c.has(8)),
        FAIL => (1, |_| true),
        // Needs the setter before it; and fails under odd seeds.
        BRITTLE => (1, |c| !c.before.iter().any(|t| t == SETTER) || c.odd()),
        // Fails under odd seeds only after the setter.
        FULL => (3, |c| {
            c.odd() && c.has(1) && c.before.iter().any(|t| t == SETTER)
        }),
        // Fails once, in phase 1 under seed 3.
        ONCE => (2, |c| c.kind == IdKind::Shuffled && c.seed == Some(3)),
        // Makes no counted call, and fails under seed 3 anyway.
        ZERO => (0, |c| c.seed == Some(3)),
        // One call, whose shuffling fails it.
        ONE => (1, |c| c.odd() && c.has(1)),
        // Compares two serializations: fails when its two calls return different orders (one
        // shuffled and not the other, or both under an odd seed), never when every call of one
        // size is permuted alike.
        DISAGREE => (2, |c| {
            c.kind != IdKind::Consistent && (c.has(1) != c.has(2) || (c.has(1) && c.odd()))
        }),
        // Three tests failing through one site (Bean.getSet, a shared HashSet): A's 7th call,
        // B's 3rd; the pair's 2nd and 9th calls must both be shuffled (they must disagree).
        SHARE_A => (12, |c| c.odd() && c.has(7)),
        SHARE_B => (12, |c| c.odd() && c.has(3)),
        SHARE_PAIR => (12, |c| c.odd() && c.has(2) && c.has(9)),
        // Fails when its 5th call is shuffled under an odd seed; alone in a fresh JVM two calls of
        // a JDK cache come before its own (a shared JVM filled that cache before).
        SHIFT => (9, |c| c.odd() && c.has(5)),
        // Like SHIFT, but whether its 5th call's permutation fails it depends on that call's number.
        SHIFT_SEED => (9, |c| c.fails_at(5)),
        // Needs its 8th and 11th calls shuffled: both in the right half, in two of its quarters.
        FAR => (12, |c| c.odd() && c.has(8) && c.has(11)),
        _ => (1, |_| false),
    }
}

/// Whether call `local` of `test` is at the shared site `com.a.Bean.getSet(Bean.java:30)`.
fn at_shared_site(test: &str, local: u64) -> bool {
    matches!(
        (test, local),
        (SHARE_A, 7) | (SHARE_B, 3) | (SHARE_PAIR, 2) | (SHARE_PAIR, 9)
    )
}

fn tests() -> Vec<String> {
    [SETTER, PIN, TWO, FAIL, BRITTLE, FULL, ONCE, ZERO, PLAIN]
        .map(String::from)
        .to_vec()
}

fn frame(class: &str, method: &str, line: u32) -> Frame {
    Frame {
        class: class.into(),
        method: method.into(),
        file: Some(format!("{}.java", class.rsplit('.').next().unwrap())),
        line: Some(line),
    }
}

/// The call `local` of `test`, numbered `index` in the run.
fn call(test: &str, local: u64, index: u64) -> IdCall {
    if at_shared_site(test, local) {
        IdCall {
            index,
            nth: None,
            api: "HashMap$KeySet.iterator".into(),
            at: Some(frame("com.a.Bean", "getSet", 30)),
            via: None,
            alloc: Some(Alloc {
                kind: "HashSet".into(),
                at: frame("com.a.Bean", "<init>", 8),
            }),
            assertion: false,
        }
    } else if test == PIN && local == 5 {
        IdCall {
            index,
            nth: None,
            api: "HashMap$KeySet.iterator".into(),
            at: Some(frame("com.a.Foo", "names", 12)),
            via: None,
            alloc: Some(Alloc {
                kind: "HashSet".into(),
                at: frame("com.a.Foo", "<init>", 4),
            }),
            assertion: true,
        }
    } else {
        IdCall {
            index,
            nth: None,
            api: "HashSet.iterator".into(),
            at: Some(frame("com.a.Other", "each", 100 + local as u32)),
            via: None,
            alloc: None,
            assertion: true,
        }
    }
}

/// The calls a fresh JVM makes before `test`'s own when it runs alone (a JDK cache it fills).
fn cache_calls(e: &IdExperiment, test: &str) -> u64 {
    if (test == SHIFT || test == SHIFT_SEED) && !e.shared && e.order.len() == 1 {
        2
    } else {
        0
    }
}

/// A call of the JDK cache [`cache_calls`] fills.
fn cache_call(index: u64) -> IdCall {
    IdCall {
        index,
        nth: None,
        api: "Class.getMethods".into(),
        at: Some(frame("com.a.Props", "of", 68)),
        via: None,
        alloc: None,
        assertion: false,
    }
}

/// Runs `e` in the simulated module.
fn execute(e: &IdExperiment, fingerprint: &str) -> IdRecord {
    let mut index = 0;
    let mut results = Vec::new();
    let mut calls = Vec::new();
    let mut at_site: std::collections::HashMap<String, u64> = Default::default();
    // numbers the call, counts it at its site; whether it is shuffled (`only` or `only_call`)
    let mut count = |mut k: IdCall, index: u64| -> Option<IdCall> {
        let site = k.only_call_site().unwrap();
        let n = at_site.entry(site.clone()).or_default();
        *n += 1;
        k.nth = Some(*n);
        k.index = index;
        let in_only = match &e.only_call {
            Some(o) => o.nth == *n && o.site == site,
            None => e.only.is_empty() || e.only.iter().any(|[a, b]| (*a..=*b).contains(&index)),
        };
        in_only.then_some(k)
    };
    for (pos, test) in e.order.iter().enumerate() {
        let (n, fails) = behaviour(test);
        for _ in 0..cache_calls(e, test) {
            index += 1;
            calls.extend(count(cache_call(index), index));
        }
        let mut shuffled = BTreeSet::new();
        let first = index + 1;
        for local in 1..=n {
            index += 1;
            if let Some(k) = count(call(test, local, index), index) {
                calls.push(k);
                if e.seed.is_some() {
                    shuffled.insert(local);
                }
            }
        }
        let ctx = Ctx {
            kind: e.kind,
            seed: e.seed,
            before: &e.order[..pos],
            shuffled,
            first,
        };
        let outcome = if fails(&ctx) {
            RunOutcome::Fail
        } else {
            RunOutcome::Pass
        };
        let mut result = TestResult::new(test.clone(), outcome);
        result.calls = Some(n);
        results.push(result);
    }
    IdRecord {
        experiment: e.clone(),
        fingerprint: fingerprint.into(),
        results,
        count: index,
        calls,
        honoured: true,
        error: None,
    }
}

fn request(history: Vec<IdRecord>) -> IdRequest {
    IdRequest {
        tests: tests(),
        seeds: SEEDS.to_vec(),
        clean_runs: 1,
        verify_seeds: None,
        budget: None,
        fingerprint: "f1".into(),
        next_id: history.len() + 1,
        history,
        shared: false,
    }
}

struct Run {
    outcome: IdOutcome,
    asked: Vec<IdExperiment>,
    /// Where the run stood with each experiment asked.
    progress: Vec<IdProgress>,
    history: Vec<IdRecord>,
}

/// Drives the planner to its outcome from `base` (its history as the start), `tweak` changing
/// each record before it is recorded.
fn drive_with(base: IdRequest, tweak: &dyn Fn(&mut IdRecord)) -> Run {
    let mut history = base.history.clone();
    let mut asked = Vec::new();
    let mut progresses = Vec::new();
    for _ in 0..500 {
        let r = IdRequest {
            next_id: history.len() + 1,
            history: history.clone(),
            ..base.clone()
        };
        match next(&r).unwrap() {
            IdStep::Run {
                experiment,
                progress,
            } => {
                let mut rec = execute(&experiment, &base.fingerprint);
                tweak(&mut rec);
                asked.push(experiment);
                progresses.push(progress);
                history.push(rec);
            }
            IdStep::Done { outcome } => {
                return Run {
                    outcome,
                    asked,
                    progress: progresses,
                    history,
                }
            }
        }
    }
    panic!("the planner did not finish");
}

fn drive(base: IdRequest) -> Run {
    drive_with(base, &|_| {})
}

fn verdict<'a>(o: &'a IdOutcome, test: &str) -> &'a IdVerdict {
    o.tests
        .iter()
        .find(|v| v.test == test)
        .unwrap_or_else(|| panic!("no verdict for {test}: {o:#?}"))
}

#[test]
fn phase_one_runs_clean_then_one_shuffled_run_per_seed() {
    let mut base = request(Vec::new());
    base.clean_runs = 2;
    let run = drive(base);
    let first: Vec<(IdKind, Option<u64>)> =
        run.asked[..6].iter().map(|e| (e.kind, e.seed)).collect();
    assert_eq!(
        first,
        [
            (IdKind::Clean, None),
            (IdKind::Clean, None),
            (IdKind::Shuffled, Some(1)),
            (IdKind::Shuffled, Some(2)),
            (IdKind::Shuffled, Some(3)),
            (IdKind::Shuffled, Some(4)),
        ]
    );
    for (i, e) in run.asked[..6].iter().enumerate() {
        assert_eq!(e.id, i + 1);
        assert_eq!(e.order, tests());
        assert_eq!(e.test, None);
        assert!(e.only.is_empty());
    }
    assert_eq!(run.outcome.clean_runs, 2);
    assert_eq!(run.outcome.experiments, run.asked.len());
}

#[test]
fn candidates_are_the_tests_failing_only_under_a_seed_in_the_original_order() {
    let o = drive(request(Vec::new())).outcome;
    let names: Vec<&str> = o.tests.iter().map(|v| v.test.as_str()).collect();
    assert_eq!(names, [PIN, TWO, BRITTLE, FULL, ONCE, ZERO]);
    assert_eq!(o.seeds, SEEDS);
    assert!(
        o.notes
            .contains(&"1 test fails without shuffling; not ID".to_string()),
        "{:?}",
        o.notes
    );
    let pin = verdict(&o, PIN);
    assert_eq!(pin.failing_seeds, [1, 3]);
    assert_eq!(pin.seeds_tried, 4);
    assert_eq!(pin.rate, "failed under 2 of 4 seeds");
    assert_eq!(verdict(&o, ONCE).failing_seeds, [3]);
}

#[test]
fn a_test_is_pinned_to_the_one_shuffled_call_with_its_repairs() {
    let run = drive(request(Vec::new()));
    let v = verdict(&run.outcome, PIN);
    assert_eq!(v.status, IdStatus::Id, "{}", v.reason);
    let pin = v.pin.as_ref().unwrap();
    assert_eq!(pin.seed, 1);
    assert_eq!(pin.invocation, Some(5));
    assert_eq!(pin.range, None);
    let call = pin.call.as_ref().unwrap();
    assert_eq!(call.index, 5);
    assert_eq!(call.api, "HashMap$KeySet.iterator");
    assert_eq!(
        v.reason,
        "fails alone under seed 1 when only invocation 5 is shuffled: HashMap$KeySet.iterator at com.a.Foo.names(Foo.java:12)"
    );
    assert_eq!(
        v.reproduce,
        Some(Reproduce {
            test: PIN.into(),
            seed: 1,
            only: vec![[5, 5]]
        })
    );
    let strategies: Vec<RepairStrategy> = v.repairs.iter().map(|r| r.strategy).collect();
    assert_eq!(
        strategies,
        [
            RepairStrategy::ChangeContainsExactly,
            RepairStrategy::HashToLinkedHash,
            RepairStrategy::JsonAssertion
        ]
    );
    assert_eq!(v.repairs[0].line, Some(12));
    assert_eq!(v.repairs[1].class, "com.a.Foo");
    assert_eq!(v.repairs[1].line, Some(4));
    assert_eq!(v.repairs[1].target.as_deref(), Some("HashSet"));
    assert_eq!(v.no_repair, None);
    // the failing seeds, then 8 more, none of them a seed of the request
    assert_eq!(v.verify_seeds.len(), 10);
    assert_eq!(v.verify_seeds[..2], [1, 3]);
    assert!(v.verify_seeds[2..].iter().all(|s| !SEEDS.contains(s)));
    assert_eq!(v.verify_seeds[2..].iter().collect::<BTreeSet<_>>().len(), 8);
    // alone clean, alone under 1, then halves: [1,5] fails, [1,3] passes (so [4,5] is taken to
    // fail without running it), [4,4] passes, [5,5] fails
    let mine: Vec<&IdExperiment> = run
        .asked
        .iter()
        .filter(|e| e.test.as_deref() == Some(PIN))
        .collect();
    let steps: Vec<(IdKind, Option<u64>, Vec<Range>)> = mine
        .iter()
        .map(|e| (e.kind, e.seed, e.only.clone()))
        .collect();
    assert_eq!(
        steps,
        [
            (IdKind::AloneClean, None, vec![]),
            (IdKind::Alone, Some(1), vec![]),
            (IdKind::Bisect, Some(1), vec![[1, 5]]),
            (IdKind::Bisect, Some(1), vec![[1, 3]]),
            (IdKind::Bisect, Some(1), vec![[4, 4]]),
            (IdKind::Bisect, Some(1), vec![[5, 5]]),
            // then every call as invocation 5: it still fails, so another order fails it
            (IdKind::Consistent, Some(1), vec![]),
        ]
    );
    assert_eq!(mine[6].consistent_call, Some(5));
    assert_eq!(v.needs, Some(IdNeeds::AnotherOrder));
    assert!(mine.iter().all(|e| e.order == [PIN]));
    assert_eq!(v.experiments, mine.iter().map(|e| e.id).collect::<Vec<_>>());
}

#[test]
fn a_test_needing_two_shuffled_calls_is_pinned_to_a_range() {
    let run = drive(request(Vec::new()));
    let v = verdict(&run.outcome, TWO);
    assert_eq!(v.status, IdStatus::Id);
    let pin = v.pin.as_ref().unwrap();
    assert_eq!((pin.invocation, pin.range), (None, Some([6, 8])));
    assert_eq!(pin.call, None);
    assert_eq!(
        pin.calls.iter().map(|c| c.index).collect::<Vec<_>>(),
        [6, 7, 8]
    );
    assert!(v.reason.contains("both halves"), "{}", v.reason);
    assert_eq!(v.reproduce.as_ref().unwrap().only, vec![[6, 8]]);
    // [1,5] passes, so [6,10] is taken to fail unrun; [6,8] fails, [6,7] passes, so [8,8] is
    // taken to fail and run as the last call: it passes, and the search goes back to [6,8],
    // whose halves have both run and passed
    let bisect: Vec<Vec<Range>> = run
        .asked
        .iter()
        .filter(|e| e.test.as_deref() == Some(TWO) && e.kind == IdKind::Bisect)
        .map(|e| e.only.clone())
        .collect();
    assert_eq!(
        bisect,
        [vec![[1, 5]], vec![[6, 8]], vec![[6, 7]], vec![[8, 8]]]
    );
    assert_eq!(v.experiments.len(), 6, "alone clean, alone, 4 halves");
    assert!(v.repairs.is_empty());
    assert!(v
        .no_repair
        .as_deref()
        .unwrap()
        .contains("not pinned to one call"));
}

#[test]
fn a_right_half_taken_to_fail_that_does_not_is_run_from_the_last_range_that_failed() {
    let base = IdRequest {
        tests: vec![FAR.to_string()],
        ..request(Vec::new())
    };
    let run = drive(base);
    let v = verdict(&run.outcome, FAR);
    assert_eq!(v.status, IdStatus::Id);
    let pin = v.pin.as_ref().unwrap();
    assert_eq!((pin.invocation, pin.range), (None, Some([7, 12])));
    assert!(v.reason.contains("both halves"), "{}", v.reason);
    assert_eq!(v.reproduce.as_ref().unwrap().only, vec![[7, 12]]);
    let bisect: Vec<Vec<Range>> = run
        .asked
        .iter()
        .filter(|e| e.kind == IdKind::Bisect)
        .map(|e| e.only.clone())
        .collect();
    // [1,6] passes: [7,12] taken to fail; [7,9] passes: [10,12]; [10,11] passes: [12,12], run
    // as the last call, passes. Back to [1,12]: [7,12] runs and fails, [10,12] runs and passes,
    // and [7,9] had passed: neither half of [7,12] fails alone
    assert_eq!(
        bisect,
        [
            vec![[1, 6]],
            vec![[7, 9]],
            vec![[10, 11]],
            vec![[12, 12]],
            vec![[7, 12]],
            vec![[10, 12]]
        ]
    );
    // and the failing run it names shuffled exactly that range
    let last = run
        .history
        .iter()
        .find(|r| r.experiment.only == [[7, 12]])
        .unwrap();
    assert_eq!(
        pin.calls.iter().map(|c| c.index).collect::<Vec<_>>(),
        last.calls.iter().map(|c| c.index).collect::<Vec<_>>()
    );
}

#[test]
fn a_test_failing_alone_without_shuffling_is_confirmed_in_the_full_order() {
    let run = drive(request(Vec::new()));
    let v = verdict(&run.outcome, BRITTLE);
    assert_eq!(v.status, IdStatus::Id);
    assert_eq!(v.pin, None);
    assert_eq!(v.reproduce, None);
    assert!(
        v.reason.contains("fails alone even without shuffling"),
        "{}",
        v.reason
    );
    assert!(v.repairs.is_empty() && v.no_repair.is_some());
    let mine: Vec<&IdExperiment> = run
        .asked
        .iter()
        .filter(|e| e.test.as_deref() == Some(BRITTLE))
        .collect();
    assert_eq!(mine.len(), 2);
    assert_eq!(mine[1].kind, IdKind::Confirm);
    assert_eq!(mine[1].order, tests());
    assert_eq!(mine[1].seed, Some(1));
}

#[test]
fn a_test_failing_only_after_the_others_is_confirmed_and_a_one_off_is_unconfirmed() {
    let o = drive(request(Vec::new())).outcome;
    let v = verdict(&o, FULL);
    assert_eq!(v.status, IdStatus::Id);
    assert!(
        v.reason
            .contains("fails under seed 1 only after the tests before it"),
        "{}",
        v.reason
    );
    // alone clean; alone under its failing seeds 1 and 3, the other seeds 2 and 4 and
    // ALONE_EXTRA_SEEDS derived ones; the confirmation in the full order
    assert_eq!(v.experiments.len(), 1 + 4 + ALONE_EXTRA_SEEDS + 1);
    assert!(
        v.reason.contains("alone it passed under 8 seeds"),
        "{}",
        v.reason
    );
    let v = verdict(&o, ONCE);
    assert_eq!(v.status, IdStatus::Unconfirmed);
    assert!(
        v.reason.contains("failed once under seed 3, not again"),
        "{}",
        v.reason
    );
    assert_eq!(v.pin, None);
    let v = verdict(&o, ZERO);
    assert_eq!(v.status, IdStatus::Unconfirmed);
    assert!(v.reason.contains("not the shuffle's doing"), "{}", v.reason);
    assert_eq!(v.experiments.len(), 2);
}

#[test]
fn the_same_history_gives_the_same_step_and_a_partial_history_resumes() {
    let run = drive(request(Vec::new()));
    for k in 0..run.history.len() {
        let r = request(run.history[..k].to_vec());
        let a = serde_json::to_value(next(&r).unwrap()).unwrap();
        let b = serde_json::to_value(next(&r).unwrap()).unwrap();
        assert_eq!(a, b);
        match next(&r).unwrap() {
            IdStep::Run { experiment, .. } => assert_eq!(experiment, run.asked[k], "step {k}"),
            IdStep::Done { .. } => panic!("done after {k} records"),
        }
    }
    // Records are matched by what they ran, not where they are.
    let mut reversed = run.history.clone();
    reversed.reverse();
    match next(&request(reversed)).unwrap() {
        IdStep::Done { outcome } => assert_eq!(outcome, run.outcome),
        IdStep::Run { experiment, .. } => panic!("asked again for {experiment:?}"),
    }
    // Resuming a killed run: the rest of the run is the same.
    let resumed = drive(request(run.history[..17].to_vec()));
    assert_eq!(resumed.outcome, run.outcome);
    assert_eq!(resumed.asked, run.asked[17..]);
}

#[test]
fn the_budget_stops_the_bisection_at_the_current_range() {
    let mut base = request(Vec::new());
    base.budget = Some(3);
    let o = drive(base).outcome;
    let v = verdict(&o, PIN);
    assert_eq!(v.status, IdStatus::Id);
    let pin = v.pin.as_ref().unwrap();
    assert_eq!(pin.range, Some([1, 5]));
    assert!(v.reason.contains("budget of 3"), "{}", v.reason);
    assert!(v.reason.contains("odrust.id.budget"), "{}", v.reason);
    assert_eq!(v.experiments.len(), 3);
    assert_eq!(v.reproduce.as_ref().unwrap().only, vec![[1, 5]]);
    // TWO: [1,5] passed, then the budget: the whole range, as the alone run shuffled it
    let v = verdict(&o, TWO);
    assert_eq!(v.pin.as_ref().unwrap().range, Some([1, 10]));
    assert!(v.reproduce.as_ref().unwrap().only.is_empty());
    // FULL needs four: unconfirmed for lack of budget
    let v = verdict(&o, FULL);
    assert_eq!(v.status, IdStatus::Unconfirmed);
    assert!(v.reason.contains("budget"), "{}", v.reason);
}

#[test]
fn records_of_another_fingerprint_are_ignored() {
    let run = drive(request(Vec::new()));
    let mut old = run.history.clone();
    for r in &mut old {
        r.fingerprint = "old-code".into();
    }
    let mut r = request(old);
    r.next_id = 99;
    match next(&r).unwrap() {
        IdStep::Run { experiment, .. } => {
            assert_eq!(experiment.kind, IdKind::Clean);
            assert_eq!(experiment.id, 99);
        }
        IdStep::Done { .. } => panic!("used records of other code"),
    }
}

#[test]
fn a_run_that_did_not_run_as_asked_counts_as_not_failing_with_a_note() {
    let run = drive_with(request(Vec::new()), &|r| {
        if r.experiment.kind == IdKind::Alone
            && r.experiment.test.as_deref() == Some(PIN)
            && r.experiment.seed == Some(1)
        {
            r.honoured = false;
        }
    });
    let v = verdict(&run.outcome, PIN);
    assert_eq!(v.pin.as_ref().unwrap().seed, 3);
    assert_eq!(v.pin.as_ref().unwrap().invocation, Some(5));
    assert!(
        run.outcome.notes.iter().any(|n| n.contains(&format!(
            "(alone of {PIN} under seed 1) did not run as asked; counted as not failing"
        ))),
        "{:?}",
        run.outcome.notes
    );
}

#[test]
fn one_counted_call_is_pinned_by_the_alone_run() {
    let mut base = request(Vec::new());
    base.tests = vec![PLAIN.into(), ONE.into()];
    let run = drive(base);
    let o = run.outcome;
    let v = verdict(&o, ONE);
    // alone clean and alone (pins the one call); with no other call counted, that run already had
    // every call permuted as the one: no consistent run
    assert_eq!(v.experiments.len(), 2);
    assert!(run.asked.iter().all(|e| e.kind != IdKind::Consistent));
    assert_eq!(v.needs, Some(IdNeeds::AnotherOrder));
    assert!(v.reason.contains("counted no other call"), "{}", v.reason);
    let pin = v.pin.as_ref().unwrap();
    assert_eq!(pin.invocation, Some(1));
    assert_eq!(pin.call.as_ref().unwrap().api, "HashSet.iterator");
    assert_eq!(v.reproduce.as_ref().unwrap().only, vec![[1, 1]]);
    // a HashSet whose allocation the agent did not see: only the assertions can change
    assert_eq!(v.repairs.len(), 2);
    assert_eq!(v.repairs[0].strategy, RepairStrategy::ChangeContainsExactly);
    assert_eq!(v.repairs[1].strategy, RepairStrategy::JsonAssertion);
    assert!(
        v.reason.contains("HashToLinkedHash is not offered"),
        "{}",
        v.reason
    );
}

#[test]
fn no_candidate_when_nothing_fails_only_under_a_seed() {
    let mut base = request(Vec::new());
    base.tests = vec![PLAIN.into(), BRITTLE.into()];
    // BRITTLE without the setter fails clean; PLAIN never fails.
    let o = drive(base).outcome;
    assert!(o.tests.is_empty());
    assert_eq!(o.notes, ["1 test fails without shuffling; not ID"]);
    assert_eq!(o.experiments, 5);
}

#[test]
fn bad_requests_name_the_setting() {
    let mut r = request(Vec::new());
    r.seeds = vec![5, 7, 5];
    let e = next(&r).unwrap_err();
    assert_eq!(e.code(), "bad-config");
    assert!(e.is_user_error());
    let m = e.to_string();
    assert!(
        m.contains("odrust.id.seeds") && m.contains("seed 5 is listed twice"),
        "{m}"
    );
    r.seeds.clear();
    let m = next(&r).unwrap_err().to_string();
    assert!(m.contains("-Dodrust.id.seeds="), "{m}");
    let mut r = request(Vec::new());
    r.clean_runs = 0;
    let m = next(&r).unwrap_err().to_string();
    assert!(m.contains("odrust.id.cleanRuns"), "{m}");
    let mut r = request(Vec::new());
    r.tests.clear();
    let e = next(&r).unwrap_err();
    assert_eq!(e.code(), "bad-config");
    assert!(e.to_string().contains("no test to run"), "{e}");
}

#[test]
fn json_shapes() {
    let step = next(&request(Vec::new())).unwrap();
    assert_eq!(
        serde_json::to_value(step).unwrap(),
        serde_json::json!({"step": "run", "experiment": {"id": 1, "kind": "clean", "test": null,
            "order": tests(), "seed": null, "only": []},
            "progress": {"phase1_done": 0, "phase1_total": 5, "candidate": 0, "budget": 30}})
    );
    let record: IdRecord = serde_json::from_value(serde_json::json!({
        "id": 12, "kind": "bisect", "test": PIN, "order": [PIN], "seed": 18446744073709551615u64,
        "only": [[3, 7], [9, 9]], "fingerprint": "f1",
        "results": [{"test": PIN, "outcome": "fail", "message": "expected [a, b]"}],
        "count": 9,
        "calls": [{"index": 5, "api": "HashMap$KeySet.iterator",
                   "at": {"class": "com.a.Foo", "method": "names", "file": "Foo.java", "line": 12},
                   "alloc": {"type": "HashSet", "at": {"class": "com.a.Foo", "method": "<init>"}}},
                  {"index": 6, "api": "File.list", "at": null, "alloc": null}]
    }))
    .unwrap();
    assert_eq!(record.experiment.kind, IdKind::Bisect);
    assert_eq!(record.experiment.seed, Some(u64::MAX));
    assert_eq!(record.experiment.only, vec![[3, 7], [9, 9]]);
    assert!(record.honoured && record.error.is_none());
    assert_eq!(record.calls[0].alloc.as_ref().unwrap().kind, "HashSet");
    assert_eq!(record.calls[0].alloc.as_ref().unwrap().at.line, None);
    assert_eq!(ranges_text(&record.experiment.only), "3-7,9");
    let back = serde_json::to_value(&record).unwrap();
    assert_eq!(back["kind"], "bisect");
    assert_eq!(back["calls"][0]["alloc"]["type"], "HashSet");
}

#[test]
fn a_call_counted_in_a_library_names_the_library_and_the_module_line_below_it() {
    let c: IdCall = serde_json::from_str(
        r#"{"index": 3, "api": "Class.getDeclaredFields",
            "at": {"class": "com.a.FooTest", "method": "json", "file": "FooTest.java", "line": 9},
            "via": {"class": "com.google.gson.Gson", "method": "toJson", "file": "Gson.java", "line": 700}}"#,
    )
    .unwrap();
    assert_eq!(
        c.site(),
        "Class.getDeclaredFields in com.google.gson.Gson.toJson(Gson.java:700) called from com.a.FooTest.json(FooTest.java:9)"
    );
    let back = serde_json::to_value(&c).unwrap();
    assert_eq!(back["via"]["class"], "com.google.gson.Gson");
    let plain: IdCall = serde_json::from_str(r#"{"index": 1, "api": "File.list"}"#).unwrap();
    assert!(
        serde_json::to_value(&plain).unwrap().get("via").is_none(),
        "no via: none written"
    );
}

#[test]
fn a_test_that_fails_only_when_two_calls_disagree_is_its_own_kind() {
    let mut base = request(Vec::new());
    base.tests.push(DISAGREE.into());
    let run = drive(base);
    let v = verdict(&run.outcome, DISAGREE);
    assert_eq!(v.status, IdStatus::Id);
    let pin = v.pin.as_ref().unwrap();
    let k = pin.invocation.expect("pinned to one call");
    // One more run of the test alone under the pin's seed, every call permuted as the pinned one.
    let consistent: Vec<&IdExperiment> = run
        .asked
        .iter()
        .filter(|e| e.kind == IdKind::Consistent && e.test.as_deref() == Some(DISAGREE))
        .collect();
    assert_eq!(consistent.len(), 1);
    let e = consistent[0];
    assert_eq!(
        (
            e.seed,
            e.order.clone(),
            e.only.is_empty(),
            e.consistent_call
        ),
        (Some(pin.seed), vec![DISAGREE.to_string()], true, Some(k))
    );
    assert!(v.experiments.contains(&e.id));
    assert_eq!(v.needs, Some(IdNeeds::CallsToDisagree));
    assert!(
        v.reason
            .contains("it fails only when two of its calls return different orders"),
        "{}",
        v.reason
    );
    let pinned = verdict(&run.outcome, PIN);
    assert_eq!(pinned.needs, Some(IdNeeds::AnotherOrder));
    assert!(
        !pinned.reason.contains("different orders"),
        "{}",
        pinned.reason
    );
    // Not pinned to one call (needs shuffled calls in both halves): not asked.
    assert_eq!(verdict(&run.outcome, TWO).needs, None);
    assert!(run
        .asked
        .iter()
        .all(|e| e.kind != IdKind::Consistent || e.test.as_deref() != Some(TWO)));
}

#[test]
fn an_unusable_consistent_run_leaves_needs_unknown() {
    let mut base = request(Vec::new());
    base.tests = vec![PIN.into()];
    let run = drive_with(base, &|r| {
        if r.experiment.kind == IdKind::Consistent {
            r.honoured = false;
        }
    });
    assert_eq!(verdict(&run.outcome, PIN).needs, None);
    assert!(
        run.outcome
            .notes
            .iter()
            .any(|n| n
                .contains("whether com.a.FooTest#pin needs two calls to disagree is not known")),
        "{:?}",
        run.outcome.notes
    );
}

#[test]
fn tests_failing_through_a_site_pinned_before_try_its_calls_first() {
    let base = IdRequest {
        tests: [SHARE_A, SHARE_B, SHARE_PAIR].map(String::from).to_vec(),
        ..request(Vec::new())
    };
    let run = drive(base);
    let steps = |test: &str| -> Vec<(IdKind, Option<u64>, Vec<Range>)> {
        run.asked
            .iter()
            .filter(|e| e.test.as_deref() == Some(test))
            .map(|e| (e.kind, e.seed, e.only.clone()))
            .collect()
    };
    // A: nothing known yet, the full bisection of its 12 calls
    let a = verdict(&run.outcome, SHARE_A);
    assert_eq!(a.pin.as_ref().unwrap().invocation, Some(7));
    assert!(steps(SHARE_A).len() >= 7, "{:?}", steps(SHARE_A));
    // B: its one call at A's site is shuffled alone first, and that run pins it
    let b = verdict(&run.outcome, SHARE_B);
    assert_eq!(b.pin.as_ref().unwrap().invocation, Some(3), "{}", b.reason);
    assert_eq!(
        steps(SHARE_B),
        [
            (IdKind::AloneClean, None, vec![]),
            (IdKind::Alone, Some(1), vec![]),
            (IdKind::Bisect, Some(1), vec![[3, 3]]),
            (IdKind::Consistent, Some(1), vec![]),
        ]
    );
    assert_eq!(b.repairs[0].strategy, RepairStrategy::HashToLinkedHash);
    assert_eq!(b.repairs[0].line, Some(8));
    // the pair: both its calls at the site fail it, neither alone: pinned to the site, repairable
    let p = verdict(&run.outcome, SHARE_PAIR);
    let pin = p.pin.as_ref().unwrap();
    assert_eq!((pin.invocation, pin.range), (None, None));
    assert_eq!(
        pin.calls.iter().map(|c| c.index).collect::<Vec<_>>(),
        [2, 9]
    );
    assert_eq!(pin.call.as_ref().map(|c| c.index), Some(2));
    assert_eq!(p.reproduce.as_ref().unwrap().only, vec![[2, 2], [9, 9]]);
    assert!(
        p.reason
            .contains("it needs two calls there to return different orders"),
        "{}",
        p.reason
    );
    assert_eq!(p.repairs[0].strategy, RepairStrategy::HashToLinkedHash);
    assert_eq!(p.no_repair, None);
    assert_eq!(
        steps(SHARE_PAIR)[2..],
        [
            (IdKind::Bisect, Some(1), vec![[2, 2], [9, 9]]),
            (IdKind::Bisect, Some(1), vec![[2, 2]]),
            (IdKind::Bisect, Some(1), vec![[9, 9]]),
        ]
    );
}

#[test]
fn runs_alone_go_to_shared_jvms_and_each_pin_is_confirmed_in_a_fresh_one() {
    let base = IdRequest {
        shared: true,
        ..request(Vec::new())
    };
    let run = drive(base);
    let v = verdict(&run.outcome, PIN);
    assert_eq!(v.pin.as_ref().unwrap().invocation, Some(5));
    let mine: Vec<&IdExperiment> = run
        .asked
        .iter()
        .filter(|e| e.test.as_deref() == Some(PIN))
        .collect();
    let steps: Vec<(IdKind, bool, Vec<Range>)> = mine
        .iter()
        .map(|e| (e.kind, e.shared, e.only.clone()))
        .collect();
    assert_eq!(
        steps,
        [
            (IdKind::AloneClean, true, vec![]),
            (IdKind::Alone, true, vec![]),
            (IdKind::Bisect, true, vec![[1, 5]]),
            (IdKind::Bisect, true, vec![[1, 3]]),
            (IdKind::Bisect, true, vec![[4, 4]]),
            (IdKind::Bisect, true, vec![[5, 5]]),
            // the pin's call in a fresh JVM (by its site), then the consistent run (fresh: a claim)
            (IdKind::ConfirmPin, false, vec![]),
            (IdKind::Consistent, false, vec![]),
        ]
    );
    assert_eq!(v.experiments, mine.iter().map(|e| e.id).collect::<Vec<_>>());
    assert_eq!(
        mine[6].only_call,
        Some(OnlyCall {
            nth: 1,
            site: "HashMap$KeySet.iterator at com.a.Foo.names:12".into()
        })
    );
    // phase 1 and the full-order confirmations stay fresh
    assert!(run
        .asked
        .iter()
        .filter(|e| matches!(e.kind, IdKind::Clean | IdKind::Shuffled | IdKind::Confirm))
        .all(|e| !e.shared));
    let two: Vec<&IdExperiment> = run
        .asked
        .iter()
        .filter(|e| e.test.as_deref() == Some(TWO))
        .collect();
    // the range of TWO is confirmed fresh too: its whole fails there, and each half passes
    let confirmations: Vec<Vec<Range>> = two
        .iter()
        .filter(|e| e.kind == IdKind::ConfirmPin)
        .map(|e| e.only.clone())
        .collect();
    assert_eq!(confirmations, [vec![[6, 8]], vec![[6, 7]], vec![[8, 8]]]);
    assert!(two
        .iter()
        .all(|e| e.kind != IdKind::ConfirmPin || !e.shared));
}

#[test]
fn one_counted_call_pinned_in_a_shared_jvm_is_classified_by_its_fresh_confirmation() {
    let mut base = IdRequest {
        shared: true,
        ..request(Vec::new())
    };
    base.tests = vec![PLAIN.into(), ONE.into()];
    let run = drive(base);
    let steps: Vec<(IdKind, bool)> = run
        .asked
        .iter()
        .filter(|e| e.test.as_deref() == Some(ONE))
        .map(|e| (e.kind, e.shared))
        .collect();
    // the run that pinned the one call was shared: the fresh run that confirmed it (one call
    // counted) stands for the consistent run
    assert_eq!(
        steps,
        [
            (IdKind::AloneClean, true),
            (IdKind::Alone, true),
            (IdKind::ConfirmPin, false),
        ]
    );
    let v = verdict(&run.outcome, ONE);
    assert_eq!(v.needs, Some(IdNeeds::AnotherOrder));
    let confirm = run
        .asked
        .iter()
        .find(|e| e.kind == IdKind::ConfirmPin && e.test.as_deref() == Some(ONE))
        .unwrap();
    assert!(
        v.reason.contains(&format!(
            "that run (experiment {}) counted no other call",
            confirm.id
        )),
        "{}",
        v.reason
    );
}

#[test]
fn a_fresh_confirmation_that_counted_more_calls_does_not_stand_for_the_consistent_run() {
    // a shared pin whose fresh confirmation counted more calls than the shared run: the
    // consistent run goes ahead
    let mut base = IdRequest {
        shared: true,
        ..request(Vec::new())
    };
    base.tests = vec![PLAIN.into(), ONE.into()];
    let run = drive_with(base, &|r| {
        if r.experiment.kind == IdKind::ConfirmPin {
            r.count = 3;
        }
    });
    let steps: Vec<IdKind> = run
        .asked
        .iter()
        .filter(|e| e.test.as_deref() == Some(ONE))
        .map(|e| e.kind)
        .collect();
    assert_eq!(steps.last(), Some(&IdKind::Consistent));
    assert!(run
        .asked
        .iter()
        .filter(|e| e.kind == IdKind::Consistent)
        .all(|e| !e.shared));
}

#[test]
fn a_pin_a_fresh_jvm_does_not_repeat_is_searched_again_in_fresh_jvms() {
    let base = IdRequest {
        shared: true,
        tests: [PIN].map(String::from).to_vec(),
        ..request(Vec::new())
    };
    // the fresh JVM does not repeat the shared JVMs' pin (numbering differed there, say)
    let run = drive_with(base, &|r| {
        if r.experiment.kind == IdKind::ConfirmPin {
            for t in &mut r.results {
                t.outcome = RunOutcome::Pass;
            }
        }
    });
    let v = verdict(&run.outcome, PIN);
    assert_eq!(v.status, IdStatus::Id, "{}", v.reason);
    assert_eq!(v.pin.as_ref().unwrap().invocation, Some(5));
    assert!(
        v.reason.contains("did not fail in a fresh JVM")
            && v.reason.contains("searched again in fresh JVMs"),
        "{}",
        v.reason
    );
    let after: Vec<&IdExperiment> = run
        .asked
        .iter()
        .skip_while(|e| e.kind != IdKind::ConfirmPin)
        .skip(1)
        .collect();
    assert!(
        !after.is_empty() && after.iter().all(|e| !e.shared),
        "{after:?}"
    );
    assert_eq!(after[0].kind, IdKind::AloneClean);
    assert_eq!(
        run.asked
            .iter()
            .filter(|e| e.kind == IdKind::ConfirmPin)
            .count(),
        1,
        "a fresh search's pin needs no confirmation"
    );
    // and the fresh pin is classified (the consistent run), as any pin
    assert_eq!(after.last().unwrap().kind, IdKind::Consistent);
    assert_eq!(v.needs, Some(IdNeeds::AnotherOrder));
}

#[test]
fn a_fresh_confirmation_that_fails_through_another_call_refutes_the_pin() {
    let base = IdRequest {
        shared: true,
        tests: [PIN].map(String::from).to_vec(),
        ..request(Vec::new())
    };
    // the fresh JVM fails too, but the call it shuffled is another (it says another site)
    let run = drive_with(base, &|r| {
        if r.experiment.kind == IdKind::ConfirmPin {
            for k in &mut r.calls {
                k.at = Some(frame("com.a.Elsewhere", "other", 7));
            }
        }
    });
    let v = verdict(&run.outcome, PIN);
    assert!(
        v.reason
            .contains("it failed without call 1 of that site shuffled")
            && v.reason.contains("searched again in fresh JVMs"),
        "{}",
        v.reason
    );
    assert_eq!(
        v.pin
            .as_ref()
            .unwrap()
            .call
            .as_ref()
            .unwrap()
            .at
            .as_ref()
            .unwrap()
            .class,
        "com.a.Foo"
    );
}

#[test]
fn a_pin_a_fresh_jvm_numbers_otherwise_is_confirmed_by_its_site_and_pinned_to_the_fresh_number() {
    let base = IdRequest {
        shared: true,
        tests: [SHIFT].map(String::from).to_vec(),
        ..request(Vec::new())
    };
    let run = drive(base);
    let v = verdict(&run.outcome, SHIFT);
    assert_eq!(v.status, IdStatus::Id, "{}", v.reason);
    // invocation 5 in the shared JVM; a fresh JVM counts the cache's two calls first
    let pin = v.pin.as_ref().unwrap();
    assert_eq!(pin.invocation, Some(7), "{}", v.reason);
    assert_eq!(pin.call.as_ref().unwrap().index, 7);
    assert_eq!(v.reproduce.as_ref().unwrap().only, vec![[7, 7]]);
    assert!(
        v.reason.contains("only invocation 7 is shuffled")
            && v.reason.contains("found in a shared JVM as invocation 5"),
        "{}",
        v.reason
    );
    let confirm: Vec<&IdExperiment> = run
        .asked
        .iter()
        .filter(|e| e.kind == IdKind::ConfirmPin)
        .collect();
    assert_eq!(confirm.len(), 1);
    assert_eq!(
        confirm[0].only_call.as_ref().map(|o| o.nth),
        Some(1),
        "{:?}",
        confirm[0]
    );
    // no search again in fresh JVMs: after the confirmation, only the consistent run (of call 7)
    let after: Vec<(IdKind, Option<u64>)> = run
        .asked
        .iter()
        .skip_while(|e| e.kind != IdKind::ConfirmPin)
        .skip(1)
        .map(|e| (e.kind, e.consistent_call))
        .collect();
    assert_eq!(after, [(IdKind::Consistent, Some(7))]);
    // the reproduction, as reported, fails in a fresh JVM
    let again = execute(
        &IdExperiment {
            id: 99,
            kind: IdKind::ConfirmPin,
            test: Some(SHIFT.into()),
            order: vec![SHIFT.into()],
            seed: Some(pin.seed),
            only: vec![[7, 7]],
            consistent_call: None,
            only_call: None,
            shared: false,
        },
        "f1",
    );
    assert_eq!(again.results[0].outcome, RunOutcome::Fail);
}

#[test]
fn a_call_numbered_otherwise_in_a_fresh_jvm_is_tried_under_the_other_seeds_there() {
    let base = IdRequest {
        shared: true,
        tests: [SHIFT_SEED].map(String::from).to_vec(),
        ..request(Vec::new())
    };
    let run = drive(base);
    let v = verdict(&run.outcome, SHIFT_SEED);
    assert_eq!(v.failing_seeds, [1]);
    // shared: invocation 5 under seed 3; fresh: that call is 7, which seed 3 does not fail and
    // seed 1 does
    let pin = v.pin.as_ref().unwrap();
    assert_eq!((pin.seed, pin.invocation), (1, Some(7)), "{}", v.reason);
    assert_eq!(v.reproduce.as_ref().unwrap().only, vec![[7, 7]]);
    assert!(
        v.reason.contains("found in a shared JVM under seed 3 as call 1 of that site, which is invocation 7 in a fresh JVM"),
        "{}",
        v.reason
    );
    let confirms: Vec<(Option<u64>, Vec<Range>, bool)> = run
        .asked
        .iter()
        .filter(|e| e.kind == IdKind::ConfirmPin)
        .map(|e| (e.seed, e.only.clone(), e.only_call.is_some()))
        .collect();
    assert_eq!(
        confirms,
        [(Some(3), vec![], true), (Some(1), vec![[7, 7]], false)]
    );
    // not searched again: the consistent run follows
    assert_eq!(run.asked.last().unwrap().kind, IdKind::Consistent);
    assert!(run
        .asked
        .iter()
        .filter(|e| !e.shared)
        .all(|e| !matches!(e.kind, IdKind::AloneClean | IdKind::Alone | IdKind::Bisect)));
}

#[test]
fn a_range_whose_half_fails_in_a_fresh_jvm_is_searched_again_fresh() {
    // in the shared JVM, PIN's 5th call shuffled alone does not fail it (the JVM holds other
    // state); anywhere else, and fresh, it does: the shared search ends at a range neither of
    // whose halves failed there, which a fresh JVM does not bear out
    let base = IdRequest {
        shared: true,
        ..request(Vec::new())
    };
    let run = drive_with(base, &|r| {
        let e = &r.experiment;
        if e.shared && e.test.as_deref() == Some(PIN) && e.only == vec![[5, 5]] {
            for t in &mut r.results {
                t.outcome = RunOutcome::Pass;
            }
        }
    });
    let mine: Vec<&IdExperiment> = run
        .asked
        .iter()
        .filter(|e| e.test.as_deref() == Some(PIN))
        .collect();
    // the range's whole and its halves ran fresh; the half with call 5 failed there
    let fresh_halves: Vec<Vec<Range>> = mine
        .iter()
        .filter(|e| e.kind == IdKind::ConfirmPin)
        .map(|e| e.only.clone())
        .collect();
    assert!(fresh_halves.contains(&vec![[5, 5]]), "{fresh_halves:?}");
    let v = verdict(&run.outcome, PIN);
    assert_eq!(v.pin.as_ref().unwrap().invocation, Some(5), "{}", v.reason);
    assert!(
        v.reason.contains("alone fail it") && v.reason.contains("searched again in fresh JVMs"),
        "{}",
        v.reason
    );
    assert_eq!(v.experiments, mine.iter().map(|e| e.id).collect::<Vec<_>>());
    // TWO's range (6 and 8 together) is borne out: its halves pass fresh too
    let two = verdict(&run.outcome, TWO);
    assert!(two.pin.as_ref().unwrap().range.is_some(), "{}", two.reason);
    assert!(!two.reason.contains("searched again"), "{}", two.reason);
    let two_fresh: Vec<&IdExperiment> = run
        .asked
        .iter()
        .filter(|e| e.test.as_deref() == Some(TWO) && e.kind == IdKind::ConfirmPin)
        .collect();
    assert_eq!(
        two_fresh.len(),
        3,
        "the whole and its two halves: {two_fresh:?}"
    );
}

#[test]
fn a_search_in_shared_jvms_without_a_pin_is_searched_again_fresh() {
    let base = IdRequest {
        shared: true,
        tests: [PIN].map(String::from).to_vec(),
        ..request(Vec::new())
    };
    // in the shared JVM the test fails alone even without shuffling (state a shared JVM keeps)
    let run = drive_with(base, &|r| {
        if r.experiment.shared && r.experiment.kind == IdKind::AloneClean {
            for t in &mut r.results {
                t.outcome = RunOutcome::Fail;
            }
        }
    });
    let v = verdict(&run.outcome, PIN);
    assert_eq!(v.status, IdStatus::Id, "{}", v.reason);
    assert_eq!(v.pin.as_ref().unwrap().invocation, Some(5));
    assert!(v.reason.contains("found no pin"), "{}", v.reason);
    // no full-order confirmation was asked on the shared JVM's word
    assert!(run.asked.iter().all(|e| e.kind != IdKind::Confirm));
}

#[test]
fn after_two_shared_searches_fresh_jvms_do_not_bear_out_the_rest_run_fresh() {
    let base = IdRequest {
        shared: true,
        tests: [SHARE_A, SHARE_B, SHARE_PAIR, PIN]
            .map(String::from)
            .to_vec(),
        ..request(Vec::new())
    };
    // every test fails alone in a shared JVM (a driver registered JVM-wide, say)
    let run = drive_with(base, &|r| {
        if r.experiment.shared && r.experiment.kind == IdKind::AloneClean {
            for t in &mut r.results {
                t.outcome = RunOutcome::Fail;
            }
        }
    });
    let shared_tests: BTreeSet<&str> = run
        .asked
        .iter()
        .filter(|e| e.shared)
        .filter_map(|e| e.test.as_deref())
        .collect();
    assert_eq!(
        shared_tests,
        BTreeSet::from([SHARE_A, SHARE_B]),
        "only the first two tried shared"
    );
    assert!(
        run.outcome
            .notes
            .iter()
            .any(|n| n.contains("for 2 of the first 2 tests searched there")),
        "{:?}",
        run.outcome.notes
    );
    // every verdict is a fresh search's: all pinned as in fresh mode
    assert_eq!(
        verdict(&run.outcome, PIN).pin.as_ref().unwrap().invocation,
        Some(5)
    );
    assert_eq!(
        verdict(&run.outcome, SHARE_B)
            .pin
            .as_ref()
            .unwrap()
            .invocation,
        Some(3)
    );
}

#[test]
fn each_step_says_where_the_run_stands() {
    let base = request(Vec::new());
    let run = drive(base.clone());
    let seen: Vec<(IdKind, IdProgress)> = run
        .asked
        .iter()
        .map(|e| e.kind)
        .zip(run.progress.iter().copied())
        .collect();
    let outcome = run.outcome;
    let phase1 = base.clean_runs as usize + base.seeds.len();
    for (k, (kind, p)) in seen.iter().enumerate().take(phase1) {
        assert!(matches!(kind, IdKind::Clean | IdKind::Shuffled), "{kind:?}");
        assert_eq!(
            (p.phase1_done, p.phase1_total, p.candidates),
            (k, phase1, None)
        );
    }
    let searched: Vec<usize> = seen[phase1..].iter().map(|(_, p)| p.candidate).collect();
    let candidates = seen[phase1].1.candidates.unwrap();
    assert!(candidates >= outcome.tests.len().min(1), "{candidates}");
    assert!(searched.windows(2).all(|w| w[0] <= w[1]), "{searched:?}");
    assert_eq!(*searched.first().unwrap(), 1);
    assert_eq!(*searched.last().unwrap(), candidates);
    assert!(seen.iter().all(|(_, p)| p.budget > 0));
    // the searches' experiments left: none said in phase 1; at the first search, each
    // candidate's from its calls: PIN 9 and TWO 10 (4 + 4 each), BRITTLE 1 (2), FULL 3
    // (4 + 2), ONCE 2 (4 + 1), ZERO 0 (2)
    assert!(seen[..phase1]
        .iter()
        .all(|(_, p)| p.experiments_left.is_none()));
    assert_eq!(seen[phase1].1.experiments_left, Some(31));
    assert_eq!(seen[phase1].1.fresh_left, Some(31), "every run fresh");
    assert!(seen[phase1..]
        .iter()
        .all(|(_, p)| p.experiments_left.is_some_and(|n| n >= 1)));
}

#[test]
fn with_shared_jvms_the_searches_are_predicted_with_their_fresh_confirmations() {
    let base = IdRequest {
        shared: true,
        ..request(Vec::new())
    };
    let run = drive(base);
    let first = run
        .progress
        .iter()
        .find(|p| p.candidates.is_some())
        .expect("a search");
    // PIN 9 and TWO 10 calls (5 + 4 each, 2 fresh), BRITTLE 1 (3, 1 fresh), FULL 3 (5 + 2,
    // 2 fresh), ONCE 2 (5 + 1, 2 fresh), ZERO 0 (3, 1 fresh)
    assert_eq!(first.experiments_left, Some(37));
    assert_eq!(first.fresh_left, Some(10));
}
