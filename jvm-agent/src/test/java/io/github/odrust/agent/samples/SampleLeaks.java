package io.github.odrust.agent.samples;

import java.net.URL;
import org.junit.Test;

/**
 * Leaves a thread running, or sets a JVM-wide factory: what a shared JVM cannot undo; or runs a
 * process, which leaves only the JDK's own process reaper.
 */
public class SampleLeaks {
    @Test
    public void leavesAThreadRunning() {
        Thread t = new Thread(
                () -> {
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        // ends
                    }
                },
                "odrust-sample-leak");
        t.setDaemon(true);
        t.start();
    }

    @Test
    public void runsAProcess() throws Exception {
        String java = System.getProperty("java.home") + "/bin/java";
        Process p =
                new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
        while (p.getInputStream().read() >= 0) {
            // drain its output
        }
        org.junit.Assert.assertEquals(0, p.waitFor());
    }

    @Test
    public void setsAUrlFactory() {
        URL.setURLStreamHandlerFactory(protocol -> null);
    }
}
