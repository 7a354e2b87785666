package io.github.odrust.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.maven.run.DiscoveredSuite;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test classes odrust:audit audits: named, or the last incremental's selection. */
class AuditMojoTest {
    @TempDir
    Path out;

    static DiscoveredSuite suite(String... classes) {
        DiscoveredSuite s = new DiscoveredSuite();
        for (String c : classes) {
            DiscoveredSuite.ClassRecord r = new DiscoveredSuite.ClassRecord();
            r.className = c;
            r.tests.add(c + "#t");
            s.classes.add(r);
        }
        return s;
    }

    @Test
    void classesAreNamedSimplyOrFullyQualified() throws Exception {
        DiscoveredSuite s = suite("com.acme.CartTest", "com.acme.PriceTest", "com.other.PriceTest");
        assertEquals(Set.of("com.acme.CartTest"), AuditMojo.named(s, "CartTest"));
        assertEquals(
                Set.of("com.acme.CartTest", "com.other.PriceTest"),
                AuditMojo.named(s, " CartTest , com.other.PriceTest,"));
    }

    @Test
    void anUnknownOrAmbiguousClassIsRefusedByName() {
        DiscoveredSuite s = suite("com.acme.CartTest", "com.acme.PriceTest", "com.other.PriceTest");
        MojoFailureException unknown =
                assertThrows(MojoFailureException.class, () -> AuditMojo.named(s, "CartTest,NoSuchTest"));
        assertTrue(
                unknown.getMessage()
                        .contains(
                                "no test class NoSuchTest in this module; its test classes are e.g. com.acme.CartTest"),
                unknown.getMessage());
        MojoFailureException ambiguous =
                assertThrows(MojoFailureException.class, () -> AuditMojo.named(s, "PriceTest"));
        assertTrue(
                ambiguous.getMessage().contains("names com.acme.PriceTest and com.other.PriceTest"),
                ambiguous.getMessage());
    }

    @Test
    void theIncrementalSelectionIsReadAndItsAbsenceNamed() throws Exception {
        MojoFailureException missing =
                assertThrows(MojoFailureException.class, () -> AuditMojo.incrementalSelection(out));
        assertTrue(missing.getMessage().contains("run mvn odrust:incremental first"), missing.getMessage());
        Path file = out.resolve("incremental").resolve("selection.json");
        Files.createDirectories(file.getParent());
        Files.write(
                file,
                "{\"full\":false,\"selected\":[{\"class\":\"a.B\",\"reasons\":[]},{\"class\":\"a.C\"}]}"
                        .getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("a.B", "a.C"), List.copyOf(AuditMojo.incrementalSelection(out)));
        Files.write(file, "{not json".getBytes(StandardCharsets.UTF_8));
        MojoFailureException broken =
                assertThrows(MojoFailureException.class, () -> AuditMojo.incrementalSelection(out));
        assertTrue(broken.getMessage().contains("cannot read"), broken.getMessage());
    }
}
