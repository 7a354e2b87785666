//! Classification and the summary: victim / brittle / NOD from the alone runs, flake rates,
//! and everything a report shows.

use std::collections::{BTreeMap, HashMap};

use super::findings::{AloneRuns, FailingTest, FlakyTest, PairsCovered, Summary};
use super::replay::{OdTest, Replay, Turn};
use super::rounds::round_text;
use crate::explain::flakerate::{flake_rate, OdModel};
use crate::explain::minimize::{Explanation, Stage};
use crate::model::kind::FlakyKind;
use crate::model::kind::OdRole;
use crate::schedule::dependence::PlanInfo;
use crate::schedule::Schedule;

impl Replay {
    /// Victim or brittle, from the alone runs (`Unclassified` until they are complete); NOD as
    /// soon as two of them disagree.
    pub(super) fn kind_of(&self, od: &OdTest) -> FlakyKind {
        let runs = od.alone.iter().filter(|v| v.is_some()).count();
        let passed = od.alone.iter().filter(|v| **v == Some(true)).count();
        if passed > 0 && passed < runs {
            FlakyKind::Nod
        } else if !self.alone_runs_done(od) || runs == 0 {
            FlakyKind::Unclassified
        } else if passed == runs {
            FlakyKind::VICTIM
        } else if passed == 0 {
            FlakyKind::BRITTLE
        } else {
            FlakyKind::Nod
        }
    }

    /// Alone runs still to run for the OD tests found so far, at most.
    pub(super) fn alone_left(&self) -> u32 {
        let (fresh, shared) = self.alone_left_split();
        fresh + shared
    }

    /// Whether `od`'s alone runs are complete: `alone_runs` of them, or fewer that disagree.
    pub(super) fn alone_runs_done(&self, od: &OdTest) -> bool {
        let passed = od.alone.iter().filter(|v| **v == Some(true)).count();
        let failed = od.alone.iter().filter(|v| **v == Some(false)).count();
        od.alone.len() as u32 >= self.config.alone_runs || (passed > 0 && failed > 0)
    }

    /// Alone runs still to run for the OD tests found so far, at most: those to run in fresh
    /// JVMs, and those that may run in shared JVMs (`odrust.isolation=classloader`, once rounds
    /// ran in shared JVMs: the run passed the check).
    pub(super) fn alone_left_split(&self) -> (u32, u32) {
        let sharing = self.alone_sharing();
        self.od
            .iter()
            .filter(|od| !self.alone_runs_done(od))
            .fold((0, 0), |(fresh, shared), od| {
                let left = self.config.alone_runs.saturating_sub(od.alone.len() as u32);
                let own =
                    if !sharing || od.alone_set_aside > 0 || matches!(od.alone.first(), Some(None))
                    {
                        left
                    } else if od.alone.is_empty() {
                        left.min(1)
                    } else {
                        0
                    };
                (fresh + own, shared + left - own)
            })
    }

    /// With `shared_after_rounds`, while shared JVMs are expected, the fresh rounds still due
    /// before the isolation check: the plan has rounds after the fresh ones the check compares,
    /// and no more than those ran fresh (else the check refused the mode). `None`: not expected.
    pub(super) fn fresh_rounds_before_check(&self) -> Option<u32> {
        let after = self.config.shared_after_rounds?;
        let fresh_ran = self.rounds.iter().filter(|r| !r.in_jvm).count() as u32;
        (self.rounds_total() > after && fresh_ran <= after).then(|| after - fresh_ran)
    }

    /// Whether alone runs after the first run in shared JVMs: rounds or alone runs of this run
    /// did (it passed the isolation check), or are expected to
    /// ([`Replay::fresh_rounds_before_check`]).
    pub(super) fn alone_sharing(&self) -> bool {
        self.fresh_rounds_before_check().is_some()
            || self.rounds.iter().any(|r| r.in_jvm)
            || self
                .od
                .iter()
                .any(|od| od.alone_shared + od.alone_set_aside > 0)
    }

    /// Whether `od` needs another alone run.
    pub(super) fn needs_alone_run(&self, od: &OdTest) -> bool {
        !self.alone_runs_done(od)
    }

    /// Whether `od`'s next alone run may run in a shared JVM (`docs/isolation.md`): the first
    /// alone run of a test is fresh (the classification a report shows is seen in a fresh JVM);
    /// the later ones, which look for an outcome that changes, may share one, and count only
    /// when they agree with the fresh one. One that does not is set aside, and the test's later
    /// alone runs are fresh, so a test is NOD only on fresh JVMs' word.
    pub(super) fn alone_shareable(od: &OdTest) -> bool {
        matches!(od.alone.first(), Some(Some(_))) && od.alone_set_aside == 0
    }

    /// What the alone runs in shared JVMs did for `od`, for its evidence (empty when none ran).
    fn alone_shared_text(od: &OdTest) -> String {
        let mut text = String::new();
        if od.alone_shared > 0 {
            text.push_str(&format!(
                " (the first in a fresh JVM, {} in shared JVMs with fresh class loaders)",
                od.alone_shared
            ));
        }
        if od.alone_set_aside > 0 {
            text.push_str(&format!(
                "; {} alone run{} in a shared JVM gave another outcome than the fresh one and {} set aside (not counted; the test's later alone runs are in fresh JVMs)",
                od.alone_set_aside,
                if od.alone_set_aside == 1 { "" } else { "s" },
                if od.alone_set_aside == 1 { "was" } else { "were" }
            ));
        }
        text
    }

    pub(super) fn summarize(&self, experiments: usize) -> Summary {
        let config = &*self.config;
        let mut flaky: Vec<FlakyTest> = self.nod.clone();
        let mut unclassified = 0;
        let mut minimize_notes = Vec::new();
        for od in &self.od {
            let round = &self.rounds[od.round];
            let complete = self.alone_runs_done(od);
            let runs = od.alone.iter().filter(|v| v.is_some()).count() as u32;
            let passed = od.alone.iter().filter(|v| **v == Some(true)).count() as u32;
            let kind = self.kind_of(od);
            let mut alone_text = match kind {
                FlakyKind::Unclassified if !complete => format!(
                    "alone runs not finished ({} of {})",
                    od.alone.len(),
                    config.alone_runs
                ),
                FlakyKind::Unclassified => "no alone run reported it".to_string(),
                FlakyKind::VICTIM => format!("passed alone {passed}/{runs}"),
                FlakyKind::BRITTLE => format!("failed alone {runs}/{runs}"),
                FlakyKind::Nod => format!(
                    "passed alone only {passed}/{runs}, so its outcome changes without the order changing"
                ),
            };
            alone_text.push_str(&Self::alone_shared_text(od));
            if kind == FlakyKind::Unclassified {
                unclassified += 1;
            }
            let mut entry = FlakyTest {
                test: od.test.clone(),
                kind,
                failing_experiment: od.confirm_fail,
                passing_experiment: od.confirm_pass,
                message: od.message.clone(),
                alone: (complete && runs > 0).then_some(AloneRuns { runs, passed }),
                evidence: match od.turn {
                    Turn::FailedInRound => format!(
                        "failed in {} and again when that order was rerun up to it (experiment {}); passed in the original order up to it (experiment {}); {alone_text}",
                        round_text(round),
                        od.confirm_fail,
                        od.confirm_pass
                    ),
                    Turn::PassedInRound => format!(
                        "failed in every baseline run ({}) but passed in {} and again when that order was rerun up to it (experiment {}); failed again in the original order up to it (experiment {}); {alone_text}",
                        self.baseline_text(),
                        round_text(round),
                        od.confirm_pass,
                        od.confirm_fail
                    ),
                },
                polluters: Vec::new(),
                cleaners: BTreeMap::new(),
                state_setters: Vec::new(),
                flake_rate: None,
                minimize_experiments: self.spent_on(od),
                minimize_complete: false,
                cleaners_unfinished: Vec::new(),
                    shard: None,
            };
            if let Some((explanation, next)) = self.explain(od) {
                self.describe(od, &explanation, next.is_some(), &mut minimize_notes);
                entry.minimize_complete = next.is_none();
                // Only victims and brittles are explained.
                let role = kind.role().unwrap_or(OdRole::Victim);
                let model = |culprits: &[Vec<String>], cleaners: &BTreeMap<String, Vec<String>>| {
                    let mut classes = HashMap::new();
                    for id in culprits
                        .iter()
                        .flatten()
                        .chain(cleaners.values().flatten())
                        .chain([&od.unit])
                    {
                        if let Some(at) = self.record_of(id) {
                            classes.insert(id.clone(), self.suite.classes[at].class.clone());
                        }
                    }
                    OdModel {
                        test: od.unit.clone(),
                        role,
                        culprits: culprits.to_vec(),
                        cleaners: cleaners.clone(),
                        classes,
                    }
                };
                // From what was found so far when the search was cut short (see the note),
                // marked incomplete, with the bounds that follow.
                if !explanation.culprits.is_empty() {
                    let found = model(&explanation.culprits, &explanation.cleaners);
                    entry.flake_rate = flake_rate(&found, config.seed).map(|rate| {
                        match incompleteness(role, &explanation) {
                            None => rate,
                            Some((reason, Bound::None)) => rate.incomplete(reason, false, None),
                            Some((reason, Bound::Between(culprits, cleaners))) => {
                                // With many candidates left the lower bound is near 0 and costs
                                // a sampling run on every report: not computed.
                                let relevant =
                                    culprits.len() + cleaners.values().map(Vec::len).sum::<usize>();
                                let lower = (relevant <= MAX_LOWER_BOUND_TESTS)
                                    .then(|| flake_rate(&model(&culprits, &cleaners), config.seed))
                                    .flatten();
                                rate.incomplete(reason, true, lower.as_ref())
                            }
                        }
                    });
                }
                match role {
                    OdRole::Victim => {
                        if next.is_some() {
                            let current = match &explanation.stage {
                                Stage::Cleaners { polluter, .. } => Some(polluter),
                                _ => None,
                            };
                            entry.cleaners_unfinished = explanation
                                .culprits
                                .iter()
                                .filter(|g| g.len() == 1)
                                .map(|g| &g[0])
                                .filter(|p| {
                                    !explanation.cleaners.contains_key(*p) || current == Some(*p)
                                })
                                .cloned()
                                .collect();
                        }
                        entry.polluters = explanation.culprits;
                        entry.cleaners = explanation.cleaners;
                    }
                    OdRole::Brittle => entry.state_setters = explanation.culprits,
                }
            }
            flaky.push(entry);
        }
        flaky.sort_by(|a, b| a.test.cmp(&b.test));

        let mut notes = Vec::new();
        if self.original.is_empty() {
            notes.push("the suite has no tests: nothing was run".to_string());
        }
        // A failing test found flaky in a round is reported in `flaky` only.
        let failing: Vec<FailingTest> = self
            .failing
            .iter()
            .filter(|f| !self.classified.contains(&f.test))
            .cloned()
            .collect();
        match failing.len() {
            0 => {}
            1 => notes.push(
                "1 test failed in every baseline run and was not found flaky in other orders: it is listed as failing"
                    .to_string(),
            ),
            n => notes.push(format!(
                "{n} tests failed in every baseline run and were not found flaky in other orders: they are listed as failing"
            )),
        }
        let rounds_run = self.rounds.len() as u32;
        let shared = self.rounds.iter().filter(|r| r.in_jvm).count();
        let explaining = self.shared.experiments;
        let alone_shared: u32 = self
            .od
            .iter()
            .map(|od| od.alone_shared + od.alone_set_aside)
            .sum();
        if shared > 0 || explaining > 0 || alone_shared > 0 {
            let rounds = (shared > 0).then(|| format!("{shared} of {rounds_run} rounds"));
            let alone = (alone_shared > 0).then(|| {
                format!(
                    "{alone_shared} alone run{}",
                    if alone_shared == 1 { "" } else { "s" }
                )
            });
            let explanations = (explaining > 0).then(|| {
                format!(
                    "{explaining} explanation experiment{}",
                    if explaining == 1 { "" } else { "s" }
                )
            });
            let what: Vec<String> = rounds
                .into_iter()
                .chain(alone)
                .chain(explanations)
                .collect();
            let fresh = if alone_shared > 0 {
                "the baseline, confirmations and each OD test's first alone run ran in fresh JVMs (a later alone run in a shared JVM counts only when it agrees with the fresh one)"
            } else {
                "the baseline, confirmations and alone runs ran in fresh JVMs"
            };
            let mut note = format!(
                "{} ran in shared JVMs with fresh class loaders (odrust.isolation=classloader); {fresh}",
                match what.as_slice() {
                    [one] => one.clone(),
                    [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
                    [] => String::new(),
                }
            );
            if explaining > 0 {
                let checks = self.shared.checks;
                let runs = if checks == 1 { "" } else { "s" };
                match self.shared.claims.note() {
                    None => note.push_str(&format!(
                        ", and each polluter, cleaner and state-setter reported was run again in a fresh JVM ({checks} run{runs})"
                    )),
                    Some(at_once) => note.push_str(&format!(
                        ", and each polluter, cleaner and state-setter reported ran in a fresh JVM ({}{at_once})",
                        if checks == 0 {
                            String::new()
                        } else {
                            format!("{checks} run{runs} again after a shared one; ")
                        }
                    )),
                }
            }
            note.push_str(", so every finding reported was seen in fresh JVMs");
            let refuted: Vec<String> = self
                .shared
                .refuted_tests()
                .map(|t| format!("`{t}`"))
                .collect();
            if !refuted.is_empty() {
                note.push_str(&format!(
                    "; a fresh JVM did not repeat what a shared JVM showed for {}: explained again from fresh JVMs alone",
                    refuted.join(", ")
                ));
            }
            notes.push(note);
        }
        let rounds_total = self.rounds_total();
        if self.baseline_done && rounds_run < rounds_total && (self.stopped || config.stop_rounds) {
            notes.push(format!(
                "stopped after {rounds_run} of {rounds_total} rounds (time budget)"
            ));
        }
        let pairs = self.schedule().map(|schedule| {
            let mut coverage = schedule.coverage();
            for round in &self.rounds {
                coverage.add(&round.order);
            }
            PairsCovered {
                covered: coverage.covered(),
                total: schedule.pairs_total(),
            }
        });
        if let Some(p) = pairs {
            if p.covered < p.total {
                let scheduled =
                    self.schedule().map_or(0, Schedule::len) + self.extra().len() as u64;
                let cut = if u64::from(rounds_run) < scheduled
                    && u64::from(config.rounds) <= u64::from(rounds_run)
                {
                    " (the `rounds` setting is smaller than the schedule)"
                } else {
                    ""
                };
                if config.shard.is_none() {
                    notes.push(format!(
                        "{} pairs not yet covered{cut}; -Dodrust.resume=true continues",
                        p.total - p.covered
                    ));
                }
            }
        }
        let plan = if self.baseline_done {
            self.plan_info()
        } else {
            None
        };
        if let Some(PlanInfo {
            tuscan: Some(tuscan),
            ..
        }) = &plan
        {
            let info = plan.as_ref().expect("matched");
            notes.push(match info.dependent_pairs {
                Some(dependent) if info.uses_tuscan => format!(
                    "dependence-aware: {dependent} of the {} ordered pairs may interact (a test may read a static field an earlier one wrote); covering only those was predicted to cost more than tuscan's orders, so tuscan's {} executions in {} orders ran",
                    info.pairs, info.executions, info.orders
                ),
                _ => format!(
                    "dependence-aware: {} test executions in {} orders cover the {} ordered pairs where a test may read a static field an earlier one wrote; tuscan would run {} executions in {} orders for all {} pairs",
                    info.executions, info.orders, info.pairs, tuscan.executions, tuscan.orders, tuscan.pairs
                ),
            });
            if let Some(n) = info.unrecorded.filter(|n| *n > 0) {
                notes.push(format!(
                    "dependence-aware: {n} test(s) have no recorded field accesses (they did not run in the baseline, or the recording did not reach them) and count as touching every field"
                ));
            }
        }
        for pending in &self.pending {
            notes.push(format!(
                "{} candidate(s) of round {} are not confirmed yet and are not reported",
                pending.candidates.len(),
                self.rounds[pending.round].number
            ));
        }
        if unclassified > 0 {
            notes.push(format!(
                "{unclassified} order-dependent test(s) are not classified (victim or brittle) yet: their alone runs did not finish"
            ));
        }
        notes.extend(self.inconclusive.iter().cloned());
        notes.extend(minimize_notes);
        if let Some(only) = &config.minimize_only {
            for id in only {
                if !self.od.iter().any(|od| od.test == *id || od.unit == *id) {
                    notes.push(format!(
                        "minimize_only names `{id}`, which was not found order-dependent: nothing to explain"
                    ));
                }
            }
        }
        if !self.not_honoured.is_empty() {
            let ids: Vec<String> = self.not_honoured.iter().map(usize::to_string).collect();
            notes.push(format!(
                "experiment(s) {} did not run exactly in the requested order; their results were used as they are",
                ids.join(", ")
            ));
        }
        if !self.upcoming(config.stop_rounds).is_empty() {
            notes.push(format!(
                "detection is not finished: this summary covers the {experiments} experiment(s) run so far"
            ));
        }

        if let Some(shard) = config.shard {
            let plan_total = match self.schedule() {
                Some(schedule) => {
                    (schedule.len() + self.extra().len() as u64).min(u64::from(config.rounds))
                }
                None => u64::from(config.rounds),
            };
            let coverage = pairs.as_ref().map_or(String::new(), |p| {
                format!(", and covered {} of the {} pairs", p.covered, p.total)
            });
            notes.push(format!(
                "shard {} of {}: this run's rounds are the plan's rounds {}, {}, ... ({} of its {plan_total}){coverage}; `mvn odrust:merge` combines the shards' reports",
                shard.index,
                shard.count,
                shard.round(0),
                shard.round(1),
                rounds_total
            ));
        }
        Summary {
            shard: config.shard,
            seed: config.seed,
            strategy: config.strategy,
            tests_total: self.suite.ids().count(),
            results_per_run: self.results_per_run,
            experiments,
            rounds_run,
            rounds_planned: rounds_total,
            failing,
            flaky,
            notes,
            pairs,
            plan,
            time: self.time.spent(),
            coverage: self.coverage(),
            targeted: self.targeted.as_ref().map(|t| t.info()),
            phases: self.phases.times(),
        }
    }
}

/// A lower bound of an incomplete flake rate is computed only from at most this many culprits
/// and cleaners (every candidate not ruled out counts as one).
const MAX_LOWER_BOUND_TESTS: usize = 40;

/// What the rate from an unfinished explanation bounds.
enum Bound {
    /// Nothing: more culprits could raise it, more cleaners lower it.
    None,
    /// It is an upper bound; the rate of these culprits and cleaners (every test not yet ruled
    /// out taken as a cleaner or state-setter) is a lower bound.
    Between(Vec<Vec<String>>, BTreeMap<String, Vec<String>>),
}

/// Why the flake rate of an unfinished explanation is incomplete, and what it bounds; `None`
/// when the explanation is complete.
///
/// A victim fails more often with more polluters and less often with more cleaners, and until its
/// last sweep more polluters may turn up: no bound. A brittle fails less often with more
/// state-setters: the rate from those found is an upper bound, and the rate with every candidate
/// not yet ruled out as a state-setter a lower bound.
fn incompleteness(role: OdRole, explanation: &Explanation) -> Option<(String, Bound)> {
    match explanation.stage {
        Stage::Done => return None,
        Stage::Confirming => {
            return Some((
                "what shared JVMs showed is not all confirmed in fresh JVMs yet: the rate counts only what was"
                    .to_string(),
                Bound::None,
            ))
        }
        _ => {}
    }
    let singles = explanation.culprits.iter().all(|g| g.len() == 1);
    match role {
        // Until its last sweep, a victim may have polluters not found yet (raising the rate) and
        // cleaners not found yet (lowering it): no bound follows.
        OdRole::Victim => Some((
            if explanation.culprits.is_empty() || !singles {
                "the search for polluters did not finish: more polluters (and their cleaners) may exist"
            } else {
                "the search for cleaners (and for polluters they hide) did not finish: the rate counts only what was found"
            }
            .to_string(),
            Bound::None,
        )),
        OdRole::Brittle if !singles => Some((
            "the search for state-setters did not finish".to_string(),
            Bound::None,
        )),
        OdRole::Brittle => {
            let mut setters = explanation.culprits.clone();
            setters.extend(explanation.culprits_open.iter().map(|t| vec![t.clone()]));
            Some((
                "the search for state-setters did not finish: the rate counts only the state-setters found"
                    .to_string(),
                Bound::Between(setters, BTreeMap::new()),
            ))
        }
    }
}
