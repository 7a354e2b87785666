//! Rounds: building a systematic schedule once the baseline is done, and taking in a round's
//! results (its candidates).

use std::collections::HashSet;
use std::sync::Arc;

use super::cache::{cache_key, cached, cached_targeted, Built};
use super::replay::{Candidate, Pending, Replay, RoundRun, Turn};
use super::units::Results;
use crate::model::experiment::{Experiment, ExperimentRecord, Isolation};
use crate::model::strategy::Strategy;
use crate::schedule::dependence::{describe, DependenceMap, PlanInfo};
use crate::schedule::random::reverse_order;
use crate::schedule::Schedule;

impl Replay {
    /// Builds the schedule of a systematic strategy once the baseline is done: `dependence-aware`
    /// covers only the pairs the baseline's recording makes possibly dependent, and with
    /// `cost_aware` (and no configured cost) the orders are ranked by the baseline's timings.
    pub(super) fn build_schedule(&mut self) {
        let config = Arc::clone(&self.config);
        if !config.strategy.is_systematic() {
            return;
        }
        let baselines: Vec<&ExperimentRecord> = self.baseline_records.iter().collect();
        let ranking = if config.cost.is_some() || config.cost_aware {
            self.cost.as_ref()
        } else {
            None
        };
        let key = cache_key(&config, &self.suite, &baselines, ranking);
        self.schedule = Some(cached(key, || {
            if config.strategy == Strategy::DependenceAware {
                let plan = crate::schedule::dependence::plan(
                    &self.suite,
                    &baselines,
                    &config.dependence_free,
                    config.seed,
                    ranking,
                    self.cost.as_ref(),
                );
                Built {
                    schedule: Some(plan.schedule),
                    extra: plan.extra,
                    info: Some(plan.info),
                    recording: Some((crate::schedule::unit_ids(&self.suite), plan.map)),
                }
            } else {
                Built {
                    schedule: Schedule::new(
                        config.strategy,
                        &self.suite,
                        config.seed,
                        config.k,
                        ranking,
                    ),
                    extra: Vec::new(),
                    info: None,
                    recording: None,
                }
            }
        }));
    }

    /// Plans the orders of `targeted` once the baseline is done, from its recording: at most
    /// [`max_orders`](crate::schedule::targeted::max_orders)`(rounds)` of them, so that random
    /// rounds follow.
    pub(super) fn build_targeted(&mut self) {
        if self.config.strategy != Strategy::Targeted {
            return;
        }
        let config = Arc::clone(&self.config);
        let baselines: Vec<&ExperimentRecord> = self.baseline_records.iter().collect();
        let key = cache_key(&config, &self.suite, &baselines, None);
        self.targeted = Some(cached_targeted(key, || {
            crate::schedule::targeted::plan_new_first(
                &self.suite,
                &baselines,
                &config.dependence_free,
                config.seed,
                crate::schedule::targeted::max_orders(config.rounds),
                &config.new_classes,
            )
        }));
    }

    /// `targeted`: how many of the plan's first rounds are targeted orders (0 before the
    /// baseline is done, and for other strategies).
    pub(super) fn targeted_rounds(&self) -> u64 {
        self.targeted.as_ref().map_or(0, |t| t.orders.len() as u64)
    }

    /// The baseline's recording, once planned from (`targeted`, `dependence-aware`): the units
    /// as it numbers them, and the map.
    pub(super) fn recording(&self) -> Option<(&[String], &DependenceMap)> {
        if let Some(plan) = &self.targeted {
            return Some((&plan.units, &plan.map));
        }
        let (units, map) = self.schedule.as_ref()?.recording.as_ref()?;
        Some((units, map))
    }

    /// The schedule of a systematic strategy, once built.
    pub(super) fn schedule(&self) -> Option<&Schedule> {
        self.schedule.as_ref().and_then(|b| b.schedule.as_ref())
    }

    /// `dependence-aware`: rounds after the schedule's ([`DependenceMap::clean_runs`]).
    pub(super) fn extra(&self) -> &[Vec<String>] {
        self.schedule.as_ref().map_or(&[], |b| b.extra.as_slice())
    }

    /// What the schedule runs and its predicted cost (`dependence-aware`: with tuscan's for
    /// comparison).
    pub(super) fn plan_info(&self) -> Option<PlanInfo> {
        let built = self.schedule.as_ref()?;
        if let Some(info) = &built.info {
            return Some(info.clone());
        }
        Some(describe(built.schedule.as_ref()?, &[], self.cost.as_ref()))
    }

    /// Rounds to run: `rounds`, or the schedule's size when that is smaller; for a shard, its
    /// share of those.
    pub(super) fn rounds_total(&self) -> u32 {
        let total = match self.schedule() {
            Some(schedule) => (schedule.len() + self.extra().len() as u64)
                .min(u64::from(self.config.rounds)) as u32,
            // A systematic schedule is built when the baseline is done.
            None if self.baseline_done && self.config.strategy.is_systematic() => 0,
            None => self.config.rounds,
        };
        self.config.shard.map_or(total, |s| s.share(total))
    }

    /// Whether `test` is a candidate of a round whose confirmations have not run yet: rounds of
    /// one batch run before the confirmations of any of them, and a test is confirmed once.
    fn is_pending(&self, test: &str) -> bool {
        self.pending
            .iter()
            .any(|p| p.candidates.iter().any(|c| c.test == test))
    }

    pub(super) fn absorb_round(
        &mut self,
        record: &ExperimentRecord,
        planned: &Experiment,
        results: &Results,
    ) {
        let mut candidates: Vec<Candidate> = Vec::new();
        // Failing tests (failed in every baseline run) that passed in this round.
        let mut turned: Vec<Candidate> = Vec::new();
        let failing: HashSet<&str> = self.failing.iter().map(|f| f.test.as_str()).collect();
        let mut passed = true;
        for r in &record.results {
            if failing.contains(r.test.as_str()) {
                // A test reported twice must have passed every time (`Results` keeps the worst).
                if results.passed(&r.test) == Some(true)
                    && !self.classified.contains(&r.test)
                    && !self.is_pending(&r.test)
                    && !turned.iter().any(|c| c.test == r.test)
                {
                    turned.push(Candidate {
                        test: r.test.clone(),
                        message: None,
                    });
                }
                continue;
            }
            if r.outcome.passed() != Some(false) || !self.reference.contains(&r.test) {
                continue;
            }
            passed = false;
            if !self.classified.contains(&r.test)
                && !self.is_pending(&r.test)
                && !candidates.iter().any(|c| c.test == r.test)
            {
                candidates.push(Candidate {
                    test: r.test.clone(),
                    message: results.message(&r.test),
                });
            }
        }
        let made_by = planned.strategy.unwrap_or(self.config.strategy);
        // The first passing random round not reversed yet whose reverse this is.
        let reverse_of = (made_by == Strategy::ReversePassing)
            .then(|| {
                let index = self.index();
                self.unreversed()
                    .into_iter()
                    .find(|r| reverse_order(&r.order, &index) == planned.order)
                    .map(|r| r.number)
            })
            .flatten();
        // A round after a stop: the run was resumed.
        self.stopped = false;
        self.rounds.push(RoundRun {
            experiment: record.id,
            number: planned.round.unwrap_or(self.rounds.len() as u32 + 1),
            made_by,
            order: planned.order.clone(),
            passed,
            reverse_of,
            in_jvm: record.isolation == Isolation::Classloader,
        });
        for (turn, candidates) in [
            (Turn::FailedInRound, candidates),
            (Turn::PassedInRound, turned),
        ] {
            if !candidates.is_empty() {
                self.pending.push(Pending {
                    round: self.rounds.len() - 1,
                    turn,
                    candidates,
                    round_rerun: None,
                });
            }
        }
    }
}

/// "round 4 (random-class-method, experiment 9)", or for the reverse of a passing round
/// "round 4 (the reverse of round 3, which passed; experiment 9)".
pub(super) fn round_text(round: &RoundRun) -> String {
    let text = match round.made_by {
        Strategy::ReversePassing => match round.reverse_of {
            Some(of) => format!(
                "round {} (the reverse of round {of}, which passed; experiment {})",
                round.number, round.experiment
            ),
            None => format!(
                "round {} (the reverse of an earlier round, which passed; experiment {})",
                round.number, round.experiment
            ),
        },
        made_by => format!(
            "round {} ({made_by}, experiment {})",
            round.number, round.experiment
        ),
    };
    match text.strip_suffix(')') {
        // The evidence says where the round ran (its confirmations ran in fresh JVMs).
        Some(open) if round.in_jvm => {
            format!("{open}, in a shared JVM with fresh class loaders)")
        }
        _ => text,
    }
}
