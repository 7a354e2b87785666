package io.github.odrust.maven.detect;

import com.google.gson.JsonObject;
import io.github.odrust.engine.protocol.DetectRequest;
import io.github.odrust.engine.protocol.Vocabulary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.maven.plugin.MojoFailureException;

/** The settings of one detection run, as the engine's {@code config} object (docs/protocol.md). */
public final class DetectConfig {
    public String strategy;
    public int rounds;
    public long seed;
    public int baselineTries;
    public int aloneRuns;
    public boolean stopRounds;
    /** For k-bounded: the length of the tuples. */
    public int k;

    public boolean minimize = true;
    /** Explanation experiments for the whole run; null: the engine's default (60 per OD test to explain). */
    public Integer minimizeBudget;
    /** When not empty, only these OD tests are minimized (odrust:minimize). */
    public List<String> minimizeOnly = new ArrayList<>();
    /** targeted, dependence-aware: static fields never taken as a cause of a dependence ({@code pkg.C#F}, {@code *} wildcards). */
    public List<String> dependenceFree = new ArrayList<>();
    /** targeted, dependence-aware: extra classes to instrument (package or class prefixes), besides the project's own. */
    public List<String> dependenceInclude = new ArrayList<>();
    /**
     * targeted: test classes new or changed since the last odrust:incremental run, whose tests run
     * right after and right before every test they share a static field with, first. Set by
     * odrust:incremental from its selection, never by the user.
     */
    public List<String> newClasses = new ArrayList<>();
    /** Systematic strategies: run the orders with the most pairs per predicted millisecond first. */
    public boolean costAware;
    /** {@code K/N}: run shard K of N of the plan (docs/shards.md); null: the whole plan. */
    public String shard;
    /**
     * Whether the baseline runs record static field accesses (the engine's recording strategies:
     * targeted, dependence-aware). Not sent to the engine: it knows from the strategy.
     */
    public transient boolean recordBaseline;
    /**
     * {@code odrust.isolation=classloader}: the rounds run in fresh JVMs before the isolation check
     * (the engine prices the later ones as shared); null without shared JVMs. Not in run.json: a
     * resumed run may change the isolation.
     */
    public transient Integer sharedAfterRounds;
    /** What the strategy does when its baseline recorded nothing (the engine's words); null if it does not record. */
    public transient String withoutRecording;

    /** What the user gave for a run, before defaults and a resumed run's settings apply (null: not given). */
    public static final class Given {
        public String strategy;
        public Integer rounds;
        public Integer k;
        public Long seed;
        public Integer baselineTries;
        public Integer aloneRuns;
        public boolean minimize = true;
        public Integer minimizeBudget;
        public String dependenceFree;
        public String dependenceInclude;
        public Boolean costAware;
        public String shard;
    }

    /**
     * The settings of a run: those given, else (on resume) those of the recorded run, else the
     * defaults.
     *
     * @param saved the {@code config} of the recorded run being resumed, or null for a new run
     * @param budgetMillis the time budget (0: none); cost-aware ranking is on by default with one
     * @param engine the engine's names and defaults (the {@code vocabulary} op)
     */
    public static DetectConfig resolve(Given given, JsonObject saved, long budgetMillis, Vocabulary engine) {
        JsonObject sc = saved == null ? new JsonObject() : saved;
        Vocabulary.DetectDefaults defaults = engine.detectDefaults;
        DetectConfig config = new DetectConfig();
        config.strategy = given.strategy != null
                ? given.strategy.trim()
                : sc.has("strategy") ? sc.get("strategy").getAsString() : defaults.strategy;
        config.recordBaseline =
                engine.recordingStrategies != null && engine.recordingStrategies.contains(config.strategy);
        config.withoutRecording = engine.withoutRecording.get(config.strategy);
        // The engine's default (a systematic strategy: its whole schedule); a strategy it does not
        // know is refused by the engine, naming the valid ones.
        int defaultRounds = defaults.rounds.getOrDefault(config.strategy, 0);
        config.rounds = given.rounds != null
                ? given.rounds
                : sc.has("rounds") ? sc.get("rounds").getAsInt() : defaultRounds;
        config.k = given.k != null ? given.k : sc.has("k") ? sc.get("k").getAsInt() : defaults.k;
        config.baselineTries = given.baselineTries != null
                ? given.baselineTries
                : sc.has("baseline_tries") ? sc.get("baseline_tries").getAsInt() : defaults.baselineTries;
        config.aloneRuns = given.aloneRuns != null
                ? given.aloneRuns
                : sc.has("alone_runs") ? sc.get("alone_runs").getAsInt() : defaults.aloneRuns;
        config.seed = given.seed != null
                ? given.seed
                : sc.has("seed")
                        ? sc.get("seed").getAsLong()
                        : ThreadLocalRandom.current().nextLong(1, 1_000_000_000L);
        config.minimize = given.minimize;
        config.minimizeBudget = given.minimizeBudget;
        config.dependenceFree =
                given.dependenceFree != null ? commaList(given.dependenceFree) : savedList(sc, "dependence_free");
        config.dependenceInclude = given.dependenceInclude != null
                ? commaList(given.dependenceInclude)
                : savedList(sc, "dependence_include");
        // the recorded run's (odrust:minimize, a resume): odrust:incremental sets it anew from its selection
        config.newClasses = savedList(sc, "new_classes");
        config.shard = given.shard != null && !given.shard.trim().isEmpty()
                ? given.shard.trim()
                : sc.has("shard") ? sc.get("shard").getAsString() : null;
        // Shards must share one plan: no ranking by each shard's own baseline times by default.
        config.costAware = given.costAware != null
                ? given.costAware
                : sc.has("cost_aware") ? sc.get("cost_aware").getAsBoolean() : budgetMillis > 0 && config.shard == null;
        return config;
    }

    private static List<String> savedList(JsonObject sc, String key) {
        List<String> l = new ArrayList<>();
        if (sc.has(key) && sc.get(key).isJsonArray()) {
            sc.getAsJsonArray(key).forEach(e -> l.add(e.getAsString()));
        }
        return l;
    }

    /** Refuses numbers the engine cannot use, naming the properties. */
    public void check() throws MojoFailureException {
        if (rounds < 0) {
            throw new MojoFailureException("odrust.rounds must be 0 or more (got " + rounds + ")");
        }
        if (baselineTries < 1) {
            throw new MojoFailureException("odrust.baselineTries must be 1 or more (got " + baselineTries + ")");
        }
        if (aloneRuns < 1) {
            throw new MojoFailureException("odrust.aloneRuns must be 1 or more (got " + aloneRuns + ")");
        }
        if (minimizeBudget != null && minimizeBudget < 1) {
            throw new MojoFailureException("odrust.minimize.budget must be 1 or more (got " + minimizeBudget
                    + "); to explain nothing, use -Dodrust.minimize=false");
        }
    }

    /** The time budget in milliseconds, 0 when none is given. */
    public static long timeBudget(String text) throws MojoFailureException {
        try {
            return text == null || text.trim().isEmpty() ? 0 : parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
    }

    /**
     * The settings as the engine reads them ({@code config} of {@code detect_next}). Unlike
     * {@link #toJson} (run.json) it leaves out {@code dependence_include}, which only the
     * recording agent reads.
     */
    public DetectRequest.Config toRequest() {
        DetectRequest.Config c = new DetectRequest.Config();
        c.strategy = strategy;
        c.rounds = rounds;
        c.seed = seed;
        c.baselineTries = baselineTries;
        c.aloneRuns = aloneRuns;
        c.stopRounds = stopRounds;
        c.k = k;
        c.minimize = minimize;
        c.minimizeBudget = minimizeBudget;
        c.costAware = costAware;
        c.shard = shard;
        c.dependenceFree = dependenceFree.isEmpty() ? null : new ArrayList<>(dependenceFree);
        c.minimizeOnly = minimizeOnly.isEmpty() ? null : new ArrayList<>(minimizeOnly);
        c.newClasses = newClasses.isEmpty() ? null : new ArrayList<>(newClasses);
        c.sharedAfterRounds = sharedAfterRounds;
        return c;
    }

    public JsonObject toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("strategy", strategy);
        o.addProperty("rounds", rounds);
        o.addProperty("seed", seed);
        o.addProperty("baseline_tries", baselineTries);
        o.addProperty("alone_runs", aloneRuns);
        o.addProperty("stop_rounds", stopRounds);
        o.addProperty("k", k);
        o.addProperty("minimize", minimize);
        if (minimizeBudget != null) {
            o.addProperty("minimize_budget", minimizeBudget);
        }
        o.addProperty("cost_aware", costAware);
        if (shard != null) {
            o.addProperty("shard", shard);
        }
        if (!dependenceFree.isEmpty()) {
            com.google.gson.JsonArray free = new com.google.gson.JsonArray();
            dependenceFree.forEach(free::add);
            o.add("dependence_free", free);
        }
        if (!dependenceInclude.isEmpty()) {
            com.google.gson.JsonArray include = new com.google.gson.JsonArray();
            dependenceInclude.forEach(include::add);
            o.add("dependence_include", include);
        }
        if (!minimizeOnly.isEmpty()) {
            com.google.gson.JsonArray only = new com.google.gson.JsonArray();
            minimizeOnly.forEach(only::add);
            o.add("minimize_only", only);
        }
        if (!newClasses.isEmpty()) {
            com.google.gson.JsonArray fresh = new com.google.gson.JsonArray();
            newClasses.forEach(fresh::add);
            o.add("new_classes", fresh);
        }
        return o;
    }

    /**
     * What in {@code saved} (the config of the run being resumed) differs from this one in a way
     * that changes the plan. The number of rounds may change: the plan just stops elsewhere.
     */
    public List<String> incompatibleWith(JsonObject saved) {
        List<String> diffs = new ArrayList<>();
        compare(diffs, "odrust.strategy", saved.get("strategy").getAsString(), strategy);
        compare(diffs, "odrust.seed", saved.get("seed").getAsString(), String.valueOf(seed));
        compare(
                diffs,
                "odrust.baselineTries",
                saved.get("baseline_tries").getAsString(),
                String.valueOf(baselineTries));
        compare(diffs, "odrust.aloneRuns", saved.get("alone_runs").getAsString(), String.valueOf(aloneRuns));
        if (saved.has("k")) {
            compare(diffs, "odrust.k", saved.get("k").getAsString(), String.valueOf(k));
        }
        compare(
                diffs,
                "odrust.costAware",
                saved.has("cost_aware") ? saved.get("cost_aware").getAsString() : "false",
                String.valueOf(costAware));
        compare(
                diffs,
                "odrust.shard",
                saved.has("shard") ? saved.get("shard").getAsString() : "none (the whole plan)",
                shard == null ? "none (the whole plan)" : shard);
        compare(diffs, "odrust.dependence.free", list(saved, "dependence_free"), String.join(",", dependenceFree));
        compare(
                diffs,
                "odrust.dependence.include",
                list(saved, "dependence_include"),
                String.join(",", dependenceInclude));
        compare(
                diffs,
                "the new or changed test classes (odrust:incremental)",
                list(saved, "new_classes").isEmpty() ? "none" : list(saved, "new_classes"),
                newClasses.isEmpty() ? "none" : String.join(",", newClasses));
        return diffs;
    }

    private static String list(JsonObject saved, String key) {
        List<String> l = new ArrayList<>();
        if (saved.has(key) && saved.get(key).isJsonArray()) {
            saved.getAsJsonArray(key).forEach(e -> l.add(e.getAsString()));
        }
        return String.join(",", l);
    }

    /** The non-empty, trimmed entries of a comma-separated property (null gives none). */
    public static List<String> commaList(String text) {
        List<String> l = new ArrayList<>();
        if (text != null) {
            for (String part : text.split(",")) {
                if (!part.trim().isEmpty()) {
                    l.add(part.trim());
                }
            }
        }
        return l;
    }

    private static void compare(List<String> diffs, String name, String saved, String now) {
        if (!saved.equals(now)) {
            diffs.add(name + " was " + saved + ", now " + now);
        }
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|h|m|s)?");

    /**
     * Parses a time budget such as {@code 90s}, {@code 10m}, {@code 1h30m} or a plain number of
     * seconds, into milliseconds.
     *
     * @throws IllegalArgumentException naming the value when it is not a duration
     */
    public static long parseDuration(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = DURATION.matcher(s);
        long total = 0;
        int end = 0;
        while (m.find() && m.start() == end) {
            long n = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            total +=
                    unit.equals("h") ? n * 3_600_000 : unit.equals("m") ? n * 60_000 : unit.equals("ms") ? n : n * 1000;
            end = m.end();
        }
        if (end != s.length() || s.isEmpty() || total <= 0) {
            throw new IllegalArgumentException(
                    "odrust.timeBudget=" + text + " is not a duration: write e.g. 90s, 10m, 1h30m");
        }
        return total;
    }
}
