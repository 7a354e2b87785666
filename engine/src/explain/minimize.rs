//! The minimization phase of `odrust:detect`: explaining each OD test by the tests it depends on
//! (`docs/minimize-algorithm.md`).
//!
//! For a **victim**: *every* single polluter among the suite's tests, by adaptive group testing
//! ([`crate::explain::group`]): first over the other tests of its class (one run, when no other OD
//! test's polluter does it), then over the tests that ran before it in its failing order
//! (known to fail it), then over all the others; each polluter is verified by its own pair run
//! `[p, v]`. When no single test fails it, delta debugging ([`crate::explain::ddmin`]) finds a
//! 1-minimal polluter group. Then every cleaner of each single polluter, by group testing over
//! `[p, C..., v]`. For a **brittle**: its state-setters the same way, with "the brittle passes" as
//! the oracle.
//!
//! Like the rest of the planner, [`explain`] is a pure function: it gets the outcomes observed so
//! far (any experiment of the history with exactly the order it needs) and returns what they
//! show plus the next experiment it needs, if any. Nothing is asked whose order was already run,
//! so runs made for one OD test serve every other. The caller ([`crate::detect`]) decides which
//! OD test goes next and bounds the experiments with the budget.

use std::collections::{BTreeMap, HashSet};

use crate::explain::cause::{Asked, Cause};
use crate::explain::ddmin::{ddmin_step, DdminStep};
use crate::explain::group::{find_all_step, Cut, GroupStep, Groups, Search};
use crate::model::experiment::ExperimentKind;
use crate::model::kind::OdRole;

/// The OD test to explain.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    /// Its id (a result id).
    pub test: &'a str,
    /// The unit of an order that runs it (the test, or its dynamic container).
    pub unit: &'a str,
    /// Victim or brittle.
    pub role: OdRole,
    /// The units that ran before it in its failing order (victim) or passing order (brittle).
    pub prefix: &'a [String],
}

/// What other OD tests' explanations verified, tried first for this one (shared work): each hint
/// still has to show the dependency in this test's own run (`[t, v]`, `[p, c, v]`) to count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    /// Culprits (single polluters or state-setters) of related OD tests.
    pub culprits: Vec<String>,
    /// Polluters verified for unrelated victims (a victim's), tried after `culprits` and only
    /// when none of those shows: one cause often has victims all over a module.
    pub other_culprits: Vec<String>,
    /// Cleaners of a polluter for related victims, by polluter.
    pub cleaners: BTreeMap<String, Vec<String>>,
    /// Cleaners of other polluters (the victim's own, then related victims'), tried after
    /// `cleaners` for the polluter that is the key, until [`POOLED_MISSES`] in a row miss.
    pub pooled_cleaners: BTreeMap<String, Vec<String>>,
    /// The same for a polluter with no entry in `pooled_cleaners`.
    pub pooled_cleaners_default: Vec<String>,
    /// The units of every victim of the suite (the subject among them), in the suite's order:
    /// the victims of one polluter are explained together. See [`Cause`].
    pub victims: Vec<String>,
    /// Tests of the prefix whose recorded static-field writes the subject read (the baseline's
    /// recording, `docs/dependence.md`), most specific first: tried after the other culprit
    /// hints, only while none shows.
    pub recorded_culprits: Vec<String>,
    /// Per polluter verified for the subject: tests whose recorded writes meet what it wrote
    /// and the subject read, most specific first; tried after the pooled cleaners, until
    /// [`POOLED_MISSES`] in a row of them miss, and only when `cleaners` has none for that
    /// polluter (no related victim verified its cleaners).
    pub recorded_cleaners: BTreeMap<String, Vec<String>>,
}

/// Adds `cleaners` of one polluter to those found in this pass (pooled for its other polluters).
fn found_cleaners(pass: &mut Vec<String>, cleaners: &[String]) {
    for c in cleaners {
        if !pass.contains(c) {
            pass.push(c.clone());
        }
    }
}

/// Where a hint comes from. Culprit hints of each source but the first are tried only while
/// none showed; cleaner hints of each source but the first stop on their own after
/// [`POOLED_MISSES`] misses in a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// Verified for a related OD test (a cleaner: for this polluter).
    Related = 0,
    /// Verified for an unrelated victim (a culprit), or for another polluter (a pooled cleaner).
    Pooled = 1,
    /// Named by the recording.
    Recorded = 2,
}

/// Pooled cleaner hints stop after this many in a row do not clean: a cleaner of another
/// polluter is likely, not certain, to clean this one (a miss costs one run).
pub const POOLED_MISSES: usize = 3;

/// An experiment the explanation needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// `polluter-search` (a set of tests, then the victim), `polluter-pair` (one test),
    /// `cleaner` (a polluter, a set of tests, the victim), `setter-search` or `setter-pair`.
    pub kind: ExperimentKind,
    /// The order to run; the subject's unit is last, or (victims of one cause, [`Cause`]) after
    /// the tests under examination, with the other victims.
    pub order: Vec<String>,
    /// The subject first, then the tests under examination.
    pub targets: Vec<String>,
}

/// How far an explanation got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// Group testing for single polluters (state-setters): `found` so far.
    Culprits {
        /// Found so far.
        found: usize,
    },
    /// Delta debugging for a group, no single culprit existing.
    Group,
    /// Group testing for cleaners of `polluter`; `left` candidates not cleared yet.
    Cleaners {
        /// The polluter.
        polluter: String,
        /// Candidates neither found nor cleared.
        left: usize,
    },
    /// Detection's: the search is complete, and a claim it found in a shared JVM runs again in a
    /// fresh JVM before it is reported (`detect::shared`). [`explain`] never returns it.
    Confirming,
    /// Complete.
    Done,
}

/// What the observed outcomes show about one OD test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// Polluters (victim) or state-setters (brittle): single tests as one-element groups, or,
    /// when no single test suffices, the 1-minimal group delta debugging found.
    pub culprits: Vec<Vec<String>>,
    /// Victim only: the cleaners found for each single polluter (an empty list when none).
    pub cleaners: BTreeMap<String, Vec<String>>,
    /// Where it stopped (the next query belongs to this stage).
    pub stage: Stage,
    /// Whether the search for single culprits ran to the end over every test of the suite.
    pub culprits_complete: bool,
    /// While the search for single culprits runs: the tests that may still be culprits (neither
    /// found nor cleared).
    pub culprits_open: Vec<String>,
}

/// The explanation of `subject` from the outcomes `observed` gives, and the next experiment it
/// needs (`None` when complete).
///
/// `observed(order)` is `None` when no experiment ran exactly `order`, otherwise the subject's
/// verdict in the first one that did (`Some(true)` passed, `Some(false)` did not pass, `None`
/// not reported). `units` is the suite's original order (the candidates). `hints` are tried
/// first by their own runs; a hint that shows the dependency is left out of the group tests,
/// which then only have to show that nothing else does.
/// `same_class(a, b)` tells whether two units belong to one class record: when a polluter and
/// its victim share a class, only tests of that class can run between them (JUnit runs a class
/// as one block, so `[p, c, v]` with `c` elsewhere would rerun the class's setup before `v` and
/// show cleaners that no real run can have).
/// `cut` says where group testing cuts a set in two: in the middle, or where the search below
/// is expected to cost least given the units' run times (`docs/minimize-algorithm.md`).
pub fn explain(
    subject: Subject<'_>,
    units: &[String],
    hints: &Hints,
    observed: &dyn Fn(&[String]) -> Option<Option<bool>>,
    same_class: &dyn Fn(&str, &str) -> bool,
    cut: Cut<'_, String>,
) -> (Explanation, Option<Query>) {
    let Subject {
        test,
        unit,
        role,
        prefix,
    } = subject;
    // The verdict that shows a dependency: the victim fails, the brittle passes.
    let shows = match role {
        OdRole::Victim => Some(false),
        OdRole::Brittle => Some(true),
    };
    let (search_kind, pair_kind) = match role {
        OdRole::Victim => (ExperimentKind::PolluterSearch, ExperimentKind::PolluterPair),
        OdRole::Brittle => (ExperimentKind::SetterSearch, ExperimentKind::SetterPair),
    };
    let then_unit = |before: &[String], tests: &[String]| -> Vec<String> {
        let mut order: Vec<String> = before.to_vec();
        order.extend(tests.iter().cloned());
        order.push(unit.to_string());
        order
    };
    let query = |kind, order, examined: &[String]| {
        let mut targets = vec![test.to_string()];
        targets.extend(examined.iter().cloned());
        Some(Query {
            kind,
            order,
            targets,
        })
    };
    let culprit_kind = |set: &[String]| {
        if set.len() == 1 {
            pair_kind
        } else {
            search_kind
        }
    };
    let mut explanation = Explanation {
        culprits: Vec::new(),
        cleaners: BTreeMap::new(),
        stage: Stage::Culprits { found: 0 },
        culprits_complete: false,
        culprits_open: Vec::new(),
    };
    let shown =
        |before: &[String], set: &[String]| observed(&then_unit(before, set)).map(|v| v == shows);

    // Culprits in a canonical order, however they were found: the prefix's order, then the
    // suite's; cleaners in the suite's order.
    let rank = |t: &String| match subject.prefix.iter().position(|p| p == t) {
        Some(i) => (0, i),
        None => (1, units.iter().position(|u| u == t).unwrap_or(usize::MAX)),
    };
    let as_groups = |singles: &[String]| -> Vec<Vec<String>> {
        let mut sorted: Vec<&String> = singles.iter().collect();
        sorted.sort_by_key(|t| rank(t));
        sorted.into_iter().map(|t| vec![t.clone()]).collect()
    };
    let in_suite_order = |mut tests: Vec<String>| -> Vec<String> {
        tests.sort_by_key(|t| units.iter().position(|u| u == t).unwrap_or(usize::MAX));
        tests
    };

    // Single culprits: first the hints and its class (below), then among the tests that ran
    // before it (known to show the dependency, unless culprits were found and left out),
    // then among every other test of the suite.
    let in_prefix: HashSet<&String> = prefix.iter().collect();
    let rest: Vec<String> = units
        .iter()
        .filter(|u| u.as_str() != unit && !in_prefix.contains(u))
        .cloned()
        .collect();
    let mut singles: Vec<String> = Vec::new();
    // Where the explanation stands while hints and the class run are asked, before the search
    // over the prefix: the culprits found so far; every other test still open.
    let before_search = |explanation: &mut Explanation, singles: &[String]| {
        explanation.culprits = as_groups(singles);
        explanation.culprits_open = prefix
            .iter()
            .chain(&rest)
            .filter(|t| !singles.contains(t))
            .cloned()
            .collect();
        explanation.stage = Stage::Culprits {
            found: singles.len(),
        };
    };
    // Shared work: what related OD tests showed, by this test's own pair runs first.
    // Then, only while none showed, the polluters of unrelated victims, then the tests the
    // recording says write what it reads (`Hints::recorded_culprits`).
    let related = hints.culprits.iter().map(|h| (h, Source::Related));
    let others = hints.other_culprits.iter().map(|h| (h, Source::Pooled));
    let recorded = hints
        .recorded_culprits
        .iter()
        .map(|h| (h, Source::Recorded));
    // Culprits only this OD test's own runs suggested (the recording, its class): verified for
    // it alone, they are no sign of a cause with other victims.
    let mut own_only = false;
    for (hint, source) in related.chain(others).chain(recorded) {
        let only_first = source != Source::Related;
        if hint.as_str() == unit || !units.contains(hint) || (only_first && !singles.is_empty()) {
            continue;
        }
        match shown(&[], std::slice::from_ref(hint)) {
            Some(true) => {
                singles.push(hint.clone());
                own_only = source == Source::Recorded;
            }
            Some(false) => {}
            None => {
                before_search(&mut explanation, &singles);
                let pair = std::slice::from_ref(hint);
                return (explanation, query(pair_kind, then_unit(&[], pair), pair));
            }
        }
    }
    // Its class first, as one group, unless another OD test's culprit showed (then the cause is
    // likely shared, and its runs come next): the tests of one class are the likeliest to share
    // a state, and they are few, so one short run (and group testing inside it when it shows)
    // finds them where group testing over the prefix would run halves of hundreds of tests on
    // the way down to each. Only a shortcut: each test it finds is verified by its own pair
    // run, and what it clears is searched again with everything else below. One way only; a
    // class larger than half the suite is not run apart. A group of its tests that shows the
    // dependency only together (no single culprit) is left to the search below.
    if singles.is_empty() || own_only {
        let class: Vec<String> = units
            .iter()
            .filter(|u| u.as_str() != unit && !singles.contains(u) && same_class(u, unit))
            .cloned()
            .collect();
        if !class.is_empty() && class.len() * 2 <= units.len().saturating_sub(1) {
            let search = Search {
                known_positive: false,
                both_ways: false,
            };
            match find_all_step(&class, search, cut, |s| shown(&[], s)) {
                GroupStep::Query(q, partial) => {
                    singles.extend(partial.singles);
                    before_search(&mut explanation, &singles);
                    return (explanation, query(culprit_kind(&q), then_unit(&[], &q), &q));
                }
                GroupStep::Done(found) => {
                    own_only |= !found.singles.is_empty();
                    singles.extend(found.singles);
                }
            }
        }
    }
    let hinted = singles.clone();
    // Victims of one polluter: two runs show for all of them that nothing else pollutes them
    // (when another victim verified it: one this victim's own runs suggested may be its alone).
    let cause = match (role, hinted.as_slice()) {
        (OdRole::Victim, [p]) if !own_only => Cause::of(p, unit, units, &hints.victims, &[]),
        _ => None,
    };
    let mut cleared = false;
    if let Some(cause) = &cause {
        // The two runs of the module, then the other victims before and after it, each the
        // other way round: there they ran only one way (a victim polluting it hidden by one
        // cleaning it).
        match cause.ask(observed, unit, false, true, true) {
            Asked::Holds => cleared = true,
            Asked::Not => {}
            Asked::Run(order, examined) => {
                explanation.culprits = as_groups(&singles);
                explanation.culprits_open = units
                    .iter()
                    .filter(|u| u.as_str() != unit && !singles.contains(u))
                    .cloned()
                    .collect();
                explanation.stage = Stage::Culprits {
                    found: singles.len(),
                };
                return (explanation, query(search_kind, order, &examined));
            }
        }
    }
    let prefix: Vec<String> = prefix
        .iter()
        .filter(|t| !hinted.contains(t))
        .cloned()
        .collect();
    let rest: Vec<String> = rest.into_iter().filter(|t| !hinted.contains(t)).collect();
    let mut joint: Vec<Vec<String>> = Vec::new();
    let searched: &[(&[String], bool)] = if cleared {
        &[]
    } else {
        &[
            (prefix.as_slice(), hinted.is_empty()),
            (rest.as_slice(), false),
        ]
    };
    for (round, &(set, known_positive)) in searched.iter().enumerate() {
        let search = Search {
            known_positive,
            both_ways: true,
        };
        let found: Groups<String> = match find_all_step(set, search, cut, |s| shown(&[], s)) {
            GroupStep::Query(q, partial) => {
                let ruled: HashSet<&String> =
                    partial.cleared.iter().chain(&partial.singles).collect();
                explanation.culprits_open =
                    set.iter().filter(|t| !ruled.contains(t)).cloned().collect();
                if round == 0 {
                    explanation.culprits_open.extend(rest.iter().cloned());
                }
                singles.extend(partial.singles);
                explanation.culprits = as_groups(&singles);
                explanation.stage = Stage::Culprits {
                    found: singles.len(),
                };
                return (explanation, query(culprit_kind(&q), then_unit(&[], &q), &q));
            }
            GroupStep::Done(found) => found,
        };
        singles.extend(found.singles);
        joint.extend(found.joint);
    }
    explanation.culprits_complete = true;
    explanation.culprits = as_groups(&singles);
    let singles: Vec<String> = explanation.culprits.iter().map(|g| g[0].clone()).collect();

    // No single culprit: the smallest group that shows it, by delta debugging.
    if singles.is_empty() {
        if let Some(set) = joint.first() {
            match ddmin_step(set, |subset| shown(&[], subset)) {
                DdminStep::Query(subset) => {
                    explanation.stage = Stage::Group;
                    return (
                        explanation,
                        query(search_kind, then_unit(&[], &subset), &subset),
                    );
                }
                DdminStep::Done(minimal) if minimal.len() >= 2 => {
                    explanation.culprits = vec![minimal];
                }
                DdminStep::Done(_) => {}
            }
        }
    }

    if role == OdRole::Victim {
        let mut singles = singles;
        // Cleaners can hide polluters from both sides in every set: once the cleaners of the
        // polluters found are known, the rest of the suite without them is searched again
        // (forward and reversed), until a sweep finds no new polluter.
        explanation.culprits_complete = false;
        loop {
            // Cleaners found in this pass, in the order found (hints for the next polluters).
            let mut pass_cleaners: Vec<String> = Vec::new();
            for polluter in &singles {
                let shared = same_class(polluter, unit);
                // Other single polluters would fail the victim on their own: never candidates.
                let candidates: Vec<String> = units
                    .iter()
                    .filter(|c| c.as_str() != unit && !singles.contains(c))
                    .filter(|c| !shared || same_class(c, unit))
                    .cloned()
                    .collect();
                let before = std::slice::from_ref(polluter);
                let search = Search {
                    known_positive: false,
                    both_ways: false,
                };
                let cleans =
                    |set: &[String]| observed(&then_unit(before, set)).map(|v| v == Some(true));
                // Where this polluter's cleaner search stops: the cleaners found so far, `left`
                // candidates not cleared, and the run it needs.
                let cleaner_run = |mut explanation: Explanation,
                                   left: usize,
                                   found: Vec<String>,
                                   order: Vec<String>,
                                   examined: Vec<String>| {
                    explanation.stage = Stage::Cleaners {
                        polluter: polluter.clone(),
                        left,
                    };
                    explanation
                        .cleaners
                        .insert(polluter.clone(), in_suite_order(found));
                    (
                        explanation,
                        query(ExperimentKind::Cleaner, order, &examined),
                    )
                };
                // Shared work: cleaners of this polluter for related victims, by their own triples.
                let mut hinted: Vec<String> = Vec::new();
                let mut tried: Vec<(&String, Source)> = hints
                    .cleaners
                    .get(polluter)
                    .into_iter()
                    .flatten()
                    .map(|h| (h, Source::Related))
                    .collect();
                // Then the cleaners of this victim's polluters searched before in this pass, then
                // the pool, then the tests the recording says rewrite what the polluter left.
                let pool = hints
                    .pooled_cleaners
                    .get(polluter)
                    .unwrap_or(&hints.pooled_cleaners_default);
                let pooled = pass_cleaners
                    .iter()
                    .chain(pool)
                    .map(|h| (h, Source::Pooled));
                // (Only for the first victim to search this polluter's cleaners: once related
                // victims verified them, the rest is concluded without more triples.)
                let recorded = hints
                    .recorded_cleaners
                    .get(polluter)
                    .filter(|_| hints.cleaners.get(polluter).is_none_or(|c| c.is_empty()))
                    .into_iter()
                    .flatten();
                for (h, source) in pooled.chain(recorded.map(|h| (h, Source::Recorded))) {
                    if !tried.iter().any(|(t, _)| *t == h) {
                        tried.push((h, source));
                    }
                }
                // Misses in a row, per source (related hints never stop).
                let mut misses = [0usize; 3];
                for (hint, source) in tried.into_iter().filter(|(h, _)| candidates.contains(h)) {
                    if source != Source::Related && misses[source as usize] >= POOLED_MISSES {
                        continue;
                    }
                    match cleans(std::slice::from_ref(hint)) {
                        Some(true) => {
                            hinted.push(hint.clone());
                            misses[source as usize] = 0;
                        }
                        Some(false) => misses[source as usize] += 1,
                        None => {
                            let left = candidates.len() - hinted.len();
                            return cleaner_run(
                                explanation,
                                left,
                                hinted,
                                then_unit(before, std::slice::from_ref(hint)),
                                vec![polluter.clone(), hint.clone()],
                            );
                        }
                    }
                }
                // Victims of one polluter, its only one: two runs show for all of them that
                // nothing cleans but the cleaners each verified (when they verified the same).
                let by_cause = (role == OdRole::Victim && singles.len() == 1 && !shared)
                    .then(|| Cause::of(polluter, unit, units, &hints.victims, &hinted))
                    .flatten();
                if let Some(cause) = &by_cause {
                    match cause.ask(observed, unit, true, false, false) {
                        Asked::Holds => {
                            found_cleaners(&mut pass_cleaners, &hinted);
                            explanation
                                .cleaners
                                .insert(polluter.clone(), in_suite_order(hinted));
                            continue;
                        }
                        Asked::Not => {}
                        Asked::Run(order, examined) => {
                            let left = candidates.len() - hinted.len();
                            return cleaner_run(explanation, left, hinted, order, examined);
                        }
                    }
                }
                let candidates: Vec<String> = candidates
                    .into_iter()
                    .filter(|c| !hinted.contains(c))
                    .collect();
                match find_all_step(&candidates, search, cut, cleans) {
                    GroupStep::Query(q, partial) => {
                        let ruled: HashSet<&String> =
                            partial.cleared.iter().chain(&partial.singles).collect();
                        let open: Vec<String> = candidates
                            .iter()
                            .filter(|c| !ruled.contains(c))
                            .cloned()
                            .collect();
                        let mut found = hinted;
                        found.extend(partial.singles);
                        let mut examined = vec![polluter.clone()];
                        examined.extend(q.iter().cloned());
                        let order = then_unit(before, &q);
                        return cleaner_run(explanation, open.len(), found, order, examined);
                    }
                    GroupStep::Done(found) => {
                        let mut all = hinted;
                        all.extend(found.singles);
                        found_cleaners(&mut pass_cleaners, &all);
                        explanation
                            .cleaners
                            .insert(polluter.clone(), in_suite_order(all));
                    }
                }
            }
            let cleaners_all: HashSet<String> =
                explanation.cleaners.values().flatten().cloned().collect();
            if cleaners_all.is_empty() {
                break;
            }
            let sweep: Vec<String> = units
                .iter()
                .filter(|u| {
                    u.as_str() != unit && !singles.contains(u) && !cleaners_all.contains(*u)
                })
                .cloned()
                .collect();
            // Victims of one polluter: two runs without the cleaners show for all of them
            // (those that verified the same cleaners) that the cleaners hid no other polluter.
            let cleaners_all: Vec<String> = in_suite_order(cleaners_all.into_iter().collect());
            let by_cause = (role == OdRole::Victim && singles.len() == 1)
                .then(|| Cause::of(&singles[0], unit, units, &hints.victims, &cleaners_all))
                .flatten();
            if let Some(cause) = &by_cause {
                // The other victims the other way round, too (the culprit stage's runs, when
                // it had them).
                match cause.ask(observed, unit, false, true, true) {
                    Asked::Holds => break,
                    Asked::Not => {}
                    Asked::Run(order, examined) => {
                        explanation.culprits = as_groups(&singles);
                        explanation.culprits_open = sweep.clone();
                        explanation.stage = Stage::Culprits {
                            found: singles.len(),
                        };
                        return (explanation, query(search_kind, order, &examined));
                    }
                }
            }
            let search = Search {
                known_positive: false,
                both_ways: true,
            };
            match find_all_step(&sweep, search, cut, |s| shown(&[], s)) {
                GroupStep::Query(q, partial) => {
                    let ruled: HashSet<&String> =
                        partial.cleared.iter().chain(&partial.singles).collect();
                    explanation.culprits_open = sweep
                        .iter()
                        .filter(|t| !ruled.contains(t))
                        .cloned()
                        .collect();
                    let mut found = singles.clone();
                    found.extend(partial.singles);
                    explanation.culprits = as_groups(&found);
                    explanation.stage = Stage::Culprits { found: found.len() };
                    return (explanation, query(culprit_kind(&q), then_unit(&[], &q), &q));
                }
                GroupStep::Done(found) if found.singles.is_empty() => break,
                GroupStep::Done(found) => {
                    singles.extend(found.singles);
                    explanation.culprits = as_groups(&singles);
                    singles = explanation.culprits.iter().map(|g| g[0].clone()).collect();
                }
            }
        }
        explanation.culprits_complete = true;
    }
    explanation.stage = Stage::Done;
    (explanation, None)
}

#[cfg(test)]
#[path = "minimize_tests.rs"]
mod tests;
