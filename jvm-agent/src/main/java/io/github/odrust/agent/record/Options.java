package io.github.odrust.agent.record;

import io.github.odrust.agent.format.AgentOptions;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.List;

/**
 * The options file ({@link AgentOptions}) as the recording mode uses it: which classes are
 * instrumented and which fields are left out.
 */
public final class Options extends AgentOptions {
    Options() {}

    /** Reads the options named by the {@code -javaagent} argument. */
    public static Options read(String agentArgs) throws BadOptionsException {
        return read(new Options(), agentArgs);
    }

    public static Options parse(String text, String name) throws BadOptionsException {
        return parse(new Options(), text, name);
    }

    /** Class names the agent never instruments (internal names). */
    private static final String[] NEVER = {
        "java/", "javax/", "jdk/", "sun/", "com/sun/",
        "org/junit/", "junit/", "org/hamcrest/", "org/opentest4j/", "org/apiguardian/",
        "io/github/odrust/agent/record/", "io/github/odrust/agent/shaded/",
    };

    static boolean never(String internalName) {
        for (String p : NEVER) {
            if (internalName.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    boolean excluded(String dotted) {
        for (String p : excludes) {
            if (dotted.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    boolean included(String dotted) {
        for (String p : includes) {
            if (dotted.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    boolean ignoredField(String display) {
        for (String p : ignoredFields) {
            if (display.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** Is this code-source location (a class directory or a jar) one of the roots, or inside one? */
    boolean inRoot(URL location) {
        Path p = path(location);
        if (p == null) {
            return false;
        }
        if (under(p)) {
            return true;
        }
        try {
            Path real = p.toRealPath();
            return !real.equals(p) && under(real);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private boolean under(Path p) {
        for (Path r : roots) {
            if (p.startsWith(r)) {
                return true;
            }
        }
        return false;
    }

    /** The absolute normalised path of a {@code file:} URL, or null. */
    static Path path(URL location) {
        if (location == null || !"file".equalsIgnoreCase(location.getProtocol())) {
            return null;
        }
        try {
            return Paths.get(new URI(location.toString().replace(" ", "%20")))
                    .toAbsolutePath()
                    .normalize();
        } catch (Exception e) {
            try {
                return Paths.get(location.getPath()).toAbsolutePath().normalize();
            } catch (RuntimeException e2) {
                return null;
            }
        }
    }

    List<Path> roots() {
        return Collections.unmodifiableList(roots);
    }
}
