//! Root causes: a report's order-dependent tests grouped by what makes them fail, so that one
//! polluter leaving one static field dirty is one finding with N victims, one diagnosis and one
//! patch, not N of each (`docs/detect.md`, "Causes").
//!
//! The rule, the same for every module:
//!
//! - **Victims** that share the same set of polluters (each a group of tests that fail them
//!   together) are one cause; once `odrust:diagnose` confirmed what the polluter leaves changed,
//!   victims of the same polluters whose confirmed fields differ are separate causes (a victim not
//!   confirmed stays with them when only one field set was confirmed among them).
//! - **Brittles** that share the same set of state-setters are one cause.
//! - A victim without a polluter, or a brittle without a state-setter (not explained, or not yet),
//!   is a cause of its own: nothing says it shares anything.
//!
//! Causes are numbered from 1 in the order of their first test in the report. What a repair made of
//! a cause (`fixes`) is kept across rewrites of the report for the tests it was made for.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::detect::FlakyTest;
use crate::model::kind::OdRole;

/// One root cause of a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cause {
    /// Its number in the report, from 1.
    pub id: usize,
    /// Whether its tests are victims or brittles.
    pub role: OdRole,
    /// One line saying what it is, e.g. "state left by `p.P#p` → 12 victims".
    pub title: String,
    /// Its victims or brittles, in report order.
    pub tests: Vec<String>,
    /// Victims: the polluters they share.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub polluters: Vec<Vec<String>>,
    /// Victims: every cleaner found for a member, per single polluter; those found for more
    /// members first.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cleaners: BTreeMap<String, Vec<String>>,
    /// Brittles: the state-setters they share.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state_setters: Vec<Vec<String>>,
    /// The static state `odrust:diagnose` confirmed for its members (empty when not diagnosed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub polluted_state: Vec<String>,
    /// What `odrust:repair` made of it: one fix for all its tests, or one per part when one
    /// patch could not fix them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<CauseFix>,
}

/// What `odrust:repair` made for some tests of a cause (`docs/repair.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CauseFix {
    /// The tests the fix was made and verified for.
    pub tests: Vec<String>,
    /// `patched`, `rejected`, `no-fix-source`, `not-reproduced`, `unfinished`, `unsupported`.
    pub status: String,
    /// Why there is no patch, or how the cause was split.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The patch file, as the user sees it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch: Option<String>,
    /// The command that applies it, from where Maven ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply: Option<String>,
    /// Whether `-Dodrust.repair.apply=true` wrote it into the sources.
    #[serde(default)]
    pub applied: bool,
    /// The file it changes, relative to the module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The patch itself (a unified diff).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// The checks it passed (or, rejected, those of the last candidate).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<FixCheck>,
    /// Test JVMs the repair spent.
    #[serde(default)]
    pub experiments: usize,
}

/// One check of a fix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixCheck {
    /// Its name (`failing-order`, `alone`, `recorded-failing-order`, `class`, `original-order`,
    /// `git-apply`).
    pub check: String,
    /// Whether it passed.
    pub passed: bool,
    /// What it ran or what went wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// A flaky test of a report, as grouping reads it.
#[derive(Debug, Clone)]
pub struct Member<'a> {
    /// What detection found.
    pub finding: &'a FlakyTest,
    /// The fields `odrust:diagnose` confirmed for it, sorted (empty when none).
    pub confirmed: Vec<String>,
}

/// The causes of `flaky`'s victims and brittles; `previous` causes' fixes are kept for the
/// causes that still hold every test a fix was made for.
pub fn group(flaky: &[Member<'_>], previous: &[Cause]) -> Vec<Cause> {
    // (role, shared explanation) -> members, in report order of the first member.
    let mut keys: Vec<(OdRole, Vec<Vec<String>>)> = Vec::new();
    let mut members: Vec<Vec<&Member<'_>>> = Vec::new();
    for entry in flaky {
        let Some(role) = entry.finding.kind.role() else {
            continue;
        };
        let mut shared = match role {
            OdRole::Victim => entry.finding.polluters.clone(),
            OdRole::Brittle => entry.finding.state_setters.clone(),
        };
        for g in &mut shared {
            g.sort();
        }
        shared.sort();
        let key = (role, shared);
        // Nothing explained: nothing shared.
        let index = if key.1.is_empty() {
            None
        } else {
            keys.iter().position(|k| *k == key)
        };
        match index {
            Some(i) => members[i].push(entry),
            None => {
                keys.push(key);
                members.push(vec![entry]);
            }
        }
    }
    let mut causes = Vec::new();
    for ((role, _), group) in keys.into_iter().zip(members) {
        for part in by_confirmed_state(group) {
            causes.push(cause(causes.len() + 1, role, &part, previous));
        }
    }
    causes
}

fn confirmed(entry: &Member<'_>) -> Vec<String> {
    entry.confirmed.clone()
}

/// `group` split by the state diagnose confirmed: one part per confirmed field set; members
/// without one join the only confirmed part, or make a part of their own when several differ.
fn by_confirmed_state<'m, 'a>(group: Vec<&'m Member<'a>>) -> Vec<Vec<&'m Member<'a>>> {
    let mut sets: Vec<Vec<String>> = Vec::new();
    for e in &group {
        let c = confirmed(e);
        if !c.is_empty() && !sets.contains(&c) {
            sets.push(c);
        }
    }
    if sets.len() <= 1 {
        return vec![group];
    }
    let mut parts: Vec<(Vec<String>, Vec<&Member<'_>>)> = Vec::new();
    for e in group {
        let c = confirmed(e);
        match parts.iter_mut().find(|(k, _)| *k == c) {
            Some((_, p)) => p.push(e),
            None => parts.push((c, vec![e])),
        }
    }
    parts.into_iter().map(|(_, p)| p).collect()
}

fn cause(id: usize, role: OdRole, part: &[&Member<'_>], previous: &[Cause]) -> Cause {
    let first = &part[0].finding;
    let tests: Vec<String> = part.iter().map(|e| e.finding.test.clone()).collect();
    let mut cleaners = BTreeMap::new();
    if role == OdRole::Victim {
        let mut counts: BTreeMap<&String, BTreeMap<&String, usize>> = BTreeMap::new();
        for e in part {
            for (polluter, found) in &e.finding.cleaners {
                for c in found {
                    *counts.entry(polluter).or_default().entry(c).or_default() += 1;
                }
            }
        }
        for (polluter, found) in counts {
            let mut list: Vec<(&String, usize)> = found.into_iter().collect();
            list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            cleaners.insert(
                polluter.clone(),
                list.into_iter().map(|(c, _)| c.clone()).collect(),
            );
        }
    }
    let polluted_state = part
        .iter()
        .map(|e| confirmed(e))
        .find(|c| !c.is_empty())
        .unwrap_or_default();
    let fixes = previous
        .iter()
        .flat_map(|c| &c.fixes)
        .filter(|f| !f.tests.is_empty() && f.tests.iter().all(|t| tests.contains(t)))
        .cloned()
        .collect();
    let (polluters, state_setters) = match role {
        OdRole::Victim => (first.polluters.clone(), Vec::new()),
        OdRole::Brittle => (Vec::new(), first.state_setters.clone()),
    };
    let mut cause = Cause {
        id,
        role,
        title: String::new(),
        tests,
        polluters,
        cleaners,
        state_setters,
        polluted_state,
        fixes,
    };
    cause.title = title(&cause);
    cause
}

/// "`p.Config.CACHE` left changed by `p.LoaderTest#loads` → 12 victims".
fn title(c: &Cause) -> String {
    let who = |groups: &[Vec<String>]| {
        groups
            .iter()
            .map(|g| {
                g.iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(" + ")
            })
            .collect::<Vec<_>>()
            .join(" or ")
    };
    let n = c.tests.len();
    let plural = |word: &str| {
        if n == 1 {
            format!("1 {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    match c.role {
        OdRole::Victim if c.polluters.is_empty() => {
            format!("no polluter found yet → {}", plural("victim"))
        }
        OdRole::Victim if !c.polluted_state.is_empty() => format!(
            "{} left changed by {} → {}",
            c.polluted_state
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", "),
            who(&c.polluters),
            plural("victim")
        ),
        OdRole::Victim => format!("state left by {} → {}", who(&c.polluters), plural("victim")),
        OdRole::Brittle if c.state_setters.is_empty() => {
            format!("no state-setter found yet → {}", plural("brittle"))
        }
        OdRole::Brittle => format!(
            "state set only by {} → {}",
            who(&c.state_setters),
            plural("brittle")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::document::ReportEntry;

    fn group(flaky: &[ReportEntry], previous: &[Cause]) -> Vec<Cause> {
        super::group(&crate::report::document::members(flaky), previous)
    }

    fn entry(
        test: &str,
        kind: &str,
        polluters: &[&[&str]],
        cleaners: &[(&str, &[&str])],
    ) -> ReportEntry {
        let polluters: Vec<Vec<String>> = polluters
            .iter()
            .map(|g| g.iter().map(|s| s.to_string()).collect())
            .collect();
        let cleaners: BTreeMap<String, Vec<String>> = cleaners
            .iter()
            .map(|(p, cs)| (p.to_string(), cs.iter().map(|s| s.to_string()).collect()))
            .collect();
        let (polluters, setters) = if kind == "brittle" {
            (Vec::new(), polluters)
        } else {
            (polluters, Vec::new())
        };
        serde_json::from_value(serde_json::json!({
            "test": test, "kind": kind, "polluters": polluters, "state_setters": setters,
            "cleaners": cleaners
        }))
        .unwrap()
    }

    fn confirmed_as(mut e: ReportEntry, fields: &[&str]) -> ReportEntry {
        e.polluted_state = Some(
            serde_json::from_value(serde_json::json!({
                "test": e.finding.test, "kind": "victim", "status": "confirmed", "reason": "r",
                "failing_order": [], "passing_order": [], "fields": [],
                "polluted_state": fields, "experiments": 3,
                "failing_capture": null, "passing_capture": null
            }))
            .unwrap(),
        );
        e
    }

    #[test]
    fn victims_of_the_same_polluters_are_one_cause_whatever_their_order_or_class() {
        let flaky = vec![
            entry("a.A#one", "victim", &[&["p.P#p"]], &[("p.P#p", &["c.C#c"])]),
            entry(
                "b.B#two",
                "victim",
                &[&["p.P#p"]],
                &[("p.P#p", &["c.C#c", "c.D#d"])],
            ),
            entry("a.A#three", "victim", &[&["p.Q#q"], &["p.P#p"]], &[]),
            entry("a.A#four", "victim", &[&["p.P#p"], &["p.Q#q"]], &[]),
            entry("n.N#nod", "nod", &[], &[]),
        ];
        let causes = group(&flaky, &[]);
        assert_eq!(causes.len(), 2, "{causes:#?}");
        assert_eq!(causes[0].id, 1);
        assert_eq!(causes[0].tests, ["a.A#one", "b.B#two"]);
        assert_eq!(causes[0].title, "state left by `p.P#p` → 2 victims");
        // c.C#c cleans for both members: it comes first.
        assert_eq!(causes[0].cleaners["p.P#p"], ["c.C#c", "c.D#d"]);
        assert_eq!(causes[1].tests, ["a.A#three", "a.A#four"]);
        assert_eq!(
            causes[1].title,
            "state left by `p.Q#q` or `p.P#p` → 2 victims"
        );
    }

    #[test]
    fn unexplained_tests_share_nothing_and_brittles_group_by_state_setters() {
        let flaky = vec![
            entry("a.A#v1", "victim", &[], &[]),
            entry("a.A#v2", "victim", &[], &[]),
            entry("a.A#b1", "brittle", &[&["s.S#s"]], &[]),
            entry("a.A#b2", "brittle", &[&["s.S#s"]], &[]),
            entry("a.A#b3", "brittle", &[&["s.S#s", "s.T#t"]], &[]),
        ];
        let causes = group(&flaky, &[]);
        let tests: Vec<Vec<String>> = causes.iter().map(|c| c.tests.clone()).collect();
        assert_eq!(
            tests,
            [
                vec!["a.A#v1".to_string()],
                vec!["a.A#v2".to_string()],
                vec!["a.A#b1".to_string(), "a.A#b2".to_string()],
                vec!["a.A#b3".to_string()],
            ]
        );
        assert_eq!(causes[0].title, "no polluter found yet → 1 victim");
        assert_eq!(causes[2].role, OdRole::Brittle);
        assert_eq!(causes[2].title, "state set only by `s.S#s` → 2 brittles");
        assert_eq!(
            causes[3].title,
            "state set only by `s.S#s` + `s.T#t` → 1 brittle"
        );
    }

    #[test]
    fn a_confirmed_field_names_the_cause_and_different_fields_split_it() {
        let p: &[&[&str]] = &[&["p.P#p"]];
        let flaky = vec![
            confirmed_as(entry("a.A#one", "victim", p, &[]), &["p.Config.CACHE"]),
            entry("a.A#two", "victim", p, &[]),
        ];
        let causes = group(&flaky, &[]);
        assert_eq!(causes.len(), 1);
        assert_eq!(causes[0].polluted_state, ["p.Config.CACHE"]);
        assert_eq!(
            causes[0].title,
            "`p.Config.CACHE` left changed by `p.P#p` → 2 victims"
        );
        let flaky = vec![
            confirmed_as(entry("a.A#one", "victim", p, &[]), &["p.Config.CACHE"]),
            confirmed_as(entry("a.A#two", "victim", p, &[]), &["p.Config.MODE"]),
            entry("a.A#three", "victim", p, &[]),
        ];
        let causes = group(&flaky, &[]);
        assert_eq!(causes.len(), 3, "{causes:#?}");
        assert_eq!(causes[1].polluted_state, ["p.Config.MODE"]);
        assert!(causes[2].polluted_state.is_empty());
    }

    #[test]
    fn fixes_stay_with_the_cause_that_still_holds_their_tests() {
        let p: &[&[&str]] = &[&["p.P#p"]];
        let flaky = vec![
            entry("a.A#one", "victim", p, &[]),
            entry("a.A#two", "victim", p, &[]),
        ];
        let mut previous = group(&flaky, &[]);
        previous[0].fixes.push(CauseFix {
            tests: vec!["a.A#one".into(), "a.A#two".into()],
            status: "patched".into(),
            reason: None,
            patch: Some("target/odrust/repair/cause-1.patch".into()),
            apply: Some("git apply target/odrust/repair/cause-1.patch".into()),
            applied: false,
            file: Some("src/test/java/p/P.java".into()),
            diff: None,
            checks: Vec::new(),
            experiments: 7,
        });
        let again = group(&flaky, &previous);
        assert_eq!(again[0].fixes, previous[0].fixes);
        // A report in which the tests are no longer one cause drops it.
        let other = vec![entry("a.A#one", "victim", p, &[])];
        assert!(group(&other, &previous)[0].fixes.is_empty());
    }
}
