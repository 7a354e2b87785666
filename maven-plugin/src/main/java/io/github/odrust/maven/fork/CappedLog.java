package io.github.odrust.maven.fork;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Copies a process's output to a log file, keeping the first {@code head} bytes whole and, when
 * the output is longer, only its last {@code tail} bytes after a line saying how much was cut: one
 * noisy test cannot fill the disk, and both the start and the end (where a crash shows) are kept.
 */
final class CappedLog implements Runnable {
    private final InputStream in;
    private final Path file;
    private final int head;
    private final byte[] ring;
    private final Thread thread;
    private IOException failure;

    private CappedLog(InputStream in, Path file, int head, int tail) {
        this.in = in;
        this.file = file;
        this.head = head;
        this.ring = new byte[tail];
        this.thread = new Thread(this, "odrust-jvm-log");
        thread.setDaemon(true);
    }

    static CappedLog start(InputStream in, Path file, int head, int tail) {
        CappedLog log = new CappedLog(in, file, head, tail);
        log.thread.start();
        return log;
    }

    @Override
    public void run() {
        try (InputStream input = in;
                OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            byte[] buf = new byte[8192];
            long total = 0;
            long ringed = 0; // bytes that went past the head
            int n;
            while ((n = input.read(buf)) >= 0) {
                int off = 0;
                if (total < head) {
                    int keep = (int) Math.min(n, head - total);
                    out.write(buf, 0, keep);
                    off = keep;
                }
                for (int i = off; i < n; i++) {
                    ring[(int) (ringed++ % ring.length)] = buf[i];
                }
                total += n;
            }
            if (ringed > 0) {
                long cut = Math.max(0, ringed - ring.length);
                if (cut > 0) {
                    out.write(("\n[odrust: " + cut + " bytes of output cut here; the log keeps the first " + head
                                    + " and the last " + ring.length + " of " + total + "]\n")
                            .getBytes(StandardCharsets.UTF_8));
                }
                int kept = (int) Math.min(ringed, ring.length);
                int from = (int) ((ringed - kept) % ring.length);
                for (int i = 0; i < kept; i++) {
                    out.write(ring[(from + i) % ring.length]);
                }
            }
        } catch (IOException e) {
            failure = e;
        }
    }

    /** Waits for the output to end and the file to be written. */
    void finish() throws IOException, InterruptedException {
        thread.join(10_000); // a process the tests left that still holds the pipe must not hold odrust up
        if (failure != null) {
            throw new IOException("could not write the test JVM's log " + file + ": " + failure.getMessage(), failure);
        }
    }
}
