package com.example.audit;

import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.file.Files;
import org.junit.Test;

public class WorkerTest {
    @Test
    public void leavesWorkerAndFile() throws Exception {
        Thread worker = new Thread(() -> {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // ends
            }
        }, "audit-worker");
        worker.setDaemon(true);
        worker.start();
        File out = new File("audit-leftover.txt");
        Files.write(out.toPath(), ("written at " + System.nanoTime()).getBytes("UTF-8"));
        assertTrue(out.isFile());
    }
}
