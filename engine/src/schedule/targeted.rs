//! Targeted orders: whole-suite, class-compatible orders that put each test that wrote a static
//! field right before each test that read it (the first phase of the default strategy,
//! `targeted`; `docs/detect-algorithm.md`, "Strategies").
//!
//! A victim fails only after its polluter changed some shared state, and in a JVM that state is
//! nearly always a static field. The baseline's recording ([`DependenceMap`]) knows which tests
//! wrote and which read each field. A random class-method order runs a given writer right before
//! a given reader of another class with probability `1 / (classes × writer's class size ×
//! reader's class size)`: for a polluter that must be the last of 16 tests and a victim whose
//! class must come next, about 3% of orders, so 20 random rounds miss it about half the time.
//! Targeted orders make those pairs certain instead of likely:
//!
//! - **pairs**: every ordered pair `(w, r)` of recorded tests where `r` read a field `w` wrote and
//!   the framework can run `r` right after `w` (one reorderable class, consecutive in a fixed
//!   order, or two classes with `w` able to run last in its class and `r` first in its); pairs
//!   consecutive in the original order already ran in the baseline and are not targeted again.
//!   Rarest first: by the chance that a random class-method order runs them consecutively.
//! - **one order**: links between classes first: for each uncovered pair of two classes, rarest
//!   first, `w` becomes the last test of its class and `r` the first of the next one, while each
//!   class has at most one link in and one out and the links form paths; the paths, and the
//!   classes without a link, are shuffled into one class sequence. Inside each class, from its
//!   first test, the next test is an uncovered reader of the one before when there is one, else
//!   a writer of an uncovered pair, else the next of a shuffled list. Every consecutive pair of
//!   the order that is a targeted pair is then covered.
//! - orders are built until every pair is covered or `max_orders` were made.
//! - **new tests first** (`odrust:incremental`, issue 29 item 3): the tests of classes new or
//!   changed since the last run are paired with every test they share a field with in *both*
//!   directions (the new test right after a writer of what it reads, and right before a reader of
//!   what it writes, whichever of the two writes), and those pairs come before all others, so the
//!   first targeted orders run each new test next to each test it can interact with.
//!
//! Each order is a whole-suite order like a random round's (what no pair constrains is shuffled),
//! so it also explores what static fields do not show (files, system properties, state inside
//! the JDK or libraries). Seeded: the same seed, suite and recording give the same orders.

use std::collections::HashMap;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use super::dependence::DependenceMap;
use super::units::Units;
use crate::model::experiment::ExperimentRecord;
use crate::model::seed::mix;
use crate::model::suite::Suite;

/// At most this many pairs are kept (the rarest); the rest are counted in
/// [`TargetedPlan::pairs_total`] and left to the random rounds.
const MAX_PAIRS: usize = 1 << 21;

/// Mixed into the seed so that targeted orders draw other numbers than the random rounds.
const SALT: u64 = 0x7A12_6E7E_D0DE_5EED;

/// The targeted orders of one run, and the pairs they target.
#[derive(Debug, Clone)]
pub struct TargetedPlan {
    /// The units (test ids and dynamic containers), as [`crate::schedule::unit_ids`] numbers them.
    pub units: Vec<String>,
    /// Writer→reader pairs `(w, r)` the framework can run consecutively, rarest first.
    pub pairs: Vec<(u32, u32)>,
    /// Per pair: consecutive in the original order, so it ran in the baseline.
    pub in_baseline: Vec<bool>,
    /// Writer→reader pairs found, before [`MAX_PAIRS`] kept the rarest.
    pub pairs_total: usize,
    /// The orders, as test ids.
    pub orders: Vec<Vec<String>>,
    /// Pairs covered by the orders (not counting those of the baseline).
    pub covered_by_orders: usize,
    /// Units without a recording (left to the random rounds).
    pub unrecorded: usize,
    /// Static fields that count.
    pub fields: usize,
    /// Units of new or changed test classes.
    pub new_units: usize,
    /// Pairs with a unit of a new or changed class (in [`TargetedPlan::pairs`], first).
    pub new_pairs: usize,
    /// The recording it was planned from (explanations try the tests it names first).
    pub map: DependenceMap,
    /// Of those, the ones covered by the orders or the baseline.
    pub new_covered: usize,
}

/// What the targeted phase runs, for the plan line and the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetedInfo {
    /// Targeted orders (rounds 1 to this).
    pub orders: u64,
    /// Writer→reader pairs of static fields the framework can run consecutively.
    pub pairs: u64,
    /// Of those, the ones consecutive in the original order (they ran in the baseline).
    pub in_baseline: u64,
    /// Of those, the ones the targeted orders cover (the baseline's not counted).
    pub covered: u64,
    /// Static fields that count (after `odrust.dependence.free`).
    pub fields: u64,
    /// Tests without a recording: left to the random rounds.
    pub unrecorded: u64,
    /// Tests of test classes new or changed since the last `odrust:incremental` run (0 otherwise).
    #[serde(default)]
    pub new_tests: u64,
    /// Pairs of a new test and a test it shares a static field with, both directions.
    #[serde(default)]
    pub new_pairs: u64,
    /// Of those, the ones in a targeted order or consecutive in the baseline.
    #[serde(default)]
    pub new_covered: u64,
    /// One sentence: what the targeted rounds cover.
    pub text: String,
}

impl TargetedPlan {
    /// What it runs, as one sentence for the plan line.
    pub fn info(&self) -> TargetedInfo {
        let pairs = self.pairs_total as u64;
        let in_baseline = self.in_baseline.iter().filter(|b| **b).count() as u64;
        let covered = self.covered_by_orders as u64;
        let left = pairs - in_baseline - covered;
        let mut text = if pairs == 0 {
            format!(
                "no test read a static field another test wrote ({} fields recorded), so no round is targeted",
                self.fields
            )
        } else {
            format!(
                "{} targeted order{} put{} the writer of a static field right before its reader for {covered} of {pairs} writer→reader pairs ({} field{}; {in_baseline} ran in the baseline)",
                self.orders.len(),
                if self.orders.len() == 1 { "" } else { "s" },
                if self.orders.len() == 1 { "s" } else { "" },
                self.fields,
                if self.fields == 1 { "" } else { "s" },
            )
        };
        if left > 0 {
            text.push_str(&format!(
                "; {left} pair{} did not fit in the targeted rounds (raise -Dodrust.rounds, or -Dodrust.strategy=dependence-aware covers all of them)",
                if left == 1 { "" } else { "s" }
            ));
        }
        if self.unrecorded > 0 {
            text.push_str(&format!(
                "; {} test{} without a recording (did not run in the baseline) left to the random rounds",
                self.unrecorded,
                if self.unrecorded == 1 { "" } else { "s" }
            ));
        }
        if self.new_units > 0 {
            text.push_str(&format!(
                "; new or changed tests first: {} of {} pair{} of a new test and a test it shares a static field with are in the targeted orders or ran in the baseline ({} new test{})",
                self.new_covered,
                self.new_pairs,
                if self.new_pairs == 1 { "" } else { "s" },
                self.new_units,
                if self.new_units == 1 { "" } else { "s" },
            ));
            if self.new_covered < self.new_pairs {
                text.push_str(" (raise -Dodrust.rounds to run the rest)");
            }
        }
        TargetedInfo {
            orders: self.orders.len() as u64,
            pairs,
            in_baseline,
            covered,
            fields: self.fields as u64,
            unrecorded: self.unrecorded as u64,
            new_tests: self.new_units as u64,
            new_pairs: self.new_pairs as u64,
            new_covered: self.new_covered as u64,
            text,
        }
    }
}

/// How many of `rounds` rounds `targeted` may give to targeted orders: all but a quarter (rounded
/// down), which stay random (`reverse-passing`) for what static fields do not show.
pub fn max_orders(rounds: u32) -> u32 {
    rounds - rounds / 4
}

/// Plans at most `max_orders` targeted orders from the baseline's recorded `records`, without
/// the fields matching `dependence_free`.
pub fn plan(
    suite: &Suite,
    records: &[&ExperimentRecord],
    dependence_free: &[String],
    seed: u64,
    max_orders: u32,
) -> TargetedPlan {
    plan_new_first(suite, records, dependence_free, seed, max_orders, &[])
}

/// [`plan`], with the tests of `new_classes` (test classes new or changed) paired in both
/// directions with every test they share a field with, and those pairs first.
pub fn plan_new_first(
    suite: &Suite,
    records: &[&ExperimentRecord],
    dependence_free: &[String],
    seed: u64,
    max_orders: u32,
    new_classes: &[String],
) -> TargetedPlan {
    let units = Units::of(suite);
    let map = DependenceMap::from_records(suite, &units.ids, records, dependence_free);
    let new: Vec<bool> = units
        .class_of
        .iter()
        .map(|&c| new_classes.contains(&suite.classes[c as usize].class))
        .collect();
    let (pairs, pairs_total) = pairs(&units, &map, seed, &new);
    // Units are numbered in suite order, which is the original order.
    let in_baseline: Vec<bool> = pairs.iter().map(|&(a, b)| b == a + 1).collect();
    let mut builder = Builder::new(&units, &pairs);
    for (i, done) in in_baseline.iter().enumerate() {
        builder.covered[i] = *done;
    }
    let mut orders = Vec::new();
    let mut covered_by_orders = 0;
    while (orders.len() as u32) < max_orders && builder.covered.iter().any(|c| !c) {
        let mut rng = StdRng::seed_from_u64(mix(seed ^ SALT, orders.len() as u64));
        let order = builder.order(&mut rng);
        let added = builder.cover(&order);
        if added == 0 {
            break;
        }
        covered_by_orders += added;
        orders.push(
            order
                .iter()
                .map(|&u| units.ids[u as usize].clone())
                .collect(),
        );
    }
    let is_new = |&(a, b): &(u32, u32)| new[a as usize] || new[b as usize];
    let new_pairs = pairs.iter().filter(|p| is_new(p)).count();
    let new_covered = pairs
        .iter()
        .zip(&builder.covered)
        .filter(|(p, c)| **c && is_new(p))
        .count();
    TargetedPlan {
        new_units: new.iter().filter(|n| **n).count(),
        new_pairs,
        new_covered,
        unrecorded: (0..units.len() as u32)
            .filter(|&u| !map.is_recorded(u))
            .count(),
        fields: map.field_count(),
        units: units.ids.clone(),
        pairs,
        in_baseline,
        pairs_total,
        orders,
        covered_by_orders,
        map,
    }
}

/// The writer→reader pairs the framework can run consecutively, rarest first (by the chance that
/// a random class-method order runs them consecutively; ties in a seeded order), at most
/// [`MAX_PAIRS`]; and how many there were. A pair with a `new` unit is one in both directions
/// (either of the two writing what the other reads), and such pairs come first.
fn pairs(units: &Units, map: &DependenceMap, seed: u64, new: &[bool]) -> (Vec<(u32, u32)>, usize) {
    let n = units.len() as u32;
    let classes = units.sizes.len().max(1) as f64;
    let edge = |u: u32, last: bool| -> Option<f64> {
        let c = units.class_of[u as usize] as usize;
        if units.reorderable[c] {
            return Some(1.0 / units.sizes[c] as f64);
        }
        let (lo, hi) = units.range(c as u32);
        let at = if last { hi - 1 } else { lo };
        (u as usize == at).then_some(1.0)
    };
    let mut found: Vec<((u32, u32), bool, f64, u64)> = Vec::new();
    for a in 0..n {
        if !map.is_recorded(a) {
            continue;
        }
        for b in 0..n {
            let fresh = new[a as usize] || new[b as usize];
            let shared =
                map.writes_what_it_reads(a, b) || (fresh && map.writes_what_it_reads(b, a));
            if !shared {
                continue;
            }
            let (ca, cb) = (units.class_of[a as usize], units.class_of[b as usize]);
            let chance = if ca == cb {
                if !units.runnable(a, b) {
                    continue;
                }
                if units.reorderable[ca as usize] {
                    1.0 / units.sizes[ca as usize] as f64
                } else {
                    1.0
                }
            } else {
                match (edge(a, true), edge(b, false)) {
                    (Some(pa), Some(pb)) => pa * pb / classes,
                    _ => continue,
                }
            };
            let tie = mix(seed ^ SALT, (u64::from(a) << 32) | u64::from(b));
            found.push(((a, b), !fresh, chance, tie));
        }
    }
    let total = found.len();
    found.sort_by(|x, y| x.1.cmp(&y.1).then(x.2.total_cmp(&y.2)).then(x.3.cmp(&y.3)));
    found.truncate(MAX_PAIRS);
    (found.into_iter().map(|f| f.0).collect(), total)
}

/// Builds targeted orders one after the other, keeping which pairs they covered.
struct Builder<'a> {
    units: &'a Units,
    pairs: &'a [(u32, u32)],
    covered: Vec<bool>,
    index: HashMap<(u32, u32), usize>,
    /// Per unit: its pairs with a reader of its own class, by index.
    inner: Vec<Vec<usize>>,
}

impl<'a> Builder<'a> {
    fn new(units: &'a Units, pairs: &'a [(u32, u32)]) -> Self {
        let mut inner = vec![Vec::new(); units.len()];
        let mut index = HashMap::with_capacity(pairs.len());
        for (i, &(a, b)) in pairs.iter().enumerate() {
            index.insert((a, b), i);
            if units.class_of[a as usize] == units.class_of[b as usize] {
                inner[a as usize].push(i);
            }
        }
        Builder {
            units,
            pairs,
            covered: vec![false; pairs.len()],
            index,
            inner,
        }
    }

    /// Marks the targeted pairs consecutive in `order`; returns how many were not covered yet.
    fn cover(&mut self, order: &[u32]) -> usize {
        let mut new = 0;
        for w in order.windows(2) {
            if let Some(&i) = self.index.get(&(w[0], w[1])) {
                if !self.covered[i] {
                    self.covered[i] = true;
                    new += 1;
                }
            }
        }
        new
    }

    /// One order: links between classes, the class sequence, then each class's tests.
    fn order(&self, rng: &mut StdRng) -> Vec<u32> {
        let units = self.units;
        let classes = units.sizes.len();
        let mut first: Vec<Option<u32>> = vec![None; classes];
        let mut last: Vec<Option<u32>> = vec![None; classes];
        let mut next: Vec<Option<u32>> = vec![None; classes];
        let mut has_prev = vec![false; classes];
        let mut path: Vec<u32> = (0..classes as u32).collect();
        fn root(path: &mut [u32], mut c: u32) -> u32 {
            while path[c as usize] != c {
                path[c as usize] = path[path[c as usize] as usize];
                c = path[c as usize];
            }
            c
        }
        for (i, &(a, b)) in self.pairs.iter().enumerate() {
            let (ca, cb) = (
                units.class_of[a as usize] as usize,
                units.class_of[b as usize] as usize,
            );
            if self.covered[i] || ca == cb || next[ca].is_some() || has_prev[cb] {
                continue;
            }
            // A class's first and last tests differ, unless it has one test.
            if (units.sizes[ca] > 1 && first[ca] == Some(a))
                || (units.sizes[cb] > 1 && last[cb] == Some(b))
            {
                continue;
            }
            let (ra, rb) = (root(&mut path, ca as u32), root(&mut path, cb as u32));
            if ra == rb {
                continue;
            }
            path[ra as usize] = rb;
            last[ca] = Some(a);
            first[cb] = Some(b);
            next[ca] = Some(cb as u32);
            has_prev[cb] = true;
        }
        let mut paths: Vec<Vec<u32>> = (0..classes)
            .filter(|&c| !has_prev[c])
            .map(|head| {
                let mut p = vec![head as u32];
                while let Some(n) = next[*p.last().expect("not empty") as usize] {
                    p.push(n);
                }
                p
            })
            .collect();
        paths.shuffle(rng);
        let mut order = Vec::with_capacity(units.len());
        let mut in_rest = vec![false; units.len()];
        for c in paths.into_iter().flatten() {
            let c = c as usize;
            let (lo, hi) = units.range(c as u32);
            if !units.reorderable[c] || hi - lo <= 1 {
                order.extend(lo as u32..hi as u32);
                continue;
            }
            self.class_order(c, first[c], last[c], &mut in_rest, rng, &mut order);
        }
        order
    }

    /// The tests of reorderable class `c` from `first` (when linked) to `last` (when linked): each
    /// next one an uncovered reader of the one before when there is one, else a writer of an
    /// uncovered pair (in the shuffled order), else the next of a shuffled list.
    fn class_order(
        &self,
        c: usize,
        first: Option<u32>,
        last: Option<u32>,
        in_rest: &mut [bool],
        rng: &mut StdRng,
        order: &mut Vec<u32>,
    ) {
        let (lo, hi) = self.units.range(c as u32);
        let mut rest: Vec<u32> = (lo as u32..hi as u32)
            .filter(|u| Some(*u) != first && Some(*u) != last)
            .collect();
        rest.shuffle(rng);
        for &u in &rest {
            in_rest[u as usize] = true;
        }
        // An uncovered pair inside the class from `u` to a test still to place (or to `last`,
        // when nothing else is left).
        let open = |u: u32, in_rest: &[bool], rest_len: usize| -> Option<u32> {
            self.inner[u as usize]
                .iter()
                .filter(|&&i| !self.covered[i])
                .map(|&i| self.pairs[i].1)
                .find(|&r| in_rest[r as usize] || (rest_len == 0 && Some(r) == last))
        };
        // Writers of an uncovered pair inside the class, as the class starts (checked once per
        // test: a class of n tests that all read and write one field has n² pairs).
        let writer: Vec<bool> = rest
            .iter()
            .map(|&u| self.inner[u as usize].iter().any(|&i| !self.covered[i]))
            .collect();
        let mut writers: Vec<u32> = rest
            .iter()
            .zip(&writer)
            .filter(|(_, w)| **w)
            .map(|(u, _)| *u)
            .collect();
        writers.reverse();
        let mut current = first;
        if let Some(f) = first {
            order.push(f);
        }
        while !rest.is_empty() {
            while writers.last().is_some_and(|w| !in_rest[*w as usize]) {
                writers.pop();
            }
            let pick = current
                .and_then(|u| open(u, in_rest, rest.len()))
                .filter(|r| in_rest[*r as usize])
                .or_else(|| writers.last().copied())
                .unwrap_or(rest[0]);
            let at = rest.iter().position(|&u| u == pick).expect("in rest");
            rest.remove(at);
            in_rest[pick as usize] = false;
            order.push(pick);
            current = Some(pick);
        }
        if let Some(l) = last {
            if Some(l) != first {
                order.push(l);
            }
        }
    }
}

/// The chance that a victim which fails in a share `rate` of random orders passes in every one of
/// `rounds` of them: `(1 - rate)^rounds`.
pub fn escape_chance(rate: f64, rounds: u32) -> f64 {
    (1.0 - rate.clamp(0.0, 1.0)).powi(rounds as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::experiment::{ExperimentKind, ExperimentRecord, TestResult};
    use crate::model::outcome::RunOutcome;
    use crate::model::suite::{ClassRecord, Framework};

    fn class(name: &str, n: usize, reorderable: bool) -> ClassRecord {
        ClassRecord {
            class: name.into(),
            framework: Framework::Junit4,
            reorderable,
            tests: (0..n).map(|i| format!("{name}#t{i}")).collect(),
            dynamic: vec![],
        }
    }

    fn suite(classes: Vec<ClassRecord>) -> Suite {
        Suite {
            schema_version: 1,
            module: "g:a".into(),
            classes,
        }
    }

    /// A baseline record in which `writes` and `reads` name, per test, the fields it touched;
    /// every other test of the suite recorded nothing.
    fn recorded(suite: &Suite, accesses: &[(&str, &[&str], &[&str])]) -> ExperimentRecord {
        let results = suite
            .original_order()
            .into_iter()
            .map(|t| {
                let (reads, writes) = accesses
                    .iter()
                    .find(|(id, _, _)| *id == t)
                    .map(|(_, r, w)| {
                        (
                            r.iter().map(|s| s.to_string()).collect(),
                            w.iter().map(|s| s.to_string()).collect(),
                        )
                    })
                    .unwrap_or((Vec::new(), Vec::new()));
                TestResult {
                    reads: Some(reads),
                    writes: Some(writes),
                    ..TestResult::new(t, RunOutcome::Pass)
                }
            })
            .collect();
        ExperimentRecord {
            id: 1,
            kind: ExperimentKind::Baseline,
            round: None,
            strategy: None,
            order: suite.original_order(),
            targets: vec![],
            results,
            honoured: true,
            millis: 1,
            class_state: vec![],
            time: None,
            isolation: Default::default(),
            shareable: false,
        }
    }

    fn position(order: &[String], id: &str) -> usize {
        order.iter().position(|t| t == id).unwrap()
    }

    #[test]
    fn the_writer_runs_last_in_its_class_and_the_reader_first_in_the_next() {
        let s = suite(vec![
            class("p.A", 16, true),
            class("p.B", 5, true),
            class("p.C", 7, true),
        ]);
        let base = recorded(
            &s,
            &[("p.A#t15", &[], &["p.S#F"]), ("p.B#t3", &["p.S#F"], &[])],
        );
        for seed in 0..20 {
            let plan = plan(&s, &[&base], &[], seed, 15);
            assert_eq!(plan.pairs_total, 1);
            assert_eq!(plan.orders.len(), 1, "one order covers one pair");
            let order = &plan.orders[0];
            assert_eq!(order.len(), 28, "a whole-suite order");
            let w = position(order, "p.A#t15");
            assert_eq!(order[w + 1], "p.B#t3", "seed {seed}: {order:?}");
            let info = plan.info();
            assert_eq!((info.pairs, info.covered, info.in_baseline), (1, 1, 0));
        }
    }

    #[test]
    fn many_pairs_share_orders_and_every_pair_is_covered() {
        let s = suite(vec![
            class("p.A", 6, true),
            class("p.B", 4, true),
            class("p.C", 5, true),
            class("p.D", 3, true),
            class("p.F", 3, false),
        ]);
        // Two writers in A, readers in B, C and D; a writer in C read in A; writers and readers
        // inside A; the fixed-order class F can only be left from t2 and entered at t0.
        let base = recorded(
            &s,
            &[
                ("p.A#t1", &["p.S#G"], &["p.S#F"]),
                ("p.A#t4", &[], &["p.S#F"]),
                ("p.A#t2", &["p.S#G"], &[]),
                ("p.A#t5", &["p.S#G"], &[]),
                ("p.B#t0", &["p.S#F"], &[]),
                ("p.B#t2", &["p.S#F"], &[]),
                ("p.C#t4", &["p.S#F"], &["p.S#G"]),
                ("p.D#t1", &["p.S#F"], &[]),
                ("p.F#t1", &["p.S#F"], &["p.S#H"]),
                ("p.F#t2", &[], &["p.S#F"]),
                ("p.F#t0", &["p.S#H"], &[]),
            ],
        );
        let plan = plan(&s, &[&base], &[], 7, 100);
        let consecutive = |a: &str, b: &str| {
            plan.orders
                .iter()
                .any(|o| o.windows(2).any(|w| w[0] == a && w[1] == b))
        };
        for (i, &(a, b)) in plan.pairs.iter().enumerate() {
            let (a, b) = (&plan.units[a as usize], &plan.units[b as usize]);
            assert!(
                plan.in_baseline[i] || consecutive(a, b),
                "{a} -> {b} not covered"
            );
        }
        // F's fixed order: t1 (a reader of F) can never follow a writer of another class.
        assert!(!plan.pairs.iter().any(|&(a, b)| {
            plan.units[b as usize] == "p.F#t1" && plan.units[a as usize] != "p.F#t0"
        }));
        for order in &plan.orders {
            let f = position(order, "p.F#t0");
            assert_eq!(&order[f..f + 3], ["p.F#t0", "p.F#t1", "p.F#t2"]);
        }
        // Fewer orders than pairs: links of several classes share an order.
        let inter = plan
            .pairs
            .iter()
            .filter(|&&(a, b)| plan.units[a as usize][..3] != plan.units[b as usize][..3])
            .count();
        assert!(plan.orders.len() < inter, "{} orders", plan.orders.len());
    }

    #[test]
    fn the_same_seed_gives_the_same_orders_and_max_orders_bounds_them() {
        let s = suite(vec![class("p.A", 8, true), class("p.B", 8, true)]);
        let accesses: Vec<(String, Vec<&str>, Vec<&str>)> = (0..8)
            .map(|i| (format!("p.A#t{i}"), vec![], vec!["p.S#F"]))
            .chain((0..8).map(|i| (format!("p.B#t{i}"), vec!["p.S#F"], vec![])))
            .collect();
        let accesses: Vec<(&str, &[&str], &[&str])> = accesses
            .iter()
            .map(|(t, r, w)| (t.as_str(), r.as_slice(), w.as_slice()))
            .collect();
        let base = recorded(&s, &accesses);
        let a = plan(&s, &[&base], &[], 3, 5);
        let b = plan(&s, &[&base], &[], 3, 5);
        assert_eq!(a.orders, b.orders);
        assert_eq!(a.orders.len(), 5);
        assert_eq!(a.pairs_total, 64);
        assert_ne!(plan(&s, &[&base], &[], 4, 5).orders, a.orders);
        assert!(a.info().text.contains("did not fit"), "{}", a.info().text);
        // Dependence-free fields are no pairs.
        let free = plan(&s, &[&base], &["p.S#*".into()], 3, 5);
        assert_eq!((free.pairs_total, free.orders.len()), (0, 0));
        assert!(free.info().text.starts_with("no test read"));
    }

    #[test]
    fn a_big_class_whose_every_test_reads_and_writes_one_field_gets_long_paths() {
        // 600 tests, 359,400 pairs inside one class: each order covers a pair per step.
        let s = suite(vec![class("p.Big", 600, true), class("p.Small", 3, true)]);
        let ids: Vec<String> = (0..600).map(|i| format!("p.Big#t{i}")).collect();
        let accesses: Vec<(&str, &[&str], &[&str])> = ids
            .iter()
            .map(|t| (t.as_str(), &["p.S#F"][..], &["p.S#F"][..]))
            .collect();
        let base = recorded(&s, &accesses);
        let plan = plan(&s, &[&base], &[], 1, 15);
        assert_eq!(plan.pairs_total, 600 * 599);
        assert_eq!(plan.orders.len(), 15);
        assert!(
            plan.covered_by_orders >= 15 * 590,
            "{} pairs covered",
            plan.covered_by_orders
        );
    }

    #[test]
    fn new_tests_run_right_before_and_after_each_test_they_share_a_field_with_first() {
        let s = suite(vec![
            class("p.A", 2, true),
            class("p.B", 6, true),
            class("p.C", 6, true),
            class("p.D", 8, true),
            class("p.E", 8, true),
        ]);
        // New class A: its t0 reads F, which B#t2 writes; C#t3 only reads F too (no pair). D's
        // writers and E's readers of G make 64 older pairs, rarer than A's.
        let mut accesses: Vec<(String, Vec<&str>, Vec<&str>)> = vec![
            ("p.A#t0".into(), vec!["p.S#F"], vec![]),
            ("p.B#t2".into(), vec![], vec!["p.S#F"]),
            ("p.C#t3".into(), vec!["p.S#F"], vec![]),
        ];
        accesses.extend((0..8).map(|i| (format!("p.D#t{i}"), vec![], vec!["p.S#G"])));
        accesses.extend((0..8).map(|i| (format!("p.E#t{i}"), vec!["p.S#G"], vec![])));
        let accesses: Vec<(&str, &[&str], &[&str])> = accesses
            .iter()
            .map(|(t, r, w)| (t.as_str(), r.as_slice(), w.as_slice()))
            .collect();
        let base = recorded(&s, &accesses);
        let old = plan(&s, &[&base], &[], 5, 2);
        assert_eq!(
            old.pairs_total, 66,
            "B#t2 before A#t0 and C#t3 (F), 64 of G"
        );
        assert_eq!(old.new_units, 0);
        let new = ["p.A".to_string()];
        let plan = plan_new_first(&s, &[&base], &[], 5, 2, &new);
        assert_eq!(plan.pairs_total, 67, "and A#t0 right before B#t2");
        let name = |&(a, b): &(u32, u32)| {
            (
                plan.units[a as usize].as_str(),
                plan.units[b as usize].as_str(),
            )
        };
        let mut first: Vec<_> = plan.pairs[..2].iter().map(name).collect();
        first.sort();
        assert_eq!(first, [("p.A#t0", "p.B#t2"), ("p.B#t2", "p.A#t0")]);
        // Two orders: one for each direction.
        for (a, b) in first {
            assert!(plan
                .orders
                .iter()
                .any(|o| o.windows(2).any(|w| w[0] == a && w[1] == b)));
        }
        let info = plan.info();
        assert_eq!(
            (info.new_tests, info.new_pairs, info.new_covered),
            (2, 2, 2)
        );
        assert!(
            info.text
                .contains("new or changed tests first: 2 of 2 pairs of a new test"),
            "{}",
            info.text
        );
        // One order cannot hold both directions: said, with the fix.
        let short = plan_new_first(&s, &[&base], &[], 5, 1, &new).info();
        assert_eq!((short.new_pairs, short.new_covered), (2, 1));
        assert!(
            short.text.contains("raise -Dodrust.rounds"),
            "{}",
            short.text
        );
    }

    #[test]
    fn escape_chance_is_the_chance_of_passing_every_round() {
        assert!((escape_chance(0.03, 20) - 0.5438).abs() < 1e-3);
        assert_eq!(escape_chance(0.0, 20), 1.0);
        assert_eq!(escape_chance(1.0, 1), 0.0);
    }
}
