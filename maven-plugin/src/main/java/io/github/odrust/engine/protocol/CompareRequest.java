package io.github.odrust.engine.protocol;

import java.util.ArrayList;
import java.util.List;

/** Request of {@code compare_outcomes} (Rust: {@code protocol::CompareRequest}). */
public final class CompareRequest {
    /** What Surefire reported. */
    public List<TestOutcome> expected = new ArrayList<>();
    /** What odrust's run gave. */
    public List<TestOutcome> actual = new ArrayList<>();

    /** Rust: {@code surefire::compare::TestOutcome}. */
    public static final class TestOutcome {
        public String test;
        public String outcome;

        public TestOutcome(String test, String outcome) {
            this.test = test;
            this.outcome = outcome;
        }
    }
}
