package io.github.odrust.maven.repair;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.RepairStep;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code target/odrust/repair/repair.json} (schema in docs/repair.md): one entry per root cause
 * repaired (or part of one), rewritten atomically after each one. Field names become snake_case in JSON.
 */
public final class RepairFile {
    /** Version 2: an entry per cause ({@code cause}, {@code members}, {@code split}, {@code apply}). */
    public static final int SCHEMA_VERSION = 2;

    private static final Gson JSON = Json.PRETTY_SNAKE_CASE;

    public int schemaVersion = SCHEMA_VERSION;
    public String module;
    public String odrustVersion;
    public boolean complete;
    public List<Entry> repairs = new ArrayList<>();
    /**
     * This run's prediction at its start against what it took ({@code core.Eta#phase}): one
     * {@code repair} entry; empty until the run ends.
     */
    public List<JsonObject> phases = new ArrayList<>();
    /** What became of an earlier repair.json this run could not continue, or null (not written). */
    public transient String setAside;
    /** The entries of this run (not written: repairs also keeps those of earlier runs). */
    public transient List<Entry> ran = new ArrayList<>();

    RepairFile(String module, String odrustVersion) {
        this.module = module;
        this.odrustVersion = odrustVersion;
    }

    /** One repair: a root cause's tests (or a part of them), one patch for all. */
    public static final class Entry {
        /** The first of its tests. */
        public String test;

        public String kind;
        /** report.json's cause these tests are (of), or null. */
        public Integer cause;
        /** Every test the patch was made and verified for, {@code test} first. */
        public List<String> members = new ArrayList<>();
        /** Why the cause was split, when these are part of its tests. */
        public String split;
        /** patched, rejected, no-fix-source, not-reproduced, unfinished, unsupported. */
        public String status;

        public String reason;
        /** The patch file, relative to the module; null without a patch. */
        public String patch;
        /** The command that applies it, run where Maven ran. */
        public String apply;
        /** Whether the written patch applies as written ({@code git apply --check} in a scratch copy). */
        public PatchCheck.Result applies;
        /** The flaky test's source file, relative to the module. */
        public String file;
        /** SHA-256 of that file as the patch was made against (apply checks it). */
        public String originalSha256;

        public RepairStep.SourceRef source;
        /** The statements kept, as source text. */
        public List<String> statements = new ArrayList<>();

        public int statementsTotal;
        public Where placement;
        public List<RepairStep.CheckResult> verification = new ArrayList<>();
        public int experiments;
        public int compileErrors;
        public List<RepairStep.Tried> tried = new ArrayList<>();
        public boolean applied;
        /** Why a patch was not applied although apply was asked. */
        public String notApplied;
        /** Victims: what odrust:diagnose found (status, polluted fields, both values). */
        public com.google.gson.JsonElement pollutedState;
        /** Victims: the calls of the module's reset methods found for that state, best first. */
        public List<String> resetCandidates;
        /** The patched text of the file, for apply (not written). */
        public transient String patchedText;
        /** The file the patch changes (not written). */
        public transient Path sourceFile;

        public Entry(String test, String kind) {
            this.test = test;
            this.kind = kind;
        }
    }

    /** The part of a diagnosis repair.json keeps: status, the polluted fields and their values. */
    public static JsonObject pollutedState(JsonObject diagnosis) {
        JsonObject o = new JsonObject();
        o.add("status", diagnosis.get("status"));
        o.add("reason", diagnosis.get("reason"));
        com.google.gson.JsonArray fields = new com.google.gson.JsonArray();
        for (com.google.gson.JsonElement e : diagnosis.getAsJsonArray("fields")) {
            JsonObject f = e.getAsJsonObject();
            JsonObject g = new JsonObject();
            for (String k : new String[] {"field", "failing", "passing", "confirmed", "restorable"}) {
                g.add(k, f.get(k));
            }
            fields.add(g);
        }
        o.add("fields", fields);
        return o;
    }

    /** Where the patch puts its code. */
    public static final class Where {
        /** setup or test. */
        public String kind;
        /** The method the helper is called from (or the helper itself, when it is the new setup method). */
        public String method;
        /** The helper method holding the kept statements. */
        public String helper;

        public Where(String kind, String method, String helper) {
            this.kind = kind;
            this.method = method;
            this.helper = helper;
        }
    }

    /**
     * A repair.json to write: the entries of the one at {@code path} (when it is of this module and
     * version) are kept, so that repairing one test ({@code -Dodrust.test}) keeps the others'.
     */
    public static RepairFile continuing(Path path, String module, String odrustVersion) {
        RepairFile file = new RepairFile(module, odrustVersion);
        if (!Files.exists(path)) {
            return file;
        }
        String why;
        try {
            RepairFile old =
                    JSON.fromJson(new String(Files.readAllBytes(path), StandardCharsets.UTF_8), RepairFile.class);
            if (old == null || old.repairs == null) {
                why = "holds no repairs";
            } else if (old.schemaVersion != SCHEMA_VERSION) {
                why = "has schema_version " + old.schemaVersion + " (this odrust writes " + SCHEMA_VERSION + ")";
            } else if (!module.equals(old.module)) {
                why = "is of the module " + old.module;
            } else if (!odrustVersion.equals(old.odrustVersion)) {
                why = "was written by odrust " + old.odrustVersion;
            } else {
                file.repairs.addAll(old.repairs);
                return file;
            }
        } catch (IOException | RuntimeException e) {
            why = "cannot be read (" + e.getMessage() + ")";
        }
        file.setAside = io.github.odrust.maven.core.SetAside.move(path, why);
        return file;
    }

    /** Adds {@code entry}, replacing earlier entries of any of its tests; entries stay sorted by test. */
    public void put(Entry entry) {
        ran.add(entry);
        java.util.Set<String> tests = new java.util.HashSet<>(entry.members);
        tests.add(entry.test);
        repairs.removeIf(e -> tests.contains(e.test) || e.members.stream().anyMatch(tests::contains));
        repairs.add(entry);
        repairs.sort(java.util.Comparator.comparing(e -> e.test));
    }

    /** The patch file name of a test: its id with every character outside [A-Za-z0-9._#-] replaced by _. */
    public static String patchName(String test) {
        return test.replaceAll("[^A-Za-z0-9._#-]", "_") + ".patch";
    }

    public void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, JSON.toJson(this).getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
