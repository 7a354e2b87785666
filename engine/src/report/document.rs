//! The renderer's view of `report.json` ([`super::file::ReportFile`] is the file itself: this
//! view reads what the pages show and ignores the rest), and the sentences made of it that both the HTML page and
//! the XML report use: what each flaky test depends on, its flake rate, the header line, the
//! line when nothing was found.

use serde::{Deserialize, Serialize};

use super::text::{counted, percent};
use crate::detect::{FailingTest, FlakyTest};
use crate::diagnose::{DiagnoseOutcome, DiagnoseStatus};
use crate::model::kind::OdRole;

/// What the renderer reads of a report (fields it does not use are ignored; all but `module` and
/// `flaky` may be absent).
#[derive(Debug, Clone, Deserialize)]
pub struct Report {
    /// The version of the report schema.
    #[serde(default)]
    pub schema_version: u32,
    /// `groupId:artifactId` of the module.
    pub module: String,
    /// The seed of the detection.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The configured strategy.
    #[serde(default)]
    pub strategy: Option<String>,
    /// Tests in the suite.
    #[serde(default)]
    pub tests_total: Option<usize>,
    /// Test results of one run of the suite (each invocation counts).
    #[serde(default)]
    pub results_per_run: Option<usize>,
    /// Experiments run.
    #[serde(default)]
    pub experiments: Option<usize>,
    /// Rounds run.
    #[serde(default)]
    pub rounds_run: Option<u32>,
    /// Rounds configured.
    #[serde(default)]
    pub rounds_planned: Option<u32>,
    /// Tests that failed in every baseline run.
    #[serde(default)]
    pub failing: Vec<FailingTest>,
    /// The flaky tests.
    pub flaky: Vec<ReportEntry>,
    /// The OD tests grouped by root cause.
    #[serde(default)]
    pub causes: Vec<super::causes::Cause>,
    /// Notes about the run.
    #[serde(default)]
    pub notes: Vec<String>,
    /// False for a report written while the run went on (and left by a run that was killed).
    #[serde(default = "complete_when_absent")]
    pub complete: bool,
    /// OD tests explained and how many of those explanations finished.
    #[serde(default)]
    pub explanations: Option<Explanations>,
    /// Pair coverage of a systematic schedule.
    #[serde(default)]
    pub pairs: Option<Pairs>,
    /// Where the experiments' time went.
    #[serde(default)]
    pub time: Option<crate::model::experiment::TimeSpent>,
    /// What the baseline and the rounds covered, and what may have escaped them.
    #[serde(default)]
    pub coverage: Option<ReportCoverage>,
}

/// `coverage` of a report: its sentence ([`crate::detect::coverage::Coverage`] has the numbers).
#[derive(Debug, Clone, Deserialize)]
pub struct ReportCoverage {
    /// One plain paragraph.
    pub text: String,
}

/// `pairs` of a report.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Pairs {
    /// Pairs run adjacent in some round.
    pub covered: u64,
    /// Pairs the schedule covers when all its rounds run.
    pub total: u64,
}

fn status_word(s: DiagnoseStatus) -> String {
    serde_json::to_value(s)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// "No flaky test was found", with how much was explored in the same sentence.
pub(super) fn nothing_found(report: &Report) -> String {
    let mut line = String::from("No flaky test was found");
    if let (Some(run), Some(planned)) = (report.rounds_run, report.rounds_planned) {
        line.push_str(&format!(" in {run} of {planned} rounds"));
    }
    if let Some(strategy) = &report.strategy {
        line.push_str(&format!(" ({strategy})"));
    }
    match report.pairs.filter(|p| p.total > 0) {
        Some(p) => {
            let share = crate::detect::coverage::share(p.covered, p.total);
            line.push_str(&format!(
                ", which ran {share} of the {} test pairs the schedule covers",
                p.total
            ));
            if p.covered < p.total {
                line.push_str(": a victim of a pair not run yet can still exist");
            }
        }
        None => line.push_str(
            ": random orders find an order-dependent test only with some probability per round",
        ),
    }
    line.push('.');
    line
}

/// `explanations` of a report: the run can end (`complete`) with explanations unfinished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Explanations {
    /// OD tests minimization ran for.
    pub explained: usize,
    /// Of those, the ones whose explanation is complete.
    pub complete: usize,
}

fn complete_when_absent() -> bool {
    true
}

/// One flaky test of a [`Report`]: the finding as detection reported it, and the files and
/// command the plugin added for it.
// Not deny_unknown_fields: serde cannot combine it with flatten (nor on the flattened type).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReportEntry {
    /// The finding.
    #[serde(flatten)]
    pub finding: FlakyTest,
    /// Path of the file holding the order in which it failed.
    #[serde(default)]
    pub failing_order: Option<String>,
    /// Path of the file holding the order in which it passed.
    #[serde(default)]
    pub passing_order: Option<String>,
    /// A command that reproduces the failure.
    #[serde(default)]
    pub reproduce: Option<String>,
    /// What `odrust:diagnose` found: the static state it depends on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub polluted_state: Option<DiagnoseOutcome>,
}

/// The entries as [`super::causes::group`] reads them.
pub fn members(flaky: &[ReportEntry]) -> Vec<super::causes::Member<'_>> {
    flaky
        .iter()
        .map(|e| {
            let mut confirmed = e
                .polluted_state
                .as_ref()
                .map(|d| d.polluted_state.clone())
                .unwrap_or_default();
            confirmed.sort();
            super::causes::Member {
                finding: &e.finding,
                confirmed,
            }
        })
        .collect()
}

impl ReportEntry {
    /// Lines saying what it depends on: "Polluter: p.P#p (cleaners: p.C#c)", "Polluter group:
    /// a + b", "State-setter: s"; empty when nothing was found.
    pub fn dependency_lines(&self) -> Vec<String> {
        let group = |g: &[String]| g.join(" + ");
        let mut lines = Vec::new();
        for g in &self.finding.polluters {
            let mut line = if g.len() == 1 {
                format!("Polluter: {}", g[0])
            } else {
                format!("Polluter group: {}", group(g))
            };
            if g.len() == 1 {
                let cleaners = self.finding.cleaners.get(&g[0]);
                let unfinished = self.finding.cleaners_unfinished.contains(&g[0]);
                match (cleaners, unfinished) {
                    (Some(c), false) if c.is_empty() => line.push_str(" (no cleaner found)"),
                    (Some(c), false) => line.push_str(&format!(" (cleaners: {})", c.join(", "))),
                    (Some(c), true) if !c.is_empty() => line.push_str(&format!(
                        " (cleaners found so far: {}; the search stopped early)",
                        c.join(", ")
                    )),
                    (Some(_), true) => {
                        line.push_str(" (no cleaner found so far: the search stopped early)")
                    }
                    (None, true) => {
                        line.push_str(" (cleaners not searched: the search stopped early)")
                    }
                    (None, false) => {}
                }
            }
            lines.push(line);
        }
        for g in &self.finding.state_setters {
            lines.push(if g.len() == 1 {
                format!("State-setter: {}", g[0])
            } else {
                format!("State-setter group: {}", group(g))
            });
        }
        lines.extend(self.polluted_state_lines());
        lines
    }

    /// What `odrust:diagnose` found, one line per differing field: "Polluted state (confirmed by
    /// restoring it; 4 experiments): com.acme.Prices.RATES is {eur=0.9} after the polluter, {}
    /// when the test passes"; empty when it was not diagnosed.
    pub fn polluted_state_lines(&self) -> Vec<String> {
        let Some(d) = &self.polluted_state else {
            return Vec::new();
        };
        let (after, when) = match self.finding.kind.role() {
            Some(OdRole::Brittle) => ("alone", "after its state-setter"),
            _ => ("after the polluter", "when the test passes"),
        };
        let mut lines = Vec::new();
        if d.fields.is_empty() {
            lines.push(format!(
                "Polluted state: none found ({}: {})",
                status_word(d.status),
                d.reason
            ));
        }
        for f in &d.fields {
            let head = if f.confirmed {
                format!(
                    "Polluted state (confirmed by restoring it; {})",
                    counted(d.experiments, "experiment")
                )
            } else if f.noise {
                "Noise (differs between two passing runs too; not restored)".to_string()
            } else if d.status == DiagnoseStatus::Confirmed {
                "Also differs (restoring it is not needed)".to_string()
            } else {
                format!("Differs, not confirmed ({})", status_word(d.status))
            };
            lines.push(format!(
                "{head}: {} is {} {after}, {} {when}",
                f.diff.field, f.diff.failing, f.diff.passing
            ));
        }
        lines
    }

    /// "fails in 33.3% of all orders, 25.0% of class-compatible orders, 50.0% of reverses of
    /// passing orders (formula, special-case-2)", or `None` without a flake rate.
    pub fn flake_rate_text(&self) -> Option<String> {
        let rate = self.finding.flake_rate.as_ref()?;
        let incomplete = rate.incomplete.as_ref();
        let mut text = match incomplete {
            None => format!(
                "fails in {} of all orders, {} of class-compatible orders",
                percent(rate.all_orders),
                percent(rate.class_compatible)
            ),
            Some(i) => {
                let (all, compatible) = match (&i.lower_bound, i.upper_bound) {
                    (Some(low), _) => (
                        format!(
                            "{}\u{2013}{}",
                            percent(low.all_orders),
                            percent(rate.all_orders)
                        ),
                        format!(
                            "{}\u{2013}{}",
                            percent(low.class_compatible),
                            percent(rate.class_compatible)
                        ),
                    ),
                    (None, true) => (
                        format!("at most {}", percent(rate.all_orders)),
                        format!("at most {}", percent(rate.class_compatible)),
                    ),
                    (None, false) => (
                        format!("about {}", percent(rate.all_orders)),
                        format!("about {}", percent(rate.class_compatible)),
                    ),
                };
                format!("INCOMPLETE: fails in {all} of all orders, {compatible} of class-compatible orders")
            }
        };
        if let Some(r) = rate.reverse_of_passing {
            text.push_str(&format!(", {} of reverses of passing orders", percent(r)));
        }
        let method = serde_json::to_value(rate.method)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        match (&rate.case, &rate.ci95) {
            (Some(case), _) => text.push_str(&format!(" ({method}, {case})")),
            (None, Some(ci)) => text.push_str(&format!(
                " ({method}; 95% interval of class-compatible: {}\u{2013}{})",
                percent(ci.class_compatible[0]),
                percent(ci.class_compatible[1])
            )),
            (None, None) => text.push_str(&format!(" ({method})")),
        }
        if let Some(i) = incomplete {
            text.push_str(&format!("; {}", i.reason));
        }
        Some(text)
    }
}

/// "seed 42 · strategy reverse-passing · 12 tests · 31 experiments · 20 of 20 rounds", leaving
/// out what the report does not say.
pub(super) fn header_line(report: &Report) -> String {
    let mut parts = Vec::new();
    if let Some(seed) = report.seed {
        parts.push(format!("seed {seed}"));
    }
    if let Some(strategy) = &report.strategy {
        parts.push(format!("strategy {strategy}"));
    }
    if let Some(tests) = report.tests_total {
        match report.results_per_run.filter(|&r| r != tests) {
            Some(results) => parts.push(format!(
                "{} ({} per run, as mvn test counts invocations)",
                counted(tests, "test"),
                counted(results, "result")
            )),
            None => parts.push(counted(tests, "test")),
        }
    }
    if let Some(experiments) = report.experiments {
        parts.push(counted(experiments, "experiment"));
    }
    match (report.rounds_run, report.rounds_planned) {
        (Some(run), Some(planned)) => parts.push(format!("{run} of {planned} rounds")),
        (Some(run), None) => parts.push(format!("{run} rounds")),
        _ => {}
    }
    if let Some(e) = report.explanations.filter(|e| e.complete < e.explained) {
        parts.push(format!(
            "explanations complete for {} of {} OD tests (the others stopped early: see each test and the notes)",
            e.complete, e.explained
        ));
    }
    if !report.complete {
        parts.push("INCOMPLETE: written while the run was going on; a run that was stopped leaves it as it was".into());
    }
    parts.join(" \u{b7} ")
}
