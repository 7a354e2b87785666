package io.github.odrust.maven.detect;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.Experiment;
import io.github.odrust.engine.protocol.ExperimentKind;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.fork.ForkDirectory;
import io.github.odrust.maven.fork.SharedJvm;
import io.github.odrust.maven.fork.TestJvm;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.OrderRunner;
import io.github.odrust.maven.run.RunResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * {@code -Dodrust.isolation=classloader} (docs/isolation.md): the rounds, explanation experiments
 * and alone runs after each OD test's first of detection run in shared JVMs, each order in fresh
 * class loaders, once the module passed a check; everything else (the baseline, confirmations,
 * each OD test's first alone run, one run of each claim an explanation reports) runs in fresh
 * JVMs, so every finding is seen in fresh JVMs.
 *
 * <p>The check runs before the first round after {@value #FRESH_ROUNDS} rounds ran in fresh JVMs:
 * the original order twice and those rounds, one after the other in a shared JVM, must give each
 * test the outcome it had in its fresh JVM. When a test's outcome differs, the order runs again,
 * twice in fresh JVMs and once in a shared one ({@value #RECHECKS} runs): a test whose outcome
 * then changes between two runs of the same order in the same kind of JVM, or matches the other
 * kind's, is non-deterministic (NOD) — left out of the comparison and reported, not a reason to
 * give up the mode. Only a difference that holds switches it off: the module's rounds then stay in
 * fresh JVMs and the console says which test and where; {@code detect/isolation-check.json} keeps
 * it.
 */
final class SharedIsolation implements AutoCloseable {
    /** Rounds that run in fresh JVMs before the check, to compare with. */
    static final int FRESH_ROUNDS = 2;

    /** Runs of an order whose outcomes differed: fresh, shared, fresh. */
    static final int RECHECKS = 3;

    /** Tests the check found non-deterministic (their outcome changed between runs of one order). */
    private final Set<String> nod = new LinkedHashSet<>();

    private final TestModule module;
    private final Engine engine;
    private final DiscoveredSuite suite;
    private final Path out;
    private final Log log;
    private Experiment baselineExperiment;
    private RunResult baseline;
    /** Each test's outcomes over the baseline runs: one with several is flaky, and not compared. */
    private final Map<String, Set<String>> baselineOutcomes = new LinkedHashMap<>();

    private final List<Experiment> rounds = new ArrayList<>();
    private final List<RunResult> roundResults = new ArrayList<>();
    /** Null until checked; then "ok", or why the rounds stay in fresh JVMs. */
    private String verdict;

    private final boolean ownDirectories;
    private final java.util.Deque<Slot> idle = new java.util.ArrayDeque<>();
    private final Map<SharedJvm, Slot> slots = new java.util.IdentityHashMap<>();
    private int started;

    /** {@code ownDirectories}: each shared JVM runs in a working directory of its own (several forks, docs/forks.md). */
    SharedIsolation(
            TestModule module, Engine engine, DiscoveredSuite suite, Path out, Log log, boolean ownDirectories) {
        this.module = module;
        this.engine = engine;
        this.suite = suite;
        this.out = out;
        this.log = log;
        this.ownDirectories = ownDirectories;
    }

    /** Takes note of an experiment that ran (in the history's order). */
    void ran(Experiment exp, RunResult result) {
        boolean inShared = !result.jvms.isEmpty() && result.jvms.get(0).shared;
        if (exp.kind == ExperimentKind.BASELINE) {
            baselineExperiment = exp;
            baseline = result;
            outcomes(result)
                    .forEach((t, o) -> baselineOutcomes
                            .computeIfAbsent(t, k -> new LinkedHashSet<>())
                            .add(o));
        } else if (exp.kind == ExperimentKind.ROUND && verdict == null && !inShared && rounds.size() < FRESH_ROUNDS) {
            rounds.add(exp);
            roundResults.add(result);
        }
    }

    /**
     * Takes note of a baseline run or a fresh round of an earlier run (resuming): what the check
     * compares outcomes with.
     */
    void resumed(JsonObject baselineRecord) {
        Experiment exp = Json.WIRE.fromJson(baselineRecord, Experiment.class);
        RunResult result = new RunResult();
        for (com.google.gson.JsonElement e : baselineRecord.getAsJsonArray("results")) {
            JsonObject r = e.getAsJsonObject();
            RunResult.TestResult t = new RunResult.TestResult();
            t.test = r.get("test").getAsString();
            t.outcome = r.get("outcome").getAsString();
            result.results.add(t);
        }
        ran(exp, result);
    }

    /** Whether the next round runs in a shared JVM; runs the check when it is due. */
    boolean usable(Path jar) throws IOException, MojoExecutionException {
        if (verdict == null && baseline != null && rounds.size() >= FRESH_ROUNDS) {
            verdict = check(jar);
        }
        return "ok".equals(verdict);
    }

    /**
     * A shared JVM to run the next order in, for the caller alone until {@link #give}: an idle one
     * that may run another order, or a new one (in a working directory of its own when
     * {@code ownDirectories}: several forks).
     */
    synchronized SharedJvm take(Path jar) throws IOException {
        while (!idle.isEmpty()) {
            Slot slot = idle.pop();
            if (slot.jvm.usable()) {
                return slot.jvm;
            }
            retire(slot);
        }
        started++;
        ForkDirectory dir = null;
        TestJvm.Spec spec = module.jvm;
        if (ownDirectories) {
            dir = ForkDirectory.create(
                    out.resolve("forks").resolve("shared-" + started), module.jvm.workingDirectory, out);
            spec = module.jvm.isolated(dir.work, dir.tmp);
        }
        SharedJvm jvm = SharedJvm.start(
                spec, module.agentJar, jar, out.resolve("detect").resolve("shared-jvm-" + started + ".log"));
        slots.put(jvm, new Slot(jvm, dir, started));
        return jvm;
    }

    /** Gives back a shared JVM {@link #take} lent: kept for the next order, or ended when retired. */
    synchronized void give(SharedJvm jvm) {
        Slot slot = slots.get(jvm);
        if (slot == null) {
            return;
        }
        if (jvm.usable()) {
            idle.push(slot);
        } else {
            retire(slot);
        }
    }

    private void retire(Slot slot) {
        log.debug("odrust: shared JVM " + slot.number + " ended after " + slot.jvm.served() + " orders: "
                + slot.jvm.retired());
        slots.remove(slot.jvm);
        try {
            slot.jvm.close();
        } catch (IOException e) {
            // it is gone
        }
        if (slot.dir != null) {
            try {
                slot.dir.delete();
            } catch (IOException e) {
                log.debug("odrust: could not delete " + slot.dir.work + ": " + e.getMessage());
            }
        }
    }

    /** A shared JVM and the working directory it runs in (null: the module's). */
    private static final class Slot {
        final SharedJvm jvm;
        final ForkDirectory dir;
        final int number;

        Slot(SharedJvm jvm, ForkDirectory dir, int number) {
            this.jvm = jvm;
            this.dir = dir;
            this.number = number;
        }
    }

    /** Shared JVMs started so far. */
    synchronized int started() {
        return started;
    }

    private String check(Path jar) throws IOException, MojoExecutionException {
        List<String> names = new ArrayList<>();
        List<List<String>> orders = new ArrayList<>();
        List<RunResult> fresh = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            names.add(i == 0 ? "the original order" : "the original order again");
            orders.add(baselineExperiment.order);
            fresh.add(baseline);
        }
        for (int i = 0; i < rounds.size(); i++) {
            names.add("round " + rounds.get(i).round);
            orders.add(rounds.get(i).order);
            fresh.add(roundResults.get(i));
        }
        JsonArray checked = new JsonArray();
        List<String> ranFresh = new ArrayList<>();
        String firstDifference = null;
        Path dir = out.resolve("detect").resolve("isolation-check");
        for (int i = 0; i < orders.size() && firstDifference == null; i++) {
            SharedJvm running = take(jar);
            RunResult shared;
            try {
                shared = new OrderRunner(module, engine, suite, dir.resolve("order-" + (i + 1)), log)
                        .quiet()
                        .classpathJar(jar)
                        .shared(running)
                        .run(String.join("\n", orders.get(i)), names.get(i));
            } finally {
                give(running);
            }
            Set<String> ignored = new LinkedHashSet<>(flaky());
            ignored.addAll(nod);
            JsonObject entry = new JsonObject();
            entry.addProperty("order", names.get(i));
            // Out of memory in its shared JVM (or that JVM had ended), the order ran again in a fresh
            // one: nothing compared.
            boolean inShared = ranShared(shared);
            entry.addProperty("in_shared_jvm", inShared);
            if (!inShared) {
                ranFresh.add(names.get(i));
                entry.addProperty("same", true);
                entry.add("differences", new JsonArray());
                entry.add("warnings", Json.WIRE.toJsonTree(shared.warnings));
                checked.add(entry);
                continue;
            }
            List<String> differences = differences(fresh.get(i), shared, ignored);
            if (!differences.isEmpty()) {
                // Run it again: a test that is NOD is no evidence against shared JVMs.
                Set<String> found = recheck(jar, orders.get(i), names.get(i), fresh.get(i), shared, ignored, dir, i);
                nod.addAll(found);
                entry.add("nod", Json.WIRE.toJsonTree(found));
                ignored.addAll(found);
                differences = differences(fresh.get(i), shared, ignored);
            }
            entry.addProperty("same", differences.isEmpty());
            entry.add("differences", Json.WIRE.toJsonTree(differences));
            entry.add("warnings", Json.WIRE.toJsonTree(shared.warnings));
            checked.add(entry);
            if (!differences.isEmpty()) {
                firstDifference = differences.get(0) + " (" + names.get(i) + ", order " + (i + 1) + " of the check)";
            } else if (!running.notRestored().isEmpty()) {
                // Every order would need a JVM of its own: nothing to gain, and a sign of JVM-wide state.
                firstDifference = String.join("; ", running.notRestored()) + " (" + names.get(i)
                        + "), which a shared JVM" + " cannot undo";
            }
        }
        boolean noneShared = firstDifference == null && ranFresh.size() == orders.size();
        if (noneShared) {
            firstDifference = "no order of the check ran in a shared JVM (each ran out of memory there, or the JVM"
                    + " had ended), so nothing was compared";
        }
        JsonObject file = new JsonObject();
        file.addProperty("used", firstDifference == null);
        file.add("not_compared", Json.WIRE.toJsonTree(flaky()));
        file.add("nod", Json.WIRE.toJsonTree(nod));
        file.add("checked", checked);
        Path path = out.resolve("detect").resolve("isolation-check.json");
        ReportWriter.atomicWrite(path, Json.PRETTY.toJson(file));
        if (firstDifference == null) {
            int skipped = flaky().size();
            log.info("isolation=classloader: " + String.join(", ", names)
                    + " gave every test the same outcome in a shared JVM"
                    + " with fresh class loaders as in fresh JVMs"
                    + (skipped == 0
                            ? ""
                            : " (but " + io.github.odrust.maven.core.Words.count(skipped, "test")
                                    + " whose outcome changed between baseline runs, not compared)")
                    + (nod.isEmpty()
                            ? ""
                            : " (but " + String.join(", ", nod) + ", whose outcome changed between runs of the"
                                    + " same order, NOD: not compared)")
                    + (ranFresh.isEmpty()
                            ? ""
                            : " (but " + String.join(", ", ranFresh) + ", which ran in a fresh JVM after the"
                                    + " shared one ran out of memory or had ended: not compared)")
                    + "; the other rounds, the explanations and the alone runs after each OD test's first run in"
                    + " shared JVMs (the baseline, confirmations, each OD test's first alone run and one run of each"
                    + " polluter, cleaner and state-setter found in fresh JVMs)");
            return "ok";
        }
        log.warn("isolation=classloader is not used for this module: " + firstDifference
                + (noneShared
                        ? ". If they ran out of memory, give the tests more in Surefire's argLine (e.g. -Xmx1g)"
                        : ". A shared JVM keeps something a fresh one does not")
                + ", so the rounds of this module run in fresh JVMs (details: " + path + ")");
        return firstDifference;
    }

    /** Whether {@code run} ran (at least in part) in a shared JVM, not again in a fresh one. */
    private static boolean ranShared(RunResult run) {
        return run.jvms.stream().anyMatch(j -> j.shared);
    }

    /**
     * Runs {@code order} again ({@value #RECHECKS} times: fresh, shared, fresh) and returns the tests
     * among those whose outcome differed between {@code fresh} and {@code shared} that are NOD.
     */
    private Set<String> recheck(
            Path jar,
            List<String> order,
            String name,
            RunResult fresh,
            RunResult shared,
            Set<String> ignored,
            Path dir,
            int index)
            throws IOException, MojoExecutionException {
        Set<String> differing = new LinkedHashSet<>();
        for (String d : differences(fresh, shared, ignored)) {
            differing.add(d.substring(0, d.indexOf(": ")));
        }
        List<RunResult> freshRuns = new ArrayList<>();
        freshRuns.add(fresh);
        List<RunResult> sharedRuns = new ArrayList<>();
        sharedRuns.add(shared);
        log.info("isolation=classloader: " + String.join(", ", differing) + " had another outcome in a shared JVM ("
                + name + "); running that order " + RECHECKS + " more times to see whether "
                + (differing.size() == 1 ? "it is" : "they are") + " non-deterministic");
        for (int r = 0; r < RECHECKS; r++) {
            boolean inShared = r % 2 == 1;
            OrderRunner runner = new OrderRunner(
                            module, engine, suite, dir.resolve("order-" + (index + 1) + "-again-" + (r + 1)), log)
                    .quiet()
                    .classpathJar(jar);
            String text = String.join("\n", order);
            String what = name + " again";
            if (inShared) {
                SharedJvm running = take(jar);
                try {
                    RunResult again = runner.shared(running).run(text, what);
                    // out of memory there, it ran in a fresh JVM
                    (ranShared(again) ? sharedRuns : freshRuns).add(again);
                } finally {
                    give(running);
                }
            } else {
                freshRuns.add(runner.run(text, what));
            }
        }
        return nodAmong(differing, freshRuns, sharedRuns);
    }

    /**
     * Of {@code differing}, the tests that are NOD: whose outcome is not one and the same over
     * the {@code fresh} runs, or not one and the same over the {@code shared} runs (the runs of
     * one order). The others differ between fresh and shared JVMs every time.
     */
    static Set<String> nodAmong(Set<String> differing, List<RunResult> fresh, List<RunResult> shared) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : differing) {
            if (outcomesOf(t, fresh).size() > 1 || outcomesOf(t, shared).size() > 1) {
                out.add(t);
            }
        }
        return out;
    }

    private static Set<String> outcomesOf(String test, List<RunResult> runs) {
        Set<String> out = new LinkedHashSet<>();
        for (RunResult r : runs) {
            out.add(outcomes(r).getOrDefault(test, "not run"));
        }
        return out;
    }

    /** Tests whose outcome changed between the baseline runs (NOD): their outcome says nothing. */
    private Set<String> flaky() {
        Set<String> flaky = new LinkedHashSet<>();
        baselineOutcomes.forEach((t, o) -> {
            if (o.size() > 1) {
                flaky.add(t);
            }
        });
        return flaky;
    }

    /** "p.A#t: pass in a fresh JVM, fail in a shared JVM", per test but {@code flaky} whose outcome differs. */
    static List<String> differences(RunResult fresh, RunResult shared, Set<String> flaky) {
        Map<String, String> a = outcomes(fresh);
        Map<String, String> b = outcomes(shared);
        Set<String> tests = new LinkedHashSet<>(a.keySet());
        tests.addAll(b.keySet());
        List<String> differences = new ArrayList<>();
        for (String t : tests) {
            if (flaky.contains(t)) {
                continue;
            }
            String x = a.getOrDefault(t, "not run");
            String y = b.getOrDefault(t, "not run");
            if (!x.equals(y)) {
                differences.add(t + ": " + x + " in a fresh JVM, " + y + " in a shared JVM");
            }
        }
        return differences;
    }

    private static Map<String, String> outcomes(RunResult result) {
        Map<String, String> m = new LinkedHashMap<>();
        for (RunResult.TestResult r : result.results) {
            m.put(r.test, r.outcome);
        }
        return m;
    }

    @Override
    public synchronized void close() {
        for (Slot slot : new ArrayList<>(slots.values())) {
            retire(slot);
        }
        idle.clear();
    }
}
