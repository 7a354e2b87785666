package com.example.boom;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.Test;

public class HangTest {
    /** Starts a child process that outlives this JVM unless its whole tree is killed, then hangs. */
    @Test
    public void hangs() throws Exception {
        Process child = new ProcessBuilder("sleep", "1000")
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        File pidFile = new File(System.getProperty("basedir", "."), "target/hang-child.pid");
        Files.writeString(pidFile.toPath(), Long.toString(child.pid()), StandardCharsets.UTF_8);
        Thread.sleep(Long.MAX_VALUE);
    }
}
