package io.github.odrust.agent.serve;

import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.ResponseCache;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.HttpsURLConnection;

/**
 * The JDK-level state tests commonly change, captured before an order and put back after it
 * (docs/isolation.md lists it): system properties, the default locale (and its display and format
 * categories), {@code System.in/out/err}, the thread's context class loader, the security manager,
 * the default authenticator, proxy selector, cookie handler and response cache, the HTTPS hostname
 * verifier, what the JDK makes on first use ({@link LazyVault}: the default time zone, SSL
 * context and socket factory as they were, not yet made included), {@code java.util.logging}
 * ({@link JulState}), and {@code DriverManager}'s login timeout and log writer.
 */
public final class JdkState {
    private final Properties properties;
    private final Locale locale;
    private final Locale display;
    private final Locale format;
    private final InputStream in;
    private final PrintStream out;
    private final PrintStream err;
    private final ClassLoader contextLoader;
    private final Object securityManager;
    private final Object authenticator;
    private final ProxySelector proxySelector;
    private final CookieHandler cookieHandler;
    private final ResponseCache responseCache;
    /** What the JDK makes on first use, as {@link LazyVault} captured it. */
    private final Object lazy;

    private final HostnameVerifier hostnameVerifier;
    private final JulState jul;
    /** {@code DriverManager}'s login timeout and log writer; not read while it is not loaded. */
    private final int loginTimeout;

    private final java.io.PrintWriter sqlLogWriter;

    private JdkState() {
        // first: without the fields, reading the time zone makes it, which sets user.timezone
        lazy = LazyVault.capture();
        Properties copy = new Properties();
        copy.putAll(System.getProperties());
        properties = copy;
        locale = Locale.getDefault();
        display = Locale.getDefault(Locale.Category.DISPLAY);
        format = Locale.getDefault(Locale.Category.FORMAT);
        in = System.in;
        out = System.out;
        err = System.err;
        contextLoader = Thread.currentThread().getContextClassLoader();
        securityManager = securityManager();
        authenticator = authenticator();
        proxySelector = ProxySelector.getDefault();
        cookieHandler = CookieHandler.getDefault();
        responseCache = ResponseCache.getDefault();
        hostnameVerifier = HttpsURLConnection.getDefaultHostnameVerifier();
        jul = JulState.capture(Server.loggingStarted());
        boolean jdbc = Server.driverManagerLoaded();
        loginTimeout = jdbc ? java.sql.DriverManager.getLoginTimeout() : 0;
        sqlLogWriter = jdbc ? java.sql.DriverManager.getLogWriter() : null;
    }

    public static JdkState capture() {
        return new JdkState();
    }

    /**
     * Puts everything back; returns what could not be (a security manager that refuses to go,
     * a JVM-wide factory a test set), for the caller to stop sharing this JVM.
     */
    public List<String> restore() {
        List<String> failed = new ArrayList<String>();
        List<String> logging = JulState.readAtStart();
        Properties copy = new Properties();
        copy.putAll(properties);
        System.setProperties(copy);
        Locale.setDefault(locale);
        Locale.setDefault(Locale.Category.DISPLAY, display);
        Locale.setDefault(Locale.Category.FORMAT, format);
        System.setIn(in);
        System.setOut(out);
        System.setErr(err);
        Thread.currentThread().setContextClassLoader(contextLoader);
        if (securityManager() != securityManager) {
            try {
                setSecurityManager(securityManager);
            } catch (Throwable t) {
                failed.add("a test installed a security manager that could not be removed (" + t + ")");
            }
        }
        setAuthenticator(authenticator, failed);
        ProxySelector.setDefault(proxySelector);
        CookieHandler.setDefault(cookieHandler);
        ResponseCache.setDefault(responseCache);
        LazyVault.restore(lazy, failed);
        HttpsURLConnection.setDefaultHostnameVerifier(hostnameVerifier);
        jul.restore(logging, Server.loggingStarted(), failed);
        if (Server.driverManagerLoaded()) {
            // as a fresh JVM has them when DriverManager was not loaded before the order
            java.sql.DriverManager.setLoginTimeout(loginTimeout);
            java.sql.DriverManager.setLogWriter(sqlLogWriter);
        }
        failed.addAll(jvmWideFactories());
        return failed;
    }

    /**
     * The JVM-wide factories a test may set once and never unset ({@code URL.setURLStreamHandlerFactory},
     * {@code URLConnection.setContentHandlerFactory}): setting null succeeds only when none was set.
     */
    static List<String> jvmWideFactories() {
        List<String> set = new ArrayList<String>();
        try {
            java.net.URL.setURLStreamHandlerFactory(null);
        } catch (Error e) {
            set.add("a test set URL.setURLStreamHandlerFactory, which lasts as long as the JVM");
        }
        try {
            java.net.URLConnection.setContentHandlerFactory(null);
        } catch (Error e) {
            set.add("a test set URLConnection.setContentHandlerFactory, which lasts as long as the JVM");
        }
        return set;
    }

    @SuppressWarnings("removal")
    private static Object securityManager() {
        try {
            return System.getSecurityManager();
        } catch (Throwable t) {
            return null;
        }
    }

    @SuppressWarnings("removal")
    private static void setSecurityManager(Object sm) {
        System.setSecurityManager((SecurityManager) sm);
    }

    /** {@code Authenticator.getDefault()} (Java 9+), or null. */
    private static Object authenticator() {
        try {
            Method m = java.net.Authenticator.class.getMethod("getDefault");
            return m.invoke(null);
        } catch (Throwable t) {
            return null;
        }
    }

    private static void setAuthenticator(Object saved, List<String> failed) {
        try {
            if (authenticator() != saved) {
                java.net.Authenticator.setDefault((java.net.Authenticator) saved);
            }
        } catch (Throwable t) {
            failed.add("the default Authenticator could not be restored (" + t + ")");
        }
    }
}
