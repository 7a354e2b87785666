//! The report of `odrust:detect-id` (`id_report`): an [`IdOutcome`] as one self-contained HTML
//! page (inline CSS, no script, no external resource), a Surefire-style XML report, and a few
//! console lines per test (`docs/protocol.md`, "ID tests").
//!
//! In the XML, a test confirmed implementation-dependent (`id`) is a `<testcase>` with a
//! `<failure type="odrust.id">`; an `unconfirmed` one is `<skipped>` (it failed under a seed
//! once, and nothing showed it fails again), so dashboards neither count it as broken nor as
//! passing.

use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;
use serde::{Deserialize, Serialize};

use super::html::CSS;
use super::text::{counted, escape_html, testcase, xml_text};
use crate::idtests::dexfix::RepairStrategy;
use crate::idtests::plan::{ranges_text, IdNeeds, IdOutcome, IdStatus, IdVerdict, Reproduce};
use crate::idtests::RepairChoice;
use crate::ENGINE_VERSION;

/// Request of `id_report`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdReportRequest {
    /// `groupId:artifactId` of the module.
    pub module: String,
    /// What `id_next` ended with.
    pub outcome: IdOutcome,
    /// The command that reproduces a verdict, with `{test}`, `{seed}` and `{only}` to fill.
    pub reproduce_command: String,
}

/// Response of `id_report`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IdRendered {
    /// The HTML page.
    pub html: String,
    /// The Surefire-style XML report.
    pub xml: String,
    /// Console lines, newline-separated.
    pub text: String,
}

/// Renders an ID outcome.
pub fn render_id(request: &IdReportRequest) -> IdRendered {
    IdRendered {
        html: html(request),
        xml: xml(request),
        text: text(request),
    }
}

/// `template` with `{test}`, `{seed}` and `{only}` filled: `{only}` as `5` or `3-7`,
/// comma-joined; when `only` is empty (everything shuffled), the word holding `{only}` is left
/// out with the space before it. Inside single quotes (`'{test}'`, as the plugin writes it) a
/// `'` of the id (a Kotlin name's `it's`) is written `'\''`, so the shell reads it back whole.
pub fn fill_command(template: &str, r: &Reproduce) -> String {
    let mut cmd = template.to_string();
    if r.only.is_empty() {
        while let Some(at) = cmd.find("{only}") {
            let start = cmd[..at]
                .rfind(char::is_whitespace)
                .map(|i| i + 1)
                .unwrap_or(0);
            let end = cmd[at..]
                .find(char::is_whitespace)
                .map(|i| at + i)
                .unwrap_or(cmd.len());
            // The space before the word, or the one after it when it comes first.
            let (start, end) = if start > 0 {
                (start - 1, end)
            } else if end < cmd.len() {
                (start, end + 1)
            } else {
                (start, end)
            };
            cmd.replace_range(start..end, "");
        }
    } else {
        cmd = cmd.replace("{only}", &ranges_text(&r.only));
    }
    let quoted = r.test.replace('\'', "'\\''");
    cmd.replace("'{test}'", &format!("'{quoted}'"))
        .replace("{test}", &r.test)
        .replace("{seed}", &r.seed.to_string())
}

/// The headline: what was found, in one sentence.
fn headline(o: &IdOutcome) -> String {
    let ids = o.tests.iter().filter(|v| v.status == IdStatus::Id).count();
    let pinned = o
        .tests
        .iter()
        .filter(|v| {
            // one invocation, or one site's invocations (which carry its repairs)
            v.status == IdStatus::Id
                && v.pin
                    .as_ref()
                    .is_some_and(|p| p.invocation.is_some() || p.call.is_some())
        })
        .count();
    let unconfirmed = o.tests.len() - ids;
    let seeds = counted(o.seeds.len(), "seed");
    let more = match unconfirmed {
        0 => String::new(),
        1 => "; 1 more test failed under a seed once but not again (unconfirmed)".to_string(),
        n => format!("; {n} more tests failed under a seed once but not again (unconfirmed)"),
    };
    if ids == 0 {
        return format!("No implementation-dependent test was confirmed under {seeds}{more}.");
    }
    format!(
        "Found {} under {seeds} ({pinned} pinned to one shuffled call){more}.",
        counted(ids, "implementation-dependent test")
    )
}

/// "seeds 1, 2, 3 · 1 clean run · 37 experiments".
fn run_line(o: &IdOutcome) -> String {
    let seeds: Vec<String> = o.seeds.iter().map(u64::to_string).collect();
    format!(
        "{} {} \u{b7} {} \u{b7} {}",
        if o.seeds.len() == 1 { "seed" } else { "seeds" },
        seeds.join(", "),
        counted(o.clean_runs as usize, "clean run"),
        counted(o.experiments, "experiment")
    )
}

/// "com.a.Foo.names(Foo.java:12)" of a repair's place.
fn place(r: &RepairChoice) -> String {
    let at = match (&r.file, r.line) {
        (Some(f), Some(l)) => format!("{f}:{l}"),
        (Some(f), None) => f.clone(),
        (None, Some(l)) => format!("line {l}"),
        (None, None) => "unknown source".into(),
    };
    match &r.method {
        Some(m) => format!("{}.{m}({at})", r.class),
        None => format!("{}({at})", r.class),
    }
}

/// What a repair does, in words.
fn repair_text(r: &RepairChoice) -> String {
    let target = r.target.as_deref().unwrap_or("");
    let simple = target.rsplit('.').next().unwrap_or(target);
    let what = match r.strategy {
        RepairStrategy::HashToLinkedHash => format!(
            "allocate the {simple} at {} as a Linked{simple}, which iterates in insertion order",
            place(r)
        ),
        RepairStrategy::FieldByName => format!(
            "look up by name each field the test takes from {target} by index at {}",
            place(r)
        ),
        RepairStrategy::SortFields => {
            format!("sort the result of {target} by name at {}", place(r))
        }
        RepairStrategy::ChangeContainsExactly => format!(
            "compare without order in the assertion at {} (the result of {})",
            place(r),
            r.api
        ),
        RepairStrategy::JsonAssertion => format!(
            "compare JSON texts as JSON in {}.{}",
            r.class,
            r.method.as_deref().unwrap_or("?")
        ),
    };
    format!("{}: {what}", r.strategy.name())
}

/// The lines after a verdict's reason: the pin, the reproduce command, the repairs.
fn detail_lines(v: &IdVerdict, template: &str) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(p) = &v.pin {
        match (p.invocation, p.range) {
            (Some(k), _) => lines.push(format!(
                "Pinned: invocation {k} under seed {}{}",
                p.seed,
                p.call
                    .as_ref()
                    .map(|c| format!(": {}", c.site()))
                    .unwrap_or_default()
            )),
            (None, Some([lo, hi])) => {
                lines.push(format!(
                    "Pinned: invocations {lo}-{hi} under seed {}",
                    p.seed
                ));
                for c in &p.calls {
                    lines.push(format!("  invocation {}: {}", c.index, c.site()));
                }
            }
            (None, None) => {
                // pinned to the invocations of one site together (plan::at_site)
                if !p.calls.is_empty() {
                    lines.push(format!(
                        "Pinned: invocations {} under seed {}, at one site",
                        p.calls
                            .iter()
                            .map(|c| c.index.to_string())
                            .collect::<Vec<_>>()
                            .join(","),
                        p.seed
                    ));
                    for c in &p.calls {
                        lines.push(format!("  invocation {}: {}", c.index, c.site()));
                    }
                }
            }
        }
    }
    if let Some(r) = &v.reproduce {
        lines.push(format!("Reproduce: {}", fill_command(template, r)));
    }
    for (i, r) in v.repairs.iter().enumerate() {
        lines.push(format!("Repair {}: {}", i + 1, repair_text(r)));
    }
    if let Some(why) = &v.no_repair {
        lines.push(format!("No repair: {why}"));
    }
    lines
}

fn status_word(s: IdStatus) -> &'static str {
    match s {
        IdStatus::Id => "id",
        IdStatus::Unconfirmed => "unconfirmed",
    }
}

fn seeds_text(seeds: &[u64]) -> String {
    seeds
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

const ID_CSS: &str =
    ".card.id{border-left-color:#c62828}.card.unconfirmed{border-left-color:#757575}\
.badge.id{background:#c62828}.badge.unconfirmed{background:#757575}\
ol.repairs li{margin:.2em 0}ul.calls{font-size:.9em}";

fn html(request: &IdReportRequest) -> String {
    let o = &request.outcome;
    let module = escape_html(&request.module);
    let mut out =
        String::from("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!(
        "<title>odrust: implementation-dependent tests in {module}</title>\n<style>{CSS}{ID_CSS}</style>\n</head>\n<body>\n<header>\n"
    ));
    out.push_str(&format!(
        "<h1>odrust: implementation-dependent tests in <code>{module}</code></h1>\n"
    ));
    let found = o.tests.iter().any(|v| v.status == IdStatus::Id);
    out.push_str(&format!(
        "<p class=\"verdict {}\" id=\"verdict\">{}</p>\n<p class=\"run\">{}</p>\n</header>\n<main>\n",
        if found { "found" } else { "clean" },
        escape_html(&headline(o)),
        escape_html(&run_line(o))
    ));
    if !o.tests.is_empty() {
        out.push_str("<section id=\"tests\">\n<h2>Tests that failed under a shuffle seed</h2>\n");
        for v in &o.tests {
            out.push_str(&card(v, &request.reproduce_command));
        }
        out.push_str("</section>\n");
    }
    if !o.notes.is_empty() {
        out.push_str("<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n");
        for n in &o.notes {
            out.push_str(&format!("<li>{}</li>\n", escape_html(n)));
        }
        out.push_str("</ul>\n</section>\n");
    }
    out.push_str(GLOSSARY);
    out.push_str(&format!(
        "</main>\n<footer>odrust engine {ENGINE_VERSION}</footer>\n</body>\n</html>\n"
    ));
    out
}

fn card(v: &IdVerdict, template: &str) -> String {
    let status = status_word(v.status);
    let test = escape_html(&v.test);
    let mut out = format!(
        "<article class=\"card {status}\" data-test=\"{test}\" data-status=\"{status}\">\n<h3><span class=\"badge {status}\">{status}</span><code class=\"id\">{test}</code></h3>\n"
    );
    out.push_str(&format!(
        "<p class=\"rate\">{} ({})</p>\n<p class=\"reason\">{}</p>\n",
        escape_html(&v.rate),
        escape_html(&seeds_text(&v.failing_seeds)),
        escape_html(&v.reason)
    ));
    if let Some(p) = &v.pin {
        match (p.invocation, p.range) {
            (Some(k), _) => {
                out.push_str(&format!(
                    "<p class=\"pin\">Shuffled call: invocation {k} under seed {}",
                    p.seed
                ));
                if let Some(c) = &p.call {
                    out.push_str(&format!(": <code>{}</code>", escape_html(&c.api)));
                    if let Some(via) = &c.via {
                        out.push_str(&format!(" in <code>{}</code>", escape_html(&via.text())));
                    }
                    if let Some(at) = &c.at {
                        out.push_str(&format!(
                            " {} <code>{}</code>",
                            if c.via.is_some() { "called from" } else { "at" },
                            escape_html(&at.text())
                        ));
                    }
                    if let Some(a) = &c.alloc {
                        out.push_str(&format!(
                            " (a <code>{}</code> allocated at <code>{}</code>)",
                            escape_html(&a.kind),
                            escape_html(&a.at.text())
                        ));
                    }
                }
                out.push_str("</p>\n");
            }
            (None, Some([lo, hi])) => {
                out.push_str(&format!(
                    "<p class=\"pin\">Shuffled invocations {lo}-{hi} under seed {}</p>\n",
                    p.seed
                ));
                if !p.calls.is_empty() {
                    out.push_str("<ul class=\"calls\">\n");
                    for c in &p.calls {
                        out.push_str(&format!(
                            "<li><code>{}</code></li>\n",
                            escape_html(&format!("{}: {}", c.index, c.site()))
                        ));
                    }
                    out.push_str("</ul>\n");
                }
            }
            (None, None) => {
                if !p.calls.is_empty() {
                    out.push_str(&format!(
                        "<p class=\"pin\">Shuffled invocations at one site under seed {}</p>\n<ul class=\"calls\">\n",
                        p.seed
                    ));
                    for c in &p.calls {
                        out.push_str(&format!(
                            "<li><code>{}</code></li>\n",
                            escape_html(&format!("{}: {}", c.index, c.site()))
                        ));
                    }
                    out.push_str("</ul>\n");
                }
            }
        }
    }
    if let Some(r) = &v.reproduce {
        out.push_str(&format!(
            "<div class=\"repro\"><code>{}</code></div>\n",
            escape_html(&fill_command(template, r))
        ));
    }
    if !v.repairs.is_empty() {
        out.push_str("<p>Repairs to try (DexFix), best first:</p>\n<ol class=\"repairs\">\n");
        for r in &v.repairs {
            out.push_str(&format!("<li>{}</li>\n", escape_html(&repair_text(r))));
        }
        out.push_str("</ol>\n");
    }
    if let Some(why) = &v.no_repair {
        out.push_str(&format!(
            "<p class=\"meaning\">No repair: {}</p>\n",
            escape_html(why)
        ));
    }
    if !v.repairs.is_empty() && !v.verify_seeds.is_empty() {
        let failing = v.failing_seeds.len();
        let more = v.verify_seeds.len().saturating_sub(failing);
        out.push_str(&format!(
            "<p class=\"meaning\">A repair is verified under {} and {more} more (<code>verify_seeds</code>).</p>\n",
            if failing == 1 { "its failing seed".to_string() } else { format!("its {failing} failing seeds") }
        ));
    }
    let ids: Vec<String> = v.experiments.iter().map(usize::to_string).collect();
    out.push_str(&format!(
        "<details><summary>Evidence</summary><p>{} of its own: {}.</p></details>\n</article>\n",
        counted(ids.len(), "experiment"),
        if ids.is_empty() {
            "none".to_string()
        } else {
            ids.join(", ")
        }
    ));
    out
}

const GLOSSARY: &str = "<section id=\"glossary\">\n<h2>How to read this report</h2>\n<dl class=\"glossary\">\n\
<dt>implementation-dependent (id)</dt><dd>the test passes without shuffling and fails when JDK APIs whose order the specification leaves open (HashMap and HashSet iteration, Class.getDeclaredFields, File.list, ...) return another legal order: it depends on one JDK's implementation.</dd>\n\
<dt>seed</dt><dd>chooses the shuffled orders; the same seed shuffles the same way again.</dd>\n\
<dt>invocation</dt><dd>the calls of those APIs are counted in the test JVM (1, 2, 3, ...); odrust shuffles fewer and fewer of them until one is left whose shuffling alone fails the test. A range means the test needs several of them shuffled.</dd>\n\
<dt>unconfirmed</dt><dd>failed under a seed once, and no later run showed that the shuffle fails it.</dd>\n\
<dt>repairs</dt><dd>DexFix's strategies: HashToLinkedHash (allocate the collection as its Linked variant), FieldByName (look up by name a field taken from getDeclaredFields by index), SortFields (sort a reflective result by name), ChangeContainsExactly (assert without order), JSONAssertion (compare JSON texts as JSON).</dd>\n\
</dl>\n</section>\n";

fn xml(request: &IdReportRequest) -> String {
    let o = &request.outcome;
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    let mut write = |event: Event<'_>| writer.write_event(event).expect("writing to memory");
    write(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
    let ids = o.tests.iter().filter(|v| v.status == IdStatus::Id).count();
    let (tests, failures, skipped) = (
        o.tests.len().to_string(),
        ids.to_string(),
        (o.tests.len() - ids).to_string(),
    );
    let mut suite = BytesStart::new("testsuite");
    suite.push_attribute(("name", "odrust-id"));
    suite.push_attribute(("tests", tests.as_str()));
    suite.push_attribute(("failures", failures.as_str()));
    suite.push_attribute(("errors", "0"));
    suite.push_attribute(("skipped", skipped.as_str()));
    write(Event::Start(suite));
    for v in &o.tests {
        write(Event::Start(testcase(&v.test)));
        match v.status {
            IdStatus::Id => {
                let message = format!("implementation-dependent: {}", xml_text(&v.reason));
                let mut failure = BytesStart::new("failure");
                failure.push_attribute(("message", message.as_str()));
                failure.push_attribute(("type", "odrust.id"));
                write(Event::Start(failure));
                let mut text = xml_text(&v.rate).into_owned();
                for line in detail_lines(v, &request.reproduce_command) {
                    text.push('\n');
                    text.push_str(&xml_text(&line));
                }
                write(Event::Text(BytesText::new(&text)));
                write(Event::End(BytesEnd::new("failure")));
            }
            IdStatus::Unconfirmed => {
                let message = format!("unconfirmed: {}", xml_text(&v.reason));
                let mut skipped = BytesStart::new("skipped");
                skipped.push_attribute(("message", message.as_str()));
                write(Event::Empty(skipped));
            }
        }
        write(Event::End(BytesEnd::new("testcase")));
    }
    write(Event::End(BytesEnd::new("testsuite")));
    let mut out = String::from_utf8(writer.into_inner()).expect("the writer wrote UTF-8");
    out.push('\n');
    out
}

fn text(request: &IdReportRequest) -> String {
    let o = &request.outcome;
    let mut lines = vec![
        format!("ID tests in {}: {}", request.module, headline(o)),
        format!("  {}", run_line(o)),
    ];
    for v in &o.tests {
        // an ID test that fails only when two calls in one JVM disagree says so in its label
        let label = match (v.status, v.needs) {
            (IdStatus::Id, Some(IdNeeds::CallsToDisagree)) => "ID: CALLS DISAGREE".to_string(),
            (s, _) => status_word(s).to_uppercase(),
        };
        lines.push(format!("[{label}] {}: {}", v.test, v.rate));
        lines.push(format!("    {}", v.reason));
        lines.extend(
            detail_lines(v, &request.reproduce_command)
                .into_iter()
                .map(|l| format!("    {l}")),
        );
    }
    lines.extend(o.notes.iter().map(|n| format!("Note: {n}")));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str =
        "mvn odrust:run-order -Dodrust.order={test} -Dodrust.id.seed={seed} -Dodrust.id.only={only}";

    fn request() -> IdReportRequest {
        serde_json::from_value(serde_json::json!({
            "module": "com.acme:shop<&>",
            "reproduce_command": TEMPLATE,
            "outcome": {
                "seeds": [1, 2, 3, 4], "clean_runs": 1, "experiments": 31,
                "notes": ["1 test fails without shuffling; not ID"],
                "tests": [
                    {"test": "com.a.FooTest#pin", "status": "id", "failing_seeds": [1, 3],
                     "seeds_tried": 4, "rate": "failed under 2 of 4 seeds",
                     "pin": {"seed": 1, "invocation": 5, "range": null,
                             "call": {"index": 5, "api": "HashMap$KeySet.iterator",
                                      "at": {"class": "com.a.Foo", "method": "names", "file": "Foo.java", "line": 12},
                                      "alloc": {"type": "HashSet", "at": {"class": "com.a.Foo", "method": "<init>", "file": "Foo.java", "line": 4}}},
                             "calls": []},
                     "reason": "fails alone under seed 1 when only invocation 5 is shuffled <x>",
                     "reproduce": {"test": "com.a.FooTest#pin", "seed": 1, "only": [[5, 5]]},
                     "repairs": [
                        {"strategy": "HashToLinkedHash", "class": "com.a.Foo", "method": "<init>", "file": "Foo.java", "line": 4, "target": "HashSet", "api": "HashMap$KeySet.iterator"},
                        {"strategy": "ChangeContainsExactly", "class": "com.a.Foo", "method": "names", "file": "Foo.java", "line": 12, "target": null, "api": "HashMap$KeySet.iterator"}],
                     "no_repair": null, "verify_seeds": [1, 3, 99], "experiments": [6, 7, 8]},
                    {"test": "com.a.FooTest#two", "status": "id", "failing_seeds": [1],
                     "seeds_tried": 4, "rate": "failed under 1 of 4 seeds",
                     "pin": {"seed": 1, "invocation": null, "range": [6, 8], "call": null,
                             "calls": [{"index": 6, "api": "File.list", "at": null, "alloc": null}]},
                     "reason": "needs both halves", "reproduce": {"test": "com.a.FooTest#two", "seed": 1, "only": []},
                     "repairs": [], "no_repair": "not pinned to one call", "verify_seeds": [], "experiments": []},
                    {"test": "com.a.OnceTest#o", "status": "unconfirmed", "failing_seeds": [3],
                     "seeds_tried": 4, "rate": "failed under 1 of 4 seeds", "pin": null,
                     "reason": "failed once under seed 3, not again", "reproduce": null, "repairs": [],
                     "no_repair": "not confirmed", "verify_seeds": [3], "experiments": [9, 10]}
                ]}
        }))
        .unwrap()
    }

    #[test]
    fn commands_are_filled_and_an_empty_only_is_left_out() {
        let r = |only: Vec<[u64; 2]>| Reproduce {
            test: "p.T#t".into(),
            seed: 7,
            only,
        };
        assert_eq!(
            fill_command(TEMPLATE, &r(vec![[5, 5]])),
            "mvn odrust:run-order -Dodrust.order=p.T#t -Dodrust.id.seed=7 -Dodrust.id.only=5"
        );
        assert_eq!(
            fill_command(TEMPLATE, &r(vec![[3, 7], [9, 9]])),
            "mvn odrust:run-order -Dodrust.order=p.T#t -Dodrust.id.seed=7 -Dodrust.id.only=3-7,9"
        );
        assert_eq!(
            fill_command(TEMPLATE, &r(vec![])),
            "mvn odrust:run-order -Dodrust.order=p.T#t -Dodrust.id.seed=7"
        );
        assert_eq!(
            fill_command("-Dodrust.id.only={only} mvn {test}", &r(vec![])),
            "mvn p.T#t"
        );
        let kotlin = Reproduce {
            test: "p.T#it's two words".into(),
            ..r(vec![])
        };
        assert_eq!(
            fill_command(
                "mvn x -Dodrust.order='{test}' -Dodrust.id.seed={seed}",
                &kotlin
            ),
            "mvn x -Dodrust.order='p.T#it'\\''s two words' -Dodrust.id.seed=7"
        );
    }

    #[test]
    fn html_has_a_card_per_test_with_pin_reproduce_and_repairs() {
        let html = render_id(&request()).html;
        assert!(html.starts_with("<!doctype html>"), "{html}");
        assert!(html.contains("implementation-dependent tests in com.acme:shop&lt;&amp;&gt;"));
        assert!(
            html.contains("Found 2 implementation-dependent tests under 4 seeds (1 pinned to one shuffled call); 1 more test failed under a seed once but not again (unconfirmed)."),
            "{html}"
        );
        assert!(html.contains("seeds 1, 2, 3, 4 \u{b7} 1 clean run \u{b7} 31 experiments"));
        assert_eq!(html.matches("<article class=\"card ").count(), 3);
        assert!(html.contains("<article class=\"card unconfirmed\" data-test=\"com.a.OnceTest#o\""));
        assert!(html.contains("shuffled &lt;x&gt;"), "{html}");
        assert!(html.contains("-Dodrust.id.only=5</code>"), "{html}");
        assert!(html.contains("-Dodrust.id.seed=1</code>"), "{html}");
        assert!(
            html.contains("HashToLinkedHash: allocate the HashSet at com.a.Foo.&lt;init&gt;(Foo.java:4) as a LinkedHashSet"),
            "{html}"
        );
        assert!(
            html.contains("Shuffled invocations 6-8 under seed 1"),
            "{html}"
        );
        assert!(html.contains("1 test fails without shuffling"), "{html}");
        assert!(
            !html.contains("<script") && !html.contains("http"),
            "{html}"
        );
    }

    #[test]
    fn xml_fails_id_tests_and_skips_unconfirmed_ones() {
        let xml = render_id(&request()).xml;
        assert!(
            xml.contains(
                r#"<testsuite name="odrust-id" tests="3" failures="2" errors="0" skipped="1">"#
            ),
            "{xml}"
        );
        assert!(xml.contains(r#"<testcase classname="com.a.FooTest" name="pin" time="0">"#));
        assert!(
            xml.contains(r#"<failure message="implementation-dependent: fails alone under seed 1 when only invocation 5 is shuffled &lt;x&gt;" type="odrust.id">"#),
            "{xml}"
        );
        assert!(xml.contains("Pinned: invocation 5 under seed 1: HashMap$KeySet.iterator at com.a.Foo.names(Foo.java:12) (a HashSet allocated at com.a.Foo.&lt;init&gt;(Foo.java:4))"), "{xml}");
        assert!(xml.contains("Reproduce: mvn odrust:run-order -Dodrust.order=com.a.FooTest#pin -Dodrust.id.seed=1 -Dodrust.id.only=5"), "{xml}");
        assert!(
            xml.contains(
                r#"<skipped message="unconfirmed: failed once under seed 3, not again"/>"#
            ),
            "{xml}"
        );
        let mut reader = quick_xml::Reader::from_str(&xml);
        while reader.read_event().unwrap() != Event::Eof {}
    }

    #[test]
    fn console_text_and_an_empty_outcome() {
        let text = render_id(&request()).text;
        assert!(
            text.starts_with("ID tests in com.acme:shop<&>: Found 2"),
            "{text}"
        );
        assert!(
            text.contains("\n[ID] com.a.FooTest#pin: failed under 2 of 4 seeds\n"),
            "{text}"
        );
        assert!(
            text.contains("\n    Repair 2: ChangeContainsExactly"),
            "{text}"
        );
        assert!(text.contains("\n[UNCONFIRMED] com.a.OnceTest#o"), "{text}");
        let mut disagree = request();
        disagree.outcome.tests[0].needs = Some(IdNeeds::CallsToDisagree);
        let text2 = render_id(&disagree).text;
        assert!(
            text2.contains("\n[ID: CALLS DISAGREE] com.a.FooTest#pin: failed under 2 of 4 seeds\n"),
            "{text2}"
        );
        assert!(
            text.ends_with("Note: 1 test fails without shuffling; not ID\n"),
            "{text}"
        );
        let mut r = request();
        r.outcome.tests.clear();
        let out = render_id(&r);
        assert!(
            out.html
                .contains("No implementation-dependent test was confirmed under 4 seeds."),
            "{}",
            out.html
        );
        assert!(out.xml.contains(r#"tests="0" failures="0""#), "{}", out.xml);
    }
}
