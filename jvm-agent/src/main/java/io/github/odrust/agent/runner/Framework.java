package io.github.odrust.agent.runner;

import java.util.List;

/**
 * One test framework. Implementations reference JUnit types and are loaded reflectively, only when
 * that framework is used, so a JUnit-4-only project never needs JUnit Platform classes (and back).
 */
public interface Framework {
    /** Called once before use; {@code ctx} carries the event writer, the plan and the class loader. */
    void init(Context ctx) throws Exception;

    /**
     * Discover mode: write the discovery record(s) of {@code cls} when this framework would run it.
     *
     * @return true if the class was claimed (a record was written)
     */
    boolean discover(Class<?> cls) throws Exception;

    /** Run mode: run {@code tests} of {@code cls} in exactly this order, writing events. */
    void runSegment(int index, Class<?> cls, List<String> tests) throws Exception;
}
