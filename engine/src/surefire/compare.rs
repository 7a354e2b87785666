//! Comparing two sets of test outcomes (e.g. Surefire's run against odrust's run of the same
//! order), so that the plugin can tell whether it reproduces what `mvn test` does.
//!
//! Ids may be reported at different grain on the two sides: a dynamic container (`C#m`) on one,
//! its invocations (`C#m[1]`, `C#m[2]`) on the other. Such invocations are folded into their
//! container, whose outcome is the worst of theirs (see [`Outcome`] for the severity order). A
//! class reported as a single entry (`C`, as Surefire reports a skipped JUnit 5 class) likewise
//! stands for all tests of that class on the other side.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::model::outcome::Outcome;
use crate::model::testid::{container_of, is_invocation};

/// One test's outcome, as given to [`compare_outcomes`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestOutcome {
    /// The test id.
    pub test: String,
    /// Its outcome.
    pub outcome: Outcome,
}

/// A test whose outcome differs between the two sides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutcomeDifference {
    /// The test id (the container when invocations were folded).
    pub test: String,
    /// Its outcome on the expected side.
    pub expected: Outcome,
    /// Its outcome on the actual side.
    pub actual: Outcome,
}

/// The answer of [`compare_outcomes`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// True when every test is on both sides with the same outcome.
    pub same: bool,
    /// Tests on both sides with different outcomes, in expected order.
    pub differences: Vec<OutcomeDifference>,
    /// Tests only on the expected side, in expected order.
    pub only_expected: Vec<String>,
    /// Tests only on the actual side, in actual order.
    pub only_actual: Vec<String>,
}

/// Compares `expected` with `actual`.
///
/// Ids are matched exactly, except that an invocation `C#m[k]` on one side that is not on the
/// other is folded into its container `C#m` when the other side has the container. A test listed
/// several times on one side (a repeated test) counts with its worst outcome.
pub fn compare_outcomes(expected: &[TestOutcome], actual: &[TestOutcome]) -> Comparison {
    let expected_ids: HashSet<&str> = expected.iter().map(|t| t.test.as_str()).collect();
    let actual_ids: HashSet<&str> = actual.iter().map(|t| t.test.as_str()).collect();
    let expected = fold(expected, &actual_ids);
    let actual = fold(actual, &expected_ids);
    let actual_by_id: HashMap<&str, Outcome> =
        actual.iter().map(|(id, o)| (id.as_str(), *o)).collect();
    let expected_by_id: HashSet<&str> = expected.iter().map(|(id, _)| id.as_str()).collect();

    let mut differences = Vec::new();
    let mut only_expected = Vec::new();
    for (id, outcome) in &expected {
        match actual_by_id.get(id.as_str()) {
            Some(actual) if actual != outcome => differences.push(OutcomeDifference {
                test: id.clone(),
                expected: *outcome,
                actual: *actual,
            }),
            Some(_) => {}
            None => only_expected.push(id.clone()),
        }
    }
    let only_actual: Vec<String> = actual
        .iter()
        .filter(|(id, _)| !expected_by_id.contains(id.as_str()))
        .map(|(id, _)| id.clone())
        .collect();
    Comparison {
        same: differences.is_empty() && only_expected.is_empty() && only_actual.is_empty(),
        differences,
        only_expected,
        only_actual,
    }
}

/// Folds `side` into one outcome per key, in first-seen order: the key of an id is its container
/// when the id is an invocation missing from `other` whose container `other` has; its class when
/// `other` has neither the id nor its container but has the class as one entry; else the id.
fn fold(side: &[TestOutcome], other: &HashSet<&str>) -> Vec<(String, Outcome)> {
    // A container this side reports itself (a plain `@Test m()` beside a parameterized `m(..)`
    // of the same name) is a test of its own: its name's invocations are not folded into it.
    let own: HashSet<&str> = side.iter().map(|t| t.test.as_str()).collect();
    let mut keys: Vec<(String, Outcome)> = Vec::new();
    let mut slot: HashMap<String, usize> = HashMap::new();
    for t in side {
        let id = t.test.as_str();
        let container = container_of(id);
        // A whole class reported as one entry (Surefire does this for a skipped JUnit 5 class:
        // `classname="C" name=""`) stands for every test of that class on the other side.
        let class = id.split_once('#').map(|(class, _)| class);
        let place = (!other.contains(id) && !own.contains(container))
            .then(|| suite_place_key(id, other))
            .flatten();
        let key = if is_invocation(id)
            && !other.contains(id)
            && other.contains(container)
            && !own.contains(container)
        {
            container
        } else if let Some(place) = place.as_deref() {
            place
        } else if let Some(class) =
            class.filter(|c| !other.contains(id) && !other.contains(container) && other.contains(c))
        {
            class
        } else {
            id
        };
        match slot.get(key) {
            Some(&i) => keys[i].1 = keys[i].1.worst(t.outcome),
            None => {
                slot.insert(key.to_string(), keys.len());
                keys.push((key.to_string(), t.outcome));
            }
        }
    }
    keys
}

/// The id Surefire reports for a test odrust names by its place in a JUnit 3 `suite()`
/// (`pkg.Suite#m[keys/Suite$Checks]`, docs/run-order.md): Surefire names it by its own class,
/// the last element of the place (`pkg.Suite$Checks#m`; a class of the suite's package is
/// written short), or by the suite class when the place ends in a nested suite's name. `None`
/// unless `other` has that id.
fn suite_place_key(id: &str, other: &HashSet<&str>) -> Option<String> {
    let (class, method) = id.split_once('#')?;
    let open = method.find('[')?;
    let (name, place) = (&method[..open], method[open + 1..].strip_suffix(']')?);
    if name.contains('(') {
        return None;
    }
    let last = place.rsplit('/').next()?;
    let last = match last.rfind(" (") {
        Some(i) if last.ends_with(')') => &last[..i],
        _ => last,
    };
    let package = class.rfind('.').map_or("", |i| &class[..=i]);
    // a place starts like a name (a parameterized test's `[0]`, `[1: a]` does not)
    if !place
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
    {
        return None;
    }
    let looks_like_class = !last.is_empty()
        && last
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.');
    let mut keys = Vec::new();
    if looks_like_class {
        keys.push(if last.contains('.') {
            format!("{last}#{name}")
        } else {
            format!("{package}{last}#{name}")
        });
    }
    keys.push(format!("{class}#{name}"));
    keys.into_iter().find(|k| other.contains(k.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::*;

    fn outcomes(list: &[(&str, Outcome)]) -> Vec<TestOutcome> {
        list.iter()
            .map(|(test, outcome)| TestOutcome {
                test: test.to_string(),
                outcome: *outcome,
            })
            .collect()
    }

    #[test]
    fn identical_outcomes_are_the_same() {
        let side = outcomes(&[("a#x", Pass), ("a#y", Fail)]);
        let cmp = compare_outcomes(&side, &side);
        assert!(cmp.same);
        assert!(cmp.differences.is_empty());
    }

    #[test]
    fn differences_and_one_sided_tests_are_listed() {
        let cmp = compare_outcomes(
            &outcomes(&[("a#x", Pass), ("a#y", Pass), ("a#gone", Pass)]),
            &outcomes(&[("a#new", Skipped), ("a#y", Error), ("a#x", Pass)]),
        );
        assert!(!cmp.same);
        assert_eq!(
            cmp.differences,
            [OutcomeDifference {
                test: "a#y".into(),
                expected: Pass,
                actual: Error
            }]
        );
        assert_eq!(cmp.only_expected, ["a#gone"]);
        assert_eq!(cmp.only_actual, ["a#new"]);
    }

    #[test]
    fn container_matches_folded_invocations_with_the_worst_outcome() {
        let expected = outcomes(&[("a#m", Pass), ("a#p", Fail)]);
        let actual = outcomes(&[
            ("a#m[1]", Pass),
            ("a#m[2]", Skipped),
            ("a#p[1]", Pass),
            ("a#p[2]", Fail),
            ("a#p[3]", Pass),
        ]);
        let cmp = compare_outcomes(&expected, &actual);
        assert!(cmp.same, "{cmp:?}");

        let failing = outcomes(&[("a#m[1]", Pass), ("a#m[2]", Error)]);
        let cmp = compare_outcomes(&expected[..1], &failing);
        assert_eq!(
            cmp.differences,
            [OutcomeDifference {
                test: "a#m".into(),
                expected: Pass,
                actual: Error
            }]
        );
        // Folding works the other way round too.
        assert!(compare_outcomes(&failing, &outcomes(&[("a#m", Error)])).same);
    }

    #[test]
    fn regression_invocations_are_not_folded_into_a_plain_test_of_the_same_name() {
        // commons-cli UtilTest: a plain `@Test testFind()` and a `@ParameterizedTest
        // testFind(Character, boolean)`; Surefire ran both, odrust only the plain one.
        let surefire = outcomes(&[
            ("a#testFind", Pass),
            ("a#testFind[1]", Pass),
            ("a#testFind[2]", Pass),
        ]);
        let odrust = outcomes(&[("a#testFind", Pass)]);
        let cmp = compare_outcomes(&surefire, &odrust);
        assert!(!cmp.same, "{cmp:?}");
        assert_eq!(cmp.only_expected, ["a#testFind[1]", "a#testFind[2]"]);
        // And the other way round: odrust ran the invocations, not the plain test.
        let cmp = compare_outcomes(&surefire, &surefire[1..]);
        assert_eq!(cmp.only_expected, ["a#testFind"]);
    }

    #[test]
    fn invocations_on_both_sides_are_compared_one_by_one() {
        let cmp = compare_outcomes(
            &outcomes(&[("a#m[1]", Pass), ("a#m[2]", Pass)]),
            &outcomes(&[("a#m[1]", Pass), ("a#m[2]", Fail)]),
        );
        assert_eq!(cmp.differences.len(), 1);
        assert_eq!(cmp.differences[0].test, "a#m[2]");
    }

    #[test]
    fn all_skipped_invocations_fold_to_skipped() {
        let cmp = compare_outcomes(
            &outcomes(&[("a#m", Pass)]),
            &outcomes(&[("a#m[1]", Skipped), ("a#m[2]", Skipped)]),
        );
        assert_eq!(cmp.differences[0].actual, Skipped);
    }

    #[test]
    fn repeated_test_counts_with_its_worst_outcome() {
        let cmp = compare_outcomes(
            &outcomes(&[("a#t", Pass)]),
            &outcomes(&[("a#t", Pass), ("a#t", Fail)]),
        );
        assert_eq!(cmp.differences[0].actual, Fail);
    }

    #[test]
    fn regression_skipped_junit5_class_reported_once_by_surefire_matches_its_skipped_tests() {
        let expected = outcomes(&[("p.Off", Skipped), ("p.On#a", Pass)]);
        let actual = outcomes(&[("p.Off#x", Skipped), ("p.Off#y", Skipped), ("p.On#a", Pass)]);
        let c = compare_outcomes(&expected, &actual);
        assert!(c.same, "{c:?}");
        let failing = outcomes(&[("p.Off#x", Skipped), ("p.Off#y", Fail), ("p.On#a", Pass)]);
        let c = compare_outcomes(&expected, &failing);
        assert!(!c.same);
        assert_eq!(c.differences[0].test, "p.Off");
        assert_eq!(c.differences[0].actual, Fail);
    }

    #[test]
    fn tests_named_by_their_place_in_a_junit3_suite_match_surefires_names() {
        // Surefire reports each by its own class, once per place, so names repeat
        let surefire = outcomes(&[
            ("p.S$Checks#testEmpty", Pass),
            ("p.S$Checks#testEmpty", Fail),
            ("p.S#testOwn", Pass),
            ("q.Other#testX", Pass),
        ]);
        let odrust = outcomes(&[
            ("p.S#testEmpty[keys/S$Checks]", Pass),
            ("p.S#testEmpty[values/S$Checks]", Fail),
            ("p.S#testOwn[keys]", Pass),
            ("p.S#testX[q.Other]", Pass),
        ]);
        let cmp = compare_outcomes(&surefire, &odrust);
        assert!(cmp.same, "{cmp:?}");
        let passing = outcomes(&[
            ("p.S#testEmpty[keys/S$Checks]", Pass),
            ("p.S#testEmpty[values/S$Checks (2)]", Pass),
            ("p.S#testOwn[keys]", Pass),
            ("p.S#testX[q.Other]", Pass),
        ]);
        let cmp = compare_outcomes(&surefire, &passing);
        assert_eq!(
            cmp.differences,
            [OutcomeDifference {
                test: "p.S$Checks#testEmpty".into(),
                expected: Fail,
                actual: Pass
            }]
        );
        // a parameterized name is not a place
        assert_eq!(suite_place_key("p.S#m[0]", &HashSet::from(["p.S#m"])), None);
        assert_eq!(
            suite_place_key("p.S#m(int)[1]", &HashSet::from(["p.S#m"])),
            None
        );
    }
}
