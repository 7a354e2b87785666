package io.github.odrust.maven.surefire;

import java.io.File;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.surefire.api.util.RunOrder;

/**
 * Finds the test classes Surefire would run, in the order it would run them: the compiled classes
 * under {@code testClassesDirectory} that Surefire's {@link TestSelection} keeps, listed the way
 * Surefire's {@code FileScanner} lists them (directory order, depth first), then sorted by the
 * first {@code runOrder} as Surefire's {@code DefaultRunOrderCalculator} sorts them. Warnings for
 * settings it cannot reproduce go to {@link #warnings()}.
 */
public final class TestClassScanner {
    private static final String CLASS = ".class";

    private final List<String> warnings = new ArrayList<>();
    private TestSelection selection;

    public List<String> warnings() {
        return warnings;
    }

    /** The selection of the last {@link #scan}: which classes and methods Surefire runs. */
    public TestSelection selection() {
        return selection;
    }

    public List<String> scan(SurefireSettings settings) throws MojoExecutionException {
        selection = TestSelection.of(settings);
        RunOrder runOrder = runOrder(settings.runOrder);
        File root = settings.testClassesDirectory;
        if (root == null || !root.isDirectory()) {
            return new ArrayList<>();
        }
        List<String> classes = new ArrayList<>();
        walk(root, "", classes);
        return order(classes, runOrder, settings.runOrderRandomSeed);
    }

    private void walk(File dir, String prefix, List<String> out) {
        File[] entries = dir.listFiles();
        if (entries == null) {
            return;
        }
        for (File f : entries) {
            String rel = prefix + f.getName();
            if (f.isFile()) {
                int end = rel.length() - CLASS.length();
                if (end > prefix.length()
                        && rel.regionMatches(true, end, CLASS, 0, CLASS.length())
                        && selection.selectsClassFile(rel.substring(0, end) + CLASS)) {
                    out.add(rel.substring(0, end).replace('/', '.'));
                }
            } else if (f.isDirectory()) {
                walk(f, rel + "/", out);
            }
        }
    }

    /** Surefire applies only the first of a comma-separated runOrder; an unknown name is an error, with Surefire's message. */
    static RunOrder runOrder(String value) throws MojoExecutionException {
        try {
            RunOrder[] all = value == null ? RunOrder.DEFAULT : RunOrder.valueOfMulti(value.trim());
            return all.length == 0 ? RunOrder.FILESYSTEM : all[0];
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("Surefire's runOrder=" + value + " is not valid: " + e.getMessage(), e);
        }
    }

    private List<String> order(List<String> classes, RunOrder runOrder, Long seed) {
        List<String> result = new ArrayList<>(classes);
        if (RunOrder.ALPHABETICAL.equals(runOrder)) {
            result.sort(Comparator.naturalOrder());
        } else if (RunOrder.REVERSE_ALPHABETICAL.equals(runOrder)) {
            result.sort(Comparator.reverseOrder());
        } else if (RunOrder.HOURLY.equals(runOrder)) {
            boolean even = LocalDateTime.now().getHour() % 2 == 0;
            result.sort(even ? Comparator.naturalOrder() : Comparator.reverseOrder());
        } else if (RunOrder.RANDOM.equals(runOrder)) {
            if (seed == null) {
                warnings.add("runOrder=random without runOrder.random.seed: mvn test uses a new order every run;"
                        + " odrust's original order uses seed 0. Set runOrder.random.seed to pin it.");
            }
            Collections.shuffle(result, new Random(seed != null ? seed : 0L));
        } else if (RunOrder.FAILEDFIRST.equals(runOrder) || RunOrder.BALANCED.equals(runOrder)) {
            warnings.add("runOrder=" + runOrder + " depends on Surefire's run statistics, which odrust does not"
                    + " read; the original order uses the filesystem order instead.");
        }
        return result;
    }
}
