package io.github.odrust.agent.samples;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * A JDBC driver found as a service ({@code META-INF/services/java.sql.Driver}), as H2's or
 * Derby's is: it registers itself when loaded; its deregistration is noted in the file
 * {@code odrust.sample.out} names.
 */
public class SampleDriver implements Driver {
    static final String URL = "jdbc:odrust-sample:";

    static {
        try {
            DriverManager.registerDriver(new SampleDriver(), () -> note("deregistered"));
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static void note(String line) {
        String out = System.getProperty("odrust.sample.out");
        if (out == null) {
            return;
        }
        try {
            Files.write(
                    Paths.get(out),
                    (line + "\n").getBytes(StandardCharsets.UTF_8),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info) {
        if (!acceptsURL(url)) {
            return null;
        }
        return (Connection) Proxy.newProxyInstance(
                SampleDriver.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) -> method.getName().equals("isClosed") ? Boolean.FALSE : null);
    }

    @Override
    public boolean acceptsURL(String url) {
        return url != null && url.startsWith(URL);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        return new DriverPropertyInfo[0];
    }

    @Override
    public int getMajorVersion() {
        return 1;
    }

    @Override
    public int getMinorVersion() {
        return 0;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() {
        return Logger.getGlobal();
    }
}
