//! Orders: reading a user's order, resolving it against a suite, and cutting it into segments.
//!
//! An order is a list of test ids (`docs/protocol.md`, "Order file"). Planning a run takes three
//! steps, one function each:
//!
//! 1. [`parse_order_text`] reads the text of an order file or of `-Dodrust.order=a,b,c` into ids,
//!    checking that each is a well-formed test id;
//! 2. [`resolve`] checks that every id is a test of the suite, resolving the dotted IDoFT form
//!    and invocations of dynamic containers;
//! 3. [`segment`] cuts the resolved order into segments, one JUnit request each.

use serde::Serialize;

use crate::error::EngineError;
use crate::model::suite::{Framework, SuiteIndex, TestRef};
use crate::model::testid::{self, container_of, is_invocation};

/// How many closest known ids an unknown-test error suggests.
const MAX_SUGGESTIONS: usize = 3;

/// Reads the text of an order into test ids, in order.
///
/// One id per line; blank lines and lines starting with `#` are ignored, surrounding whitespace is
/// trimmed. Commas also separate ids (on any line), except inside an invocation suffix `[...]`,
/// where JUnit 4 parameter names often contain them. `origin` names the order in messages.
///
/// Errors: [`EngineError::MalformedOrder`] for the first id that is not a test id (with its 1-based
/// line number), [`EngineError::EmptyOrder`] when no id is left.
pub fn parse_order_text(text: &str, origin: &str) -> Result<Vec<String>, EngineError> {
    let mut ids = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = strip_trailing_comment(line).trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        for item in split_outside_brackets(line, ',') {
            let item = item.trim();
            if item.is_empty() {
                // `a,,b` and a trailing comma are harmless.
                continue;
            }
            testid::parse(item).map_err(|kind| EngineError::MalformedOrder {
                origin: origin.to_string(),
                line: index + 1,
                text: item.to_string(),
                kind,
            })?;
            ids.push(item.to_string());
        }
    }
    if ids.is_empty() {
        return Err(EngineError::EmptyOrder {
            origin: origin.to_string(),
        });
    }
    Ok(ids)
}

/// `line` without a trailing comment: a `#` after whitespace, outside `[...]` (a `#` right after
/// the class name is the id's own separator).
fn strip_trailing_comment(line: &str) -> &str {
    let mut depth = 0usize;
    let mut after_space = false;
    for (i, c) in line.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '#' if depth == 0 && after_space => return &line[..i],
            _ => {}
        }
        after_space = c.is_whitespace();
    }
    line
}

/// Splits `s` at every `sep` that is not inside `[...]` or an overloaded method's parameter list
/// `(...)`.
fn split_outside_brackets(s: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth = depth.saturating_sub(1),
            c if c == sep && depth == 0 => {
                parts.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// One test of a resolved order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedTest {
    /// The suite id (for the dotted form, the id it resolved to).
    pub id: String,
    /// Where the test, or for an invocation its dynamic container, sits in the suite.
    pub at: TestRef,
}

/// An order whose ids are all tests of the suite.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resolution {
    /// The tests, in the order given.
    pub tests: Vec<ResolvedTest>,
    /// Things the user should know, e.g. that a dotted id was resolved.
    pub warnings: Vec<String>,
}

impl Resolution {
    /// The resolved ids, in order.
    pub fn ids(&self) -> Vec<String> {
        self.tests.iter().map(|t| t.id.clone()).collect()
    }
}

/// Checks that every id of `order` is a test of the suite behind `index`.
///
/// An id is accepted when the suite lists it, when it is an invocation `C#m[k]` of a container
/// `C#m` listed in its record's `dynamic`, or when it is in the dotted form `pkg.Class.method` and
/// exactly one suite id matches it (a warning says what it was resolved to). Otherwise the error is
/// [`EngineError::UnknownTest`] for the first unknown id, with the closest known ids, or
/// [`EngineError::AmbiguousTest`] for a dotted id that matches several tests.
pub fn resolve(
    order: &[String],
    index: &SuiteIndex<'_>,
    origin: &str,
) -> Result<Resolution, EngineError> {
    let mut resolution = Resolution::default();
    let mut dotted: Option<DottedIndex<'_>> = None;
    let mut unknown: Vec<&str> = Vec::new();
    for id in order {
        if let Some(at) = lookup(id, index) {
            resolution.tests.push(ResolvedTest { id: id.clone(), at });
            continue;
        }
        if !id.contains('#') {
            let dotted = dotted.get_or_insert_with(|| DottedIndex::new(index));
            let candidates = dotted.matches(id, index);
            match candidates.as_slice() {
                [one] => {
                    let at = lookup(one, index).expect("dotted candidates are suite tests");
                    // Warnings travel in the response; the plugin prints them in Maven's log.
                    resolution
                        .warnings
                        .push(format!("resolved `{id}` to `{one}`"));
                    resolution.tests.push(ResolvedTest {
                        id: one.clone(),
                        at,
                    });
                    continue;
                }
                [] => {}
                _ => {
                    return Err(EngineError::AmbiguousTest {
                        id: id.clone(),
                        origin: origin.to_string(),
                        candidates,
                    })
                }
            }
        }
        unknown.push(id);
    }
    if let Some(first) = unknown.first() {
        return Err(EngineError::UnknownTest {
            id: first.to_string(),
            origin: origin.to_string(),
            suggestions: closest_ids(first, index),
            more_unknown: unknown.len() - 1,
        });
    }
    Ok(resolution)
}

/// Where `id` (in the `Class#method` form) sits in the suite, or its dynamic container does.
fn lookup(id: &str, index: &SuiteIndex<'_>) -> Option<TestRef> {
    if let Some(at) = index.get(id) {
        return Some(at);
    }
    let container = container_of(id);
    if is_invocation(id) && index.is_dynamic(container) {
        return index.get(container);
    }
    None
}

/// Suite ids by their dotted spelling, built only when an order uses the dotted form.
struct DottedIndex<'s> {
    /// `pkg.Class.method` → ids.
    exact: std::collections::HashMap<String, Vec<&'s str>>,
    /// The same with every `$` written as `.` (IDoFT writes nested classes that way).
    loose: std::collections::HashMap<String, Vec<&'s str>>,
}

impl<'s> DottedIndex<'s> {
    fn new(index: &SuiteIndex<'s>) -> Self {
        let mut exact: std::collections::HashMap<String, Vec<&'s str>> = Default::default();
        let mut loose: std::collections::HashMap<String, Vec<&'s str>> = Default::default();
        for id in index.suite().ids() {
            let dotted = id.replacen('#', ".", 1);
            loose.entry(dotted.replace('$', ".")).or_default().push(id);
            exact.entry(dotted).or_default().push(id);
        }
        DottedIndex { exact, loose }
    }

    /// The suite ids that `dotted` may mean: exact spellings first, then `$`-insensitive ones, then
    /// invocations of dynamic containers.
    fn matches(&self, dotted: &str, index: &SuiteIndex<'_>) -> Vec<String> {
        let find = |text: &str| -> Vec<&'s str> {
            match self.exact.get(text) {
                Some(ids) => ids.clone(),
                None => self
                    .loose
                    .get(&text.replace('$', "."))
                    .cloned()
                    .unwrap_or_default(),
            }
        };
        let mut ids: Vec<String> = find(dotted).into_iter().map(str::to_string).collect();
        if ids.is_empty() && is_invocation(dotted) {
            let suffix = &dotted[container_of(dotted).len()..];
            ids = find(container_of(dotted))
                .into_iter()
                .filter(|container| index.is_dynamic(container))
                .map(|container| format!("{container}{suffix}"))
                .collect();
        }
        ids.dedup();
        ids
    }
}

/// Up to [`MAX_SUGGESTIONS`] suite ids closest to `unknown`: ids of the same class first, then by
/// edit distance over the whole id, then in suite order.
fn closest_ids(unknown: &str, index: &SuiteIndex<'_>) -> Vec<String> {
    // Compare a dotted spelling in the `Class#method` form so that distances are meaningful.
    let wanted = match testid::parse(unknown) {
        Ok(id) if id.is_dotted() => format!("{}#{}", id.class(), id.method()),
        _ => unknown.to_string(),
    };
    let wanted_class = testid::class_of(&wanted);
    let wanted_chars: Vec<char> = wanted.chars().collect();
    let mut scored: Vec<(bool, usize, usize, &str)> = index
        .suite()
        .ids()
        .enumerate()
        .map(|(n, id)| {
            let other_class = testid::class_of(id) != wanted_class;
            (other_class, edit_distance(&wanted_chars, id), n, id)
        })
        .collect();
    scored.sort_unstable();
    scored.dedup_by(|a, b| a.3 == b.3);
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, _, id)| id.to_string())
        .collect()
}

/// Levenshtein distance between `a` and `b`, counted in chars.
fn edit_distance(a: &[char], b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// One JUnit request: tests of one class record, run in the listed order with class-level setup
/// once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Segment {
    /// The class that is run (the record's class).
    pub class: String,
    /// The framework that runs it.
    pub framework: Framework,
    /// The tests, in order.
    pub tests: Vec<String>,
    /// Why this segment was cut from the previous one of the same class, when it was (a repeated
    /// test, or a class that cannot be reordered). Absent when the class simply changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Cuts a resolved order into segments.
///
/// A segment is a maximal run of consecutive tests of the same class record, cut further when
/// (a) a test repeats one already in the segment (the same id, or an invocation and its container),
/// so `[t, t]` becomes two segments of the same class back to back; or (b) the record is not
/// reorderable and the test does not come after the previous one in the record's fixed order, so
/// every segment of such a class runs in the order its framework imposes. Concatenating the
/// segments' tests always gives back the order.
pub fn segment(order: &[ResolvedTest], index: &SuiteIndex<'_>) -> Vec<Segment> {
    let mut segments: Vec<Segment> = Vec::new();
    // Record and position of the last test of the current segment.
    let mut last: Option<TestRef> = None;
    for test in order {
        let record = index.record(test.at.record);
        let reason = match (last, segments.last()) {
            (Some(prev), Some(current)) if prev.record == test.at.record => {
                if let Some(earlier) = current.tests.iter().find(|t| same_run(t, &test.id)) {
                    Some(Some(format!("repeat of `{earlier}`")))
                } else if !record.reorderable && test.at.position <= prev.position {
                    Some(Some(format!(
                        "class is not reorderable: `{}` comes before `{}` in its fixed order",
                        test.id,
                        current.tests.last().expect("segments are never empty"),
                    )))
                } else {
                    None
                }
            }
            // First test, or a new class record.
            _ => Some(None),
        };
        match reason {
            None => segments
                .last_mut()
                .expect("a current segment exists")
                .tests
                .push(test.id.clone()),
            Some(reason) => segments.push(Segment {
                class: record.class.clone(),
                framework: record.framework,
                tests: vec![test.id.clone()],
                reason,
            }),
        }
        last = Some(test.at);
    }
    segments
}

/// Whether running `a` and `b` in one request would run a test twice: the same id, or an
/// invocation and its container.
fn same_run(a: &str, b: &str) -> bool {
    a == b || testid::is_invocation_of(a, b) || testid::is_invocation_of(b, a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::suite::Suite;

    fn suite() -> Suite {
        serde_json::from_str(
            r#"{"schema_version":1,"module":"g:a","classes":[
                {"class":"p.A","framework":"junit4","reorderable":true,"tests":["p.A#a1","p.A#a2","p.A#a3"]},
                {"class":"p.B","framework":"junit5","reorderable":true,"tests":["p.B#b1","p.B#rep"],"dynamic":["p.B#rep"]},
                {"class":"p.F","framework":"junit4","reorderable":false,"tests":["p.F#f1","p.F#f2","p.F#f3"]},
                {"class":"p.N$Inner","framework":"junit5","reorderable":true,"tests":["p.N$Inner#n"]},
                {"class":"p.P","framework":"junit4","reorderable":true,"tests":["p.P#adds[0: 1+1=2]","p.P#adds[1: 2, 3]"]}
            ]}"#,
        )
        .unwrap()
    }

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn plan(list: &[&str]) -> Vec<Segment> {
        let suite = suite();
        let index = SuiteIndex::new(&suite);
        let resolution = resolve(&ids(list), &index, "test").unwrap();
        segment(&resolution.tests, &index)
    }

    fn shape(segments: &[Segment]) -> Vec<(String, Vec<String>)> {
        segments
            .iter()
            .map(|s| (s.class.clone(), s.tests.clone()))
            .collect()
    }

    #[test]
    fn parse_skips_blanks_and_comments_and_trims() {
        let text = "# my order\n\n  p.A#a1  \r\n#p.A#a2\n\tp.B#b1\n";
        assert_eq!(
            parse_order_text(text, "o.txt").unwrap(),
            ["p.A#a1", "p.B#b1"]
        );
    }

    #[test]
    fn parse_accepts_commas_anywhere_but_inside_brackets() {
        assert_eq!(
            parse_order_text("p.A#a1,p.A#a2, p.B#b1", "-Dodrust.order").unwrap(),
            ["p.A#a1", "p.A#a2", "p.B#b1"]
        );
        assert_eq!(
            parse_order_text("p.A#a1,\np.P#adds[1: 2, 3],p.A#a2,", "o").unwrap(),
            ["p.A#a1", "p.P#adds[1: 2, 3]", "p.A#a2"]
        );
    }

    #[test]
    fn malformed_line_names_source_line_and_text() {
        let err = parse_order_text("# c\np.A#a1\n\np.A#a;2\n", "orders/x.txt").unwrap_err();
        assert_eq!(err.code(), "malformed-order");
        let msg = err.to_string();
        assert!(
            msg.starts_with("malformed order in orders/x.txt, line 4: `p.A#a;2`"),
            "{msg}"
        );
    }

    #[test]
    fn empty_order_names_source() {
        let err = parse_order_text("# nothing\n\n  \n", "orders/e.txt").unwrap_err();
        assert_eq!(err.code(), "empty-order");
        assert!(err.to_string().contains("orders/e.txt"));
        assert_eq!(parse_order_text("", "x").unwrap_err().code(), "empty-order");
        assert_eq!(
            parse_order_text(" , ,", "x").unwrap_err().code(),
            "empty-order"
        );
    }

    #[test]
    fn interleaved_classes_make_one_segment_per_run() {
        let segments = plan(&["p.A#a2", "p.A#a1", "p.B#b1", "p.A#a3", "p.B#rep"]);
        assert_eq!(
            shape(&segments),
            [
                ("p.A".to_string(), ids(&["p.A#a2", "p.A#a1"])),
                ("p.B".to_string(), ids(&["p.B#b1"])),
                ("p.A".to_string(), ids(&["p.A#a3"])),
                ("p.B".to_string(), ids(&["p.B#rep"])),
            ]
        );
        assert!(segments.iter().all(|s| s.reason.is_none()));
        assert_eq!(segments[1].framework, Framework::Junit5);
    }

    #[test]
    fn commas_inside_a_parameter_list_do_not_separate_ids() {
        let ids = parse_order_text(
            "p.U#find, p.U#find(Character, boolean)[2],p.U#m(String[], int)\n",
            "orders/x.txt",
        )
        .unwrap();
        assert_eq!(
            ids,
            [
                "p.U#find",
                "p.U#find(Character, boolean)[2]",
                "p.U#m(String[], int)"
            ]
        );
    }

    #[test]
    fn repeated_test_splits_into_back_to_back_segments() {
        let segments = plan(&["p.A#a1", "p.A#a1"]);
        assert_eq!(
            shape(&segments),
            [
                ("p.A".to_string(), ids(&["p.A#a1"])),
                ("p.A".to_string(), ids(&["p.A#a1"])),
            ]
        );
        assert_eq!(segments[1].reason.as_deref(), Some("repeat of `p.A#a1`"));
    }

    #[test]
    fn repeat_after_other_tests_cuts_at_the_repeat() {
        let segments = plan(&["p.A#a1", "p.A#a2", "p.A#a1", "p.A#a3"]);
        assert_eq!(
            shape(&segments),
            [
                ("p.A".to_string(), ids(&["p.A#a1", "p.A#a2"])),
                ("p.A".to_string(), ids(&["p.A#a1", "p.A#a3"])),
            ]
        );
    }

    #[test]
    fn non_reorderable_class_is_cut_where_its_fixed_order_is_broken() {
        let segments = plan(&["p.F#f1", "p.F#f3", "p.F#f2", "p.F#f3"]);
        assert_eq!(
            shape(&segments),
            [
                ("p.F".to_string(), ids(&["p.F#f1", "p.F#f3"])),
                ("p.F".to_string(), ids(&["p.F#f2", "p.F#f3"])),
            ]
        );
        let reason = segments[1].reason.as_deref().unwrap();
        assert!(reason.starts_with("class is not reorderable"), "{reason}");
        // A reorderable class keeps the same order in one segment.
        assert_eq!(plan(&["p.A#a1", "p.A#a3", "p.A#a2"]).len(), 1);
    }

    #[test]
    fn dynamic_invocations_resolve_to_their_container() {
        let suite = suite();
        let index = SuiteIndex::new(&suite);
        let resolution = resolve(&ids(&["p.B#rep[2]", "p.B#rep[1]"]), &index, "o").unwrap();
        assert_eq!(resolution.ids(), ["p.B#rep[2]", "p.B#rep[1]"]);
        assert_eq!(resolution.tests[0].at, index.get("p.B#rep").unwrap());
        assert_eq!(segment(&resolution.tests, &index).len(), 1);
        // An invocation of a test that is not a dynamic container is unknown.
        let err = resolve(&ids(&["p.B#b1[1]"]), &index, "o").unwrap_err();
        assert_eq!(err.code(), "unknown-test");
    }

    #[test]
    fn container_and_its_invocation_are_a_repeat() {
        let segments = plan(&["p.B#rep", "p.B#rep[1]"]);
        assert_eq!(segments.len(), 2);
        assert_eq!(segments[1].reason.as_deref(), Some("repeat of `p.B#rep`"));
        assert_eq!(plan(&["p.B#rep[1]", "p.B#rep"]).len(), 2);
    }

    #[test]
    fn junit4_parameterized_names_are_plain_suite_ids() {
        let segments = plan(&["p.P#adds[1: 2, 3]", "p.P#adds[0: 1+1=2]"]);
        assert_eq!(segments.len(), 1);
        assert_eq!(
            segments[0].tests,
            ["p.P#adds[1: 2, 3]", "p.P#adds[0: 1+1=2]"]
        );
    }

    #[test]
    fn unknown_id_suggests_closest_ids_of_the_same_class_first() {
        let suite = suite();
        let index = SuiteIndex::new(&suite);
        let err = resolve(&ids(&["p.A#a1", "p.F#f4", "p.X#y"]), &index, "o.txt").unwrap_err();
        match &err {
            EngineError::UnknownTest {
                id,
                suggestions,
                more_unknown,
                ..
            } => {
                assert_eq!(id, "p.F#f4");
                assert_eq!(suggestions, &ids(&["p.F#f1", "p.F#f2", "p.F#f3"]));
                assert_eq!(*more_unknown, 1);
            }
            other => panic!("unexpected {other:?}"),
        }
        let msg = err.to_string();
        assert!(
            msg.contains("`p.F#f4`") && msg.contains("mvn odrust:discover"),
            "{msg}"
        );
    }

    #[test]
    fn unknown_class_still_gets_nearest_suggestions() {
        let suite = suite();
        let index = SuiteIndex::new(&suite);
        match resolve(&ids(&["p.Q#b1"]), &index, "o").unwrap_err() {
            EngineError::UnknownTest { suggestions, .. } => {
                assert_eq!(suggestions[0], "p.B#b1");
                assert_eq!(suggestions.len(), 3);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn dotted_form_resolves_with_a_warning() {
        let suite = suite();
        let index = SuiteIndex::new(&suite);
        let resolution = resolve(
            &ids(&["p.A.a2", "p.N.Inner.n", "p.N$Inner.n", "p.B.rep[3]"]),
            &index,
            "o",
        )
        .unwrap();
        assert_eq!(
            resolution.ids(),
            ["p.A#a2", "p.N$Inner#n", "p.N$Inner#n", "p.B#rep[3]"]
        );
        assert_eq!(resolution.warnings[0], "resolved `p.A.a2` to `p.A#a2`");
        assert_eq!(resolution.warnings.len(), 4);
    }

    #[test]
    fn ambiguous_dotted_form_is_an_error_naming_candidates() {
        let suite: Suite = serde_json::from_str(
            r#"{"schema_version":1,"module":"g:a","classes":[
                {"class":"p.N$I","framework":"junit5","reorderable":true,"tests":["p.N$I#t"]},
                {"class":"p.N.I","framework":"junit5","reorderable":true,"tests":["p.N.I#t"]}
            ]}"#,
        )
        .unwrap();
        let index = SuiteIndex::new(&suite);
        // The exact spelling is not ambiguous...
        assert_eq!(
            resolve(&ids(&["p.N$I.t"]), &index, "o").unwrap().ids(),
            ["p.N$I#t"]
        );
        // ...but `p.N.I.t` matches `p.N.I#t` exactly, so it is not ambiguous either.
        assert_eq!(
            resolve(&ids(&["p.N.I.t"]), &index, "o").unwrap().ids(),
            ["p.N.I#t"]
        );
        let suite: Suite = serde_json::from_str(
            r#"{"schema_version":1,"module":"g:a","classes":[
                {"class":"p.N$I","framework":"junit5","reorderable":true,"tests":["p.N$I#t"]},
                {"class":"p.N$I$J","framework":"junit5","reorderable":true,"tests":["p.N$I$J#t"]},
                {"class":"p.N.I$J","framework":"junit5","reorderable":true,"tests":["p.N.I$J#t"]}
            ]}"#,
        )
        .unwrap();
        let index = SuiteIndex::new(&suite);
        let err = resolve(&ids(&["p.N.I.J.t"]), &index, "o.txt").unwrap_err();
        assert_eq!(err.code(), "unknown-test");
        let msg = err.to_string();
        assert!(msg.contains("ambiguous test `p.N.I.J.t`"), "{msg}");
        assert!(
            msg.contains("`p.N$I$J#t`") && msg.contains("`p.N.I$J#t`"),
            "{msg}"
        );
    }

    #[test]
    fn segments_concatenate_back_to_the_order() {
        let order = [
            "p.F#f3",
            "p.F#f1",
            "p.A#a1",
            "p.A#a1",
            "p.B#rep[1]",
            "p.B#rep",
            "p.F#f2",
            "p.F#f2",
        ];
        let flat: Vec<String> = plan(&order).into_iter().flat_map(|s| s.tests).collect();
        assert_eq!(flat, ids(&order));
    }

    #[test]
    fn edit_distance_counts_chars() {
        let a: Vec<char> = "kitten".chars().collect();
        assert_eq!(edit_distance(&a, "sitting"), 3);
        assert_eq!(edit_distance(&a, "kitten"), 0);
        assert_eq!(edit_distance(&[], "ab"), 2);
        let u: Vec<char> = "größe".chars().collect();
        assert_eq!(edit_distance(&u, "grose"), 2);
    }

    #[test]
    fn regression_trailing_comment_after_an_id_is_ignored() {
        let ids = parse_order_text(
            "p.A#a   # the polluter\n  # whole line\np.A#b[1 #2] # note\n",
            "o.txt",
        )
        .unwrap();
        assert_eq!(ids, vec!["p.A#a".to_string(), "p.A#b[1 #2]".to_string()]);
    }
}
