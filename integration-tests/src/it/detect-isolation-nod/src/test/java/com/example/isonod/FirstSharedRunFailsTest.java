package com.example.isonod;

import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.Test;

/**
 * Fails the first time it runs in a shared JVM (a class loader of odrust's isolation), passes
 * every other time: an outcome that changes between runs of one order, as a NOD test's does.
 */
public class FirstSharedRunFailsTest {
    @Test
    public void passesButOnce() throws Exception {
        if (!getClass().getClassLoader().getClass().getName().contains("Isolating")) {
            return;
        }
        Path counter = Paths.get("target", "shared-runs.txt");
        int runs = Files.exists(counter)
                ? Integer.parseInt(new String(Files.readAllBytes(counter), StandardCharsets.UTF_8).trim())
                : 0;
        Files.write(counter, String.valueOf(runs + 1).getBytes(StandardCharsets.UTF_8));
        assertTrue("the first run in a shared JVM", runs > 0);
    }
}
