package io.github.odrust.maven.run;

import io.github.odrust.maven.core.TestModule;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A digest of a module's compiled code: each class file of its classpath directories (by path and
 * content) and the rest of its test classpath (paths and sizes). An experiment recorded against
 * other code is ignored by the planners that replay it (repair, diagnose).
 */
public final class CodeDigest {
    private CodeDigest() {}

    public static String of(TestModule module) throws IOException {
        StringBuilder all = new StringBuilder();
        for (File f : module.classpath) {
            Path p = f.toPath();
            if (Files.isDirectory(p)) {
                List<Path> files;
                try (Stream<Path> walk = Files.walk(p)) {
                    files = walk.filter(
                                    c -> Files.isRegularFile(c) && c.toString().endsWith(".class"))
                            .sorted()
                            .collect(Collectors.toList());
                }
                for (Path c : files) {
                    all.append(p.relativize(c))
                            .append(' ')
                            .append(sha256(Files.readAllBytes(c)))
                            .append('\n');
                }
            } else {
                all.append(p)
                        .append(' ')
                        .append(Files.isRegularFile(p) ? Files.size(p) : -1)
                        .append('\n');
            }
        }
        return sha256(all.toString().getBytes(StandardCharsets.UTF_8));
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
