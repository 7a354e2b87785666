package io.github.odrust.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's shuffle mode ({@code odrust:detect-id}) end to end on every JDK 17+ installed:
 * {@code ShuffleSample} prints one line per covered API, each line one counted call. Each API
 * returns another permutation under another seed and the same one under the same seed; a clean
 * run prints exactly what a run without the agent prints; the count is exact; {@code only}
 * shuffles exactly the calls named; calls from outside the module's code are not counted unless
 * {@code filter any}.
 */
class ShuffleIT {
    static final String SAMPLE = "io.github.odrust.samples.shuffle.ShuffleSample";

    @TempDir
    Path dir;

    /**
     * Whether the JVMs keep the JDK's class data sharing on, as test JVMs do: without it, the bytes
     * a JVM rebuilds a loaded JDK class from for retransformation vary from one JVM to the next.
     */
    boolean classDataSharing;

    @BeforeAll
    static void locate() throws IOException {
        RecordIT.locate();
    }

    /** One run: its output lines and the agent's log. */
    static final class Run {
        List<String> lines;
        List<String> log;
        String stderr;
    }

    Run run(String jdk, String options) throws Exception {
        return run(jdk, options, SAMPLE);
    }

    Run run(String jdk, String options, String sample) throws Exception {
        Path files = dir.resolve("files");
        if (!Files.isDirectory(files)) {
            Files.createDirectories(files);
            for (String f : Arrays.asList("a", "b", "c", "d", "e", "f", "g", "h")) {
                Files.createFile(files.resolve(f));
            }
        }
        Path log = dir.resolve("shuffle.jsonl");
        Files.deleteIfExists(log);
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(jdk, "bin", "java").toString());
        if (!classDataSharing) {
            cmd.add("-Xshare:off");
        }
        if (options != null) {
            Path opts = dir.resolve("shuffle.options");
            Files.write(opts, (options + "log " + log + "\n").getBytes(StandardCharsets.UTF_8));
            cmd.add("-javaagent:" + RecordIT.agentJar.toAbsolutePath() + "=" + opts);
        }
        cmd.addAll(Arrays.asList("-cp", RecordIT.testClasses.toAbsolutePath().toString(), sample, files.toString()));
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("forked JVM timed out (a hang): " + cmd);
        }
        Run r = new Run();
        r.stderr = new String(Files.readAllBytes(err), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), r.stderr);
        r.lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        r.log = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : new ArrayList<String>();
        return r;
    }

    String project() {
        return "mode shuffle\nroot " + RecordIT.testClasses.toAbsolutePath() + "\n";
    }

    @Test
    void shufflesEveryCoveredApiOnEveryInstalledJdk() throws Exception {
        for (String jdk : CaptureIT.jdks()) {
            Run plain = run(jdk, null);
            Run clean = run(jdk, project());
            assertEquals(stable(plain.lines), stable(clean.lines), jdk + ": a clean run changes nothing");
            int calls = plain.lines.size();
            assertEquals(27, calls, jdk);
            assertEquals("{\"count\":" + calls + "}", clean.log.get(clean.log.size() - 1), jdk + ": count is exact");
            assertEquals(calls + 1, clean.log.size(), jdk + ": every counted call is logged (fewer than log-limit)");
            assertTrue(
                    clean.log.get(25).startsWith("{\"index\":26,\"nth\":1,\"api\":\"File.list\""), clean.log.get(25));

            Run a = run(jdk, project() + "seed 11\n");
            Run again = run(jdk, project() + "seed 11\n");
            Run b = run(jdk, project() + "seed 12\n");
            assertEquals(stable(a.lines), stable(again.lines), jdk + ": same seed, same permutations");
            // the same seed gives the same lines as they are, reflection's included (ShufflerTest
            // checks that its order no longer starts from HotSpot's, which can differ between JVMs)
            assertEquals(a.lines, again.lines, jdk + ": same seed, same order, reflection's included");
            assertEquals("{\"count\":" + calls + "}", a.log.get(a.log.size() - 1), jdk);
            for (int i = 0; i < calls; i++) {
                String api = plain.lines.get(i).split(" ")[0];
                if (UNSTABLE.contains(api)) {
                    assertEquals(sorted(plain.lines.get(i)), sorted(a.lines.get(i)), jdk + ": " + api);
                    continue;
                }
                assertNotEquals(plain.lines.get(i), a.lines.get(i), jdk + ": " + api + " is shuffled under seed 11");
                assertNotEquals(a.lines.get(i), b.lines.get(i), jdk + ": " + api + " differs between seeds 11 and 12");
                assertEquals(
                        sorted(plain.lines.get(i)), sorted(a.lines.get(i)), jdk + ": " + api + " keeps its elements");
            }

            Run only = run(jdk, project() + "seed 11\nonly 5\nonly 19-20\n");
            for (int i = 0; i < calls; i++) {
                boolean shuffled = i + 1 == 5 || i + 1 == 19 || i + 1 == 20;
                assertEquals(
                        stable(shuffled ? a.lines.get(i) : plain.lines.get(i)),
                        stable(only.lines.get(i)),
                        jdk + ": only 5 and 19-20 are shuffled, each as in the run that shuffled all; line " + (i + 1));
            }
            assertEquals(4, only.log.size(), jdk + ": the log has the three calls and the count: " + only.log);
            assertTrue(
                    only.log
                            .get(0)
                            .startsWith(
                                    "{\"index\":5,\"nth\":1,\"api\":\"HashMap$KeySet.iterator\",\"at\":{\"class\":\""
                                            + SAMPLE
                                            + "\",\"method\":\"main\",\"file\":\"ShuffleSample.java\",\"line\":"),
                    only.log.get(0));
            assertTrue(
                    only.log.get(0).contains("\"alloc\":null")
                            || !only.log.get(0).contains("alloc"),
                    "allocations are not tracked unless asked: " + only.log.get(0));
            assertTrue(only.log.get(1).contains("\"api\":\"Class.getDeclaredFields\""), only.log.get(1));

            Run tracked = run(jdk, project() + "seed 11\nonly 1\ntrack-allocations true\n");
            assertTrue(tracked.log.get(0).contains("\"api\":\"HashMap$KeySet.iterator\""), tracked.log.get(0));
            assertTrue(
                    tracked.log
                            .get(0)
                            .contains("\"alloc\":{\"type\":\"HashSet\",\"at\":{\"class\":\"" + SAMPLE
                                    + "\",\"method\":\"main\""),
                    "the HashSet's allocation: " + tracked.log.get(0));

            Run elsewhere = run(jdk, "mode shuffle\nroot " + dir.resolve("not-the-sample") + "\nseed 11\n");
            assertEquals(
                    stable(plain.lines),
                    stable(elsewhere.lines),
                    jdk + ": calls from outside the module are not shuffled");
            assertEquals("{\"count\":0}", elsewhere.log.get(0), jdk);
            Run any = run(jdk, "mode shuffle\nroot " + dir.resolve("not-the-sample") + "\nseed 11\nfilter any\n");
            assertEquals(stable(a.lines), stable(any.lines), jdk + ": filter any counts every non-JDK caller");

            // The sample is the module (include), the library is not: by default the library's call
            // does not count; with filter any it does, at the sample's line, via the library.
            String module =
                    "mode shuffle\nroot " + dir.resolve("not-the-sample") + "\ninclude " + SAMPLE + "\nseed 11\n";
            Run own = run(jdk, module);
            assertEquals("{\"count\":" + (calls - 1) + "}", own.log.get(own.log.size() - 1), jdk + ": " + own.log);
            assertEquals(
                    plain.lines.get(calls - 1),
                    own.lines.get(calls - 1),
                    jdk + ": the library's iteration is not shuffled");
            Run viaLibrary = run(jdk, module + "filter any\n");
            String last = viaLibrary.log.get(calls - 1);
            assertTrue(
                    last.startsWith("{\"index\":27,\"nth\":1,\"api\":\"HashMap$KeySet.iterator\",\"at\":{\"class\":\""
                            + SAMPLE + "\",\"method\":\"main\""),
                    last);
            assertTrue(
                    last.contains(
                            "\"via\":{\"class\":\"io.github.odrust.samples.shufflelib.ShuffleLibrary\",\"method\":\"join\""),
                    last);
        }
    }

    /**
     * A result of fewer than two elements has one order only: such a call is neither counted nor
     * shuffled (every covered API on empty and one-element collections), so a seed shuffles only
     * the one set of three and the count is 1; and asking whether a spliterator's collection is
     * that small does not bind the spliterator early.
     */
    @Test
    void resultsOfFewerThanTwoElementsAreNotCounted() throws Exception {
        String sample = "io.github.odrust.samples.shuffle.ShuffleSmallSample";
        for (String jdk : CaptureIT.jdks()) {
            Run plain = run(jdk, null, sample);
            assertEquals(4, plain.lines.size(), jdk + ": " + plain.lines);
            assertEquals("late-binding [late]", plain.lines.get(2));
            for (long seed : new long[] {2, 12}) {
                Run r = run(jdk, project() + "seed " + seed + "\n", sample);
                assertEquals(plain.lines.subList(0, 3), r.lines.subList(0, 3), jdk + ", seed " + seed);
                assertNotEquals(plain.lines.get(3), r.lines.get(3), jdk + ", seed " + seed + ": the set of three");
                assertEquals(2, r.log.size(), jdk + ": one counted call and the count: " + r.log);
                assertTrue(
                        r.log.get(0).startsWith("{\"index\":1,\"nth\":1,\"api\":\"HashMap$KeySet.iterator\""),
                        r.log.get(0));
                assertEquals("{\"count\":1}", r.log.get(1), jdk);
            }
        }
    }

    /**
     * {@code runtime-cache}: the first JVM leaves the runtime's jar and the JDK classes it rewrote in
     * the directory, whole (no part file left), the next ones use them as they are, a damaged one
     * is written again, and every run shuffles as a run without the cache does.
     */
    @Test
    void theRuntimeJarIsKeptForTheNextJvmsAndShufflesAlike() throws Exception {
        String jdk = CaptureIT.jdks().get(0);
        Path cache = dir.resolve("cache");
        classDataSharing = true;
        Run uncached = run(jdk, project() + "seed 11\n");
        assertEquals("{\"count\":27}", uncached.log.get(uncached.log.size() - 1), "shuffling ran: " + uncached.stderr);
        Run first = run(jdk, project() + "seed 11\nruntime-cache " + cache + "\n");
        assertFalse(first.stderr.contains("odrust-agent"), first.stderr);
        assertEquals(
                stable(uncached.lines), stable(first.lines), "the cached runtime shuffles as a temporary one does");
        assertEquals(uncached.log, first.log);
        List<Path> kept = new ArrayList<>();
        try (java.util.stream.Stream<Path> files = Files.list(cache)) {
            files.sorted().forEach(kept::add);
        }
        // the runtime's jar and the JDK classes the transformer rewrote, and nothing else
        assertEquals(2, kept.size(), "a jar and a class file: " + kept);
        Path classes = kept.get(0);
        Path jar = kept.get(1);
        assertTrue(jar.getFileName().toString().matches("odrust-shuffle-rt-[0-9a-f]+\\.jar"), jar.toString());
        assertTrue(
                classes.getFileName().toString().matches("odrust-shuffle-classes-[0-9a-f]+-[0-9a-f]+\\.bin"),
                classes.toString());
        // the bytes the JVM hands over to be rewritten are rebuilt from the loaded classes, and the
        // first JVM (no file to read) rebuilds some otherwise: the second keeps its variants too
        Run warm = run(jdk, project() + "seed 11\nruntime-cache " + cache + "\n");
        assertEquals(uncached.log, warm.log);
        java.nio.file.attribute.FileTime written = java.nio.file.attribute.FileTime.fromMillis(1_000_000L);
        Files.setLastModifiedTime(jar, written);
        Files.setLastModifiedTime(classes, written);
        // half-written jars: one a JVM killed long ago left, one another JVM may be writing now
        Path stale = cache.resolve(jar.getFileName() + ".1f.part");
        Path writing = cache.resolve(jar.getFileName() + ".2f.part");
        Files.write(stale, "half".getBytes(StandardCharsets.UTF_8));
        Files.write(writing, "half".getBytes(StandardCharsets.UTF_8));
        Files.setLastModifiedTime(stale, written);
        Run second = run(jdk, project() + "seed 11\nruntime-cache " + cache + "\n");
        assertEquals(stable(uncached.lines), stable(second.lines));
        assertEquals(uncached.log, second.log);
        assertEquals(written, Files.getLastModifiedTime(jar), "the second JVM read the jar, did not write it");
        if (Files.isRegularFile(Paths.get(jdk, "lib", "server", "classes.jsa"))) {
            // with class data sharing the bytes a JVM rebuilds its JDK classes from are the same
            // from one JVM to the next (without, some vary: those are rewritten each time)
            assertEquals(
                    written,
                    Files.getLastModifiedTime(classes),
                    "the second JVM took the rewritten classes as they were");
        }
        assertFalse(Files.exists(stale), "a part left long ago is deleted");
        assertTrue(Files.exists(writing), "a part written now is left to its writer");
        Files.delete(writing);

        // a damaged file of either kind is written again, and the run shuffles all the same
        for (Path damaged : Arrays.asList(classes, jar)) {
            Files.write(damaged, "damaged".getBytes(StandardCharsets.UTF_8));
            Run again = run(jdk, project() + "seed 11\nruntime-cache " + cache + "\n");
            assertEquals(stable(uncached.lines), stable(again.lines), damaged + ": " + again.stderr);
            assertEquals(uncached.log, again.log);
            assertTrue(Files.size(damaged) > 1000, damaged + " was written again");
        }

        // a cache that cannot be written (a file where its directory should be): a temporary jar,
        // said once on stderr, and the run shuffles all the same
        Path blocked = dir.resolve("blocked");
        Files.write(blocked, "a file".getBytes(StandardCharsets.UTF_8));
        Run fallback = run(jdk, project() + "seed 11\nruntime-cache " + blocked + "\n");
        assertEquals(uncached.log, fallback.log, fallback.stderr);
        assertTrue(fallback.stderr.contains("cannot keep the shuffling runtime's jar in " + blocked), fallback.stderr);
        try (java.util.stream.Stream<Path> files = Files.list(cache)) {
            assertEquals(2, files.count());
        }
    }

    /**
     * Calls of two elements: under an even seed each is swapped (every shuffled call changes the
     * order); under an odd seed each draws from both orders, so two calls can disagree; with
     * {@code consistent-call K} every call gets call K's permutation.
     */
    @Test
    void twoElementCallsDisagreeUnderOddSeedsAndAgreeWhenConsistent() throws Exception {
        String sample = "io.github.odrust.samples.shuffle.ShuffleTwoSample";
        for (String jdk : CaptureIT.jdks()) {
            Run plain = run(jdk, null, sample);
            assertEquals(16, plain.lines.size(), jdk);
            String original = plain.lines.get(0);
            String swapped = new StringBuilder(original).reverse().toString();
            assertTrue(plain.lines.stream().allMatch(original::equals), jdk + ": " + plain.lines);
            for (long even : new long[] {2, 12}) {
                Run r = run(jdk, project() + "seed " + even + "\n", sample);
                assertTrue(
                        r.lines.stream().allMatch(swapped::equals),
                        jdk + ", seed " + even + ": every call changes: " + r.lines);
            }
            for (long odd : new long[] {3, 11}) {
                Run r = run(jdk, project() + "seed " + odd + "\n", sample);
                assertTrue(
                        r.lines.contains(original) && r.lines.contains(swapped),
                        jdk + ", seed " + odd + ": " + r.lines);
                int changed = r.lines.indexOf(swapped) + 1;
                int kept = r.lines.indexOf(original) + 1;
                Run likeChanged = run(jdk, project() + "seed " + odd + "\nconsistent-call " + changed + "\n", sample);
                assertTrue(
                        likeChanged.lines.stream().allMatch(swapped::equals),
                        jdk + ", seed " + odd + ": every call as call " + changed + ": " + likeChanged.lines);
                Run likeKept = run(jdk, project() + "seed " + odd + "\nconsistent-call " + kept + "\n", sample);
                assertTrue(
                        likeKept.lines.stream().allMatch(original::equals),
                        jdk + ", seed " + odd + ": every call as call " + kept + ": " + likeKept.lines);
            }
        }
    }

    /**
     * {@code only-call N SITE} shuffles the N-th counted call of one site, whatever its number in
     * the JVM: calls are numbered 1, 2, 3, ... across sites, and each logged call says its number
     * at its site ({@code nth}), which names it alike in a JVM that numbers calls otherwise.
     */
    @Test
    void onlyCallShufflesTheNthCallOfOneSite() throws Exception {
        String sample = "io.github.odrust.samples.shuffle.ShuffleSitesSample";
        for (String jdk : CaptureIT.jdks()) {
            Run all = run(jdk, project() + "seed 2\n", sample);
            assertEquals(16, all.lines.size(), jdk);
            // every call logged: index k is the ((k + 1) / 2)-th of its site
            String sixth = all.log.stream()
                    .filter(l -> l.startsWith("{\"index\":6,"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(jdk + ": no call 6 in " + all.log));
            assertTrue(sixth.contains("\"nth\":3,"), jdk + ": call 6 is the second site's third: " + sixth);
            assertTrue(sixth.contains("\"method\":\"second\""), sixth);
            String api = field(sixth, "api");
            int line = Integer.parseInt(sixth.replaceAll(".*\"line\":(\\d+).*", "$1"));
            String site = api + " at " + sample + ".second:" + line;
            Run one = run(jdk, project() + "seed 2\nonly-call 3 " + site + "\n", sample);
            String original = run(jdk, null, sample).lines.get(0);
            assertNotEquals(
                    original, all.lines.get(5), jdk + ": seed 2 swaps call 6, so the lines below tell it apart");
            for (int i = 0; i < 16; i++) {
                assertEquals(
                        i == 5 ? all.lines.get(i) : original,
                        one.lines.get(i),
                        jdk + ": only call 6 (the second site's third) is shuffled, line " + (i + 1) + " of "
                                + one.lines);
            }
            assertEquals(2, one.log.size(), jdk + ": the shuffled call and the count: " + one.log);
            assertTrue(one.log.get(0).startsWith("{\"index\":6,\"nth\":3,"), one.log.get(0));
            assertEquals("{\"count\":16}", one.log.get(1));
            // the run a pin's reproduction makes (-Dodrust.id.only=6): the same call permuted alike,
            // so a pin confirmed by its site may be reported as that number
            Run byNumber = run(jdk, project() + "seed 2\nonly 6\n", sample);
            assertEquals(one.lines, byNumber.lines, jdk + ": only-call 3 of the site and only 6");
            assertEquals(one.log, byNumber.log, jdk);
            Run none = run(jdk, project() + "seed 2\nonly-call 9 " + site + "\n", sample);
            assertEquals(Collections.nCopies(16, original), none.lines, jdk + ": the site makes 8 calls, not 9");
        }
    }

    private static String field(String json, String name) {
        int at = json.indexOf("\"" + name + "\":\"") + name.length() + 4;
        return json.substring(at, json.indexOf('"', at));
    }

    /**
     * Removing through a shuffled view does what removing through the JDK's own does, and never
     * recurses: {@code values().remove(v)} iterates the values view itself (it hung once, the
     * shuffled iterator's {@code remove} calling {@code remove(v)} again), duplicate values, a
     * priority queue (which reorders as it removes), {@code removeIf}, {@code forEachRemaining},
     * and the iterator's contract. Every line is order-free: each seed must print what the JDK
     * alone prints.
     */
    @Test
    void removingThroughShuffledViewsDoesWhatTheJdkDoes() throws Exception {
        String sample = "io.github.odrust.samples.shuffle.ShuffleRemoveSample";
        for (String jdk : CaptureIT.jdks()) {
            Run plain = run(jdk, null, sample);
            assertEquals(12, plain.lines.size(), jdk + ": " + plain.lines);
            assertEquals("HashMap.values.remove true 11 3", plain.lines.get(1), jdk);
            assertEquals("HashMap.values.iterator.remove-all {}", plain.lines.get(2), jdk);
            assertEquals("remove-before-next IllegalStateException", plain.lines.get(10), jdk);
            assertEquals("remove-twice IllegalStateException", plain.lines.get(11), jdk);
            for (long seed = 1; seed <= 6; seed++) {
                Run shuffled = run(jdk, project() + "seed " + seed + "\n", sample);
                assertEquals(plain.lines, shuffled.lines, jdk + ", seed " + seed + ": " + shuffled.stderr);
                String count = shuffled.log.get(shuffled.log.size() - 1);
                assertTrue(
                        !count.equals("{\"count\":0}") && count.startsWith("{\"count\":"),
                        jdk + ": the views were shuffled: " + count);
            }
        }
    }

    /**
     * HotSpot orders declared methods and constructors by the addresses of their name symbols, which differ between
     * runs of one program (more so with an agent loading classes): these lines are compared as
     * multisets of characters only.
     */
    static final List<String> UNSTABLE = Arrays.asList(
            "Class.getDeclaredMethods", "Class.getMethods", "Class.getDeclaredConstructors", "Class.getConstructors");

    private static String stable(String line) {
        return UNSTABLE.contains(line.split(" ")[0]) ? sorted(line) : line;
    }

    private static List<String> stable(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            out.add(stable(l));
        }
        return out;
    }

    private static String sorted(String line) {
        char[] c = line.toCharArray();
        Arrays.sort(c);
        return new String(c);
    }
}
