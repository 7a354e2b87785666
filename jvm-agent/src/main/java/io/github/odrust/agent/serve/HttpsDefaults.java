package io.github.odrust.agent.serve;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * The JVM's HTTPS defaults that the JDK makes on first use: the default {@link SSLContext} and
 * {@link HttpsURLConnection}'s default socket factory. A fresh JVM makes them when a test first
 * asks, from what is set then ({@code SSLContext.setDefault}, the {@code javax.net.ssl.*}
 * properties), and a test can rely on that. So they are read and put back without being made,
 * unset included: through their private fields, which the shared JVM's {@code -javaagent} opens to
 * the application class loader's unnamed module, where odrust's runner is (the orders' tests and
 * libraries are defined by order loaders, in modules of their own, and see java.base as usual).
 * Without that agent the socket factory is read through its public getter, which makes it, and the
 * default context is neither read nor put back. What JSSE reads once per JVM (the key and trust
 * store properties, when it first makes its own context) is not made again.
 */
final class HttpsDefaults {
    private static volatile Instrumentation instrumentation;
    private static Field socketFactoryField;
    private static Field contextField;

    /** The factory and context as they were; null: not made yet (or, without the fields, not read). */
    private final SSLSocketFactory socketFactory;

    private final SSLContext context;

    private HttpsDefaults(SSLSocketFactory socketFactory, SSLContext context) {
        this.socketFactory = socketFactory;
        this.context = context;
    }

    /** The shared JVM's agent, kept for {@link #open}. */
    static void instrumentation(Instrumentation inst) {
        instrumentation = inst;
    }

    /**
     * Opens {@code javax.net.ssl} to this class's module (the application loader's, where no order's
     * tests are)
     * and finds the two fields; returns why it could not, or null. Called once, when a JVM starts
     * serving.
     */
    static synchronized String open() {
        try {
            Method getModule = Class.class.getMethod("getModule");
            Object base = getModule.invoke(Object.class);
            Object self = getModule.invoke(HttpsDefaults.class);
            Instrumentation inst = instrumentation;
            if (inst == null) {
                return "the shared JVM has no odrust -javaagent to open javax.net.ssl with";
            }
            Class<?> moduleClass = Class.forName("java.lang.Module");
            Method redefine = Instrumentation.class.getMethod(
                    "redefineModule", moduleClass, Set.class, Map.class, Map.class, Set.class, Map.class);
            redefine.invoke(
                    inst,
                    base,
                    Collections.emptySet(),
                    Collections.emptyMap(),
                    Collections.singletonMap("javax.net.ssl", Collections.singleton(self)),
                    Collections.emptySet(),
                    Collections.emptyMap());
        } catch (NoSuchMethodException e) {
            // Java 8: no modules, the fields are accessible as they are
        } catch (Throwable t) {
            return "javax.net.ssl could not be opened (" + t + ")";
        }
        try {
            Field factory = HttpsURLConnection.class.getDeclaredField("defaultSSLSocketFactory");
            Field context = SSLContext.class.getDeclaredField("defaultContext");
            factory.setAccessible(true);
            context.setAccessible(true);
            socketFactoryField = factory;
            contextField = context;
            return null;
        } catch (Throwable t) {
            return "the JDK's HTTPS default fields could not be read (" + t + ")";
        }
    }

    static synchronized HttpsDefaults capture() {
        if (socketFactoryField == null) {
            return new HttpsDefaults(HttpsURLConnection.getDefaultSSLSocketFactory(), null);
        }
        try {
            return new HttpsDefaults(
                    (SSLSocketFactory) socketFactoryField.get(null), (SSLContext) contextField.get(null));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Puts both back as they were, unset included; adds to {@code failed} what could not be. */
    synchronized void restore(List<String> failed) {
        if (socketFactoryField == null) {
            HttpsURLConnection.setDefaultSSLSocketFactory(socketFactory);
            return;
        }
        try {
            socketFactoryField.set(null, socketFactory);
            contextField.set(null, context);
        } catch (Throwable t) {
            failed.add("the JVM's HTTPS defaults could not be restored (" + t + ")");
        }
    }
}
