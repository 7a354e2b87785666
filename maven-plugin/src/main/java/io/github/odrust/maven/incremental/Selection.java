package io.github.odrust.maven.incremental;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.SelectRequest;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.run.CodeDigest;
import io.github.odrust.maven.run.DiscoveredSuite;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * The selection of odrust:incremental (docs/incremental.md): the module's class directories and
 * jars, the saved state and the build's fingerprint go to the engine ({@code incremental_select}),
 * which says what changed and which test classes it can affect; this writes
 * {@code selection.json}, narrows the suite to them, and saves the new state once detection over
 * them has finished (so a run that fails is selected again).
 */
public final class Selection {
    /** State file format the plugin writes around the engine's state. */
    static final int STATE_FILE_VERSION = 1;

    private final Engine engine;
    private final TestModule module;
    private final Path state;
    private final Path dir;
    private final boolean selectAll;
    private final Log log;
    private JsonObject response;
    /** Why the saved state was not used although a file exists, or null. */
    private String stateProblem;
    /** The parts of the build this run saw ({@link #buildParts}), saved with the state. */
    private java.util.Map<String, String> parts;
    /** The parts of the build the saved state recorded, or null (an older state file). */
    private JsonObject savedParts;

    /** Records what the build is made of, so that a changed build can be named part by part. */
    public Selection withBuildParts(java.util.Map<String, String> parts) {
        this.parts = parts;
        return this;
    }

    public Selection(Engine engine, TestModule module, Path state, Path dir, boolean selectAll, Log log) {
        this.engine = engine;
        this.module = module;
        this.state = state;
        this.dir = dir;
        this.selectAll = selectAll;
        this.log = log;
    }

    /**
     * Whether nothing changed since the saved state: the same build, classes and jars, so no test
     * class can be affected whatever the test classes are. Asked before discovery; when true,
     * {@code selection.json} is written, the console says so in one line and {@link #save} keeps
     * the state.
     */
    public boolean unchanged(String buildFingerprint) throws MojoExecutionException {
        if (selectAll) {
            return false;
        }
        JsonObject r = select(List.of(), buildFingerprint);
        if (r.get("full").getAsBoolean() || !r.getAsJsonArray("changed").isEmpty()) {
            return false;
        }
        response = r;
        JsonObject file = selectionFile();
        // no test class was discovered: their number is not known
        file.remove("test_classes_total");
        file.addProperty("unchanged", true);
        write(file);
        log.info("odrust incremental: nothing changed since the saved state (" + state
                + "): no test class can be affected, nothing to run (no test JVM started)");
        return true;
    }

    /** The part of {@code suite} the change can affect. */
    public DiscoveredSuite narrow(DiscoveredSuite suite, String buildFingerprint) throws MojoExecutionException {
        List<String> testClassNames = new java.util.ArrayList<>();
        for (DiscoveredSuite.ClassRecord c : suite.classes) {
            testClassNames.add(c.className);
        }
        response = select(testClassNames, buildFingerprint);
        write(selectionFile());
        print(testClassNames.size());
        Set<String> selected = new LinkedHashSet<>();
        for (JsonElement s : response.getAsJsonArray("selected")) {
            selected.add(s.getAsJsonObject().get("class").getAsString());
        }
        return suite.only(selected);
    }

    /** The engine's selection ({@code incremental_select}) over {@code testClassNames}. */
    private JsonObject select(List<String> testClassNames, String buildFingerprint) throws MojoExecutionException {
        SelectRequest request = new SelectRequest();
        List<String> main = request.mainDirs;
        List<String> test = request.testDirs;
        List<String> jars = request.jars;
        File classes = module.settings.classesDirectory;
        File testClasses = module.settings.testClassesDirectory;
        for (File f : module.classpath) {
            if (f.equals(module.agentJar)) {
                continue;
            }
            if (f.isDirectory()) {
                (f.equals(testClasses) ? test : main).add(f.getAbsolutePath());
            } else if (f.isFile()) {
                jars.add(f.getAbsolutePath());
            }
        }
        for (File own : io.github.odrust.maven.core.ProjectRoots.of(module).jars) {
            request.ownJars.add(own.getAbsolutePath());
        }
        if (test.isEmpty() && testClasses != null && testClasses.isDirectory()) {
            test.add(testClasses.getAbsolutePath());
        }
        if (main.isEmpty() && classes != null && classes.isDirectory()) {
            main.add(classes.getAbsolutePath());
        }
        request.testClasses.addAll(testClassNames);
        request.state = readState();
        request.buildFingerprint = buildFingerprint;
        request.selectAll = selectAll;
        return engine.call("incremental_select", request);
    }

    /** {@code selection.json}: the engine's answer without the state. */
    private JsonObject selectionFile() {
        JsonObject file = response.deepCopy();
        file.remove("state");
        file.addProperty("schema_version", 1);
        file.addProperty("state_file", state.toString());
        return file;
    }

    private void write(JsonObject selectionFile) throws MojoExecutionException {
        try {
            write(dir.resolve("selection.json"), selectionFile);
        } catch (IOException e) {
            throw new MojoExecutionException(
                    "cannot write " + dir.resolve("selection.json") + ": " + e.getMessage(), e);
        }
    }

    private void print(int total) {
        boolean full = response.get("full").getAsBoolean();
        JsonArray changed = response.getAsJsonArray("changed");
        JsonArray selected = response.getAsJsonArray("selected");
        if (full) {
            // an unusable state file went to the engine as none: say what was wrong with it
            // (without a state the engine compares no build, so only selectAll can outrank it)
            String why = stateProblem != null && !selectAll
                    ? stateProblem
                    : response.get("why_full").getAsString();
            if (why.startsWith("the build changed") && !selectAll) {
                why += changedParts(savedParts, parts);
            }
            log.info("odrust incremental: a full run: " + why);
        } else {
            log.info("odrust incremental: " + changed.size() + " changed " + (changed.size() == 1 ? "class" : "classes")
                    + " since the saved state (" + state + ")");
            for (JsonElement c : changed) {
                JsonObject o = c.getAsJsonObject();
                log.info("  changed  " + o.get("class").getAsString() + " ("
                        + o.get("why").getAsString() + ")");
            }
        }
        log.info("odrust incremental: " + selected.size() + " of " + total + " test classes selected"
                + (selected.size() == 0 ? ": no test class can be affected, nothing to run" : ""));
        if (!full) {
            for (JsonElement s : selected) {
                JsonObject o = s.getAsJsonObject();
                log.info("  selected " + o.get("class").getAsString() + ": "
                        + String.join("; ", strings(o.getAsJsonArray("reasons"))));
            }
        }
        JsonArray fresh =
                response.has("new_test_classes") ? response.getAsJsonArray("new_test_classes") : new JsonArray();
        if (!fresh.isEmpty()) {
            log.info("odrust incremental: " + fresh.size() + " new or changed test "
                    + (fresh.size() == 1 ? "class" : "classes") + " since the saved state");
            for (JsonElement c : fresh) {
                JsonObject o = c.getAsJsonObject();
                log.info("  " + ("added".equals(o.get("why").getAsString()) ? "new      " : "changed  ")
                        + o.get("class").getAsString());
            }
        }
    }

    private static java.util.List<String> strings(JsonArray a) {
        java.util.List<String> out = new java.util.ArrayList<>();
        a.forEach(e -> out.add(e.getAsString()));
        return out;
    }

    /** The saved engine state, or JSON null when there is none or it cannot be read (then: a full run, said by the engine). */
    private JsonElement readState() {
        if (!Files.isRegularFile(state)) {
            return com.google.gson.JsonNull.INSTANCE;
        }
        try {
            JsonObject file = JsonParser.parseString(new String(Files.readAllBytes(state), StandardCharsets.UTF_8))
                    .getAsJsonObject();
            if (!file.has("file_version")
                    || file.get("file_version").getAsInt() != STATE_FILE_VERSION
                    || !file.has("state")) {
                stateProblem = state + " is not a state file this odrust writes";
                return com.google.gson.JsonNull.INSTANCE;
            }
            String owner = file.has("module") ? file.get("module").getAsString() : null;
            savedParts = file.has("build") && file.get("build").isJsonObject() ? file.getAsJsonObject("build") : null;
            if (!module.id().equals(owner)) {
                stateProblem = state + " is the state of " + owner + ", not of " + module.id()
                        + " (give each module its own -Dodrust.incremental.state)";
                return com.google.gson.JsonNull.INSTANCE;
            }
            return file.get("state");
        } catch (IOException | RuntimeException e) {
            stateProblem = "the saved state " + state + " cannot be read (" + e.getMessage() + ")";
            return com.google.gson.JsonNull.INSTANCE;
        }
    }

    /** Saves the new state (atomically); called once detection over the selection has finished. */
    public void save() throws MojoExecutionException {
        if (response == null) {
            return;
        }
        JsonObject file = new JsonObject();
        file.addProperty("file_version", STATE_FILE_VERSION);
        file.addProperty("module", module.id());
        file.add("state", response.get("state"));
        if (parts != null) {
            JsonObject build = new JsonObject();
            parts.forEach(build::addProperty);
            file.add("build", build);
        }
        try {
            write(state, file);
        } catch (IOException e) {
            throw new MojoExecutionException(
                    "cannot save the incremental state to " + state + ": " + e.getMessage(), e);
        }
        log.info("odrust incremental: state saved to " + state + " (the next run compares with it)");
    }

    /**
     * The test classes of {@code suite} that were added or changed since the saved state, sorted
     * (none on a run without a usable state).
     */
    public List<String> newTestClasses(DiscoveredSuite suite) {
        Set<String> inSuite = new java.util.HashSet<>();
        for (DiscoveredSuite.ClassRecord c : suite.classes) {
            inSuite.add(c.className);
        }
        List<String> out = new java.util.ArrayList<>();
        if (response != null && response.has("new_test_classes")) {
            for (JsonElement e : response.getAsJsonArray("new_test_classes")) {
                String name = e.getAsJsonObject().get("class").getAsString();
                if (inSuite.contains(name)) {
                    out.add(name);
                }
            }
        }
        return out;
    }

    /** Whether the engine selected no test class. */
    public boolean nothingSelected() {
        return response != null && response.getAsJsonArray("selected").isEmpty();
    }

    /**
     * A digest of what makes a build another build for its tests: the module's effective Surefire
     * settings and test JVM, its test classpath (paths, in order) and the resources in its class
     * directories; the module's directory and the local repository are placeholders.
     */
    public static String buildFingerprint(TestModule module, Path basedir, String localRepository)
            throws MojoExecutionException {
        StringBuilder b = new StringBuilder();
        // Not the pom's bytes: what a pom change can do to the tests shows in what follows (the
        // Surefire settings, the test JVM, the classpath) or in the class files the engine
        // compares; its resources are the one other way, so they are part of the build here.
        try {
            b.append(resourcesOnce(module)).append('\n');
        } catch (IOException e) {
            throw new MojoExecutionException("cannot read the module's resources: " + e.getMessage(), e);
        }
        // every setting by name and value (String.valueOf: File, maps and lists print their content)
        java.util.TreeMap<String, String> settings = new java.util.TreeMap<>();
        for (java.lang.reflect.Field f : module.settings.getClass().getFields()) {
            try {
                Object value = f.get(module.settings);
                if (f.getName().equals("systemProperties")) {
                    // odrust's own settings (-Dodrust.seed=...) reach the test JVM as Surefire
                    // passes every -D, but they do not make another build
                    java.util.TreeMap<String, String> props = new java.util.TreeMap<>(module.settings.systemProperties);
                    props.keySet().removeIf(k -> k.startsWith("odrust."));
                    value = props;
                }
                settings.put(f.getName(), String.valueOf(value));
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        settings.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
        b.append(module.jvm.java).append(' ').append(module.jvm.jvmArgs).append('\n');
        for (File f : module.classpath) {
            if (!f.equals(module.agentJar)) {
                b.append(f.getAbsolutePath()).append('\n');
            }
        }
        // where the checkout and the local repository are does not make another build (CI runners
        // differ in both)
        String text = b.toString().replace(basedir.toAbsolutePath().toString(), "${basedir}");
        if (localRepository != null && !localRepository.isEmpty()) {
            text = text.replace(new File(localRepository).getAbsolutePath(), "${repository}");
        }
        return CodeDigest.sha256(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@code ": what changed: ..."}: the parts of the build that differ between the saved state's
     * and this run's, with the fix for a {@code -D} property; empty when either is unknown.
     */
    static String changedParts(JsonObject saved, java.util.Map<String, String> now) {
        if (saved == null || now == null) {
            return "";
        }
        java.util.TreeSet<String> names = new java.util.TreeSet<>(now.keySet());
        saved.keySet().forEach(names::add);
        List<String> changed = new java.util.ArrayList<>();
        for (String name : names) {
            JsonElement before = saved.get(name);
            String after = now.get(name);
            if (before == null || after == null || !before.getAsString().equals(after)) {
                changed.add(name + (before == null ? " (new)" : after == null ? " (gone)" : ""));
            }
        }
        if (changed.isEmpty()) {
            return "";
        }
        String text = ": what changed: " + String.join(", ", changed.subList(0, Math.min(8, changed.size())))
                + (changed.size() > 8 ? ", and " + (changed.size() - 8) + " more" : "");
        if (changed.stream().anyMatch(c -> c.startsWith(PROPERTY))) {
            text += " (Surefire passes every -D of the Maven command to the tests, so a -D is part of the build;"
                    + " give settings that do not concern the tests, such as logging or a build number, in"
                    + " MAVEN_OPTS instead)";
        }
        return text;
    }

    /** The name of a part for a system property the tests see (a -D, or Surefire's systemPropertyVariables). */
    static final String PROPERTY = "-D";

    /**
     * What {@link #buildFingerprint} is made of, part by part (name: a digest of its value), to
     * say which changed: {@code resources}, each Surefire setting ({@code surefire <name>}; system
     * properties one by one, {@code -Dkey}), {@code test JVM}, {@code classpath}.
     */
    public static java.util.Map<String, String> buildParts(TestModule module, Path basedir, String localRepository)
            throws MojoExecutionException {
        java.util.TreeMap<String, String> out = new java.util.TreeMap<>();
        java.util.function.Function<String, String> digest = text -> {
            String t = text.replace(basedir.toAbsolutePath().toString(), "${basedir}");
            if (localRepository != null && !localRepository.isEmpty()) {
                t = t.replace(new File(localRepository).getAbsolutePath(), "${repository}");
            }
            return CodeDigest.sha256(t.getBytes(StandardCharsets.UTF_8));
        };
        try {
            out.put("resources", resourcesOnce(module));
        } catch (IOException e) {
            throw new MojoExecutionException("cannot read the module's resources: " + e.getMessage(), e);
        }
        for (java.lang.reflect.Field f : module.settings.getClass().getFields()) {
            try {
                if (f.getName().equals("systemProperties")) {
                    module.settings.systemProperties.forEach((k, v) -> {
                        if (!k.startsWith("odrust.")) {
                            out.put(PROPERTY + k, digest.apply(String.valueOf(v)));
                        }
                    });
                } else {
                    out.put("surefire " + f.getName(), digest.apply(String.valueOf(f.get(module.settings))));
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        out.put("test JVM", digest.apply(module.jvm.java + " " + module.jvm.jvmArgs));
        StringBuilder classpath = new StringBuilder();
        for (File f : module.classpath) {
            if (!f.equals(module.agentJar)) {
                classpath.append(f.getAbsolutePath()).append('\n');
            }
        }
        out.put("classpath", digest.apply(classpath.toString()));
        return out;
    }

    /** {@link #resources} of a module, read once per module object (the fingerprint and its parts both need it). */
    private static final java.util.Map<TestModule, String> RESOURCES =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    static String resourcesOnce(TestModule module) throws IOException {
        String known = RESOURCES.get(module);
        if (known == null) {
            known = resources(module);
            RESOURCES.put(module, known);
        }
        return known;
    }

    /** A digest of every file of the classpath directories that is not a class file (the resources the build copied there). */
    static String resources(TestModule module) throws IOException {
        StringBuilder all = new StringBuilder();
        for (File f : module.classpath) {
            if (!f.isDirectory() || f.equals(module.agentJar)) {
                continue;
            }
            Path dir = f.toPath();
            java.util.List<Path> files;
            try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
                files = walk.filter(p -> Files.isRegularFile(p) && !p.toString().endsWith(".class"))
                        .sorted()
                        .collect(java.util.stream.Collectors.toList());
            }
            for (Path p : files) {
                all.append(dir.relativize(p))
                        .append(' ')
                        .append(CodeDigest.sha256(Files.readAllBytes(p)))
                        .append('\n');
            }
        }
        return CodeDigest.sha256(all.toString().getBytes(StandardCharsets.UTF_8));
    }

    static void write(Path file, JsonObject o) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, (Json.PRETTY.toJson(o) + "\n").getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
