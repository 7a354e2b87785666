//! The hand-off to [`crate::explain`]: the explanation of an OD test from the outcomes observed
//! so far, its next experiment, and notes when it is cut short.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap, HashSet};

use super::config::DEFAULT_MINIMIZE_BUDGET;
use super::replay::{OdTest, Replay};
use super::units::Results;
use crate::explain::group::Cut;
use crate::explain::minimize::{explain, Explanation, Hints, Query, Stage, Subject};
use crate::model::experiment::{ExperimentKind, ExperimentRecord};
use crate::model::kind::FlakyKind;
use crate::model::kind::OdRole;
use crate::schedule::CostModel;

/// Culprits of related OD tests tried first for another.
pub(super) const MAX_HINTS: usize = 16;
/// At most this many polluters of unrelated victims are tried by a victim's pairs when none of
/// its [`MAX_HINTS`] pollutes it: each costs a pair run when it does not pollute it either.
pub(super) const MAX_OTHER_HINTS: usize = 4;
/// At most this many explanation experiments are planned to run at the same time.
pub(super) const EXPLAIN_BATCH: usize = 8;
/// Cleaners tried first for one polluter of a victim: of that polluter for related victims, then
/// of the victim's other polluters and of other polluters of related victims (pooled). Each
/// costs one triple run, and a cleaner group testing finds costs about `log2(m / c) + 1`.
pub(super) const MAX_CLEANER_HINTS: usize = 64;

/// The next explanation experiment of an OD test, and where it may run.
#[derive(Debug, Clone)]
pub(super) struct Next {
    /// The experiment.
    pub(super) query: Query,
    /// It may run in a shared JVM ([`crate::model::experiment::Experiment::shareable`]).
    pub(super) shareable: bool,
    /// It is the fresh-JVM run of a claim a shared JVM showed.
    pub(super) confirms: bool,
}

/// A claim of an explanation: the run that shows it, and the subject's verdict there.
struct Claim {
    /// The run, as the experiment that confirms it.
    query: Query,
    /// Passed (cleaner, state-setter) or did not pass (polluter).
    shows: Option<bool>,
}

/// Every claim of `explanation`, culprits first, then cleaners.
fn claims(od: &OdTest, role: OdRole, explanation: &Explanation) -> Vec<Claim> {
    let (search, pair, shows) = match role {
        OdRole::Victim => (
            ExperimentKind::PolluterSearch,
            ExperimentKind::PolluterPair,
            Some(false),
        ),
        OdRole::Brittle => (
            ExperimentKind::SetterSearch,
            ExperimentKind::SetterPair,
            Some(true),
        ),
    };
    let claim = |kind, examined: Vec<String>, shows| {
        let mut order = examined.clone();
        order.push(od.unit.clone());
        let mut targets = vec![od.test.clone()];
        targets.extend(examined);
        Claim {
            query: Query {
                kind,
                order,
                targets,
            },
            shows,
        }
    };
    let mut claims: Vec<Claim> = explanation
        .culprits
        .iter()
        .map(|g| claim(if g.len() == 1 { pair } else { search }, g.clone(), shows))
        .collect();
    for (polluter, cleaners) in &explanation.cleaners {
        for c in cleaners {
            claims.push(claim(
                ExperimentKind::Cleaner,
                vec![polluter.clone(), c.clone()],
                Some(true),
            ));
        }
    }
    claims
}

impl Replay {
    /// With `odrust.costAware`: the tests' times explanations plan from (the cost model of the
    /// plan: the configured one, else the baseline's measurement, set when the baseline is
    /// done, so the searches replay the same way for the rest of the run and on resume).
    /// Group testing then cuts a set where the search below is expected to cost least
    /// ([`Cut::Cost`]), and more of the culprits the recording names are tried.
    fn times(&self) -> Option<&CostModel> {
        self.cost.as_ref().filter(|_| self.config.cost_aware)
    }

    /// What one explanation run costs beyond its tests, for [`Cut::Cost`]: the baseline JVM's
    /// start, JUnit's start and its exit by its own clocks (on dubbo-common 0.6 s; its time
    /// beyond its tests, the model's fixed cost, also has the recording's per-test overhead:
    /// 2.5 s), the model's when less or not reported. Fixed once the baseline is done.
    fn run_ms(&self, model: &CostModel) -> u64 {
        let parts = self
            .baseline_records
            .last()
            .and_then(|r| r.time)
            .and_then(|t| Some(t.boot_ms? + t.setup_ms? + t.exit_ms?));
        parts.map_or(model.cost0_ms, |p| p.min(model.cost0_ms))
    }

    /// Minimization experiments run for `od` so far.
    pub(super) fn spent_on(&self, od: &OdTest) -> u32 {
        self.spent.get(&od.test).copied().unwrap_or(0)
    }

    /// What the outcomes observed so far explain about `od`, and the experiment it needs next;
    /// `None` when `od` is not explained (nothing run for it and minimization off or `od` not
    /// selected, not a victim or brittle). With minimization off, or `od` not selected, what
    /// earlier runs explained is still reported (its next experiment is not planned).
    ///
    /// When some of its experiments ran in shared JVMs (`detect::shared`), only claims a fresh
    /// JVM showed are in the explanation, the next experiment is the fresh run of the first claim
    /// not yet confirmed, and an OD test a fresh JVM refuted a claim of, or whose search found
    /// no single culprit (nothing, or a group: both rest on runs where it did not show), is
    /// explained from fresh-JVM runs alone.
    pub(super) fn explain(&self, od: &OdTest) -> Option<(Explanation, Option<Next>)> {
        if (!self.config.minimize || !self.selected(od)) && self.spent_on(od) == 0 {
            return None;
        }
        let role = self.kind_of(od).role()?;
        let any = |order: &[String]| self.observed.get(order);
        let (mut explanation, query) = self.explain_from(od, role, &any);
        // `shared`: it may run in a shared JVM, unless it is a claim run cheaper fresh at once.
        let next = |query: Option<Query>, shared: bool| {
            query.map(|query| Next {
                shareable: shared && self.shared.shareable(&query),
                query,
                confirms: false,
            })
        };
        let claims = claims(od, role, &explanation);
        // Every run it rests on was in a fresh JVM (a round in a shared JVM can be a claim's very
        // order on a suite of two or three tests).
        if !self.shared.explained_shared(&od.unit)
            && !claims
                .iter()
                .any(|c| self.shared.first_shared(&c.query.order))
        {
            return Some((explanation, next(query, true)));
        }
        let fresh = |order: &[String]| self.shared.fresh(&self.observed, order);
        let refuted = claims
            .iter()
            .any(|c| fresh(&c.query.order).is_some_and(|r| r.passed(&od.test) != c.shows));
        if self.shared.refuted(&od.test)
            || refuted
            || (query.is_none() && explanation.culprits.iter().all(|g| g.len() > 1))
        {
            let (explanation, query) = self.explain_from(od, role, &fresh);
            return Some((explanation, next(query, false)));
        }
        let unconfirmed: Vec<Claim> = claims
            .into_iter()
            .filter(|c| fresh(&c.query.order).is_none())
            .collect();
        let Some(first) = unconfirmed.first() else {
            return Some((explanation, next(query, true)));
        };
        // Only what a fresh JVM showed is reported.
        let culprit = |g: &Vec<String>| {
            unconfirmed
                .iter()
                .any(|c| c.query.kind != ExperimentKind::Cleaner && c.query.targets[1..] == g[..])
        };
        explanation.culprits.retain(|g| !culprit(g));
        let kept: Vec<String> = explanation.culprits.iter().flatten().cloned().collect();
        explanation.cleaners.retain(|p, _| kept.contains(p));
        for (p, cleaners) in explanation.cleaners.iter_mut() {
            cleaners.retain(|c| {
                !unconfirmed.iter().any(|u| {
                    u.query.kind == ExperimentKind::Cleaner
                        && u.query.targets[1..] == [p.clone(), c.clone()]
                })
            });
        }
        if query.is_none() {
            explanation.stage = Stage::Confirming;
        }
        let check = Next {
            query: first.query.clone(),
            shareable: false,
            confirms: true,
        };
        Some((explanation, Some(check)))
    }

    /// [`explain`] over the runs `observed` gives (every run's first, or fresh JVMs' only).
    fn explain_from<'a>(
        &'a self,
        od: &'a OdTest,
        role: OdRole,
        observed: &dyn Fn(&[String]) -> Option<&'a Results>,
    ) -> (Explanation, Option<Query>) {
        let order = match role {
            OdRole::Victim => &od.fail_order,
            OdRole::Brittle => &od.pass_order,
        };
        let at = order
            .iter()
            .position(|u| *u == od.unit)
            .unwrap_or(order.len());
        let subject = Subject {
            test: &od.test,
            unit: &od.unit,
            role,
            prefix: &order[..at],
        };
        let observed = |order: &[String]| observed(order).map(|r| r.passed(&od.test));
        let same_class = |a: &str, b: &str| match (self.record_of(a), self.record_of(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        };
        let hints = self.hints(od, role);
        let mean = self.times().map_or(0, CostModel::default_ms);
        let ms = |unit: &String| self.times().map_or(0, |m| m.unit_ms_or(unit, mean));
        let cut = match self.times() {
            Some(model) => Cut::Cost {
                ms: &ms,
                run_ms: self.run_ms(model),
            },
            None => Cut::Halves,
        };
        explain(subject, &self.original, &hints, &observed, &same_class, cut)
    }

    /// Whether `o` is related to `od` for shared work: another OD test of the same role, in the
    /// same class or exposed by the same failing (victims) or passing (brittles) order.
    pub(super) fn related(&self, o: &OdTest, od: &OdTest) -> bool {
        let role = self.kind_of(od).role();
        if o.test == od.test || role.is_none() || self.kind_of(o).role() != role {
            return false;
        }
        let record = |unit: &str| self.record_of(unit);
        record(&o.unit) == record(&od.unit)
            || match role {
                Some(OdRole::Victim) => o.confirm_fail == od.confirm_fail,
                _ => o.confirm_pass == od.confirm_pass,
            }
    }

    /// Shared work: the culprits and cleaners that pair and triple runs verified for OD tests
    /// related to `od` (the same role, and the same class or the same failing order), at most
    /// [`MAX_HINTS`] of each: those verified for more OD tests of `od`'s class first, then for
    /// more OD tests of its failing order, then the first run. Only runs made before `od`'s own
    /// search started count (its culprit search, or its cleaner search of that polluter), so its
    /// hints never change once it started.
    fn hints(&self, od: &OdTest, role: OdRole) -> Hints {
        let record = |unit: &str| self.record_of(unit);
        let same_class = |o: &OdTest| record(&o.unit) == record(&od.unit);
        let same_order = |o: &OdTest| match role {
            OdRole::Victim => o.confirm_fail == od.confirm_fail,
            OdRole::Brittle => o.confirm_pass == od.confirm_pass,
        };
        let related: Vec<&OdTest> = self.od.iter().filter(|o| self.related(o, od)).collect();
        // Other victims, for a victim: the polluters their pairs verified are tried after those
        // of related ones (`others`: polluter, its victims, first seen).
        let unrelated: Vec<&OdTest> = match role {
            OdRole::Victim => self
                .od
                .iter()
                .filter(|o| {
                    o.test != od.test
                        && self.kind_of(o).role() == Some(OdRole::Victim)
                        && !self.related(o, od)
                })
                .collect(),
            OdRole::Brittle => Vec::new(),
        };
        let mut others: Vec<(String, HashSet<&String>, usize)> = Vec::new();
        let shows = match role {
            OdRole::Victim => Some(false),
            OdRole::Brittle => Some(true),
        };
        let verdict =
            |order: &[String], o: &OdTest| self.observed.get(order).and_then(|r| r.passed(&o.test));
        let known = self
            .hints_frozen
            .get(&od.test)
            .copied()
            .unwrap_or(self.short_orders.len());
        // Per hint: (OD tests of the same class, of the same order it was verified for; first seen).
        type Score = (usize, usize, usize);
        let mut culprits: Vec<(String, Score)> = Vec::new();
        let mut cleaners: BTreeMap<String, Vec<(String, Score)>> = BTreeMap::new();
        // Verified triples `[q, c, o]` (o = od or related, q a verified polluter of o): (q, c,
        // whether o is od, the score of o, when).
        let mut triples: Vec<(&String, &String, bool, &OdTest, usize)> = Vec::new();
        let count = |list: &mut Vec<(String, Score)>, t: &String, o: &OdTest, at: usize| {
            let i = match list.iter().position(|(h, _)| h == t) {
                Some(i) => i,
                None => {
                    list.push((t.clone(), (0, 0, at)));
                    list.len() - 1
                }
            };
            list[i].1 .0 += usize::from(same_class(o));
            list[i].1 .1 += usize::from(same_order(o));
        };
        let cleaners_known = |polluter: &String| {
            self.cleaner_hints_frozen
                .get(&(od.test.clone(), polluter.clone()))
                .copied()
                .unwrap_or(self.short_orders.len())
        };
        for (at, order) in self.short_orders.iter().enumerate() {
            let own = role == OdRole::Victim
                && order.len() == 3
                && order.last() == Some(&od.unit)
                && order[0] != od.unit
                && verdict(
                    &order[..1]
                        .iter()
                        .chain([&od.unit])
                        .cloned()
                        .collect::<Vec<_>>(),
                    od,
                ) == shows
                && verdict(order, od) == Some(true);
            if own {
                triples.push((&order[0], &order[1], true, od, at));
                continue;
            }
            let Some(o) = related.iter().find(|o| order.last() == Some(&o.unit)) else {
                if let Some(o) = unrelated.iter().find(|o| order.last() == Some(&o.unit)) {
                    let first = &order[0];
                    if order.len() == 2
                        && at < known
                        && first != &od.unit
                        && verdict(order, o) == shows
                    {
                        match others.iter_mut().find(|(p, _, _)| p == first) {
                            Some((_, victims, _)) => {
                                victims.insert(&o.test);
                            }
                            None => others.push((first.clone(), HashSet::from([&o.test]), at)),
                        }
                    }
                }
                continue;
            };
            let first = &order[0];
            if first == &od.unit || verdict(&[first.clone(), o.unit.clone()], o) != shows {
                continue;
            }
            if order.len() == 2 && at < known {
                count(&mut culprits, first, o, at);
            } else if order.len() == 3
                && at < cleaners_known(first)
                && role == OdRole::Victim
                && order[1] != od.unit
                && verdict(order, o) == Some(true)
            {
                count(cleaners.entry(first.clone()).or_default(), &order[1], o, at);
                triples.push((first, &order[1], false, o, at));
            }
        }
        let best = |mut list: Vec<(String, Score)>, max: usize| -> Vec<String> {
            list.sort_by_key(|(_, (class, order, at))| (Reverse(*class), Reverse(*order), *at));
            list.into_iter().take(max).map(|(t, _)| t).collect()
        };
        // Pooled cleaners for polluter `p`: cleaners of od's other polluters first (by how many
        // of them they clean), then of related victims' other polluters; only triples run before
        // od's search for cleaners of `p` started.
        let pooled = |p: Option<&String>| -> Vec<String> {
            let cutoff = p.map_or(self.short_orders.len(), &cleaners_known);
            let mut own: Vec<(String, Score)> = Vec::new();
            let mut other: Vec<(String, Score)> = Vec::new();
            for &(q, c, is_own, o, at) in &triples {
                if at >= cutoff || Some(q) == p || Some(c) == p {
                    continue;
                }
                count(if is_own { &mut own } else { &mut other }, c, o, at);
            }
            let mut list = best(own, MAX_CLEANER_HINTS);
            for c in best(other, MAX_CLEANER_HINTS) {
                if !list.contains(&c) {
                    list.push(c);
                }
            }
            list.truncate(MAX_CLEANER_HINTS);
            list
        };
        let frozen: Vec<&String> = self
            .cleaner_hints_frozen
            .keys()
            .filter(|(t, _)| *t == od.test)
            .map(|(_, p)| p)
            .collect();
        let culprits = best(culprits, MAX_HINTS);
        // Then the polluters of unrelated victims, those of the most first.
        others.sort_by_key(|(_, victims, at)| (Reverse(victims.len()), *at));
        let other_culprits: Vec<String> = others
            .into_iter()
            .map(|(p, _, _)| p)
            .filter(|p| !culprits.contains(p))
            .take(MAX_OTHER_HINTS)
            .collect();
        let victims = match role {
            OdRole::Victim => self
                .victims_frozen
                .clone()
                .unwrap_or_else(|| self.victim_units()),
            OdRole::Brittle => Vec::new(),
        };
        let (recorded_culprits, recorded_cleaners) = self.recorded_hints(od, role);
        Hints {
            culprits,
            other_culprits,
            victims,
            recorded_culprits,
            recorded_cleaners,
            cleaners: cleaners
                .into_iter()
                .map(|(p, list)| (p, best(list, MAX_CLEANER_HINTS)))
                .collect(),
            pooled_cleaners: frozen
                .into_iter()
                .map(|p| (p.clone(), pooled(Some(p))))
                .collect(),
            pooled_cleaners_default: if role == OdRole::Victim {
                pooled(None)
            } else {
                Vec::new()
            },
        }
    }

    /// What the baseline's recording (`targeted`, `dependence-aware`) names for `od`: the tests
    /// of its failing (passing) order's prefix that write a static field it read
    /// ([`culprit_candidates`]); and (a victim), per test a pair run `[p, od]` ran
    /// with, the tests that write what `p` wrote and `od` read
    /// ([`cleaner_candidates`]; read only for the polluters among them). Most specific (rarest
    /// field) first. They come from the recording and `od`'s own pair runs only, and a
    /// polluter's pair runs before its cleaner search, so they never change once a search
    /// started.
    ///
    /// [`culprit_candidates`]: crate::schedule::dependence::DependenceMap::culprit_candidates
    /// [`cleaner_candidates`]: crate::schedule::dependence::DependenceMap::cleaner_candidates
    fn recorded_hints(
        &self,
        od: &OdTest,
        role: OdRole,
    ) -> (Vec<String>, BTreeMap<String, Vec<String>>) {
        let Some((units, map)) = self.recording() else {
            return (Vec::new(), BTreeMap::new());
        };
        let index: HashMap<&str, u32> = units
            .iter()
            .enumerate()
            .map(|(i, u)| (u.as_str(), i as u32))
            .collect();
        let Some(&subject) = index.get(od.unit.as_str()) else {
            return (Vec::new(), BTreeMap::new());
        };
        let order = match role {
            OdRole::Victim => &od.fail_order,
            OdRole::Brittle => &od.pass_order,
        };
        // The prefix is known to hold a culprit; in the rest, the writers of its state are
        // mostly its cleaners (tried as cleaners, once a polluter is known).
        let prefix: HashSet<u32> = order
            .iter()
            .take_while(|u| **u != od.unit)
            .filter_map(|u| index.get(u.as_str()).copied())
            .collect();
        let name = |u: u32| units[u as usize].clone();
        // With the tests' times (`odrust.costAware`): more of them, while all their pair runs
        // together cost less than one run of the prefix (where a search would start).
        // (Without them, no more than the depth of a search allows: pairs and limit of 0.)
        let model = self.times();
        let mean = model.map_or(0, CostModel::default_ms);
        let run_ms = model.map_or(0, |m| self.run_ms(m));
        let run = |tests: &[u32]| -> u64 {
            model.map_or(0, |m| {
                let ms: u64 = tests
                    .iter()
                    .map(|&u| m.unit_ms_or(&units[u as usize], mean))
                    .sum();
                run_ms + ms + m.unit_ms_or(&od.unit, mean)
            })
        };
        let prefix_run = run(&prefix.iter().copied().collect::<Vec<u32>>());
        let culprits: Vec<String> = map
            .culprit_candidates_within(subject, &prefix, |u| run(&[u]), prefix_run)
            .into_iter()
            .map(name)
            .collect();
        let mut cleaners = BTreeMap::new();
        if role == OdRole::Victim {
            for order in &self.short_orders {
                // Every pair run's first test, whatever its first run showed: a polluter a
                // fresh JVM verified after a shared one did not show it has its entry too
                // (only verified polluters' entries are read).
                let [p, v] = order.as_slice() else {
                    continue;
                };
                if *v != od.unit || cleaners.contains_key(p) {
                    continue;
                }
                let Some(&polluter) = index.get(p.as_str()) else {
                    continue;
                };
                let list: Vec<String> = map
                    .cleaner_candidates(polluter, subject)
                    .into_iter()
                    .map(name)
                    .collect();
                cleaners.insert(p.clone(), list);
            }
        }
        (culprits, cleaners)
    }

    /// Victims of one cause: a cleaner run `record` with several `subjects` (`units::subjects`)
    /// can conclude the cleaner search of each victim it shows still failing (nothing in it
    /// cleans) without a run of that victim's own, so each of those has its cleaner hints for
    /// the polluter frozen as they are now, as if it had started that search then (see `hints`;
    /// one the other run of the pair then shows cleaned searches on its own with those hints).
    pub(super) fn freeze_served(
        &mut self,
        record: &ExperimentRecord,
        subjects: &[String],
        results: &Results,
    ) {
        let (ExperimentKind::Cleaner, [_, polluter, ..]) = (record.kind, record.targets.as_slice())
        else {
            return;
        };
        let known = self.short_orders.len();
        for unit in subjects {
            for od in self.od.iter().filter(|od| od.unit == *unit) {
                if results.passed(&od.test) == Some(false) {
                    self.cleaner_hints_frozen
                        .entry((od.test.clone(), polluter.clone()))
                        .or_insert(known);
                }
            }
        }
    }

    /// The units of every victim, in the suite's order: explained together
    /// ([`crate::explain::minimize::Hints::victims`]).
    pub(super) fn victim_units(&self) -> Vec<String> {
        let mut units: Vec<String> = Vec::new();
        for o in &self.od {
            if self.kind_of(o).role() == Some(OdRole::Victim) && !units.contains(&o.unit) {
                units.push(o.unit.clone());
            }
        }
        units.sort_by_key(|u| self.original.iter().position(|x| x == u));
        units
    }

    /// Whether `od` is to be explained in this run (`minimize_only` names it, or is not set).
    fn selected(&self, od: &OdTest) -> bool {
        self.config
            .minimize_only
            .as_ref()
            .is_none_or(|only| only.iter().any(|t| *t == od.test || *t == od.unit))
    }

    /// The OD tests to explain, in the order they are explained: with `minimize_only`, the order
    /// it lists them; otherwise the order they were found.
    pub(super) fn to_explain(&self) -> Vec<&OdTest> {
        match &self.config.minimize_only {
            Some(only) => only
                .iter()
                .filter_map(|t| self.od.iter().find(|od| od.test == *t || od.unit == *t))
                .collect(),
            None => self.od.iter().collect(),
        }
    }

    /// The minimization experiments this run may spend: `minimize_budget`, or
    /// [`DEFAULT_MINIMIZE_BUDGET`] per OD test to explain.
    pub(super) fn minimize_budget(&self) -> u32 {
        self.config.minimize_budget.unwrap_or_else(|| {
            let explained = self
                .to_explain()
                .into_iter()
                .filter(|od| self.kind_of(od).role().is_some())
                .count() as u32;
            DEFAULT_MINIMIZE_BUDGET.saturating_mul(explained.max(1))
        })
    }

    /// Minimization experiments run so far for the OD tests to explain (every OD test unless
    /// `minimize_only` names some).
    pub(super) fn minimize_spent(&self) -> u32 {
        self.od
            .iter()
            .filter(|od| self.selected(od))
            .map(|od| self.spent_on(od))
            .sum()
    }

    /// What counts against the budget: the explanation experiments run, but the fresh-JVM runs of
    /// claims shared JVMs showed (they run beyond the budget, and must not take other OD tests'
    /// share of it).
    pub(super) fn budget_used(&self) -> u32 {
        self.minimize_spent().saturating_sub(self.shared.checks)
    }

    /// The next minimization experiment, within the budget. Every OD test gets its first
    /// polluter (state-setter) before unrelated ones get more (a related one waits for the
    /// search it can share), and all of them their polluters before any gets cleaners: the
    /// budget is spread over the module, not spent on the first test. The fresh-JVM run of a
    /// claim a shared JVM showed goes first, and is not bounded by the budget (at most one per
    /// claim): a claim found is confirmed or withdrawn, never left half-shown.
    ///
    /// With it, the experiments that can run at the same time: the next experiment of each other
    /// OD test of the same priority that is not related to any of them (its class and failing order are
    /// another's: no run of one is a hint for another, so none waits for another's outcome), at
    /// most [`EXPLAIN_BATCH`] and what is left of the budget. The batch does not depend on how
    /// many run at once (`odrust.forks`): the plan is the same either way.
    pub(super) fn plan_minimization_batch(&self) -> Vec<Next> {
        if !self.config.minimize {
            return Vec::new();
        }
        let spent = self.budget_used() >= self.minimize_budget();
        let pending: Vec<(&OdTest, Explanation, Next)> = self
            .to_explain()
            .into_iter()
            .filter_map(|od| match self.explain(od) {
                Some((explanation, Some(next))) if next.confirms || !spent => {
                    Some((od, explanation, next))
                }
                _ => None,
            })
            .collect();
        let searching = |e: &Explanation| matches!(e.stage, Stage::Culprits { .. } | Stage::Group);
        // An OD test whose related OD test is in the middle of its search waits for it: what
        // that search verifies is then tried first (shared work) instead of searched again. A
        // victim waits as well for any victim's search until it found a polluter: that one is
        // tried first then, and its victims are explained together (`Hints::victims`).
        let victim = |o: &OdTest| self.kind_of(o).role() == Some(OdRole::Victim);
        let waits = |od: &OdTest| {
            self.spent_on(od) == 0
                && pending.iter().any(|(o, e, _)| {
                    o.test != od.test
                        && self.spent_on(o) > 0
                        && searching(e)
                        && (self.related(o, od)
                            || (victim(o)
                                && victim(od)
                                && matches!(e.stage, Stage::Culprits { found: 0 })))
                })
        };
        let key = |od: &OdTest, explanation: &Explanation, next: &Next| {
            if next.confirms {
                return 0;
            }
            match (searching(explanation), explanation.culprits.is_empty()) {
                (true, true) if !waits(od) => 1,
                (true, _) => 2,
                (false, _) => 3,
            }
        };
        let mut ranked: Vec<(u8, &OdTest, &Explanation, &Next)> = pending
            .iter()
            .map(|(od, e, next)| (key(od, e, next), *od, e, next))
            .collect();
        // stable: among equals, the order OD tests are explained in
        ranked.sort_by_key(|r| r.0);
        let Some(&(first_key, ..)) = ranked.first() else {
            return Vec::new();
        };
        // Confirmations of claims are not bounded by the budget.
        let room = if first_key == 0 {
            EXPLAIN_BATCH
        } else {
            (self.minimize_budget().saturating_sub(self.budget_used()) as usize)
                .clamp(1, EXPLAIN_BATCH)
        };
        let mut batch: Vec<(&OdTest, &Next)> = Vec::new();
        // Victims starting a search with no polluter known: one at a time (see `waits`).
        let mut unhinted = false;
        for (k, od, e, next) in ranked {
            if batch.len() >= room || k != first_key {
                break;
            }
            let blind = victim(od)
                && self.spent_on(od) == 0
                && searching(e)
                && e.culprits.is_empty()
                && next.query.order.len() > 2;
            if blind && unhinted {
                continue;
            }
            // Not related, and not the same unit (a victim and a brittle of one dynamic container
            // run orders that end alike: one's run could serve or change the other's plan).
            // Nor the same order (victims of one cause share their group runs).
            if batch.iter().all(|(o, n)| {
                o.unit != od.unit
                    && !self.related(o, od)
                    && !self.related(od, o)
                    && n.query.order != next.query.order
            }) {
                batch.push((od, next));
                unhinted |= blind;
            }
        }
        batch.into_iter().map(|(_, next)| next.clone()).collect()
    }

    /// Notes about the explanation of `od`: cut short by the budget or the time budget, no
    /// polluter found, cleaners not all tried.
    pub(super) fn describe(
        &self,
        od: &OdTest,
        explanation: &Explanation,
        pending: bool,
        notes: &mut Vec<String>,
    ) {
        let (culprit, culprits) = if self.kind_of(od) == FlakyKind::VICTIM {
            ("polluter", "polluters")
        } else {
            ("state-setter", "state-setters")
        };
        if pending {
            let during = match &explanation.stage {
                Stage::Culprits { found } => {
                    format!("while searching for {culprits}, {found} found so far")
                }
                Stage::Group => {
                    format!("while narrowing down a group of tests that are {culprits} together")
                }
                Stage::Cleaners { polluter, left } => format!(
                    "while searching for cleaners of polluter `{polluter}`, {left} candidates left"
                ),
                Stage::Confirming => {
                    "while confirming in fresh JVMs what shared JVMs showed".to_string()
                }
                Stage::Done => String::new(),
            };
            let partial = if explanation.culprits.is_empty() {
                ""
            } else {
                "; what was found is reported, and its flake rate is marked incomplete"
            };
            let budget = self.minimize_budget();
            if !self.selected(od) {
                notes.push(format!(
                    "explaining `{}` is not finished ({during}); this run explained only the tests it was asked for (`odrust:minimize -Dodrust.test={}` continues it){partial}",
                    od.test, od.test
                ));
            } else if self.budget_used() >= budget {
                notes.push(format!(
                    "explaining `{}` stopped {during}: the run's budget of {budget} explanation experiments is spent (raise -Dodrust.minimize.budget, or resume, to go further){partial}",
                    od.test
                ));
            } else {
                notes.push(format!(
                    "explaining `{}` is not finished ({during}){partial}",
                    od.test
                ));
            }
        } else if explanation.culprits.is_empty() {
            notes.push(format!(
                "no {culprit} of `{}` was found among the suite's tests: it may depend on something outside them",
                od.test
            ));
        }
    }
}
