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
import java.util.zip.CRC32;

/**
 * The JDK classes {@link ShuffleTransformer} rewrote, kept in the runtime cache directory
 * ({@code runtime-cache}) for the next JVMs: loading ASM and rewriting HashMap and the others is
 * most of what the shuffle agent costs a JVM's start (docs/benchmarks.md, "The shuffle agent's
 * start"). A class is taken from it only when the bytes the JVM hands over are the very bytes it
 * was rewritten from (length and CRC-32), so another JDK, or another agent that changed the class
 * first, gets it rewritten anew. The bytes a JVM hands over for retransformation are rebuilt from
 * the loaded class and can differ with what ran before (the first JVM, which found no file, sees
 * other bytes than the next ones), so each class is kept once per such variant. One file per
 * version of the transformer (its classes' and ASM's checksums, in the name) and per JDK; written
 * whole beside it and renamed, as the runtime's jar is. A file that cannot be read is ignored and
 * written again; one grown past {@link #MAX_ENTRIES} keeps only what this JVM used.
 */
final class ClassCache {
    private static final int MAGIC = 0x6f645343; // "odSC"
    private static final int VERSION = 1;
    /** Variants kept in one file before it keeps only the last JVM's. */
    static final int MAX_ENTRIES = 256;

    /** No cache: every class is rewritten. */
    static final ClassCache NONE = new ClassCache(null);

    private static final class Entry {
        final int length;
        final long crc;
        final byte[] rewritten;

        Entry(int length, long crc, byte[] rewritten) {
            this.length = length;
            this.crc = crc;
            this.rewritten = rewritten;
        }
    }

    private final Path file;
    /** Class name, length and CRC-32 of the bytes it was rewritten from → the entry. */
    private final Map<String, Entry> entries = new TreeMap<>();

    private final java.util.Set<String> used = new java.util.HashSet<>();
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
                if (in.readInt() != MAGIC || in.readInt() != VERSION) {
                    throw new IOException("not a class cache of this version");
                }
                int count = in.readInt();
                for (int i = 0; i < count; i++) {
                    String name = in.readUTF();
                    int length = in.readInt();
                    long crc = in.readLong();
                    byte[] rewritten = new byte[in.readInt()];
                    in.readFully(rewritten);
                    cache.entries.put(key(name, length, crc), new Entry(length, crc, rewritten));
                }
            } catch (IOException | RuntimeException e) {
                cache.entries.clear(); // damaged or cut short: rewritten and written again
            }
        }
        return cache;
    }

    private static long crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length);
        return crc.getValue();
    }

    private static String key(String name, int length, long crc) {
        return name + " " + length + " " + crc;
    }

    /** The rewritten bytes of {@code name} made from exactly {@code original}, or null. */
    byte[] get(String name, byte[] original) {
        String key = key(name, original.length, crc(original));
        Entry e = entries.get(key);
        if (e == null) {
            return null;
        }
        used.add(key);
        return e.rewritten;
    }

    /** Keeps {@code rewritten}, made from {@code original}, for {@link #save}. */
    void put(String name, byte[] original, byte[] rewritten) {
        if (file == null) {
            return;
        }
        String key = key(name, original.length, crc(original));
        entries.put(key, new Entry(original.length, crc(original), rewritten.clone()));
        used.add(key);
        changed = true;
    }

    /** Writes the file when a class was rewritten anew; whole, beside it, then renamed. */
    void save() throws IOException {
        if (file == null || !changed) {
            return;
        }
        if (entries.size() > MAX_ENTRIES) {
            entries.keySet().retainAll(used);
        }
        Path part = file.resolveSibling(file.getFileName() + "." + Long.toHexString(System.nanoTime())
                + Long.toHexString(new Random().nextLong()) + ".part");
        try {
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(part)))) {
                out.writeInt(MAGIC);
                out.writeInt(VERSION);
                out.writeInt(entries.size());
                for (Map.Entry<String, Entry> e : entries.entrySet()) {
                    out.writeUTF(e.getKey().substring(0, e.getKey().indexOf(' ')));
                    out.writeInt(e.getValue().length);
                    out.writeLong(e.getValue().crc);
                    out.writeInt(e.getValue().rewritten.length);
                    out.write(e.getValue().rewritten);
                }
            }
            Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            changed = false;
        } finally {
            Files.deleteIfExists(part);
        }
    }
}
