package io.github.odrust.engine.protocol;

/** Response of {@code report} (Rust: {@code report::ReportTexts}): the three files' texts. */
public final class ReportTexts {
    /** report.json (pretty-printed, no final newline). */
    public String json;
    /** report.html, self-contained. */
    public String html;
    /** surefire-reports/TEST-odrust.xml. */
    public String xml;
}
