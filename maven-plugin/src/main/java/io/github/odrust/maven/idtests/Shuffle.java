package io.github.odrust.maven.idtests;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.agent.format.AgentOptions;
import io.github.odrust.maven.core.ProjectRoots;
import io.github.odrust.maven.core.TestModule;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;

/**
 * One run of the jvm-agent in shuffle mode (docs/id-tests.md): its options file, and what its log
 * says (the number of counted calls, and the calls within {@code only}).
 */
public final class Shuffle {
    /** Which callers count: the module's own code (default) or {@code any} non-JDK code. */
    public static final class Filter {

        public boolean any;
        public final List<String> include = new ArrayList<>();
        /** Directories whose classes count besides the module's (a repair's compiled patch). */
        public final List<File> extraRoots = new ArrayList<>();

        /** {@code odrust.id.filter} and {@code odrust.id.include}, checked. */
        public static Filter of(String filter, String include) throws MojoFailureException {
            Filter f = new Filter();
            if (filter != null && !filter.trim().isEmpty()) {
                String v = filter.trim();
                if (!v.equals("any") && !v.equals("project")) {
                    throw new MojoFailureException(
                            "odrust.id.filter=" + v + " is not a filter: use project (the default: only"
                                    + " calls made by the module's own code are shuffled) or any (calls made by any code outside the JDK,"
                                    + " libraries included)");
                }
                f.any = v.equals("any");
            }
            f.include.addAll(io.github.odrust.maven.core.ListSetting.classPrefixes("odrust.id.include", include));
            return f;
        }
    }

    private Shuffle() {}

    /** {@code 5}, {@code 3-7}: the ranges of {@code -Dodrust.id.only}, flattened to [from, to] pairs. */
    public static List<long[]> parseOnly(String value) throws MojoFailureException {
        List<long[]> out = new ArrayList<>();
        if (value == null || value.trim().isEmpty()) {
            return out;
        }
        for (String part : value.split(",")) {
            String p = part.trim();
            String[] ends = p.split("-", -1);
            try {
                long from = Long.parseLong(ends[0].trim());
                long to = ends.length == 2 ? Long.parseLong(ends[1].trim()) : from;
                if (ends.length <= 2 && from >= 1 && to >= from) {
                    out.add(new long[] {from, to});
                    continue;
                }
            } catch (NumberFormatException e) {
                // below
            }
            throw new MojoFailureException(
                    "odrust.id.only: '" + p + "' is not a call number or range; write the shuffled"
                            + " calls to shuffle, numbered from 1, e.g. -Dodrust.id.only=5 or -Dodrust.id.only=3-7,12");
        }
        return out;
    }

    /** The agent's options file for one run, each counted call permuted on its own. */
    public static String options(
            TestModule module,
            Filter filter,
            Long seed,
            JsonArray only,
            boolean trackAllocations,
            Path log,
            String title) {
        return options(module, filter, seed, only, null, trackAllocations, null, log, title);
    }

    /**
     * The agent's options file for one run; {@code consistentCall} (null: none): every counted call
     * gets the permutation of that invocation ({@code consistent-call}); {@code onlyCall} (null:
     * none) shuffles one site's nth call instead of {@code only} ({@code only-call}).
     */
    public static String options(
            TestModule module,
            Filter filter,
            Long seed,
            JsonArray only,
            io.github.odrust.engine.protocol.IdStep.OnlyCall onlyCall,
            boolean trackAllocations,
            Long consistentCall,
            Path log,
            String title) {
        AgentOptions.Writer w =
                new AgentOptions.Writer().comment(title + " (docs/id-tests.md)").mode("shuffle");
        if (consistentCall != null) {
            w.consistentCall(consistentCall);
        }
        filter.extraRoots.forEach(w::root);
        // The project's own code: class directories, and the project's jars (ProjectRoots: a
        // sibling module of its groupId counts alike as a directory or as a jar).
        ProjectRoots.of(module).all().forEach(w::root);
        filter.include.forEach(w::include);
        if (filter.any) {
            w.filter("any");
        }
        if (seed != null) {
            w.seed(seed);
        }
        if (only != null) {
            for (JsonElement r : only) {
                JsonArray range = r.getAsJsonArray();
                w.only(range.get(0).getAsLong(), range.get(1).getAsLong());
            }
        }
        if (onlyCall != null) {
            w.onlyCall(onlyCall.nth, onlyCall.site);
        }
        if (trackAllocations) {
            w.trackAllocations(true);
        }
        if (module.project != null) {
            // the shuffling runtime's jar, written by the first test JVM, read by the others
            w.runtimeCache(Paths.get(module.project.getBuild().getDirectory(), "odrust-agent"));
        }
        return w.log(log).text();
    }

    /** What the agent's log says: {@code count} (-1 when the JVM did not exit normally) and {@code calls}. */
    public static final class Log {
        public long count = -1;
        public final JsonArray calls = new JsonArray();
        public long maxIndex;
    }

    public static Log read(Path file) {
        Log l = new Log();
        if (!Files.isRegularFile(file)) {
            return l;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                JsonObject o;
                try {
                    o = JsonParser.parseString(line).getAsJsonObject();
                } catch (RuntimeException torn) {
                    continue;
                }
                if (o.has("count")) {
                    l.count = o.get("count").getAsLong();
                } else if (o.has("index")) {
                    l.calls.add(o);
                    l.maxIndex = Math.max(l.maxIndex, o.get("index").getAsLong());
                }
            }
        } catch (IOException e) {
            return l;
        }
        return l;
    }

    /** {@code 5} or {@code 3-7,9}: ranges as the reproduce command writes them. */
    public static String onlyText(JsonArray only) {
        StringBuilder b = new StringBuilder();
        for (JsonElement r : only) {
            long from = r.getAsJsonArray().get(0).getAsLong();
            long to = r.getAsJsonArray().get(1).getAsLong();
            b.append(b.length() == 0 ? "" : ",").append(from == to ? String.valueOf(from) : from + "-" + to);
        }
        return b.toString();
    }
}
