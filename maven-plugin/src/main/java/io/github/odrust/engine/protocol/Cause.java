package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One root cause of report.json's {@code causes} (Rust: {@code report::causes::Cause}): order-dependent
 * tests that fail for the same reason — victims of the same polluters (and, once diagnosed, the
 * same polluted fields), brittles of the same state-setters — with what repair made of it.
 */
public final class Cause {
    /** Its number in the report, from 1. */
    public int id;
    /** {@code victim} or {@code brittle}. */
    public String role;
    /** One line saying what it is. */
    public String title;
    /** Its victims or brittles, in report order. */
    public List<String> tests = new ArrayList<>();

    public List<List<String>> polluters = new ArrayList<>();
    /** Per single polluter, every cleaner found for a member; those found for more members first. */
    public Map<String, List<String>> cleaners = new TreeMap<>();

    @SerializedName("state_setters")
    public List<List<String>> stateSetters = new ArrayList<>();
    /** The fields odrust:diagnose confirmed for its members. */
    @SerializedName("polluted_state")
    public List<String> pollutedState = new ArrayList<>();
    /** What odrust:repair made of it. */
    public List<Fix> fixes = new ArrayList<>();

    /** What odrust:repair made for some tests of a cause (Rust: {@code report::causes::CauseFix}). */
    public static final class Fix {
        /** The tests it was made and verified for. */
        public List<String> tests = new ArrayList<>();

        public String status;
        public String reason;
        /** The patch file, as the user sees it. */
        public String patch;
        /** The command that applies it, from where Maven ran. */
        public String apply;

        public boolean applied;
        /** The file it changes, relative to the module. */
        public String file;
        /** The patch itself. */
        public String diff;

        public List<Check> checks = new ArrayList<>();
        /** Test JVMs the repair spent. */
        public int experiments;
    }

    /** One check of a fix. */
    public static final class Check {
        public String check;
        public boolean passed;
        public String detail;

        public Check() {}

        public Check(String check, boolean passed, String detail) {
            this.check = check;
            this.passed = passed;
            this.detail = detail;
        }
    }
}
