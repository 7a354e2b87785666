package io.github.odrust.maven.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A results file a goal cannot continue (unreadable, or written for another module, odrust version
 * or schema) is kept beside it as {@code <name>.previous} before a new one is written, and the
 * goal says so: nothing an earlier run wrote is lost in silence.
 */
public final class SetAside {
    private SetAside() {}

    /**
     * Moves {@code file} to {@code <file>.previous} (replacing an older one there); returns the
     * sentence to print: what was wrong ({@code why}) and where the file is now.
     */
    public static String move(Path file, String why) {
        Path to = file.resolveSibling(file.getFileName() + ".previous");
        try {
            Files.move(file, to, StandardCopyOption.REPLACE_EXISTING);
            return file + " " + why + ": it is kept as " + to.getFileName() + " and a new one is written";
        } catch (IOException e) {
            return file + " " + why + ", and could not be kept aside (" + e.getMessage() + "): it will be replaced";
        }
    }
}
