package io.github.odrust.agent.runner;

import io.github.odrust.agent.format.PlanFile;
import java.util.Map;

/** What a {@link Framework} needs from the agent. */
public final class Context {
    public final EventWriter events;
    public final PlanFile plan;
    public final ClassLoader loader;

    public Context(EventWriter events, PlanFile plan, ClassLoader loader) {
        this.events = events;
        this.plan = plan;
        this.loader = loader;
    }

    public Map<String, String> config() {
        return plan.config;
    }

    /** Method part of a test id ({@code Class#method[2]} -> {@code method[2]}). */
    public static String methodPart(String id) {
        int h = id.indexOf('#');
        return h < 0 ? id : id.substring(h + 1);
    }

    /** Class part of a test id. */
    public static String classPart(String id) {
        int h = id.indexOf('#');
        return h < 0 ? id : id.substring(0, h);
    }
}
