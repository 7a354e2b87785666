package io.github.odrust.maven.diagnose;

import io.github.odrust.maven.core.TestModule;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.project.MavenProject;

/**
 * Where the static state a diagnose capture holds lives by default (docs/diagnose.md, "What a
 * capture holds"): the module's class directories, and the jars of the project itself on its test
 * classpath — a test-utility module of the same reactor or any artifact of the module's groupId
 * (or of a parent's groupId) — where shared fixtures, registries and singletons of tests live.
 * Other libraries are captured only by {@code -Dodrust.diagnose.include} prefixes.
 */
final class CaptureRoots {
    /** The class directories on the test classpath (the module's own output, a sibling's in a reactor). */
    final List<File> directories = new ArrayList<>();
    /** The project's own jars on the test classpath. */
    final List<File> jars = new ArrayList<>();

    private CaptureRoots() {}

    static CaptureRoots of(TestModule module) {
        Set<String> groups = groupIds(module.project);
        Set<File> own = new LinkedHashSet<>();
        File top = topDirectory(module.project);
        if (module.project != null) {
            for (Artifact a : module.project.getArtifacts()) {
                File f = a.getFile();
                if (f != null && f.isFile() && (groups.contains(a.getGroupId()) || under(f, top))) {
                    own.add(f.getAbsoluteFile());
                }
            }
        }
        CaptureRoots r = new CaptureRoots();
        for (File entry : module.classpath) {
            if (entry.equals(module.agentJar)) {
                continue;
            }
            if (entry.isDirectory()) {
                r.directories.add(entry);
            } else if (own.contains(entry.getAbsoluteFile())) {
                r.jars.add(entry);
            }
        }
        return r;
    }

    /** Every root: the directories, then the jars. */
    List<File> all() {
        List<File> out = new ArrayList<>(directories);
        out.addAll(jars);
        return out;
    }

    /** The module's groupId and those of its parents. */
    static Set<String> groupIds(MavenProject project) {
        Set<String> out = new LinkedHashSet<>();
        for (MavenProject p = project; p != null; p = p.getParent()) {
            if (p.getGroupId() != null) {
                out.add(p.getGroupId());
            }
        }
        return out;
    }

    /** The directory of the topmost parent that is on disk (the reactor's root, usually); null when none. */
    private static File topDirectory(MavenProject project) {
        File top = null;
        for (MavenProject p = project; p != null; p = p.getParent()) {
            if (p.getBasedir() != null) {
                top = p.getBasedir();
            }
        }
        return top;
    }

    private static boolean under(File f, File dir) {
        return dir != null
                && f.getAbsoluteFile()
                        .toPath()
                        .normalize()
                        .startsWith(dir.getAbsoluteFile().toPath().normalize());
    }
}
