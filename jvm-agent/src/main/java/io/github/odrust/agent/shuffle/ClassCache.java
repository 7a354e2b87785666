package io.github.odrust.agent.shuffle;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * The JDK classes {@link ShuffleTransformer} rewrote, kept in the runtime cache directory
 * ({@code runtime-cache}) for the next JVMs: loading ASM and rewriting HashMap and the others cost
 * each JVM about 20 ms of its start (docs/benchmarks.md, "The shuffle agent's start"). A class is taken from it only when the bytes the JVM hands over match those it was
 * rewritten from (length, CRC-32 and Adler-32), so another JDK, or another agent that changed the
 * class first, gets it rewritten anew. The bytes a JVM hands over for retransformation are rebuilt
 * from the loaded class and can differ with what ran before (the first JVM, which found no file,
 * sees other bytes than the next ones), so each class is kept once per such variant, at most
 * {@link #VARIANTS} of them: a JVM without class data sharing rebuilds some classes otherwise each
 * time, and rewrites those as it would without the file, which is then no longer written for
 * them. One file per version of the transformer (its classes' and ASM's checksums, in the name)
 * and per JDK; written whole beside it and renamed, as the runtime's jar is. A file that cannot be
 * read, or whose rewritten bytes do not match their own checksums, is ignored and written again.
 */
final class ClassCache {
    private static final int MAGIC = 0x6f645343; // "odSC"
    private static final int VERSION = 2;
    /** Variants of one class kept. */
    static final int VARIANTS = 4;

    /** No cache: every class is rewritten. */
    static final ClassCache NONE = new ClassCache(null);

    private static final class Entry {
        final String name;
        final int length;
        final long sum;
        final byte[] rewritten;

        Entry(String name, int length, long sum, byte[] rewritten) {
            this.name = name;
            this.length = length;
            this.sum = sum;
            this.rewritten = rewritten;
        }
    }

    private final Path file;
    /** Class name, length and checksums of the bytes it was rewritten from → the entry. */
    private final Map<String, Entry> entries = new TreeMap<>();

    private boolean hits;
    private boolean changed;

    private ClassCache(Path file) {
        this.file = file;
    }

    /** The file name for a transformer version ({@code key}) on this JDK. */
    static String fileName(long key) {
        CRC32 jdk = new CRC32();
        for (String p : new String[] {"java.home", "java.vm.version", "java.runtime.version"}) {
            jdk.update((p + "=" + System.getProperty(p) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return "odrust-shuffle-classes-" + Long.toHexString(key) + "-" + Long.toHexString(jdk.getValue()) + ".bin";
    }

    /** The cache in {@code dir} for a transformer version ({@code key}); its file read if there. */
    static ClassCache open(Path dir, long key) {
        ClassCache cache = new ClassCache(dir.resolve(fileName(key)));
        if (Files.isRegularFile(cache.file)) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(cache.file)))) {
                long size = Files.size(cache.file);
                if (in.readInt() != MAGIC || in.readInt() != VERSION) {
                    throw new IOException("not a class cache of this version");
                }
                int count = in.readInt();
                for (int i = 0; i < count; i++) {
                    String name = in.readUTF();
                    int length = in.readInt();
                    long sum = in.readLong();
                    int n = in.readInt();
                    if (n < 0 || n > size) {
                        throw new IOException("an entry longer than the file");
                    }
                    byte[] rewritten = new byte[n];
                    in.readFully(rewritten);
                    if (in.readLong() != sum(rewritten)) {
                        throw new IOException("an entry whose bytes do not match their checksums");
                    }
                    cache.entries.put(key(name, length, sum), new Entry(name, length, sum, rewritten));
                }
            } catch (Throwable e) {
                cache.entries.clear(); // damaged or cut short: rewritten and written again
                cache.changed = true;
            }
        }
        return cache;
    }

    /** CRC-32 and Adler-32 of {@code bytes}, in one long. */
    private static long sum(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length);
        Adler32 adler = new Adler32();
        adler.update(bytes, 0, bytes.length);
        return crc.getValue() << 32 | adler.getValue();
    }

    private static String key(String name, int length, long sum) {
        return name + " " + length + " " + sum;
    }

    /** The rewritten bytes of {@code name} made from bytes that match {@code original}, or null. */
    byte[] get(String name, byte[] original) {
        Entry e = entries.get(key(name, original.length, sum(original)));
        if (e == null) {
            return null;
        }
        hits = true;
        return e.rewritten;
    }

    /** Keeps {@code rewritten}, made from {@code original}, for {@link #save}. */
    void put(String name, byte[] original, byte[] rewritten) {
        if (file == null) {
            return;
        }
        int variants = 0;
        for (Entry e : entries.values()) {
            variants += e.name.equals(name) ? 1 : 0;
        }
        if (variants >= VARIANTS) {
            return;
        }
        long sum = sum(original);
        entries.put(key(name, original.length, sum), new Entry(name, original.length, sum, rewritten.clone()));
        changed = true;
    }

    /** Whether a class was taken from the file. */
    boolean hits() {
        return hits;
    }

    /** Deletes the file (its classes failed to retransform): the next JVM rewrites them. */
    void discard() {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // left as it is: a JVM that cannot use it rewrites its classes all the same
            }
        }
    }

    /** Writes the file when a class was rewritten anew; whole, beside it, then renamed. */
    void save() throws IOException {
        if (file == null || !changed) {
            return;
        }
        Path part = file.resolveSibling(file.getFileName() + "." + Long.toHexString(System.nanoTime())
                + Long.toHexString(new Random().nextLong()) + ".part");
        try {
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(part)))) {
                out.writeInt(MAGIC);
                out.writeInt(VERSION);
                out.writeInt(entries.size());
                for (Entry e : entries.values()) {
                    out.writeUTF(e.name);
                    out.writeInt(e.length);
                    out.writeLong(e.sum);
                    out.writeInt(e.rewritten.length);
                    out.write(e.rewritten);
                    out.writeLong(sum(e.rewritten));
                }
            }
            Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            changed = false;
        } finally {
            Files.deleteIfExists(part);
        }
    }
}
