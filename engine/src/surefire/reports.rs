//! Reading Surefire's XML reports (`TEST-*.xml`) into odrust test ids and outcomes.
//!
//! The plugin compares what `mvn test` reported with what odrust's own run of the original order
//! produced; this module reads the Surefire side. Each `<testcase classname=".." name="..">` gives
//! one test: a `<failure>` child makes it `fail`, `<error>` `error`, `<skipped>` `skipped`, none
//! `pass`. Rerun records (`<flakyFailure>`, `<flakyError>`, `<rerunFailure>`, `<rerunError>`) are
//! ignored: the test's outcome is what its final status says. Names are turned into odrust ids
//! by [`test_id`].

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use serde::Serialize;

use crate::error::EngineError;
use crate::model::outcome::Outcome;

/// One test case of a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportedTest {
    /// The odrust id of the test.
    pub test: String,
    /// Its final outcome.
    pub outcome: Outcome,
    /// The `message` attribute of its `<failure>`, `<error>` or `<skipped>`, if any.
    pub message: Option<String>,
}

/// Every test of a report directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reports {
    /// The tests, sorted by report file name, then in document order.
    pub tests: Vec<ReportedTest>,
    /// How many `TEST-*.xml` files were read.
    pub files: usize,
}

/// Reads every `TEST-*.xml` file of `dir`.
///
/// Errors: [`EngineError::Io`] naming the path when `dir` or a file cannot be read,
/// [`EngineError::BadReport`] naming the file when a report is not well-formed Surefire XML.
pub fn read_reports(dir: &Path) -> Result<Reports, EngineError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| EngineError::Io { path, source }
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        let is_report = path
            .file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.starts_with("TEST-") && name.ends_with(".xml"));
        if is_report && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    let mut tests = Vec::new();
    for file in &files {
        let bytes = fs::read(file).map_err(io(file))?;
        let text = String::from_utf8(bytes).map_err(|e| EngineError::BadReport {
            file: file.clone(),
            reason: format!("not UTF-8: {e}"),
        })?;
        tests.extend(
            parse_report(&text).map_err(|reason| EngineError::BadReport {
                file: file.clone(),
                reason,
            })?,
        );
    }
    Ok(Reports {
        tests,
        files: files.len(),
    })
}

/// The test case being read.
struct Case {
    class: String,
    name: String,
    outcome: Outcome,
    message: Option<String>,
    /// Depth of elements open inside the `<testcase>`.
    depth: usize,
}

/// Parses the text of one report; the error is a description of what is wrong.
fn parse_report(text: &str) -> Result<Vec<ReportedTest>, String> {
    parse_cases(text).map(name_cases)
}

/// The test cases of one report.
fn parse_cases(text: &str) -> Result<Vec<Case>, String> {
    let mut reader = Reader::from_str(text);
    let mut tests = Vec::new();
    let mut case: Option<Case> = None;
    let mut depth = 0usize;
    let mut saw_suite = false;
    loop {
        let event = reader
            .read_event()
            .map_err(|e| format!("at byte {}: {e}", reader.error_position()))?;
        match event {
            Event::Start(e) => {
                depth += 1;
                if let Some(case) = case.as_mut() {
                    if case.depth == 0 {
                        record_status(case, &e)?;
                    }
                    case.depth += 1;
                } else if e.local_name().as_ref() == b"testcase" {
                    case = Some(start_case(&e)?);
                } else {
                    saw_suite |= is_suite(&e);
                }
            }
            Event::Empty(e) => {
                if let Some(case) = case.as_mut() {
                    if case.depth == 0 {
                        record_status(case, &e)?;
                    }
                } else if e.local_name().as_ref() == b"testcase" {
                    tests.push(finish(start_case(&e)?));
                } else {
                    saw_suite |= is_suite(&e);
                }
            }
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                match case.as_mut() {
                    Some(open) if open.depth > 0 => open.depth -= 1,
                    Some(_) => tests.push(finish(case.take().expect("a case is open"))),
                    None => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if depth != 0 {
        return Err("the document ends inside an element (truncated file?)".to_string());
    }
    if !saw_suite {
        return Err("no <testsuite> element".to_string());
    }
    Ok(tests)
}

fn is_suite(e: &BytesStart<'_>) -> bool {
    matches!(e.local_name().as_ref(), b"testsuite" | b"testsuites")
}

fn start_case(e: &BytesStart<'_>) -> Result<Case, String> {
    let class = attribute(e, "classname")?.ok_or("a <testcase> has no classname")?;
    let name = attribute(e, "name")?.ok_or("a <testcase> has no name")?;
    Ok(Case {
        class,
        name,
        outcome: Outcome::Pass,
        message: None,
        depth: 0,
    })
}

/// Records a direct child of `<testcase>`: `<failure>`, `<error>` or `<skipped>` set the outcome
/// (the most severe wins if there are several); anything else (rerun records, output) is ignored.
fn record_status(case: &mut Case, e: &BytesStart<'_>) -> Result<(), String> {
    let outcome = match e.local_name().as_ref() {
        b"failure" => Outcome::Fail,
        b"error" => Outcome::Error,
        b"skipped" => Outcome::Skipped,
        _ => return Ok(()),
    };
    if case.outcome == Outcome::Pass || outcome > case.outcome {
        case.outcome = outcome;
        case.message = attribute(e, "message")?;
    }
    Ok(())
}

fn finish(case: Case) -> Case {
    case
}

/// The reported tests of one file's cases: each named by [`test_id`], keeping the parameter
/// list of a method whose name another test method of its class (in this file) also has with
/// other parameters (`m()` and `m(Character, boolean)[1]` are two tests: `C#m` and
/// `C#m(Character, boolean)[1]`), as odrust's runner names them.
fn name_cases(cases: Vec<Case>) -> Vec<ReportedTest> {
    let mut lists: HashMap<(&str, &str), HashSet<&str>> = HashMap::new();
    for case in &cases {
        if let (base, Some(params), _) = split_parameter_list(&case.name) {
            lists
                .entry((case.class.as_str(), base))
                .or_default()
                .insert(params);
        } else {
            lists
                .entry((case.class.as_str(), &case.name))
                .or_default()
                .insert("");
        }
    }
    let overloaded: HashSet<(String, String)> = lists
        .into_iter()
        .filter(|(_, params)| params.len() > 1)
        .map(|((class, base), _)| (class.to_string(), base.to_string()))
        .collect();
    cases
        .into_iter()
        .map(|case| {
            let test = match split_parameter_list(&case.name) {
                (base, Some(params), _)
                    if !params.is_empty()
                        && overloaded.contains(&(case.class.clone(), base.to_string())) =>
                {
                    format!("{}#{}", case.class, case.name)
                }
                _ => test_id(&case.class, &case.name),
            };
            ReportedTest {
                test,
                outcome: case.outcome,
                message: case.message,
            }
        })
        .collect()
}

fn attribute(e: &BytesStart<'_>, name: &str) -> Result<Option<String>, String> {
    match e.try_get_attribute(name) {
        Ok(Some(attr)) => attr
            .unescape_value()
            .map(|v| Some(v.into_owned()))
            .map_err(|err| format!("bad `{name}` attribute: {err}")),
        Ok(None) => Ok(None),
        Err(err) => Err(format!("bad attributes: {err}")),
    }
}

/// The odrust id of a Surefire test case: `classname#name`, with a JUnit 5 parameter list removed
/// from the name (`adds(int)[1]` → `adds[1]`, `isEmpty()` → `isEmpty`). A case with an empty name
/// (a class-level failure) is named by its class alone.
pub fn test_id(classname: &str, name: &str) -> String {
    if name.is_empty() {
        return classname.to_string();
    }
    format!("{classname}#{}", strip_parameter_list(name))
}

/// Removes a `(...)` that directly follows the leading method name; parentheses anywhere else
/// (inside a JUnit 4 `[...]` parameter name, say) are kept.
fn strip_parameter_list(name: &str) -> String {
    match split_parameter_list(name) {
        (base, Some(_), rest) => format!("{base}{rest}"),
        _ => name.to_string(),
    }
}

/// `(method name, the parameter list inside its parentheses, what follows)` when a `(...)`
/// directly follows the leading method name; `(name, None, "")` otherwise.
fn split_parameter_list(name: &str) -> (&str, Option<&str>, &str) {
    let ident_end = name
        .char_indices()
        .find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .map_or(name.len(), |(i, _)| i);
    let rest = &name[ident_end..];
    if ident_end > 0 && rest.starts_with('(') {
        if let Some(close) = rest.find(')') {
            return (
                &name[..ident_end],
                Some(&rest[1..close]),
                &rest[close + 1..],
            );
        }
    }
    (name, None, "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh directory under the system temp dir, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(tag: &str) -> Self {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "odrust-engine-{tag}-{}-{}",
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::Relaxed)
            ));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }

        fn write(&self, name: &str, text: &str) -> &Self {
            fs::write(self.0.join(name), text).unwrap();
            self
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    const CART: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" name="com.acme.CartTest" tests="5" errors="1" skipped="1" failures="1">
  <properties><property name="java.version" value="17"/></properties>
  <testcase name="addsItem" classname="com.acme.CartTest" time="0.01"/>
  <testcase name="removes" classname="com.acme.CartTest" time="0.01">
    <failure message="expected:&lt;1&gt; but was:&lt;2&gt;" type="java.lang.AssertionError"><![CDATA[java.lang.AssertionError: expected:<1> but was:<2>
	at com.acme.CartTest.removes(CartTest.java:12)]]></failure>
    <system-out><![CDATA[hello]]></system-out>
  </testcase>
  <testcase name="boom" classname="com.acme.CartTest" time="0">
    <error message="npe" type="java.lang.NullPointerException">trace</error>
  </testcase>
  <testcase name="later" classname="com.acme.CartTest" time="0">
    <skipped message="not yet"/>
  </testcase>
  <testcase name="quiet" classname="com.acme.CartTest" time="0"><skipped/></testcase>
</testsuite>
"#;

    const MATH: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.acme.MathTest" tests="3">
  <testcase name="adds(int)[1]" classname="com.acme.MathTest" time="0"/>
  <testcase name="adds(int, java.lang.String)[2]" classname="com.acme.MathTest" time="0"/>
  <testcase name="isEmpty()" classname="com.acme.MathTest$WhenEmpty" time="0"/>
  <testcase name="sums[0: f(1)=2]" classname="com.acme.MathTest" time="0"/>
</testsuite>
"#;

    const RERUN: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.acme.FlakyTest" tests="2">
  <testcase name="flaky" classname="com.acme.FlakyTest" time="0">
    <flakyFailure message="first try failed" type="java.lang.AssertionError">
      <stackTrace>trace</stackTrace>
      <error message="nested, ignored"/>
    </flakyFailure>
  </testcase>
  <testcase name="broken" classname="com.acme.FlakyTest" time="0">
    <failure message="still failing" type="java.lang.AssertionError"/>
    <rerunFailure message="rerun 1" type="java.lang.AssertionError"><stackTrace>t</stackTrace></rerunFailure>
    <rerunError message="rerun 2" type="java.lang.IllegalStateException"/>
  </testcase>
</testsuite>
"#;

    fn outcomes(reports: &Reports) -> Vec<(&str, Outcome, Option<&str>)> {
        reports
            .tests
            .iter()
            .map(|t| (t.test.as_str(), t.outcome, t.message.as_deref()))
            .collect()
    }

    #[test]
    fn reads_outcomes_and_messages_in_file_then_document_order() {
        let dir = TempDir::new("surefire");
        dir.write("TEST-com.acme.MathTest.xml", MATH)
            .write("TEST-com.acme.CartTest.xml", CART)
            .write("com.acme.CartTest.txt", "not a report")
            .write("TESTS-summary.json", "{}");
        let reports = read_reports(&dir.0).unwrap();
        assert_eq!(reports.files, 2);
        assert_eq!(
            outcomes(&reports),
            [
                ("com.acme.CartTest#addsItem", Outcome::Pass, None),
                (
                    "com.acme.CartTest#removes",
                    Outcome::Fail,
                    Some("expected:<1> but was:<2>")
                ),
                ("com.acme.CartTest#boom", Outcome::Error, Some("npe")),
                ("com.acme.CartTest#later", Outcome::Skipped, Some("not yet")),
                ("com.acme.CartTest#quiet", Outcome::Skipped, None),
                ("com.acme.MathTest#adds(int)[1]", Outcome::Pass, None),
                (
                    "com.acme.MathTest#adds(int, java.lang.String)[2]",
                    Outcome::Pass,
                    None
                ),
                ("com.acme.MathTest$WhenEmpty#isEmpty", Outcome::Pass, None),
                ("com.acme.MathTest#sums[0: f(1)=2]", Outcome::Pass, None),
            ]
        );
    }

    #[test]
    fn rerun_records_do_not_change_the_final_outcome() {
        let dir = TempDir::new("rerun");
        dir.write("TEST-com.acme.FlakyTest.xml", RERUN);
        let reports = read_reports(&dir.0).unwrap();
        assert_eq!(
            outcomes(&reports),
            [
                ("com.acme.FlakyTest#flaky", Outcome::Pass, None),
                (
                    "com.acme.FlakyTest#broken",
                    Outcome::Fail,
                    Some("still failing")
                ),
            ]
        );
    }

    #[test]
    fn missing_directory_is_an_io_error_naming_the_path() {
        let dir = TempDir::new("missing");
        let missing = dir.0.join("nope");
        let err = read_reports(&missing).unwrap_err();
        assert_eq!(err.code(), "io");
        assert!(err.to_string().contains(&*missing.to_string_lossy()));
    }

    #[test]
    fn empty_directory_has_no_tests() {
        let dir = TempDir::new("empty");
        let reports = read_reports(&dir.0).unwrap();
        assert_eq!(reports.files, 0);
        assert!(reports.tests.is_empty());
    }

    #[test]
    fn unparseable_reports_are_bad_report_errors_naming_the_file() {
        for (tag, text) in [
            (
                "mismatch",
                "<testsuite><testcase name='a' classname='b'></testsuite>",
            ),
            ("truncated", "<testsuite><testcase name='a' classname='b'>"),
            ("text", "this is not xml"),
            ("noname", "<testsuite><testcase classname='b'/></testsuite>"),
            (
                "entity",
                "<testsuite><testcase name='a&bogus;' classname='b'/></testsuite>",
            ),
        ] {
            let dir = TempDir::new(tag);
            dir.write("TEST-bad.xml", text);
            let err = read_reports(&dir.0).unwrap_err();
            assert_eq!(err.code(), "bad-report", "{tag}: {err}");
            assert!(err.to_string().contains("TEST-bad.xml"), "{tag}: {err}");
        }
    }

    #[test]
    fn an_overloaded_test_method_keeps_its_parameter_list() {
        let xml = r#"<testsuite name="p.UtilTest">
            <testcase classname="p.UtilTest" name="find()"/>
            <testcase classname="p.UtilTest" name="find(Character, boolean)[1]"/>
            <testcase classname="p.UtilTest" name="find(Character, boolean)[2]"><failure message="x"/></testcase>
            <testcase classname="p.UtilTest" name="adds(int)[1]"/>
            <testcase classname="p.Other" name="find(String)[1]"/>
        </testsuite>"#;
        let ids: Vec<String> = parse_report(xml)
            .unwrap()
            .into_iter()
            .map(|t| t.test)
            .collect();
        assert_eq!(
            ids,
            [
                "p.UtilTest#find",
                "p.UtilTest#find(Character, boolean)[1]",
                "p.UtilTest#find(Character, boolean)[2]",
                "p.UtilTest#adds[1]",
                "p.Other#find[1]"
            ]
        );
    }

    #[test]
    fn test_ids_drop_junit5_parameter_lists_only() {
        assert_eq!(test_id("a.B", "adds(int)[1]"), "a.B#adds[1]");
        assert_eq!(test_id("a.B", "isEmpty()"), "a.B#isEmpty");
        assert_eq!(test_id("a.B", "plain"), "a.B#plain");
        assert_eq!(test_id("a.B", "p[0: g(x)]"), "a.B#p[0: g(x)]");
        assert_eq!(test_id("a.B", ""), "a.B");
    }
}
