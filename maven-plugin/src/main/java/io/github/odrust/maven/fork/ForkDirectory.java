package io.github.odrust.maven.fork;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The working directory of one experiment when several run at once ({@code odrust.forks}): a new
 * directory that links to every entry of the test JVM's working directory, with {@code target}
 * (when there is one) a real directory that links to every entry of the module's {@code target}
 * but odrust's own. A file a test creates at the top of its working directory or of
 * {@code target} is its own; one it writes inside an existing directory ({@code src/...},
 * {@code target/classes/...}) is shared, as it is outside odrust. Plus a {@code java.io.tmpdir}
 * of its own.
 */
public final class ForkDirectory {
    /** The directory the test JVM starts in. */
    public final File work;
    /** Its {@code java.io.tmpdir}. */
    public final File tmp;

    private final Path root;

    private ForkDirectory(Path root) {
        this.root = root;
        this.work = root.resolve("work").toFile();
        this.tmp = root.resolve("tmp").toFile();
    }

    /**
     * Creates {@code root} (deleting what an earlier, killed run left there) with a mirror of
     * {@code workingDirectory}; {@code skip} (odrust's output directory) is not linked.
     *
     * @throws IOException when a link cannot be made (a file system without symbolic links)
     */
    public static ForkDirectory create(Path root, File workingDirectory, Path skip) throws IOException {
        delete(root);
        ForkDirectory d = new ForkDirectory(root);
        Path work = d.work.toPath();
        Files.createDirectories(work);
        Files.createDirectories(d.tmp.toPath());
        Path source = workingDirectory.toPath().toAbsolutePath().normalize();
        Path skipped = skip.toAbsolutePath().normalize();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(source)) {
            for (Path e : entries) {
                Path name = e.getFileName();
                if (name.toString().equals("target") && Files.isDirectory(e) && !Files.isSymbolicLink(e)) {
                    Path target = Files.createDirectory(work.resolve(name));
                    try (DirectoryStream<Path> inner = Files.newDirectoryStream(e)) {
                        for (Path t : inner) {
                            if (!t.toAbsolutePath().normalize().equals(skipped)) {
                                Files.createSymbolicLink(target.resolve(t.getFileName()), t.toAbsolutePath());
                            }
                        }
                    }
                } else if (!e.toAbsolutePath().normalize().equals(skipped)) {
                    Files.createSymbolicLink(work.resolve(name), e.toAbsolutePath());
                }
            }
        }
        return d;
    }

    /** Deletes the directory: links are removed, never followed. */
    public void delete() throws IOException {
        delete(root);
    }

    static void delete(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        // walkFileTree does not follow links: a link to a directory is visited as a file and
        // deleted as one, leaving what it points to alone.
        Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
