//! Checking that the order that ran is the order that was requested.
//!
//! odrust must never silently run something other than what the user asked, so after every run
//! the plugin compares the ids the agent reported, in the order it reported them, with the
//! requested order. A requested dynamic container (`C#m`) runs as its invocations (`C#m[1]`,
//! `C#m[2]`, ...), so it matches a run of those.

use std::collections::HashSet;

use serde::Serialize;

use crate::model::testid::{container_of, is_invocation, is_invocation_of};

/// Where the ran order first departs from the requested one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// Position in the requested order (equal to its length when more tests ran than requested).
    pub index: usize,
    /// Position in the ran order (equal to its length when fewer tests ran than requested).
    pub ran_index: usize,
    /// The requested id at `index`, or `None` past the end.
    pub requested: Option<String>,
    /// The ran id at `ran_index`, or `None` past the end.
    pub ran: Option<String>,
}

/// The answer of [`check_run`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunCheck {
    /// True when the ran order is exactly the requested one.
    pub honoured: bool,
    /// The first departure, `None` when honoured.
    pub first_difference: Option<Difference>,
    /// Requested ids that never ran, each once, in requested order.
    pub missing: Vec<String>,
    /// Ran ids that were not requested, each once, in ran order.
    pub unexpected: Vec<String>,
}

/// Compares the order that ran with the order that was requested.
///
/// Matching is positional: a requested id matches the ran id at the same place, and a requested
/// id without `[` also matches a run of one or more ids `id[...]`, its invocations (the run ends
/// at the first invocation that repeats one already in it, so `[C#m, C#m]` needs the invocations
/// twice). `missing` and `unexpected` ignore positions: they list requested ids that matched no
/// ran id anywhere, and ran ids that no requested id matches.
pub fn check_run(requested: &[String], ran: &[String]) -> RunCheck {
    let first_difference = first_difference(requested, ran);

    let ran_set: HashSet<&str> = ran.iter().map(String::as_str).collect();
    let ran_containers: HashSet<&str> = ran
        .iter()
        .filter(|x| is_invocation(x))
        .map(|x| container_of(x))
        .collect();
    let requested_set: HashSet<&str> = requested.iter().map(String::as_str).collect();
    let mut seen = HashSet::new();
    let missing = requested
        .iter()
        .filter(|r| {
            !ran_set.contains(r.as_str())
                && (is_invocation(r) || !ran_containers.contains(r.as_str()))
        })
        .filter(|r| seen.insert(r.as_str()))
        .cloned()
        .collect();
    let mut seen = HashSet::new();
    let unexpected = ran
        .iter()
        .filter(|x| !requested_set.contains(x.as_str()) && !requested_set.contains(container_of(x)))
        .filter(|x| seen.insert(x.as_str()))
        .cloned()
        .collect();

    RunCheck {
        honoured: first_difference.is_none(),
        first_difference,
        missing,
        unexpected,
    }
}

fn first_difference(requested: &[String], ran: &[String]) -> Option<Difference> {
    let mut j = 0;
    for (i, wanted) in requested.iter().enumerate() {
        match ran.get(j) {
            Some(got) if got == wanted => j += 1,
            Some(got) if is_invocation_of(got, wanted) => {
                let mut invocations = HashSet::new();
                while let Some(got) = ran.get(j) {
                    if !is_invocation_of(got, wanted) || !invocations.insert(got.as_str()) {
                        break;
                    }
                    j += 1;
                }
            }
            got => {
                return Some(Difference {
                    index: i,
                    ran_index: j,
                    requested: Some(wanted.clone()),
                    ran: got.cloned(),
                })
            }
        }
    }
    ran.get(j).map(|extra| Difference {
        index: requested.len(),
        ran_index: j,
        requested: None,
        ran: Some(extra.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn identical_orders_are_honoured() {
        let order = ids(&["a.A#x", "a.A#y", "a.A#x"]);
        let check = check_run(&order, &order);
        assert!(check.honoured);
        assert_eq!(check.first_difference, None);
        assert!(check.missing.is_empty() && check.unexpected.is_empty());
    }

    #[test]
    fn swapped_tests_report_the_first_difference() {
        let check = check_run(&ids(&["a#x", "a#y", "a#z"]), &ids(&["a#x", "a#z", "a#y"]));
        assert!(!check.honoured);
        assert_eq!(
            check.first_difference,
            Some(Difference {
                index: 1,
                ran_index: 1,
                requested: Some("a#y".into()),
                ran: Some("a#z".into()),
            })
        );
        assert!(check.missing.is_empty() && check.unexpected.is_empty());
    }

    #[test]
    fn container_matches_a_run_of_its_invocations() {
        let requested = ids(&["a#x", "a#m", "a#y"]);
        let ran = ids(&["a#x", "a#m[1]", "a#m[2]", "a#m[3]", "a#y"]);
        let check = check_run(&requested, &ran);
        assert!(check.honoured, "{check:?}");
        // An invocation id is matched exactly, not as a container.
        let check = check_run(&ids(&["a#m[1]"]), &ids(&["a#m[1]", "a#m[2]"]));
        assert!(!check.honoured);
        assert_eq!(check.unexpected, ["a#m[2]"]);
        // A container that ran no invocation is missing.
        let check = check_run(&ids(&["a#m", "a#y"]), &ids(&["a#y"]));
        assert_eq!(check.missing, ["a#m"]);
        assert_eq!(check.first_difference.unwrap().ran.as_deref(), Some("a#y"));
    }

    #[test]
    fn repeated_container_needs_its_invocations_twice() {
        let requested = ids(&["a#m", "a#m"]);
        assert!(check_run(&requested, &ids(&["a#m[1]", "a#m[2]", "a#m[1]", "a#m[2]"])).honoured);
        let once = check_run(&requested, &ids(&["a#m[1]", "a#m[2]"]));
        assert!(!once.honoured);
        assert_eq!(
            once.first_difference,
            Some(Difference {
                index: 1,
                ran_index: 2,
                requested: Some("a#m".into()),
                ran: None,
            })
        );
        assert!(once.missing.is_empty());
    }

    #[test]
    fn extra_and_missing_tests_are_listed() {
        let check = check_run(&ids(&["a#x", "a#y"]), &ids(&["a#x", "b#q", "b#q"]));
        assert!(!check.honoured);
        assert_eq!(check.missing, ["a#y"]);
        assert_eq!(check.unexpected, ["b#q"]);
        let extra = check_run(&ids(&["a#x"]), &ids(&["a#x", "a#x"]));
        assert_eq!(
            extra.first_difference,
            Some(Difference {
                index: 1,
                ran_index: 1,
                requested: None,
                ran: Some("a#x".into()),
            })
        );
    }

    #[test]
    fn prefix_of_a_method_name_is_not_a_container() {
        let check = check_run(&ids(&["a#m"]), &ids(&["a#mm[1]"]));
        assert!(!check.honoured);
        assert_eq!(check.missing, ["a#m"]);
        assert_eq!(check.unexpected, ["a#mm[1]"]);
    }
}
