package io.github.odrust.agent.samples;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.junit.Test;

/**
 * {@link #changesLogging} changes java.util.logging's configuration and loggers; {@link
 * #seesTheConfiguredDefaults}, in a later order, sees none of it. The global logger is held by the
 * JDK, so what an order set on it would stay.
 */
public class SampleJul {
    static final class MarkedHandler extends ConsoleHandler {}

    @Test
    public void changesLogging() throws Exception {
        LogManager.getLogManager()
                .readConfiguration(
                        new ByteArrayInputStream("odrust.sample.level=FINE\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals(Level.FINE, Logger.getLogger("odrust.sample").getLevel());
        Logger global = Logger.getGlobal();
        global.setLevel(Level.FINEST);
        global.addHandler(new MarkedHandler());
        global.setUseParentHandlers(false);
        global.setFilter(r -> false);
        Logger.getLogger("").setLevel(Level.FINEST);
        Logger.getLogger("").addHandler(new MarkedHandler());
    }

    @Test
    public void seesTheConfiguredDefaults() {
        Logger global = Logger.getGlobal();
        assertNull(global.getLevel());
        assertEquals(0, global.getHandlers().length);
        assertTrue(global.getUseParentHandlers());
        assertNull(global.getFilter());
        assertEquals(Level.INFO, Logger.getLogger("").getLevel());
        for (Handler h : Logger.getLogger("").getHandlers()) {
            assertFalse(h.getClass().getName(), h.getClass().getName().contains("Marked"));
        }
        assertNull(Logger.getLogger("odrust.sample").getLevel());
        assertNull(Logger.getLogger("odrust.sample.other").getLevel());
    }

    /** As in a fresh JVM, where logging reads its configuration on first use. */
    @Test
    public void namesItsConfigurationBeforeLogging() throws Exception {
        Path config = Files.createTempFile("odrust-sample", ".properties");
        config.toFile().deleteOnExit();
        Files.write(config, ".level=SEVERE\n".getBytes(StandardCharsets.UTF_8));
        System.setProperty("java.util.logging.config.file", config.toString());
        assertEquals(Level.SEVERE, Logger.getLogger("").getLevel());
    }
}
