package io.github.odrust.agent.serve;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * A fresh class loader over the test classpath: the project's classes, its libraries and JUnit are
 * defined anew (their static state starts fresh); the JDK comes from the platform loader; odrust's
 * own runner classes come from the JVM's class loader, so that the runner and the events it
 * writes are shared, except the framework adapters, which use JUnit and so are defined anew too.
 */
public final class IsolatingLoader extends URLClassLoader {
    static {
        ClassLoader.registerAsParallelCapable();
    }

    private static final String AGENT = "io.github.odrust.agent.";
    private final ClassLoader runner;
    /** Where odrust's runner classes come from (the agent jar, or its classes directory). */
    private final String agentSource;

    public IsolatingLoader(List<String> classpath, ClassLoader runner) {
        super(urls(classpath), platform());
        this.runner = runner;
        URL location = IsolatingLoader.class.getProtectionDomain().getCodeSource().getLocation();
        this.agentSource = location == null ? null : location.toString();
    }

    /** Whether {@code name} is one of odrust's runner classes, which every order shares. */
    boolean shared(String name) {
        if (!name.startsWith(AGENT) || name.startsWith(AGENT + "runner.Junit4Support")
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

    /** The JDK's classes beyond the bootstrap ones: the platform loader (the extension loader on Java 8). */
    private static ClassLoader platform() {
        return ClassLoader.getSystemClassLoader().getParent();
    }

    private static URL[] urls(List<String> classpath) {
        URL[] urls = new URL[classpath.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = new File(classpath.get(i)).toURI().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("classpath entry " + classpath.get(i) + ": " + e.getMessage(), e);
            }
        }
        return urls;
    }
}
