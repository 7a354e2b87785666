package io.github.odrust.agent.serve;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * Where {@link LazyDefaults} runs in a shared JVM: a class loader of its own over odrust's agent
 * classes, below the platform loader, so that the packages it opens ({@code java.util},
 * {@code javax.net.ssl}) are opened to that loader's module alone, not to the application class
 * loader's, which defines whatever code reaches the module's classpath through the system class
 * loader. When that loader cannot be made or the packages cannot be opened, {@link LazyDefaults}
 * runs in the runner's loader with its public getters.
 */
final class LazyVault {
    private static volatile Instrumentation instrumentation;
    private static volatile Method capture;
    private static volatile Method restore;

    private LazyVault() {}

    /** The shared JVM's agent, for {@link #open}. */
    static void instrumentation(Instrumentation inst) {
        instrumentation = inst;
    }

    /** Makes the loader and opens the packages to it; returns why it could not, or null. Once per JVM. */
    static synchronized String open() {
        try {
            URL location =
                    LazyDefaults.class.getProtectionDomain().getCodeSource().getLocation();
            ClassLoader vault = new URLClassLoader(new URL[] {location}, platform());
            Class<?> lazy = Class.forName(LazyDefaults.class.getName(), true, vault);
            if (lazy.getClassLoader() != vault) {
                return "odrust's own class loader for the JDK's lazily made defaults got them from "
                        + lazy.getClassLoader() + " (a java.system.class.loader of the argLine's?)";
            }
            Method give = lazy.getDeclaredMethod("instrumentation", Instrumentation.class);
            Method open = lazy.getDeclaredMethod("open");
            Method c = lazy.getDeclaredMethod("capture");
            Method r = lazy.getDeclaredMethod("restore", List.class);
            for (Method m : new Method[] {give, open, c, r}) {
                m.setAccessible(true);
            }
            give.invoke(null, instrumentation);
            String problem = (String) open.invoke(null);
            if (problem == null) {
                capture = c;
                restore = r;
            }
            return problem;
        } catch (Throwable t) {
            return "odrust's own class loader for the JDK's lazily made defaults could not be made (" + t + ")";
        }
    }

    /** The platform class loader (Java 9+), or the extension loader (Java 8). */
    private static ClassLoader platform() {
        try {
            return (ClassLoader)
                    ClassLoader.class.getMethod("getPlatformClassLoader").invoke(null);
        } catch (ReflectiveOperationException e) {
            return ClassLoader.getSystemClassLoader().getParent();
        }
    }

    /** The defaults as they are now, not made when they are not yet. */
    static Object capture() {
        Method c = capture;
        if (c == null) {
            return LazyDefaults.capture();
        }
        try {
            return c.invoke(null);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Puts back what {@link #capture} returned; adds to {@code failed} what could not be. */
    static void restore(Object saved, List<String> failed) {
        if (saved instanceof LazyDefaults) {
            ((LazyDefaults) saved).restore(failed);
            return;
        }
        try {
            restore.invoke(saved, failed);
        } catch (Throwable t) {
            failed.add("the JVM's lazily made defaults could not be restored (" + t + ")");
        }
    }
}
