package io.github.odrust.agent.samples;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.Authenticator;
import java.net.CacheRequest;
import java.net.CacheResponse;
import java.net.CookieManager;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ResponseCache;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.net.URLConnection;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import org.junit.Test;

/**
 * {@link #changesEverything} changes each piece of JDK state the shared JVM restores;
 * {@link #seesDefaults}, in the next order, sees none of it. The server runs with
 * -Duser.timezone=UTC -Duser.language=en -Duser.country=US.
 */
public class SampleJdkState {
    static final String MARK = "odrustSample";

    static final class MarkedOut extends PrintStream {
        MarkedOut() {
            super(new ByteArrayOutputStream());
        }
    }

    static final class MarkedIn extends ByteArrayInputStream {
        MarkedIn() {
            super(new byte[0]);
        }
    }

    static final class MarkedSelector extends ProxySelector {
        @Override
        public List<Proxy> select(URI uri) {
            return Collections.singletonList(Proxy.NO_PROXY);
        }

        @Override
        public void connectFailed(URI uri, SocketAddress sa, IOException e) {}
    }

    static final class MarkedCache extends ResponseCache {
        @Override
        public CacheResponse get(URI uri, String m, Map<String, List<String>> h) {
            return null;
        }

        @Override
        public CacheRequest put(URI uri, URLConnection c) {
            return null;
        }
    }

    static final class MarkedAuthenticator extends Authenticator {}

    static final class MarkedSocketFactory extends SSLSocketFactory {
        @Override
        public String[] getDefaultCipherSuites() {
            return new String[0];
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return new String[0];
        }

        @Override
        public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
            throw new IOException("marked");
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            throw new IOException("marked");
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
            throw new IOException("marked");
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            throw new IOException("marked");
        }

        @Override
        public Socket createSocket(InetAddress host, int port, InetAddress local, int localPort) throws IOException {
            throw new IOException("marked");
        }
    }

    static final class MarkedSpi extends SSLContextSpi {
        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) {}

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return new MarkedSocketFactory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return null;
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return null;
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return null;
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return null;
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return null;
        }
    }

    static final class MarkedContext extends SSLContext {
        MarkedContext() {
            super(new MarkedSpi(), null, "TLS");
        }
    }

    static final class MarkedHandler extends ConsoleHandler {}

    @Test
    public void changesEverything() {
        System.setProperty("odrust.sample.prop", "changed");
        Locale.setDefault(Locale.JAPAN);
        Locale.setDefault(Locale.Category.FORMAT, Locale.GERMANY);
        Locale.setDefault(Locale.Category.DISPLAY, Locale.FRANCE);
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
        System.setOut(new MarkedOut());
        System.setErr(new MarkedOut());
        System.setIn(new MarkedIn());
        Thread.currentThread().setContextClassLoader(new ClassLoader(null) {});
        Authenticator.setDefault(new MarkedAuthenticator());
        ProxySelector.setDefault(new MarkedSelector());
        java.net.CookieHandler.setDefault(new CookieManager());
        ResponseCache.setDefault(new MarkedCache());
        HttpsURLConnection.setDefaultHostnameVerifier((host, session) -> true);
        Logger.getLogger("").setLevel(Level.FINEST);
        Logger.getLogger("").addHandler(new MarkedHandler());
    }

    @Test
    public void seesDefaults() {
        assertNull(System.getProperty("odrust.sample.prop"));
        assertEquals(Locale.US, Locale.getDefault());
        assertEquals(Locale.US, Locale.getDefault(Locale.Category.FORMAT));
        assertEquals(Locale.US, Locale.getDefault(Locale.Category.DISPLAY));
        assertEquals("UTC", TimeZone.getDefault().getID());
        assertFalse(
                System.out.getClass().getName(), System.out.getClass().getName().contains("Marked"));
        assertFalse(System.err.getClass().getName().contains("Marked"));
        InputStream in = System.in;
        assertFalse(in.getClass().getName().contains("Marked"));
        // The thread's context loader is this order's fresh loader, the one that defined this class.
        assertSame(SampleJdkState.class.getClassLoader(), Thread.currentThread().getContextClassLoader());
        assertFalse(String.valueOf(ProxySelector.getDefault()).contains("Marked"));
        assertNull(java.net.CookieHandler.getDefault());
        assertNull(ResponseCache.getDefault());
        assertFalse(HttpsURLConnection.getDefaultHostnameVerifier()
                .getClass()
                .getName()
                .contains("SampleJdkState"));
        assertFalse(Level.FINEST.equals(Logger.getLogger("").getLevel()));
        for (java.util.logging.Handler h : Logger.getLogger("").getHandlers()) {
            assertFalse(h.getClass().getName().contains("Marked"));
        }
    }

    /** The JDK makes the default time zone from the property on first use (the server's is UTC). */
    @Test
    public void setsTheTimeZoneProperty() {
        System.setProperty("user.timezone", "Asia/Tokyo");
        assertEquals("Asia/Tokyo", TimeZone.getDefault().getID());
    }

    /** What jsoup's TLS tests do: HTTPS connections then use the context set (as in a fresh JVM). */
    @Test
    public void setsTheDefaultSslContext() {
        SSLContext.setDefault(new MarkedContext());
        assertTrue(HttpsURLConnection.getDefaultSSLSocketFactory() instanceof MarkedSocketFactory);
    }

    @Test
    public void seesTheJdksSslContext() throws Exception {
        assertFalse(SSLContext.getDefault() instanceof MarkedContext);
        assertFalse(HttpsURLConnection.getDefaultSSLSocketFactory() instanceof MarkedSocketFactory);
    }

    /** java.base is opened to the shared JVM's runner alone, never to a test's classes. */
    @Test
    public void cannotOpenJavaxNetSsl() throws Exception {
        java.lang.reflect.Field f = HttpsURLConnection.class.getDeclaredField("defaultSSLSocketFactory");
        try {
            f.setAccessible(true);
            fail("javax.net.ssl is open to a test");
        } catch (RuntimeException e) {
            assertEquals(
                    "java.lang.reflect.InaccessibleObjectException",
                    e.getClass().getName());
        }
    }

    /**
     * Nor is anything else opened or exported, even to code the application class loader defines
     * (where a shared JVM's runner is): JDK internals stay as in a fresh JVM.
     */
    @Test
    public void cannotReachJdkInternals() throws Exception {
        assertEquals("refused", reachUnsafe());
        assertEquals("refused", openJdkFields());
        Class<?> appCopy = ClassLoader.getSystemClassLoader().loadClass(SampleJdkState.class.getName());
        assertFalse(appCopy == SampleJdkState.class);
        assertEquals("refused", appCopy.getMethod("reachUnsafe").invoke(null));
        assertEquals("refused", appCopy.getMethod("openJdkFields").invoke(null));
    }

    /** "refused" when neither field the shared JVM restores can be opened from this class's module. */
    public static String openJdkFields() throws Exception {
        String seen = "refused";
        for (java.lang.reflect.Field f : new java.lang.reflect.Field[] {
            java.util.TimeZone.class.getDeclaredField("defaultTimeZone"),
            HttpsURLConnection.class.getDeclaredField("defaultSSLSocketFactory")
        }) {
            try {
                f.setAccessible(true);
                seen = "opened " + f;
            } catch (RuntimeException e) {
                // as in a fresh JVM
            }
        }
        return seen;
    }

    /** "refused" when jdk.internal.misc is not exported to this class's module. */
    public static String reachUnsafe() throws Exception {
        try {
            Class.forName("jdk.internal.misc.Unsafe").getMethod("getUnsafe").invoke(null);
            return "reached";
        } catch (IllegalAccessException e) {
            return "refused";
        }
    }

    /** Java 9+: the default authenticator (reflection: the samples compile for Java 8). */
    @Test
    public void seesNoAuthenticator() throws Exception {
        Object auth = Authenticator.class.getMethod("getDefault").invoke(null);
        assertNull(String.valueOf(auth), auth);
    }
}
