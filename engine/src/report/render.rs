//! Rendering a detection report (`report.json`) for people and for CI dashboards.
//!
//! [`render`] turns the report object the plugin writes (the [`crate::detect::Summary`] plus
//! `schema_version`, `module`, and per flaky test `failing_order`, `passing_order` and
//! `reproduce`) into one self-contained HTML page (inline CSS and one inline script, no external
//! resource) and a Surefire-style XML report in which every flaky test is a `<testcase>` with a
//! `<flakyFailure>`, so that CI dashboards that read Surefire reports show them as flaky.

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;

use serde::Serialize;

use super::document::Report;
use super::text::{testcase, xml_text};

/// The two renderings of a report (`report` answers them with the JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rendered {
    /// The HTML page.
    pub html: String,
    /// The Surefire-style XML report.
    pub xml: String,
}

/// Renders `report` as HTML and XML.
pub fn render(report: &Report) -> Rendered {
    Rendered {
        html: super::html::page(report),
        xml: xml(report),
    }
}

/// The Surefire-style XML report of `report`.
fn xml(report: &Report) -> String {
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    // Writing to a Vec cannot fail.
    let mut write = |event: Event<'_>| writer.write_event(event).expect("writing to memory");
    write(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
    let count = report.flaky.len().to_string();
    let name = format!("odrust.{}", xml_text(&report.module));
    let mut suite = BytesStart::new("testsuite");
    suite.push_attribute(("name", name.as_str()));
    suite.push_attribute(("tests", count.as_str()));
    suite.push_attribute(("failures", "0"));
    suite.push_attribute(("errors", "0"));
    suite.push_attribute(("skipped", "0"));
    suite.push_attribute(("flakes", count.as_str()));
    write(Event::Start(suite));
    for entry in &report.flaky {
        write(Event::Start(testcase(&entry.finding.test)));
        let message = xml_text(entry.finding.message.as_deref().unwrap_or(""));
        let kind = format!("odrust.{}", xml_text(entry.finding.kind.name()));
        let mut flaky = BytesStart::new("flakyFailure");
        flaky.push_attribute(("message", message.as_ref()));
        flaky.push_attribute(("type", kind.as_str()));
        write(Event::Start(flaky));
        let mut text = xml_text(&entry.finding.evidence).into_owned();
        for line in entry.dependency_lines() {
            text.push('\n');
            text.push_str(&xml_text(&line));
        }
        if let Some(rate) = entry.flake_rate_text() {
            text.push_str("\nFlake rate: ");
            text.push_str(&rate);
        }
        if let Some(reproduce) = &entry.reproduce {
            text.push_str("\nReproduce: ");
            text.push_str(&xml_text(reproduce));
        }
        for line in cause_lines(report, &entry.finding.test) {
            text.push('\n');
            text.push_str(&xml_text(&line));
        }
        write(Event::Text(BytesText::new(&text)));
        write(Event::End(BytesEnd::new("flakyFailure")));
        write(Event::End(BytesEnd::new("testcase")));
    }
    write(Event::End(BytesEnd::new("testsuite")));
    let mut out = String::from_utf8(writer.into_inner()).expect("the writer wrote UTF-8");
    out.push('\n');
    out
}

/// The cause of `test` and what repair made of it: "Cause 1: state left by `p.P#p` → 2
/// victims", "Fix: a verified patch target/odrust/repair/cause-1.patch (git apply ...)".
fn cause_lines(report: &Report, test: &str) -> Vec<String> {
    let Some(cause) = report
        .causes
        .iter()
        .find(|c| c.tests.iter().any(|t| t == test))
    else {
        return Vec::new();
    };
    let mut lines = vec![format!("Cause {}: {}", cause.id, cause.title)];
    for fix in cause
        .fixes
        .iter()
        .filter(|f| f.tests.iter().any(|t| t == test))
    {
        lines.push(match (fix.status.as_str(), &fix.patch) {
            ("patched", Some(patch)) => format!(
                "Fix: a verified patch {patch}{}{}",
                if fix.applied { ", applied" } else { "" },
                fix.apply
                    .as_deref()
                    .map(|a| format!(" (apply: {a})"))
                    .unwrap_or_default()
            ),
            (status, _) => format!(
                "No patch ({status}): {}",
                fix.reason.as_deref().unwrap_or("")
            ),
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::super::document::ReportEntry;
    use super::*;

    #[test]
    fn a_diagnosed_victim_shows_its_polluted_state_in_html_and_xml() {
        let mut r: Report = serde_json::from_value(serde_json::json!({
            "module": "m", "flaky": [
                {"test": "p.V#v", "kind": "victim", "failing_experiment": 1, "passing_experiment": 2,
                 "polluters": [["p.P#p"]], "evidence": "e",
                 "polluted_state": {
                    "test": "p.V#v", "kind": "victim", "status": "confirmed", "reason": "r",
                    "failing_order": ["p.P#p", "p.V#v"], "passing_order": ["p.V#v"],
                    "fields": [
                      {"field": "p.Prices.RATES", "pseudo": false, "final": true, "kind": "changed",
                       "failing": "{eur=0.9}", "passing": "{}", "differences": [], "more": 0,
                       "restorable": true, "confirmed": true},
                      {"field": "p.Prices.last", "pseudo": false, "final": false, "kind": "changed",
                       "failing": "42", "passing": "0", "differences": [], "more": 0,
                       "restorable": true, "confirmed": false}],
                    "polluted_state": ["p.Prices.RATES"], "experiments": 4,
                    "failing_capture": null, "passing_capture": null}}]
        }))
        .unwrap();
        let lines = r.flaky[0].polluted_state_lines();
        assert_eq!(
            lines,
            [
                "Polluted state (confirmed by restoring it; 4 experiments): p.Prices.RATES is {eur=0.9} after the polluter, {} when the test passes",
                "Also differs (restoring it is not needed): p.Prices.last is 42 after the polluter, 0 when the test passes"
            ]
        );
        let out = render(&r);
        assert!(
            out.html
                .contains("p.Prices.RATES is {eur=0.9} after the polluter"),
            "{}",
            out.html
        );
        assert!(
            out.xml
                .contains("p.Prices.RATES is {eur=0.9} after the polluter"),
            "{}",
            out.xml
        );
        // not diagnosed: nothing added
        r.flaky[0].polluted_state = None;
        assert!(r.flaky[0].polluted_state_lines().is_empty());
    }

    fn report() -> Report {
        serde_json::from_value(serde_json::json!({
            "schema_version": 1,
            "module": "com.acme:cart<&>",
            "seed": 42, "strategy": "reverse-passing", "tests_total": 12, "experiments": 31,
            "rounds_run": 7, "rounds_planned": 20,
            "failing": [{"test": "p.F#broken", "message": "boom <b>"}],
            "flaky": [
                {"test": "p.V#v", "kind": "victim", "failing_experiment": 9, "passing_experiment": 10,
                 "message": "expected <1> & \"2\" 'x'", "alone": {"runs": 10, "passed": 10},
                 "evidence": "failed in round 4 <after p.P#p>",
                 "failing_order": "target/odrust/detect/orders/p.V#v.fail.txt",
                 "passing_order": "target/odrust/detect/orders/p.V#v.pass.txt",
                 "reproduce": "mvn odrust:run -Dodrust.order=a.txt && echo '<ok>'"},
                {"test": "p.B#b[2]", "kind": "brittle", "failing_experiment": 12, "passing_experiment": 13,
                 "message": null, "alone": {"runs": 10, "passed": 0}, "evidence": "failed alone\u{1b}",
                 "state_setters": [["p.S#s<1>"], ["p.S#a", "p.S#b"]], "minimize_experiments": 7,
                 "flake_rate": {"all_orders": 0.25, "class_compatible": 0.5, "reverse_of_passing": null,
                                "method": "sampled", "case": null, "samples": 100000,
                                "ci95": {"all_orders": [0.2, 0.3], "class_compatible": [0.45, 0.55],
                                         "reverse_of_passing": null}}}
            ],
            "notes": ["stopped after 7 of 20 rounds (time budget)"]
        }))
        .unwrap()
    }

    #[test]
    fn html_has_one_card_per_flaky_test_and_escapes_everything() {
        let html = render(&report()).html;
        assert!(html.starts_with("<!doctype html>"), "{html}");
        assert!(
            html.contains(
                "<title>odrust: order-dependent tests in com.acme:cart&lt;&amp;&gt;</title>"
            ),
            "{html}"
        );
        assert!(html.contains("seed 42 \u{b7} strategy reverse-passing \u{b7} 12 tests \u{b7} 31 experiments \u{b7} 7 of 20 rounds"), "{html}");
        assert_eq!(html.matches("<article class=\"card ").count(), 2, "{html}");
        assert!(html
            .contains("<article class=\"card victim\" data-test=\"p.V#v\" data-kind=\"victim\">"));
        assert!(
            html.contains("Found 2 order-dependent tests (1 victim, 1 brittle)."),
            "{html}"
        );
        assert!(
            html.contains("expected &lt;1&gt; &amp; &quot;2&quot; &#39;x&#39;"),
            "{html}"
        );
        assert!(html.contains("<code id=\"cmd-0\">mvn odrust:run -Dodrust.order=a.txt &amp;&amp; echo &#39;&lt;ok&gt;&#39;</code><button type=\"button\" class=\"copy\" data-copy=\"cmd-0\">Copy</button>"), "{html}");
        assert!(html.contains("boom &lt;b&gt;"), "{html}");
        assert!(html.contains("stopped after 7 of 20 rounds"), "{html}");
        // one inline script (the copy buttons), nothing loaded from elsewhere
        assert_eq!(html.matches("<script").count(), 1, "{html}");
        assert!(
            !html.contains("<script src") && !html.contains("<link"),
            "{html}"
        );
        assert!(
            html.contains("<a href=\"orders/p.V#v.fail.txt\">"),
            "{html}"
        );
        assert!(!html.contains("http"), "no external resources: {html}");
        assert!(!html.contains("<1>") && !html.contains("<after"), "{html}");
    }

    #[test]
    fn xml_is_a_surefire_suite_of_flaky_failures() {
        let xml = render(&report()).xml;
        assert!(
            xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"),
            "{xml}"
        );
        assert!(xml.contains(r#"<testsuite name="odrust.com.acme:cart&lt;&amp;&gt;" tests="2" failures="0" errors="0" skipped="0" flakes="2">"#), "{xml}");
        assert!(
            xml.contains(r#"<testcase classname="p.V" name="v" time="0">"#),
            "{xml}"
        );
        assert!(
            xml.contains(r#"<testcase classname="p.B" name="b[2]" time="0">"#),
            "{xml}"
        );
        assert!(xml.contains(r#"message="expected &lt;1&gt; &amp; &quot;2&quot; &apos;x&apos;" type="odrust.victim""#), "{xml}");
        assert!(xml.contains(r#"type="odrust.brittle""#), "{xml}");
        assert!(xml.contains("failed in round 4 &lt;after p.P#p&gt;\nReproduce: mvn odrust:run -Dodrust.order=a.txt &amp;&amp; echo &apos;&lt;ok&gt;&apos;"), "{xml}");
        assert!(
            !xml.contains('\u{1b}'),
            "control characters are dropped: {xml}"
        );
        assert_eq!(xml.matches("<flakyFailure").count(), 2);
        // The output parses back as XML.
        let mut reader = quick_xml::Reader::from_str(&xml);
        loop {
            match reader.read_event().unwrap() {
                Event::Eof => break,
                _ => continue,
            }
        }
    }

    #[test]
    fn dependencies_and_flake_rates_are_shown() {
        let mut report = report();
        report.flaky[0].finding.polluters =
            vec![vec!["p.P#p".into()], vec!["p.Q#a".into(), "p.Q#b".into()]];
        report.flaky[0].finding.cleaners =
            [("p.P#p".to_string(), vec!["p.C#c".to_string()])].into();
        report.flaky[0].finding.flake_rate = serde_json::from_value(serde_json::json!({
            "all_orders": 0.3333333333, "class_compatible": 0.25, "reverse_of_passing": 0.5,
            "method": "formula", "case": "special-case-2", "ci95": null, "samples": null}))
        .unwrap();
        let rendered = render(&report);
        let html = &rendered.html;
        assert!(
            html.contains("<li>Polluter: p.P#p (cleaners: p.C#c)</li>\n<li>Polluter group: p.Q#a + p.Q#b</li>"),
            "{html}"
        );
        // the failing order drawn, and the order a cleaner makes pass
        assert!(html.contains("<span class=\"step culprit\" title=\"polluter\"><code>p.P#p</code></span> <span class=\"arrow\">\u{2192}</span> <span class=\"step subject\" title=\"victim\"><code>p.V#v</code></span> <span class=\"meaning\">fails</span>"), "{html}");
        assert!(
            html.contains(
                "<span class=\"step cleaner\" title=\"cleaner\"><code>p.C#c</code></span>"
            ),
            "{html}"
        );
        assert!(
            html.contains("<span style=\"width:25.0%\"></span>"),
            "{html}"
        );
        assert!(html.contains("About 1 in 4 shuffled runs"), "{html}");
        assert!(html.contains("fails in 33.3% of all orders, 25.0% of class-compatible orders, 50.0% of reverses of passing orders (formula, special-case-2)"), "{html}");
        assert!(
            html.contains(
                "<li>State-setter: p.S#s&lt;1&gt;</li>\n<li>State-setter group: p.S#a + p.S#b</li>"
            ),
            "{html}"
        );
        assert!(
            html.contains(". Explaining it took 7 experiments."),
            "{html}"
        );
        assert!(
            html.contains("(sampled; 95% interval of class-compatible: 45.0%\u{2013}55.0%)"),
            "{html}"
        );
        let xml = &rendered.xml;
        assert!(xml.contains("Polluter: p.P#p (cleaners: p.C#c)\nPolluter group: p.Q#a + p.Q#b\nFlake rate: fails in 33.3%"), "{xml}");
        assert!(xml.contains("State-setter: p.S#s&lt;1&gt;"), "{xml}");
    }

    #[test]
    fn empty_report_says_nothing_was_found() {
        let report: Report =
            serde_json::from_value(serde_json::json!({"module": "g:a", "flaky": []})).unwrap();
        let rendered = render(&report);
        assert!(rendered.html.contains("No flaky test was found"));
        assert!(rendered.xml.contains(r#"tests="0""#), "{}", rendered.xml);
        assert!(!rendered.html.contains("INCOMPLETE"));
    }

    #[test]
    fn a_report_written_during_the_run_says_so_and_so_does_an_incomplete_rate() {
        let report: Report = serde_json::from_value(serde_json::json!({
            "module": "g:a", "complete": false,
            "flaky": [{"test": "p.V#v", "kind": "victim", "polluters": [["p.P#p"]],
                "flake_rate": {"all_orders": 0.5, "class_compatible": 0.4, "reverse_of_passing": null,
                    "method": "formula", "case": "special-case-2", "ci95": null, "samples": null,
                    "incomplete": {"reason": "the search for cleaners did not finish",
                        "upper_bound": true,
                        "lower_bound": {"all_orders": 0.1, "class_compatible": 0.05}}}}]
        }))
        .unwrap();
        let html = render(&report).html;
        assert!(
            html.contains("INCOMPLETE: written while the run was going on"),
            "{html}"
        );
        let text = report.flaky[0].flake_rate_text().unwrap();
        assert!(
            text.starts_with(
                "INCOMPLETE: fails in 10.0%\u{2013}50.0% of all orders, 5.0%\u{2013}40.0%"
            ),
            "{text}"
        );
        assert!(
            text.ends_with("the search for cleaners did not finish"),
            "{text}"
        );
    }

    #[test]
    fn no_flaky_test_found_says_how_much_was_explored() {
        let report = |covered: u64| -> Report {
            serde_json::from_value(serde_json::json!({
                "module": "g:a", "flaky": [], "strategy": "tuscan", "rounds_run": 3,
                "rounds_planned": 40, "pairs": {"covered": covered, "total": 17000}
            }))
            .unwrap()
        };
        assert!(render(&report(120)).html.contains(
            "No flaky test was found in 3 of 40 rounds (tuscan), which ran 0.7% of the 17000 test \
             pairs the schedule covers: a victim of a pair not run yet can still exist."
        ));
        assert!(render(&report(17000))
            .html
            .contains("which ran all of the 17000 test pairs the schedule covers."));
    }

    #[test]
    fn a_run_with_no_finding_says_what_it_covered_and_what_may_have_escaped() {
        let covered: Report = serde_json::from_value(serde_json::json!({
            "module": "g:a", "flaky": [], "strategy": "targeted", "rounds_run": 20,
            "rounds_planned": 20,
            "coverage": {"text": "the baseline and 20 rounds ran 40 of the 90 <pairs>"}
        }))
        .unwrap();
        let html = render(&covered).html;
        assert!(
            html.contains(
                "<p class=\"run\" id=\"covered\">Covered: the baseline and 20 rounds ran 40 of the 90 &lt;pairs&gt;.</p>"
            ),
            "{html}"
        );
        assert!(!render(&report()).html.contains("id=\"covered\""));
    }

    #[test]
    fn a_finished_run_with_unfinished_explanations_says_how_many() {
        let report = |complete: usize| -> Report {
            serde_json::from_value(serde_json::json!({
                "module": "g:a", "complete": true, "flaky": [],
                "explanations": {"explained": 47, "complete": complete}
            }))
            .unwrap()
        };
        let said = "explanations complete for 3 of 47 OD tests";
        assert!(render(&report(3)).html.contains(said));
        assert!(!render(&report(47))
            .html
            .contains("explanations complete for"));
        assert!(!render(&report(3))
            .html
            .contains("INCOMPLETE: written while"));
    }

    #[test]
    fn a_cleaner_search_cut_short_or_not_started_is_not_reported_as_none_found() {
        let entry = |cleaners: serde_json::Value, unfinished: &[&str]| -> ReportEntry {
            serde_json::from_value(serde_json::json!({
                "test": "p.V#v", "kind": "victim", "polluters": [["p.P#p"], ["p.Q#q"]],
                "cleaners": cleaners, "minimize_experiments": 60,
                "minimize_complete": unfinished.is_empty(),
                "cleaners_unfinished": unfinished
            }))
            .unwrap()
        };
        let done = serde_json::json!({"p.P#p": [], "p.Q#q": ["p.C#c"]});
        assert_eq!(
            entry(done, &[]).dependency_lines(),
            [
                "Polluter: p.P#p (no cleaner found)",
                "Polluter: p.Q#q (cleaners: p.C#c)"
            ]
        );
        // P's search was cut short with one found; Q's never started.
        let cut = serde_json::json!({"p.P#p": ["p.C#c"]});
        assert_eq!(
            entry(cut, &["p.P#p", "p.Q#q"]).dependency_lines(),
            [
                "Polluter: p.P#p (cleaners found so far: p.C#c; the search stopped early)",
                "Polluter: p.Q#q (cleaners not searched: the search stopped early)"
            ]
        );
        let none_yet = serde_json::json!({"p.P#p": []});
        assert_eq!(
            entry(none_yet, &["p.P#p"]).dependency_lines()[0],
            "Polluter: p.P#p (no cleaner found so far: the search stopped early)"
        );
    }
}
