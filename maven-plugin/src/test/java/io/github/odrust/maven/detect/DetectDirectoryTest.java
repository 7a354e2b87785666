package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DetectDirectoryTest {
    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aNewRunKeepsThePreviousRunsEvidenceBesideIt(@TempDir Path out) throws Exception {
        write(out.resolve("detect/run.json"), "{\"run\":1}");
        write(out.resolve("detect/experiments.jsonl"), "{\"id\":1}\n");
        write(out.resolve("orders/exp-9.txt"), "p.V#v\n");
        write(out.resolve("orders/original.txt"), "p.V#v\n");
        write(out.resolve("report.json"), "{\"report\":1}");
        write(out.resolve("report.html"), "<html>");
        write(out.resolve("surefire-reports/TEST-odrust.xml"), "<testsuite/>");
        write(out.resolve("previous/detect/run.json"), "{\"run\":0}");

        new DetectDirectory(out).keepPrevious(new SystemStreamLog());

        Path previous = out.resolve("previous");
        assertEquals(
                "{\"run\":1}",
                Files.readString(previous.resolve("detect/run.json")),
                "the older previous run is replaced");
        assertTrue(Files.isRegularFile(previous.resolve("detect/experiments.jsonl")));
        assertTrue(Files.isRegularFile(previous.resolve("orders/exp-9.txt")), "the report's order files go with it");
        assertTrue(Files.isRegularFile(previous.resolve("report.json")));
        assertTrue(Files.isRegularFile(previous.resolve("report.html")));
        assertTrue(Files.isRegularFile(previous.resolve("surefire-reports/TEST-odrust.xml")));
        assertFalse(Files.exists(out.resolve("detect")));
        assertFalse(Files.exists(out.resolve("orders/exp-9.txt")));
        assertTrue(
                Files.isRegularFile(out.resolve("orders/original.txt")), "the original order is not a run's evidence");
    }

    @Test
    void theLastThreeRunsAreKeptAndWhatMovedIsSaid(@TempDir Path out) throws Exception {
        List<String> lines = new ArrayList<>();
        SystemStreamLog log = new SystemStreamLog() {
            @Override
            public void info(CharSequence content) {
                lines.add(content.toString());
            }
        };
        for (int run = 1; run <= 4; run++) {
            write(out.resolve("detect/run.json"), "{\"run\":" + run + "}");
            new DetectDirectory(out).keepPrevious(log);
        }
        assertEquals("{\"run\":4}", Files.readString(out.resolve("previous/detect/run.json")));
        assertEquals("{\"run\":3}", Files.readString(out.resolve("previous-2/detect/run.json")));
        assertEquals("{\"run\":2}", Files.readString(out.resolve("previous-3/detect/run.json")));
        assertFalse(Files.exists(out.resolve("previous-4")), "run 1, the oldest, is gone");
        assertTrue(
                lines.stream().anyMatch(l -> l.startsWith("deleted the oldest kept detection run")), lines.toString());
        assertTrue(lines.get(lines.size() - 1).endsWith("(older runs: previous-2/, previous-3/)"), lines.toString());
    }

    @Test
    void nothingToKeepIsFine(@TempDir Path out) throws Exception {
        new DetectDirectory(out).keepPrevious(new SystemStreamLog());
        assertFalse(Files.exists(out.resolve("previous")));
    }
}
