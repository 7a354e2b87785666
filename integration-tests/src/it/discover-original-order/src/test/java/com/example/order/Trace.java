package com.example.order;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;

/** Appends the id of each test that runs to target/run-log.txt. */
final class Trace {
    private Trace() {
    }

    static void ran(String id) {
        File file = new File(System.getProperty("basedir", "."), "target/run-log.txt");
        try {
            Files.writeString(file.toPath(), id + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
