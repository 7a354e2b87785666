package io.github.odrust.maven.detect;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.project.MavenProject;

/** One line per module of a multi-module build, printed after the reactor's last module. */
public final class ReactorSummary {
    /** Per build: module id to its line, in the order the modules finished. */
    private static final Map<MavenSession, Map<String, String>> SUMMARIES = new WeakHashMap<>();

    private ReactorSummary() {}

    /** Records {@code project}'s line; when it is the reactor's last module (of several), prints them all. */
    public static void add(MavenSession session, MavenProject project, String module, String line, Log log) {
        Map<String, String> lines;
        synchronized (SUMMARIES) {
            lines = SUMMARIES.computeIfAbsent(session, s -> new LinkedHashMap<>());
            lines.put(module, line);
        }
        List<MavenProject> projects = session.getProjects();
        if (projects.size() > 1 && projects.get(projects.size() - 1).equals(project)) {
            log.info("odrust summary (" + lines.size() + " modules):");
            lines.forEach((m, l) -> log.info("  " + m + ": " + l));
        }
    }
}
