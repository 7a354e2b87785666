package com.example.j5;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;

/** Appends one line per event to target/log.txt so the verify script sees what really ran. */
final class Trace {
    private Trace() {
    }

    static void log(String line) {
        File file = new File(System.getProperty("basedir", "."), "target/log.txt");
        try {
            Files.writeString(file.toPath(), line + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
