package io.github.odrust.agent.serve;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * A class loader over part of the test classpath. Two kinds, one above the other:
 *
 * <ul>
 *   <li>the <em>framework</em> loader of a shared JVM ({@link #framework}): the test framework's
 *       jars (JUnit 4 and Hamcrest, the JUnit Platform, Jupiter, Vintage, opentest4j,
 *       apiguardian) and odrust's JUnit adapters, loaded once and kept for every order: they hold
 *       no state a test depends on, and loading them again is most of an order's start-up;</li>
 *   <li>the <em>order</em> loader ({@link #order}), new for every order: the project's classes
 *       and its other libraries, defined anew, so their static state starts fresh.</li>
 * </ul>
 *
 * The JDK comes from the platform loader; odrust's own runner classes from the JVM's class
 * loader, so that the runner and the events it writes are shared.
 */
public final class IsolatingLoader extends URLClassLoader {
    static {
        ClassLoader.registerAsParallelCapable();
    }

    private static final String AGENT = "io.github.odrust.agent.";
    private final ClassLoader runner;
    /** Where odrust's runner classes come from (the agent jar, or its classes directory). */
    private final String agentSource;

    private IsolatingLoader(URL[] urls, ClassLoader parent, ClassLoader runner) {
        super(urls, parent);
        this.runner = runner;
        URL location =
                IsolatingLoader.class.getProtectionDomain().getCodeSource().getLocation();
        this.agentSource = location == null ? null : location.toString();
    }

    /** The framework loader over the framework's jars of {@code classpath} and odrust's own jar. */
    public static IsolatingLoader framework(List<String> classpath, ClassLoader runner) {
        URL location =
                IsolatingLoader.class.getProtectionDomain().getCodeSource().getLocation();
        List<String> entries = new java.util.ArrayList<String>();
        for (String entry : classpath) {
            if (isFramework(entry)
                    || (location != null
                            && location.toString().equals(url(entry).toString()))) {
                entries.add(entry);
            }
        }
        return new IsolatingLoader(urls(entries), platform(), runner);
    }

    /** A new order loader over {@code classpath}, below {@code framework}. */
    public static IsolatingLoader order(List<String> classpath, IsolatingLoader framework, ClassLoader runner) {
        return new IsolatingLoader(urls(classpath), framework, runner);
    }

    /** The framework's jars among {@code classpath}, which a framework loader is made of. */
    public static List<String> frameworkEntries(List<String> classpath) {
        List<String> entries = new java.util.ArrayList<String>();
        for (String entry : classpath) {
            if (isFramework(entry)) {
                entries.add(entry);
            }
        }
        return entries;
    }

    /** Whether a classpath entry is one of the test framework's jars (by its Maven file name). */
    static boolean isFramework(String entry) {
        String name = new File(entry).getName();
        return name.endsWith(".jar")
                && name.matches(
                        "(junit|junit-platform-[a-z-]+|junit-jupiter(-[a-z-]+)?|junit-vintage-engine|opentest4j|apiguardian-api"
                                + "|hamcrest|hamcrest-core|hamcrest-library)-[0-9].*");
    }

    /** Whether {@code name} is one of odrust's runner classes, which every order shares. */
    boolean shared(String name) {
        if (!name.startsWith(AGENT)
                || name.startsWith(AGENT + "runner.Junit4Support")
                || name.startsWith(AGENT + "runner.Junit3Suites")
                || name.startsWith(AGENT + "runner.junit5.")) {
            return false;
        }
        URL found = runner.getResource(name.replace('.', '/') + ".class");
        return found != null && agentSource != null && found.toString().contains(agentSource);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (shared(name)) {
            return runner.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }

    /**
     * Defines odrust's class {@code type} anew in this loader, from the bytes its own loader has
     * (not the runner's shared class, as {@link #loadClass} gives): JDK code that asks who calls it
     * then sees a class of this order ({@link JdbcDrivers}). Null when its bytes cannot be read.
     */
    Class<?> defineOwn(Class<?> type) {
        String name = type.getName();
        synchronized (getClassLoadingLock(name)) {
            Class<?> done = findLoadedClass(name);
            if (done != null) {
                return done;
            }
            ClassLoader from = type.getClassLoader();
            try (java.io.InputStream in =
                    from == null ? null : from.getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    return null;
                }
                java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                byte[] buffer = new byte[8192];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    bytes.write(buffer, 0, n);
                }
                byte[] b = bytes.toByteArray();
                return defineClass(name, b, 0, b.length);
            } catch (java.io.IOException e) {
                return null;
            }
        }
    }

    /** The JDK's classes beyond the bootstrap ones: the platform loader (the extension loader on Java 8). */
    private static ClassLoader platform() {
        return ClassLoader.getSystemClassLoader().getParent();
    }

    private static URL[] urls(List<String> classpath) {
        URL[] urls = new URL[classpath.size()];
        for (int i = 0; i < urls.length; i++) {
            urls[i] = url(classpath.get(i));
        }
        return urls;
    }

    private static URL url(String entry) {
        try {
            return new File(entry).toURI().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("classpath entry " + entry + ": " + e.getMessage(), e);
        }
    }
}
