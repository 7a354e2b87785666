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
//! captured before each test of the polluter's class. It passes when the field is the same right
//! after the test (the same start of it) as right before it, fully captured, and no test that
//! passed in the audit's last captured run (`capture-tests`, the same order) fails with it; the
//! tests that failed there and pass with it are named (victims it fixes).
//!
//! When the test itself initializes the field's class (no value right before it), every run of it
//! initializes that class right before the test's class, the value to set back is the class's
//! state right after initialization, and one control run without a patch
//! ([`AuditKind::FixControl`]) must show the field changing across the test: if it does not, what
//! differs came from the class's initialization in the state earlier tests left, no teardown of
//! this test undoes it, and any candidate would pass without proving anything.
//!
//! Java then writes the verified candidate as a patch and checks that it applies as written.

use std::collections::BTreeMap;

use crate::diagnose::Node;
use crate::model::testid::class_of;

use super::changes;
use super::plan::{list, plural, Planner};
use super::runs::failed;
use super::shapes::{
    AuditExperiment, AuditKind, AuditOutcome, AuditRecord, AuditStep, FixCandidate, FixRef,
    FixWanted, InitializeAt, LatentFix, LatentPolluter, DEFAULT_MAX_REPAIR,
};

/// What the control run of a polluter says.
enum Control<'r> {
    /// None is needed (the field's class is initialized before the test anyway).
    NotNeeded,
    /// It ran and the field changes across the test there: the baseline of the patch runs.
    Baseline(&'r AuditRecord),
    /// The run to ask for, or why no patch can be verified.
    Stop(Verdict),
}

/// How one candidate fared.
enum Verdict {
    Run(AuditExperiment, String),
    Rejected(String),
    /// The experiments that verified it, and the tests that failed without it and pass with it.
    Verified(Vec<usize>, Vec<String>),
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
            let runnable = made.candidates.iter().any(|c| c.compile_error.is_none());
            // the outcomes a patch must keep: the control run's when there is one (the same
            // class initialized early), else the audit's own captured run
            let mut baseline = by_test;
            if runnable {
                match self.control(p) {
                    Control::NotNeeded | Control::Stop(Verdict::Verified(..)) => {}
                    Control::Baseline(run) => baseline = run,
                    Control::Stop(Verdict::Run(e, what)) => {
                        return Some(AuditStep::Run {
                            experiment: e,
                            what,
                            left: "then a run per candidate patch".to_string(),
                        })
                    }
                    Control::Stop(Verdict::Rejected(why)) => {
                        outcome.latent_polluters[i].fix = Some(no_patch(why, Vec::new()));
                        continue;
                    }
                }
            }
            for c in &made.candidates {
                if let Some(error) = &c.compile_error {
                    tried.push(format!("{}: does not compile ({error})", joined(c)));
                    continue;
                }
                match self.verdict(p, c, baseline) {
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
                    Verdict::Verified(experiments, makes_pass) => {
                        fix = Some(LatentFix {
                            status: "patched".to_string(),
                            makes_pass,
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

    /// The record of the fix run of `fix` of `kind`, if it ran.
    fn fix_run(&self, kind: AuditKind, fix: &FixRef) -> Option<&'a AuditRecord> {
        self.records
            .iter()
            .find(|r| r.experiment.kind == kind && r.experiment.fix.as_ref() == Some(fix))
            .copied()
    }

    /// A fix run of `p`: the original order captured before each test of its class, its field's
    /// class initialized right before that class when the test itself initializes it.
    fn fix_experiment(&self, kind: AuditKind, p: &LatentPolluter, fix: FixRef) -> AuditExperiment {
        let initialize_at = match (p.initialized_by_test, p.segment) {
            (true, Some(segment)) => vec![InitializeAt {
                segment,
                class: changes::class_of_field(&p.field.field).to_string(),
            }],
            _ => Vec::new(),
        };
        AuditExperiment {
            capture_tests: vec![class_of(&p.test).to_string()],
            initialize_at,
            fix: Some(fix),
            ..self.experiment(kind, self.request.original.clone())
        }
    }

    /// For a polluter that initializes its field's class: the control run without a patch, that
    /// class initialized first (one per test and class: its `FixRef` names the class); its record
    /// when the field differs across the test there (a patch run can tell, and its outcomes are the
    /// ones a patch must keep), else the run to ask for or why no patch can be verified.
    fn control(&self, p: &LatentPolluter) -> Control<'a> {
        if !p.initialized_by_test {
            return Control::NotNeeded;
        }
        let fix = FixRef {
            test: p.test.clone(),
            field: changes::class_of_field(&p.field.field).to_string(),
            candidate: String::new(),
        };
        let Some(run) = self.fix_run(AuditKind::FixControl, &fix) else {
            return Control::Stop(Verdict::Run(
                self.fix_experiment(AuditKind::FixControl, p, fix),
                format!(
                    "control for {}: the original order without a patch, {} initialized before its class",
                    p.test,
                    changes::class_of_field(&p.field.field)
                ),
            ));
        };
        let id = run.experiment.id;
        match field_across(run, p) {
            Across::Differs(_) => Control::Baseline(run),
            Across::Same => Control::Stop(Verdict::Rejected(format!(
                "experiment {id}: with {} initialized before its class, the test leaves {} as it finds it: what differs comes from the class's initialization during the test (in the state the tests before it left), which a teardown of this test cannot undo",
                changes::class_of_field(&p.field.field),
                p.field.field
            ))),
            Across::Unknown(why) => {
                Control::Stop(Verdict::Rejected(format!("experiment {id}: {why}")))
            }
        }
    }

    /// The run of candidate `c` of `p`, or what it came to; `baseline`: the run without a patch
    /// whose outcomes it must keep.
    fn verdict(&self, p: &LatentPolluter, c: &FixCandidate, baseline: &AuditRecord) -> Verdict {
        let fix = FixRef {
            test: p.test.clone(),
            field: p.field.field.clone(),
            candidate: c.id.clone(),
        };
        let Some(run) = self.fix_run(AuditKind::Fix, &fix) else {
            return Verdict::Run(
                self.fix_experiment(AuditKind::Fix, p, fix),
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
        match field_across(run, p) {
            Across::Same => {}
            Across::Differs(why) | Across::Unknown(why) => {
                return Verdict::Rejected(format!("experiment {id}: {why}"))
            }
        }
        let (worse, better) = outcome_moves(baseline, run);
        if !worse.is_empty() {
            return Verdict::Rejected(format!(
                "experiment {id}: tests that passed without it fail with it: {}",
                list(&worse)
            ));
        }
        Verdict::Verified(vec![id], better)
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

/// How a field compares across a test in a run.
enum Across {
    /// The same right after the test as right before it.
    Same,
    /// Not the same, with where.
    Differs(String),
    /// Not known, with why (no capture point, its class not initialized, a truncated capture).
    Unknown(String),
}

/// How `p`'s field compares across its test (the same start of it) in `record`'s first JVM.
fn field_across(record: &AuditRecord, p: &LatentPolluter) -> Across {
    let (test, field) = (p.test.as_str(), p.field.field.as_str());
    if !record.honoured {
        return Across::Unknown("the order did not run exactly as asked".to_string());
    }
    let points = changes::first_jvm(record);
    let Some(at) = points.iter().position(|q| {
        q.at == "test"
            && q.test.as_deref() == Some(test)
            && (p.occurrence.is_none() || q.occurrence == p.occurrence)
    }) else {
        return Across::Unknown(format!("no capture point before {test}"));
    };
    let Some(after) = points.get(at + 1) else {
        return Across::Unknown(format!("no capture point after {test}"));
    };
    let (before, after) = match (
        changes::load(record, points[at]),
        changes::load(record, after),
    ) {
        (Ok(b), Ok(a)) => (b, a),
        (Err(why), _) | (_, Err(why)) => return Across::Unknown(why),
    };
    let class = changes::class_of_field(field);
    if !changes::is_initialized(&before, class) || !changes::is_initialized(&after, class) {
        return Across::Unknown(format!(
            "{class} was not initialized before and after {test}: {field} cannot be compared"
        ));
    }
    if truncated_at(&before, field) || truncated_at(&after, field) {
        return Across::Unknown(format!(
            "the capture was cut short inside {field} (-Dodrust.audit.limit): its value is not fully known"
        ));
    }
    match changes::changed(&before, &after)
        .into_iter()
        .find(|c| c.field == field)
    {
        Some(c) if c.paths.iter().any(|p| p != field) => Across::Differs(format!(
            "{field} still differs after the test, at {}",
            list(&c.paths)
        )),
        Some(c) => Across::Differs(format!(
            "{field} still differs after the test ({} before, {} after)",
            c.before, c.after
        )),
        None => Across::Same,
    }
}

/// Whether the capture holds `field` (`com.acme.Config.mode`) cut short: a `<truncated/>` node
/// anywhere in its value.
fn truncated_at(capture: &crate::diagnose::Capture, field: &str) -> bool {
    let Some((class, name)) = field.rsplit_once('.') else {
        return false;
    };
    let Some(crate::diagnose::ClassState::Initialized(fields)) = capture.classes.get(class) else {
        return false;
    };
    let Some(f) = fields.get(name) else {
        return false;
    };
    let mut stack = vec![&f.value];
    while let Some(node) = stack.pop() {
        match node {
            Node::Truncated => return true,
            Node::Array { items, .. } | Node::List { items, .. } | Node::Set { items, .. } => {
                stack.extend(items)
            }
            Node::Map { entries, .. } => {
                for (k, v) in entries {
                    stack.push(k);
                    stack.push(v);
                }
            }
            Node::Object { fields, .. } => stack.extend(fields.iter().map(|f| &f.value)),
            _ => {}
        }
    }
    false
}

/// `(newly failing, newly passing)`: the tests of `run` that fail there and did not fail in
/// `baseline` (or did not run there), and those that failed in `baseline` and pass in `run` (each
/// test by its first result).
fn outcome_moves(baseline: &AuditRecord, run: &AuditRecord) -> (Vec<String>, Vec<String>) {
    let first = |r: &AuditRecord| -> BTreeMap<String, bool> {
        let mut m = BTreeMap::new();
        for t in &r.results {
            m.entry(t.test.clone()).or_insert(failed(t.outcome));
        }
        m
    };
    let (before, after) = (first(baseline), first(run));
    let mut worse = Vec::new();
    let mut better = Vec::new();
    for (test, fails) in &after {
        match (before.get(test), fails) {
            (Some(false) | None, true) => worse.push(test.clone()),
            (Some(true), false) => better.push(test.clone()),
            _ => {}
        }
    }
    (worse, better)
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
