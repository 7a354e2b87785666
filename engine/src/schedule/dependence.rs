//! Dependence-aware planning: which ordered test pairs can interact through static state.
//!
//! DTDetector's dependence-aware algorithm (Zhang et al., "Empirically Revisiting the Test
//! Independence Assumption", ISSTA 2014, section 4.4): when a test reads no static field that an
//! earlier test wrote, it behaves as it does without them, so an order (or a consecutive pair)
//! in which no test reads what an earlier one wrote cannot reveal a dependence and need not run.
//!
//! The jvm-agent records, in the baseline runs of the original order, the static fields each test
//! reads and writes (`reads` / `writes` of each result; a read of a field that may hold a mutable
//! object already counts as a write there, since `MAP.put` mutates through a read) and what each
//! class's fixtures touch outside any test (`class_state`, added to every test of that class). A
//! [`DependenceMap`] keeps, per unit, the fields as bit sets and answers
//! [`depends(a, b)`](DependenceMap::depends): may `b` read something `a` wrote? A unit with no
//! recording at all (it did not run, or the run was not recorded) is taken to touch everything.
//! Fields matching a dependence-free pattern (`odrust.dependence.free`) are ignored.
//! What the recording can and cannot see: `docs/dependence.md`.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::model::experiment::ExperimentRecord;
use crate::model::suite::Suite;
use crate::model::testid::container_of;
use crate::schedule::{CostModel, Schedule};

/// Per-unit static field accesses, and the ordered pairs they make possibly dependent.
#[derive(Debug, Clone)]
pub struct DependenceMap {
    /// Fields read, one bit set per unit (bit `f` = field `fields[f]`).
    reads: Vec<Vec<u64>>,
    /// Fields written (including reads of possibly mutable objects), per unit.
    writes: Vec<Vec<u64>>,
    /// Units with no recording: possibly dependent on and for every other unit.
    unrecorded: Vec<bool>,
    /// Field names, by bit.
    fields: Vec<String>,
    /// Per field, how many recorded units write it.
    writers: Vec<u32>,
}

impl DependenceMap {
    /// The accesses of `units` (the schedule's units: test ids and dynamic containers) recorded in
    /// `records` (the baseline runs; their union counts), without the fields matching one of the
    /// `dependence_free` patterns (`*` matches any text).
    pub fn from_records(
        suite: &Suite,
        units: &[String],
        records: &[&ExperimentRecord],
        dependence_free: &[String],
    ) -> DependenceMap {
        let unit_index: HashMap<&str, usize> = units
            .iter()
            .enumerate()
            .map(|(i, u)| (u.as_str(), i))
            .collect();
        let unit_of = |id: &str| -> Option<usize> {
            unit_index
                .get(id)
                .or_else(|| unit_index.get(container_of(id)))
                .copied()
        };
        let mut field_index: BTreeMap<String, usize> = BTreeMap::new();
        let mut fields: Vec<String> = Vec::new();
        let mut field = |name: &str| -> Option<usize> {
            if dependence_free.iter().any(|p| glob(p, name)) {
                return None;
            }
            if let Some(&f) = field_index.get(name) {
                return Some(f);
            }
            fields.push(name.to_string());
            field_index.insert(name.to_string(), fields.len() - 1);
            Some(fields.len() - 1)
        };
        let mut reads: Vec<Vec<usize>> = vec![Vec::new(); units.len()];
        let mut writes: Vec<Vec<usize>> = vec![Vec::new(); units.len()];
        let mut recorded = vec![false; units.len()];
        // Class-level accesses go to every unit of the class.
        let mut class_units: HashMap<&str, Vec<usize>> = HashMap::new();
        for record in &suite.classes {
            for id in &record.tests {
                if let Some(u) = unit_index.get(id.as_str()) {
                    class_units
                        .entry(record.class.as_str())
                        .or_default()
                        .push(*u);
                }
            }
        }
        for record in records {
            for result in &record.results {
                let Some(u) = unit_of(&result.test) else {
                    continue;
                };
                if result.reads.is_some() || result.writes.is_some() {
                    recorded[u] = true;
                }
                for name in result.reads.iter().flatten() {
                    reads[u].extend(field(name));
                }
                for name in result.writes.iter().flatten() {
                    writes[u].extend(field(name));
                }
            }
            for state in &record.class_state {
                let Some(members) = class_units.get(state.class.as_str()) else {
                    continue;
                };
                let r: Vec<usize> = state.reads.iter().filter_map(|n| field(n)).collect();
                let w: Vec<usize> = state.writes.iter().filter_map(|n| field(n)).collect();
                for &u in members {
                    reads[u].extend(&r);
                    writes[u].extend(&w);
                }
            }
        }
        let words = fields.len().div_ceil(64);
        let bits = |sets: Vec<Vec<usize>>| -> Vec<Vec<u64>> {
            sets.into_iter()
                .map(|set| {
                    let mut b = vec![0u64; words];
                    for f in set {
                        b[f / 64] |= 1 << (f % 64);
                    }
                    b
                })
                .collect()
        };
        let mut writers = vec![0u32; fields.len()];
        for (u, set) in writes.iter().enumerate() {
            if recorded[u] {
                let distinct: std::collections::BTreeSet<&usize> = set.iter().collect();
                for f in distinct {
                    writers[*f] += 1;
                }
            }
        }
        DependenceMap {
            reads: bits(reads),
            writes: bits(writes),
            unrecorded: recorded.iter().map(|r| !r).collect(),
            fields,
            writers,
        }
    }

    /// Whether unit `b` may read a static field that unit `a` wrote (so `[a, b]` may reveal a
    /// dependence): always for a unit without a recording.
    pub fn depends(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        if a == b {
            return false;
        }
        if self.unrecorded[a] || self.unrecorded[b] {
            return true;
        }
        self.writes_read(a, b)
    }

    /// Whether some field unit `a` wrote is one unit `b` read (their recordings only).
    fn writes_read(&self, a: usize, b: usize) -> bool {
        self.writes[a]
            .iter()
            .zip(&self.reads[b])
            .any(|(w, r)| w & r != 0)
    }

    /// Whether unit `b` read a static field that unit `a` wrote, both recorded: the pairs a
    /// targeted order puts next to each other (a unit without a recording is left to the random
    /// rounds).
    pub fn writes_what_it_reads(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        a != b && !self.unrecorded[a] && !self.unrecorded[b] && self.writes_read(a, b)
    }

    /// Whether unit `u` has a recording.
    pub fn is_recorded(&self, u: u32) -> bool {
        !self.unrecorded[u as usize]
    }

    /// Units without a recording.
    pub fn unrecorded(&self) -> usize {
        self.unrecorded.iter().filter(|u| **u).count()
    }

    /// Distinct fields that count (after the dependence-free patterns).
    pub fn field_count(&self) -> usize {
        self.fields.len()
    }

    /// Whether `u`, run after the units of `before`, sees only what it would see alone: nothing
    /// before it is unrecorded or writes a field it reads (an unrecorded `u` only when first).
    fn clean_after(&self, u: usize, written: &[u64], any_unrecorded: bool) -> bool {
        if any_unrecorded {
            return false;
        }
        if self.unrecorded[u] {
            return written.iter().all(|w| *w == 0);
        }
        written.iter().zip(&self.reads[u]).all(|(w, r)| w & r == 0)
    }

    /// Orders that run, without anything it reads written before it, every unit that reads some
    /// field and is never run that way by `orders`: a brittle (fails unless a state-setter runs
    /// first) passes in the original order and, covered by pairs alone, might only ever run
    /// after its setter. DTDetector runs every test alone for this; these orders pack such units
    /// together (in unit order, so classes stay contiguous) while none writes what a later one
    /// reads.
    pub fn clean_runs<I>(&self, orders: I) -> Vec<Vec<u32>>
    where
        I: IntoIterator<Item = Vec<u32>>,
    {
        let n = self.reads.len();
        let words = self.fields.len().div_ceil(64);
        let mut clean = vec![false; n];
        for order in orders {
            let mut written = vec![0u64; words];
            let mut any_unrecorded = false;
            for u in order {
                let u = u as usize;
                if !clean[u] && self.clean_after(u, &written, any_unrecorded) {
                    clean[u] = true;
                }
                any_unrecorded |= self.unrecorded[u];
                for (w, x) in written.iter_mut().zip(&self.writes[u]) {
                    *w |= x;
                }
            }
        }
        let mut runs: Vec<Vec<u32>> = Vec::new();
        let mut written = vec![0u64; words];
        let mut any_unrecorded = false;
        for (u, clean) in clean.into_iter().enumerate() {
            let reads_something = self.unrecorded[u] || self.reads[u].iter().any(|r| *r != 0);
            if clean || !reads_something {
                continue;
            }
            if runs.is_empty() || !self.clean_after(u, &written, any_unrecorded) {
                runs.push(Vec::new());
                written.iter_mut().for_each(|w| *w = 0);
                any_unrecorded = false;
            }
            runs.last_mut().expect("pushed").push(u as u32);
            any_unrecorded |= self.unrecorded[u];
            for (w, x) in written.iter_mut().zip(&self.writes[u]) {
                *w |= x;
            }
        }
        runs
    }

    /// The culprits the recording names for OD test `subject` among `prefix` (its failing
    /// order's prefix for a victim, its passing order's for a brittle): the specific writers of
    /// what it read there ([`DependenceMap::writers_read_by`]), most specific first, at most about
    /// the depth of a binary search over the prefix (⌈log2 prefix⌉, 1 to
    /// [`MAX_RECORDED_CULPRITS`]). An explanation tries each by its own pair run before it group
    /// tests the prefix (docs/minimize-algorithm.md, "Tests the recording names"). The
    /// planner and the `explain-cost` example both choose through this (the planner, with the
    /// tests' times, through [`DependenceMap::culprit_candidates_within`]).
    pub fn culprit_candidates(&self, subject: u32, prefix: &HashSet<u32>) -> Vec<u32> {
        self.culprit_candidates_within(subject, prefix, |_| 0, 0)
    }

    /// [`DependenceMap::culprit_candidates`], then more of the same writers (up to
    /// [`MAX_RECORDED_CULPRITS_BY_COST`] in all) while the pair runs of all of them together,
    /// at `pair_ms` each, cost less than `limit_ms` (with `odrust.costAware`: one run of the
    /// prefix).
    pub fn culprit_candidates_within(
        &self,
        subject: u32,
        prefix: &HashSet<u32>,
        pair_ms: impl Fn(u32) -> u64,
        limit_ms: u64,
    ) -> Vec<u32> {
        let depth = usize::BITS - prefix.len().saturating_sub(1).leading_zeros();
        let cap = (depth as usize).clamp(1, MAX_RECORDED_CULPRITS);
        let mut spent = 0u64;
        let mut out: Vec<u32> = Vec::new();
        for u in self
            .writers_read_by(subject)
            .into_iter()
            .filter(|u| prefix.contains(u))
        {
            spent = spent.saturating_add(pair_ms(u));
            if out.len() >= cap && (out.len() >= MAX_RECORDED_CULPRITS_BY_COST || spent >= limit_ms)
            {
                break;
            }
            out.push(u);
        }
        out
    }

    /// The cleaners the recording names for `polluter` of victim `subject`: its rewriters
    /// ([`DependenceMap::rewriters`]), at most [`MAX_RECORDED_CLEANERS`]. An explanation tries
    /// each by its own triple run after the cleaners other victims verified.
    pub fn cleaner_candidates(&self, polluter: u32, subject: u32) -> Vec<u32> {
        let mut out = self.rewriters(polluter, subject);
        out.truncate(MAX_RECORDED_CLEANERS);
        out
    }

    /// Units whose recording writes a specific field `subject` read (see
    /// [`SPECIFIC_SHARE`]), most specific first: by how many units write the rarest such field,
    /// then in unit order. These are the likeliest culprits of
    /// an OD test `subject` (a polluter or state-setter changes what it reads); empty when
    /// `subject` is unrecorded.
    pub fn writers_read_by(&self, subject: u32) -> Vec<u32> {
        let s = subject as usize;
        if self.unrecorded[s] {
            return Vec::new();
        }
        self.ranked(&self.reads[s], &[s])
    }

    /// Units whose recording writes a field `polluter` wrote and `subject` read (any field
    /// `subject` read when `polluter` is unrecorded or shares none with it), most specific
    /// first as in [`DependenceMap::writers_read_by`]: the likeliest cleaners of `polluter` for
    /// victim `subject` (a cleaner resets what the polluter left).
    pub fn rewriters(&self, polluter: u32, subject: u32) -> Vec<u32> {
        let (p, s) = (polluter as usize, subject as usize);
        if self.unrecorded[s] {
            return Vec::new();
        }
        let both: Vec<u64> = self.reads[s]
            .iter()
            .zip(&self.writes[p])
            .map(|(r, w)| r & w)
            .collect();
        let mask = if self.unrecorded[p] || both.iter().all(|w| *w == 0) {
            &self.reads[s]
        } else {
            &both
        };
        self.ranked(mask, &[p, s])
    }

    /// Recorded units (but `except`) writing a specific field of `mask`, by the number of
    /// writers of the rarest such field, then in unit order. A field is specific when at most a
    /// [`SPECIFIC_SHARE`]th of the recorded units (or 4) write it: one that most of the module
    /// writes (a configuration singleton every test loads) names no likelier culprit than any
    /// other test.
    fn ranked(&self, mask: &[u64], except: &[usize]) -> Vec<u32> {
        let writers = &self.writers;
        let recorded = self.unrecorded.iter().filter(|u| !**u).count();
        let limit = (recorded / SPECIFIC_SHARE).max(4) as u32;
        let mut ranked: Vec<(u32, u32)> = (0..self.writes.len())
            .filter(|u| !self.unrecorded[*u] && !except.contains(u))
            .filter_map(|u| {
                let rarest = bits_of(&self.writes[u], mask)
                    .map(|f| writers[f])
                    .filter(|w| *w <= limit)
                    .min()?;
                Some((rarest, u as u32))
            })
            .collect();
        ranked.sort_unstable();
        ranked.into_iter().map(|(_, u)| u).collect()
    }

    /// The fields through which `b` may depend on `a` (empty when either is unrecorded).
    pub fn shared(&self, a: u32, b: u32) -> Vec<&str> {
        let (a, b) = (a as usize, b as usize);
        if self.unrecorded[a] || self.unrecorded[b] {
            return Vec::new();
        }
        (0..self.fields.len())
            .filter(|&f| self.writes[a][f / 64] & self.reads[b][f / 64] & (1 << (f % 64)) != 0)
            .map(|f| self.fields[f].as_str())
            .collect()
    }
}

/// At most this many tests the recording names in an OD test's prefix are tried as its culprits
/// ([`DependenceMap::culprit_candidates`]): each that is not one costs a pair run.
pub const MAX_RECORDED_CULPRITS: usize = 4;

/// At most this many culprits the recording names are tried when their pair runs together cost
/// less than one run of the prefix ([`DependenceMap::culprit_candidates_within`]).
pub const MAX_RECORDED_CULPRITS_BY_COST: usize = 16;
/// At most this many tests the recording names are tried as cleaners of one polluter
/// ([`DependenceMap::cleaner_candidates`]).
pub const MAX_RECORDED_CLEANERS: usize = 64;

/// A field written by more than this share of the recorded units (and more than 4) names no
/// culprit or cleaner ([`DependenceMap::writers_read_by`], [`DependenceMap::rewriters`]).
pub const SPECIFIC_SHARE: usize = 10;

/// The field numbers set in both `a` and `mask`.
fn bits_of<'a>(a: &'a [u64], mask: &'a [u64]) -> impl Iterator<Item = usize> + 'a {
    a.iter().zip(mask).enumerate().flat_map(|(word, (a, m))| {
        let mut bits = a & m;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                word * 64 + b
            })
        })
    })
}

/// The orders of a `dependence-aware` run.
#[derive(Debug, Clone)]
pub struct DependencePlan {
    /// Class-compatible orders covering every pair `(a, b)` with [`DependenceMap::depends`], or
    /// tuscan's orders when those are predicted to cost less (`info.uses_tuscan`).
    pub schedule: Schedule,
    /// Then these ([`DependenceMap::clean_runs`]; none with tuscan's orders, where every test
    /// runs first once).
    pub extra: Vec<Vec<String>>,
    /// What it runs, with tuscan's plan for comparison.
    pub info: PlanInfo,
    /// The accesses it was planned from.
    pub map: DependenceMap,
}

/// What a plan costs when no cost model is known: a JVM start is worth this many test runs.
const DEFAULT_COST0_IN_TESTS: u64 = 100;

/// Plans `dependence-aware` from the recorded `records` (the baseline runs): the covering
/// schedule of the possibly dependent pairs (ranked by `ranking` when given), then the clean runs.
/// When tuscan's schedule (which covers every pair) is predicted to cost less under `cost` (else
/// with a JVM start worth 100 test runs), tuscan's orders are used instead: with many dependent
/// pairs, short covering orders can cost more JVM starts than they save in test runs.
pub fn plan(
    suite: &Suite,
    records: &[&ExperimentRecord],
    dependence_free: &[String],
    seed: u64,
    ranking: Option<&CostModel>,
    cost: Option<&CostModel>,
) -> DependencePlan {
    let units = crate::schedule::unit_ids(suite);
    let map = DependenceMap::from_records(suite, &units, records, dependence_free);
    let covering = crate::schedule::covering(suite, seed, ranking, &|a, b| map.depends(a, b));
    let extra: Vec<Vec<String>> = map
        .clean_runs((0..covering.len()).map(|r| covering.order_indices(r)))
        .iter()
        .map(|run| covering.ids(run))
        .collect();
    let mut info = describe(&covering, &extra, cost);
    info.strategy = crate::model::strategy::Strategy::DependenceAware;
    info.unrecorded = Some(map.unrecorded());
    info.fields = Some(map.field_count());
    let tuscan = Schedule::new(
        crate::model::strategy::Strategy::Tuscan,
        suite,
        seed,
        2,
        ranking,
    );
    let Some(tuscan) = tuscan else {
        return DependencePlan {
            schedule: covering,
            extra,
            info,
            map,
        };
    };
    let tuscan_info = describe(&tuscan, &[], cost);
    let weight = |i: &PlanInfo| {
        i.predicted_ms
            .unwrap_or(i.orders * DEFAULT_COST0_IN_TESTS + i.executions)
    };
    let use_tuscan = weight(&tuscan_info) < weight(&info);
    let (schedule, extra) = if use_tuscan {
        info = PlanInfo {
            strategy: crate::model::strategy::Strategy::DependenceAware,
            uses_tuscan: true,
            unrecorded: info.unrecorded,
            fields: info.fields,
            dependent_pairs: Some(covering.pairs_total()),
            ..tuscan_info.clone()
        };
        (tuscan, Vec::new())
    } else {
        (covering, extra)
    };
    info.tuscan = Some(Box::new(tuscan_info));
    DependencePlan {
        schedule,
        extra,
        info,
        map,
    }
}

/// What `schedule` runs, and its predicted cost under `cost`: `cost0 × orders + Σ test times`
/// over every execution (a test without a time costs the mean of the known ones; for schedules
/// of more than 2^22 orders every execution costs that mean), followed by the orders `extra`.
pub fn describe(schedule: &Schedule, extra: &[Vec<String>], cost: Option<&CostModel>) -> PlanInfo {
    let orders = schedule.len() + extra.len() as u64;
    let executions = schedule.executions() + extra.iter().map(|o| o.len() as u64).sum::<u64>();
    let predicted_ms = cost.map(|cost| {
        let mean = cost.default_ms();
        let tests: u64 = if schedule.len() <= 1 << 22 {
            let ms: Vec<u64> = schedule.units().iter().map(|u| cost.ms(u)).collect();
            (0..schedule.len())
                .map(|r| {
                    schedule
                        .order_indices(r)
                        .iter()
                        .map(|&u| ms[u as usize])
                        .sum::<u64>()
                })
                .sum()
        } else {
            mean * schedule.executions()
        };
        let extra_ms: u64 = extra.iter().flatten().map(|t| cost.ms(t)).sum();
        cost.cost0_ms * orders + tests + extra_ms
    });
    PlanInfo {
        strategy: schedule.strategy(),
        orders,
        executions,
        pairs: schedule.pairs_total(),
        predicted_ms,
        cost0_ms: cost.map(|c| c.cost0_ms),
        tuscan: None,
        unrecorded: None,
        fields: None,
        uses_tuscan: false,
        dependent_pairs: None,
    }
}

/// Whether `text` matches `pattern`, where `*` matches any run of characters (also none).
pub fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// The cost model measured by the baseline: each test's recorded time, and `Cost0` as the
/// baseline's wall time less its tests' times (`None` without a baseline). The last baseline run
/// counts (the one whose outcomes the rounds are compared with).
pub fn cost_from_baseline(records: &[&ExperimentRecord]) -> Option<CostModel> {
    let last = records.last()?;
    let mut test_ms = BTreeMap::new();
    let mut total = 0u64;
    for r in &last.results {
        if let Some(ms) = r.time_ms {
            total += ms;
            *test_ms.entry(r.test.clone()).or_insert(0) += ms;
        }
    }
    Some(CostModel {
        cost0_ms: last.millis.saturating_sub(total),
        test_ms,
    })
}

/// What a systematic schedule will run, printed before its first round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanInfo {
    /// The strategy.
    pub strategy: crate::model::strategy::Strategy,
    /// Orders (JVM starts).
    pub orders: u64,
    /// Test executions of all orders together.
    pub executions: u64,
    /// Ordered pairs the schedule covers.
    pub pairs: u64,
    /// `cost0_ms × orders + Σ test times`, when a cost model is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted_ms: Option<u64>,
    /// The fixed cost per order the prediction used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost0_ms: Option<u64>,
    /// `dependence-aware`: the `tuscan` schedule of the same suite, for comparison.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuscan: Option<Box<PlanInfo>>,
    /// `dependence-aware`: units without a recording (taken to touch everything).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrecorded: Option<usize>,
    /// `dependence-aware`: static fields that count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<usize>,
    /// `dependence-aware`: it runs tuscan's orders, predicted to cost less than covering only
    /// the possibly dependent pairs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub uses_tuscan: bool,
    /// `dependence-aware` with tuscan's orders: how many of the pairs may interact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependent_pairs: Option<u64>,
}

#[cfg(test)]
#[path = "dependence_tests.rs"]
mod tests;
