//! The quarantine file (docs/history.md, "Quarantine"; issue 35, item 2): flaky tests a team
//! accepts for a while, each with a reason, an owner and an expiry date, instead of `@Ignore`. A
//! quarantined test still runs and is still reported; `failOnFlaky` does not fail on it until its
//! entry expires, and an expired entry fails the build naming its owner. An entry covers one test
//! (`test`), or a cause: every victim of a polluter (`polluter`), every brittle of a state-setter
//! (`state_setter`). With a history, an entry whose tests no run found over the last runs is
//! ready to remove.
//!
//! `quarantine_check` decides; `quarantine_add` adds the current run's unfixed causes.

use serde::{Deserialize, Serialize};

use crate::error::EngineError;

use super::shapes::RunRecord;
use super::view::{ordered, HistoryRequest, RecordFile};

/// The version of the quarantine file's layout.
pub const QUARANTINE_VERSION: u32 = 1;

/// Runs without a sighting after which an entry is ready to remove, by default.
pub const DEFAULT_REMOVE_AFTER: usize = 3;

/// The quarantine file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuarantineFile {
    /// [`QUARANTINE_VERSION`].
    pub schema_version: u32,
    /// The entries.
    #[serde(default)]
    pub entries: Vec<Entry>,
}

/// One quarantined test or cause.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// A test id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// A polluter: every victim of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub polluter: Option<String>,
    /// A state-setter: every brittle that needs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_setter: Option<String>,
    /// Why it is quarantined.
    pub reason: String,
    /// Who fixes it.
    pub owner: String,
    /// The last day it is quarantined (`YYYY-MM-DD`).
    pub expires: String,
    /// An issue or a pull request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

impl Entry {
    /// `test com.acme.FooTest#bar`, `polluter com.acme.LoginTest#logsIn`, ...
    pub fn what(&self) -> String {
        match (&self.test, &self.polluter, &self.state_setter) {
            (Some(t), _, _) => format!("test {t}"),
            (_, Some(p), _) => format!("victims of polluter {p}"),
            (_, _, Some(s)) => format!("brittles of state-setter {s}"),
            _ => String::new(),
        }
    }

    /// Whether it covers `f`.
    fn covers(&self, f: &Found) -> bool {
        self.test.as_deref() == Some(f.test.as_str())
            || self
                .polluter
                .as_ref()
                .is_some_and(|p| f.polluters.contains(p))
            || self
                .state_setter
                .as_ref()
                .is_some_and(|s| f.state_setters.contains(s))
    }
}

/// A flaky test the run found.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Found {
    /// Its id.
    pub test: String,
    /// Its polluters (every group's tests).
    #[serde(default)]
    pub polluters: Vec<String>,
    /// Its state-setters.
    #[serde(default)]
    pub state_setters: Vec<String>,
}

/// Request of `quarantine_check`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuarantineRequest {
    /// The file's name (for messages).
    pub file: String,
    /// Its content; none when there is no file (nothing is quarantined).
    #[serde(default)]
    pub text: Option<String>,
    /// Today (`YYYY-MM-DD`): an entry that expires before it has expired.
    pub today: String,
    /// The order-dependent tests the run found.
    #[serde(default)]
    pub found: Vec<Found>,
    /// The module's run records (`-Dodrust.history`), for entries ready to remove.
    #[serde(default)]
    pub history: Vec<RecordFile>,
    /// The module, to read its records only.
    #[serde(default)]
    pub module: Option<String>,
    /// Runs without a sighting after which an entry is ready to remove; [`DEFAULT_REMOVE_AFTER`].
    #[serde(default)]
    pub remove_after: Option<usize>,
}

/// What the quarantine says about a run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct QuarantineVerdict {
    /// How many entries the file has.
    pub entries: usize,
    /// Found tests an entry in force covers: reported, not failing.
    pub quarantined: Vec<Quarantined>,
    /// Entries past their expiry: each fails the build, naming its owner.
    pub expired: Vec<Expired>,
    /// Found tests no entry covers.
    pub not_quarantined: Vec<String>,
    /// Entries whose tests were not found over the last runs.
    pub ready_to_remove: Vec<Ready>,
    /// Things to know (a history record that could not be read).
    #[serde(default)]
    pub notes: Vec<String>,
}

/// A found test under quarantine.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Quarantined {
    /// The test.
    pub test: String,
    /// The entry (from 1).
    pub entry: usize,
    /// Its owner.
    pub owner: String,
    /// Its expiry.
    pub expires: String,
    /// Its reason.
    pub reason: String,
}

/// An entry past its expiry.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Expired {
    /// The entry (from 1).
    pub entry: usize,
    /// What it covers.
    pub what: String,
    /// Its owner.
    pub owner: String,
    /// Its expiry.
    pub expires: String,
    /// The found tests it covers (none: it expired though nothing it covers was found).
    pub tests: Vec<String>,
}

/// An entry ready to remove.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Ready {
    /// The entry (from 1).
    pub entry: usize,
    /// What it covers.
    pub what: String,
    /// Why.
    pub why: String,
}

/// Reads and checks a quarantine file.
///
/// # Errors
/// [`EngineError::BadQuarantine`] naming the file and the entry.
pub fn read(file: &str, text: &str) -> Result<QuarantineFile, EngineError> {
    let bad = |entry: Option<usize>, reason: String| EngineError::BadQuarantine {
        file: file.to_string(),
        entry,
        reason,
    };
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| bad(None, format!("not JSON ({e})")))?;
    let version = value.get("schema_version").and_then(|v| v.as_u64());
    if version != Some(u64::from(QUARANTINE_VERSION)) {
        return Err(bad(
            None,
            format!("`schema_version` must be {QUARANTINE_VERSION}, as docs/history.md shows"),
        ));
    }
    if let Some(entries) = value.get("entries").and_then(|e| e.as_array()) {
        for (i, e) in entries.iter().enumerate() {
            let entry: Entry = serde_json::from_value(e.clone())
                .map_err(|err| bad(Some(i + 1), format!("{err}; an entry has `test`, `polluter` or `state_setter`, `reason`, `owner`, `expires` and optionally `link`")))?;
            check_entry(&entry).map_err(|why| bad(Some(i + 1), why))?;
        }
    }
    serde_json::from_value(value).map_err(|e| bad(None, e.to_string()))
}

fn check_entry(e: &Entry) -> Result<(), String> {
    let targets = [&e.test, &e.polluter, &e.state_setter]
        .iter()
        .filter(|t| t.is_some())
        .count();
    if targets != 1 {
        return Err("give exactly one of `test`, `polluter` or `state_setter`".to_string());
    }
    for (name, value) in [("owner", &e.owner), ("reason", &e.reason)] {
        if value.trim().is_empty() {
            return Err(format!(
                "`{name}` is empty: say who fixes it and why it waits"
            ));
        }
    }
    if !is_date(&e.expires) {
        return Err(format!(
            "`expires` is `{}`, not a date like 2026-12-31",
            e.expires
        ));
    }
    Ok(())
}

/// Whether `s` is `YYYY-MM-DD` with month and day in range.
pub fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |from: usize, to: usize| s.get(from..to).and_then(|x| x.parse::<u32>().ok());
    matches!(
        (num(0, 4), num(5, 7), num(8, 10)),
        (Some(_), Some(1..=12), Some(1..=31))
    )
}

/// What the quarantine says about a run's findings.
///
/// # Errors
/// A bad quarantine file ([`EngineError::BadQuarantine`]) or a bad `today` (a history record
/// that cannot be read is a note).
pub fn check(request: &QuarantineRequest) -> Result<QuarantineVerdict, EngineError> {
    if !is_date(&request.today) {
        return Err(EngineError::bad_request(
            "quarantine_check",
            format!("today `{}` is not a date", request.today),
        ));
    }
    let Some(text) = &request.text else {
        return Ok(QuarantineVerdict {
            not_quarantined: request.found.iter().map(|f| f.test.clone()).collect(),
            ..QuarantineVerdict::default()
        });
    };
    let file = read(&request.file, text)?;
    let expired = |e: &Entry| e.expires.as_str() < request.today.as_str();
    let mut verdict = QuarantineVerdict {
        entries: file.entries.len(),
        ..QuarantineVerdict::default()
    };
    for f in &request.found {
        let covering: Vec<(usize, &Entry)> = file
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.covers(f))
            .collect();
        match covering.iter().find(|(_, e)| !expired(e)) {
            Some((i, e)) => verdict.quarantined.push(Quarantined {
                test: f.test.clone(),
                entry: i + 1,
                owner: e.owner.clone(),
                expires: e.expires.clone(),
                reason: e.reason.clone(),
            }),
            None if covering.is_empty() => verdict.not_quarantined.push(f.test.clone()),
            None => {}
        }
    }
    // the history, read once; a record odrust cannot read makes it say nothing, with a note (the
    // run it checks is not failed for it: odrust:history names the file)
    let n = request.remove_after.unwrap_or(DEFAULT_REMOVE_AFTER).max(1);
    let records = if request.history.is_empty() {
        Vec::new()
    } else {
        match ordered(&HistoryRequest {
            records: request.history.clone(),
            module: request.module.clone(),
        }) {
            Ok((records, _)) => records,
            Err(e) => {
                verdict.notes.push(format!(
                    "the history was not read ({e}): no entry is said to be ready to remove"
                ));
                Vec::new()
            }
        }
    };
    for (i, e) in file.entries.iter().enumerate() {
        let tests: Vec<String> = request
            .found
            .iter()
            .filter(|f| e.covers(f))
            .map(|f| f.test.clone())
            .collect();
        if expired(e) {
            verdict.expired.push(Expired {
                entry: i + 1,
                what: e.what(),
                owner: e.owner.clone(),
                expires: e.expires.clone(),
                tests,
            });
        } else if tests.is_empty() {
            if let Some(why) = ready(&records, n, e) {
                verdict.ready_to_remove.push(Ready {
                    entry: i + 1,
                    what: e.what(),
                    why,
                });
            }
        }
    }
    Ok(verdict)
}

/// Why `e` (which covers nothing this run found) is ready to remove, if it is: none of the last
/// `n` detection runs that ran to their end and ran what it covers found it.
fn ready(records: &[RunRecord], n: usize, e: &Entry) -> Option<String> {
    let mut clean = 0;
    for r in records.iter().rev() {
        let Some(ran) = &r.ran else {
            continue;
        };
        if r.family() != "detect" || !r.complete {
            continue;
        }
        let key = e
            .test
            .as_ref()
            .or(e.polluter.as_ref())
            .or(e.state_setter.as_ref());
        if !key.is_some_and(|k| ran.contains(k)) {
            continue;
        }
        let found_it = match (&e.test, &e.polluter, &e.state_setter) {
            (Some(t), _, _) => r.tests.iter().any(|f| &f.test == t),
            (_, Some(p), _) => r
                .causes
                .iter()
                .any(|c| c.role != "brittle" && c.origins.iter().flatten().any(|o| o == p)),
            (_, _, Some(s)) => r
                .causes
                .iter()
                .any(|c| c.role == "brittle" && c.origins.iter().flatten().any(|o| o == s)),
            _ => false,
        };
        if found_it {
            return None;
        }
        clean += 1;
        if clean == n {
            return Some(format!(
                "not found in the last {n} runs that ran it (since {}): remove the entry",
                r.run_id
            ));
        }
    }
    None
}

/// Request of `quarantine_add`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddRequest {
    /// The file's name (for messages).
    pub file: String,
    /// Its content; none for a new file.
    #[serde(default)]
    pub text: Option<String>,
    /// Today (`YYYY-MM-DD`).
    pub today: String,
    /// The owner of the new entries.
    pub owner: String,
    /// Their expiry (`YYYY-MM-DD`, today or later).
    pub expires: String,
    /// Their reason.
    pub reason: String,
    /// Their link.
    #[serde(default)]
    pub link: Option<String>,
    /// The run's causes that no applied patch fixed.
    pub causes: Vec<AddCause>,
}

/// A cause to quarantine.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddCause {
    /// `victim` or `brittle`.
    pub role: String,
    /// Its tests.
    pub tests: Vec<String>,
    /// Its polluters or state-setters (groups).
    #[serde(default)]
    pub origins: Vec<Vec<String>>,
}

/// Response of `quarantine_add`.
#[derive(Debug, Clone, Serialize)]
pub struct AddResponse {
    /// The file's new content.
    pub text: String,
    /// What each new entry covers.
    pub added: Vec<String>,
    /// Causes an entry already covered.
    pub covered: Vec<String>,
}

/// The quarantine file with an entry for each cause it does not cover yet: a polluter (victims)
/// or state-setter (brittles) entry when the cause has exactly one, alone; else one per test.
///
/// # Errors
/// A bad file, or an owner, reason or expiry that is not one ([`EngineError::BadQuarantine`]).
pub fn add(request: &AddRequest) -> Result<AddResponse, EngineError> {
    let mut file = match &request.text {
        Some(text) => read(&request.file, text)?,
        None => QuarantineFile {
            schema_version: QUARANTINE_VERSION,
            entries: Vec::new(),
        },
    };
    let bad = |reason: String| EngineError::BadQuarantine {
        file: request.file.clone(),
        entry: None,
        reason,
    };
    let template = Entry {
        reason: request.reason.clone(),
        owner: request.owner.clone(),
        expires: request.expires.clone(),
        link: request.link.clone(),
        test: Some(String::new()),
        ..Entry::default()
    };
    check_entry(&template).map_err(|why| {
        bad(format!(
            "the new entries: {why} (-Dodrust.quarantine.owner, .reason, .expires)"
        ))
    })?;
    if request.expires.as_str() < request.today.as_str() {
        return Err(bad(format!(
            "the new entries would expire on {}, before today ({})",
            request.expires, request.today
        )));
    }
    let mut added = Vec::new();
    let mut covered = Vec::new();
    for c in &request.causes {
        let origins: Vec<&String> = c.origins.iter().flatten().collect();
        let found: Vec<Found> = c
            .tests
            .iter()
            .map(|t| Found {
                test: t.clone(),
                polluters: if c.role == "brittle" {
                    Vec::new()
                } else {
                    origins.iter().map(|o| o.to_string()).collect()
                },
                state_setters: if c.role == "brittle" {
                    origins.iter().map(|o| o.to_string()).collect()
                } else {
                    Vec::new()
                },
            })
            .collect();
        if found
            .iter()
            .all(|f| file.entries.iter().any(|e| e.covers(f)))
        {
            covered.push(c.tests.join(", "));
            continue;
        }
        let new: Vec<Entry> = match (c.origins.as_slice(), c.role.as_str()) {
            ([one], "brittle") if one.len() == 1 => vec![Entry {
                state_setter: Some(one[0].clone()),
                test: None,
                ..template.clone()
            }],
            ([one], _) if one.len() == 1 => vec![Entry {
                polluter: Some(one[0].clone()),
                test: None,
                ..template.clone()
            }],
            _ => found
                .iter()
                .filter(|f| !file.entries.iter().any(|e| e.covers(f)))
                .map(|f| Entry {
                    test: Some(f.test.clone()),
                    ..template.clone()
                })
                .collect(),
        };
        for e in new {
            added.push(e.what());
            file.entries.push(e);
        }
    }
    let text =
        serde_json::to_string_pretty(&file).expect("a quarantine file always serializes") + "\n";
    Ok(AddResponse {
        text,
        added,
        covered,
    })
}
