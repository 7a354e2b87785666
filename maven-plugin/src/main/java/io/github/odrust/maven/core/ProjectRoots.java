package io.github.odrust.maven.core;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.project.MavenProject;

/**
 * The project's own code on a module's test classpath: its class directories, and the jars of the
 * project itself — a module of the same reactor or any artifact of the module's groupId (or of a
 * parent's groupId). A diagnose capture holds their static state by default (docs/diagnose.md,
 * "What a capture holds"; other libraries only by {@code -Dodrust.diagnose.include} prefixes);
 * incremental selection reads their classes (docs/incremental.md, "Jars").
 */
public final class ProjectRoots {
    /** The class directories on the test classpath (the module's own output, a sibling's in a reactor). */
    public final List<File> directories = new ArrayList<>();
    /** The project's own jars on the test classpath. */
    public final List<File> jars = new ArrayList<>();

    private ProjectRoots() {}

    public static ProjectRoots of(TestModule module) {
        Set<String> groups = groupIds(module.project);
        Set<File> own = new LinkedHashSet<>();
        File top = topDirectory(module.project);
        File repository = localRepository(module.project);
        if (module.project != null) {
            for (Artifact a : module.project.getArtifacts()) {
                File f = a.getFile();
                if (f != null
                        && f.isFile()
                        && (groups.contains(a.getGroupId()) || (under(f, top) && !under(f, repository)))) {
                    own.add(f.getAbsoluteFile());
                }
            }
        }
        ProjectRoots r = new ProjectRoots();
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
    public List<File> all() {
        List<File> out = new ArrayList<>(directories);
        out.addAll(jars);
        return out;
    }

    /**
     * The module's groupId and those of its parents that are part of the build (on disk): a parent
     * pom from a repository (spring-boot-starter-parent, oss-parent) does not make its groupId's
     * libraries the project's own.
     */
    public static Set<String> groupIds(MavenProject project) {
        Set<String> out = new LinkedHashSet<>();
        for (MavenProject p = project; p != null; p = p.getParent()) {
            if (p.getGroupId() != null && (p == project || onDisk(p))) {
                out.add(p.getGroupId());
            }
        }
        return out;
    }

    /** The directory of the topmost parent on disk (the reactor's root, usually); null when none. */
    private static File topDirectory(MavenProject project) {
        File top = null;
        for (MavenProject p = project; p != null; p = p.getParent()) {
            if (p.getBasedir() != null && (p == project || onDisk(p))) {
                top = p.getBasedir();
            }
        }
        return top;
    }

    /** Whether {@code p} is a pom of this build on disk, not one resolved from a repository ({@code *.pom}). */
    private static boolean onDisk(MavenProject p) {
        File f = p.getFile();
        return f != null && f.isFile() && !f.getName().endsWith(".pom");
    }

    /** The local repository's directory (a CI may keep it inside the project), or null. */
    private static File localRepository(MavenProject project) {
        try {
            return project.getProjectBuildingRequest()
                    .getRepositorySession()
                    .getLocalRepository()
                    .getBasedir();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static boolean under(File f, File dir) {
        return dir != null
                && f.getAbsoluteFile()
                        .toPath()
                        .normalize()
                        .startsWith(dir.getAbsoluteFile().toPath().normalize());
    }
}
