package io.github.odrust.agent.samples;

import java.net.URL;
import org.junit.Test;

/** Leaves a thread running, or sets a JVM-wide factory: what a shared JVM cannot undo. */
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
    public void setsAUrlFactory() {
        URL.setURLStreamHandlerFactory(protocol -> null);
    }
}
