//! `odrust:merge`: one summary from the shards of one plan (`-Dodrust.shard=K/N`, docs/shards.md).
//!
//! Each shard is replayed from its own history, as [`super::summary`] does; the merged summary
//! holds every flaky test any shard found (each from one shard, named in `shard`, with that
//! shard's evidence and explanation), the failing tests no shard found flaky, the rounds and
//! experiments of all shards, and for a systematic strategy the pair coverage of all the shards'
//! rounds together. Shards of different plans (seed, strategy, rounds, suite, odrust version, ...)
//! are refused with the list of what differs.

use std::sync::Arc;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::config::{DetectConfig, RawConfig};
use super::findings::{FlakyTest, PairsCovered, Summary};
use super::replay::Replay;
use crate::error::EngineError;
use crate::model::experiment::{ExperimentKind, ExperimentRecord};
use crate::model::kind::FlakyKind;
use crate::model::suite::Suite;

/// One shard's recorded run.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardRun {
    /// Where it came from (its output directory), for messages.
    pub source: String,
    /// The odrust version that recorded it.
    pub odrust_version: String,
    /// Its `run.json` config.
    pub config: RawConfig,
    /// Its suite.
    pub suite: Suite,
    /// Its history.
    pub history: Vec<ExperimentRecord>,
}

/// Request of `detect_merge`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergeRequest {
    /// The shards, in any order.
    pub shards: Vec<ShardRun>,
}

/// One shard in a merged summary.
#[derive(Debug, Clone, Serialize)]
pub struct MergedShard {
    /// Its number, from 1.
    pub index: u32,
    /// Where it came from.
    pub source: String,
    /// Experiments it ran.
    pub experiments: usize,
    /// Rounds it ran, of its share.
    pub rounds_run: u32,
    /// Its share of the plan's rounds.
    pub rounds_planned: u32,
    /// Whether it had nothing left to run.
    pub complete: bool,
}

/// Response of `detect_merge`.
#[derive(Debug, Serialize)]
pub struct Merged {
    /// The merged summary (its flaky tests name their shard).
    pub summary: Summary,
    /// The shards, by index.
    pub shards: Vec<MergedShard>,
    /// Whether every shard was complete.
    pub complete: bool,
}

/// Merges the shards of one plan.
///
/// Errors: [`EngineError::BadConfig`] (setting `merge.from`) when there is no shard, a run is not
/// a shard, two shards have the same index, one is missing, or they are not of one plan;
/// [`EngineError::BadHistory`] when a shard's history does not follow its plan.
pub fn merge(request: MergeRequest) -> Result<Merged, EngineError> {
    let sources: Vec<String> = request.shards.iter().map(|s| s.source.clone()).collect();
    let refuse = |reason: String| EngineError::BadConfig {
        setting: "merge.from".into(),
        value: sources.join(", "),
        reason,
    };
    if request.shards.is_empty() {
        return Err(refuse(
            "no shard to merge: give the output directories of the shards (target/odrust of each `-Dodrust.shard=K/N` run)".into(),
        ));
    }
    let mut shards: Vec<(DetectConfig, &ShardRun)> = Vec::new();
    for run in &request.shards {
        let config = DetectConfig::try_from(run.config.clone())?;
        if config.shard.is_none() {
            return Err(refuse(format!(
                "{} is not a shard (its run had no -Dodrust.shard=K/N)",
                run.source
            )));
        }
        shards.push((config, run));
    }
    shards.sort_by_key(|(c, _)| c.shard.map(|s| s.index));
    let (first, first_run) = &shards[0];
    let count = first.shard.map_or(1, |s| s.count);
    let mut differences: Vec<String> = Vec::new();
    for (config, run) in &shards[1..] {
        let mut differ = |what: &str, a: String, b: String| {
            if a != b {
                differences.push(format!(
                    "{what}: {a} in {}, {b} in {}",
                    first_run.source, run.source
                ));
            }
        };
        differ("seed", first.seed.to_string(), config.seed.to_string());
        differ(
            "strategy",
            first.strategy.to_string(),
            config.strategy.to_string(),
        );
        differ(
            "rounds",
            first.rounds.to_string(),
            config.rounds.to_string(),
        );
        differ("k", first.k.to_string(), config.k.to_string());
        differ(
            "baseline tries",
            first.baseline_tries.to_string(),
            config.baseline_tries.to_string(),
        );
        differ(
            "alone runs",
            first.alone_runs.to_string(),
            config.alone_runs.to_string(),
        );
        differ(
            "dependence-free fields",
            first.dependence_free.join(","),
            config.dependence_free.join(","),
        );
        differ(
            "number of shards",
            count.to_string(),
            config.shard.map_or(1, |s| s.count).to_string(),
        );
        differ(
            "odrust version",
            first_run.odrust_version.clone(),
            run.odrust_version.clone(),
        );
        if run.suite != first_run.suite {
            differences.push(format!(
                "suite: {} and {} discovered different tests (another commit or other Surefire settings)",
                first_run.source, run.source
            ));
        }
    }
    if !differences.is_empty() {
        return Err(refuse(format!(
            "these shards are not of one plan: {}; run every shard with the same settings on the same commit",
            differences.join("; ")
        )));
    }
    let indexes: Vec<u32> = shards
        .iter()
        .map(|(c, _)| c.shard.map_or(0, |s| s.index))
        .collect();
    for pair in indexes.windows(2) {
        if pair[0] == pair[1] {
            return Err(refuse(format!(
                "shard {} of {count} is given twice",
                pair[0]
            )));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !indexes.contains(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(refuse(format!(
            "shard(s) {} of {count} missing: give every shard's output directory",
            missing.join(", ")
        )));
    }

    let mut summaries: Vec<(u32, Summary)> = Vec::new();
    let mut merged_shards: Vec<MergedShard> = Vec::new();
    let mut rounds: Vec<(crate::model::strategy::Strategy, Vec<String>)> = Vec::new();
    // The first shard's state: its schedule is the plan's.
    let mut first_state: Option<Replay> = None;
    for (config, run) in &shards {
        let index = config.shard.map_or(0, |s| s.index);
        let run_strategy = config.strategy;
        let state = Replay::run(
            Arc::new(config.clone()),
            Arc::new(run.suite.clone()),
            &run.history,
            "detect_merge",
        )?;
        let complete = state.upcoming(false).is_empty();
        let summary = state.summarize(run.history.len());
        rounds.extend(
            run.history
                .iter()
                .filter(|r| r.kind == ExperimentKind::Round)
                .map(|r| (r.strategy.unwrap_or(run_strategy), r.order.clone())),
        );
        merged_shards.push(MergedShard {
            index,
            source: run.source.clone(),
            experiments: run.history.len(),
            rounds_run: summary.rounds_run,
            rounds_planned: summary.rounds_planned,
            complete,
        });
        summaries.push((index, summary));
        first_state.get_or_insert(state);
    }
    // Pair coverage of all the shards' rounds, against the plan's schedule (the same in every
    // shard: shards of a cost-aware or dependence-aware plan are refused by the configuration).
    let pairs = first_state
        .as_ref()
        .and_then(|s| s.schedule())
        .map(|schedule| {
            let mut coverage = schedule.coverage();
            for (_, order) in &rounds {
                coverage.add(order);
            }
            PairsCovered {
                covered: coverage.covered(),
                total: schedule.pairs_total(),
            }
        });

    let mut notes: Vec<String> = Vec::new();
    let mut flaky: BTreeMap<String, (u32, FlakyTest)> = BTreeMap::new();
    let mut verdicts: BTreeMap<String, Vec<(u32, FlakyKind)>> = BTreeMap::new();
    for (index, summary) in &summaries {
        for f in &summary.flaky {
            verdicts
                .entry(f.test.clone())
                .or_default()
                .push((*index, f.kind));
            let rank = |t: &FlakyTest| match t.kind {
                FlakyKind::Nod => 3,
                FlakyKind::Od(_) if t.minimize_complete && t.minimize_experiments > 0 => 2,
                FlakyKind::Od(_) => 1,
                FlakyKind::Unclassified => 0,
            };
            let better = flaky
                .get(&f.test)
                .is_none_or(|(_, kept)| rank(f) > rank(kept));
            if better {
                let mut f = f.clone();
                f.shard = Some(*index);
                f.evidence = format!("shard {index}: {}", f.evidence);
                flaky.insert(f.test.clone(), (*index, f));
            }
        }
        for note in &summary.notes {
            if !note.starts_with(&format!("shard {index} of ")) {
                notes.push(format!("shard {index}: {note}"));
            }
        }
    }
    for (test, seen) in &verdicts {
        let kinds: BTreeSet<&str> = seen.iter().map(|(_, k)| k.name()).collect();
        if kinds.len() > 1 {
            let list: Vec<String> = seen
                .iter()
                .map(|(i, k)| format!("{} in shard {i}", k.name()))
                .collect();
            notes.push(format!(
                "`{test}` was classified differently by the shards ({}); the report keeps the {} verdict",
                list.join(", "),
                flaky[test].1.kind.name()
            ));
        }
    }
    let mut failing = Vec::new();
    let mut seen_failing = BTreeSet::new();
    for (_, summary) in &summaries {
        for f in &summary.failing {
            if !flaky.contains_key(&f.test) && seen_failing.insert(f.test.clone()) {
                failing.push(f.clone());
            }
        }
    }
    let rounds_run = summaries.iter().map(|(_, s)| s.rounds_run).sum();
    let rounds_planned = summaries.iter().map(|(_, s)| s.rounds_planned).sum();
    let experiments = summaries.iter().map(|(_, s)| s.experiments).sum();
    let complete = merged_shards.iter().all(|s| s.complete);
    let coverage = pairs.as_ref().map_or(String::new(), |p| {
        format!(", covering {} of {} pairs", p.covered, p.total)
    });
    notes.insert(
        0,
        format!(
            "merged from {count} shards (seed {}, {}): {rounds_run} of {rounds_planned} rounds{coverage}, {experiments} experiments in all; each flaky test is reported as the shard that found it saw it",
            first.seed, first.strategy
        ),
    );
    let base = &summaries[0].1;
    // The time of every shard's experiments, as if one run.
    let mut time = crate::model::experiment::TimeTally::default();
    for record in shards.iter().flat_map(|(_, run)| &run.history) {
        if let Some(t) = &record.time {
            time.add(t, record.isolation);
        }
    }
    let summary = Summary {
        seed: base.seed,
        strategy: base.strategy,
        tests_total: base.tests_total,
        results_per_run: base.results_per_run,
        experiments,
        rounds_run,
        rounds_planned,
        failing,
        flaky: flaky.into_values().map(|(_, f)| f).collect(),
        notes,
        pairs,
        plan: base.plan.clone(),
        shard: None,
        time: time.spent(),
        coverage: first_state.as_ref().and_then(|s| {
            let all: Vec<_> = rounds.iter().map(|(m, o)| (*m, o.as_slice())).collect();
            s.coverage_of(&all)
        }),
        targeted: base.targeted.clone(),
        // Each shard predicted its own phases; the merge keeps none of them.
        phases: Vec::new(),
    };
    Ok(Merged {
        summary,
        shards: merged_shards,
        complete,
    })
}
