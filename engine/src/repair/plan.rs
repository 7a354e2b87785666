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
//! whose sources have changed since is ignored.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use crate::error::EngineError;
use crate::explain::ddmin::{ddmin_step, DdminStep};
use crate::model::experiment::{test_passed, TestResult};
use crate::model::kind::OdRole;
use crate::model::outcome::RunOutcome;
use crate::model::testid::{class_of, is_invocation_of};

/// Experiments (JVM runs and candidates that did not compile) one target may spend by default.
pub const DEFAULT_REPAIR_BUDGET: u32 = 100;

/// Request of `repair_next`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepairRequest {
    /// What to repair.
    pub target: RepairTarget,
    /// The repair experiments recorded for this module: all of them, or only this target's with
    /// `next_id` (records of other tests are ignored either way).
    #[serde(default)]
    pub history: Vec<RepairRecord>,
    /// The id of the next experiment (the module's history length + 1); when absent, the
    /// history is taken to be the module's whole history.
    #[serde(default)]
    pub next_id: Option<usize>,
    /// Experiments this target may spend; [`DEFAULT_REPAIR_BUDGET`] when absent.
    #[serde(default)]
    pub budget: Option<u32>,
}

/// One flaky test to repair, as detect explained it, with what Java could parse.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepairTarget {
    /// The test id.
    pub test: String,
    /// Victim or brittle.
    pub kind: OdRole,
    /// Its polluters (groups), from report.json.
    #[serde(default)]
    pub polluters: Vec<Vec<String>>,
    /// Cleaners per single polluter, from report.json.
    #[serde(default)]
    pub cleaners: BTreeMap<String, Vec<String>>,
    /// Its state-setters (groups), from report.json.
    #[serde(default)]
    pub state_setters: Vec<Vec<String>>,
    /// Whether detect finished explaining it (else "no cleaner" may only mean "none found yet").
    #[serde(default = "yes")]
    pub explanation_complete: bool,
    /// The failing order detect recorded for it (report.json's `failing_order`).
    #[serde(default)]
    pub failing_order: Vec<String>,
    /// The module's original order.
    pub original_order: Vec<String>,
    /// Each result of detect's baseline run of the original order.
    #[serde(default)]
    pub baseline: Vec<TestResult>,
    /// The cleaners and state-setters Java parsed, in any order.
    #[serde(default)]
    pub sources: Vec<FixSource>,
    /// A digest of the source files involved; records of another digest are ignored.
    pub fingerprint: String,
}

fn yes() -> bool {
    true
}

/// A cleaner or state-setter test as Java parsed it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixSource {
    /// Its test id.
    pub test: String,
    /// How many statements a patch from it can keep (its setup's and its body's).
    pub statements: usize,
    /// Where Java can put its code, in the order to try.
    #[serde(default)]
    pub placements: Vec<Placement>,
    /// Why Java cannot use it (no source file, a parse error, parameters), if so.
    #[serde(default)]
    pub unusable: Option<String>,
    /// What it is: a cleaner or state-setter test (default), or statements that call the
    /// module's own reset methods for a victim's polluted state (then `test` names them).
    #[serde(default)]
    pub origin: SourceOrigin,
}

/// Where a [`FixSource`]'s statements come from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceOrigin {
    /// A cleaner (victims) or state-setter (brittles) of report.json.
    #[default]
    Test,
    /// Calls of the module's reset methods for the polluted state `odrust:diagnose` confirmed
    /// (victims; tried after every cleaner).
    ResetMethod,
}

/// Where a patch's code goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// The flaky test's class setup (`@Before` / `@BeforeEach`): runs before each of its tests.
    Setup,
    /// The start of the flaky test method itself.
    Test,
    /// The polluter's class teardown (`@After` / `@AfterEach`): undoes what it leaves behind
    /// right where it leaves it (victims only; the patch edits the polluter's class).
    PolluterTeardown,
}

/// What one repair experiment checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// The oracle order without any patch: does the test still fail there?
    Unpatched,
    /// The oracle order (`[p, v]`, `[b]`) with a candidate: minimization and the first check.
    FailingOrder,
    /// The test by itself.
    Alone,
    /// Another failing order known for the test.
    RecordedFailingOrder,
    /// The test's class, its tests in the original order.
    Class,
    /// The module's original order.
    OriginalOrder,
}

/// One experiment the planner asks for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepairExperiment {
    /// 1-based position in the module's repair history.
    pub id: usize,
    /// The flaky test being repaired.
    pub test: String,
    /// The cleaner or state-setter whose statements are used (none for `unpatched`).
    #[serde(default)]
    pub source: Option<String>,
    /// The polluter the cleaner undoes (victims).
    #[serde(default)]
    pub polluter: Option<String>,
    /// Where the statements go (none for `unpatched`).
    #[serde(default)]
    pub placement: Option<Placement>,
    /// Indices of the source's statements kept, ascending.
    #[serde(default)]
    pub statements: Vec<usize>,
    /// What it checks.
    pub check: Check,
    /// The order to run, with the candidate's class first on the classpath.
    pub order: Vec<String>,
}

/// A repair experiment that ran (or whose candidate did not compile).
// Not deny_unknown_fields: serde cannot combine it with flatten (nor on the flattened type).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RepairRecord {
    /// What was asked.
    #[serde(flatten)]
    pub experiment: RepairExperiment,
    /// The target's fingerprint when it ran.
    pub fingerprint: String,
    /// The compiler's first error, when the candidate did not compile (nothing ran then).
    #[serde(default)]
    pub compile_error: Option<String>,
    /// Each test's result, in the order they ran.
    #[serde(default)]
    pub results: Vec<TestResult>,
    /// Whether the order ran exactly as asked (the plugin's run check); a run that did not is no
    /// evidence for or against a candidate.
    #[serde(default = "yes")]
    pub honoured: bool,
    /// When another experiment had already run the very same code (another source or placement
    /// that gave the same patched file) in the same order: its id, whose results these are
    /// (no JVM ran for this one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reused_from: Option<usize>,
}

/// The next step for one target.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum RepairStep {
    /// Run this experiment, record it, ask again.
    Run {
        /// The experiment.
        experiment: RepairExperiment,
    },
    /// Nothing more to run for this target.
    Done {
        /// The verdict.
        outcome: RepairOutcome,
    },
}

/// How a repair ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepairStatus {
    /// A verified patch.
    Patched,
    /// Candidates existed; none passed every check.
    Rejected,
    /// No cleaner / state-setter is known to make one from.
    NoFixSource,
    /// The failing order does not fail any more without a patch.
    NotReproduced,
    /// The budget ran out before a verdict.
    Unfinished,
}

/// Which test a patch's statements come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceRef {
    /// `cleaner` or `state-setter`.
    pub kind: String,
    /// The cleaner or state-setter.
    pub test: String,
    /// The polluter it undoes (victims).
    pub polluter: Option<String>,
}

/// One check of a verified (or rejected) candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The check.
    pub check: Check,
    /// The order it ran.
    pub order: Vec<String>,
    /// Whether it passed.
    pub passed: bool,
    /// What went wrong, when it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The experiment that ran it.
    pub experiment: usize,
}

/// A candidate tried and not offered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tried {
    /// Where its statements came from.
    pub source: SourceRef,
    /// Where they went (none when the source could not be used at all).
    pub placement: Option<Placement>,
    /// The statements it had when it was rejected.
    pub statements: Vec<usize>,
    /// Why it was not offered.
    pub why: String,
}

/// The verdict for one target.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RepairOutcome {
    /// The flaky test.
    pub test: String,
    /// Victim or brittle.
    pub kind: OdRole,
    /// How it ended.
    pub status: RepairStatus,
    /// Why there is no patch (every status but `patched`).
    pub reason: Option<String>,
    /// The patch's source.
    pub source: Option<SourceRef>,
    /// The patch's placement.
    pub placement: Option<Placement>,
    /// The statements kept (indices into the source's statements).
    pub statements: Vec<usize>,
    /// How many statements the source offered.
    pub statements_total: usize,
    /// The checks the patch passed (or, rejected, those of the last candidate).
    pub verification: Vec<CheckResult>,
    /// Tests runs spent on this target (JVMs).
    pub experiments: usize,
    /// Candidates that did not compile (no JVM).
    pub compile_errors: usize,
    /// Candidates tried and not offered, with why.
    pub tried: Vec<Tried>,
}

/// A candidate source, paired with the order that minimizes it.
struct Candidate<'a> {
    source: &'a FixSource,
    polluter: Option<String>,
    oracle: Vec<String>,
}

type Key = (Option<String>, Option<Placement>, Vec<usize>, Vec<String>);

/// What the history says about this target.
struct Known<'a> {
    by_key: HashMap<Key, &'a RepairRecord>,
    experiments: usize,
    compile_errors: usize,
}

impl<'a> Known<'a> {
    fn new(target: &RepairTarget, history: &'a [RepairRecord]) -> Self {
        let mut by_key = HashMap::new();
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
            by_key.entry(key).or_insert(r);
        }
        Known {
            by_key,
            experiments,
            compile_errors,
        }
    }

    fn get(
        &self,
        source: Option<&str>,
        placement: Option<Placement>,
        statements: &[usize],
        order: &[String],
    ) -> Option<&'a RepairRecord> {
        let key = (
            source.map(str::to_string),
            placement,
            statements.to_vec(),
            order.to_vec(),
        );
        self.by_key.get(&key).copied()
    }
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
    };
    let (candidates, unusable) = planner.candidates();
    planner.tried.extend(unusable);
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

fn no_source_reason(target: &RepairTarget) -> String {
    let unfinished = if target.explanation_complete {
        String::new()
    } else {
        format!(
            "; its explanation did not finish, so one may exist: run `mvn odrust:minimize \
             -Dodrust.test={}` with a larger -Dodrust.minimize.budget, then repair again",
            target.test
        )
    };
    match target.kind {
        OdRole::Victim
            if target.polluters.iter().all(|g| g.len() != 1) && !target.polluters.is_empty() =>
        {
            format!(
            "no cleaner known: no single test pollutes it (its polluters act only together), and \
             cleaners are searched for single polluters{unfinished}"
        )
        }
        OdRole::Victim => format!(
            "no cleaner known: detect found no test that, run between a polluter and this \
             victim, makes it pass{unfinished}"
        ),
        OdRole::Brittle => format!(
            "no state-setter known: detect found no single test that makes it pass when run \
             before it{unfinished}"
        ),
    }
}

struct Planner<'a> {
    target: &'a RepairTarget,
    known: &'a Known<'a>,
    next_id: usize,
    tried: Vec<Tried>,
    last_verification: Vec<CheckResult>,
}

impl<'a> Planner<'a> {
    fn source_kind(&self) -> &'static str {
        match self.target.kind {
            OdRole::Victim => "cleaner",
            OdRole::Brittle => "state-setter",
        }
    }

    fn source_ref(&self, test: &str, polluter: Option<&String>) -> SourceRef {
        let reset = self
            .target
            .sources
            .iter()
            .any(|s| s.test == test && s.origin == SourceOrigin::ResetMethod);
        SourceRef {
            kind: if reset {
                "reset-method".to_string()
            } else {
                self.source_kind().to_string()
            },
            test: test.to_string(),
            polluter: polluter.cloned(),
        }
    }

    /// The usable candidates, best first, and the unusable ones as tried.
    fn candidates(&self) -> (Vec<Candidate<'a>>, Vec<Tried>) {
        let t = self.target;
        let own_class = class_of(&t.test);
        let mut ranked: Vec<(usize, bool, usize, Candidate<'a>)> = Vec::new();
        let mut unusable = Vec::new();
        let singles: Vec<&String> = t
            .polluters
            .iter()
            .filter(|g| g.len() == 1)
            .map(|g| &g[0])
            .collect();
        for (i, s) in t.sources.iter().enumerate() {
            let (cleans, polluter) = match t.kind {
                OdRole::Victim if s.origin == SourceOrigin::ResetMethod => match singles.first() {
                    // after every cleaner: ranked as cleaning no polluter
                    Some(p) => (0, Some((*p).clone())),
                    None => continue,
                },
                OdRole::Brittle if s.origin == SourceOrigin::ResetMethod => continue,
                OdRole::Victim => {
                    let cleans: Vec<&String> = singles
                        .iter()
                        .copied()
                        .filter(|p| t.cleaners.get(*p).is_some_and(|c| c.contains(&s.test)))
                        .collect();
                    match cleans.first() {
                        Some(p) => (cleans.len(), Some((*p).clone())),
                        None => continue,
                    }
                }
                OdRole::Brittle => {
                    if !t
                        .state_setters
                        .iter()
                        .any(|g| g.len() == 1 && g[0] == s.test)
                    {
                        continue;
                    }
                    (1, None)
                }
            };
            if let Some(why) = &s.unusable {
                unusable.push(Tried {
                    source: self.source_ref(&s.test, polluter.as_ref()),
                    placement: None,
                    statements: Vec::new(),
                    why: why.clone(),
                });
                continue;
            }
            if s.statements == 0 || s.placements.is_empty() {
                unusable.push(Tried {
                    source: self.source_ref(&s.test, polluter.as_ref()),
                    placement: None,
                    statements: Vec::new(),
                    why: if s.statements == 0 {
                        "its body has no statements to copy".to_string()
                    } else {
                        "there is no place to put its statements".to_string()
                    },
                });
                continue;
            }
            let oracle = match &polluter {
                Some(p) => vec![p.clone(), t.test.clone()],
                None => vec![t.test.clone()],
            };
            ranked.push((
                usize::MAX - cleans,
                class_of(&s.test) != own_class,
                i,
                Candidate {
                    source: s,
                    polluter,
                    oracle,
                },
            ));
        }
        ranked.sort_by_key(|r| (r.0, r.1, r.2));
        (ranked.into_iter().map(|r| r.3).collect(), unusable)
    }

    fn plan(&mut self, candidates: &[Candidate<'a>]) -> RepairStep {
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
        for c in candidates {
            for &placement in &c.source.placements {
                if placement == Placement::PolluterTeardown && c.polluter.is_none() {
                    continue; // a brittle has no polluter to tear down after
                }
                match self.plan_candidate(c, placement) {
                    Decision::Run(step) => return step,
                    Decision::Rejected => {}
                    Decision::Verified(minimal) => {
                        return self.done(
                            RepairStatus::Patched,
                            None,
                            Some((c, placement, minimal)),
                        )
                    }
                }
            }
        }
        let reason = format!(
            "no candidate passed every check ({} tried); see `tried` for why each was rejected",
            self.tried.len()
        );
        self.done(RepairStatus::Rejected, Some(reason), None)
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
        // 3. The whole body first.
        match self.known.get(source, Some(placement), &all, &c.oracle) {
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
                        message(&self.target.test, &r.results)
                    ),
                };
                reject(self, &all, why);
                return Decision::Rejected;
            }
        }
        // 4. ddmin over the statements.
        let known = self.known;
        let step = ddmin_step(&all, |subset: &[usize]| {
            known
                .get(source, Some(placement), subset, &c.oracle)
                .map(|r| passes_record(&self.target.test, r, Check::FailingOrder, &[]).0)
        });
        let minimal = match step {
            DdminStep::Query(subset) => {
                return Decision::Run(self.run(
                    source,
                    c.polluter.as_ref(),
                    Some(placement),
                    &subset,
                    Check::FailingOrder,
                    c.oracle.clone(),
                ))
            }
            DdminStep::Done(minimal) => minimal,
        };
        // 5. Verification.
        for (check, order) in self.checks(c, placement) {
            match self.known.get(source, Some(placement), &minimal, &order) {
                None => {
                    return Decision::Run(self.run(
                        source,
                        c.polluter.as_ref(),
                        Some(placement),
                        &minimal,
                        check,
                        order,
                    ))
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

    /// The checks of a minimal candidate, in order, each order once.
    fn checks(&self, c: &Candidate<'a>, placement: Placement) -> Vec<(Check, Vec<String>)> {
        let t = self.target;
        let mut checks = vec![(Check::FailingOrder, c.oracle.clone())];
        if t.kind == OdRole::Victim {
            checks.push((Check::Alone, vec![t.test.clone()]));
        }
        let mut recorded = Vec::new();
        if !t.failing_order.is_empty() {
            recorded.push(t.failing_order.clone());
        }
        if t.kind == OdRole::Victim {
            for group in &t.polluters {
                let mut order = group.clone();
                order.push(t.test.clone());
                recorded.push(order);
            }
        }
        checks.extend(
            recorded
                .into_iter()
                .map(|o| (Check::RecordedFailingOrder, o)),
        );
        // The classes the patch edits: the flaky test's, or the polluter's for a teardown.
        let mut classes = vec![class_of(&t.test)];
        if let (Placement::PolluterTeardown, Some(p)) = (placement, &c.polluter) {
            classes.push(class_of(p));
        }
        for class in classes {
            let class_order: Vec<String> = t
                .original_order
                .iter()
                .filter(|id| class_of(id) == class)
                .cloned()
                .collect();
            if !class_order.is_empty() {
                checks.push((Check::Class, class_order));
            }
        }
        if !t.original_order.is_empty() {
            checks.push((Check::OriginalOrder, t.original_order.clone()));
        }
        let mut seen = BTreeSet::new();
        checks.retain(|(_, order)| seen.insert(order.clone()));
        checks
    }

    fn passes(&self, r: &RepairRecord, check: Check) -> (bool, Option<String>) {
        passes_record(&self.target.test, r, check, &self.target.baseline)
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
            experiment: RepairExperiment {
                id: self.next_id,
                test: self.target.test.clone(),
                source: source.map(str::to_string),
                polluter: polluter.cloned(),
                placement,
                statements: statements.to_vec(),
                check,
                order,
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

/// "1 statement", "3 statements".
fn statements(n: usize) -> String {
    format!("{n} statement{}", if n == 1 { "" } else { "s" })
}

const NOT_HONOURED: &str =
    "the order did not run exactly as asked (see the experiment's result.json)";

fn check_name(check: Check) -> &'static str {
    match check {
        Check::Unpatched => "unpatched",
        Check::FailingOrder => "failing-order",
        Check::Alone => "alone",
        Check::RecordedFailingOrder => "recorded-failing-order",
        Check::Class => "class",
        Check::OriginalOrder => "original-order",
    }
}

/// Whether every result of `test` (or of its invocations) passed: `None` when none ran or all
/// were skipped.
/// Whether a record passes `check` for `test`, with what went wrong.
fn passes_record(
    test: &str,
    r: &RepairRecord,
    check: Check,
    baseline: &[TestResult],
) -> (bool, Option<String>) {
    if let Some(e) = &r.compile_error {
        return (false, Some(format!("it does not compile: {e}")));
    }
    if !r.honoured {
        return (false, Some(NOT_HONOURED.to_string()));
    }
    // The polluter's class (checked for a teardown patch) does not hold the flaky test.
    let holds_test = r
        .experiment
        .order
        .iter()
        .any(|t| t == test || is_invocation_of(t, test));
    match test_passed(test, &r.results) {
        Some(true) => {}
        _ if !holds_test => {}
        Some(false) => {
            return (
                false,
                Some(format!("{test} failed: {}", message(test, &r.results))),
            )
        }
        None => return (false, Some(format!("{test} did not run"))),
    }
    if !matches!(check, Check::Class | Check::OriginalOrder) {
        return (true, None);
    }
    let before: HashMap<&str, RunOutcome> = baseline
        .iter()
        .map(|b| (b.test.as_str(), b.outcome))
        .collect();
    let mut differences = Vec::new();
    let now: HashMap<&str, RunOutcome> = r
        .results
        .iter()
        .map(|x| (x.test.as_str(), x.outcome))
        .collect();
    for x in &r.results {
        if x.test == test || is_invocation_of(&x.test, test) {
            continue;
        }
        let ok = match before.get(x.test.as_str()) {
            Some(&b) => x.outcome == b || x.outcome == RunOutcome::Pass,
            None => x.outcome.passed() != Some(false),
        };
        if !ok {
            differences.push(format!("{} {}", x.test, outcome_word(x.outcome)));
        }
    }
    if check == Check::OriginalOrder {
        for b in baseline {
            if b.test != test
                && !is_invocation_of(&b.test, test)
                && !now.contains_key(b.test.as_str())
            {
                differences.push(format!("{} did not run", b.test));
            }
        }
    }
    if differences.is_empty() {
        (true, None)
    } else {
        let more = if differences.len() > 3 {
            format!(" and {} more", differences.len() - 3)
        } else {
            String::new()
        };
        differences.truncate(3);
        (
            false,
            Some(format!(
                "other tests changed outcome: {}{more}",
                differences.join(", ")
            )),
        )
    }
}

fn message(test: &str, results: &[TestResult]) -> String {
    results
        .iter()
        .find(|r| {
            (r.test == test || is_invocation_of(&r.test, test)) && r.outcome.passed() == Some(false)
        })
        .map(|r| {
            let m = r
                .message
                .as_deref()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or("");
            format!("{} {m}", outcome_word(r.outcome))
                .trim()
                .to_string()
        })
        .unwrap_or_default()
}

fn outcome_word(o: RunOutcome) -> &'static str {
    match o {
        RunOutcome::Pass => "passed",
        RunOutcome::Skipped => "was skipped",
        RunOutcome::Fail => "failed",
        RunOutcome::Error => "errored",
        RunOutcome::Crash => "crashed",
        RunOutcome::Timeout => "timed out",
        RunOutcome::Exit => "exited",
        RunOutcome::NotRun => "did not run",
    }
}
