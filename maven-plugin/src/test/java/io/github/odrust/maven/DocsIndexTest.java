package io.github.odrust.maven;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** docs/README.md is the index of docs/: it links every page there, and every page it links exists. */
class DocsIndexTest {
    /** A Markdown link to a page of docs/ (or ../), without its #anchor. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#\\s:]+\\.md)(#[^)]*)?\\)");

    private static Path docs() {
        Path basedir = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        return basedir.resolve("../docs").normalize();
    }

    private static Set<String> linked(Path index) throws IOException {
        Set<String> out = new TreeSet<>();
        Matcher m = LINK.matcher(Files.readString(index, StandardCharsets.UTF_8));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void everyPageIsLinkedFromTheIndex() throws IOException {
        Path docs = docs();
        Set<String> linked = linked(docs.resolve("README.md"));
        List<String> missing;
        try (Stream<Path> pages = Files.list(docs)) {
            missing = pages.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".md") && !n.equals("README.md"))
                    .filter(n -> !linked.contains(n))
                    .sorted()
                    .collect(Collectors.toList());
        }
        assertTrue(
                missing.isEmpty(),
                "docs/README.md does not link " + missing
                        + ": add each under its group (per goal, algorithms, measured, internals) with a line on what it says");
    }

    @Test
    void everyLinkedPageExists() throws IOException {
        Path docs = docs();
        List<String> broken = new ArrayList<>();
        for (String target : linked(docs.resolve("README.md"))) {
            if (!Files.isRegularFile(docs.resolve(target))) {
                broken.add(target);
            }
        }
        assertTrue(broken.isEmpty(), "docs/README.md links pages that do not exist: " + broken);
    }
}
