package io.github.odrust.maven.fork;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Writes the plan file the jvm-agent reads (format in docs/protocol.md, "Plan file"). */
public final class PlanFile {
    public static final int VERSION = 1;

    private final StringBuilder text = new StringBuilder();

    public PlanFile(String mode, Path events) {
        line("odrust-plan", String.valueOf(VERSION));
        line("mode", mode);
        line("events", events.toAbsolutePath().toString());
    }

    public PlanFile frameworks(List<String> frameworks) {
        return line("frameworks", String.join(",", frameworks));
    }

    public PlanFile classpath(List<File> classpath) {
        for (File f : classpath) {
            line("classpath", f.getAbsolutePath());
        }
        return this;
    }

    public PlanFile systemProperties(Map<String, String> props) {
        props.forEach((k, v) -> line("sysprop", k, v));
        return this;
    }

    public PlanFile configurationParameters(Map<String, String> params) {
        params.forEach((k, v) -> line("config", k, v));
        return this;
    }

    public PlanFile candidate(String className) {
        return line("candidate", className);
    }

    public PlanFile segment(String framework, String className, List<String> tests) {
        line("segment", framework, className);
        for (String t : tests) {
            line("test", t);
        }
        return this;
    }

    public void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
    }

    private PlanFile line(String... fields) {
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                text.append('\t');
            }
            text.append(escape(fields[i]));
        }
        text.append('\n');
        return this;
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\':
                    b.append("\\\\");
                    break;
                case '\t':
                    b.append("\\t");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                default:
                    b.append(c);
            }
        }
        return b.toString();
    }
}
