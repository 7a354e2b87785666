//! The repair planner: from one flaky test's explanation (report.json) and the history of repair
//! experiments, the next experiment to run or the verdict (`docs/repair.md`).
//!
//! For one target (a victim with cleaners, or a brittle with state-setters):
//!
//! 1. **Unpatched.** The minimization oracle's order (`[p, v]` for a victim, `[b]` for a brittle)
//!    runs once without a patch: if the test does not fail there any more, nothing is repaired
//!    (the code changed since detect, or the test is not order-dependent in that order).
//! 2. **Candidates**, best first: for a victim, each cleaner of a single polluter, those that
//!    clean more of its polluters first, then those in the victim's own class (no inlining); for a
//!    brittle, each single state-setter, its own class's first. Each is tried at each placement
//!    Java can make (`setup` before `test`: a victim's setup is where maintainers expect it).
//! 3. **All statements** of the candidate are tried in the oracle's order; a candidate whose
//!    whole body does not make the test pass (or does not compile) is rejected.
//! 4. **ddmin** over the statements ([`ddmin_step`]): the 1-minimal subset that still passes;
//!    a subset that does not compile is "does not pass".
//! 5. **Verification** of the minimal subset, each check one JVM: the oracle order, the test
//!    alone, every recorded failing order (the report's, and `[p', v]` for its other polluters),
//!    its class in the original order, and the module's original order (every other test with the
//!    outcome it had in detect's baseline). The first check that fails rejects the candidate, with
//!    why; the next candidate is tried. The first candidate that passes every check is the patch.
//!
//! The planner replays its history (records of this target and of this `fingerprint` of the
//! sources only), so it is deterministic (it makes no random choice) and resumable; a record

use std::collections::{BTreeSet, HashMap};

use super::candidates::{candidates, no_source_reason, source_ref, Candidate};
use super::checks::{check_name, checks, message, passes_record, NOT_HONOURED};
pub use super::shapes::{
    CauseMember, Check, CheckResult, FixSource, Placement, RepairExperiment, RepairOutcome,
    RepairRecord, RepairRequest, RepairStatus, RepairStep, RepairTarget, RuledOut, SourceOrigin,
    SourceRef, Tried,
};
use crate::error::EngineError;
use crate::explain::ddmin::{ddmin_step, DdminStep};
use crate::model::experiment::{test_passed, Isolation};
use crate::model::testid::class_of;

/// Experiments (JVM runs and candidates that did not compile) one target may spend by default.
pub const DEFAULT_REPAIR_BUDGET: u32 = 100;

type Key = (Option<String>, Option<Placement>, Vec<usize>, Vec<String>);

/// What the history says about this target.
struct Known<'a> {
    by_key: HashMap<Key, &'a RepairRecord>,
    /// The first record of each key that ran in a fresh JVM (checks read only these).
    fresh_by_key: HashMap<Key, &'a RepairRecord>,
    /// Candidates (source, placement) whose minimization a fresh JVM contradicted: a statement
    /// set passed the oracle order in a shared JVM and not in a fresh one, or the other way.
    /// Their minimization runs again over fresh runs alone.
    refuted: BTreeSet<(Option<String>, Option<Placement>)>,
    experiments: usize,
    compile_errors: usize,
}

impl<'a> Known<'a> {
    fn new(target: &RepairTarget, history: &'a [RepairRecord]) -> Self {
        let mut by_key = HashMap::new();
        let mut fresh_by_key = HashMap::new();
        let mut shared_by_key: HashMap<Key, &RepairRecord> = HashMap::new();
        let mut experiments = 0;
        let mut compile_errors = 0;
        for r in history {
            let e = &r.experiment;
            if e.test != target.test || r.fingerprint != target.fingerprint {
                continue;
            }
            if r.compile_error.is_some() {
                compile_errors += 1;
            } else if r.reused_from.is_none() {
                experiments += 1;
            }
            let key = (
                e.source.clone(),
                e.placement,
                e.statements.clone(),
                e.order.clone(),
            );
            if r.isolation == Isolation::Jvm {
                fresh_by_key.entry(key.clone()).or_insert(r);
            } else {
                shared_by_key.entry(key.clone()).or_insert(r);
            }
            by_key.entry(key).or_insert(r);
        }
        let members = target.members();
        let verdict = |r: &RepairRecord| passes_record(&members, r, Check::FailingOrder, &[]).0;
        let refuted = shared_by_key
            .iter()
            .filter(|(key, shared)| {
                shared.experiment.check == Check::FailingOrder
                    && fresh_by_key
                        .get(*key)
                        .is_some_and(|fresh| verdict(fresh) != verdict(shared))
            })
            .map(|(key, _)| (key.0.clone(), key.1))
            .collect();
        Known {
            by_key,
            fresh_by_key,
            refuted,
            experiments,
            compile_errors,
        }
    }

    /// As [`Known::get`], over the records of fresh JVMs only.
    fn get_fresh(
        &self,
        source: Option<&str>,
        placement: Option<Placement>,
        statements: &[usize],
        order: &[String],
    ) -> Option<&'a RepairRecord> {
        self.fresh_by_key
            .get(&key(source, placement, statements, order))
            .copied()
    }

    /// Whether a fresh JVM contradicted the minimization of `source` at `placement`.
    fn refuted(&self, source: Option<&str>, placement: Option<Placement>) -> bool {
        self.refuted
            .contains(&(source.map(str::to_string), placement))
    }

    fn get(
        &self,
        source: Option<&str>,
        placement: Option<Placement>,
        statements: &[usize],
        order: &[String],
    ) -> Option<&'a RepairRecord> {
        self.by_key
            .get(&key(source, placement, statements, order))
            .copied()
    }
}

/// The key of a record: the candidate (source, placement, statements) and the order.
fn key(
    source: Option<&str>,
    placement: Option<Placement>,
    statements: &[usize],
    order: &[String],
) -> Key {
    (
        source.map(str::to_string),
        placement,
        statements.to_vec(),
        order.to_vec(),
    )
}

/// The next experiment for `request.target`, or its verdict.
pub fn next(request: &RepairRequest) -> Result<RepairStep, EngineError> {
    let target = &request.target;
    if target.test.trim().is_empty() {
        return Err(EngineError::bad_request(
            "repair_next",
            "the target test is empty",
        ));
    }
    let budget = request.budget.unwrap_or(DEFAULT_REPAIR_BUDGET);
    if budget == 0 {
        return Err(EngineError::bad_request(
            "repair_next",
            "the repair budget must be at least 1 experiment",
        ));
    }
    let known = Known::new(target, &request.history);
    let mut planner = Planner {
        target,
        known: &known,
        next_id: request.next_id.unwrap_or(request.history.len() + 1),
        tried: Vec::new(),
        last_verification: Vec::new(),
        uncleaned: 0,
    };
    let (candidates, unusable, uncleaned) = candidates(target);
    planner.uncleaned = uncleaned;
    planner.tried.extend(unusable);
    if candidates.is_empty() && uncleaned > 0 {
        let reason = format!(
            "no candidate can pass every check: {uncleaned} {} cleaning after one of its \
             polluters {} not clean after another (detect's cleaner searches), and a patch is \
             checked after every polluter; see `tried`",
            if uncleaned == 1 {
                "cleaner"
            } else {
                "cleaners"
            },
            if uncleaned == 1 { "does" } else { "do" }
        );
        return Ok(planner.done(RepairStatus::Rejected, Some(reason), None));
    }
    if candidates.is_empty() {
        return Ok(planner.done(
            RepairStatus::NoFixSource,
            Some(no_source_reason(target)),
            None,
        ));
    }
    // The budget counts test JVMs; a candidate that does not compile costs no JVM, and ddmin
    // asks each subset once, so those stay finite without it.
    let spent = known.experiments;
    let over_budget = spent >= budget as usize;
    let step = planner.plan(&candidates);
    Ok(match step {
        RepairStep::Run { .. } if over_budget => planner.done(
            RepairStatus::Unfinished,
            Some(format!(
                "the repair budget of {budget} experiments is spent; rerun with a larger \
                 -Dodrust.repair.budget to go on (nothing already run is run again)"
            )),
            None,
        ),
        step => step,
    })
}

struct Planner<'a> {
    target: &'a RepairTarget,
    known: &'a Known<'a>,
    next_id: usize,
    tried: Vec<Tried>,
    last_verification: Vec<CheckResult>,
    /// Cleaners not run: detect showed they do not clean after another polluter.
    uncleaned: usize,
}

impl<'a> Planner<'a> {
    fn source_ref(&self, test: &str, polluter: Option<&String>) -> SourceRef {
        source_ref(self.target, test, polluter)
    }

    fn plan(&mut self, candidates: &[Candidate<'a>]) -> RepairStep {
        let members = self.target.members();
        let classes: BTreeSet<&str> = members.iter().map(|t| class_of(t)).collect();
        // One patch edits one class: the start of one test fixes only that test, and a setup
        // only the tests of its class; a brittle has no polluter to tear down after.
        let applies = |c: &Candidate<'a>, placement: Placement| {
            !(placement == Placement::PolluterTeardown && c.polluter.is_none()
                || placement == Placement::Test && members.len() > 1
                || placement == Placement::Setup && classes.len() > 1)
        };
        let tries: Vec<(&Candidate<'a>, Placement)> = candidates
            .iter()
            .flat_map(|c| c.source.placements.iter().map(move |&p| (c, p)))
            .filter(|&(c, p)| applies(c, p))
            .collect();
        // A part of a split cause: what the larger part already ran whole, where none of these
        // tests passed, is not run again. When that is every candidate, nothing runs.
        if !tries.is_empty() && tries.iter().all(|&(c, p)| self.ruled_out(c, p)) {
            for &(c, p) in &tries {
                self.rule_out(c, p);
            }
            let reason = format!(
                "no candidate passed every check ({} tried, none run again: each ran with its \
                 whole body for the cause before its split, and these tests still failed); see \
                 `tried`",
                self.tried.len()
            );
            return self.done(RepairStatus::Rejected, Some(reason), None);
        }
        // 1. The oracle order of the best candidate must still fail without a patch.
        let first = &candidates[0].oracle;
        match self.known.get(None, None, &[], first) {
            None => return self.run(None, None, None, &[], Check::Unpatched, first.clone()),
            Some(r) if !r.honoured => {
                return self.done(
                    RepairStatus::NotReproduced,
                    Some(format!(
                        "the failing order [{}] could not be run to check it (experiment {}): {NOT_HONOURED}",
                        first.join(", "),
                        r.experiment.id
                    )),
                    None,
                );
            }
            Some(r) => {
                if self.target_passed(r) != Some(false) {
                    let how = if self.target_passed(r) == Some(true) {
                        "passes"
                    } else {
                        "did not run"
                    };
                    return self.done(
                        RepairStatus::NotReproduced,
                        Some(format!(
                            "without a patch, {} {how} in its failing order [{}] now (experiment \
                             {}): the code or the tests changed since detect, or it is not \
                             order-dependent there; run detect again",
                            self.target.test,
                            first.join(", "),
                            r.experiment.id
                        )),
                        None,
                    );
                }
            }
        }
        for &(c, placement) in &tries {
            if self.ruled_out(c, placement) {
                self.rule_out(c, placement);
                continue;
            }
            match self.plan_candidate(c, placement) {
                Decision::Run(step) => return step,
                Decision::Rejected => {}
                Decision::Verified(minimal) => {
                    return self.done(RepairStatus::Patched, None, Some((c, placement, minimal)))
                }
            }
        }
        let reason = if self.tried.is_empty() && classes.len() > 1 {
            format!(
                "its {} tests are in {} classes and no candidate can fix them all from one \
                 place (a polluter's teardown fixes victims of every class)",
                members.len(),
                classes.len()
            )
        } else {
            let not_run = match self.uncleaned {
                0 => String::new(),
                n => format!(
                    ", {n} of them not run: detect showed they do not clean after every polluter"
                ),
            };
            format!(
                "no candidate passed every check ({} tried{not_run}); see `tried` for why each \
                 was rejected",
                self.tried.len()
            )
        };
        self.done(RepairStatus::Rejected, Some(reason), None)
    }

    /// The larger part's run of `c` whole at `placement` that rules it out here, if any.
    fn ruled_out_by(&self, c: &Candidate<'a>, placement: Placement) -> Option<&'a RuledOut> {
        self.target.ruled_out.iter().find(|r| {
            r.source == c.source.test && r.placement == placement && r.polluter == c.polluter
        })
    }

    fn ruled_out(&self, c: &Candidate<'a>, placement: Placement) -> bool {
        self.ruled_out_by(c, placement).is_some()
    }

    /// Pushes `c` at `placement` to `tried` as ruled out by the larger part's run.
    fn rule_out(&mut self, c: &Candidate<'a>, placement: Placement) {
        let Some(r) = self.ruled_out_by(c, placement) else {
            return;
        };
        let why = format!(
            "with its whole body ({}) none of these tests passed in the failing order of the \
             cause before its split, [{}] (experiment {}): not run again for this part",
            statements(c.source.statements),
            r.order.join(", "),
            r.experiment
        );
        let source = self.source_ref(&c.source.test, c.polluter.as_ref());
        self.tried.push(Tried {
            source,
            placement: Some(placement),
            statements: (0..c.source.statements).collect(),
            why,
        });
    }

    /// The next experiment of one candidate at one placement, or its verdict (a rejection is
    /// pushed to `tried`).
    fn plan_candidate(&mut self, c: &Candidate<'a>, placement: Placement) -> Decision {
        self.last_verification.clear();
        let source = Some(c.source.test.as_str());
        let all: Vec<usize> = (0..c.source.statements).collect();
        let reject = |this: &mut Self, statements: &[usize], why: String| {
            let source = this.source_ref(&c.source.test, c.polluter.as_ref());
            this.tried.push(Tried {
                source,
                placement: Some(placement),
                statements: statements.to_vec(),
                why,
            });
        };
        // 3. The whole body first, in a fresh JVM: a candidate is never rejected on a shared
        //    JVM's word.
        match self
            .known
            .get_fresh(source, Some(placement), &all, &c.oracle)
        {
            None => {
                return Decision::Run(self.run(
                    source,
                    c.polluter.as_ref(),
                    Some(placement),
                    &all,
                    Check::FailingOrder,
                    c.oracle.clone(),
                ))
            }
            Some(r) if self.passes(r, Check::FailingOrder).0 => {}
            Some(r) => {
                let why = match &r.compile_error {
                    Some(e) => format!(
                        "with its whole body ({}) it does not compile: {e}",
                        statements(all.len())
                    ),
                    None => format!(
                        "with its whole body ({}) the test still fails in [{}] (experiment {}): {}",
                        statements(all.len()),
                        c.oracle.join(", "),
                        r.experiment.id,
                        message(&self.target.members(), &r.results)
                    ),
                };
                reject(self, &all, why);
                return Decision::Rejected;
            }
        }
        // 4. ddmin over the statements: in shared JVMs when the plugin may (it only proposes),
        //    over fresh runs alone once a fresh JVM contradicted a shared one for this candidate.
        let known = self.known;
        let members = self.target.members();
        let fresh_only = known.refuted(source, Some(placement));
        let step = ddmin_step(&all, |subset: &[usize]| {
            let r = if fresh_only {
                known.get_fresh(source, Some(placement), subset, &c.oracle)
            } else {
                known.get(source, Some(placement), subset, &c.oracle)
            };
            r.map(|r| passes_record(&members, r, Check::FailingOrder, &[]).0)
        });
        let minimal = match step {
            DdminStep::Query(subset) => {
                let step = self.run(
                    source,
                    c.polluter.as_ref(),
                    Some(placement),
                    &subset,
                    Check::FailingOrder,
                    c.oracle.clone(),
                );
                return Decision::Run(shareable(step, !fresh_only));
            }
            DdminStep::Done(minimal) => minimal,
        };
        // 5. Verification, in fresh JVMs.
        let checks = checks(self.target, c, placement);
        let total = checks.len();
        for (i, (check, order)) in checks.into_iter().enumerate() {
            match self
                .known
                .get_fresh(source, Some(placement), &minimal, &order)
            {
                None => {
                    let mut step = self.run(
                        source,
                        c.polluter.as_ref(),
                        Some(placement),
                        &minimal,
                        check,
                        order,
                    );
                    if let RepairStep::Run { checks_left, .. } = &mut step {
                        *checks_left = Some(total - i);
                    }
                    return Decision::Run(step);
                }
                Some(r) => {
                    let (passed, detail) = self.passes(r, check);
                    self.last_verification.push(CheckResult {
                        check,
                        order: order.clone(),
                        passed,
                        detail: detail.clone(),
                        experiment: r.experiment.id,
                    });
                    if !passed {
                        let why = format!(
                            "the minimal patch ({} of {}) failed the {} check (experiment {}): {}",
                            minimal.len(),
                            statements(all.len()),
                            check_name(check),
                            r.experiment.id,
                            detail.unwrap_or_default()
                        );
                        reject(self, &minimal, why);
                        return Decision::Rejected;
                    }
                }
            }
        }
        Decision::Verified(minimal)
    }

    fn passes(&self, r: &RepairRecord, check: Check) -> (bool, Option<String>) {
        passes_record(&self.target.members(), r, check, &self.target.baseline)
    }

    fn target_passed(&self, r: &RepairRecord) -> Option<bool> {
        test_passed(&self.target.test, &r.results)
    }

    fn run(
        &self,
        source: Option<&str>,
        polluter: Option<&String>,
        placement: Option<Placement>,
        statements: &[usize],
        check: Check,
        order: Vec<String>,
    ) -> RepairStep {
        RepairStep::Run {
            checks_left: None,
            experiment: RepairExperiment {
                id: self.next_id,
                test: self.target.test.clone(),
                source: source.map(str::to_string),
                polluter: polluter.cloned(),
                placement,
                statements: statements.to_vec(),
                check,
                order,
                shareable: false,
            },
        }
    }

    fn done(
        &mut self,
        status: RepairStatus,
        reason: Option<String>,
        patch: Option<(&Candidate<'a>, Placement, Vec<usize>)>,
    ) -> RepairStep {
        let (source, placement, statements, total) = match patch {
            Some((c, placement, kept)) => (
                Some(self.source_ref(&c.source.test, c.polluter.as_ref())),
                Some(placement),
                kept,
                c.source.statements,
            ),
            None => (None, None, Vec::new(), 0),
        };
        RepairStep::Done {
            outcome: RepairOutcome {
                test: self.target.test.clone(),
                kind: self.target.kind,
                status,
                reason,
                source,
                placement,
                statements,
                statements_total: total,
                verification: std::mem::take(&mut self.last_verification),
                experiments: self.known.experiments,
                compile_errors: self.known.compile_errors,
                tried: std::mem::take(&mut self.tried),
            },
        }
    }
}

/// What became of one candidate at one placement.
enum Decision {
    /// It needs this experiment next.
    Run(RepairStep),
    /// It was rejected (and pushed to `tried`).
    Rejected,
    /// These statements passed every check.
    Verified(Vec<usize>),
}

/// `step` with its experiment marked as one that may run in a shared JVM, when `yes`.
fn shareable(mut step: RepairStep, yes: bool) -> RepairStep {
    if let RepairStep::Run { experiment, .. } = &mut step {
        experiment.shareable = yes;
    }
    step
}

/// "1 statement", "3 statements".
fn statements(n: usize) -> String {
    format!("{n} statement{}", if n == 1 { "" } else { "s" })
}
