package io.github.odrust.agent.serve;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * {@code java.util.logging} between the orders of a shared JVM, as a fresh JVM has it before its
 * first test (docs/isolation.md):
 *
 * <ul>
 *   <li>Not started while no order started it: a fresh JVM reads its configuration when logging is
 *       first used, so a test that sets {@code java.util.logging.config.file} (or {@code .manager},
 *       {@code .config.class}) before that gets its own. Nothing here starts it.
 *   <li>Once started with the JDK's own log manager: after each order the configuration is read
 *       again (which closes and removes every handler and sets each logger's level as configured)
 *       and each logger's filter and parent-handler use are set back to the configuration's. An
 *       order that changed the configuration, added handlers or set levels leaves none of it.
 *   <li>An order that set one of those properties: the configuration is read again with the
 *       properties put back, but a log manager is chosen once per JVM; and an order that set them
 *       after logging had started here ran without them. Both are reported as not restored (the
 *       JVM retires, so the next order may be a new JVM's first).
 *   <li>Another log manager (the JVM's options name it): only the root logger's level and
 *       handlers are put back.
 * </ul>
 */
final class JulState {
    /** The system properties a JVM reads once, when logging starts. */
    static final List<String> READ_AT_START = Collections.unmodifiableList(Arrays.asList(
            "java.util.logging.manager", "java.util.logging.config.class", "java.util.logging.config.file"));

    /** Whether logging was started when captured. */
    private final boolean started;
    /** {@link #READ_AT_START}'s values when captured. */
    private final List<String> properties;
    /** The root logger's level and handlers, for another log manager than the JDK's. */
    private final Level rootLevel;

    private final List<Handler> rootHandlers;

    private JulState(boolean started, Level rootLevel, List<Handler> rootHandlers) {
        this.started = started;
        this.properties = readAtStart();
        this.rootLevel = rootLevel;
        this.rootHandlers = rootHandlers;
    }

    /**
     * Captures the state before an order; {@code started} says whether logging has started in
     * this JVM (true when it cannot be known, as before: then this starts it).
     */
    static JulState capture(boolean started) {
        if (!started) {
            return new JulState(false, null, null);
        }
        LogManager manager = LogManager.getLogManager();
        if (manager.getClass() == LogManager.class) {
            return new JulState(true, null, null);
        }
        Logger root = manager.getLogger("");
        return new JulState(
                true,
                root == null ? null : root.getLevel(),
                root == null ? new ArrayList<Handler>() : new ArrayList<Handler>(Arrays.asList(root.getHandlers())));
    }

    /** {@link #READ_AT_START}'s values now. */
    static List<String> readAtStart() {
        List<String> values = new ArrayList<String>();
        for (String name : READ_AT_START) {
            values.add(System.getProperty(name));
        }
        return values;
    }

    /**
     * Puts logging back after an order; {@code atEnd} is {@link #readAtStart} as the order left
     * them (read before the system properties were put back, which they must be by now);
     * {@code startedNow}: whether logging has started. Adds to {@code failed} what cannot be.
     */
    void restore(List<String> atEnd, boolean startedNow, List<String> failed) {
        if (!startedNow) {
            return;
        }
        for (int i = 0; i < READ_AT_START.size(); i++) {
            String name = READ_AT_START.get(i);
            if (Objects.equals(properties.get(i), atEnd.get(i))) {
                continue;
            }
            if (started) {
                // read again below for the next order, but this one ran without it
                failed.add("a test set " + name + " after logging had started in this JVM; a fresh JVM would"
                        + " have read it when logging started");
            } else if (name.equals("java.util.logging.manager")) {
                failed.add("logging started after a test set " + name + ", which a JVM reads once");
            }
        }
        try {
            LogManager manager = LogManager.getLogManager();
            if (manager.getClass() == LogManager.class) {
                reconfigure(manager);
            } else if (started) {
                restoreRoot(manager);
            }
        } catch (Exception | LinkageError e) {
            failed.add("java.util.logging could not be put back (" + e + ")");
        }
    }

    /** The configuration read again; each logger's filter and parent-handler use as it says. */
    private static void reconfigure(LogManager manager) throws java.io.IOException {
        manager.readConfiguration();
        for (String name : Collections.list(manager.getLoggerNames())) {
            Logger logger = manager.getLogger(name);
            if (logger == null) {
                continue;
            }
            logger.setFilter(null);
            String parents = manager.getProperty(name + ".useParentHandlers");
            logger.setUseParentHandlers(parents == null || !isFalse(parents));
        }
    }

    /** As {@code LogManager} reads a boolean property. */
    private static boolean isFalse(String value) {
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        return v.equals("false") || v.equals("0");
    }

    private void restoreRoot(LogManager manager) {
        Logger root = manager.getLogger("");
        if (root == null) {
            return;
        }
        root.setLevel(rootLevel);
        for (Handler h : root.getHandlers()) {
            if (!rootHandlers.contains(h)) {
                root.removeHandler(h);
            }
        }
        List<Handler> now = Arrays.asList(root.getHandlers());
        for (Handler h : rootHandlers) {
            if (!now.contains(h)) {
                root.addHandler(h);
            }
        }
    }
}
