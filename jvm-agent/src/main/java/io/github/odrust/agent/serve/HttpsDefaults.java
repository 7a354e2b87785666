package io.github.odrust.agent.serve;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.util.List;
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
     * tests are) through the diagnosis agent's {@link io.github.odrust.agent.capture.Access}, and
     * finds the two fields; returns why it could not, or null. Called once, when a JVM starts serving.
     */
    static synchronized String open() {
        Instrumentation inst = instrumentation;
        if (inst == null && !java8()) {
            return "the shared JVM has no odrust -javaagent to open javax.net.ssl with";
        }
        try {
            io.github.odrust.agent.capture.Access access = io.github.odrust.agent.capture.Access.fieldsOnly(inst);
            Field factory = HttpsURLConnection.class.getDeclaredField("defaultSSLSocketFactory");
            Field context = SSLContext.class.getDeclaredField("defaultContext");
            access.accessible(factory, HttpsURLConnection.class);
            access.accessible(context, SSLContext.class);
            socketFactoryField = factory;
            contextField = context;
            return null;
        } catch (Throwable t) {
            return "the JDK's HTTPS default fields could not be opened (" + t + ")";
        }
    }

    /** Java 8: no modules, the fields are accessible as they are. */
    private static boolean java8() {
        try {
            Class.class.getMethod("getModule");
            return false;
        } catch (NoSuchMethodException e) {
            return true;
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
