package io.github.odrust.maven.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One odrust run per output directory, and one run of test JVMs per module, at a time. Every goal
 * takes {@code odrust.lock} in its output directory before it writes there, and every goal that
 * runs the module's tests takes {@code odrust-tests.lock} in the module's build directory (two runs
 * with their own output directories still share the module's files: each would see the other's
 * effects as flaky tests). Each is an operating-system file lock (so a run that dies releases it
 * with its process), and in the file the holder's goal, PID and start time, so that a second run
 * is refused with a message naming the first. A run that ends empties the file; one that still
 * names a holder but is not locked was left by a run that died (the OS lock went with its process)
 * and is taken over, with a line saying so.
 */
public final class OutputLock implements AutoCloseable {
    /** The lock file's name in the output directory. */
    public static final String FILE = "odrust.lock";

    /** The lock file's name in the module's build directory, held by goals that run its tests. */
    public static final String TESTS_FILE = "odrust-tests.lock";

    /** Another run holds the lock; the message names it and what to do. */
    public static final class HeldException extends Exception {
        public HeldException(String message) {
            super(message);
        }
    }

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private OutputLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code dir} for {@code goal}.
     *
     * @param log receives the line saying a stale lock was taken over
     * @throws HeldException when another run holds it
     */
    public static OutputLock take(Path dir, String goal, Consumer<String> log) throws IOException, HeldException {
        return take(
                dir.resolve(FILE),
                goal,
                log,
                holder -> "another odrust run is writing to " + dir + " (" + holder
                        + "). Wait until it ends, or give this run its own directory with -Dodrust.outputDirectory=<dir>.");
    }

    /**
     * Takes the lock of the module whose build directory is {@code buildDir}, for {@code goal}, which
     * runs the module's tests. A second run in the module is refused whatever its output directory.
     *
     * @param log receives the line saying a stale lock was taken over
     * @throws HeldException when another run holds it
     */
    public static OutputLock takeTests(Path buildDir, String goal, Consumer<String> log)
            throws IOException, HeldException {
        return take(
                buildDir.resolve(TESTS_FILE),
                goal,
                log,
                holder -> "another odrust run is running this module's tests (" + holder + "; lock "
                        + buildDir.resolve(TESTS_FILE)
                        + "). Two runs in one module share its files, whatever their output directories,"
                        + " so each would see the other's effects as flaky tests. Wait until it ends.");
    }

    private static OutputLock take(Path file, String goal, Consumer<String> log, Function<String, String> refusal)
            throws IOException, HeldException {
        FileChannel channel;
        try {
            Files.createDirectories(file.getParent());
            channel = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw failure(file, e);
        }
        try {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // this JVM (another module's goal in a parallel build) holds it
            }
            if (lock == null) {
                String holder;
                try {
                    holder = read(channel);
                    if (holder.isEmpty()) {
                        holder = "its holder did not say who it is";
                    }
                } catch (IOException e) {
                    // where locks are mandatory (Windows) the holder's file cannot be read
                    holder = "its file cannot be read while it is held";
                }
                channel.close();
                throw new HeldException(refusal.apply(holder));
            }
            String holder = read(channel);
            if (!holder.isEmpty()) {
                log.accept("odrust: taking over " + file + " from a run that is no longer running (" + holder + ")");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(describe(goal).getBytes(StandardCharsets.UTF_8)), 0);
            channel.force(true);
            return new OutputLock(file, channel, lock);
        } catch (IOException e) {
            IOException failure = failure(file, e);
            try {
                channel.close();
            } catch (IOException closing) {
                failure.addSuppressed(closing);
            }
            throw failure;
        }
    }

    /** {@code e} naming the lock file, and what went wrong (some exceptions' message is a path only). */
    private static IOException failure(Path file, IOException e) {
        return new IOException("file " + file + ": " + e, e);
    }

    /** What the lock file says about its holder. */
    static String describe(String goal) {
        ProcessHandle self = ProcessHandle.current();
        String started = self.info()
                .startInstant()
                .map(Instant::toString)
                .orElse(Instant.now().toString());
        return goal + ", PID " + self.pid() + ", started " + started;
    }

    private static String read(FileChannel channel) throws IOException {
        long size = Math.min(channel.size(), 4096);
        ByteBuffer buf = ByteBuffer.allocate((int) size);
        channel.read(buf, 0);
        return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).trim();
    }

    /**
     * Empties the file and releases the lock. The empty file stays: removing it could let a run that
     * opened it a moment before lock a file no longer in the directory while a third run locks a new one.
     */
    @Override
    public void close() throws IOException {
        try {
            try {
                channel.truncate(0);
            } finally {
                try {
                    lock.release();
                } finally {
                    channel.close();
                }
            }
        } catch (IOException e) {
            throw failure(file, e);
        }
    }

    /** The lock file. */
    public Path file() {
        return file;
    }
}
