//! The diagnose planner (`diagnose_next`): which capture or restore experiment runs next for one
//! victim or brittle, replayed from the history of its diagnose experiments like detect's, and
//! the verdict: the polluted state, confirmed by restoring it (ODRepair: Li et al., ICSE 2022, section 3.1).
//!
//! 1. Capture the static state right before the test in its failing order (`[p, v]`; a brittle
//!    alone).
//! 2. Capture it before the test in its passing order (a victim alone; `[s, b]`), first
//!    initializing the classes the failing capture had initialized (but not the classes of the
//!    other tests of the failing order, whose static initializers may be what pollutes), so a
//!    class the test would initialize itself shows its state right after initialization.
//! 3. Diff the two captures ([`super::diff`]).
//! 4. Run the failing order with every restorable differing field set back to its passing value;
//!    if the test passes, delta-debug ([`crate::explain::ddmin`]) the set down to a minimal one
//!    whose restore still makes it pass: the polluted state. Deterministic: no random choice.
//!
//! Every experiment acts at the earliest [`ActPoint`] where the test is next to run (before its
//! class is prepared, before its instance is built, at its start), no earlier than it asks; both
//! captures and the restores act at the same point: when the passing order can only act later
//! than the failing capture did (its test is not the first of its class's block there), the
//! failing order is captured again at that point.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::error::EngineError;
use crate::explain::ddmin::{ddmin_step, DdminStep};
use crate::model::experiment::test_passed;
use crate::model::kind::OdRole;
use crate::model::testid::class_of;

use super::capture::{self, Capture, ClassState};
use super::diff;

pub use super::shapes::{
    ActPoint, DiagnoseExperiment, DiagnoseKind, DiagnoseOutcome, DiagnoseRecord, DiagnoseRequest,
    DiagnoseStatus, DiagnoseStep, DiagnoseTarget, PollutedField, SharedDiagnosis,
    DEFAULT_DIAGNOSE_BUDGET,
};

/// The failing and passing orders of a target, and which start of the test each acts before.
/// An order, and which start of the test in it an experiment acts before.
type Run = (Vec<String>, usize);

fn orders(t: &DiagnoseTarget) -> Result<(Run, Run), EngineError> {
    let alone = (vec![t.test.clone()], 1);
    let with = |group: &[String]| {
        let mut o: Vec<String> = group.to_vec();
        o.push(t.test.clone());
        let n = o.iter().filter(|x| **x == t.test).count();
        (o, n)
    };
    match t.kind {
        OdRole::Victim => {
            let group = t.polluters.first().ok_or_else(|| EngineError::BadConfig {
                setting: "test".into(),
                value: t.test.clone(),
                reason: "it is a victim with no known polluter in report.json: run odrust:minimize to find one".into(),
            })?;
            Ok((with(group), alone))
        }
        OdRole::Brittle => {
            let group = t.state_setters.first().ok_or_else(|| EngineError::BadConfig {
                setting: "test".into(),
                value: t.test.clone(),
                reason: "it is a brittle with no known state-setter in report.json: run odrust:minimize to find one".into(),
            })?;
            Ok((alone, with(group)))
        }
    }
}

struct Planner<'a> {
    target: &'a DiagnoseTarget,
    records: Vec<&'a DiagnoseRecord>,
    next_id: usize,
    budget: usize,
    failing: Run,
    passing: Run,
}

/// The next experiment for a target, or its verdict.
pub fn next(request: &DiagnoseRequest) -> Result<DiagnoseStep, EngineError> {
    let t = &request.target;
    let (failing, passing) = match orders(t) {
        Ok(o) => o,
        Err(e) => {
            return Ok(DiagnoseStep::Done {
                outcome: DiagnoseOutcome {
                    test: t.test.clone(),
                    kind: t.kind,
                    status: DiagnoseStatus::Unexplained,
                    reason: match e {
                        EngineError::BadConfig { reason, .. } => reason,
                        other => other.to_string(),
                    },
                    failing_order: Vec::new(),
                    passing_order: Vec::new(),
                    fields: Vec::new(),
                    polluted_state: Vec::new(),
                    experiments: 0,
                    failing_capture: None,
                    passing_capture: None,
                    point: None,
                },
            })
        }
    };
    let records = request
        .history
        .iter()
        .filter(|r| r.experiment.test == t.test && r.fingerprint == t.fingerprint)
        .collect();
    let p = Planner {
        target: t,
        records,
        next_id: request.next_id,
        budget: request.budget.unwrap_or(DEFAULT_DIAGNOSE_BUDGET).max(1) as usize,
        failing,
        passing,
    };
    Ok(p.plan())
}

impl<'a> Planner<'a> {
    /// The latest record of `kind` (a capture taken again at a later point replaces the first).
    fn find(&self, kind: DiagnoseKind) -> Option<&'a DiagnoseRecord> {
        self.records
            .iter()
            .copied()
            .rfind(|r| r.experiment.kind == kind)
    }

    fn run(
        &self,
        kind: DiagnoseKind,
        initialize: Vec<String>,
        restore_from: Option<String>,
        fields: Vec<String>,
        point: ActPoint,
    ) -> DiagnoseStep {
        let (order, occurrence) = if matches!(
            kind,
            DiagnoseKind::CapturePassing | DiagnoseKind::CapturePassingAgain
        ) {
            self.passing.clone()
        } else {
            self.failing.clone()
        };
        DiagnoseStep::Run {
            experiment: DiagnoseExperiment {
                id: self.next_id,
                test: self.target.test.clone(),
                kind,
                order,
                occurrence,
                initialize,
                restore_from,
                fields,
                point,
            },
        }
    }

    fn done(
        &self,
        status: DiagnoseStatus,
        reason: String,
        fields: Vec<PollutedField>,
        polluted: Vec<String>,
    ) -> DiagnoseStep {
        DiagnoseStep::Done {
            outcome: DiagnoseOutcome {
                test: self.target.test.clone(),
                kind: self.target.kind,
                status,
                reason,
                failing_order: self.failing.0.clone(),
                passing_order: self.passing.0.clone(),
                fields,
                polluted_state: polluted,
                experiments: self.records.len(),
                failing_capture: self
                    .find(DiagnoseKind::CaptureFailing)
                    .and_then(|r| r.capture.clone()),
                passing_capture: self
                    .find(DiagnoseKind::CapturePassing)
                    .and_then(|r| r.capture.clone()),
                // where the captures acted; for a diagnosis confirmed by a shared restore alone,
                // where that restore acted
                point: self
                    .find(DiagnoseKind::CapturePassing)
                    .or_else(|| self.records.last().copied())
                    .and_then(|r| r.acted_at),
            },
        }
    }

    /// The shared diagnosis of the target's cause, verified for it: its step while the restore
    /// has not run, its verdict when the restore made the test pass, none otherwise.
    fn shared(&self) -> Option<DiagnoseStep> {
        let shared = self.target.shared.as_ref()?;
        if shared.polluted_state.is_empty() {
            return None;
        }
        let wanted: BTreeSet<&String> = shared.polluted_state.iter().collect();
        let record = self.records.iter().find(|r| {
            r.experiment.kind == DiagnoseKind::Restore
                && r.experiment.restore_from.as_deref() == Some(shared.passing_capture.as_str())
                && r.experiment.fields.iter().collect::<BTreeSet<_>>() == wanted
        });
        let Some(r) = record else {
            return Some(self.run(
                DiagnoseKind::Restore,
                Vec::new(),
                Some(shared.passing_capture.clone()),
                shared.polluted_state.clone(),
                shared.point.unwrap_or(ActPoint::Test),
            ));
        };
        let passed = restore_passed(&self.target.test, r, &shared.polluted_state);
        passed.then(|| {
            self.done(
                DiagnoseStatus::Confirmed,
                format!(
                    "restoring {} (the polluted state its cause's {} was diagnosed with, from that \
                     test's passing capture) right before {}, {}, makes it pass in [{}]: the same \
                     polluted state",
                    shared.polluted_state.join(", "),
                    shared.test,
                    self.target.test,
                    r.point().words(),
                    self.failing.0.join(", ")
                ),
                shared.fields.clone(),
                shared.polluted_state.clone(),
            )
        })
    }

    fn plan(&self) -> DiagnoseStep {
        if let Some(step) = self.shared() {
            return step;
        }
        let test = &self.target.test;
        let fo = self.failing.0.join(", ");
        let po = self.passing.0.join(", ");
        // 1. the failing capture
        let Some(fr) = self.find(DiagnoseKind::CaptureFailing) else {
            return self.run(
                DiagnoseKind::CaptureFailing,
                Vec::new(),
                None,
                Vec::new(),
                ActPoint::Class,
            );
        };
        if let Some(why) = unusable(fr) {
            return self.done(
                DiagnoseStatus::Error,
                format!("the capture in the failing order [{fo}] failed: {why}"),
                Vec::new(),
                Vec::new(),
            );
        }
        if test_passed(test, &fr.results) != Some(false) {
            if !fr.experiment.initialize.is_empty() && test_passed(test, &fr.results) == Some(true)
            {
                // A brittle that passes once the classes its state-setter initialized are
                // initialized: what the state-setter provides is their static initialization.
                return self.done(
                    DiagnoseStatus::Initialization,
                    format!(
                        "initializing {} right before {test}, {}, makes it pass in [{fo}]: what {} provides is their static initialization, not a value a field can be set back to",
                        fr.experiment.initialize.join(", "),
                        fr.point().words(),
                        self.passing.0[..self.passing.0.len() - 1].join(", ")
                    ),
                    Vec::new(),
                    Vec::new(),
                );
            }
            return self.done(
                DiagnoseStatus::NotReproduced,
                format!("{test} did not fail in [{fo}] this time, so there is no polluted state to capture"),
                Vec::new(),
                Vec::new(),
            );
        }
        let failing = match load(fr) {
            Ok(c) => c,
            Err(e) => return self.done(DiagnoseStatus::Error, e, Vec::new(), Vec::new()),
        };
        // 2. the passing capture, with the failing capture's initialized classes initialized
        let Some(pr) = self.find(DiagnoseKind::CapturePassing) else {
            return self.run(
                DiagnoseKind::CapturePassing,
                self.initialize_for_passing(&failing),
                None,
                Vec::new(),
                fr.point(),
            );
        };
        if let Some(why) = unusable(pr) {
            return self.done(
                DiagnoseStatus::Error,
                format!("the capture in the passing order [{po}] failed: {why}"),
                Vec::new(),
                Vec::new(),
            );
        }
        if test_passed(test, &pr.results) != Some(true) {
            return self.done(
                DiagnoseStatus::NotReproduced,
                format!("{test} did not pass in [{po}] this time (with the classes of the failing capture initialized first), so there is no passing state to compare with"),
                Vec::new(),
                Vec::new(),
            );
        }
        let passing = match load(pr) {
            Ok(c) => c,
            Err(e) => return self.done(DiagnoseStatus::Error, e, Vec::new(), Vec::new()),
        };
        // 2b. both captures at one point, the later of the two; for a brittle, the failing
        // order with the classes its state-setter initialized initialized too (else each of
        // their fields is "not initialized" there, and nothing can be restored)
        let point = fr.point().max(pr.point());
        let failing_init = self.initialize_for_failing(fr, &failing, &passing);
        let init_missing = failing_init
            .iter()
            .any(|c| !fr.experiment.initialize.contains(c));
        if (fr.point() < point && fr.experiment.point < point) || init_missing {
            return self.run(
                DiagnoseKind::CaptureFailing,
                failing_init,
                None,
                Vec::new(),
                point,
            );
        }
        if pr.point() < point && pr.experiment.point < point {
            return self.run(
                DiagnoseKind::CapturePassing,
                self.initialize_for_passing(&failing),
                None,
                Vec::new(),
                point,
            );
        }
        let point = pr.point();
        // 3. the diff
        let diffs = diff(&failing, &passing);
        if diffs.is_empty() {
            return self.done(
                DiagnoseStatus::NoDifference,
                format!("the static state odrust captures is the same before {test} in both orders: what the test depends on is elsewhere (files, the network, a database, static state of classes outside the module; widen with -Dodrust.diagnose.include)"),
                Vec::new(),
                Vec::new(),
            );
        }
        // 3b. the passing capture again, in another JVM: what differs between the two is noise
        let Some(again) = self.find(DiagnoseKind::CapturePassingAgain) else {
            return self.run(
                DiagnoseKind::CapturePassingAgain,
                pr.experiment.initialize.clone(),
                None,
                Vec::new(),
                point,
            );
        };
        // Per field, the paths that differ between the two passing captures.
        let (passing_paths, noise_unknown): (BTreeMap<String, BTreeSet<String>>, Option<String>) =
            match (unusable(again), test_passed(test, &again.results)) {
                (None, Some(true)) => match load(again) {
                    Ok(c) => (
                        diff(&passing, &c)
                            .into_iter()
                            .map(|d| {
                                let mut paths: BTreeSet<String> =
                                    d.differences.into_iter().map(|p| p.path).collect();
                                paths.insert(d.field.clone());
                                (d.field, paths)
                            })
                            .collect(),
                        None,
                    ),
                    Err(e) => (BTreeMap::new(), Some(e)),
                },
                (Some(why), _) => (BTreeMap::new(), Some(why)),
                (None, _) => (
                    BTreeMap::new(),
                    Some(format!("{test} did not pass in [{po}] the second time")),
                ),
            };
        // A field is noise when every path where it differs between the failing and the passing
        // capture also differs between the two passing captures: a port, a time, an identity
        // hash. A field that differs in more than that (a map polluted *and* an object's hash
        // code inside it) is no noise: restoring it is how its real difference is tested.
        let noise: BTreeSet<String> = diffs
            .iter()
            .filter(|d| {
                passing_paths.get(&d.field).is_some_and(|paths| {
                    d.more == 0 && d.differences.iter().all(|p| paths.contains(&p.path))
                })
            })
            .map(|d| d.field.clone())
            .collect();
        // Fields the agent could not set back in an earlier restore are left out from then on
        // (a restore that did not happen proves nothing either way).
        let refused: BTreeSet<String> = self
            .records
            .iter()
            .filter(|r| r.experiment.kind == DiagnoseKind::Restore)
            .flat_map(|r| r.restored.iter())
            .filter(|(_, v)| v.as_str() != "restored")
            .map(|(f, _)| f.clone())
            .collect();
        let restorable: Vec<String> = diffs
            .iter()
            .filter(|d| d.restorable && !refused.contains(&d.field) && !noise.contains(&d.field))
            .map(|d| d.field.clone())
            .collect();
        let noisy = diffs.iter().filter(|d| noise.contains(&d.field)).count();
        let noise_text = match (&noise_unknown, noisy) {
            (Some(why), _) => format!("; noise unknown (the second passing capture: {why})"),
            (None, 0) => String::new(),
            (None, n) => format!(
                "; {} also {} between two passing runs (noise: shown, not restored)",
                count(n, "field"),
                if n == 1 { "differs" } else { "differ" }
            ),
        };
        let refused_text = if refused.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = refused
                .iter()
                .map(|f| format!("{f} ({})", self.last_restore(f).unwrap_or_default()))
                .collect();
            format!("; odrust could not restore {}", list.join(", "))
        } + &noise_text;
        let fields = |confirmed: &BTreeSet<String>| -> Vec<PollutedField> {
            let mut out: Vec<PollutedField> = diffs
                .iter()
                .map(|d| PollutedField {
                    diff: d.clone(),
                    confirmed: confirmed.contains(&d.field),
                    noise: noise.contains(&d.field),
                    noise_paths: passing_paths
                        .get(&d.field)
                        .map(|p| p.iter().filter(|x| **x != d.field).cloned().collect())
                        .unwrap_or_default(),
                    restore: self.last_restore(&d.field),
                })
                .collect();
            // Confirmed first; then values that differ, before classes initialized (or loaded)
            // on one side only; fields of classes the test's class cannot reach after those it
            // can; noise last.
            let one_sided = |f: &PollutedField| {
                [diff::NOT_INITIALIZED, diff::NOT_LOADED]
                    .iter()
                    .any(|n| f.diff.failing == *n || f.diff.passing == *n)
            };
            let far: BTreeSet<&str> = self.target.unreachable.iter().map(String::as_str).collect();
            let unreachable = |f: &PollutedField| {
                !f.diff.pseudo
                    && f.diff
                        .field
                        .rfind('.')
                        .is_some_and(|dot| far.contains(&f.diff.field[..dot]))
            };
            out.sort_by_key(|f| (!f.confirmed, f.noise, one_sided(f), unreachable(f)));
            out
        };
        if restorable.is_empty() {
            let real = diffs.len() - noisy;
            let reason = if real == 0 {
                format!(
                    "{} {}, and each also between two passing runs (noise: never restored): no field is left whose restore could test which one matters{refused_text}",
                    count(diffs.len(), "field"),
                    if diffs.len() == 1 { "differs" } else { "differ" }
                )
            } else {
                format!(
                    "{} {}, and odrust cannot set {} back to test which one matters (each says why){refused_text}",
                    count(real, "field"),
                    if real == 1 { "differs" } else { "differ" },
                    if real == 1 { "it" } else { "any of them" }
                )
            };
            return self.done(
                DiagnoseStatus::NotRestorable,
                reason,
                fields(&BTreeSet::new()),
                Vec::new(),
            );
        }
        // 4. restores: all first, then ddmin
        let restores: Vec<&DiagnoseRecord> = self
            .records
            .iter()
            .copied()
            .filter(|r| r.experiment.kind == DiagnoseKind::Restore)
            .collect();
        let restore_from = pr.capture.clone();
        // Restores from this test's own passing capture (a shared diagnosis's restore came from
        // another test's).
        let known = |subset: &[String]| -> Option<bool> {
            let want: BTreeSet<&String> = subset.iter().collect();
            restores
                .iter()
                .find(|r| {
                    r.experiment.restore_from == restore_from
                        && r.experiment.fields.iter().collect::<BTreeSet<_>>() == want
                })
                .map(|r| restore_passed(test, r, subset))
        };
        let unconfirmed = |fields: Vec<PollutedField>| {
            self.done(
                DiagnoseStatus::Unconfirmed,
                format!(
                    "restoring every field odrust can restore ({}) does not make {test} pass in [{fo}]{}: the state it depends on is elsewhere, or in a field that cannot be restored{refused_text}",
                    restorable.len(),
                    if restorable.len() > 1 { ", and no subset delta debugging tried does" } else { "" }
                ),
                fields,
                Vec::new(),
            )
        };
        let all_passed = match known(&restorable) {
            None => {
                if self.records.len() >= self.budget {
                    return self.unfinished(fields(&BTreeSet::new()));
                }
                return self.run(
                    DiagnoseKind::Restore,
                    fr.experiment.initialize.clone(),
                    restore_from,
                    restorable,
                    point,
                );
            }
            Some(passed) => passed,
        };
        // ddmin also when restoring all did not help: a subset may pass where the whole set
        // does not (one restored field can break what another fixes).
        match ddmin_step(&restorable, known) {
            DdminStep::Query(subset) => {
                if self.records.len() >= self.budget {
                    return self.unfinished(fields(&BTreeSet::new()));
                }
                self.run(
                    DiagnoseKind::Restore,
                    Vec::new(),
                    restore_from,
                    subset,
                    point,
                )
            }
            DdminStep::Done(minimal) if all_passed || known(&minimal) == Some(true) => {
                let set: BTreeSet<String> = minimal.iter().cloned().collect();
                let initialized = if fr.experiment.initialize.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (with {} initialized first)",
                        fr.experiment.initialize.join(", ")
                    )
                };
                let what = match self.target.kind {
                    OdRole::Victim => "the polluted state".to_string(),
                    OdRole::Brittle => format!(
                        "the state {} sets for it",
                        self.passing.0[..self.passing.0.len() - 1].join(", ")
                    ),
                };
                self.done(
                    DiagnoseStatus::Confirmed,
                    format!(
                        "restoring {}{initialized} right before {test}, {}, makes it pass in [{fo}]: {} {what}{}",
                        minimal.join(", "),
                        point.words(),
                        if minimal.len() == 1 { "this is" } else { "these are" },
                        if all_passed { "" } else { " (restoring every restorable field together did not)" }
                    ) + &noise_text,
                    fields(&set),
                    minimal,
                )
            }
            DdminStep::Done(_) => unconfirmed(fields(&BTreeSet::new())),
        }
    }

    /// The classes to initialize before the passing capture: those the failing capture had
    /// initialized, but not the classes of the other tests of the failing order (the polluters):
    /// their static initializers may be what pollutes.
    fn initialize_for_passing(&self, failing: &Capture) -> Vec<String> {
        let others = self.other_classes(&self.failing.0);
        failing
            .classes
            .iter()
            .filter(|(_, s)| matches!(s, ClassState::Initialized(_)))
            .map(|(n, _)| n.clone())
            .filter(|n| !in_classes(n, &others))
            .collect()
    }

    /// The classes to initialize before the failing capture: none for a victim; for a brittle,
    /// the classes initialized in the passing capture but not in the failing one (and those an
    /// earlier failing capture initialized), but not the state-setters' own classes, whose static
    /// initializers may be what sets the state.
    fn initialize_for_failing(
        &self,
        fr: &DiagnoseRecord,
        failing: &Capture,
        passing: &Capture,
    ) -> Vec<String> {
        if self.target.kind != OdRole::Brittle {
            return Vec::new();
        }
        let setters = self.other_classes(&self.passing.0);
        let mut out: Vec<String> = fr.experiment.initialize.clone();
        for (name, state) in &passing.classes {
            let there = matches!(failing.classes.get(name), Some(ClassState::Initialized(_)));
            if matches!(state, ClassState::Initialized(_))
                && !there
                && !in_classes(name, &setters)
                && !out.contains(name)
            {
                out.push(name.clone());
            }
        }
        out
    }

    /// The classes of the tests of `order` other than the target's own.
    fn other_classes<'o>(&self, order: &'o [String]) -> BTreeSet<&'o str> {
        let own = class_of(&self.target.test);
        order
            .iter()
            .map(|t| class_of(t))
            .filter(|c| *c != own)
            .collect()
    }

    fn unfinished(&self, fields: Vec<PollutedField>) -> DiagnoseStep {
        self.done(
            DiagnoseStatus::Unfinished,
            format!("the budget of {} test runs ran out before a minimal set was found (raise -Dodrust.diagnose.budget)", self.budget),
            fields,
            Vec::new(),
        )
    }

    fn last_restore(&self, field: &str) -> Option<String> {
        self.records
            .iter()
            .rev()
            .find_map(|r| r.restored.get(field).cloned())
    }
}

fn count(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Whether `name` is one of `classes` or a class nested in one.
fn in_classes(name: &str, classes: &BTreeSet<&str>) -> bool {
    classes
        .iter()
        .any(|c| name == *c || (name.starts_with(c) && name.as_bytes().get(c.len()) == Some(&b'$')))
}

/// Whether a restore record made `test` pass with every field of `fields` restored.
fn restore_passed(test: &str, r: &DiagnoseRecord, fields: &[String]) -> bool {
    r.honoured
        && r.error.is_none()
        && fields
            .iter()
            .all(|f| r.restored.get(f).is_some_and(|s| s == "restored"))
        && test_passed(test, &r.results) == Some(true)
}

/// Why a capture record gives no capture, if so.
fn unusable(r: &DiagnoseRecord) -> Option<String> {
    if !r.honoured {
        return Some("the order did not run as asked".into());
    }
    if let Some(e) = &r.error {
        return Some(e.clone());
    }
    if r.capture.is_none() {
        return Some("the test did not start, so nothing was captured".into());
    }
    None
}

fn load(r: &DiagnoseRecord) -> Result<Capture, String> {
    let path = r.capture.as_deref().unwrap_or_default();
    capture::read(Path::new(path)).map_err(|e| format!("cannot read the capture {path}: {e}"))
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
