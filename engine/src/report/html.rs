//! The HTML page of a detection report: a headline verdict and the run's facts, one card per
//! flaky test (its dependency drawn as an order, the message, the flake rate with a bar and what
//! it means, a reproduce command with a copy button, links to the order files), the failing tests,
//! the notes and a short glossary. One self-contained file: inline CSS and one inline script (copy
//! buttons), no external resource; readable in a narrow window and printable.

use super::document::{header_line, nothing_found, Pairs, Report, ReportEntry};
use super::html_causes::{cause_card, CSS as CAUSE_CSS};
use super::text::{counted, escape_html, percent};
use crate::model::kind::{FlakyKind, OdRole};
use crate::ENGINE_VERSION;

pub(super) const CSS: &str = "*{box-sizing:border-box}\
body{font-family:system-ui,sans-serif;margin:0 auto;padding:1em;max-width:64rem;color:#222;line-height:1.4;\
overflow-wrap:anywhere}\
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid #ddd}\
h3{font-size:1em;margin:0 0 .4em}\
code{font-family:ui-monospace,monospace;font-size:.9em;overflow-wrap:anywhere;word-break:break-word}\
.verdict{font-size:1.15em;font-weight:600;padding:.5em .8em;border-radius:6px;margin:.6em 0}\
.verdict.found{background:#fdecea;color:#8a1c10}.verdict.clean{background:#e8f5e9;color:#1b5e20}\
.run{color:#555;font-size:.9em}\
.card{border:1px solid #ddd;border-left:6px solid #999;border-radius:6px;padding:.8em 1em;margin:1em 0;break-inside:avoid}\
.card.victim{border-left-color:#c62828}.card.brittle{border-left-color:#ef6c00}.card.nod{border-left-color:#757575}\
.badge{display:inline-block;font-size:.75em;text-transform:uppercase;letter-spacing:.05em;padding:.1em .5em;\
border-radius:4px;color:#fff;background:#757575;margin-right:.4em;vertical-align:middle}\
.badge.victim{background:#c62828}.badge.brittle{background:#ef6c00}\
.chain{display:flex;flex-wrap:wrap;align-items:center;gap:.3em;margin:.5em 0}\
.chain .step{border:1px solid #ccc;border-radius:4px;padding:.15em .4em;background:#fafafa}\
.chain .step.culprit{border-color:#c62828}.chain .step.cleaner{border-color:#2e7d32;border-style:dashed}\
.chain .step.subject{font-weight:600}.chain .arrow{color:#888}\
.message{background:#f6f6f6;padding:.4em .6em;border-radius:4px;overflow-wrap:anywhere}\
.bar{height:.7em;background:#eee;border-radius:4px;overflow:hidden;max-width:24rem}\
.bar span{display:block;height:100%;background:#c62828}\
.coverage .bar span{background:#1565c0}\
.repro{display:flex;flex-wrap:wrap;gap:.5em;align-items:center;margin:.5em 0}\
.repro code{background:#f6f6f6;padding:.3em .5em;border-radius:4px;flex:1 1 20rem}\
button.copy{font:inherit;font-size:.85em;padding:.25em .7em;border:1px solid #888;border-radius:4px;background:#fff;cursor:pointer}\
.orders,.meaning,.depends{font-size:.9em;color:#444}\
dl.glossary dt{font-weight:600;margin-top:.5em}dl.glossary dd{margin-left:1em}\
footer{margin-top:2em;color:#888;font-size:.85em}\
@media print{button.copy{display:none}.card{border-color:#999}body{max-width:none}}";

/// Copy buttons: the command of the element named by `data-copy`, to the clipboard (a selection
/// where the clipboard is not available, e.g. a file opened without a secure context). Then it
/// marks the page ready and says whether it is wider than the window (`data-overflow`), which the
/// browser test checks in a narrow window.
const SCRIPT: &str = "document.querySelectorAll('button.copy').forEach(function(b){\
b.addEventListener('click',function(){var c=document.getElementById(b.dataset.copy);if(!c)return;\
var t=c.textContent;var done=function(){b.textContent='Copied';setTimeout(function(){b.textContent='Copy'},1500)};\
if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(t).then(done)}\
else{var r=document.createRange();r.selectNodeContents(c);var s=window.getSelection();s.removeAllRanges();s.addRange(r);\
try{document.execCommand('copy');done()}catch(e){}}})});\
document.body.dataset.overflow=String(document.documentElement.scrollWidth>window.innerWidth+1);\
document.body.dataset.ready='1';";

/// The HTML page of `report`.
pub(super) fn page(report: &Report) -> String {
    let mut out = String::new();
    let module = escape_html(&report.module);
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!(
        "<title>odrust: order-dependent tests in {module}</title>\n<style>{CSS}{CAUSE_CSS}</style>\n</head>\n<body>\n<header>\n"
    ));
    out.push_str(&format!(
        "<h1>odrust: order-dependent tests in <code>{module}</code></h1>\n"
    ));
    let (class, verdict) = verdict(report);
    out.push_str(&format!(
        "<p class=\"verdict {class}\" id=\"verdict\">{}</p>\n",
        escape_html(&verdict)
    ));
    out.push_str(&format!(
        "<p class=\"run\">{}</p>\n",
        escape_html(&header_line(report))
    ));
    if let Some(p) = report.pairs.filter(|p| p.total > 0) {
        out.push_str(&coverage(p));
    }
    if let Some(c) = &report.coverage {
        out.push_str(&format!(
            "<p class=\"run\" id=\"covered\">Covered: {}.</p>\n",
            escape_html(&c.text)
        ));
    }
    if let Some(time) = &report.time {
        out.push_str(&format!(
            "<p class=\"run\" id=\"time\">Time: {}</p>\n",
            escape_html(&time.text)
        ));
    }
    out.push_str("</header>\n<main>\n");
    let (od, nod): (Vec<&ReportEntry>, Vec<&ReportEntry>) = report.flaky.iter().partition(|e| {
        e.finding.kind.role().is_some() || e.finding.kind == FlakyKind::Unclassified
    });
    if !od.is_empty() {
        out.push_str(&od_section(report, &od));
    }
    if !nod.is_empty() {
        out.push_str(
            "<section id=\"nod\">\n<h2>Flaky tests that do not depend on the order</h2>\n",
        );
        out.push_str("<p>These failed and passed in the same order: their flakiness is not about which tests ran before them (time, randomness, concurrency, the machine).</p>\n");
        for (i, entry) in nod.iter().enumerate() {
            out.push_str(&card(entry, od.len() + i));
        }
        out.push_str("</section>\n");
    }
    if !report.failing.is_empty() {
        out.push_str("<section id=\"failing\">\n<h2>Failing tests</h2>\n<p>These tests failed in every run of the original order and were not found flaky in the other orders that ran.</p>\n<ul>\n");
        for failing in &report.failing {
            out.push_str(&format!(
                "<li><code>{}</code>{}</li>\n",
                escape_html(&failing.test),
                failing
                    .message
                    .as_deref()
                    .map(|m| format!(": {}", escape_html(m)))
                    .unwrap_or_default()
            ));
        }
        out.push_str("</ul>\n</section>\n");
    }
    if !report.notes.is_empty() {
        out.push_str("<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n");
        for note in &report.notes {
            out.push_str(&format!("<li>{}</li>\n", escape_html(note)));
        }
        out.push_str("</ul>\n</section>\n");
    }
    out.push_str(GLOSSARY);
    out.push_str(&format!(
        "</main>\n<footer>odrust engine {ENGINE_VERSION}, report schema {}</footer>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        report.schema_version
    ));
    out
}

/// The order-dependent tests: a card per cause with its tests' cards inside, then the tests in
/// no cause (not classified yet).
fn od_section(report: &Report, od: &[&ReportEntry]) -> String {
    let mut out = String::from("<section id=\"od\">\n<h2>Order-dependent tests</h2>\n");
    if report.causes.len() > 1 || report.causes.iter().any(|c| c.tests.len() > 1) {
        out.push_str(&format!(
            "<p>{} from {}: tests that fail for the same reason share one card, one diagnosis and one fix.</p>\n",
            counted(od.len(), "order-dependent test"),
            counted(report.causes.len(), "cause")
        ));
    }
    let mut shown = vec![false; od.len()];
    for (c, cause) in report.causes.iter().enumerate() {
        let mut members = String::new();
        for test in &cause.tests {
            if let Some(i) = od.iter().position(|e| &e.finding.test == test) {
                members.push_str(&card(od[i], i));
                shown[i] = true;
            }
        }
        out.push_str(&cause_card(cause, &members, c));
    }
    for (i, entry) in od.iter().enumerate() {
        if !shown[i] {
            out.push_str(&card(entry, i));
        }
    }
    out.push_str("</section>\n");
    out
}

/// The headline: what was found, in one sentence, and its CSS class.
fn verdict(report: &Report) -> (&'static str, String) {
    let count = |kind: FlakyKind| {
        report
            .flaky
            .iter()
            .filter(|e| e.finding.kind == kind)
            .count()
    };
    let (victims, brittles, nod) = (
        count(FlakyKind::VICTIM),
        count(FlakyKind::BRITTLE),
        count(FlakyKind::Nod),
    );
    let unclassified = count(FlakyKind::Unclassified);
    if report.flaky.is_empty() {
        return ("clean", nothing_found(report));
    }
    let od = victims + brittles + unclassified;
    let mut parts = Vec::new();
    if od > 0 {
        let mut kinds = Vec::new();
        if victims > 0 {
            kinds.push(counted(victims, "victim"));
        }
        if brittles > 0 {
            kinds.push(counted(brittles, "brittle"));
        }
        if unclassified > 0 {
            kinds.push(format!("{unclassified} not classified yet"));
        }
        parts.push(format!(
            "{} ({})",
            counted(od, "order-dependent test"),
            kinds.join(", ")
        ));
    }
    if nod > 0 {
        parts.push(if nod == 1 {
            "1 flaky test that does not depend on the order".to_string()
        } else {
            format!("{nod} flaky tests that do not depend on the order")
        });
    }
    ("found", format!("Found {}.", parts.join(" and ")))
}

/// The pair coverage of a systematic schedule, as a bar.
fn coverage(p: Pairs) -> String {
    let share = p.covered as f64 / p.total as f64;
    format!(
        "<div class=\"coverage\"><div class=\"bar\" title=\"pair coverage\"><span style=\"width:{:.1}%\"></span></div>\
<p class=\"run\">{} of the {} ordered test pairs the schedule covers ran one right after the other ({})</p></div>\n",
        share * 100.0,
        p.covered,
        p.total,
        percent(share)
    )
}

/// One flaky test's card; `n` numbers its elements.
fn card(entry: &ReportEntry, n: usize) -> String {
    let f = &entry.finding;
    let kind = f.kind.name();
    let mut out = format!(
        "<article class=\"card {kind}\" data-test=\"{}\" data-kind=\"{kind}\">\n<h3><span class=\"badge {kind}\">{kind}</span><code class=\"id\">{}</code></h3>\n",
        escape_html(&f.test),
        escape_html(&f.test)
    );
    if let Some(m) = f.message.as_deref().filter(|m| !m.is_empty()) {
        out.push_str(&format!("<p class=\"message\">{}</p>\n", escape_html(m)));
    }
    out.push_str(&chain(entry));
    let lines = entry.dependency_lines();
    if !lines.is_empty() {
        out.push_str("<ul class=\"depends\">\n");
        for l in &lines {
            out.push_str(&format!("<li>{}</li>\n", escape_html(l)));
        }
        out.push_str("</ul>\n");
    }
    if let (Some(text), Some(rate)) = (entry.flake_rate_text(), f.flake_rate.as_ref()) {
        out.push_str(&format!(
            "<div class=\"rate\"><div class=\"bar\" title=\"share of class-compatible orders in which it fails\"><span style=\"width:{:.1}%\"></span></div>\
<p>Flake rate: {}</p><p class=\"meaning\">{}</p></div>\n",
            rate.class_compatible * 100.0,
            escape_html(&text),
            escape_html(&meaning(rate.class_compatible, rate.incomplete.is_some()))
        ));
    }
    if let Some(cmd) = &entry.reproduce {
        out.push_str(&format!(
            "<div class=\"repro\"><code id=\"cmd-{n}\">{}</code><button type=\"button\" class=\"copy\" data-copy=\"cmd-{n}\">Copy</button></div>\n",
            escape_html(cmd)
        ));
    }
    let link = |label: &str, path: &Option<String>| {
        path.as_ref().map(|p| {
            format!(
                "{label}: <a href=\"{}\"><code>{}</code></a>",
                escape_html(&order_href(p)),
                escape_html(p)
            )
        })
    };
    let links: Vec<String> = [
        link("Failing order", &entry.failing_order),
        link("Passing order", &entry.passing_order),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !links.is_empty() {
        out.push_str(&format!(
            "<p class=\"orders\">{}</p>\n",
            links.join(" \u{b7} ")
        ));
    }
    let cost = if f.minimize_experiments > 0 {
        format!(
            ". Explaining it took {}{}.",
            counted(f.minimize_experiments as usize, "experiment"),
            if f.minimize_complete {
                ""
            } else {
                " and did not finish"
            }
        )
    } else {
        String::new()
    };
    out.push_str(&format!(
        "<details><summary>Evidence</summary><p>{}{}</p></details>\n</article>\n",
        escape_html(&f.evidence),
        escape_html(&cost)
    ));
    out
}

/// The failing order drawn: polluter → [cleaner] → victim, or what a brittle needs.
fn chain(entry: &ReportEntry) -> String {
    let f = &entry.finding;
    let step = |class: &str, label: &str, ids: &[String]| {
        format!(
            "<span class=\"step {class}\" title=\"{label}\"><code>{}</code></span>",
            escape_html(&ids.join(" + "))
        )
    };
    let arrow = "<span class=\"arrow\">\u{2192}</span>";
    let subject = step("subject", f.kind.name(), std::slice::from_ref(&f.test));
    match f.kind.role() {
        Some(OdRole::Victim) => {
            let Some(first) = f.polluters.first() else {
                return String::new();
            };
            let mut out = format!(
                "<div class=\"chain\" aria-label=\"a failing order\">{} {arrow} {subject} <span class=\"meaning\">fails</span>",
                step("culprit", "polluter", first)
            );
            if let Some(cleaner) = f.cleaners.get(&first[0]).and_then(|c| c.first()) {
                out.push_str(&format!(
                    "; <span class=\"meaning\">but</span> {} {arrow} {} {arrow} {subject} <span class=\"meaning\">passes</span>",
                    step("culprit", "polluter", first),
                    step("cleaner", "cleaner", std::slice::from_ref(cleaner))
                ));
            }
            out.push_str("</div>\n");
            out
        }
        Some(OdRole::Brittle) => f.state_setters.first().map_or_else(String::new, |setter| {
            format!(
                "<div class=\"chain\" aria-label=\"a passing order\">{} {arrow} {subject} <span class=\"meaning\">passes; alone or first it fails</span></div>\n",
                step("culprit", "state-setter", setter)
            )
        }),
        None => String::new(),
    }
}

/// What a class-compatible flake rate means for a team.
fn meaning(rate: f64, incomplete: bool) -> String {
    let prefix = if incomplete { "At most about" } else { "About" };
    if rate <= 0.0 {
        return "It failed only in orders that class-compatible runs (what Surefire produces) never make.".into();
    }
    let per = (1.0 / rate).round().max(1.0);
    format!(
        "{prefix} 1 in {per} shuffled runs of this module (test classes in random order and the tests of each class too; Surefire's runOrder=random shuffles only the classes, which can give another rate) would fail it."
    )
}

/// The link of an order file from report.html, which sits beside `orders/`.
fn order_href(path: &str) -> String {
    match path.rfind("orders/") {
        Some(i) => path[i..].to_string(),
        None => path.to_string(),
    }
}

const GLOSSARY: &str = "<section id=\"glossary\">\n<h2>How to read this report</h2>\n<dl class=\"glossary\">\n\
<dt>victim</dt><dd>passes alone and in the original order, fails after a <em>polluter</em> ran before it in the same JVM.</dd>\n\
<dt>brittle</dt><dd>fails alone; passes only when a <em>state-setter</em> ran before it.</dd>\n\
<dt>cleaner</dt><dd>a test that, run between a polluter and its victim, makes the victim pass again.</dd>\n\
<dt>polluter group</dt><dd>no single test pollutes the victim, but these tests together do.</dd>\n\
<dt>flake rate</dt><dd>the share of random orders in which the test fails: of all orders of the module's tests, of class-compatible orders (each class's tests together, what Surefire produces), and of reverses of passing orders. <em>formula</em>: a closed formula for the polluters, cleaners or state-setters found (special-case-1: the tests involved are in one class and the polluters share their cleaners; special-case-2: in several classes, shared cleaners; state-setters: a brittle); <em>exact</em>: counted over every order; <em>sampled</em>: estimated from random orders, with a 95% interval. A rate marked incomplete comes from an explanation that did not finish: it counts only what was found, and says which bound it is.</dd>\n\
<dt>not depending on the order</dt><dd>failed and passed in the same order: flaky for another reason.</dd>\n\
</dl>\n</section>\n";
