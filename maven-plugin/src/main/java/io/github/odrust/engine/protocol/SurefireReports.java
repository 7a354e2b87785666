package io.github.odrust.engine.protocol;

import java.util.ArrayList;
import java.util.List;

/** Response of {@code read_surefire_reports} (Rust: {@code surefire::Reports}). */
public final class SurefireReports {
    /** Every test case, by report file name, then in document order. */
    public List<ReportedTest> tests = new ArrayList<>();
    /** How many {@code TEST-*.xml} files were read. */
    public int files;

    /** Rust: {@code surefire::ReportedTest}. */
    public static final class ReportedTest {
        public String test;
        public String outcome;
        public String message;
    }
}
