//! The last systematic schedule and the last targeted plan built, kept between engine calls.

use std::sync::{Arc, Mutex};

use super::config::DetectConfig;
use crate::model::experiment::ExperimentRecord;
use crate::model::suite::Suite;
use crate::schedule::dependence::{DependenceMap, PlanInfo};
use crate::schedule::targeted::TargetedPlan;
use crate::schedule::{CostModel, Schedule};

/// A systematic strategy's orders, as built from (config, suite, baseline).
#[derive(Debug)]
pub(super) struct Built {
    pub(super) schedule: Option<Schedule>,
    /// `dependence-aware`: the clean runs after the schedule.
    pub(super) extra: Vec<Vec<String>>,
    /// `dependence-aware`: what it runs, with tuscan's for comparison.
    pub(super) info: Option<PlanInfo>,
    /// `dependence-aware`: the units as it numbers them, and the recording it was planned from.
    pub(super) recording: Option<(Vec<String>, DependenceMap)>,
}

/// Everything a [`Built`] depends on, hashed: the strategy, seed, `k`, dependence-free
/// patterns, the ranking cost model, the suite and the baseline's recording.
pub(super) fn cache_key(
    config: &DetectConfig,
    suite: &Suite,
    baselines: &[&ExperimentRecord],
    ranking: Option<&CostModel>,
) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    config.strategy.hash(&mut h);
    (config.seed, config.k).hash(&mut h);
    serde_json::to_string(suite)
        .unwrap_or_default()
        .hash(&mut h);
    serde_json::to_string(&ranking)
        .unwrap_or_default()
        .hash(&mut h);
    if config.strategy.records_baseline() {
        config.rounds.hash(&mut h);
        config.dependence_free.hash(&mut h);
        config.new_classes.hash(&mut h);
        for record in baselines {
            for r in &record.results {
                (&r.test, &r.reads, &r.writes).hash(&mut h);
            }
            for c in &record.class_state {
                (&c.class, &c.reads, &c.writes).hash(&mut h);
            }
        }
    }
    h.finish()
}

/// The last schedule built, by [`cache_key`]: the plugin calls the engine once per experiment
/// with the same inputs, and a schedule of 5,000 tests takes a good part of a second to build.
/// The result is the same with or without the cache.
pub(super) fn cached(key: u64, build: impl FnOnce() -> Built) -> Arc<Built> {
    static LAST: Mutex<Option<(u64, Arc<Built>)>> = Mutex::new(None);
    last_or(&LAST, key, build)
}

/// The last targeted plan built, by [`cache_key`], as [`cached`] keeps the last schedule.
pub(super) fn cached_targeted(key: u64, build: impl FnOnce() -> TargetedPlan) -> Arc<TargetedPlan> {
    static LAST: Mutex<Option<(u64, Arc<TargetedPlan>)>> = Mutex::new(None);
    last_or(&LAST, key, build)
}

/// What `last` holds for `key`, else `build()`, kept in `last` for the next call.
fn last_or<T>(last: &Mutex<Option<(u64, Arc<T>)>>, key: u64, build: impl FnOnce() -> T) -> Arc<T> {
    if let Ok(slot) = last.lock() {
        if let Some((k, built)) = slot.as_ref() {
            if *k == key {
                return Arc::clone(built);
            }
        }
    }
    let built = Arc::new(build());
    if let Ok(mut slot) = last.lock() {
        *slot = Some((key, Arc::clone(&built)));
    }
    built
}
