package io.github.odrust.engine.protocol;

/** Response of {@code render_report} (Rust: {@code report::Rendered}). */
public final class Rendered {
    /** The self-contained HTML page. */
    public String html;
    /** The Surefire-style XML report. */
    public String xml;
}
