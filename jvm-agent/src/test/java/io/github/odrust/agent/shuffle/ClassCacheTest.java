package io.github.odrust.agent.shuffle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rewritten class is taken from the cache only for the very bytes it was made from; the file is
 * written whole, once per new class, per transformer version, and a damaged one is ignored.
 */
class ClassCacheTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aClassIsTakenOnlyForTheBytesItWasRewrittenFrom() throws Exception {
        ClassCache first = ClassCache.open(dir, 0x1234);
        assertNull(first.get("java/util/HashMap", bytes("original")));
        first.put("java/util/HashMap", bytes("original"), bytes("rewritten"));
        first.save();
        Path file = dir.resolve(ClassCache.fileName(0x1234));
        assertTrue(Files.isRegularFile(file));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(1, files.count(), "no part file left");
        }

        ClassCache next = ClassCache.open(dir, 0x1234);
        assertArrayEquals(bytes("rewritten"), next.get("java/util/HashMap", bytes("original")));
        // another JDK's class, or one another agent changed first: same length, other bytes
        assertNull(next.get("java/util/HashMap", bytes("originaL")));
        // a variant is kept beside the first
        next.put("java/util/HashMap", bytes("originaL"), bytes("rewritten L"));
        next.save();
        ClassCache both = ClassCache.open(dir, 0x1234);
        assertArrayEquals(bytes("rewritten"), both.get("java/util/HashMap", bytes("original")));
        assertArrayEquals(bytes("rewritten L"), both.get("java/util/HashMap", bytes("originaL")));
        assertNull(next.get("java/util/HashMap", bytes("original, longer")));
        assertNull(next.get("java/util/HashSet", bytes("original")));
        // nothing new: the file is not written again
        FileTime written = FileTime.fromMillis(1_000_000L);
        Files.setLastModifiedTime(file, written);
        next.save();
        assertEquals(written, Files.getLastModifiedTime(file));

        // another transformer version: another file, empty
        assertNull(ClassCache.open(dir, 0x5678).get("java/util/HashMap", bytes("original")));
        assertFalse(ClassCache.fileName(0x1234).equals(ClassCache.fileName(0x5678)));
    }

    @Test
    void aDamagedFileIsIgnoredAndWrittenAgain() throws Exception {
        ClassCache first = ClassCache.open(dir, 7);
        first.put("java/util/HashMap", bytes("original"), bytes("rewritten"));
        first.put("java/util/HashSet", bytes("set"), bytes("rewritten set"));
        first.save();
        Path file = dir.resolve(ClassCache.fileName(7));
        byte[] whole = Files.readAllBytes(file);
        byte[] cut = new byte[whole.length - 3];
        System.arraycopy(whole, 0, cut, 0, cut.length);
        Files.write(file, cut);

        ClassCache damaged = ClassCache.open(dir, 7);
        assertNull(damaged.get("java/util/HashMap", bytes("original")), "nothing is taken from a cut file");
        damaged.put("java/util/HashMap", bytes("original"), bytes("rewritten"));
        damaged.save();
        assertArrayEquals(bytes("rewritten"), ClassCache.open(dir, 7).get("java/util/HashMap", bytes("original")));

        Files.write(file, bytes("not a cache"));
        assertNull(ClassCache.open(dir, 7).get("java/util/HashMap", bytes("original")));
    }

    @Test
    void atMostAFewVariantsOfAClassAreKept() throws Exception {
        ClassCache first = ClassCache.open(dir, 9);
        for (int i = 0; i < ClassCache.VARIANTS + 3; i++) {
            first.put("java/util/HashMap", bytes("variant " + i), bytes("rewritten " + i));
        }
        first.put("java/util/HashSet", bytes("set"), bytes("rewritten set"));
        first.save();
        ClassCache next = ClassCache.open(dir, 9);
        for (int i = 0; i < ClassCache.VARIANTS; i++) {
            assertArrayEquals(bytes("rewritten " + i), next.get("java/util/HashMap", bytes("variant " + i)));
        }
        assertNull(next.get("java/util/HashMap", bytes("variant " + ClassCache.VARIANTS)), "past the limit");
        assertArrayEquals(bytes("rewritten set"), next.get("java/util/HashSet", bytes("set")));
        // a JVM that only adds a variant past the limit does not write the file
        next.put("java/util/HashMap", bytes("one more"), bytes("rewritten more"));
        FileTime written = FileTime.fromMillis(1_000_000L);
        Path file = dir.resolve(ClassCache.fileName(9));
        Files.setLastModifiedTime(file, written);
        next.save();
        assertEquals(written, Files.getLastModifiedTime(file));
    }

    @Test
    void rewrittenBytesThatDoNotMatchTheirChecksumsAreIgnored() throws Exception {
        ClassCache first = ClassCache.open(dir, 11);
        first.put("java/util/HashMap", bytes("original"), bytes("rewritten bytes"));
        first.save();
        Path file = dir.resolve(ClassCache.fileName(11));
        byte[] whole = Files.readAllBytes(file);
        String text = new String(whole, StandardCharsets.ISO_8859_1);
        int at = text.indexOf("rewritten bytes");
        whole[at] = (byte) 'R';
        Files.write(file, whole);
        assertNull(ClassCache.open(dir, 11).get("java/util/HashMap", bytes("original")));
        // a length past the file's end (a huge allocation otherwise) is refused too
        whole[at] = (byte) 'r';
        whole[at - 1] = (byte) 0x7f;
        whole[at - 4] = (byte) 0x7f;
        Files.write(file, whole);
        ClassCache huge = ClassCache.open(dir, 11);
        assertNull(huge.get("java/util/HashMap", bytes("original")));
        huge.put("java/util/HashMap", bytes("original"), bytes("rewritten bytes"));
        huge.save();
        assertArrayEquals(
                bytes("rewritten bytes"), ClassCache.open(dir, 11).get("java/util/HashMap", bytes("original")));
    }

    @Test
    void withoutACacheNothingIsKept() throws Exception {
        ClassCache.NONE.put("java/util/HashMap", bytes("original"), bytes("rewritten"));
        ClassCache.NONE.save();
        assertNull(ClassCache.NONE.get("java/util/HashMap", bytes("original")));
    }
}
