//! Small text pieces every renderer of the folder uses: percentages, counted nouns, HTML and XML
//! escaping, a Surefire `<testcase>` element of a test id.

use std::borrow::Cow;

use quick_xml::events::BytesStart;

use crate::model::testid::class_of;

/// `x` as a percentage with one decimal: 0.3333 gives "33.3%".
pub(super) fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// `n` and `noun`, plural unless `n` is 1: "1 test", "2 tests".
pub(super) fn counted(n: usize, noun: &str) -> String {
    let es = ["s", "x", "ch", "sh"].iter().any(|end| noun.ends_with(end));
    format!(
        "{n} {noun}{}",
        match (n == 1, es) {
            (true, _) => "",
            (false, true) => "es",
            (false, false) => "s",
        }
    )
}

/// `s` without the characters XML 1.0 does not allow (control characters other than tab,
/// newline and carriage return); the writer escapes the rest.
pub(super) fn xml_text(s: &str) -> Cow<'_, str> {
    let allowed = |c: char| !c.is_control() || matches!(c, '\t' | '\n' | '\r') || c > '\u{9f}';
    if s.chars().all(allowed) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.chars().filter(|c| allowed(*c)).collect())
    }
}

/// `s` escaped for HTML text and attribute values.
pub(super) fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A Surefire `<testcase>` start for a test id: `classname` its class, `name` the rest after `#`.
pub(super) fn testcase(test: &str) -> BytesStart<'static> {
    let test = xml_text(test);
    let classname = class_of(&test);
    let name = test
        .strip_prefix(classname)
        .and_then(|rest| rest.strip_prefix('#'))
        .unwrap_or(&test);
    let mut case = BytesStart::new("testcase");
    case.push_attribute(("classname", classname));
    case.push_attribute(("name", name));
    case.push_attribute(("time", "0"));
    case
}
