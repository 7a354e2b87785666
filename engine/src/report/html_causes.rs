//! The cause cards of the HTML page: one card per root cause (`causes`), headed by what it is
//! ("`p.Config.CACHE` left changed by `p.LoaderTest#loads` → 12 victims · fixed by a verified
//! patch to `LoaderTest.java`"), with what repair made of it (the patch as a diff, its checks,
//! the command that applies it, with a copy button) and its tests' own cards inside.

use super::causes::{Cause, CauseFix};
use super::text::{counted, escape_html};
use crate::model::kind::OdRole;

/// CSS of the cause cards (appended to the page's).
pub(super) const CSS: &str = ".cause{border:1px solid #bbb;border-radius:8px;padding:.6em 1em;margin:1.2em 0;background:#fcfcfc}\
.cause>h3{font-size:1.05em}.cause .members>summary{cursor:pointer;color:#444}\
.fix{border-left:4px solid #2e7d32;padding:.2em .8em;margin:.6em 0;background:#f1f8f1}\
.fix.none{border-left-color:#999;background:#f6f6f6}\
pre.diff{background:#f6f6f6;padding:.5em;border-radius:4px;overflow-x:auto;font-size:.85em;white-space:pre}\
pre.diff .add{color:#1b5e20}pre.diff .del{color:#8a1c10}\
ul.checks{font-size:.9em;color:#444;margin:.3em 0}";

/// `text` escaped, its `backticked` spans as code.
pub(super) fn with_code(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{}</code>", escape_html(part)));
        } else {
            out.push_str(&escape_html(part));
        }
    }
    out
}

/// The card of `cause`, around `members` (its tests' cards); `n` numbers its elements.
pub(super) fn cause_card(cause: &Cause, members: &str, n: usize) -> String {
    let role = match cause.role {
        OdRole::Victim => "victim",
        OdRole::Brittle => "brittle",
    };
    let mut title = with_code(&cause.title);
    if let Some(fixed) = fixed_by(cause) {
        title.push_str(&format!(" \u{b7} {}", with_code(&fixed)));
    }
    let mut out = format!(
        "<article class=\"cause {role}\" id=\"cause-{}\" data-cause=\"{}\">\n<h3><span class=\"badge {role}\">cause {}</span>{title}</h3>\n",
        cause.id, cause.id, cause.id
    );
    for (i, fix) in cause.fixes.iter().enumerate() {
        out.push_str(&fix_block(cause, fix, &format!("{n}-{i}")));
    }
    let noun = if cause.role == OdRole::Victim {
        "victim"
    } else {
        "brittle"
    };
    // One test: its card as it is; more: folded when many (they share what the cause says).
    if cause.tests.len() == 1 {
        out.push_str(members);
    } else {
        let open = if cause.tests.len() <= 3 { " open" } else { "" };
        out.push_str(&format!(
            "<details class=\"members\"{open}><summary>Its {}</summary>\n{members}</details>\n",
            counted(cause.tests.len(), noun)
        ));
    }
    out.push_str("</article>\n");
    out
}

/// "fixed by a verified patch to `LoaderTest.java`" when every test of the cause has a patch.
fn fixed_by(cause: &Cause) -> Option<String> {
    let patched: Vec<&CauseFix> = cause
        .fixes
        .iter()
        .filter(|f| f.status == "patched")
        .collect();
    let covered = cause
        .tests
        .iter()
        .all(|t| patched.iter().any(|f| f.tests.contains(t)));
    if patched.is_empty() || !covered {
        return None;
    }
    let files: Vec<String> = patched
        .iter()
        .filter_map(|f| f.file.as_deref())
        .map(|f| format!("`{}`", f.rsplit('/').next().unwrap_or(f)))
        .collect();
    Some(if patched.len() == 1 {
        format!("fixed by a verified patch to {}", files.join(", "))
    } else {
        format!(
            "fixed by {} verified patches (to {})",
            patched.len(),
            files.join(", ")
        )
    })
}

fn fix_block(cause: &Cause, fix: &CauseFix, n: &str) -> String {
    let part = if fix.tests.len() == cause.tests.len() {
        String::new()
    } else {
        format!(" (for {} of them)", counted(fix.tests.len(), "test"))
    };
    if fix.status != "patched" {
        return format!(
            "<div class=\"fix none\"><p>No patch{part}: {} ({}).</p></div>\n",
            escape_html(fix.reason.as_deref().unwrap_or("")),
            escape_html(&fix.status)
        );
    }
    let mut out = format!(
        "<div class=\"fix\"><p>A verified patch{part}{}{}, {}:</p>\n",
        fix.file
            .as_deref()
            .map(|f| format!(" to {}", with_code(&format!("`{f}`"))))
            .unwrap_or_default(),
        if fix.applied {
            " (applied to the sources)"
        } else {
            ""
        },
        counted(fix.experiments, "test run")
    );
    if let Some(diff) = &fix.diff {
        out.push_str("<pre class=\"diff\">");
        for line in diff.lines() {
            let line = line.trim_end_matches('\r');
            let class = if line.starts_with('+') && !line.starts_with("+++") {
                Some("add")
            } else if line.starts_with('-') && !line.starts_with("---") {
                Some("del")
            } else {
                None
            };
            match class {
                Some(c) => out.push_str(&format!(
                    "<span class=\"{c}\">{}</span>\n",
                    escape_html(line)
                )),
                None => out.push_str(&format!("{}\n", escape_html(line))),
            }
        }
        out.push_str("</pre>\n");
    }
    if !fix.checks.is_empty() {
        out.push_str("<ul class=\"checks\">\n");
        for c in &fix.checks {
            out.push_str(&format!(
                "<li>{} {}{}</li>\n",
                if c.passed { "\u{2713}" } else { "\u{2717}" },
                escape_html(&c.check),
                c.detail
                    .as_deref()
                    .map(|d| format!(": {}", escape_html(d)))
                    .unwrap_or_default()
            ));
        }
        out.push_str("</ul>\n");
    }
    if let Some(cmd) = &fix.apply {
        out.push_str(&format!(
            "<div class=\"repro\"><code id=\"apply-{n}\">{}</code><button type=\"button\" class=\"copy\" data-copy=\"apply-{n}\">Copy</button></div>\n",
            escape_html(cmd)
        ));
    }
    out.push_str("</div>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::super::document::Report;
    use super::super::render::render;

    #[test]
    fn a_cause_card_holds_its_tests_cards_and_its_patch() {
        let victim = |t: &str| {
            serde_json::json!({"test": t, "kind": "victim", "failing_experiment": 1,
                "passing_experiment": 2, "polluters": [["p.P#p"]], "evidence": "e"})
        };
        let report: Report = serde_json::from_value(serde_json::json!({
            "module": "m", "schema_version": 2,
            "flaky": [victim("p.A#one"), victim("p.B#two")],
            "causes": [{"id": 1, "role": "victim", "title": "state left by `p.P#p` → 2 victims",
                "tests": ["p.A#one", "p.B#two"], "polluters": [["p.P#p"]],
                "fixes": [{"tests": ["p.A#one", "p.B#two"], "status": "patched",
                    "patch": "target/odrust/repair/cause-1.patch",
                    "apply": "git apply app/target/odrust/repair/cause-1.patch",
                    "file": "src/test/java/p/PTest.java", "experiments": 9,
                    "diff": "--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n+    Settings.mode = \"default\";\n-b<\n",
                    "checks": [{"check": "failing-order", "passed": true},
                               {"check": "git-apply", "passed": true, "detail": "git apply --check"}]}]}]
        }))
        .unwrap();
        let rendered = render(&report);
        // The Surefire XML names the cause and its patch in each test's text.
        assert!(
            rendered.xml.contains("Cause 1: state left by `p.P#p` → 2 victims\nFix: a verified patch target/odrust/repair/cause-1.patch (apply: git apply app/target/odrust/repair/cause-1.patch)"),
            "{}",
            rendered.xml
        );
        let html = rendered.html;
        let cause = html
            .split("<article class=\"cause victim\" id=\"cause-1\"")
            .nth(1)
            .expect("a cause card");
        assert!(
            cause.contains("state left by <code>p.P#p</code> → 2 victims \u{b7} fixed by a verified patch to <code>PTest.java</code>"),
            "{cause}"
        );
        assert!(
            cause.contains("<span class=\"add\">+    Settings.mode = &quot;default&quot;;</span>"),
            "{cause}"
        );
        assert!(
            cause.contains("<span class=\"del\">-b&lt;</span>"),
            "{cause}"
        );
        assert!(
            cause.contains("\u{2713} git-apply: git apply --check"),
            "{cause}"
        );
        assert!(
            cause.contains(">git apply app/target/odrust/repair/cause-1.patch</code><button"),
            "{cause}"
        );
        assert!(
            cause.contains("<summary>Its 2 victims</summary>"),
            "{cause}"
        );
        // Both tests' cards are inside the cause's card, and nowhere else.
        let inside = cause.split("</section>").next().unwrap();
        assert_eq!(
            inside.matches("<article class=\"card victim\"").count(),
            2,
            "{html}"
        );
        assert_eq!(
            html.matches("<article class=\"card victim\"").count(),
            2,
            "{html}"
        );
        assert!(
            html.contains("2 order-dependent tests from 1 cause"),
            "{html}"
        );
    }

    #[test]
    fn a_cause_without_a_patch_says_why_and_for_which_tests() {
        let report: Report = serde_json::from_value(serde_json::json!({
            "module": "m",
            "flaky": [{"test": "p.A#one", "kind": "victim", "evidence": "e"}],
            "causes": [{"id": 1, "role": "victim", "title": "no polluter found yet → 1 victim",
                "tests": ["p.A#one"],
                "fixes": [{"tests": ["p.A#one"], "status": "no-fix-source",
                    "reason": "no cleaner <known>"}]}]
        }))
        .unwrap();
        let html = render(&report).html;
        assert!(
            html.contains("No patch: no cleaner &lt;known&gt; (no-fix-source)."),
            "{html}"
        );
        assert!(!html.contains("fixed by"), "{html}");
        assert!(!html.contains("<summary>Its"), "{html}");
    }
}
