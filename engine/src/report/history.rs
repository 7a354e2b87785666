//! The history of `odrust:history` (`history_report`): a [`HistoryView`] as one self-contained
//! HTML page (inline CSS and SVG, no script) and console lines (docs/history.md).

use serde::Serialize;

use super::html::CSS;
use super::text::{counted, escape_html};
use crate::error::EngineError;
use crate::history::{history, HistoryRequest, HistoryView};
use crate::ENGINE_VERSION;

/// Response of `history_report`.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryRendered {
    /// What the records say: history.json.
    pub view: HistoryView,
    /// The HTML page.
    pub html: String,
    /// Console lines, newline-separated.
    pub text: String,
}

/// Reads the records and renders what they say.
///
/// # Errors
/// A record that cannot be read ([`EngineError::BadRunRecord`], naming its file).
pub fn render_history(request: &HistoryRequest) -> Result<HistoryRendered, EngineError> {
    let view = history(request)?;
    Ok(HistoryRendered {
        html: html(&view),
        text: text(&view),
        view,
    })
}

/// `r3 (commit abc1234, 2026-12-03)`.
fn run_label(view: &HistoryView, i: usize) -> String {
    let r = &view.runs[i];
    let commit = r
        .commit
        .as_deref()
        .map(|c| {
            format!(
                "commit {}{}, ",
                c.get(..7).unwrap_or(c),
                if r.dirty {
                    " with uncommitted changes"
                } else {
                    ""
                }
            )
        })
        .unwrap_or_default();
    format!(
        "{} ({commit}{})",
        r.run_id,
        r.date.get(..10).unwrap_or(&r.date)
    )
}

fn text(view: &HistoryView) -> String {
    let detecting = view.runs.iter().filter(|r| r.detects).count();
    let mut lines = vec![format!(
        "odrust history: {}: {} ({} that look for flaky tests), {}, {}",
        view.module,
        counted(view.runs.len(), "run"),
        detecting,
        counted(view.tests.len(), "flaky test"),
        counted(view.causes.len(), "cause")
    )];
    for t in &view.tests {
        let mut line = format!(
            "  {} [{}]: found in {} of {} runs that ran it, first {}, last {}",
            t.test,
            t.kind,
            t.found_in,
            t.cells
                .iter()
                .filter(|c| *c == "found" || *c == "not-found")
                .count(),
            run_label(view, t.first_seen),
            run_label(view, t.last_seen)
        );
        if let Some(s) = &t.stopped {
            line.push_str(&format!("; not found since {}", run_label(view, s.run)));
            if let Some(p) = &s.after_patch {
                line.push_str(&format!(
                    ", after the patch {} of {}{}",
                    p.patch.as_deref().unwrap_or("(no file)"),
                    p.run_id,
                    if p.applied { " (applied)" } else { "" }
                ));
            }
        }
        lines.push(line);
    }
    for n in &view.notes {
        lines.push(format!("note: {n}"));
    }
    lines.join("\n")
}

const HISTORY_CSS: &str = "table.grid{border-collapse:collapse;font-size:.85em}\
.grid th,.grid td{border:1px solid #ddd;padding:2px 6px;text-align:center}\
.grid td.test{text-align:left;font-family:monospace}\
.found{background:#ef9a9a}.not-found{background:#c8e6c9}.not-run,.unknown{background:#eee;color:#999}\
.patch{background:#90caf9}svg.trend{border:1px solid #ddd}";

/// The trend of flaky tests and causes per detecting run, as an inline SVG.
fn trend(view: &HistoryView) -> String {
    let points: Vec<(usize, usize, usize)> = view
        .runs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.detects)
        .map(|(i, r)| (i, r.flaky, r.causes))
        .collect();
    let (w, h, pad) = (600.0_f64, 160.0_f64, 20.0_f64);
    let max = points
        .iter()
        .map(|p| p.1.max(p.2))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let n = view.runs.len().max(2) as f64 - 1.0;
    let xy = |i: usize, v: usize| {
        (
            pad + (w - 2.0 * pad) * i as f64 / n,
            h - pad - (h - 2.0 * pad) * v as f64 / max,
        )
    };
    let line = |pick: fn(&(usize, usize, usize)) -> usize| {
        points
            .iter()
            .map(|p| {
                let (x, y) = xy(p.0, pick(p));
                format!("{x:.1},{y:.1}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "<svg class=\"trend\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"flaky tests and causes per run\">\
<polyline id=\"trend-tests\" fill=\"none\" stroke=\"#c62828\" stroke-width=\"2\" points=\"{}\"/>\
<polyline id=\"trend-causes\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"2\" points=\"{}\"/>\
<text x=\"{pad}\" y=\"14\" font-size=\"12\">max {max}: flaky tests (red), causes (blue)</text></svg>\n",
        line(|p| p.1),
        line(|p| p.2)
    )
}

fn html(view: &HistoryView) -> String {
    let module = escape_html(&view.module);
    let mut out = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>odrust history: {module}</title>\n<style>{CSS}{HISTORY_CSS}</style>\n</head>\n<body>\n<header>\n<h1>odrust history: <code>{module}</code></h1>\n<p id=\"summary\">{}</p>\n</header>\n<main>\n",
        escape_html(text(view).lines().next().unwrap_or(""))
    );
    out.push_str("<section id=\"trend\">\n<h2>Flaky tests and causes per run</h2>\n");
    out.push_str(&trend(view));
    out.push_str("</section>\n<section id=\"grid\">\n<h2>Tests by run</h2>\n<table class=\"grid\">\n<tr><th>test</th>");
    for (i, r) in view.runs.iter().enumerate() {
        out.push_str(&format!(
            "<th data-run=\"{}\" title=\"{}\">{}<br>{}</th>",
            escape_html(&r.run_id),
            escape_html(&run_label(view, i)),
            escape_html(&r.goal),
            escape_html(r.date.get(..10).unwrap_or(&r.date))
        ));
    }
    out.push_str("<th>since</th></tr>\n");
    for t in &view.tests {
        out.push_str(&format!(
            "<tr data-test=\"{}\"><td class=\"test\">{}</td>",
            escape_html(&t.test),
            escape_html(&t.test)
        ));
        for (cell, rate) in t.cells.iter().zip(&t.rates) {
            let shown = match (cell.as_str(), rate) {
                ("found", Some(r)) => format!("{:.0}%", r * 100.0),
                ("found", None) => "found".to_string(),
                ("not-found", _) => "ok".to_string(),
                ("patch", _) => "patch".to_string(),
                ("unknown", _) => "?".to_string(),
                _ => String::new(),
            };
            out.push_str(&format!(
                "<td class=\"{}\">{}</td>",
                escape_html(cell),
                escape_html(&shown)
            ));
        }
        let since = match &t.stopped {
            Some(s) => format!(
                "not found since {}{}",
                run_label(view, s.run),
                s.after_patch
                    .as_ref()
                    .map(|p| format!(
                        ", after {}{}",
                        p.patch.as_deref().unwrap_or("a patch"),
                        if p.applied { " (applied)" } else { "" }
                    ))
                    .unwrap_or_default()
            ),
            None => format!("flaky since {}", run_label(view, t.first_seen)),
        };
        out.push_str(&format!(
            "<td class=\"since\">{}</td></tr>\n",
            escape_html(&since)
        ));
    }
    out.push_str("</table>\n</section>\n");
    if !view.causes.is_empty() {
        out.push_str("<section id=\"causes\">\n<h2>Causes</h2>\n<ul>\n");
        for c in &view.causes {
            out.push_str(&format!(
                "<li>{}: {}, first {}, last {}, found in {}</li>\n",
                escape_html(&c.title),
                escape_html(&counted(c.tests.len(), "test")),
                escape_html(&run_label(view, c.first_seen)),
                escape_html(&run_label(view, c.last_seen)),
                escape_html(&counted(c.found_in, "run"))
            ));
        }
        out.push_str("</ul>\n</section>\n");
    }
    if !view.notes.is_empty() {
        out.push_str("<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n");
        for n in &view.notes {
            out.push_str(&format!("<li>{}</li>\n", escape_html(n)));
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
    use crate::history::view::RecordFile;

    #[test]
    fn the_page_and_the_console_say_when_a_test_stopped_and_after_which_patch() {
        let rec = |run: &str, date: &str, goal: &str, extra: serde_json::Value| {
            let mut r = serde_json::json!({"schema_version": 1, "run_id": run, "goal": goal,
                "module": "g:a", "date": date, "commit": format!("{run}0000000c")});
            for (k, v) in extra.as_object().unwrap() {
                r[k] = v.clone();
            }
            RecordFile {
                file: format!("{run}.json"),
                text: r.to_string(),
            }
        };
        let r = render_history(&HistoryRequest {
            module: None,
            records: vec![
                rec("r1", "2026-12-01T01:00:00Z", "detect", serde_json::json!({"complete": true,
                    "ran": ["p.V#v"], "tests": [{"test": "p.V#v", "kind": "victim", "flake_rate": 0.25}],
                    "causes": [{"id": 1, "role": "victim", "title": "state left by p.A#a", "tests": ["p.V#v"], "origins": [["p.A#a"]]}]})),
                rec("r2", "2026-12-01T02:00:00Z", "repair", serde_json::json!({
                    "patches": [{"tests": ["p.V#v"], "status": "patched", "patch": "target/odrust/repair/cause-1.patch", "applied": true}]})),
                rec("r3", "2026-12-02T01:00:00Z", "detect", serde_json::json!({"complete": true, "ran": ["p.V#v"]})),
            ],
        })
        .unwrap();
        assert!(r.text.starts_with("odrust history: g:a: 3 runs (2 that look for flaky tests), 1 flaky test, 1 cause\n"), "{}", r.text);
        assert!(r.text.contains("  p.V#v [victim]: found in 1 of 2 runs that ran it, first r1 (commit r100000, 2026-12-01), last r1 (commit r100000, 2026-12-01); not found since r3 (commit r300000, 2026-12-02), after the patch target/odrust/repair/cause-1.patch of r2 (applied)"), "{}", r.text);
        assert!(r.html.contains("<td class=\"found\">25%</td><td class=\"patch\">patch</td><td class=\"not-found\">ok</td>"), "{}", r.html);
        assert!(r.html.contains("<polyline id=\"trend-tests\""));
        assert!(r.html.contains("<li>state left by p.A#a: 1 test, first r1"));
        assert_eq!(r.view.tests[0].stopped.as_ref().unwrap().run_id, "r3");
    }
}
