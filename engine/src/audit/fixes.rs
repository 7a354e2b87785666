//! Teardown patches for latent polluters (`-Dodrust.audit.repair=true`, issue 34 item 4): the
//! repair machinery's reset statements (the module's own reset methods, else the field's value
//! before the test set back), placed in the polluter's own teardown, verified without any victim.
//!
//! For each latent polluter that can have one (a test method leaving a field of the module's code
//! changed, beyond cache entries; best-ranked first, at most `max_repair`), the planner
//! asks Java for candidates ([`AuditStep::Fixes`]): Java asks `reset_methods` with the captures
//! right before and right after the test, keeps the statements that compile in the test's class's
//! teardown, and compiles each candidate. Each candidate, in order, until one passes, runs once
//! ([`AuditKind::Fix`]): the original order with the patched class first on the classpath,
//! captured before each test of the polluter's class. The field must be the same right after the
//! test as right before it (its teardown sets it back; a field whose class the test initializes
//! is initialized right before the test's class, so it is compared with its state right after
//! initialization), and every test must end as it did without the patch (`capture-tests`, the
//! same order captured the same way).
//!
//! Java then writes the verified candidate as a patch and checks that it applies as written.

use std::collections::BTreeMap;

use crate::model::testid::class_of;

use super::changes;
use super::plan::{list, plural, Planner};
use super::runs::{failed, outcome_changes};
use super::shapes::{
    AuditExperiment, AuditKind, AuditOutcome, AuditRecord, AuditStep, FixCandidate, FixRef,
    FixWanted, InitializeAt, LatentFix, LatentPolluter, DEFAULT_MAX_REPAIR,
};

/// How one candidate fared.
enum Verdict {
    Run(AuditExperiment, String),
    Rejected(String),
    Verified(Vec<usize>),
}

impl<'a> Planner<'a> {
    /// Step 6: the next fix experiment, the request for candidates, or `None` when every
    /// polluter's fix is decided (written into `outcome`).
    pub(super) fn fixes(
        &self,
        outcome: &mut AuditOutcome,
        by_test: &AuditRecord,
    ) -> Option<AuditStep> {
        if !self.request.repair || outcome.latent_polluters.is_empty() {
            return None;
        }
        let max = self.request.max_repair.unwrap_or(DEFAULT_MAX_REPAIR);
        let mut chosen: Vec<usize> = Vec::new();
        let mut over = Vec::new();
        for (i, p) in outcome.latent_polluters.iter_mut().enumerate() {
            if let Some(why) = not_repairable(p) {
                p.fix = Some(LatentFix {
                    status: "no-patch".to_string(),
                    reason: Some(why),
                    ..LatentFix::default()
                });
            } else if chosen.len() < max {
                chosen.push(i);
            } else {
                over.push(p.test.clone());
            }
        }
        if !over.is_empty() {
            outcome.notes.push(format!(
                "{} not patched: over -Dodrust.audit.repair.limit={max} ({})",
                plural(over.len(), "latent polluter", "latent polluters"),
                list(&over)
            ));
        }
        if chosen.is_empty() {
            return None;
        }
        let Some(fixes) = &self.request.fixes else {
            let wanted = chosen
                .iter()
                .map(|&i| {
                    let p = &outcome.latent_polluters[i];
                    FixWanted {
                        test: p.test.clone(),
                        class: p.class.clone(),
                        field: p.field.field.clone(),
                        paths: p.field.paths.clone(),
                        before_capture: p.before_capture.clone().unwrap_or_default(),
                        after_capture: p.after_capture.clone().unwrap_or_default(),
                    }
                })
                .collect();
            return Some(AuditStep::Fixes { wanted });
        };
        for (n, &i) in chosen.iter().enumerate() {
            let p = &outcome.latent_polluters[i];
            let Some(made) = fixes
                .iter()
                .find(|f| f.test == p.test && f.field == p.field.field)
            else {
                outcome.latent_polluters[i].fix = Some(no_patch(
                    "no candidate was made for it".to_string(),
                    Vec::new(),
                ));
                continue;
            };
            let mut tried = Vec::new();
            let mut fix = None;
            for c in &made.candidates {
                if let Some(error) = &c.compile_error {
                    tried.push(format!("{}: does not compile ({error})", joined(c)));
                    continue;
                }
                match self.verdict(p, c, by_test) {
                    Verdict::Run(e, what) => {
                        let left = chosen.len() - n - 1;
                        return Some(AuditStep::Run {
                            experiment: e,
                            what,
                            left: if left == 0 {
                                "the other candidates of this polluter, if it fails".to_string()
                            } else {
                                format!(
                                    "then a run per candidate of {} more",
                                    plural(left, "latent polluter", "latent polluters")
                                )
                            },
                        });
                    }
                    Verdict::Rejected(why) => tried.push(format!("{}: {why}", joined(c))),
                    Verdict::Verified(experiments) => {
                        fix = Some(LatentFix {
                            status: "patched".to_string(),
                            candidate: Some(c.id.clone()),
                            statements: c.statements.clone(),
                            tried: tried.clone(),
                            experiments,
                            ..LatentFix::default()
                        });
                        break;
                    }
                }
            }
            outcome.latent_polluters[i].fix = Some(fix.unwrap_or_else(|| {
                let why = match (&made.note, made.candidates.is_empty()) {
                    (Some(note), true) => note.clone(),
                    (None, true) => {
                        "no statement of the module's code sets it back from the test's class"
                            .to_string()
                    }
                    (_, false) => "no candidate passed its checks (see tried)".to_string(),
                };
                no_patch(why, tried)
            }));
        }
        None
    }

    /// The run of candidate `c` of `p`, or what it came to.
    fn verdict(&self, p: &LatentPolluter, c: &FixCandidate, by_test: &AuditRecord) -> Verdict {
        let fix = FixRef {
            test: p.test.clone(),
            field: p.field.field.clone(),
            candidate: c.id.clone(),
        };
        let Some(run) = self
            .records
            .iter()
            .find(|r| {
                r.experiment.kind == AuditKind::Fix && r.experiment.fix.as_ref() == Some(&fix)
            })
            .copied()
        else {
            // a field whose class the test initializes: initialized right before its class's
            // block, so that the capture before the test holds it
            let initialize_at = match (p.field.since_initialized, p.segment) {
                (true, Some(segment)) => vec![InitializeAt {
                    segment,
                    class: changes::class_of_field(&p.field.field).to_string(),
                }],
                _ => Vec::new(),
            };
            return Verdict::Run(
                AuditExperiment {
                    capture_tests: vec![class_of(&p.test).to_string()],
                    initialize_at,
                    fix: Some(fix),
                    ..self.experiment(AuditKind::Fix, self.request.original.clone())
                },
                format!(
                    "patch for {}: the original order with `{}` in its class's teardown, captured before each test of its class",
                    p.test,
                    joined(c)
                ),
            );
        };
        let id = run.experiment.id;
        if !run.honoured {
            return Verdict::Rejected(format!(
                "experiment {id}: the order did not run exactly as asked"
            ));
        }
        if let Err(why) = field_restored(run, &p.test, &p.field.field) {
            return Verdict::Rejected(format!("experiment {id}: {why}"));
        }
        let changed = changed_outcomes(by_test, run);
        if !changed.is_empty() {
            return Verdict::Rejected(format!(
                "experiment {id}: tests end otherwise with it: {}",
                list(&changed)
            ));
        }
        Verdict::Verified(vec![id])
    }
}

/// Why `p` gets no patch attempt, if so.
fn not_repairable(p: &LatentPolluter) -> Option<String> {
    if p.field.pseudo {
        return Some(
            "JDK state (system properties, default Locale or TimeZone): no patch is made for it yet; set it back in the test's own @After"
                .to_string(),
        );
    }
    if !p.test.contains('#') {
        return Some(
            "left by its class's setup or teardown, not a test: no @AfterClass patch is made yet"
                .to_string(),
        );
    }
    if p.field.cache_only {
        return Some(
            "only cache entries differ: not patched (often a cache filled, not state a test depends on)"
                .to_string(),
        );
    }
    if p.before_capture.is_none() || p.after_capture.is_none() {
        return Some("no capture right before and right after the test".to_string());
    }
    None
}

/// Whether `field` has the same value right after `test` as right before it in `record`.
fn field_restored(record: &AuditRecord, test: &str, field: &str) -> Result<(), String> {
    if !record.honoured {
        return Err("its class did not run exactly as asked".to_string());
    }
    let points = changes::first_jvm(record);
    let at = points
        .iter()
        .position(|p| p.at == "test" && p.test.as_deref() == Some(test))
        .ok_or_else(|| format!("no capture point before {test}"))?;
    let after = points
        .get(at + 1)
        .ok_or_else(|| format!("no capture point after {test}"))?;
    let before = changes::load(record, points[at])?;
    let after = changes::load(record, after)?;
    let class = changes::class_of_field(field);
    if !changes::is_initialized(&before, class) || !changes::is_initialized(&after, class) {
        return Err(format!(
            "{class} was not initialized before and after {test}: {field} cannot be compared"
        ));
    }
    match changes::changed(&before, &after)
        .into_iter()
        .find(|c| c.field == field)
    {
        Some(c) => Err(format!(
            "{field} still differs after the test ({} before, {} after)",
            c.before, c.after
        )),
        None => Ok(()),
    }
}

/// Tests of `run` that ended otherwise (failed or not) in `baseline`; a test of `run` that
/// `baseline` did not run counts when it failed.
fn changed_outcomes(baseline: &AuditRecord, run: &AuditRecord) -> Vec<String> {
    let mut changed = outcome_changes(baseline, run);
    let known: BTreeMap<&str, ()> = baseline
        .results
        .iter()
        .map(|r| (r.test.as_str(), ()))
        .collect();
    for r in &run.results {
        if !known.contains_key(r.test.as_str()) && failed(r.outcome) {
            changed.push(r.test.clone());
        }
    }
    changed
}

fn no_patch(reason: String, tried: Vec<String>) -> LatentFix {
    LatentFix {
        status: "no-patch".to_string(),
        reason: Some(reason),
        tried,
        ..LatentFix::default()
    }
}

fn joined(c: &FixCandidate) -> String {
    c.statements.join(" ")
}
