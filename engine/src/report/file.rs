//! `report.json` as odrust writes it, and the `report` op that makes it: one type ([`ReportFile`])
//! owns the file's schema and version, and one call returns the file's text with the HTML page
//! and the Surefire-style XML rendered from it (`docs/protocol.md`, "report").
//!
//! A report is built from a detection's summary (`detect_summary`, or `detect_merge` with its
//! shards): the plugin gives the module, its own version, whether the run ended, how to invoke
//! its reproduce goal and where each run's order files are; the engine adds to each flaky test
//! the order files it failed and passed in and the command that reproduces it, and counts the
//! explanations. A report already written is given back whole to be written again after a change
//! (`odrust:diagnose` adds `polluted_state` to a flaky test).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::causes::{group, Cause};
use super::document::{members, Explanations, Report, ReportEntry};
use super::render::render;
use crate::detect::merge::MergedShard;
use crate::detect::{FlakyTest, Summary};
use crate::error::EngineError;
use crate::model::kind::FlakyKind;

/// The version of `report.json`'s schema (docs/detect.md, "report.json").
/// Version 2 added `causes`; a version-1 report given back is read and written as version 2.
pub const REPORT_SCHEMA_VERSION: u32 = 2;

/// `report.json`: the detection summary, what the plugin knows about the run, and per flaky test
/// its order files and reproduce command. Fields in the order the file has them.
// Not deny_unknown_fields: serde cannot combine it with flatten (nor on the flattened type).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReportFile {
    /// [`REPORT_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// `groupId:artifactId` of the module.
    pub module: String,
    /// The odrust version that made it (`odrust:repair` refuses a report of another).
    pub odrust_version: String,
    /// False for a report written while the run goes on (or left by one that was killed).
    pub complete: bool,
    /// The summary, each flaky test with its files and command.
    #[serde(flatten)]
    pub summary: Summary<ReportEntry>,
    /// OD tests explained and how many of those explanations finished.
    pub explanations: Explanations,
    /// The OD tests grouped by root cause (`causes::group`), with what repair made of each.
    #[serde(default)]
    pub causes: Vec<Cause>,
    /// `odrust:merge`: the shards merged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards: Option<Vec<MergedShardEntry>>,
}

/// One shard of a merged report, as `detect_merge` answered it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergedShardEntry {
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

impl From<&MergedShard> for MergedShardEntry {
    fn from(s: &MergedShard) -> Self {
        MergedShardEntry {
            index: s.index,
            source: s.source.clone(),
            experiments: s.experiments,
            rounds_run: s.rounds_run,
            rounds_planned: s.rounds_planned,
            complete: s.complete,
        }
    }
}

/// Request of `report`: build a report (`build`) or write one again (`report`); exactly one.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// A report to build from a summary.
    #[serde(default)]
    pub build: Option<BuildRequest>,
    /// A report already written, to write again.
    #[serde(default)]
    pub report: Option<ReportFile>,
}

/// What a report is built from.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildRequest {
    /// `detect_summary`'s (or `detect_merge`'s) summary.
    pub summary: Summary,
    /// `groupId:artifactId` of the module.
    pub module: String,
    /// The plugin's odrust version.
    pub odrust_version: String,
    /// Whether the run ended.
    pub complete: bool,
    /// How to invoke odrust's reproduce goal on the project, e.g. `odrust:reproduce`.
    pub reproduce_goal: String,
    /// The directory of the order files (`exp-N.txt`) of each run, as the user sees it (relative
    /// to the module's directory when inside it, `/`-separated): key 0 for the run itself and
    /// for flaky tests without a shard, key K for shard K of a merge.
    pub orders: BTreeMap<u32, String>,
    /// `odrust:merge`: the shards, as `detect_merge` answered them.
    #[serde(default)]
    pub shards: Option<Vec<MergedShardEntry>>,
}

/// Response of `report`: the three files' texts.
#[derive(Debug, Serialize)]
pub struct ReportTexts {
    /// `report.json` (pretty-printed, no final newline).
    pub json: String,
    /// `report.html`.
    pub html: String,
    /// `surefire-reports/TEST-odrust.xml`.
    pub xml: String,
}

/// Answers `report`. Errors: `bad-request` unless exactly one of `build` and `report` is given,
/// or for a report of another schema version.
pub fn answer(request: ReportRequest) -> Result<ReportTexts, EngineError> {
    let file = match (request.build, request.report) {
        (Some(build), None) => build_report(build),
        (None, Some(mut report)) => {
            if report.schema_version == 0 || report.schema_version > REPORT_SCHEMA_VERSION {
                return Err(EngineError::bad_request(
                    "report",
                    format!(
                        "report.json has schema_version {}; this odrust writes {REPORT_SCHEMA_VERSION}",
                        report.schema_version
                    ),
                ));
            }
            // Written again: the causes follow the flaky tests as they are now (diagnose may
            // have confirmed fields), keeping what repair made of them.
            report.schema_version = REPORT_SCHEMA_VERSION;
            report.causes = group(&members(&report.summary.flaky), &report.causes);
            report
        }
        _ => {
            return Err(EngineError::bad_request(
                "report",
                "give exactly one of `build` and `report`",
            ))
        }
    };
    texts(&file)
}

/// The report built from `build`.
pub fn build_report(build: BuildRequest) -> ReportFile {
    let BuildRequest {
        summary,
        module,
        odrust_version,
        complete,
        reproduce_goal,
        orders,
        shards,
    } = build;
    let order_file = |finding: &FlakyTest, experiment: usize| -> Option<String> {
        if experiment == 0 {
            return None;
        }
        let dir = orders
            .get(&finding.shard.unwrap_or(0))
            .or_else(|| orders.get(&0))?;
        Some(format!(
            "{}/exp-{experiment}.txt",
            dir.trim_end_matches('/')
        ))
    };
    let flaky: Vec<ReportEntry> = summary
        .flaky
        .iter()
        .map(|f| {
            let failing_order = order_file(f, f.failing_experiment);
            ReportEntry {
                passing_order: order_file(f, f.passing_experiment),
                reproduce: failing_order
                    .as_ref()
                    .map(|file| format!("mvn {reproduce_goal} -Dodrust.order={file}")),
                failing_order,
                polluted_state: None,
                finding: f.clone(),
            }
        })
        .collect();
    let explanations = explanations(&summary.flaky);
    let causes = group(&members(&flaky), &[]);
    ReportFile {
        schema_version: REPORT_SCHEMA_VERSION,
        module,
        odrust_version,
        complete,
        summary: Summary {
            seed: summary.seed,
            strategy: summary.strategy,
            tests_total: summary.tests_total,
            results_per_run: summary.results_per_run,
            experiments: summary.experiments,
            rounds_run: summary.rounds_run,
            rounds_planned: summary.rounds_planned,
            failing: summary.failing,
            flaky,
            notes: summary.notes,
            pairs: summary.pairs,
            plan: summary.plan,
            shard: summary.shard,
            time: summary.time,
            coverage: summary.coverage,
            targeted: summary.targeted,
            phases: summary.phases,
        },
        explanations,
        causes,
        shards,
    }
}

/// How many OD tests were explained (minimization ran for them) and how many of those
/// explanations finished: a report's `complete` says the run ended, not that every explanation
/// did.
fn explanations(flaky: &[FlakyTest]) -> Explanations {
    let mut counts = Explanations {
        explained: 0,
        complete: 0,
    };
    for f in flaky {
        if f.kind != FlakyKind::VICTIM && f.kind != FlakyKind::BRITTLE {
            continue;
        }
        if f.minimize_experiments > 0 || f.minimize_complete {
            counts.explained += 1;
            counts.complete += usize::from(f.minimize_complete);
        }
    }
    counts
}

/// The texts of `file`.
fn texts(file: &ReportFile) -> Result<ReportTexts, EngineError> {
    let json = serde_json::to_string_pretty(file).expect("a report always serializes");
    // The renderer reads its own view of the same document.
    let view: Report = serde_json::from_str(&json).map_err(|e| {
        EngineError::bad_request("report", format!("the report cannot be rendered: {e}"))
    })?;
    let rendered = render(&view);
    Ok(ReportTexts {
        json,
        html: rendered.html,
        xml: rendered.xml,
    })
}
