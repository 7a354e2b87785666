//! Replaying a history: [`next`] and [`summary`], the state a history leads to, and the plan of
//! the next experiment from that state.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use super::cache::Built;
use super::config::DetectConfig;
use super::findings::{
    FailingTest, FlakyTest, NextStep, Phase, PlannedExperiment, Progress, Summary,
};
use super::phases::PhaseLog;
use super::shared::SharedRuns;
use super::units::{cut_after_last, observed_orders, subjects, Results};
use crate::error::EngineError;
use crate::model::experiment::{
    Experiment, ExperimentKind, ExperimentRecord, Isolation, TimeTally,
};
use crate::model::outcome::RunOutcome;
use crate::model::strategy::Strategy;
use crate::model::suite::{Suite, SuiteIndex, SCHEMA_VERSION};
use crate::schedule::random::reverse_order;
use crate::schedule::rounds::{reverse_passing_batch, round_order, ROUNDS_PER_BATCH};
use crate::schedule::targeted::TargetedPlan;
use crate::schedule::CostModel;

/// The next experiment to run after `history`, and the progress so far.
///
/// Errors: [`EngineError::BadRequest`] for a suite of another schema version,
/// [`EngineError::BadHistory`] when a record is not what the plan asked for.
pub fn next(
    config: &DetectConfig,
    suite: &Suite,
    history: &[ExperimentRecord],
) -> Result<NextStep, EngineError> {
    let state = Replay::run(
        Arc::new(config.clone()),
        Arc::new(suite.clone()),
        history,
        "detect_next",
    )?;
    Ok(step(&state, config.stop_rounds))
}

/// The answer of `detect_next` from the state a history led to.
pub(super) fn step(state: &Replay, stop_rounds: bool) -> NextStep {
    let batch = state.upcoming(stop_rounds);
    let experiment = batch.first().cloned();
    let phase = experiment
        .as_ref()
        .map_or(Phase::Done, |e| Phase::of(e.kind));
    let first_round = experiment
        .as_ref()
        .is_some_and(|e| e.kind == ExperimentKind::Round && e.round == Some(1));
    NextStep {
        estimate: state.baseline_done.then(|| state.estimate(stop_rounds)),
        plan: if first_round { state.plan_info() } else { None },
        targeted: if first_round {
            state.targeted.as_ref().map(|t| t.info())
        } else {
            None
        },
        experiment,
        batch: {
            let index = state.index();
            batch
                .into_iter()
                .map(|e| PlannedExperiment::new(e, &index))
                .collect()
        },
        progress: Progress {
            phase,
            rounds_done: state.rounds.len() as u32,
            rounds_total: state.rounds_total(),
            od_found: state.od.len(),
            nod_found: state.nod.len(),
            candidates: state.pending.iter().map(|p| p.candidates.len()).sum(),
            alone_left: state.alone_left(),
            explain_spent: state.minimize_spent(),
            explain_budget: if state.config.minimize {
                state.minimize_budget()
            } else {
                0
            },
        },
    }
}

/// What `history` found so far (complete or not).
///
/// Errors: as [`next`].
pub fn summary(
    config: &DetectConfig,
    suite: &Suite,
    history: &[ExperimentRecord],
) -> Result<Summary, EngineError> {
    let state = Replay::run(
        Arc::new(config.clone()),
        Arc::new(suite.clone()),
        history,
        "detect_summary",
    )?;
    Ok(state.summarize(history.len()))
}

/// A candidate of a round, waiting for its confirmations.
#[derive(Debug, Clone)]
pub(super) struct Candidate {
    /// The result id that did not pass.
    pub(super) test: String,
    /// The failure message.
    pub(super) message: Option<String>,
}

/// A round that ran.
#[derive(Debug, Clone)]
pub(super) struct RoundRun {
    pub(super) experiment: usize,
    pub(super) number: u32,
    pub(super) made_by: Strategy,
    pub(super) order: Vec<String>,
    pub(super) passed: bool,
    /// `reverse-passing`: the number of the passing round this one reverses.
    pub(super) reverse_of: Option<u32>,
    /// It ran in a JVM that ran other orders before, with fresh class loaders.
    pub(super) in_jvm: bool,
}

/// Which way a candidate differs from the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Turn {
    /// It passed in the baseline and did not pass in the round.
    FailedInRound,
    /// It failed in every baseline run and passed in the round.
    PassedInRound,
}

/// Candidates of a round being confirmed: first the round's order cut after the last one, then
/// the original order cut after the last one.
#[derive(Debug, Clone)]
pub(super) struct Pending {
    /// Index into `Replay::rounds`.
    pub(super) round: usize,
    pub(super) turn: Turn,
    pub(super) candidates: Vec<Candidate>,
    /// The rerun of the round's order (`confirm-fail` for [`Turn::FailedInRound`],
    /// `confirm-pass` for [`Turn::PassedInRound`]): its id, results and order, once it ran.
    pub(super) round_rerun: Option<(usize, Results, Vec<String>)>,
}

impl Pending {
    /// The kinds of the rerun of the round's order and of the original order.
    pub(super) fn kinds(&self) -> (ExperimentKind, ExperimentKind) {
        match self.turn {
            Turn::FailedInRound => (ExperimentKind::ConfirmFail, ExperimentKind::ConfirmPass),
            Turn::PassedInRound => (ExperimentKind::ConfirmPass, ExperimentKind::ConfirmFail),
        }
    }
}

/// What the confirmations showed about one candidate.
pub(super) enum Found {
    Od(OdTest),
    Nod(Box<FlakyTest>),
    /// A confirmation did not report it: a note.
    Nothing(String),
}

/// A confirmed OD test.
#[derive(Debug, Clone)]
pub(super) struct OdTest {
    pub(super) test: String,
    /// What an alone run runs: the test, or its dynamic container.
    pub(super) unit: String,
    /// Index into `Replay::rounds` of the round that revealed it.
    pub(super) round: usize,
    /// Whether it failed in that round, or passed there after failing in every baseline run.
    pub(super) turn: Turn,
    pub(super) message: Option<String>,
    pub(super) confirm_fail: usize,
    pub(super) confirm_pass: usize,
    /// The orders of the confirm-fail and confirm-pass experiments.
    pub(super) fail_order: Vec<String>,
    pub(super) pass_order: Vec<String>,
    /// Pass/not-pass/unknown per alone run so far that counts: every fresh-JVM run, and the
    /// shared-JVM runs that agree with the first (fresh) one.
    pub(super) alone: Vec<Option<bool>>,
    /// Of `alone`, the runs made in shared JVMs (`odrust.isolation=classloader`).
    pub(super) alone_shared: u32,
    /// Alone runs in shared JVMs whose outcome differed from the first, fresh one: not counted,
    /// and every later alone run of the test is fresh.
    pub(super) alone_set_aside: u32,
}

/// The state derived from a history.
pub(super) struct Replay {
    pub(super) config: Arc<DetectConfig>,
    pub(super) suite: Arc<Suite>,
    pub(super) original: Vec<String>,
    /// The class record of each test id (the first that lists it).
    pub(super) records: HashMap<String, usize>,
    /// Baseline runs: experiment id and results.
    pub(super) baseline: Vec<(usize, Results)>,
    pub(super) baseline_done: bool,
    /// Tests that ran (any outcome but not-run) in the first baseline run.
    pub(super) results_per_run: Option<usize>,
    /// Tests that passed in the baseline and never failed there.
    pub(super) reference: HashSet<String>,
    pub(super) failing: Vec<FailingTest>,
    pub(super) rounds: Vec<RoundRun>,
    /// Candidates waiting for their confirmations, first first (at most two: a round's failed
    /// tests, then its passed failing tests).
    pub(super) pending: Vec<Pending>,
    /// The rounds were stopped (time budget) before all of them ran, and have not resumed since.
    pub(super) stopped: bool,
    pub(super) od: Vec<OdTest>,
    pub(super) nod: Vec<FlakyTest>,
    /// Tests found OD or NOD: never candidates again.
    pub(super) classified: HashSet<String>,
    pub(super) inconclusive: Vec<String>,
    pub(super) not_honoured: Vec<usize>,
    pub(super) experiments: usize,
    /// The results of the first experiment that ran each order (minimization reuses them).
    pub(super) observed: HashMap<Vec<String>, Results>,
    /// Explanation experiments in shared JVMs, and the fresh reruns of their orders.
    pub(super) shared: SharedRuns,
    /// Minimization experiments run per OD test.
    pub(super) spent: HashMap<String, u32>,
    /// Orders of two or three units that ran (pair and triple runs), first run first: what
    /// they verified for one OD test is tried first for related ones.
    pub(super) short_orders: Vec<Vec<String>>,
    /// Per OD test, how many of `short_orders` had run when its first explanation experiment
    /// started: its culprit hints come from those only, so they never change once it started.
    pub(super) hints_frozen: HashMap<String, usize>,
    /// The same per (OD test, polluter), when its cleaner search started: the cleaner hints.
    pub(super) cleaner_hints_frozen: HashMap<(String, String), usize>,
    /// Every victim's unit when the first explanation experiment ran (`Hints::victims`).
    pub(super) victims_frozen: Option<Vec<String>>,
    /// The schedule of a systematic strategy (built once per call, when the baseline is done:
    /// `dependence-aware` and the cost-aware order need what the baseline recorded).
    pub(super) schedule: Option<Arc<Built>>,
    /// `targeted`: its orders, planned from the baseline's recording once the baseline is done.
    pub(super) targeted: Option<Arc<TargetedPlan>>,
    /// The cost model of the plan: the configured one, else the baseline's measurement.
    pub(super) cost: Option<CostModel>,
    /// What is left of the batch being run: planned together, from the state at its start.
    pub(super) batch: VecDeque<Experiment>,
    /// The baseline runs' records (systematic schedules plan from them).
    pub(super) baseline_records: Vec<ExperimentRecord>,
    /// Where the experiments' time went.
    pub(super) time: TimeTally,
    /// Each phase's experiments' time, and its prediction when it started.
    pub(super) phases: PhaseLog,
}

impl Replay {
    /// The state `history` leads to.
    ///
    /// Errors: as [`next`]; `op` names the op in a bad-request message.
    pub(super) fn run(
        config: Arc<DetectConfig>,
        suite: Arc<Suite>,
        history: &[ExperimentRecord],
        op: &str,
    ) -> Result<Self, EngineError> {
        let mut state = Replay::new(config, suite, op)?;
        for record in history {
            state.feed(record)?;
        }
        Ok(state)
    }

    /// The state of an empty history.
    ///
    /// Errors: [`EngineError::BadRequest`] for a suite of another schema version.
    pub(super) fn new(
        config: Arc<DetectConfig>,
        suite: Arc<Suite>,
        op: &str,
    ) -> Result<Self, EngineError> {
        if suite.schema_version != SCHEMA_VERSION {
            return Err(EngineError::bad_request(
                op,
                format!(
                    "suite schema_version {} is not supported (this engine reads {SCHEMA_VERSION})",
                    suite.schema_version
                ),
            ));
        }
        let cost = config.cost.clone();
        let mut records = HashMap::new();
        for (record, class) in suite.classes.iter().enumerate() {
            for id in &class.tests {
                records.entry(id.clone()).or_insert(record);
            }
        }
        Ok(Replay {
            original: suite.original_order(),
            records,
            config,
            suite,
            baseline: Vec::new(),
            baseline_done: false,
            results_per_run: None,
            reference: HashSet::new(),
            failing: Vec::new(),
            rounds: Vec::new(),
            pending: Vec::new(),
            stopped: false,
            od: Vec::new(),
            nod: Vec::new(),
            classified: HashSet::new(),
            inconclusive: Vec::new(),
            not_honoured: Vec::new(),
            experiments: 0,
            observed: HashMap::new(),
            short_orders: Vec::new(),
            hints_frozen: HashMap::new(),
            cleaner_hints_frozen: HashMap::new(),
            victims_frozen: None,
            spent: HashMap::new(),
            shared: SharedRuns::default(),
            schedule: None,
            targeted: None,
            cost,
            batch: VecDeque::new(),
            baseline_records: Vec::new(),
            time: TimeTally::default(),
            phases: PhaseLog::default(),
        })
    }

    /// The suite's index.
    pub(super) fn index(&self) -> SuiteIndex<'_> {
        SuiteIndex::new(&self.suite)
    }

    /// The index of the class record that lists `id`.
    pub(super) fn record_of(&self, id: &str) -> Option<usize> {
        self.records.get(id).copied()
    }

    /// Takes in the next record of the history: the state is then the one of the history up to
    /// it, exactly as [`Replay::run`] over that prefix would give.
    ///
    /// Errors: [`EngineError::BadHistory`] when the record is not what the plan asked for (the
    /// state is then unusable).
    pub(super) fn feed(&mut self, record: &ExperimentRecord) -> Result<(), EngineError> {
        let position = self.experiments + 1;
        self.log_phase(record);
        // Explanation experiments are observations, whatever explanation settings planned
        // them: a run may resume with another budget, or with minimization off. Those planned
        // together (a batch: unrelated OD tests' next experiments) are followed as a batch, so
        // that the rest of it is what comes next; a record that starts no batch the state plans
        // now is taken as it is.
        if record.kind.is_minimize()
            && record.id == position
            && self.baseline_done
            && self.detection_batch(false).is_empty()
        {
            if !self.batch.front().is_some_and(|p| matches(record, p)) {
                self.batch = self.new_batch(false).into();
                if !self.batch.front().is_some_and(|p| matches(record, p)) {
                    self.batch.clear();
                }
            }
            self.batch.pop_front();
            self.absorb(record, &Experiment::of(record));
            return Ok(());
        }
        if self.batch.is_empty() {
            self.batch = self.new_batch(false).into();
        }
        let mut followed = self.batch.front().filter(|p| matches(record, p)).cloned();
        // A round was due, but the rounds were stopped (time budget) before it started.
        if followed.is_none() && self.batch.front().map(|p| p.kind) == Some(ExperimentKind::Round) {
            let stopped = self.new_batch(true);
            if stopped.first().is_some_and(|s| matches(record, s)) {
                self.stopped = true;
                self.batch = stopped.into();
                followed = self.batch.front().cloned();
            }
        }
        let Some(followed) = followed else {
            return Err(EngineError::BadHistory {
                id: position,
                reason: mismatch(record, self.batch.front(), position),
            });
        };
        self.batch.pop_front();
        if record.kind == ExperimentKind::Baseline {
            self.baseline_records.push(record.clone());
        }
        self.absorb(record, &followed);
        if self.baseline_done && self.schedule.is_none() {
            self.build_schedule();
        }
        if self.baseline_done && self.targeted.is_none() {
            self.build_targeted();
        }
        Ok(())
    }

    /// The experiments still to run, first first: what is left of the batch being run, or a new
    /// batch. With `stop` (the time budget is spent), nothing new starts but the baseline and
    /// pending confirmations: what is left of a batch of rounds, alone runs or explanation
    /// experiments is dropped.
    pub(super) fn upcoming(&self, stop: bool) -> Vec<Experiment> {
        let stopping = stop
            && self.batch.front().is_some_and(|p| {
                !matches!(
                    p.kind,
                    ExperimentKind::Baseline
                        | ExperimentKind::ConfirmFail
                        | ExperimentKind::ConfirmPass
                )
            });
        if self.batch.is_empty() || stopping {
            self.new_batch(stop)
        } else {
            self.batch.iter().cloned().collect()
        }
    }

    /// The experiments of detection itself (baseline, rounds, confirmations, alone runs) that
    /// can run next without waiting for each other's outcomes, numbered from the next id: one
    /// baseline run; or the confirmations of every pending round; or up to
    /// [`ROUNDS_PER_BATCH`] rounds; or one alone run of each OD test that needs one. With `stop`
    /// (the time budget is spent), no new round starts and no alone run either.
    pub(super) fn detection_batch(&self, stop: bool) -> Vec<Experiment> {
        let mut id = self.experiments;
        let mut experiment = |kind, round, strategy, order, targets| {
            id += 1;
            Experiment {
                id,
                kind,
                round,
                strategy,
                shareable: kind == ExperimentKind::Round,
                order,
                targets,
            }
        };
        if self.original.is_empty() {
            return Vec::new();
        }
        if !self.baseline_done {
            return vec![experiment(
                ExperimentKind::Baseline,
                None,
                Some(Strategy::Original),
                self.original.clone(),
                vec![],
            )];
        }
        if !self.pending.is_empty() {
            // Each round's order rerun, round by round; then the original order once for all the
            // candidates of the batch that failed in their round (and once for those that passed
            // in theirs), cut after the last of them: the original order is the same for every
            // round, so one run confirms them all.
            let mut batch = Vec::new();
            for pending in &self.pending {
                if pending.round_rerun.is_some() {
                    continue;
                }
                let round = &self.rounds[pending.round];
                let targets: Vec<String> =
                    pending.candidates.iter().map(|c| c.test.clone()).collect();
                batch.push(experiment(
                    pending.kinds().0,
                    Some(round.number),
                    Some(round.made_by),
                    cut_after_last(&round.order, &targets),
                    targets,
                ));
            }
            for turn in [Turn::FailedInRound, Turn::PassedInRound] {
                let served: Vec<&Pending> =
                    self.pending.iter().filter(|p| p.turn == turn).collect();
                let Some(first) = served.first() else {
                    continue;
                };
                let mut targets: Vec<String> = Vec::new();
                for c in served.iter().flat_map(|p| &p.candidates) {
                    if !targets.contains(&c.test) {
                        targets.push(c.test.clone());
                    }
                }
                // The round it confirms, when it confirms one round only.
                let number = self.rounds[first.round].number;
                let round = served
                    .iter()
                    .all(|p| self.rounds[p.round].number == number)
                    .then_some(number);
                batch.push(experiment(
                    first.kinds().1,
                    round,
                    Some(Strategy::Original),
                    cut_after_last(&self.original, &targets),
                    targets,
                ));
            }
            return batch;
        }
        let done = self.rounds.len() as u32;
        let total = self.rounds_total();
        if !stop && done < total {
            let remaining = total - done;
            let mut planned: Vec<(Strategy, Vec<String>)> = Vec::new();
            if let Some(schedule) = self.schedule() {
                for slot in done..done + remaining.min(ROUNDS_PER_BATCH) {
                    let number = u64::from(self.round_number(slot));
                    planned.push((
                        self.config.strategy,
                        match (number - 1).checked_sub(schedule.len()) {
                            None => schedule.order(number - 1),
                            Some(extra) => self.extra()[extra as usize].clone(),
                        },
                    ));
                }
            } else if self.config.strategy == Strategy::Targeted
                && u64::from(self.round_number(done)) <= self.targeted_rounds()
            {
                // The targeted orders first (plan rounds 1 to T), a batch of them at a time.
                let targeted = self.targeted.as_ref().expect("built with the baseline");
                let mut slot = done;
                while slot < total
                    && planned.len() < ROUNDS_PER_BATCH as usize
                    && u64::from(self.round_number(slot)) <= self.targeted_rounds()
                {
                    let number = self.round_number(slot) as usize;
                    planned.push((Strategy::Targeted, targeted.orders[number - 1].clone()));
                    slot += 1;
                }
            } else if matches!(
                self.config.strategy,
                Strategy::ReversePassing | Strategy::Targeted
            ) {
                let unreversed = self.unreversed();
                let (reverses, random) =
                    reverse_passing_batch(remaining, unreversed.len() as u32, ROUNDS_PER_BATCH);
                let index = self.index();
                for round in &unreversed[..reverses as usize] {
                    planned.push((
                        Strategy::ReversePassing,
                        reverse_order(&round.order, &index),
                    ));
                }
                for slot in done + reverses..done + reverses + random {
                    planned.push(round_order(
                        Strategy::ReversePassing,
                        &self.suite,
                        self.config.seed,
                        self.round_number(slot),
                    ));
                }
            } else {
                for slot in done..done + remaining.min(ROUNDS_PER_BATCH) {
                    planned.push(round_order(
                        self.config.strategy,
                        &self.suite,
                        self.config.seed,
                        self.round_number(slot),
                    ));
                }
            }
            return planned
                .into_iter()
                .enumerate()
                .map(|(i, (made_by, order))| {
                    experiment(
                        ExperimentKind::Round,
                        Some(self.round_number(done + i as u32)),
                        Some(made_by),
                        order,
                        vec![],
                    )
                })
                .collect();
        }
        if stop {
            return Vec::new();
        }
        self.od
            .iter()
            .filter(|od| self.needs_alone_run(od))
            .map(|od| {
                let mut alone = experiment(
                    ExperimentKind::Alone,
                    None,
                    None,
                    vec![od.unit.clone()],
                    vec![od.test.clone()],
                );
                alone.shareable = Self::alone_shareable(od);
                alone
            })
            .collect()
    }

    /// The plan's number of this run's `slot`-th round (from 0): `slot + 1`, or for a shard its
    /// share's.
    pub(super) fn round_number(&self, slot: u32) -> u32 {
        self.config.shard.map_or(slot + 1, |s| s.round(slot))
    }

    /// `reverse-passing`: the random rounds that passed and are not reversed yet, first first.
    pub(super) fn unreversed(&self) -> Vec<&RoundRun> {
        self.rounds
            .iter()
            .filter(|r| {
                r.made_by == Strategy::RandomClassMethod
                    && r.passed
                    && !self.rounds.iter().any(|x| x.reverse_of == Some(r.number))
            })
            .collect()
    }

    /// The next batch: detection's, else (unless `stop`) the next explanation experiment, alone
    /// (each is planned from the outcomes of the ones before).
    pub(super) fn new_batch(&self, stop: bool) -> Vec<Experiment> {
        let detection = self.detection_batch(stop);
        if !detection.is_empty() || stop || self.original.is_empty() {
            return detection;
        }
        self.plan_minimization_batch()
            .into_iter()
            .enumerate()
            .map(|(i, next)| Experiment {
                id: self.experiments + 1 + i,
                kind: next.query.kind,
                round: None,
                strategy: None,
                order: next.query.order,
                targets: next.query.targets,
                shareable: next.shareable,
            })
            .collect()
    }

    /// Takes in one finished experiment, which is the `planned` one.
    pub(super) fn absorb(&mut self, record: &ExperimentRecord, planned: &Experiment) {
        self.experiments += 1;
        if let Some(time) = &record.time {
            self.time.add(time, record.isolation);
        }
        if !record.honoured {
            self.not_honoured.push(record.id);
        }
        let results = Results::of(record);
        if record.kind.is_minimize() {
            if self.victims_frozen.is_none() {
                self.victims_frozen = Some(self.victim_units());
            }
            let known = self.short_orders.len();
            if let Some(target) = record.targets.first() {
                self.hints_frozen.entry(target.clone()).or_insert(known);
            }
            if let (ExperimentKind::Cleaner, [target, polluter, ..]) =
                (record.kind, record.targets.as_slice())
            {
                self.cleaner_hints_frozen
                    .entry((target.clone(), polluter.clone()))
                    .or_insert(known);
            }
        }
        if !self.observed.contains_key(&record.order) && (2..=3).contains(&record.order.len()) {
            self.short_orders.push(record.order.clone());
        }
        let subjects = subjects(record);
        self.freeze_served(record, subjects, &results);
        for order in observed_orders(record, subjects) {
            let results = if order == record.order {
                results.clone()
            } else {
                results.within(&order)
            };
            let earlier = self.observed.get(&order);
            self.shared.absorb(record, &order, &results, earlier);
            self.observed.entry(order).or_insert(results);
        }
        if record.kind.is_minimize() {
            if let Some(target) = record.targets.first() {
                *self.spent.entry(target.clone()).or_insert(0) += 1;
            }
        }
        match record.kind {
            ExperimentKind::Baseline => {
                if self.baseline.is_empty() {
                    let ran: HashSet<&str> = record
                        .results
                        .iter()
                        .filter(|r| r.outcome != RunOutcome::NotRun)
                        .map(|r| r.test.as_str())
                        .collect();
                    self.results_per_run = Some(ran.len());
                }
                let all_passed = !results.0.values().any(|(v, _)| *v == Some(false));
                self.baseline.push((record.id, results));
                if all_passed || self.baseline.len() as u32 >= self.config.baseline_tries {
                    self.finish_baseline(record);
                }
            }
            ExperimentKind::Round => self.absorb_round(record, planned, &results),
            ExperimentKind::ConfirmFail | ExperimentKind::ConfirmPass => {
                if let Some(pending) = self.pending.iter_mut().find(|p| p.round_rerun.is_none()) {
                    // A rerun of a round's order.
                    pending.round_rerun = Some((record.id, results, record.order.clone()));
                } else {
                    // The original order, for every pending round whose candidates it confirms.
                    let (served, rest): (Vec<Pending>, Vec<Pending>) =
                        std::mem::take(&mut self.pending)
                            .into_iter()
                            .partition(|p| p.kinds().1 == record.kind);
                    self.pending = rest;
                    for pending in served {
                        self.absorb_confirmations(pending, record.id, &results, &record.order);
                    }
                }
            }
            ExperimentKind::Alone => {
                let target = record.targets.first().map(String::as_str);
                if let Some(od) = self
                    .od
                    .iter_mut()
                    .find(|od| Some(od.test.as_str()) == target)
                {
                    let outcome = results.passed(&od.test);
                    if record.isolation == Isolation::Jvm {
                        od.alone.push(outcome);
                    } else if outcome.is_some() && od.alone.first() == Some(&outcome) {
                        od.alone.push(outcome);
                        od.alone_shared += 1;
                    } else {
                        od.alone_set_aside += 1;
                    }
                }
            }
            // Minimization keeps no state: `plan` reads `observed` and `spent`.
            ExperimentKind::PolluterSearch
            | ExperimentKind::PolluterPair
            | ExperimentKind::Cleaner
            | ExperimentKind::SetterSearch
            | ExperimentKind::SetterPair => {}
        }
    }
}

/// Whether `record` is the experiment `planned`.
pub(super) fn matches(record: &ExperimentRecord, planned: &Experiment) -> bool {
    record.id == planned.id
        && record.kind == planned.kind
        && record.round == planned.round
        && record.order == planned.order
        && record.targets == planned.targets
}

/// Why `record` is not `planned`, for [`EngineError::BadHistory`].
pub(super) fn mismatch(
    record: &ExperimentRecord,
    planned: Option<&Experiment>,
    position: usize,
) -> String {
    let Some(planned) = planned else {
        return "detection was already complete before it".to_string();
    };
    let kind = |k: ExperimentKind| {
        serde_json::to_value(k)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    };
    if record.id != position {
        format!("its id is {}, expected {position}", record.id)
    } else if record.kind != planned.kind {
        format!(
            "it is a `{}` experiment where a `{}` experiment was planned",
            kind(record.kind),
            kind(planned.kind)
        )
    } else if record.round != planned.round {
        format!(
            "its round is {:?}, expected {:?}",
            record.round, planned.round
        )
    } else if record.order != planned.order {
        let at = record
            .order
            .iter()
            .zip(&planned.order)
            .position(|(a, b)| a != b)
            .unwrap_or(record.order.len().min(planned.order.len()));
        format!(
            "its order differs from the planned order at position {}",
            at + 1
        )
    } else {
        "its targets differ from the planned targets".to_string()
    }
}
