package io.github.odrust.samples.record;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.github.odrust.samples.reclib.RecLib;
import java.util.Locale;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** Run by RecordIT in a forked JVM, with and without the recording agent. */
public class RecSampleJ4 {
    @BeforeClass
    public static void setUpClass() {
        RecHolder.setUp++;
    }

    @AfterClass
    public static void tearDownClass() {
        RecHolder.label = "after";
    }

    @Test
    public void increments() {
        RecHolder.COUNT++;
    }

    @Test
    public void registers() {
        RecHolder.REGISTRY.put("k", "v");
    }

    @Test
    public void readsConstants() {
        int x = RecHolder.INLINED
                + RecHolder.CONST
                + RecHolder.NAME.length()
                + RecHolder.UNIT.ordinal()
                + RecColor.GREEN.ordinal();
        assertEquals(7 + 3 + 6 + 3 + 1, x);
    }

    @Test
    public void readsLabel() {
        assertNotNull(RecHolder.label);
    }

    @Test
    public void initialises() {
        assertEquals(42, RecInit.VALUE);
    }

    @Test
    public void setsProperty() {
        System.setProperty("odrust.rec.sample", "true");
    }

    @Test
    public void readsGlobals() {
        assertTrue(Boolean.getBoolean("odrust.rec.sample"));
        assertNotNull(Locale.getDefault());
    }

    @Test
    public void threaded() throws Exception {
        Thread t = new Thread(() -> RecHolder.fromThread = 1);
        t.start();
        t.join();
    }

    @Test
    public void inherited() {
        RecSub.shared++;
    }

    @Test
    public void switchesOnEnum() {
        RecColor c = RecColor.valueOf("GREEN");
        switch (c) {
            case RED:
                throw new AssertionError("red");
            default:
                break;
        }
    }

    @Test
    public void usesLibrary() {
        RecLib.hit();
    }

    @Test
    public void usesExcluded() {
        RecExcluded.touch();
    }

    @Test
    public void sameRecorder() throws Exception {
        Class<?> r = Class.forName("io.github.odrust.agent.record.Recorder");
        assertSame(ClassLoader.getSystemClassLoader(), r.getClassLoader());
        assertSame(ClassLoader.getSystemClassLoader(), RecSampleJ4.class.getClassLoader());
        boolean expected = "true".equals(System.getenv("ODRUST_IT_RECORDING"));
        assertEquals(expected, r.getMethod("active").invoke(null));
    }
}
