//! The audit planner (`audit_next`): replays the audit's history and asks for the next run.
//!
//! 1. **Twice**: the original order with every class's block run twice in a row, in one JVM. A
//!    test that passes in its block's first run and fails in its second is a candidate.
//! 2. **Confirm** each candidate in a fresh JVM, captured before each of its starts: `[t, t]`; if
//!    that does not fail the second time, its class's block twice. When classes were initialized
//!    during the first run, the same again with them initialized first, so their state after the
//!    first run is compared with their state right after initialization. A candidate no fresh JVM
//!    repeats is not reported as non-idempotent.
//! 3. **Capture** the original order before every segment and at the end: a field of a class
//!    initialized before a segment that differs across it was left changed by its class.
//! 4. **Initial states**: the same order with each class initialized right before the segment
//!    that initialized it in step 3, captured there: a field of a class a segment initialized is
//!    compared with that state (a singleton a test creates while a system property it set is in
//!    force). This run only gives those states: initializing early may change what later tests
//!    do.
//! 5. **Capture** again before every test of the classes that left something, in a second JVM: a
//!    field not changed again is left out (unstable; for a field compared with its initial state,
//!    paths that differ between the two JVMs after the segment are noise); the others are
//!    attributed to the test (or class setup) that left them, or that initialized their class,
//!    and ranked by the test classes that read them.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::EngineError;
use crate::model::outcome::RunOutcome;
use crate::model::testid::{class_of, container_of};

use super::changes;
use super::readers::Readers;
use super::runs::{blocks, brackets, outcome_changes, repeats, run_problems, twice_outcomes};
use super::segments::{
    bracket, capture_file, left_behind, load_segment, segment_changes, segment_class,
    segment_leftovers,
};
use super::shapes::{
    AuditExperiment, AuditKind, AuditOutcome, AuditRecord, AuditRequest, AuditStep, ChangedField,
    InitializeAt, LatentPolluter, NonIdempotent, DEFAULT_MAX_CONFIRM,
};

/// The next step of the audit.
pub fn next(request: &AuditRequest) -> Result<AuditStep, EngineError> {
    let records: Vec<&AuditRecord> = request
        .history
        .iter()
        .filter(|r| r.fingerprint == request.fingerprint)
        .collect();
    let planner = Planner {
        request,
        records: &records,
    };
    planner.next()
}

pub(super) struct Planner<'a> {
    pub(super) request: &'a AuditRequest,
    pub(super) records: &'a [&'a AuditRecord],
}

/// What one confirmation level came to.
enum Confirmation {
    Run(AuditExperiment, String),
    Repeated(Box<NonIdempotent>),
    NotRepeated,
}

impl<'a> Planner<'a> {
    fn next(&self) -> Result<AuditStep, EngineError> {
        let mut outcome = AuditOutcome {
            jvms: self.records.len(),
            ..AuditOutcome::default()
        };
        if self.request.original.is_empty() {
            outcome.notes.push("no test to audit".to_string());
            return Ok(AuditStep::Done { outcome });
        }
        let blocks = blocks(&self.request.original);
        for r in self.records {
            if let Some(problem) = run_problems(r) {
                outcome.notes.push(problem);
            }
        }
        // 1. every class twice
        let Some(twice) = self.last(AuditKind::Twice) else {
            let order: Vec<String> = blocks
                .iter()
                .flat_map(|b| b.iter().chain(b.iter()).cloned())
                .collect();
            return Ok(self.run(
                AuditKind::Twice,
                order,
                format!(
                    "every class run twice in a row in one JVM ({} tests)",
                    self.request.original.len()
                ),
            ));
        };
        if !twice.honoured {
            outcome.notes.push(format!(
                "experiment {} (every class twice) did not run exactly as asked: its candidates may be incomplete",
                twice.experiment.id
            ));
        }
        let (failing, candidates) = twice_outcomes(twice, &self.request.original);
        outcome.failing = failing;
        // 2. confirm each candidate in fresh JVMs
        let max = self.request.max_confirm.unwrap_or(DEFAULT_MAX_CONFIRM);
        // A class whose every test fails in its second block (its class setup cannot run twice,
        // or state all its tests share): one cause, confirmed once with the class twice.
        let candidate_set: BTreeSet<&str> = candidates.iter().map(|(t, _)| t.as_str()).collect();
        let whole: Vec<&Vec<String>> = blocks
            .iter()
            .filter(|b| b.len() > 1 && b.iter().all(|t| candidate_set.contains(t.as_str())))
            .collect();
        let mut covered: BTreeSet<&str> = BTreeSet::new();
        for block in &whole {
            let first = block[0].as_str();
            covered.extend(block.iter().map(String::as_str));
            match self.confirm(first, true, &blocks)? {
                Confirmation::Run(e, what) => return Ok(self.ask(e, what)),
                Confirmation::Repeated(mut found) => {
                    found.experiments.insert(0, twice.experiment.id);
                    found.others = block[1..].to_vec();
                    outcome.non_idempotent.push(*found);
                }
                Confirmation::NotRepeated => {
                    // not one cause after all: each test on its own below
                    for t in block.iter() {
                        covered.remove(t.as_str());
                    }
                }
            }
        }
        let candidates: Vec<&(String, Option<String>)> = candidates
            .iter()
            .filter(|(t, _)| !covered.contains(t.as_str()))
            .collect();
        for (n, (test, message)) in candidates.iter().map(|c| (&c.0, &c.1)).enumerate() {
            if n >= max {
                outcome.not_confirmed.push(format!(
                    "{test}: failed on its second run in experiment {}, not confirmed (over -Dodrust.audit.confirm={max})",
                    twice.experiment.id
                ));
                continue;
            }
            match self.confirm(test, false, &blocks)? {
                Confirmation::Run(e, what) => return Ok(self.ask(e, what)),
                Confirmation::Repeated(mut found) => {
                    found.experiments.insert(0, twice.experiment.id);
                    outcome.non_idempotent.push(*found);
                    continue;
                }
                Confirmation::NotRepeated => {}
            }
            let alone = blocks
                .iter()
                .find(|b| b.iter().any(|t| t == test))
                .is_some_and(|b| b.len() == 1);
            if alone {
                outcome.not_confirmed.push(format!(
                    "{test}: failed on its second run in experiment {} ({}), but not in a fresh JVM run twice alone (its class has no other test): it depends on the tests before it",
                    twice.experiment.id,
                    message.as_deref().unwrap_or("no message")
                ));
                continue;
            }
            match self.confirm(test, true, &blocks)? {
                Confirmation::Run(e, what) => return Ok(self.ask(e, what)),
                Confirmation::Repeated(mut found) => {
                    found.experiments.insert(0, twice.experiment.id);
                    outcome.non_idempotent.push(*found);
                }
                Confirmation::NotRepeated => outcome.not_confirmed.push(format!(
                    "{test}: failed on its second run in experiment {} ({}), but not in a fresh JVM, alone twice or with its class twice: it depends on the tests before it",
                    twice.experiment.id,
                    message.as_deref().unwrap_or("no message")
                )),
            }
        }
        // 3. a capture before every segment, nothing else changed
        let Some(by_class) = self.last(AuditKind::CaptureClasses) else {
            return Ok(self.ask(
                self.experiment(AuditKind::CaptureClasses, self.request.original.clone()),
                format!(
                    "the original order, static state captured before each of {} classes",
                    blocks.len()
                ),
            ));
        };
        // 4. the state of each class right after initialization, right before the segment that
        //    initialized it: initializing it early may change what later tests do, so this run
        //    gives that state and nothing else
        let hints: Vec<InitializeAt> = changes::initialized_during(by_class)
            .into_iter()
            .flat_map(|(segment, classes)| {
                classes
                    .into_iter()
                    .map(move |class| InitializeAt { segment, class })
            })
            .collect();
        let initial = match (hints.is_empty(), self.last(AuditKind::InitialStates)) {
            (true, _) => None,
            (false, Some(r)) => Some(r),
            (false, None) => {
                let n = hints.len();
                return Ok(self.ask(
                    AuditExperiment {
                        initialize_at: hints,
                        ..self.experiment(AuditKind::InitialStates, self.request.original.clone())
                    },
                    format!(
                        "the original order, each of {} initialized right before the class that first initializes it and captured there",
                        plural(n, "class", "classes")
                    ),
                ));
            }
        };
        if let Some(h) = initial {
            let differ = outcome_changes(by_class, h);
            if !differ.is_empty() {
                outcome.notes.push(format!(
                    "initializing classes early (experiment {}, used only for their initial states) changed the outcome of {}",
                    h.experiment.id,
                    list(&differ)
                ));
            }
        }
        let left = segment_changes(by_class, initial, &mut outcome.notes);
        let leftovers = segment_leftovers(by_class, &mut outcome.notes);
        if left.is_empty() && leftovers.is_empty() {
            return Ok(AuditStep::Done { outcome });
        }
        // 5. a capture before every test of the classes that left something
        let Some(by_test) = self.last(AuditKind::CaptureTests) else {
            let mut classes: Vec<String> = left
                .keys()
                .chain(leftovers.keys())
                .filter_map(|s| segment_class(by_class, *s))
                .collect();
            classes.sort();
            classes.dedup();
            let what = format!(
                "the original order again, static state captured before each test of {} classes that left state changed",
                classes.len()
            );
            return Ok(self.ask(
                AuditExperiment {
                    capture_tests: classes,
                    ..self.experiment(AuditKind::CaptureTests, self.request.original.clone())
                },
                what,
            ));
        };
        let differ = outcome_changes(by_class, by_test);
        if !differ.is_empty() {
            outcome.notes.push(format!(
                "experiments {} and {} of the same order differ in the outcome of {}",
                by_class.experiment.id,
                by_test.experiment.id,
                list(&differ)
            ));
        }
        outcome.latent_polluters =
            self.latent(by_class, by_test, initial, &left, &mut outcome.notes);
        outcome.left_behind = left_behind(by_class, by_test, &leftovers, &mut outcome.notes);
        // 6. teardown patches for latent polluters, when asked
        if let Some(step) = self.fixes(&mut outcome, by_test) {
            return Ok(step);
        }
        Ok(AuditStep::Done { outcome })
    }

    pub(super) fn last(&self, kind: AuditKind) -> Option<&'a AuditRecord> {
        self.records
            .iter()
            .rev()
            .find(|r| r.experiment.kind == kind)
            .copied()
    }

    pub(super) fn experiment(&self, kind: AuditKind, order: Vec<String>) -> AuditExperiment {
        AuditExperiment {
            id: self.request.next_id,
            kind,
            order,
            test: None,
            class_level: false,
            capture_tests: Vec::new(),
            initialize_at: Vec::new(),
            fix: None,
        }
    }

    fn run(&self, kind: AuditKind, order: Vec<String>, what: String) -> AuditStep {
        self.ask(self.experiment(kind, order), what)
    }

    fn ask(&self, experiment: AuditExperiment, what: String) -> AuditStep {
        let left = self.left(&experiment);
        AuditStep::Run {
            experiment,
            what,
            left,
        }
    }

    /// What is left after `next`: the runs of the whole order still to come (the last only when
    /// some class changes state) and the candidates not yet confirmed, with the suite's time from
    /// the run of every class twice (half of it) when it ran.
    fn left(&self, next: &AuditExperiment) -> String {
        let Some(twice) = self.last(AuditKind::Twice) else {
            return "then a fresh JVM or two per test that fails its second run, and up to 3 runs of the order with captures".to_string();
        };
        let whole = [
            AuditKind::CaptureClasses,
            AuditKind::InitialStates,
            AuditKind::CaptureTests,
        ]
        .iter()
        .filter(|k| **k != next.kind && self.last(**k).is_none())
        .count();
        let (_, candidates) = twice_outcomes(twice, &self.request.original);
        let confirmed: BTreeSet<&str> = self
            .records
            .iter()
            .filter_map(|r| r.experiment.test.as_deref())
            .chain(next.test.as_deref())
            .collect();
        let unconfirmed = if whole == 3 || next.kind == AuditKind::Confirm {
            candidates
                .iter()
                .filter(|(t, _)| !confirmed.contains(t.as_str()))
                .count()
                .min(self.request.max_confirm.unwrap_or(DEFAULT_MAX_CONFIRM))
        } else {
            0
        };
        let suite = twice
            .time_ms
            .map(|ms| {
                let secs = ms as f64 / 2000.0;
                if secs < 10.0 {
                    format!(" (the suite took about {secs:.1} s here)")
                } else {
                    format!(" (the suite took about {secs:.0} s here)")
                }
            })
            .unwrap_or_default();
        match (whole, unconfirmed) {
            (0, 0) => "nothing after it".to_string(),
            (w, 0) => format!(
                "up to {} of the order with captures{suite}",
                plural(w, "more run", "more runs")
            ),
            (0, c) => format!("up to {} fresh JVMs to confirm {}", 2 * c, plural(c, "candidate", "candidates")),
            (w, c) => format!(
                "up to {} fresh JVMs to confirm {}, then up to {} of the order with captures{suite}",
                2 * c,
                plural(c, "candidate", "candidates"),
                plural(w, "run", "runs")
            ),
        }
    }

    /// Confirms `test` at one level: `[t, t]`, or its class's block twice.
    fn confirm(
        &self,
        test: &str,
        class_level: bool,
        blocks: &[Vec<String>],
    ) -> Result<Confirmation, EngineError> {
        let runs: Vec<&AuditRecord> = self
            .records
            .iter()
            .filter(|r| {
                r.experiment.kind == AuditKind::Confirm
                    && r.experiment.test.as_deref() == Some(test)
                    && r.experiment.class_level == class_level
            })
            .copied()
            .collect();
        let class = class_of(test).to_string();
        let copy: Vec<String> = if class_level {
            blocks
                .iter()
                .find(|b| b.iter().any(|t| t == test))
                .cloned()
                .unwrap_or_else(|| vec![test.to_string()])
        } else {
            vec![test.to_string()]
        };
        let first_of_copy = copy[0].clone();
        let order: Vec<String> = copy.iter().chain(copy.iter()).cloned().collect();
        let level = if class_level { "its class" } else { "alone" };
        let Some(first) = runs.first() else {
            return Ok(Confirmation::Run(
                AuditExperiment {
                    test: Some(test.to_string()),
                    class_level,
                    capture_tests: vec![class.clone()],
                    initialize_at: vec![InitializeAt {
                        segment: 0,
                        class: class.clone(),
                    }],
                    ..self.experiment(AuditKind::Confirm, order)
                },
                format!("confirm {test}: {level} twice in a fresh JVM, captured before each run"),
            ));
        };
        let Some((_, second, _)) = repeats(first, test) else {
            return Ok(Confirmation::NotRepeated);
        };
        // classes the first run initialized: initialized first in a second JVM
        let bracket = brackets(first, &first_of_copy);
        let fresh: BTreeSet<String> = match bracket {
            Some((a, b)) => changes::first_jvm(first)
                .into_iter()
                .filter(|p| p.point > a.point && p.point <= b.point)
                .flat_map(|p| p.new.iter().cloned())
                .collect(),
            None => BTreeSet::new(),
        };
        let known: BTreeSet<&str> = first
            .experiment
            .initialize_at
            .iter()
            .map(|i| i.class.as_str())
            .collect();
        let more: Vec<String> = fresh
            .into_iter()
            .filter(|c| !known.contains(c.as_str()))
            .collect();
        let last = if more.is_empty() {
            *first
        } else if let Some(again) = runs.get(1) {
            if repeats(again, test).is_some() {
                again
            } else {
                first
            }
        } else {
            let mut initialize_at = first.experiment.initialize_at.clone();
            initialize_at.extend(more.iter().map(|c| InitializeAt {
                segment: 0,
                class: c.clone(),
            }));
            return Ok(Confirmation::Run(
                AuditExperiment {
                    initialize_at,
                    ..first.experiment.clone()
                }
                .with_id(self.request.next_id),
                format!(
                    "confirm {test} again, initializing first the {} its first run initialized",
                    plural(more.len(), "class", "classes")
                ),
            ));
        };
        let (first_outcome, second_outcome, message) =
            repeats(last, test).unwrap_or((RunOutcome::Pass, second, None));
        let fields = match brackets(last, &first_of_copy) {
            Some((a, b)) => match (changes::load(last, a), changes::load(last, b)) {
                (Ok(x), Ok(y)) => changes::changed(&x, &y),
                _ => Vec::new(),
            },
            None => Vec::new(),
        };
        let mut experiments: Vec<usize> = runs.iter().map(|r| r.experiment.id).collect();
        experiments.dedup();
        Ok(Confirmation::Repeated(Box::new(NonIdempotent {
            others: Vec::new(),
            test: test.to_string(),
            level: if class_level { "class" } else { "test" }.to_string(),
            first: first_outcome,
            second: second_outcome,
            message,
            order: last.experiment.order.clone(),
            fields,
            experiments,
        })))
    }

    /// Fields left changed by each segment of `by_class` that `by_test` (a second JVM) shows
    /// changed too, attributed and ranked.
    fn latent(
        &self,
        by_class: &AuditRecord,
        by_test: &AuditRecord,
        initial: Option<&AuditRecord>,
        left: &BTreeMap<usize, Vec<ChangedField>>,
        notes: &mut Vec<String>,
    ) -> Vec<LatentPolluter> {
        let segments = changes::by_segment(by_test);
        let class_points = changes::by_segment(by_class);
        let initial_points = initial.map(changes::by_segment);
        let mut found = Vec::new();
        for (segment, fields) in left {
            let class = segment_class(by_class, *segment).unwrap_or_default();
            let Some(points) = segments.get(segment) else {
                notes.push(format!(
                    "experiment {}: no capture points for the segment of {class}",
                    by_test.experiment.id
                ));
                continue;
            };
            let (captures, labels) = match load_segment(by_test, points, &class) {
                Ok(loaded) => loaded,
                Err(why) => {
                    notes.push(why);
                    continue;
                }
            };
            let (Some(start), Some(end)) = (captures.first(), captures.last()) else {
                continue;
            };
            let mut again: BTreeSet<String> = changes::changed(start, end)
                .into_iter()
                .map(|c| c.field)
                .collect();
            // fields of classes this segment initializes: against their state right after
            // initialization, the other JVM's capture after the segment telling noise
            let fresh: BTreeSet<String> = fields
                .iter()
                .filter(|f| f.since_initialized)
                .map(|f| changes::class_of_field(&f.field).to_string())
                .collect();
            let initial_start = initial_points
                .as_ref()
                .and_then(|p| p.get(segment))
                .and_then(|p| p.start);
            let other_end = class_points.get(segment).and_then(|p| p.end);
            let noise = match other_end.map(|p| changes::load(by_class, p)) {
                Some(Ok(other)) => changes::noise(end, &other),
                _ => BTreeSet::new(),
            };
            let init = match (fresh.is_empty(), initial, initial_start) {
                (false, Some(h), Some(h_start)) => changes::load(h, h_start).ok(),
                _ => None,
            };
            if let Some(init) = &init {
                again.extend(
                    changes::changed_since_initialized(init, end, &noise, &fresh)
                        .into_iter()
                        .map(|c| c.field),
                );
            }
            let (stable, unstable): (Vec<&ChangedField>, Vec<&ChangedField>) =
                fields.iter().partition(|f| again.contains(&f.field));
            let (noisy, unstable): (Vec<&ChangedField>, Vec<&ChangedField>) =
                unstable.into_iter().partition(|f| f.since_initialized);
            let names = |fields: &[&ChangedField]| {
                fields
                    .iter()
                    .map(|f| f.field.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            if !unstable.is_empty() {
                notes.push(format!(
                    "{class} changed {} in experiment {} but not in experiment {}: left out as unstable",
                    names(&unstable),
                    by_class.experiment.id,
                    by_test.experiment.id
                ));
            }
            if !noisy.is_empty() {
                notes.push(format!(
                    "{class} initialized {} whose state differs from the state right after initialization only where two JVMs differ too (noise: identity hash codes, lambda classes): not reported",
                    names(&noisy)
                ));
            }
            let names: Vec<String> = stable.iter().map(|f| f.field.clone()).collect();
            let who = changes::attribute(&captures, &labels, &names);
            for field in stable {
                // a class initialized inside the segment: the interval that initialized it, when
                // its value differs from its initial state already there (a singleton created
                // with polluted settings); the last interval that changed it is named, earlier
                // ones (that one included) are listed
                let initialized_by = field.since_initialized.then(|| {
                    let class = changes::class_of_field(&field.field);
                    let j = captures
                        .iter()
                        .position(|c| changes::is_initialized(c, class))
                        .filter(|&j| j > 0)?;
                    let one: BTreeSet<String> = std::iter::once(class.to_string()).collect();
                    let changed_there = match &init {
                        Some(init) => {
                            changes::changed_since_initialized(init, &captures[j], &noise, &one)
                                .iter()
                                .any(|c| c.field == field.field)
                        }
                        None => true,
                    };
                    changed_there.then(|| (labels[j - 1].clone(), j - 1))
                });
                // the interval that left it: from capture `at` to capture `at + 1`
                let (by, also, at) = match (initialized_by.flatten(), who.get(&field.field)) {
                    (Some((first, _)), Some(a)) => {
                        let mut also = vec![first];
                        also.extend(a.also.iter().cloned());
                        (a.by.clone(), also, Some(a.at))
                    }
                    (Some((by, at)), None) => (by, Vec::new(), Some(at)),
                    (None, Some(a)) => (a.by.clone(), a.also.clone(), Some(a.at)),
                    (None, None) => (format!("{class} (class)"), Vec::new(), None),
                };
                // a test class's own static fixture, set by its own class setup and changed by
                // nothing after: what its setup is for, not pollution
                if by.ends_with(" (class setup)")
                    && changes::class_of_field(&field.field) == class
                    && also.is_empty()
                {
                    continue;
                }
                let bracket = at.map(|k| bracket(by_test, points, k));
                let (mut before_capture, after_capture, occurrence) =
                    bracket.clone().unwrap_or_default();
                // its class not yet initialized right before the test (the test initialized it):
                // its state right after initialization is what a patch sets back
                let initialized_by_test = field.since_initialized
                    && at.is_some_and(|k| {
                        !changes::is_initialized(
                            &captures[k],
                            changes::class_of_field(&field.field),
                        )
                    });
                if initialized_by_test {
                    before_capture = match (initial, initial_start) {
                        (Some(h), Some(p)) => capture_file(h, p),
                        _ => None,
                    };
                }
                found.push(LatentPolluter {
                    before_capture,
                    after_capture,
                    occurrence,
                    initialized_by_test,
                    segment: Some(*segment),
                    fix: None,
                    test: by,
                    class: class.clone(),
                    field: field.clone(),
                    also_changed_by: also,
                    readers: Vec::new(),
                    rank: String::new(),
                    experiments: match (field.since_initialized, initial) {
                        (true, Some(h)) => vec![
                            by_class.experiment.id,
                            h.experiment.id,
                            by_test.experiment.id,
                        ],
                        _ => vec![by_class.experiment.id, by_test.experiment.id],
                    },
                });
            }
        }
        self.rank(found, notes)
    }

    /// Fills in readers and ranks: `high` (read by another test) first, then `unknown`, then
    /// `low`; within a rank, changes beyond cache entries first, then most readers first; ties in
    /// the original order.
    fn rank(&self, mut found: Vec<LatentPolluter>, notes: &mut Vec<String>) -> Vec<LatentPolluter> {
        let readers = Readers::read(&self.request.class_dirs);
        let mut test_classes: Vec<String> = if self.request.test_classes.is_empty() {
            self.request
                .original
                .iter()
                .map(|t| class_of(t).to_string())
                .collect()
        } else {
            self.request.test_classes.clone()
        };
        test_classes.sort();
        test_classes.dedup();
        let fields: BTreeSet<String> = found
            .iter()
            .filter(|p| !p.field.pseudo)
            .map(|p| p.field.field.clone())
            .collect();
        let by_field = readers.readers(&test_classes, &fields);
        for p in found.iter_mut() {
            let declaring = p.field.field.rsplit_once('.').map(|(c, _)| c).unwrap_or("");
            // the other tests of its own class that read it themselves
            let siblings: Vec<String> = self
                .request
                .original
                .iter()
                .filter(|t| class_of(t) == p.class && container_of(t) != container_of(&p.test))
                .map(|t| method_id(t))
                .collect::<BTreeSet<String>>()
                .into_iter()
                .collect();
            // a field its class's per-test setup writes: each of its tests gets it anew
            p.readers = if readers.set_before_each_test(&p.class, &p.field.field) {
                Vec::new()
            } else {
                readers.tests_reading(&siblings, &p.field.field)
            };
            if let Some(classes) = by_field.get(&p.field.field) {
                p.readers
                    .extend(classes.iter().filter(|c| **c != p.class).cloned());
            }
            p.rank = if p.field.pseudo || !readers.knows(declaring) {
                "unknown"
            } else if p.readers.is_empty() {
                "low"
            } else {
                "high"
            }
            .to_string();
        }
        // a test class's own field that its per-test setup writes and no other class reads: its
        // fixture
        let (fixtures, kept): (Vec<LatentPolluter>, Vec<LatentPolluter>) =
            found.into_iter().partition(|p| {
                changes::class_of_field(&p.field.field) == p.class
                    && readers.set_before_each_test(&p.class, &p.field.field)
                    && p.readers.is_empty()
            });
        found = kept;
        if !fixtures.is_empty() {
            notes.push(format!(
                "{} set by their own class's @Before/setUp before each test, read by no other class: fixtures, not reported",
                fixtures
                    .iter()
                    .map(|p| p.field.field.as_str())
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let position: BTreeMap<&str, usize> = self
            .request
            .original
            .iter()
            .enumerate()
            .map(|(i, t)| (t.as_str(), i))
            .collect();
        let order = |p: &LatentPolluter| {
            let rank = match p.rank.as_str() {
                "high" => 0,
                "unknown" => 1,
                _ => 2,
            };
            let at = position
                .get(container_of(&p.test))
                .copied()
                .unwrap_or(usize::MAX);
            (
                rank,
                p.field.cache_only,
                usize::MAX - p.readers.len(),
                at,
                p.field.field.clone(),
            )
        };
        found.sort_by_key(order);
        found
    }
}

impl AuditExperiment {
    fn with_id(mut self, id: usize) -> AuditExperiment {
        self.id = id;
        self
    }
}

/// `Class#method` of a test id: invocation and parameter types left off.
fn method_id(id: &str) -> String {
    let id = container_of(id);
    id.split_once('(').map_or(id, |(m, _)| m).to_string()
}

/// Up to three ids and how many more.
pub fn list(ids: &[String]) -> String {
    let mut text = ids.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
    if ids.len() > 3 {
        text.push_str(&format!(" and {} more", ids.len() - 3));
    }
    text
}

pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
