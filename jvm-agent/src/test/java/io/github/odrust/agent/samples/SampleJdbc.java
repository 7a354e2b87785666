package io.github.odrust.agent.samples;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

import java.sql.DriverManager;
import org.junit.Test;

/** Connects through {@link DriverManager} to the driver it finds as a service, as a test of a JDBC module does. */
public class SampleJdbc {
    @Test
    public void connects() throws Exception {
        assertNotNull(DriverManager.getConnection(SampleDriver.URL + "db"));
        // the driver of this test's own class loader, as in a fresh JVM
        assertSame(
                SampleDriver.class,
                DriverManager.getDriver(SampleDriver.URL + "db").getClass());
        // JVM-wide settings an earlier order changed are as a fresh JVM has them
        assertEquals(0, DriverManager.getLoginTimeout());
        assertNull(DriverManager.getLogWriter());
        DriverManager.setLoginTimeout(7);
        DriverManager.setLogWriter(new java.io.PrintWriter(new java.io.StringWriter()));
    }
}
