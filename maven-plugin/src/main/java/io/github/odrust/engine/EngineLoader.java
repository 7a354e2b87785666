package io.github.odrust.engine;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Finds, loads and checks the native engine library.
 *
 * <p>The library ships inside the plugin jar under {@code io/github/odrust/native/<platform>/}. It is
 * copied to a unique temporary file before loading: a JVM cannot load one file into two class
 * loaders, and Maven may create several plugin realms in one build. The temporary file is deleted
 * right after loading (Linux keeps the mapping) or, where that fails, when the JVM exits.
 */
public final class EngineLoader {
    private static final Object LOCK = new Object();
    private static Engine loaded;

    private EngineLoader() {}

    /** How to enable native access for the plugin (JEP 472), for messages. */
    static final String ENABLE_NATIVE_ACCESS =
            "Add --enable-native-access=ALL-UNNAMED to .mvn/jvm.config in the project"
                    + " (one line; or to MAVEN_OPTS): it lets the plugin load its engine with System.load, which JDK 24+ warns"
                    + " about and later JDKs block (docs/getting-started.md).";

    /** Whether the engine is loaded in this class loader. */
    public static boolean isLoaded() {
        synchronized (LOCK) {
            return loaded != null;
        }
    }

    /**
     * A line to print before loading the engine when this JDK will warn about (or refuse) it: JDK
     * 24+ with native access not enabled for the plugin's module; null otherwise.
     */
    public static String nativeAccessAdvice() {
        return nativeAccessAdvice(Runtime.version().feature(), nativeAccessEnabled(EngineLoader.class.getModule()));
    }

    static String nativeAccessAdvice(int jdk, Boolean enabled) {
        if (jdk < 24 || enabled == null || enabled) {
            return null;
        }
        return "odrust: JDK " + jdk
                + " prints a warning below about java.lang.System::load, the call that loads odrust's"
                + " engine (JEP 472). " + ENABLE_NATIVE_ACCESS;
    }

    /** {@code Module.isNativeAccessEnabled()} (JDK 22+), null where it does not exist. */
    static Boolean nativeAccessEnabled(Module module) {
        try {
            return (Boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(module);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The engine for this class loader, loading it on first use.
     *
     * @param override a library to load instead of the bundled one ({@code -Dodrust.engine.library}),
     *     or null
     * @param expectedVersion the plugin's version; the engine must have the same (ignoring -SNAPSHOT)
     */
    public static Engine load(File override, String expectedVersion) {
        synchronized (LOCK) {
            if (loaded == null) {
                Path library = override != null ? checkOverride(override) : extractBundled();
                try {
                    System.load(library.toAbsolutePath().toString());
                } catch (IllegalCallerException e) {
                    throw new EngineException(
                            "load",
                            "this JDK does not let the odrust plugin load its engine (native access"
                                    + " is not enabled: " + e.getMessage() + "). " + ENABLE_NATIVE_ACCESS);
                } catch (UnsatisfiedLinkError e) {
                    throw new EngineException(
                            "load",
                            "could not load the odrust engine from "
                                    + library
                                    + ": "
                                    + e.getMessage()
                                    + (override != null
                                            ? ". Check -Dodrust.engine.library, or remove it to use the engine bundled in the plugin."
                                            : ". The plugin jar may be damaged or built for another platform ("
                                                    + platform() + ")."));
                } finally {
                    if (override == null) {
                        deleteQuietly(library);
                    }
                }
                loaded = handshake(library.toString(), expectedVersion);
            }
            return loaded;
        }
    }

    /** Checks that the library speaks our ABI and has our version; returns the engine if so. */
    static Engine handshake(String where, String expectedVersion) {
        int abi;
        String version;
        try {
            abi = NativeEngine.abiVersion();
            version = NativeEngine.engineVersion();
        } catch (UnsatisfiedLinkError e) {
            throw new EngineException(
                    "version",
                    "the library " + where + " is not an odrust engine (it has no odrust entry points: "
                            + e.getMessage() + "). Remove -Dodrust.engine.library to use the bundled engine.");
        }
        checkVersions(where, abi, version, expectedVersion);
        return new Engine(version);
    }

    /** The pure part of the handshake, separate so that it is testable without a second library. */
    static void checkVersions(String where, int abi, String engineVersion, String pluginVersion) {
        String expected = stripSnapshot(pluginVersion);
        if (abi != NativeEngine.ABI_VERSION || !stripSnapshot(engineVersion).equals(expected)) {
            throw new EngineException(
                    "version",
                    "the odrust engine at " + where + " is version " + engineVersion + " (ABI " + abi
                            + ") but this plugin is " + pluginVersion + " (ABI " + NativeEngine.ABI_VERSION
                            + "); a plugin only talks to an engine of its own version. Rebuild odrust, or remove"
                            + " -Dodrust.engine.library to use the engine bundled in the plugin.");
        }
    }

    private static String stripSnapshot(String version) {
        return version.endsWith("-SNAPSHOT") ? version.substring(0, version.length() - "-SNAPSHOT".length()) : version;
    }

    private static Path checkOverride(File override) {
        if (!override.isFile()) {
            throw new EngineException(
                    "load",
                    "-Dodrust.engine.library=" + override + " does not name a file; the odrust engine must be a"
                            + " native library such as target/release/" + System.mapLibraryName("odrust_engine") + ".");
        }
        return override.toPath();
    }

    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String o = os.contains("linux") ? "linux" : os.contains("mac") ? "macos" : os.contains("win") ? "windows" : os;
        String a = arch.equals("amd64") || arch.equals("x86_64")
                ? "x86_64"
                : arch.equals("aarch64") || arch.equals("arm64") ? "aarch64" : arch;
        return o + "-" + a;
    }

    private static Path extractBundled() {
        String name = System.mapLibraryName("odrust_engine");
        String resource = "/io/github/odrust/native/" + platform() + "/" + name;
        try (InputStream in = EngineLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new EngineException(
                        "load",
                        "this odrust plugin has no engine for " + platform() + " (looked for " + resource
                                + " in the plugin jar). Build odrust on this platform, or point"
                                + " -Dodrust.engine.library at a locally built engine.");
            }
            Path tmp = Files.createTempFile("odrust-engine-", "-" + name);
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            tmp.toFile().deleteOnExit();
            return tmp;
        } catch (IOException e) {
            throw new UncheckedIOException("could not extract the odrust engine to a temporary file", e);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException | SecurityException ignored) {
            // deleteOnExit is registered as a fallback
        }
    }
}
