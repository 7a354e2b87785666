package io.github.odrust.engine;

/** Run by {@link NativeAccessTest} on a JDK 24+: prints the advice (or "no advice"), loads the engine. */
public final class NativeAccessProbe {
    private NativeAccessProbe() {}

    public static void main(String[] args) {
        String advice = EngineLoader.nativeAccessAdvice();
        System.out.println(advice == null ? "no advice" : advice);
        System.out.println("engine " + EngineLoader.load(null, "0.1.0-SNAPSHOT").version());
    }
}
