package io.github.odrust.maven.surefire;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.lifecycle.internal.MojoDescriptorCreator;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.BuildPluginManager;
import org.apache.maven.plugin.MavenPluginManager;
import org.apache.maven.plugin.Mojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.descriptor.MojoDescriptor;
import org.apache.maven.plugin.descriptor.Parameter;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * Reads a module's effective Surefire configuration by asking Maven to configure the module's own
 * {@code maven-surefire-plugin:test} mojo (without executing it) and reading its fields. This is
 * the only way to see what Surefire would see: defaults of that Surefire version, {@code -DargLine}
 * style user properties, {@code <properties>} expressions, and the {@code default-test} execution.
 */
public final class SurefireSettingsReader {
    static final String SUREFIRE_KEY = "org.apache.maven.plugins:maven-surefire-plugin";

    private final BuildPluginManager buildPluginManager;
    private final MavenPluginManager mavenPluginManager;
    private final MavenSession session;

    public SurefireSettingsReader(
            BuildPluginManager buildPluginManager, MavenPluginManager mavenPluginManager, MavenSession session) {
        this.buildPluginManager = buildPluginManager;
        this.mavenPluginManager = mavenPluginManager;
        this.session = session;
    }

    public SurefireSettings read(MavenProject project) throws MojoExecutionException {
        Plugin plugin = project.getBuild().getPluginsAsMap().get(SUREFIRE_KEY);
        if (plugin == null) {
            throw new MojoExecutionException("module " + project.getId() + " has no maven-surefire-plugin in its build"
                    + " (packaging " + project.getPackaging() + "), so there is no test configuration to honour."
                    + " Run odrust on a module with packaging jar (e.g. with -pl <module>).");
        }
        MojoExecution execution;
        try {
            PluginDescriptor pluginDescriptor = buildPluginManager.loadPlugin(
                    plugin, project.getRemotePluginRepositories(), session.getRepositorySession());
            MojoDescriptor mojoDescriptor = pluginDescriptor.getMojo("test");
            if (mojoDescriptor == null) {
                throw new MojoExecutionException(
                        "maven-surefire-plugin " + plugin.getVersion() + " has no 'test' goal");
            }
            buildPluginManager.getPluginRealm(session, pluginDescriptor);
            execution = new MojoExecution(mojoDescriptor, "default-test", MojoExecution.Source.LIFECYCLE);
            execution.setConfiguration(finalConfiguration(mojoDescriptor, executionConfiguration(plugin)));
        } catch (MojoExecutionException e) {
            throw e;
        } catch (Exception e) {
            throw new MojoExecutionException(
                    "could not load maven-surefire-plugin " + plugin.getVersion()
                            + " to read this module's test configuration: " + e.getMessage(),
                    e);
        }

        Mojo mojo = null;
        MavenProject current = session.getCurrentProject();
        try {
            // Expressions are evaluated against the session's current project.
            session.setCurrentProject(project);
            mojo = mavenPluginManager.getConfiguredMojo(Mojo.class, session, execution);
            SurefireSettings s = fromMojo(mojo);
            s.surefireVersion = plugin.getVersion();
            return s;
        } catch (Exception e) {
            throw new MojoExecutionException(
                    "could not evaluate the configuration of maven-surefire-plugin " + plugin.getVersion() + " in "
                            + project.getId() + ": " + e.getMessage(),
                    e);
        } finally {
            session.setCurrentProject(current);
            if (mojo != null) {
                mavenPluginManager.releaseMojo(mojo, execution);
            }
        }
    }

    /** The configuration of the default-test execution (Maven has already merged the plugin-level one into it). */
    private static Xpp3Dom executionConfiguration(Plugin plugin) {
        for (PluginExecution e : plugin.getExecutions()) {
            if ("default-test".equals(e.getId()) && e.getConfiguration() != null) {
                return (Xpp3Dom) e.getConfiguration();
            }
        }
        Object c = plugin.getConfiguration();
        return c == null ? new Xpp3Dom("configuration") : new Xpp3Dom((Xpp3Dom) c);
    }

    /** Adds each parameter's expression and default, as Maven's lifecycle planner does before running a mojo. */
    private static Xpp3Dom finalConfiguration(MojoDescriptor mojoDescriptor, Xpp3Dom executionConfiguration) {
        Xpp3Dom result = new Xpp3Dom("configuration");
        Xpp3Dom defaults = MojoDescriptorCreator.convert(mojoDescriptor);
        for (Parameter p : mojoDescriptor.getParameters()) {
            Xpp3Dom value = executionConfiguration.getChild(p.getName());
            if (value == null && p.getAlias() != null) {
                value = executionConfiguration.getChild(p.getAlias());
            }
            Xpp3Dom merged = Xpp3Dom.mergeXpp3Dom(value, defaults.getChild(p.getName()), Boolean.TRUE);
            if (merged != null) {
                merged = new Xpp3Dom(merged, p.getName());
                if ((merged.getAttribute("implementation") == null
                                || merged.getAttribute("implementation").isEmpty())
                        && p.getImplementation() != null
                        && !p.getImplementation().isEmpty()) {
                    merged.setAttribute("implementation", p.getImplementation());
                }
                result.addChild(merged);
            }
        }
        return result;
    }

    SurefireSettings fromMojo(Object mojo) throws IOException {
        SurefireSettings s = new SurefireSettings();
        s.testClassesDirectory = (File) field(mojo, "testClassesDirectory");
        s.classesDirectory = (File) field(mojo, "classesDirectory");
        s.reportsDirectory = (File) field(mojo, "reportsDirectory");
        s.argLine = (String) field(mojo, "argLine");
        s.workingDirectory = (File) field(mojo, "workingDirectory");
        s.jvm = (String) field(mojo, "jvm");
        Object ea = field(mojo, "enableAssertions");
        s.enableAssertions = ea == null || (Boolean) ea;
        s.additionalClasspathElements = strings(field(mojo, "additionalClasspathElements"));
        s.classpathDependencyExcludes = strings(field(mojo, "classpathDependencyExcludes"));
        s.classpathDependencyScopeExclude = (String) field(mojo, "classpathDependencyScopeExclude");
        s.includes = strings(field(mojo, "includes"));
        s.excludes = strings(field(mojo, "excludes"));
        s.includesFile = file(field(mojo, "includesFile"));
        s.excludesFile = file(field(mojo, "excludesFile"));
        Object runOrder = field(mojo, "runOrder");
        if (runOrder != null) {
            s.runOrder = runOrder.toString();
        }
        Object seed = field(mojo, "runOrderRandomSeed");
        s.runOrderRandomSeed = seed instanceof Long ? (Long) seed : null;
        Object forkCount = field(mojo, "forkCount");
        if (forkCount != null) {
            s.forkCount = forkCount.toString();
        }
        Object reuse = field(mojo, "reuseForks");
        s.reuseForks = reuse == null || (Boolean) reuse;
        // a property left empty (<excludedGroups>${excludedGroups}</excludedGroups>) sets nothing
        s.groups = blankIsNull((String) field(mojo, "groups"));
        s.excludedGroups = blankIsNull((String) field(mojo, "excludedGroups"));
        s.test = (String) field(mojo, "test");
        Object timeout = field(mojo, "forkedProcessTimeoutInSeconds");
        s.forkedProcessTimeoutInSeconds =
                timeout instanceof Integer && (Integer) timeout > 0 ? (Integer) timeout : null;
        s.excludedEnvironmentVariables = strings(field(mojo, "excludedEnvironmentVariables"));
        putAll(s.environmentVariables, field(mojo, "environmentVariables"));

        // Surefire's precedence: systemProperties < systemPropertiesFile < systemPropertyVariables < user properties.
        putAll(s.systemProperties, field(mojo, "systemProperties"));
        Object file = field(mojo, "systemPropertiesFile");
        if (file instanceof File && ((File) file).isFile()) {
            Properties p = new Properties();
            try (InputStream in = new FileInputStream((File) file)) {
                p.load(in);
            }
            putAll(s.systemProperties, p);
        }
        putAll(s.systemProperties, field(mojo, "systemPropertyVariables"));
        putAll(s.systemProperties, session.getUserProperties());

        Object props = field(mojo, "properties");
        if (props instanceof Properties) {
            String params = ((Properties) props).getProperty("configurationParameters");
            if (params != null) {
                Properties p = new Properties();
                p.load(new StringReader(params));
                putAll(s.junitPlatformConfiguration, p);
            }
        }
        return s;
    }

    /** The value of a field declared by the mojo class or a superclass, or null when that Surefire version has none. */
    private static String blankIsNull(String s) {
        return s == null || s.trim().isEmpty() ? null : s.trim();
    }

    static Object field(Object target, String name) {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            } catch (IllegalAccessException e) {
                return null;
            }
        }
        return null;
    }

    static File file(Object value) {
        return value instanceof File ? (File) value : null;
    }

    static List<String> strings(Object value) {
        List<String> out = new ArrayList<>();
        if (value instanceof Object[]) {
            for (Object o : (Object[]) value) {
                addTrimmed(out, o);
            }
        } else if (value instanceof Collection) {
            for (Object o : (Collection<?>) value) {
                addTrimmed(out, o);
            }
        } else if (value != null) {
            for (String part : value.toString().split(",")) {
                addTrimmed(out, part);
            }
        }
        return out;
    }

    private static void addTrimmed(List<String> out, Object o) {
        if (o != null && !o.toString().trim().isEmpty()) {
            out.add(o.toString().trim());
        }
    }

    private static void putAll(Map<String, String> into, Object map) {
        if (map instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) map).entrySet()) {
                if (e.getKey() != null && e.getValue() != null) {
                    into.put(e.getKey().toString(), e.getValue().toString());
                } else if (e.getKey() != null) {
                    // Surefire passes an empty value for <name/> in systemPropertyVariables.
                    into.put(e.getKey().toString(), "");
                }
            }
        }
    }
}
