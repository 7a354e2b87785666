//! The engine's one entry point: named ops taking and returning JSON (`docs/protocol.md`,
//! "Engine calls").
//!
//! [`call`] is what the JNI layer and the CLI both use: it parses the request of an op, runs it,
//! and serializes the response. The request and response types here are the schema shared with
//! the Java side; nothing else crosses the boundary.

use std::path::PathBuf;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::detect::{
    self, DetectConfig, RawConfig, DEFAULT_ALONE_RUNS, DEFAULT_BASELINE_TRIES, DEFAULT_K,
    DEFAULT_MINIMIZE_BUDGET,
};
use crate::diagnose::{self, DiagnoseRequest};
use crate::error::{is_user_code, EngineError};
use crate::explain::flakerate::{self, FlakeRateRequest};
use crate::idtests::{self, IdRequest};
use crate::model::experiment::{ExperimentKind, ExperimentRecord};
use crate::model::order::{parse_order_text, resolve, segment, Segment};
use crate::model::outcome::RunOutcome;
use crate::model::strategy::Strategy;
use crate::model::suite::{Suite, SuiteIndex, SCHEMA_VERSION};
use crate::repair::{self, RepairRequest, ResetRequest};
use crate::report::{self, IdReportRequest, ReportRequest};
use crate::run::check::check_run;
use crate::surefire::compare::{compare_outcomes, TestOutcome};
use crate::surefire::reports::read_reports;

/// The version of the native interface; `NativeEngine.ABI_VERSION` on the Java side must equal it.
pub const ABI_VERSION: i32 = 2;

pub use crate::ENGINE_VERSION;

/// Every op [`call`] knows.
pub const OPS: &[&str] = &[
    "version",
    "vocabulary",
    "plan_order",
    "check_run",
    "read_surefire_reports",
    "compare_outcomes",
    "detect_next",
    "detect_summary",
    "detect_end",
    "detect_merge",
    "report",
    "flake_rate",
    "repair_next",
    "reset_methods",
    "diagnose_next",
    "incremental_select",
    "reachable_classes",
    "id_next",
    "id_report",
    "audit_next",
    "audit_report",
    "history_report",
    "quarantine_check",
    "quarantine_add",
    "selftest_panic",
];

/// The message `selftest_panic` panics with.
pub const SELFTEST_PANIC_MESSAGE: &str = "selftest_panic was called: this panic is on purpose";

/// Runs `op` on `request_json` and returns the response JSON.
///
/// Errors: [`EngineError::UnknownOp`] for an op not in [`OPS`], [`EngineError::BadRequest`] for a
/// request that is not valid JSON of the op's shape, and whatever the op itself fails with.
///
/// # Panics
///
/// `selftest_panic` always panics, so that callers can prove panics are caught.
pub fn call(op: &str, request_json: &str) -> Result<String, EngineError> {
    match op {
        "version" => {
            let _: Empty = parse(op, request_json)?;
            respond(&VersionResponse {
                engine_version: ENGINE_VERSION,
                abi: ABI_VERSION,
            })
        }
        "vocabulary" => {
            let _: Empty = parse(op, request_json)?;
            respond(&Vocabulary::new())
        }
        "plan_order" => respond(&plan_order(parse(op, request_json)?)?),
        "check_run" => {
            let request: CheckRunRequest = parse(op, request_json)?;
            respond(&check_run(&request.requested, &request.ran))
        }
        "read_surefire_reports" => {
            let request: SurefireRequest = parse(op, request_json)?;
            respond(&read_reports(&request.dir)?)
        }
        "compare_outcomes" => {
            let request: CompareRequest = parse(op, request_json)?;
            respond(&compare_outcomes(&request.expected, &request.actual))
        }
        "detect_next" | "detect_summary" => detect_op(op, request_json),
        "detect_end" => {
            let request: EndRequest = parse(op, request_json)?;
            respond(&EndResponse {
                ended: detect::session::end(&request.session),
            })
        }
        "detect_merge" => {
            let request: detect::merge::MergeRequest = parse(op, request_json)?;
            respond(&detect::merge::merge(request)?)
        }
        "report" => {
            let request: ReportRequest = parse(op, request_json)?;
            respond(&report::file::answer(request)?)
        }
        "flake_rate" => {
            let request: FlakeRateRequest = parse(op, request_json)?;
            respond(&flakerate::answer(&request)?)
        }
        "repair_next" => {
            let request: RepairRequest = parse(op, request_json)?;
            respond(&repair::next(&request)?)
        }
        "diagnose_next" => {
            let request: DiagnoseRequest = parse(op, request_json)?;
            respond(&diagnose::next(&request)?)
        }
        "reset_methods" => {
            let request: ResetRequest = parse(op, request_json)?;
            respond(&repair::reset_methods(&request)?)
        }
        "incremental_select" => {
            let request: crate::incremental::select::SelectRequest = parse(op, request_json)?;
            respond(&crate::incremental::select::select(&request)?)
        }
        "reachable_classes" => {
            let request: crate::incremental::reach::ReachRequest = parse(op, request_json)?;
            respond(&crate::incremental::reach::reachable(&request)?)
        }
        "id_next" => {
            let request: IdRequest = parse(op, request_json)?;
            respond(&idtests::next(&request)?)
        }
        "id_report" => {
            let request: IdReportRequest = parse(op, request_json)?;
            respond(&report::render_id(&request))
        }
        "audit_next" => {
            let request: crate::audit::AuditRequest = parse(op, request_json)?;
            respond(&crate::audit::next(&request)?)
        }
        "audit_report" => {
            let request: report::AuditReportRequest = parse(op, request_json)?;
            respond(&report::render_audit(&request))
        }
        "history_report" => {
            let request: crate::history::HistoryRequest = parse(op, request_json)?;
            respond(&report::render_history(&request)?)
        }
        "quarantine_check" => {
            let request: crate::history::quarantine::QuarantineRequest = parse(op, request_json)?;
            respond(&crate::history::quarantine::check(&request)?)
        }
        "quarantine_add" => {
            let request: crate::history::quarantine::AddRequest = parse(op, request_json)?;
            respond(&crate::history::quarantine::add(&request)?)
        }
        "selftest_panic" => {
            let _: Empty = parse(op, request_json)?;
            panic!("{SELFTEST_PANIC_MESSAGE}")
        }
        _ => Err(EngineError::UnknownOp {
            op: op.to_string(),
            known: OPS.to_vec(),
        }),
    }
}

/// Request of ops that take none: `{}` (nothing else).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Empty {}

/// Response of `version`.
#[derive(Debug, Serialize)]
struct VersionResponse {
    engine_version: &'static str,
    abi: i32,
}

/// Response of `vocabulary`: the engine's names and defaults, so that the plugin keeps no copy
/// of them (`docs/protocol.md`, "vocabulary").
#[derive(Debug, Serialize)]
pub struct Vocabulary {
    /// Every strategy name, in the documentation's order.
    pub strategies: Vec<&'static str>,
    /// The systematic strategies (a fixed schedule of orders; pair coverage is reported).
    pub systematic_strategies: Vec<&'static str>,
    /// The strategies whose baseline runs record static field accesses (the jvm-agent as a Java
    /// agent).
    pub recording_strategies: Vec<&'static str>,
    /// For each recording strategy, what it does when its baseline recorded nothing.
    pub without_recording: std::collections::BTreeMap<&'static str, &'static str>,
    /// Every experiment kind.
    pub experiment_kinds: Vec<ExperimentKind>,
    /// The kinds of the minimization phase (explaining OD tests).
    pub minimize_kinds: Vec<ExperimentKind>,
    /// Every error code.
    pub error_codes: Vec<&'static str>,
    /// The error codes that mean the user's input is wrong (not a bug in odrust).
    pub user_error_codes: Vec<&'static str>,
    /// What `detect_next` assumes for a setting the plugin leaves out.
    pub detect_defaults: DetectDefaults,
    /// What `repair_next` spends per flaky test when the request gives no budget.
    pub repair_budget_per_test: u32,
    /// The version of `report.json`'s schema (`report`).
    pub report_schema_version: u32,
    /// Every kind of flaky test a report names.
    pub flaky_kinds: Vec<&'static str>,
    /// Every outcome a test has in a run's record (`results[].outcome`).
    pub run_outcomes: Vec<&'static str>,
    /// The outcomes that count as the test failing: a skipped or not-run test never ran.
    pub failed_outcomes: Vec<&'static str>,
}

/// The defaults of a detection's settings.
#[derive(Debug, Serialize)]
pub struct DetectDefaults {
    /// `strategy`.
    pub strategy: &'static str,
    /// `baseline_tries`.
    pub baseline_tries: u32,
    /// `alone_runs`.
    pub alone_runs: u32,
    /// `minimize_budget` when absent: this many per OD test to explain, pooled over the run.
    pub minimize_budget_per_test: u32,
    /// `k` of `k-bounded`.
    pub k: u32,
    /// `rounds` of each strategy (`detect::default_rounds`).
    pub rounds: std::collections::BTreeMap<&'static str, u32>,
}

impl Vocabulary {
    /// The vocabulary of this engine.
    pub fn new() -> Self {
        Vocabulary {
            strategies: Strategy::ALL.map(Strategy::name).to_vec(),
            systematic_strategies: Strategy::SYSTEMATIC.map(Strategy::name).to_vec(),
            recording_strategies: Strategy::RECORDING.map(Strategy::name).to_vec(),
            without_recording: Strategy::RECORDING
                .into_iter()
                .filter_map(|s| Some((s.name(), s.without_recording()?)))
                .collect(),
            experiment_kinds: ExperimentKind::ALL.to_vec(),
            minimize_kinds: ExperimentKind::ALL
                .into_iter()
                .filter(|k| k.is_minimize())
                .collect(),
            error_codes: EngineError::CODES.to_vec(),
            user_error_codes: EngineError::CODES
                .into_iter()
                .filter(|c| is_user_code(c))
                .collect(),
            detect_defaults: DetectDefaults {
                strategy: Strategy::DEFAULT.name(),
                baseline_tries: DEFAULT_BASELINE_TRIES,
                alone_runs: DEFAULT_ALONE_RUNS,
                minimize_budget_per_test: DEFAULT_MINIMIZE_BUDGET,
                k: DEFAULT_K,
                rounds: Strategy::ALL
                    .map(|s| (s.name(), detect::default_rounds(s)))
                    .into_iter()
                    .collect(),
            },
            repair_budget_per_test: repair::DEFAULT_REPAIR_BUDGET,
            report_schema_version: report::REPORT_SCHEMA_VERSION,
            flaky_kinds: crate::model::kind::FlakyKind::ALL
                .map(|k| k.name())
                .to_vec(),
            run_outcomes: RunOutcome::ALL.map(RunOutcome::name).to_vec(),
            failed_outcomes: RunOutcome::ALL
                .into_iter()
                .filter(|o| o.passed() == Some(false))
                .map(RunOutcome::name)
                .collect(),
        }
    }
}

impl Default for Vocabulary {
    fn default() -> Self {
        Vocabulary::new()
    }
}

/// Request of `plan_order`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanOrderRequest {
    /// The module's suite.
    pub suite: Suite,
    /// The text of the order file, or the inline `-Dodrust.order` list.
    pub order_text: String,
    /// Where the order came from, for messages (`orders/x.txt`, `-Dodrust.order`).
    pub source: String,
}

/// Response of `plan_order`.
#[derive(Debug, Serialize)]
pub struct Plan {
    /// The resolved order: suite ids, in order.
    pub order: Vec<String>,
    /// The order cut into segments (one JUnit request each).
    pub segments: Vec<Segment>,
    /// Things the user should be told (e.g. a dotted id resolved).
    pub warnings: Vec<String>,
}

/// Reads, resolves and segments an order against a suite.
pub fn plan_order(request: PlanOrderRequest) -> Result<Plan, EngineError> {
    if request.suite.schema_version != SCHEMA_VERSION {
        return Err(EngineError::bad_request(
            "plan_order",
            format!(
                "suite schema_version {} is not supported (this engine reads {SCHEMA_VERSION})",
                request.suite.schema_version
            ),
        ));
    }
    let ids = parse_order_text(&request.order_text, &request.source)?;
    let index = SuiteIndex::new(&request.suite);
    let resolution = resolve(&ids, &index, &request.source)?;
    Ok(Plan {
        order: resolution.ids(),
        segments: segment(&resolution.tests, &index),
        warnings: resolution.warnings,
    })
}

/// Request of `check_run`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRunRequest {
    requested: Vec<String>,
    ran: Vec<String>,
}

/// Request of `read_surefire_reports`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SurefireRequest {
    dir: PathBuf,
}

/// Request of `compare_outcomes`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CompareRequest {
    expected: Vec<TestOutcome>,
    actual: Vec<TestOutcome>,
}

/// Request of `detect_next` and `detect_summary`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DetectRequest {
    config: RawConfig,
    /// Required, but for a session continued (`history_from` above 0).
    #[serde(default)]
    suite: Option<Suite>,
    /// The whole history; in a session, the records from `history_from` on.
    history: Vec<ExperimentRecord>,
    /// The session of the run (`detect::session`), if it keeps one.
    #[serde(default)]
    session: Option<String>,
    /// In a session: how many records came before `history`.
    #[serde(default)]
    history_from: usize,
}

/// `detect_next` or `detect_summary`, in a session or over the whole history.
fn detect_op(op: &str, request_json: &str) -> Result<String, EngineError> {
    let request: DetectRequest = parse(op, request_json)?;
    let config = DetectConfig::try_from(request.config)?;
    let summary = op == "detect_summary";
    match request.session.as_deref() {
        Some(id) => {
            let call = detect::session::SessionCall {
                id,
                from: request.history_from,
                suite: request.suite,
                records: &request.history,
            };
            if summary {
                respond(&detect::session::summary(&config, call)?)
            } else {
                respond(&detect::session::next(&config, call)?)
            }
        }
        None => {
            let suite = whole_suite(op, request.suite)?;
            if summary {
                respond(&detect::summary(&config, &suite, &request.history)?)
            } else {
                respond(&detect::next(&config, &suite, &request.history)?)
            }
        }
    }
}

/// The suite of a request without a session, which must carry it.
fn whole_suite(op: &str, suite: Option<Suite>) -> Result<Suite, EngineError> {
    suite.ok_or_else(|| EngineError::bad_request(op, "missing field `suite`"))
}

/// Request of `detect_end`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EndRequest {
    session: String,
}

/// Response of `detect_end`.
#[derive(Debug, Serialize)]
struct EndResponse {
    /// Whether the session was kept until now.
    ended: bool,
}

fn parse<T: DeserializeOwned>(op: &str, json: &str) -> Result<T, EngineError> {
    serde_json::from_str(json).map_err(|e| EngineError::bad_request(op, e))
}

fn respond<T: Serialize>(response: &T) -> Result<String, EngineError> {
    // Responses hold only strings, numbers, booleans and enums: serializing cannot fail.
    Ok(serde_json::to_string(response).expect("engine responses always serialize"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn call_json(op: &str, request: Value) -> Result<Value, EngineError> {
        call(op, &request.to_string()).map(|s| serde_json::from_str(&s).unwrap())
    }

    #[test]
    fn version_reports_crate_version_and_abi() {
        assert_eq!(
            call_json("version", json!({})).unwrap(),
            json!({"engine_version": ENGINE_VERSION, "abi": 2})
        );
    }

    #[test]
    fn unknown_op_lists_known_ops() {
        let err = call("plan", "{}").unwrap_err();
        assert_eq!(err.code(), "unknown-op");
        for op in OPS {
            assert!(err.to_string().contains(op), "{err}");
        }
    }

    #[test]
    fn bad_json_and_missing_fields_are_bad_requests() {
        let err = call("check_run", "{not json").unwrap_err();
        assert_eq!(err.code(), "bad-request");
        let err = call("check_run", r#"{"requested":[]}"#).unwrap_err();
        assert_eq!(err.code(), "bad-request");
        assert!(err.to_string().contains("missing field `ran`"), "{err}");
        assert_eq!(call("version", "").unwrap_err().code(), "bad-request");
    }

    #[test]
    fn plan_order_rejects_unknown_schema_version() {
        let err = call_json(
            "plan_order",
            json!({"suite":{"schema_version":2,"module":"g:a","classes":[]},"order_text":"a.B#c","source":"o"}),
        )
        .unwrap_err();
        assert_eq!(err.code(), "bad-request");
        assert!(err.to_string().contains("schema_version 2"), "{err}");
    }

    #[test]
    #[should_panic(expected = "on purpose")]
    fn selftest_panic_panics() {
        let _ = call("selftest_panic", "{}");
    }
}
