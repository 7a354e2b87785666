package io.github.odrust.agent.serve;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.util.List;
import java.util.TimeZone;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * The JVM-wide defaults the JDK makes on first use, from what is set then: the default
 * {@link TimeZone} (from the {@code user.timezone} property, which making it also sets), the
 * default {@link SSLContext} (or the one {@code SSLContext.setDefault} set) and
 * {@link HttpsURLConnection}'s default socket factory (from that context). A fresh JVM makes them
 * when a test first asks, and a test can rely on that (one that sets {@code user.timezone}, or its
 * own SSL context, before first use). So they are read and put back without being made, unset
 * included: through their private fields, which the shared JVM's {@code -javaagent} opens to the
 * module of the class loader this class runs in, one of odrust's own ({@link LazyVault}; the
 * orders' tests and libraries are defined by other loaders, and see java.base as usual).
 * Without that agent the time zone and the socket factory are read through their public getters,
 * which make them, and the default context is neither read nor put back. What JSSE reads once per
 * JVM (the key and trust store properties, when it first makes its own context) is not made again.
 */
final class LazyDefaults {
    private static volatile Instrumentation instrumentation;
    private static Field timeZoneField;
    private static Field socketFactoryField;
    private static Field contextField;

    /** Each as it was; null: not made yet (or, without the fields, the context not read). */
    private final TimeZone timeZone;

    private final SSLSocketFactory socketFactory;
    private final SSLContext context;

    private LazyDefaults(TimeZone timeZone, SSLSocketFactory socketFactory, SSLContext context) {
        this.timeZone = timeZone;
        this.socketFactory = socketFactory;
        this.context = context;
    }

    /** The shared JVM's agent, kept for {@link #open}. */
    static void instrumentation(Instrumentation inst) {
        instrumentation = inst;
    }

    /**
     * Opens {@code java.util} and {@code javax.net.ssl} to this class's module (its own loader's,
     * {@link LazyVault}) through the diagnosis agent's
     * {@link io.github.odrust.agent.capture.Access}, without exporting anything else, and finds the
     * fields; returns why it could not, or null. Called once, when a JVM starts serving.
     */
    static synchronized String open() {
        Instrumentation inst = instrumentation;
        // Java 8 has no modules: the fields are accessible as they are
        if (inst == null && io.github.odrust.agent.capture.Access.modules()) {
            return "the shared JVM has no odrust -javaagent to open java.util and javax.net.ssl with";
        }
        try {
            io.github.odrust.agent.capture.Access access = io.github.odrust.agent.capture.Access.fieldsOnly(inst);
            Field zone = TimeZone.class.getDeclaredField("defaultTimeZone");
            Field factory = HttpsURLConnection.class.getDeclaredField("defaultSSLSocketFactory");
            Field context = SSLContext.class.getDeclaredField("defaultContext");
            access.accessible(zone, TimeZone.class);
            access.accessible(factory, HttpsURLConnection.class);
            access.accessible(context, SSLContext.class);
            timeZoneField = zone;
            socketFactoryField = factory;
            contextField = context;
            return null;
        } catch (Throwable t) {
            return "the JDK's lazily made default fields could not be opened (" + t + ")";
        }
    }

    static synchronized LazyDefaults capture() {
        if (socketFactoryField == null) {
            return new LazyDefaults(
                    (TimeZone) TimeZone.getDefault().clone(), HttpsURLConnection.getDefaultSSLSocketFactory(), null);
        }
        try {
            return new LazyDefaults(
                    (TimeZone) timeZoneField.get(null), (SSLSocketFactory) socketFactoryField.get(null), (SSLContext)
                            contextField.get(null));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Puts each back as it was, unset included; adds to {@code failed} what could not be. */
    synchronized void restore(List<String> failed) {
        if (socketFactoryField == null) {
            TimeZone.setDefault((TimeZone) timeZone.clone());
            HttpsURLConnection.setDefaultSSLSocketFactory(socketFactory);
            return;
        }
        try {
            // the JDK's own object back: TimeZone.getDefault hands out clones of it
            timeZoneField.set(null, timeZone);
            socketFactoryField.set(null, socketFactory);
            contextField.set(null, context);
        } catch (Throwable t) {
            failed.add("the JVM's lazily made defaults could not be restored (" + t + ")");
        }
    }
}
