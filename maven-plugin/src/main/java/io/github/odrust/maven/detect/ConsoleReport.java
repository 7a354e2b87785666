package io.github.odrust.maven.detect;

import com.google.gson.JsonObject;
import io.github.odrust.engine.protocol.FlakeRate;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.maven.core.Words;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.logging.Log;

/** The closing table of a detection run on the console, and its one-line module summary. */
public final class ConsoleReport {
    private ConsoleReport() {}

    public static void print(Report report, Path out, Log log) {
        Summary s = report.summary;
        List<Summary.FlakyTest> flaky = s.flaky;
        log.info("");
        log.info(String.format(
                "odrust detect: %s: %s, %s, %d/%d rounds, seed=%s, strategy %s",
                report.module,
                tests(s),
                Words.count(s.experiments, "experiment"),
                s.roundsRun,
                s.roundsPlanned,
                String.valueOf(s.seed),
                s.strategy));
        if (s.coverage != null) {
            log.info("  covered: " + s.coverage.text);
        }
        if (flaky.isEmpty()) {
            log.info("  " + nothingFound(s));
        } else {
            int width = flaky.stream()
                    .map(f -> f.test.length())
                    .max(Comparator.naturalOrder())
                    .orElse(10);
            log.info(String.format("  %-" + width + "s  %-12s %-22s %s", "TEST", "KIND", "FAILS IN", "PASSES IN"));
            for (int i = 0; i < flaky.size(); i++) {
                Summary.FlakyTest f = flaky.get(i);
                Report.Links links = report.links.get(i);
                log.warn(String.format(
                        "  %-" + width + "s  %-12s %-22s %s",
                        f.test,
                        f.kind,
                        fileName(links.failingOrder),
                        fileName(links.passingOrder)));
                explain(f, log);
                if (links.reproduce != null) {
                    log.info("      reproduce: " + links.reproduce);
                }
            }
        }
        causes(report, log);
        s.failing.forEach(t -> log.warn("  fails in every order odrust ran: " + t.test));
        JsonObject counts = report.json.has("explanations") ? report.json.getAsJsonObject("explanations") : null;
        int explained = counts == null ? 0 : counts.get("explained").getAsInt();
        int finished = counts == null ? 0 : counts.get("complete").getAsInt();
        if (finished < explained) {
            log.warn(String.format(
                    "  explanations complete for %d of %d OD tests; the others stopped early (see the notes;"
                            + " -Dodrust.resume=true -Dodrust.minimize.budget=N continues them)",
                    finished, explained));
        }
        s.notes.forEach(n -> log.info("  note: " + n));
        if (s.time != null) {
            log.info("  time: " + s.time.text);
        }
        String phases = EstimateText.phases(s.phases);
        if (!phases.isEmpty()) {
            log.info("  phases: " + phases);
        }
        log.info("  report: " + out.resolve("report.html") + " (and report.json)");
    }

    /**
     * The root causes: "2 causes:" and a line each ("cause 1: state left by `p.P#p` → 12 victims"),
     * with what repair made of it when it ran.
     */
    static void causes(Report report, Log log) {
        if (report.causes.isEmpty()) {
            return;
        }
        log.info("  " + Words.count(report.causes.size(), "cause") + " (tests that fail for the same reason; one"
                + " diagnosis and one fix each):");
        for (io.github.odrust.engine.protocol.Cause c : report.causes) {
            log.warn("    cause " + c.id + ": " + c.title);
            for (io.github.odrust.engine.protocol.Cause.Fix f : c.fixes) {
                String part = f.tests.size() == c.tests.size() ? "" : " (" + Words.count(f.tests.size(), "test") + ")";
                log.info(
                        "patched".equals(f.status)
                                ? "      fixed by " + f.patch + part + (f.applied ? ", applied" : ": " + f.apply)
                                : "      no patch" + part + ": " + f.reason);
            }
        }
    }

    /** Polluters, cleaners, state-setters and flake rate of one entry, when minimization found them. */
    static void explain(Summary.FlakyTest f, Log log) {
        String message = firstLine(f.message);
        if (message != null) {
            log.info("      message: " + message);
        }
        String polluters = groups(f.polluters);
        if (polluters != null) {
            log.info("      polluters: " + polluters);
        }
        if (f.polluters != null) {
            for (List<String> group : f.polluters) {
                if (group.size() == 1) {
                    cleaners(f, group.get(0), log);
                }
            }
        }
        String setters = groups(f.stateSetters);
        if (setters != null) {
            log.info("      state-setters: " + setters);
        }
        FlakeRate r = f.flakeRate;
        if (r != null && r.incomplete == null) {
            log.info(String.format(
                    "      flake rate: %s of all orders, %s of class-compatible orders (%s)",
                    percent(r.allOrders), percent(r.classCompatible), r.method));
        } else if (r != null) {
            FlakeRate.Incomplete i = r.incomplete;
            String all = i.lowerBound != null
                    ? percent(i.lowerBound.allOrders) + "-" + percent(r.allOrders)
                    : (i.upperBound ? "at most " : "about ") + percent(r.allOrders);
            String compatible = i.lowerBound != null
                    ? percent(i.lowerBound.classCompatible) + "-" + percent(r.classCompatible)
                    : (i.upperBound ? "at most " : "about ") + percent(r.classCompatible);
            log.info(String.format(
                    "      flake rate (INCOMPLETE): %s of all orders, %s of class-compatible orders; %s",
                    all, compatible, i.reason));
        }
    }

    /**
     * "592 tests (991 results per run, as mvn test counts them)": what odrust counts (methods and
     * dynamic containers) beside what Surefire prints, when they differ.
     */
    static String tests(Summary s) {
        String tests = Words.count(s.testsTotal, "test");
        if (s.resultsPerRun != null && s.resultsPerRun != s.testsTotal) {
            tests += " (" + Words.count(s.resultsPerRun, "result") + " per run, as mvn test counts invocations)";
        }
        return tests;
    }

    /**
     * "No flaky test found", with how much was explored in the same line: a few rounds of random
     * orders, or a small share of a schedule's pairs, is not evidence that there is none.
     */
    static String nothingFound(Summary s) {
        StringBuilder line = new StringBuilder(String.format(
                "no order-dependent or flaky test found in %d of %d rounds (%s)",
                s.roundsRun, s.roundsPlanned, s.strategy));
        if (s.pairs != null && s.pairs.total > 0) {
            double share = 100.0 * s.pairs.covered / s.pairs.total;
            line.append(String.format(
                    ", which ran %s of the %d test pairs the schedule covers",
                    share >= 99.95 ? "all" : (share < 0.1 ? "less than 0.1%" : String.format("%.1f%%", share)),
                    s.pairs.total));
            if (s.pairs.covered < s.pairs.total) {
                line.append(": a victim of a pair not run yet can still exist");
            }
        } else {
            line.append(": random orders find an order-dependent test only with some probability per round");
        }
        return line.toString();
    }

    /** The cleaners of one single polluter, or why there are none (yet). */
    private static void cleaners(Summary.FlakyTest f, String polluter, Log log) {
        List<String> ids = f.cleaners == null ? null : f.cleaners.get(polluter);
        boolean unfinished = f.cleanersUnfinished != null && f.cleanersUnfinished.contains(polluter);
        String text;
        if (ids == null) {
            if (!unfinished) {
                return;
            }
            text = "not searched (the search stopped early; see the notes)";
        } else if (ids.isEmpty()) {
            text = unfinished ? "none found so far (the search stopped early; see the notes)" : "none";
        } else {
            text = String.join(", ", ids) + (unfinished ? " so far (the search stopped early; see the notes)" : "");
        }
        log.info("      cleaners of " + polluter + ": " + text);
    }

    /** The first line of a failure message, at most 200 characters; null when there is none. */
    static String firstLine(String message) {
        if (message == null || message.trim().isEmpty()) {
            return null;
        }
        String line = message.trim().split("\\R", 2)[0];
        return line.length() > 200 ? line.substring(0, 197) + "..." : line;
    }

    /** "a, b + c" for [["a"], ["b", "c"]]; null when absent or empty. */
    private static String groups(List<List<String>> value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (List<String> g : value) {
            out.add(String.join(" + ", g));
        }
        return String.join(", ", out);
    }

    private static String percent(Double p) {
        return p == null ? "?" : String.format("%.1f%%", p * 100);
    }

    private static String fileName(String path) {
        if (path == null) {
            return "-";
        }
        return path.substring(path.lastIndexOf('/') + 1);
    }

    public static String moduleLine(Report report) {
        Map<String, Integer> kinds = new LinkedHashMap<>();
        report.summary.flaky.forEach(f -> kinds.merge(f.kind, 1, Integer::sum));
        String found = kinds.isEmpty()
                ? "nothing flaky"
                : kinds.toString().replaceAll("[{}]", "").replace("=", ": ");
        return tests(report.summary) + ", " + Words.count(report.summary.experiments, "experiment") + ", " + found;
    }
}
