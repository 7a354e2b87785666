package io.github.odrust.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The pages odrust writes as headless Chromium shows them (the OS package; .ci/run installs it). */
public final class HeadlessChromium {
    private HeadlessChromium() {}

    /** The DOM of {@code page} after its scripts ran, in a window {@code width} px wide; {@code dir}: scratch. */
    public static String dumpDom(Path page, int width, Path dir) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                chromium(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + dir.resolve("chrome-profile"),
                "--window-size=" + width + ",800",
                "--virtual-time-budget=2000",
                "--dump-dom",
                page.toUri().toString()));
        Process p = new ProcessBuilder(cmd)
                .redirectError(dir.resolve("chromium.err").toFile())
                .start();
        String dom = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not end");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("chromium.err")));
        Matcher body = Pattern.compile("<body[^>]*>").matcher(dom);
        assertTrue(body.find(), "no <body> in the DOM chromium printed:\n" + dom);
        return dom;
    }

    private static String chromium() {
        String given = System.getenv("ODRUST_CHROMIUM");
        if (given != null) {
            return given;
        }
        for (String name : new String[] {"chromium", "chromium-browser", "google-chrome"}) {
            for (String dirName : System.getenv("PATH").split(File.pathSeparator)) {
                File f = new File(dirName, name);
                if (f.canExecute()) {
                    return f.getPath();
                }
            }
        }
        throw new AssertionError(
                "no headless Chromium found: install the OS package (apt-get install chromium; .ci/run does)"
                        + " or set ODRUST_CHROMIUM to a Chrome/Chromium binary");
    }
}
