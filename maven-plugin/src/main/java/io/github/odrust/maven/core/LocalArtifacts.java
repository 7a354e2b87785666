package io.github.odrust.maven.core;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Versions of an artifact present in the local repository, for a build that is offline: when the
 * version odrust would add (the one Surefire aligns with the module's JUnit Platform) is not there,
 * one of the same major and minor version is as good to run the tests with, and is what an
 * offline {@code mvn test} could have found.
 */
public final class LocalArtifacts {
    private LocalArtifacts() {}

    /**
     * The highest version of {@code groupId:artifactId} in {@code repository} (a local repository's
     * directory) with the same major and minor version as {@code wanted} and its jar present, or null.
     */
    public static String sameMinor(File repository, String groupId, String artifactId, String wanted) {
        if (repository == null) {
            return null;
        }
        File dir = new File(repository, groupId.replace('.', File.separatorChar) + File.separator + artifactId);
        String[] names = dir.list();
        if (names == null) {
            return null;
        }
        String prefix = minor(wanted);
        List<String> candidates = new ArrayList<>();
        for (String version : names) {
            if (prefix != null
                    && prefix.equals(minor(version))
                    && new File(dir, version + File.separator + artifactId + "-" + version + ".jar").isFile()) {
                candidates.add(version);
            }
        }
        candidates.sort(LocalArtifacts::compare);
        return candidates.isEmpty() ? null : candidates.get(candidates.size() - 1);
    }

    /** {@code 1.9} of {@code 1.9.3} (null without a minor part). */
    static String minor(String version) {
        String[] parts = version.split("[.-]");
        return parts.length < 2 ? null : parts[0] + "." + parts[1];
    }

    /** Numeric parts compared as numbers, a qualifier ({@code -M1}, {@code -RC2}) before the release. */
    static int compare(String a, String b) {
        int[] x = numbers(a);
        int[] y = numbers(b);
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int p = i < x.length ? x[i] : 0;
            int q = i < y.length ? y[i] : 0;
            if (p != q) {
                return Integer.compare(p, q);
            }
        }
        return Boolean.compare(!a.contains("-"), !b.contains("-"));
    }

    private static int[] numbers(String version) {
        String release = version.contains("-") ? version.substring(0, version.indexOf('-')) : version;
        return Arrays.stream(release.split("\\."))
                .mapToInt(p -> p.matches("\\d{1,9}") ? Integer.parseInt(p) : 0)
                .toArray();
    }
}
