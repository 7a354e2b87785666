package io.github.odrust.maven.fork;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A jar holding only a manifest whose {@code Class-Path} is the test classpath, as Surefire's
 * default {@code useManifestOnlyJar} does: it keeps command lines short for any classpath length,
 * and tests see the same {@code java.class.path} shape they see under {@code mvn test}.
 */
public final class ManifestJar {
    private ManifestJar() {}

    public static void write(Path jar, List<File> classpath, String mainClass) throws IOException {
        Manifest manifest = new Manifest();
        Attributes a = manifest.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.put(Attributes.Name.MAIN_CLASS, mainClass);
        StringBuilder cp = new StringBuilder();
        Path base = jar.toAbsolutePath().getParent();
        for (File f : classpath) {
            if (cp.length() > 0) {
                cp.append(' ');
            }
            cp.append(entry(base, f));
        }
        a.put(Attributes.Name.CLASS_PATH, cp.toString());
        Files.createDirectories(base);
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream j = new JarOutputStream(out, manifest)) {
            j.flush();
        }
    }

    /** A URL relative to the jar's folder (Class-Path entries are URLs); directories end in '/'. */
    static String entry(Path base, File f) {
        Path target = f.toPath().toAbsolutePath().normalize();
        String rel;
        try {
            rel = base.relativize(target).toString().replace(File.separatorChar, '/');
        } catch (IllegalArgumentException e) {
            return target.toUri().toString();
        }
        StringBuilder b = new StringBuilder();
        for (String part : rel.split("/", -1)) {
            if (b.length() > 0) {
                b.append('/');
            }
            b.append(encode(part));
        }
        if (f.isDirectory()) {
            b.append('/');
        }
        return b.toString();
    }

    private static String encode(String segment) {
        StringBuilder b = new StringBuilder();
        for (byte by : segment.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = by & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-_.~+".indexOf(c) >= 0) {
                b.append((char) c);
            } else {
                b.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return b.toString();
    }
}
