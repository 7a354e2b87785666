//! The history view over hand-written run records.

use serde_json::json;

use super::view::{is_utc_time, RecordFile};
use super::*;
use crate::error::EngineError;

fn file(name: &str, record: serde_json::Value) -> RecordFile {
    RecordFile {
        file: name.to_string(),
        text: record.to_string(),
    }
}

fn detect(run: &str, date: &str, commit: &str, found: &[&str]) -> serde_json::Value {
    json!({
        "schema_version": 1, "run_id": run, "goal": "detect", "module": "g:a", "date": date,
        "commit": commit, "complete": true,
        "ran": ["p.A#a", "p.V#v", "p.W#w"],
        "tests": found.iter().map(|t| json!({"test": t, "kind": "victim", "cause": 1, "flake_rate": 0.5})).collect::<Vec<_>>(),
        "causes": if found.is_empty() { json!([]) } else {
            json!([{"id": 1, "role": "victim", "title": "state left by p.A#a", "tests": found, "origins": [["p.A#a"]]}])
        }
    })
}

fn view(records: Vec<RecordFile>) -> Result<HistoryView, EngineError> {
    history(&HistoryRequest {
        records,
        module: Some("g:a".to_string()),
    })
}

#[test]
fn the_grid_says_when_each_test_was_found_and_after_which_patch_it_stopped() {
    let repair = json!({
        "schema_version": 1, "run_id": "r2", "goal": "repair", "module": "g:a",
        "date": "2026-12-02T02:00:00Z", "commit": "c1",
        "patches": [{"tests": ["p.V#v", "p.W#w"], "status": "patched", "patch": "target/odrust/repair/cause-1.patch", "applied": true}]
    });
    // files in any order: the view orders them by date
    let v = view(vec![
        file("c.json", detect("r3", "2026-12-03T01:00:00Z", "c2", &[])),
        file(
            "a.json",
            detect("r1", "2026-12-02T01:00:00Z", "c1", &["p.V#v", "p.W#w"]),
        ),
        file("b.json", repair),
    ])
    .unwrap();
    let ids: Vec<&str> = v.runs.iter().map(|r| r.run_id.as_str()).collect();
    assert_eq!(ids, ["r1", "r2", "r3"]);
    assert!(v.runs[0].detects && !v.runs[1].detects);
    assert_eq!(
        (v.runs[0].flaky, v.runs[0].causes, v.runs[1].patches),
        (2, 1, 1)
    );
    let vrow = &v.tests[0];
    assert_eq!(vrow.test, "p.V#v");
    assert_eq!(vrow.cells, ["found", "patch", "not-found"]);
    assert_eq!(vrow.rates, [Some(0.5), None, None]);
    assert_eq!((vrow.first_seen, vrow.last_seen, vrow.found_in), (0, 0, 1));
    let stopped = vrow.stopped.as_ref().unwrap();
    assert_eq!((stopped.run, stopped.run_id.as_str()), (2, "r3"));
    assert_eq!(stopped.commit.as_deref(), Some("c2"));
    let patch = stopped.after_patch.as_ref().unwrap();
    assert_eq!(patch.run_id, "r2");
    assert!(patch.applied);
    // one cause, seen once
    assert_eq!(v.causes.len(), 1);
    assert_eq!(v.causes[0].origins, vec![vec!["p.A#a".to_string()]]);
    assert_eq!((v.causes[0].first_seen, v.causes[0].found_in), (0, 1));
}

#[test]
fn a_test_found_again_has_not_stopped_and_a_run_that_did_not_run_it_says_so() {
    let mut partial = detect("r2", "2026-12-02T02:00:00Z", "c2", &[]);
    partial["ran"] = json!(["p.A#a"]);
    let v = view(vec![
        file(
            "1.json",
            detect("r1", "2026-12-02T01:00:00Z", "c1", &["p.V#v"]),
        ),
        file("2.json", partial),
        file("3.json", detect("r3", "2026-12-02T03:00:00Z", "c3", &[])),
        file(
            "4.json",
            detect("r4", "2026-12-02T04:00:00Z", "c4", &["p.V#v"]),
        ),
    ])
    .unwrap();
    let row = &v.tests[0];
    assert_eq!(row.cells, ["found", "not-run", "not-found", "found"]);
    assert_eq!(row.found_in, 2);
    assert!(row.stopped.is_none(), "{row:?}");
    // the same cause in runs 1 and 4 (same polluters), though its ids are per run
    assert_eq!(v.causes.len(), 1);
    assert_eq!(
        (
            v.causes[0].first_seen,
            v.causes[0].last_seen,
            v.causes[0].found_in
        ),
        (0, 3, 2)
    );
}

#[test]
fn bad_records_are_refused_naming_the_file_and_what_is_wrong() {
    let code_and_message = |records: Vec<RecordFile>| {
        let e = view(records).unwrap_err();
        (e.code(), e.to_string())
    };
    let (code, m) = code_and_message(vec![RecordFile {
        file: "DIR/cut.json".to_string(),
        text: "{\"schema_version\": 1, \"run_id\"".to_string(),
    }]);
    assert_eq!(code, "bad-run-record");
    assert!(
        m.starts_with("history record DIR/cut.json: not an odrust run record ("),
        "{m}"
    );
    let mut unknown = detect("r1", "2026-12-02T01:00:00Z", "c1", &[]);
    unknown["colour"] = json!("red");
    let (_, m) = code_and_message(vec![file("u.json", unknown)]);
    assert!(m.contains("unknown field `colour`"), "{m}");
    let (_, m) = code_and_message(vec![file("d.json", detect("r1", "yesterday", "c1", &[]))]);
    assert!(
        m.contains("date `yesterday` is not an ISO-8601 UTC time"),
        "{m}"
    );
    let mut v2 = detect("r1", "2026-12-02T01:00:00Z", "c1", &[]);
    v2["schema_version"] = json!(2);
    let (_, m) = code_and_message(vec![file("v.json", v2)]);
    assert!(m.contains("schema_version 2 is not 1"), "{m}");
    let (_, m) = code_and_message(vec![
        file("a.json", detect("r1", "2026-12-02T01:00:00Z", "c1", &[])),
        file("b.json", detect("r1", "2026-12-02T02:00:00Z", "c1", &[])),
    ]);
    assert!(
        m.starts_with("history record b.json: run id `r1` is also the run id of a.json"),
        "{m}"
    );
}

#[test]
fn records_of_another_module_are_left_out_with_a_note() {
    let mut other = detect("r2", "2026-12-02T02:00:00Z", "c1", &["p.V#v"]);
    other["module"] = json!("g:other");
    let v = view(vec![
        file("1.json", detect("r1", "2026-12-02T01:00:00Z", "c1", &[])),
        file("2.json", other),
    ])
    .unwrap();
    assert_eq!(v.runs.len(), 1);
    assert!(v.tests.is_empty());
    assert_eq!(v.notes, ["records of g:other left out (another module's)"]);
}

#[test]
fn utc_times_are_checked_field_by_field() {
    assert!(is_utc_time("2026-12-02T01:05:00Z"));
    assert!(is_utc_time("2026-12-02T01:05:00.123Z"));
    assert!(!is_utc_time("2026-12-02T01:05:00"));
    assert!(!is_utc_time("2026-13-02T01:05:00Z"));
    assert!(!is_utc_time("2026-12-02 01:05:00Z"));
    assert!(!is_utc_time("2026-12-02T25:05:00Z"));
}

#[test]
fn an_audit_does_not_stop_a_detections_finding_and_a_run_cut_short_says_nothing() {
    let mut audit = detect("r2", "2026-12-02T02:00:00Z", "c2", &[]);
    audit["goal"] = json!("audit");
    let mut cut = detect("r3", "2026-12-02T03:00:00Z", "c3", &[]);
    cut["complete"] = json!(false);
    let v = view(vec![
        file(
            "1.json",
            detect("r1", "2026-12-02T01:00:00Z", "c1", &["p.V#v"]),
        ),
        file("2.json", audit),
        file("3.json", cut),
    ])
    .unwrap();
    let row = &v.tests[0];
    assert_eq!(row.cells, ["found", "-", "unknown"]);
    assert!(row.stopped.is_none(), "{row:?}");
    assert!(
        v.notes
            .iter()
            .any(|n| n.starts_with("r3 did not run to its end")),
        "{:?}",
        v.notes
    );
}
