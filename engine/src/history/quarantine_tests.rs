//! The quarantine file against hand-written findings and run records.

use serde_json::json;

use super::quarantine::*;
use super::view::RecordFile;

fn found(test: &str, polluter: &str) -> Found {
    Found {
        test: test.to_string(),
        polluters: vec![polluter.to_string()],
        state_setters: Vec::new(),
    }
}

fn request(text: serde_json::Value, today: &str, found: Vec<Found>) -> QuarantineRequest {
    QuarantineRequest {
        file: ".odrust/quarantine.json".to_string(),
        text: Some(text.to_string()),
        today: today.to_string(),
        found,
        history: Vec::new(),
        module: None,
        remove_after: None,
    }
}

fn entry(key: &str, value: &str, owner: &str, expires: &str) -> serde_json::Value {
    json!({key: value, "reason": "waits for the cache rewrite", "owner": owner, "expires": expires})
}

#[test]
fn a_quarantined_test_does_not_fail_until_its_entry_expires_then_its_owner_is_named() {
    let file = json!({"schema_version": 1, "entries": [
        entry("test", "p.CartTest#isEmpty", "alice", "2026-12-31"),
        entry("polluter", "p.LoginTest#logsIn", "bob", "2026-12-01"),
    ]});
    let findings = vec![
        found("p.CartTest#isEmpty", "p.OtherTest#x"),
        found("p.OrderTest#total", "p.LoginTest#logsIn"),
        found("p.PriceTest#rounds", "p.TaxTest#sets"),
    ];
    // before both expiries
    let v = check(&request(file.clone(), "2026-11-30", findings.clone())).unwrap();
    assert_eq!(v.entries, 2);
    let q: Vec<(&str, usize, &str)> = v
        .quarantined
        .iter()
        .map(|q| (q.test.as_str(), q.entry, q.owner.as_str()))
        .collect();
    assert_eq!(
        q,
        [
            ("p.CartTest#isEmpty", 1, "alice"),
            ("p.OrderTest#total", 2, "bob")
        ]
    );
    assert_eq!(v.not_quarantined, ["p.PriceTest#rounds"]);
    assert!(v.expired.is_empty());
    // the expiry day itself is still in force
    let v = check(&request(file.clone(), "2026-12-01", findings.clone())).unwrap();
    assert!(v.expired.is_empty());
    // the day after: bob's entry has expired; its victim fails again, naming bob
    let v = check(&request(file, "2026-12-02", findings)).unwrap();
    assert_eq!(v.quarantined.len(), 1);
    assert_eq!(v.expired.len(), 1);
    let e = &v.expired[0];
    assert_eq!(
        (e.entry, e.owner.as_str(), e.expires.as_str()),
        (2, "bob", "2026-12-01")
    );
    assert_eq!(e.what, "victims of polluter p.LoginTest#logsIn");
    assert_eq!(e.tests, ["p.OrderTest#total"]);
    assert_eq!(v.not_quarantined, ["p.PriceTest#rounds"]);
}

#[test]
fn bad_entries_are_refused_naming_the_file_the_entry_and_the_problem() {
    let message = |file: serde_json::Value| {
        let e = check(&request(file, "2026-12-01", Vec::new())).unwrap_err();
        assert_eq!(e.code(), "bad-quarantine");
        e.to_string()
    };
    let m = message(json!({"schema_version": 1, "entries": [
        entry("test", "p.A#a", "alice", "2026-12-31"),
        {"test": "p.B#b", "reason": "r", "owner": "o", "expires": "2026-12-31", "colour": "red"}
    ]}));
    assert!(
        m.starts_with("quarantine file .odrust/quarantine.json, entry 2: unknown field `colour`"),
        "{m}"
    );
    let m = message(
        json!({"schema_version": 1, "entries": [entry("test", "p.A#a", "alice", "31/12/2026")]}),
    );
    assert!(
        m.contains("entry 1: `expires` is `31/12/2026`, not a date like 2026-12-31"),
        "{m}"
    );
    let m = message(
        json!({"schema_version": 1, "entries": [entry("test", "p.A#a", " ", "2026-12-31")]}),
    );
    assert!(m.contains("`owner` is empty"), "{m}");
    let m = message(
        json!({"schema_version": 1, "entries": [{"reason": "r", "owner": "o", "expires": "2026-12-31"}]}),
    );
    assert!(
        m.contains("give exactly one of `test`, `polluter` or `state_setter`"),
        "{m}"
    );
    let m = message(json!({"entries": []}));
    assert!(m.contains("`schema_version` must be 1"), "{m}");
    let e = check(&QuarantineRequest {
        text: Some("{not json".to_string()),
        ..request(json!({}), "2026-12-01", Vec::new())
    })
    .unwrap_err();
    assert!(e
        .to_string()
        .starts_with("quarantine file .odrust/quarantine.json: not JSON ("));
}

#[test]
fn an_entry_not_found_over_the_last_runs_is_ready_to_remove() {
    let record = |run: &str, hour: u32, found: bool| {
        RecordFile {
        file: format!("{run}.json"),
        text: json!({"schema_version": 1, "run_id": run, "goal": "detect", "module": "g:a",
            "date": format!("2026-12-01T{hour:02}:00:00Z"), "complete": true,
            "ran": ["p.CartTest#isEmpty", "p.LoginTest#logsIn"],
            "tests": if found { json!([{"test": "p.CartTest#isEmpty", "kind": "victim"}]) } else { json!([]) },
            "causes": if found { json!([{"id": 1, "role": "victim", "title": "t", "tests": ["p.CartTest#isEmpty"], "origins": [["p.LoginTest#logsIn"]]}]) } else { json!([]) }
        })
        .to_string(),
    }
    };
    let file = json!({"schema_version": 1, "entries": [
        entry("test", "p.CartTest#isEmpty", "alice", "2026-12-31"),
        entry("polluter", "p.LoginTest#logsIn", "bob", "2026-12-31"),
    ]});
    let with = |history: Vec<RecordFile>| {
        check(&QuarantineRequest {
            history,
            module: Some("g:a".to_string()),
            ..request(file.clone(), "2026-12-02", Vec::new())
        })
        .unwrap()
    };
    // found in run 1, then 2 runs without it: not yet (3 by default)
    let v = with(vec![
        record("r1", 1, true),
        record("r2", 2, false),
        record("r3", 3, false),
    ]);
    assert!(v.ready_to_remove.is_empty(), "{v:?}");
    let v = with(vec![
        record("r1", 1, true),
        record("r2", 2, false),
        record("r3", 3, false),
        record("r4", 4, false),
    ]);
    let ready: Vec<(usize, &str)> = v
        .ready_to_remove
        .iter()
        .map(|r| (r.entry, r.why.as_str()))
        .collect();
    assert_eq!(
        ready,
        [
            (
                1,
                "not found in the last 3 runs that ran it (since r2): remove the entry"
            ),
            (
                2,
                "not found in the last 3 runs that ran it (since r2): remove the entry"
            )
        ]
    );
}

#[test]
fn add_quarantines_each_unfixed_cause_once_by_its_polluter_or_its_tests() {
    let r = add(&AddRequest {
        file: ".odrust/quarantine.json".to_string(),
        text: Some(json!({"schema_version": 1, "entries": [entry("test", "p.OldTest#x", "carol", "2026-12-31")]}).to_string()),
        today: "2026-12-02".to_string(),
        owner: "alice".to_string(),
        expires: "2027-01-15".to_string(),
        reason: "flaky since the cache rewrite".to_string(),
        link: Some("https://example.com/issues/7".to_string()),
        causes: vec![
            AddCause { role: "victim".to_string(), tests: vec!["p.CartTest#isEmpty".to_string(), "p.OrderTest#total".to_string()], origins: vec![vec!["p.LoginTest#logsIn".to_string()]] },
            AddCause { role: "brittle".to_string(), tests: vec!["p.B#needs".to_string()], origins: vec![vec!["p.S#sets".to_string(), "p.T#sets".to_string()]] },
            AddCause { role: "victim".to_string(), tests: vec!["p.OldTest#x".to_string()], origins: Vec::new() },
        ],
    })
    .unwrap();
    assert_eq!(
        r.added,
        ["victims of polluter p.LoginTest#logsIn", "test p.B#needs"]
    );
    assert_eq!(r.covered, ["p.OldTest#x"]);
    let file = read("q", &r.text).unwrap();
    assert_eq!(file.entries.len(), 3);
    assert_eq!(file.entries[1].owner, "alice");
    assert_eq!(
        file.entries[1].link.as_deref(),
        Some("https://example.com/issues/7")
    );
    assert!(r.text.ends_with("}\n"));
    // an expiry in the past is refused
    let e = add(&AddRequest {
        file: "q".to_string(),
        text: None,
        today: "2026-12-02".to_string(),
        owner: "alice".to_string(),
        expires: "2026-11-01".to_string(),
        reason: "r".to_string(),
        link: None,
        causes: Vec::new(),
    })
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("would expire on 2026-11-01, before today (2026-12-02)"),
        "{e}"
    );
}

#[test]
fn a_history_record_that_cannot_be_read_is_a_note_not_a_failed_check() {
    let file = json!({"schema_version": 1, "entries": [entry("test", "p.CartTest#isEmpty", "alice", "2026-12-31")]});
    let v = check(&QuarantineRequest {
        history: vec![RecordFile {
            file: "h/cut.json".to_string(),
            text: "{".to_string(),
        }],
        ..request(file, "2026-12-02", Vec::new())
    })
    .unwrap();
    assert!(v.ready_to_remove.is_empty());
    assert_eq!(v.notes.len(), 1);
    assert!(
        v.notes[0].starts_with(
            "the history was not read (history record h/cut.json: not an odrust run record"
        ),
        "{:?}",
        v.notes
    );
}
