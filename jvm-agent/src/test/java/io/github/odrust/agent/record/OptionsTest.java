package io.github.odrust.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptionsTest {
    @TempDir
    Path dir;

    @Test
    void parsesSettingsCommentsAndBlankLines() throws Exception {
        Path classes = Files.createDirectories(dir.resolve("target/classes"));
        Options o = Options.parse(
                "\uFEFF# odrust\n\nroot " + classes + "\r\n  root " + dir.resolve("lib/a b.jar") + "  \n"
                        + "include com.acme.lib.\nexclude com.acme.gen.\nconstant-type org.slf4j.Logger\nignore-field com.acme.M#\n",
                "f");
        assertEquals(classes.toRealPath(), o.roots.get(0).toRealPath());
        assertTrue(o.roots.contains(dir.resolve("lib/a b.jar")));
        assertEquals(Arrays.asList("com.acme.lib."), o.includes);
        assertEquals(Arrays.asList("com.acme.gen."), o.excludes);
        assertTrue(o.constantTypes.contains("org.slf4j.Logger"));
        assertTrue(o.ignoredField("com.acme.M#COUNT"));
        assertTrue(o.included("com.acme.lib.Cache"));
        assertTrue(o.excluded("com.acme.gen.X"));
        assertFalse(o.excluded("com.acme.X"));
        assertTrue(o.inRoot(classes.toUri().toURL()));
        assertTrue(o.inRoot(dir.resolve("lib/a b.jar").toUri().toURL()));
        assertFalse(o.inRoot(dir.resolve("lib/other.jar").toUri().toURL()));
        assertFalse(o.inRoot(dir.resolve("target").toUri().toURL()));
    }

    @Test
    void badLinesNameTheLineAndTheFix() {
        String m = assertThrows(Options.BadOptionsException.class, () -> Options.parse("# x\nrot /a\n", "opts.txt"))
                .getMessage();
        assertTrue(m.startsWith("options file opts.txt line 2"), m);
        assertTrue(m.contains("unknown setting 'rot'") && m.contains("root, include, exclude"), m);
        m = assertThrows(Options.BadOptionsException.class, () -> Options.parse("root target/classes", "o"))
                .getMessage();
        assertTrue(m.contains("line 1") && m.contains("absolute path"), m);
        m = assertThrows(Options.BadOptionsException.class, () -> Options.parse("include\n", "o"))
                .getMessage();
        assertTrue(m.contains("needs a value"), m);
        m = assertThrows(Options.BadOptionsException.class, () -> Options.parse("include com/acme/\n", "o"))
                .getMessage();
        assertTrue(m.contains("dotted"), m);
        m = assertThrows(Options.BadOptionsException.class, () -> Options.read(null))
                .getMessage();
        assertTrue(m.contains("-javaagent:<odrust-jvm-agent.jar>=<options-file>"), m);
        m = assertThrows(
                        Options.BadOptionsException.class,
                        () -> Options.read(dir.resolve("none").toString()))
                .getMessage();
        assertTrue(m.contains("cannot read the options file"), m);
    }

    @Test
    void parsesShuffleSettingsAndRefusesBadOnes() throws Exception {
        Options o = Options.parse(
                "mode shuffle\nseed -7\nonly 5\nonly 3-9\nfilter any\ntrack-allocations true\nlog "
                        + dir.resolve("s.jsonl") + "\nlog-limit 10\n",
                "f");
        assertEquals("shuffle", o.mode);
        assertEquals(Long.valueOf(-7), o.seed);
        assertEquals(java.util.Arrays.asList(5L, 5L, 3L, 9L), o.only);
        assertTrue(o.anyCaller && o.trackAllocations);
        assertEquals(10, o.logLimit);
        assertEquals(null, Options.parse("mode shuffle\n", "f").seed);
        for (String bad : new String[] {
            "only 0", "only 7-3", "only x", "only 1-2-3", "seed 1.5", "filter all", "track-allocations yes"
        }) {
            String m = assertThrows(Options.BadOptionsException.class, () -> Options.parse("mode shuffle\n" + bad, "o"))
                    .getMessage();
            assertTrue(m.contains("line 2") && m.contains(bad.split(" ")[0]), m);
        }
    }

    @Test
    void neverInstrumentsJdkJUnitOrTheRecorder() {
        for (String c : new String[] {
            "java/util/HashMap",
            "javax/x/Y",
            "jdk/internal/Z",
            "sun/misc/Unsafe",
            "com/sun/X",
            "org/junit/Assert",
            "junit/framework/TestCase",
            "org/hamcrest/Matcher",
            "org/opentest4j/AssertionFailedError",
            "io/github/odrust/agent/record/Recorder",
            "io/github/odrust/agent/shaded/asm/ClassReader"
        }) {
            assertTrue(Options.never(c), c);
        }
        assertFalse(Options.never("com/acme/Cart"));
        assertFalse(Options.never("javafx/Foo"));
    }
}
