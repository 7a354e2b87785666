package io.github.odrust.agent.samples;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.Test;

/** Writes the JVM's {@code sun.java.command} beside the file {@code odrust.sample.out} names. */
public class SampleCommandLine {
    @Test
    public void namesThePlan() throws Exception {
        File out = new File(System.getProperty("odrust.sample.out")).getParentFile();
        Files.write(
                new File(out, "command.txt").toPath(),
                System.getProperty("sun.java.command").getBytes(StandardCharsets.UTF_8));
    }
}
