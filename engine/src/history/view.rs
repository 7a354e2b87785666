//! What a module's run records say over time (`history_report`): the records read and checked,
//! put in the order they ran, and per flaky test and per cause when it was found, when it stopped
//! being found, and after which patch.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::error::EngineError;

use super::shapes::{RunRecord, RECORD_VERSION};

/// Request of `history_report`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryRequest {
    /// Each record file's name and text, as read.
    pub records: Vec<RecordFile>,
    /// Only the records of this module (`groupId:artifactId`); every record when absent.
    #[serde(default)]
    pub module: Option<String>,
}

/// One record file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordFile {
    /// Its name (for messages).
    pub file: String,
    /// Its content.
    pub text: String,
}

/// What the records say.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct HistoryView {
    /// The module (the request's, or the records' when they all name one).
    pub module: String,
    /// The runs, in the order they ran (by date, then run id).
    pub runs: Vec<RunView>,
    /// Every test any run found flaky, by its first sighting, then id.
    pub tests: Vec<TestRow>,
    /// Every cause any run found, by its first sighting.
    pub causes: Vec<CauseRow>,
    /// Things to know (records of other modules left out, runs that did not finish).
    pub notes: Vec<String>,
}

/// One run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    /// Its id.
    pub run_id: String,
    /// Its goal.
    pub goal: String,
    /// When it ended.
    pub date: String,
    /// Its commit, when known.
    pub commit: Option<String>,
    /// Whether the work tree had uncommitted changes.
    pub dirty: bool,
    /// Whether it ran to its end.
    pub complete: bool,
    /// Whether it looks for flaky tests (else it only offered patches).
    pub detects: bool,
    /// Tests it ran (detecting runs).
    pub ran: usize,
    /// Flaky tests it found.
    pub flaky: usize,
    /// Causes it found.
    pub causes: usize,
    /// Patches it offered (verified).
    pub patches: usize,
}

/// One test across the runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TestRow {
    /// Its id.
    pub test: String,
    /// Its kind when last found.
    pub kind: String,
    /// Per run: `found`, `not-found` (it ran and was not found), `unknown` (a run cut short that
    /// did not find it), `not-run`, `patch` (a patch for it was offered), or `-` (a run that does
    /// not look for its kind: repair, or an audit for a detection's finding and the other way).
    pub cells: Vec<String>,
    /// Per run: its flake rate there, when found with one.
    pub rates: Vec<Option<f64>>,
    /// The first run that found it (index into `runs`).
    pub first_seen: usize,
    /// The last run that found it.
    pub last_seen: usize,
    /// How many runs found it.
    pub found_in: usize,
    /// The run from which it is no longer found, when a later run ran it and did not find it and
    /// none after that found it again.
    pub stopped: Option<Stopped>,
}

/// Where a test stopped being found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stopped {
    /// The first run after its last sighting that ran it and did not find it (index).
    pub run: usize,
    /// That run's id.
    pub run_id: String,
    /// That run's commit.
    pub commit: Option<String>,
    /// The last patch offered for it before that run, when one was.
    pub after_patch: Option<PatchRef>,
}

/// A patch some run offered.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PatchRef {
    /// The run that offered it.
    pub run_id: String,
    /// Its file.
    pub patch: Option<String>,
    /// Whether that run applied it.
    pub applied: bool,
}

/// One cause across the runs: the same role and the same polluters (state-setters), or for a
/// cause without them, the same tests.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CauseRow {
    /// `victim` or `brittle`.
    pub role: String,
    /// Its title when last found.
    pub title: String,
    /// Its polluters or state-setters.
    pub origins: Vec<Vec<String>>,
    /// Every test any run put in it.
    pub tests: Vec<String>,
    /// The first run that found it.
    pub first_seen: usize,
    /// The last run that found it.
    pub last_seen: usize,
    /// How many runs found it.
    pub found_in: usize,
}

/// Reads, checks and orders the records; what they say.
///
/// # Errors
/// [`EngineError::BadRunRecord`] naming the file: not JSON, not a run record (an unknown or a
/// missing key), another schema version, a date that is not an ISO-8601 UTC time, or a run id
/// that two files share.
pub fn history(request: &HistoryRequest) -> Result<HistoryView, EngineError> {
    let (records, other_modules) = ordered(request)?;
    let mut view = HistoryView {
        module: request
            .module
            .clone()
            .or_else(|| {
                let modules: BTreeSet<&str> = records.iter().map(|r| r.module.as_str()).collect();
                (modules.len() == 1).then(|| modules.into_iter().next().unwrap_or("").to_string())
            })
            .unwrap_or_default(),
        ..HistoryView::default()
    };
    if !other_modules.is_empty() {
        view.notes.push(format!(
            "records of {} left out (another module's)",
            other_modules.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    let unfinished: Vec<&str> = records
        .iter()
        .filter(|r| r.detects() && !r.complete)
        .map(|r| r.run_id.as_str())
        .collect();
    if !unfinished.is_empty() {
        view.notes.push(format!(
            "{} did not run to its end (a budget or a failure): a test it did not find may still be flaky",
            unfinished.join(", ")
        ));
    }
    view.runs = records.iter().map(run_view).collect();
    view.tests = test_rows(&records);
    view.causes = cause_rows(&records);
    Ok(view)
}

/// The request's records of its module, read, checked and in the order they ran; and the other
/// modules whose records were left out.
///
/// # Errors
/// As [`history`].
pub fn ordered(
    request: &HistoryRequest,
) -> Result<(Vec<RunRecord>, BTreeSet<String>), EngineError> {
    let mut runs: Vec<(RunRecord, &str)> = Vec::new();
    let mut ids: BTreeMap<String, &str> = BTreeMap::new();
    let mut other_modules: BTreeSet<String> = BTreeSet::new();
    for f in &request.records {
        let bad = |reason: String| EngineError::BadRunRecord {
            file: f.file.clone(),
            reason,
        };
        let r: RunRecord = serde_json::from_str(&f.text).map_err(|e| {
            bad(format!(
                "not an odrust run record ({e}); it was edited or cut short: restore it from the CI's cache or artifact, or remove it"
            ))
        })?;
        if r.schema_version != RECORD_VERSION {
            return Err(bad(format!(
                "schema_version {} is not {RECORD_VERSION}: written by another odrust version; move it aside",
                r.schema_version
            )));
        }
        if !is_utc_time(&r.date) {
            return Err(bad(format!(
                "date `{}` is not an ISO-8601 UTC time like 2026-12-02T01:05:00Z",
                r.date
            )));
        }
        if let Some(other) = ids.insert(r.run_id.clone(), &f.file) {
            return Err(bad(format!(
                "run id `{}` is also the run id of {other}: one of them is a copy; remove it",
                r.run_id
            )));
        }
        if request.module.as_ref().is_some_and(|m| *m != r.module) {
            other_modules.insert(r.module.clone());
            continue;
        }
        runs.push((r, &f.file));
    }
    runs.sort_by(|a, b| (&a.0.date, &a.0.run_id).cmp(&(&b.0.date, &b.0.run_id)));
    Ok((runs.into_iter().map(|(r, _)| r).collect(), other_modules))
}

fn run_view(r: &RunRecord) -> RunView {
    RunView {
        run_id: r.run_id.clone(),
        goal: r.goal.clone(),
        date: r.date.clone(),
        commit: r.commit.clone(),
        dirty: r.dirty,
        complete: r.complete,
        detects: r.detects(),
        ran: r.ran.as_ref().map_or(0, Vec::len),
        flaky: r.tests.len(),
        causes: r.causes.len(),
        patches: r.patches.iter().filter(|p| p.status == "patched").count(),
    }
}

fn test_rows(records: &[RunRecord]) -> Vec<TestRow> {
    let mut order: Vec<String> = Vec::new();
    for r in records {
        for t in &r.tests {
            if !order.contains(&t.test) {
                order.push(t.test.clone());
            }
        }
    }
    order
        .into_iter()
        .map(|test| test_row(records, test))
        .collect()
}

fn test_row(records: &[RunRecord], test: String) -> TestRow {
    let mut row = TestRow {
        test: test.clone(),
        ..TestRow::default()
    };
    let mut seen: Vec<usize> = Vec::new();
    // an audit's findings and a detection's are of two kinds: each compared with its own runs
    let family = records
        .iter()
        .find(|r| r.tests.iter().any(|t| t.test == test))
        .map_or("detect", |r| r.family());
    for (i, r) in records.iter().enumerate() {
        let found = r.tests.iter().find(|t| t.test == test);
        let cell = match (found, &r.ran) {
            (Some(f), _) => {
                row.kind = f.kind.clone();
                seen.push(i);
                "found"
            }
            (None, _) if offered_for(r, &test).is_some() => "patch",
            (None, Some(_)) if r.family() != family => "-",
            // a run cut short may not have reached it
            (None, Some(ran)) if ran.contains(&test) && !r.complete => "unknown",
            (None, Some(ran)) if ran.contains(&test) => "not-found",
            (None, Some(_)) => "not-run",
            (None, None) => "-",
        };
        row.cells.push(cell.to_string());
        row.rates.push(found.and_then(|f| f.flake_rate));
    }
    row.first_seen = seen.first().copied().unwrap_or(0);
    row.last_seen = seen.last().copied().unwrap_or(0);
    row.found_in = seen.len();
    row.stopped = row.cells[row.last_seen + 1..]
        .iter()
        .position(|c| c == "not-found")
        .map(|k| row.last_seen + 1 + k)
        .map(|run| Stopped {
            run,
            run_id: records[run].run_id.clone(),
            commit: records[run].commit.clone(),
            // the last patch offered for it before that run
            after_patch: records[row.first_seen..run]
                .iter()
                .rev()
                .find_map(|r| offered_for(r, &test).map(|p| (r, p)))
                .map(|(r, p)| PatchRef {
                    run_id: r.run_id.clone(),
                    patch: p.patch.clone(),
                    applied: p.applied,
                }),
        });
    row
}

/// The verified patch `r` offered for `test`, if any.
fn offered_for<'r>(r: &'r RunRecord, test: &str) -> Option<&'r super::shapes::OfferedPatch> {
    r.patches
        .iter()
        .find(|p| p.status == "patched" && p.tests.iter().any(|t| t == test))
}

fn cause_rows(records: &[RunRecord]) -> Vec<CauseRow> {
    let mut rows: Vec<(String, CauseRow)> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        for c in &r.causes {
            let mut origins: Vec<Vec<String>> = c
                .origins
                .iter()
                .map(|g| {
                    let mut g = g.clone();
                    g.sort();
                    g
                })
                .collect();
            origins.sort();
            let key = if origins.is_empty() {
                let mut tests = c.tests.clone();
                tests.sort();
                format!("{}|tests|{}", c.role, tests.join(","))
            } else {
                format!(
                    "{}|{}",
                    c.role,
                    origins
                        .iter()
                        .map(|g| g.join("+"))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            };
            match rows.iter_mut().find(|(k, _)| *k == key) {
                Some((_, row)) => {
                    row.title = c.title.clone();
                    if row.last_seen != i {
                        row.found_in += 1;
                    }
                    row.last_seen = i;
                    for t in &c.tests {
                        if !row.tests.contains(t) {
                            row.tests.push(t.clone());
                        }
                    }
                }
                None => rows.push((
                    key,
                    CauseRow {
                        role: c.role.clone(),
                        title: c.title.clone(),
                        origins,
                        tests: c.tests.clone(),
                        first_seen: i,
                        last_seen: i,
                        found_in: 1,
                    },
                )),
            }
        }
    }
    rows.into_iter().map(|(_, r)| r).collect()
}

/// Whether `s` is `YYYY-MM-DDTHH:MM:SS` with optional fraction, ending in `Z`, with fields in
/// range.
pub fn is_utc_time(s: &str) -> bool {
    let Some(body) = s.strip_suffix('Z') else {
        return false;
    };
    let (main, fraction) = body.split_once('.').unwrap_or((body, ""));
    if !fraction.chars().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let b = main.as_bytes();
    if b.len() != 19
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return false;
    }
    let num = |from: usize, to: usize| main.get(from..to).and_then(|x| x.parse::<u32>().ok());
    matches!(
        (
            num(0, 4),
            num(5, 7),
            num(8, 10),
            num(11, 13),
            num(14, 16),
            num(17, 19)
        ),
        (
            Some(_),
            Some(1..=12),
            Some(1..=31),
            Some(0..=23),
            Some(0..=59),
            Some(0..=60)
        )
    )
}
