//! The report of `odrust:audit` (`audit_report`): an [`AuditOutcome`] as one self-contained HTML
//! page (inline CSS, no script) and console lines (docs/audit.md).

use serde::{Deserialize, Serialize};

use super::html::CSS;
use super::text::{counted, escape_html};
use crate::audit::shapes::{ChangedField, LatentFix, LatentPolluter, LeftBehind, NonIdempotent};
use crate::audit::AuditOutcome;
use crate::ENGINE_VERSION;

/// Request of `audit_report`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditReportRequest {
    /// `groupId:artifactId` of the module.
    pub module: String,
    /// How many tests were audited.
    pub tests: usize,
    /// What `audit_next` ended with.
    pub outcome: AuditOutcome,
    /// The command that runs an order, with `{order}` to fill (comma-separated test ids).
    pub reproduce_command: String,
}

/// Response of `audit_report`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuditRendered {
    /// The HTML page.
    pub html: String,
    /// Console lines, newline-separated.
    pub text: String,
}

/// Renders an audit outcome.
pub fn render_audit(request: &AuditReportRequest) -> AuditRendered {
    AuditRendered {
        html: html(request),
        text: text(request),
    }
}

/// The reproduce command of `order`.
pub fn reproduce(template: &str, order: &[String]) -> String {
    template.replace("{order}", &order.join(","))
}

fn headline(r: &AuditReportRequest) -> String {
    let o = &r.outcome;
    let high = o
        .latent_polluters
        .iter()
        .filter(|p| p.rank == "high")
        .count();
    let mut line = format!(
        "{}: {}, {} ({} read by another test)",
        counted(r.tests, "test"),
        counted_nio(o.non_idempotent.len()),
        counted(o.latent_polluters.len(), "latent polluter"),
        high
    );
    let threads = o.left_behind.iter().filter(|l| l.kind == "thread").count();
    let files = o.left_behind.len() - threads;
    if threads > 0 {
        line.push_str(&format!(", {} left running", counted(threads, "thread")));
    }
    if files > 0 {
        line.push_str(&format!(", {} left behind", counted(files, "file")));
    }
    line
}

fn counted_nio(n: usize) -> String {
    format!("{n} non-idempotent")
}

fn field_line(f: &ChangedField) -> String {
    let what = if f.pseudo { "JDK state" } else { "field" };
    let mut line = format!("{what} {}: {} -> {}", f.field, f.before, f.after);
    let deeper: Vec<&str> = f
        .paths
        .iter()
        .map(String::as_str)
        .filter(|p| *p != f.field)
        .collect();
    if !deeper.is_empty() {
        line.push_str(&format!(" (at {})", deeper.join(", ")));
    }
    if f.cache_only {
        line.push_str(" (only entries of a cache changed)");
    }
    if f.since_initialized {
        line.push_str(" (against its state right after its class was initialized)");
    }
    line
}

fn nio_lines(n: &NonIdempotent, template: &str) -> Vec<String> {
    let level = if n.level == "class" {
        "fails when its class runs again in the same JVM"
    } else {
        "fails when it runs again in the same JVM"
    };
    let mut out = vec![format!(
        "NON-IDEMPOTENT  {}: passes once, {level}{}",
        n.test,
        n.message
            .as_deref()
            .map(|m| format!(": {}", first_line(m)))
            .unwrap_or_default()
    )];
    if !n.others.is_empty() {
        out.push(format!(
            "    and the other {} of its class fail on its second run too: {}",
            counted(n.others.len(), "test"),
            n.others
                .iter()
                .map(|t| t.rsplit('#').next().unwrap_or(t))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if n.fields.is_empty() {
        out.push(
            "    no captured static field differs before its second run (state outside the captured classes?)"
                .to_string(),
        );
    }
    for f in &n.fields {
        out.push(format!("    leaves {}", field_line(f)));
    }
    out.push(format!("    reproduce: {}", reproduce(template, &n.order)));
    out
}

fn polluter_line(p: &LatentPolluter) -> String {
    let readers = match p.rank.as_str() {
        "high" => format!(
            "read by {}: {}",
            if p.readers.len() == 1 {
                "1 other test or test class".to_string()
            } else {
                format!("{} other tests or test classes", p.readers.len())
            },
            p.readers
                .iter()
                .take(3)
                .map(|c| c.rsplit('.').next().unwrap_or(c))
                .collect::<Vec<_>>()
                .join(", ")
                + if p.readers.len() > 3 { ", ..." } else { "" }
        ),
        "low" => "no other test reads it".to_string(),
        _ => "who reads it is not known".to_string(),
    };
    let also = if p.also_changed_by.is_empty() {
        String::new()
    } else {
        format!("; changed before it by {}", p.also_changed_by.join(", "))
    };
    format!(
        "LATENT POLLUTER {} [{}] leaves {}; {readers}{also}",
        p.test,
        p.rank,
        field_line(&p.field)
    )
}

fn left_line(l: &LeftBehind) -> String {
    if l.kind == "thread" {
        format!(
            "LEFT BEHIND     {} leaves a {} thread running: {}",
            l.test, l.detail, l.name
        )
    } else {
        let dir = if l.detail == "user.dir" {
            "the working directory"
        } else {
            "the temporary directory"
        };
        format!(
            "LEFT BEHIND     {} leaves a file in {dir}: {}",
            l.test, l.name
        )
    }
}

/// A latent polluter's teardown patch, or why it has none.
fn fix_line(f: &LatentFix) -> String {
    match (f.status.as_str(), &f.patch) {
        ("patched", Some(patch)) => format!(
            "patch: {patch} (its teardown runs `{}`, verified in experiment{} {}){}",
            f.statements.join(" "),
            if f.experiments.len() == 1 { "" } else { "s" },
            f.experiments
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            if f.makes_pass.is_empty() {
                String::new()
            } else {
                format!(
                    "; with it, {} that failed in the original order pass{}",
                    f.makes_pass.join(", "),
                    if f.makes_pass.len() == 1 { "es" } else { "" }
                )
            } + &f
                .apply
                .as_deref()
                .map(|a| format!("; apply it with `{a}`"))
                .unwrap_or_default()
        ),
        ("patched", None) => format!(
            "patched in experiments {:?}, but no patch file was written",
            f.experiments
        ),
        _ => format!(
            "no patch: {}",
            f.reason.as_deref().unwrap_or("no candidate passed")
        ),
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

fn text(r: &AuditReportRequest) -> String {
    let o = &r.outcome;
    let mut lines = vec![format!("odrust audit: {}", headline(r))];
    for n in &o.non_idempotent {
        lines.extend(nio_lines(n, &r.reproduce_command));
    }
    for p in &o.latent_polluters {
        lines.push(polluter_line(p));
        if let Some(f) = &p.fix {
            lines.push(format!("  {}", fix_line(f)));
        }
    }
    for l in &o.left_behind {
        lines.push(left_line(l));
    }
    for c in &o.not_confirmed {
        lines.push(format!("not confirmed: {c}"));
    }
    if !o.failing.is_empty() {
        lines.push(format!(
            "{} failed on their first run and were not audited for idempotence: {}",
            counted(o.failing.len(), "test"),
            o.failing
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
                + if o.failing.len() > 5 { ", ..." } else { "" }
        ));
    }
    for n in &o.notes {
        lines.push(format!("note: {n}"));
    }
    lines.push(format!("{} test JVMs", o.jvms));
    lines.join("\n")
}

const AUDIT_CSS: &str = ".card.nio{border-left-color:#c62828}.card.high{border-left-color:#ef6c00}\
.card.low,.card.unknown{border-left-color:#757575}.badge.nio{background:#c62828}\
.badge.high{background:#ef6c00}.badge.low,.badge.unknown{background:#757575}";

fn html(r: &AuditReportRequest) -> String {
    let o = &r.outcome;
    let module = escape_html(&r.module);
    let mut out =
        String::from("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str(&format!(
        "<title>odrust audit: {module}</title>\n<style>{CSS}{AUDIT_CSS}</style>\n</head>\n<body>\n<header>\n<h1>odrust audit: <code>{module}</code></h1>\n"
    ));
    let found =
        !o.non_idempotent.is_empty() || !o.latent_polluters.is_empty() || !o.left_behind.is_empty();
    out.push_str(&format!(
        "<p class=\"verdict {}\" id=\"verdict\">{}</p>\n<p class=\"run\">{} test JVMs</p>\n</header>\n<main>\n",
        if found { "found" } else { "clean" },
        escape_html(&headline(r)),
        o.jvms
    ));
    if !o.non_idempotent.is_empty() {
        out.push_str("<section id=\"non-idempotent\">\n<h2>Non-idempotent tests: they fail when run again in the same JVM</h2>\n");
        for n in &o.non_idempotent {
            let test = escape_html(&n.test);
            out.push_str(&format!(
                "<article class=\"card nio\" data-test=\"{test}\" data-kind=\"non-idempotent\">\n<h3><span class=\"badge nio\">non-idempotent ({})</span><code class=\"id\">{test}</code></h3>\n",
                escape_html(&n.level)
            ));
            if let Some(m) = &n.message {
                out.push_str(&format!(
                    "<p>second run: <code>{}</code></p>\n",
                    escape_html(first_line(m))
                ));
            }
            out.push_str("<ul>\n");
            for f in &n.fields {
                out.push_str(&format!(
                    "<li>leaves {}</li>\n",
                    escape_html(&field_line(f))
                ));
            }
            out.push_str(&format!(
                "</ul>\n<p>reproduce: <code>{}</code></p>\n</article>\n",
                escape_html(&reproduce(&r.reproduce_command, &n.order))
            ));
        }
        out.push_str("</section>\n");
    }
    if !o.latent_polluters.is_empty() {
        out.push_str("<section id=\"latent-polluters\">\n<h2>Latent polluters: static state left changed</h2>\n");
        for p in &o.latent_polluters {
            let test = escape_html(&p.test);
            let rank = escape_html(&p.rank);
            out.push_str(&format!(
                "<article class=\"card {rank}\" data-test=\"{test}\" data-kind=\"latent-polluter\" data-field=\"{}\">\n<h3><span class=\"badge {rank}\">{rank}</span><code class=\"id\">{test}</code></h3>\n<p>{}</p>\n",
                escape_html(&p.field.field),
                escape_html(&polluter_line(p))
            ));
            if !p.also_changed_by.is_empty() {
                out.push_str(&format!(
                    "<p>also changed earlier by: {}</p>\n",
                    escape_html(&p.also_changed_by.join(", "))
                ));
            }
            if let Some(f) = &p.fix {
                out.push_str(&format!(
                    "<p class=\"fix {}\">{}</p>\n",
                    escape_html(&f.status),
                    escape_html(&fix_line(f))
                ));
                for t in &f.tried {
                    out.push_str(&format!(
                        "<p class=\"tried\">tried: {}</p>\n",
                        escape_html(t)
                    ));
                }
            }
            out.push_str("</article>\n");
        }
        out.push_str("</section>\n");
    }
    if !o.left_behind.is_empty() {
        out.push_str("<section id=\"left-behind\">\n<h2>Threads left running, files left behind</h2>\n<ul>\n");
        for l in &o.left_behind {
            out.push_str(&format!(
                "<li data-test=\"{}\" data-kind=\"{}\">{}</li>\n",
                escape_html(&l.test),
                escape_html(&l.kind),
                escape_html(left_line(l).trim_start_matches("LEFT BEHIND").trim())
            ));
        }
        out.push_str("</ul>\n</section>\n");
    }
    let notes: Vec<String> = o
        .not_confirmed
        .iter()
        .map(|c| format!("not confirmed: {c}"))
        .chain(o.notes.iter().cloned())
        .collect();
    if !notes.is_empty() {
        out.push_str("<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n");
        for n in notes {
            out.push_str(&format!("<li>{}</li>\n", escape_html(&n)));
        }
        out.push_str("</ul>\n</section>\n");
    }
    out.push_str(&format!(
        "</main>\n<footer>odrust engine {ENGINE_VERSION}</footer>\n</body>\n</html>\n"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_console_names_each_finding_with_its_field_and_reproduce_command() {
        let outcome: AuditOutcome = serde_json::from_value(serde_json::json!({
            "non_idempotent": [{"test": "p.A#counts", "level": "test", "first": "pass", "second": "fail",
                "message": "expected 1 but was 2\n\tat p.A", "order": ["p.A#counts", "p.A#counts"],
                "fields": [{"field": "p.A.count", "pseudo": false, "before": "0", "after": "1", "paths": ["p.A.count"]}],
                "experiments": [1, 2]}],
            "latent_polluters": [{"test": "p.B#sets", "class": "p.B",
                "field": {"field": "p.Config.mode", "pseudo": false, "before": "SLOW", "after": "FAST", "paths": []},
                "readers": ["p.D"], "rank": "high", "experiments": [4, 5],
                "fix": {"status": "patched", "statements": ["p.Config.mode = p.Mode.SLOW;"], "experiments": [7],
                    "tried": ["p.Config.reset();: experiment 6: p.Config.mode still differs after the test"],
                    "patch": "target/odrust/audit/fix-1.patch", "apply": "git apply target/odrust/audit/fix-1.patch"}}],
            "left_behind": [{"test": "p.W#starts", "class": "p.W", "kind": "thread", "name": "worker-1",
                "detail": "daemon", "experiments": [4, 5]}],
            "not_confirmed": [], "failing": [], "jvms": 5, "notes": []
        }))
        .unwrap();
        let r = render_audit(&AuditReportRequest {
            module: "g:a".to_string(),
            tests: 4,
            outcome,
            reproduce_command: "mvn odrust:run-order -Dodrust.order={order}".to_string(),
        });
        assert!(r.text.contains("NON-IDEMPOTENT  p.A#counts: passes once, fails when it runs again in the same JVM: expected 1 but was 2\n"), "{}", r.text);
        assert!(
            r.text.contains("leaves field p.A.count: 0 -> 1"),
            "{}",
            r.text
        );
        assert!(r
            .text
            .contains("reproduce: mvn odrust:run-order -Dodrust.order=p.A#counts,p.A#counts"));
        assert!(r.text.contains("LATENT POLLUTER p.B#sets [high] leaves field p.Config.mode: SLOW -> FAST; read by 1 other test or test class: D"), "{}", r.text);
        assert!(r
            .html
            .contains("data-kind=\"latent-polluter\" data-field=\"p.Config.mode\""));
        assert!(r.text.contains("\n  patch: target/odrust/audit/fix-1.patch (its teardown runs `p.Config.mode = p.Mode.SLOW;`, verified in experiment 7); apply it with `git apply target/odrust/audit/fix-1.patch`"), "{}", r.text);
        assert!(r.html.contains("<p class=\"fix patched\">"));
        assert!(r.html.contains("tried: p.Config.reset();: experiment 6"));
        assert!(r
            .html
            .contains("4 tests: 1 non-idempotent, 1 latent polluter (1 read by another test)"));
    }
}
