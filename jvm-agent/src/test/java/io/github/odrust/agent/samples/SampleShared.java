package io.github.odrust.agent.samples;

import static org.junit.Assert.assertEquals;

import com.google.gson.Gson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import org.junit.Test;

/** Static state of the project, of a library jar (Gson) and of JUnit, for the shared JVM's tests. */
public class SampleShared {
    static int calls;

    /** Passes only in a fresh copy of this class; notes which copies of this class and of Gson it saw. */
    @Test
    public void staticIsFresh() throws IOException {
        assertEquals(0, calls++);
        String line = System.identityHashCode(SampleShared.class) + " " + System.identityHashCode(Gson.class) + " "
                + System.identityHashCode(Test.class) + "\n";
        Files.write(
                Paths.get(System.getProperty("odrust.sample.out")),
                line.getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
