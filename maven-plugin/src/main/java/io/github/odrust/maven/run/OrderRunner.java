package io.github.odrust.maven.run;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.agent.format.PlanFile;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.CheckRunRequest;
import io.github.odrust.engine.protocol.PlanOrderRequest;
import io.github.odrust.engine.protocol.PlanOrderResponse;
import io.github.odrust.engine.protocol.RunCheck;
import io.github.odrust.engine.protocol.Suite;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.fork.EventTail;
import io.github.odrust.maven.fork.ManifestJar;
import io.github.odrust.maven.fork.SharedJvm;
import io.github.odrust.maven.fork.TestJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * Runs one order of tests exactly, in fresh JVMs, and records what really ran.
 *
 * <p>The engine turns the order into segments; the agent runs them in one JVM and streams events.
 * When that JVM ends early ({@code System.exit}, a crash, the timeout) the test that was running
 * gets that outcome, and the rest of the order goes on in a new JVM, planned again by the engine.
 * {@code result.json} is rewritten after every JVM, so an interrupted run leaves what it ran.
 */
public final class OrderRunner {
    private final TestModule module;
    private final Engine engine;
    private final DiscoveredSuite suite;
    /** The engine's part of {@link #suite}, once needed. */
    private Suite wireSuite;

    private final Path dir;
    private final Log log;
    private Consumer<RunResult.TestResult> onTest = r -> {};
    private boolean quiet;
    private Path sharedJar;
    private Path recordOptions;
    private TestJvm.Spec jvmSpec;
    private List<java.io.File> classpath;
    private SharedJvm shared;
    private PlanOrderResponse planned;

    public OrderRunner(TestModule module, Engine engine, DiscoveredSuite suite, Path dir, Log log) {
        this.classpath = module.classpath;
        this.module = module;
        this.engine = engine;
        this.suite = suite;
        this.dir = dir;
        this.log = log;
    }

    /**
     * Class-level failures go to the debug log instead of warnings: detection runs the same classes
     * in many orders, and the outcomes that matter are in the results.
     */
    public OrderRunner quiet() {
        this.quiet = true;
        return this;
    }

    /**
     * Uses this manifest-only classpath jar (already written, for this module) instead of writing
     * one per run: detection runs many orders over one unchanging classpath.
     */
    public OrderRunner classpathJar(Path jar) {
        this.sharedJar = jar;
        return this;
    }

    /**
     * Puts {@code first} ahead of the module's test classpath, so that its classes replace the
     * module's (odrust:repair runs a candidate patch's compiled test class this way).
     */
    public OrderRunner classpathFirst(java.io.File first) {
        List<java.io.File> cp = new ArrayList<>();
        cp.add(first);
        cp.addAll(module.classpath);
        this.classpath = cp;
        return this;
    }

    /**
     * Records the static fields each test reads and writes: the test JVM starts with the
     * jvm-agent as {@code -javaagent}, configured by {@code options} (docs/dependence.md).
     */
    public OrderRunner recording(Path options) {
        this.recordOptions = options;
        return this;
    }

    /** Starts the test JVMs with {@code spec} instead of the module's (a fork's own directory). */
    public OrderRunner jvm(TestJvm.Spec spec) {
        this.jvmSpec = spec;
        return this;
    }

    /**
     * Runs the order's first JVM's plan in {@code jvm}, a shared JVM (docs/isolation.md), when it
     * can still take one; what an early end leaves goes on in fresh JVMs as usual.
     */
    public OrderRunner shared(SharedJvm jvm) {
        this.shared = jvm;
        return this;
    }

    /**
     * Like {@link #shared}, for a shared JVM started with the shuffle agent (detect-id): the plan
     * names the order's shuffle options ({@link #recording}), which the shared JVM applies to this
     * order alone; a fresh JVM gets them as its {@code -javaagent} as usual.
     */
    public OrderRunner sharedShuffling(SharedJvm jvm) {
        this.shared = jvm;
        this.shuffleInShared = true;
        return this;
    }

    private boolean shuffleInShared;

    /**
     * Runs {@code plan} (an order the engine already resolved and segmented, e.g. with the
     * experiment that asked for it) instead of asking {@code plan_order} for the first JVM; the
     * order text given to {@link #run} must be that order.
     */
    public OrderRunner planned(PlanOrderResponse plan) {
        this.planned = plan;
        return this;
    }

    /** Called for each test as soon as its event arrives. */
    public OrderRunner onTest(Consumer<RunResult.TestResult> listener) {
        this.onTest = listener;
        return this;
    }

    /** Plans {@code orderText} with the engine (throws on unknown ids etc.) and runs it. */
    public RunResult run(String orderText, String source) throws MojoExecutionException {
        PlanOrderResponse plan = planned != null ? planned : plan(orderText, source);
        RunResult result = new RunResult();
        result.module = module.id();
        result.orderSource = source;
        result.requested.addAll(plan.order);
        plan.warnings.forEach(w -> {
            result.warnings.add(w);
            log.warn(w);
        });
        Path resultFile = dir.resolve("result.json");
        List<String> remaining = new ArrayList<>(result.requested);
        try {
            Files.createDirectories(dir);
            Path jar = sharedJar;
            if (jar == null) {
                jar = dir.resolve("classpath.jar");
                ManifestJar.write(jar, classpath, "io.github.odrust.agent.Main");
            }
            int jvmIndex = 0;
            while (!remaining.isEmpty()) {
                jvmIndex++;
                if (jvmIndex > 1) {
                    plan = plan(String.join("\n", remaining), source + " (the rest, in a new JVM)");
                    log.info("continuing with the remaining "
                            + io.github.odrust.maven.core.Words.count(remaining.size(), "test") + " in a new JVM (#"
                            + jvmIndex + ")");
                }
                int consumed = runJvm(jvmIndex, plan, jar, remaining, result);
                result.write(resultFile);
                if (consumed == 0) {
                    break;
                }
                remaining = new ArrayList<>(remaining.subList(consumed, remaining.size()));
            }
        } catch (IOException e) {
            throw new MojoExecutionException("odrust could not run the order: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted while running the order", e);
        }
        for (String t : remaining) {
            RunResult.TestResult r = new RunResult.TestResult();
            r.test = t;
            r.outcome = "not-run";
            r.message = "never started: the test JVM could not run it (see the JVM log)";
            r.jvm = result.jvms.isEmpty() ? 0 : result.jvms.get(result.jvms.size() - 1).index;
            result.results.add(r);
            onTest.accept(r);
        }
        List<String> ran = new ArrayList<>();
        result.results.stream().filter(r -> !"not-run".equals(r.outcome)).forEach(r -> ran.add(r.test));
        RunCheck verdict = engine.call("check_run", new CheckRunRequest(result.requested, ran), RunCheck.class);
        result.honoured = verdict.honoured;
        result.firstDifference = Json.WIRE.toJsonTree(verdict.firstDifference);
        try {
            result.write(resultFile);
        } catch (IOException e) {
            throw new MojoExecutionException("could not write " + resultFile + ": " + e.getMessage(), e);
        }
        return result;
    }

    private PlanOrderResponse plan(String orderText, String source) {
        if (wireSuite == null) {
            wireSuite = suite.wire();
        }
        return engine.call("plan_order", new PlanOrderRequest(wireSuite, orderText, source), PlanOrderResponse.class);
    }

    /** Runs one JVM over the plan; returns how many entries of {@code remaining} it consumed. */
    private int runJvm(int index, PlanOrderResponse plan, Path jar, List<String> remaining, RunResult result)
            throws IOException, InterruptedException, MojoExecutionException {
        Path events = dir.resolve("events-" + index + ".jsonl");
        Path planFile = dir.resolve("plan-" + index + ".txt");
        Path jvmLog = dir.resolve("jvm-" + index + ".log");
        PlanFile.Writer p = new PlanFile.Writer("run", events)
                .frameworks(module.frameworks)
                .classpath(classpath)
                .systemProperties(module.systemProperties)
                .configurationParameters(module.settings.junitPlatformConfiguration);
        int segmentBase = result.segments.size();
        List<String> planReasons = new ArrayList<>();
        if (shuffleInShared && recordOptions != null) {
            p.shuffle(recordOptions);
        }
        for (PlanOrderResponse.Segment seg : plan.segments) {
            planReasons.add(seg.reason);
            p.segment(seg.framework, seg.className, seg.tests);
        }
        p.write(planFile);
        Files.deleteIfExists(events);

        RunResult.Jvm jvm = new RunResult.Jvm();
        jvm.index = index;
        jvm.events = events.getFileName().toString();
        jvm.log = jvmLog.getFileName().toString();
        jvm.plan = planFile.getFileName().toString();
        result.jvms.add(jvm);

        Map<String, Integer> started = new HashMap<>();
        int[] currentSegment = {-1};
        String[] running = {null};
        boolean[] flags = new boolean[2]; // [0] end seen, [1] exit seen
        // An array: a shared JVM that ended before the order started is replaced, and its tail with it.
        EventTail[] tail = {new EventTail(events)};
        TestJvm.Watcher watcher = () -> {
            for (JsonObject e : tail[0].poll()) {
                switch (kind(e)) {
                    case "segment": {
                        RunResult.Segment seg = new RunResult.Segment();
                        seg.index = result.segments.size();
                        seg.className = Discovery.str(e, "class");
                        seg.framework = Discovery.str(e, "framework");
                        e.getAsJsonArray("tests").forEach(t -> seg.tests.add(t.getAsString()));
                        seg.jvm = index;
                        // Why this segment stands apart: the agent's split, else the engine's cut.
                        seg.split = Discovery.str(e, "split");
                        int planIndex = e.has("index") && !e.get("index").isJsonNull()
                                ? e.get("index").getAsInt()
                                : -1;
                        if (seg.split == null && planIndex >= 0 && planIndex < planReasons.size()) {
                            seg.split = planReasons.get(planIndex);
                        }
                        result.segments.add(seg);
                        currentSegment[0] = seg.index;
                        break;
                    }
                    case "start":
                        jvm.startMs = uptime(e);
                        break;
                    case "test-start":
                        if (jvm.firstTestMs == null) {
                            jvm.firstTestMs = uptime(e);
                        }
                        running[0] = Discovery.str(e, "test");
                        started.merge(running[0], 1, Integer::sum);
                        break;
                    case "test": {
                        RunResult.TestResult r = new RunResult.TestResult();
                        r.test = Discovery.str(e, "test");
                        r.outcome = Discovery.str(e, "outcome");
                        r.message = Discovery.str(e, "message");
                        r.exception = Discovery.str(e, "exception");
                        r.trace = Discovery.str(e, "trace");
                        r.expected = Discovery.str(e, "expected");
                        r.actual = Discovery.str(e, "actual");
                        r.timeMs = e.has("time_ms") && !e.get("time_ms").isJsonNull()
                                ? e.get("time_ms").getAsLong()
                                : null;
                        r.jvm = index;
                        r.segment = currentSegment[0] >= 0 ? currentSegment[0] : null;
                        r.calls = e.has("calls") && !e.get("calls").isJsonNull()
                                ? e.get("calls").getAsLong()
                                : null;
                        r.reads = stringList(e, "reads");
                        r.writes = stringList(e, "writes");
                        result.results.add(r);
                        if (r.test != null && r.test.equals(running[0])) {
                            running[0] = null;
                        }
                        onTest.accept(r);
                        break;
                    }
                    case "class-state": {
                        RunResult.ClassState state = new RunResult.ClassState();
                        state.className = Discovery.str(e, "class");
                        List<String> reads = stringList(e, "reads");
                        List<String> writes = stringList(e, "writes");
                        if (reads != null) {
                            state.reads = reads;
                        }
                        if (writes != null) {
                            state.writes = writes;
                        }
                        result.classStates.add(state);
                        break;
                    }
                    case "class-failure": {
                        String text = "class-level failure in " + Discovery.str(e, "class") + ": "
                                + Discovery.str(e, "message");
                        if (quiet) {
                            log.debug(text);
                        } else {
                            log.warn(text);
                        }
                        break;
                    }
                    case "exit":
                        flags[1] = true;
                        break;
                    case "end":
                        jvm.endMs = uptime(e);
                        flags[0] = true;
                        break;
                    case "agent-error":
                        log.error("odrust runner error: " + Discovery.str(e, "message"));
                        break;
                    case "out-of-memory":
                        jvm.outOfMemory = Discovery.str(e, "message");
                        break;
                    default:
                        break;
                }
            }
        };
        TestJvm.Spec base = jvmSpec != null ? jvmSpec : module.jvm;
        TestJvm.Spec spec = recordOptions == null
                ? base
                : base.withJvmArg(
                        "-javaagent:" + module.agentJar.getAbsolutePath() + "=" + recordOptions.toAbsolutePath());
        TestJvm.Exit exit = null;
        if (shared != null && index == 1 && shared.usable()) {
            int resultsBefore = result.results.size();
            int statesBefore = result.classStates.size();
            SharedJvm.Served served = shared.run(planFile, events, spec.timeoutSeconds, watcher);
            boolean nothingRan = result.results.size() == resultsBefore && running[0] == null;
            // Out of memory in a shared JVM: what earlier orders left there may hold it (a fresh
            // JVM's tests start with all of it), before the order's first test or, when it ran
            // orders before this one, during a test.
            boolean outOfMemory = jvm.outOfMemory != null;
            boolean again = nothingRan ? !served.done || outOfMemory : outOfMemory && shared.served() > 1;
            if (!served.exit.timedOut && again) {
                // The shared JVM ended before it ran anything of this order (a thread an earlier
                // order left called System.exit, say) or ran out of memory: the whole order runs
                // in a fresh JVM instead, and the shared JVM runs no more. A test that runs out of
                // memory in a fresh JVM too is reported from there.
                if (outOfMemory) {
                    shared.retire("it ran out of memory (" + jvm.outOfMemory + ")");
                    String where = nothingRan
                            ? "before the order's first test"
                            : running[0] != null ? "during " + running[0] : "during the order";
                    log.info("odrust: a shared test JVM ran out of memory (" + jvm.outOfMemory + ") " + where
                            + "; the order runs again in a fresh JVM, and a new shared JVM runs the next ones");
                }
                log.debug("odrust: the shared JVM could not run " + planFile.getFileName() + " (" + shared.retired()
                        + "); running it in a fresh JVM");
                result.results.subList(resultsBefore, result.results.size()).clear();
                result.classStates
                        .subList(statesBefore, result.classStates.size())
                        .clear();
                running[0] = null;
                jvm.startMs = null;
                jvm.firstTestMs = null;
                jvm.endMs = null;
                result.segments.subList(segmentBase, result.segments.size()).clear();
                currentSegment[0] = -1;
                started.clear();
                flags[0] = false;
                flags[1] = false;
                jvm.outOfMemory = null;
                Files.deleteIfExists(events);
                Files.deleteIfExists(events.resolveSibling(events.getFileName() + ".done"));
                tail[0] = new EventTail(events);
            } else {
                if (outOfMemory) {
                    // during a test of its first order (nothing earlier in it): as a fresh JVM would
                    shared.retire("it ran out of memory (" + jvm.outOfMemory + ")");
                }
                exit = served.exit;
                jvm.shared = true;
                jvm.log = shared.log().toAbsolutePath().toString();
                if (!served.leakedThreads.isEmpty()) {
                    result.warnings.add("the order left threads running in the shared JVM: "
                            + String.join(", ", served.leakedThreads) + "; the next order starts a new one");
                }
                served.notRestored.forEach(n -> result.warnings.add(n + "; the next order starts a new shared JVM"));
            }
        }
        if (exit == null) {
            exit = TestJvm.run(spec, jar, planFile, jvmLog, watcher);
        }
        if (!exit.leftovers.isEmpty()) {
            log.warn("the tests left " + io.github.odrust.maven.core.Words.count(exit.leftovers.size(), "process")
                    + " running after test JVM #" + index + " ended; odrust killed "
                    + (exit.leftovers.size() == 1 ? "it" : "them") + ": " + String.join("; ", exit.leftovers));
        }
        jvm.exitCode = exit.exitCode;
        jvm.millis = exit.millis;
        if (exit.timedOut) {
            jvm.status = "timeout";
        } else if (flags[0]) {
            jvm.status = "ok";
        } else if (flags[1]) {
            jvm.status = "exit";
        } else {
            jvm.status = "crash";
        }
        if (!"ok".equals(jvm.status) && running[0] != null) {
            RunResult.TestResult r = new RunResult.TestResult();
            r.test = running[0];
            r.outcome = jvm.status;
            r.message = abnormalMessage(jvm, exit);
            r.jvm = index;
            r.segment = currentSegment[0] >= 0 ? currentSegment[0] : null;
            result.results.add(r);
            onTest.accept(r);
        }
        int first = result.results.size();
        for (int i = result.results.size() - 1; i >= 0 && result.results.get(i).jvm == index; i--) {
            first = i;
        }
        List<String> ranHere = new ArrayList<>();
        for (RunResult.TestResult r : result.results.subList(first, result.results.size())) {
            ranHere.add(r.test);
        }
        int consumed = consumed(remaining, ranHere);
        if (consumed == 0 && !"ok".equals(jvm.status)) {
            // tests that ran but are not the ones planned next (ids the runner made up at run
            // time) are said, not hidden behind "no test ran"
            String when = ranHere.isEmpty() || remaining.isEmpty()
                    ? "before running any test"
                    : "after running " + ranHere.size() + (ranHere.size() == 1 ? " test" : " tests")
                            + ", none of them the next one planned (" + remaining.get(0) + "; the first that ran: "
                            + ranHere.get(0) + ")";
            throw new MojoExecutionException(
                    "the test JVM #" + index + " ended (" + abnormalMessage(jvm, exit) + ") " + when
                            + ", so the order cannot run. Command: "
                            + String.join(" ", TestJvm.command(spec, jar, planFile)) + Discovery.tailOf(jvmLog));
        }
        if (segmentBase == result.segments.size() && consumed == 0) {
            log.warn("test JVM #" + index + " ran nothing of its plan " + planFile);
        }
        return consumed;
    }

    static String abnormalMessage(RunResult.Jvm jvm, TestJvm.Exit exit) {
        switch (jvm.status) {
            case "timeout":
                return "the test JVM was still running after the timeout (" + exit.millis / 1000
                        + " s); it and its child"
                        + " processes were killed. Raise -Dodrust.timeout if the tests are just slow.";
            case "exit":
                return "the test called System.exit(" + exit.exitCode + "), which ended the test JVM";
            default:
                if (jvm.outOfMemory != null) {
                    return "the test JVM ran out of memory during this test (" + jvm.outOfMemory
                            + "); give the tests more"
                            + " memory in Surefire's argLine (e.g. -Xmx1g), which odrust uses too; see " + jvm.log;
                }
                return "the test JVM died (exit code " + exit.exitCode + ") without finishing; see " + jvm.log;
        }
    }

    /**
     * How many entries of {@code requested} the ran tests account for, in order. A requested JUnit 5
     * dynamic container ({@code C#m}) accounts for a run of its invocations ({@code C#m[1]}, ...).
     */
    static int consumed(List<String> requested, List<String> ran) {
        int i = 0;
        int j = 0;
        while (i < requested.size() && j < ran.size()) {
            String want = requested.get(i);
            if (ran.get(j).equals(want)) {
                i++;
                j++;
            } else if (ran.get(j).startsWith(want + "[")) {
                while (j < ran.size() && ran.get(j).startsWith(want + "[")) {
                    j++;
                }
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    /** The strings of array {@code key}, or null when the event has no such array. */
    private static List<String> stringList(JsonObject e, String key) {
        JsonElement a = e.get(key);
        if (a == null || !a.isJsonArray()) {
            return null;
        }
        List<String> l = new ArrayList<>();
        a.getAsJsonArray().forEach(x -> l.add(x.getAsString()));
        return l;
    }

    private static String kind(JsonObject e) {
        JsonElement k = e.get("event");
        return k == null || k.isJsonNull() ? "" : k.getAsString();
    }

    /** The JVM's clock ({@code uptime_ms}) an event reports, or null. */
    private static Long uptime(JsonObject e) {
        return e.has("uptime_ms") && !e.get("uptime_ms").isJsonNull()
                ? e.get("uptime_ms").getAsLong()
                : null;
    }
}
