package io.github.odrust.maven.repair.id;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.detect.DetectDirectory;
import io.github.odrust.maven.detect.ReportWriter;
import io.github.odrust.maven.idtests.Shuffle;
import io.github.odrust.maven.repair.CandidateCompiler;
import io.github.odrust.maven.repair.PatchCheck;
import io.github.odrust.maven.repair.RepairFile;
import io.github.odrust.maven.repair.UnifiedPatch;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.OrderRunner;
import io.github.odrust.maven.run.RunResult;
import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;

/**
 * {@code odrust:repair} for the implementation-dependent tests of {@code id/report.json}
 * (docs/id-tests.md): for each test pinned to one shuffled call, tries the DexFix rewrites the
 * engine chose, in its order ({@link DexFix}), compiles each candidate, and verifies it by running
 * the test alone clean and under every verify seed with the candidate's class first on the class
 * path (its calls counted as the module's). The first candidate that passes every run is offered
 * as {@code repair/id/<test>.patch}; everything tried is in {@code repair/id-repair.json}.
 */
public final class IdRepairer {
    /** What the user asked for. */
    public static final class Settings {
        public boolean apply;
        public String test;
        /** Main and test source roots, in Maven's order. */
        public final List<File> sourceRoots = new ArrayList<>();

        public String encoding;
        /** The Java level of main sources, and of test sources. */
        public String release;

        public String testRelease;
        /** The test source roots (a subset of {@link #sourceRoots}). */
        public final List<File> testSourceRoots = new ArrayList<>();
        /** Where mvn ran: patch paths are relative to it. */
        public Path root;

        public Shuffle.Filter filter = new Shuffle.Filter();
    }

    private final Engine engine;
    private final TestModule module;
    private final DiscoveredSuite suite;
    private final Path dir;
    private final Settings settings;
    private final Log log;
    private final Charset encoding;
    /** Candidates compiled for the current test (each gets a directory of its own). */
    private int runs;

    public IdRepairer(Engine engine, TestModule module, DiscoveredSuite suite, Path out, Settings settings, Log log) {
        this.engine = engine;
        this.module = module;
        this.suite = suite;
        this.dir = out.resolve("repair");
        this.settings = settings;
        this.log = log;
        this.encoding = settings.encoding == null ? StandardCharsets.UTF_8 : Charset.forName(settings.encoding);
    }

    /** The ID report of the last odrust:detect-id, or null. */
    public static JsonObject report(Path out, String engineVersion)
            throws MojoExecutionException, MojoFailureException {
        Path f = out.resolve("id").resolve("report.json");
        if (!Files.isRegularFile(f)) {
            return null;
        }
        JsonObject report;
        try {
            report = JsonParser.parseString(new String(Files.readAllBytes(f), StandardCharsets.UTF_8))
                    .getAsJsonObject();
        } catch (IOException | RuntimeException e) {
            throw new MojoExecutionException(
                    f + " cannot be read (" + e.getMessage() + "); run `mvn odrust:detect-id` again");
        }
        check(f, report, engineVersion);
        return report;
    }

    /** Refuses an id/report.json that is not what this odrust writes, naming the path in it and the value. */
    static void check(Path f, JsonObject report, String engineVersion) throws MojoFailureException {
        String again = "; run `mvn odrust:detect-id` again with this odrust to write it anew.";
        JsonElement made = report.get("engine");
        if (made == null || !made.isJsonPrimitive() || !engineVersion.equals(made.getAsString())) {
            throw new MojoFailureException(f + " was made by "
                    + (made == null || !made.isJsonPrimitive() ? "an older odrust" : "odrust " + made.getAsString())
                    + ", and this is odrust " + engineVersion + again);
        }
        JsonElement settings = report.get("settings");
        JsonElement counting = settings != null && settings.isJsonObject()
                ? settings.getAsJsonObject().get("counting")
                : null;
        int expected = io.github.odrust.maven.idtests.IdDetector.COUNTING;
        if (counting == null
                || !counting.isJsonPrimitive()
                || !String.valueOf(expected).equals(counting.getAsString())) {
            throw new MojoFailureException(f
                    + " numbers the shuffled calls as an earlier odrust did (settings.counting "
                    + (counting == null ? "missing" : counting.toString()) + ", this odrust counts as " + expected
                    + "), so its pins and failing seeds name other calls here" + again);
        }
        JsonElement outcome = report.get("outcome");
        JsonElement tests = outcome != null && outcome.isJsonObject()
                ? outcome.getAsJsonObject().get("tests")
                : null;
        if (tests == null || !tests.isJsonArray()) {
            throw new MojoFailureException(f + ": outcome.tests is missing or not a list" + again);
        }
        for (int i = 0; i < tests.getAsJsonArray().size(); i++) {
            JsonElement t = tests.getAsJsonArray().get(i);
            String where = f + ": outcome.tests[" + i + "]";
            JsonObject o = t.isJsonObject() ? t.getAsJsonObject() : null;
            JsonElement test = o == null ? null : o.get("test");
            if (test == null
                    || !test.isJsonPrimitive()
                    || test.getAsString().trim().isEmpty()) {
                throw new MojoFailureException(where + " has no test id" + again);
            }
            JsonElement status = o.get("status");
            String value = status == null || !status.isJsonPrimitive() ? String.valueOf(status) : status.getAsString();
            if (!"id".equals(value) && !"unconfirmed".equals(value)) {
                throw new MojoFailureException(where + " (" + test.getAsString() + ") has status `" + value
                        + "`, which is not id or unconfirmed" + again);
            }
        }
    }

    /** Repairs each ID test of the report (or the one asked for); returns id-repair.json's entries. */
    public List<JsonObject> run(JsonObject report) throws MojoExecutionException {
        List<JsonObject> entries = new ArrayList<>();
        JsonObject settingsJson = report.getAsJsonObject("settings");
        if (settingsJson != null
                && "any"
                        .equals(
                                settingsJson.has("filter")
                                        ? settingsJson.get("filter").getAsString()
                                        : "")) {
            settings.filter.any = true;
        }
        if (settingsJson != null && settingsJson.has("include")) {
            settingsJson.getAsJsonArray("include").forEach(p -> settings.filter.include.add(p.getAsString()));
        }
        List<JsonObject> verdicts = new ArrayList<>();
        for (JsonElement t : report.getAsJsonObject("outcome").getAsJsonArray("tests")) {
            JsonObject verdict = t.getAsJsonObject();
            String test = verdict.get("test").getAsString();
            if ("id".equals(verdict.get("status").getAsString())
                    && (settings.test == null || settings.test.equals(test))) {
                verdicts.add(verdict);
            }
        }
        // Tests pinned to one call site share their first repair: one patch for all of them,
        // verified with all of them at once (issue 33 item 4: 53 tests of one line, 18 minutes).
        java.util.Map<String, List<JsonObject>> bySite = new java.util.LinkedHashMap<>();
        for (JsonObject verdict : verdicts) {
            bySite.computeIfAbsent(site(verdict), k -> new ArrayList<>()).add(verdict);
        }
        estimate = IdRepairEstimate.of(report);
        java.util.Map<String, Long> together = new java.util.HashMap<>();
        for (java.util.Map.Entry<String, List<JsonObject>> group : bySite.entrySet()) {
            if (together(group.getKey(), group.getValue())) {
                // the runs without a patch under each failing seed, then the candidate's
                java.util.Set<Long> failing = new java.util.HashSet<>();
                java.util.Set<Long> verify = new java.util.HashSet<>();
                for (JsonObject v : group.getValue()) {
                    v.getAsJsonArray("failing_seeds").forEach(x -> failing.add(x.getAsLong()));
                    v.getAsJsonArray("verify_seeds").forEach(x -> verify.add(x.getAsLong()));
                }
                together.put(group.getKey(), estimate.add(failing.size() + 1 + verify.size()));
            } else {
                group.getValue().forEach(v -> estimate.add(aloneRuns(v)));
            }
        }
        estimate.addOriginalOrder(); // the baseline, without the patches
        estimate.addOriginalOrder(); // with them all
        if (!verdicts.isEmpty()) {
            log.info("odrust repair: " + Words.count(verdicts.size(), "ID test") + ", " + estimate.start());
        }
        // The patches' runs alone first; then the original order, once with every patch found.
        deferOriginal = true;
        List<Pending> found = new ArrayList<>();
        int k = 0;
        for (java.util.Map.Entry<String, List<JsonObject>> group : bySite.entrySet()) {
            Long predicted = together.get(group.getKey());
            if (predicted != null) {
                log.info("odrust repair: " + estimate.at(++k));
                long start = System.nanoTime();
                List<JsonObject> shared = repairTogether(group.getValue());
                estimate.ended(predicted, (System.nanoTime() - start) / 1_000_000);
                if (shared != null) {
                    keep(found, entries);
                    entries.addAll(shared);
                    write(entries);
                    continue;
                }
                group.getValue().forEach(v -> estimate.add(aloneRuns(v)));
            }
            for (JsonObject verdict : group.getValue()) {
                int runs = aloneRuns(verdict);
                if (runs > 0) {
                    log.info("odrust repair: " + estimate.at(++k));
                }
                long start = System.nanoTime();
                JsonObject entry = repair(verdict);
                keep(found, entries);
                entries.add(entry);
                if (runs > 0) {
                    estimate.ended(estimate.price(runs), (System.nanoTime() - start) / 1_000_000);
                }
                write(entries);
            }
        }
        deferOriginal = false;
        if (!found.isEmpty()) {
            checkOriginalOrder(found, entries);
        }
        // an earlier run's all.patch would not be this run's patches
        removeEarlier(dir.resolve("id").resolve("all.patch"));
        if (offered.size() > 1) {
            writeAll();
            write(entries);
        }
        if (!verdicts.isEmpty()) {
            log.info("odrust repair: the ID tests' repairs " + estimate.outcome());
        }
        return entries;
    }

    /** The patch the last repair left pending, its entries to come at the end of {@code entries}. */
    private void keep(List<Pending> found, List<JsonObject> entries) {
        if (pending != null) {
            pending.at = entries.size();
            found.add(pending);
            pending = null;
        }
    }

    /**
     * Runs the module's original order, clean, with the patches of {@code found} applied together
     * (those that change the same lines of a file in separate runs): where every test that passes
     * without them still passes, each is offered. Else the patches are halved and each half run
     * again, down to the one patch that breaks tests; its tests are searched again without it,
     * each candidate now run in the original order on its own.
     */
    private void checkOriginalOrder(List<Pending> found, List<JsonObject> entries) throws MojoExecutionException {
        List<List<Pending>> batches = batches(found);
        for (int i = 1; i < batches.size(); i++) {
            estimate.addOriginalOrder();
        }
        if (baseline == null) {
            log.info("odrust repair: the original order without the patches, " + estimate.originalOrderAt());
            long start = System.nanoTime();
            runBaseline();
            estimate.endedOriginalOrder((System.nanoTime() - start) / 1_000_000);
        }
        for (List<Pending> batch : batches) {
            log.info("odrust repair: the original order with " + Words.count(batch.size(), "patch")
                    + (batch.size() > 1 ? " applied together" : "") + ", " + estimate.originalOrderAt());
            long start = System.nanoTime();
            check(batch, entries, false);
            estimate.endedOriginalOrder((System.nanoTime() - start) / 1_000_000);
        }
    }

    /**
     * {@code found} in runs whose patches can be applied together: in the order found, each in the
     * first run none of whose patches changes the same or neighbouring lines of one of its files.
     */
    static <P> List<List<P>> batches(
            List<P> found, java.util.function.Function<P, java.util.Map<Path, String[]>> files) {
        List<List<P>> batches = new ArrayList<>();
        List<java.util.Map<Path, List<String>>> texts = new ArrayList<>();
        java.util.Map<Path, String> before = new java.util.HashMap<>();
        for (P p : found) {
            java.util.Map<Path, String[]> own = files.apply(p);
            own.forEach((f, ba) -> before.putIfAbsent(f, ba[0]));
            int b = 0;
            for (; b < batches.size(); b++) {
                java.util.Map<Path, List<String>> t = texts.get(b);
                boolean fits = own.entrySet().stream().allMatch(e -> {
                    List<String> afters = new ArrayList<>(t.getOrDefault(e.getKey(), List.of()));
                    afters.add(e.getValue()[1]);
                    return UnifiedPatch.merge(before.get(e.getKey()), afters) != null;
                });
                if (fits) {
                    break;
                }
            }
            if (b == batches.size()) {
                batches.add(new ArrayList<>());
                texts.add(new java.util.HashMap<>());
            }
            batches.get(b).add(p);
            java.util.Map<Path, List<String>> t = texts.get(b);
            own.forEach((f, ba) -> t.computeIfAbsent(f, x -> new ArrayList<>()).add(ba[1]));
        }
        return batches;
    }

    private static List<List<Pending>> batches(List<Pending> found) {
        return batches(found, p -> {
            java.util.Map<Path, String[]> m = new java.util.LinkedHashMap<>();
            p.changes.forEach(fc -> m.put(fc.file, new String[] {fc.before, fc.after}));
            return m;
        });
    }

    /**
     * One batch's run in the original order, halved while it breaks tests (see {@link
     * #checkOriginalOrder}). A batch of several that {@code breaks} (its other half passed after
     * the whole broke) is halved without a run of its own; a patch is offered only after a run it
     * was in passed, and refused only after its own run broke tests. Returns whether every patch
     * of the batch was offered.
     */
    private boolean check(List<Pending> batch, List<JsonObject> entries, boolean breaks) throws MojoExecutionException {
        String which = batch.size() == 1
                ? "the patch of " + Words.shortId(batch.get(0).tests.get(0))
                : Words.count(batch.size(), "patch") + " together ("
                        + batch.stream()
                                .map(p -> Words.shortId(p.tests.get(0)))
                                .collect(java.util.stream.Collectors.joining(", "))
                        + ")";
        List<String> broken;
        if (batch.size() > 1 && breaks) {
            broken = null;
        } else if (batch.size() == 1) {
            broken = brokenInOriginalOrder(batch.get(0).classes.toPath().getParent(), batch.get(0).classes);
        } else {
            Path work = dir.resolve("id").resolve("original-order-" + (++batchRuns));
            String error = compileTogether(batch, work);
            if (error != null) {
                log.info("  the original order with " + which + ": they do not compile together (" + error + ")");
                broken = null;
            } else {
                broken = brokenInOriginalOrder(work, work.resolve("classes").toFile());
            }
        }
        if (broken != null && broken.isEmpty()) {
            log.info("  the original order with " + which + ": every test that passes without "
                    + (batch.size() == 1 ? "it" : "them") + " passes");
            for (Pending p : batch) {
                List<JsonObject> made = p.finish.entries();
                for (int i = 0; i < made.size(); i++) {
                    made.get(i).addProperty("original_order_with", batch.size());
                    entries.set(p.at + i, made.get(i));
                }
            }
            write(entries);
            return true;
        }
        if (batch.size() > 1) {
            log.info("  the original order with " + which + ": "
                    + (broken == null
                            ? breaks
                                    ? "not run as a whole (the whole broke and the half before passed)"
                                    : "not run together"
                            : "it makes " + failing(broken.size(), "them"))
                    + "; halving them");
            int half = batch.size() / 2;
            boolean firstPassed = check(new ArrayList<>(batch.subList(0, half)), entries, false);
            // the whole broke and its first half passed: the second half breaks (unless only together)
            boolean wholeBroke = broken != null || breaks;
            boolean secondPassed =
                    check(new ArrayList<>(batch.subList(half, batch.size())), entries, wholeBroke && firstPassed);
            return firstPassed && secondPassed;
        }
        Pending p = batch.get(0);
        String label = Words.shortId(p.tests.get(0));
        log.info("  [repair " + label + "] its patch makes " + failing(broken.size(), "it")
                + " in the original order; searching again without it");
        brokeOriginal.put(p.file + "\n" + p.rewrite, breaks(broken));
        List<JsonObject> again;
        if (p.verdicts.size() > 1) {
            again = repairTogether(p.verdicts);
            if (again == null) {
                again = new ArrayList<>();
                for (JsonObject v : p.verdicts) {
                    again.add(repair(v));
                }
            }
        } else {
            again = List.of(repair(p.verdicts.get(0)));
        }
        for (int i = 0; i < again.size(); i++) {
            entries.set(p.at + i, again.get(i));
        }
        write(entries);
        return false;
    }

    /** Runs of the original order with several patches (each in its own directory). */
    private int batchRuns;

    /** Compiles every file the patches of {@code batch} change, each with all their changes, into {@code work/classes}; or why not. */
    private String compileTogether(List<Pending> batch, Path work) throws MojoExecutionException {
        java.util.Map<Path, String> before = new java.util.LinkedHashMap<>();
        java.util.Map<Path, List<String>> afters = new java.util.LinkedHashMap<>();
        for (Pending p : batch) {
            for (FileChange fc : p.changes) {
                before.putIfAbsent(fc.file, fc.before);
                afters.computeIfAbsent(fc.file, f -> new ArrayList<>()).add(fc.after);
            }
        }
        try {
            DetectDirectory.deleteRecursively(work);
            for (java.util.Map.Entry<Path, String> e : before.entrySet()) {
                String text = UnifiedPatch.merge(e.getValue(), afters.get(e.getKey()));
                if (text == null) {
                    return e.getKey().getFileName() + ": the patches change the same lines";
                }
                CandidateCompiler compiler = new CandidateCompiler(module.classpath, encoding, levelOf(e.getKey()));
                String error = compiler.compile(text, relativeToRoot(e.getKey()), work);
                if (error != null) {
                    return e.getKey().getFileName() + ", " + error;
                }
            }
        } catch (IOException e) {
            throw new MojoExecutionException("cannot compile the patches in " + work + ": " + e.getMessage(), e);
        } catch (CandidateCompiler.NoCompilerException e) {
            throw new MojoExecutionException(e.getMessage());
        }
        return null;
    }

    /**
     * Whether the tests of one first repair choice ({@code key}, {@link #site}) are tried with one
     * patch: two or more, at a site in a Java source (one in another language is refused at once,
     * and each test then tries its other choices on its own).
     */
    private static boolean together(String key, List<JsonObject> group) {
        if (key.isEmpty() || group.size() < 2) {
            return false;
        }
        JsonObject first = group.get(0).getAsJsonArray("repairs").get(0).getAsJsonObject();
        return language(str(first.get("file"), null)) == null;
    }

    /** What repairs are predicted to take, said as they run; null before {@link #run}. */
    private IdRepairEstimate estimate;

    /**
     * A test's runs alone for its first candidate: clean and under each seed it is verified under;
     * none when no rewrite applies, or only rewrites of sources that are not Java.
     */
    static int aloneRuns(JsonObject verdict) {
        boolean any = false;
        if (verdict.has("repairs")) {
            for (JsonElement c : verdict.getAsJsonArray("repairs")) {
                // a rewrite in a Kotlin, Groovy or Scala source is refused at once
                any |= language(str(c.getAsJsonObject().get("file"), null)) == null;
            }
        }
        return any ? 1 + verdict.getAsJsonArray("verify_seeds").size() : 0;
    }

    /** A repair choice made ready: its source file and text, and DexFix's candidates; or why not. */
    private static final class Site {
        String strategy;
        Path file;
        int line;
        String text;
        List<DexFix.Result> candidates;
        /** Why the choice cannot be tried, or null. */
        String refused;
    }

    private Site prepare(JsonObject choice) {
        Site site = new Site();
        site.strategy = choice.get("strategy").getAsString();
        String cls = str(choice.get("class"), null);
        String fileName = str(choice.get("file"), null);
        site.file = source(cls, fileName);
        site.line = choice.has("line") && !choice.get("line").isJsonNull()
                ? choice.get("line").getAsInt()
                : -1;
        String language = language(fileName);
        if (language != null) {
            site.refused = "the call is in " + fileName + ", " + language + ": odrust's rewrites (here "
                    + site.strategy + (site.line > 0 ? " at line " + site.line : "")
                    + ") edit and compile Java sources only";
            return site;
        }
        if (site.file == null) {
            site.refused = "the source of " + cls + " is not under the module's source roots: odrust edits"
                    + " only this module's sources (the fix of a class of another module of the project"
                    + " belongs in that module's source; a library's or a generated class cannot be edited)";
            return site;
        }
        if (site.line < 1 && !site.strategy.equals("JSONAssertion")) {
            site.refused = "the call has no line number (" + cls + " was compiled without debug information)";
            return site;
        }
        try {
            site.text = new String(Files.readAllBytes(site.file), encoding);
        } catch (IOException e) {
            site.refused = "cannot read " + site.file + ": " + e.getMessage();
            return site;
        }
        Path file = site.file;
        site.candidates = DexFix.candidates(
                site.strategy,
                site.text,
                site.line,
                str(choice.get("target"), null),
                str(choice.get("method"), null),
                () -> atLeastJava8(levelOf(file)),
                this::jsonLibraries);
        if (site.candidates == null) {
            site.refused = "odrust does not know this strategy";
        }
        return site;
    }

    /** What a source file that is not Java is written in ("a Kotlin source"); null for a Java one or none. */
    static String language(String fileName) {
        if (fileName == null || fileName.endsWith(".java")) {
            return null;
        }
        String ext = fileName.contains(".") ? fileName.substring(fileName.lastIndexOf('.') + 1) : "";
        switch (ext) {
            case "kt":
                return "a Kotlin source";
            case "groovy":
                return "a Groovy source";
            case "scala":
                return "a Scala source";
            default:
                return "not a Java source";
        }
    }

    /** The first repair choice of a verdict as a key (strategy, class, file, line, target); empty without one. */
    static String site(JsonObject verdict) {
        JsonArray choices = verdict.has("repairs") ? verdict.getAsJsonArray("repairs") : new JsonArray();
        if (choices.size() == 0) {
            return "";
        }
        JsonObject c = choices.get(0).getAsJsonObject();
        return str(c.get("strategy"), "") + "|" + str(c.get("class"), "") + "|" + str(c.get("file"), "") + "|"
                + str(c.get("line"), "") + "|" + str(c.get("target"), "") + "|" + str(c.get("method"), "");
    }

    /**
     * The tests of {@code group} share their first repair choice (so all their choices but
     * JSONAssertion's, which are the call's): of the first choice with a candidate, the first that
     * compiles and passes with all of them run together, clean and under every seed any of them is
     * verified under (and keeps the original order passing), is one patch for all; null when none
     * does (each is then repaired on its own).
     */
    private List<JsonObject> repairTogether(List<JsonObject> group) throws MojoExecutionException {
        JsonObject first = group.get(0);
        Site site = null;
        // The first choice that has a candidate here (FieldByName finds no index at a loop over
        // the fields, and SortFields comes next); a JSONAssertion is per test method, not shared.
        for (JsonElement c : first.getAsJsonArray("repairs")) {
            Site s = prepare(c.getAsJsonObject());
            if (s.refused == null
                    && !s.strategy.equals("JSONAssertion")
                    && s.candidates.stream().anyMatch(DexFix.Result::applies)) {
                site = s;
                break;
            }
        }
        if (site == null) {
            return null;
        }
        String strategy = site.strategy;
        Path file = site.file;
        int line = site.line;
        String text = site.text;
        List<DexFix.Result> candidates = site.candidates;
        // the tests in the module's original order, and every seed any of them is verified under
        java.util.Set<String> members = new java.util.HashSet<>();
        group.forEach(v -> members.add(v.get("test").getAsString()));
        List<String> tests = new ArrayList<>();
        for (String t : io.github.odrust.maven.run.Discovery.originalOrder(suite)) {
            if (members.contains(t)) {
                tests.add(t);
            }
        }
        if (tests.size() != members.size()) {
            return null;
        }
        List<Long> seeds = new ArrayList<>();
        seeds.add(null);
        for (JsonObject v : group) {
            v.getAsJsonArray("verify_seeds").forEach(s -> {
                if (!seeds.contains(s.getAsLong())) {
                    seeds.add(s.getAsLong());
                }
            });
        }
        String label = Words.shortId(tests.get(0)) + " and " + Words.count(tests.size() - 1, "more test");
        log.info("odrust repair: " + Words.count(tests.size(), "ID test") + " pinned to one call site (" + strategy
                + " at " + file.getFileName() + ":" + line + "): trying one patch for all of them");
        // Run together, their calls are numbered anew: without a patch each must still fail under
        // one of its failing seeds, or passing with the patch would prove nothing.
        String control = failTogether(tests, group, label);
        if (control != null) {
            log.info("  [repair " + label + "] " + control + "; each is repaired on its own");
            return null;
        }
        runs = 0;
        for (DexFix.Result c : candidates) {
            if (!c.applies()) {
                continue;
            }
            String broke = brokeOriginalOrder(file, c.source());
            if (broke != null) {
                log.info("  [repair " + label + "] " + strategy + ": not for all together (" + broke + ")");
                continue;
            }
            String why = verify(tests, seeds, label, List.of(new FileChange(file, text, c.source())), strategy, true);
            if (why != null) {
                log.info("  [repair " + label + "] " + strategy + ": not for all together (" + why + ")");
                continue;
            }
            JsonObject verdict = first.deepCopy();
            JsonArray union = new JsonArray();
            seeds.stream().filter(java.util.Objects::nonNull).forEach(union::add);
            verdict.add("verify_seeds", union);
            List<FileChange> changes = verified;
            String description = description(c);
            int tries = runs;
            Finish finish = () -> {
                JsonObject entry = new JsonObject();
                entry.addProperty("test", tests.get(0));
                entry.addProperty("kind", "id");
                entry.add("tried", new JsonArray());
                patched(entry, tests.get(0), strategy, changes, description, verdict, tries);
                if ("patched".equals(entry.get("status").getAsString())) {
                    log.info("  one patch for " + Words.count(tests.size(), "test") + ": " + String.join(", ", tests));
                }
                List<JsonObject> out = new ArrayList<>();
                for (String t : tests) {
                    JsonObject e = entry.deepCopy();
                    e.addProperty("test", t);
                    JsonArray with = new JsonArray();
                    tests.stream().filter(o -> !o.equals(t)).forEach(with::add);
                    e.add("shared_with", with);
                    out.add(e);
                }
                return out;
            };
            return accepted(group, tests, file, c.source(), changes, finish);
        }
        log.info("  [repair " + label + "] no candidate passed for all together; each is repaired on its own");
        return null;
    }

    /**
     * Null when each of {@code tests}, run together without a patch, fails under one of its
     * failing seeds; else which one does not (the group's verification would not show a fix).
     */
    private String failTogether(List<String> tests, List<JsonObject> group, String label)
            throws MojoExecutionException {
        java.util.Map<String, java.util.Set<Long>> failingSeeds = new java.util.HashMap<>();
        List<Long> seeds = new ArrayList<>();
        for (JsonObject v : group) {
            java.util.Set<Long> own = new java.util.HashSet<>();
            v.getAsJsonArray("failing_seeds").forEach(s -> {
                own.add(s.getAsLong());
                if (!seeds.contains(s.getAsLong())) {
                    seeds.add(s.getAsLong());
                }
            });
            failingSeeds.put(v.get("test").getAsString(), own);
        }
        java.util.Set<String> failed = new java.util.HashSet<>();
        Path work = dir.resolve("id").resolve(RepairFile.patchName(tests.get(0)).replace(".patch", ""));
        for (int i = 0; i < seeds.size() && failed.size() < tests.size(); i++) {
            Long seed = seeds.get(i);
            RunResult result = runShuffled(
                    work.resolve("together-unpatched-" + (i + 1)),
                    settings.filter,
                    seed,
                    tests,
                    null,
                    "odrust:repair, " + label + " together without a patch");
            for (RunResult.TestResult r : result.results) {
                for (String t : tests) {
                    if ((r.test.equals(t) || r.test.startsWith(t + "["))
                            && !"pass".equals(r.outcome)
                            && !"skipped".equals(r.outcome)
                            && failingSeeds.get(t).contains(seed)) {
                        failed.add(t);
                    }
                }
            }
        }
        for (String t : tests) {
            if (!failed.contains(t)) {
                return t + " does not fail with the others under its failing seeds without a patch";
            }
        }
        return null;
    }

    private JsonObject repair(JsonObject verdict) throws MojoExecutionException {
        String test = verdict.get("test").getAsString();
        JsonObject entry = new JsonObject();
        entry.addProperty("test", test);
        entry.addProperty("kind", "id");
        JsonArray tried = new JsonArray();
        entry.add("tried", tried);
        JsonArray choices = verdict.has("repairs") ? verdict.getAsJsonArray("repairs") : new JsonArray();
        if (choices.size() == 0) {
            entry.addProperty("status", "no-candidate");
            entry.addProperty("reason", str(verdict.get("no_repair"), "no DexFix strategy applies"));
            return entry;
        }
        runs = 0;
        // the first candidate that ran, for the warning: a rewrite that did not apply says less
        JsonObject firstRan = null;
        for (JsonElement ce : choices) {
            JsonObject choice = ce.getAsJsonObject();
            Site site = prepare(choice);
            String strategy = site.strategy;
            if (site.refused != null) {
                tried.add(tried(strategy, site.refused));
                continue;
            }
            Path file = site.file;
            String text = site.text;
            List<DexFix.Result> candidates = site.candidates;
            for (DexFix.Result c : candidates) {
                if (!c.applies()) {
                    tried.add(tried(strategy, c.reason()));
                    continue;
                }
                String broke = brokeOriginalOrder(file, c.source());
                if (broke != null) {
                    tried.add(tried(strategy, c.description() + ": " + broke));
                    firstRan = firstRan == null ? tried.get(tried.size() - 1).getAsJsonObject() : firstRan;
                    continue;
                }
                List<Long> seeds = new ArrayList<>();
                seeds.add(null);
                verdict.getAsJsonArray("verify_seeds").forEach(s -> seeds.add(s.getAsLong()));
                String why = verify(
                        List.of(test),
                        seeds,
                        Words.shortId(test),
                        List.of(new FileChange(file, text, c.source())),
                        strategy,
                        true);
                String followed = null;
                if (why != null && strategy.equals("HashToLinkedHash") && failedSeed != null) {
                    String[] f = follow(test, seeds, new FileChange(file, text, c.source()), why);
                    why = f[0];
                    followed = f[1];
                }
                if (why != null) {
                    tried.add(tried(strategy, c.description() + (followed == null ? "" : followed) + ": " + why));
                    firstRan = firstRan == null ? tried.get(tried.size() - 1).getAsJsonObject() : firstRan;
                    continue;
                }
                List<FileChange> changes = verified;
                String description =
                        followed == null ? description(c) : c.description() + followed + updatedExpectations;
                int tries = runs;
                Finish finish = () -> List.of(patched(entry, test, strategy, changes, description, verdict, tries));
                return accepted(List.of(verdict), List.of(test), file, c.source(), changes, finish)
                        .get(0);
            }
        }
        entry.addProperty("status", "rejected");
        entry.addProperty(
                "reason",
                "no DexFix rewrite passed verification (" + Words.count(tried.size(), "candidate") + " tried)");
        entry.addProperty("candidates", runs);
        JsonObject shown = firstRan != null
                ? firstRan
                : tried.size() == 0 ? null : tried.get(0).getAsJsonObject();
        log.warn(String.format(
                "no patch %s: %s; the first%s (%s): %s",
                test,
                entry.get("reason").getAsString(),
                firstRan != null && tried.get(0).getAsJsonObject() != firstRan ? " that ran" : "",
                shown == null ? "-" : shown.get("strategy").getAsString(),
                shown == null ? "-" : shown.get("why").getAsString()));
        return entry;
    }

    /**
     * DexFix's loop ({@link FollowOrder}): {@code first}, a HashToLinkedHash rewrite that {@link
     * #verify} rejected because a seed still failed {@code test}, with the next allocation the
     * test's calls name under that seed rewritten too, and verified again; up to {@link
     * FollowOrder#ROUNDS} more. Returns why the last try failed (null: verified, its files in
     * {@link #verified}) and what the rewrites after the first changed (null when none was tried).
     */
    private String[] follow(String test, List<Long> seeds, FileChange first, String why) throws MojoExecutionException {
        String key = first.file + "\n" + first.after;
        Followed earlier = followed.get(key);
        if (earlier != null && !earlier.verified()) {
            // the same first rewrite, followed for another test, found no patch: not again
            return new String[] {
                why,
                "; the order was not followed again: for " + Words.shortId(earlier.test())
                        + " it was, through " + Words.count(earlier.rounds(), "more allocation")
                        + ", without a patch that passed"
            };
        }
        if (earlier != null) {
            // another test of the same first rewrite followed the order already: its rewrites are
            // verified for this test as they are, without searching again
            log.info("  [repair " + Words.shortId(test) + "] HashToLinkedHash: seed " + failedSeed
                    + " still fails it; trying the rewrites that followed the order for "
                    + Words.shortId(earlier.test));
            String again = verify(List.of(test), seeds, Words.shortId(test), earlier.changes, "HashToLinkedHash", true);
            // the seeds in those words were the other test's
            return new String[] {again, "; as for " + Words.shortId(earlier.test()) + earlier.more};
        }
        java.util.Map<Path, FileChange> chain = new java.util.LinkedHashMap<>();
        chain.put(first.file, first);
        StringBuilder more = new StringBuilder();
        java.util.Set<FollowOrder.Site> refused = new java.util.HashSet<>();
        int rounds = 0;
        for (int round = 1; round <= FollowOrder.ROUNDS && why != null && failedSeed != null; round++) {
            Shuffle.Filter filter = new Shuffle.Filter();
            filter.any = settings.filter.any;
            filter.include.addAll(settings.filter.include);
            filter.extraRoots.add(failedClasses);
            Path runDir = failedClasses.toPath().getParent().resolve("follow");
            long seed = failedSeed;
            runShuffled(
                    runDir,
                    filter,
                    seed,
                    List.of(test),
                    failedClasses,
                    "odrust:repair: where the order of " + Words.shortId(test) + " comes from under seed " + seed,
                    true);
            FollowOrder.Site site = null;
            DexFix.Result next = null;
            // the site's file as it was before any rewrite
            String before = null;
            for (FollowOrder.Site s : FollowOrder.allocations(
                    Shuffle.read(runDir.resolve("shuffle.jsonl")).calls,
                    (cls, name) -> name == null || name.endsWith(".java") ? source(cls, name) : null)) {
                if (refused.contains(s)) {
                    continue;
                }
                FileChange had = chain.get(s.file());
                String original;
                try {
                    original = had != null ? had.before : new String(Files.readAllBytes(s.file()), encoding);
                } catch (IOException e) {
                    refused.add(s);
                    continue;
                }
                next = DexFix.hashToLinkedHash(had != null ? had.after : original, s.line(), s.type()).stream()
                        .filter(DexFix.Result::applies)
                        .findFirst()
                        .orElse(null);
                if (next != null) {
                    site = s;
                    before = original;
                    break;
                }
                refused.add(s);
            }
            if (next == null) {
                log.info("  [repair " + Words.shortId(test) + "] HashToLinkedHash: under seed " + seed
                        + " no other HashMap or HashSet of the module's sources that odrust can rewrite");
                break;
            }
            FileChange had = chain.get(site.file());
            // the line as the user's file has it: the rewrites before this one added or removed
            // import lines above it (HashToLinkedHash changes code lines in place)
            int shift = had == null ? 0 : lineCount(had.after) - lineCount(had.before);
            String said = next.description()
                    .replace("at line " + site.line() + " ", "at line " + (site.line() - shift) + " ");
            chain.put(site.file(), new FileChange(site.file(), before, next.source()));
            rounds++;
            more.append("; then, as seed ")
                    .append(seed)
                    .append(" still failed it, ")
                    .append(said)
                    .append(" in ")
                    .append(site.file().getFileName());
            log.info("  [repair " + Words.shortId(test) + "] HashToLinkedHash: seed " + seed
                    + " still fails it; the order also comes from "
                    + site.file().getFileName() + ":"
                    + (site.line() - shift) + ": " + said);
            why = verify(
                    List.of(test),
                    seeds,
                    Words.shortId(test),
                    new ArrayList<>(chain.values()),
                    "HashToLinkedHash",
                    true);
        }
        String said = more.length() == 0 ? null : more.toString();
        if (said != null) {
            followed.put(key, new Followed(test, new ArrayList<>(chain.values()), said, why == null, rounds));
        }
        return new String[] {why, said};
    }

    /** The rewrites {@link #follow} added after a first one, by that first one (its file and text). */
    private final java.util.Map<String, Followed> followed = new java.util.HashMap<>();

    /** What {@link #follow} made of a first rewrite: for which test, every file changed, and the words for them. */
    private record Followed(String test, List<FileChange> changes, String more, boolean verified, int rounds) {}

    private static int lineCount(String text) {
        return text.split("\n", -1).length;
    }

    /** The Java level {@code file} is compiled at: the test level for a test source. */
    private String levelOf(Path file) {
        boolean testSource = settings.testSourceRoots.stream()
                .anyMatch(r -> file.toAbsolutePath()
                        .normalize()
                        .startsWith(r.toPath().toAbsolutePath().normalize()));
        return testSource ? settings.testRelease : settings.release;
    }

    /** Whether a level ({@code 1.7}, {@code 8}, {@code 17}; null: the compiler's own) has lambdas. */
    static boolean atLeastJava8(String level) {
        if (level == null) {
            return true;
        }
        String v = level.trim().replaceFirst("^source:", "").replaceFirst("^1\\.", "");
        try {
            return Integer.parseInt(v) >= 8;
        } catch (NumberFormatException e) {
            return true;
        }
    }

    /** The JSON libraries on the test classpath, best first (JSONAssertion). */
    private List<DexFix.JsonLibrary> jsonLibraries() {
        return jsonLibraries(module.classpath);
    }

    /**
     * The JSON libraries on {@code classpath}, best first, found by their classes, not their jars'
     * names: a library is also found when it is the module itself (its classes a directory on the
     * classpath) or repackaged. Gson's flavour from its {@code JsonParser}: with
     * {@code parseString} (2.8.6 and later) or without.
     */
    static List<DexFix.JsonLibrary> jsonLibraries(List<File> classpath) {
        List<DexFix.JsonLibrary> found = new ArrayList<>();
        boolean jsonassert = false;
        DexFix.JsonLibrary gson = null;
        boolean jackson = false;
        for (File f : classpath) {
            jsonassert |= classBytes(f, "org/skyscreamer/jsonassert/JSONAssert.class") != null;
            if (gson == null) {
                byte[] parser = classBytes(f, "com/google/gson/JsonParser.class");
                if (parser != null) {
                    gson = new String(parser, java.nio.charset.StandardCharsets.ISO_8859_1).contains("parseString")
                            ? DexFix.JsonLibrary.GSON
                            : DexFix.JsonLibrary.GSON_LEGACY;
                }
            }
            jackson |= classBytes(f, "com/fasterxml/jackson/databind/ObjectMapper.class") != null;
        }
        if (jsonassert) {
            found.add(DexFix.JsonLibrary.JSONASSERT);
        }
        if (gson != null) {
            found.add(gson);
        }
        if (jackson) {
            found.add(DexFix.JsonLibrary.JACKSON);
        }
        return found;
    }

    /** The bytes of class file {@code entry} in a classpath entry (a directory or a jar), or null. */
    private static byte[] classBytes(File classpathEntry, String entry) {
        try {
            if (classpathEntry.isDirectory()) {
                java.nio.file.Path file = classpathEntry.toPath().resolve(entry);
                return java.nio.file.Files.isRegularFile(file) ? java.nio.file.Files.readAllBytes(file) : null;
            }
            if (!classpathEntry.isFile()) {
                return null;
            }
            try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(classpathEntry)) {
                java.util.zip.ZipEntry e = zip.getEntry(entry);
                if (e == null) {
                    return null;
                }
                try (java.io.InputStream in = zip.getInputStream(e)) {
                    return in.readAllBytes();
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** The source file of {@code cls} (the frame's file name, in the class's package) under a source root. */
    private Path source(String cls, String fileName) {
        if (cls == null) {
            return null;
        }
        String top = cls.contains("$") ? cls.substring(0, cls.indexOf('$')) : cls;
        int dot = top.lastIndexOf('.');
        String pkg = dot < 0 ? "" : top.substring(0, dot).replace('.', '/') + "/";
        String name = fileName != null ? fileName : top.substring(dot + 1) + ".java";
        for (File root : settings.sourceRoots) {
            Path p = root.toPath().resolve(pkg + name);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return null;
    }

    /** One source file a candidate changes: its text before and after. */
    static final class FileChange {
        final Path file;
        final String before;
        final String after;

        FileChange(Path file, String before, String after) {
            this.file = file;
            this.before = before;
            this.after = after;
        }
    }

    /** The seed under which the candidate {@link #verify} last rejected failed its test (null: clean, or none). */
    private Long failedSeed;

    /** That candidate's compiled classes. */
    private File failedClasses;

    /** The files of the candidate {@link #verify} last accepted (the rewrite, plus updated expectations). */
    private List<FileChange> verified;

    /** What {@link #verify} added to the rewrite it last accepted ("; plus ..."), or "". */
    private String updatedExpectations = "";

    private String description(DexFix.Result c) {
        return c.description() + updatedExpectations;
    }

    /**
     * Null when the candidate compiles and {@code tests}, run together in one JVM (in this order),
     * all pass clean (seed null) and under every seed of {@code seeds}, and the original order
     * keeps passing; else why not. When the rewrite makes tests fail clean on a comparison whose
     * expected value is a literal in their own source (written for the order one JDK gave) and
     * {@code mayUpdate}, those literals are rewritten to the values the fixed code gives and the
     * whole verification runs again with them ({@link UpdateExpected}). What passed is left in
     * {@link #verified}.
     */
    private String verify(
            List<String> tests,
            List<Long> seeds,
            String label,
            List<FileChange> changes,
            String strategy,
            boolean mayUpdate)
            throws MojoExecutionException {
        String test = tests.get(0);
        Path work = dir.resolve("id")
                .resolve(RepairFile.patchName(test).replace(".patch", ""))
                .resolve("candidate-" + (++runs));
        failedSeed = null;
        failedClasses = null;
        String error = null;
        try {
            DetectDirectory.deleteRecursively(work);
            for (FileChange fc : changes) {
                CandidateCompiler compiler = new CandidateCompiler(module.classpath, encoding, levelOf(fc.file));
                error = compiler.compile(fc.after, relativeToRoot(fc.file), work);
                if (error != null) {
                    error = (changes.size() > 1 ? fc.file.getFileName() + ", " : "") + error;
                    break;
                }
            }
        } catch (IOException e) {
            throw new MojoExecutionException("cannot compile a candidate in " + work + ": " + e.getMessage(), e);
        } catch (CandidateCompiler.NoCompilerException e) {
            throw new MojoExecutionException(e.getMessage());
        }
        if (error != null) {
            return "does not compile (" + error + ")";
        }
        File classes = work.resolve("classes").toFile();
        Shuffle.Filter filter = new Shuffle.Filter();
        filter.any = settings.filter.any;
        filter.include.addAll(settings.filter.include);
        filter.extraRoots.add(classes);
        long start = System.nanoTime();
        for (int i = 0; i < seeds.size(); i++) {
            Long seed = seeds.get(i);
            RunResult result = runShuffled(
                    work.resolve("run-" + (i + 1)),
                    filter,
                    seed,
                    tests,
                    classes,
                    "odrust:repair verification of " + label);
            if (seed == null && mayUpdate) {
                List<FileChange> updated = updateExpectations(tests, result, changes, label);
                if (updated != null) {
                    String why = verify(tests, seeds, label, updated, strategy, false);
                    if (why == null) {
                        int n = updated.size() - changes.size();
                        updatedExpectations = "; plus the expected values of the tests' failing assertions"
                                + " updated to what the fixed code gives"
                                + (n > 0 ? " (" + Words.count(n, "more file") + ")" : "");
                    }
                    return why == null ? null : why + " (with the expected values updated)";
                }
            }
            for (String t : tests) {
                String outcome = null;
                for (RunResult.TestResult r : result.results) {
                    if (r.test.equals(t) || r.test.startsWith(t + "[")) {
                        outcome = r.outcome;
                    }
                }
                if (!"pass".equals(outcome)) {
                    log.info(String.format(
                            Locale.ROOT,
                            "  [repair %s] %s: %s%s %s",
                            label,
                            strategy,
                            tests.size() > 1 ? Words.shortId(t) + " " : "",
                            outcome == null ? "did not run" : outcome.toUpperCase(Locale.ROOT),
                            seed == null ? "clean" : "under seed " + seed));
                    if (outcome != null) {
                        failedSeed = seed;
                        failedClasses = classes;
                    }
                    return (tests.size() > 1 ? t + ": " : "")
                            + (outcome == null ? "the test did not run" : "the test " + outcome + "s")
                            + (seed == null ? " clean" : " under seed " + seed);
                }
            }
        }
        // The patch may change code other tests use: the module's original order, clean, must keep
        // every test that passes without it passing. While repairs are searched, that run is left
        // to checkOriginalOrder, one run for the patches of many tests.
        if (!deferOriginal) {
            List<String> broken = brokenInOriginalOrder(work, classes);
            if (!broken.isEmpty()) {
                log.info(String.format(
                        Locale.ROOT,
                        "  [repair %s] %s: breaks %s in the original order",
                        label,
                        strategy,
                        Words.count(broken.size(), "other test")));
                return breaks(broken);
            }
        }
        verified = changes;
        verifiedClasses = classes;
        if (mayUpdate) {
            updatedExpectations = "";
        }
        log.info(String.format(
                Locale.ROOT,
                "  [repair %s] %s: passes clean and under %s%s (%.1f s)",
                label,
                strategy,
                Words.count(seeds.size() - 1, "seed"),
                deferOriginal
                        ? "; the original order is run with it once every test's patch is found"
                        : ", and the original order keeps passing",
                (System.nanoTime() - start) / 1e9));
        return null;
    }

    private static String breaks(List<String> broken) {
        return "passes alone, but in the module's original order it makes " + failing(broken.size(), "it") + ": "
                + String.join(", ", broken.subList(0, Math.min(5, broken.size()))) + (broken.size() > 5 ? ", ..." : "");
    }

    /** "1 test that passes without it fail", "2 tests that pass without them fail". */
    private static String failing(int n, String patch) {
        return Words.count(n, "test") + (n == 1 ? " that passes" : " that pass") + " without " + patch + " fail";
    }

    /** The compiled classes of the candidate {@link #verify} last accepted. */
    private File verifiedClasses;

    /**
     * Whether {@link #verify} leaves the original order to {@link #checkOriginalOrder}: true while
     * the tests' repairs are searched, false when a test is searched again after its patch broke
     * the original order.
     */
    private boolean deferOriginal;

    /** Makes the entries of an accepted patch: writes it, and applies it when asked. */
    private interface Finish {
        List<JsonObject> entries() throws MojoExecutionException;
    }

    /** A patch that passed its runs alone, its run in the original order still to come. */
    private static final class Pending {
        /** Its first entry in the entries (it has one per test). */
        int at;

        final List<JsonObject> verdicts;
        final List<String> tests;
        final Path file;
        /** The rewrite's text of {@link #file}: skipped when the tests are searched again. */
        final String rewrite;

        final List<FileChange> changes;
        final File classes;
        final Finish finish;

        Pending(
                List<JsonObject> verdicts,
                List<String> tests,
                Path file,
                String rewrite,
                List<FileChange> changes,
                File classes,
                Finish finish) {
            this.verdicts = verdicts;
            this.tests = tests;
            this.file = file;
            this.rewrite = rewrite;
            this.changes = changes;
            this.classes = classes;
            this.finish = finish;
        }
    }

    /** The patch {@link #repair} or {@link #repairTogether} last left pending, or null. */
    private Pending pending;

    /** Rewrites (file and text) that broke tests in the original order, and how. */
    private final java.util.Map<String, String> brokeOriginal = new java.util.HashMap<>();

    private String brokeOriginalOrder(Path file, String rewrite) {
        return brokeOriginal.get(file + "\n" + rewrite);
    }

    /**
     * A patch that passed its runs alone: its entries now when its original order ran, else
     * placeholders (status {@code verifying}) and {@link #pending} set.
     */
    private List<JsonObject> accepted(
            List<JsonObject> verdicts,
            List<String> tests,
            Path file,
            String rewrite,
            List<FileChange> changes,
            Finish finish)
            throws MojoExecutionException {
        if (!deferOriginal) {
            return finish.entries();
        }
        pending = new Pending(verdicts, tests, file, rewrite, changes, verifiedClasses, finish);
        List<JsonObject> out = new ArrayList<>();
        for (String t : tests) {
            JsonObject e = new JsonObject();
            e.addProperty("test", t);
            e.addProperty("kind", "id");
            e.addProperty("status", "verifying");
            e.addProperty("reason", "passes alone; the original order with its patch has not run yet");
            out.add(e);
        }
        return out;
    }

    /**
     * Runs {@code tests} in this order in one JVM in {@code runDir}, every counted call shuffled
     * under {@code seed} (null: clean), with {@code classesFirst} (null: none) first on the class
     * path.
     */
    private RunResult runShuffled(
            Path runDir, Shuffle.Filter filter, Long seed, List<String> tests, File classesFirst, String title)
            throws MojoExecutionException {
        return runShuffled(runDir, filter, seed, tests, classesFirst, title, false);
    }

    /** {@link #runShuffled}, each logged call naming where its collection was made when {@code track}. */
    private RunResult runShuffled(
            Path runDir,
            Shuffle.Filter filter,
            Long seed,
            List<String> tests,
            File classesFirst,
            String title,
            boolean track)
            throws MojoExecutionException {
        Path options = runDir.resolve("agent-options.txt");
        try {
            Files.createDirectories(runDir);
            Files.write(
                    options,
                    Shuffle.options(
                                    module,
                                    filter,
                                    seed,
                                    new JsonArray(),
                                    track,
                                    runDir.resolve("shuffle.jsonl"),
                                    title)
                            .getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write " + options + ": " + e.getMessage(), e);
        }
        OrderRunner runner = new OrderRunner(module, engine, suite, runDir, log).quiet();
        if (classesFirst != null) {
            runner = runner.classpathFirst(classesFirst);
        }
        return runner.recording(options).run(String.join("\n", tests), title);
    }

    /**
     * The candidate's files plus the tests' sources with the expected literal of each failing
     * comparison rewritten to the actual value, when {@code clean} (the candidate's clean run)
     * failed some of {@code tests} and every one of those failures is such a comparison; null when
     * nothing failed clean or some failure cannot be updated (then the candidate is judged as it is).
     */
    private List<FileChange> updateExpectations(
            List<String> tests, RunResult clean, List<FileChange> changes, String label) {
        java.util.Map<Path, String> texts = new java.util.LinkedHashMap<>();
        for (FileChange fc : changes) {
            texts.put(fc.file, fc.after);
        }
        // per file: each failure's frame lines (deepest first) and its two values, deepest last line first
        java.util.Map<Path, List<Object[]>> byFile = new java.util.LinkedHashMap<>();
        int failed = 0;
        for (String t : tests) {
            for (RunResult.TestResult r : clean.results) {
                if (!(r.test.equals(t) || r.test.startsWith(t + "["))
                        || "pass".equals(r.outcome)
                        || "skipped".equals(r.outcome)) {
                    continue;
                }
                failed++;
                String[] values = UpdateExpected.values(r.expected, r.actual, r.message);
                String cls = t.substring(0, t.indexOf('#'));
                String top = cls.contains("$") ? cls.substring(0, cls.indexOf('$')) : cls;
                Path file = source(top, null);
                List<Integer> lines = file == null
                        ? List.of()
                        : UpdateExpected.failingLines(
                                r.trace, top, file.getFileName().toString());
                if (values == null || lines.isEmpty()) {
                    log.info("  [repair " + label + "] " + Words.shortId(t) + " fails clean with the rewrite, not on a"
                            + " comparison odrust can update ("
                            + (values == null ? "no expected and actual values" : "no line in " + top) + ")");
                    return null;
                }
                List<Object[]> entries = byFile.computeIfAbsent(file, k -> new ArrayList<>());
                boolean seen = entries.stream()
                        .anyMatch(o -> o[0].equals(lines)
                                && ((String[]) o[1])[0].equals(values[0])
                                && ((String[]) o[1])[1].equals(values[1]));
                if (!seen) {
                    entries.add(new Object[] {lines, values});
                }
            }
        }
        if (failed == 0) {
            return null;
        }
        for (java.util.Map.Entry<Path, List<Object[]>> e : byFile.entrySet()) {
            Path file = e.getKey();
            String text = texts.get(file);
            if (text == null) {
                try {
                    text = new String(Files.readAllBytes(file), encoding);
                } catch (IOException ex) {
                    return null;
                }
            }
            // from the last line up: a rewritten text block does not move the lines above it
            List<Object[]> entries = e.getValue();
            entries.sort((a, b) -> Integer.compare(firstLine(b), firstLine(a)));
            for (Object[] entry : entries) {
                @SuppressWarnings("unchecked")
                List<Integer> lines = (List<Integer>) entry[0];
                String[] values = (String[]) entry[1];
                DexFix.Result r = null;
                for (int line : lines) { // the assertion's line, then its callers' in the test class
                    DexFix.Result tried = UpdateExpected.rewrite(text, line, values[0], values[1]);
                    if (r == null || tried.applies()) {
                        r = tried;
                    }
                    if (tried.applies()) {
                        break;
                    }
                }
                if (!r.applies()) {
                    log.info("  [repair " + label + "] expected value not updated: " + r.reason());
                    return null;
                }
                log.info("  [repair " + label + "] " + file.getFileName() + ": " + r.description());
                text = r.source();
            }
            texts.put(file, text);
        }
        List<FileChange> out = new ArrayList<>();
        for (java.util.Map.Entry<Path, String> e : texts.entrySet()) {
            FileChange old = changes.stream()
                    .filter(c -> c.file.equals(e.getKey()))
                    .findFirst()
                    .orElse(null);
            String before = old != null ? old.before : null;
            if (before == null) {
                try {
                    before = new String(Files.readAllBytes(e.getKey()), encoding);
                } catch (IOException ex) {
                    return null;
                }
            }
            out.add(new FileChange(e.getKey(), before, e.getValue()));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static int firstLine(Object[] entry) {
        return ((List<Integer>) entry[0]).get(0);
    }

    /** The tests that pass in the original order clean (run once, without any patch). */
    private java.util.Set<String> baseline;

    /** The module's original order, as an order's text. */
    private String originalOrder() {
        return String.join("\n", io.github.odrust.maven.run.Discovery.originalOrder(suite));
    }

    /** Runs the original order without any patch, once: {@link #baseline}. */
    private void runBaseline() throws MojoExecutionException {
        if (baseline == null) {
            RunResult before = new OrderRunner(
                            module, engine, suite, dir.resolve("id").resolve("original-order"), log)
                    .quiet()
                    .run(originalOrder(), "the original order, before any ID patch");
            baseline = new java.util.HashSet<>();
            for (RunResult.TestResult r : before.results) {
                if ("pass".equals(r.outcome)) {
                    baseline.add(r.test);
                }
            }
        }
    }

    /** The tests that pass in the original order without the candidate and fail with it (clean runs). */
    private List<String> brokenInOriginalOrder(Path work, File classes) throws MojoExecutionException {
        runBaseline();
        RunResult after = new OrderRunner(module, engine, suite, work.resolve("original-order"), log)
                .quiet()
                .classpathFirst(classes)
                .run(originalOrder(), "the original order with an ID patch");
        List<String> broken = failedOf(after, baseline);
        if (broken.isEmpty()) {
            return broken;
        }
        // A test that fails now and then on its own (a race with an asynchronous callback, a
        // clock) is not the patch's doing: the order runs once more with the patch, and only what
        // fails there again counts as broken.
        RunResult again = new OrderRunner(module, engine, suite, work.resolve("original-order-again"), log)
                .quiet()
                .classpathFirst(classes)
                .run(originalOrder(), "the original order with an ID patch, again");
        List<String> repeated = failedOf(again, new java.util.HashSet<>(broken));
        List<String> flaky = new ArrayList<>(broken);
        flaky.removeAll(repeated);
        if (!flaky.isEmpty()) {
            log.info("  the original order with the patch, run again: " + String.join(", ", flaky)
                    + " passed this time; taken for flaky (it passed without the patch, failed once with it and passed"
                    + " once with it), not broken by the patch");
        }
        return repeated;
    }

    /** The tests of {@code among} that {@code run} did not pass (skipped ones aside), in the run's order. */
    private static List<String> failedOf(RunResult run, java.util.Set<String> among) {
        List<String> failed = new ArrayList<>();
        for (RunResult.TestResult r : run.results) {
            if (among.contains(r.test) && !"pass".equals(r.outcome) && !"skipped".equals(r.outcome)) {
                failed.add(r.test);
            }
        }
        return failed;
    }

    private JsonObject patched(
            JsonObject entry,
            String test,
            String strategy,
            List<FileChange> changes,
            String fullDescription,
            JsonObject verdict,
            int candidates)
            throws MojoExecutionException {
        String rel = relativeToRoot(changes.get(0).file);
        Path patch = dir.resolve("id").resolve(RepairFile.patchName(test));
        // Part of verification: the patch as written applies, from where Maven ran, to the files
        // it was made against (in a scratch copy)
        PatchCheck.Result applies = writePatch(patch, changes);
        entry.add("applies", json(applies));
        if (!applies.ok()) {
            entry.addProperty("status", "rejected");
            entry.addProperty("source", strategy);
            entry.addProperty(
                    "reason",
                    "the verified rewrite was written as a patch that does not apply as written (" + applies.describe()
                            + "); this is a bug in odrust: please report it with " + patch);
            log.warn("odrust repair: " + test + ": " + entry.get("reason").getAsString());
            return entry;
        }
        String apply = PatchCheck.applyCommand(root(changes.get(0).file), relativeToRoot(patch));
        entry.addProperty("apply", apply);
        entry.addProperty("status", "patched");
        offered.add(changes);
        entry.addProperty("source", strategy);
        entry.addProperty("description", fullDescription);
        entry.addProperty("file", rel);
        if (changes.size() > 1) {
            JsonArray files = new JsonArray();
            changes.forEach(fc -> files.add(relativeToRoot(fc.file)));
            entry.add("files", files);
        }
        entry.addProperty("patch", patch.toString());
        entry.add("verified_seeds", verdict.get("verify_seeds"));
        entry.addProperty("candidates", candidates);
        boolean applied = false;
        if (settings.apply) {
            try {
                List<String> moved = new ArrayList<>();
                List<String> targets = new ArrayList<>();
                for (FileChange fc : changes) {
                    String now = new String(Files.readAllBytes(fc.file), encoding);
                    // on top of a patch this run applied to the same file, when they touch other lines
                    String target = now.equals(fc.before)
                            ? fc.after
                            : now.equals(written.get(fc.file))
                                    ? UnifiedPatch.merge(fc.before, List.of(now, fc.after))
                                    : null;
                    if (target == null) {
                        moved.add(fc.file
                                + (now.equals(written.get(fc.file))
                                        ? ": a patch applied before changed the same lines"
                                        : " changed while odrust:repair ran"));
                    }
                    targets.add(target);
                }
                if (moved.isEmpty()) {
                    // every new text written aside first, then each moved in place
                    List<Path> temps = new ArrayList<>();
                    for (int i = 0; i < changes.size(); i++) {
                        temps.add(aside(changes.get(i).file, targets.get(i)));
                    }
                    List<String> done = new ArrayList<>();
                    for (int i = 0; i < changes.size(); i++) {
                        try {
                            moveInPlace(temps.get(i), changes.get(i).file);
                        } catch (IOException e) {
                            throw new IOException(
                                    e.getMessage()
                                            + (done.isEmpty()
                                                    ? ""
                                                    : " (already applied: " + String.join(", ", done)
                                                            + "; undo them with `git apply -R " + patch
                                                            + "` after applying the rest)"),
                                    e);
                        }
                        done.add(changes.get(i).file.toString());
                        written.put(changes.get(i).file, targets.get(i));
                    }
                    applied = true;
                } else {
                    entry.addProperty("not_applied", String.join("; ", moved) + "; apply " + patch + " by hand");
                }
            } catch (IOException e) {
                throw new MojoExecutionException("could not apply " + patch + ": " + e.getMessage(), e);
            }
        }
        entry.addProperty("applied", applied);
        String description = fullDescription.startsWith(strategy + ": ")
                ? fullDescription.substring(strategy.length() + 2)
                : fullDescription;
        log.info(String.format(
                "patched  %s: %s: %s (%s; verified clean and under %s)",
                test,
                strategy,
                description,
                applied ? "applied to " + rel : "not applied; to apply it: " + apply,
                Words.count(verdict.getAsJsonArray("verify_seeds").size(), "seed")));
        return entry;
    }

    /** Writes {@code text} beside {@code file} (to be moved over it: {@link #moveInPlace}); returns where. */
    private Path aside(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".odrust-tmp");
        Files.write(tmp, text.getBytes(encoding));
        return tmp;
    }

    /** Replaces {@code file} with {@code tmp} in one step: a reader sees the old text or the new, never half. */
    private static void moveInPlace(Path tmp, Path file) throws IOException {
        Files.move(
                tmp,
                file,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Removes an earlier run's output file, if there is one. */
    private static void removeEarlier(Path file) throws MojoExecutionException {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot remove the earlier " + file + ": " + e.getMessage(), e);
        }
    }

    /** The files each offered patch changes, in the order they were offered. */
    final List<List<FileChange>> offered = new ArrayList<>();

    /** {@code all.patch}'s entry in id-repair.json ({@link #writeAll}); null until written. */
    JsonObject all;

    /** A file as every offered patch together makes it, and that without the imports they leave unused. */
    private record FileTexts(String merged, String clean) {}

    /**
     * Writes every offered patch as one, {@code repair/id/all.patch} ({@link AllPatches}): each
     * file's changes made once, and the imports they together leave unused removed; checked to
     * apply as written. With {@code apply}, a file every patch of which was applied also loses
     * those imports. Nothing when two patches change the same lines of a file (each applies on
     * its own).
     */
    void writeAll() throws MojoExecutionException {
        java.util.Map<Path, String> before = new java.util.LinkedHashMap<>();
        java.util.Map<Path, List<String>> afters = new java.util.LinkedHashMap<>();
        for (List<FileChange> changes : offered) {
            for (FileChange fc : changes) {
                before.putIfAbsent(fc.file, fc.before);
                afters.computeIfAbsent(fc.file, f -> new ArrayList<>()).add(fc.after);
            }
        }
        List<String> removed = new ArrayList<>();
        java.util.Map<Path, FileTexts> texts = new java.util.LinkedHashMap<>();
        for (Path file : before.keySet()) {
            String merged = AllPatches.merged(before.get(file), afters.get(file));
            if (merged == null) {
                log.info("odrust repair: no all.patch: two patches change the same lines of " + relativeToRoot(file)
                        + "; apply the patches one at a time");
                return;
            }
            AllPatches.Cleaned clean = AllPatches.withoutNowUnusedImports(before.get(file), merged);
            clean.removed().forEach(i -> removed.add(i + " (" + file.getFileName() + ")"));
            texts.put(file, new FileTexts(merged, clean.text()));
        }
        Path patch = dir.resolve("id").resolve("all.patch");
        List<FileChange> changes = new ArrayList<>();
        before.forEach((f, b) -> changes.add(new FileChange(f, b, texts.get(f).clean())));
        PatchCheck.Result applies = writePatch(patch, changes);
        all = new JsonObject();
        all.addProperty("patch", patch.toString());
        all.addProperty("patches", offered.size());
        JsonArray files = new JsonArray();
        before.keySet().forEach(f -> files.add(relativeToRoot(f)));
        all.add("files", files);
        JsonArray imports = new JsonArray();
        removed.forEach(imports::add);
        all.add("removed_imports", imports);
        all.add("applies", json(applies));
        if (!applies.ok()) {
            log.warn("odrust repair: " + patch + " does not apply as written (" + applies.describe()
                    + "); this is a bug in odrust: please report it with that file; apply the patches one at a time");
            return;
        }
        String apply = PatchCheck.applyCommand(root(changes.get(0).file), relativeToRoot(patch));
        all.addProperty("apply", apply);
        String imported = removed.isEmpty()
                ? ""
                : "; it also removes the imports they together leave unused: " + String.join(", ", removed);
        if (settings.apply) {
            for (java.util.Map.Entry<Path, FileTexts> e : texts.entrySet()) {
                FileTexts t = e.getValue();
                // Only a file whose every patch was applied (it reads as their merge) loses the imports.
                if (t.merged().equals(t.clean()) || !t.merged().equals(written.get(e.getKey()))) {
                    continue;
                }
                try {
                    moveInPlace(aside(e.getKey(), t.clean()), e.getKey());
                    written.put(e.getKey(), t.clean());
                } catch (IOException ex) {
                    throw new MojoExecutionException("could not write " + e.getKey() + ": " + ex.getMessage(), ex);
                }
            }
            boolean every =
                    texts.keySet().stream().allMatch(f -> texts.get(f).clean().equals(written.get(f)));
            all.addProperty("applied", every);
            log.info(
                    every
                            ? "odrust repair: all " + offered.size() + " patches as one, to undo them: "
                                    + apply.replaceFirst("^git apply ", "git apply -R ") + imported
                            : "odrust repair: " + patch + " has all " + offered.size()
                                    + " patches as one, against the files as they were before this run (not every patch"
                                    + " was applied)");
        } else {
            log.info("odrust repair: all " + offered.size() + " patches as one (each file's changes once): " + apply
                    + imported);
        }
    }

    /** What the patches this run applied left in each file they changed. */
    private final java.util.Map<Path, String> written = new java.util.HashMap<>();

    /** Writes {@code changes} as {@code patch}, paths relative to where mvn ran; returns whether it applies as written. */
    private PatchCheck.Result writePatch(Path patch, List<FileChange> changes) throws MojoExecutionException {
        StringBuilder diff = new StringBuilder();
        for (FileChange fc : changes) {
            diff.append(UnifiedPatch.of(relativeToRoot(fc.file), fc.before, fc.after));
        }
        try {
            Files.createDirectories(patch.getParent());
            Files.write(patch, diff.toString().getBytes(encoding));
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write " + patch + ": " + e.getMessage(), e);
        }
        return checkApplies(patch, changes);
    }

    /** A check's result as id-repair.json says it ({@code applies}: {@code reason}, {@code checker}). */
    private static JsonObject json(PatchCheck.Result r) {
        JsonObject o = new JsonObject();
        o.addProperty("reason", r.reason);
        o.addProperty("checker", r.checker);
        return o;
    }

    /**
     * Whether {@code patch} applies to the files of {@code changes}: as they are, or, for a file
     * a patch this run applied changed since, as they were when {@code patch} was made.
     */
    private PatchCheck.Result checkApplies(Path patch, List<FileChange> changes) throws MojoExecutionException {
        java.util.Map<String, byte[]> asWere = new java.util.LinkedHashMap<>();
        for (FileChange fc : changes) {
            try {
                String now = new String(Files.readAllBytes(fc.file), encoding);
                if (!now.equals(fc.before) && now.equals(written.get(fc.file))) {
                    asWere.put(relativeToRoot(fc.file), fc.before.getBytes(encoding));
                }
            } catch (IOException e) {
                throw new MojoExecutionException("cannot read " + fc.file + ": " + e.getMessage(), e);
            }
        }
        return PatchCheck.check(root(changes.get(0).file), patch, asWere);
    }

    /** Where patch paths start: where mvn ran (without it, {@code file}'s directory). */
    private Path root(Path file) {
        return settings.root == null ? file.getParent() : settings.root;
    }

    private String relativeToRoot(Path file) {
        Path root = root(file);
        Path abs = file.toAbsolutePath().normalize();
        Path r = root.toAbsolutePath().normalize();
        return abs.startsWith(r) ? r.relativize(abs).toString().replace(File.separatorChar, '/') : abs.toString();
    }

    private void write(List<JsonObject> entries) throws MojoExecutionException {
        JsonObject file = new JsonObject();
        file.addProperty("module", module.id());
        file.addProperty("odrust_version", engine.version());
        JsonArray a = new JsonArray();
        entries.forEach(a::add);
        file.add("repairs", a);
        if (estimate != null) {
            file.add("estimate", estimate.json());
        }
        if (all != null) {
            file.add("all", all);
        }
        Path f = dir.resolve("id-repair.json");
        try {
            ReportWriter.atomicWrite(f, Json.WIRE.toJson(file) + "\n");
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write " + f + ": " + e.getMessage(), e);
        }
    }

    private static JsonObject tried(String strategy, String why) {
        JsonObject o = new JsonObject();
        o.addProperty("strategy", strategy);
        o.addProperty("why", why);
        return o;
    }

    private static String str(JsonElement e, String otherwise) {
        return e == null || e.isJsonNull() ? otherwise : e.getAsString();
    }
}
